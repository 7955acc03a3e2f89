"""The side pane's tab strip keeps its underline under the active tab. A comparison opened
full screen chooses the Diff tab while the main screen is covered; Textual measured the tab
where the hidden pane had left it, and after escape the underline stayed under no tab (a
test helper put it back after 3 s, hiding it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Tabs
from textual.widgets._tabs import Underline

from tests.intentusnet_world import RealWorld
from tests.tui.app_support import make_app, settle, underline_off_its_tab, wait_for
from tests.tui.untrusted_pair import comparing_the_pair


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_after_a_comparison_the_diff_tab_is_underlined(
    tmp_path: Path, real_world: RealWorld, size: tuple[int, int]
) -> None:
    async with comparing_the_pair(tmp_path, real_world, size) as (app, pilot):
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is app.screen_stack[0], "the main screen")
        assert app.side_pane.active_tab == "diff"
        await wait_for(
            pilot, lambda: not underline_off_its_tab(app), "the Diff tab underlined", timeout=2
        )


async def test_an_underline_off_its_tab_is_put_back_at_the_next_layout(
    records_dir: Path, world: dict[str, str]
) -> None:
    """Where the comparison's timing left it (it depends on which of the two screens is
    laid out first), made at once: the underline under no tab, then any layout."""
    app = make_app(records_dir)
    async with app.run_test(size=(200, 50)) as pilot:  # the side pane shown
        await settle(pilot)
        underline = app.side_pane.query_one(Tabs).query_one(Underline)
        underline.highlight_start, underline.highlight_end = 5, 5
        assert underline_off_its_tab(app)
        app.screen.refresh(layout=True)
        await wait_for(
            pilot, lambda: not underline_off_its_tab(app), "the underline put back", timeout=2
        )
