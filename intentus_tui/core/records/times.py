"""When each event happened and how long each attempt took, from what was recorded.

IntentusNet 1.3.0's events carry no time (``{seq, type, payload}``), so times come from
around them, most direct first:

- the execution's write-ahead log, whose every entry has a ``timestamp_iso``. An entry
  that carries the event it logs (``payload.event``, as this tool's demo recorder writes
  it) is joined to that event by seq. Otherwise entries are joined by meaning:
  ``execution.started`` to ``INTENT_RECEIVED``, the n-th step's start and end to the n-th
  attempt's (when their agents agree), the n-th ``fallback.triggered`` to the n-th
  ``FALLBACK_TRIGGERED``, the execution's end (completed, failed, aborted) to
  ``FINAL_RESPONSE``. Only entries before a broken hash chain are used;
- the event's own payload: a ``timestamp`` (1.3.0's ``ROUTER_DECISION``, the documented
  ``INTENT_RECEIVED``), a ``FINAL_RESPONSE``'s ``metadata.timestamp`` (1.3.0 writes the
  response, with the time it was made, into that event);
- the record header's ``createdUtcIso``: when the execution began (1.3.0 creates the record
  as routing starts). It is the origin of the offsets, never one event's time;
- an attempt end's ``latency_ms`` (documented form): the attempt's duration when the
  clock times of its start and end are not both known.

Where none of these exist the time is None, and is shown as a dash: never guessed.
An attempt still in flight has no end: how long it has been open is computed against a
``now`` the caller passes, so a view can tick.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from math import ceil, floor
from typing import TYPE_CHECKING, Any, NamedTuple

from intentus_tui.core.records.timeline import FINAL, RECEIVED, Attempt, ExecutionState
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.timestamps import parse_timestamp

if TYPE_CHECKING:
    from intentus_tui.core.records.load import ExecutionEvent, ExecutionRecord
    from intentus_tui.core.records.timeline import Timeline
    from intentus_tui.core.wal.read import WalEntry, WalLog

# Where a time came from, as the event detail and ``inspect --json`` name it.
SOURCE_WAL = "wal"  # the joined write-ahead-log entry's timestamp_iso
SOURCE_EVENT = "event"  # the event payload's own ``timestamp``
SOURCE_RESPONSE = "response"  # the final response's ``metadata.timestamp``
SOURCE_HEADER = "header"  # the record header's createdUtcIso (the origin only)
DURATION_CLOCK = "clock"  # end time minus start time
DURATION_LATENCY = "latency_ms"  # the attempt end's recorded latency

NO_TIME = "—"
_END_ENTRIES = ("execution.completed", "execution.failed", "execution.aborted")
_STEP_ENDS = ("step.completed", "step.failed", "step.skipped", "agent.invocation_end")


class EventTime(NamedTuple):
    """One event's wall-clock time (UTC) and where it was read."""

    at: datetime
    source: str


class AttemptTimes(NamedTuple):
    """An attempt's start, end and duration, each None when nothing recorded it."""

    number: int
    agent: str
    status: str  # as the timeline has it: ok | error | in_flight | ...
    start: datetime | None
    end: datetime | None
    start_offset: float | None  # seconds since the execution's origin
    end_offset: float | None
    duration: float | None  # seconds
    duration_source: str | None  # DURATION_CLOCK | DURATION_LATENCY

    @property
    def in_flight(self) -> bool:
        return self.status == "in_flight"

    def open_for(self, now: datetime) -> float | None:
        """Seconds an in-flight attempt has been open at ``now`` (None: not in flight, or
        its start time is unknown)."""
        if not self.in_flight or self.start is None:
            return None
        return max(0.0, (now - self.start).total_seconds())


class WaterfallBar(NamedTuple):
    """An attempt drawn on the shared time axis: cells ``[start, end)`` of ``width``."""

    number: int
    start: int
    end: int
    status: str
    open: bool  # in flight: the bar runs up to now


class Waterfall(NamedTuple):
    """Every attempt's bar on one axis from the origin to ``span`` seconds; per-event ticks
    through ``cell``. ``bars`` has one entry per attempt (None: its start is unknown)."""

    width: int
    span: float
    bars: tuple[WaterfallBar | None, ...]

    def cell(self, offset: float) -> int:
        """The cell an instant ``offset`` seconds after the origin falls in."""
        if self.span <= 0:
            return 0
        return min(self.width - 1, max(0, floor(offset / self.span * self.width)))


@dataclass(frozen=True)
class ExecutionTimes:
    """The times of one execution's events (looked up lazily: a record may have 100,000
    events and a view reads a screenful) and of its attempts."""

    origin: datetime | None  # the earliest known instant of the execution
    origin_source: str | None  # SOURCE_HEADER | SOURCE_WAL | SOURCE_EVENT | SOURCE_RESPONSE
    attempts: tuple[AttemptTimes, ...]
    last: datetime | None  # the latest event time known (the end, for a finished run)
    _lookup: Callable[[int], EventTime | None] = field(repr=False, compare=False)
    # Has any event a time of its own (not just the execution a start)? Found without
    # reading every event: the WAL's, and the first and last few events' own.
    events_timed: bool = False
    _cache: dict[int, EventTime | None] = field(default_factory=dict, repr=False, compare=False)

    def event_time(self, index: int) -> EventTime | None:
        if index not in self._cache:
            self._cache[index] = self._lookup(index)
        return self._cache[index]

    def offset(self, index: int) -> float | None:
        """Seconds from the origin to event ``index`` (None: the event has no time)."""
        known = self.event_time(index)
        if known is None or self.origin is None:
            return None
        return offset_between(self.origin, known.at)

    @property
    def known(self) -> bool:
        """Does anything in the execution have a time?"""
        return self.origin is not None

    @property
    def attempt_times_known(self) -> bool:
        return any(a.start_offset is not None for a in self.attempts)

    @property
    def total(self) -> float | None:
        """Seconds from the origin to the last known time (None: fewer than one time)."""
        if self.origin is None or self.last is None:
            return None
        return offset_between(self.origin, self.last)

    @property
    def open_attempts(self) -> tuple[AttemptTimes, ...]:
        """In-flight attempts whose start time is known: a view ticks while it shows one."""
        return tuple(a for a in self.attempts if a.in_flight and a.start is not None)

    def waterfall(self, width: int, now: datetime | None = None) -> Waterfall | None:
        """The attempts as bars scaled to ``width`` cells, or None when no attempt has a
        start time. An in-flight attempt's bar runs to ``now`` (its end is unknown)."""
        if width < 1 or self.origin is None or not self.attempt_times_known:
            return None
        now_offset = offset_between(self.origin, now) if now is not None else None
        ends: list[float] = [self.total or 0.0]
        for a in self.attempts:
            ends.extend(x for x in (a.start_offset, _bar_end(a, now_offset)) if x is not None)
        span = max(ends)
        bars: list[WaterfallBar | None] = []
        for a in self.attempts:
            if a.start_offset is None:
                bars.append(None)
                continue
            end = _bar_end(a, now_offset)
            first = _cell(a.start_offset, span, width, floor)
            last = _cell(end if end is not None else a.start_offset, span, width, ceil)
            first = min(first, width - 1)
            bars.append(
                WaterfallBar(
                    number=a.number,
                    start=first,
                    end=max(first + 1, min(width, last)),
                    status=a.status,
                    open=a.in_flight,
                )
            )
        return Waterfall(width, span, tuple(bars))


def _bar_end(attempt: AttemptTimes, now_offset: float | None) -> float | None:
    if attempt.end_offset is not None:
        return attempt.end_offset
    if attempt.in_flight:
        return now_offset
    if attempt.start_offset is not None and attempt.duration is not None:
        return attempt.start_offset + attempt.duration  # the recorded latency from its start
    return None


def _cell(offset: float, span: float, width: int, rounding: Callable[[float], int]) -> int:
    if span <= 0:
        return 0
    return max(0, rounding(offset / span * width))


def offset_between(origin: datetime, moment: datetime) -> float:
    return (moment - origin).total_seconds()


# --------------------------------------------------------------------------------------
# Building
# --------------------------------------------------------------------------------------


def _time(text: Any) -> datetime | None:
    moment = parse_timestamp(text) if isinstance(text, str) else None
    if moment is None:
        return None
    try:
        return moment.astimezone(UTC)
    except (OverflowError, ValueError):  # an offset pushes it past year 1 or 9999
        return None


def _payload_time(event: ExecutionEvent) -> EventTime | None:
    payload = event.raw.get("payload")  # raw: this runs for each attempt of a huge record
    if not isinstance(payload, dict):
        return None
    stamp = payload.get("timestamp")
    if stamp is not None:
        moment = _time(stamp)
        if moment is not None:
            return EventTime(moment, SOURCE_EVENT)
    metadata = payload.get("metadata")
    if isinstance(metadata, Mapping) and event.raw.get("type") == FINAL:
        moment = _time(metadata.get("timestamp"))
        if moment is not None:
            return EventTime(moment, SOURCE_RESPONSE)
    return None


def _trusted_entries(log: WalLog | None) -> tuple[WalEntry, ...]:
    if log is None:
        return ()
    return log.entries[: log.trusted_count]


def _by_embedded_event(entries: Sequence[WalEntry]) -> dict[int, datetime]:
    """Event seq -> time, from entries that carry the event they log."""
    times: dict[int, datetime] = {}
    for entry in entries:
        event = entry.payload.get("event")
        if not isinstance(event, Mapping):
            continue
        seq = event.get("seq")
        moment = _time(entry.timestamp_iso)
        if isinstance(seq, int) and not isinstance(seq, bool) and moment is not None:
            times.setdefault(seq, moment)
    return times


def _by_meaning(
    entries: Sequence[WalEntry], timeline: Timeline, events: tuple[ExecutionEvent, ...]
) -> dict[int, datetime]:
    """Event index -> time, joining entries to events by what they record."""
    times: dict[int, datetime] = {}
    started = [e for e in entries if e.entry_type in ("execution.started", "execution.created")]
    if started and events and events[0].type == RECEIVED:
        _put(times, 0, started[0])
    ended = [e for e in entries if e.entry_type in _END_ENTRIES]
    if ended and events and events[-1].type == FINAL:
        _put(times, len(events) - 1, ended[-1])
    fallbacks = [e for e in entries if e.entry_type == "fallback.triggered"]
    for index, entry in zip(timeline.fallback_indexes, fallbacks, strict=False):
        _put(times, index, entry)
    _join_steps(times, entries, timeline.attempts)
    return times


def _join_steps(
    times: dict[int, datetime], entries: Sequence[WalEntry], attempts: tuple[Attempt, ...]
) -> None:
    """The n-th step (in order of starting) is the n-th attempt, if their agents agree."""
    starts: list[WalEntry] = []
    ends: dict[str, WalEntry] = {}
    for entry in entries:
        key = _step_key(entry)
        if entry.entry_type in ("step.started", "agent.invocation_start"):
            starts.append(entry)
        elif entry.entry_type in _STEP_ENDS and key is not None:
            ends.setdefault(key, entry)
    for attempt, start in zip(attempts, starts, strict=False):
        agent = start.payload.get("agent_name", start.payload.get("agent"))
        if isinstance(agent, str) and agent != attempt.agent:
            continue  # a different story: no time is better than a wrong one
        if attempt.event_index is not None and attempt.event_index != attempt.end_index:
            _put(times, attempt.event_index, start)
        key = _step_key(start)
        end = ends.get(key) if key is not None else None
        if end is not None and attempt.end_index is not None:
            _put(times, attempt.end_index, end)


def _step_key(entry: WalEntry) -> str | None:
    payload = entry.payload
    for key in ("step_id", "stepId", "step", "agent_name", "agent"):
        value = payload.get(key)
        if isinstance(value, str):
            return value
    return None


def _put(times: dict[int, datetime], index: int, entry: WalEntry) -> None:
    moment = _time(entry.timestamp_iso)
    if moment is not None:
        times.setdefault(index, moment)


def execution_times(
    record: ExecutionRecord, timeline: Timeline, wal: WalLog | None = None
) -> ExecutionTimes:
    """The times of a record's events and attempts, joined with its WAL when there is one."""
    events = record.events
    entries = _trusted_entries(wal)
    embedded = _by_embedded_event(entries)
    joined = {} if embedded else _by_meaning(entries, timeline, events)

    def lookup(index: int) -> EventTime | None:
        if not 0 <= index < len(events):
            return None
        event = events[index]
        moment = None
        if embedded:
            seq = event.seq
            moment = embedded.get(seq) if seq is not None else None
        elif joined:
            moment = joined.get(index)
        if moment is not None:
            return EventTime(moment, SOURCE_WAL)
        return _payload_time(event)

    candidates: list[tuple[datetime, str]] = []
    header = _time(record.header.created_utc_iso)
    if header is not None:
        candidates.append((header, SOURCE_HEADER))
    if entries and (first := _time(entries[0].timestamp_iso)) is not None:
        candidates.append((first, SOURCE_WAL))
    # The first and last events are where the earliest and latest times are; the
    # decision and the final response sit at the end (no full pass over the events).
    edge = {0, *range(max(0, len(events) - 3), len(events))}
    for index in (*sorted(edge), *joined):
        known = lookup(index)
        if known is not None:
            candidates.append((known.at, known.source))
    if entries and (final := _time(entries[-1].timestamp_iso)) is not None:
        candidates.append((final, SOURCE_WAL))
    events_timed = any(source != SOURCE_HEADER for _, source in candidates)
    origin, origin_source = min(candidates, key=lambda c: c[0]) if candidates else (None, None)
    last = max((c[0] for c in candidates), default=None)
    ended = timeline.state is ExecutionState.COMPLETED  # nothing is in flight any more
    # An attempt the record left open and the log ended (``core.reconcile``) ends when the
    # log's entry does; one only the log started starts when its entry does.
    by_log = (
        {
            entry.seq: moment
            for entry in entries
            if (moment := _time(entry.timestamp_iso)) is not None
        }
        if any(a.log_end_seq is not None or a.log_start_seq is not None for a in timeline.attempts)
        else {}
    )
    attempts = tuple(
        _attempt_times(
            a,
            lookup,
            origin,
            ended,
            by_log.get(a.log_end_seq or -1),
            by_log.get(a.log_start_seq or -1),
        )
        for a in timeline.attempts
    )
    for a in attempts:
        if a.end is not None and (last is None or a.end > last):
            last = a.end
    return ExecutionTimes(origin, origin_source, attempts, last, lookup, events_timed=events_timed)


# An attempt with no end in an execution that completed: not in flight (no clock runs).
UNENDED = "unended"


def _attempt_times(
    attempt: Attempt,
    lookup: Callable[[int], EventTime | None],
    origin: datetime | None,
    ended: bool = False,
    log_end: datetime | None = None,
    log_start: datetime | None = None,
) -> AttemptTimes:
    start_known = (
        lookup(attempt.event_index)
        if attempt.event_index is not None and attempt.event_index != attempt.end_index
        else None
    )
    end_known = lookup(attempt.end_index) if attempt.end_index is not None else None
    start = start_known.at if start_known else log_start
    end = end_known.at if end_known else log_end
    status = UNENDED if ended and attempt.in_flight else attempt.status
    return _times(attempt.number, attempt.agent, status, start, end, attempt.latency_ms, origin)


def _times(
    number: int,
    agent: str,
    status: str,
    start: datetime | None,
    end: datetime | None,
    latency_ms: float | None,
    origin: datetime | None,
) -> AttemptTimes:
    duration: float | None = None
    source: str | None = None
    if start is not None and end is not None:
        duration, source = (end - start).total_seconds(), DURATION_CLOCK
    elif latency_ms is not None and latency_ms >= 0:
        duration, source = latency_ms / 1000, DURATION_LATENCY
    return AttemptTimes(
        number=number,
        agent=agent,
        status=status,
        start=start,
        end=end,
        start_offset=offset_between(origin, start) if origin and start else None,
        end_offset=offset_between(origin, end) if origin and end else None,
        duration=duration,
        duration_source=source,
    )


_WAL_STEP_STATUS = {"completed": "ok", "failed": "error", "started": "in_flight"}


def wal_times(log: WalLog) -> ExecutionTimes:
    """An execution known only from its WAL: each entry is a timeline row with its own
    time; each step is an attempt, from its start entry to its end entry."""
    entries = log.entries
    by_seq: dict[int, datetime] = {}
    for entry in _trusted_entries(log):
        moment = _time(entry.timestamp_iso)
        if moment is not None:
            by_seq.setdefault(entry.seq, moment)

    def lookup(index: int) -> EventTime | None:
        if not 0 <= index < len(entries) or index >= log.trusted_count:
            return None
        moment = _time(entries[index].timestamp_iso)
        return EventTime(moment, SOURCE_WAL) if moment is not None else None

    known = sorted(by_seq.values())
    origin = known[0] if known else None
    attempts = tuple(
        _times(
            number,
            sanitize_line(step.agent or step.step_id),
            _WAL_STEP_STATUS.get(step.status, step.status),
            by_seq.get(step.started_seq) if step.started_seq is not None else None,
            by_seq.get(step.ended_seq) if step.ended_seq is not None else None,
            None,
            origin,
        )
        for number, step in enumerate(log.steps, start=1)
    )
    return ExecutionTimes(
        origin,
        SOURCE_WAL if origin else None,
        attempts,
        known[-1] if known else None,
        lookup,
        events_timed=bool(known),
    )


# --------------------------------------------------------------------------------------
# Text: one way everywhere (the CLI, the debugger, the JSON's companions)
# --------------------------------------------------------------------------------------


def clock_text(moment: datetime | None) -> str:
    """ISO-8601 UTC to the millisecond, ``2026-01-05T09:09:07.286Z`` (events of one
    execution are often under a second apart: the second alone would tell them apart
    from nothing), or a dash."""
    if moment is None:
        return NO_TIME
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def json_time(moment: datetime | None) -> str | None:
    """Full precision ISO-8601 UTC with ``Z`` for JSON, or None."""
    if moment is None:
        return None
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat() + "Z"


def duration_text(seconds: float | None) -> str:
    """``850ms``, ``2.86s``, ``12.3s``, ``3m12s``, ``2h03m``, ``3d04h``; a dash for None."""
    if seconds is None:
        return NO_TIME
    if seconds < 0:
        return "-" + duration_text(-seconds)
    if seconds < 1:
        return f"{seconds * 1000:.0f}ms"
    if seconds < 10:
        return f"{seconds:.2f}s"
    if seconds < 60:
        return f"{seconds:.1f}s"
    whole = int(seconds)
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    if whole < 86400:
        return f"{whole // 3600}h{whole % 3600 // 60:02d}m"
    return f"{whole // 86400}d{whole % 86400 // 3600:02d}h"


def offset_text(seconds: float | None) -> str:
    """``+0.286s``, ``+12.34s``, ``+3m12.4s``, ``+2h03m`` since the origin; a dash for None.
    At most 8 characters, so it fits a fixed column."""
    if seconds is None:
        return NO_TIME
    sign = "-" if seconds < 0 else "+"
    seconds = abs(seconds)
    # Cut, not rounded, as ``clock_text`` cuts its milliseconds: an event 0.2866 s after a
    # start on a whole second reads +0.286s beside its clock's .286Z (it read +0.287s).
    if seconds < 10:
        return f"{sign}{int(seconds * 1000 + 1e-6) / 1000:.3f}s"
    if seconds < 60:
        return f"{sign}{int(seconds * 100 + 1e-6) / 100:.2f}s"
    if seconds < 599.95:
        minutes, tenths = divmod(round(seconds * 10), 600)
        return f"{sign}{minutes}m{tenths / 10:04.1f}s"
    return sign + duration_text(seconds)


def attempt_json(times: AttemptTimes) -> dict[str, object]:
    """The additive time fields of an attempt in ``inspect --json``."""
    return {
        "started_at": json_time(times.start),
        "ended_at": json_time(times.end),
        "start_offset_s": _rounded(times.start_offset),
        "end_offset_s": _rounded(times.end_offset),
        "duration_s": _rounded(times.duration),
        "duration_source": times.duration_source,
    }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 6)
