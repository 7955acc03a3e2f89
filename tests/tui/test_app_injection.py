"""Hostile strings from records are shown literally: no markup, no terminal control codes."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.tui.commands import ExecutionCommands
from tests.factories import make_record, write_record
from tests.tui.app_support import (
    HOSTILE_TEXTS,
    SIZE,
    list_lines,
    make_app,
    screen_text,
    settle,
    timeline_summary,
    wait_for,
)

MARKUP = "[b]x[/b] [/x] [$accent]y"
CONTROL = "\x1b[2J\x1b]0;title\x07\u202eevil"


def _hostile_world(records: Path) -> None:
    record = make_record(
        execution_id=f"id{MARKUP}",
        intent=f"Intent {MARKUP} {CONTROL}",
        agents=(("[red]agent[/red]", "error"), ("\x1b[31mb", "ok")),
    )
    write_record(records, record, name="hostile.json")
    write_record(records, make_record(execution_id="plain-1", intent="[/x]"), name="plain.json")


def _hit_count(app: object) -> int:
    from textual.command import CommandList

    lists = app.screen.query(CommandList)  # type: ignore[attr-defined]
    return lists.first().option_count if lists else 0


def _svg_text(svg: str) -> str:
    root = ET.fromstring(svg)  # raises if the SVG is not well-formed XML
    return "".join(root.itertext()).replace("\xa0", " ")


async def test_markup_and_control_characters_are_shown_literally(records_dir: Path) -> None:
    _hostile_world(records_dir)
    app = make_app(records_dir, directory_label="dir [b]label[/b] \x1b[2J")
    async with app.run_test(size=(200, 45)) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key("hostile.json")
        await settle(pilot)
        rows = "\n".join(list_lines(app))
        # its file is not named after its id (no file name holds "/"): the row names the file
        assert " hostile.json " in rows
        assert "Intent [b]x[…" in rows  # cut to the intent column (the verdict takes room)
        summary = timeline_summary(app)
        assert f"id{MARKUP}" in summary
        assert "Intent [b]x[/b] [/x] [$accent]y ␛[2J␛]0;title␇⟨U+202E⟩evil" in summary
        assert "[red]agent[/red] ✗ → ␛[31mb ✓" in summary
        text = screen_text(app)
        assert "dir [b]label[/b] ␛[2J" in text
        assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text
        svg = app.export_screenshot()
        shown = _svg_text(svg)
        assert "[b]x[/b] [/x] [$accent]y" in shown
        assert "[red]agent[/red]" in shown
        for hostile in HOSTILE_TEXTS:
            if hostile != sanitize_line(hostile):  # control characters never reach the SVG
                assert hostile not in svg
        # Acting on the execution echoes its id in notifications and modals: still literal.
        await pilot.press("m")
        await settle(pilot)
        await pilot.press("I")
        await settle(pilot)
        assert "[b]x[/b]" in _svg_text(app.export_screenshot())
        await pilot.press("escape")


async def test_command_palette_search_with_hostile_intents(records_dir: Path) -> None:
    _hostile_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        provider = ExecutionCommands(app.screen)
        hits = [hit async for hit in provider.search("[/x]")]
        assert {h.text for h in hits} >= {"plain-1 [/x]"}
        prompts = [str(h.prompt) for h in hits]
        assert any("[/x]" in p for p in prompts)
        # The palette renders them without a MarkupError.
        await pilot.press("ctrl+p", *"[/x]")
        await wait_for(pilot, lambda: _hit_count(app) >= 2, "both hits listed")
        shown = _svg_text(app.export_screenshot())
        assert "plain-1" in shown and "id[b]x[/b] [/x] [$accent]y" in shown
        await pilot.press("escape")
        await pilot.press("ctrl+p", *"plain-1")
        await wait_for(pilot, lambda: _hit_count(app) == 1, "one hit")
        await pilot.press("enter")  # run from a timer once the palette closes: waited for
        await wait_for(pilot, lambda: app.execution_list.selected_key == "plain.json", "opened")
        await settle(pilot)
