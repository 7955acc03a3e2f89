"""One count of differences, in one unit, wherever it is shown: the comparison's status line
counts changed values and changed events, and ``n`` steps through exactly that many of each
(a user found "27 differences" above a navigator at "4/13"); the Diff tab and the command
line's ``diff`` count changed values in the same words."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.tui.screens.compare import ComparisonScreen
from tests.tui.compare_harness import CompareApp, record_pair
from tests.tui.side_pane_harness import detail_from, finish_workers

SIZE = (120, 36)


def _status(screen: ComparisonScreen) -> str:
    return str(screen.query_one("#compare-status").render())


def _count(pattern: str, text: str) -> int:
    found = re.search(pattern, text)
    assert found is not None, (pattern, text)
    return int(found.group(1))


def _adjacent_changes() -> tuple[dict[str, Any], dict[str, Any]]:
    """The pair of the comparison tests, and in B's envelope payload several values changed
    next to each other: one run of changed lines, several changed values."""
    a, b = record_pair()
    b["envelope"]["payload"] = {"text": "other", "lang": "fr", "extra": [1, 2]}
    return a, b


async def _steps(pilot: Any, screen: ComparisonScreen, unit: str, count: int) -> None:
    """``n`` from the first line to the last difference: ``at UNIT k/count`` at each, then
    no more."""
    await pilot.press("home")
    if f"at {unit} 0/{count}" in _status(screen):  # the first line is not a difference
        await pilot.press("n")
    for k in range(1, count + 1):
        assert f"at {unit} {k}/{count}" in _status(screen)
        await pilot.press("n")  # past the last: it stays there
    assert f"at {unit} {count}/{count}" in _status(screen)


@pytest.mark.parametrize("rules_on", [True, False])
async def test_n_steps_through_as_many_differences_as_the_status_counts(rules_on: bool) -> None:
    a, b = _adjacent_changes()
    app = CompareApp(detail_from(a), detail_from(b))
    async with app.run_test(size=SIZE) as pilot:
        await finish_workers(pilot)
        screen = app.comparison
        if not rules_on:
            await pilot.press("i")
        status = _status(screen)
        values = _count(r"(\d+) changed values", status)
        events = _count(r"(\d+) changed events", status)
        assert values > events > 1
        await _steps(pilot, screen, "value", values)
        await pilot.press("t")  # the timeline: events, counted as the status counts them
        # At once, in the unit of the view now focused (it went on saying "value").
        assert re.search(rf" · at event \d+/{events} · ", _status(screen)), _status(screen)
        await _steps(pilot, screen, "event", events)


async def test_the_diff_tab_and_the_command_line_count_the_same_changed_values(
    records_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from intentus_tui.cli import run
    from tests.factories import write_record
    from tests.tui.app_support import make_app, mark_and_compare, settle

    a, b = _adjacent_changes()
    write_record(records_dir, a)
    write_record(records_dir, b)
    run(["diff", "exec-000A", "exec-000B", "--dir", str(records_dir), "--aligned"])
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    app = make_app(records_dir)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, "exec-000A.json", "exec-000B.json")
        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        status = _status(screen)
        values = _count(r"(\d+) changed values", status)
        events = _count(r"(\d+) changed events", status)
        assert last == f"different: {values} changed values, {events} changed events"
        await pilot.press("escape")
        await settle(pilot)
        tab = str(app.side_pane.diff_pane.query_one("#diff-status").render())
        assert tab.startswith(f"{values} changed values"), tab
        assert f"at 1/{values}" in tab


async def test_the_diff_tab_counts_the_changed_events_as_the_command_line_does(
    records_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The Diff tab said `11 changed values` where `diff` and the comparison screen said
    `11 changed values, 5 changed events`: it counts the events too, in the same words."""
    from intentus_tui.cli import run
    from tests.factories import write_record
    from tests.tui.app_support import make_app, mark_and_compare, settle

    a, b = _adjacent_changes()
    write_record(records_dir, a)
    write_record(records_dir, b)
    run(["diff", "exec-000A", "exec-000B", "--dir", str(records_dir)])
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    events = _count(r"(\d+) changed events", last)
    app = make_app(records_dir)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, "exec-000A.json", "exec-000B.json")
        await pilot.press("escape")
        await settle(pilot)
        tab = str(app.side_pane.diff_pane.query_one("#diff-status").render())
        values = _count(r"(\d+) changed values", last)
        assert tab.startswith(f"{values} changed values"), tab
        assert f"   {events} changed events" in tab, tab


async def test_the_diff_tab_says_no_first_divergence_in_the_command_lines_words(
    records_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two records whose events agree (only the answer was edited): `diff` says `first
    divergence: none`, the Diff tab said `events: the streams agree`."""
    from intentus_tui.cli import run
    from tests.factories import write_record
    from tests.tui.app_support import make_app, mark_and_compare, settle

    a, b = record_pair()
    b["finalResponse"] = {**a["finalResponse"], "error": "edited"}
    b["events"] = a["events"]
    write_record(records_dir, a)
    write_record(records_dir, b)
    run(["diff", "exec-000A", "exec-000B", "--dir", str(records_dir)])
    said = capsys.readouterr().out.splitlines()
    assert "first divergence: none" in said
    app = make_app(records_dir)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, "exec-000A.json", "exec-000B.json")
        await pilot.press("escape")
        await settle(pilot)
        summary = str(app.side_pane.diff_pane.query_one("#diff-summary").render())
    assert "first divergence: none" in summary.splitlines(), summary
