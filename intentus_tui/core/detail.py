"""Everything the debugger shows about one selected execution, computed off the UI thread."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from intentus_tui.core.formats import LoadResult, load_record_file
from intentus_tui.core.replay import ReplayEngine
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.timeline import Attempt, EventRow, Timeline, timeline_of
from intentus_tui.core.verify import VerifyReport, verify_load_result


@dataclass(frozen=True, slots=True)
class ExecutionDetail:
    """An immutable bundle: the load result, its timeline, its verification, replayability."""

    result: LoadResult
    timeline: Timeline | None
    verify: VerifyReport
    replayable: bool
    replay_reason: str | None

    @property
    def path(self) -> Path:
        return self.result.path

    def replay_engine(self) -> ReplayEngine | None:
        return ReplayEngine.from_load_result(self.result) if self.result.record else None


def load_detail(path: Path) -> ExecutionDetail:
    """Read one file and analyse it. Never raises."""
    result = load_record_file(path)
    return detail_of(result)


def detail_of(result: LoadResult) -> ExecutionDetail:
    replayable: bool = False
    reason: str | None = "record_corrupted"
    if result.record is not None:
        replayable, reason = ReplayEngine.from_load_result(result).is_replayable()
    return ExecutionDetail(
        result=result,
        timeline=timeline_of(result),
        verify=verify_load_result(result),
        replayable=replayable,
        replay_reason=reason,
    )


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


def _attempt_json(a: Attempt) -> dict[str, object]:
    return {
        "agent": a.agent,
        "strategy": a.strategy,
        "index": a.index,
        "status": a.status,
        "exception": a.exception,
        "latency_ms": a.latency_ms,
        "start_seq": a.start_seq,
        "end_seq": a.end_seq,
    }


def detail_to_json(detail: ExecutionDetail) -> dict[str, object]:
    """The ``inspect ID --json`` document: seed 003's keys first, then everything we add."""
    result, timeline, verify = detail.result, detail.timeline, detail.verify
    record = result.record
    stem = result.stem
    damage = result.damage
    hash_check = verify.hash
    out: dict[str, object] = {
        "execution_id": sanitize_line((record.execution_id if record else None) or stem),
        "status": timeline.state.value if timeline else "corrupted",
        "last_event": _event_json(timeline.last_event if timeline else None),
        "replayable": detail.replayable,
        "replayable_reason": detail.replay_reason,
        "file": str(result.path),
        "load_status": result.status.value,
        "message": sanitize_line(result.message),
        "created": sanitize_line(record.header.created_utc_iso or "") or None if record else None,
        "intent": sanitize_line(record.intent_name or "") or None if record else None,
        "record_form": record.record_form if record else None,
        "event_count": len(record.events) if record else 0,
        "attempts": [_attempt_json(a) for a in timeline.attempts] if timeline else [],
        "agent_chain": timeline.chain if timeline else None,
        "fallbacks": [
            {"from": f.from_agent, "to": f.to_agent, "reason": f.reason, "seq": f.seq}
            for f in (timeline.fallbacks if timeline else ())
        ],
        "in_flight": [_attempt_json(a) for a in timeline.in_flight] if timeline else [],
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
        "hash": None
        if hash_check is None
        else {
            "status": hash_check.status.value,
            "stored": sanitize_line(hash_check.stored or "") or None,
            "detected_form": hash_check.detected_form,
            "matched_form": hash_check.matched_form,
            "computed": dict(hash_check.computed),
            "explanation": sanitize_line(hash_check.explanation),
            "benign": hash_check.benign,
        },
        "problems": [sanitize_line(p) for p in verify.problems],
    }
    return out
