"""The Verify, Replay and Post-mortem tabs' text in a narrow side pane keeps its words
whole: at 44x24 (a pane 8 cells wide) a row's two-space indent pushed a word that fits the
pane over its edge, "contradi" over "cts", "Outcom" over "e", "investigat" over "e"; at
66x24 (30 cells) a word too wide for the room beside its label was broken there,
"(manually_invalidat" over "ed)". Now a word that fits the pane's width is never broken
over two rows (one wider than the pane is cut with "." or broken, as before; an execution
id may break after a hyphen)."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest
from rich.cells import cell_len

from intentus_tui.tui.widgets.pane_text import Line, LinesView, wrap_lines
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import make_app, screen_lines, settle
from tests.tui.untrusted_pair import write_every_kind

PANES = {"1": "#verify-pane", "2": "#replay-summary", "4": "#postmortem-pane"}


def _broken_words(lines: list[Line], width: int) -> list[tuple[str, str]]:
    """The words of ``lines`` that fit ``width`` but end one row and begin the next, as a
    view that wide draws them (``wrap_lines``), and any row wider than ``width``."""
    broken = []
    for ln in lines:
        words = {word for word in ln.plain.split() if cell_len(word) <= width}
        drawn = wrap_lines([ln], width)
        # A row wider than the pane is broken again where it is drawn.
        broken += [(row.plain, "(too wide)") for row in drawn if row.cell_length > width]
        rows = [row.plain.split() for row in drawn]
        broken += [
            (above[-1], below[0])
            for above, below in pairwise(rows)
            if above and below and above[-1] + below[0] in words and not _id_at_hyphen(above[-1])
        ]
    return broken


def _id_at_hyphen(piece: str) -> bool:
    """An execution id broken after one of its hyphens, as ``_wrap_body`` breaks it."""
    return piece.endswith("-") and re.fullmatch(r'"?[0-9a-z-]+', piece) is not None


# The narrowest side pane (a 40-column screen) to an 80-column screen's.
PANE_WIDTHS = range(4, 45)


@pytest.mark.parametrize("columns", [44, 80])
async def test_no_word_that_fits_the_pane_is_broken_over_two_rows(
    tmp_path: Path, real_world: RealWorld, columns: int
) -> None:
    """Every record of the real world, a tampered and an edited copy and one whose log was
    edited, in the Verify, Replay (replayed where it can be) and Post-mortem tabs of the
    debugger at ``columns``x24: each tab draws its lines as ``wrap_lines`` wraps them for
    its width, and those lines keep their words whole at every width of a side pane at
    40-80x24 (4-44 cells), one by one (the lines do not depend on the width)."""
    app = make_app(write_every_kind(tmp_path / ".intentusnet", real_world))
    shown: dict[tuple[str, str], list[Line]] = {}
    async with app.run_test(size=(columns, 24)) as pilot:
        await settle(pilot)
        for key in list(app.execution_list.model.summaries):
            assert app.execution_list.select_key(key)
            await settle(pilot)
            for tab, pane in PANES.items():
                await pilot.press(tab)
                if tab == "2":
                    await pilot.press("r")
                await settle(pilot)
                view = app.side_pane.query_one(pane)
                view = view if isinstance(view, LinesView) else view.query_one(LinesView)
                # What the screen shows of the tab is rows ``wrap_lines`` makes at its width.
                wrapped = {row.plain.rstrip() for row in wrap_lines(view.lines, view.size.width)}
                seen = view.content_region.intersection(view.parent.scrollable_content_region)
                on_screen = [
                    row[seen.x : seen.right].rstrip()
                    for row in screen_lines(app)[seen.y : seen.bottom]
                ]
                assert on_screen and set(on_screen) <= wrapped, (key, tab, on_screen)
                shown[key, tab] = view.lines
    assert len(shown) == 3 * len(app.execution_list.model.summaries) >= 3 * 7
    broken = {
        (key, tab, width): found
        for (key, tab), lines in shown.items()
        for width in PANE_WIDTHS
        if (found := _broken_words(lines, width))
    }
    assert not broken, broken
