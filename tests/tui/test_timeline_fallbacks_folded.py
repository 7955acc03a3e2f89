"""An execution with several fallbacks: in a timeline summary too short for a line each,
its fallbacks are said on one folded line (``fallbacks: a → b → c → d``), never the first
few shown and the others left out. On executions run by the real intentusnet 1.3.0 (its
record, and its write-ahead log written by its real ``WALWriter``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.app import App, ComposeResult

from intentus_tui.core.actions import load_detail
from intentus_tui.tui.presenters.timeline_summary import summary_content
from intentus_tui.tui.widgets.clamped_text import ClampedText
from intentus_tui.tui.widgets.timeline_view import show_summary
from tests.intentusnet_world import (
    FALLBACK_CHAIN,
    several_fallbacks,
    with_fallbacks_only_in_its_log,
)
from tests.tui.app_support import make_app, screen_lines, settle, wait_for_scan_and_side_pane

ONE_EACH = re.compile(r"(seq |WAL #)\d+ fallback ")  # a fallback's own line
FOLDED = "fallbacks: " + " → ".join(FALLBACK_CHAIN)


def _summary_rows(app: App[object], widget: ClampedText) -> list[str]:
    region = widget.region
    return [line[region.x : region.right].strip() for line in screen_lines(app)][
        region.y : region.bottom
    ]


@pytest.mark.parametrize("size", [(120, 40), (120, 36), (80, 24)])
async def test_the_records_fallbacks_fold_into_one_line(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """At 120x40 the summary had room for two of the three fallbacks' lines: ``seq 4`` and
    ``seq 7`` were shown, ``seq 10`` left out without a word. Now the three are one line;
    at 120x36 and 80x24, with no row to spare after the verdict's reasons, neither."""
    records, execution = several_fallbacks(tmp_path)
    app = make_app(records)
    async with app.run_test(size=size) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        assert app.execution_list.select_key(f"{execution}.json")
        await settle(pilot)
        rows = _summary_rows(app, app.timeline.query_one("#timeline-summary", ClampedText))
    text = " ".join(rows)
    assert not any(ONE_EACH.search(row) for row in rows), rows
    if size == (120, 40):
        assert f"{FOLDED} (seq 4, 7, 10)" in text, rows


class _Summary(App[None]):
    """A timeline summary alone, ``height`` rows of 64 cells."""

    def __init__(self, height: int) -> None:
        super().__init__()
        self.height = height

    def compose(self) -> ComposeResult:
        yield ClampedText("")

    def on_mount(self) -> None:
        self.query_one(ClampedText).styles.height = self.height
        self.query_one(ClampedText).styles.width = 64


async def _rows(path: Path, wal: Path, height: int) -> list[str]:
    detail = load_detail(path, wal)
    text = summary_content(detail, detail.verdict)
    app = _Summary(height)
    async with app.run_test(size=(80, 40)) as pilot:
        summary = app.query_one(ClampedText)
        show_summary(summary, text)  # as the timeline shows it
        await pilot.pause()
        return _summary_rows(app, summary)


async def test_the_logs_fallbacks_fold_into_one_line_when_short_of_rows(tmp_path: Path) -> None:
    """The write-ahead log's three fallbacks (the record stops before them) under the
    verdict's reasons: with a row for each, a line each; a row or two fewer, and the first
    one or two were shown, ``WAL #10`` left out without a word. Now, whatever the rows,
    the three lines are shown or none: one line names every agent and entry instead."""
    project, execution = with_fallbacks_only_in_its_log(tmp_path)
    path, wal = project / "records" / f"{execution}.json", project / "wal"
    whole = await _rows(path, wal, 30)
    whole = whole[: max(n for n, row in enumerate(whole) if row) + 1]
    logged = [row for row in whole if ONE_EACH.match(row)]
    assert [row.split(" fallback")[0] for row in logged] == ["WAL #4", "WAL #7", "WAL #10"]
    folded = 0
    for height in range(len(whole) - 1, len(whole) - 9, -1):
        rows = await _rows(path, wal, height)
        shown = [row for row in rows if ONE_EACH.match(row)]
        assert len(shown) in (0, 3), (height, rows)
        if f"{FOLDED}: agent_error (WAL #4, #7, #10)" in " ".join(rows):
            folded += 1
            assert not shown, rows
    assert folded  # some heights have a row for the one line, not for the three
