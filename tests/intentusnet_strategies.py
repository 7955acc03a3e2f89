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
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path

from intentusnet import IntentusRuntime
from intentusnet.core.agent import BaseAgent
from intentusnet.protocol import AgentDefinition, AgentResponse, IntentRef
from intentusnet.protocol.agent import Capability
from intentusnet.protocol.enums import RoutingStrategy
from intentusnet.protocol.intent import IntentEnvelope

from tests.intentusnet_world import _envelope

# name, fails, node priority, seconds before answering (parallel: the successes finish
# last, so the failures are recorded before the first success)
AGENTS = (
    ("primary", True, 10, 0.0),
    ("replica", False, 20, 0.3),
    ("cache", True, 30, 0.0),
    ("cold", False, 40, 0.6),
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


def build_strategy_world(base: Path) -> StrategyWorld:
    records = base / ".intentusnet" / "records"
    logging.getLogger("intentusnet").setLevel(logging.CRITICAL)
    old_cwd = os.getcwd()
    os.chdir(base)  # 1.3.0 writes relative to the current directory
    try:
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
    finally:
        os.chdir(old_cwd)
