"""Cheap, immutable per-file summaries: what the list view and ``inspect --list`` show.

The index holds summaries, never records. ``summarize`` turns one ``LoadResult`` into an
``ExecutionSummary``; ``DirectoryIndex`` keeps one summary per file and updates only the
files it is told changed, so a live change costs work proportional to that file.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from intentus_tui.core.formats import LoadResult, LoadStatus, is_record_name, load_record_file
from intentus_tui.core.replay import ReplayEngine
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.timeline import ExecutionState, build_timeline
from intentus_tui.core.verify import (
    HashStatus,
    check_envelope_hash,
    check_event_sequence,
    check_structure,
)


@dataclass(frozen=True, slots=True)
class RecordRoot:
    """Where records and write-ahead logs live for one opened location."""

    records_dir: Path
    wal_dir: Path | None
    requested: Path


def resolve_root(path: str | os.PathLike[str] | None = None) -> RecordRoot:
    """Accept an ``.intentusnet`` root, a records directory, or any directory of ``*.json``.

    With no path: ``./.intentusnet/records`` when it exists, else the current directory.
    """
    requested = Path(path) if path is not None else Path.cwd()
    base = requested
    if (path is None and (requested / ".intentusnet").is_dir()) or (
        (requested / ".intentusnet" / "records").is_dir() and not (requested / "records").is_dir()
    ):
        base = requested / ".intentusnet"
    if (base / "records").is_dir():
        wal = base / "wal"
        return RecordRoot(base / "records", wal if wal.is_dir() else None, requested)
    for wal in (base / "wal", base.parent / "wal"):
        if wal.is_dir() and wal != base:
            return RecordRoot(base, wal, requested)
    return RecordRoot(base, None, requested)


@dataclass(frozen=True, slots=True)
class ExecutionSummary:
    """One row of the execution list. Strings are already sanitized for display."""

    key: str  # unique within a directory: the file name (or ``<id>.wal`` for WAL-only)
    execution_id: str
    created: str
    intent: str
    agent: str
    strategy: str
    state: ExecutionState
    load_status: LoadStatus
    message: str
    replayable: bool
    replay_reason: str | None
    hash_status: HashStatus
    hash_form: str  # how the stored hash is written: runtime | documented | unknown | absent
    matched_form: str | None
    event_count: int
    attempts: int
    fallbacks: int
    chain: str
    in_flight_agent: str | None
    final_status: str | None
    problems: int  # sequence + structure problems found
    size: int
    mtime_ns: int
    source: str = "record"  # record | wal | record+wal

    @property
    def short_id(self) -> str:
        return self.execution_id[:8] if len(self.execution_id) > 12 else self.execution_id

    @property
    def state_label(self) -> str:
        """A single word for filtering and grouping: ``replayable``, a reason, or a state."""
        if self.state is ExecutionState.CORRUPTED:
            return "corrupted"
        if self.state is ExecutionState.INCOMPLETE:
            return "incomplete"
        return "replayable" if self.replayable else (self.replay_reason or "not_replayable")


def _clean(value: str | None) -> str:
    return sanitize_line(value) if value else ""


def summarize(result: LoadResult) -> ExecutionSummary:
    """One summary per file, whatever the file turned out to be. Never raises."""
    record = result.record
    stem = result.stem
    if record is None:
        return ExecutionSummary(
            key=result.path.name,
            execution_id=_clean(stem),
            created="",
            intent="",
            agent="",
            strategy="",
            state=ExecutionState.CORRUPTED,
            load_status=result.status,
            message=_clean(result.message),
            replayable=False,
            replay_reason="record_corrupted",
            hash_status=HashStatus.UNVERIFIABLE,
            hash_form="absent",
            matched_form=None,
            event_count=0,
            attempts=0,
            fallbacks=0,
            chain="",
            in_flight_agent=None,
            final_status=None,
            problems=1,
            size=result.size,
            mtime_ns=result.mtime_ns,
        )
    timeline = build_timeline(record, result.status)
    hash_check = check_envelope_hash(record)
    replayable, reason = ReplayEngine(
        record, damaged=result.status is not LoadStatus.OK
    ).is_replayable()
    problems = len(check_event_sequence(record).problems) + len(
        check_structure(record, stem).problems
    )
    last_attempt = timeline.attempts[-1].agent if timeline.attempts else ""
    return ExecutionSummary(
        key=result.path.name,
        execution_id=_clean(record.execution_id or stem),
        created=_clean(record.header.created_utc_iso),
        intent=_clean(record.intent_name),
        agent=timeline.decided_agent or last_attempt,
        strategy=_clean(record.strategy),
        state=timeline.state,
        load_status=result.status,
        message=_clean(result.message),
        replayable=replayable,
        replay_reason=_clean(reason) or None,
        hash_status=hash_check.status,
        hash_form=hash_check.detected_form,
        matched_form=hash_check.matched_form,
        event_count=len(record.events),
        attempts=timeline.attempt_count,
        fallbacks=len(timeline.fallbacks),
        chain=timeline.chain,
        in_flight_agent=timeline.in_flight[-1].agent if timeline.in_flight else None,
        final_status=timeline.final_status,
        problems=problems,
        size=result.size,
        mtime_ns=result.mtime_ns,
    )


def summarize_path(path: Path) -> ExecutionSummary:
    return summarize(load_record_file(path))


def list_record_paths(directory: Path) -> list[Path]:
    """Every candidate record file directly in ``directory``, sorted by name."""
    try:
        with os.scandir(directory) as entries:
            names = [e.name for e in entries if is_record_name(e.name)]
    except OSError:
        return []
    return [directory / n for n in sorted(names)]


class DirectoryIndex:
    """Summaries of one records directory, updated path by path."""

    def __init__(self, root: RecordRoot) -> None:
        self.root = root
        self._by_key: dict[str, ExecutionSummary] = {}

    def scan(self) -> list[ExecutionSummary]:
        self._by_key = {p.name: summarize_path(p) for p in list_record_paths(self.root.records_dir)}
        return self.summaries()

    def summaries(self) -> list[ExecutionSummary]:
        return list(self._by_key.values())

    def update(self, paths: Iterable[Path]) -> tuple[list[ExecutionSummary], list[str]]:
        """Re-read only ``paths``; return (changed or new summaries, removed keys)."""
        changed: list[ExecutionSummary] = []
        removed: list[str] = []
        for path in paths:
            if path.parent != self.root.records_dir or not is_record_name(path.name):
                continue
            if not os.path.lexists(path):
                if self._by_key.pop(path.name, None) is not None:
                    removed.append(path.name)
                continue
            summary = summarize_path(path)
            if self._by_key.get(path.name) != summary:
                self._by_key[path.name] = summary
                changed.append(summary)
        return changed, removed


def summary_to_json(s: ExecutionSummary) -> dict[str, object]:
    """The ``inspect --list --json`` row (snake_case keys)."""
    return {
        "execution_id": s.execution_id,
        "file": s.key,
        "created": s.created or None,
        "intent": s.intent or None,
        "status": s.state.value,
        "replayable": s.replayable,
        "replayable_reason": s.replay_reason,
        "hash_status": s.hash_status.value,
        "hash_form": s.hash_form,
        "hash_matched_form": s.matched_form,
        "event_count": s.event_count,
        "attempts": s.attempts,
        "fallbacks": s.fallbacks,
        "agent_chain": s.chain or None,
        "in_flight_agent": s.in_flight_agent,
        "final_status": s.final_status,
        "load_status": s.load_status.value,
        "message": s.message,
        "problems": s.problems,
        "source": s.source,
    }


def scan_root(root: RecordRoot, *, use_cache: bool = True) -> list[ExecutionSummary]:
    """Summaries of every record in ``root``, sorted by file name."""
    del use_cache  # the persistent cache is wired in by the scale work
    return DirectoryIndex(root).scan()
