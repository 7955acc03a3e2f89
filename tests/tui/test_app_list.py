"""The execution list as a user drives it: select, step, jump, filter, sort, views, mouse."""

from __future__ import annotations

from pathlib import Path

import pytest

from intentus_tui.cli import run as run_cli
from intentus_tui.cli.open import OpenError, build_app, open_debugger
from intentus_tui.core.model import Outcome
from intentus_tui.tui.widgets.execution_list import ExecutionList
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import (
    SIZE,
    WIDE,
    list_lines,
    make_app,
    screen_lines,
    screen_text,
    settle,
    write_world,
)


async def test_opens_grouped_with_counts_and_first_execution_loaded(
    records_dir: Path, world: dict[str, str]
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        lines = list_lines(app)
        # failures first: what needs attention, then the successes
        assert lines[0].startswith("── Outcome unknown (1)")
        titles = [line for line in lines if line.startswith("──")]
        assert [t.split(" (")[0] for t in titles] == [
            "── Outcome unknown",
            "── In flight",
            "── Succeeded",
            "── Succeeded, not replayable",
        ]
        text = screen_text(app)
        assert (
            "6 executions · 2 need attention: 1 unknown, 1 in flight · 4 succeeded"
            " (1 not replayable) · integrity: 1 unverifiable" in text
        )
        # the first row is the first that needs attention: the damaged record
        assert app.execution_list.selected_key == f"{world['truncated']}.json"
        assert app.detail is not None and app.detail.path.name == f"{world['truncated']}.json"
        invalid_row = next(line for line in lines if world["invalidated"][:8] in line)
        assert "✓ succeeded" in invalid_row and "Classify" in invalid_row
        assert "✗ operator" in invalid_row and "verified" in invalid_row
        # newest first inside a group: ok2 (created 10:00:06) leads the successes
        successes = lines.index(next(t for t in titles if t.startswith("── Succeeded (")))
        assert world["ok2"][:8] in lines[successes + 1]


async def test_step_jump_and_detail_follow_the_cursor(
    records_dir: Path, world: dict[str, str]
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        listing = app.execution_list
        await pilot.press("j")  # skips the group header below it
        await settle(pilot)
        assert listing.selected_key == f"{world['incomplete']}.json"
        assert app.detail is not None and app.detail.path.name == listing.selected_key
        await pilot.press("G")
        await settle(pilot)
        assert listing.selected_key == f"{world['invalidated']}.json"  # the last group
        await pilot.press("k")  # skips the group header above it
        await settle(pilot)
        assert listing.selected_key == f"{world['ok']}.json"
        await pilot.press("g")
        await settle(pilot)
        assert listing.selected_key == f"{world['truncated']}.json"  # the only damaged one
        assert "salvaged" in screen_text(app)
        await pilot.press("up")  # already at the top: stays
        await settle(pilot)
        assert listing.selected_key == f"{world['truncated']}.json"


async def test_filter_as_you_type_then_escape_clears(
    records_dir: Path, world: dict[str, str]
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"translate")
        await settle(pilot)
        shown = [line for line in list_lines(app) if line.strip() and not line.startswith("──")]
        assert len(shown) == 2 and all("Translate" in line for line in shown)
        assert "(2 shown)" in screen_text(app)
        await pilot.press("enter")
        assert app.focused is app.execution_list
        # filter by agent and by state too
        app.query_one("#filter").value = "fb-secondary"
        await settle(pilot)
        assert app.execution_list.model.shown_count == 2  # fallback + truncated
        app.query_one("#filter").value = "incomplete"
        await settle(pilot)
        assert app.execution_list.selected_key == f"{world['incomplete']}.json"
        app.query_one("#filter").value = "no-such-thing"
        await settle(pilot)
        assert "No executions match" in screen_text(app)
        await pilot.press("slash", "escape")
        await settle(pilot)
        assert app.execution_list.model.shown_count == 6
        assert not app.query_one("#filter").display


async def test_sort_and_view_cycle(records_dir: Path, world: dict[str, str]) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        listing = app.execution_list
        await pilot.press("v")  # needs attention only, still grouped
        await settle(pilot)
        assert listing.model.shown_count == 2
        assert "needs attention only" in str(listing.border_subtitle)
        await pilot.press("v")  # all, ungrouped, newest first
        await settle(pilot)
        keys = [listing.model.key_at(i) for i in range(len(listing.model))]
        assert keys[0] == f"{world['ok2']}.json" and keys[-1] == f"{world['ok']}.json"
        assert not any(line.startswith("──") for line in list_lines(app))
        await pilot.press("o")  # oldest first
        await settle(pilot)
        keys = [listing.model.key_at(i) for i in range(len(listing.model))]
        assert keys[0] == f"{world['ok']}.json" and keys[-1] == f"{world['ok2']}.json"
        await pilot.press("o")  # by intent
        await settle(pilot)
        intents = [listing.model.summary_at(i).intent for i in range(len(listing.model))]
        assert intents == sorted(intents, key=str.casefold)
        assert "sort: intent" in str(listing.border_subtitle)
        await pilot.press("v")  # every success, replayable or not
        await settle(pilot)
        assert listing.model.shown_count == 4
        assert "succeeded only" in str(listing.border_subtitle)


async def test_selection_survives_sort_changes(records_dir: Path, world: dict[str, str]) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(f"{world['invalidated']}.json")
        await settle(pilot)
        for _ in range(5):
            await pilot.press("o")
            await settle(pilot)
            assert app.execution_list.selected_key == f"{world['invalidated']}.json"


async def test_mouse_click_selects_a_row(records_dir: Path, world: dict[str, str]) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        listing = app.execution_list
        row = listing.model.row_of(f"{world['incomplete']}.json")
        assert row is not None
        await pilot.click(ExecutionList, offset=(10, 1 + row))  # +1: the border
        await settle(pilot)
        assert listing.selected_key == f"{world['incomplete']}.json"
        assert app.detail is not None and app.detail.path.name == listing.selected_key


async def test_empty_directory_says_so(records_dir: Path) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "No execution records (*.json) in" in text
        assert "0 executions" in text
        await pilot.press("j", "G", "r", "enter")  # nothing to act on: no crash
        await settle(pilot)


async def test_missing_directory_shows_a_message_not_a_traceback(tmp_path: Path) -> None:
    app = make_app(tmp_path / "gone")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "cannot read the directory: directory not found" in text
        assert "directory not found" in "\n".join(list_lines(app))


def test_cli_refuses_a_missing_path_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope"
    assert run_cli([str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("intentus-tui: no such") and str(missing) in err
    assert len(err.strip().splitlines()) == 1
    (tmp_path / "file.txt").write_text("x")
    assert run_cli([str(tmp_path / "file.txt")]) == 2
    assert "not a directory" in capsys.readouterr().err
    # the function the CLI calls says the same on its own
    assert open_debugger(str(missing)) == 2
    assert capsys.readouterr().err.strip() == f"intentus-tui: no such directory: {missing}"


async def test_demo_opens_a_generated_world_from_the_user_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("INTENTUS_TUI_KEYMAP", str(tmp_path / "no-keymap.toml"))
    app = build_app(None, demo=True, watch=False)
    assert (
        app.root.records_dir
        == tmp_path / "cache" / "intentus-tui" / "demo" / ".intentusnet" / "records"
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, timeout=20)
        counts = app.execution_list.model.counts
        assert sum(counts.values()) >= 40
        outcomes = {outcome for outcome, _, _ in +counts}
        assert {Outcome.SUCCEEDED, Outcome.UNKNOWN, Outcome.IN_FLIGHT} <= outcomes
    with pytest.raises(OpenError):
        build_app(str(tmp_path), demo=True)


async def test_live_rows_above_keep_the_selection_where_it_is_on_screen(
    records_dir: Path,
) -> None:
    from dataclasses import replace

    from intentus_tui.tui.live.messages import IndexChanged
    from tests.tui.test_list_model import summary

    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.post_message(IndexChanged(tuple(summary(n) for n in range(0, 400, 2))))
        await settle(pilot)
        listing = app.execution_list
        await pilot.press("pagedown", "pagedown", "j", "j")
        await settle(pilot)
        key = listing.selected_key
        screen_row = listing.cursor_row - round(listing.scroll_y)
        assert round(listing.scroll_y) > 0 and key is not None
        # 100 new executions sort in among the old ones, some above the cursor
        app.post_message(IndexChanged(tuple(summary(n) for n in range(1, 200, 2))))
        await settle(pilot)
        assert listing.selected_key == key
        assert listing.cursor_row - round(listing.scroll_y) == screen_row
        # a changed row re-renders; an unchanged one keeps its cached line (drawn on screen)
        screen_lines(app)
        cached = listing._strips.get(listing.model.key_at(round(listing.scroll_y) + 1) or "")
        changed = replace(listing.selected_summary, intent="Changed")
        app.post_message(IndexChanged((changed,)))
        await settle(pilot)
        assert "Changed" in list_lines(app)[screen_row]
        assert cached is not None
        after = listing._strips.get(listing.model.key_at(round(listing.scroll_y) + 1) or "")
        assert after is cached
        # the selected execution disappears: the cursor stays on the same screen row
        app.post_message(IndexChanged((), (key,)))
        await settle(pilot)
        assert listing.selected_key not in (None, key)
        assert listing.cursor_row - round(listing.scroll_y) == screen_row


async def test_every_built_in_theme_restyles_the_rows(records_dir: Path) -> None:
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        listing = app.execution_list
        styles = set()
        for theme in ("textual-dark", "textual-light", "nord", "gruvbox"):
            app.theme = theme
            await settle(pilot)
            strip = listing.render_line(listing.cursor_row - round(listing.scroll_y))
            styles.add(str(next(iter(strip)).style))
        assert len(styles) == 4  # the cached lines were re-rendered in each theme


async def test_keys_arriving_in_one_burst_after_slash_go_to_the_filter(
    records_dir: Path, world: dict[str, str]
) -> None:
    """A terminal delivers fast typing (or a paste) as one burst of key events."""
    from textual import events

    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)

        def burst(*keys: tuple[str, str | None]) -> None:
            for key, character in keys:
                app.post_message(events.Key(key, character))

        burst(("slash", "/"), ("t", "t"), ("r", "r"), ("a", "a"))
        await settle(pilot)
        assert app.query_one("#filter").value == "tra"
        assert app.execution_list.model.shown_count == 2
        first = app.execution_list.selected_key
        burst(("enter", "\r"), ("j", "j"))
        await settle(pilot)
        assert app.query_one("#filter").value == "tra"
        assert app.focused is app.execution_list
        assert app.execution_list.selected_key != first


async def test_a_filter_typed_confirmed_and_left_in_one_burst(
    records_dir: Path, world: dict[str, str]
) -> None:
    """Keys typed faster than the app handles them (one burst): a "/" typed in the box is
    text, in its place among the letters around it; enter leaves the box after the text
    typed before it, and j moves in the list."""
    from textual import events

    def burst(*keys: tuple[str, str | None]) -> None:
        for key, character in keys:
            app.post_message(events.Key(key, character))

    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        first = app.execution_list.selected_key
        burst(("slash", "/"), ("t", "t"), ("slash", "/"), ("r", "r"), ("a", "a"))
        await settle(pilot)
        box = app.query_one("#filter")
        assert box.value == "t/ra"  # the "/" once came first, ahead of the "t" queued
        box.value = "tr"
        await settle(pilot)
        burst(("a", "a"), ("enter", "\r"), ("j", "j"))
        await settle(pilot)
        assert box.value == "tra"
        assert box.display  # the filter in force stays in sight
        assert app.focused is app.execution_list
        assert app.execution_list.model.shown_count == 2
        assert app.execution_list.selected_key != first
        # Escape in the same burst as more text: the filter is cleared of all of it.
        for key, character in (("slash", "/"), ("x", "x"), ("escape", None), ("k", "k")):
            app.post_message(events.Key(key, character))
        await settle(pilot)
        assert box.value == "" and not box.display
        assert app.focused is app.execution_list
        assert app.execution_list.model.shown_count == len(world)
        assert app.execution_list.selected_key == first


async def test_escape_on_the_list_clears_the_filter_in_force(
    records_dir: Path, world: dict[str, str]
) -> None:
    """Back on the list with a filter applied, the footer offers escape to clear it; from the
    timeline escape still goes back to the list first."""
    from intentus_tui.core.verdict import verdict_of
    from intentus_tui.tui.widgets.footer import AppFooter

    def footer() -> list[str]:
        return [key.key_display for key in app.screen.query_one(AppFooter).keys]

    app = make_app(records_dir)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert "esc" not in footer()  # nothing to clear
        await pilot.press("slash", *"translate", "enter")
        await settle(pilot)
        assert app.focused is app.execution_list
        assert app.execution_list.model.shown_count == 2
        assert "esc" in footer()
        await pilot.press("enter")  # the timeline
        await settle(pilot)
        await pilot.press("escape")  # back to the list, the filter kept
        await settle(pilot)
        assert app.focused is app.execution_list
        assert app.execution_list.model.shown_count == 2
        await pilot.press("escape")
        await settle(pilot)
        assert app.execution_list.model.shown_count == len(world)
        assert not app.query_one("#filter").display
        assert "(2 shown)" not in screen_text(app)
        assert "esc" not in footer()
        # An empty list says what hides the rows: the filter, the view, or both.
        await pilot.press("slash", *"no-such-thing", "enter")
        await settle(pilot)
        assert "Press esc to clear the filter." in screen_text(app)
        await pilot.press("v")  # needs attention only
        await settle(pilot)
        text = screen_text(app)
        assert "Press v to change the view, or esc to clear the filter." in text
        await pilot.press("escape")
        await settle(pilot)
        # The filter cleared, the view kept: every execution that needs attention.
        summaries = app.execution_list.model.summaries.values()
        attention = sum(verdict_of(summary).needs_attention for summary in summaries)
        assert 0 < app.execution_list.model.shown_count == attention < len(world)


async def test_the_selected_row_stays_in_sight_when_the_terminal_shrinks(tmp_path: Path) -> None:
    """``G`` at 120x36 selects the last row; at 80x24 fewer rows fit: the list scrolls to
    keep it in sight (it showed others while the timeline beside it showed this one)."""
    from intentus_tui.demo.writer import build_demo_world

    manifest = build_demo_world(tmp_path)
    app = make_app(manifest.root)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, timeout=20)
        app.execution_list.focus()
        await pilot.press("G")
        await settle(pilot)
        selected = app.execution_list.selected_summary
        assert selected is not None
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        shown = "\n".join(list_lines(app))
        assert selected.short_id in shown


async def test_an_invalidated_execution_reads_as_an_operators_decision_at_80_columns(
    real_world: RealWorld,
) -> None:
    """At 80 columns (the list maximised) a record an operator invalidated read
    "✗ invalid.", as if the record were invalid (a file that does not parse, which reads
    "✗ corrupt"). Its row, and its timeline's header, read "✗ operator" now, and the help's
    legend says what that means."""
    app = make_app(real_world.records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("z")  # the list alone: its rows have room for words
        await settle(pilot)
        rows = {row.split()[0]: row for row in list_lines(app) if row.strip()}
        invalidated = rows[real_world.invalidated[:8]]
        assert "✓ succeeded verified ✗ operator" in invalidated, invalidated
        assert "✗ corrupt" in rows[real_world.error_truncated[:8]]
        assert not any("invalid" in row for row in rows.values())
        await pilot.press("z")
        assert app.execution_list.select_key(f"{real_world.invalidated}.json")
        await pilot.press("enter")
        await settle(pilot)
        assert "✓ succeeded · verified · ✗ operator" in screen_text(app)
        await pilot.press("question_mark")
        await settle(pilot)
        legend = " ".join(str(app.screen.query_one("#help-body").render()).split())
        assert "✗ operator invalidated by an operator, not damaged" in legend, legend
