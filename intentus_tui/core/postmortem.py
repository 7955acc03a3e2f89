"""The morning after a crash: what one execution was doing when it stopped.

Combines the record (if any) and the write-ahead log (if any): the last recorded event,
the attempt or step in flight and its side-effect class, what completed before it, where
the record and the log disagree, and a recovery *hint*: IntentusNet never retries an
incomplete execution by itself (a retry may duplicate side effects); the operator decides.
"""

from __future__ import annotations

from dataclasses import dataclass

from intentus_tui.core.model import RECORD_REMOVED
from intentus_tui.core.reconcile import from_log, in_flight_of, log_ended
from intentus_tui.core.records.timeline import Attempt, ExecutionState, Timeline
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.verdict import CLAIMED
from intentus_tui.core.wal.analyse import RecoveryHint, WalStep, recovery_hint
from intentus_tui.core.wal.read import WalLog, broken_chain_hint


@dataclass(frozen=True, slots=True)
class PostMortem:
    # completed | incomplete | corrupted (a record's); a WAL-only execution's WAL state
    # (completed, failed, aborted, in_flight), or chain_broken when its WAL's chain breaks
    state: str
    last_event: str | None  # one line: "#5 AGENT_ATTEMPT_START fb-primary"
    in_flight: tuple[str, ...]  # attempts/steps started and never ended
    side_effect: str | None  # the in-flight step's side-effect class, when declared
    completed_before: tuple[str, ...]  # attempts/steps that ended before the crash
    disagreements: tuple[str, ...]  # record vs WAL
    hint: RecoveryHint
    sources: tuple[str, ...]  # "record", "wal"
    # Where the WAL's hash chain breaks and what is still believed; None when it holds.
    chain_break: ChainBreak | None = None
    # What broke when the evidence fails its integrity check (the WAL's chain, the record):
    # every presentation leads with it and the hint, before any state the evidence claims.
    untrusted: str | None = None
    # Which of ``in_flight`` the side effect is the class of (the log's step in flight):
    # None when it is none of them. A record naming another agent in flight than its log
    # does gets the log's step as a line of its own, the side effect on it.
    side_effect_at: int | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "state": self.state,
            "untrusted": self.untrusted,
            "chain_break": None if self.chain_break is None else self.chain_break.to_json(),
            "last_event": self.last_event,
            "in_flight": list(self.in_flight),
            "side_effect": self.side_effect,
            "side_effect_at": self.side_effect_at,
            "completed_before": list(self.completed_before),
            "disagreements": list(self.disagreements),
            "hint": {"verdict": self.hint.verdict, "reason": self.hint.reason},
            "sources": list(self.sources),
        }


@dataclass(frozen=True, slots=True)
class ChainBreak:
    """The first broken entry of a write-ahead log, and what can still be believed."""

    line: int
    seq: int | None
    kind: str
    message: str
    trusted_through_seq: int | None  # the last entry before the break (None: none)
    trusted_state: str  # what the trusted entries establish
    claimed_state: str  # what the whole log claims (untrusted)
    summary: str  # one line saying all of the above

    def to_json(self) -> dict[str, object]:
        return {
            "line": self.line,
            "seq": self.seq,
            "kind": self.kind,
            "message": self.message,
            "trusted_through_seq": self.trusted_through_seq,
            "trusted_state": self.trusted_state,
            "claimed_state": self.claimed_state,
            "summary": self.summary,
        }


def chain_break_of(log: WalLog) -> ChainBreak | None:
    issue = log.chain_break
    if issue is None:
        return None
    last = log.last_trusted_entry
    return ChainBreak(
        line=issue.line_no,
        seq=issue.seq,
        kind=issue.kind,
        message=sanitize_line(issue.message),
        trusted_through_seq=last.seq if last is not None else None,
        trusted_state=log.state,
        claimed_state=log.claimed_state,
        summary=sanitize_line(log.describe_break() or ""),
    )


def _record_state_for_hint(timeline: Timeline, failed: bool) -> str:
    if timeline.state is ExecutionState.COMPLETED:
        return "completed"
    if failed:  # damaged, but what survived says every attempt failed (the verdict's outcome)
        return "failed"
    if timeline.in_flight or timeline.state is ExecutionState.INCOMPLETE:
        return "in_flight"
    return "unknown"  # damaged: we cannot tell how far it got


def _wal_lines(log: WalLog) -> tuple[str | None, tuple[str, ...], tuple[str, ...]]:
    # Steps come from the trusted entries only (the log keeps them so); the last event too.
    last = log.last_trusted_entry
    last_line = f"WAL #{last.seq} {last.entry_type}" if last else None
    claimed = log.last_entry
    if log.chain_break is not None and claimed is not None and claimed is not last:
        untrusted = f"untrusted after it, up to WAL #{claimed.seq} {claimed.entry_type}"
        last_line = f"{last_line} ({untrusted})" if last_line else f"nothing trusted ({untrusted})"
    step = log.in_flight_step
    in_flight = (f"step {step.step_id} ({step.agent or 'agent unknown'})",) if step else ()
    done = tuple(
        f"step {s.step_id} ({s.agent or '?'}) {s.status}"
        + (f", side effect {s.side_effect}" if s.side_effect else "")
        for s in log.steps
        if s.status != "started"
    )
    return last_line, in_flight, done


def build_postmortem(
    timeline: Timeline | None,
    wal: WalLog | None,
    *,
    record_distrust: str | None = None,
    replay_refused: str | None = None,
    failed: bool = False,
    record_removed: bool = False,
    record_catching_up: bool = False,
) -> PostMortem:
    """Never raises; works with a record, a WAL, both, or (degenerate) neither.

    ``record_distrust``: why the record itself cannot be believed (its hash differs with no
    harmless story, or it contradicts itself): then nothing it says may be replayed.
    ``replay_refused``: why the verdict refuses to replay the recorded response, if it does
    (an operator invalidated it, it was not recorded properly): the hint never advises it.
    ``failed``: the verdict's outcome is failed (a record cut short after every attempt
    failed is hinted at as a failure, not as a state nothing says).
    ``record_removed``: known from its log alone because its record file, seen before, was
    removed: evidence gone missing, said among the disagreements and by the hint.
    ``record_catching_up``: its log recorded completion moments ago and the record is still
    being written (the summary's ``record_catching_up``, which its verdict says): not a
    disagreement yet.
    """
    sources: list[str] = []
    last_event: str | None = None
    in_flight: tuple[str, ...] = ()
    completed: tuple[str, ...] = ()
    state = "unknown"
    if timeline is not None:
        sources.append("record")
        state = timeline.state.value
        last = timeline.last_event
        if last is not None:
            last_event = f"#{last.seq} {last.type} {last.summary}".strip()
        in_flight = tuple(
            f"{a.agent} (attempt {a.number}, {from_log(a) or f'started at seq {a.start_seq}'})"
            for a in timeline.in_flight
        )
        completed = tuple(
            f"{a.agent} {a.status}" + (" (as the write-ahead log says)" if a.log_end_seq else "")
            for a in timeline.attempts
            if not a.in_flight
        )
    said_by_record = (in_flight, completed)  # the record's own account, before the log's
    side_effect: str | None = None
    side_effect_at: int | None = None
    disagreements: list[str] = []
    broken: ChainBreak | None = None
    if wal is not None:
        sources.append("wal")
        wal_last, wal_in_flight, wal_done = _wal_lines(wal)
        last_event = last_event or wal_last
        completed = completed or wal_done
        step = wal.in_flight_step
        side_effect = step.side_effect if step else None
        if step is not None and timeline is not None and timeline.in_flight:
            in_flight, side_effect_at = _with_log_step(in_flight, timeline, step, wal)
        elif step is not None:  # the record has no attempt in flight: the log's step
            in_flight, side_effect_at = wal_in_flight, 0
        broken = chain_break_of(wal)
        if timeline is None:
            state = "chain_broken" if broken is not None else wal.state
        if broken is None and timeline is not None:  # a broken log's claims prove nothing
            if timeline.state is ExecutionState.COMPLETED and wal.state == "in_flight":
                disagreements.append("the record is complete but the WAL never recorded completion")
            behind = timeline.state is ExecutionState.INCOMPLETE and wal.state == "completed"
            if behind and not record_catching_up:  # being written: no disagreement yet
                disagreements.append("the WAL says completed but the record has no final response")
        if timeline is not None:  # closed by trusted entries (a broken log's first ones count)
            disagreements += [text for a in timeline.attempts if (text := log_ended(a))]
            if timeline.log_disagreement is not None:
                disagreements.append(timeline.log_disagreement)
    if record_removed and timeline is None:
        disagreements.append(f"{RECORD_REMOVED}: only the write-ahead log is left")
    hint = _hint(timeline, wal, record_distrust, replay_refused, failed, record_removed)
    untrusted: str | None = None
    if broken is not None:
        untrusted = f"the write-ahead log fails its integrity check: {broken.summary}"
    elif record_distrust is not None and timeline is not None:
        untrusted = f"the record fails its integrity check: {record_distrust}"
    if untrusted is not None:
        # Nothing vouches for what the record says happened (a broken log's own claims
        # are cut at its break already): each such line says it is only claimed.
        if completed and completed is said_by_record[1]:
            completed = tuple(f"{item} {CLAIMED}" for item in completed)
        said = len(said_by_record[0])  # the record's lines come first; the log's follow
        in_flight = tuple(f"{x} {CLAIMED}" if n < said else x for n, x in enumerate(in_flight))
    return PostMortem(
        state=state,
        last_event=sanitize_line(last_event) if last_event else None,
        in_flight=tuple(sanitize_line(x) for x in in_flight),
        side_effect=side_effect,
        completed_before=tuple(sanitize_line(x) for x in completed),
        disagreements=tuple(sanitize_line(x) for x in disagreements),
        hint=hint,
        sources=tuple(sources),
        chain_break=broken,
        untrusted=sanitize_line(untrusted) if untrusted else None,
        side_effect_at=side_effect_at,
    )


def _with_log_step(
    in_flight: tuple[str, ...], timeline: Timeline, step: WalStep, wal: WalLog
) -> tuple[tuple[str, ...], int]:
    """The record's attempts in flight (``in_flight``, one line each) and which is the
    log's step in flight: the attempt it pairs with, or a line of the log's own when the
    record has no such attempt in flight (its side effect is then no attempt's of the
    record's, whose agent may be another)."""
    paired = in_flight_of(timeline, step, wal)
    if paired is not None:
        return in_flight, timeline.in_flight.index(paired)
    seq = f", started at WAL #{step.started_seq}" if step.started_seq is not None else ""
    own = (
        f"{step.agent or 'agent unknown'} (step {step.step_id}{seq}: in flight in the "
        "write-ahead log, not in the record)"
    )
    return (*in_flight, own), len(in_flight)


def _hint(
    timeline: Timeline | None,
    wal: WalLog | None,
    record_distrust: str | None = None,
    replay_refused: str | None = None,
    failed: bool = False,
    record_removed: bool = False,
) -> RecoveryHint:
    if wal is not None and wal.chain_break is not None:
        return broken_chain_hint(wal)
    if record_distrust is not None and timeline is not None:
        return RecoveryHint(
            "investigate_first",
            "Do not replay its response or act on what it says before finding out who or "
            "what changed it.",
        )
    if wal is not None and wal.checkable:
        # The WAL knows side-effect classes; a record never does. Only a record's final
        # response can be replayed: a WAL alone has none. A record there, cut short or
        # refused, is said to be refused (not "no record was written").
        has_response = timeline is not None and (
            timeline.state is ExecutionState.COMPLETED or replay_refused is not None
        )
        return wal.hint_for(
            response_recorded=has_response,
            replay_refused=replay_refused,
            record_removed=record_removed and timeline is None,
        )
    if timeline is None:
        return recovery_hint("unknown", in_flight=False)
    # 1.3.0 records carry no side-effect classes: ended attempts' effects are unknown.
    ended = [a for a in timeline.attempts if not a.in_flight]
    return recovery_hint(
        _record_state_for_hint(timeline, failed),
        in_flight=bool(timeline.in_flight),
        in_flight_side_effect=None,
        side_effects_completed=None if ended else False,
        replay_refused=replay_refused,
        ended=_ended_text(ended),
    )


def _ended_text(ended: list[Attempt]) -> tuple[str, ...]:
    """``#1 fb-primary (error)`` for each attempt a record says ended, with how (an attempt
    that failed completed nothing, yet may have changed something first)."""
    return tuple(f"#{a.number} {sanitize_line(a.agent or '?')} ({a.status})" for a in ended)
