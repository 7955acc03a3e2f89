"""Time the index's process pool against the alternative, on the real workload, in one run.

Contenders (each run a fresh process, timed inside it around the work alone):

- ``handwritten``: ``intentus_tui.core.index.parallel.map_chunks`` as the command line
  runs it (single-threaded: the hand-written forked helpers, this process working too).
- ``stdlib``: ``parallel.pooled``, the standard library's ``ProcessPoolExecutor`` (forked
  workers here; the debugger's are started by the forkserver), swapped in for
  ``map_chunks``.

Workloads, both ``--no-cache`` so that every file is read:

- ``scan``: ``DirectoryIndex.scan()``: every file summarized in the workers, the summaries
  rebuilt here (what the debugger and a listing that fills the cache do);
- ``listing``: ``DirectoryIndex.listing_json()``: the ``inspect --list --json --no-cache``
  rows made in the workers and joined here.

Each is run with the native helpers as built and with ``INTENTUS_TUI_PURE_PYTHON=1``.
Contenders run in rounds (each once per round, after one warm-up each so the page cache is
warm for all); prints medians and the ratio stdlib / handwritten (below 1: stdlib faster).

Usage: ``python bench/bench_pool.py [--count 20000] [--runs 5] [--dir DIR] [--cores N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

POOLS = ("handwritten", "stdlib")
WORKLOADS = ("scan", "listing")


def run_one(pool: str, workload: str, directory: Path, cores: int) -> float:
    """One timed run in this process: the seconds ``workload`` took with ``pool``."""
    from intentus_tui.core.index import directory as index_directory
    from intentus_tui.core.index.directory import DirectoryIndex, RecordRoot

    if pool == "stdlib":
        from intentus_tui.core.index.parallel import pooled

        index_directory.map_chunks = pooled  # type: ignore[assignment]
    root = RecordRoot(records_dir=directory, wal_dir=None, requested=directory)
    index = DirectoryIndex(root, use_cache=False, workers=cores)
    start = time.perf_counter()
    if workload == "scan":
        count = len(index.scan())
    else:
        listed = index.listing_json()
        assert listed is not None
        count = sum(listed[0].values())
    elapsed = time.perf_counter() - start
    assert count == sum(1 for n in os.listdir(directory) if n.endswith(".json")), count
    return elapsed


def _timed(pool: str, workload: str, directory: Path, cores: int, pure: bool) -> float:
    env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
    env.pop("INTENTUS_TUI_PURE_PYTHON", None)
    if pure:
        env["INTENTUS_TUI_PURE_PYTHON"] = "1"
    out = subprocess.run(
        [sys.executable, __file__, "--one", pool, workload, str(directory), str(cores)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return float(out.strip())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path, help="existing or new directory of generated records")
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--one", nargs=4, metavar=("POOL", "WORKLOAD", "DIR", "CORES"))
    args = parser.parse_args()
    if args.one:
        pool, workload, directory, cores = args.one
        print(f"{run_one(pool, workload, Path(directory), int(cores)):.6f}")
        return

    from gen_records import generate

    with tempfile.TemporaryDirectory(prefix="bench-pool-") as scratch:
        directory = args.dir or Path(scratch) / "records"
        if not directory.exists() or not any(directory.iterdir()):
            print(f"generating {args.count} records in {directory}", flush=True)
            generate(directory, args.count)
        files = sum(1 for n in os.listdir(directory) if n.endswith(".json"))
        print(f"{files} records, {args.cores} cores, {args.runs} rounds\n", flush=True)
        cases = [
            (pure, workload, pool)
            for pure in (False, True)
            for workload in WORKLOADS
            for pool in POOLS
        ]
        for case in cases:  # warm-up: page cache, imports
            _timed(case[2], case[1], directory, args.cores, case[0])
        samples: dict[tuple[bool, str, str], list[float]] = {case: [] for case in cases}
        for _ in range(args.runs):
            for case in cases:
                samples[case].append(_timed(case[2], case[1], directory, args.cores, case[0]))
        print(f"{'lane':<8} {'workload':<8} {'handwritten':>12} {'stdlib':>9} {'ratio':>7}")
        for pure in (False, True):
            for workload in WORKLOADS:
                hand = statistics.median(samples[(pure, workload, "handwritten")])
                std = statistics.median(samples[(pure, workload, "stdlib")])
                lane = "pure" if pure else "native"
                print(
                    f"{lane:<8} {workload:<8} {hand * 1000:>10.0f}ms {std * 1000:>7.0f}ms"
                    f" {std / hand:>7.2f}"
                )


if __name__ == "__main__":
    main()
