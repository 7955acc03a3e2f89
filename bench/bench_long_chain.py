"""Selecting an execution of 16,000 attempts, and opening its Post-mortem tab.

Headless, in the real app (``run_test``) at 120x36: a record of ``--attempts`` failed
attempts then one that succeeded, beside a record of one attempt (the baseline, measured
in the same run). For each it times, from the key to the app settled:

- the selection (on the Verify tab): the longest the event loop was held (keys wait that
  long) and the whole;
- pressing ``4`` (the Post-mortem tab): the same.

The ratio to the baseline says how much more a huge execution costs than a small one.

    python bench/bench_long_chain.py [--attempts 16000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.factories import make_record, write_record
from tests.tui.app_support import make_app, settle, wait_for_scan_and_side_pane


async def _held(pilot, act) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """(longest stall, whole) in seconds, of ``act`` until the app settled."""
    stalls: list[float] = []

    async def monitor() -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.002)
            now = time.perf_counter()
            stalls.append(now - last)
            last = now

    task = asyncio.create_task(monitor())
    start = time.perf_counter()
    await act()
    await settle(pilot, timeout=120)
    whole = time.perf_counter() - start
    task.cancel()
    return max(stalls, default=0.0), whole


async def _measure(directory: Path, key: str) -> tuple[float, float, float, float]:
    app = make_app(directory)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        listing = app.execution_list
        other = next(k for k in listing.model.summaries if k != key)
        listing.select_key(other)
        await settle(pilot)

        async def select() -> None:
            listing.select_key(key)

        async def postmortem() -> None:
            await pilot.press("4")

        select_stall, select_whole = await _held(pilot, select)
        tab_stall, tab_whole = await _held(pilot, postmortem)
    return select_stall, select_whole, tab_stall, tab_whole


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attempts", type=int, default=16000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("INTENTUS_TUI_SETTINGS", os.path.join(tempfile.mkdtemp(), "s.json"))
    with tempfile.TemporaryDirectory() as tmp:
        records = Path(tmp) / "records"
        agents = tuple((f"agent-{n}", "error") for n in range(args.attempts))
        huge = make_record(execution_id="huge", agents=(*agents, ("agent-last", "ok")))
        write_record(records, huge)
        write_record(records, make_record(execution_id="small"))
        write_record(records, make_record(execution_id="other"))
        results: dict[str, list[tuple[float, float, float, float]]] = {"small": [], "huge": []}
        for _ in range(args.repeat):
            for name in results:
                results[name].append(asyncio.run(_measure(records, f"{name}.json")))
    labels = ("select: longest stall", "select: whole", "tab 4: longest stall", "tab 4: whole")
    print(f"{args.attempts:,} attempts vs 1, median of {args.repeat} (seconds)")
    for i, label in enumerate(labels):
        small = statistics.median(r[i] for r in results["small"])
        huge_s = statistics.median(r[i] for r in results["huge"])
        print(f"  {label:22} 1 attempt {small:6.3f}   huge {huge_s:6.3f}   x{huge_s / small:5.1f}")


if __name__ == "__main__":
    main()
