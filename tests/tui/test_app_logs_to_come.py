"""An IntentusNet layout opened before its first write-ahead log: ``.intentusnet/wal`` is
made by the runtime when it first logs, while the debugger is open, and what it logs is
listed as it comes (it was never looked at: a crash's log-only execution stayed unseen)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from intentus_tui.core.remote.location import RemoteOptions
from intentus_tui.core.roots import open_roots
from intentus_tui.tui.app import IntentusApp
from intentus_tui.tui.roots import RootSet
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import (
    SIZE,
    make_app,
    screen_text,
    settle,
    wait_for,
    wait_for_scan_and_side_pane,
)

CRASHED = "7c0ffee0-0000-4000-8000-00000000c0de"


async def test_a_log_directory_made_while_open_is_listed(
    tmp_path: Path, real_world: RealWorld
) -> None:
    from intentusnet.wal.writer import WALWriter

    layout = tmp_path / ".intentusnet"
    shutil.copytree(real_world.records_dir, layout / "records")
    app = make_app(tmp_path, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        await settle(pilot)
        model = app.execution_list.model
        assert len(model.summaries) == 4
        assert not (layout / "wal").exists()

        # The real 1.3.0 writer makes the directory; the process dies mid-attempt.
        with WALWriter(str(layout / "wal"), CRASHED) as writer:
            writer.execution_started("ab" * 32, "Summarize")
            writer.step_started("attempt-1", "fb-primary", "read_only", {}, "a1" * 32)

        await wait_for(
            pilot,
            lambda: any(s.execution_id == CRASHED for s in model.summaries.values()),
            "the log-only execution listed",
        )
        await settle(pilot)
        text = screen_text(app)
        assert "5 executions" in text
        assert "1 in flight" in text


async def test_with_several_roots_a_log_directory_made_while_open_is_listed(
    tmp_path: Path, real_world: RealWorld
) -> None:
    from intentusnet.wal.writer import WALWriter

    for name in ("alpha", "beta"):
        shutil.copytree(real_world.records_dir, tmp_path / name / ".intentusnet" / "records")
    specs = [str(tmp_path / "alpha"), str(tmp_path / "beta")]
    roots = RootSet(open_roots(specs, RemoteOptions()), RemoteOptions())
    first = roots.working[0].root
    assert first is not None
    app = IntentusApp(first, roots=roots, use_cache=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        await settle(pilot)
        model = app.execution_list.model
        assert len(model.summaries) == 8

        with WALWriter(str(tmp_path / "beta" / ".intentusnet" / "wal"), CRASHED) as writer:
            writer.execution_started("ab" * 32, "Summarize")
            writer.step_started("attempt-1", "fb-primary", "read_only", {}, "a1" * 32)

        await wait_for(pilot, lambda: f"beta/{CRASHED}.wal" in model.summaries, "its row")
        await settle(pilot)
        assert "9 executions" in screen_text(app)


@pytest.mark.parametrize("made_while_open", [False, True])
async def test_a_log_directory_removed_is_said_gone_whether_made_before_or_while_open(
    tmp_path: Path, real_world: RealWorld, made_while_open: bool
) -> None:
    """``rm -r .intentusnet/wal``: with wal/ there at start the header says it is gone and
    its log-only rows go; with wal/ made while the debugger was open, its rows stayed and
    the header said nothing. Both now behave alike."""
    from intentusnet.wal.writer import WALWriter

    layout = tmp_path / ".intentusnet"
    shutil.copytree(real_world.records_dir, layout / "records")

    def crash() -> None:
        with WALWriter(str(layout / "wal"), CRASHED) as writer:
            writer.execution_started("ab" * 32, "Summarize")
            writer.step_started("attempt-1", "fb-primary", "read_only", {}, "a1" * 32)

    if not made_while_open:
        crash()
    app = make_app(tmp_path, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        await settle(pilot)
        model = app.execution_list.model

        def crashed_listed() -> bool:
            return any(s.execution_id == CRASHED for s in model.summaries.values())

        if made_while_open:
            crash()
        await wait_for(pilot, crashed_listed, "the log-only execution listed")
        await settle(pilot)
        shutil.rmtree(layout / "wal")
        await wait_for(pilot, lambda: not crashed_listed(), "its row gone with its log")
        await wait_for(
            pilot, lambda: "wal gone" in (app.header_state.trouble or ""), "the loss said"
        )
        assert "wal gone" in screen_text(app)
