"""The simulated router writes records in both forms, byte for byte as the real
IntentusNet 1.3.0 does."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core.records.hashing import documented_envelope_hash, runtime_envelope_hash
from intentus_tui.demo.simulator import DemoSimulator, Execution
from intentus_tui.demo.writer import DemoManifest
from tests.demo.support import EXEC_ID, UUID4, load

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
    from intentus_tui.demo.simulator import INTENTS

    sim = DemoSimulator(seed=11)
    spec = INTENTS[0]
    execution = sim.runtime(spec, strategy, sim.agent_runs(spec, outcomes))
    execution.render()
    assert execution.record_bytes is not None

    real = _run_real(execution, tmp_path)

    assert _normalise(execution.record_bytes) == _normalise(real)
    truncated = real.endswith(b'"error": ')
    assert truncated == ("ok" not in outcomes)
