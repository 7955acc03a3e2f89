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

from intentus_tui.tui.widgets.pane_text import LinesView, wrap_lines
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import make_app, settle
from tests.tui.untrusted_pair import write_every_kind

PANES = {"1": "#verify-pane", "2": "#replay-summary", "4": "#postmortem-pane"}


def _broken_words(view: LinesView) -> list[tuple[str, str]]:
    """The words of ``view``'s lines that fit its width but end one row and begin the
    next, as the rows are drawn, and any row wider than the view."""
    width = view.size.width
    broken = []
    for ln in view.lines:
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


@pytest.mark.parametrize("columns", [40, 42, 44, 46, 48, 50, *range(52, 81, 2)])
async def test_no_word_that_fits_the_pane_is_broken_over_two_rows(
    tmp_path: Path, real_world: RealWorld, columns: int
) -> None:
    """Every record of the real world, a tampered and an edited copy and one whose log was
    edited, in the Verify, Replay (replayed where it can be) and Post-mortem tabs at
    40-80x24 (a pane 4-44 cells wide)."""
    app = make_app(write_every_kind(tmp_path / ".intentusnet", real_world))
    async with app.run_test(size=(columns, 24)) as pilot:
        await settle(pilot)
        broken: dict[tuple[str, str], list[tuple[str, str]]] = {}
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
                if found := _broken_words(view):
                    broken[key, tab] = found
        assert not broken, (view.size.width, broken)
