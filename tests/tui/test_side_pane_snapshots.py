"""Snapshot tests of the side pane (sync tests: snap_compare runs its own event loop).

Deterministic data: fixed execution ids and timestamps, records analysed as if read from a
fixed path, a fixed terminal size, no watchers, no clocks.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from tests.tui.side_pane_harness import (
    SidePaneApp,
    detail_from,
    finish_workers,
    forced_replay,
    good_record,
    salvaged_detail,
    tampered_record,
)

SIZE = (100, 40)


def test_snapshot_verify_mismatch(snap_compare: Any) -> None:
    app = SidePaneApp(detail_from(tampered_record()), tab="verify")
    assert snap_compare(app, terminal_size=SIZE)


def test_snapshot_replay_result(snap_compare: Any) -> None:
    app = SidePaneApp(detail_from(good_record(final_status="error")), tab="replay")
    assert snap_compare(app, terminal_size=SIZE, run_before=_replay)


def _doubly_edited() -> SidePaneApp:
    record = tampered_record()
    record["finalResponse"]["payload"] = {"summary": "refund approved"}  # edited too
    return SidePaneApp(detail_from(record), tab="replay")


async def _replay(pilot: Pilot[Any]) -> None:
    await pilot.press("r")
    await finish_workers(pilot)


def test_snapshot_replay_of_an_untrusted_record_is_refused(snap_compare: Any) -> None:
    assert snap_compare(_doubly_edited(), terminal_size=SIZE, run_before=_replay)


def test_snapshot_forced_replay_of_an_untrusted_record(snap_compare: Any) -> None:
    assert snap_compare(_doubly_edited(), terminal_size=SIZE, run_before=forced_replay)


def test_snapshot_force_replay_confirmation(snap_compare: Any) -> None:
    app = SidePaneApp(salvaged_detail(), tab="replay")
    assert snap_compare(app, terminal_size=SIZE, press=["R"])


def test_snapshot_diff_of_two_records(snap_compare: Any) -> None:
    left = detail_from(good_record("exec-000A"))
    right_record = good_record(
        "exec-000B", agents=(("fb-primary", "error"), ("fb-tertiary", "ok")), final_status="error"
    )
    right_record["envelope"]["payload"] = {"text": "hello, world", "long": "y" * 300}
    right = detail_from(right_record)
    app = SidePaneApp(left, tab="verify")

    async def compare(pilot: Pilot[Any]) -> None:
        pilot.app.query_one("SidePane").show_diff(left, right)  # type: ignore[attr-defined]
        await finish_workers(pilot)
        await pilot.press("n", "n", "n")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=compare)
