from __future__ import annotations

from pathlib import Path

import pytest

from intentus_tui.tui import compare_picking, diffing
from intentus_tui.tui.live import project_watch, watcher
from tests.tui.app_support import write_world


@pytest.fixture(autouse=True)
def _quick_looks(monkeypatch: pytest.MonkeyPatch) -> None:
    """How often the debugger looks again at what a watch cannot tell it (its directory
    removed or made again, a project or a run store still to come, a snapshot changed): a
    user's half second to two seconds, a tenth of a second here (a fifth for run stores).
    The tests check what is found, not how soon; they waited those periods out idle (the
    live tests, about 1 s each)."""
    monkeypatch.setattr(watcher, "LOOK_SECONDS", 0.1)
    monkeypatch.setattr(project_watch, "PROJECT_POLL_SECONDS", 0.1)
    monkeypatch.setattr(compare_picking, "RUNS_LOOK_SECONDS", 0.2)
    monkeypatch.setattr(diffing, "SNAPSHOT_LOOK_SECONDS", 0.1)


@pytest.fixture
def world(records_dir: Path) -> dict[str, str]:
    """Six executions covering every group, in ``records_dir`` (``write_world``): name -> id."""
    return write_world(records_dir)
