"""Executions with known times for the timeline's time column and waterfall: written by the
crash-safe recorder (each event also logged in a hash-chained WAL) from a fixed clock, so
pictures never change; and what "now" is while one of them is still in flight."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from intentus_tui.core.paths import RecordRoot
from intentus_tui.demo.recorder import ExecutionRecorder
from intentus_tui.tui.app import IntentusApp

TIMED = "7100000a-0000-4000-8000-000000000001"
CRASHED = "7100000b-0000-4000-8000-000000000002"
ENVELOPE = {"version": "1.0", "intent": {"name": "Refund", "version": "1.0"}, "payload": {}}
# While the crashed execution's attempt is open: 3m12s after it started.
NOW = datetime(2026, 1, 5, 10, 8, 12, tzinfo=UTC)


def _clock(*stamps: str) -> Any:
    times = iter(stamps)
    return lambda: f"2026-01-05T{next(times)}+00:00"


def write_time_world(root: Path) -> RecordRoot:
    """``root/records`` and ``root/wal``: a fallback that took 3.1 s, and a crash whose
    second attempt started at 10:05:00 and never ended."""
    # The header, then one WAL entry per event.
    clock = _clock(
        "10:00:00.000000",
        "10:00:00.000000",  # intent
        "10:00:00.100000",  # start ledger
        "10:00:00.800000",  # end ledger: error
        "10:00:00.800000",  # fallback
        "10:00:00.900000",  # start backup
        "10:00:03.000000",  # end backup: ok
        "10:00:03.050000",  # decision
        "10:00:03.100000",  # final
    )
    rec = ExecutionRecorder(root, ENVELOPE, execution_id=TIMED, fsync=False, now=clock)
    rec.intent_received()
    rec.attempt_start("ledger")
    rec.attempt_end("ledger", "error", latency_ms=700, exception="ledger timed out")
    rec.fallback_triggered("ledger", "backup", "ledger timed out")
    rec.attempt_start("backup")
    rec.attempt_end("backup", "ok", latency_ms=2100)
    rec.router_decision("backup", "fallback success")
    rec.final_response({"status": "success", "payload": {"refunded": True}})
    crash = _clock(
        "10:04:58.000000",
        "10:04:58.000000",  # intent
        "10:04:58.500000",  # start payer
        "10:04:59.000000",  # end payer: error
        "10:04:59.000000",  # fallback
        "10:05:00.000000",  # start payer-2: never ends
    )
    rec = ExecutionRecorder(root, ENVELOPE, execution_id=CRASHED, fsync=False, now=crash)
    rec.intent_received()
    rec.attempt_start("payer", side_effect="irreversible")
    rec.attempt_end("payer", "error", latency_ms=500, exception="card declined")
    rec.fallback_triggered("payer", "payer-2", "card declined")
    rec.attempt_start("payer-2", side_effect="irreversible")
    rec.close()  # the process dies here
    return RecordRoot(root / "records", root / "wal", root)


def time_app(root: RecordRoot) -> IntentusApp:
    return IntentusApp(root, watch=False, directory_label="records", use_cache=False)
