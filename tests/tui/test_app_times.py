"""The timeline's time column, its wall-clock toggle, the attempts' waterfall and an
in-flight attempt's open time, as a user sees them."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from intentusnet.wal.writer import WALWriter

from intentus_tui.core.paths import RecordRoot
from intentus_tui.core.timestamps import parse_timestamp
from intentus_tui.tui.app import IntentusApp
from intentus_tui.tui.widgets.timeline_view import TimelineView
from tests.intentusnet_world import build_real_world
from tests.tui.app_support import event_lines, settle, timeline_summary
from tests.tui.time_world import CRASHED, NOW, TIMED, time_app, write_time_world

SIZE = (120, 36)


@pytest.fixture
def fixed_now(monkeypatch: pytest.MonkeyPatch) -> list[datetime]:
    """What the timeline takes for "now"; the test moves it on."""
    now = [NOW]
    monkeypatch.setattr(TimelineView, "clock", staticmethod(lambda: now[0]))
    return now


def all_rows(app: IntentusApp) -> list[str]:
    """Every event row as drawn at the pane's width, on screen or not."""
    lines = app.timeline.lines
    width = lines.scrollable_content_region.width
    return [lines._render_row(row, width, False).text for row in lines.rows]


async def _timed_timeline_maximised(pilot: Any, app: IntentusApp) -> None:
    """The finished fallback's timeline (``TIMED``), opened and maximised."""
    await settle(pilot)
    assert app.execution_list.select_key(f"{TIMED}.json")
    await pilot.press("enter", "z")
    await settle(pilot)


def _offset(origin: str, moment: str) -> str:
    start, end = parse_timestamp(origin), parse_timestamp(moment)
    assert start is not None and end is not None
    millis = int((end - start).total_seconds() * 1000 + 1e-6)  # cut, as the clock is
    return f"+{millis / 1000:.3f}s"


async def test_a_real_record_with_its_wal_shows_each_event_s_time(tmp_path: Path) -> None:
    """A 1.3.0 record joined with the WAL its real WALWriter wrote: each row's offset is
    the WAL entry's time since the record's creation; ``t`` shows the UTC wall clock."""
    world = build_real_world(tmp_path)
    wal = tmp_path / ".intentusnet" / "wal"
    wal.mkdir()
    with WALWriter(str(wal), world.fallback) as w:
        started = w.execution_started("ab" * 32, "Summarize")
        step = w.step_started("s1", "fb-primary", "read_only", {}, "in-1")
        w.step_failed("s1", "agent_error", "fb-primary exploded", True)
    record = json.loads((world.records_dir / f"{world.fallback}.json").read_text("utf-8"))
    created = record["header"]["createdUtcIso"]
    app = time_app(RecordRoot(world.records_dir, wal, tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(f"{world.fallback}.json")
        await pilot.press("enter")
        await settle(pilot)
        rows = event_lines(app)
        assert _offset(created, started.timestamp_iso) in rows[0]
        assert _offset(created, step.timestamp_iso) in rows[1]
        title = str(app.event_detail.query_one("#event-detail-title").render())
        moment = parse_timestamp(started.timestamp_iso)
        assert moment is not None
        assert f"at {moment.strftime('%Y-%m-%dT%H:%M:%S.')}" in title and "from the WAL" in title
        await pilot.press("t")
        await settle(pilot)
        clock = moment.astimezone(UTC).strftime("%H:%M:%S.") + f"{moment.microsecond // 1000:03d}"
        assert clock in event_lines(app)[0]
        await pilot.press("t")
        await settle(pilot)
        assert _offset(created, started.timestamp_iso) in event_lines(app)[0]


async def test_a_record_alone_shows_no_invented_times(tmp_path: Path) -> None:
    """1.3.0 gives its decision and response a time, no other event: dashes, and the
    attempts have no duration."""
    world = build_real_world(tmp_path)
    app = time_app(RecordRoot(world.records_dir, None, tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(f"{world.fallback}.json")
        await settle(pilot)
        rows = all_rows(app)
        assert all("—" in row for row in rows[:6])  # intent, starts, ends, fallback
        assert "+0.0" in rows[6] and "ROUTER_DECISION" in rows[6]  # its own timestamp
        assert "fb-primary ✗ → fb-secondary ✓\n" in timeline_summary(app)  # no durations
        title = str(app.event_detail.query_one("#event-detail-title").render())
        assert "no time recorded for this event" in title
        assert "█" not in "".join(rows)  # no waterfall without times


async def test_a_log_whose_chain_breaks_claims_no_duration(
    tmp_path: Path, fixed_now: list[datetime]
) -> None:
    """Times after a broken link of the log's chain cannot be believed: the last one left
    is not the end, so the header says when it started, not that it "took 800ms"."""
    root = write_time_world(tmp_path)
    assert root.wal_dir is not None
    log = root.wal_dir / f"{TIMED}.wal"
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(n for n, line in enumerate(lines) if "ledger timed out" in line)
    lines[at] = lines[at].replace("ledger timed out", "ledger answered", 1)
    log.write_text("".join(lines), encoding="utf-8")
    app = time_app(root)
    async with app.run_test(size=(200, 50)) as pilot:
        await _timed_timeline_maximised(pilot, app)
        summary = timeline_summary(app)
        assert "chain broken" in summary
        assert "took" not in summary and "started 2026-01-05T10:00:00" in summary, summary


async def test_durations_and_the_waterfall(tmp_path: Path, fixed_now: list[datetime]) -> None:
    app = time_app(write_time_world(tmp_path))
    async with app.run_test(size=(200, 50)) as pilot:
        await _timed_timeline_maximised(pilot, app)
        summary = timeline_summary(app)
        assert "ledger ✗ 700ms → backup ✓ 2.10s" in summary
        assert "took 3.10s" in summary
        rows = event_lines(app)
        ledger, backup = rows[1], rows[4]
        assert "+0.100s" in ledger and "+0.900s" in backup
        # One axis: the ledger's bar (0.1 s to 0.8 s) ends before the backup's starts.
        assert ledger.rstrip().endswith("█") and backup.rstrip().endswith("█")
        assert len(ledger.rstrip()) <= backup.index("█") + 1
        assert "·" in rows[2] and "█" not in rows[2]  # the end: a tick where it happened


async def test_an_in_flight_attempt_shows_how_long_it_has_been_open_and_ticks(
    tmp_path: Path, fixed_now: list[datetime]
) -> None:
    app = time_app(write_time_world(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(f"{CRASHED}.json")
        await settle(pilot)
        assert "attempt 2 by payer-2, open 3m12s," in timeline_summary(app)
        assert "▒" in event_lines(app)[4]
        fixed_now[0] = NOW + timedelta(seconds=5)
        # The next tick (once a second) shows it; a busy machine may run it late.
        deadline = time.monotonic() + 15
        while "open 3m17s" not in timeline_summary(app) and time.monotonic() < deadline:
            await pilot.pause(0.1)
        assert "open 3m17s" in timeline_summary(app)
        # A finished execution: the clock stops.
        assert app.execution_list.select_key(f"{TIMED}.json")
        await settle(pilot)
        assert app.timeline._ticker is None


async def test_the_time_column_fits_at_80x24(tmp_path: Path, fixed_now: list[datetime]) -> None:
    app = time_app(write_time_world(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await _timed_timeline_maximised(pilot, app)
        rows = all_rows(app)
        assert "+0.900s" in rows[4] and "backup" in rows[4]
        assert all(len(row) <= app.timeline.lines.size.width for row in rows)


async def test_help_explains_the_time_column_and_the_waterfall(tmp_path: Path) -> None:
    from intentus_tui.tui.screens.help import HelpScreen

    app = time_app(write_time_world(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("#help-body").render())
        assert "timeline.time-mode" in text and "Time: offset/clock" in text
        for mark in ("+1.234s", "open 3m12s", "█", "▒", "·"):
            assert mark in text
        assert "no time recorded for this event" in text
