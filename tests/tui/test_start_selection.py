"""While a directory is indexed, the execution first shown stays selected until the user
moves: rows the scan lists above it push it down, they do not take its place.

A big directory's first rows are the first names the directory lists, not the newest
executions: the scan's batches sorted newer ones above them, and the cursor, left on the
top row until the user moved, took each in turn, the timeline and side pane with it.
"""

from __future__ import annotations

import os
from pathlib import Path

from intentus_tui.core.model import ExecutionSummary
from intentus_tui.tui.startup.first_rows import first_look
from tests.factories import make_record, write_record
from tests.tui.app_support import (
    SIZE,
    created,
    fixed_id,
    list_lines,
    make_app,
    settle,
    wait_for_scan_and_side_pane,
)

FILES, FIRST_ROWS = 60, 10


def oldest_listed_first(records: Path) -> None:
    """``FILES`` records, the first the directory lists being the oldest: the newest sort
    above every row a first look reads."""
    for n in range(FILES):
        write_record(records, make_record(execution_id=fixed_id(n), created=created(n)))
    with os.scandir(records) as entries:
        listed = [entry.name for entry in entries]
    for age, name in enumerate(listed):  # rewritten in place: the listing's order stays
        execution_id = name.removesuffix(".json")
        write_record(records, make_record(execution_id=execution_id, created=created(age)))


async def test_the_execution_first_shown_stays_selected_while_newer_rows_arrive(
    records_dir: Path,
) -> None:
    oldest_listed_first(records_dir)
    first = first_look(records_dir, FIRST_ROWS)
    assert len(first.rows) == FIRST_ROWS
    app = make_app(records_dir)
    selected: list[str | None] = []
    follow = app.cursor_moved

    def recording(summary: ExecutionSummary | None) -> None:
        selected.append(summary.key if summary is not None else None)
        follow(summary)

    app.cursor_moved = recording  # type: ignore[method-assign]  # the list's on_select
    app.prepare_start(first)  # as the command line does: these rows are the first frame's
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        await settle(pilot)
        listing = app.execution_list
        assert len(listing.model.summaries) == FILES
        shown = selected[0]
        assert shown in {row.key for row in first.rows}
        # rows came above it...
        top = listing.model.key_at(listing.model.nearest_item(0) or 0)
        assert top != shown
        # ...and it stayed: selected once, its timeline the one shown, its row in sight
        assert selected == [shown]
        assert listing.selected_key == shown and app.detail_key == shown
        assert any((shown or "")[:8] in line for line in list_lines(app))
        await pilot.press("g")  # the user moves: now the top
        await settle(pilot)
        assert listing.selected_key == top and app.detail_key == top
