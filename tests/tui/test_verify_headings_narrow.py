"""The Verify tab's headings in a narrow side pane keep their words whole: at 44x24 the
pane is 8 cells wide and read "Integrit" over "y" ("Structure" broke so too, and a badge's
"UNVERIFIABLE"). Now a heading with a word too wide for the pane is shortened, as the tabs'
labels are ("Integ.", "Struct."), and a badge's word cut with "." ("UNVERIF.", as the list
abbreviates): no word of either is broken over two rows."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from intentus_tui.tui.widgets.pane_text import LinesView, wrap_lines
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import make_app, settle
from tests.tui.untrusted_pair import write_every_kind


@pytest.mark.parametrize("columns", [42, 44, 46, 48, 50])
async def test_no_word_of_a_heading_is_broken_over_two_rows(
    tmp_path: Path, real_world: RealWorld, columns: int
) -> None:
    """Every record of the real world, a tampered and an edited copy and one whose log was
    edited, in the Verify tab at 42-50x24 (a pane 6-14 cells wide)."""
    app = make_app(write_every_kind(tmp_path / ".intentusnet", real_world))
    async with app.run_test(size=(columns, 24)) as pilot:
        await settle(pilot)
        await pilot.press("1")
        seen = set()
        for key in list(app.execution_list.model.summaries):
            assert app.execution_list.select_key(key)
            await settle(pilot)
            view = app.side_pane.query_one("#verify-pane").query_one(LinesView)
            width = view.size.width
            # A heading: its name, then its badges ("Integrity  TAMPERED").
            headings = [ln for ln in view.lines if ln.prefix.plain[:1].isalpha()]
            seen |= {ln.plain.split("  ")[0] for ln in headings}
            for heading in headings:
                words = set(heading.plain.split())
                rows = [row.plain.split() for row in wrap_lines([heading], width)]
                assert all(len(word) <= width for row in rows for word in row), (width, rows)
                for above, below in pairwise(rows):
                    assert not above or not below or above[-1] + below[0] not in words, rows
        assert {"Integrity", "Structure", "Write-ahead log"} <= seen, seen
