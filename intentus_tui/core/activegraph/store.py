"""Active Graph run databases (PyPI ``activegraph``, its SQLite store), opened read-only.

The store (``activegraph/store/sqlite.py``, schema_version 1) holds every run of a file in one
``events`` table, ordered by a file-wide ``seq``, and one ``runs`` row per run with its lineage
(``parent_run_id``, ``forked_at_event_id``, ``label``). A fork **copies** its parent's rows up to
and including the fork point into its own run (same logical event ids, new ``seq`` values);
compaction moves a run's old prefix into ``events_archive`` with its original ``seq``. A run's
full log is therefore its archived rows plus its hot rows, in ``seq`` order. Should a fork's own
rows not contain its fork point (a store that references instead of copying), the parent's log
up to the fork point is put in front, and those events keep the parent's ``run_id``.

Comparing two runs (a fork with its parent, or any two runs) goes event by event on
``(type, actor, payload)``. Ids and ``seq`` are left out: logical ids are positional
(``evt_001``...) and ``seq`` is file-wide. Payloads are normalized first, because some fields
always differ between two runs of the same behaviours and would hide the real divergence:

- any string equal to one of the compared runs' ids becomes ``"<run>"`` (objects carry their
  run id in ``provenance.run_id``);
- keys in ``VOLATILE_KEYS`` are dropped at any depth: ``timestamp`` (the default clock is the wall
  clock) and ``latency_seconds`` (measured);
- the budget ``snapshot`` of ``runtime.*`` markers (``runtime.idle``...) is dropped: its counters
  measure the runtime *session* that wrote the marker (a fork resumed at event 5 has counted
  fewer events than its parent) and its ``max_seconds`` is elapsed wall time.

Ids *inside* payloads (``caused_by_event``, ``event_id``, object ids) are kept: they are logical
and deterministic, so a different reference is a real difference. Unlike Active Graph's strict
replay, which compares types only, a payload-only change is a divergence here.

Opening never writes: a file that has no ``-wal`` sidecar (cleanly closed) is opened
``immutable``, so SQLite creates no ``-wal``/``-shm`` file beside it; a file with a live or
left-over ``-wal`` is opened ``mode=ro`` so the committed frames in it are read.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from intentus_tui.core.compare import Divergence, find_divergence
from intentus_tui.core.compare.events import run_event_key
from intentus_tui.core.compare.ignore import NO_RULES, IgnoreRules
from intentus_tui.core.fsio import open_confined
from intentus_tui.core.sanitize import sanitize_line

if TYPE_CHECKING:  # lineage builds on this module
    from intentus_tui.core.activegraph.lineage import ForkComparison

__all__ = [
    "RUN_ID_PLACEHOLDER",
    "VOLATILE_KEYS",
    "ActiveGraphError",
    "GraphEvent",
    "RunDatabase",
    "RunInfo",
    "TimelineRow",
    "comparable_events",
    "is_sqlite_file",
    "lineage",
    "list_runs",
    "normalize_payload",
    "open_run_database",
    "run_divergence",
    "run_events",
    "timeline",
]

SQLITE_MAGIC = b"SQLite format 3\x00"
VOLATILE_KEYS = frozenset({"timestamp", "latency_seconds"})
RUN_ID_PLACEHOLDER = "<run>"
_EVENT_COLUMNS = "seq, id, type, actor, payload, frame_id, caused_by, timestamp, run_id"


class ActiveGraphError(Exception):
    """A run database that cannot be read, or a run that is not in it. The message says why."""


@dataclass(frozen=True, slots=True)
class RunInfo:
    """One row of ``runs``. ``event_count``: events stored under this run (hot and archived)."""

    run_id: str
    parent_run_id: str | None
    forked_at_event_id: str | None
    label: str | None
    created_at: str | None
    goal: str | None
    event_count: int

    @property
    def is_fork(self) -> bool:
        return self.parent_run_id is not None


@dataclass(frozen=True, slots=True)
class GraphEvent:
    """One event of a run's log.

    ``payload`` is the decoded JSON, or the stored text when it does not decode (then
    ``payload_error`` says why). ``run_id`` is the run whose rows hold the event: the parent's
    for a prefix reconstructed from it. ``archived``: read from ``events_archive``.
    """

    seq: int
    id: str
    type: str
    actor: str | None
    payload: Any
    frame_id: str | None
    caused_by: str | None
    timestamp: str | None
    run_id: str
    archived: bool = False
    payload_error: str | None = None


@dataclass(frozen=True, slots=True)
class TimelineRow:
    """One display row of a run's timeline. Every string is sanitized for a terminal."""

    index: int
    seq: int
    id: str
    type: str
    actor: str
    caused_by: str
    payload: str  # compact JSON, cut at ``limit``
    inherited: bool  # reconstructed from the parent's log


# --------------------------------------------------------------------------- opening


def is_sqlite_file(path: str | os.PathLike[str]) -> bool:
    """True if the file starts with SQLite's 16-byte header (False on any error)."""
    try:
        fd = open_confined(path)  # never blocks on a FIFO swapped in after the is_file check
    except OSError:
        return False
    try:
        return os.read(fd, len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False
    finally:
        os.close(fd)


def _connect_read_only(path: Path) -> sqlite3.Connection:
    wal = path.with_name(path.name + "-wal")
    query = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
    uri = f"{path.resolve().as_uri()}?{query}"
    return sqlite3.connect(uri, uri=True)


class RunDatabase:
    """A read-only connection to one Active Graph SQLite store. Use as a context manager."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._check_file()
        try:
            self._conn = _connect_read_only(self.path)
        except sqlite3.Error as exc:
            raise ActiveGraphError(f"{self.path}: cannot open read-only: {exc}") from exc
        try:
            self._tables = self._table_names()
            missing = {"runs", "events"} - self._tables
            if missing:
                raise ActiveGraphError(
                    f"{self.path}: a SQLite database, but not an Active Graph run store "
                    f"(no {' or '.join(sorted(missing))} table)"
                )
            self.schema_version = self._schema_version()
        except BaseException:
            self._conn.close()
            raise

    def _check_file(self) -> None:
        if not self.path.exists():
            raise ActiveGraphError(f"no such file: {self.path}")
        if not self.path.is_file():
            raise ActiveGraphError(f"{self.path}: not a file")
        try:
            with open(self.path, "rb") as handle:
                head = handle.read(len(SQLITE_MAGIC))
        except OSError as exc:
            raise ActiveGraphError(f"{self.path}: cannot read: {exc.strerror or exc}") from exc
        if head != SQLITE_MAGIC:
            what = "empty" if not head else "not a SQLite database"
            raise ActiveGraphError(f"{self.path}: {what} (an Active Graph run store is SQLite)")

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise ActiveGraphError(f"{self.path}: cannot read the run store: {exc}") from exc

    def _table_names(self) -> set[str]:
        rows = self._query("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {str(row[0]) for row in rows}

    def _schema_version(self) -> str | None:
        if "meta" not in self._tables:
            return None
        rows = self._query("SELECT value FROM meta WHERE key = 'schema_version'")
        return str(rows[0][0]) if rows else None

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> RunDatabase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----------------------------------------------------------------------- runs

    def _counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        tables = ["events"] + (["events_archive"] if "events_archive" in self._tables else [])
        for table in tables:
            for run_id, count in self._query(f"SELECT run_id, COUNT(*) FROM {table} GROUP BY 1"):
                counts[str(run_id)] = counts.get(str(run_id), 0) + int(count)
        return counts

    def list_runs(self) -> list[RunInfo]:
        """Every run, oldest first (as Active Graph lists them: by ``created_at``)."""
        rows = self._query(
            "SELECT run_id, parent_run_id, forked_at_event_id, label, created_at, goal "
            "FROM runs ORDER BY created_at, rowid"
        )
        counts = self._counts()
        runs = [_run_info(row, counts.get(str(row[0]), 0)) for row in rows]
        # Events whose run has no ``runs`` row (a damaged or hand-made store) still show.
        listed = {info.run_id for info in runs}
        runs += [_orphan(run_id, n) for run_id, n in sorted(counts.items()) if run_id not in listed]
        return runs

    def run(self, run_id: str) -> RunInfo:
        rows = self._query(
            "SELECT run_id, parent_run_id, forked_at_event_id, label, created_at, goal "
            "FROM runs WHERE run_id = ?",
            (run_id,),
        )
        if not rows:
            count = self._counts().get(run_id, 0)
            if count:
                return _orphan(run_id, count)
            known = [info.run_id for info in self.list_runs()]
            hint = f"; runs: {', '.join(known)}" if known else "; it holds no runs"
            raise ActiveGraphError(f"{self.path}: no run {run_id!r}{hint}")
        return _run_info(rows[0], self._counts().get(run_id, 0))

    def lineage(self, run_id: str) -> list[RunInfo]:
        """The run and its ancestors, root first. Stops at a missing parent or a cycle."""
        chain = [self.run(run_id)]
        seen = {run_id}
        while (parent := chain[-1].parent_run_id) is not None and parent not in seen:
            seen.add(parent)
            try:
                chain.append(self.run(parent))
            except ActiveGraphError:
                break
        chain.reverse()
        return chain

    def snapshot_blob(self, state_hash: str) -> str | None:
        """The state a compacted run starts from (``snapshots`` table), or ``None``."""
        if "snapshots" not in self._tables:
            return None
        rows = self._query("SELECT blob FROM snapshots WHERE state_hash = ?", (state_hash,))
        return _opt_str(rows[0][0]) if rows else None

    # ----------------------------------------------------------------------- events

    def _own_events(self, run_id: str) -> list[GraphEvent]:
        rows = self._query(f"SELECT {_EVENT_COLUMNS} FROM events WHERE run_id = ?", (run_id,))
        events = [_event(row, archived=False) for row in rows]
        if "events_archive" in self._tables:
            hot_ids = {e.id for e in events}
            archived = self._query(
                f"SELECT {_EVENT_COLUMNS} FROM events_archive WHERE run_id = ?", (run_id,)
            )
            events += [
                e for e in (_event(r, archived=True) for r in archived) if e.id not in hot_ids
            ]
        events.sort(key=lambda e: e.seq)
        return events

    def run_events(self, run_id: str) -> list[GraphEvent]:
        """A run's full event log, in ``seq`` order (see the module docs for forks)."""
        self.run(run_id)  # a clear error for an unknown run
        return self._full_log(run_id, frozenset())

    def _full_log(self, run_id: str, visiting: frozenset[str]) -> list[GraphEvent]:
        own = self._own_events(run_id)
        rows = self._query(
            "SELECT parent_run_id, forked_at_event_id FROM runs WHERE run_id = ?", (run_id,)
        )
        if not rows:
            return own
        parent, fork_point = _opt_str(rows[0][0]), _opt_str(rows[0][1])
        if parent is None or fork_point is None or parent in visiting or parent == run_id:
            return own
        if any(e.id == fork_point for e in own):
            return own  # the prefix was copied, as activegraph 1.x does
        parent_log = self._full_log(parent, visiting | {run_id})
        cut = next((i for i, e in enumerate(parent_log) if e.id == fork_point), None)
        if cut is None:
            return own
        return parent_log[: cut + 1] + own

    # ----------------------------------------------------------------------- comparison

    def compare_fork(self, fork_run_id: str) -> ForkComparison:
        """A fork against its parent (``lineage.compare_fork``)."""
        from intentus_tui.core.activegraph.lineage import compare_fork

        return compare_fork(self, fork_run_id)


def _opt_str(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _run_info(row: tuple[Any, ...], count: int) -> RunInfo:
    return RunInfo(
        run_id=_opt_str(row[0]) or "",
        parent_run_id=_opt_str(row[1]),
        forked_at_event_id=_opt_str(row[2]),
        label=_opt_str(row[3]),
        created_at=_opt_str(row[4]),
        goal=_opt_str(row[5]),
        event_count=count,
    )


def _orphan(run_id: str, count: int) -> RunInfo:
    return RunInfo(run_id, None, None, None, None, None, count)


def _decode_payload(raw: Any) -> tuple[Any, str | None]:
    text = _opt_str(raw)
    if text is None:
        return None, "payload is NULL"
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        return text, f"payload is not JSON: {exc.msg} at column {exc.colno}"
    except RecursionError:
        return text, "payload is nested too deeply to decode"


def _event(row: tuple[Any, ...], *, archived: bool) -> GraphEvent:
    seq, event_id, type_, actor, payload, frame_id, caused_by, timestamp, run_id = row
    decoded, error = _decode_payload(payload)
    return GraphEvent(
        seq=seq if isinstance(seq, int) else -1,
        id=_opt_str(event_id) or "",
        type=_opt_str(type_) or "",
        actor=_opt_str(actor),
        payload=decoded,
        frame_id=_opt_str(frame_id),
        caused_by=_opt_str(caused_by),
        timestamp=_opt_str(timestamp),
        run_id=_opt_str(run_id) or "",
        archived=archived,
        payload_error=error,
    )


# --------------------------------------------------------------------------- normalization


def normalize_payload(
    value: Any, run_ids: frozenset[str] = frozenset(), event_type: str = ""
) -> Any:
    """The payload as compared: volatile fields dropped, run ids replaced (module docs)."""
    if event_type.startswith("runtime.") and isinstance(value, dict) and "snapshot" in value:
        value = {k: v for k, v in value.items() if k != "snapshot"}
    try:
        return _normalize(value, run_ids)
    except RecursionError:
        return value  # too deep to walk: compared as stored


def _normalize(value: Any, run_ids: frozenset[str]) -> Any:
    if isinstance(value, str):
        return RUN_ID_PLACEHOLDER if value in run_ids else value
    if isinstance(value, list):
        return [_normalize(v, run_ids) for v in value]
    if isinstance(value, dict):
        return {
            key: _normalize(item, run_ids)
            for key, item in value.items()
            if key not in VOLATILE_KEYS
        }
    return value


def comparable_events(
    events: Sequence[GraphEvent], run_ids: Sequence[str] = ()
) -> list[dict[str, Any]]:
    """``[{type, actor, payload}]`` with normalized payloads: the value two runs are diffed as."""
    ids = frozenset(run_ids)
    return [
        {"type": e.type, "actor": e.actor, "payload": normalize_payload(e.payload, ids, e.type)}
        for e in events
    ]


def run_divergence(
    events_a: Sequence[GraphEvent],
    events_b: Sequence[GraphEvent],
    *,
    run_ids: Sequence[str] = (),
    aligned: bool = False,
    ignore: IgnoreRules = NO_RULES,
) -> Divergence[GraphEvent] | None:
    """The first event where two logs part: by type, by length, or by actor/payload;
    position by position (a lineage's shared prefix), or ``aligned`` event by event on type
    and actor, as the comparison lays two runs out (then also by an event one run lacks).
    A body whose differences ``ignore`` all hides does not part them, as in two records."""
    ids = frozenset(run_ids)

    def body(event: GraphEvent) -> Any:
        return {"actor": event.actor, "payload": normalize_payload(event.payload, ids, event.type)}

    def key(event: GraphEvent) -> str:
        return run_event_key({"type": event.type, "actor": event.actor})

    found = find_divergence(
        events_a,
        events_b,
        type_of=lambda e: e.type,
        body_of=body,
        seq_of=lambda e: e.seq,
        key_of=key if aligned else None,
        ignore=ignore,
    )
    return None if found is None else replace(found, numbered=True)


# --------------------------------------------------------------------------- display


def _compact(value: Any, limit: int) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    except (ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def timeline(
    events: Sequence[GraphEvent], *, run_id: str | None = None, limit: int = 200
) -> list[TimelineRow]:
    """Display rows for a run's log; ``run_id`` marks events inherited from another run."""
    return [
        TimelineRow(
            index=i,
            seq=e.seq,
            id=sanitize_line(e.id),
            type=sanitize_line(e.type),
            actor=sanitize_line(e.actor or "-"),
            caused_by=sanitize_line(e.caused_by or "-"),
            payload=sanitize_line(_compact(e.payload, limit)),
            inherited=run_id is not None and e.run_id != run_id,
        )
        for i, e in enumerate(events)
    ]


# --------------------------------------------------------------------------- module API


@contextmanager
def _database(db: RunDatabase | str | os.PathLike[str]) -> Iterator[RunDatabase]:
    if isinstance(db, RunDatabase):
        yield db
        return
    with RunDatabase(db) as opened:
        yield opened


def open_run_database(path: str | os.PathLike[str]) -> RunDatabase:
    return RunDatabase(path)


def list_runs(db: RunDatabase | str | os.PathLike[str]) -> list[RunInfo]:
    with _database(db) as opened:
        return opened.list_runs()


def lineage(db: RunDatabase | str | os.PathLike[str], run_id: str) -> list[RunInfo]:
    with _database(db) as opened:
        return opened.lineage(run_id)


def run_events(db: RunDatabase | str | os.PathLike[str], run_id: str) -> list[GraphEvent]:
    with _database(db) as opened:
        return opened.run_events(run_id)
