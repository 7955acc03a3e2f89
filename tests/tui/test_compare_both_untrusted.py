"""Both sides untrusted for different reasons, compared full screen at 80x24: the warning
was cut after four rows ("…"), B's reason partly lost, and took rows from the values. It
now takes two rows there, each side's reason begun and ``w`` said for the whole; ``w``
gives the whole (the timeline's rows lent to it), ``w`` again the short form."""

from __future__ import annotations

from pathlib import Path

from intentus_tui.tui.screens.compare import ComparisonScreen
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import flat, screen_lines, settle
from tests.tui.untrusted_pair import EDITED_WHY, ENVELOPE_WHY, comparing_the_pair


async def test_both_reasons_begun_in_two_rows_and_whole_on_w(
    tmp_path: Path, real_world: RealWorld
) -> None:
    async with comparing_the_pair(tmp_path, real_world, (80, 24)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        lines = screen_lines(app)
        shown = flat(lines)
        assert "A and B are untrusted (tampered)" in shown
        assert "A: the envelope does not hash" in shown
        assert "B: the record contradicts itself: finalResponse" in shown
        assert "w: in full" in shown
        warning_rows = [i for i, line in enumerate(lines) if "untrusted (tampered)" in line]
        assert warning_rows and "w: in full" in lines[warning_rows[0] + 1]  # two rows
        values_before = screen.values.size.height
        assert values_before >= 7  # a header and six lines of values (five before)
        await pilot.press("w")
        await settle(pilot)
        whole = flat(screen_lines(app))
        assert ENVELOPE_WHY in whole and EDITED_WHY in whole
        assert "edited after recording?) · w: shorter" in whole
        assert screen.values.size.height >= values_before  # the timeline's rows lent
        await pilot.press("w")
        await settle(pilot)
        assert "w: in full" in flat(screen_lines(app))
        assert "#1 INTENT_RECEIVED" in flat(screen_lines(app))  # the timeline back


async def test_a_tall_screen_gives_the_warning_whole(tmp_path: Path, real_world: RealWorld) -> None:
    async with comparing_the_pair(tmp_path, real_world, (120, 36)) as (app, _):
        shown = flat(screen_lines(app))
        assert ENVELOPE_WHY in shown and EDITED_WHY in shown
        assert "w: in full" not in shown
