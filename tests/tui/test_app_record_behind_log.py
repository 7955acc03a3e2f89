"""A live execution in the debugger: its record stops at its first event while its
write-ahead log has an attempt in flight. The timeline names that attempt, in flight and
the log's, as the post-mortem does; it never says "no agent attempts". On files written by
the real intentusnet 1.3.0, and by the demo's live recorder while the debugger watches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from intentus_tui.demo.recorder import ExecutionRecorder
from intentus_tui.tui.app import IntentusApp
from tests.intentusnet_world import (
    RealWorld,
    real_world_and,
    with_another_agent_in_flight,
    with_record_behind_its_log,
)
from tests.tui.app_support import (
    event_lines,
    list_lines,
    make_app,
    screen_lines,
    settle,
    timeline_summary,
    wait_for,
    wait_for_scan_and_side_pane,
)


async def _select_fallback(pilot: Pilot[Any], app: IntentusApp, world: RealWorld) -> None:
    """Once scanned, the fallback execution (the one made live) selected and loaded."""
    await wait_for_scan_and_side_pane(pilot, app)
    await settle(pilot)
    assert app.execution_list.select_key(f"{world.fallback}.json")
    await settle(pilot)


async def test_the_timeline_names_the_attempt_the_log_has_in_flight(tmp_path: Path) -> None:
    world, project = real_world_and(tmp_path, with_record_behind_its_log)
    app = make_app(project)
    async with app.run_test(size=(200, 50)) as pilot:
        await _select_fallback(pilot, app, world)
        summary = timeline_summary(app)
        assert "no agent attempts" not in summary
        assert "chain from the log: fb-primary ✗" in summary
        assert "→ fb-secondary … in flight" in summary
        assert "attempt 2 by fb-secondary" in summary and "started at WAL #5" in summary
        # The fallback the log triggered is counted, and named as the log's.
        assert "2 attempts · 1 fallback (the log's)" in summary
        assert "WAL #4 fallback fb-primary → fb-secondary: unavailable" in summary
        trailer = "━━ fb-secondary in flight, as its log says ━━"
        assert any(trailer in line for line in event_lines(app))
        # The list row counts the attempts the timeline draws.
        (row,) = [line for line in list_lines(app) if world.fallback[:8] in line]
        assert " 2  Summarize" in row
        await pilot.press("enter", "f")  # no event to step to: it says where the fallback is
        await settle(pilot)
        notes = [str(n.message) for n in app._notifications]  # type: ignore[attr-defined]
        assert "the fallback is the write-ahead log's only (WAL #4)" in notes[-1]
        await pilot.press("4")
        await settle(pilot)
        postmortem = " ".join(app.side_pane.postmortem_pane.text.split())
        assert "In flight #2 fb-secondary started, never ended" in postmortem


async def test_a_live_execution_shows_its_attempt_then_its_end(tmp_path: Path) -> None:
    recorder = ExecutionRecorder(tmp_path, {"intent": {"name": "Refund"}}, fsync=False)
    recorder.intent_received()
    recorder.attempt_start("billing", strategy="DIRECT", side_effect="irreversible")
    app = make_app(tmp_path, watch=True)
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
        await settle(pilot)
        assert app.execution_list.select_key(f"{recorder.execution_id}.json")
        await settle(pilot)
        summary = timeline_summary(app)
        assert "no agent attempts" not in summary
        assert "chain from the log: billing … in flight" in summary
        # The attempt ends, the execution finishes: the timeline follows the files.
        recorder.attempt_end("billing", "ok", latency_ms=5)
        recorder.router_decision("billing", "direct match")
        recorder.final_response({"version": "1.0", "status": "success", "payload": {}})
        recorder.close()
        await wait_for(
            pilot, lambda: "chain billing ✓" in timeline_summary(app), "the finished chain"
        )
        assert "in flight" not in timeline_summary(app)


async def test_the_post_mortem_gives_the_side_effect_to_the_log_s_agent(tmp_path: Path) -> None:
    """The record has fb-primary in flight, its log fb-secondary (irreversible): the
    Post-mortem tab lists both, the side effect on the log's line only."""
    world, project = real_world_and(tmp_path, with_another_agent_in_flight)
    app = make_app(project)
    async with app.run_test(size=(200, 50)) as pilot:
        await _select_fallback(pilot, app, world)
        await pilot.press("4")
        await settle(pilot)
        postmortem = " ".join(app.side_pane.postmortem_pane.text.split())
        assert "In flight #1 fb-primary started, never ended seq 2 In flight fb-secondary" in (
            postmortem
        )
        assert "not in the record), side effect: irreversible" in postmortem


def _chain_row(app: IntentusApp) -> str:
    (row,) = [line for line in screen_lines(app) if "│ chain " in line]
    return row


async def test_a_narrow_timeline_cuts_the_middle_of_the_chain_not_its_end(tmp_path: Path) -> None:
    """Three attempts, the third in flight, all in the log only (the live recorder's
    record stops at its first event): at 80x24 the chain's one row leaves its middle out
    and keeps the attempt in flight; wider, it draws every attempt in one row."""
    recorder = ExecutionRecorder(tmp_path, {"intent": {"name": "Refund"}}, fsync=False)
    recorder.intent_received()
    for agent, then in (("alpha", "beta"), ("beta", "gamma")):
        recorder.attempt_start(agent, strategy="FALLBACK", side_effect="read_only")
        recorder.attempt_end(agent, "error", latency_ms=12, exception="down")
        recorder.fallback_triggered(agent, then, "down")
    recorder.attempt_start("gamma", strategy="FALLBACK", side_effect="irreversible")
    shown = {
        (80, 24): "│ chain alpha ✗ → … → gamma … in flight ",
        (120, 36): "│ chain from the log: alpha ✗ → beta ✗ → gamma … in flight ",
        (200, 50): "│ chain from the log: alpha ✗ → beta ✗ → gamma … in flight ",
    }
    for size, chain in shown.items():
        app = make_app(tmp_path)
        async with app.run_test(size=size) as pilot:
            await wait_for_scan_and_side_pane(pilot, app)
            await settle(pilot)
            assert app.execution_list.select_key(f"{recorder.execution_id}.json")
            await settle(pilot)
            assert chain in _chain_row(app), size
    recorder.close()


async def test_the_real_live_execution_s_chain_at_80x24(tmp_path: Path) -> None:
    world, project = real_world_and(tmp_path, with_record_behind_its_log)
    app = make_app(project)
    async with app.run_test(size=(80, 24)) as pilot:
        await _select_fallback(pilot, app, world)
        assert "│ chain … → fb-secondary … in flight " in _chain_row(app)
