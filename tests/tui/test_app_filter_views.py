"""The list's filter and views as an operator uses them, by the one verdict each execution
has: ``/replayable`` finds the replayable executions only, ``/not replayable`` the others;
the "succeeded" view shows every execution that succeeded, and every number said of it
(the rows, the header's counts, the toast) is the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.intentusnet_world import build_real_world
from tests.tui.app_support import SIZE, WIDE, list_lines, make_app, screen_text, settle, wait_for


def _rows(app: Any) -> list[str]:
    """The execution rows on screen (no group headers, no blank lines)."""
    return [line for line in list_lines(app) if line.strip() and not line.startswith("──")]


def _notes(app: Any) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def _type_filter(pilot: Any, text: str) -> None:
    """``/`` and ``text`` letter by letter, as typed (each key narrows the rows shown)."""
    await pilot.press("slash", *("space" if c == " " else c for c in text))
    await settle(pilot)


async def _clear_filter(pilot: Any) -> None:
    await pilot.press("escape")
    await settle(pilot)


async def test_replayable_finds_the_replayable_executions_only_and_not_replayable_the_others(
    tmp_path: Path,
) -> None:
    world = build_real_world(tmp_path)
    records = world.records_dir
    # An edited envelope: its header still says replayable, its verdict says untrusted.
    path = records / f"{world.fallback}.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    record["envelope"]["payload"]["text"] = "something else"
    path.write_text(json.dumps(record, ensure_ascii=False, indent=2), encoding="utf-8")

    app = make_app(records)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await _type_filter(pilot, "replayable")
        rows = _rows(app)
        assert len(rows) == 1 and world.success[:8] in rows[0]
        assert "✓ succeeded" in rows[0] and "↺ yes" in rows[0]
        assert "4 executions (1 shown)" in screen_text(app)
        await _clear_filter(pilot)

        not_replayable = {world.fallback, world.error_truncated, world.invalidated}
        for typed in ("not replayable", "not_replayable"):
            await _type_filter(pilot, typed)
            rows = _rows(app)
            assert {i[:8] for i in not_replayable} == {row.split()[0][:8] for row in rows}, typed
            assert not any("↺ yes" in row for row in rows), typed
            assert "4 executions (3 shown)" in screen_text(app), typed
            await _clear_filter(pilot)

        # Free text and the other verdict words find what they found before.
        await _type_filter(pilot, "tampered")
        assert [row.split()[0] for row in _rows(app)] == [world.fallback[:8]]
        await _clear_filter(pilot)
        await _type_filter(pilot, world.success[:6])
        assert [row.split()[0] for row in _rows(app)] == [world.success[:8]]
        await _clear_filter(pilot)
        await _type_filter(pilot, "replay")  # a word being typed: every row has it
        assert len(_rows(app)) == 4


async def test_the_succeeded_view_shows_every_success_and_each_count_of_it_agrees(
    records_dir: Path, world: dict[str, str]
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        listing = app.execution_list
        await pilot.press("v", "v", "v")  # needs attention, all, succeeded
        await settle(pilot)
        assert listing.model.view.name == "succeeded"
        rows = _rows(app)
        successes = ("ok", "fallback", "invalidated", "ok2")
        assert {row.split()[0] for row in rows} == {world[name][:8] for name in successes}
        invalidated = next(row for row in rows if world["invalidated"][:8] in row)
        assert "✓ succeeded" in invalidated and "✗ operator" in invalidated
        text = screen_text(app)
        assert "6 executions (4 shown)" in text
        assert "· 4 succeeded (1 not replayable)" in text
        assert _notes(app)[-1] == "View: succeeded only · 4 executions"

        await pilot.press("v")  # the successes that cannot be replayed
        await settle(pilot)
        assert [row.split()[0] for row in _rows(app)] == [world["invalidated"][:8]]
        assert "6 executions (1 shown)" in screen_text(app)
        assert _notes(app)[-1] == "View: succeeded, not replayable only · 1 execution"

        # With a filter typed, the toast counts the rows shown, as the header does.
        await pilot.press("v", "v", "v", "v")  # failed, in flight, untrusted, failures first
        await settle(pilot)
        assert _notes(app)[-1] == "View: failures first, by verdict · 6 executions"
        await _type_filter(pilot, "translate")
        await pilot.press("enter", "v", "v", "v")
        await settle(pilot)
        assert listing.model.view.name == "succeeded"
        assert len(_rows(app)) == 2 and "6 executions (2 shown)" in screen_text(app)
        assert _notes(app)[-1] == "View: succeeded only · 2 executions match the filter"


async def test_a_narrow_list_names_the_not_replayable_view_apart_from_the_succeeded_one(
    records_dir: Path, world: dict[str, str]
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        listing = app.execution_list
        await pilot.press("v", "v", "v")
        await settle(pilot)
        assert str(listing.border_subtitle) == "succeeded only · newest first"
        await pilot.press("v")
        await settle(pilot)
        # Not "not replayable": most executions that cannot be replayed are not in this
        # view (failed, untrusted, in flight), which shows the succeeded ones only.
        assert str(listing.border_subtitle) == "✓ no replay · newest first"  # whole at 80 columns


async def test_jumping_from_the_palette_to_an_execution_the_filter_hides_clears_the_filter(
    records_dir: Path, world: dict[str, str]
) -> None:
    """ctrl+p finds every execution; choosing one the filter hides empties the filter box
    and shows every row again, the chosen one selected."""
    from textual.command import CommandList

    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await _type_filter(pilot, "translate")
        await pilot.press("enter", "v", "v")  # all, ungrouped
        await settle(pilot)
        assert len(_rows(app)) == 2
        refund = world["incomplete"]
        await pilot.press("ctrl+p", *refund[:8])

        def hits() -> int:
            lists = app.screen.query(CommandList)
            return lists.first().option_count if lists else 0

        await wait_for(pilot, lambda: hits() == 1, "one hit")
        await pilot.press("enter")
        await settle(pilot)
        assert app.execution_list.selected_key == f"{refund}.json"
        assert app.query_one("#filter").value == "" and not app.query_one("#filter").display
        assert app.execution_list.model.view.name == "grouped"
        assert len(_rows(app)) == 6 and "6 executions ·" in screen_text(app)
        assert "(2 shown)" not in screen_text(app)
