"""The harness's ``settle``: a tab underline left off its tab fails the test with one clear
line after a while, instead of holding every later wait until the test times out; the
harness no longer puts it back itself, which once hid the app leaving one there."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from textual.widgets import Tabs
from textual.widgets._tabs import Underline

from tests.tui import app_support
from tests.tui.app_support import make_app, settle

STUCK = 0.5  # the helper's 3 s, shorter here: what is tested is that it gives up


async def test_a_tab_underline_left_off_its_tab_fails_the_wait(
    records_dir: Path, world: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_support, "UNDERLINE_STUCK", STUCK)
    app = make_app(records_dir)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        tabs = next(t for t in app.screen.query(Tabs) if t.display and t.active_tab)
        underline = tabs.query_one(Underline)
        underline.highlight_start, underline.highlight_end = 0, 1  # as a lost move leaves it
        started = time.monotonic()
        with pytest.raises(AssertionError, match="underline stayed off its active tab"):
            await settle(pilot)
        assert STUCK <= time.monotonic() - started < STUCK + 5
