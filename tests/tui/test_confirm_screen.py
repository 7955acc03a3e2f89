"""The yes/no dialog on any screen: its text ends above its buttons (scrolling when it is
longer than the dialog can be), the buttons and the keys always in sight."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Static

from intentus_tui.tui.screens.confirm import ConfirmScreen
from tests.tui.side_pane_harness import SidePaneApp, salvaged_detail


class DialogApp(App[None]):
    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self._lines = lines

    def on_mount(self) -> None:
        self.push_screen(ConfirmScreen("Force a replay?", self._lines, "Force replay"))


def _text(app: App[None]) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def to_the_end(pilot: Pilot[Any], body: Widget) -> None:
    """Scroll the dialog's text down from the keyboard until it goes no further."""
    for _ in range(200):
        before = body.scroll_y
        await pilot.press("down")
        await pilot.pause()
        if body.scroll_y == before:
            return


async def fitted(pilot: Pilot[Any]) -> None:
    """Until the dialog has fitted its text to the terminal's size and drawn it.

    Right after a resize the old fit still looks consistent (its keys' line agrees with its
    scrolling), so the fit must also be the same on several pauses in a row, with the
    screen at the terminal's size."""
    screen = pilot.app.screen
    body = screen.query_one("#confirm-body")
    keys = screen.query_one("#confirm-keys", Static)
    steady = 0
    last: object = None
    for _ in range(500):
        await pilot.pause()
        said = "↑/↓: scroll" in str(keys.render())
        now = (screen.size, body.region, body.max_scroll_y, said)
        fits = bool(body.region) and said == (body.max_scroll_y > 0)
        steady = steady + 1 if fits and now == last and screen.size == pilot.app.size else 0
        last = now
        if steady >= 3:
            break
    await pilot.pause()


def _lines(count: int) -> list[str]:
    return [f"line {n:02d} " + "words " * 10 for n in range(count)]


@pytest.mark.parametrize("height", [16, 24, 50])
@pytest.mark.parametrize("count", [3, 14, 40])
async def test_the_text_ends_above_the_buttons_and_scrolls_to_its_end(
    height: int, count: int
) -> None:
    app = DialogApp(_lines(count))
    async with app.run_test(size=(80, height)) as pilot:
        await fitted(pilot)
        screen = app.screen
        body = screen.query_one("#confirm-body")
        buttons = screen.query_one("#confirm-buttons")
        assert body.region.bottom < buttons.region.y
        first = _text(app)
        await to_the_end(pilot, body)
        last = _text(app)
        scrolls = body.max_scroll_y > 0
    for shown in (first, last):
        assert any("Cancel" in line and "Force replay" in line for line in shown.splitlines())
        assert "y: confirm" in shown
    assert "line 00" in first and f"line {count - 1:02d}" in last
    assert ("↑/↓: scroll" in first) == scrolls  # said only when there is more to see
    if count == 3 or (count == 14 and height == 50):
        assert not scrolls  # room enough: no scrolling


async def test_the_text_fits_again_when_the_terminal_grows_or_shrinks() -> None:
    app = DialogApp(_lines(14))
    async with app.run_test(size=(80, 24)) as pilot:
        await fitted(pilot)
        body = app.screen.query_one("#confirm-body")
        buttons = app.screen.query_one("#confirm-buttons")
        assert body.max_scroll_y > 0
        await pilot.resize_terminal(80, 50)
        await fitted(pilot)
        assert body.max_scroll_y == 0 and body.region.bottom < buttons.region.y
        await pilot.resize_terminal(80, 20)
        await fitted(pilot)
        assert body.max_scroll_y > 0 and body.region.bottom < buttons.region.y


async def test_a_text_that_fits_the_screen_does_not_scroll_at_80x24() -> None:
    """At 80x24 the dialog may use every row: 13 rows of text fit beside its title, buttons
    and keys (it scrolled by 2 rows when the dialog stopped at 90% of the screen)."""
    app = DialogApp(_lines(13))
    async with app.run_test(size=(80, 24)) as pilot:
        await fitted(pilot)
        shown = _text(app)
        body = app.screen.query_one("#confirm-body")
        assert body.max_scroll_y == 0
    assert "line 00" in shown and "line 12" in shown
    assert "↑/↓: scroll" not in shown
    assert any("Cancel" in line and "Force replay" in line for line in shown.splitlines())


async def test_the_force_replay_dialog_of_a_damaged_record_fits_at_80x24() -> None:
    """The dialog an operator sees on ``R`` over a record cut short: all of it, unscrolled."""
    app = SidePaneApp(salvaged_detail(), tab="replay")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("R")
        await fitted(pilot)
        shown = _text(app)
        assert app.screen.query_one("#confirm-body").max_scroll_y == 0
    assert "Execution: exec-0003" in shown
    assert '"Forced replay of non-replayable record".' in shown
    assert "↑/↓: scroll" not in shown


async def test_a_toast_showing_is_cleared_so_nothing_covers_the_question() -> None:
    from textual.widgets._toast import Toast

    app: App[None] = App()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.notify("Snapshot saved: a long name that takes two lines " * 2, timeout=60)
        for _ in range(50):  # the toast is mounted a few messages later
            await pilot.pause()
            if app.screen.query(Toast):
                break
        assert len(app.screen.query(Toast)) == 1
        app.push_screen(ConfirmScreen("Invalidate?", ["It rewrites the record."], "Go"))
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert len(app.screen.query(Toast)) == 0
        assert "Cancel" in _text(app)


async def test_a_label_s_or_a_risk_s_text_wraps_under_itself_at_80x24() -> None:
    """What follows a label ("Not replayable: ") or a risk's mark ("▶") goes on under its
    own first column when it wraps, not back at the dialog's edge; other text wraps as
    before."""
    why = "untrusted — the record fails its integrity check: investigate before replaying it"
    risk = "Untrusted record: May return an answer that was altered after it was recorded"
    app = DialogApp([f"Not replayable: {why}", "Force replay risk:", f" ▶ {risk}", "plain " * 20])
    async with app.run_test(size=(80, 24)) as pilot:
        await fitted(pilot)
        lines = _text(app).splitlines()
    at = next(n for n, line in enumerate(lines) if "Not replayable: untrusted" in line)
    column = lines[at].index("untrusted")
    assert lines[at + 1][column - 2 : column] == "  " and lines[at + 1][column] != " "
    at = next(n for n, line in enumerate(lines) if "▶ Untrusted record" in line)
    column = lines[at].index("Untrusted")
    assert lines[at + 1][column - 2 : column] == "  " and lines[at + 1][column] != " "
    at = next(n for n, line in enumerate(lines) if "plain plain" in line)
    assert lines[at + 1].index("plain") == lines[at].index("plain")  # no head: no indent


class AnswerApp(App[None]):
    """The dialog, keeping its answer."""

    def __init__(self) -> None:
        super().__init__()
        self.answers: list[bool | None] = []

    def on_mount(self) -> None:
        self.push_screen(
            ConfirmScreen("Invalidate this record?", ["Execution: x"], "Invalidate"),
            self.answers.append,
        )


@pytest.mark.parametrize("keys", [("enter",), ("tab", "enter"), ("tab", "tab", "enter")])
async def test_enter_cancels_wherever_tab_took_the_focus(keys: tuple[str, ...]) -> None:
    """The keys' line says enter cancels: tab never reaches the confirm button, so no
    enter confirms a write or a forced replay; "y" and a click on the button do."""
    app = AnswerApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await fitted(pilot)
        await pilot.press(*keys)
        await pilot.pause()
    assert app.answers == [False]


@pytest.mark.parametrize("how", ["y", "click"])
async def test_y_or_a_click_on_the_button_confirms(how: str) -> None:
    app = AnswerApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await fitted(pilot)
        if how == "y":
            await pilot.press("y")
        else:
            await pilot.click("#confirm")
        await pilot.pause()
    assert app.answers == [True]
