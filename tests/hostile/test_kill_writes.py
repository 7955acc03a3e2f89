"""Operator writes are atomic under real SIGKILLs.

Children loop ``FileExecutionStore.invalidate`` (alternating reasons, so every write
changes the file) or ``save_snapshot`` (alternating two snapshots) and are SIGKILLed at
random moments, 100 times in all, four at a time, in one directory. After each batch every
file is one of its valid versions, never torn; temp files a kill leaves behind are hidden
``.<name>.<random>.tmp`` names that neither ``list_record_paths`` nor ``inspect --list``
shows.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from intentus_tui.cli import main
from intentus_tui.core.paths import list_record_paths
from intentus_tui.core.records.load import LoadStatus, load_record_file
from intentus_tui.core.verist.snapshot import load_snapshot, save_snapshot, snapshot_from_record
from tests.factories import make_record
from tests.hostile.corpus import dump_json
from tests.zygote import Zygote, alive

KILLS = 100
LIVE = 4
ROOT = Path(__file__).parents[2]
TEMP_NAME = re.compile(r"^\..+\.tmp$")

# A fork server: imports the writers once (an interpreter start per kill would cost 100 x
# 0.3 s), then forks one writer per request line "<mode> <target>"; the writer loops until
# it is killed, and says on its side file when its first write has completed.
ZYGOTE = r"""
import os, signal, sys, traceback
from pathlib import Path
from intentus_tui.core.records.store import FileExecutionStore
from intentus_tui.core.verist.snapshot import save_snapshot, snapshot_from_record
from tests.factories import make_record
snaps = [snapshot_from_record(make_record(execution_id="s", intent=f"v{n}")) for n in range(2)]

def write_forever(mode, target):
    n = 0
    while True:
        if mode == "invalidate":
            path = Path(target)
            FileExecutionStore(path.parent).invalidate(path.stem, reason=f"reason-{n % 2}")
        else:
            save_snapshot(snaps[n % 2], target)
        n += 1
        if n == 1:
            Path(target + ".written").touch()

child = write_forever

def report_error(fields, text):
    with open(fields[1] + ".error", "w") as f:
        f.write(text)
"""


def _kill_writers(targets: list[tuple[str, Path]], kills: int, rng: random.Random) -> None:
    """Start writers on ``targets`` (mode, path) round-robin, SIGKILL each at a random time."""
    zygote = Zygote(ZYGOTE, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    live: list[tuple[float, int, Path]] = []
    started = 0
    pids: list[int] = []
    queue = list(targets)  # round robin: the next writer takes the least recently used target
    try:
        while started < kills or live:
            busy = {path for _, _, path in live}
            while len(live) < LIVE and started < kills:
                mode, path = next(t for t in queue if t[1] not in busy)
                queue.remove((mode, path))
                queue.append((mode, path))
                busy.add(path)
                pid = zygote.fork(mode, path)
                pids.append(pid)
                started += 1
                # Up to 40 ms: many complete writes, then a kill anywhere inside one.
                live.append((time.monotonic() + rng.uniform(0.002, 0.04), pid, path))
            live.sort(key=lambda item: item[0])
            deadline, pid, path = live.pop(0)
            time.sleep(max(0.0, deadline - time.monotonic()))
            assert alive(pid), f"a writer died on its own: {_error(path)}"
            zygote.kill(pid)
            while alive(pid):  # reaped by the kernel (the zygote ignores SIGCHLD)
                time.sleep(0.001)
    finally:
        zygote.close()
    assert not any(alive(pid) for pid in pids)


def _error(path: Path) -> str:
    error = Path(f"{path}.error")
    return error.read_text() if error.exists() else "(no traceback)"


def _leftover_temps(directory: Path) -> list[str]:
    names = [n for n in os.listdir(directory) if n.endswith(".tmp")]
    assert all(TEMP_NAME.match(n) for n in names), names  # hidden, never *.json
    return names


def _listed_by_inspect(directory: Path) -> list[str]:
    result = CliRunner().invoke(main, ["inspect", "--list", str(directory), "--json"])
    assert result.exit_code == 0, result.stderr
    return sorted(e["file"] for e in json.loads(result.stdout)["executions"])


@pytest.mark.slow
def test_sigkill_during_invalidate_and_snapshot_saving_never_tears_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    records = tmp_path / "records"
    snapshots = tmp_path / "snapshots"
    records.mkdir()
    snapshots.mkdir()
    originals: dict[str, dict[str, Any]] = {}
    targets: list[tuple[str, Path]] = []
    for n in range(LIVE):
        record = make_record(execution_id=f"inv-{n}", agents=(("a", "error"), ("b", "ok")))
        record["envelope"]["payload"] = {"blob": "é" * 20_000}  # a write worth interrupting
        record["header"]["envelopeHash"] = None  # (not checked here)
        (records / f"inv-{n}.json").write_bytes(dump_json(record))
        originals[f"inv-{n}"] = record
        targets.append(("invalidate", records / f"inv-{n}.json"))
    snaps = [snapshot_from_record(make_record(execution_id="s", intent=f"v{n}")) for n in range(2)]
    versions = set()
    for n, snap in enumerate(snaps):
        versions.add(save_snapshot(snap, tmp_path / f"version-{n}.json").read_bytes())
    for n in range(LIVE):
        path = snapshots / f"snap-{n}.snapshot.json"
        save_snapshot(snaps[0], path)
        targets.append(("snapshot", path))

    started = time.monotonic()
    rng = random.Random(20261122)
    _kill_writers(targets, KILLS, rng)
    elapsed = time.monotonic() - started

    assert not list(tmp_path.rglob("*.error")), _error(next(tmp_path.rglob("*.error")))
    assert all(Path(f"{p}.written").exists() for _, p in targets), "a writer never wrote once"
    for execution_id, original in originals.items():
        result = load_record_file(records / f"{execution_id}.json")
        assert result.status is LoadStatus.OK, result.message  # never torn
        raw = dict(result.record.raw)  # type: ignore[union-attr]
        header = raw.pop("header")
        assert raw == {k: v for k, v in original.items() if k != "header"}
        assert header["replayable"] is False
        assert header["replayableReason"] in ("reason-0", "reason-1")
        assert {k: v for k, v in header.items() if not k.startswith("replayable")} == {
            k: v for k, v in original["header"].items() if not k.startswith("replayable")
        }
    for _, path in targets[LIVE:]:
        assert path.read_bytes() in versions  # byte for byte one of the two snapshots
        load_snapshot(path)
    record_temps = _leftover_temps(records)
    snapshot_temps = _leftover_temps(snapshots)
    # The kills really landed inside writes: SIGKILL leaves their temp files behind.
    assert record_temps and snapshot_temps
    expected = sorted(f"inv-{n}.json" for n in range(LIVE))
    assert [p.name for p in list_record_paths(records)] == expected
    assert _listed_by_inspect(records) == expected
    assert elapsed < 30, f"kill test took {elapsed:.1f}s"
