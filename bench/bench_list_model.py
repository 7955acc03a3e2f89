"""The execution list's model at 100,000 rows: what grouping by verdict costs.

Each execution's group comes from its verdict (``verdict_of``), which the model computes
once per summary and keeps. Timed: filling the model (``replace_all``), a re-sort (a sort
change), a view change, a filter, 1,000 one-row live updates (each a bisect out and in),
and ``verdict_of`` alone per summary.

Usage: ``python bench/bench_list_model.py [--rows 100000] [--repeat 5]``; run it with
``PYTHONPATH`` at another checkout to compare.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

# appended: a PYTHONPATH pointing at another checkout (to compare) comes first
sys.path.append(str(Path(__file__).resolve().parent.parent))

from bench.timing import median_ms
from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.records.load import LoadStatus
from intentus_tui.core.records.timeline import ExecutionState
from intentus_tui.core.records.verify import HashStatus
from intentus_tui.tui.presenters import list_model
from intentus_tui.tui.presenters.list_model import VIEWS, ListModel
from intentus_tui.tui.presenters.list_order import SORTS


def summary(n: int) -> ExecutionSummary:
    """Mostly successes; every 7th failed, every 11th in flight, every 13th tampered."""
    incomplete = n % 11 == 0
    return ExecutionSummary(
        key=f"{n:07d}.json",
        execution_id=f"{n:08x}-0000-4000-8000-000000000000",
        created=f"2026-01-{1 + n % 28:02d}T10:{n % 60:02d}:{(n * 7) % 60:02d}+00:00",
        intent=("Summarize", "Translate", "Classify")[n % 3],
        agent="agent-a",
        strategy="fallback",
        state=ExecutionState.INCOMPLETE if incomplete else ExecutionState.COMPLETED,
        load_status=LoadStatus.OK,
        message="",
        replayable=not incomplete,
        replay_reason="execution_incomplete" if incomplete else None,
        hash_status=HashStatus.MISMATCH if n % 13 == 0 else HashStatus.MATCH,
        hash_form="runtime",
        matched_form="runtime",
        event_count=8,
        attempts=1 + n % 3,
        fallbacks=n % 2,
        chain="agent-a ✓",
        in_flight_agent=None,
        final_status=None if incomplete else ("error" if n % 7 == 0 else "ok"),
        problems=0,
        size=2000,
        mtime_ns=0,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rows = [summary(n) for n in range(args.rows)]
    # The scan delivers files in name (uuid) order, unrelated to their times: shuffled.
    random.Random(7).shuffle(rows)
    model = ListModel()

    def fill() -> None:
        model.replace_all(rows)

    print(f"{args.rows:,} executions")
    print(f"replace_all            {median_ms(fill, args.repeat):8.1f} ms")
    sort_index = [0]

    def resort() -> None:
        sort_index[0] = (sort_index[0] + 1) % len(SORTS)
        model.set_sort(SORTS[sort_index[0]])

    print(f"sort change            {median_ms(resort, args.repeat):8.1f} ms")
    model.set_sort(SORTS[0])
    flat = next(v for v in VIEWS if not v.grouped and v.only is None)

    def regroup() -> None:
        model.set_view(flat if model.view.grouped else VIEWS[0])

    print(f"view change (regroup)  {median_ms(regroup, args.repeat):8.1f} ms")
    model.set_view(VIEWS[0])

    def filtered() -> None:
        model.set_query("translate")
        model.set_query("")

    print(f"filter and clear       {median_ms(filtered, args.repeat):8.1f} ms")
    step = max(1, args.rows // 1000)
    changed = [replace(rows[n * step], final_status="error") for n in range(1000)]

    def live() -> None:
        for s in changed:
            model.apply([s])
        for n in range(1000):
            model.apply([rows[n * step]])

    per_row = median_ms(live, args.repeat) / 2000 * 1000
    print(f"one-row live update    {per_row:8.1f} us")

    # A backspace in the filter after a live change: the rows of the shorter query are
    # kept through the change (they follow it), not searched again.
    backspaces: list[float] = []
    updates: list[float] = []
    for n in range(args.repeat):
        for end in range(1, len("translate 0") + 1):
            model.set_query("translate 0"[:end])
        start = time.perf_counter()
        model.apply([changed[n]])
        updates.append(time.perf_counter() - start)
        start = time.perf_counter()
        model.set_query("translate ")
        backspaces.append(time.perf_counter() - start)
        model.apply([rows[n * step]])
        model.set_query("")
    print(f"live update, filtered  {statistics.median(updates) * 1e6:8.1f} us")
    print(f"backspace after it     {statistics.median(backspaces) * 1000:8.1f} ms")
    verdict_of = getattr(list_model, "verdict_of", None)
    if verdict_of is not None:
        sample = rows[:20_000]

        def verdicts() -> None:
            for s in sample:
                verdict_of(s)

        print(
            f"verdict_of             {median_ms(verdicts, args.repeat) / len(sample) * 1000:8.2f} us"
        )


if __name__ == "__main__":
    main()
