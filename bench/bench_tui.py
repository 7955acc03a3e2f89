"""How the debugger's Line-API views scale: 100,000 executions, a 100,000-event record.

Everything runs headless in a Pilot session (``run_test``); each key press is timed from
the press until the app is idle again (the press handled and the screen refreshed).

- list: 100,000 synthetic summaries, against a 1,000-summary baseline in the same run —
  a virtualized list should cost the same per key at both sizes (ratio ≈ 1).
  Timed: folding in the summaries, page-down, end/home, one live row change, a
  1,000-row live burst, a sort change, typing a filter.
- timeline: a record with 100,000 events, against one with 100 events: opening (core
  load in a thread + showing), stepping, jumping to the last event.

A no-op key is timed too: Pilot's own cost per press (~0.1 s), to subtract.

Usage: ``python bench/bench_tui.py [--rows 100000] [--events 100000] [--repeat 15]``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from intentus_tui.core.detail import load_detail
from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.paths import RecordRoot
from intentus_tui.core.records.load import LoadStatus
from intentus_tui.core.records.timeline import ExecutionState
from intentus_tui.core.records.verify import HashStatus
from intentus_tui.tui.app import IntentusApp
from intentus_tui.tui.live.messages import IndexChanged
from tests.factories import make_record, write_record

SIZE = (160, 45)
STATES = [
    (ExecutionState.COMPLETED, True, None),
    (ExecutionState.COMPLETED, False, "manually_invalidated"),
    (ExecutionState.INCOMPLETE, False, "execution_incomplete"),
    (ExecutionState.CORRUPTED, False, "record_corrupted"),
]


def summaries(count: int) -> list[ExecutionSummary]:
    out = []
    for n in range(count):
        state, replayable, reason = STATES[0] if n % 10 else STATES[(n // 10) % 4]
        out.append(
            ExecutionSummary(
                key=f"{n:08x}-0000-4000-8000-{n:012x}.json",
                execution_id=f"{n:08x}-0000-4000-8000-{n:012x}",
                created=f"2026-01-{1 + n % 28:02d}T{n % 24:02d}:{n % 60:02d}:{(n * 7) % 60:02d}+00:00",
                intent=["Summarize", "Translate", "Classify", "Refund"][n % 4],
                agent="agent-a",
                strategy="fallback",
                state=state,
                load_status=LoadStatus.OK,
                message="",
                replayable=replayable,
                replay_reason=reason,
                hash_status=HashStatus.MATCH,
                hash_form="runtime",
                matched_form="runtime",
                event_count=7,
                attempts=1 + n % 3,
                fallbacks=n % 3,
                chain="agent-a ✓",
                in_flight_agent=None,
                final_status="ok",
                problems=0,
                size=2000,
                mtime_ns=0,
            )
        )
    return out


async def timed(action: Callable[[], Awaitable[Any]], pilot: Any) -> float:
    start = time.perf_counter()
    await action()
    await pilot.pause()
    return time.perf_counter() - start


async def median_of(repeat: int, action: Callable[[], Awaitable[Any]], pilot: Any) -> float:
    return statistics.median([await timed(action, pilot) for _ in range(repeat)])


async def bench_list(rows: int, repeat: int, empty_dir: Path) -> dict[str, float]:
    app = IntentusApp(RecordRoot(empty_dir, None, empty_dir), watch=False, use_cache=False)
    data = summaries(rows)
    results: dict[str, float] = {}
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        start = time.perf_counter()
        app.post_message(IndexChanged(tuple(data), scanned=rows, total=rows))
        await pilot.pause()
        await pilot.pause()
        results["fold in all summaries"] = time.perf_counter() - start
        assert len(app.execution_list.model.summaries) == rows
        app.execution_list.focus()
        results["no-op key (Pilot overhead)"] = await median_of(
            repeat, lambda: pilot.press("x"), pilot
        )
        results["page down"] = await median_of(repeat, lambda: pilot.press("pagedown"), pilot)
        results["end / home"] = await median_of(repeat, lambda: pilot.press("end", "home"), pilot)
        results["step down"] = await median_of(repeat, lambda: pilot.press("j"), pilot)
        victims = iter(range(1, rows, max(1, rows // (repeat + 1))))

        async def one_change() -> None:
            n = next(victims)
            app.post_message(IndexChanged((replace(data[n], attempts=9),)))

        results["live: one row changed"] = await median_of(repeat, one_change, pilot)
        burst = tuple(replace(s, intent="Burst") for s in data[: min(1000, rows)])

        async def burst_change() -> None:
            app.post_message(IndexChanged(burst))

        results["live: 1,000 rows changed"] = await median_of(3, burst_change, pilot)
        results["cycle sort"] = await median_of(3, lambda: pilot.press("o"), pilot)
        await pilot.press("slash")
        results["filter: one keystroke"] = await median_of(3, lambda: pilot.press("a"), pilot)
    return results


async def bench_timeline(events: int, repeat: int, directory: Path) -> dict[str, float]:
    record = make_record(execution_id=f"big-{events}", agents=(("a", "error"), ("b", "ok")))
    extra = [
        {"seq": 100 + i, "type": "MODEL_CALL", "payload": {"n": i, "text": "x" * 40}}
        for i in range(events)
    ]
    record["events"] = record["events"][:-1] + extra + record["events"][-1:]
    directory.mkdir()
    write_record(directory, record)
    app = IntentusApp(RecordRoot(directory, None, directory), watch=False, use_cache=False)
    results: dict[str, float] = {}
    async with app.run_test(size=SIZE) as pilot:
        start = time.perf_counter()
        while app.detail is None:
            await pilot.pause(0.005)
        await pilot.pause()
        results["open (load in thread + show)"] = time.perf_counter() - start
        assert len(app.timeline.lines.rows) == len(record["events"])
        path = directory / f"big-{events}.json"
        start = time.perf_counter()
        load_detail(path)
        results["  of which core load_detail"] = time.perf_counter() - start
        app.timeline.lines.focus()
        results["no-op key (Pilot overhead)"] = await median_of(
            repeat, lambda: pilot.press("x"), pilot
        )
        results["step"] = await median_of(repeat, lambda: pilot.press("j"), pilot)
        results["page down"] = await median_of(repeat, lambda: pilot.press("pagedown"), pilot)
        results["last / first event"] = await median_of(
            repeat, lambda: pilot.press("G", "g"), pilot
        )
        results["next fallback"] = await median_of(repeat, lambda: pilot.press("f", "g"), pilot)
    return results


def report(title: str, big: dict[str, float], small: dict[str, float], sizes: str) -> None:
    print(f"\n{title}  ({sizes})")
    print(f"  {'operation':<32}{'big':>10}{'baseline':>11}{'ratio':>8}")
    for name, value in big.items():
        base = small[name]
        print(f"  {name:<32}{value * 1000:>8.1f}ms{base * 1000:>9.1f}ms{value / base:>8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "empty").mkdir()
        small = asyncio.run(bench_list(1_000, args.repeat, root / "empty"))
        big = asyncio.run(bench_list(args.rows, args.repeat, root / "empty"))
        report("execution list", big, small, f"{args.rows:,} rows vs 1,000")
        small_t = asyncio.run(bench_timeline(100, args.repeat, root / "small"))
        big_t = asyncio.run(bench_timeline(args.events, args.repeat, root / "big"))
        report("timeline", big_t, small_t, f"{args.events:,} events vs 100")
    print(
        "\nmedians of --repeat presses (3 for sort/filter/burst); each timed until the app is"
        " idle again.\nratio ≈ 1: the cost does not grow with the size (only the screen is drawn)."
    )


if __name__ == "__main__":
    main()
