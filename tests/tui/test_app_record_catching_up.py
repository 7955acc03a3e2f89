"""Watching a directory where a writer appends its log's completion and dies before its
record gets the final response (real processes, real file-system events): the row is in
flight while the record may still be written, and turns unknown once the margin has
passed, with no file event to say so: the debugger reads it again by itself."""

from __future__ import annotations

import os
from pathlib import Path

from intentus_tui.core.model import Outcome
from intentus_tui.core.verdict import verdict_of
from tests.core.index.test_record_catching_up import EXECUTION_ID, age, record_then_die
from tests.factories import make_record, write_record
from tests.tui.app_support import SIZE, make_app, wait_for, wait_for_scan_and_side_pane


async def test_a_record_behind_its_log_is_in_flight_then_unknown_by_itself(
    tmp_path: Path,
) -> None:
    watched = tmp_path / "watched" / ".intentusnet"
    (watched / "wal").mkdir(parents=True)
    write_record(watched / "records", make_record())  # something to list meanwhile
    record, wal = record_then_die(tmp_path / "elsewhere" / ".intentusnet")
    app = make_app(watched, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        summaries = app.execution_list.model.summaries
        key = f"{EXECUTION_ID}.json"
        # Both arrive as they were left, the log's completion as just written.
        age(wal, 0)
        os.rename(wal, watched / "wal" / wal.name)
        os.rename(record, watched / "records" / record.name)

        def outcome() -> Outcome | None:
            summary = summaries.get(key)
            in_log = summary is not None and summary.source == "record+wal"
            return verdict_of(summary).outcome if summary is not None and in_log else None

        await wait_for(pilot, lambda: outcome() is Outcome.IN_FLIGHT, "in flight, being written")
        assert summaries[key].record_catching_up
        await wait_for(pilot, lambda: outcome() is Outcome.UNKNOWN, "unknown by itself", 15)
        assert "more than 5 s after it" in verdict_of(summaries[key]).outcome_reason
