"""A record caught mid-write (its row "… writing") is neither untrusted nor unknown yet:
the "untrusted or unknown" view, the view of failures, "unknown" typed in the filter and
the command palette's "unknown" listed it beside the damaged records, while its row, its
group and the header's counts said "being written". Every view now agrees with its row:
only the grouped views list it (under "Being written"), and the palette finds it by
"writing", its verdict said as its row says it."""

from __future__ import annotations

from pathlib import Path

import pytest

from intentus_tui.tui.commands import ExecutionCommands
from intentus_tui.tui.presenters.list_model import VIEWS
from intentus_tui.tui.widgets import execution_list
from tests.tui.app_support import (
    make_app,
    settle,
    wait_for,
    wait_for_scan_and_side_pane,
    write_world,
)

UNTRUSTED_VIEW = next(view for view in VIEWS if view.name == "untrusted")
ATTENTION_VIEW = next(view for view in VIEWS if view.name == "attention")


async def test_a_record_being_written_is_in_no_untrusted_or_unknown_view(
    records_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(execution_list, "WRITING_SECONDS", 60.0)
    ids = write_world(records_dir)
    key = f"{ids['ok']}.json"
    app = make_app(records_dir, watch=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        listing = app.execution_list
        model = listing.model
        assert listing.select_key(key)
        await settle(pilot)
        whole = (records_dir / key).read_bytes()
        (records_dir / key).write_bytes(whole[: len(whole) // 2])  # the writer is half-way
        await wait_for(pilot, lambda: listing.is_writing(key), "the row says writing")
        damaged = f"{ids['truncated']}.json"

        model.set_view(UNTRUSTED_VIEW)
        assert model.row_of(damaged) is not None  # a damaged record: outcome unknown
        assert model.row_of(key) is None
        model.set_view(ATTENTION_VIEW)  # grouped: under its group, titled as its row
        assert model.row_of(key) is not None
        model.set_view(VIEWS[0])
        model.set_query("unknown")
        assert model.row_of(damaged) is not None and model.row_of(key) is None
        model.set_query("writing")
        assert model.row_of(key) is not None
        model.set_query("")

        provider = ExecutionCommands(app.screen)

        async def found(query: str) -> dict[str, str]:
            return {hit.text.split()[0]: str(hit.help) async for hit in provider.search(query)}

        unknown = await found("unknown")
        assert ids["truncated"] in unknown and ids["ok"] not in unknown
        writing = await found("writing")
        assert list(writing) == [ids["ok"]]
        assert "outcome   … writing" in writing[ids["ok"]]
