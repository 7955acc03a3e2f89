"""The Diff tab's answers (same intent? agents? response? recorded hash?) each stay whole
on one row: at 80 columns "response" ended a row and its "✓ same" began the next, at 120
"recorded" / "hash ✓ same"; a reader took the parts for two answers, or none."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.intentusnet_world import RealWorld, with_a_copy
from tests.tui.app_support import make_app, mark_and_compare, screen_lines, settle


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_each_answer_of_a_comparison_is_on_one_row(
    tmp_path: Path, real_world: RealWorld, size: tuple[int, int]
) -> None:
    records = tmp_path / ".intentusnet" / "records"
    copy = with_a_copy(real_world, records)
    app = make_app(records)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, copy, f"{real_world.success}.json")
        while len(app.screen_stack) > 1:  # a narrow screen opens it full screen: back
            await pilot.press("escape")
            await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        lines = screen_lines(app)
        for answer in ("intent ✓ same", "agents ✓ same", "response ✓ same"):
            assert any(answer in line for line in lines), (answer, "\n".join(lines))
        assert any("recorded hash ✓ same" in line for line in lines), "\n".join(lines)


async def test_at_80x24_the_diff_tabs_differences_are_reached_with_n(
    tmp_path: Path, real_world: RealWorld
) -> None:
    """Two executions whose comparison says much above its list (a truncated error record
    beside an edited copy of a success: titles, verdicts, a warning, the answers, the first
    divergence): at 80x24 that text filled the tab, and the differences under it could not
    be shown at all (``n`` moved a cursor no one saw; ``tab`` and ``G`` scrolled nothing).
    ``n`` brings the list and the difference it is at into view."""
    import json
    import shutil

    records = tmp_path / ".intentusnet" / "records"
    shutil.copytree(real_world.records_dir, records)
    edited = json.loads((records / f"{real_world.success}.json").read_text())
    edited["finalResponse"]["payload"] = {"by": "attacker"}
    (records / "edited.json").write_text(json.dumps(edited, indent=2))
    app = make_app(records)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, f"{real_world.error_truncated}.json", "edited.json")
        while len(app.screen_stack) > 1:  # a narrow screen opens it full screen: back
            await pilot.press("escape")
            await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        above = "\n".join(screen_lines(app))  # the text above the list: the warning first
        assert (
            "is untrusted" in above and f"at 1/{len(app.side_pane.diff_pane.entries)}" not in above
        )
        await pilot.press("n")
        await settle(pilot)
        shown = "\n".join(screen_lines(app))
        pane = app.side_pane.diff_pane
        entry = pane.view.current_entry
        assert entry is not None and pane.view.cursor == 1, pane.view.cursor
        total = len(pane.entries)
        assert f"at 2/{total}" in shown, shown  # the status beside the list
        assert f"at {pane.view.path_at(1)}" in shown, shown  # the difference, below it
