"""The demo world: every promised scenario is really in the files, deterministically."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core.records.hashing import documented_envelope_hash, runtime_envelope_hash
from intentus_tui.core.wal.log import read_wal, scan_wal_dir
from intentus_tui.demo.world import (
    MIN_COUNT,
    SCENARIOS,
    DemoError,
    DemoManifest,
    DemoSimulator,
    Execution,
    build_demo_world,
    load_manifest,
)

UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
EXEC_ID = re.compile(r"^exec-[0-9a-f]{8}$")


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> DemoManifest:
    return build_demo_world(tmp_path_factory.mktemp("demo"), count=40, seed=7)


def load(manifest: DemoManifest, execution_id: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(manifest.record_path(execution_id).read_bytes())
    return data


def types(record: dict[str, Any]) -> list[str]:
    return [e["type"] for e in record["events"]]


# ---------------------------------------------------------------------------------------
# The tree as a whole


def test_every_scenario_is_realised_and_every_id_has_its_files(world: DemoManifest) -> None:
    for scenario in SCENARIOS:
        assert world.ids(scenario), f"{scenario} missing"
    assert len(world.execution_ids) == 40
    for execution_id, form in world.forms.items():
        has_record = world.record_path(execution_id).is_file()
        has_wal = world.wal_path(execution_id).is_file()
        assert has_record == (form != "wal_only"), execution_id
        assert has_wal == (form != "runtime"), execution_id  # 1.3.0's router writes no WAL
    on_disk = {p.stem for p in world.records_dir.iterdir()} | {
        p.stem for p in world.wal_dir.iterdir()
    }
    assert on_disk == set(world.execution_ids)
    assert load_manifest(world.root) == world


def test_same_seed_same_bytes_other_seed_other_world(tmp_path: Path) -> None:
    a = build_demo_world(tmp_path / "a", count=25, seed=3)
    b = build_demo_world(tmp_path / "b", count=25, seed=3)
    c = build_demo_world(tmp_path / "c", count=25, seed=4)
    assert a.files == b.files
    for relative in a.files:
        assert (a.root / relative).read_bytes() == (b.root / relative).read_bytes(), relative
    assert set(c.execution_ids).isdisjoint(a.execution_ids)


def test_count_below_the_scenario_minimum_still_has_every_scenario(tmp_path: Path) -> None:
    manifest = build_demo_world(tmp_path, count=1)
    assert len(manifest.execution_ids) == MIN_COUNT
    assert all(manifest.ids(s) for s in SCENARIOS)


def test_refuses_foreign_files_and_replaces_an_earlier_demo(tmp_path: Path) -> None:
    first = build_demo_world(tmp_path, count=30, seed=1)
    second = build_demo_world(tmp_path, count=20, seed=2)  # replaces the first completely
    names = {p.stem for p in second.records_dir.iterdir()} | {
        p.stem for p in second.wal_dir.iterdir()
    }
    assert names == set(second.execution_ids)
    assert set(first.execution_ids).isdisjoint(names)

    (second.records_dir / "real-record.json").write_text("{}")
    with pytest.raises(DemoError, match=r"real-record\.json"):
        build_demo_world(tmp_path)
    assert (second.records_dir / "real-record.json").exists()


# ---------------------------------------------------------------------------------------
# Record forms


def test_runtime_form_records_look_like_1_3_0(world: DemoManifest) -> None:
    for execution_id in world.ids("runtime_form"):
        assert UUID4.match(execution_id)
        text = world.record_path(execution_id).read_text(encoding="utf-8")
        assert text.startswith('{\n  "header": {\n    "executionId": ')
        if execution_id in world.ids("truncated_error_record"):
            continue
        record = json.loads(text)
        assert list(record) == ["header", "envelope", "routerDecision", "events", "finalResponse"]
        assert list(record["header"]) == [
            "executionId",
            "createdUtcIso",
            "envelopeHash",
            "replayable",
            "replayableReason",
        ]
        assert re.fullmatch(r"[0-9a-f]{64}", record["header"]["envelopeHash"])
        assert record["header"]["createdUtcIso"].endswith("+00:00")
        assert "routingMetadata" in record["envelope"]
        for event in record["events"]:
            assert list(event) == ["seq", "type", "payload"]
            if event["type"] == "AGENT_ATTEMPT_START":
                assert set(event["payload"]) <= {"agent", "strategy", "index"}
            if event["type"] == "AGENT_ATTEMPT_END":
                assert set(event["payload"]) <= {"agent", "status", "exception"}
                assert event["payload"]["status"] in ("ok", "error")


def test_documented_form_records(world: DemoManifest) -> None:
    latencies = attempt_nums = 0
    for execution_id in world.ids("documented_form"):
        assert EXEC_ID.match(execution_id)
        record = load(world, execution_id)
        assert record["header"]["envelopeHash"].startswith("sha256:")
        for event in record["events"]:
            latencies += "latency_ms" in event["payload"]
            attempt_nums += "attempt_num" in event["payload"]
    assert latencies and attempt_nums


def test_untampered_envelopes_hash_to_what_is_stored(world: DemoManifest) -> None:
    tampered = set(world.ids("tampered_envelope"))
    for execution_id in world.ids("runtime_form"):
        if execution_id in tampered or execution_id in world.ids("truncated_error_record"):
            continue
        record = load(world, execution_id)
        assert record["header"]["envelopeHash"] == runtime_envelope_hash(record["envelope"])
    for execution_id in world.ids("documented_form"):
        if execution_id in tampered:
            continue
        record = load(world, execution_id)
        assert record["header"]["envelopeHash"] == documented_envelope_hash(record["envelope"])


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
# Byte-for-byte against the real intentusnet 1.3.0


def _normalise(data: bytes) -> bytes:
    """Blank out what the real run draws from the wall clock and uuid4."""
    text = data.decode("utf-8")
    text = re.sub(r'"executionId": "[^"]+"', '"executionId": "<id>"', text)
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00", "<time>", text)
    return text.encode("utf-8")


def _run_real(execution: Execution, tmp_path: Path) -> bytes:
    """Route the same envelope through the real 1.3.0 router with agents that behave the same."""
    from intentusnet import AgentRegistry, BaseAgent, IntentRouter
    from intentusnet.protocol import (
        AgentDefinition,
        AgentResponse,
        Capability,
        IntentContext,
        IntentEnvelope,
        IntentMetadata,
        IntentRef,
        RoutingOptions,
    )
    from intentusnet.protocol.enums import Priority, RoutingStrategy
    from intentusnet.recording.store import FileExecutionStore

    assert execution.record is not None
    env_dict = execution.record["envelope"]
    final_payload = execution.record["events"][-1]["payload"]["payload"]
    ends = {
        e["payload"]["agent"]: e["payload"]
        for e in execution.record["events"]
        if e["type"] == "AGENT_ATTEMPT_END"
    }
    starts = [
        e["payload"]["agent"]
        for e in execution.record["events"]
        if e["type"] == "AGENT_ATTEMPT_START"
    ]
    store = FileExecutionStore(str(tmp_path))
    registry = AgentRegistry()
    router = IntentRouter(registry, record_store=store)
    intent = IntentRef(name=env_dict["intent"]["name"])

    for priority, name in enumerate(starts):
        end = ends[name]

        class SimAgent(BaseAgent):
            def handle(self, env: IntentEnvelope, _end: dict[str, Any] = end) -> AgentResponse:
                if "exception" in _end:  # a remote agent whose transport raised
                    raise RuntimeError(_end["exception"])
                return super().handle(env)

            def handle_intent(
                self, env: IntentEnvelope, _end: dict[str, Any] = end
            ) -> AgentResponse:
                if _end["status"] == "ok":
                    return AgentResponse.success(
                        final_payload, agent=self.definition.name, trace_id=env.metadata.traceId
                    )
                raise RuntimeError("agent failed")

        definition = AgentDefinition(
            name=name, nodePriority=priority, capabilities=[Capability(intent=intent)]
        )
        registry.register(SimAgent(definition, router))

    env = IntentEnvelope(
        version=env_dict["version"],
        intent=intent,
        payload=env_dict["payload"],
        context=IntentContext(
            sourceAgent=env_dict["context"]["sourceAgent"],
            timestamp=env_dict["context"]["timestamp"],
            priority=Priority(env_dict["context"]["priority"]),
            tags=env_dict["context"]["tags"],
        ),
        metadata=IntentMetadata(**env_dict["metadata"]),
        routing=RoutingOptions(
            strategy=RoutingStrategy(env_dict["routing"]["strategy"]),
            targetAgent=env_dict["routing"]["targetAgent"],
        ),
    )
    logging.disable(logging.CRITICAL)
    try:
        router.route_intent(env)
    except TypeError:
        pass  # 1.3.0 raises ErrorInfo-is-not-serializable after truncating the file
    finally:
        logging.disable(logging.NOTSET)
    (written,) = list(tmp_path.glob("*.json"))
    return written.read_bytes()


@pytest.mark.parametrize(
    ("strategy", "outcomes"),
    [
        ("fallback", ["error", "exception", "error"]),  # all fail: truncated by 1.3.0
        ("fallback", ["exception", "error", "ok"]),
        ("direct", ["ok"]),
        ("direct", ["error"]),  # truncated too
        ("broadcast", ["error", "ok", "exception"]),
    ],
)
def test_runtime_records_match_the_real_router_byte_for_byte(
    tmp_path: Path, strategy: str, outcomes: list[Any]
) -> None:
    from intentus_tui.demo.world import INTENTS

    sim = DemoSimulator(seed=11)
    spec = INTENTS[0]
    execution = sim.runtime(spec, strategy, sim.agent_runs(spec, outcomes))
    execution.render()
    assert execution.record_bytes is not None

    real = _run_real(execution, tmp_path)

    assert _normalise(execution.record_bytes) == _normalise(real)
    truncated = real.endswith(b'"error": ')
    assert truncated == ("ok" not in outcomes)


# ---------------------------------------------------------------------------------------
# Command line


def test_cli_demo_writes_the_world(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from intentus_tui.cli import run

    assert run(["demo", str(tmp_path / "w"), "--count", "22", "--seed", "5"]) in (0, None)
    out = capsys.readouterr().out
    assert "truncated_error_record" in out and str(tmp_path / "w") in out
    manifest = load_manifest(tmp_path / "w" / ".intentusnet")
    assert manifest is not None and len(manifest.execution_ids) == 22


def test_cli_demo_refuses_a_directory_with_real_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from intentus_tui.cli import run

    records = tmp_path / ".intentusnet" / "records"
    records.mkdir(parents=True)
    (records / "mine.json").write_text("{}")
    assert run(["demo", str(tmp_path)]) == 2
    assert "not from a demo world" in capsys.readouterr().err


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


# ---------------------------------------------------------------------------------------
# Live mode


def test_live_executions_appear_partial_first_then_complete(tmp_path: Path) -> None:
    from intentus_tui.demo.world import LiveDemo

    base = build_demo_world(tmp_path, count=20).root
    seen: list[tuple[str, str, Any, Any]] = []  # checked in the test thread, not the workers

    def observe(execution_id: str, event_type: str) -> None:
        record = json.loads((base / "records" / f"{execution_id}.json").read_bytes())
        log = read_wal(base / "wal" / f"{execution_id}.wal")
        seen.append((execution_id, event_type, record, log))

    live = LiveDemo(base, rate=50, time_scale=0.01, fsync=False, on_progress=observe)
    stats = live.run(max_executions=6)

    assert (stats.started, stats.finished, stats.errors) == (6, 6, [])
    for _execution_id, event_type, record, log in seen:
        if event_type == "FINAL_RESPONSE":
            assert record["header"]["replayable"] is True and record["finalResponse"] is not None
            assert log.state == "completed" and log.issues == ()
        else:  # visible while in flight: an incomplete record and the WAL's in-flight step
            assert record["finalResponse"] is None
            assert record["header"]["replayableReason"] == "execution_incomplete"
            assert log.state == "in_flight" and log.chain_valid
            if event_type == "AGENT_ATTEMPT_START":
                assert log.in_flight_step is not None
    assert {e for _, e, _, _ in seen} == {
        "INTENT_RECEIVED",
        "AGENT_ATTEMPT_START",
        "FINAL_RESPONSE",
    }
    manifest = load_manifest(base)
    assert manifest is not None and manifest.ids("live") == tuple(stats.ids)
    build_demo_world(tmp_path, count=20)  # live files belong to the demo: rebuilt cleanly
    assert not any((base / "records" / f"{i}.json").exists() for i in stats.ids)


def test_live_stop_finishes_slow_executions_at_once(tmp_path: Path) -> None:
    import threading
    import time

    from intentus_tui.demo.world import LiveDemo

    base = build_demo_world(tmp_path, count=20).root
    in_flight = threading.Event()

    def observe(execution_id: str, event_type: str) -> None:
        if event_type == "AGENT_ATTEMPT_START":
            in_flight.set()

    live = LiveDemo(base, rate=5, time_scale=100.0, fsync=False, on_progress=observe)  # very slow
    runner = threading.Thread(target=live.run)
    runner.start()
    assert in_flight.wait(10)
    started = time.monotonic()
    live.stop()
    runner.join(10)
    assert not runner.is_alive() and time.monotonic() - started < 5
    for execution_id in live.stats.ids:
        record = json.loads((base / "records" / f"{execution_id}.json").read_bytes())
        assert record["finalResponse"] is not None


def test_cli_live_stops_by_itself(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from intentus_tui.cli import run

    argv = ["demo", str(tmp_path), "--count", "20", "--live", "--max-executions", "3"]
    assert run([*argv, "--rate", "50", "--time-scale", "0.01"]) in (0, None)
    assert "Live demo stopped: 3 started, 3 finished." in capsys.readouterr().out
    manifest = load_manifest(tmp_path / ".intentusnet")
    assert manifest is not None and len(manifest.ids("live")) == 3


def test_cli_live_exits_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "intentus_tui.cli",
            "demo",
            str(tmp_path),
            "--count",
            "20",
            "--live",
            "--rate",
            "20",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    for line in proc.stdout:  # wait until executions are being recorded
        if line.startswith("  done "):
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=15)
    assert proc.returncode == 0, err
    assert "Live demo interrupted" in out and "Traceback" not in err
