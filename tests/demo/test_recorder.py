"""The crash-safe recorder: flush boundaries, record layout, WAL, never-torn records."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core.records.hashing import documented_envelope_hash, runtime_envelope_hash
from intentus_tui.core.wal.read import read_wal
from intentus_tui.demo.recorder import (
    EXECUTION_INCOMPLETE,
    ExecutionRecorder,
    RecorderError,
    record_from_wal,
)

ENVELOPE: dict[str, Any] = {
    "version": "1.0",
    "intent": {"name": "SummarizeDocument", "version": "1.0"},
    "payload": {"document": "Grüße ✓", "maxWords": 50},
    "context": {
        "sourceAgent": "t",
        "timestamp": "2026-01-05T09:00:00+00:00",
        "priority": "normal",
        "tags": [],
    },
    "metadata": {
        "requestId": "r",
        "source": "t",
        "createdAt": "c",
        "traceId": "trace-1",
        "identityChain": [],
    },
    "routing": {"strategy": "fallback", "targetAgent": None, "fallbackAgents": []},
    "routingMetadata": {"decisionPath": [], "retries": 0},
}
RESPONSE = {
    "version": "1.0",
    "status": "success",
    "payload": {"summary": "ok"},
    "metadata": {},
    "error": None,
}


def read_record(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_bytes())
    return data


def run_fallback(rec: ExecutionRecorder) -> Path:
    rec.intent_received()
    rec.attempt_start("agent-a", strategy="FALLBACK", side_effect="read_only")
    rec.attempt_end("agent-a", "error", latency_ms=30000.0, exception="TimeoutError: 30s")
    rec.fallback_triggered("agent-a", "agent-b", "timeout")
    rec.attempt_start("agent-b", strategy="FALLBACK", side_effect="read_only")
    rec.attempt_end("agent-b", "ok")
    rec.router_decision("agent-b", "fallback success at index 1")
    return rec.final_response(RESPONSE)


@pytest.mark.parametrize("mode", ["wal", "rewrite", "none"])
def test_complete_record_in_the_runtime_layout(tmp_path: Path, mode: Any) -> None:
    rec = ExecutionRecorder(tmp_path, ENVELOPE, flush_mode=mode, fsync=False)
    path = run_fallback(rec)

    assert path == tmp_path / "records" / f"{rec.execution_id}.json"
    record = read_record(path)
    assert list(record) == ["header", "envelope", "routerDecision", "events", "finalResponse"]
    header = record["header"]
    assert header["executionId"] == rec.execution_id
    assert header["replayable"] is True and header["replayableReason"] is None
    assert header["envelopeHash"] == runtime_envelope_hash(ENVELOPE)
    assert record["envelope"] == ENVELOPE
    assert record["finalResponse"] == RESPONSE
    assert record["routerDecision"]["agent"] == "agent-b"
    events = record["events"]
    assert [e["seq"] for e in events] == list(range(1, 9))
    assert [e["type"] for e in events] == [
        "INTENT_RECEIVED",
        "AGENT_ATTEMPT_START",
        "AGENT_ATTEMPT_END",
        "FALLBACK_TRIGGERED",
        "AGENT_ATTEMPT_START",
        "AGENT_ATTEMPT_END",
        "ROUTER_DECISION",
        "FINAL_RESPONSE",
    ]
    assert events[0]["payload"] == {"intent": "SummarizeDocument", "traceId": "trace-1"}
    assert (
        events[2]["payload"]["attempt_num"] == 1 and events[2]["payload"]["latency_ms"] == 30000.0
    )
    assert events[3]["payload"] == {"from": "agent-a", "to": "agent-b", "reason": "timeout"}
    assert events[5]["payload"]["attempt_num"] == 2
    assert isinstance(events[5]["payload"]["latency_ms"], float)  # measured (monotonic clock)
    assert events[7]["payload"] == {"status": "success", "has_error": False}
    text = path.read_text(encoding="utf-8")
    assert text.startswith('{\n  "header"')  # indent=2
    assert '"document": "Grüße ✓"' in text  # not ASCII-escaped
    assert sorted(p.name for p in (tmp_path / "records").iterdir()) == [path.name]  # no temp left


def test_documented_hash_form(tmp_path: Path) -> None:
    rec = ExecutionRecorder(tmp_path, ENVELOPE, hash_form="documented", fsync=False)
    record = read_record(run_fallback(rec))
    assert rec.execution_id.startswith("exec-") and len(rec.execution_id) == 13
    assert record["header"]["envelopeHash"] == documented_envelope_hash(ENVELOPE)


@pytest.mark.parametrize("mode", ["wal", "rewrite"])
def test_a_valid_incomplete_record_exists_from_the_first_flush(tmp_path: Path, mode: Any) -> None:
    rec = ExecutionRecorder(tmp_path, ENVELOPE, flush_mode=mode, fsync=False)
    assert not rec.record_path.exists()  # nothing happened yet

    rec.intent_received()

    record = read_record(rec.record_path)
    assert record["header"]["replayable"] is False
    assert record["header"]["replayableReason"] == EXECUTION_INCOMPLETE
    assert record["finalResponse"] is None
    assert [e["type"] for e in record["events"]] == ["INTENT_RECEIVED"]

    rec.attempt_start("agent-a", side_effect="irreversible")
    record = read_record(rec.record_path)
    if mode == "rewrite":
        assert record["events"][-1]["type"] == "AGENT_ATTEMPT_START"
    else:  # the WAL carries every event; the record is rebuilt from it
        log = read_wal(rec.wal_path)
        assert log.chain_valid and log.state == "in_flight"
        assert log.in_flight_step is not None and log.in_flight_step.agent == "agent-a"
        assert log.hint.verdict == "do_not_retry"
        rebuilt = record_from_wal(log, envelope=record["envelope"])
        assert rebuilt is not None
        assert rebuilt["events"] == rec.events
        assert rebuilt["header"]["replayableReason"] == EXECUTION_INCOMPLETE


def test_none_mode_writes_nothing_until_the_end(tmp_path: Path) -> None:
    rec = ExecutionRecorder(tmp_path, ENVELOPE, flush_mode="none", fsync=False)
    rec.intent_received()
    rec.attempt_start("a")
    assert not rec.record_path.exists() and not rec.wal_path.exists()


def test_wal_is_readable_by_the_real_intentusnet_reader(tmp_path: Path) -> None:
    from intentusnet.wal.reader import WALReader

    rec = ExecutionRecorder(tmp_path, ENVELOPE, fsync=False)
    run_fallback(rec)

    entries = WALReader(str(tmp_path / "wal"), rec.execution_id).read_all(verify_integrity=True)
    assert [e.entry_type.value for e in entries] == [
        "execution.started",
        "step.started",
        "step.failed",
        "fallback.triggered",
        "step.started",
        "step.completed",
        "checkpoint",
        "execution.completed",
    ]
    log = read_wal(rec.wal_path)
    assert log.state == "completed" and log.issues == ()
    assert [s.status for s in log.steps] == ["failed", "completed"]
    rebuilt = record_from_wal(log, ENVELOPE)
    assert rebuilt is not None
    assert rebuilt["finalResponse"] == RESPONSE and rebuilt["header"]["replayable"] is True
    assert rebuilt["events"] == read_record(rec.record_path)["events"]


def test_unserializable_error_response_is_recorded_not_truncated(tmp_path: Path) -> None:
    """1.3.0 truncates the record at ``"error": ``; this recorder writes the ErrorInfo."""
    from intentusnet.protocol.enums import ErrorCode
    from intentusnet.protocol.response import AgentResponse, ErrorInfo

    response = AgentResponse(
        version="1.0",
        status="error",
        payload=None,
        metadata={"agent": "a"},
        error=ErrorInfo(code=ErrorCode.AGENT_TIMEOUT, message="slow", details={"ms": 30000}),
    )
    rec = ExecutionRecorder(tmp_path, ENVELOPE, fsync=False)
    rec.intent_received()
    record = read_record(rec.final_response(response.__dict__))

    assert record["finalResponse"]["error"] == {
        "code": "AGENT_TIMEOUT",
        "message": "slow",
        "retryable": False,
        "details": {"ms": 30000},
    }
    assert record["events"][-1]["payload"] == {"status": "error", "has_error": True}


def test_dataclass_envelope_hashes_like_1_3_0(tmp_path: Path) -> None:
    from intentusnet.protocol import IntentContext, IntentEnvelope, IntentMetadata, IntentRef
    from intentusnet.recording.models import stable_hash

    env = IntentEnvelope(
        version="1.0",
        intent=IntentRef("Echo"),
        payload={"x": "ü"},
        context=IntentContext(sourceAgent="s", timestamp="t"),
        metadata=IntentMetadata(requestId="r", source="s", createdAt="c", traceId="tr"),
    )
    rec = ExecutionRecorder(tmp_path, env, fsync=False)
    assert rec.envelope_hash == stable_hash(env)
    assert rec.envelope["context"]["priority"] == "normal"


def test_after_the_final_response_the_record_is_closed(tmp_path: Path) -> None:
    rec = ExecutionRecorder(tmp_path, ENVELOPE, fsync=False)
    run_fallback(rec)
    with pytest.raises(RecorderError):
        rec.attempt_start("late")
    with pytest.raises(RecorderError):
        rec.final_response(RESPONSE)


def test_mark_not_replayable_rewrites_the_record(tmp_path: Path) -> None:
    rec = ExecutionRecorder(tmp_path, ENVELOPE, fsync=False)
    path = run_fallback(rec)
    rec.mark_not_replayable("manually_invalidated")
    header = read_record(path)["header"]
    assert (header["replayable"], header["replayableReason"]) == (False, "manually_invalidated")


def test_closing_without_a_final_response_leaves_an_up_to_date_incomplete_record(
    tmp_path: Path,
) -> None:
    with ExecutionRecorder(tmp_path, ENVELOPE, fsync=False) as rec:
        rec.intent_received()
        rec.attempt_start("agent-a")
        rec.attempt_end("agent-a", "error")
    record = read_record(rec.record_path)
    assert [e["type"] for e in record["events"]] == [
        "INTENT_RECEIVED",
        "AGENT_ATTEMPT_START",
        "AGENT_ATTEMPT_END",
    ]
    assert record["header"]["replayableReason"] == EXECUTION_INCOMPLETE


def test_order_comes_from_the_sequence_not_the_wall_clock(tmp_path: Path) -> None:
    times = iter(f"2026-01-05T09:00:{59 - i:02d}+00:00" for i in range(60))  # clock runs backwards
    rec = ExecutionRecorder(tmp_path, ENVELOPE, fsync=False, now=lambda: next(times))
    run_fallback(rec)
    assert [e["seq"] for e in read_record(rec.record_path)["events"]] == list(range(1, 9))
    assert read_wal(rec.wal_path).issues == ()


def test_parallel_attempts_from_threads_get_unique_contiguous_seqs(tmp_path: Path) -> None:
    rec = ExecutionRecorder(tmp_path, ENVELOPE, fsync=False)
    rec.intent_received()

    def attempt(name: str) -> None:
        rec.attempt_start(name, strategy="PARALLEL")
        rec.attempt_end(name, "ok")

    threads = [threading.Thread(target=attempt, args=(f"agent-{i}",)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    rec.final_response(RESPONSE)
    events = read_record(rec.record_path)["events"]
    assert [e["seq"] for e in events] == list(range(1, 19))
    assert sorted(
        e["payload"]["attempt_num"] for e in events if e["type"] == "AGENT_ATTEMPT_START"
    ) == list(range(1, 9))
    assert read_wal(rec.wal_path).chain_valid


@pytest.mark.parametrize("bad", ["../escape", ".hidden", ""])
def test_unsafe_ids_are_refused(tmp_path: Path, bad: str) -> None:
    if bad == "":
        rec = ExecutionRecorder(tmp_path, ENVELOPE, execution_id=bad, fsync=False)
        assert rec.execution_id  # empty means "make one up"
        return
    with pytest.raises(ValueError):
        ExecutionRecorder(tmp_path, ENVELOPE, execution_id=bad, fsync=False)


def test_the_core_loader_reads_recorder_output(tmp_path: Path) -> None:
    from intentus_tui.core.index.summarize import summarize_path
    from intentus_tui.core.records.timeline import ExecutionState
    from intentus_tui.core.records.verify import HashStatus

    done = ExecutionRecorder(tmp_path, ENVELOPE, fsync=False)
    run_fallback(done)
    crashed = ExecutionRecorder(tmp_path, ENVELOPE, flush_mode="rewrite", fsync=False)
    crashed.intent_received()
    crashed.attempt_start("agent-a")

    complete = summarize_path(done.record_path)
    assert complete.state is ExecutionState.COMPLETED and complete.replayable
    assert complete.hash_status is HashStatus.MATCH and complete.problems == 0
    partial = summarize_path(crashed.record_path)
    assert partial.state is ExecutionState.INCOMPLETE and not partial.replayable
    assert partial.replay_reason == EXECUTION_INCOMPLETE and partial.in_flight_agent == "agent-a"
