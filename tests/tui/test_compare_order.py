"""One order and one number for each difference: the full-screen comparison steps through
the differences in the order the Diff tab and ``intentus-tui diff`` list them, and says the
same "N/M" for each; its values are written in that order, so ``n`` only ever goes down."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from intentus_tui.tui.screens.compare import ComparisonScreen
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
        diff_tab: list[tuple[str, str]] = []
        for _ in range(total):
            status = str(pane.query_one("#diff-status").render())
            current = str(pane.query_one("#diff-current").render())
            diff_tab.append((_at(status, r"at (\d+/\d+)"), _at(current, r"^at (\S+)")))
            await pilot.press("n")
    assert ("7/9", "finalResponse.payload.agent") in diff_tab, diff_tab
    assert full_screen == diff_tab
    assert rows == sorted(rows)  # n goes down the values, never back up
