"""The full-screen comparison says the first divergence whole at 80x24, as ``diff`` says it.

A record cut short against a whole one of the same intent: the status line read ``… first
divergence: events[1] (seq 2 / 2): same type…``, and the rest (``AGENT_ATTEMPT_START,
payload differs (1 changed value)``) was nowhere on the screen: what diverged was cut."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from intentus_tui.tui.screens.compare import ComparisonScreen
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import (
    diff_line,
    flat,
    make_app,
    mark_and_compare,
    screen_lines,
    settle,
)


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_the_first_divergence_is_on_the_screen_whole(
    tmp_path: Path,
    real_world: RealWorld,
    capsys: pytest.CaptureFixture[str],
    size: tuple[int, int],
) -> None:
    records = tmp_path / "records"
    shutil.copytree(real_world.records_dir, records)
    ids = (real_world.error_truncated, real_world.success)
    expected = "first divergence: " + diff_line(records, ids, capsys, "first divergence: ")
    assert "payload differs" in expected  # the words that were cut
    app = make_app(records)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, f"{ids[0]}.json", f"{ids[1]}.json")
        await settle(pilot)
        assert isinstance(app.screen, ComparisonScreen)
        shown = flat(screen_lines(app))
        assert expected in shown, shown
        # The values keep room to be read.
        assert app.screen.values.region.height >= 5
