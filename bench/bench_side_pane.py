"""Side pane rendering cost: does a huge diff or payload cost more than a small one on screen?

Headless, inside a running app. For each size it times
- the Diff tab's ``DiffView``: ``set_entries`` + drawing one screen, and drawing one screen
  after jumping to the last difference;
- the Replay tab's ``JsonView``: ``pretty_json_lines`` (the thread worker's part) and
  ``set_lines`` + drawing one screen;
and prints medians with the ratio to the small baseline measured in the same run
(ratio ~1 = the Line API keeps the on-screen cost independent of the size).

    python3 bench/bench_side_pane.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual.app import App, ComposeResult
from textual.geometry import Region

from bench.timing import median_ms
from intentus_tui.core.verist.diff import diff
from intentus_tui.tui.widgets.diff_view import DiffView, entry_paths
from intentus_tui.tui.widgets.json_view import JsonView, pretty_json_lines

SIZE = (100, 40)


class Bench(App[None]):
    CSS = "DiffView, JsonView { height: 1fr; }"

    def compose(self) -> ComposeResult:
        yield DiffView()
        yield JsonView()


def screen(widget: Any) -> None:
    widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))


def diff_of(n: int) -> tuple[Any, list[str]]:
    before = {f"key{i:06d}": {"value": i, "text": "x" * 40} for i in range(n)}
    after = {f"key{i:06d}": {"value": i + 1, "text": "x" * 40} for i in range(n)}
    entries = diff(before, after).entries
    return entries, entry_paths(entries)


def payload_of(kind: str) -> Any:
    if kind == "small":
        return {"summary": "done", "items": list(range(10))}
    if kind == "1 MB string":
        return {"blob": "y" * 1_000_000}
    return {"rows": [{"id": i, "name": f"row {i}", "ok": True} for i in range(20_000)]}


async def run(repeat: int) -> None:
    app = Bench()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = app.query_one(DiffView)
        print(f"DiffView ({SIZE[0]}x{SIZE[1] // 2} cells), median of {repeat}")
        base: tuple[float, float] | None = None
        for n in (10, 10_000, 100_000):
            entries, paths = diff_of(n)

            def show(entries: Any = entries, paths: list[str] = paths) -> None:
                view.set_entries(entries, paths=paths)
                screen(view)

            def jump_to_end(n: int = n) -> None:
                view.cursor = 0
                view.cursor = n - 1
                screen(view)

            shown = median_ms(show, repeat)
            jumped = median_ms(jump_to_end, repeat)
            base = base or (shown, jumped)
            print(
                f"  {n:>7,} entries: set+draw {shown:7.2f} ms (x{shown / base[0]:5.1f})"
                f"   jump to end+draw {jumped:7.2f} ms (x{jumped / base[1]:5.1f})"
            )
        json_view = app.query_one(JsonView)
        print(f"JsonView, median of {repeat}")
        json_base: tuple[float, float] | None = None
        for kind in ("small", "1 MB string", "20k rows"):
            value = payload_of(kind)
            pretty = median_ms(lambda value=value: pretty_json_lines(value), repeat)
            lines = pretty_json_lines(value)

            def draw(lines: list[str] = lines) -> None:
                json_view.set_lines(lines)
                screen(json_view)

            drawn = median_ms(draw, repeat)
            json_base = json_base or (pretty, drawn)
            print(
                f"  {kind:>12}: pretty-print (worker) {pretty:8.2f} ms (x{pretty / json_base[0]:7.1f})"
                f"   set+draw {drawn:6.2f} ms (x{drawn / json_base[1]:5.1f})"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7)
    asyncio.run(run(parser.parse_args().repeat))


if __name__ == "__main__":
    main()
