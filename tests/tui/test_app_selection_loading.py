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
from typing import Any, NamedTuple

import pytest
from textual.pilot import Pilot

from intentus_tui.core import actions
from intentus_tui.tui.screens.compare import ComparisonScreen
from intentus_tui.tui.screens.confirm import ConfirmScreen
from tests.tui.app_support import SIZE, make_app, settle, wait_for, write_world


class Held(NamedTuple):
    """Six executions; loading a file named in ``names`` waits until ``gate`` is set."""

    ids: dict[str, str]
    names: list[str]
    gate: threading.Event

    def file(self, name: str) -> str:
        return f"{self.ids[name]}.json"


@pytest.fixture
def held(records_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Held]:
    world = Held(write_world(records_dir), [], threading.Event())
    real = actions.load_detail

    def slow(path: Path, wal_dir: Path | None, **told: Any) -> Any:
        if Path(path).name in world.names:
            assert world.gate.wait(15), "the test never let the load finish"
        return real(path, wal_dir, **told)

    monkeypatch.setattr(actions, "load_detail", slow)
    yield world
    world.gate.set()


async def _compared(pilot: Pilot[Any]) -> tuple[str, str]:
    """The execution ids of A and B once the comparison is on screen."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, ComparisonScreen), "comparison")
    screen = app.screen
    assert isinstance(screen, ComparisonScreen)
    assert screen.a.record is not None and screen.b.record is not None
    return screen.a.record["header"]["executionId"], screen.b.record["header"]["executionId"]


async def test_mark_while_loading_marks_the_execution_under_the_cursor(
    records_dir: Path, held: Held
) -> None:
    slow = held.file("fallback")
    held.names.append(slow)
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        left = app.detail
        assert left is not None and left.path.name != slow
        assert app.execution_list.select_key(slow)
        await pilot.press("m")  # the fallback execution is still loading
        await pilot.pause()
        assert app.marked is None  # not the execution the cursor left
        held.gate.set()
        await wait_for(pilot, lambda: app.marked is not None, "the mark once loaded")
        assert app.marked is not None and app.marked.path.name == slow


async def test_diff_while_loading_compares_with_the_execution_under_the_cursor(
    records_dir: Path, held: Held
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(held.file("ok"))
        await settle(pilot)
        await pilot.press("m")
        held.names.append(held.file("fallback"))
        assert app.execution_list.select_key(held.file("fallback"))
        await pilot.press("d")  # not lost while the fallback execution loads
        await pilot.pause()
        assert not isinstance(app.screen, ComparisonScreen)
        held.gate.set()
        assert await _compared(pilot) == (held.ids["ok"], held.ids["fallback"])


async def test_mark_move_and_diff_typed_fast_compare_the_rows_they_were_typed_on(
    records_dir: Path, held: Held
) -> None:
    """``m`` on a row still loading, then the cursor moves on and ``d``: the mark holds
    for the row it was pressed on (loaded on its own), and the comparison is of the two
    rows the operator meant."""
    held.names.append(held.file("fallback"))
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(held.file("fallback"))
        await pilot.press("m")
        assert app.execution_list.select_key(held.file("ok2"))
        await wait_for(pilot, lambda: app.detail_key == held.file("ok2"), "B loaded")
        await pilot.press("d")  # waits for the marked row
        await pilot.pause()
        assert app.marked is None and not isinstance(app.screen, ComparisonScreen)
        held.gate.set()
        assert await _compared(pilot) == (held.ids["fallback"], held.ids["ok2"])


async def test_a_key_for_a_row_the_cursor_left_is_dropped(records_dir: Path, held: Held) -> None:
    """Invalidate pressed while one execution loads, then the cursor moves on: nothing is
    asked about either execution (the key was for a row the operator left)."""
    held.names.append(held.file("fallback"))
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(held.file("fallback"))
        await pilot.press("I")
        assert app.execution_list.select_key(held.file("ok2"))
        held.gate.set()
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        assert app.detail is not None and app.detail.path.name == held.file("ok2")


async def test_snapshot_and_replay_while_loading_act_on_the_execution_under_the_cursor(
    records_dir: Path, held: Held
) -> None:
    """``s`` asks about the execution under the cursor once it is here, and ``r``
    replays that one: not the one the cursor left."""
    held.names.append(held.file("fallback"))
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(held.file("fallback"))
        await pilot.press("s")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen)
        held.gate.set()
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        screen = app.screen
        assert isinstance(screen, ConfirmScreen)
        assert held.ids["fallback"][:8] in screen.body_text
        await pilot.press("escape")
        held.gate.clear()
        assert app.execution_list.select_key(held.file("ok2"))
        held.names.append(held.file("ok2"))
        await pilot.press("r")
        await pilot.pause()
        held.gate.set()
        await wait_for(
            pilot,
            lambda: app.side_pane.replay_pane.outcome is not None,
            "the replay of the execution under the cursor",
        )
        replayed = app.side_pane.replay_pane.detail
        assert replayed is not None and replayed.path.name == held.file("ok2")
