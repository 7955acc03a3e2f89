"""An attempt its record left open and its write-ahead log ended, in the debugger: on files
written by the real intentusnet 1.3.0 (the record lost the attempt's end event, a recording
failure; its log recorded the step failing). The chain, the start's row, ``e`` and the
event pane say so; nothing calls the attempt in flight."""

from __future__ import annotations

from pathlib import Path

from tests.intentusnet_world import real_world_and, with_lost_attempt_end
from tests.tui.app_support import event_lines, make_app, settle, timeline_summary


async def test_the_attempt_is_failed_where_the_log_says_so(tmp_path: Path) -> None:
    world, project = real_world_and(tmp_path, with_lost_attempt_end)
    app = make_app(project)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(f"{world.fallback}.json")
        await settle(pilot)
        summary = timeline_summary(app)
        assert "fb-primary ✗" in summary and "never ended" not in summary
        assert "attempt 1 (fb-primary) failed as the write-ahead log recorded (WAL #3)" in summary
        rows = event_lines(app)
        start = next(row for row in rows if "AGENT_ATTEMPT_START" in row or " start " in row)
        assert start.startswith("✗")  # its summary says why: see tests/core/test_reconcile.py
        app.timeline.lines.focus()
        await pilot.press("e")  # next error: the attempt the log says failed
        await settle(pilot)
        title = str(app.event_detail.query_one("#event-detail-title").render())
        assert title.startswith("event 2 of 7")
        await pilot.press("down")  # the next row is seq 4: the record lost seq 3
        await settle(pilot)
        title = str(app.event_detail.query_one("#event-detail-title").render())
        assert title.startswith("event 3 of 7 (seq 4)")
