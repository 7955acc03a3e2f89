"""Record directories with chosen execution ids and times, written by the real IntentusNet
1.3.0: its ``FileExecutionStore`` saves copies of the real records under new ids, and
its ``WALWriter`` writes the logs of executions that left no record."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

from intentusnet.recording.store import FileExecutionStore as RealStore
from intentusnet.wal.writer import WALWriter

from tests.intentusnet_world import RealWorld


def copy_real_world(real_world: RealWorld, base: Path) -> Path:
    """``base/.intentusnet/records`` holding the real world's four records; returns the
    records directory."""
    records = base / ".intentusnet" / "records"
    shutil.copytree(real_world.records_dir, records)
    return records


def save_as(records: Path, source_id: str, new_id: str, created: str | None = None) -> None:
    """The real store saves the record ``source_id`` again as ``new_id`` (and ``created``)."""
    store = RealStore(str(records))
    record = store.load(source_id)
    header = dataclasses.replace(record.header, executionId=new_id)
    if created is not None:
        header = dataclasses.replace(header, createdUtcIso=created)
    record.header = header
    store.save(record)


def write_wal_only(wal_dir: Path, execution_id: str, *, completed: bool = True) -> Path:
    """A real WAL of an execution that never wrote its record."""
    with WALWriter(str(wal_dir), execution_id) as writer:
        writer.execution_started("ab" * 32, "Summarize")
        writer.step_started("step-1", "summarizer", "read_only", {}, "in-1")
        writer.step_completed("step-1", "out-1", True)
        if completed:
            writer.execution_completed("cd" * 32)
    return wal_dir / f"{execution_id}.wal"
