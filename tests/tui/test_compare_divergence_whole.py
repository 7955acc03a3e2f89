"""The full-screen comparison says the first divergence whole at 80x24, as ``diff`` says it.

A record cut short against a whole one of the same intent: the status line read ``… first
divergence: events[1] (seq 2 / 2): same type…``, and the rest (``AGENT_ATTEMPT_START,
payload differs (1 changed value)``) was nowhere on the screen: what diverged was cut."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from intentus_tui.cli import run as run_cli
from intentus_tui.tui.screens.compare import ComparisonScreen
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import make_app, mark_and_compare, screen_lines, settle


def _cli_divergence(records: Path, ids: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    run_cli(["diff", str(records / f"{ids[0]}.json"), str(records / f"{ids[1]}.json")])
    lines = capsys.readouterr().out.splitlines()
    return next(line for line in lines if line.startswith("first divergence: "))


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
    expected = _cli_divergence(records, ids, capsys)
    assert "payload differs" in expected  # the words that were cut
    app = make_app(records)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, f"{ids[0]}.json", f"{ids[1]}.json")
        await settle(pilot)
        assert isinstance(app.screen, ComparisonScreen)
        shown = " ".join(" ".join(line.split()) for line in screen_lines(app))
        assert expected in shown, shown
        # The values keep room to be read.
        assert app.screen.values.region.height >= 5
