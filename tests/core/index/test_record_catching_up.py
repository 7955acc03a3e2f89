"""A record without its final response beside a completed write-ahead log: a moment of a
live write (the demo's crash-safe recorder appends execution.completed, then replaces the
record), or a record that lacks it for good (its writer died in between). The first is
in flight, being written; the second, once the log's completion is more than
``CATCH_UP_SECONDS`` old, unknown. Real processes, killed for real between the two."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from intentus_tui.core.detail import load_detail
from intentus_tui.core.model import CATCH_UP_SECONDS, Outcome
from intentus_tui.core.verdict import verdict_of
from intentus_tui.core.wal.read import read_wal
from tests.cli.support import cli

# Records one execution with the demo's recorder and is SIGKILLed as the final record is
# about to replace the incomplete one: the log holds execution.completed, the record not.
_DIES_BETWEEN = r"""
import os, signal, sys
import intentus_tui.demo.recorder as recorder
base, execution_id = sys.argv[1], sys.argv[2]
env = {"version": "1.0", "intent": {"name": "ChargeCard", "version": "1.0"},
       "payload": {"amount": 5}, "metadata": {"traceId": "t-1"}}
rec = recorder.ExecutionRecorder(base, env, execution_id=execution_id)
rec.intent_received()
rec.attempt_start("payments-stripe", strategy="DIRECT", side_effect="irreversible")
rec.attempt_end("payments-stripe", "ok", latency_ms=12)
rec.router_decision("payments-stripe", "direct match")
recorder.atomic_write = lambda *a, **k: os.kill(os.getpid(), signal.SIGKILL)
rec.final_response({"version": "1.0", "status": "success", "payload": {"ok": True},
                    "metadata": {}, "error": None})
"""

EXECUTION_ID = "exec-c0ffee01"


def record_then_die(base: Path) -> tuple[Path, Path]:
    """The record and the log the killed writer left in ``base`` (an .intentusnet)."""
    done = subprocess.run(
        [sys.executable, "-c", _DIES_BETWEEN, str(base), EXECUTION_ID], capture_output=True
    )
    assert done.returncode == -9, done.stderr.decode()
    return base / "records" / f"{EXECUTION_ID}.json", base / "wal" / f"{EXECUTION_ID}.wal"


def age(path: Path, seconds: float) -> None:
    """Time passes for ``path``: it was last written ``seconds`` ago."""
    then = time.time() - seconds
    os.utime(path, (then, then))


def _listed_just_after_writing(directory: Path, wal: Path) -> dict[str, int]:
    """``inspect --list --json``'s counts, listed within the margin of the log's last
    write (tried again while a busy machine makes the command slower than that)."""
    for _ in range(5):
        age(wal, 0)
        started = time.monotonic()
        listed = json.loads(cli("inspect", "--list", "--json", "--dir", str(directory)).stdout)
        if time.monotonic() - started < CATCH_UP_SECONDS:
            return dict(listed["counts"])
    pytest.skip(f"the listing took over {CATCH_UP_SECONDS:g} s five times: too busy to tell")


def test_a_record_behind_its_completed_log_is_being_written_then_unknown(tmp_path: Path) -> None:
    base = tmp_path / ".intentusnet"
    record, wal = record_then_die(base)
    assert read_wal(wal).state == "completed"
    assert json.loads(record.read_bytes())["finalResponse"] is None

    # Just now: a record still being written, in flight; not unknown.
    detail = load_detail(record, wal.parent)
    verdict = detail.verdict
    assert verdict is not None and verdict.outcome is Outcome.IN_FLIGHT, verdict
    assert "the record is still being written" in verdict.outcome_reason
    assert detail.postmortem is not None and not detail.postmortem.disagreements
    counts = _listed_just_after_writing(tmp_path, wal)
    assert counts["outcome.in_flight"] == 1 and counts["outcome.unknown"] == 0

    # Its writer never came back: past the margin, it lacks its final response for good.
    age(wal, CATCH_UP_SECONDS + 1)
    verdict = verdict_of(load_detail(record, wal.parent).summary)  # type: ignore[arg-type]
    assert verdict.outcome is Outcome.UNKNOWN and verdict.needs_attention
    assert f"more than {CATCH_UP_SECONDS:g} s after it" in verdict.outcome_reason
    listed = json.loads(cli("inspect", "--list", "--json", "--dir", str(tmp_path)).stdout)
    assert listed["counts"]["outcome.unknown"] == 1
    assert listed["counts"]["outcome.in_flight"] == 0
