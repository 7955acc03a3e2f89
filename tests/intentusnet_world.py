"""Records written by the REAL intentusnet 1.3.0 through its public API, in a temp directory."""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from intentusnet import IntentusRuntime
from intentusnet.core.agent import BaseAgent
from intentusnet.protocol import AgentDefinition, AgentResponse, IntentRef
from intentusnet.protocol.agent import Capability
from intentusnet.protocol.enums import Priority, RoutingStrategy
from intentusnet.protocol.intent import (
    IntentContext,
    IntentEnvelope,
    IntentMetadata,
    RoutingMetadata,
    RoutingOptions,
)
from intentusnet.recording.recorder import InMemoryExecutionRecorder
from intentusnet.recording.store import FileExecutionStore as RealStore

if TYPE_CHECKING:
    from intentusnet.wal.writer import WALWriter


@dataclass(frozen=True)
class RealWorld:
    records_dir: Path
    success: str
    fallback: str
    error_truncated: str
    invalidated: str


def _agent(name: str, fail: bool, priority: int):
    class Agent(BaseAgent):
        def handle_intent(self, env: IntentEnvelope) -> AgentResponse:
            if fail:
                raise RuntimeError(f"{name} exploded")
            return AgentResponse.success({"by": name, "echo": env.payload}, agent=name)

    definition = AgentDefinition(
        name=name,
        nodePriority=priority,
        capabilities=[Capability(intent=IntentRef(name="Summarize", version="1.0"))],
    )
    return lambda router: Agent(definition, router)


def _envelope(strategy: RoutingStrategy, fallback: list[str], target: str | None) -> IntentEnvelope:
    now = "2026-01-05T10:00:00+00:00"
    return IntentEnvelope(
        version="1.0",
        intent=IntentRef(name="Summarize", version="1.0"),
        payload={"text": "héllo wörld"},
        context=IntentContext(
            sourceAgent="client", timestamp=now, priority=Priority.NORMAL, tags=["t"]
        ),
        metadata=IntentMetadata(requestId="r-1", source="client", createdAt=now, traceId="tr-1"),
        routing=RoutingOptions(strategy=strategy, targetAgent=target, fallbackAgents=fallback),
        routingMetadata=RoutingMetadata(),
    )


def _new_id(records: Path, before: set[str]) -> str:
    (new,) = {p.stem for p in records.glob("*.json")} - before
    return new


@contextlib.contextmanager
def _runtime(base: Path, *agents: tuple[str, bool, int]) -> Iterator[tuple[IntentusRuntime, Path]]:
    """The real 1.3.0 runtime writing its records under ``base`` (it writes relative to the
    current directory: it runs there), with ``agents`` (name, fails, priority)."""
    records = base / ".intentusnet" / "records"
    logging.getLogger("intentusnet").setLevel(logging.CRITICAL)
    base.mkdir(parents=True, exist_ok=True)  # a directory named for the world, made here
    old_cwd = os.getcwd()
    os.chdir(base)
    try:
        runtime = IntentusRuntime(record_dir=str(records))
        for name, fails, priority in agents:
            runtime.register_agent(_agent(name, fails, priority))
        yield runtime, records
    finally:
        os.chdir(old_cwd)


def _route(runtime: IntentusRuntime, records: Path, env: IntentEnvelope) -> str:
    """Route ``env``; the id of the record it wrote. 1.3.0 raises TypeError while writing an
    error record (ErrorInfo is not JSON serializable) and leaves the file truncated: that
    is the behaviour under test."""
    before = {p.stem for p in records.glob("*.json")}
    with contextlib.suppress(TypeError):
        runtime.router.route_intent(env)
    return _new_id(records, before)


def build_real_world(base: Path) -> RealWorld:
    with _runtime(base, ("fb-primary", True, 10), ("fb-secondary", False, 20)) as (
        runtime,
        records,
    ):

        def route(env: IntentEnvelope) -> str:
            return _route(runtime, records, env)

        success = route(_envelope(RoutingStrategy.DIRECT, [], "fb-secondary"))
        fallback = route(_envelope(RoutingStrategy.FALLBACK, ["fb-primary", "fb-secondary"], None))
        error = route(_envelope(RoutingStrategy.DIRECT, [], "fb-primary"))
        invalidated = route(_envelope(RoutingStrategy.DIRECT, [], "fb-secondary"))
        store = RealStore(str(records))
        record = store.load(invalidated)
        recorder = InMemoryExecutionRecorder(record)
        recorder.mark_not_replayable("manually_invalidated")
        store.save(recorder.get_record())
    return RealWorld(records, success, fallback, error, invalidated)


def huge_echo_record(base: Path, text_bytes: int) -> tuple[Path, str]:
    """A record directory under ``base`` holding one successful execution, written by the
    real 1.3.0 runtime, whose agent echoes a ``text_bytes`` payload: its final response is
    as large as its envelope, so the file's last bytes are inside that response."""
    with _runtime(base, ("fb-secondary", False, 20)) as (runtime, records):
        envelope = _envelope(RoutingStrategy.DIRECT, [], "fb-secondary")
        envelope.payload = {"text": "y" * text_bytes}
        runtime.router.route_intent(envelope)
    (path,) = records.glob("*.json")
    return records, path.stem


def with_broken_wal_chain(world: RealWorld, base: Path) -> Path:
    """An ``.intentusnet`` under ``base`` holding the world's success record, intact, and
    its WAL, written by the real 1.3.0 ``WALWriter``, less its first entry (the chain
    breaks at line 1): the record's own checks pass, its execution cannot be believed."""
    import shutil

    from intentusnet.wal.writer import WALWriter

    records = base / ".intentusnet" / "records"
    records.mkdir(parents=True)
    name = f"{world.success}.json"
    shutil.copy(world.records_dir / name, records / name)
    wal_dir = records.parent / "wal"
    with WALWriter(str(wal_dir), world.success) as writer:
        writer.execution_started("ab" * 32, "Summarize")
        writer.execution_completed("cd" * 32)
    wal = wal_dir / f"{world.success}.wal"
    wal.write_text(wal.read_text("utf-8").splitlines()[1] + "\n", "utf-8")
    return records.parent


def _up_to_the_second_attempt(writer: WALWriter, envelope_hash: str, side_effect: str) -> None:
    """The log of the world's fallback execution up to its second attempt's start: the first
    (fb-primary) failed, the fallback, then fb-secondary started (``side_effect``)."""
    writer.execution_started(envelope_hash, "Summarize")
    writer.step_started("attempt-1", "fb-primary", "read_only", {}, "a1" * 32)
    writer.step_failed("attempt-1", "unavailable", "circuit breaker open", True)
    writer.fallback_triggered("fb-primary", "fb-secondary", "unavailable")
    writer.step_started("attempt-2", "fb-secondary", side_effect, {}, "a2" * 32)


def with_a_copy(world: RealWorld, records: Path) -> str:
    """The world's records copied to ``records``, with a copy of its successful execution's
    record beside the original (two files, one id); the copy's file name."""
    import shutil

    shutil.copytree(world.records_dir, records)
    copy = f"{world.success}.copy.json"
    shutil.copy(records / f"{world.success}.json", records / copy)
    return copy


def real_world_and(base: Path, derive: Callable[[RealWorld, Path], Path]) -> tuple[RealWorld, Path]:
    """A real world under ``base/real``, and the project ``derive`` (``with_...``) makes
    of it under ``base/derived``."""
    (base / "real").mkdir()
    (base / "derived").mkdir()
    world = build_real_world(base / "real")
    return world, derive(world, base / "derived")


def with_lost_attempt_end(world: RealWorld, base: Path) -> Path:
    """An ``.intentusnet`` under ``base`` whose record of the world's fallback execution
    lost its first attempt's end (seq 3), saved by the real 1.3.0 store as not replayable
    (``recording_failure``), beside the WAL the real ``WALWriter`` wrote of the same run:
    there the first step failed. The record alone shows that attempt in flight."""
    from intentusnet.wal.writer import WALWriter

    records = base / ".intentusnet" / "records"
    records.mkdir(parents=True)
    record = RealStore(str(world.records_dir)).load(world.fallback)
    record.events = [event for event in record.events if event.seq != 3]
    recorder = InMemoryExecutionRecorder(record)
    recorder.mark_not_replayable("recording_failure")
    RealStore(str(records)).save(recorder.get_record())
    with WALWriter(str(records.parent / "wal"), world.fallback) as writer:
        _up_to_the_second_attempt(writer, record.header.envelopeHash, "read_only")
        writer.step_completed("attempt-2", "b2" * 32, True)
        writer.execution_completed("c3" * 32)
    return records.parent


def with_record_behind_its_log(world: RealWorld, base: Path) -> Path:
    """An ``.intentusnet`` under ``base`` holding the world's fallback execution as it stood
    while it ran: its record as the real 1.3.0 store saves it after its first event
    (INTENT_RECEIVED: no attempt, no decision, no final response) beside the WAL the real
    ``WALWriter`` had written by then: attempt 1 (fb-primary) failed, the fallback, and
    attempt 2 (fb-secondary, irreversible) started at WAL #5 and not ended."""
    from intentusnet.wal.writer import WALWriter

    records = base / ".intentusnet" / "records"
    records.mkdir(parents=True)
    record = RealStore(str(world.records_dir)).load(world.fallback)
    record.events = record.events[:1]
    record.routerDecision = None
    record.finalResponse = None
    RealStore(str(records)).save(record)
    with WALWriter(str(records.parent / "wal"), world.fallback) as writer:
        _up_to_the_second_attempt(writer, record.header.envelopeHash, "irreversible")
    return records.parent


def with_another_agent_in_flight(world: RealWorld, base: Path) -> Path:
    """An ``.intentusnet`` under ``base`` whose record and WAL of the world's fallback
    execution disagree on the agent in flight: the record, as the real 1.3.0 store saves
    it, stops after attempt 1's start (fb-primary); the log the real ``WALWriter`` wrote
    has attempt 1 by fb-secondary started (irreversible) at WAL #2 and not ended."""
    from intentusnet.wal.writer import WALWriter

    records = base / ".intentusnet" / "records"
    records.mkdir(parents=True)
    record = RealStore(str(world.records_dir)).load(world.fallback)
    record.events = record.events[:2]  # INTENT_RECEIVED, AGENT_ATTEMPT_START fb-primary
    record.routerDecision = None
    record.finalResponse = None
    RealStore(str(records)).save(record)
    with WALWriter(str(records.parent / "wal"), world.fallback) as writer:
        writer.execution_started(record.header.envelopeHash, "Summarize")
        writer.step_started("attempt-1", "fb-secondary", "irreversible", {}, "a1" * 32)
    return records.parent


def all_attempts_failing(base: Path) -> dict[str, str]:
    """Executions the real 1.3.0 router ran with every agent failing, one per strategy
    (fallback, broadcast, parallel): id by strategy. Each file is cut short inside its
    final response (1.3.0 cannot serialize its ErrorInfo) and names the strategy as the
    router's decision."""
    with _runtime(base, ("fb-primary", True, 10), ("fb-secondary", True, 20)) as (
        runtime,
        records,
    ):
        ids = {}
        for strategy, fallback in (
            (RoutingStrategy.FALLBACK, ["fb-primary", "fb-secondary"]),
            (RoutingStrategy.BROADCAST, []),
            (RoutingStrategy.PARALLEL, []),
        ):
            ids[strategy.value] = _route(runtime, records, _envelope(strategy, fallback, None))
    return ids


def no_agent_for_the_intent(base: Path) -> str:
    """An execution the real 1.3.0 router could not route (no agent registered for its
    intent): the id of its record, cut short inside the FINAL_RESPONSE event, where the
    router's error was to be written (1.3.0 cannot serialize its ErrorInfo), with no
    attempt and no router decision before it."""
    with _runtime(base) as (runtime, records):
        return _route(runtime, records, _envelope(RoutingStrategy.DIRECT, [], None))


def echo_records(base: Path, texts: tuple[str, ...]) -> tuple[Path, list[str]]:
    """A record directory under ``base`` holding one successful execution for each of
    ``texts``, written by the real 1.3.0 runtime, whose agent echoes that text: the records
    differ in their envelope's payload text and their answer's echo of it."""
    ids = []
    with _runtime(base, ("fb-secondary", False, 20)) as (runtime, records):
        for text in texts:
            envelope = _envelope(RoutingStrategy.DIRECT, [], "fb-secondary")
            envelope.payload = {"text": text}
            ids.append(_route(runtime, records, envelope))
    return records, ids


FALLBACK_CHAIN = ("fb-primary", "fb-secondary", "fb-tertiary", "fb-quaternary")


def several_fallbacks(base: Path) -> tuple[Path, str]:
    """A record directory under ``base`` holding one execution the real 1.3.0 router ran
    through ``FALLBACK_CHAIN``: the first three agents fail (three fallbacks), the last
    answers. The directory and the execution's id."""
    agents = ((name, n < 3, 10 * (n + 1)) for n, name in enumerate(FALLBACK_CHAIN))
    with _runtime(base, *agents) as (runtime, records):
        env = _envelope(RoutingStrategy.FALLBACK, list(FALLBACK_CHAIN), None)
        return records, _route(runtime, records, env)


def with_fallbacks_only_in_its_log(base: Path) -> tuple[Path, str]:
    """An ``.intentusnet`` under ``base`` holding ``several_fallbacks``' execution as it
    stood while it ran: its record as the real 1.3.0 store saves it after its first event,
    beside the WAL the real ``WALWriter`` had written by then: three attempts failed, each
    followed by its fallback (WAL #4, #7, #10), and the fourth started. The directory and
    the execution's id."""
    from intentusnet.wal.writer import WALWriter

    real, execution = several_fallbacks(base / "real")
    records = base / ".intentusnet" / "records"
    records.mkdir(parents=True)
    record = RealStore(str(real)).load(execution)
    record.events = record.events[:1]
    record.routerDecision = None
    record.finalResponse = None
    RealStore(str(records)).save(record)
    with WALWriter(str(records.parent / "wal"), execution) as writer:
        writer.execution_started(record.header.envelopeHash, "Summarize")
        steps = itertools.pairwise(FALLBACK_CHAIN)
        for n, (agent, then) in enumerate(steps, 1):
            writer.step_started(f"attempt-{n}", agent, "read_only", {}, "a1" * 32)
            writer.step_failed(f"attempt-{n}", "agent_error", f"{agent} exploded", True)
            writer.fallback_triggered(agent, then, "agent_error")
        writer.step_started("attempt-4", FALLBACK_CHAIN[-1], "read_only", {}, "a2" * 32)
    return records.parent, execution


def write_cut_and_damaged(real_world: RealWorld, records: Path) -> Path:
    """In ``records`` (made): the record IntentusNet 1.3.0 cut short writing its error
    response, and a success record cut short since (before its final response: damage)."""
    records.mkdir()
    cut = f"{real_world.error_truncated}.json"
    (records / cut).write_bytes((real_world.records_dir / cut).read_bytes())
    whole = (real_world.records_dir / f"{real_world.success}.json").read_bytes()
    damaged = whole[: whole.index(b'"finalResponse"')]
    (records / f"{real_world.success}.json").write_bytes(damaged)
    return records
