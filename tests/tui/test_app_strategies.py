"""Broadcast, parallel and fallback runs written by the real 1.3.0, in the debugger: the
header draws them by strategy, a/A step through attempts whatever the strategy, and f on a
run without fallbacks says how it ran instead of a bare "No fallback"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from intentus_tui.tui.app import IntentusApp
from tests.intentusnet_strategies import StrategyWorld, build_strategy_world
from tests.tui.app_support import SIZE, event_lines, make_app, settle, timeline_summary


@pytest.fixture(scope="module")
def strategies(tmp_path_factory: pytest.TempPathFactory) -> StrategyWorld:
    return build_strategy_world(tmp_path_factory.mktemp("strategies"))


async def _open(pilot: Pilot[Any], app: IntentusApp, execution_id: str) -> None:
    await settle(pilot)
    assert app.execution_list.select_key(f"{execution_id}.json")
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)
    assert app.focused is app.timeline.lines


def _said(app: IntentusApp) -> list[str]:
    return [notification.message for notification in app._notifications]


def _at(app: IntentusApp) -> tuple[str, str]:
    row = app.timeline.lines.rows[app.timeline.lines.cursor]
    return row.type, row.agent


async def test_broadcast_header_keys_and_f(strategies: StrategyWorld) -> None:
    app = make_app(strategies.records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await _open(pilot, app, strategies.broadcast)
        header = timeline_summary(app)
        assert "broadcast ⇉ primary ✗ | replica ✓ | cache ✗ | cold ✓ ← answer" in header
        assert "4 branches" in header and "answer: cold (broadcast last success)" in header
        assert "→" not in header and "attempts" not in header
        assert any("├─⇉ replica  branch 2/4" in line for line in event_lines(app))
        assert app.timeline.lines.cursor == 0
        # f: no fallback chain to follow; says so and where it stepped instead.
        await pilot.press("f")
        await settle(pilot)
        assert _said(app)[-1] == (
            "broadcast: 4 branches, no fallback chain; moved to attempt 1 of 4, primary at #2 "
            "(a/A: next/previous attempt)"
        )
        assert _at(app) == ("AGENT_ATTEMPT_START", "primary")
        await pilot.press("a")
        assert _at(app) == ("AGENT_ATTEMPT_START", "replica")
        await pilot.press("a", "a")
        assert _at(app) == ("AGENT_ATTEMPT_START", "cold")
        await pilot.press("a")  # the last branch: nowhere further
        await settle(pilot)
        assert _at(app) == ("AGENT_ATTEMPT_START", "cold")
        assert _said(app)[-1] == "No attempt after this event"
        await pilot.press("A")
        assert _at(app) == ("AGENT_ATTEMPT_START", "cache")
        await pilot.press("F")  # backwards too
        assert _at(app) == ("AGENT_ATTEMPT_START", "replica")
        # The event detail follows the cursor.
        body = str(app.event_detail.query_one("#event-detail-body").render())
        assert '"replica"' in body and '"BROADCAST"' in body


async def test_parallel_header_says_what_the_record_leaves_out(strategies: StrategyWorld) -> None:
    app = make_app(strategies.records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await _open(pilot, app, strategies.parallel)
        header = timeline_summary(app)
        assert "parallel ⇉ primary ✗ | cache ✗ | replica ✓ ← answer" in header
        assert "answer: replica (parallel first success)" in header
        assert "none after the first success" in header
        await pilot.press("f")
        await settle(pilot)
        assert _said(app)[-1].startswith("parallel: 3 branches, no fallback chain")


async def test_fallback_keeps_its_chain_and_f_and_steps_by_attempt(
    strategies: StrategyWorld,
) -> None:
    app = make_app(strategies.records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await _open(pilot, app, strategies.fallback)
        assert "chain primary ✗ → replica ✓" in timeline_summary(app)
        await pilot.press("f")
        assert _at(app) == ("FALLBACK_TRIGGERED", "primary")
        await pilot.press("g", "a")
        assert _at(app) == ("AGENT_ATTEMPT_START", "primary")
        await pilot.press("a")
        assert _at(app) == ("AGENT_ATTEMPT_START", "replica")


async def test_direct_f_says_one_attempt_and_where_it_went(strategies: StrategyWorld) -> None:
    """f moves to the one attempt and says so; pressed again it stays, and says why (a
    toast saying "no chain" while the cursor jumps reads as two different answers)."""
    app = make_app(strategies.records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await _open(pilot, app, strategies.direct)
        await pilot.press("f")
        await settle(pilot)
        assert _at(app) == ("AGENT_ATTEMPT_START", "replica")
        seq = app.timeline.lines.rows[app.timeline.lines.cursor].seq
        assert _said(app)[-1] == (
            f"direct: 1 attempt, no fallback chain; moved to its attempt, replica at #{seq}"
        )
        cursor = app.timeline.lines.cursor
        await pilot.press("f")
        await settle(pilot)
        assert app.timeline.lines.cursor == cursor
        assert _said(app)[-1] == (
            "direct: 1 attempt, no fallback chain; no attempt after this event"
        )


async def test_help_lists_the_attempt_keys_with_their_ids(records_dir: Path) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        text = str(app.screen.query_one("#help-body").render())
        assert "Next attempt" in text and "timeline.next-attempt" in text
        assert "Prev attempt" in text and "timeline.prev-attempt" in text


async def test_the_attempt_keys_follow_a_user_keymap(strategies: StrategyWorld) -> None:
    app = make_app(strategies.records_dir, keymap={"timeline.next-attempt": "right_square_bracket"})
    async with app.run_test(size=SIZE) as pilot:
        await _open(pilot, app, strategies.broadcast)
        await pilot.press("right_square_bracket")
        assert _at(app) == ("AGENT_ATTEMPT_START", "primary")
        await pilot.press("f")  # its hint names the key the user bound, not the default
        await settle(pilot)
        assert _said(app)[-1].endswith("(]/A: next/previous attempt)")


async def test_a_parallel_run_with_no_success_claims_none(tmp_path: Path) -> None:
    """Every branch failed (the real 1.3.0 router, a parallel run): the header does not say
    a first success cut the record short; every branch is in it."""
    from tests.intentusnet_world import all_attempts_failing

    ids = all_attempts_failing(tmp_path)
    app = make_app(tmp_path / ".intentusnet" / "records")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(f"{ids['parallel']}.json")
        await settle(pilot)
        header = timeline_summary(app)
        assert "recorded as they finished" in header
        assert "first success" not in header
