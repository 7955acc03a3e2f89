"""Snapshots of the timeline's times: the time column, durations, the waterfall and an
in-flight attempt's open time, at 80x24, 120x36 and 200x50.

Deterministic: the executions are written from a fixed clock under a relative path in a
temp cwd, "now" is fixed, no watcher, no user cache.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from intentus_tui.core.paths import RecordRoot
from intentus_tui.tui.widgets.timeline_view import TimelineView
from tests.tui.app_support import settle
from tests.tui.time_world import CRASHED, NOW, TIMED, time_app, write_time_world


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> RecordRoot:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(TimelineView, "clock", staticmethod(lambda: NOW))
    return write_time_world(Path("."))


def _open(execution_id: str, *keys: str) -> Any:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        assert pilot.app.execution_list.select_key(f"{execution_id}.json")  # type: ignore[attr-defined]
        await settle(pilot)
        for key in keys:
            await pilot.press(key)
        await settle(pilot)

    return run_before


def test_snapshot_times_at_80x24(snap_compare: Any, root: RecordRoot) -> None:
    run_before = _open(TIMED, "enter", "z", "a", "a")  # the timeline maximised
    assert snap_compare(time_app(root), terminal_size=(80, 24), run_before=run_before)


def test_snapshot_waterfall_maximised_at_120x36(snap_compare: Any, root: RecordRoot) -> None:
    run_before = _open(TIMED, "enter", "z")
    assert snap_compare(time_app(root), terminal_size=(120, 36), run_before=run_before)


def test_snapshot_times_at_200x50(snap_compare: Any, root: RecordRoot) -> None:
    run_before = _open(TIMED, "enter", "a", "a")
    assert snap_compare(time_app(root), terminal_size=(200, 50), run_before=run_before)


def test_snapshot_in_flight_open_time_at_120x36(snap_compare: Any, root: RecordRoot) -> None:
    run_before = _open(CRASHED, "enter", "t")  # the wall clock
    assert snap_compare(time_app(root), terminal_size=(120, 36), run_before=run_before)
