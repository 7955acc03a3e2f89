"""An event storm: 10,000 creates, rewrites, deletes and renames-over-each-other in a few
seconds, watched with real watchfiles events fed to ``DirectoryIndex.update``.

Once the storm has settled, the live index must equal a fresh scan of the directory:
the same keys (every ``*.json`` on disk plus the WAL-only executions), no duplicates, no
ghosts of deleted or renamed-away files, and every summary describing the file as it is.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import watchfiles

from intentus_tui.core.index.directory import DirectoryIndex
from intentus_tui.core.index.wal_join import wal_only_summary
from intentus_tui.core.paths import resolve_root
from intentus_tui.core.records.load import WAL_SUFFIX, is_record_name
from intentus_tui.core.wal.read import read_wal

OPS = 10_000
ROOT = Path(__file__).parents[2]

# The storm, in its own process: as fast as it can, on a small pool of names so that
# operations collide (rename over an existing file, re-create what was just deleted).
STORM = r"""
import json, os, random, sys
records, wal, ops, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
rng = random.Random(seed)
from intentus_tui.core.wal.read import encode_wal_line, make_wal_entry
from tests.factories import make_record

def record(name, version):
    r = make_record(execution_id=name, intent=f"v{version}")
    return json.dumps(r).encode()

def wal_line(name):
    return encode_wal_line(make_wal_entry(seq=1, execution_id=name,
        timestamp_iso="2026-01-05T10:00:00+00:00", entry_type="execution.started",
        payload={"intent_name": "Storm"}, prev_hash=None))

names = [f"s-{i}" for i in range(300)]
blobs = {(n, v): record(n, v) for n in names[:60] for v in range(3)}
def blob(name):
    return blobs.get((name, rng.randrange(3))) or record(name, rng.randrange(3))
def path(name):
    return os.path.join(records, name + ".json")
for i in range(ops):
    name = rng.choice(names)
    op = rng.random()
    try:
        if op < 0.30:  # create or overwrite in place
            with open(path(name), "wb") as f:
                f.write(blob(name))
        elif op < 0.45:  # atomic write through a hidden temp file
            temp = os.path.join(records, f".{name}.json.{i}.tmp")
            with open(temp, "wb") as f:
                f.write(blob(name))
            os.replace(temp, path(name))
        elif op < 0.65:
            os.unlink(path(name))
        elif op < 0.80:  # rename over another record (the source disappears)
            os.replace(path(name), path(rng.choice(names)))
        elif op < 0.85:  # a torn write: half a record
            with open(path(name), "wb") as f:
                f.write(blob(name)[:100])
        elif op < 0.93:  # a WAL: for a record, or WAL-only
            with open(os.path.join(wal, name + ".wal"), "wb") as f:
                f.write(wal_line(name))
        else:
            os.unlink(os.path.join(wal, name + ".wal"))
    except FileNotFoundError:
        pass
"""


def test_an_event_storm_leaves_the_index_equal_to_the_directory(tmp_path: Path) -> None:
    intentusnet = tmp_path / ".intentusnet"
    records = intentusnet / "records"
    wal = intentusnet / "wal"
    records.mkdir(parents=True)
    wal.mkdir()
    root = resolve_root(intentusnet)
    assert (root.records_dir, root.wal_dir) == (records, wal)
    index = DirectoryIndex(root, use_cache=False, workers=1)
    index.scan()

    stop = threading.Event()
    yields: list[tuple[float, int]] = []  # (when, how many changes); 0 = a quiet timeout
    seen_ready = threading.Event()
    failures: list[BaseException] = []

    def watch() -> None:
        try:
            for changes in watchfiles.watch(
                records,
                wal,
                watch_filter=None,
                debounce=50,
                step=10,
                rust_timeout=300,
                yield_on_timeout=True,
                stop_event=stop,
                recursive=False,
            ):
                paths = {Path(p) for _, p in changes}
                index.update(paths)  # only this thread touches the index
                yields.append((time.monotonic(), len(changes)))
                if records / "ready.txt" in paths:
                    seen_ready.set()
        except BaseException as exc:  # surfaced by the test, not lost in the thread
            failures.append(exc)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        # The watcher is live once it reports a change: only then start the storm.
        deadline = time.monotonic() + 10
        while not seen_ready.is_set() and time.monotonic() < deadline:
            (records / "ready.txt").write_bytes(b"x")
            seen_ready.wait(0.1)
        assert seen_ready.is_set(), failures

        started = time.monotonic()
        subprocess.run(
            [sys.executable, "-c", STORM, str(records), str(wal), str(OPS), "storm-1"],
            check=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=60,
        )
        storm_end = time.monotonic()
        # Settled: the watcher has timed out quietly after the storm ended.
        while time.monotonic() < storm_end + 15:
            if any(n == 0 and t > storm_end + 0.1 for t, n in yields):
                break
            time.sleep(0.05)
    finally:
        stop.set()
        watcher.join(timeout=10)
    assert not failures, failures
    assert any(n == 0 and t > storm_end for t, n in yields), "the storm never settled"
    events = sum(n for _, n in yields)

    live = index.summaries()
    keys = [s.key for s in live]
    assert len(keys) == len(set(keys)), "duplicate rows"
    on_disk = {n for n in os.listdir(records) if is_record_name(n)}
    wal_only = {
        n for n in os.listdir(wal) if n.endswith(WAL_SUFFIX) and f"{n[:-4]}.json" not in on_disk
    }
    assert set(keys) == on_disk | wal_only, (
        f"ghosts: {sorted(set(keys) - on_disk - wal_only)[:5]}, "
        f"missing: {sorted((on_disk | wal_only) - set(keys))[:5]}"
    )
    fresh = DirectoryIndex(root, use_cache=False, workers=1).scan()
    # Every row describes the file as it is now; a record the live index saw removed, its
    # log left alone, is said removed too (a fresh scan never saw it).
    removed = {s.key for s in live if s.record_removed}
    assert removed <= wal_only
    seen_gone = [wal_only_summary(read_wal(wal / k), record_removed=True) for k in removed]
    expected = {s.key: s for s in fresh} | {s.key: s for s in seen_gone}
    assert live == [expected[k] for k in sorted(expected)]
    assert len(on_disk) > 50 and wal_only  # the storm left a real mix behind
    assert events > OPS // 2, events  # the watcher really saw the storm
    assert storm_end - started < 30
