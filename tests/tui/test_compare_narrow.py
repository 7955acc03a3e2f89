"""Two executions compared on a narrow screen (50 or 46 columns): opening the comparison
raised ``ValueError: range() arg 3 must not be zero`` (the Diff tab's status line, in a
pane squeezed to no width, was wrapped by Rich at width 0) and the debugger stopped. Now
the comparison opens and says what it compares. No row of it ends with a "·" or "—"."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region
from textual.pilot import Pilot

from intentus_tui.core.actions import Fold
from intentus_tui.demo.writer import build_demo_world
from intentus_tui.tui.app import IntentusApp
from intentus_tui.tui.screens.compare import ComparisonScreen
from intentus_tui.tui.widgets.side_by_side_view import SideBySideView
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import flat, make_app, mark_and_compare, screen_lines, settle
from tests.tui.untrusted_pair import comparing_the_pair


@asynccontextmanager
async def _record_and_its_fallback(real_world: RealWorld, width: int) -> AsyncIterator[IntentusApp]:
    """The real success record compared with its fallback run (m, d) at ``width``x24."""
    app = make_app(real_world.records_dir)
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, f"{real_world.success}.json", f"{real_world.fallback}.json")
        await settle(pilot)
        assert isinstance(app.screen, ComparisonScreen)
        yield app


@pytest.mark.parametrize("width", [46, 50])
async def test_a_comparison_opens_on_a_narrow_screen(
    tmp_path: Path, real_world: RealWorld, width: int
) -> None:
    async with comparing_the_pair(tmp_path, real_world, (width, 24)) as (app, _):
        assert "⚠ A and B are untrusted (tampered)" in flat(screen_lines(app))


@pytest.mark.parametrize("width", [40, 50])
async def test_the_demo_comparison_keeps_no_separator_alone(tmp_path: Path, width: int) -> None:
    """The demo's first two executions compared (m, j, d, f) at 50x24: the status, measured
    at the whole width where the scrolling screen's bar takes two columns, put a lone "·"
    on a row of its own and its first divergence was cut off without "…". At 40x24 a row
    began "· first divergence": "15 hidden by ignore rules (i shows)" filled the row above,
    its "·" wrapped away from it (now the row's end parts them). The titles broke as
    "… · tampered" over "· ✗ no (untrusted)": now between their parts only."""
    manifest = build_demo_world(tmp_path)
    app = make_app(manifest.root)
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot, timeout=20)
        for key in ("m", "j", "d", "f"):
            await pilot.press(key)
            await settle(pilot)
        assert isinstance(app.screen, ComparisonScreen)
        lines = screen_lines(app)
        assert not any(line.strip() == "·" for line in lines), lines
        status = app.screen.query_one("#compare-status")
        rows = [line.strip() for line in lines[status.region.y : status.region.bottom]]
        assert rows[-1].endswith("…"), rows
        assert not any(row.startswith("·") for row in rows), rows
        sides = app.screen.query_one("#compare-sides").region
        titles = [line.strip() for line in lines[sides.y : sides.bottom]]
        assert not any(row.startswith("·") for row in titles), titles


@pytest.mark.parametrize("width", [40, 44, 50])
async def test_the_status_keeps_each_count_with_its_noun(
    tmp_path: Path, real_world: RealWorld, width: int
) -> None:
    """At 40x24 the status read "2 changed values · 0" on one row and "changed events ·
    at value 1/2 · 1" on the next, each count split from its noun; a row began with "·"
    at 50. Now it wraps between its parts only, each "·" ending the row before."""
    async with comparing_the_pair(tmp_path, real_world, (width, 24)) as (app, _):
        status = app.screen.query_one("#compare-status")
        lines = screen_lines(app)[status.region.y : status.region.bottom]
        rows = [line.strip() for line in lines]
        for count in ("2 changed values", "0 changed events", "1 hidden by ignore rules"):
            assert any(count in row for row in rows), (count, rows)
        assert not any(row.startswith("·") for row in rows), rows


@pytest.mark.parametrize("width", [40, 42])
async def test_the_current_line_keeps_at_with_its_path(real_world: RealWorld, width: int) -> None:
    """A record and its fallback run at 40x24: the line under the values read "at" alone on
    a row, "envelope.routing.fallbackAgents[0]" on the next and "added" on a third, the
    values of A and B pushed out; now the path follows "at" and breaks before its "[0]"."""
    async with _record_and_its_fallback(real_world, width) as app:
        region = app.screen.query_one("#compare-current").region
        rows = [line.strip() for line in screen_lines(app)[region.y : region.bottom]]
        assert rows[0].startswith("at envelope."), rows
        assert "added" in rows[0] + rows[1], rows


async def test_a_fold_is_shortened_by_whole_words(real_world: RealWorld) -> None:
    """A record and its fallback run at 48x24: the fold of the unchanged values read "⋯ 30
    unchanged line…", its noun cut; now "⋯ 30 unchanged lines", its closing "⋯" left out."""
    async with _record_and_its_fallback(real_world, 48) as app:
        folds = [line for line in screen_lines(app) if "unchanged" in line]
        assert folds, screen_lines(app)
        for line in folds:
            assert re.search(r"⋯ [\d,]+ unchanged lines?( ⋯)? *│", line), line


@pytest.mark.parametrize("width", [30, 34, 36])
async def test_a_fold_under_15_cells_a_side_keeps_whole_words(
    real_world: RealWorld, width: int
) -> None:
    """The same at 30-36 columns, each side 10-13 cells wide: the fold read "⋯ 30 unch…";
    now "⋯ 30 ⋯" (or "⋯ 30 unchanged" where that fits), one whole word less at a time."""
    async with _record_and_its_fallback(real_world, width) as app:
        cells = [
            cell.strip()
            for view in app.screen.query(SideBySideView)
            for index in range(view.row_count())
            if isinstance(view.rows[index], Fold)
            for cell in view.line_text(index).split("│")
        ]
        assert cells, "no fold"
        for cell in cells:
            assert re.fullmatch(r"⋯ [\d,]+( unchanged( lines?)?)?( ⋯)?", cell), cell


def _rows_in(app: IntentusApp, region: Region) -> list[str]:
    """The screen's rows cut to ``region`` (a pane, without its border or scrollbar)."""
    lines = screen_lines(app)[region.y : region.bottom]
    return [line[region.x : region.right].rstrip() for line in lines]


def _rows_ending_in_a_separator(app: IntentusApp) -> dict[str, list[str]]:
    """The full screen's rows, or the Diff tab's, that end with a "·" or "—", by where."""
    if isinstance(app.screen, ComparisonScreen):
        where, rows = "full screen", _rows_in(app, app.screen.scrollable_content_region)
    else:
        where, rows = "Diff tab", _rows_in(app, app.side_pane.diff_pane.scrollable_content_region)
    ending = [row for row in rows if row.endswith(("·", "—"))]
    return {where: ending} if ending else {}


@pytest.mark.parametrize("width", [40, 64])
async def test_no_row_of_a_comparison_ends_with_a_separator(
    tmp_path: Path, real_world: RealWorld, width: int
) -> None:
    """Two untrusted records compared, full screen and then in the Diff tab (escape), at
    40-80x24: the Diff tab read "A ⚠ untrusted · tampered ·" over "✗ no (untrusted)", the
    status "… · at value 1/2 ·" at 64-80 columns, a stacked title "A execution aaaaaaaa · ⚠
    untrusted ·" at 40-48, the warning "… untrusted (tampered) ·" at 40-46, each "·" read as
    something cut off. Now a row's end parts two answers, as in the side pane's verdicts.
    Opened at ``width``; opened at 64, each view is also seen at every other width from 80
    down to 40 columns, the terminal resized two columns at a time (each fits its rows
    again)."""
    swept: dict[tuple[int, str], list[str]] = {}
    async with comparing_the_pair(tmp_path, real_world, (width, 24)) as (app, pilot):
        full = _rows_in(app, app.screen.scrollable_content_region)
        assert "⚠ A and B are untrusted (tampered)" in flat(full), full
        assert not _rows_ending_in_a_separator(app)
        if width == 64:
            swept |= await _every_width(app, pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, ComparisonScreen)
        assert not _rows_ending_in_a_separator(app)
        if width == 64:
            swept |= await _every_width(app, pilot)
    assert not swept, swept


async def _every_width(app: IntentusApp, pilot: Pilot[Any]) -> dict[tuple[int, str], list[str]]:
    """``_rows_ending_in_a_separator`` at every other width from 80 down to 40 columns."""
    found = {}
    for width in range(80, 39, -2):
        await pilot.resize_terminal(width, 24)
        await settle(pilot)
        assert app.size.width == width
        for where, rows in _rows_ending_in_a_separator(app).items():
            found[width, where] = rows
    return found
