"""Keys that act on the selected execution, pressed while a filter lists none (so none is
selected): each says so. Found by a user test at 80x24 on the demo: ``/zzzq`` then ``r``,
``R``, ``m``, ``I`` and ``s`` did nothing and said nothing, and ``d`` with an execution
marked said "This is the marked execution: select another one", whichever was marked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.tui.app_support import make_app, settle, write_world

NARROW = (80, 24)


def _notes(app: Any) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def _filter_out_everything(pilot: Any) -> None:
    await pilot.press("slash", "z", "z", "z", "q", "enter")
    await settle(pilot)


@pytest.mark.parametrize(
    ("key", "said"),
    [
        ("r", "Nothing to replay: no execution is selected"),
        ("R", "Nothing to force replay: no execution is selected"),
        ("m", "Nothing to mark for a diff: no execution is selected"),
        ("I", "Nothing to invalidate: no execution is selected"),
        ("s", "Nothing to save a snapshot of: no execution is selected"),
    ],
)
async def test_a_key_with_no_execution_listed_says_none_is_selected(
    records_dir: Path, key: str, said: str
) -> None:
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        await _filter_out_everything(pilot)
        assert app.execution_list.selected_key is None
        before = len(_notes(app))
        await pilot.press(key)
        await settle(pilot)
        assert _notes(app)[before:] == [said]
        assert app.screen is app.screen_stack[0]  # no dialog about the execution shown before
        assert app.marked is None


@pytest.mark.parametrize("mark", ["ok", "fallback"])
async def test_d_with_no_execution_listed_says_none_is_selected(
    records_dir: Path, mark: str
) -> None:
    """The execution shown last marked (``ok``), or another (``fallback``): both said "This
    is the marked execution", though none is selected."""
    ids = write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(f"{ids[mark]}.json")
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot)
        assert app.execution_list.select_key(f"{ids['ok']}.json")
        await settle(pilot)
        await _filter_out_everything(pilot)
        before = len(_notes(app))
        await pilot.press("d")
        await settle(pilot)
        assert _notes(app)[before:] == [
            "Nothing to compare with the marked execution: no execution is selected"
        ]
        assert not app.diff_shown
        assert app.screen is app.screen_stack[0]
