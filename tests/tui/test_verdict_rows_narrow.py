"""A verdict's answers and their reasons break only between whole parts in a narrow side
pane, with no "·" or "—" left at a row's end or start: at 60 columns the Post-mortem tab
read "chain broken ·" over "✗ no (untrusted)", and the Verify tab "Replay   ✗ no" over
"(untrusted) — the"."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from textual.pilot import Pilot

from intentus_tui.tui.widgets.pane_text import LinesView, wrap_lines
from tests.core.wal.support import RECORD_WITH_EDITED_LOG, write_record_with_edited_log
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import make_app, screen_text, settle, write_world

HANGING = re.compile(r"[·—]$|^[·—]")


@pytest.fixture
def edited(tmp_path: Path) -> Path:
    """``.intentusnet/records``: a few executions and one whose WAL was edited (its
    verdict: untrusted, chain broken, ✗ no (untrusted))."""
    base = tmp_path / ".intentusnet"
    write_world(base / "records")
    write_record_with_edited_log(base)
    return base / "records"


@asynccontextmanager
async def _the_edited_record(edited: Path, columns: int) -> AsyncIterator[Pilot[None]]:
    """The debugger at ``columns``x24, the record whose log was edited selected."""
    app = make_app(edited)
    async with app.run_test(size=(columns, 24)) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(f"{RECORD_WITH_EDITED_LOG}.json")
        await settle(pilot)
        yield pilot  # type: ignore[misc]


def _rows(app: object, tab: str) -> list[str]:
    """The tab's first section (the verdict, its answers and their reasons) as its rows
    are drawn, at the width it is drawn in."""
    pane = {"1": "#verify-pane", "4": "#postmortem-pane"}[tab]
    view = app.side_pane.query_one(pane).query_one(LinesView)  # type: ignore[attr-defined]
    rows = [row.plain.strip() for row in wrap_lines(view.lines, view.size.width)]
    return rows[: rows.index("")] if "" in rows else rows


@pytest.mark.parametrize("columns", [44, 50, 56, 60, 66, 80])
async def test_a_verdict_breaks_between_whole_answers(edited: Path, columns: int) -> None:
    async with _the_edited_record(edited, columns) as pilot:
        app = pilot.app
        for tab in ("1", "4"):
            await pilot.press(tab)
            await settle(pilot)
            rows = _rows(app, tab)
            assert not [row for row in rows if HANGING.search(row)], rows
            if columns >= 56:  # room for the answer on a row
                assert any("✗ no (untrusted)" in row for row in rows), rows
                assert not [row for row in rows if row.startswith("(untrusted)")], rows


async def test_the_post_mortem_verdict_at_60_columns(edited: Path) -> None:
    async with _the_edited_record(edited, 60) as pilot:
        app = pilot.app
        await pilot.press("4")
        await settle(pilot)
        assert _rows(app, "4")[:3] == ["Verdict   ⚠ UNTRUSTED", "chain broken", "✗ no (untrusted)"]
        await pilot.press("1")
        await settle(pilot)
        rows = _rows(app, "1")
        replay = rows.index("Replay")  # the answer under its label, whole, then its reason
        assert rows[replay + 1].startswith("✗ no (untrusted) — the"), rows


async def test_the_replay_tab_of_an_untrusted_record_settles_at_70_columns(edited: Path) -> None:
    """At 70x24 the Replay tab's summary took 28 rows beside its labels, 35 cells wide, and
    so a scrollbar; two cells narrower (the scrollbar's) its labelled rows wrapped from the
    left edge instead (too little room beside their labels), 17 rows that needed none; and
    without it, 28 again: the scrollbar came and went for ever, the debugger redrawing
    (half a core busy) and never idle. The scrollbar's gutter is kept for it now."""
    async with _the_edited_record(edited, 70) as pilot:
        app = pilot.app
        await pilot.press("2")
        await settle(pilot)  # raised: it did not settle (waiting for a layout)
        assert "Replayable" in screen_text(app)


async def test_the_post_mortem_tab_settles_at_70_columns(real_world: RealWorld) -> None:
    """The real record marked not replayable, its Post-mortem tab at 70x44: 38 rows beside
    their labels needed a scrollbar; two cells narrower its labelled rows wrapped from the
    left edge in 37, which did not: the scrollbar came and went for ever, the debugger
    never idle (as the Replay tab at 70x24). The Verify and Post-mortem tabs keep the
    scrollbar's gutter now. Heights about it are tried: the rows hang on the words."""
    app = make_app(real_world.records_dir)
    async with app.run_test(size=(70, 40)) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(f"{real_world.invalidated}.json")
        await pilot.press("4")
        for height in range(40, 49):
            await pilot.resize_terminal(70, height)
            await settle(pilot)  # raised: it did not settle (waiting for a layout)
        assert "Verdict" in screen_text(app)
