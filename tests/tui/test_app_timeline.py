"""The timeline and event detail: fallback chains, crash points, salvage, big records."""

from __future__ import annotations

import json
from pathlib import Path

from intentus_tui.tui.presenters.json_preview import Limits, preview
from tests.factories import make_record, write_record
from tests.tui.app_support import (
    SIZE,
    event_lines,
    fixed_id,
    make_app,
    settle,
    timeline_summary,
)


async def test_fallback_chain_and_jumps(records_dir: Path, world: dict[str, str]) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.execution_list.select_key(f"{world['fallback']}.json")
        await settle(pilot)
        await pilot.press("enter")  # into the timeline
        assert app.focused is app.timeline.lines
        text = timeline_summary(app)
        assert "fb-primary ✗ → fb-secondary ✓" in text
        assert "fallback fb-primary → fb-secondary" in text
        lines = app.timeline.lines
        assert lines.cursor == 0
        await pilot.press("f")
        assert lines.rows[lines.cursor].type == "FALLBACK_TRIGGERED"
        assert '"FALLBACK_TRIGGERED"' in str(
            app.event_detail.query_one("#event-detail-body").render()
        )
        await pilot.press("E")  # previous error: the failed attempt's end, just before
        assert lines.rows[lines.cursor].type == "AGENT_ATTEMPT_END"
        assert lines.rows[lines.cursor].is_error
        await pilot.press("e")  # no error after this one... except itself? none after
        assert lines.rows[lines.cursor].is_error
        await pilot.press("G")
        assert lines.cursor == len(lines.rows) - 1
        assert lines.rows[lines.cursor].type == "FINAL_RESPONSE"
        await pilot.press("g", "j", "j")
        assert lines.cursor == 2
        await pilot.press("escape")
        assert app.focused is app.execution_list


async def test_incomplete_execution_starts_at_the_attempt_in_flight(
    records_dir: Path, world: dict[str, str]
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.execution_list.select_key(f"{world['incomplete']}.json")
        await settle(pilot)
        lines = app.timeline.lines
        assert lines.rows[lines.cursor].in_flight
        text = timeline_summary(app)
        assert "attempt 2 by refunder started at seq 4 and never ended" in text
        shown = event_lines(app)
        in_flight = next(
            line for line in shown if "AGENT_ATTEMPT_START" in line and "refunder" in line
        )
        assert "◌" in in_flight and "in flight" in in_flight
        assert any("no final response: never finished" in line for line in shown)


async def test_salvaged_record_shows_what_survived_and_where_it_breaks(
    records_dir: Path, world: dict[str, str]
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.execution_list.select_key(f"{world['truncated']}.json")
        await settle(pilot)
        detail = app.detail
        assert detail is not None and detail.result.damage is not None
        text = timeline_summary(app)
        assert "salvaged from a damaged file" in text
        assert "recovered whole: header, envelope, routerDecision" in text
        assert "partly: events" in text
        damage = detail.result.damage
        where = f"the file breaks here (byte {damage.offset}, line {damage.line})"
        assert any(where in line for line in event_lines(app))
        assert damage.describe() in text


async def test_a_record_with_20000_events_opens_and_steps(records_dir: Path) -> None:
    record = make_record(execution_id=fixed_id(9))
    events = [{"seq": i + 1, "type": "MODEL_CALL", "payload": {"n": i}} for i in range(20_000)]
    events[12_345] = {
        "seq": 12_346,
        "type": "FALLBACK_TRIGGERED",
        "payload": {"from": "a", "to": "b"},
    }
    record["events"] = events
    write_record(records_dir, record)
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, timeout=30)
        lines = app.timeline.lines
        assert len(lines.rows) == 20_000
        await pilot.press("enter", "f")
        assert lines.cursor == 12_345
        await pilot.press("G")
        assert lines.cursor == 19_999
        await pilot.pause()
        # Only the three screens visited were rendered, not 20,000 rows.
        assert len(lines._strips) <= 3 * lines.size.height + 3
        assert any(line.lstrip().startswith("20000 ") for line in event_lines(app))


async def test_a_megabyte_payload_is_shown_cut_with_its_size(records_dir: Path) -> None:
    record = make_record(execution_id=fixed_id(10))
    record["events"][0]["payload"]["blob"] = "x" * 1_048_576
    write_record(records_dir, record)
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        body = str(app.event_detail.query_one("#event-detail-body").render())
        title = str(app.event_detail.query_one("#event-detail-title").render())
        assert "1.0 MiB" in title and "shortened" in title
        assert "1,046,576 more characters, 1,048,576 in all" in body
        assert len(body) < 10_000


def test_preview_bounds_every_dimension() -> None:
    limits = Limits(max_string=10, max_items=3, max_nodes=50, max_depth=4, max_lines=40)
    value = {
        "long": "y" * 100,
        "list": list(range(10)),
        "deep": {"a": {"b": {"c": {"d": {"e": 1}}}}},
        "ctrl": "\x1b[2J\u202e",
    }
    shown = preview(value, limits)
    assert shown.truncated
    assert "⟪90 more characters, 100 in all⟫" in shown.text
    assert "⟪7 more items⟫" in shown.text
    assert "not shown" in shown.text
    assert "more keys" in shown.text  # 4 keys, 3 allowed
    assert "\x1b" not in shown.text and "\u202e" not in shown.text
    wide = preview({str(i): i for i in range(5000)})
    assert wide.text.count("\n") < 200
    assert json.loads(preview({"a": [1, "b"]}).text) == {"a": [1, "b"]}


async def test_keys_typed_in_one_burst_after_enter_and_escape_go_where_the_focus_went(
    records_dir: Path, world: dict[str, str]
) -> None:
    """A terminal delivers fast typing as one burst of key events: ``enter j j`` steps the
    timeline it opened (the list's cursor, and so the execution shown, stays), and
    ``escape j`` moves the list it went back to."""
    from textual import events

    app = make_app(records_dir)

    def burst(*keys: tuple[str, str | None]) -> None:
        for key, character in keys:
            app.post_message(events.Key(key, character))

    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        key = f"{world['fallback']}.json"
        app.execution_list.select_key(key)
        await settle(pilot)
        burst(("enter", "\r"), ("j", "j"), ("j", "j"))
        await settle(pilot)
        assert app.focused is app.timeline.lines
        assert app.execution_list.selected_key == key  # it was: two rows further down
        assert app.timeline.lines.cursor == 2
        below = app.execution_list.model.key_at(app.execution_list.cursor_row + 1)
        burst(("escape", None), ("j", "j"))
        await settle(pilot)
        assert app.focused is app.execution_list
        assert app.execution_list.selected_key == below  # the j stepped the timeline
