"""Opening and closing the filter (two focus changes, two footer recomposes) must not
leave widgets behind: Textual's Footer used to keep every key it ever composed."""

from __future__ import annotations

import gc
from collections import Counter
from pathlib import Path

from textual.widget import Widget

from tests.tui.app_support import SIZE, make_app, settle


def _live_widgets() -> Counter[str]:
    gc.collect()
    return Counter(type(o).__name__ for o in gc.get_objects() if isinstance(o, Widget))


async def test_focus_changes_leave_no_widgets_behind(
    records_dir: Path, world: dict[str, str]
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", "enter")  # anything built on first use is built now
        await settle(pilot)
        before = _live_widgets()
        for _ in range(5):
            await pilot.press("slash")
            await pilot.pause()
            assert app.screen.focused is not app.execution_list
            await pilot.press("enter")
            await pilot.pause()
        await settle(pilot)
        assert app.screen.focused is app.execution_list
        assert _live_widgets() - before == Counter()
