"""Everything the debugger shows about one selected execution, computed off the UI thread."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from intentus_tui.core.bundle.seal import log_change, record_change, with_change
from intentus_tui.core.index.summarize import summarize
from intentus_tui.core.index.wal_join import wal_only_summary, with_wal
from intentus_tui.core.model import (
    RECORD_REMOVED,
    ExecutionSummary,
    Integrity,
    Outcome,
    ReplayCode,
    Verdict,
)
from intentus_tui.core.postmortem import PostMortem, build_postmortem
from intentus_tui.core.reconcile import with_log
from intentus_tui.core.records.load import WAL_SUFFIX, LoadResult, LoadStatus, load_record_file
from intentus_tui.core.records.replay import ReplayEngine, no_response_text, response_recorded
from intentus_tui.core.records.timeline import Attempt, EventRow, Timeline, timeline_of
from intentus_tui.core.records.times import (
    ExecutionTimes,
    attempt_json,
    execution_times,
    json_time,
    wal_times,
)
from intentus_tui.core.records.verify import VerifyReport, verify_load_result
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.verdict import damaged_by_others, load_words, verdict_of
from intentus_tui.core.wal.read import WalIssue, WalLog, read_wal


@dataclass(frozen=True, slots=True)
class ExecutionDetail:
    """An immutable bundle: the load result, its timeline, its verification, replayability."""

    result: LoadResult
    timeline: Timeline | None
    verify: VerifyReport
    replayable: bool
    replay_reason: str | None
    wal: WalLog | None = None
    postmortem: PostMortem | None = None
    # The execution's summary, exactly as the listing makes it (record joined with its WAL,
    # or the WAL alone): its verdict is the one every screen shows.
    summary: ExecutionSummary | None = None
    # When its events happened and how long its attempts took, where anything says so.
    times: ExecutionTimes | None = None

    @property
    def verdict(self) -> Verdict | None:
        return verdict_of(self.summary) if self.summary is not None else None

    @property
    def path(self) -> Path:
        return self.result.path

    @property
    def response_recorded(self) -> bool:
        """A replay, forced or not, has a recorded response to return (``replay --force``
        of one without says it returns none, and exits 3)."""
        return response_recorded(self.result.record)

    @property
    def no_response_text(self) -> str:
        """Why a forced replay returns none when ``response_recorded`` is False."""
        return no_response_text(self.result.record, damaged_by_others(self.summary))


def load_detail(
    path: str | os.PathLike[str], wal_dir: Path | None = None, *, record_removed: bool = False
) -> ExecutionDetail:
    """Read one execution (a record file, or a ``.wal`` for WAL-only ones). Never raises.

    With ``wal_dir``, the execution's write-ahead log is read too when it exists.
    ``record_removed``: a WAL-only execution's record file was seen, then removed (its
    listing says so): every part of the detail says so, not that none was written.
    """
    path = Path(path)
    if path.name.endswith(WAL_SUFFIX):
        only_log = read_wal(path)
        no_record = RECORD_REMOVED.capitalize() if record_removed else "No record file was written"
        result = LoadResult(
            path=path,
            status=LoadStatus.NO_RECORD,
            message=f"{no_record}; the write-ahead log says: {only_log.message}",
        )
        return detail_of(result, only_log, record_removed=record_removed)
    result = load_record_file(path)
    return detail_of(result, execution_wal(result, wal_dir))


def execution_wal(result: LoadResult, wal_dir: Path | None) -> WalLog | None:
    """The record's write-ahead log (``<stem>.wal`` in ``wal_dir``), when there is one: the
    log ``load_detail`` joins to it."""
    if wal_dir is None:
        return None
    wal_path = wal_dir / f"{result.stem}{WAL_SUFFIX}"
    if os.path.lexists(wal_path):
        return read_wal(wal_path)
    # lexists says no of a log in a directory that cannot be searched: it cannot be read.
    log = read_wal(wal_path)
    return None if log.file_status == "missing" else log


def detail_of(
    result: LoadResult, wal: WalLog | None = None, *, record_removed: bool = False
) -> ExecutionDetail:
    replayable: bool = False
    # Known only from its WAL: no record was written, so there is no response to replay.
    reason: str | None = (
        "record_corrupted" if result.status is not LoadStatus.NO_RECORD else "no_record"
    )
    summary = summary_of(result, wal, record_removed=record_removed)
    # Its file's message as every screen says it: cut short by its writer, or damaged.
    told = load_words(result.message, summary)
    if told is not result.message:
        result = replace(result, message=told)
    if result.record is not None:
        replayable, reason = ReplayEngine.from_load_result(result).is_replayable()
    timeline = timeline_of(result)
    if timeline is not None:
        timeline = with_log(timeline, wal)
    times: ExecutionTimes | None = None
    if result.record is not None and timeline is not None:
        times = execution_times(result.record, timeline, wal)
    elif wal is not None:
        times = wal_times(wal)
    return ExecutionDetail(
        result=result,
        timeline=timeline,
        verify=verify_load_result(result),
        replayable=replayable,
        replay_reason=reason,
        wal=wal,
        postmortem=postmortem_of(timeline, wal, summary),
        summary=summary,
        times=times,
    )


def postmortem_of(
    timeline: Timeline | None, wal: WalLog | None, summary: ExecutionSummary | None
) -> PostMortem:
    """The post-mortem, told what the execution's verdict (one, made once) says of its
    record: why it cannot be believed (tampered) and why its response may not be replayed
    (None when it may, or when a huge record's could not be checked in the listing yet)."""
    verdict = verdict_of(summary) if summary is not None else None
    distrust = refused = None
    if verdict is not None:
        if verdict.integrity is Integrity.TAMPERED:
            distrust = verdict.integrity_reason
        if verdict.replay not in (ReplayCode.REPLAYABLE, ReplayCode.UNCHECKED):
            refused = verdict.replay_reason
    failed = verdict is not None and verdict.outcome is Outcome.FAILED
    return build_postmortem(
        timeline,
        wal,
        record_distrust=distrust,
        replay_refused=refused,
        failed=failed,
        record_removed=summary is not None and summary.record_removed,
        record_catching_up=summary is not None and summary.record_catching_up,
    )


def summary_of(
    result: LoadResult, wal: WalLog | None, *, record_removed: bool = False
) -> ExecutionSummary | None:
    """The execution's summary as the listing makes it: its record joined with its log,
    told when the record is not what its bundle's manifest sealed (a bundle's copy)."""
    if result.status is LoadStatus.NO_RECORD:
        if wal is None:
            return None
        alone = wal_only_summary(wal, record_removed=record_removed)
        return with_change(alone, log_change(wal.path))
    summary = with_change(summarize(result), record_change(result.path))
    if wal is None:
        return summary
    joined = with_wal(summary, wal)
    return joined if joined.bundle_change is not None else with_change(joined, log_change(wal.path))


def no_response_of(result: LoadResult, wal: WalLog | None) -> str:
    """Why a forced replay of a record already read (joined with its log) returns none:
    the words ``ExecutionDetail.no_response_text`` gives for it."""
    return no_response_text(result.record, damaged_by_others(summary_of(result, wal)))


def verdict_of_result(result: LoadResult, wal: WalLog | None) -> Verdict | None:
    """The verdict of a record already read (joined with its log): the one
    ``ExecutionDetail.verdict`` gives for it, from the same summary."""
    summary = summary_of(result, wal)
    return verdict_of(summary) if summary is not None else None


def _event_json(row: EventRow | None) -> dict[str, object] | None:
    if row is None:
        return None
    return {
        "seq": row.seq,
        "type": row.type,
        "agent": row.agent or None,
        "status": row.status or None,
        "summary": row.summary,
    }


def _attempt_json(
    a: Attempt, times: ExecutionTimes | None, now: datetime | None
) -> dict[str, object]:
    doc: dict[str, object] = {
        "agent": a.agent,
        "strategy": a.strategy,
        "index": a.index,
        "status": a.status,
        "exception": a.exception,
        "latency_ms": a.latency_ms,
        "start_seq": a.start_seq,
        "end_seq": a.end_seq,
        "log_end_seq": a.log_end_seq,
        "log_start_seq": a.log_start_seq,
    }
    timed = times.attempts[a.number - 1] if times and a.number <= len(times.attempts) else None
    if timed is not None:
        doc.update(attempt_json(timed))
        if timed.in_flight:
            open_for = timed.open_for(now) if now is not None else None
            doc["open_s"] = None if open_for is None else round(open_for, 3)
    return doc


def times_json(
    times: ExecutionTimes | None, count: int, now: datetime | None
) -> dict[str, object] | None:
    """When the execution started and ended and each event's time: only the events with a
    time are listed (1.3.0's events carry none of their own). ``now``: when an in-flight
    attempt's time open (``open_s``) runs to; None: not said (null)."""
    if times is None:
        return None
    events: list[dict[str, object]] = []
    for index in range(count):
        known = times.event_time(index)
        if known is not None:
            offset = times.offset(index)
            events.append(
                {
                    "index": index,
                    "at": json_time(known.at),
                    "offset_s": None if offset is None else round(offset, 6),
                    "source": known.source,
                }
            )
    total = times.total
    attempts: list[dict[str, object]] = []
    for a in times.attempts:
        doc = {"number": a.number, "agent": a.agent, "status": a.status, **attempt_json(a)}
        if a.in_flight:
            open_for = a.open_for(now) if now is not None else None
            doc["open_s"] = None if open_for is None else round(open_for, 3)
        attempts.append(doc)
    return {
        "started_at": json_time(times.origin),
        "started_source": times.origin_source,
        "last_at": json_time(times.last),
        "total_s": None if total is None else round(total, 6),
        "attempts": attempts,
        "events": events,
    }


def _answer_json(timeline: Timeline) -> dict[str, object] | None:
    """The attempt whose response the router chose (broadcast: the last success)."""
    answer = timeline.answered_by
    return None if answer is None else {"attempt": answer.number, "agent": answer.agent}


def detail_to_json(detail: ExecutionDetail, *, live: bool = True) -> dict[str, object]:
    """The ``inspect ID --json`` document. ``live``: an in-flight attempt's ``open_s`` is
    how long it has been open now; without, null (an export of the same files is then
    the same bytes whenever it is made).

    IntentusNet's own ``inspect ID`` keys come first (``execution_id``, ``status``,
    ``last_event`` {seq, type, agent}, ``replayable``, ``replayable_reason``), then everything
    this tool adds. ``replayable`` is the verdict's (as in ``inspect --list --json``);
    ``library_replayable`` is what IntentusNet's ReplayEngine alone answers.
    """
    result, timeline, verify = detail.result, detail.timeline, detail.verify
    verdict = detail.verdict
    now = datetime.now(UTC) if live else None
    record = result.record
    stem = result.stem
    damage = result.damage
    hash_check = verify.hash
    out: dict[str, object] = {
        "execution_id": sanitize_line((record.execution_id if record else None) or stem),
        "status": timeline.state.value if timeline else _state_without_record(detail),
        "last_event": _event_json(timeline.last_event) if timeline else _wal_last_event(detail.wal),
        # The verdict's answer, as ``inspect --list --json`` gives it (a record that fails
        # its integrity check is not replayable, whatever its writer's library says).
        "replayable": verdict.replayable if verdict else detail.replayable,
        "replayable_reason": (
            (None if verdict.replayable else verdict.replay.value)
            if verdict
            else detail.replay_reason
        ),
        "replayable_detail": verdict.replay_reason if verdict else None,
        # What IntentusNet's own ReplayEngine answers for the record (it checks no hash).
        "library_replayable": {"replayable": detail.replayable, "reason": detail.replay_reason},
        "file": str(result.path),
        "load_status": result.status.value,
        "message": sanitize_line(result.message),
        "created": sanitize_line(record.header.created_utc_iso or "") or None if record else None,
        "intent": sanitize_line(record.intent_name or "") or None if record else None,
        "record_form": record.record_form if record else None,
        "event_count": len(record.events) if record else 0,
        "attempts": [_attempt_json(a, detail.times, now) for a in timeline.attempts]
        if timeline
        else [],
        "agent_chain": timeline.chain if timeline else None,
        "attempt_shape": timeline.shape if timeline else None,
        "answered_by": _answer_json(timeline) if timeline else None,
        "fallbacks": [
            {
                "from": f.from_agent,
                "to": f.to_agent,
                "reason": f.reason,
                "seq": f.seq,
                "log_seq": f.log_seq,  # a fallback only the write-ahead log has
            }
            for f in (timeline.fallbacks if timeline else ())
        ],
        "in_flight": [_attempt_json(a, detail.times, now) for a in timeline.in_flight]
        if timeline
        else [],
        "final_status": timeline.final_status if timeline else None,
        "salvage": None
        if damage is None
        else {
            "offset": damage.offset,
            "line": damage.line,
            "column": damage.column,
            "expected": damage.expected,
            "truncated": damage.truncated,
            "recovered": list(result.recovered),
            "partial": list(result.partial),
        },
        "hash": None if hash_check is None else hash_check.to_json(),
        "problems": [sanitize_line(p) for p in verify.problems],
        "verdict": _verdict_json(detail),
        "postmortem": detail.postmortem.to_json() if detail.postmortem else None,
        "wal": None if detail.wal is None else wal_to_json(detail.wal),
        "times": times_json(detail.times, _row_count(detail), now),
    }
    return out


def _row_count(detail: ExecutionDetail) -> int:
    """The timeline's rows: the record's events, or the WAL's entries without a record."""
    if detail.result.record is not None:
        return len(detail.result.record.events)
    return len(detail.wal.entries) if detail.wal is not None else 0


def _verdict_json(detail: ExecutionDetail) -> dict[str, object] | None:
    verdict = detail.verdict
    return None if verdict is None else verdict_json(verdict)


def verdict_json(verdict: Verdict) -> dict[str, object]:
    """A verdict as ``inspect ID --json`` gives it: ``Verdict.to_json``, reasons sanitized."""
    doc = verdict.to_json()
    for key in ("outcome_reason", "integrity_reason", "replay_reason"):
        doc[key] = sanitize_line(str(doc[key]))
    return doc


def _wal_last_event(log: WalLog | None) -> dict[str, object] | None:
    last = log.last_entry if log is not None else None
    if log is None or last is None:
        return None
    step = log.in_flight_step
    agent = sanitize_line(step.agent) if step is not None and step.agent else None
    return {
        "seq": last.seq,
        "type": sanitize_line(last.entry_type),
        "agent": agent,
        "source": "wal",
    }


def _state_without_record(detail: ExecutionDetail) -> str:
    if detail.result.status is not LoadStatus.NO_RECORD:
        return "corrupted"
    # Known from its WAL alone: "completed" once its trusted entries reach an end.
    return detail.summary.state.value if detail.summary is not None else "incomplete"


def wal_to_json(log: WalLog) -> dict[str, object]:
    step = log.in_flight_step
    return {
        "file": str(log.path),
        "file_status": log.file_status,
        "state": log.state,  # what the trusted entries establish
        "claimed_state": log.claimed_state,  # what every entry claims (untrusted past a break)
        "entries": len(log.entries),
        "trusted_entries": log.trusted_count,
        "chain_valid": log.chain_valid,
        "first_issue": _issue_json(log.first_issue),
        "chain_break": _issue_json(log.chain_break),
        "torn_last_line": log.torn,
        "in_flight_step": None
        if step is None
        else {
            "step_id": sanitize_line(step.step_id),
            "agent": sanitize_line(step.agent or "") or None,
            "side_effect": step.side_effect,
        },
        "steps": [
            {
                "step_id": sanitize_line(st.step_id),
                "agent": sanitize_line(st.agent or "") or None,
                "status": st.status,
                "side_effect": st.side_effect,
            }
            for st in log.steps
        ],
        "message": sanitize_line(log.message),
    }


def _issue_json(issue: WalIssue | None) -> dict[str, object] | None:
    return issue.to_json() if issue is not None else None
