"""The events keep their room under a long verdict: an untrusted execution's timeline
summary (its integrity reason wraps to a paragraph) leaves the events up to half the
timeline pane, and takes the rest only when the events do not need it."""

from __future__ import annotations

from pathlib import Path

import pytest

from intentus_tui.demo.writer import build_demo_world
from tests.tui.app_support import make_app, screen_text, settle


def _event_rows_shown(app: object) -> list[str]:
    lines = app.timeline.lines  # type: ignore[attr-defined]
    region = lines.region
    rows = screen_text(app).splitlines()[region.y : region.y + region.height]  # type: ignore[arg-type]
    return [row[region.x : region.right] for row in rows if row[region.x : region.right].strip()]


@pytest.mark.parametrize(("size", "shown"), [((120, 36), 7), ((160, 45), 8)])
async def test_a_chain_broken_execution_shows_its_events_beside_its_reasons(
    tmp_path: Path, size: tuple[int, int], shown: int
) -> None:
    manifest = build_demo_world(tmp_path)
    (broken,) = manifest.scenarios["wal_tampered"]
    app = make_app(manifest.records_dir)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, timeout=20)
        assert app.execution_list.select_key(f"{broken}.json")
        await settle(pilot)
        events = _event_rows_shown(app)
        summary = app.timeline.query_one("#timeline-summary").region
        pane = app.timeline.region
        text = screen_text(app)
    # 8 events: half the pane's rows (and all of them where half holds them)
    assert len(events) == shown, events
    assert "final      success" in text or shown < 8
    # the summary keeps its answers and says what broke, cut where it must be
    assert "integrity chain broken — WAL hash chain" in text
    assert "replay    ✗ no (untrusted)" in text
    assert summary.height <= pane.height // 2 + 1


async def test_a_short_timeline_leaves_the_summary_its_whole_reasons(tmp_path: Path) -> None:
    manifest = build_demo_world(tmp_path)
    (tampered,) = manifest.scenarios["tampered_final_response"]
    app = make_app(manifest.records_dir)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot, timeout=20)
        assert app.execution_list.select_key(f"{tampered}.json")
        await settle(pilot)
        events = _event_rows_shown(app)
        text = " ".join(screen_text(app).split())
    assert len(events) == 5  # every event of its one attempt
    # and the integrity reason whole, beside them
    assert "finalResponse differs from the" in text and "edited after recording?" in text


@pytest.mark.parametrize(
    ("scenario", "name", "waterfall"),
    [("wal_tampered", "ticket-classifier-backup ", False), ("tampered_envelope", "", True)],
)
async def test_the_waterfall_gives_its_room_when_few_events_have_a_time(
    tmp_path: Path, scenario: str, name: str, waterfall: bool
) -> None:
    """At 120x36 a broken log chain's events past the break have no time, yet the waterfall
    kept its column beside them, cutting "ticket-classifier-backu…". Where fewer than half
    the events show in it, the names have the room; where most have a time it stays."""
    manifest = build_demo_world(tmp_path)
    execution_id = manifest.scenarios[scenario][-1]
    app = make_app(manifest.records_dir)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, timeout=20)
        assert app.execution_list.select_key(f"{execution_id}.json")
        await settle(pilot)
        events = _event_rows_shown(app)
    assert any("█" in row for row in events) is waterfall, events
    assert all(name in row for row in events if "ticket-classifier-backup" in row), events
