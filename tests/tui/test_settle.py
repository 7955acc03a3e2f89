"""The harness's ``settle``: a tab underline Textual left off its tab (seen on a loaded
machine) is put under it after a while, instead of holding every later wait until the
test times out."""

from __future__ import annotations

import time
from pathlib import Path

from textual.widgets import Tabs
from textual.widgets._tabs import Underline

from tests.tui.app_support import UNDERLINE_STUCK, make_app, settle


async def test_a_tab_underline_left_off_its_tab_is_put_under_it(
    records_dir: Path, world: dict[str, str]
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        tabs = next(t for t in app.screen.query(Tabs) if t.display and t.active_tab)
        underline = tabs.query_one(Underline)
        right = (underline.highlight_start, underline.highlight_end)
        underline.highlight_start, underline.highlight_end = 0, 1  # as a lost move leaves it
        started = time.monotonic()
        await settle(pilot)  # it timed out (10 s) where Textual did not move it back itself
        assert (underline.highlight_start, underline.highlight_end) == right
        assert time.monotonic() - started < UNDERLINE_STUCK + 5
