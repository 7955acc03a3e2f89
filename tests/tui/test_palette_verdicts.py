"""The command palette gives each execution's verdict with its reasons (as the timeline
header does) and finds executions by their verdict's words, as ``/`` does; ``verdict``
finds the tab that shows the selected execution's verdict."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from textual.content import Content

from intentus_tui.tui.commands import (
    MAX_HIT_ROWS,
    ExecutionCommands,
    execution_hit_display,
    score_summary,
)
from intentus_tui.tui.screens.command_palette import SafeCommandPalette
from intentus_tui.tui.screens.confirm import ConfirmScreen
from tests.factories import make_record, write_record
from tests.tui.app_support import make_app, screen_text, settle, wait_for, write_world
from tests.tui.test_app_injection import _hit_count
from tests.tui.test_list_model import summary


async def test_verdict_words_find_executions_and_the_hits_give_the_reasons(
    records_dir: Path,
) -> None:
    ids = write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        provider = ExecutionCommands(app.screen)

        async def found(query: str) -> dict[str, str]:
            return {hit.text.split()[0]: str(hit.help) async for hit in provider.search(query)}

        unknown = await found("unknown")
        assert list(unknown) == [ids["truncated"]]
        # Each answer short of a clean one with its reason, worded as the timeline header's.
        lines = unknown[ids["truncated"]].splitlines()
        assert lines[0].startswith("open execution · ")
        assert [line.split()[0] for line in lines[1:]] == ["outcome", "integrity", "replay"]
        assert lines[1].startswith("outcome   ? unknown — the file is damaged")
        assert all(len(line) <= 80 - 6 for line in lines)  # one line each, cut to fit
        not_replayable = await found("not replayable")
        assert set(not_replayable) == {ids["invalidated"], ids["incomplete"], ids["truncated"]}
        assert not_replayable[ids["invalidated"]].splitlines()[1:] == [
            "replay    ✗ no (manually_invalidated) — an operator marked this record as…"
        ]
        # A clean execution: its marks say it all; no reasons under them.
        assert (await found(ids["ok"][:8]))[ids["ok"]] == "open execution · agent-a ✓"

        # As the user sees it.
        await pilot.press("ctrl+p", *"unknown")
        await wait_for(pilot, lambda: _hit_count(app) == 1, "one hit")
        shown = screen_text(app)
        assert ids["truncated"] in shown and "outcome   ? unknown — the file is damaged" in shown
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("ctrl+p", *"verdict")
        await wait_for(pilot, lambda: _hit_count(app) >= 1, "a hit")
        assert "Show the Verify tab (the verdict and its reasons)" in screen_text(app)
        await pilot.press("enter")  # run from a timer once the palette closes: waited for
        await wait_for(pilot, lambda: app.side_pane.active_tab == "verify", "the Verify tab")


async def test_page_keys_at_once_after_ctrl_p_never_take_the_debugger_down(
    records_dir: Path,
) -> None:
    """PageDown within milliseconds of ctrl+p, before the palette's list is laid out,
    raised KeyError in Textual's OptionList and ended the debugger."""
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for key in ("pagedown", "pageup"):
            app.action_command_palette()
            await pilot.press(key)  # before any frame of the palette
            await settle(pilot)
            assert app.is_running and isinstance(app.screen, SafeCommandPalette)
            await pilot.press("escape")
            await settle(pilot)


async def test_the_palette_never_opens_over_a_dialog(records_dir: Path) -> None:
    """Over "Force a replay?" it selected another execution underneath, or stacked a second
    dialog on the first."""
    ids = write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.execution_list.select_key(f"{ids['invalidated']}.json")
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("ctrl+p")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)  # still the question, alone
        assert len(app.screen_stack) == 2


async def test_a_hit_of_a_megabyte_intent_is_a_few_rows_that_say_it_was_cut(
    records_dir: Path,
) -> None:
    """A hostile 1 MB intent (or agent name) was a hit of thousands of rows, wrapped again at
    each key typed: 12 s of a frozen debugger a key."""
    huge = "I" + "intent\u202e " * 100_000
    write_record(records_dir, make_record(execution_id="huge-intent", intent=huge))
    write_record(records_dir, make_record(execution_id="huge-agent", agents=(("A" + huge, "ok"),)))
    app = make_app(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        provider = ExecutionCommands(app.screen)
        hits = {hit.text.split()[0]: hit async for hit in provider.search("huge")}
        assert set(hits) == {"huge-intent", "huge-agent"}
        shown = Content.assemble(hits["huge-intent"].prompt).plain
        assert shown.startswith("huge-intent  Iintent") and "…" in shown
        assert len(shown) < MAX_HIT_ROWS * 80 + 100  # not the 800,000 characters it has
        (chain,) = str(hits["huge-agent"].help).splitlines()
        assert chain.startswith("open execution · AIintent") and chain.endswith("…")
        await pilot.press("ctrl+p", *"huge")
        await wait_for(pilot, lambda: _hit_count(app) == 2, "two hits")
        assert "huge-intent  Iintent" in screen_text(app)


def test_one_id_in_two_roots_or_two_files_is_told_apart_in_the_palette() -> None:
    """With several roots open, one id in two of them was two palette lines alike (and a
    copy beside its record too): nothing said which line opened which. Each now names its
    root as the command line does (``ROOT:ID``), a copy its file, and ``ROOT:ID`` finds it."""
    one = summary(7)
    in_a, in_b = replace(one, root="incident-a"), replace(one, root="incident-b")
    in_a = replace(in_a, key=f"incident-a/{one.key}")
    in_b = replace(in_b, key=f"incident-b/{one.key}")
    copy = replace(in_b, key=f"incident-b/{one.execution_id}.copy.json")
    shown = [execution_hit_display(s, "", 200).plain for s in (in_a, in_b, copy)]
    assert len(set(shown)) == 3, shown
    assert shown[0].startswith(f"incident-a:{one.execution_id}  "), shown[0]
    assert shown[2].startswith(f"incident-b:{one.execution_id}  ({one.execution_id}.copy.json)")
    wal_only = replace(one, key=f"{one.execution_id}.wal", source="wal")  # not a copy
    assert execution_hit_display(wal_only, "", 200).plain.startswith(
        f"{one.execution_id}  {one.intent}"
    )
    needle = f"incident-b:{one.execution_id}"
    assert score_summary(in_b, needle) and not score_summary(in_a, needle)


async def test_a_hit_fits_its_line_at_80_columns(records_dir: Path) -> None:
    """At 80x24 a hit of a UUID in flight wrapped: "…  Refund  ◌ in flight · verified · ✗"
    then "no resp" alone on the next line. Each hit is one line now: its verdict as the
    list's narrow columns give it (the reasons are under it), its intent cut if need be."""
    ids = write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p", *ids["incomplete"][:6])
        await wait_for(pilot, lambda: _hit_count(app) >= 4, "the hits")
        await settle(pilot)
        lines = [line.strip() for line in screen_text(app).splitlines()]
        assert f"{ids['incomplete']}  Refund  ◌ #✓ ✗" in lines
        assert "no resp" not in lines and "↺ yes" not in lines


def test_a_hit_gives_its_verdict_in_the_longest_words_its_line_has_room_for() -> None:
    ident = "0" * 36
    one = replace(summary(7), execution_id=ident, key=f"{ident}.json", intent="Classify the x")
    words = "✓ succeeded · verified · ↺ yes"
    assert execution_hit_display(one, "", 200).plain == f"{ident}  Classify the x  {words}"
    for width in range(20, 120):
        shown = execution_hit_display(one, "", width)
        assert shown.cell_length <= width, (width, shown.plain)
        assert shown.plain.startswith("0" * min(8, width - 10)), (width, shown.plain)
    assert execution_hit_display(one, "", 82).plain == f"{ident}  Classify th…  {words}"
    assert execution_hit_display(one, "", 55).plain == f"{ident}  Classify…  ✓ #✓ ↺"
    assert execution_hit_display(one, "", 30).plain == f"{ident[:21]}…  ✓ #✓ ↺"
