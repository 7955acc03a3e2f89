"""The recorder's guarantee under real SIGKILLs: a record is absent, or valid and complete,
or valid and marked incomplete -- never torn, never lost once its first event was flushed."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core.fsio import temp_target
from intentus_tui.core.wal.read import read_wal
from intentus_tui.demo.recorder import EXECUTION_INCOMPLETE, record_from_wal
from tests.zygote import Zygote, alive

KILLS = 200
LIVE = 4  # children recording at the same time (concurrent writers in one directory)
EXPECTED_TYPES = [
    "INTENT_RECEIVED",
    "AGENT_ATTEMPT_START",
    "AGENT_ATTEMPT_END",
    "FALLBACK_TRIGGERED",
    "AGENT_ATTEMPT_START",
    "AGENT_ATTEMPT_END",
    "ROUTER_DECISION",
    "FINAL_RESPONSE",
]

# A fork server: it imports the recorder once (Python + imports take ~0.2 s, too slow for
# 200 fresh interpreters) and forks one tiny recording process per request. Each child
# records executions in a loop until it is SIGKILLed, and appends "<id>" to its side file
# once the first event of an execution is durable: from then on that record must exist.
ZYGOTE = r"""
import os, signal, sys, traceback
from intentus_tui.demo.recorder import ExecutionRecorder
root, side = sys.argv[1], sys.argv[2]

def record_forever(mode, tag, size):
    env = {"version": "1.0", "intent": {"name": "Kill", "version": "1.0"},
           "payload": {"blob": "é" * size}, "metadata": {"traceId": tag}}
    fd = os.open(os.path.join(side, tag), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    n = 0
    while True:
        n += 1
        rec = ExecutionRecorder(root, env, execution_id=f"{tag}-{n}", flush_mode=mode)
        rec.intent_received()
        os.write(fd, f"{tag}-{n}\n".encode())
        rec.attempt_start("a", strategy="FALLBACK", side_effect="reversible")
        rec.attempt_end("a", "error", exception="boom")
        rec.fallback_triggered("a", "b", "error")
        rec.attempt_start("b", strategy="FALLBACK", side_effect="reversible")
        rec.attempt_end("b", "ok")
        rec.router_decision("b", "fallback success at index 1")
        rec.final_response({"version": "1.0", "status": "success", "payload": {"n": n},
                            "metadata": {}, "error": None})

def child(mode, tag, size):
    record_forever(mode, tag, int(size))

def report_error(fields, text):
    with open(os.path.join(side, "error-" + fields[1]), "w") as f:
        f.write(text)
"""


def _run_kills(root: Path, side: Path) -> dict[str, str]:
    """Fork KILLS recording children, SIGKILL each at a random moment; tag -> flush mode.

    Every other child's moment is counted from its fork (it may die before its first
    event is durable: nothing must be left of it); the others' from their first durable
    event, so that on a loaded machine, where a child takes long to start, kills still
    land in the middle of executions (counted from the fork alone, a busy run landed 37 of
    200 there, against the 50 asserted)."""
    rng = random.Random(20260105)
    zygote = Zygote(ZYGOTE, str(root), str(side))
    modes: dict[str, str] = {}
    live: list[tuple[float, int]] = []  # (kill deadline, pid)
    # (delay after the first flush, pid, its side file, when it was forked)
    starting: list[tuple[float, int, Path, float]] = []
    pids: list[int] = []
    try:
        while len(pids) < KILLS or live or starting:
            while len(live) + len(starting) < LIVE and len(pids) < KILLS:
                tag = f"k{len(pids):03d}"
                mode = "rewrite" if len(pids) % 4 == 3 else "wal"  # the default gets 3/4
                size = rng.choice((10, 2_000, 40_000))  # big envelopes: long writes to hit
                pid = zygote.fork(mode, tag, size)
                delay = rng.uniform(0.001, 0.08)
                if len(pids) % 2:
                    starting.append((delay, pid, side / tag, time.monotonic()))
                else:
                    live.append((time.monotonic() + delay, pid))
                modes[tag] = mode
                pids.append(pid)
            for entry in list(starting):
                delay, pid, flushed, forked = entry
                if flushed.exists() and flushed.stat().st_size:
                    starting.remove(entry)
                    live.append((time.monotonic() + delay, pid))
                else:
                    assert alive(pid), "a recording child died on its own"
                    assert time.monotonic() - forked < 20, "a child never made an event durable"
            if not live:
                time.sleep(0.001)  # every child is still before its first durable event
                continue
            live.sort()
            deadline, pid = live[0]
            if starting and deadline > time.monotonic() + 0.001:
                time.sleep(0.001)  # look at the starting children again meanwhile
                continue
            live.pop(0)
            time.sleep(max(0.0, deadline - time.monotonic()))
            assert alive(pid), "a recording child died on its own"
            zygote.kill(pid)
    finally:
        zygote.close()
    give_up = time.monotonic() + 10
    while any(alive(pid) for pid in pids) and time.monotonic() < give_up:
        time.sleep(0.01)
    assert not any(alive(pid) for pid in pids)
    return modes


def _check_record(path: Path) -> bool:
    """Assert ``path`` is a valid record; return whether it is complete."""
    record: dict[str, Any] = json.loads(path.read_bytes())  # never torn
    assert list(record) == ["header", "envelope", "routerDecision", "events", "finalResponse"]
    header = record["header"]
    assert header["executionId"] == path.stem
    types = [e["type"] for e in record["events"]]
    assert [e["seq"] for e in record["events"]] == list(range(1, len(types) + 1))
    assert types == EXPECTED_TYPES[: len(types)] and types
    if record["finalResponse"] is None:
        assert header["replayable"] is False
        assert header["replayableReason"] == EXECUTION_INCOMPLETE
        return False
    assert header["replayable"] is True and header["replayableReason"] is None
    assert types == EXPECTED_TYPES
    return True


@pytest.mark.slow
def test_sigkill_never_tears_or_loses_a_record(tmp_path: Path) -> None:
    root = tmp_path / ".intentusnet"
    side = tmp_path / "side"
    side.mkdir()
    started = time.monotonic()
    modes = _run_kills(root, side)
    elapsed = time.monotonic() - started

    errors = sorted(side.glob("error-*"))
    assert not errors, errors[0].read_text()
    flushed = {line for f in side.iterdir() for line in f.read_text().split()}
    wal_tags = {tag for tag, mode in modes.items() if mode == "wal"}
    records = root / "records"
    names = sorted(p.name for p in records.iterdir())
    # A kill mid-write may leave atomic_write's hidden temp file of a record, nothing else.
    stray = [
        n for n in names if not (n.endswith(".json") or (temp_target(n) or "").endswith(".json"))
    ]
    assert stray == []
    record_paths = [records / n for n in names if n.endswith(".json")]
    complete = {p.stem for p in record_paths if _check_record(p)}
    present = {p.stem for p in record_paths}
    incomplete = present - complete

    assert flushed <= present, f"lost after their first flush: {sorted(flushed - present)[:5]}"
    # The kills really landed mid-execution many times over (the rest hit a child before
    # its first flush, which must leave nothing, or between executions).
    assert len(incomplete) >= KILLS // 4, (len(incomplete), len(complete))
    crash_points: dict[str, set[str]] = {"wal": set(), "rewrite": set()}

    for execution_id in sorted(incomplete):
        if execution_id.split("-")[0] not in wal_tags:
            events = json.loads((records / f"{execution_id}.json").read_bytes())["events"]
            crash_points["rewrite"].add(events[-1]["type"])
    for execution_id in sorted(present):
        if execution_id.split("-")[0] not in wal_tags:
            continue
        log = read_wal(root / "wal" / f"{execution_id}.wal")
        assert log.chain_valid, (execution_id, log.issues)
        assert {i.kind for i in log.issues} <= {"torn_last_line"}
        rebuilt = record_from_wal(log)
        assert rebuilt is not None
        record = json.loads((records / f"{execution_id}.json").read_bytes())
        # Write-ahead: the log always knows at least as much as the record.
        assert rebuilt["events"][: len(record["events"])] == record["events"]
        if execution_id in complete:
            assert log.state == "completed"
        else:
            crash_points["wal"].add(rebuilt["events"][-1]["type"])
    # ...and at many different points of an execution, in both modes.
    assert len(crash_points["wal"]) >= 4 and len(crash_points["rewrite"]) >= 3, crash_points
    assert elapsed < 40, f"kill test took {elapsed:.1f}s"
