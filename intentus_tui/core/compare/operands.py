"""One side of a comparison: a record, a Verist snapshot or baseline, or an Active Graph run.

``file_operand`` reads and classifies a file (a record is accepted wherever a snapshot is);
``run_operand`` reads ``RUNS.db#RUN_ID``; ``record_operand`` and ``load_result_operand`` wrap a
record already read. A file that is neither says so in one ``CompareError`` line.

A record read from a file carries its execution's verdict (``Operand.verdict``), made as
``load_detail`` makes it (``core.detail``: the record joined with its write-ahead log when
``wal_dir`` has one), so that every view of a comparison shows the verdict every other screen
shows; ``untrusted_warning`` says when a side's evidence fails its integrity check. Snapshots,
baselines and runs have no verdict.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from intentus_tui.core.fsio import FileLook, file_look
from intentus_tui.core.model import Verdict, recovered_note

if TYPE_CHECKING:  # activegraph imports this package (find_divergence): imported where used
    from intentus_tui.core.activegraph import GraphEvent, RunInfo
    from intentus_tui.core.records.load import LoadResult
    from intentus_tui.core.verist.snapshot import Snapshot
    from intentus_tui.core.wal.read import WalLog
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
    # The record's file (names a side when two copies share an id), or the snapshot's.
    path: Path | None = None
    # A record's execution verdict, as every screen shows it (``load_detail``'s); None for a
    # snapshot, baseline or run, and for a record given as a bare value.
    verdict: Verdict | None = None
    baseline: bool = False  # a snapshot read from a ``verist-baseline@1`` file
    # ``path`` as it was just before it was read (``fsio.file_look``): a later change shows.
    read_look: FileLook | None = None
    # A snapshot or baseline whose content no longer hashes to what it recorded (``note``
    # says where): what it holds fails its own integrity check, as a tampered record does.
    changed: bool = False

    @property
    def noun(self) -> str:
        """What it is, as a title says it: ``record``, ``snapshot``, ``baseline``, ``run``."""
        return "baseline" if self.baseline else self.kind

    @property
    def untrusted(self) -> bool:
        """The side's evidence fails its integrity check (tampered, its log's chain broken, a
        snapshot changed since it was saved)."""
        return self.changed or (self.verdict is not None and not self.verdict.trusted)

    def describe(self) -> dict[str, Any]:
        """What was read, as plain JSON values (raw text: sanitize before printing); a
        record's ``verdict`` as ``inspect ID --json`` gives it (null when unknown)."""
        out: dict[str, Any] = {"source": self.label, "kind": self.kind}
        if self.record is not None:
            header = self.record.get("header")
            execution_id = header.get("executionId") if isinstance(header, dict) else None
            out["execution_id"] = execution_id if isinstance(execution_id, str) else None
        if self.kind == "record":
            from intentus_tui.core.detail import verdict_json

            out["verdict"] = None if self.verdict is None else verdict_json(self.verdict)
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


# What a warning about an untrusted side says its differences are worth.
_DIFFERENCES = "differences come from evidence that fails its integrity check"
UNTRUSTED_DIFFERENCES = f"its {_DIFFERENCES}"


def untrusted_warning(name: str, operand: Operand, *, reason: bool = False) -> str | None:
    """``B is untrusted (integrity tampered): its differences come from evidence that fails
    its integrity check`` for a side (``name``: A or B) whose verdict is untrusted, with the
    verdict's integrity reason in parentheses after it when ``reason``; None for any other
    side. Raw text."""
    verdict = operand.verdict
    if verdict is None or verdict.trusted:
        return None
    text = f"{name} is untrusted (integrity {_integrity_words(verdict)}): {UNTRUSTED_DIFFERENCES}"
    return f"{text} ({verdict.integrity_reason})" if reason else text


EQUAL = "equal"
UNTRUSTED_EVIDENCE = "from untrusted evidence"
EQUAL_UNTRUSTED = f"{EQUAL}, {UNTRUSTED_EVIDENCE}"


def from_untrusted(a: Operand | None, b: Operand | None) -> bool:
    """A side's verdict is untrusted (tampered, a broken log chain): values that match
    prove nothing while its evidence fails its integrity check (its warning says which
    side and why), so an equal comparison is no clean result."""
    return any(side is not None and side.untrusted for side in (a, b))


def equal_words(a: Operand | None, b: Operand | None) -> str:
    """What an equal comparison is called on every screen: ``equal``, or ``equal, from
    untrusted evidence`` (``from_untrusted``)."""
    return EQUAL_UNTRUSTED if from_untrusted(a, b) else EQUAL


def untrusted_warnings(a: Operand | None, b: Operand | None, *, one_line: bool = True) -> list[str]:
    """``untrusted_warning`` of each side, with its verdict's integrity reason (why it is
    untrusted: ``the record contradicts itself: …``), the words ``intentus-tui diff`` and
    the debugger both say. ``one_line`` (the debugger's, where every row counts: a terminal
    of 24): both sides untrusted in one line of the same words (``A and B are untrusted
    (integrity tampered): their differences ... (A: why; B: why)``, one reason when they
    give the same); else a line for each (``diff``'s). A trusted side adds nothing. Raw
    text."""
    sides = [(name, side) for name, side in (("A", a), ("B", b)) if side is not None]
    verdicts = [v for _, side in sides if (v := side.verdict) is not None and not v.trusted]
    if len(verdicts) < 2 or not one_line:
        warnings = (untrusted_warning(name, side, reason=True) for name, side in sides)
        return [text for text in warnings if text]
    first, second = (_integrity_words(v) for v in verdicts)
    which = f"integrity {first}" if first == second else f"A integrity {first}, B {second}"
    why_a, why_b = (v.integrity_reason for v in verdicts)
    why = why_a if why_a == why_b else f"A: {why_a}; B: {why_b}"
    return [f"A and B are untrusted ({which}): their {_DIFFERENCES} ({why})"]


def _integrity_words(verdict: Verdict) -> str:
    return verdict.integrity.value.replace("_", " ")  # words: "chain broken"


def snapshot_operand(
    label: str, snapshot: Snapshot, baseline: bool = False, path: Path | None = None
) -> Operand:
    """A snapshot (or a baseline's) as a side, read from the file ``path``; ``note`` says
    when its content does not hash to what it recorded (changed since it was saved: a
    tampered baseline passed unsaid)."""
    from intentus_tui.core.verist.verify import CHANGED_SINCE_SAVED, changed_since_saved

    broken = changed_since_saved(snapshot)
    note = None
    if broken:
        where = ", ".join(check.target for check in broken)
        note = f"{SNAPSHOT_HASHES_DIFFER} ({where}): {CHANGED_SINCE_SAVED}"
    return Operand(
        label,
        "snapshot",
        snapshot=snapshot,
        note=note,
        baseline=baseline,
        path=path,
        changed=bool(broken),
    )


SNAPSHOT_HASHES_DIFFER = "its content does not hash to what it recorded"


def record_operand(
    label: str,
    record: Mapping[str, Any],
    note: str | None = None,
    path: Path | None = None,
    verdict: Verdict | None = None,
) -> Operand:
    """A record already read (``LoadResult.record.raw``), from the file ``path``, with its
    execution's verdict when known."""
    return Operand(label, "record", record=record, note=note, path=path, verdict=verdict)


def load_result_operand(
    label: str,
    result: LoadResult,
    wal: WalLog | None = None,
    *,
    verdict: Verdict | None = None,
) -> Operand:
    """The record of a load result (which must have one); a damaged file says so in ``note``.

    Its verdict is ``verdict`` when the caller has it (an ``ExecutionDetail``'s), else made
    here as ``load_detail`` makes it: from the summary of the record joined with ``wal``.
    """
    from intentus_tui.core.detail import summary_of
    from intentus_tui.core.records.load import LoadStatus
    from intentus_tui.core.verdict import load_words, verdict_of

    assert result.record is not None
    salvaged = result.status is LoadStatus.SALVAGED
    # The summary says whether its writer cut it short (only a salvaged record can be).
    summary = summary_of(result, wal) if verdict is None or salvaged else None
    note = recovered_note(load_words(result.message, summary)) if salvaged else None
    if verdict is None and summary is not None:
        verdict = verdict_of(summary)
    return record_operand(label, dict(result.record.raw), note, result.path, verdict)


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


def _directory_named(label: str) -> str:
    return f"{label} is a directory: name a record file, a record id or a snapshot file"


def path_problem(label: str, path: Path) -> str | None:
    """Why ``path`` (named ``label``) holds no file to compare, in the words
    ``intentus-tui diff`` says it (``nothing_at``, ``file_operand``): nothing there (a
    link that loops or leads nowhere said so), a directory, not a regular file; None
    when it is a regular file, which ``file_operand`` reads."""
    import os

    from intentus_tui.core.paths import nothing_at
    from intentus_tui.core.records.load import stat_failure

    try:
        if not path.exists():
            return nothing_at(label, path)
        if path.is_dir():
            return _directory_named(label)
        failure = stat_failure(path, os.stat(path), None)
        if failure is not None:  # a FIFO, a socket: the loader's words, as diff and inspect
            return f"{label}: {failure.message}"
    except OSError as exc:
        return f"cannot read {label}: {(exc.strerror or type(exc).__name__).lower()}"
    return None


def _run_names(path: Path) -> str:
    from intentus_tui.core.activegraph import ActiveGraphError, RunDatabase

    try:
        with RunDatabase(path) as db:
            runs = db.list_runs()
    except ActiveGraphError as exc:
        return f" ({exc})"
    return f"; runs: {', '.join(r.run_id for r in runs)}" if runs else "; it holds no runs"


def file_operand(
    label: str,
    path: Path,
    *,
    prefer: Literal["record", "snapshot"] = "record",
    wal_dir: Path | None = None,
) -> Operand:
    """A record, snapshot or baseline file, or ``CompareError`` with one clear line.

    ``prefer="snapshot"`` reads the file as a snapshot first (the ``D`` picker's files); a
    record given there is still compared as a record, and a file that is neither is said
    as ``intentus-tui diff`` says it of the same file. A record's verdict is made as
    ``load_detail(path, wal_dir)`` makes it: joined with its log in ``wal_dir`` if any.
    ``read_look`` is the file as it was just before the read.
    """
    look = file_look(path)  # before the read: a change while it is read shows later
    return replace(_read_file_operand(label, path, prefer, wal_dir), read_look=look)


def _read_file_operand(
    label: str, path: Path, prefer: Literal["record", "snapshot"], wal_dir: Path | None
) -> Operand:
    from intentus_tui.core.activegraph import is_sqlite_file
    from intentus_tui.core.detail import execution_wal
    from intentus_tui.core.paths import nothing_at
    from intentus_tui.core.records.load import (
        WAL_SUFFIX,
        LoadStatus,
        is_record_name,
        load_record_file,
    )
    from intentus_tui.core.verist.snapshot import SnapshotError, load_snapshot_or_baseline

    if not path.exists():  # as the command line says it (not "file vanished")
        raise CompareError(nothing_at(label, path))
    # A directory named like a record (``X.json``) is a record that cannot be read, as the
    # list and ``inspect`` say it: the loader's words below, not "name a record id".
    if path.is_dir() and not is_record_name(path.name):
        raise CompareError(_directory_named(label))
    if path.name.endswith(WAL_SUFFIX):  # as the command line says it (not "invalid JSON")
        raise CompareError(
            f"{label} is a write-ahead log, not a record: no response was recorded in it"
        )
    if path.is_file() and is_sqlite_file(path):
        raise CompareError(
            f"{label} is a SQLite database: name a run as {label}#RUN_ID{_run_names(path)}"
        )
    if prefer == "snapshot":
        try:
            return snapshot_operand(label, *load_snapshot_or_baseline(path), path)
        except (SnapshotError, OSError):
            # Neither: said below as ``intentus-tui diff`` says it of the same file (the
            # picker said "Invalid JSON in File …" where the command line said "Not a
            # readable record: invalid JSON at byte 0 …").
            pass
    result = load_record_file(path)
    if result.record is not None:
        return load_result_operand(label, result, execution_wal(result, wal_dir))
    if result.status is LoadStatus.NOT_RECORD:
        try:
            return snapshot_operand(label, *load_snapshot_or_baseline(path), path)
        except SnapshotError as exc:
            raise CompareError(f"{label}: neither a record nor a snapshot: {exc}") from None
    raise CompareError(f"{label}: {result.message}")
