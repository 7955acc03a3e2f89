"""The footer: the keys of what has focus, rebuilt only when they change, and without
leaving widgets behind (Textual's Footer used to keep every key it ever composed)."""

from __future__ import annotations

import gc
from collections import Counter
from pathlib import Path

from textual.widget import Widget

from intentus_tui.tui.app import IntentusApp
from intentus_tui.tui.screens.help import HelpScreen
from intentus_tui.tui.widgets.footer import AppFooter, KeysLine
from tests.tui.app_support import SIZE, make_app, screen_lines, settle, wait_for


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


def _footer(app: IntentusApp) -> AppFooter:
    return app.screen.query_one(AppFooter)


def _footer_keys(app: IntentusApp) -> list[tuple[str, str]]:
    return [(key.key_display, key.description) for key in _footer(app).keys]


def _enabled(app: IntentusApp, action: str) -> bool:
    return next(key.enabled for key in _footer(app).keys if key.action == action)


LIST_KEYS = [
    ("→", "Open timeline"),
    ("q", "Quit"),
    ("?", "Help"),
    ("/", "Filter"),
    ("v", "View"),
    ("!", "Failures first"),
    ("o", "Sort"),
    ("p", "Live/pause"),
    ("r", "Replay"),
    ("m", "Mark for diff"),
    ("d", "Diff"),
    ("^p", "palette"),
]
FILTER_KEYS = [("/", "Filter"), ("esc", "Clear filter"), ("^p", "palette")]


async def test_the_footer_shows_the_keys_of_what_has_focus_mounting_nothing(
    records_dir: Path, world: dict[str, str]
) -> None:
    """The keys change with the focus and with what can be done; the footer's widgets stay
    the same (Textual's footer mounted a widget per key at each change: a debugger test
    that opened the filter box and closed it spent 255 ms of CPU with it, 188 ms now)."""
    app = make_app(records_dir, watch=True)  # watched: p pauses and resumes it
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # The selected execution read: its keys are enabled by then (under load, after
        # the first settle: a change of keys inside the count below).
        await wait_for(pilot, lambda: app.detail is not None, "the selected execution read")
        await settle(pilot)
        assert _footer_keys(app) == LIST_KEYS
        widgets = list(_footer(app).walk_children())
        await pilot.press("slash")
        await settle(pilot)
        assert _footer_keys(app) == FILTER_KEYS
        assert "esc Clear filter" in screen_lines(app)[-1]
        await pilot.press("enter")
        await settle(pilot)
        assert _footer_keys(app) == LIST_KEYS
        assert " → Open timeline  q Quit  ? Help " in screen_lines(app)[-1]
        for key in ("j", "k", "p", "p"):  # other executions, live paused and resumed
            await pilot.press(key)
            await settle(pilot)
            assert _footer_keys(app) == LIST_KEYS, key
        assert list(_footer(app).walk_children()) == widgets
        assert not _enabled(app, "diff")  # nothing marked to compare with
        await pilot.press("m", "j")
        await settle(pilot)
        assert _enabled(app, "diff")


async def test_a_click_on_a_key_presses_it_and_a_disabled_one_rings_the_bell(
    records_dir: Path, world: dict[str, str]
) -> None:
    """As on Textual's footer: a click on ``? Help`` opens the help; on ``d Diff`` with
    nothing marked (dim), the bell rings and nothing else happens."""
    app = make_app(records_dir)
    rung: list[None] = []
    app.bell = lambda: rung.append(None)  # type: ignore[method-assign]
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_for(pilot, lambda: app.detail is not None, "the selected execution read")
        await settle(pilot)
        bottom = screen_lines(app)[-1]
        assert not _enabled(app, "diff")
        await pilot.click(offset=(bottom.index(" d Diff") + 2, 49))
        await settle(pilot)
        assert rung and app.screen is app.screen_stack[0]
        await pilot.click(offset=(bottom.index(" ? Help") + 2, 49))
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen) and len(rung) == 1


def _background_at(line: KeysLine, x: int) -> object:
    """The background colour of the footer's keys line at column ``x``, as drawn."""
    at = 0
    for segment in line.render_line(0):
        at += segment.cell_length
        if x < at:
            return segment.style.bgcolor if segment.style else None
    raise AssertionError(f"no column {x}")


async def test_a_hovered_key_is_lit_as_on_textuals_footer(
    records_dir: Path, world: dict[str, str]
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_for(pilot, lambda: app.detail is not None, "the selected execution read")
        await settle(pilot)
        line = _footer(app).query_one(KeysLine)
        bottom = screen_lines(app)[-1]
        help_at, quit_at = bottom.index(" ? Help") + 1, bottom.index(" q Quit") + 1
        resting = _background_at(line, help_at)
        assert _background_at(line, quit_at) == resting
        await pilot.hover(offset=(help_at, 49))
        await settle(pilot)
        assert _background_at(line, help_at) != resting
        assert _background_at(line, help_at + len("? Help")) != resting  # its description
        assert _background_at(line, quit_at) == resting
        await pilot.hover(offset=(100, 10))
        await settle(pilot)
        assert _background_at(line, help_at) == resting
