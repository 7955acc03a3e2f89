"""The timeline of an execution whose verdict is untrusted (a record written by the real
intentusnet 1.3.0, its envelope edited since) shows what it records as claims: a banner
over it, its ✓ marks out of the success colour, every event still there. A trusted one
is as before: no banner, its successes green."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from rich.segment import Segment
from textual.content import Content
from textual.widgets import Static

from intentus_tui.tui.app import IntentusApp
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import event_lines, make_app, screen_lines, settle, wait_for

# The banner over the timeline: the longest that fits its pane
BANNERS = (
    "⚠ untrusted: what follows is what the record claims",
    "⚠ untrusted: below is only claimed",
)


@pytest.fixture
def tampered(real_world: RealWorld, tmp_path: Path) -> Path:
    records = tmp_path / ".intentusnet" / "records"
    shutil.copytree(real_world.records_dir, records)
    path = records / f"{real_world.success}.json"
    record = json.loads(path.read_text("utf-8"))
    record["envelope"]["payload"] = {"text": "a question never asked"}
    path.write_text(json.dumps(record, indent=2), "utf-8")
    return records


async def _shown(app: IntentusApp, pilot: object, execution_id: str) -> None:
    assert app.execution_list.select_key(f"{execution_id}.json")
    await wait_for(pilot, lambda: app.detail_key == f"{execution_id}.json", "detail shown")
    await settle(pilot)


def _colours(app: IntentusApp, text: str) -> list[object]:
    """The colour of each event row's first cell reading ``text`` (its ✓, its status)."""
    lines = app.timeline.lines
    found = []
    for y in range(len(lines.rows)):
        segments: list[Segment] = list(lines.render_line(y))
        cell = next((s for s in segments if s.text.strip() == text), None)
        if cell is not None:
            found.append(cell.style.color if cell.style else None)
    return found


def _style_colour(app: IntentusApp, name: str) -> object:
    return app.timeline.lines.get_component_rich_style(name).color


def _success_spans(content: Content, text: str) -> list[str]:
    """The styles given to ``text`` in ``content`` that say success."""
    start = content.plain.index(text)
    return [
        str(span.style)
        for span in content.spans
        if span.start <= start < span.end and "success" in str(span.style)
    ]


@pytest.mark.parametrize(("size", "banner"), [((120, 36), 0), ((80, 24), 1)])
async def test_an_untrusted_timeline_shows_claims_as_claims(
    tampered: Path, real_world: RealWorld, size: tuple[int, int], banner: int
) -> None:
    app = make_app(tampered)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await _shown(app, pilot, real_world.success)
        assert app.detail is not None and not app.detail.verdict.trusted
        screen = "\n".join(screen_lines(app))
        assert BANNERS[banner] in screen
        # Both ✓ (the attempt's end, the final response) dim, not left in the text colour
        marks = _colours(app, "✓")
        assert marks == [_style_colour(app, "event-lines--dim")] * 2, marks
        summary = app.timeline.query_one("#timeline-summary", Static).content
        assert isinstance(summary, Content)
        assert not _success_spans(summary, "✓"), summary.spans  # the chain's ✓
        if size == (80, 24):  # every event still in sight
            assert sum(1 for line in event_lines(app) if line.strip()) == 5
        else:  # the timeline maximised (z) has a status column: "ok" is not green there
            await pilot.press("enter", "z")
            await settle(pilot)
            statuses = _colours(app, "ok")
            assert statuses and _style_colour(app, "event-lines--ok") not in statuses


async def test_a_trusted_timeline_is_unchanged(tampered: Path, real_world: RealWorld) -> None:
    app = make_app(tampered)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        await _shown(app, pilot, real_world.fallback)
        assert app.detail is not None and app.detail.verdict.trusted
        assert not any(b in "\n".join(screen_lines(app)) for b in BANNERS)
        summary = app.timeline.query_one("#timeline-summary", Static).content
        assert isinstance(summary, Content) and _success_spans(summary, "✓")
        await pilot.press("enter", "z")
        await settle(pilot)
        assert _style_colour(app, "event-lines--ok") in _colours(app, "ok")
