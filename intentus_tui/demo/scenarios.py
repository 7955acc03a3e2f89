"""The demo world's executions: one scenario for every situation the debugger explains.

``SCENARIOS`` names what each shows; ``plan_world`` realises every one of them at least once
(some twice, in both record forms) among everyday executions, all from one seed.
"""

from __future__ import annotations

import json
import random
from typing import Any

from intentus_tui.demo.simulator import (
    INTENTS,
    INTENTS_BY_NAME,
    DemoSimulator,
    Execution,
    IntentSpec,
    Outcome,
    digest,
    pick,
)

# Scenario name -> what it shows. Every one of these is realised at least once.
SCENARIOS: dict[str, str] = {
    "success": "completed on the first attempt",
    "fallback_chain": "fallback through 2-4 attempts (errors and exceptions), ending in success",
    "broadcast": "broadcast to every agent; the last success answers (1.3.0)",
    "parallel": "parallel attempts; the first success answers (1.3.0)",
    "all_agents_failed": "every agent failed: a complete record with an error response",
    "crash_mid_attempt": "the process died while an attempt was in flight: partial record + WAL",
    "crash_wal_only": "the process died before any record file existed: only the WAL remains",
    "manually_invalidated": "an operator marked the record not replayable",
    "recording_failure": "the recorder lost an event; the record is marked not replayable",
    "tampered_envelope": "the envelope was edited after it was hashed",
    "tampered_final_response": "the final response was edited after it was recorded",
    "truncated_error_record": 'an error response as 1.3.0 writes it: the file ends after "error": ',
    "large_payload": "an envelope payload over 1 MB",
    "wal_torn_tail": "the process died while appending to the WAL: its last line is torn",
    "wal_tampered": "a WAL entry was edited after it was written: the hash chain breaks",
    "runtime_form": "records exactly as IntentusNet 1.3.0 writes them",
    "documented_form": "records in the documented form (exec- ids, sha256: hashes)",
}

# Scenarios that need a dedicated execution (the two *_form entries are derived).
_SPECIAL = (
    "fallback_chain",
    "fallback_chain",
    "fallback_chain",
    "broadcast",
    "parallel",
    "all_agents_failed",
    "crash_mid_attempt",
    "crash_mid_attempt",
    "crash_wal_only",
    "manually_invalidated",
    "recording_failure",
    "tampered_envelope",
    "tampered_envelope",
    "tampered_final_response",
    "truncated_error_record",
    "large_payload",
    "wal_torn_tail",
    "wal_tampered",
    "success",
    "success",
)
MIN_COUNT = len(_SPECIAL)
LARGE_PAYLOAD_BYTES = 1_200_000


def _spec(name: str) -> IntentSpec:
    return INTENTS_BY_NAME[name]


def realise(sim: DemoSimulator, scenario: str) -> Execution:
    """Build one execution that shows ``scenario``."""
    rng = sim.rng
    variant = sim.seen[scenario]
    sim.seen[scenario] += 1
    if scenario == "success":
        spec = pick(rng, INTENTS)
        if rng.random() < 0.35:
            execution = sim.documented(spec, sim.agent_runs(spec, ["ok"]))
        else:
            execution = sim.runtime(spec, "direct", sim.agent_runs(spec, ["ok"]))
    elif scenario == "fallback_chain":
        execution = _fallback_chain(sim)
    elif scenario in ("broadcast", "parallel"):
        spec = _spec("SearchKnowledgeBase")
        outcomes: list[Outcome] = (
            ["error", "ok", "exception", "ok"]
            if scenario == "broadcast"
            else ["exception", "error", "ok", "ok"]
        )
        execution = sim.runtime(spec, scenario, sim.agent_runs(spec, outcomes))
    elif scenario == "all_agents_failed":
        spec = _spec("TranslateText")
        execution = sim.documented(
            spec,
            sim.agent_runs(spec, ["error", "exception", "error"]),
            fallback_keys=("from_agent", "to_agent"),
        )
    elif scenario == "crash_mid_attempt":
        execution = _crash_mid_attempt(sim, variant)
    elif scenario == "crash_wal_only":
        spec = _spec("UpdateCustomerRecord")
        execution = sim.documented(spec, sim.agent_runs(spec, ["ok"]), crash_in=0)
        execution.record, execution.form = None, "wal_only"
    elif scenario == "wal_torn_tail":
        spec = _spec("SendEmail")
        execution = sim.documented(spec, sim.agent_runs(spec, ["error", "ok"]), crash_in=1)
        assert execution.wal is not None
        execution.wal.add(
            sim.clock,
            "step.completed",
            {"step_id": "attempt-2", "output_hash": digest(rng), "success": True},
        )
        whole = execution.wal.render()
        execution.wal_bytes = whole[: len(whole) - 57]  # the last append was cut short
    elif scenario == "wal_tampered":
        spec = _spec("ClassifyTicket")
        execution = sim.documented(spec, sim.agent_runs(spec, ["error", "ok"]))
        _tamper_wal(execution)
    elif scenario == "truncated_error_record":
        spec = _spec("SummarizeDocument")
        execution = sim.runtime(
            spec, "fallback", sim.agent_runs(spec, ["error", "exception", "error"])
        )
    elif scenario == "large_payload":
        spec = _spec("SummarizeDocument")
        payload = {
            "documentTitle": "Annual report 2025 (full text)",
            "maxWords": 300,
            "language": "en",
            "document": _large_text(rng, LARGE_PAYLOAD_BYTES),
        }
        execution = sim.runtime(spec, "direct", sim.agent_runs(spec, ["ok"]), payload=payload)
    elif scenario == "manually_invalidated":
        spec = _spec("ChargeCard")
        execution = sim.runtime(spec, "direct", sim.agent_runs(spec, ["ok"]))
        assert execution.record is not None
        execution.record["header"].update(replayable=False, replayableReason="manually_invalidated")
    elif scenario == "recording_failure":
        spec = _spec("SummarizeDocument")
        execution = sim.documented(spec, sim.agent_runs(spec, ["error", "ok"]))
        assert execution.record is not None
        events = execution.record["events"]
        lost = next(i for i, e in enumerate(events) if e["type"] == "AGENT_ATTEMPT_END")
        del events[lost]  # the recorder failed to persist this event; its seq is gone too
        execution.record["header"].update(replayable=False, replayableReason="recording_failure")
    elif scenario == "tampered_envelope":
        execution = _tampered_envelope(sim, variant)
    elif scenario == "tampered_final_response":
        spec = _spec("ClassifyTicket")
        execution = sim.runtime(spec, "direct", sim.agent_runs(spec, ["ok"]))
        assert execution.record is not None
        final = execution.record["finalResponse"]
        # a new dict: the FINAL_RESPONSE event keeps what was really answered
        execution.record["finalResponse"] = {
            **final,
            "payload": {"label": "refund_approved", "confidence": 0.99},
        }
    else:  # pragma: no cover - programming error
        raise ValueError(scenario)
    execution.scenarios.append(scenario)
    return execution


def _fallback_chain(sim: DemoSimulator) -> Execution:
    rng = sim.rng
    spec = pick(rng, (_spec("SummarizeDocument"), _spec("SearchKnowledgeBase")))
    failures = rng.randint(1, 3)  # 2-4 attempts in all
    outcomes: list[Outcome] = [pick(rng, ("error", "exception")) for _ in range(failures)]
    if "exception" not in outcomes:
        outcomes[-1] = "exception"
    runs = sim.agent_runs(spec, [*outcomes, "ok"])
    if rng.random() < 0.3:
        # The documented recorder has no "exception" payload; it says why in "error".
        return sim.documented(spec, runs)
    return sim.runtime(spec, "fallback", runs)


def _crash_mid_attempt(sim: DemoSimulator, variant: int) -> Execution:
    # Alternate: an irreversible step in flight after a fallback, or a read-only first attempt.
    if variant % 2 == 0:
        spec = _spec("ChargeCard")
        return sim.documented(spec, sim.agent_runs(spec, ["error", "ok"]), crash_in=1)
    spec = _spec("SearchKnowledgeBase")
    return sim.documented(spec, sim.agent_runs(spec, ["ok"]), crash_in=0)


def _tampered_envelope(sim: DemoSimulator, variant: int) -> Execution:
    if variant % 2 == 0:
        spec = _spec("ChargeCard")
        execution = sim.runtime(spec, "direct", sim.agent_runs(spec, ["ok"]))
    else:
        spec = _spec("TranslateText")
        execution = sim.documented(spec, sim.agent_runs(spec, ["ok"]))
    assert execution.record is not None
    payload = execution.record["envelope"]["payload"]
    if "amountCents" in payload:
        payload["amountCents"] = payload["amountCents"] * 100  # someone added two zeros
    else:
        payload["text"] = payload["text"] + " (edited)"
    return execution


def _tamper_wal(execution: Execution) -> None:
    assert execution.wal is not None
    entries = execution.wal.entries
    rendered = execution.wal.render().splitlines(keepends=True)
    index = next(i for i, (kind, _, _) in enumerate(entries) if kind == "step.failed")
    entry = json.loads(rendered[index])
    entry["payload"]["recoverable"] = False  # edited in place, hash left as it was
    rendered[index] = (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
    execution.wal_bytes = b"".join(rendered)


_WORDS = (
    "revenue",
    "quarter",
    "growth",
    "risk",
    "customer",
    "churn",
    "margin",
    "pipeline",
    "forecast",
    "operating",
    "expenses",
    "headcount",
    "Zürich",
    "region",
    "contract",
    "renewal",
    "latency",
)


# The last large text drawn, by the generator's state before it and its size, with the
# state after it: drawing it word by word took 0.35 s of the demo world's 0.45 s, and the
# tests build the same world (one seed) dozens of times in one process.
_LAST_LARGE_TEXT: dict[tuple[tuple[Any, ...], int], tuple[str, tuple[Any, ...]]] = {}


def _large_text(rng: random.Random, size: int) -> str:
    key = (rng.getstate(), size)
    known = _LAST_LARGE_TEXT.get(key)
    if known is None:
        text = _draw_large_text(rng, size)
        _LAST_LARGE_TEXT.clear()
        _LAST_LARGE_TEXT[key] = known = (text, rng.getstate())
    else:
        rng.setstate(known[1])  # as if drawn again
    return known[0]


def _draw_large_text(rng: random.Random, size: int) -> str:
    paragraphs: list[str] = []
    total = 0
    while total < size:
        sentence = (
            " ".join(rng.choice(_WORDS) for _ in range(rng.randint(8, 20))).capitalize() + ". "
        )
        paragraphs.append(sentence)
        total += len(sentence.encode("utf-8"))
    return "".join(paragraphs)


def filler(sim: DemoSimulator) -> Execution:
    """A realistic everyday execution: mostly first-try successes, some fallbacks."""
    if sim.rng.random() < 0.25:
        execution = _fallback_chain(sim)
        execution.scenarios.append("fallback_chain")
        return execution
    return realise(sim, "success")


def plan_world(seed: int, count: int) -> list[Execution]:
    """``max(count, MIN_COUNT)`` executions: every scenario at least once, the rest everyday
    ones, in a seeded order."""
    sim = DemoSimulator(seed)
    order = list(_SPECIAL) + ["filler"] * max(0, count - len(_SPECIAL))
    sim.rng.shuffle(order)
    return [filler(sim) if name == "filler" else realise(sim, name) for name in order]
