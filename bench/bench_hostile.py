"""Hostile inputs' cost, as ratios to a trivial parse of the same input (same run).

The test suite checks that these inputs are classified right and that the work stays
bounded; how long they take is measured here, where a busy machine shows as a noisy
ratio rather than a failed test. Cases:

- nesting 100,000 deep (an array, an object, a record whose payload is that deep), whole
  and cut in half: ``load_record_bytes`` vs ``orjson.loads`` of the same bytes (which
  refuses them at once: its depth limit);
- 10,000-digit integers (bare, negative, as a fraction, as an exponent, in a record, in an
  event's seq): the same two;
- a 200 MB record (``--huge``): load, summarize, detail (read, verify, timeline) vs
  ``orjson.loads`` of the file's bytes, and ``inspect --list --json`` of its directory (a
  child process) vs a child that only starts Python and imports the command line;
- the live demo's ``stop()`` with executions in flight whose latencies last hours: how long
  until every one has finished and its record is written, vs recording one execution with
  no latencies at all.

    python3 bench/bench_hostile.py [--repeat 5] [--huge]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_s
from intentus_tui.core.records.load import load_record_bytes
from tests.hostile.corpus import (
    BIG_DIGITS,
    DEEP,
    big_int_record,
    deep_array,
    deep_record,
    write_huge_record,
)

ROOT = Path(__file__).resolve().parent.parent


def _orjson_attempt(data: bytes) -> Callable[[], object]:
    def parse() -> object:
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            return None

    return parse


def _row(name: str, seconds: float, baseline: float) -> None:
    ratio = seconds / baseline if baseline > 0 else float("inf")
    print(f"  {name:<34} {seconds * 1000:10.2f} ms  {baseline * 1000:9.3f} ms  {ratio:9.1f}x")


def _header(title: str, baseline: str) -> None:
    print(f"\n{title}")
    print(f"  {'case':<34} {'ours':>13}  {baseline:>12}  {'ratio':>10}")


def inputs_bench(repeat: int) -> None:
    deep = {
        "array": deep_array(DEEP),
        "object": b'{"a":' * DEEP + b"1" + b"}" * DEEP,
        "record": deep_record(DEEP, "d"),
    }
    _header(f"nesting {DEEP:,} deep: load_record_bytes", "orjson.loads")
    for name, data in deep.items():
        for label, cut in ((name, data), (f"{name}, cut in half", data[: len(data) // 2])):
            ours = median_s(lambda cut=cut: load_record_bytes(Path("deep.json"), cut), repeat)
            _row(label, ours, median_s(_orjson_attempt(cut), repeat))

    digits = b"9" * BIG_DIGITS
    big: dict[str, bytes] = {
        "bare": digits,
        "negative": b"-" + digits,
        "fraction": b"0." + digits,
        "exponent": b"1e" + digits,
        "in a record": big_int_record("b"),
        "as an event's seq": b'{"header": {"executionId": "b"}, "events": [{"seq": '
        + digits
        + b"}]}",
    }
    _header(f"{BIG_DIGITS:,}-digit integers: load_record_bytes", "orjson.loads")
    for name, data in big.items():
        ours = median_s(lambda data=data: load_record_bytes(Path("b.json"), data), repeat)
        _row(name, ours, median_s(_orjson_attempt(data), repeat))


def _child_seconds(args: list[str], cache: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "INTENTUS_TUI_CACHE_DIR": str(cache)}
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def huge_bench(repeat: int, work: Path) -> None:
    from intentus_tui.core.detail import detail_to_json, load_detail
    from intentus_tui.core.index.summarize import summarize_path
    from intentus_tui.core.records.load import load_record_file

    records = work / "records"
    records.mkdir()
    path = write_huge_record(records / "huge-1.json")
    size_mb = path.stat().st_size / 1e6

    def read_everything() -> None:
        load_record_file(path)
        summarize_path(path)
        detail_to_json(load_detail(path))

    _header(f"a {size_mb:.0f} MB record", "floor")
    floor = median_s(lambda: orjson.loads(path.read_bytes()), repeat)
    _row("load + summarize + detail", median_s(read_everything, repeat), floor)
    start_only = min(
        _child_seconds(["-c", "import intentus_tui.cli"], work / "cache0") for _ in range(repeat)
    )
    listing = min(
        _child_seconds(
            ["-m", "intentus_tui.cli", "inspect", "--list", str(records), "--json"],
            work / f"cache{n + 1}",  # a cold cache each time: the file is read
        )
        for n in range(repeat)
    )
    print(f"  (floor: orjson.loads of the file's bytes; the listing's: {start_only:.3f} s,")
    print("   a child that starts Python and imports the command line, best of the runs)")
    _row("inspect --list --json (child)", listing, start_only)


def live_stop_bench(repeat: int, work: Path) -> None:
    from intentus_tui.demo.live import LiveDemo
    from intentus_tui.demo.writer import build_demo_world

    base = build_demo_world(work / "demo", count=20).root

    def stop_seconds() -> tuple[float, int]:
        started = threading.Event()

        def observe(execution_id: str, event_type: str) -> None:
            if event_type == "AGENT_ATTEMPT_START":
                started.set()

        hours = 1_000_000.0  # every latency lasts hours: only stop() ends them
        live = LiveDemo(base, rate=5, time_scale=hours, fsync=False, on_progress=observe)
        runner = threading.Thread(target=live.run)
        runner.start()
        started.wait(30)
        start = time.perf_counter()
        live.stop()
        runner.join()
        return time.perf_counter() - start, live.stats.started

    def one_without_waits() -> None:
        LiveDemo(base, rate=1e9, time_scale=0.0, fsync=False).run(max_executions=1)

    _header("live demo stop()", "1 unhurried")
    baseline = median_s(one_without_waits, repeat)
    runs = [stop_seconds() for _ in range(repeat)]
    seconds = sorted(r[0] for r in runs)[len(runs) // 2]
    in_flight = max(r[1] for r in runs)
    print(f"  (baseline: one execution recorded with no latencies; up to {in_flight} in flight)")
    _row("executions in flight finish", seconds, baseline)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--huge", action="store_true", help="also the 200 MB record (~1 min)")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}; medians (children: best) of {args.repeat} runs")
    inputs_bench(args.repeat)
    with tempfile.TemporaryDirectory(dir=ROOT) as scratch:
        work = Path(scratch)
        live_stop_bench(args.repeat, work)
        if args.huge:
            huge_bench(args.repeat, work)


if __name__ == "__main__":
    main()
