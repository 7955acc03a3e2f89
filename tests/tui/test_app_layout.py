"""Every size: at 80x24 nothing is off-screen and every pane can be reached; any pane
can be maximised."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len
from textual import events

from tests.tui.app_support import (
    SIZE,
    make_app,
    screen_lines,
    screen_text,
    settle,
    wait_for,
    write_world,
)
from tests.tui.test_app_injection import _hit_count


def _shown(app, selector: str) -> bool:  # type: ignore[no-untyped-def]
    widget = app.query_one(selector)
    return bool(widget.display) and widget.region.width > 0


def _inside(app, selector: str, width: int) -> bool:  # type: ignore[no-untyped-def]
    region = app.query_one(selector).region
    return region.x >= 0 and region.right <= width


async def test_at_80_columns_the_list_shares_the_screen_with_one_pane(records_dir: Path) -> None:
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert _shown(app, "#list-pane") and _shown(app, "#centre")
        assert not _shown(app, "#side-pane")
        assert _inside(app, "#list-pane", 80) and _inside(app, "#centre", 80)
        await pilot.press("2")  # a side-pane action shows the side pane in the timeline's place
        await settle(pilot)
        assert _shown(app, "#side-pane") and not _shown(app, "#centre")
        assert _inside(app, "#side-pane", 80)
        assert app.query_one("#side-pane").region.width >= 30
        await pilot.press("w")  # and back
        await settle(pilot)
        assert _shown(app, "#centre") and not _shown(app, "#side-pane")
        await pilot.press("r")  # replaying shows the side pane again
        await settle(pilot)
        assert _shown(app, "#side-pane")


def _focus_in(app, pane: str) -> bool:  # type: ignore[no-untyped-def]
    focused = app.focused
    return focused is not None and any(node.id == pane for node in focused.ancestors_with_self)


async def test_at_80_columns_the_keys_reach_the_pane_on_screen(records_dir: Path) -> None:
    # Enter opened the timeline behind the side pane, and w left the focus in a pane it hid:
    # the keys typed next moved what could not be seen, or nothing.
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("1", "enter")  # the Verify tab, then the timeline
        await settle(pilot)
        assert _shown(app, "#centre") and not _shown(app, "#side-pane")
        assert app.timeline.lines.has_focus
        await pilot.press("1")
        await settle(pilot)
        app.query_one("#verify-pane").focus()  # as Tab from the timeline takes it there
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert _shown(app, "#centre") and _focus_in(app, "centre"), app.focused
        app.screen.set_focus(None)
        app.execution_list.focus()
        await pilot.press("w")  # the list keeps the focus: it stays on screen
        await settle(pilot)
        assert _shown(app, "#side-pane") and app.execution_list.has_focus


async def test_a_narrower_screen_keeps_the_focused_pane_and_w_takes_the_focus_along(
    records_dir: Path,
) -> None:
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        app.query_one("#verify-pane").focus()
        await settle(pilot)
        await pilot.resize_terminal(80, 24)  # the side pane, focused, keeps its place
        await settle(pilot)
        assert _shown(app, "#side-pane") and _focus_in(app, "side-pane")
        await pilot.press("w")
        await settle(pilot)
        assert not _shown(app, "#side-pane") and _focus_in(app, "centre"), app.focused


async def test_z_maximises_the_focused_pane_and_brings_every_pane_back(
    records_dir: Path,
) -> None:
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        assert all(_shown(app, s) for s in ("#list-pane", "#centre", "#side-pane"))
        await pilot.press("z")
        await settle(pilot)
        assert app.query_one("#list-pane").region.width == 200
        assert not _shown(app, "#centre") and not _shown(app, "#side-pane")
        await pilot.press("z")
        await settle(pilot)
        assert all(_shown(app, s) for s in ("#list-pane", "#centre", "#side-pane"))
        await pilot.press("enter")  # focus the timeline, then maximise it
        await settle(pilot)
        await pilot.press("z")
        await settle(pilot)
        assert app.query_one("#centre").region.width == 200 and not _shown(app, "#list-pane")


async def test_the_palette_maximises_as_z_does_and_spells_it_as_help_does(
    records_dir: Path,
) -> None:
    """The palette offered Textual's "Maximize: Maximize the focused widget" (another way
    to maximise, spelled otherwise) where help says "z Maximise"."""
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p", *"maxim")
        await wait_for(pilot, lambda: _hit_count(app) >= 1, "a hit")
        shown = screen_text(app)
        assert "Maximise" in shown and "The focused pane takes the whole screen (z)" in shown
        assert "Maximize" not in shown and "Minimize" not in shown
        # The palette runs what enter chose from a timer once it has closed, which settle
        # does not wait for: a loaded machine asked before it ran (1 run in 4).
        await pilot.press("enter")
        # The centre is hidden at once; the list's new width waits for the main screen's
        # next layout, after the palette's screen has gone (settle alone asked before).
        await wait_for(pilot, lambda: not _shown(app, "#centre"), "the centre hidden")
        await wait_for(
            pilot, lambda: app.query_one("#list-pane").region.width == 200, "the list maximised"
        )
        await settle(pilot)
        assert app.query_one("#list-pane").region.width == 200  # as z maximises it
        assert app.screen.maximized is None
        await pilot.press("ctrl+p", *"maxim")
        await wait_for(pilot, lambda: "Every pane back (z)" in screen_text(app), "the way back")
        await pilot.press("enter")
        panes = ("#list-pane", "#centre", "#side-pane")
        await wait_for(pilot, lambda: all(_shown(app, s) for s in panes), "every pane back")


@pytest.mark.parametrize("size", [(80, 24), (120, 36), (200, 50)])
async def test_escape_after_r_from_the_timeline_gives_the_list_the_focus(
    records_dir: Path, size: tuple[int, int]
) -> None:
    """Under 128 columns r from the timeline shows the Replay tab in its place, the focus
    in the tab: escape did nothing there, and j then scrolled the tab, not the list."""
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("enter", "r")
        await settle(pilot)
        assert _shown(app, "#side-pane") and app.side_pane.active_tab == "replay"
        await pilot.press("escape")
        await settle(pilot)
        assert app.focused is app.execution_list, app.focused
        before = app.execution_list.selected_key
        await pilot.press("j")
        await settle(pilot)
        assert app.execution_list.selected_key != before


async def test_escape_from_a_maximised_timeline_brings_the_list_back_with_the_focus(
    records_dir: Path,
) -> None:
    """Escape sends the focus to the list: with the timeline maximised, j then moved a
    list no one could see (the timeline following it unexplained)."""
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter", "z")
        await settle(pilot)
        assert not _shown(app, "#list-pane") and _focus_in(app, "centre")
        await pilot.press("escape")
        await settle(pilot)
        assert _shown(app, "#list-pane") and _shown(app, "#centre")
        assert _focus_in(app, "list-pane"), app.focused
        before = app.execution_list.selected_key
        await pilot.press("j")
        await settle(pilot)
        assert app.execution_list.selected_key != before
        assert app.query_one("#list-pane").region.height > 0
        # z on the list maximises the list, and every pane comes back with z again.
        await pilot.press("z")
        await settle(pilot)
        assert not _shown(app, "#centre") and _focus_in(app, "list-pane")
        await pilot.press("z")
        await settle(pilot)
        assert _shown(app, "#list-pane") and _shown(app, "#centre")


async def test_l_at_80_columns_says_why_two_layouts_look_alike(records_dir: Path) -> None:
    """Under 128 columns "columns" and "two panes" both show the list and one pane: L
    from one to the other changed nothing on screen and said only the layout's name."""
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        said = []
        for _ in range(3):
            app.clear_notifications()
            await pilot.press("L")
            await settle(pilot)
            said += [str(n.message) for n in app._notifications]  # type: ignore[attr-defined]
        assert said == [
            "Layout: stacked",
            "Layout: two panes (under 128 columns, columns and two panes look alike)",
            "Layout: columns (under 128 columns, columns and two panes look alike)",
        ]


async def test_help_scrolls_from_the_keyboard(records_dir: Path) -> None:
    from intentus_tui.tui.screens.help import HelpScreen

    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        scroll = app.screen.query_one("#help-scroll")
        assert scroll.max_scroll_y > 0 and scroll.scroll_y == 0  # more than a screen of it
        body = app.screen.query_one("#help-body")
        width = body.content_region.width
        lines = str(body.render()).splitlines()  # bindings, then the marks (prose: wraps)
        bindings = [line for line in lines if line.startswith("  ") and line[2] != " "]
        assert len(bindings) > 40
        # at 80 columns a binding, its description and its id stay on one line
        assert all(cell_len(line.rstrip()) <= width for line in bindings), width
        await pilot.press("pagedown")
        await settle(pilot)
        paged = scroll.scroll_y
        assert paged > 0
        await pilot.press("j", "j")
        await settle(pilot)
        assert scroll.scroll_y == paged + 2
        await pilot.press("k")
        await settle(pilot)
        assert scroll.scroll_y == paged + 1
        await pilot.press("G")  # the last line, as in the list
        await settle(pilot)
        assert scroll.scroll_y == scroll.max_scroll_y
        await pilot.press("g")
        await settle(pilot)
        assert scroll.scroll_y == 0
        for _ in range(6):  # typed fast, before a frame: a line each (20 j moved 5 lines)
            app.post_message(events.Key("j", "j"))
        await settle(pilot)
        assert scroll.scroll_y == 6
        # a mark longer than its column keeps a space before its meaning
        assert not any("⋯unchanged" in line for line in lines)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, HelpScreen)


async def test_help_marks_that_wrap_go_on_under_their_meaning_at_80_columns(
    records_dir: Path,
) -> None:
    """A mark's meaning too long for its line goes on under the meaning, not at column 0."""
    from intentus_tui.tui.screens.help import HelpScreen

    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        seen: list[str] = []
        page = screen_lines(app)
        for _ in range(40):  # page down until the end (the page no longer changes)
            seen.extend(page)
            await pilot.press("pagedown")
            await settle(pilot)
            page, last = screen_lines(app), page
            if page == last:
                break
    wrapped = {  # a mark, the start of its meaning, and of the meaning's second line
        "aaaaaaaa.json": ("its id is in more than one file", "its file is not named"),
        "+1.234s": ("time since the execution started", "clock, UTC)"),
        "✗ untrust.": ("the evidence fails its check", "first"),
    }
    for mark, (meaning, goes_on) in wrapped.items():
        at = next(n for n, line in enumerate(seen) if mark in line and meaning in line)
        column = seen[at].index(meaning)
        after = seen[at + 1]
        assert after[column:].startswith(goes_on), (seen[at], after)
        assert after[column - 20 : column].strip() == "", (seen[at], after)


async def test_l_cycles_the_layouts_and_the_choice_is_remembered(records_dir: Path) -> None:
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        listing, centre, side = (
            app.query_one(s).region for s in ("#list-pane", "#centre", "#side-pane")
        )
        assert listing.y == centre.y == side.y  # columns: side by side
        await pilot.press("L")  # stacked: the list across the top, the others below it
        await settle(pilot)
        listing, centre, side = (
            app.query_one(s).region for s in ("#list-pane", "#centre", "#side-pane")
        )
        assert listing.width == 200 and centre.y == side.y > listing.bottom - 1
        assert centre.width > 0 and side.width > 0
        await pilot.press("L")  # two panes: the list and the timeline, the side pane on demand
        await settle(pilot)
        assert (
            _shown(app, "#list-pane") and _shown(app, "#centre") and not _shown(app, "#side-pane")
        )
        await pilot.press("2")
        await settle(pilot)
        assert _shown(app, "#side-pane") and not _shown(app, "#centre")
        seen = []
        for _ in range(3):  # one round: every layout once, back where it was
            await pilot.press("L")
            await settle(pilot)
            seen.append(app.pane_layout)
        assert seen == ["columns", "stacked", "two panes"]

    again = make_app(records_dir)
    async with again.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        assert again.pane_layout == "two panes"
        assert not _shown(again, "#side-pane")


async def test_stacked_at_80x24_keeps_every_pane_inside_the_screen(records_dir: Path) -> None:
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("L")
        await settle(pilot)
        assert app.pane_layout == "stacked"
        assert _inside(app, "#list-pane", 80) and _inside(app, "#centre", 80)
        assert app.query_one("#centre").region.bottom <= 23  # above the footer
        await pilot.press("enter")
        await settle(pilot)
        assert app.timeline.lines.region.height >= 3  # events, not only the summary


async def test_stacked_on_a_short_wide_screen_and_its_maximised_panes(records_dir: Path) -> None:
    """Stacked at 200x30: the list across the top, the timeline and the side pane side by
    side below it, no event detail (too few rows); z gives the focused pane everything."""
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=(200, 30)) as pilot:
        await settle(pilot)
        await pilot.press("L")
        await settle(pilot)
        listing, centre, side = (
            app.query_one(f"#{i}").region for i in ("list-pane", "centre", "side-pane")
        )
        assert listing.width == 200 and centre.y == side.y > listing.bottom - 1
        assert centre.right <= side.x and side.right == 200
        assert not _shown(app, "#event-detail")
        await pilot.press("z")
        await settle(pilot)
        assert app.query_one("#list-pane").region.height > listing.height
        assert not _shown(app, "#centre") and not _shown(app, "#side-pane")
        await pilot.press("z", "L")  # two panes: the side pane only in the timeline's place
        await settle(pilot)
        assert app.pane_layout == "two panes"
        assert _shown(app, "#centre") and not _shown(app, "#side-pane")
        assert _shown(app, "#event-detail")
        await pilot.press("w")
        await settle(pilot)
        assert _shown(app, "#side-pane") and not _shown(app, "#centre")
        assert app.query_one("#side-pane").region.right == 200


async def test_the_help_says_enter_compares_in_the_picker(records_dir: Path) -> None:
    """Enter, the picker's one key to compare, is the input's own: the help lists it."""
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        sections = dict(app.help_sections())
    picker = [(b.key, b.description) for b in sections["Compare picker (D)"]]
    assert ("enter", "Compare with the highlighted line (or the typed path)") in picker
