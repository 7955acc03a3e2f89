"""Snapshot tests of the whole debugger (sync tests: snap_compare runs its own event loop).

Deterministic: fixed ids and timestamps, the records under a relative ``records`` path
(the test runs in a temp cwd, so no temp path is shown), a fixed directory label, a fixed
terminal size, no watcher, no user cache.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.tui.app_support import make_app, settle, write_world

SIZE = (160, 45)


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.chdir(tmp_path)
    records = Path("records")
    records.mkdir()
    return write_world(records)


def _select(key: str, *keys: str) -> Any:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        app = pilot.app
        assert app.execution_list.select_key(key)  # type: ignore[attr-defined]
        await settle(pilot)
        for k in keys:
            await pilot.press(k)
            await settle(pilot)

    return run_before


def test_snapshot_execution_list(snap_compare: Any, world: dict[str, str]) -> None:
    app = make_app(Path("records"))

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_fallback_chain_timeline(snap_compare: Any, world: dict[str, str]) -> None:
    app = make_app(Path("records"))
    run_before = _select(f"{world['fallback']}.json", "enter", "f")
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_salvaged_record(snap_compare: Any, world: dict[str, str]) -> None:
    app = make_app(Path("records"))
    run_before = _select(f"{world['truncated']}.json", "enter", "G")
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("keys", [(), ("2",)], ids=["timeline", "side-pane"])
def test_snapshot_at_80x24(snap_compare: Any, world: dict[str, str], keys: tuple[str, ...]) -> None:
    """The smallest supported screen: the list and one other pane, nothing cut off."""
    app = make_app(Path("records"))
    assert snap_compare(
        app, terminal_size=(80, 24), run_before=_select(f"{world['fallback']}.json", *keys)
    )


MAIN_SCREENS = {
    "timeline": ("fallback", ("enter", "f")),
    "replay": ("ok", ("r",)),
    "post-mortem": ("incomplete", ("4",)),
    "verify-untrusted": ("truncated", ("1",)),
    "stacked": ("fallback", ("L", "enter")),
    "help": ("ok", ("question_mark",)),
}


@pytest.mark.parametrize("size", [(120, 36), (200, 50)], ids=["120x36", "200x50"])
@pytest.mark.parametrize("screen", list(MAIN_SCREENS))
def test_snapshot_main_screens_at_each_size(
    snap_compare: Any, world: dict[str, str], screen: str, size: tuple[int, int]
) -> None:
    """The main screens at a middle and a large size: nothing cut, nothing overlapping."""
    name, keys = MAIN_SCREENS[screen]
    app = make_app(Path("records"))
    assert snap_compare(app, terminal_size=size, run_before=_select(f"{world[name]}.json", *keys))
