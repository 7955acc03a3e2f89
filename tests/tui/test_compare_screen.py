"""The full-screen comparison, driven with Pilot: it opens on the first difference, n/N move
between differences, i toggles the ignore rules (and the hidden count changes), escape
closes; d in the debugger opens it; record text stays inert."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core.compare.aligned import Fold, SideRow
from intentus_tui.tui.screens.compare import ComparisonScreen
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import settle
from tests.tui.compare_harness import (
    CompareApp,
    compare_pair,
    debugger_on_pair,
    pair_app,
    record_pair,
)
from tests.tui.side_pane_harness import detail_from, finish_workers

SIZE = (120, 36)


def _text(widget: Any) -> str:
    return str(widget.render())


async def test_opens_on_the_first_difference_and_n_moves_between_them() -> None:
    app = pair_app()
    async with app.run_test(size=SIZE) as pilot:
        await finish_workers(pilot)
        screen = app.comparison
        values = screen.values
        assert values.has_focus
        differences = list(values.differences)
        assert len(differences) >= 3
        assert values.cursor == differences[0]
        first = values.current_row
        assert isinstance(first, SideRow) and first.differs(rules_on=True)
        current = _text(screen.query_one("#compare-current"))
        assert f"at {first.path_text}" in current
        # The timeline's first difference is the inserted model call, facing a gap.
        timeline = screen.timeline
        gap = timeline.current_row
        assert isinstance(gap, SideRow) and gap.a is None and gap.b is not None
        assert "MODEL_CALL" in gap.b
        await pilot.press("n")
        assert values.cursor == differences[1]
        await pilot.press("n")
        assert values.cursor == differences[2]
        await pilot.press("N")
        assert values.cursor == differences[1]
        assert f"at value 2/{len(differences)}" in _text(screen.query_one("#compare-status"))
        await pilot.press("N", "N")  # before the first: stays, and says so
        assert values.cursor == differences[0]
        await pilot.pause()
        said = [str(n.message) for n in app._notifications]
        assert said[-1] == f"This is the first difference ({len(differences)} in all): n goes on"
        await pilot.press("G")  # the last row, then back to the first
        assert values.cursor == values.row_count() - 1
        await pilot.press("home")
        assert values.cursor == 0


async def test_i_toggles_the_ignore_rules_and_the_count_changes() -> None:
    app = pair_app()
    async with app.run_test(size=SIZE) as pilot:
        await finish_workers(pilot)
        screen = app.comparison
        status = _text(screen.query_one("#compare-status"))
        hidden = screen.compared.hidden if screen.compared else 0
        assert hidden >= 2  # the router decision's time, in two places
        shown = len(screen.compared.comparison.entries) if screen.compared else 0
        assert f"{shown} changed values" in status and f"{hidden} hidden by ignore rules" in status

        def differing_lines() -> int:
            rules_on = screen.rules_on
            return sum(
                1
                for r in screen.values.rows
                if isinstance(r, SideRow) and r.differs(rules_on=rules_on)
            )

        lines_on = differing_lines()
        await pilot.press("i")
        status = _text(screen.query_one("#compare-status"))
        assert f"{shown + hidden} changed values" in status
        assert f"ignore rules off: {hidden} shown" in status
        assert differing_lines() > lines_on
        paths = {
            r.path_text
            for r in screen.values.rows
            if isinstance(r, SideRow) and r.differs(rules_on=False)
        }
        assert "routerDecision.timestamp" in paths
        await pilot.press("i")
        assert f"{hidden} hidden by ignore rules" in _text(screen.query_one("#compare-status"))
        assert differing_lines() == lines_on


async def test_e_unfolds_and_t_enter_jump_to_an_event() -> None:
    app = pair_app()
    async with app.run_test(size=SIZE) as pilot:
        await finish_workers(pilot)
        screen = app.comparison
        assert any(isinstance(r, Fold) for r in screen.values.rows)
        await pilot.press("e")
        assert not any(isinstance(r, Fold) for r in screen.values.rows)
        await pilot.press("t")
        assert screen.timeline.has_focus
        await pilot.press("enter")  # the inserted model call's lines
        assert screen.values.has_focus
        row = screen.values.current_row
        assert isinstance(row, SideRow) and row.path_text == "events[3]" and row.a is None


async def test_an_event_only_one_side_has_is_shown_whole_on_its_first_and_last_line() -> None:
    app = pair_app()
    async with app.run_test(size=SIZE) as pilot:
        await finish_workers(pilot)
        screen = app.comparison
        await pilot.press("t", "enter")  # the model call only B has: its "{" line
        # Keys in the order the comparison lists them (sorted), as every line of the values.
        whole = '{"payload": {"latency_ms": 812, "model": "m-2"}, "seq": 4, "type": "MODEL_CALL"}'
        current = _text(screen.query_one("#compare-current"))
        assert f"B {whole}" in current, current
        assert "A (nothing on this side)" in current
        await pilot.press("down", "down")  # inside the event: a line says itself
        assert 'B "latency_ms": 812' in _text(screen.query_one("#compare-current"))
        await pilot.press(*["down"] * 5)  # its last line, "}"
        row = screen.values.current_row
        assert isinstance(row, SideRow) and row.b is not None and row.b.strip() == "}"
        assert f"B {whole}" in _text(screen.query_one("#compare-current"))


async def test_an_event_s_first_line_is_judged_as_the_timeline_judges_the_event() -> None:
    # The values said "same" at a changed event's "{" (its brace lines are alike).
    app = pair_app()
    async with app.run_test(size=SIZE) as pilot:
        await finish_workers(pilot)
        screen = app.comparison
        await pilot.press("t")
        seen = set()
        for index, event in enumerate(screen.timeline.rows):
            assert isinstance(event, SideRow)
            if event.a is None or event.b is None:
                continue  # only one side has it: "added" or "removed" there and here
            screen.timeline.focus()
            screen.timeline.cursor = index
            await pilot.press("enter")
            current = _text(screen.query_one("#compare-current"))
            state = current.splitlines()[0].partition("  ")[2]
            if event.differs(rules_on=True):
                expected = "changed"
            elif event.status != "same":
                expected = "differs, hidden by an ignore rule"
            else:
                expected = "same"
            assert state == expected, (event, current)
            seen.add(expected)
        assert {"changed", "same"} <= seen


@pytest.mark.parametrize("size", [(80, 24), SIZE])
async def test_enter_on_an_unchanged_event_shows_its_lines_not_a_fold(
    size: tuple[int, int],
) -> None:
    app = pair_app()
    async with app.run_test(size=size) as pilot:
        await finish_workers(pilot)
        screen = app.comparison
        assert any(isinstance(r, Fold) for r in screen.values.rows)  # folded, as it opens
        await pilot.press("t", "home")  # the first event: the same on both sides
        first = screen.timeline.current_row
        assert isinstance(first, SideRow) and first.status == "same"
        await pilot.press("enter")
        assert screen.values.has_focus
        row = screen.values.current_row
        assert isinstance(row, SideRow), row  # the event's first line, not "⋯ unchanged ⋯"
        assert row.path_text == "events[0]" and row.a is not None and row.a == row.b
        # the event's first line at the top of the pane, its values below it in sight
        assert round(screen.values.scroll_y) == min(
            screen.values.cursor, round(screen.values.max_scroll_y)
        )
        assert "e: unfold" not in _text(screen.query_one("#compare-current"))
        await pilot.press("e")  # e folds again, the cursor stays on what it showed
        assert any(isinstance(r, Fold) for r in screen.values.rows)


async def test_escape_and_q_close() -> None:
    app = pair_app()
    async with app.run_test(size=SIZE) as pilot:
        await finish_workers(pilot)
        assert isinstance(app.screen, ComparisonScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, ComparisonScreen)
        app.compare_executions(app.a, app.b)
        await finish_workers(pilot)
        assert isinstance(app.screen, ComparisonScreen)
        await pilot.press("q")
        assert not isinstance(app.screen, ComparisonScreen)


async def test_usable_at_80x24() -> None:
    app = pair_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await finish_workers(pilot)
        screen = app.comparison
        for widget_id in ("#compare-timeline", "#compare-values", "#compare-current"):
            region = screen.query_one(widget_id).region
            assert region.height >= 3 and region.right <= 80 and region.bottom <= 24, widget_id
        assert screen.values.region.height >= 8
        shown = " ".join(_svg_lines(app.export_screenshot()))
        assert "Close" in shown and "Ignore" in shown and "Next" in shown


async def test_the_debugger_d_key_opens_it_with_the_verdicts(records_dir: Path) -> None:
    app = debugger_on_pair(records_dir)
    async with app.run_test(size=(200, 50)) as pilot:
        await compare_pair(pilot)
        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        assert "execution exec-000A · ✓ succeeded" in _text(screen.query_one("#side-a"))
        assert "execution exec-000B" in _text(screen.query_one("#side-b"))
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, ComparisonScreen)
        assert app.side_pane.active_tab == "diff", app.focused
        print("FOCUSED", app.focused)  # the compact view stays
        app.side_pane.diff_pane.view.focus()
        await pilot.press("f")  # and opens full screen again
        await settle(pilot)
        assert isinstance(app.screen, ComparisonScreen)


async def test_a_toast_from_before_does_not_cover_the_comparison(records_dir: Path) -> None:
    """ "Snapshot saved" (8 s) sat over the values of the comparison opened next."""
    app = debugger_on_pair(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        app.notify("Snapshot saved: exec-000A.snapshot.json", timeout=8)
        await compare_pair(pilot)
        assert isinstance(app.screen, ComparisonScreen)
        assert not [n for n in app._notifications if "Snapshot saved" in str(n.message)]  # type: ignore[attr-defined]


async def test_f_in_the_diff_tab_opens_the_full_screen_at_its_difference(
    records_dir: Path,
) -> None:
    """``f`` opened the full screen on its own first difference, wherever the Diff tab's
    cursor was (and the two count in different orders)."""
    app = debugger_on_pair(records_dir)
    async with app.run_test(size=(200, 50)) as pilot:
        await compare_pair(pilot)
        await pilot.press("escape")
        await settle(pilot)
        view = app.side_pane.diff_pane.view
        assert len(view.entries) > 2
        for index in (len(view.entries) - 1, 1):
            view.focus()
            view.cursor = index
            await settle(pilot)
            wanted = view.current_entry
            assert wanted is not None
            await pilot.press("f")
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, ComparisonScreen) and screen.folded is not None
            row = screen.folded.rows[screen.values.cursor]
            assert isinstance(row, SideRow) and row.path[: len(wanted.path)] == wanted.path
            await pilot.press("escape")
            await settle(pilot)


async def test_record_text_is_inert() -> None:
    a, b = record_pair()
    hostile = "[b]x[/b] [$accent]y \x1b[2J\x1b]0;title\x07\u202eevil"
    b["finalResponse"]["payload"] = {"summary": hostile, hostile: 1}
    b["header"]["executionId"] = "exec-[b]B[/b]\x1b[31m"
    app = CompareApp(detail_from(a), detail_from(b))
    async with app.run_test(size=SIZE) as pilot:
        await finish_workers(pilot)
        svg = app.export_screenshot()
        ET.fromstring(svg)  # control characters would make it invalid XML
        shown = "".join(_svg_lines(svg))
        assert "\x1b" not in svg and "\u202e" not in svg
        assert "exec-[b]B[/b]" in shown
        screen = app.comparison
        screen.values.cursor = next(
            i
            for i, r in enumerate(screen.values.rows)
            if isinstance(r, SideRow) and r.b and "[b]x[/b]" in r.b
        )
        await pilot.pause()
        current = _text(screen.query_one("#compare-current"))
        # Values are shown as JSON (control characters escaped), then sanitized: literal.
        assert '"[b]x[/b] [$accent]y \\u001b[2J' in current and "⟨U+202E⟩evil" in current


async def test_the_timelines_keep_their_difference_on_screen_through_a_resize() -> None:
    """Taller, every event fits and the timelines scrolled to their top; back at 80x24 the
    status still said the last event difference while the pane showed the first events."""

    def on_screen(view: Any) -> list[str]:
        lines = range(1, view.size.height)
        return ["".join(seg.text for seg in view.render_line(y)) for y in lines]

    app = pair_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await finish_workers(pilot)
        screen = app.comparison
        timeline = screen.timeline
        await pilot.press("t", *["n"] * len(timeline.differences))
        last = timeline.current_row
        assert isinstance(last, SideRow) and last.b is not None
        assert last.b.startswith("#9 FINAL_RESPONSE")
        assert any(last.b in line for line in on_screen(timeline))
        for size in ((120, 36), (80, 24)):
            await pilot.resize_terminal(*size)
            await settle(pilot)  # resized, then laid out and its titles fitted again
            status = _text(screen.query_one("#compare-status"))
            total = len(timeline.differences)
            assert f"at event {total}/{total}" in status
            assert any(last.b in line for line in on_screen(timeline)), on_screen(timeline)


def _svg_lines(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    texts = ["".join(node.itertext()) for node in root.iter() if node.tag.endswith("text")]
    return [t.replace("\xa0", " ") for t in texts]


async def test_the_timeline_follows_the_values_cursor() -> None:
    app = pair_app()
    async with app.run_test(size=SIZE) as pilot:
        await finish_workers(pilot)
        screen = app.comparison
        seen: list[tuple[str, str]] = []
        for _ in screen.values.differences:
            row = screen.values.current_row
            event = screen.timeline.current_row
            if isinstance(row, SideRow) and row.path_text.startswith("events["):
                assert isinstance(event, SideRow) and event.b is not None
                seen.append((row.path_text.split(".")[0], event.b))
            await pilot.press("n")
        assert ("events[3]", "#4 MODEL_CALL") in seen
        assert any(text.startswith("#9 FINAL_RESPONSE") for _, text in seen)


async def test_what_cannot_be_compared_says_why(tmp_path: Path) -> None:
    from intentus_tui.core.compare import record_operand, run_operand
    from tests.activegraph_world import notes_world

    world = notes_world(tmp_path)
    a, _ = record_pair()
    app = CompareApp(detail_from(a), detail_from(a))
    async with app.run_test(size=SIZE) as pilot:
        await finish_workers(pilot)
        app.screen.dismiss(None)
        await pilot.pause()
        app.open_comparison(record_operand("A", a), run_operand("B", world.path, world.parent))
        await finish_workers(pilot)
        status = _text(app.comparison.query_one("#compare-status"))
        assert status.startswith("Cannot compare: cannot compare an Active Graph run")
        await pilot.press("escape")
        assert not isinstance(app.screen, ComparisonScreen)


async def test_the_first_divergence_reads_the_same_in_the_cli_the_diff_tab_and_here(
    records_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """B has an event A lacks: the command line's ``diff``, the Diff tab and the comparison
    name one place in one wording (the aligned timelines' gap), with the ignore rules on and
    off."""
    from intentus_tui.cli import run
    from tests.factories import write_record
    from tests.tui.app_support import make_app, mark_and_compare, settle

    a, b = record_pair()
    write_record(records_dir, a)
    write_record(records_dir, b)
    said: dict[str, str] = {}
    for flags, name in (((), "rules on"), (("--all",), "rules off")):
        run(["diff", "exec-000A", "exec-000B", "--dir", str(records_dir), *flags])
        out = capsys.readouterr().out
        [line] = [x for x in out.splitlines() if x.startswith("first divergence: ")]
        said[name] = line.removeprefix("first divergence: ")
    expected = "events[3] (seq - / 4): only in B (MODEL_CALL)"
    assert said == {"rules on": expected, "rules off": expected}

    app = make_app(records_dir)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, "exec-000A.json", "exec-000B.json")
        summary = _text(app.side_pane.diff_pane.query_one("#diff-summary"))
        assert f"first divergence: {expected}" in summary
        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        assert f"first divergence: {expected}" in _text(screen.query_one("#compare-status"))
        await pilot.press("i")  # the ignore rules off
        await settle(pilot)
        assert f"first divergence: {expected}" in _text(screen.query_one("#compare-status"))


async def test_an_invalidated_copy_shows_its_header_and_names_both_files(
    records_dir: Path, real_world: RealWorld, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record written by 1.3.0 and a copy of it that 1.3.0 marked not replayable, with
    another creation time: the invalidation is a difference here, in the Diff tab and in
    the command line alike, the time is hidden and counted, and each side, under one short
    id, is named by its file."""
    from intentusnet.recording.recorder import InMemoryExecutionRecorder
    from intentusnet.recording.store import FileExecutionStore as RealStore

    from intentus_tui.cli import run
    from tests.tui.app_support import make_app, mark_and_compare, settle

    original = Path(shutil.copy(real_world.records_dir / f"{real_world.success}.json", records_dir))
    elsewhere = records_dir.parent / "invalidated"
    elsewhere.mkdir()
    shutil.copy(original, elsewhere)
    store = RealStore(str(elsewhere))
    recorder = InMemoryExecutionRecorder(store.load(real_world.success))
    recorder.mark_not_replayable("manually_invalidated")
    record = recorder.get_record().to_dict()
    record["header"]["createdUtcIso"] = "2027-01-01T00:00:00+00:00"
    copy = records_dir / "invalidated-copy.json"
    copy.write_text(json.dumps(record, ensure_ascii=False, indent=2), "utf-8")

    run(["diff", str(original), str(copy), "--json"])
    cli = json.loads(capsys.readouterr().out)
    expected = ["header.replayable", "header.replayableReason"]
    assert [e["path_text"] for e in cli["entries"]] == expected and cli["hidden"] == 1

    app = make_app(records_dir)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        await mark_and_compare(pilot, original.name, copy.name)
        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        short = real_world.success[:8]
        # B's verdict is long (not replayable, and why): side by side, both drop the word
        # "execution", and A's file name, which repeats its id, is cut as its row cuts it.
        named = f"{original.name[:5]}…{original.name[-10:]}"
        assert _text(screen.query_one("#side-a")).startswith(f"A {named} · ✓ succeeded")
        side_b = _text(screen.query_one("#side-b"))
        assert side_b.startswith(f"B {short} (invalidated-copy.json) · ✓ succeeded · verified")
        assert side_b.endswith("✗ no (manually_invalidated)")
        status = _text(screen.query_one("#compare-status"))
        assert status.startswith(
            "records · 2 changed values · 0 changed events · at value 1/2 · 1 hidden by ignore rules"
        ), status
        differing = [
            r.path_text
            for r in screen.values.rows
            if isinstance(r, SideRow) and r.differs(rules_on=True)
        ]
        assert differing == expected
        row = screen.values.current_row  # it opens on the first difference
        assert isinstance(row, SideRow) and row.path_text == "header.replayable"
        assert row.a is not None and "true" in row.a and row.b is not None and "false" in row.b
        await pilot.press("i")  # the ignore rules off: the creation time too
        await settle(pilot)
        differing = [
            r.path_text
            for r in screen.values.rows
            if isinstance(r, SideRow) and r.differs(rules_on=False)
        ]
        assert differing == ["header.createdUtcIso", *expected]
        await pilot.press("escape")
        await settle(pilot)
        pane = app.side_pane.diff_pane
        assert pane.outcome is not None and pane.outcome.paths == expected
        title = _text(pane.query_one("#diff-title"))
        # named by their files, as their list rows are (the id no longer repeated before)
        assert f"A: {original.name}\n" in title and "B: invalidated-copy.json\n" in title


def test_side_titles_name_roots_and_shorten_for_a_narrow_screen(tmp_path: Path) -> None:
    """Two roots: each title names its root (no file name: the roots tell the sides
    apart). Copies in one root name their files, and a narrow screen's version cuts a file
    name that repeats the id as the list's row does (never drops it: it tells the two
    apart), then drops the word "execution"; the verdict stays, in words (``untrusted``,
    not the list's ``untrust``)."""
    from intentus_tui.core.compare.operands import record_operand
    from intentus_tui.core.model import Integrity, Outcome, ReplayCode, Verdict
    from intentus_tui.tui.presenters.compare_text import side_titles

    ident = "e3151288-62c3-4a4f-b774-eb5248db40af"
    record = {"header": {"executionId": ident}}
    tampered = Verdict(Outcome.SUCCEEDED, "", Integrity.TAMPERED, "", ReplayCode.UNTRUSTED, "")
    a = record_operand(ident, record, path=tmp_path / "demo" / f"{ident}.json")
    b = record_operand(ident, record, path=tmp_path / "copy" / f"{ident}.json", verdict=tampered)
    across = side_titles(a, b, ("demo", "copy"))
    assert across[0] == ["execution demo:e3151288", "demo:e3151288"]
    assert across[1][0] == "execution copy:e3151288 · ⚠ untrusted · tampered · ✗ no (untrusted)"
    b_here = record_operand(ident, record, path=tmp_path / "demo" / "copy.json", verdict=tampered)
    here = side_titles(a, b_here)
    assert here[0] == [
        f"execution e3151288 ({ident}.json)",
        "execution e3151…b40af.json",
        "e3151…b40af.json",
    ]
    assert here[1] == [
        "execution e3151288 (copy.json) · ⚠ untrusted · tampered · ✗ no (untrusted)",
        "e3151288 (copy.json) · ⚠ untrusted · tampered · ✗ no (untrusted)",
        # the last resort (80 columns): the answers as the list's columns abbreviate them
        "e3151288 (copy.json) · ⚠ untrusted · TAMPERED · ✗ untrust.",
    ]


COPIED_ID = "e3151288-62c3-4a4f-b774-eb5248db40af"


def _record_and_its_copy(tmp_path: Path, copy_name: str) -> CompareApp:
    """A record (its file named by its id) against a changed copy of it named ``copy_name``."""
    import copy as copying

    from intentus_tui.core.detail import load_detail
    from tests.tui.side_pane_harness import good_record

    record = good_record(COPIED_ID)
    original = tmp_path / f"{COPIED_ID}.json"
    original.write_text(json.dumps(record), "utf-8")
    other = copying.deepcopy(record)
    other["routerDecision"]["reason"] = "another reason"
    duplicate = tmp_path / copy_name
    duplicate.write_text(json.dumps(other), "utf-8")
    return CompareApp(load_detail(original), load_detail(duplicate))


async def _sides(app: CompareApp, pilot: Any) -> tuple[ComparisonScreen, str, str]:
    """The comparison once computed, and its two sides' titles (a title on two rows read as
    one line: it is broken between its parts, "✓ succeeded" over "verified · ↺ yes")."""
    await app.workers.wait_for_complete()
    await pilot.pause()
    screen = app.comparison
    a, b = (_text(screen.query_one(side)).replace("\n", " ") for side in ("#side-a", "#side-b"))
    return screen, a, b


async def test_at_80x24_copies_keep_their_verdicts_and_drop_the_long_id(tmp_path: Path) -> None:
    """Two copies of one record in one directory at 80 columns: each side shows its verdict
    and its file: the copy's whole, the one named after the id cut as its list row cuts it
    (it was left out, and that side named by its id alone)."""
    # (Side by side, each in half the width, the word "execution" gave way.)
    app = _record_and_its_copy(tmp_path, "copy.json")
    async with app.run_test(size=(80, 24)) as pilot:
        screen, side_a, side_b = await _sides(app, pilot)
        # Both sides in one form: the word "execution" gives way to the verdicts' words.
        # One above the other, each the whole width: the titles keep every word.
        assert side_a.startswith("A execution e3151…b40af.json · ") and COPIED_ID not in side_a
        assert side_b.startswith("B execution e3151288 (copy.json) · ")
        for side in (side_a, side_b):
            assert side.endswith(("verified · ↺ yes", "✗ no (untrusted)")), side
        await pilot.resize_terminal(200, 40)
        await settle(pilot)  # resized, then laid out and its titles fitted again
        assert f"({COPIED_ID}.json)" in _text(screen.query_one("#side-a"))


async def test_at_80x24_a_side_too_long_for_a_line_takes_two_and_keeps_its_words(
    tmp_path: Path,
) -> None:
    """A copy with a long file name: at 80 columns the titles are one above the other; the
    one that does not fit a line takes two and keeps its verdict's words (side by side, in
    half the width, it was cut: "B e3151288 (copy-kept…")."""
    app = _record_and_its_copy(tmp_path, "copy-kept-after-the-incident.json")
    async with app.run_test(size=(80, 24)) as pilot:
        screen, side_a, _ = await _sides(app, pilot)
        assert side_a == "A execution e3151…b40af.json · ✓ succeeded · verified · ↺ yes"
        assert _text(screen.query_one("#side-b")).split("\n") == [  # no "·" ends a row
            "B execution e3151288 (copy-kept-after-the-incident.json) · ✓ succeeded",
            "verified · ↺ yes",
        ]
        assert screen.query_one("#side-a").size.height == 1
        assert screen.query_one("#side-b").size.height == 2
        await pilot.resize_terminal(200, 40)
        await settle(pilot)  # resized, then laid out and its titles fitted again
        # Side by side, each on one line of its half, with every word and A's file name.
        assert _text(screen.query_one("#side-a")).startswith(f"A execution e3151288 ({COPIED_ID}")
        assert _text(screen.query_one("#side-b")).startswith("B execution e3151288 (copy-kept")
        assert screen.query_one("#side-a").region.y == screen.query_one("#side-b").region.y
        assert screen.query_one("#side-b").size.height == 1


async def test_at_80x24_long_ids_are_cut_with_an_ellipsis_and_keep_their_verdicts(
    tmp_path: Path,
) -> None:
    """Ids longer than the list's id column: at 80 columns each title cuts its id with
    ``…`` (as the list does) and still shows the verdict."""
    from intentus_tui.core.detail import load_detail
    from tests.tui.compare_harness import CompareApp
    from tests.tui.side_pane_harness import good_record

    paths = []
    for n in (1, 2):
        ident = f"exec-a-very-very-long-execution-identifier-000{n}"
        path = tmp_path / f"{ident}.json"
        path.write_text(json.dumps(good_record(ident)), "utf-8")
        paths.append(path)
    app = CompareApp(load_detail(paths[0]), load_detail(paths[1]))
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.comparison
        for side, name in (("#side-a", "A"), ("#side-b", "B")):
            text = _text(screen.query_one(side))
            assert text.startswith(f"{name} exec-a-very-ver… · "), text
            assert text.endswith("verified · ↺ yes"), text


def test_the_status_says_when_it_is_cut_to_its_two_rows() -> None:
    """The status line's end (the first divergence) was cut off at 80 columns unsaid."""
    from textual.content import Content

    from intentus_tui.tui.screens.compare import clamped

    text = Content("records · 23 changed values · first divergence: events[1] " * 3)
    shown = clamped(text, 40, 2).plain.split("\n")
    assert len(shown) == 2 and shown[-1].endswith("…")
    assert all(len(line) <= 40 for line in shown)
    assert clamped(Content("short"), 40, 2).plain == "short"


async def test_at_80x24_two_untrusted_sides_word_their_verdicts_alike(tmp_path: Path) -> None:
    """Two tampered copies (the envelope edited after its hash): side by side, B's longer name
    left room only for the list's abbreviations while A kept its words, and "tampered · ✗
    no (untrusted)" beside "TAMPERED · ✗ untrust" read as two verdicts. Both are worded
    alike."""
    from intentus_tui.core.detail import load_detail
    from tests.tui.side_pane_harness import tampered_record

    record = json.dumps(tampered_record(COPIED_ID))
    short = tmp_path / "copy.json"
    short.write_text(record, "utf-8")
    long = tmp_path / "kept-now.json"
    long.write_text(record, "utf-8")
    app = CompareApp(load_detail(short), load_detail(long))
    async with app.run_test(size=(80, 24)) as pilot:
        _, side_a, side_b = await _sides(app, pilot)
        # Stacked, each the whole width: both in words, and both without "execution"
        # (B has no room for it on its line: A drops it too, to read alike).
        assert side_a == "A e3151288 (copy.json) · ⚠ untrusted · tampered · ✗ no (untrusted)"
        assert side_b == "B e3151288 (kept-now.json) · ⚠ untrusted · tampered · ✗ no (untrusted)"
        await pilot.resize_terminal(200, 40)
        await settle(pilot)  # resized, then laid out and its titles fitted again
        for side in ("#side-a", "#side-b"):  # room for words: both take them
            assert "· tampered · ✗ no (untrusted)" in _text(app.comparison.query_one(side))


async def test_f_opens_the_full_screen_with_the_focus_on_the_list(records_dir: Path) -> None:
    """After ``d`` the Diff tab shows the comparison and the footer offers ``f``: it opens
    the full screen from the list too (it answered only inside the Diff tab's parts)."""

    app = debugger_on_pair(records_dir)
    async with app.run_test(size=(120, 36)) as pilot:
        await compare_pair(pilot)  # d opens the full screen: escape leaves the Diff tab
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, ComparisonScreen)
        app.execution_list.focus()
        await settle(pilot)
        assert app.side_pane.active_tab == "diff" and app.focused is app.execution_list
        await pilot.press("f")
        await settle(pilot)
        assert isinstance(app.screen, ComparisonScreen)


async def test_at_120_columns_titles_that_fit_no_half_stand_one_above_the_other(
    tmp_path: Path,
) -> None:
    """Side by side at 120 columns, a long title wrapped inside its verdict ("✗" on one
    line, "no (untrusted)" on the next): when a side fits no line of its half but both fit
    one of the whole width, the titles stand one above the other, each on its line."""
    app = _record_and_its_copy(tmp_path, "copy-kept-after-the-incident.json")
    async with app.run_test(size=(120, 36)) as pilot:
        screen, side_a, side_b = await _sides(app, pilot)
        assert side_a.startswith("A execution e3151288") and side_a.endswith("verified · ↺ yes")
        assert side_b.endswith(
            "(copy-kept-after-the-incident.json) · ✓ succeeded · verified · ↺ yes"
        )
        a, b = screen.query_one("#side-a"), screen.query_one("#side-b")
        assert a.size.height == b.size.height == 1 and b.region.y == a.region.y + 1


@pytest.mark.parametrize("width", [119, 120])
async def test_an_equal_value_is_drawn_alike_on_both_sides(width: int) -> None:
    """The halves were one cell apart when the room left was odd: a long value equal on
    both sides was cut on A's and whole on B's, and read as a difference."""
    a, _ = record_pair()
    long_value = "7848e163-64ec-4f4d-9e12-03c957a90846" * 3
    a["envelope"]["metadata"]["requestId"] = long_value
    b = json.loads(json.dumps(a))
    b["header"]["executionId"] = "exec-000B"
    app = CompareApp(detail_from(a), detail_from(b))
    async with app.run_test(size=(width, 36)) as pilot:
        await finish_workers(pilot)
        values = app.comparison.values
        lines = [values.line_text(i) for i in range(values.row_count())]
    rows = [line[2:].split(" │ ") for line in lines if "requestId" in line]
    assert rows and all(long_value[:20] in a_half for a_half, _ in rows)
    for a_half, b_half in rows:
        assert a_half.rstrip() == b_half.rstrip()
