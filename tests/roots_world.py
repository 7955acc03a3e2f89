"""Two hosts' worth of records for the several-roots and remote tests: each an
``.intentusnet`` tree written by the real intentusnet 1.3.0 (records and a WAL)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from tests.core.wal.support import write_completed
from tests.intentusnet_world import RealWorld

WAL_ONLY_ID = "7a1e0c55-0b7e-4f0e-9a0e-5b8f3f1d2c44"


@dataclass(frozen=True)
class Host:
    base: Path  # holds .intentusnet
    records: Path
    wal: Path
    ids: list[str]  # record ids


def copy_host(world: RealWorld, base: Path, *, with_wal: bool = True) -> Host:
    """A copy of the real world's records under ``base/.intentusnet``, with a real WAL of
    an execution that has no record."""
    records = base / ".intentusnet" / "records"
    shutil.copytree(world.records_dir, records)
    wal = base / ".intentusnet" / "wal"
    wal.mkdir()
    if with_wal:
        write_completed(wal, WAL_ONLY_ID)
    ids = sorted(p.stem for p in records.glob("*.json"))
    return Host(base, records, wal, ids)
