"""What stays on screen when the panes change (found by a user walk on real 1.3.0 records):
``r``/``R`` pressed on the timeline show the Replay tab."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from intentus_tui.tui.screens.confirm import ConfirmScreen
from tests.intentusnet_world import RealWorld, build_real_world
from tests.tui.app_support import make_app, screen_text, settle


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
