"""What the bundle tests share: a record root written by the real IntentusNet 1.3.0 (records
from its runtime and store, logs from its ``WALWriter``, a snapshot saved as the debugger
saves one), and tarballs crafted by hand."""

from __future__ import annotations

import gzip
import io
import json
import tarfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from intentusnet.recording.models import stable_hash

from intentus_tui.core.actions import load_detail, save_snapshot
from tests.intentusnet_world import RealWorld
from tests.real_ids import copy_real_world, write_wal_only

WAL_ONLY = "0a11c1ea-0000-4000-8000-0000000b0a1d"


@dataclass(frozen=True)
class BundleWorld:
    base: Path  # the .intentusnet directory
    success: str  # a record with its WAL and a saved snapshot
    fallback: str
    invalidated: str
    truncated: str  # the record 1.3.0 leaves truncated on an error response
    wal_only: str  # no record: only its WAL

    @property
    def records(self) -> Path:
        return self.base / "records"

    @property
    def wal(self) -> Path:
        return self.base / "wal"


def build_bundle_world(real_world: RealWorld, tmp_path: Path) -> BundleWorld:
    records = copy_real_world(real_world, tmp_path)
    base = records.parent
    (base / "wal").mkdir()
    write_wal_only(base / "wal", real_world.success)  # the success's own log
    write_wal_only(base / "wal", WAL_ONLY, completed=True)
    detail = load_detail(records / f"{real_world.success}.json", base / "wal")
    save_snapshot(detail, base / "snapshots")
    return BundleWorld(
        base,
        real_world.success,
        real_world.fallback,
        real_world.invalidated,
        real_world.error_truncated,
        WAL_ONLY,
    )


def member(name: str, data: bytes = b"", **fields: object) -> tuple[tarfile.TarInfo, bytes | None]:
    """A tar member; ``fields`` set TarInfo attributes (type, linkname, size, ...)."""
    info = tarfile.TarInfo(name)
    info.size = len(data)
    for key, value in fields.items():
        setattr(info, key, value)
    return info, (data if info.isreg() and info.size == len(data) else None)


def write_tarball(path: Path, members: list[tuple[tarfile.TarInfo, bytes | None]]) -> Path:
    """A .tar.gz of exactly these members (a claimed size without its data: header only)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    path.write_bytes(gzip.compress(buffer.getvalue()))
    return path


def read_members(path: Path) -> list[tuple[tarfile.TarInfo, bytes]]:
    """Every member of a bundle with its data."""
    out = []
    with tarfile.open(path, "r:gz") as tar:
        for info in tar.getmembers():
            source = tar.extractfile(info)
            out.append((info, source.read() if source is not None else b""))
    return out


def repack(source: Path, target: Path, name: str, change: int) -> Path:
    """``source`` again with one byte of member ``name`` changed (at offset ``change``)."""
    members = []
    for info, data in read_members(source):
        if info.name == name:
            changed = bytearray(data)
            changed[change] = ord("0") if changed[change] != ord("0") else ord("1")
            data = bytes(changed)
        members.append((info, data))
    return write_tarball(target, members)


def edit_record(
    source: Path, target: Path, name: str, edit: Callable[[dict[str, Any]], None]
) -> Path:
    """``source`` again with its record member ``name`` edited (``edit`` changes its JSON in
    place), every other member and the manifest as they were: a record changed since it
    was bundled."""
    members = []
    for info, data in read_members(source):
        if info.name == name:
            record = json.loads(data)
            edit(record)
            data = json.dumps(record, ensure_ascii=False, indent=2).encode()
            info.size = len(data)
        members.append((info, data))
    return write_tarball(target, members)


def forge_envelope(record: dict[str, Any]) -> None:
    """Another question in the envelope, and its envelopeHash made again by IntentusNet
    1.3.0's own hasher: the record's own checks pass; only the manifest knows."""
    record["envelope"]["payload"] = {"text": "a question never asked"}
    record["header"]["envelopeHash"] = stable_hash(record["envelope"])
