"""What a record's attempts lack and its write-ahead log holds.

**Closed by the log.**

A record that lost an event (its writer declared a recording failure, or it was cut
short) shows an attempt as started and never ended, while the execution's log recorded
that step's end. Showing the attempt "in flight" would then be false: it ended, as the log
says. The record's timeline takes the log's end for such an attempt (marked as the log's,
``Attempt.log_end_seq``); every view of the execution, and the post-mortem's list of what
the record and the log disagree on, read it from there.

Attempts and steps pair as their times do (``times``): the n-th step the log started is
the record's n-th attempt, when their agents agree. Only the log's trusted entries (those
before any break of its hash chain) close anything.

**Started by the log.** A record still being written may stop before an attempt the log
has started (a live execution's record, written at its first event): the timeline shows
the steps the log started after the record's attempts as attempts of their own
(``Attempt.log_start_seq``), in flight or ended as the log says, as the post-mortem does.
Where the two name different agents for an attempt, neither is picked: the timeline says
so (``Timeline.log_disagreement``). The fallbacks the log triggered after the record's are
the timeline's too (``FallbackStep.log_seq``), and counted in the listing's summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

from intentus_tui.core.model import ExecutionState
from intentus_tui.core.records.timeline import (
    FAN_OUT_MARK,
    Attempt,
    EventRows,
    FallbackStep,
    Timeline,
    attempt_mark,
    chain_text,
)
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.wal.analyse import WalFallback, WalStep
from intentus_tui.core.wal.read import WalLog

# A step's end, as an attempt's status says it (the timeline's vocabulary); a step.completed
# whose success is false is already "failed" (``wal.analyse``).
_ATTEMPT_STATUS = {"completed": "ok", "failed": "error", "skipped": "skipped"}


def _ended_as(step: WalStep) -> str | None:
    """The attempt status a step's end means; None while it is open."""
    return _ATTEMPT_STATUS.get(step.status)


def _why(step: WalStep) -> str | None:
    """Why the log says a step failed (``unavailable: circuit breaker open``), shown as the
    attempt's exception is."""
    said = [sanitize_line(part) for part in (step.failure_type, step.reason) if part]
    return ": ".join(said) or None


def closed_by_log(timeline: Timeline, log: WalLog | None) -> Timeline:
    """``timeline`` with each attempt it leaves open that ``log`` ended taking the log's
    end (status, entry); ``timeline`` itself when there is none."""
    if log is None or not timeline.in_flight:
        return timeline
    started = _started(log)
    closed: dict[int, Attempt] = {}
    for attempt, step in zip(timeline.attempts, started, strict=False):
        if step.agent is not None and sanitize_line(step.agent) != attempt.agent:
            continue  # a different story: nothing is better than a wrong pairing
        status = _ended_as(step)
        if attempt.in_flight and status is not None and step.ended_seq is not None:
            closed[attempt.number] = replace(
                attempt,
                status=status,
                log_end_seq=step.ended_seq,
                exception=_why(step) or attempt.exception,
            )
    if not closed:
        return timeline
    attempts = tuple(closed.get(a.number, a) for a in timeline.attempts)
    starts = {a.event_index: a for a in closed.values() if a.event_index is not None}
    rows = timeline.rows
    if isinstance(rows, EventRows):
        rows = rows.closing(starts)
    failed = [index for index, a in starts.items() if a.status == "error"]
    return replace(
        timeline,
        attempts=attempts,
        in_flight=tuple(a for a in attempts if a.in_flight),
        rows=rows,
        last_event=rows[-1] if rows else None,
        error_indexes=tuple(sorted({*timeline.error_indexes, *failed})),  # ``e`` finds them
    )


def _started(log: WalLog) -> list[WalStep]:
    return sorted(
        (step for step in log.steps if step.started_seq is not None),
        key=lambda step: step.started_seq or 0,
    )


def steps_after(agents: Sequence[str], log: WalLog) -> tuple[tuple[WalStep, ...], str | None]:
    """The steps ``log`` started after the record's attempts (by ``agents``, sanitized, in
    order), and where the two disagree: then no step, and what differs in words."""
    started = _started(log)
    for number, (agent, step) in enumerate(zip(agents, started, strict=False), start=1):
        if step.agent is not None and sanitize_line(step.agent) != agent:
            return (), (
                f"attempt {number} is {agent} in the record but {sanitize_line(step.agent)} "
                f"in the write-ahead log (WAL #{step.started_seq})"
            )
    return tuple(started[len(agents) :]), None


def _from_log(number: int, step: WalStep) -> Attempt:
    status = _ended_as(step)
    return Attempt(
        number=number,
        agent=sanitize_line(step.agent or step.step_id),
        strategy=None,
        index=None,
        status=status or "in_flight",
        exception=_why(step),
        latency_ms=None,
        start_seq=None,
        end_seq=None,
        log_end_seq=step.ended_seq if status is not None else None,
        log_start_seq=step.started_seq,
    )


def fallbacks_after(count: int, log: WalLog) -> tuple[WalFallback, ...]:
    """The fallbacks ``log`` triggered after the record's ``count``: the n-th the log
    triggered is the record's n-th (an exhausted chain is no fallback the record has)."""
    return tuple(f for f in log.fallbacks if not f.exhausted)[count:]


def _fallback_from_log(fallback: WalFallback) -> FallbackStep:
    return FallbackStep(
        from_agent=sanitize_line(fallback.from_agent or "?"),
        to_agent=sanitize_line(fallback.to_agent or "?"),
        reason=sanitize_line(fallback.reason) if fallback.reason is not None else None,
        seq=None,
        log_seq=fallback.seq,
    )


def started_by_log(timeline: Timeline, log: WalLog | None) -> Timeline:
    """``timeline`` of a record with no final response, with the steps ``log`` started
    after its attempts as attempts of their own and the fallbacks it triggered after the
    record's as fallbacks, or saying where the two disagree; ``timeline`` itself otherwise."""
    if log is None or timeline.state is not ExecutionState.INCOMPLETE:
        return timeline
    after, disagreement = steps_after([a.agent for a in timeline.attempts], log)
    if disagreement is not None:
        return replace(timeline, log_disagreement=disagreement)
    fallbacks = fallbacks_after(len(timeline.fallbacks), log)
    if not after and not fallbacks:
        return timeline
    first = len(timeline.attempts) + 1
    added = tuple(_from_log(first + n, step) for n, step in enumerate(after))
    attempts = timeline.attempts + added
    return replace(
        timeline,
        attempts=attempts,
        in_flight=tuple(a for a in attempts if a.in_flight),
        fallbacks=timeline.fallbacks + tuple(_fallback_from_log(f) for f in fallbacks),
    )


def with_log(timeline: Timeline, log: WalLog | None) -> Timeline:
    """``timeline`` told what its log adds: the attempts it ended, and those it started."""
    return started_by_log(closed_by_log(timeline, log), log)


def in_flight_of(timeline: Timeline, step: WalStep, log: WalLog) -> Attempt | None:
    """The record's attempt in flight that is ``step``, the log's step in flight, paired as
    the rest are (the n-th step the log started, the record's n-th attempt, their agents
    the same); None where the record has no such attempt, or the two disagree: the step's
    side effect is then no attempt's of the record."""
    if timeline.log_disagreement is not None or step.started_seq is None:
        return None
    drawn = [a for a in timeline.in_flight if a.log_start_seq == step.started_seq]
    if drawn:
        return drawn[0]  # drawn from this very step
    number = next(
        (n for n, s in enumerate(_started(log)) if s.started_seq == step.started_seq), None
    )
    if number is None or number >= len(timeline.attempts):
        return None
    attempt = timeline.attempts[number]
    if not attempt.in_flight or attempt.log_start_seq is not None:
        return None
    if step.agent is not None and sanitize_line(step.agent) != attempt.agent:
        return None
    return attempt


def log_ended(attempt: Attempt) -> str | None:
    """How the log ended an attempt the record left open, in words; None for the others
    (one the record has no start for either is the log's whole: see ``from_log``)."""
    if attempt.log_end_seq is None or attempt.log_start_seq is not None:
        return None
    outcome = {"ok": "completed", "error": "failed"}.get(attempt.status, attempt.status)
    return (  # what happened first: a narrow screen cuts the end of the line
        f"attempt {attempt.number} ({attempt.agent}) {outcome} as the write-ahead log "
        f"recorded (WAL #{attempt.log_end_seq}); the record has no end for it"
    )


def closed_in_summary(
    chain: str, in_flight_agent: str | None, log: WalLog
) -> tuple[str, str | None]:
    """A listing summary's attempt chain and in-flight agent (record-made, sanitized) with
    the attempts the log ended drawn as it ended them, as ``closed_by_log`` does for the
    timeline. A summary keeps no attempts to pair, so an agent stands for its attempts:
    one whose every step in the log ended (the usual one attempt per agent)."""
    if in_flight_agent is None:
        return chain, None
    open_agents = {step.agent for step in log.steps if _ended_as(step) is None}
    ended: dict[str, str] = {}
    for step in log.steps:
        status = _ended_as(step)
        if step.agent is not None and step.agent not in open_agents and status is not None:
            ended[sanitize_line(step.agent)] = status  # the agent's last step decides
    for agent, status in ended.items():
        chain = chain.replace(
            f"{agent} {attempt_mark('in_flight')}", f"{agent} {attempt_mark(status)}"
        )
    return chain, None if in_flight_agent in ended else in_flight_agent


class StartedInSummary(NamedTuple):
    chain: str
    attempts: int
    fallbacks: int
    disagreement: str | None


def started_in_summary(chain: str, attempts: int, fallbacks: int, log: WalLog) -> StartedInSummary:
    """A listing summary's attempt chain and counts of attempts and fallbacks (a record
    with no final response) with the steps the log started after its attempts drawn on and
    the fallbacks it triggered after the record's counted, as ``started_by_log`` does for
    the timeline, and where the two disagree. The chain is read back into its agents; one
    that cannot be (a name holding the chain's separator) is left as the record has it."""
    fan_out = chain.startswith(f"{FAN_OUT_MARK} ")
    body = chain[len(FAN_OUT_MARK) + 1 :] if fan_out else chain
    drawn = body.split(" | " if fan_out else " → ") if body else []
    if len(drawn) != attempts:
        return StartedInSummary(chain, attempts, fallbacks, None)
    after, disagreement = steps_after([step.rsplit(" ", 1)[0] for step in drawn], log)
    if disagreement is not None:
        return StartedInSummary(chain, attempts, fallbacks, disagreement)
    fallbacks += len(fallbacks_after(fallbacks, log))
    if not after:
        return StartedInSummary(chain, attempts, fallbacks, None)
    drawn += [
        f"{sanitize_line(s.agent or s.step_id)} {attempt_mark(_ended_as(s) or 'in_flight')}"
        for s in after
    ]
    chain = chain_text(drawn, "fan-out" if fan_out else None)
    return StartedInSummary(chain, len(drawn), fallbacks, None)


def from_log(attempt: Attempt) -> str | None:
    """Where an attempt the record has no start for was started, in words; None for the
    others."""
    if attempt.log_start_seq is None:
        return None
    return f"started at WAL #{attempt.log_start_seq}, in the write-ahead log only"
