"""Time the debugger's scan while another thread keeps the interpreter busy, as its screen
does while it folds in and draws a batch, for several sizes of the pool's window.

The debugger's scan runs in a thread of the app's process, beside the screen's thread, and
feeds the standard library's process pool from there (``parallel.pooled``). When the
screen holds the interpreter, the scan thread cannot hand the pool more chunks: a worker
then runs dry unless enough chunks were sent ahead (``IN_FLIGHT_PER_WORKER``).

Each contender is a fresh process: a cold ``DirectoryIndex.scan_batches()`` (an empty cache)
in a thread, beside a thread that sorts 200,000 numbers with a Python key and rests 20 ms,
over and over. Rounds alternate the contenders; prints the median wall time of each and
its ratio to the first.

Usage: ``python bench/bench_scan_beside_screen.py [--count 100000] [--dir DIR]
[--runs 3] [--windows 4,16,32]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from gen_records import generate  # noqa: E402

ONE_RUN = """
import os, shutil, sys, tempfile, threading, time

def main():
    cache = tempfile.mkdtemp()
    os.environ["INTENTUS_TUI_CACHE_DIR"] = cache
    from intentus_tui.core.index import parallel
    from intentus_tui.core.index.directory import DirectoryIndex
    from intentus_tui.core.paths import resolve_root

    parallel.IN_FLIGHT_PER_WORKER = int(sys.argv[2])
    root = resolve_root(sys.argv[1])
    stop = threading.Event()
    took = []

    def screen():
        while not stop.is_set():
            sorted(range(200_000), key=lambda i: -i)
            time.sleep(0.02)

    def scan():
        start = time.perf_counter()
        for _ in DirectoryIndex(root).scan_batches():
            pass
        took.append(time.perf_counter() - start)

    busy = threading.Thread(target=screen)
    busy.start()
    worker = threading.Thread(target=scan)
    worker.start()
    worker.join()
    stop.set()
    busy.join()
    shutil.rmtree(cache)
    print(took[0])

if __name__ == "__main__":
    main()
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--dir", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--windows", default="4,16,32")
    args = parser.parse_args()
    windows = [int(w) for w in args.windows.split(",")]
    directory = args.dir or Path(tempfile.mkdtemp()) / "records"
    if not directory.is_dir() or len(os.listdir(directory)) < args.count:
        generate(directory, args.count)
    script = Path(tempfile.mkdtemp()) / "one_run.py"
    script.write_text(ONE_RUN)
    times: dict[int, list[float]] = {w: [] for w in windows}
    for _ in range(args.runs):
        for window in windows:
            done = subprocess.run(
                [sys.executable, str(script), str(directory), str(window)],
                check=True,
                capture_output=True,
                text=True,
            )
            times[window].append(float(done.stdout.strip().splitlines()[-1]))
    base = statistics.median(times[windows[0]])
    print(f"cold scan of {args.count:,} records beside a busy screen thread, median of {args.runs}")
    for window in windows:
        median = statistics.median(times[window])
        print(f"  {window:>3} chunks per worker: {median:6.2f} s  ({median / base:.2f}x)")


if __name__ == "__main__":
    main()
