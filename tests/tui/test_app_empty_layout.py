"""Opened on an ``.intentusnet`` the runtime has made but not yet written its records in
(``intentus-tui .intentusnet`` before the agent's first run): the records directory it
then makes is opened, as for a project directory opened that early."""

from __future__ import annotations

import time
from pathlib import Path

from tests.factories import make_record, write_record
from tests.tui.app_support import SIZE, created, fixed_id, make_app, settle, wait_for


async def test_an_empty_layout_reopens_on_the_records_when_they_appear(tmp_path: Path) -> None:
    # It said "New records will appear as they are written" and none ever did: it
    # watched .intentusnet itself, where IntentusNet writes no record.
    layout = tmp_path / "project" / ".intentusnet"
    layout.mkdir(parents=True)
    app = make_app(layout, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.scan_done, "the empty directory read")
        await settle(pilot)
        assert "here or in records" in app.execution_list.empty_message
        records = layout / "records"
        records.mkdir()
        write_record(records, make_record(execution_id=fixed_id(5), created=created(5)))
        deadline = time.monotonic() + 10  # only stops a hang
        while app.reopen is None and time.monotonic() < deadline:
            await pilot.pause(0.05)
    assert app.reopen is not None and app.reopen.records_dir == records
    assert app.reopen.requested == layout
