"""The side pane's tab strip names every tab whole at every width: at 56-60 columns it was
cut at the pane's edge ("Verify  Replay  Diff  Pos") and, on the Post-mortem tab,
scrolled the first tab out of sight ("fy  Replay  Diff  Post-morte")."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Tabs

from tests.tui.app_support import make_app, screen_lines, settle, write_world

# The names a strip may show: whole, then shorter as the pane narrows.
SHOWN = {
    ("Verify", "Replay", "Diff", "Post-mortem"),
    ("Verify", "Replay", "Diff", "Post"),
    ("Ver", "Rep", "Diff", "Post"),
    ("V", "R", "D", "P"),
}


def _strip(app: object) -> str:
    """The tab strip's row as the screen shows it, inside the side pane's border."""
    tabs = app.side_pane.query_one(Tabs)  # type: ignore[attr-defined]
    row = screen_lines(app)[tabs.region.y]  # type: ignore[arg-type]
    return row.rstrip("│").split("│")[-1]


@pytest.mark.parametrize("columns", [40, 44, 50, 56, 58, 60, 64, 80])
async def test_every_tab_is_named_whole_at_every_width(tmp_path: Path, columns: int) -> None:
    write_world(tmp_path)
    app = make_app(tmp_path)
    async with app.run_test(size=(columns, 24)) as pilot:
        await settle(pilot)
        for key in ("4", "1", "3"):  # the last tab, the first, one between
            await pilot.press(key)
            await settle(pilot)
            strip = _strip(app)
            assert strip.startswith(" "), strip  # nothing scrolled out on the left
            assert tuple(strip.split()) in SHOWN, strip


async def test_the_full_names_come_back_on_a_wider_screen(tmp_path: Path) -> None:
    write_world(tmp_path)
    app = make_app(tmp_path)
    async with app.run_test(size=(58, 24)) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        assert _strip(app).split() == ["Verify", "Replay", "Diff", "Post"]
        await pilot.resize_terminal(120, 36)
        await settle(pilot)
        assert _strip(app).split() == ["Verify", "Replay", "Diff", "Post-mortem"]
