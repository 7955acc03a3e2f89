"""Live mode: executions appear partial first, then complete; stopping is prompt."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core.wal.read import read_wal
from intentus_tui.demo.writer import build_demo_world, load_manifest

# ---------------------------------------------------------------------------------------
# Live mode


def test_live_executions_appear_partial_first_then_complete(tmp_path: Path) -> None:
    from intentus_tui.demo.live import LiveDemo

    base = build_demo_world(tmp_path, count=20).root
    seen: list[tuple[str, str, Any, Any]] = []  # checked in the test thread, not the workers

    def observe(execution_id: str, event_type: str) -> None:
        record = json.loads((base / "records" / f"{execution_id}.json").read_bytes())
        log = read_wal(base / "wal" / f"{execution_id}.wal")
        seen.append((execution_id, event_type, record, log))

    live = LiveDemo(base, rate=50, time_scale=0.01, fsync=False, on_progress=observe)
    stats = live.run(max_executions=6)

    assert (stats.started, stats.finished, stats.errors) == (6, 6, [])
    for _execution_id, event_type, record, log in seen:
        if event_type == "FINAL_RESPONSE":
            assert record["header"]["replayable"] is True and record["finalResponse"] is not None
            assert log.state == "completed" and log.issues == ()
        else:  # visible while in flight: an incomplete record and the WAL's in-flight step
            assert record["finalResponse"] is None
            assert record["header"]["replayableReason"] == "execution_incomplete"
            assert log.state == "in_flight" and log.chain_valid
            if event_type == "AGENT_ATTEMPT_START":
                assert log.in_flight_step is not None
    assert {e for _, e, _, _ in seen} == {
        "INTENT_RECEIVED",
        "AGENT_ATTEMPT_START",
        "FINAL_RESPONSE",
    }
    manifest = load_manifest(base)
    assert manifest is not None and manifest.ids("live") == tuple(stats.ids)
    build_demo_world(tmp_path, count=20)  # live files belong to the demo: rebuilt cleanly
    assert not any((base / "records" / f"{i}.json").exists() for i in stats.ids)


def test_live_stop_finishes_slow_executions_at_once(tmp_path: Path) -> None:
    import threading

    from intentus_tui.demo.live import LiveDemo

    base = build_demo_world(tmp_path, count=20).root
    in_flight = threading.Event()

    def observe(execution_id: str, event_type: str) -> None:
        if event_type == "AGENT_ATTEMPT_START":
            in_flight.set()

    # Every simulated latency lasts hours: only stop() can end the executions in flight.
    hours = 1_000_000.0
    live = LiveDemo(base, rate=5, time_scale=hours, fsync=False, on_progress=observe)
    runner = threading.Thread(target=live.run)
    runner.start()
    assert in_flight.wait(10)
    live.stop()
    runner.join(30)  # a hang guard, not a measurement
    assert not runner.is_alive()
    assert live.stats.ids  # at least the one seen in flight, finished below
    for execution_id in live.stats.ids:
        record = json.loads((base / "records" / f"{execution_id}.json").read_bytes())
        assert record["finalResponse"] is not None


def test_cli_live_stops_by_itself(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from intentus_tui.cli import run

    argv = ["demo", str(tmp_path), "--count", "20", "--live", "--max-executions", "3"]
    assert run([*argv, "--rate", "50", "--time-scale", "0.01"]) in (0, None)
    assert "Live demo stopped: 3 started, 3 finished." in capsys.readouterr().out
    manifest = load_manifest(tmp_path / ".intentusnet")
    assert manifest is not None and len(manifest.ids("live")) == 3


def test_cli_live_exits_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "intentus_tui.cli",
            "demo",
            str(tmp_path),
            "--count",
            "20",
            "--live",
            "--rate",
            "20",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl-C as a terminal delivers it: a run started in the background by a shell
        # without job control inherits SIGINT ignored, and Python then never raises
        # KeyboardInterrupt (the program ran on until this test's timeout).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None
    for line in proc.stdout:  # wait until executions are being recorded
        if line.startswith("  done "):
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=15)
    assert proc.returncode == 0, err
    assert "Live demo interrupted" in out and "Traceback" not in err
