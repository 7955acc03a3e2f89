"""The debugger gives the reason a side is untrusted as ``intentus-tui diff`` does.

A record against a copy whose ``finalResponse`` agent was edited: ``diff`` warned ``B is
untrusted (integrity tampered): its differences come from evidence that fails its integrity
check (the record contradicts itself: finalResponse differs from the FINAL_RESPONSE event
…)``; the full screen and the Diff tab stopped at "…fails its integrity check", the reason
nowhere."""

from __future__ import annotations

import json
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

EDITED = "0f0f0f0f-edit-4e10-9904-3c4ce275832d"


def _edited_copy(records: Path, source: str) -> None:
    record = json.loads((records / f"{source}.json").read_text())
    record["header"]["executionId"] = EDITED
    record["finalResponse"]["metadata"]["agent"] = "someone-else"
    (records / f"{EDITED}.json").write_text(json.dumps(record, indent=2))


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_the_full_screen_and_the_diff_tab_say_why_as_diff_does(
    tmp_path: Path,
    real_world: RealWorld,
    capsys: pytest.CaptureFixture[str],
    size: tuple[int, int],
) -> None:
    records = tmp_path / "records"
    shutil.copytree(real_world.records_dir, records)
    _edited_copy(records, real_world.success)
    ids = (real_world.success, EDITED)
    expected = diff_line(records, ids, capsys, "warning: ")
    assert "(the record contradicts itself: finalResponse differs" in expected
    app = make_app(records)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, f"{ids[0]}.json", f"{ids[1]}.json")
        await settle(pilot)
        assert isinstance(app.screen, ComparisonScreen)
        if size == (80, 24):  # two rows for it, the values keep theirs: w gives it whole
            assert "· w: in full" in flat(screen_lines(app))
            await pilot.press("w")
            await settle(pilot)
        assert f"⚠ {expected}" in flat(screen_lines(app))
        await pilot.press("escape")
        await settle(pilot)
        assert app.side_pane.active_tab == "diff"
        title = str(app.side_pane.diff_pane.query_one("#diff-title").render())
        assert f"⚠ {expected}" in flat(title.splitlines())
