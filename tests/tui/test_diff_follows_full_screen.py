"""The Diff tab follows the full-screen comparison: closed on a difference (moved to with
``n``), the tab is at that difference, not still at the first."""

from __future__ import annotations

from pathlib import Path

from intentus_tui.demo.writer import build_demo_world
from intentus_tui.tui.widgets.diff_view import DiffView
from tests.tui.app_support import make_app, settle


async def test_the_diff_tab_is_where_the_full_screen_was_left(tmp_path: Path) -> None:
    """On the demo: mark exec-bce5c329, four rows down ``d``, ``n`` in the full screen (value
    2/16), ``esc``: the tab said ``at 1/16`` on the first difference; now ``at 2/16``."""
    manifest = build_demo_world(tmp_path)
    app = make_app(manifest.root)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, timeout=20)
        assert app.execution_list.select_key("exec-bce5c329.json")
        await settle(pilot)
        await pilot.press("m", "j", "j", "j", "j", "d")
        await settle(pilot)
        assert type(app.screen).__name__ == "ComparisonScreen"
        await pilot.press("n")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        pane = app.side_pane.diff_pane
        view = pane.query_one(DiffView)
        status = str(pane.query_one("#diff-status").render())
        assert view.cursor == 1
        assert f"at 2/{len(view.entries)}" in status
        # and back: f opens the full screen where the tab is
        await pilot.press("f")
        await settle(pilot)
        assert app.screen.values.cursor == app.screen.folded.differences[1]  # type: ignore[attr-defined]
