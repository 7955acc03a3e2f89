"""A forced replay confirmed after the record changed under its dialog (the execution being
written finished, a writer rewrote the file): what was confirmed is no longer what is
shown, so nothing is replayed, and a toast says so (``y`` once did nothing, saying
nothing)."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from textual.pilot import Pilot

from intentus_tui.core.detail import ExecutionDetail
from intentus_tui.core.model import ReplayCode
from intentus_tui.tui.app import IntentusApp
from intentus_tui.tui.screens.confirm import ConfirmScreen
from tests.factories import make_record
from tests.tui.app_support import (
    SIZE,
    created,
    make_app,
    settle,
    wait_for,
    wait_for_scan_and_side_pane,
    write_world,
)


def _finished(records_dir: Path, execution_id: str) -> None:
    """The execution in flight ends: its writer puts the whole record in place."""
    record = make_record(execution_id=execution_id, created=created(4), intent="Refund")
    path = records_dir / f"{execution_id}.json"
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(record, indent=2), encoding="utf-8")
    os.replace(temporary, path)


def _not_replayed(app: IntentusApp) -> list[str]:
    """The toasts shown that say a confirmed forced replay was not made."""
    notes = [str(n.message) for n in app._notifications]  # type: ignore[attr-defined]
    return [note for note in notes if note.startswith("Not replayed: ")]


async def _asked_then_followed(
    pilot: Pilot[None], app: IntentusApp, records_dir: Path, asked: str
) -> None:
    """Following (``T``), the cursor on the newest execution (``asked``, its row), ``R``
    asks about it; then a newer one is written, and the cursor follows it while the dialog
    still asks."""
    await wait_for_scan_and_side_pane(pilot, app)
    await pilot.press("T")
    await settle(pilot)
    assert app.execution_list.selected_key == asked
    await pilot.press("R")
    await settle(pilot)
    assert isinstance(app.screen, ConfirmScreen)
    newest = make_record(execution_id="exec-newest01", created=created(9))
    (records_dir / "exec-newest01.json").write_text(json.dumps(newest), encoding="utf-8")
    await wait_for(
        pilot,
        lambda: app.execution_list.selected_key == "exec-newest01.json",
        "the cursor following the new execution",
    )


async def test_a_forced_replay_confirmed_after_its_record_changed_says_it_was_not_made(
    records_dir: Path,
) -> None:
    ids = write_world(records_dir)
    key = f"{ids['incomplete']}.json"
    app = make_app(records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        assert app.execution_list.select_key(key)
        await settle(pilot)
        asked = app.detail
        assert asked is not None and asked.verdict is not None
        assert asked.verdict.replay is ReplayCode.EXECUTION_INCOMPLETE
        await pilot.press("R")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        _finished(records_dir, ids["incomplete"])
        await wait_for(
            pilot,
            lambda: (
                app.detail is not asked
                and app.detail is not None
                and app.detail.verdict is not None
                and app.detail.verdict.replay is ReplayCode.REPLAYABLE
            ),
            "the finished record read again under the dialog",
        )
        app.clear_notifications()
        await pilot.press("y")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        said = _not_replayed(app)
        assert said, [str(n.message) for n in app._notifications]  # type: ignore[attr-defined]
        assert ids["incomplete"] in said[0] and "changed while" in said[0], said
        assert "R asks again" in said[0], said
        # Nothing was replayed: the Replay tab shows no forced replay.
        assert "FORCED" not in app.side_pane.replay_pane.text


async def test_a_forced_replay_confirmed_after_following_moved_on_says_it_was_not_made(
    records_dir: Path,
) -> None:
    """Following (``T``), a new execution took the cursor while the dialog asked: the one
    confirmed is not the one shown, so neither is replayed, and a toast says why."""
    ids = write_world(records_dir)
    app = make_app(records_dir, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await _asked_then_followed(pilot, app, records_dir, f"{ids['ok2']}.json")
        app.clear_notifications()
        await pilot.press("y")
        await settle(pilot)
        said = _not_replayed(app)
        notes = [str(n.message) for n in app._notifications]  # type: ignore[attr-defined]
        assert said and f"the cursor left {ids['ok2']}" in said[0], notes
        assert "FORCED" not in app.side_pane.replay_pane.text


async def test_a_forced_replay_confirmed_while_the_row_followed_to_loads_is_not_made(
    records_dir: Path,
) -> None:
    """Following (``T``), the cursor went to a new execution whose detail is still loading
    when ``y`` confirms: the panes still hold the one the dialog asked about, but the
    cursor is not on it, so nothing is replayed (it once was, saying nothing), and the
    toast says the cursor left it."""
    ids = write_world(records_dir)
    app = make_app(records_dir, watch=True)
    newest_read = threading.Event()
    read_detail = app.read_detail

    def held_read(path: Path, *, record_removed: bool = False) -> ExecutionDetail:
        if path.name == "exec-newest01.json":
            newest_read.wait(10)  # loading until the test lets it go
        return read_detail(path, record_removed=record_removed)

    app.read_detail = held_read  # type: ignore[method-assign]
    try:
        async with app.run_test(size=SIZE) as pilot:
            await _asked_then_followed(pilot, app, records_dir, f"{ids['ok2']}.json")
            assert app.detail_key == f"{ids['ok2']}.json"  # the new one's is still loading
            app.clear_notifications()
            await pilot.press("y")  # no settle: it would wait for the load held here
            await wait_for(pilot, lambda: bool(_not_replayed(app)), "the toast")
            assert f"the cursor left {ids['ok2']}" in _not_replayed(app)[0]
            newest_read.set()
            await wait_for(pilot, lambda: app.shown_key == "exec-newest01.json", "the new row")
            await settle(pilot)
            assert "FORCED" not in app.side_pane.replay_pane.text
    finally:
        newest_read.set()
