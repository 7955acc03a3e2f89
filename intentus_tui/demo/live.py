"""Live mode: executions recorded as they happen, by the crash-safe recorder.

A few executions start per second, each on its own thread; the files appear partial first
(an incomplete record, WAL lines) and complete at the final response, as a real agent's would.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from intentus_tui.demo.recorder import ExecutionRecorder
from intentus_tui.demo.simulator import (
    INTENTS,
    AgentRun,
    DemoSimulator,
    Form,
    IntentSpec,
    Outcome,
    pick,
)
from intentus_tui.demo.writer import DemoManifest, load_manifest, save_manifest

LIVE_SCENARIO = "live"
ProgressCallback = Callable[[str, str], None]  # (execution id, event type just flushed)


@dataclass(frozen=True)
class LivePlan:
    """One live execution, decided up front (the RNG is not shared with worker threads)."""

    execution_id: str
    spec: IntentSpec
    envelope: dict[str, Any]
    runs: tuple[AgentRun, ...]  # tried in order until one is ok
    output: dict[str, Any]
    hash_form: Literal["runtime", "documented"]


@dataclass
class LiveStats:
    started: int = 0
    finished: int = 0
    ids: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


class LiveDemo:
    """Keeps recording executions into ``base`` (an ``.intentusnet`` dir) until told to stop.

    A few executions start per second; most attempts take tens to hundreds of milliseconds,
    about one in four takes seconds, so partial records and WAL lines are visibly there
    before the final record. ``time_scale`` shrinks every latency (tests).
    """

    def __init__(
        self,
        base: Path,
        *,
        seed: int = 7,
        rate: float = 3.0,
        time_scale: float = 1.0,
        fsync: bool = True,
        on_progress: ProgressCallback | None = None,
        on_finished: Callable[[LivePlan, float], None] | None = None,
    ) -> None:
        self.base = base
        self.rate = rate
        self.time_scale = time_scale
        self.fsync = fsync
        self.on_progress = on_progress
        self.on_finished = on_finished
        self.sim = DemoSimulator(seed + 1_000_003)
        self.stop_event = threading.Event()
        self.stats = LiveStats()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._manifest = load_manifest(base)

    def plan(self) -> LivePlan:
        sim, rng = self.sim, self.sim.rng
        sim.clock.now = datetime.now(UTC)
        spec: IntentSpec = pick(rng, INTENTS)
        failures = min(rng.choice((0, 0, 0, 1, 1, 2)), len(spec.agents) - 1)
        outcomes: list[Outcome] = [pick(rng, ("error", "exception")) for _ in range(failures)]
        runs = sim.agent_runs(spec, [*outcomes, "ok"])
        if rng.random() < 0.25:  # a slow one: visibly in flight for a few seconds
            slow = runs[-1]
            runs[-1] = AgentRun(slow.name, "ok", round(rng.uniform(1500, 4500), 1))
        documented = rng.random() < 0.3
        strategy = "fallback" if len(runs) > 1 else "direct"
        return LivePlan(
            execution_id=sim.ids.exec_id() if documented else sim.ids.uuid4(),
            spec=spec,
            envelope=sim.envelope(spec, strategy, sim.ids.uuid4()),
            runs=tuple(runs),
            output=spec.make_output(rng),
            hash_form="documented" if documented else "runtime",
        )

    def run(self, *, max_executions: int | None = None, duration: float | None = None) -> LiveStats:
        """Start executions until ``max_executions``, ``duration`` or ``stop()``; then wait for
        the ones in flight (which finish at once after ``stop()``)."""
        deadline = None if duration is None else time.monotonic() + duration
        try:
            while not self.stop_event.is_set():
                if max_executions is not None and self.stats.started >= max_executions:
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    break
                self._launch(self.plan())
                self.stop_event.wait(self.sim.rng.expovariate(self.rate))
        except BaseException:  # Ctrl-C: the executions in flight finish at once
            self.stop()
            raise
        finally:
            self.join()
        return self.stats

    def stop(self) -> None:
        self.stop_event.set()

    def join(self) -> None:
        """Wait for the executions in flight."""
        for thread in self._threads:
            while thread.is_alive():
                thread.join(timeout=0.2)  # short joins keep Ctrl-C responsive

    def _launch(self, plan: LivePlan) -> None:
        self._remember(plan.execution_id)
        self.stats.started += 1
        thread = threading.Thread(
            target=self._execute, args=(plan,), name=f"live-{plan.execution_id[:8]}"
        )
        self._threads = [t for t in self._threads if t.is_alive()]
        self._threads.append(thread)
        thread.start()

    def _remember(self, execution_id: str) -> None:
        """List the new files in the manifest first, so a rebuild knows they are the demo's."""
        with self._lock:
            manifest = self._manifest or DemoManifest(self.base, -1, {}, {})
            scenarios = dict(manifest.scenarios)
            scenarios[LIVE_SCENARIO] = (*scenarios.get(LIVE_SCENARIO, ()), execution_id)
            files = (*manifest.files, f"records/{execution_id}.json", f"wal/{execution_id}.wal")
            forms: dict[str, Form] = {**manifest.forms, execution_id: "recorder"}
            self._manifest = DemoManifest(manifest.root, manifest.seed, scenarios, forms, files)
            save_manifest(self._manifest)
            self.stats.ids.append(execution_id)

    def _sleep(self, ms: float) -> None:
        self.stop_event.wait(ms / 1000 * self.time_scale)  # returns at once when stopping

    def _progress(self, execution_id: str, event_type: str) -> None:
        if self.on_progress is not None:
            self.on_progress(execution_id, event_type)

    def _execute(self, plan: LivePlan) -> None:
        try:
            self._record(plan)
        except OSError as exc:  # disk full, directory removed...: stop, and say why
            with self._lock:
                self.stats.errors.append(f"{plan.execution_id}: {exc}")
            self.stop()

    def _record(self, plan: LivePlan) -> None:
        started = time.monotonic()
        rec = ExecutionRecorder(
            self.base,
            plan.envelope,
            execution_id=plan.execution_id,
            hash_form=plan.hash_form,
            fsync=self.fsync,
        )
        strategy = "FALLBACK" if len(plan.runs) > 1 else "DIRECT"
        with rec:
            rec.intent_received()
            self._progress(plan.execution_id, "INTENT_RECEIVED")
            for index, run in enumerate(plan.runs):
                rec.attempt_start(run.name, strategy=strategy, side_effect=plan.spec.side_effect)
                self._progress(plan.execution_id, "AGENT_ATTEMPT_START")
                self._sleep(run.latency_ms)
                if run.outcome == "ok":
                    rec.attempt_end(run.name, "ok", latency_ms=run.latency_ms)
                    reason = f"fallback success at index {index}" if index else "direct match"
                    rec.router_decision(run.name, reason)
                    break
                exception = run.message if run.outcome == "exception" else None
                rec.attempt_end(run.name, "error", latency_ms=run.latency_ms, exception=exception)
                rec.fallback_triggered(run.name, plan.runs[index + 1].name, run.reason)
            rec.final_response(
                {
                    "version": "1.0",
                    "status": "success",
                    "payload": plan.output,
                    "metadata": {
                        "agent": plan.runs[-1].name,
                        "timestamp": datetime.now(UTC).isoformat(),
                    },
                    "error": None,
                }
            )
        self._progress(plan.execution_id, "FINAL_RESPONSE")
        with self._lock:
            self.stats.finished += 1
        if self.on_finished is not None:
            self.on_finished(plan, time.monotonic() - started)
