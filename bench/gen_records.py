"""Generate N record files shaped like IntentusNet 1.3.0's, deterministically.

The mix (by default): 60% success, 20% fallback chains, 5% error records truncated the way
1.3.0 truncates them, 5% invalidated, 5% incomplete (no final response), 5% tampered
envelopes. Sizes are 1-5 KB. Usage: ``python bench/gen_records.py DIR N [--seed S]``.
"""

from __future__ import annotations

import argparse
import json
import random
import uuid
from pathlib import Path
from typing import Any

from intentus_tui.core.records.hashing import runtime_envelope_hash

AGENTS = ["summarizer-a", "summarizer-b", "search-primary", "search-backup", "planner", "writer-1"]
INTENTS = ["Summarize", "Search", "Plan", "Draft", "Classify"]


def _iso(rng: random.Random) -> str:
    return f"2026-11-{rng.randint(1, 20):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}.{rng.randint(0, 999999):06d}+00:00"


def _envelope(
    rng: random.Random, intent: str, strategy: str, fallbacks: list[str]
) -> dict[str, Any]:
    created = _iso(rng)
    words = " ".join(
        rng.choice(["alpha", "beta", "gamma", "delta", "héllo", "wörld", "data"])
        for _ in range(rng.randint(10, 200))
    )
    return {
        "version": "1.0",
        "intent": {"name": intent, "version": "1.0"},
        "payload": {
            "text": words,
            "options": {"max_tokens": rng.randint(64, 2048), "temperature": rng.random()},
        },
        "context": {
            "sourceAgent": "client",
            "timestamp": created,
            "priority": "normal",
            "tags": ["bench"],
        },
        "metadata": {
            "requestId": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
            "source": "client",
            "createdAt": created,
            "traceId": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
            "identityChain": [],
        },
        "routing": {"strategy": strategy, "targetAgent": None, "fallbackAgents": fallbacks},
        "routingMetadata": {"decisionPath": [], "retries": 0},
    }


def make_one(rng: random.Random) -> tuple[str, str]:
    """Return (execution id, file text) for one record of a random kind."""
    roll = rng.random()
    kind = (
        "success"
        if roll < 0.6
        else "fallback"
        if roll < 0.8
        else "truncated"
        if roll < 0.85
        else "invalidated"
        if roll < 0.9
        else "incomplete"
        if roll < 0.95
        else "tampered"
    )
    execution_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    intent = rng.choice(INTENTS)
    chain = rng.sample(AGENTS, rng.randint(2, 4)) if kind == "fallback" else [rng.choice(AGENTS)]
    envelope = _envelope(rng, intent, "fallback" if kind == "fallback" else "direct", chain[1:])
    created = _iso(rng)
    events: list[dict[str, Any]] = [
        {
            "type": "INTENT_RECEIVED",
            "payload": {"traceId": envelope["metadata"]["traceId"], "intent": intent},
        }
    ]
    for index, agent in enumerate(chain):
        last = index == len(chain) - 1
        events.append(
            {
                "type": "AGENT_ATTEMPT_START",
                "payload": {"agent": agent, "strategy": "FALLBACK", "index": index},
            }
        )
        if kind == "incomplete" and last:
            break
        status = "ok" if last and kind != "truncated" else "error"
        end: dict[str, Any] = {"agent": agent, "status": status}
        if status == "error":
            end["exception"] = f"{agent} timed out after {rng.randint(1, 30)}s"
        events.append({"type": "AGENT_ATTEMPT_END", "payload": end})
        if not last:
            events.append(
                {"type": "FALLBACK_TRIGGERED", "payload": {"from": agent, "to": chain[index + 1]}}
            )
    decision = {
        "agent": chain[-1],
        "intent": intent,
        "reason": "fallback" if kind == "fallback" else "direct match",
        "timestamp": created,
    }
    final: dict[str, Any] | None = None
    if kind != "incomplete":
        events.append({"type": "ROUTER_DECISION", "payload": decision})
        final = {
            "version": "1.0",
            "status": "error" if kind == "truncated" else "success",
            "payload": None
            if kind == "truncated"
            else {"result": envelope["payload"]["text"][: rng.randint(50, 800)]},
            "metadata": {
                "agent": chain[-1],
                "traceId": envelope["metadata"]["traceId"],
                "timestamp": created,
            },
            "error": "<ErrorInfo>" if kind == "truncated" else None,
        }
        events.append({"type": "FINAL_RESPONSE", "payload": final})
    header = {
        "executionId": execution_id,
        "createdUtcIso": created,
        "envelopeHash": runtime_envelope_hash(envelope),
        "replayable": kind != "invalidated",
        "replayableReason": "manually_invalidated" if kind == "invalidated" else None,
    }
    if kind == "tampered":
        envelope["payload"]["text"] += " (edited)"
    record = {
        "header": header,
        "envelope": envelope,
        "routerDecision": decision if final else None,
        "events": [{"seq": seq, **e} for seq, e in enumerate(events, start=1)],
        "finalResponse": final,
    }
    text = json.dumps(record, ensure_ascii=False, indent=2)
    if kind == "truncated":  # 1.3.0 dies serializing ErrorInfo, right after '"error": '
        text = text[: text.index('"<ErrorInfo>"')]
    return execution_id, text


def generate(directory: Path, count: int, seed: int = 1) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    for _ in range(count):
        execution_id, text = make_one(rng)
        (directory / f"{execution_id}.json").write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("directory", type=Path)
    parser.add_argument("count", type=int)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    generate(args.directory, args.count, args.seed)


if __name__ == "__main__":
    main()
