"""Build record dicts shaped exactly like IntentusNet 1.3.0's (or the documented form), and
write-ahead logs, for tests."""

from __future__ import annotations

import copy
import json
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from intentus_tui.core.records.hashing import documented_envelope_hash, runtime_envelope_hash
from intentus_tui.core.wal.read import encode_wal_line, make_wal_entry


def make_envelope(
    intent: str = "Summarize", payload: Any = None, strategy: str = "direct"
) -> dict[str, Any]:
    return {
        "version": "1.0",
        "intent": {"name": intent, "version": "1.0"},
        "payload": payload if payload is not None else {"text": "hello"},
        "context": {
            "sourceAgent": "client",
            "timestamp": "2026-01-05T10:00:00.000000+00:00",
            "priority": "normal",
            "tags": [],
        },
        "metadata": {
            "requestId": "0c9a9b4e-4b0e-4a44-9b64-6c0d8f0c1f00",
            "source": "client",
            "createdAt": "2026-01-05T10:00:00.000000+00:00",
            "traceId": "6a0b8c1e-9f4d-4b57-8f0e-2d7f7c9b1a11",
            "identityChain": [],
        },
        "routing": {"strategy": strategy, "targetAgent": None, "fallbackAgents": []},
        "routingMetadata": {"decisionPath": [], "retries": 0},
    }


def make_record(
    *,
    execution_id: str | None = None,
    agents: tuple[tuple[str, str], ...] = (("agent-a", "ok"),),
    intent: str = "Summarize",
    final_status: str | None = "success",
    replayable: bool = True,
    reason: str | None = None,
    documented: bool = False,
    created: str = "2026-01-05T10:00:00.000000+00:00",
) -> dict[str, Any]:
    """A record whose attempts are ``agents`` (name, ok|error) in order, fallbacks between them."""
    envelope = make_envelope(intent, strategy="fallback" if len(agents) > 1 else "direct")
    execution_id = execution_id or (
        f"exec-{uuid.uuid4().hex[:8]}" if documented else str(uuid.uuid4())
    )
    events: list[dict[str, Any]] = [
        {"type": "INTENT_RECEIVED", "payload": {"traceId": "t", "intent": intent}}
    ]
    for index, (agent, status) in enumerate(agents):
        events.append(
            {
                "type": "AGENT_ATTEMPT_START",
                "payload": {"agent": agent, "strategy": "FALLBACK", "index": index},
            }
        )
        end: dict[str, Any] = {"agent": agent, "status": status}
        if status == "error":
            end["exception"] = f"{agent} failed"
        events.append({"type": "AGENT_ATTEMPT_END", "payload": end})
        if status == "error" and index + 1 < len(agents):
            events.append(
                {
                    "type": "FALLBACK_TRIGGERED",
                    "payload": {"from": agent, "to": agents[index + 1][0]},
                }
            )
    final: dict[str, Any] | None = None
    decision = {
        "agent": agents[-1][0],
        "intent": intent,
        "reason": "fallback",
        "timestamp": created,
    }
    if final_status is not None:
        events.append({"type": "ROUTER_DECISION", "payload": decision})
        final = {
            "version": "1.0",
            "status": final_status,
            "payload": {"summary": "done"} if final_status == "success" else None,
            "metadata": {"agent": agents[-1][0], "traceId": "t", "timestamp": created},
            "error": None
            if final_status == "success"
            else {"code": "AGENT_ERROR", "message": "Failed"},
        }
        events.append({"type": "FINAL_RESPONSE", "payload": copy.deepcopy(final)})
    events = [{"seq": seq, **event} for seq, event in enumerate(events, start=1)]
    return {
        "header": {
            "executionId": execution_id,
            "createdUtcIso": created,
            "envelopeHash": documented_envelope_hash(envelope)
            if documented
            else runtime_envelope_hash(envelope),
            "replayable": replayable,
            "replayableReason": reason,
        },
        "envelope": envelope,
        "routerDecision": decision if final_status is not None else None,
        "events": events,
        "finalResponse": final,
    }


def write_record(directory: Path, record: dict[str, Any], name: str | None = None) -> Path:
    """Write like 1.3.0 does: indent=2, ensure_ascii=False."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / (name or f"{record['header']['executionId']}.json")
    path.write_text(json.dumps(record, ensure_ascii=False, indent=2), encoding="utf-8")
    return path


def chained_wal(execution_id: str, specs: Sequence[tuple[str, dict[str, Any]]]) -> bytes:
    """A write-ahead log of ``specs`` (entry type, payload) in order, each entry chained to
    the one before by its hash, as IntentusNet writes them; one timestamp throughout."""
    lines: list[bytes] = []
    prev: str | None = None
    for seq, (entry_type, payload) in enumerate(specs, start=1):
        entry = make_wal_entry(
            seq=seq,
            execution_id=execution_id,
            timestamp_iso="2026-01-05T10:00:00+00:00",
            entry_type=entry_type,
            payload=payload,
            prev_hash=prev,
        )
        prev = entry["entry_hash"]
        lines.append(encode_wal_line(entry))
    return b"".join(lines)
