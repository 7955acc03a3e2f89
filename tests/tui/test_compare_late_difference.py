"""Two values that share a long beginning and differ past where a half cuts them: at 80
columns each half showed the same cut text, the row marked changed but reading equal. Now
both halves are cut where the values differ - in the comparison screen's values (a value past
the 400 characters a row holds too), under them, and in the Diff tab - still as wide as each
other, and record text still inert."""

from __future__ import annotations

import copy
from typing import Any

from intentus_tui.core.compare.aligned import SideRow
from intentus_tui.tui.widgets.side_by_side_view import SEPARATOR
from tests.tui.compare_harness import CompareApp
from tests.tui.side_pane_harness import SidePaneApp, detail_from, finish_workers, good_record

# Shared by A and B, record text that must stay inert (an escape, a bidi override, markup).
PREFIX = (
    "The refund for order 88412 was approved after the second agent checked the ledger "
    "\x1b[2J\u202e[b]and[/b] "
)
ENDS = ("emailed the customer.", "called the customer.")
AUDIT_TAILS = ("first", "other")  # past the 400 characters of a row: "z" * 450 before


def _pair() -> tuple[dict[str, Any], dict[str, Any]]:
    a = good_record("exec-000A")
    b = copy.deepcopy(a)
    b["header"]["executionId"] = "exec-000B"
    for record, end, tail in zip((a, b), ENDS, AUDIT_TAILS, strict=True):
        answer = {"audit": "z" * 450 + tail, "summary": PREFIX + end}
        record["finalResponse"]["payload"] = answer
        for event in record["events"]:
            if event["type"] == "FINAL_RESPONSE":
                event["payload"]["payload"] = answer
    return a, b


def _inert(text: str) -> bool:
    return "\x1b" not in text and "\u202e" not in text


async def test_two_values_cut_where_they_differ_at_80_columns() -> None:
    a, b = _pair()
    app = CompareApp(detail_from(a), detail_from(b))
    async with app.run_test(size=(80, 24)) as pilot:
        await finish_workers(pilot)
        screen = app.comparison
        values = screen.values
        rows = {
            row.path: n
            for n, row in enumerate(values.rows)
            if isinstance(row, SideRow) and row.path[:1] == ("finalResponse",)
        }
        half = (values.row_width - 2 - len(SEPARATOR)) // 2  # both halves
        for key, (end_a, end_b) in (("summary", ("emailed", "called")), ("audit", AUDIT_TAILS)):
            index = rows[("finalResponse", "payload", key)]
            line = values.line_text(index)
            assert line.startswith("~ ") and _inert(line), line
            # As wide as each other: the separator where the header has it.
            left, sep, right = line[2 : 2 + half], line[2 + half : 5 + half], line[5 + half :]
            assert sep == SEPARATOR and len(right.rstrip()) <= half, line
            assert left != right[:half], line
            assert end_a in left and end_b in right, line
            assert end_b not in left and end_a not in right, line
            assert "…" in left and "…" in right, line  # where each is cut
            assert f'"{key}": ' in left  # the key stays in front of the cut
            # The line under the values: both sides, each with its difference.
            values.cursor = index
            await pilot.pause()
            current = str(screen.query_one("#compare-current").render()).splitlines()
            [line_a] = [text for text in current if text.startswith("A ")]
            [line_b] = [text for text in current if text.startswith("B ")]
            assert end_a in line_a and end_b in line_b, current
            assert all(_inert(text) for text in current)


async def test_the_diff_tab_cuts_where_they_differ() -> None:
    app = SidePaneApp(None)
    async with app.run_test(size=(80, 24)) as pilot:
        before = {"summary": PREFIX + ENDS[0], "audit": "z" * 450 + AUDIT_TAILS[0]}
        after = {"summary": PREFIX + ENDS[1], "audit": "z" * 450 + AUDIT_TAILS[1]}
        app.side.show_diff_values("snapshot", before, "now", after)
        await finish_workers(pilot)
        view = app.side.diff_pane.view
        lines = [view.line_text(n) for n in range(len(view.entries))]
        by_key = {line.split("│")[0].strip("~ "): line for line in lines}
        for key, (end_a, end_b) in (("summary", ("emailed", "called")), ("audit", AUDIT_TAILS)):
            _, was, now = (cell.strip() for cell in by_key[key].split("│"))
            assert was.startswith("…") and now.startswith("…"), by_key[key]
            assert end_a[:3] in was and end_b[:3] in now and was != now, by_key[key]
            assert _inert(by_key[key])
