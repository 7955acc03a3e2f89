"""A record file removed while its execution is shown (real file-system events, demo
data): its write-ahead log is left, and every screen says the record was removed (seen,
then gone), not that none was written; the toast says where the cursor is."""

from __future__ import annotations

import shutil
from pathlib import Path

from intentus_tui.core.model import Integrity, Outcome
from intentus_tui.core.verdict import verdict_of
from intentus_tui.demo.writer import build_demo_world
from tests.tui.app_support import (
    SIZE,
    make_app,
    settle,
    timeline_summary,
    wait_for,
    wait_for_scan_and_side_pane,
)


def _flat(text: str) -> str:
    return " ".join(text.split())


async def test_a_record_removed_while_shown_is_said_removed_everywhere(tmp_path: Path) -> None:
    manifest = build_demo_world(tmp_path, count=40, seed=7)
    execution_id = manifest.first("crash_mid_attempt")  # a record and its log, in flight
    record = manifest.record_path(execution_id)
    app = make_app(manifest.root, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        listing = app.execution_list
        assert listing.select_key(record.name)
        await settle(pilot)
        await pilot.press("4")  # Post-mortem
        await settle(pilot)

        shutil.move(record, tmp_path / record.name)
        log_key = f"{execution_id}.wal"
        await wait_for(pilot, lambda: log_key in listing.model.summaries, "its log listed")
        await settle(pilot)

        # The toast says where the cursor is: still on this execution, its log alone left.
        assert listing.selected_key == log_key
        said = [str(n.message) for n in app._notifications]  # type: ignore[attr-defined]
        assert said[-1] == (
            f"{record.name} was removed: the cursor stays on {execution_id}, only its "
            "write-ahead log is left"
        ), said

        # One verdict, saying the record went missing: not a clean WAL-only execution.
        verdict = verdict_of(listing.model.summaries[log_key])
        assert verdict.outcome is Outcome.IN_FLIGHT
        assert verdict.integrity is Integrity.UNVERIFIABLE
        assert "removed (seen, then gone)" in verdict.integrity_reason
        assert "removed (seen, then gone)" in verdict.replay_reason
        assert app.detail is not None and app.detail.verdict == verdict

        postmortem = _flat(app.side_pane.postmortem_pane.text)
        assert "the record file was removed (seen, then gone)" in postmortem, postmortem
        assert "Record file removed (seen, then gone)" in postmortem
        assert "was written" not in postmortem  # neither "no record file" nor "none"
        await pilot.press("1")  # Verify
        await settle(pilot)
        verify = _flat(app.side_pane.verify_pane.text)
        assert "UNVERIFIABLE" in verify and "RECORD REMOVED" in verify, verify
        assert "was written" not in verify
        assert "removed (seen, then gone)" in _flat(timeline_summary(app))

        # Back again: its record is read once more, as it was before.
        shutil.move(tmp_path / record.name, record)
        await wait_for(pilot, lambda: record.name in listing.model.summaries, "record back")
        await settle(pilot)
        assert listing.selected_key == record.name
        assert verdict_of(listing.model.summaries[record.name]).integrity is Integrity.VERIFIED
        said = [str(n.message) for n in app._notifications]  # type: ignore[attr-defined]
        assert not any(".wal" in note for note in said), said  # its log was never removed
