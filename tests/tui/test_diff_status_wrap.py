"""The Diff tab's status wraps between its parts only: at 120x36 it showed
"… n/N: next/previous   5" on one row and "changed events   8 hidden…" on the next, a
number split from its unit (Textual 8.2.8 breaks a line at a non-breaking space too)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.content import Content
from textual.geometry import Region

from intentus_tui.demo.writer import build_demo_world
from intentus_tui.tui.widgets.parts_text import join_parts
from tests.tui.app_support import make_app, screen_lines, settle
from tests.tui.side_pane_harness import SidePaneApp, detail_from, finish_workers, good_record

COUNTED = re.compile(r"[\d,]+ (changed values?|changed events?|hidden by ignore rules)")


def test_parts_wrap_between_them_and_lose_their_leading_spaces() -> None:
    parts = [Content("16 changed values"), Content("   at 1/16"), Content("   5 changed events")]
    assert join_parts(parts, 30).plain == "16 changed values   at 1/16\n5 changed events"
    assert join_parts(parts, 200).plain == "16 changed values   at 1/16   5 changed events"


async def test_no_count_is_split_from_its_noun_at_any_width() -> None:
    left = detail_from(good_record("exec-000A"))
    right = detail_from(
        good_record("exec-000B", agents=(("fb-primary", "error"), ("fb-tertiary", "ok")))
    )
    app = SidePaneApp(left, tab="verify")
    async with app.run_test(size=(120, 36)) as pilot:
        app.side.show_diff(left, right)
        await finish_workers(pilot)
        status = app.side.diff_pane.query_one("#diff-status")
        whole = str(status.render()).replace("\n", " ")
        counted = [m.group(0) for m in COUNTED.finditer(whole)]
        assert len(counted) == 3, whole  # values, events, and those the rules hide
        for width in range(40, 131, 3):
            await pilot.resize_terminal(width, 36)
            await settle(pilot)  # resized, then laid out again for its size
            size = status.region.size  # with its padding
            rows = [
                strip.text.rstrip()
                for strip in status.render_lines(Region(0, 0, size.width, size.height))
            ]
            for count in counted:
                assert any(count in row for row in rows), (width, count, rows)


@pytest.mark.parametrize("width", [56, 80])
async def test_the_diff_tab_keeps_each_verdict_answer_whole(tmp_path: Path, width: int) -> None:
    """The demo's first two executions compared (m, j, d, then esc to the Diff tab): at
    80x24 each untrusted side's verdict read "A ⚠ untrusted · tampered · ✗ no" over
    "(untrusted)", the answer split; now it breaks between the verdict's parts only."""
    manifest = build_demo_world(tmp_path)
    app = make_app(manifest.root)
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot, timeout=20)
        for key in ("m", "j", "d", "escape"):
            await pilot.press(key)
            await settle(pilot)
        title = app.query_one("#diff-title").region
        assert title.height > 0
        rows = [row[title.x : title.right].strip() for row in screen_lines(app)]
        rows = rows[title.y : title.bottom]
        assert any("✗ no (untrusted)" in row for row in rows), rows
        assert not any(row.endswith("✗ no") or row.startswith("(untrusted)") for row in rows)
