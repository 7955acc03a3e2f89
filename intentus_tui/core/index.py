"""Cheap, immutable per-file summaries: what the list view and ``inspect --list`` show.

The index holds summaries, never records. ``summarize`` turns one ``LoadResult`` into an
``ExecutionSummary``; ``DirectoryIndex`` keeps one summary per file and updates only the
files it is told changed, so a live change costs work proportional to that file.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.context
import os
import threading
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from intentus_tui.core.cache import IndexCache, Stamp, stamp_of
from intentus_tui.core.formats import LoadResult, LoadStatus, is_record_name, load_record_file
from intentus_tui.core.replay import ReplayEngine
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.timeline import (
    ExecutionState,
    analyze_attempts,
    decided_agent,
    execution_state,
    final_status,
)
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
    analysis = analyze_attempts(record.events)
    hash_check = check_envelope_hash(record, all_forms=False)
    structure = check_structure(record, stem)
    replayable, reason = ReplayEngine(
        record, damaged=result.status is not LoadStatus.OK, structure_ok=structure.record_ok
    ).is_replayable()
    problems = len(check_event_sequence(record).problems) + len(structure.problems)
    last_attempt = analysis.attempts[-1].agent if analysis.attempts else ""
    in_flight = analysis.in_flight
    return ExecutionSummary(
        key=result.path.name,
        execution_id=_clean(record.execution_id or stem),
        created=_clean(record.header.created_utc_iso),
        intent=_clean(record.intent_name),
        agent=decided_agent(record) or last_attempt,
        strategy=_clean(record.strategy),
        state=execution_state(record, result.status),
        load_status=result.status,
        message=_clean(result.message),
        replayable=replayable,
        replay_reason=_clean(reason) or None,
        hash_status=hash_check.status,
        hash_form=hash_check.detected_form,
        matched_form=hash_check.matched_form,
        event_count=len(record.events),
        attempts=len(analysis.attempts),
        fallbacks=len(analysis.fallbacks),
        chain=analysis.chain,
        in_flight_agent=in_flight[-1].agent if in_flight else None,
        final_status=final_status(record),
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


# Below this many files to summarize, worker processes cost more than they save.
PARALLEL_THRESHOLD = 2000
_CHUNK = 256


def _summarize_chunk(paths: list[str]) -> list[tuple[Stamp | None, ExecutionSummary]]:
    out = []
    for name in paths:
        result = load_record_file(name)
        out.append((result.stamp, summarize(result)))
    return out


def _pool_context() -> multiprocessing.context.BaseContext:
    # fork is fastest; with other threads alive (the TUI) forkserver avoids inheriting locks.
    method = "fork" if threading.active_count() == 1 else "forkserver"
    return multiprocessing.get_context(method)


def _summarize_many(
    paths: list[Path], workers: int | None
) -> Iterator[list[tuple[Stamp | None, ExecutionSummary]]]:
    names = [str(p) for p in paths]
    chunks = [names[i : i + _CHUNK] for i in range(0, len(names), _CHUNK)]
    workers = workers if workers is not None else (os.cpu_count() or 1)
    if workers <= 1 or len(names) < PARALLEL_THRESHOLD:
        for chunk in chunks:
            yield _summarize_chunk(chunk)
        return
    with ProcessPoolExecutor(max_workers=workers, mp_context=_pool_context()) as pool:
        yield from pool.map(_summarize_chunk, chunks)


def scan_batches(
    root: RecordRoot, *, use_cache: bool = True, workers: int | None = None
) -> Iterator[list[ExecutionSummary]]:
    """Summaries of every record file in ``root``, in batches as they become ready.

    Cached summaries whose file is unchanged come first, in one batch; then the rest.
    """
    directory = root.records_dir
    paths = list_record_paths(directory)
    cache = IndexCache() if use_cache else None
    try:
        cached = cache.load(directory.resolve()) if cache else {}
        fresh: list[ExecutionSummary] = []
        todo: list[Path] = []
        for path in paths:
            hit = cached.pop(path.name, None)
            if hit is not None and _unchanged(path, hit[0]):
                fresh.append(hit[1])  # type: ignore[arg-type]
            else:
                todo.append(path)
        if fresh:
            yield fresh
        for batch in _summarize_many(todo, workers):
            if cache is not None:
                cache.store(directory.resolve(), [(st, s) for st, s in batch if st is not None])
            yield [s for _, s in batch]
        if cache is not None and cached:
            cache.store(directory.resolve(), (), removed=list(cached))
    finally:
        if cache is not None:
            cache.close()


def _unchanged(path: Path, stamp: Stamp) -> bool:
    try:
        return stamp_of(os.stat(path)) == stamp
    except OSError:
        return False


def scan_root(
    root: RecordRoot, *, use_cache: bool = True, workers: int | None = None
) -> list[ExecutionSummary]:
    """Summaries of every record in ``root``, sorted by file name."""
    out = [s for batch in scan_batches(root, use_cache=use_cache, workers=workers) for s in batch]
    out.sort(key=lambda s: s.key)
    return out
