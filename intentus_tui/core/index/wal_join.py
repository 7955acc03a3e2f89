"""Records joined with their write-ahead logs: executions known only from a WAL, and
where a record and its WAL tell different stories."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from intentus_tui.core.model import (
    CATCH_UP_SECONDS,
    RECORD_CATCHING_UP,
    RECORD_REMOVED,
    ExecutionState,
    ExecutionSummary,
    HashStatus,
    LoadStatus,
)
from intentus_tui.core.records.load import WAL_SUFFIX
from intentus_tui.core.sanitize import clean

_CATCH_UP_NS = int(CATCH_UP_SECONDS * 1e9)

if TYPE_CHECKING:  # the WAL reader is imported when a WAL directory is there to read
    from intentus_tui.core.wal.read import WalLog


def wal_only_summary(log: WalLog, *, record_removed: bool = False) -> ExecutionSummary:
    """An execution known only from its WAL: no record file was written (it crashed, is
    still running, or ended without recording one), or, ``record_removed``, the one seen
    was removed since.

    ``state`` is COMPLETED once the trusted entries reach execution.completed, .failed or
    .aborted (the execution ended; ``wal_state`` says how), INCOMPLETE otherwise.
    ``wal_state`` is what the log claims: for a broken chain an untrusted claim
    (``wal_chain_ok`` is False and ``wal_problem`` names the first broken entry).
    """
    step = log.in_flight_step
    ended = log.chain_valid and log.state in ("completed", "failed", "aborted")
    return ExecutionSummary(
        key=f"{log.execution_id}{WAL_SUFFIX}",
        execution_id=clean(log.execution_id),
        created=clean(log.entries[0].timestamp_iso) if log.entries else "",
        intent=clean(log.intent_name),
        agent=clean(step.agent) if step and step.agent else "",
        strategy="",
        state=ExecutionState.COMPLETED if ended else ExecutionState.INCOMPLETE,
        load_status=LoadStatus.NO_RECORD,
        message=clean(f"{_no_record(record_removed)}; write-ahead log: {log.message}"),
        replayable=False,
        replay_reason="no_record",
        hash_status=HashStatus.UNVERIFIABLE,
        hash_form="absent",
        matched_form=None,
        event_count=len(log.entries),
        attempts=len(log.steps),
        fallbacks=len(log.fallbacks),
        chain=" → ".join(clean(s.agent or s.step_id) for s in log.steps),
        in_flight_agent=clean(step.agent or step.step_id) if step else None,
        final_status=None,
        problems=0 if log.chain_valid else 1,
        size=log.size_bytes,
        mtime_ns=0,
        source="wal",
        wal_state=log.claimed_state,
        wal_problem=_wal_chain_problem(log),
        wal_chain_ok=chain_ok(log),
        record_removed=record_removed,
    )


def _no_record(removed: bool) -> str:
    return RECORD_REMOVED.capitalize() if removed else "No record file"


def chain_ok(log: WalLog) -> bool | None:
    """Whether the log's hash chain holds; None for a log that could not be read at all
    (missing, a directory, permission denied) or holds no complete entry (empty, not a
    write-ahead log): its chain is not broken, only unchecked."""
    if not log.checkable:
        return None
    return log.chain_valid


TORN_NOTE = "last line torn: the process died while appending it (a crash, not tampering)"
MALFORMED_TAIL_NOTE = (
    "last line malformed: whole (it ends with its newline) yet not an entry; the entries "
    "before it verify"
)


def tail_note(log: WalLog) -> str | None:
    """What a last line that is not an entry is, when the chain holds: torn or malformed."""
    if not log.torn:
        return None
    return TORN_NOTE if log.cut_short else MALFORMED_TAIL_NOTE


def _wal_chain_problem(log: WalLog) -> str | None:
    if log.chain_valid:
        return tail_note(log)
    described = log.describe_break()
    if log.file_status in ("empty", "no_entry"):  # read, but nothing in it to check
        return clean(log.message)
    if described is None:  # the file could not be read at all
        return clean(f"WAL unreadable: {log.message}")
    issue = log.first_issue
    if issue is not None and issue.kind == "execution_id_mismatch":
        return clean(f"the WAL is {described}")  # "the WAL is another execution's log ..."
    return clean(f"WAL {described}")


def catching_up(summary: ExecutionSummary, log: WalLog, now_ns: int | None = None) -> bool:
    """The record has no final response yet and its log recorded completion within
    ``CATCH_UP_SECONDS`` of ``now_ns`` (default: now, when both were just read): a record
    still being written."""
    if summary.state is not ExecutionState.INCOMPLETE or log.state != "completed":
        return False
    if not log.chain_valid:
        return False
    now = time.time_ns() if now_ns is None else now_ns
    return abs(now - log.mtime_ns) <= _CATCH_UP_NS


def wal_disagreement(summary: ExecutionSummary, log: WalLog, caught_up: bool = True) -> str | None:
    """Where a record and its WAL tell different stories (or the WAL is damaged);
    ``caught_up``: False while the record is still being written (``catching_up``)."""
    if not log.chain_valid:
        return _wal_chain_problem(log)
    completed = summary.state is ExecutionState.COMPLETED
    if completed and log.state == "in_flight":
        return "record has a final response but the WAL never recorded the end of the execution"
    if summary.state is ExecutionState.INCOMPLETE and log.state == "completed":
        if not caught_up:
            return RECORD_CATCHING_UP
        return (
            "WAL says the execution completed but the record has no final response, more "
            f"than {CATCH_UP_SECONDS:g} s after the log recorded it: not a record being written"
        )
    if completed and log.state in ("failed", "aborted") and summary.final_status == "ok":
        return f"record says success but the WAL says {log.state}"
    return tail_note(log)


def with_wal(
    summary: ExecutionSummary, log: WalLog, *, now_ns: int | None = None
) -> ExecutionSummary:
    """A record's summary joined with its WAL, read just now (``now_ns``: when, if not
    now): a completion the log recorded moments ago may not be in the record yet."""
    # reconcile reads logs: imported where a log is read already
    from intentus_tui.core.reconcile import closed_in_summary, started_in_summary

    chain, in_flight = closed_in_summary(summary.chain, summary.in_flight_agent, log)
    attempts, fallbacks, differs = summary.attempts, summary.fallbacks, None
    step = log.in_flight_step
    if summary.state is ExecutionState.INCOMPLETE:
        # A partial record may stop before an attempt began: the WAL knows what ran.
        chain, attempts, fallbacks, differs = started_in_summary(chain, attempts, fallbacks, log)
        if in_flight is None and step is not None:
            in_flight = clean(step.agent or step.step_id)
    behind = catching_up(summary, log, now_ns)
    return replace(
        summary,
        record_catching_up=behind,
        chain=chain,
        attempts=attempts,
        fallbacks=fallbacks,
        source="record+wal",
        wal_state=log.claimed_state,
        wal_problem=wal_disagreement(summary, log, not behind) or differs,
        wal_chain_ok=chain_ok(log),
        in_flight_agent=in_flight,
    )
