"""Snapshots of broadcast and parallel runs written by the real intentusnet 1.3.0, drawn as
fan-outs, at 120 and 80 columns (the drawing must fit both).

Deterministic: the records' ids and timestamps come from a counter (``fixed=True``), the
records sit under a relative path in a temp cwd, and there is no watcher or user cache.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.intentusnet_strategies import StrategyWorld, build_strategy_world
from tests.tui.app_support import make_app, settle

RECORDS = Path(".intentusnet/records")


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> StrategyWorld:
    monkeypatch.chdir(tmp_path)
    return build_strategy_world(Path("."), fixed=True)


def _open(execution_id: str, *keys: str) -> Any:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        assert pilot.app.execution_list.select_key(f"{execution_id}.json")  # type: ignore[attr-defined]
        await pilot.press("enter")
        await settle(pilot)
        for key in keys:
            await pilot.press(key)
        await settle(pilot)

    return run_before


def test_snapshot_broadcast_fan_out_at_120_columns(snap_compare: Any, world: StrategyWorld) -> None:
    # "a" twice: the cursor on the second branch's start
    run_before = _open(world.broadcast, "a", "a")
    assert snap_compare(make_app(RECORDS), terminal_size=(120, 36), run_before=run_before)


def test_snapshot_parallel_fan_out_at_80_columns(snap_compare: Any, world: StrategyWorld) -> None:
    run_before = _open(world.parallel, "G")
    assert snap_compare(make_app(RECORDS), terminal_size=(80, 36), run_before=run_before)
