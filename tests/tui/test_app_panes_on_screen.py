"""What stays on screen when the panes change (found by a user walk on real 1.3.0 records):
``r``/``R`` pressed on the timeline show the Replay tab; the selected event stays in sight
when the pane changes size; the Diff tab's comparison, kept while the cursor moves, never
shows under the border of an execution it is not about; a comparison's keys that can do
nothing there say why, or are not offered; ``t`` says when the time column does not fit."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.tui.screens.compare import ComparisonScreen
from intentus_tui.tui.screens.confirm import ConfirmScreen
from tests.factories import make_record, write_record
from tests.intentusnet_world import RealWorld, build_real_world
from tests.tui.app_support import (
    event_lines,
    fixed_id,
    make_app,
    mark_and_compare,
    screen_text,
    settle,
)


@pytest.fixture
def real(tmp_path: Path) -> RealWorld:
    return build_real_world(tmp_path)


async def _timeline_of(app: Any, pilot: Any, execution_id: str) -> None:
    await settle(pilot)
    assert app.execution_list.select_key(f"{execution_id}.json")
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_r_on_the_timeline_shows_the_replay_tab(
    real: RealWorld, size: tuple[int, int]
) -> None:
    # Enter 4 w r: the focus, leaving the timeline, went into the Post-mortem tab on top,
    # which came back over the replay's result (a second r showed it).
    app = make_app(real.records_dir)
    async with app.run_test(size=size) as pilot:
        await _timeline_of(app, pilot, real.error_truncated)
        await pilot.press("4", "w")
        await settle(pilot)
        assert app.timeline.lines.has_focus
        await pilot.press("r")
        await settle(pilot)
        tab, shown = app.side_pane.active_tab, screen_text(app)
    assert tab == "replay"
    assert "Replay refused" in shown and "NOT REPLAYABLE" in shown


async def test_a_forced_replay_from_the_timeline_shows_what_it_returned(real: RealWorld) -> None:
    app = make_app(real.records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await _timeline_of(app, pilot, real.error_truncated)
        await pilot.press("4", "w")
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        tab, shown = app.side_pane.active_tab, screen_text(app)
    assert tab == "replay"
    assert "Nothing replayed   NO RESPONSE" in shown  # cut short before its response


@pytest.fixture
def long_chain(records_dir: Path) -> str:
    """An execution of 14 events: four attempts, the first three failing (events 3, 6, 9)."""
    agents = (("gpt", "error"), ("claude", "error"), ("local", "error"), ("extract", "ok"))
    write_record(records_dir, make_record(execution_id=fixed_id(1), agents=agents))
    return fixed_id(1)


def _event_in_sight(app: Any, seq: int) -> bool:
    return any(line[:6].strip(" ✗✓↪") == str(seq) for line in event_lines(app))


async def _at_event_9(app: Any, pilot: Any, execution_id: str) -> None:
    await _timeline_of(app, pilot, execution_id)
    await pilot.press("e", "e", "e")
    await settle(pilot)
    assert "event 9 of 14" in screen_text(app) and _event_in_sight(app, 9)


async def test_z_keeps_the_selected_event_in_sight(records_dir: Path, long_chain: str) -> None:
    # Maximised, the timeline's summary takes more lines: rows 2..5 were shown under
    # "event 9 of 14", the event itself scrolled off.
    app = make_app(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await _at_event_9(app, pilot, long_chain)
        await pilot.press("z")
        await settle(pilot)
        shown, in_sight = screen_text(app), _event_in_sight(app, 9)
    assert "event 9 of 14" in shown and in_sight


async def test_a_smaller_terminal_keeps_the_selected_event_in_sight(
    records_dir: Path, long_chain: str
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=(200, 50)) as pilot:
        await _timeline_of(app, pilot, long_chain)
        await pilot.press("G")
        await settle(pilot)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        shown, in_sight = screen_text(app), _event_in_sight(app, 14)
    assert "event 14 of 14" in shown and in_sight


async def _select(app: Any, pilot: Any, execution_id: str) -> None:
    assert app.execution_list.select_key(f"{execution_id}.json")
    await settle(pilot)


def _diff_tab(app: Any) -> str:
    return str(app.side_pane.diff_pane.query_one("#diff-title").render())


async def _compare_with_its_snapshot(app: Any, pilot: Any, execution_id: str) -> None:
    await _select(app, pilot, execution_id)
    await pilot.press("s", "y")
    await settle(pilot)
    await pilot.press("D")
    await settle(pilot)
    await pilot.press("enter")  # the snapshot just saved, listed first
    await settle(pilot)
    assert isinstance(app.screen, ComparisonScreen)


async def test_a_comparison_with_a_snapshot_is_not_shown_as_the_next_execution_s(
    real: RealWorld,
) -> None:
    # D, its snapshot, esc, the cursor to another execution: the border named the new one
    # above "A: <old id>  B: <old snapshot>".
    app = make_app(real.records_dir)
    old, new = real.error_truncated, real.success
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await _compare_with_its_snapshot(app, pilot, old)
        await pilot.press("escape")
        await settle(pilot)
        assert app.side_pane.active_tab == "diff"
        assert str(app.side_pane.border_title) == old[:8]
        assert "Kept from before" not in _diff_tab(app)
        await _select(app, pilot, new)
        border, tab, shown = str(app.side_pane.border_title), _diff_tab(app), screen_text(app)
        request = app.side_pane.diff_pane.request
        await pilot.press("1")  # another tab: the border names the selection again
        await settle(pilot)
        verify_border = str(app.side_pane.border_title)
    assert border == f"{old[:8]} vs snapshot" and f"─ {border} ─" in shown
    assert tab.startswith(f"Kept from before: not of the selected {new[:8]}\nA: {old}")
    assert request is not None and request.left_label == old  # kept, not lost
    assert verify_border == new[:8]


async def test_a_marked_pair_is_kept_and_labelled_while_the_cursor_moves(
    real: RealWorld,
) -> None:
    app = make_app(real.records_dir)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, f"{real.success}.json", f"{real.fallback}.json")
        await pilot.press("escape")  # the full-screen comparison: the Diff tab under it
        await settle(pilot)
        assert str(app.side_pane.border_title) == real.fallback[:8]
        await _select(app, pilot, real.invalidated)
        border, tab = str(app.side_pane.border_title), _diff_tab(app)
        await _select(app, pilot, real.success)  # back on one of its sides: no warning
        back_border, back_tab = str(app.side_pane.border_title), _diff_tab(app)
    assert border == f"{real.success[:8]} vs {real.fallback[:8]}"
    assert tab.startswith(f"Kept from before: not of the selected {real.invalidated[:8]}\n")
    assert f"A: {real.success}" in tab and f"B: {real.fallback}" in tab
    assert back_border == real.success[:8] and back_tab.startswith(f"A: {real.success}")


def _notes(app: Any) -> list[str]:
    return [str(note.message) for note in app._notifications]


async def test_t_and_n_in_a_comparison_with_a_snapshot_say_why_they_do_nothing(
    real: RealWorld,
) -> None:
    # Execution vs its snapshot: no timelines to switch to, and no difference.
    app = make_app(real.records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await _compare_with_its_snapshot(app, pilot, real.success)
        footer = screen_text(app).splitlines()[-1]
        await pilot.press("t")
        await settle(pilot)
        after_t = _notes(app)
        await pilot.press("n", "N")
        await settle(pilot)
        after_n = _notes(app)[len(after_t) :]
        await pilot.press("escape")
        await settle(pilot)
        assert app.side_pane.active_tab == "diff"
        await pilot.press("n")  # the Diff tab's n, on the same equal comparison
        await settle(pilot)
        in_tab = _notes(app)[len(after_t) + len(after_n) :]
    assert "Switch" not in footer and "n Next" in footer  # t is not offered
    # the snapshot's step output holds the events, which Verist's comparison leaves out
    assert after_t[-1] == (
        "No timelines to switch to: only two records are compared event by event; "
        "with a snapshot, they are left out, as Verist compares snapshots (a note says when "
        "they differ)"
    )
    assert after_n == ["No difference to step to: A and B are equal"] * 2
    assert in_tab == ["No difference to step to: A and B are equal"]


async def test_n_in_timelines_that_agree_says_so_and_where_the_differences_are(
    real: RealWorld,
) -> None:
    app = make_app(real.records_dir)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, f"{real.success}.json", f"{real.invalidated}.json")
        screen = app.screen
        assert isinstance(screen, ComparisonScreen) and screen.compared is not None
        await pilot.press("t")  # to the timelines: the same steps, by the same agent
        await settle(pilot)
        assert screen.focused is screen.timeline and not screen.timeline.differences
        await pilot.press("n")
        await settle(pilot)
        said = _notes(app)[-1]
    assert said.startswith("No changed event to step to: the timelines agree; t: the ")
    assert said.endswith(" changed values")


@pytest.mark.parametrize(
    ("size", "said"),
    [
        ((80, 24), "Times: wall clock (UTC), but the time column does not fit at this width"),
        ((160, 45), "Time column: wall clock (UTC)"),
    ],
)
async def test_t_says_when_the_time_column_does_not_fit(
    real: RealWorld, size: tuple[int, int], said: str
) -> None:
    # 1.3.0's ROUTER_DECISION carries a time: at 80x24 the column is left out, and t said
    # "wall clock (UTC)" over rows without one.
    app = make_app(real.records_dir)
    async with app.run_test(size=size) as pilot:
        await _timeline_of(app, pilot, real.error_truncated)
        await pilot.press("t")
        await settle(pilot)
        note, rows = _notes(app)[-1], event_lines(app)
    assert note.startswith(said)
    clock = re.compile(r"\d\d:\d\d:\d\d\.\d{3} ")  # the UTC time of event 4, or none
    assert any(clock.search(row) for row in rows) == (size != (80, 24))
