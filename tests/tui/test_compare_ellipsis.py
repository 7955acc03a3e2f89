"""A value cut to fit its column ends with ``…`` on B's side as on A's: in the full-screen
comparison and in the Diff tab. B's column is the last: drawn as wide as the widget, its
last cells - the ellipsis among them - were under the vertical scrollbar, and a cut value
looked complete."""

from __future__ import annotations

import pytest

from tests.tui.app_support import screen_lines
from tests.tui.compare_harness import CompareApp, record_pair
from tests.tui.side_pane_harness import SidePaneApp, detail_from, finish_workers


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_the_comparison_cuts_both_sides_with_an_ellipsis(size: tuple[int, int]) -> None:
    a, b = record_pair()
    reason = "fallback success at index 1 " + "because the primary agent timed out " * 6
    a["routerDecision"]["reason"] = reason
    # Different early: both cut at their end (a late difference moves the cut before it).
    b["routerDecision"]["reason"] = reason.replace("fallback", "Fallback", 1)
    app = CompareApp(detail_from(a), detail_from(b))
    async with app.run_test(size=size) as pilot:
        await finish_workers(pilot)
        [line] = [
            text for text in screen_lines(app) if '"reason": "fallback' in text and "│" in text
        ]
        left, _, right = line.partition(" │ ")
        assert left.rstrip().endswith("…"), line
        assert right.rstrip().endswith("…"), line


async def test_the_diff_tab_cuts_b_with_an_ellipsis() -> None:
    app = SidePaneApp(None)
    async with app.run_test(size=(60, 40)) as pilot:
        before = {f"k{i:02}": "a" * 80 for i in range(40)}  # more rows than fit: a scrollbar
        after = {f"k{i:02}": "b" * 80 for i in range(40)}
        app.side.show_diff_values("snapshot", before, "now", after)
        await finish_workers(pilot)
        rows = [text for text in screen_lines(app) if text.lstrip().startswith("~ k")]
        assert len(rows) > 10
        for text in rows:
            cells = [cell.strip() for cell in text.split("│")]
            assert cells[1].endswith("…") and cells[2].rstrip("▁▂▃▄▅▆▇█ ").endswith("…"), text
