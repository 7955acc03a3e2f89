"""Keys pressed while the execution under the cursor is still loading.

Moving the cursor loads the execution under it in a thread (a big record takes a while);
until it is here, the app still holds the one the cursor left. A key that acts on "the
selected execution" must act on the one under the cursor once it is loaded: never on the
one just left (marking, comparing, replaying or invalidating the wrong execution), and
never be lost.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core import actions
from intentus_tui.tui.screens.compare import ComparisonScreen
from intentus_tui.tui.screens.confirm import ConfirmScreen
from tests.tui.app_support import SIZE, make_app, settle, wait_for, write_world


@pytest.fixture
def slow_file(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[list[str], threading.Event]]:
    """Loading the files named in the list waits until the event is set."""
    names: list[str] = []
    gate = threading.Event()
    real = actions.load_detail

    def slow(path: Path, wal_dir: Path | None) -> Any:
        if Path(path).name in names:
            assert gate.wait(15), "the test never let the load finish"
        return real(path, wal_dir)

    monkeypatch.setattr(actions, "load_detail", slow)
    yield names, gate
    gate.set()


async def test_mark_while_loading_marks_the_execution_under_the_cursor(
    records_dir: Path, slow_file: tuple[list[str], threading.Event]
) -> None:
    ids = write_world(records_dir)
    names, gate = slow_file
    slow = f"{ids['fallback']}.json"
    names.append(slow)
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        left = app.detail
        assert left is not None and left.path.name != slow
        assert app.execution_list.select_key(slow)
        await pilot.press("m")  # the fallback execution is still loading
        await pilot.pause()
        assert app.marked is None  # not the execution the cursor left
        gate.set()
        await wait_for(pilot, lambda: app.marked is not None, "the mark once loaded")
        assert app.marked is not None and app.marked.path.name == slow


async def test_diff_while_loading_compares_with_the_execution_under_the_cursor(
    records_dir: Path, slow_file: tuple[list[str], threading.Event]
) -> None:
    ids = write_world(records_dir)
    names, gate = slow_file
    slow = f"{ids['fallback']}.json"
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(f"{ids['ok']}.json")
        await settle(pilot)
        await pilot.press("m")
        names.append(slow)
        assert app.execution_list.select_key(slow)
        await pilot.press("d")  # not lost while the fallback execution loads
        await pilot.pause()
        assert not isinstance(app.screen, ComparisonScreen)
        gate.set()
        await wait_for(pilot, lambda: isinstance(app.screen, ComparisonScreen), "comparison")
        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        assert screen.a.record is not None and screen.b.record is not None
        assert screen.a.record["header"]["executionId"] == ids["ok"]
        assert screen.b.record["header"]["executionId"] == ids["fallback"]


async def test_mark_move_and_diff_typed_fast_compare_the_rows_they_were_typed_on(
    records_dir: Path, slow_file: tuple[list[str], threading.Event]
) -> None:
    """``m`` on a row still loading, then the cursor moves on and ``d``: the mark holds
    for the row it was pressed on (loaded on its own), and the comparison is of the two
    rows the operator meant."""
    ids = write_world(records_dir)
    names, gate = slow_file
    slow = f"{ids['fallback']}.json"
    names.append(slow)
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(slow)
        await pilot.press("m")
        assert app.execution_list.select_key(f"{ids['ok2']}.json")
        await wait_for(pilot, lambda: app.detail_key == f"{ids['ok2']}.json", "B loaded")
        await pilot.press("d")  # waits for the marked row
        await pilot.pause()
        assert app.marked is None and not isinstance(app.screen, ComparisonScreen)
        gate.set()
        await wait_for(pilot, lambda: isinstance(app.screen, ComparisonScreen), "comparison")
        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        assert screen.a.record is not None and screen.b.record is not None
        assert screen.a.record["header"]["executionId"] == ids["fallback"]
        assert screen.b.record["header"]["executionId"] == ids["ok2"]


async def test_a_key_for_a_row_the_cursor_left_is_dropped(
    records_dir: Path, slow_file: tuple[list[str], threading.Event]
) -> None:
    """Invalidate pressed while one execution loads, then the cursor moves on: nothing is
    asked about either execution (the key was for a row the operator left)."""
    ids = write_world(records_dir)
    names, gate = slow_file
    slow = f"{ids['fallback']}.json"
    names.append(slow)
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(slow)
        await pilot.press("I")
        assert app.execution_list.select_key(f"{ids['ok2']}.json")
        gate.set()
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        assert app.detail is not None and app.detail.path.name == f"{ids['ok2']}.json"
