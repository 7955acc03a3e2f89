"""Broadcast, parallel, fallback and direct executions written by the REAL intentusnet 1.3.0.

Four agents serve the intent, in 1.3.0's deterministic order (node priority, then name):
``primary`` and ``cache`` fail, ``replica`` and ``cold`` succeed. What 1.3.0 records:

- broadcast: every agent in turn, each ``AGENT_ATTEMPT_START {strategy: BROADCAST}`` then its
  ``AGENT_ATTEMPT_END``; the answer is the LAST success (decision "broadcast last success");
- parallel: every agent at once; the start and end of each branch are recorded together when
  it finishes, in the order they finish, up to the FIRST success (decision "parallel first
  success"); branches finishing later are not recorded at all;
- fallback: one after another with ``FALLBACK_TRIGGERED`` between, up to the first success;
- direct: one attempt.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

from intentusnet import IntentusRuntime
from intentusnet.core.agent import BaseAgent
from intentusnet.protocol import AgentDefinition, AgentResponse, IntentRef
from intentusnet.protocol.agent import Capability
from intentusnet.protocol.enums import RoutingStrategy
from intentusnet.protocol.intent import IntentEnvelope

from tests.intentusnet_world import _envelope

# name, fails, node priority, seconds before answering when routed in parallel (the
# successes finish last, so the failures are recorded before the first success; the other
# strategies call the agents one after another, in an order no delay changes, and answer
# at once: the world is built in under a second, not three)
AGENTS = (
    ("primary", True, 10, 0.0),
    ("replica", False, 20, 0.4),
    ("cache", True, 30, 0.15),
    ("cold", False, 40, 0.8),
)


@dataclass(frozen=True)
class StrategyWorld:
    records_dir: Path
    broadcast: str
    parallel: str
    fallback: str
    direct: str


def _agent(name: str, fail: bool, priority: int, delay: float):
    class Agent(BaseAgent):
        def handle_intent(self, env: IntentEnvelope) -> AgentResponse:
            if env.routing.strategy is RoutingStrategy.PARALLEL:
                time.sleep(delay)
            if fail:
                raise RuntimeError(f"{name} is down")
            return AgentResponse.success({"by": name}, agent=name)

    definition = AgentDefinition(
        name=name,
        nodePriority=priority,
        capabilities=[Capability(intent=IntentRef(name="Summarize", version="1.0"))],
    )
    return lambda router: Agent(definition, router)


@contextlib.contextmanager
def _fixed_ids_and_clock() -> Iterator[None]:
    """1.3.0's execution ids and timestamps from a counter, for a picture that never
    changes: only the names the library looks them up by are replaced."""
    ids = (f"5a{n:06d}-0000-4000-8000-000000000000" for n in itertools.count(1))
    seconds = itertools.count()

    def now_iso() -> str:
        second = next(seconds)
        return f"2026-01-05T10:{second // 60 % 60:02d}:{second % 60:02d}+00:00"

    with contextlib.ExitStack() as stack:
        for module in ("core.router", "protocol.tracing", "core.agent"):
            stack.enter_context(mock.patch(f"intentusnet.{module}.now_iso", now_iso))
        stack.enter_context(
            mock.patch("intentusnet.core.router.generate_uuid_hex", lambda: next(ids))
        )
        yield


def build_strategy_world(base: Path, *, fixed: bool = False) -> StrategyWorld:
    """``fixed``: ids and timestamps from a counter (for snapshot pictures)."""
    records = base / ".intentusnet" / "records"
    logging.getLogger("intentusnet").setLevel(logging.CRITICAL)
    old_cwd = os.getcwd()
    os.chdir(base)  # 1.3.0 writes relative to the current directory
    try:
        with _fixed_ids_and_clock() if fixed else contextlib.nullcontext():
            return _route_each_strategy(records)
    finally:
        os.chdir(old_cwd)


def _route_each_strategy(records: Path) -> StrategyWorld:
    runtime = IntentusRuntime(record_dir=str(records))
    for spec in AGENTS:
        runtime.register_agent(_agent(*spec))
    router = runtime.router

    def route(strategy: RoutingStrategy, target: str | None = None) -> str:
        before = {p.stem for p in records.glob("*.json")}
        with contextlib.suppress(TypeError):  # 1.3.0 cannot write an all-failed record
            router.route_intent(_envelope(strategy, [], target))
        (new,) = {p.stem for p in records.glob("*.json")} - before
        return new

    return StrategyWorld(
        records,
        broadcast=route(RoutingStrategy.BROADCAST),
        parallel=route(RoutingStrategy.PARALLEL),
        fallback=route(RoutingStrategy.FALLBACK),
        direct=route(RoutingStrategy.DIRECT, "replica"),
    )
