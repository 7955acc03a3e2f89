"""``D``'s picker at 100,000 executions: building its lines, searching them, and finding
the snapshot and baseline files of a root.

Timed: the execution lines built from the list model's summaries (first opening, then a
second one that reuses unchanged lines), the search index, a search per query (a common
letter, a word, a date, a query nothing matches, one whose first letter is in every line),
and ``find_compare_files`` on a root (``--root``, e.g. a 100,000-record bench directory:
the records directory is never read).

Usage: ``python bench/bench_picker.py [--rows 100000] [--repeat 5] [--root DIR]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

# appended: a PYTHONPATH pointing at another checkout (to compare) comes first
sys.path.append(str(Path(__file__).resolve().parent.parent))

from bench.bench_list_model import summary
from bench.timing import median_ms
from intentus_tui.core.compare.targets import find_compare_files
from intentus_tui.core.paths import resolve_root
from intentus_tui.tui.presenters.compare_candidates import (
    CandidateIndex,
    ExecutionLines,
    build_candidates,
)
from intentus_tui.tui.presenters.list_model import ListModel

QUERIES = ("s", "sum", "2026-01-05", "zzzq", "0f3a")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--root", type=Path, default=None)
    args = parser.parse_args()
    model = ListModel()
    model.replace_all(summary(n) for n in range(args.rows))
    summaries = list(model.summaries.values())
    lines = ExecutionLines()
    start = time.perf_counter()
    executions = lines.candidates(summaries, model.kind)
    print(f"lines, first opening     {(time.perf_counter() - start) * 1000:8.1f} ms")
    again = median_ms(lambda: lines.candidates(summaries, model.kind), args.repeat)
    print(f"lines, next openings     {again:8.1f} ms")
    build = median_ms(lambda: CandidateIndex(build_candidates([], [], executions)), args.repeat)
    print(f"search index             {build:8.1f} ms")
    index = CandidateIndex(build_candidates([], [], executions))
    for query in QUERIES:
        took = median_ms(lambda query=query: index.search(query), args.repeat)
        print(f"search {query!r:<17} {took:8.1f} ms")
    if args.root is not None:
        root = resolve_root(args.root)
        took = median_ms(lambda: find_compare_files(root), args.repeat)
        print(f"find_compare_files       {took:8.1f} ms  ({args.root})")


if __name__ == "__main__":
    main()
