"""One order and one number for each difference: the full-screen comparison steps through
the differences in the order the Diff tab and ``intentus-tui diff`` list them, and says the
same "N/M" for each; its values are written in that order, so ``n`` only ever goes down."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.tui.screens.compare import ComparisonScreen
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import settle
from tests.tui.compare_harness import compare_pair, debugger_on_pair, record_pair


def _answer(record: dict[str, Any], answer: dict[str, Any]) -> None:
    record["finalResponse"]["payload"] = answer
    for event in record["events"]:
        if event["type"] == "FINAL_RESPONSE":
            event["payload"]["payload"] = answer


def _pair_written_unsorted() -> tuple[dict[str, Any], dict[str, Any]]:
    """The pair with answers whose keys are not written in sorted order (as a model's
    answer often is: its text first, what made it after)."""
    a, b = record_pair()
    _answer(a, {"wordCount": 56, "model": "claude-3-haiku", "agent": "summarizer-claude"})
    _answer(b, {"wordCount": 76, "model": "gpt-4o-mini", "agent": "summarizer-local"})
    return a, b


def _at(text: str, pattern: str) -> str:
    found = re.search(pattern, text)
    assert found is not None, text
    return found.group(1)


async def test_the_full_screen_numbers_each_difference_as_the_diff_tab_does(
    records_dir: Path,
) -> None:
    app = debugger_on_pair(records_dir, _pair_written_unsorted())
    async with app.run_test(size=(200, 50)) as pilot:
        await compare_pair(pilot)
        screen = app.screen
        assert isinstance(screen, ComparisonScreen) and screen.compared is not None
        total = len(screen.compared.comparison.entries)
        full_screen: list[tuple[str, str]] = []
        rows: list[int] = []
        for _ in range(total):
            status = str(screen.query_one("#compare-status").render())
            current = str(screen.query_one("#compare-current").render())
            full_screen.append((_at(status, r"at value (\d+/\d+)"), _at(current, r"^at (\S+)")))
            rows.append(screen.values.cursor)
            await pilot.press("n")
        await pilot.press("escape")
        await settle(pilot)
        pane = app.side_pane.diff_pane
        pane.view.focus()
        await settle(pilot)
        # The tab followed the full screen to where it was left: from the first again.
        await pilot.press("home")
        await settle(pilot)
        diff_tab: list[tuple[str, str]] = []
        for _ in range(total):
            status = str(pane.query_one("#diff-status").render())
            current = str(pane.query_one("#diff-current").render())
            diff_tab.append((_at(status, r"at (\d+/\d+)"), _at(current, r"^at (\S+)")))
            await pilot.press("n")
    assert ("7/9", "finalResponse.payload.agent") in diff_tab, diff_tab
    assert full_screen == diff_tab
    assert rows == sorted(rows)  # n goes down the values, never back up


async def test_the_diff_tab_writes_a_whole_event_as_diff_does(
    tmp_path: Path, real_world: RealWorld, capsys: pytest.CaptureFixture[str]
) -> None:
    """The fallback's extra events, against the direct success: `diff` writes each with its
    keys in order (`+ events[1]: {"payload":{"agent":"fb-primary",…},"seq":2,…}`), the Diff
    tab wrote them as the record does (`{"seq":2,"type"…`): cut to its column, the two
    showed different parts of one value. The tab writes them as `diff` does."""
    import shutil

    from intentus_tui.cli import run
    from tests.tui.app_support import make_app, mark_and_compare

    records = tmp_path / ".intentusnet" / "records"
    shutil.copytree(real_world.records_dir, records)
    run(["diff", real_world.success, real_world.fallback, "--dir", str(records)])
    said = {}
    for line in capsys.readouterr().out.splitlines():
        found = re.match(r"\+ (events\[\d+\]): (\{.*\})$", line)
        if found:
            said[found.group(1)] = found.group(2)
    assert said
    app = make_app(records)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, f"{real_world.success}.json", f"{real_world.fallback}.json")
        await pilot.press("escape")
        await settle(pilot)
        view = app.side_pane.diff_pane.view
        shown = {
            view.path_at(i): view.values_for(i)[1]
            for i in range(len(view.entries))
            if view.path_at(i) in said
        }
    assert shown.keys() == said.keys()
    for path, value in shown.items():
        assert value.rstrip("…") and said[path].startswith(value.rstrip("…")), (path, value)


async def test_the_diff_tabs_panel_says_a_missing_side_as_the_full_screen_does(
    tmp_path: Path, real_world: RealWorld
) -> None:
    """On the fallback's extra event the full screen's panel read `at events[1]  added` /
    `A (nothing on this side)`; the Diff tab's, for the same difference, `at events[1]` /
    `A ∅ (absent)`. One wording on both."""
    import shutil

    from tests.tui.app_support import make_app, mark_and_compare

    records = tmp_path / ".intentusnet" / "records"
    shutil.copytree(real_world.records_dir, records)
    app = make_app(records)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, f"{real_world.success}.json", f"{real_world.fallback}.json")
        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        full: list[list[str]] = []
        for _ in range(12):
            full.append(str(screen.query_one("#compare-current").render()).splitlines()[:2])
            await pilot.press("n")
        await pilot.press("escape")
        await settle(pilot)
        pane = app.side_pane.diff_pane
        pane.view.focus()
        await settle(pilot)
        # The tab followed the full screen to where it was left: from the first again.
        await pilot.press("home")
        await settle(pilot)
        tab: list[list[str]] = []
        for _ in range(12):
            tab.append(str(pane.query_one("#diff-current").render()).splitlines()[:2])
            await pilot.press("n")
    added_full = next(lines for lines in full if lines[0].endswith("  added"))
    added_tab = next((lines for lines in tab if lines[0].startswith(added_full[0][:-7])), None)
    assert added_tab == added_full == [added_full[0], "A (nothing on this side)"], (full, tab)
