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
