"""What stays on screen when the panes change (found by a user walk on real 1.3.0 records):
``r``/``R`` pressed on the timeline show the Replay tab; the selected event stays in sight
when the pane changes size."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from intentus_tui.tui.screens.confirm import ConfirmScreen
from tests.factories import make_record, write_record
from tests.intentusnet_world import RealWorld, build_real_world
from tests.tui.app_support import event_lines, fixed_id, make_app, screen_text, settle


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


async def test_a_forced_replay_from_the_timeline_shows_its_banner(real: RealWorld) -> None:
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
    assert "REPLAYED FROM A RECORD THAT CANNOT" in shown


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
