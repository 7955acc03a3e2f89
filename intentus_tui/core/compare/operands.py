"""One side of a comparison: a record, a Verist snapshot or baseline, or an Active Graph run.

``file_operand`` reads and classifies a file (a record is accepted wherever a snapshot is);
``run_operand`` reads ``RUNS.db#RUN_ID``; ``record_operand`` and ``load_result_operand`` wrap a
record already read. A file that is neither says so in one ``CompareError`` line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

if TYPE_CHECKING:  # activegraph imports this package (find_divergence): imported where used
    from intentus_tui.core.activegraph import GraphEvent, RunInfo
    from intentus_tui.core.records.load import LoadResult
    from intentus_tui.core.verist.snapshot import Snapshot
OperandKind: TypeAlias = Literal["record", "snapshot", "run"]


class CompareError(Exception):
    """An operand that cannot be read or compared; the message is one line for a person."""


@dataclass(frozen=True)
class Operand:
    """One side of a comparison, read and classified. ``label`` is what names it to a person."""

    label: str
    kind: OperandKind
    record: Mapping[str, Any] | None = None
    snapshot: Snapshot | None = None
    run: RunInfo | None = None
    events: tuple[GraphEvent, ...] = ()
    db_path: Path | None = None
    note: str | None = None  # e.g. "damaged record, compared what was recovered: ..."
    path: Path | None = None  # the record's file: names a side when two copies share an id

    def describe(self) -> dict[str, Any]:
        """What was read, as plain JSON values (raw text: sanitize before printing)."""
        out: dict[str, Any] = {"source": self.label, "kind": self.kind}
        if self.record is not None:
            header = self.record.get("header")
            execution_id = header.get("executionId") if isinstance(header, dict) else None
            out["execution_id"] = execution_id if isinstance(execution_id, str) else None
        if self.snapshot is not None:
            out["workflow_id"] = self.snapshot.workflow_id
            out["step_name"] = self.snapshot.step_name
            out["input_hash"] = self.snapshot.input_hash
        if self.run is not None:
            out.update(
                run_id=self.run.run_id,
                parent_run_id=self.run.parent_run_id,
                forked_at_event_id=self.run.forked_at_event_id,
                label=self.run.label,
                event_count=len(self.events),
            )
        if self.note:
            out["note"] = self.note
        return out


def record_operand(
    label: str, record: Mapping[str, Any], note: str | None = None, path: Path | None = None
) -> Operand:
    """A record already read (``LoadResult.record.raw``), from the file ``path``."""
    return Operand(label, "record", record=record, note=note, path=path)


def load_result_operand(label: str, result: LoadResult) -> Operand:
    """The record of a load result (which must have one); a damaged file says so in ``note``."""
    from intentus_tui.core.records.load import LoadStatus

    assert result.record is not None
    note = None
    if result.status is LoadStatus.SALVAGED:
        note = f"damaged record, compared what was recovered: {result.message}"
    return record_operand(label, dict(result.record.raw), note, result.path)


def run_operand(label: str, db_path: str | Path, run_id: str) -> Operand:
    """Run ``run_id`` of an Active Graph database (``RUNS.db#RUN_ID``), or ``CompareError``."""
    from intentus_tui.core.activegraph import ActiveGraphError, RunDatabase

    if not run_id:
        raise CompareError(f"{label}: name a run after '#' (RUNS.db#RUN_ID)")
    try:
        with RunDatabase(db_path) as db:
            run = db.run(run_id)
            events = db.run_events(run_id)
    except ActiveGraphError as exc:
        raise CompareError(str(exc)) from None
    return Operand(label, "run", run=run, events=tuple(events), db_path=Path(db_path))


def _run_names(path: Path) -> str:
    from intentus_tui.core.activegraph import ActiveGraphError, RunDatabase

    try:
        with RunDatabase(path) as db:
            runs = db.list_runs()
    except ActiveGraphError as exc:
        return f" ({exc})"
    return f"; runs: {', '.join(r.run_id for r in runs)}" if runs else "; it holds no runs"


def file_operand(
    label: str, path: Path, *, prefer: Literal["record", "snapshot"] = "record"
) -> Operand:
    """A record, snapshot or baseline file, or ``CompareError`` with one clear line.

    ``prefer="snapshot"`` reads the file as a snapshot first and reports the snapshot
    reader's problem when it is neither (for a person who was asked for a snapshot file);
    a record given there is still compared as a record.
    """
    from intentus_tui.core.activegraph import is_sqlite_file
    from intentus_tui.core.records.load import LoadStatus, load_record_file
    from intentus_tui.core.verist.snapshot import SnapshotError, load_snapshot

    if path.is_dir():
        raise CompareError(
            f"{label} is a directory: name a record file, a record id or a snapshot file"
        )
    if path.is_file() and is_sqlite_file(path):
        raise CompareError(
            f"{label} is a SQLite database: name a run as {label}#RUN_ID{_run_names(path)}"
        )
    if prefer == "snapshot":
        try:
            return Operand(label, "snapshot", snapshot=load_snapshot(path))
        except (SnapshotError, OSError) as exc:
            snapshot_problem = str(exc)
        result = load_record_file(path)
        if result.record is None:
            raise CompareError(snapshot_problem)
    else:
        result = load_record_file(path)
    if result.record is not None:
        return load_result_operand(label, result)
    if result.status is LoadStatus.NOT_RECORD:
        try:
            return Operand(label, "snapshot", snapshot=load_snapshot(path))
        except SnapshotError as exc:
            raise CompareError(f"{label}: neither a record nor a snapshot: {exc}") from None
    raise CompareError(f"{label}: {result.message}")
