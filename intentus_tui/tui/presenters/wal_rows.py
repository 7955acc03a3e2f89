"""Timeline rows for an execution known only from its write-ahead log (no record file).

The WAL's entries become ``EventRow``s so the timeline shows them like record events:
step starts and ends, fallbacks, the step still in flight. Strings are sanitized here.
"""

from __future__ import annotations

from typing import Any

import orjson

from intentus_tui.core.records.timeline import EventRow
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.wal.read import WalEntry, WalLog

_OK_TYPES = {"step.completed", "execution.completed", "contract.validated", "recovery.completed"}
_ERROR_TYPES = {"step.failed", "execution.failed", "execution.aborted", "contract.violated"}


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return sanitize_line(value)
    try:
        dumped = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except (TypeError, orjson.JSONEncodeError):
        dumped = repr(value)
    return sanitize_line(dumped[:200])


def _agent(entry: WalEntry) -> str:
    payload = entry.payload
    for key in ("agent_name", "agent", "from_agent", "to_agent"):
        if payload.get(key) is not None:
            return _text(payload[key])
    return ""


def _summary(entry: WalEntry) -> str:
    payload = entry.payload
    kind = entry.entry_type
    if kind.startswith("fallback."):
        src, dst = _text(payload.get("from_agent")), _text(payload.get("to_agent"))
        reason = payload.get("reason")
        return f"{src} → {dst}" + (f"  ({_text(reason)})" if reason is not None else "")
    if kind.startswith("step."):
        bits = [_agent(entry), _text(payload.get("step_id")), _text(payload.get("side_effect"))]
        if payload.get("reason") is not None:
            bits.append(_text(payload.get("reason")))
        return "  ".join(b for b in bits if b)
    if kind == "execution.started":
        return f"intent {_text(payload.get('intent_name'))}"
    compact = {k: v for k, v in payload.items() if k not in ("execution_id", "input_hash")}
    return _text(compact) if compact else ""


def wal_rows(log: WalLog) -> tuple[EventRow, ...]:
    in_flight_seq = log.in_flight_step.started_seq if log.in_flight_step else None
    rows = []
    for index, entry in enumerate(log.entries):
        kind = entry.entry_type
        status = "ok" if kind in _OK_TYPES else "error" if kind in _ERROR_TYPES else ""
        rows.append(
            EventRow(
                index=index,
                seq=entry.seq,
                type=sanitize_line(kind),
                agent=_agent(entry),
                status=status,
                summary=_summary(entry),
                is_fallback=kind.startswith("fallback."),
                is_error=status == "error" or not entry.hash_ok,
                in_flight=entry.seq == in_flight_seq and kind == "step.started",
            )
        )
    return tuple(rows)


def wal_entry_json(entry: WalEntry) -> dict[str, Any]:
    """The entry as it was written (what the event detail shows)."""
    return {
        "seq": entry.seq,
        "execution_id": entry.execution_id,
        "timestamp_iso": entry.timestamp_iso,
        "entry_type": entry.entry_type,
        "payload": entry.payload,
        "prev_hash": entry.prev_hash,
        "entry_hash": entry.entry_hash,
        "version": entry.version,
    }
