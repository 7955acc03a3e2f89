"""The side pane's tab strip keeps its underline under the active tab. A comparison opened
full screen chooses the Diff tab while the main screen is covered; Textual measured the tab
where the hidden pane had left it, and after escape the underline stayed under no tab (a
test helper put it back after 3 s, hiding it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Tabs
from textual.widgets._tabs import Underline

from intentus_tui.tui.app import IntentusApp
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import wait_for
from tests.tui.untrusted_pair import comparing_the_pair


def _underline_and_tab(app: IntentusApp) -> tuple[tuple[float, float], tuple[int, int]]:
    """The side pane's underline (start, end) and its active tab's columns (start, end)."""
    strip = app.side_pane.query_one(Tabs)
    active = strip.active_tab
    assert active is not None
    underline = strip.query_one(Underline)
    under = (underline.highlight_start, underline.highlight_end)
    return under, active.virtual_region.shrink(active.styles.gutter).column_span


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_after_a_comparison_the_diff_tab_is_underlined(
    tmp_path: Path, real_world: RealWorld, size: tuple[int, int]
) -> None:
    async with comparing_the_pair(tmp_path, real_world, size) as (app, pilot):
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is app.screen_stack[0], "the main screen")
        assert app.side_pane.active_tab == "diff"
        under, tab = _underline_and_tab(app)
        await wait_for(
            pilot,
            lambda: _underline_and_tab(app)[0] == tab,
            f"the underline {under} under the Diff tab {tab}",
            timeout=2.0,
        )
