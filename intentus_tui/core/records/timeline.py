"""What happened in one execution: state, attempts, their shape, crash point.

Works on both event vocabularies: 1.3.0's (``AGENT_ATTEMPT_START {agent, strategy, index?}``,
``FALLBACK_TRIGGERED {from, to}``) and the documented one (``attempt_num``, ``latency_ms``,
``from_agent``/``to_agent``, ``reason``). Unknown event types pass through as rows.
Every string destined for display is sanitized here.

The attempts are drawn by the strategy they recorded. A fallback run is a chain, each
attempt started because the one before failed (``a ✗ → b ✓``). A broadcast or parallel run
is a fan-out, every agent given the intent whatever the others did (``⇉ a ✗ | b ✓``): 1.3.0
broadcast answers with the LAST success, parallel with the FIRST one to finish successfully
(recording the branches in the order they finished, and none after that success).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple, overload

import orjson

from intentus_tui.core.model import ExecutionState
from intentus_tui.core.records.load import (
    ExecutionEvent,
    ExecutionRecord,
    LoadResult,
    LoadStatus,
    not_an_object,
)
from intentus_tui.core.sanitize import sanitize_line

START = "AGENT_ATTEMPT_START"
END = "AGENT_ATTEMPT_END"
FALLBACK = "FALLBACK_TRIGGERED"
FINAL = "FINAL_RESPONSE"
DECISION = "ROUTER_DECISION"
RECEIVED = "INTENT_RECEIVED"

FAN_OUT_STRATEGIES = frozenset({"broadcast", "parallel"})
FAN_OUT_MARK = "⇉"

_OK = {"ok", "success", "succeeded", "completed", "done"}
_ERROR = {"error", "failed", "failure", "exception", "timeout"}


def normalize_status(status: Any) -> str:
    if not isinstance(status, str):
        return "unknown" if status is None else "invalid"
    lowered = status.lower()
    if lowered in _OK:
        return "ok"
    if lowered in _ERROR:
        return "error"
    return sanitize_line(status)  # any other recorded status is shown as it was written


@dataclass(frozen=True, slots=True)
class Attempt:
    number: int  # 1-based, in order of starting
    agent: str
    strategy: str | None
    index: int | None
    status: str  # ok | error | in_flight | other recorded status
    exception: str | None
    latency_ms: float | None
    start_seq: int | None
    end_seq: int | None
    event_index: int | None = None  # its first event (the start, or an end without one)
    end_index: int | None = None  # its end event
    # The write-ahead log's entry that ended it, when the record has no end for it (see
    # ``core.reconcile``): its status is then the log's.
    log_end_seq: int | None = None
    # The log's entry that started it, when the record holds no start for it (written
    # before the attempt began: a live execution's): all it says is the log's.
    log_start_seq: int | None = None

    @property
    def in_flight(self) -> bool:
        return self.status == "in_flight"

    @property
    def mark(self) -> str:
        return attempt_mark(self.status)


def attempt_mark(status: str) -> str:
    """An attempt's status as the chain draws it."""
    return {"ok": "✓", "error": "✗", "in_flight": "…"}.get(status, "?")


class FallbackStep(NamedTuple):
    from_agent: str
    to_agent: str
    reason: str | None
    seq: int | None
    # The write-ahead log's entry, for a fallback only the log has (the record, still
    # being written, stops before it: see ``core.reconcile``).
    log_seq: int | None = None


@dataclass(frozen=True, slots=True)
class EventRow:
    """One timeline line: what the UI and ``inspect`` show for an event."""

    index: int
    seq: int | None
    type: str
    agent: str
    status: str
    summary: str
    is_fallback: bool
    is_error: bool
    in_flight: bool  # this is the start of the attempt that never ended


@dataclass(frozen=True, slots=True)
class Timeline:
    state: ExecutionState
    attempts: tuple[Attempt, ...]
    fallbacks: tuple[FallbackStep, ...]
    rows: Sequence[EventRow]  # built on first access: a 100,000-event record opens at once
    in_flight: tuple[Attempt, ...]
    last_event: EventRow | None
    decided_agent: str | None
    final_status: str | None  # normalized status of the final response
    fallback_indexes: tuple[int, ...] = ()  # rows that are fallbacks (for jumping)
    error_indexes: tuple[int, ...] = ()  # rows that record an error or exception
    strategy: str | None = None  # as the attempts recorded it ("BROADCAST"), sanitized
    decision_reason: str | None = None  # the router's reason for its answer, sanitized
    # Where the record's attempts and its write-ahead log's steps tell different stories
    # (``core.reconcile``), sanitized; None when they agree or there is no log.
    log_disagreement: str | None = None
    final_kind: str | None = None  # what a finalResponse that is not an object is instead

    @property
    def final_text(self) -> str:
        """The final response's status, what it is when it is no object, or ``none``."""
        if self.final_kind is not None:
            return f"{self.final_kind}, not an object"
        return self.final_status or "none"

    @property
    def fan_out(self) -> str | None:
        """``broadcast`` or ``parallel`` when the attempts ran side by side, else None."""
        return fan_out_of(self.strategy)

    @property
    def chain(self) -> str:
        """``a ✗ → b ✓`` (tried in turn) or ``⇉ a ✗ | b ✓`` (side by side)."""
        return chain_text([f"{a.agent} {a.mark}" for a in self.attempts], self.fan_out)

    @property
    def attempt_count(self) -> int:
        return len(self.attempts)

    @property
    def shape(self) -> str:
        """``fan-out`` (broadcast, parallel), ``chain`` (tried in turn), ``single`` or
        ``none`` (no attempt recorded)."""
        if self.fan_out is not None:
            return "fan-out"
        return {0: "none", 1: "single"}.get(len(self.attempts), "chain")

    @property
    def attempt_indexes(self) -> tuple[int, ...]:
        """The row where each attempt begins, in order (for jumping)."""
        return tuple(sorted(a.event_index for a in self.attempts if a.event_index is not None))

    @property
    def answered_by(self) -> Attempt | None:
        """The attempt whose response the router chose: the decided agent's successful
        attempt (broadcast: the last one; otherwise the first)."""
        if self.decided_agent is None:
            return None
        chosen = [a for a in self.attempts if a.agent == self.decided_agent and a.status == "ok"]
        if not chosen:
            return None
        return chosen[-1] if self.fan_out == "broadcast" else chosen[0]

    def shape_note(self) -> str:
        """How the attempts relate, in words: what ``f`` says when no event is a fallback."""
        count = len(self.attempts)
        if self.fan_out is not None:
            return f"{self.fan_out}: {count} branch{'' if count == 1 else 'es'}, no fallback chain"
        logged = [f"WAL #{f.log_seq}" for f in self.fallbacks if f.log_seq is not None]
        if logged:  # the record stops before them: no row to step to
            what = "fallback is" if len(logged) == 1 else "fallbacks are"
            it = "it" if len(logged) == 1 else "them"
            where = ", ".join(logged)
            return f"the {what} the write-ahead log's only ({where}): the record stops before {it}"
        if count == 1:
            how = (self.strategy or "single").lower()
            return f"{how}: 1 attempt, no fallback chain"
        if count == 0:
            return "no agent attempts recorded"
        return f"{count} attempts, no fallback recorded"


def display_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return sanitize_line(value)
    return sanitize_line(_compact(value))


def _compact(value: Any, limit: int = 200) -> str:
    try:
        dumped = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except (TypeError, orjson.JSONEncodeError):
        dumped = repr(value)
    return dumped if len(dumped) <= limit else dumped[: limit - 1] + "…"


def fan_out_of(strategy: str | None) -> str | None:
    """``broadcast`` or ``parallel`` when attempts recorded under ``strategy`` (as sanitized
    for display) ran side by side; None for a chain, a single attempt or an unknown one."""
    if not strategy:
        return None
    lowered = strategy.lower()
    return lowered if lowered in FAN_OUT_STRATEGIES else None


def chain_text(steps: Sequence[str], fan_out: str | None) -> str:
    """The one-line drawing of the attempts (``"agent mark"`` each): a chain is tried in
    turn (``a ✗ → b ✓``), a fan-out side by side (``⇉ a ✗ | b ✓``). The list's two summary
    halves and the timeline all draw it here, so they cannot disagree."""
    if not steps:
        return ""
    if fan_out is not None:
        return f"{FAN_OUT_MARK} " + " | ".join(steps)
    return " → ".join(steps)


def _first(payload: dict[str, Any], *keys: str) -> Any:
    for key in keys:
        if key in payload and payload[key] is not None:
            return payload[key]
    return None


def _number(value: Any) -> float | None:
    """A finite number as a float; None for anything else, a number beyond floats (a
    400-digit integer) or infinity and NaN included: no time or count can be made of it."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _error_message(error: Any) -> str:
    if isinstance(error, dict):
        code, message = error.get("code"), error.get("message")
        return ": ".join(str(x) for x in (code, message) if x is not None) or _compact(error)
    return "" if error is None else str(error)


def _summary(event: ExecutionEvent) -> str:
    p = event.payload
    kind = event.type
    if kind == RECEIVED:
        return f"intent {display_text(_first(p, 'intent', 'intentName'))}".strip()
    if kind == START:
        bits = [display_text(p.get("agent"))]
        if p.get("strategy") is not None:
            bits.append(f"strategy {display_text(p.get('strategy'))}")
        attempt = _first(p, "attempt_num", "attempt", "index")
        if attempt is not None:
            bits.append(f"attempt {display_text(attempt)}")
        return "  ".join(b for b in bits if b)
    if kind == END:
        bits = [display_text(p.get("agent")), display_text(p.get("status"))]
        latency = _number(_first(p, "latency_ms", "latencyMs"))
        if latency is not None:
            bits.append(f"{latency:g}ms")  # as every duration shown: one word
        exception = _first(p, "exception", "error")
        if exception is not None:
            bits.append(display_text(_error_message(exception)))
        return "  ".join(b for b in bits if b)
    if kind == FALLBACK:
        src = display_text(_first(p, "from", "from_agent", "fromAgent"))
        dst = display_text(_first(p, "to", "to_agent", "toAgent"))
        reason = _first(p, "reason")
        return f"{src} → {dst}" + (f"  ({display_text(reason)})" if reason is not None else "")
    if kind == DECISION:
        reason = p.get("reason")
        return display_text(p.get("agent")) + (
            f"  ({display_text(reason)})" if reason is not None else ""
        )
    if kind == FINAL:
        status = display_text(p.get("status"))
        error = p.get("error")
        return status + (f"  {display_text(_error_message(error))}" if error else "")
    return display_text(p) if p else ""  # JSON escapes C0 only: DEL, C1 and bidi need sanitizing


def _event_status(event: ExecutionEvent) -> str:
    if event.type in (END, FINAL):
        return normalize_status(event.payload.get("status"))
    return ""


class AttemptAnalysis(NamedTuple):
    """Attempts and fallbacks: what both the timeline and the cheap index summary need."""

    attempts: tuple[Attempt, ...]
    fallbacks: tuple[FallbackStep, ...]
    open_starts: frozenset[int]  # event indexes of starts that never ended
    strategy: str | None = None  # the first strategy an attempt recorded, sanitized

    @property
    def fan_out(self) -> str | None:
        return fan_out_of(self.strategy)

    @property
    def chain(self) -> str:
        return chain_text([f"{a.agent} {a.mark}" for a in self.attempts], self.fan_out)

    @property
    def in_flight(self) -> tuple[Attempt, ...]:
        return tuple(a for a in self.attempts if a.in_flight)


def _name(value: Any) -> str:
    return value if isinstance(value, str) else (display_text(value) or "?")


def analyze_attempts(events: tuple[ExecutionEvent, ...]) -> AttemptAnalysis:
    """Pair each start with its end (per agent, latest first) and collect fallbacks.

    Reads the raw event dicts directly: this runs for every file the index sees.
    """
    attempts: list[dict[str, Any]] = []
    fallbacks: list[FallbackStep] = []
    open_by_agent: dict[str, list[int]] = {}
    open_events: dict[int, int] = {}  # attempt position -> event index
    for index, event in enumerate(events):
        raw = event.raw
        kind = raw.get("type")
        if kind not in (START, END, FALLBACK):
            continue
        payload = raw.get("payload")
        if not isinstance(payload, dict):
            payload = {}
        if kind == FALLBACK:
            reason = payload.get("reason")
            fallbacks.append(
                FallbackStep(
                    from_agent=display_text(_first(payload, "from", "from_agent", "fromAgent")),
                    to_agent=display_text(_first(payload, "to", "to_agent", "toAgent")),
                    reason=display_text(reason) if reason is not None else None,
                    seq=event.seq,
                )
            )
            continue
        agent = _name(payload.get("agent"))
        if kind == START:
            position = len(attempts)
            attempts.append(
                {
                    "agent": agent,
                    "strategy": display_text(payload.get("strategy")) or None,
                    "index": _first(payload, "index", "attempt_num"),
                    "start_seq": event.seq,
                    "event_index": index,
                }
            )
            open_by_agent.setdefault(agent, []).append(position)
            open_events[position] = index
            continue
        stack = open_by_agent.get(agent)
        if stack:
            position = stack.pop()
            open_events.pop(position, None)
        else:  # an end without a start: still an attempt the user should see
            position = len(attempts)
            attempts.append({"agent": agent, "event_index": index})
        exception = _first(payload, "exception", "error")
        attempts[position].update(
            status=normalize_status(payload.get("status")),
            exception=display_text(_error_message(exception)) if exception is not None else None,
            latency_ms=_number(_first(payload, "latency_ms", "latencyMs")),
            end_seq=event.seq,
            end_index=index,
        )
    built = tuple(
        Attempt(
            number=n + 1,
            agent=display_text(a["agent"]),
            strategy=a.get("strategy"),
            index=a["index"] if isinstance(a.get("index"), int) else None,
            status=a.get("status", "in_flight"),
            exception=a.get("exception"),
            latency_ms=a.get("latency_ms"),
            start_seq=a.get("start_seq"),
            end_seq=a.get("end_seq"),
            event_index=a.get("event_index"),
            end_index=a.get("end_index"),
        )
        for n, a in enumerate(attempts)
    )
    strategy = next((a.strategy for a in built if a.strategy), None)
    return AttemptAnalysis(built, tuple(fallbacks), frozenset(open_events.values()), strategy)


def execution_state(record: ExecutionRecord | None, status: LoadStatus) -> ExecutionState:
    if record is None or status is not LoadStatus.OK:
        return ExecutionState.CORRUPTED
    if record.final_response is None:
        return ExecutionState.INCOMPLETE
    return ExecutionState.COMPLETED


def _is_error(event: ExecutionEvent) -> bool:
    return _event_status(event) == "error" or "exception" in event.payload


class FanOut:
    """A broadcast or parallel run's events drawn as branches off the routing: each
    branch's start (``├─⇉ replica  branch 2 of 4``), its end under it with its result
    (``│  └ ✓ replica  ok``), the answer marked, and the router's decision naming it."""

    def __init__(self, timeline: Timeline) -> None:
        self._count = len(timeline.attempts)
        self._answer = timeline.answered_by
        self._fan_out = timeline.fan_out
        first = timeline.attempts[0].event_index if timeline.attempts else None
        # The routing's own line, the intent arriving, is the root the branches hang off.
        self._root = first - 1 if first else None
        self._starts: dict[int, Attempt] = {}
        self._ends: dict[int, Attempt] = {}
        for attempt in timeline.attempts:
            if attempt.event_index is not None:
                self._starts[attempt.event_index] = attempt
            if attempt.end_index is not None and attempt.end_index != attempt.event_index:
                self._ends[attempt.end_index] = attempt

    def _answer_note(self, attempt: Attempt) -> str:
        return "  ← answer" if attempt is self._answer else ""

    def summary(self, index: int, event: ExecutionEvent) -> str:
        base = _summary(event)
        attempt = self._starts.get(index)
        if attempt is not None:
            branch = "└─" if attempt.number == self._count else "├─"
            if attempt.end_index == index:  # an end with no start: the branch is this line
                return f"{branch}{FAN_OUT_MARK} {attempt.mark} {base}{self._answer_note(attempt)}"
            where = f"branch {attempt.number}/{self._count}"
            return f"{branch}{FAN_OUT_MARK} {attempt.agent}  {where}"
        attempt = self._ends.get(index)
        if attempt is not None:
            gutter = "   " if attempt.number == self._count else "│  "
            return f"{gutter}└ {attempt.mark} {base}{self._answer_note(attempt)}"
        if index == self._root and event.type == RECEIVED:
            branches = f"{self._count} branch{'' if self._count == 1 else 'es'}"
            return f"{base}  {FAN_OUT_MARK} {self._fan_out} to {branches}"
        if event.type == DECISION and self._answer is not None:
            return f"{base}  · answer from branch {self._answer.number} of {self._count}"
        return base


class EventRows(Sequence[EventRow]):
    """The timeline's rows, each built (and kept) the first time it is read.

    A row's summary costs a few microseconds; a widget shows a screenful at a time, so
    rendering never pays for 100,000 rows up front.
    """

    def __init__(
        self,
        events: tuple[ExecutionEvent, ...],
        open_starts: frozenset[int],
        fan_out: FanOut | None = None,
        log_ended: Mapping[int, Attempt] | None = None,
    ) -> None:
        self._events = events
        self._open_starts = open_starts
        self._fan_out = fan_out
        self._log_ended = log_ended or {}  # start row -> its attempt, ended by the log
        self._built: dict[int, EventRow] = {}

    def closing(self, ended: Mapping[int, Attempt]) -> EventRows:
        """These rows with the attempts starting at ``ended``'s rows closed as their log
        ended them (``core.reconcile``): each start row says how, and is no longer open."""
        starts = frozenset(ended)
        return EventRows(self._events, self._open_starts - starts, self._fan_out, ended)

    def __len__(self) -> int:
        return len(self._events)

    @overload
    def __getitem__(self, index: int) -> EventRow: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[EventRow]: ...
    def __getitem__(self, index: int | slice) -> EventRow | Sequence[EventRow]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self._events)
        if not 0 <= index < len(self._events):
            raise IndexError(index)
        row = self._built.get(index)
        if row is None:
            row = self._built[index] = self._build(index)
            attempt = self._log_ended.get(index)
            if attempt is not None:  # the record has no end for it: its log's end, said so
                row = self._built[index] = replace(
                    row,
                    status=attempt.status,
                    is_error=attempt.status == "error",
                    summary=f"{row.summary}  · ended as WAL #{attempt.log_end_seq} says",
                )
        return row

    def _build(self, i: int) -> EventRow:
        e = self._events[i]
        return EventRow(
            index=i,
            seq=e.seq,
            type=display_text(e.type),
            agent=display_text(e.payload.get("agent") or _first(e.payload, "from", "from_agent")),
            status=_event_status(e),
            summary=self._fan_out.summary(i, e) if self._fan_out is not None else _summary(e),
            is_fallback=e.type == FALLBACK,
            is_error=_is_error(e),
            in_flight=i in self._open_starts,
        )


def build_timeline(record: ExecutionRecord, status: LoadStatus = LoadStatus.OK) -> Timeline:
    events = record.events
    analysis = analyze_attempts(events)
    decided = decided_agent(record)
    decision = record.router_decision
    reason = decision.get("reason") if isinstance(decision, dict) else None
    timeline = Timeline(
        state=execution_state(record, status),
        attempts=analysis.attempts,
        fallbacks=analysis.fallbacks,
        rows=(),
        in_flight=analysis.in_flight,
        last_event=None,
        decided_agent=decided,
        final_status=final_status(record),
        strategy=analysis.strategy,
        decision_reason=display_text(reason) or None,
        final_kind=not_an_object(record.final_response),
    )
    fan_out = FanOut(timeline) if timeline.fan_out is not None and analysis.attempts else None
    rows = EventRows(events, analysis.open_starts, fan_out)
    return replace(
        timeline,
        rows=rows,
        last_event=rows[-1] if rows else None,
        fallback_indexes=tuple(i for i, e in enumerate(events) if e.type == FALLBACK),
        error_indexes=tuple(i for i, e in enumerate(events) if _is_error(e)),
    )


def decided_agent(record: ExecutionRecord) -> str | None:
    decision = record.router_decision
    return (display_text(decision.get("agent")) or None) if isinstance(decision, dict) else None


def final_status(record: ExecutionRecord) -> str | None:
    final = record.final_response
    return normalize_status(final.get("status")) if isinstance(final, dict) else None


def timeline_of(result: LoadResult) -> Timeline | None:
    return build_timeline(result.record, result.status) if result.record is not None else None
