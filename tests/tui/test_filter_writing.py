"""A record caught mid-write shows "… writing" in its row: typed in the filter, that word
finds it, and once the file has settled (damaged, its row no longer saying so) it does not."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App, ComposeResult

from intentus_tui.core.index.summarize import summarize_path
from intentus_tui.tui.widgets import execution_list
from intentus_tui.tui.widgets.execution_list import ExecutionList
from tests.factories import make_record, write_record
from tests.tui.app_support import wait_for


class ListApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ExecutionList(id="list")


async def test_writing_typed_in_the_filter_finds_the_row_being_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(execution_list, "WRITING_SECONDS", 0.3)
    whole = write_record(tmp_path, make_record(execution_id="done"))
    path = write_record(tmp_path, make_record(execution_id="live"))
    async with ListApp().run_test(size=(100, 10)) as pilot:
        listing = pilot.app.query_one(ExecutionList)
        listing.apply_changes([summarize_path(whole), summarize_path(path)], [])
        path.write_bytes(path.read_bytes()[:60])  # the writer is part-way
        listing.apply_changes([summarize_path(path)], [], live=True)
        assert listing.is_writing("live.json")
        listing.set_query("writing")
        await pilot.pause()
        model = listing.model
        await wait_for(pilot, lambda: model.row_of("live.json") is not None, "the row found")
        assert model.row_of("done.json") is None  # a whole record's row says no such thing
        # left alone, still cut short: damaged, no longer "writing", no longer found
        await wait_for(pilot, lambda: model.row_of("live.json") is None, "the row dropped")
