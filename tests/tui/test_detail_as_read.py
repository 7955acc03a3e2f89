"""A detail is shown under the verdict of its own read: its timeline never contradicts
its chain, and the list row follows when that read is the newer one (a live file that
changed after it was listed)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from tests.factories import make_record, write_record
from tests.tui.app_support import SIZE, created, fixed_id, list_lines, make_app, settle
from tests.tui.app_support import timeline_summary as summary_text


async def test_a_file_that_changed_since_it_was_listed_shows_one_verdict_everywhere(
    records_dir: Path,
) -> None:
    running, other = fixed_id(1), fixed_id(2)
    write_record(records_dir, make_record(execution_id=running, final_status=None))
    write_record(records_dir, make_record(execution_id=other, created=created(2)))
    app = make_app(records_dir)  # not watching: nothing tells the list the file changed
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        listing = app.execution_list
        assert listing.select_key(f"{running}.json")
        await settle(pilot)
        assert "in flight" in summary_text(app)
        # The execution ends: its file is rewritten (a later modification time).
        path = write_record(records_dir, make_record(execution_id=running))
        later = os.stat(path).st_mtime + 5
        os.utime(path, (later, later))
        assert listing.select_key(f"{other}.json")
        await settle(pilot)
        assert listing.select_key(f"{running}.json")  # read again as it is selected
        await settle(pilot)
        assert "succeeded" in summary_text(app) and "in flight" not in summary_text(app)
        row = next(line for line in list_lines(app) if running[:8] in line)
        assert "succeeded" in row, row  # the row follows the newer read
        assert listing.model.summaries[f"{running}.json"] == app.detail.summary


async def test_a_read_older_than_the_listed_summary_leaves_the_list_alone(
    records_dir: Path,
) -> None:
    """The listed summary is newer (the watcher listed a change after the detail's read
    began): the detail is shown under its own verdict, the row keeps the newer one (its
    change has asked for the detail again)."""
    ident = fixed_id(3)
    write_record(records_dir, make_record(execution_id=ident))
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        listing = app.execution_list
        key = f"{ident}.json"
        listed = listing.model.summaries[key]
        older = replace(listed, intent="Older", mtime_ns=listed.mtime_ns - 1)
        assert listing.as_read(key, older) == older
        assert listing.model.summaries[key] is listed
        newer = replace(listed, intent="Newer", mtime_ns=listed.mtime_ns + 1)
        assert listing.as_read(key, newer) == newer
        assert listing.model.summaries[key] == newer
        assert listing.as_read(key, None) == newer
