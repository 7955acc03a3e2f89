"""A damaged file that just changed (live) shows as being written, not as corrupted."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App, ComposeResult

from intentus_tui.core.index.summarize import summarize_path
from intentus_tui.tui.presenters.list_rows import state_badge
from intentus_tui.tui.widgets import execution_list
from intentus_tui.tui.widgets.execution_list import ExecutionList
from tests.factories import make_record, write_record
from tests.tui.app_support import wait_for


class ListApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ExecutionList(id="list")


async def test_half_written_file_shows_writing_until_it_settles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(execution_list, "WRITING_SECONDS", 0.3)
    path = write_record(tmp_path, make_record(execution_id="live"))
    whole = path.read_bytes()
    app = ListApp()
    async with app.run_test(size=(100, 10)) as pilot:
        listing = app.query_one(ExecutionList)
        path.write_bytes(whole[: len(whole) // 2])  # the writer is half-way
        half = summarize_path(path)
        listing.apply_changes([half], [], live=True)
        await pilot.pause()
        assert listing.is_writing("live.json")
        assert state_badge(half, listing.is_writing("live.json"))[0] == "… writing"
        path.write_bytes(whole)  # it finished: a whole record is never "writing"
        listing.apply_changes([summarize_path(path)], [], live=True)
        assert not listing.is_writing("live.json")
        path.write_bytes(whole[:10])  # damaged again, and then left alone
        listing.apply_changes([summarize_path(path)], [], live=True)
        assert listing.is_writing("live.json")
        # still damaged once WRITING_SECONDS have passed: corrupted, no longer "writing"
        await wait_for(pilot, lambda: not listing.is_writing("live.json"), "the writing timer")


async def test_a_damaged_file_from_the_initial_scan_is_not_writing(tmp_path: Path) -> None:
    path = write_record(tmp_path, make_record(execution_id="old"))
    path.write_bytes(path.read_bytes()[:50])
    summary = summarize_path(path)
    assert state_badge(summary)[0] == "? unknown"  # damaged: nothing says what happened
    async with ListApp().run_test(size=(100, 10)) as pilot:
        listing = pilot.app.query_one(ExecutionList)
        listing.apply_changes([summary], [])  # the initial scan: not live
        assert not listing.is_writing("old.json")
