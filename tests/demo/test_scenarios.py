"""Each demo scenario shows what it promises, and the core classifies it as intended."""

from __future__ import annotations

import json
from typing import Any

import pytest

from intentus_tui.core.records.hashing import documented_envelope_hash, runtime_envelope_hash
from intentus_tui.core.wal.read import read_wal, scan_wal_dir
from intentus_tui.demo.writer import DemoManifest
from tests.demo.support import load, types

# ---------------------------------------------------------------------------------------
# Scenarios, one by one


def test_fallback_chains(world: DemoManifest) -> None:
    saw_exception = saw_error = False
    for execution_id in world.ids("fallback_chain"):
        record = load(world, execution_id)
        starts = [e for e in record["events"] if e["type"] == "AGENT_ATTEMPT_START"]
        ends = [e["payload"] for e in record["events"] if e["type"] == "AGENT_ATTEMPT_END"]
        assert 2 <= len(starts) <= 4
        assert types(record).count("FALLBACK_TRIGGERED") == len(starts) - 1
        assert ends[-1]["status"] in ("ok", "success")
        assert all(end["status"] == "error" for end in ends[:-1])
        saw_exception |= any("exception" in end for end in ends)
        saw_error |= any("exception" not in end and end["status"] == "error" for end in ends)
        assert record["finalResponse"]["error"] is None
    assert saw_exception and saw_error


@pytest.mark.parametrize("strategy", ["broadcast", "parallel"])
def test_broadcast_and_parallel(world: DemoManifest, strategy: str) -> None:
    (execution_id,) = world.ids(strategy)
    record = load(world, execution_id)
    assert record["envelope"]["routing"]["strategy"] == strategy
    starts = [e["payload"] for e in record["events"] if e["type"] == "AGENT_ATTEMPT_START"]
    assert {s["strategy"] for s in starts} == {strategy.upper()}
    assert "FALLBACK_TRIGGERED" not in types(record)
    assert (
        record["routerDecision"]["reason"]
        == {
            "broadcast": "broadcast last success",
            "parallel": "parallel first success",
        }[strategy]
    )


def test_all_agents_failed(world: DemoManifest) -> None:
    record = load(world, world.first("all_agents_failed"))
    ends = [e["payload"] for e in record["events"] if e["type"] == "AGENT_ATTEMPT_END"]
    assert len(ends) >= 2 and all(end["status"] == "error" for end in ends)
    assert record["finalResponse"]["status"] == "error"
    assert record["finalResponse"]["error"]["message"] == "All fallback agents failed"
    assert record["header"]["replayable"] is True  # an error answer is still an answer
    log = read_wal(world.wal_path(world.first("all_agents_failed")))
    assert log.state == "failed" and log.chain_valid


def test_crash_mid_attempt_has_partial_record_and_wal(world: DemoManifest) -> None:
    verdicts = set()
    for execution_id in world.ids("crash_mid_attempt"):
        record = load(world, execution_id)
        assert record["header"]["replayable"] is False
        assert record["header"]["replayableReason"] == "execution_incomplete"
        assert record["finalResponse"] is None and record["routerDecision"] is None
        last = record["events"][-1]
        assert last["type"] == "AGENT_ATTEMPT_START"
        log = read_wal(world.wal_path(execution_id))
        assert log.chain_valid and log.state == "in_flight"
        assert log.in_flight_step is not None
        assert log.in_flight_step.agent == last["payload"]["agent"]
        verdicts.add(log.hint.verdict)
    assert verdicts == {"do_not_retry", "safe_to_retry"}  # irreversible vs read-only in flight


def test_crash_before_any_record_leaves_only_the_wal(world: DemoManifest) -> None:
    execution_id = world.first("crash_wal_only")
    assert not world.record_path(execution_id).exists()
    log = read_wal(world.wal_path(execution_id))
    assert log.state == "in_flight" and log.chain_valid
    assert log.in_flight_step is not None and log.in_flight_step.side_effect == "reversible"
    assert log.hint.verdict == "investigate_first"


def test_manually_invalidated_and_recording_failure(world: DemoManifest) -> None:
    invalidated = load(world, world.first("manually_invalidated"))
    assert invalidated["header"]["replayable"] is False
    assert invalidated["header"]["replayableReason"] == "manually_invalidated"
    assert invalidated["finalResponse"]["status"] == "success"

    failed = load(world, world.first("recording_failure"))
    assert failed["header"]["replayable"] is False
    assert failed["header"]["replayableReason"] == "recording_failure"
    seqs = [e["seq"] for e in failed["events"]]
    assert seqs != list(range(1, len(seqs) + 1))  # the lost event left a gap


def test_tampered_envelopes_no_longer_hash_to_the_stored_hash(world: DemoManifest) -> None:
    forms = set()
    for execution_id in world.ids("tampered_envelope"):
        record = load(world, execution_id)
        stored = record["header"]["envelopeHash"]
        if stored.startswith("sha256:"):
            forms.add("documented")
            assert stored != documented_envelope_hash(record["envelope"])
        else:
            forms.add("runtime")
            assert stored != runtime_envelope_hash(record["envelope"])
    assert forms == {"runtime", "documented"}


def test_tampered_final_response_differs_from_the_recorded_event(world: DemoManifest) -> None:
    record = load(world, world.first("tampered_final_response"))
    final_event = record["events"][-1]
    assert final_event["type"] == "FINAL_RESPONSE"
    assert final_event["payload"]["payload"] != record["finalResponse"]["payload"]
    assert record["header"]["envelopeHash"] == runtime_envelope_hash(record["envelope"])


def test_truncated_error_record_stops_right_after_error(world: DemoManifest) -> None:
    data = world.record_path(world.first("truncated_error_record")).read_bytes()
    assert data.endswith(b'        "error": ')
    text = data.decode("utf-8")
    with pytest.raises(json.JSONDecodeError) as info:
        json.loads(text)
    assert info.value.pos == len(text)  # it fails exactly at the end: truncated, not garbled
    # The cut is inside the FINAL_RESPONSE event; finalResponse itself was never reached.
    assert text.rfind('"type": "FINAL_RESPONSE"') > text.rfind('"type": "ROUTER_DECISION"')
    assert '"finalResponse"' not in text


def test_large_payload_is_over_a_megabyte(world: DemoManifest) -> None:
    execution_id = world.first("large_payload")
    assert world.record_path(execution_id).stat().st_size >= 1_000_000
    payload = load(world, execution_id)["envelope"]["payload"]
    assert len(json.dumps(payload, ensure_ascii=False).encode()) >= 1_000_000


def test_wal_scenarios(world: DemoManifest) -> None:
    logs = scan_wal_dir(world.wal_dir)
    torn = logs[world.first("wal_torn_tail")]
    assert torn.torn and torn.chain_valid and torn.state == "in_flight"
    tampered = logs[world.first("wal_tampered")]
    assert tampered.first_issue is not None and tampered.first_issue.kind == "hash_mismatch"
    special = {world.first("wal_torn_tail"), world.first("wal_tampered")}
    for execution_id, log in logs.items():
        if execution_id not in special:
            assert log.issues == (), execution_id


# ---------------------------------------------------------------------------------------
# The core classifies each scenario as intended


def _summaries(world: DemoManifest) -> dict[str, Any]:
    from intentus_tui.core.index.summarize import summarize_path

    return {p.stem: summarize_path(p) for p in sorted(world.records_dir.glob("*.json"))}


def test_core_index_classifies_every_scenario(world: DemoManifest) -> None:
    from intentus_tui.core.records.timeline import ExecutionState
    from intentus_tui.core.records.verify import HashStatus

    summaries = _summaries(world)

    def each(scenario: str) -> list[Any]:
        return [summaries[i] for i in world.ids(scenario) if i in summaries]

    clean = (
        "success",
        "fallback_chain",
        "broadcast",
        "parallel",
        "all_agents_failed",
        "large_payload",
    )
    for scenario in clean:
        for s in each(scenario):
            assert s.state is ExecutionState.COMPLETED, (scenario, s)
            assert s.replayable and s.hash_status is HashStatus.MATCH, (scenario, s)
            assert s.problems == 0, (scenario, s)
    assert all(s.fallbacks >= 1 and 2 <= s.attempts <= 4 for s in each("fallback_chain"))
    assert all(s.final_status == "error" for s in each("all_agents_failed"))
    for scenario in ("crash_mid_attempt", "wal_torn_tail"):
        for s in each(scenario):
            assert s.state is ExecutionState.INCOMPLETE and not s.replayable
            assert s.replay_reason == "execution_incomplete" and s.in_flight_agent
    (invalidated,) = each("manually_invalidated")
    assert not invalidated.replayable and invalidated.replay_reason == "manually_invalidated"
    (lost_event,) = each("recording_failure")
    assert not lost_event.replayable and lost_event.replay_reason == "recording_failure"
    assert lost_event.problems >= 1  # the seq gap
    assert {s.hash_status for s in each("tampered_envelope")} == {HashStatus.MISMATCH}
    assert {s.hash_form for s in each("tampered_envelope")} == {"runtime", "documented"}
    (truncated,) = each("truncated_error_record")
    assert truncated.state is ExecutionState.CORRUPTED and not truncated.replayable
    assert {s.hash_form for s in each("runtime_form")} == {"runtime"}
    assert {s.hash_form for s in each("documented_form")} == {"documented"}


def test_core_flags_the_tampered_final_response(world: DemoManifest) -> None:
    (summary,) = [_summaries(world)[world.first("tampered_final_response")]]
    assert summary.problems >= 1


def test_core_index_lists_the_wal_only_execution(world: DemoManifest) -> None:
    from intentus_tui.core.index.directory import scan_root
    from intentus_tui.core.paths import resolve_root

    rows = scan_root(resolve_root(world.root.parent))
    assert world.first("crash_wal_only") in {r.execution_id for r in rows}
