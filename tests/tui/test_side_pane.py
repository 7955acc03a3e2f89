"""The side pane as a user drives it: verify, replay (normal, refused, forced), diff, post-mortem."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from intentusnet.wal.writer import WALWriter
from textual.widgets import Select

from intentus_tui.core.detail import load_detail
from intentus_tui.core.wal.read import read_wal
from intentus_tui.tui.presenters.execution_text import (
    cannot_invalidate,
    force_replay_lines,
    invalidate_lines,
)
from intentus_tui.tui.screens.confirm import ConfirmScreen
from intentus_tui.tui.widgets.diff_pane import (
    COMPARE,
    COMPARE_ALIGNED,
    DiffRequest,
    compute_diff,
    detail_operand,
)
from intentus_tui.tui.widgets.diff_view import DiffView
from intentus_tui.tui.widgets.json_view import MAX_LINE_CHARS, JsonView
from intentus_tui.tui.widgets.postmortem_pane import postmortem_lines
from intentus_tui.tui.widgets.replay_pane import ReplayPane
from intentus_tui.tui.widgets.verify_pane import verify_lines
from tests.factories import make_record, write_record
from tests.intentusnet_world import RealWorld, with_broken_wal_chain
from tests.tui.app_support import settle
from tests.tui.side_pane_harness import (
    HOSTILE,
    SidePaneApp,
    detail_from,
    finish_workers,
    forced_replay,
    good_record,
    refused_replay,
    salvaged_detail,
    tampered_record,
)

SIZE = (100, 40)


def text_of(lines: list) -> str:
    return "\n".join(line.plain for line in lines)


# ----------------------------------------------------------------------------- verify


async def test_verify_tab_shows_a_matching_hash_and_its_form() -> None:
    app = SidePaneApp(detail_from(good_record()))
    async with app.run_test(size=SIZE):
        text = app.side.verify_pane.text
    assert "VERIFIED" in text
    assert "Envelope hash   MATCH" in text
    assert "documented — sha256: prefix" in text  # form stored
    assert "Form matched    documented" in text
    assert "Event sequence   OK" in text
    # The runtime form of the same envelope is bound to differ: not a red ✗ (a user took it
    # for a failed check on a verified record).
    assert "✗" not in text and " ≠" in text and "≠: the same envelope in another form" in text


async def test_verify_tab_shows_a_tampered_envelope_as_mismatch_with_expected_and_actual() -> None:
    record = tampered_record()
    detail = detail_from(record)
    stored = record["header"]["envelopeHash"]
    check = detail.verify.hash
    assert check is not None and check.actual is not None
    app = SidePaneApp(detail)
    async with app.run_test(size=SIZE):
        text = app.side.verify_pane.text
    assert "MISMATCH" in text
    assert "possible tampering" in text
    assert f"Expected        {stored}" in text
    assert f"Actual          {check.actual} ✗" in text
    assert "Form matched    none" in text
    assert "1 PROBLEM" in text


def test_verify_names_a_benign_mismatch_instead_of_calling_it_tampering() -> None:
    record = good_record()
    record["header"]["envelopeHash"] = (
        record["header"]["envelopeHash"].upper().replace("SHA256:", "sha256:")
    )
    text = text_of(verify_lines(detail_from(record)))
    assert "MATCH" in text and "letter case" in text


async def test_verify_tab_explains_a_salvaged_file() -> None:
    app = SidePaneApp(salvaged_detail())
    async with app.run_test(size=SIZE):
        text = app.side.verify_pane.text
    assert "File   SALVAGED" in text
    assert "truncated" in text
    assert "Recovered       header, envelope, routerDecision" in text
    assert "Partial         events: 5 complete before the break" in text


def test_verify_lists_sequence_gaps_and_structure_problems() -> None:
    record = good_record()
    record["events"][2]["seq"] = 9  # 1, 2, 9, 4 ...
    del record["events"][4]["type"]
    text = text_of(verify_lines(detail_from(record)))
    assert "gap: seq 2 is followed by seq 9" in text
    assert "seq 4 after seq 9: not strictly increasing" in text
    assert "events[4].type is null" in text


def test_verify_shows_a_joined_wal_chain(tmp_path: Path) -> None:
    with WALWriter(str(tmp_path), "exec-0001") as writer:
        writer.execution_started("ab" * 32, "Summarize")
        writer.execution_completed("cd" * 32)
    wal_path = tmp_path / "exec-0001.wal"
    clean = text_of(verify_lines(detail_from(good_record()), read_wal(wal_path)))
    assert "Write-ahead log   CHAIN VALID" in clean
    lines = wal_path.read_text().splitlines()
    entry = json.loads(lines[0])
    entry["payload"]["intent_name"] = "Tampered"
    wal_path.write_text("\n".join([json.dumps(entry), *lines[1:]]) + "\n")
    broken = text_of(verify_lines(detail_from(good_record()), read_wal(wal_path)))
    assert "CHAIN BROKEN" in broken
    assert "line 1, byte 0" in broken


def test_verify_tab_does_not_call_a_record_verified_when_its_wal_chain_breaks(
    real_world: RealWorld, tmp_path: Path
) -> None:
    # The record's own checks pass; the real 1.3.0 WAL beside it lost its first entry.
    root = with_broken_wal_chain(real_world, tmp_path)
    records, wal_dir, name = root / "records", root / "wal", f"{real_world.success}.json"
    detail = load_detail(records / name, wal_dir)
    assert detail.verify.ok and detail.verdict is not None
    text = text_of(verify_lines(detail, verdict=detail.verdict))
    assert "VERIFIED" not in text  # as `verify` says FAIL for it
    assert "NOT TRUSTED   the record's own checks pass" in text
    assert "CHAIN BROKEN" in text
    # Its note wraps beside the badge (it went back to the left edge under it).
    (first,) = [
        ln
        for ln in verify_lines(detail, verdict=detail.verdict)
        if "NOT TRUSTED" in ln.prefix.plain
    ]
    assert first.body.plain == "the record's own checks pass, but its execution's evidence fails"


# ----------------------------------------------------------------------------- replay


async def test_replay_of_a_replayable_record_shows_the_recorded_response() -> None:
    app = SidePaneApp(detail_from(good_record()), tab="verify")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await finish_workers(pilot)
        pane = app.side.replay_pane
        assert app.side.active_tab == "replay"
        assert pane.outcome is not None and pane.outcome.kind == "result"
        text = pane.text
        view = pane.query_one(JsonView)
        payload = [view.visible_text(i) for i in range(view.line_count)]
        assert view.display
    assert "FROM REPLAY" in text
    assert "Original id     exec-0001" in text
    assert "Original time   2026-01-05T10:00:00Z" in text
    assert "SUCCESS" in text
    assert 'agent: "fb-secondary"' in text
    assert "Warnings" not in text
    assert payload == ["{", '  "summary": "done"', "}"]


async def test_an_error_response_replays_as_the_error() -> None:
    app = SidePaneApp(detail_from(good_record(final_status="error")), tab="replay")
    async with app.run_test(size=SIZE) as pilot:
        await app.side.run_replay(force=False)
        await finish_workers(pilot)
        text = app.side.replay_pane.text
    assert "ERROR RESPONSE" in text
    assert 'Error           {"code":"AGENT_ERROR","message":"Failed"}' in text


async def test_replay_refused_for_a_non_replayable_record_shows_the_reason() -> None:
    detail = detail_from(good_record(replayable=False, reason="manually_invalidated"))
    app = SidePaneApp(detail, tab="replay")
    async with app.run_test(size=SIZE) as pilot:
        text = await refused_replay(pilot)
        assert not app.side.replay_pane.query_one(JsonView).display  # no payload for a refusal
    assert "Replay refused   NOT REPLAYABLE" in text
    assert "manually_invalidated — an operator marked this record as not replayable" in text


async def test_forced_replay_asks_first_and_runs_when_confirmed() -> None:
    app = SidePaneApp(salvaged_detail(), tab="replay")
    async with app.run_test(size=SIZE) as pilot:
        body = await forced_replay(pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        pane = app.side.replay_pane
        assert pane.outcome is not None and pane.outcome.kind == "result"
        text = pane.text
    assert app.confirmed == [True]
    assert "Not replayable: record_corrupted" in body
    # cut short before its response: nothing to return, so no risk to weigh
    assert "a forced replay returns none (no status, no payload)." in body
    assert "risk" not in body
    assert "Nothing replayed" in text
    assert "⚠ Forced replay of non-replayable record" in text
    assert "⚠ No final response could be read from the file: payload is null" in text


@pytest.mark.parametrize("answer", ["n", "escape", "enter", "click-cancel"])
async def test_forced_replay_cancelled_does_nothing(answer: str) -> None:
    app = SidePaneApp(salvaged_detail(), tab="replay")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        if answer == "click-cancel":
            await pilot.click("#cancel")
        else:
            await pilot.press(answer)
        await finish_workers(pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        assert app.side.replay_pane.outcome is None
        assert "Replayable      no (record_corrupted) — " in app.side.replay_pane.text
        # Said, whichever way: enter cancels, and was taken for a confirm that did nothing.
        notes = [str(n.message) for n in app._notifications]
        assert notes == ["Cancelled, nothing done: Force a replay?"]
    assert app.confirmed == [False]


async def test_confirm_button_click_confirms() -> None:
    app = SidePaneApp(detail_from(good_record(final_status=None)), tab="replay")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("R")
        await pilot.pause()
        await pilot.click("#confirm")
        await finish_workers(pilot)
        outcome = app.side.replay_pane.outcome
    assert app.confirmed == [True]
    assert outcome is not None and outcome.result is not None
    assert outcome.result.payload is None
    assert "Forced replay of non-replayable record" in outcome.result.warnings


async def test_a_new_detail_supersedes_a_replay_result() -> None:
    first, second = detail_from(good_record("exec-0001")), detail_from(good_record("exec-0002"))
    app = SidePaneApp(first, tab="replay")
    async with app.run_test(size=SIZE) as pilot:
        await app.side.run_replay()
        app.side.detail = second  # the user moved on before (or after) the worker finished
        await finish_workers(pilot)
        pane = app.side.replay_pane
        assert pane.outcome is None
        assert "Execution       exec-0002" in pane.text
        assert not pane.query_one(JsonView).display


async def test_a_huge_payload_is_never_drawn_whole() -> None:
    record = good_record()
    record["finalResponse"]["payload"] = {"blob": "x" * 1_000_000, "n": 1}
    final_event = next(e for e in record["events"] if e["type"] == "FINAL_RESPONSE")
    final_event["payload"] = record["finalResponse"]  # as recorded: a trusted record
    app = SidePaneApp(detail_from(record), tab="replay")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await finish_workers(pilot)
        view = app.side.replay_pane.query_one(JsonView)
        blob_line = view.visible_text(1)
        title = str(app.side.replay_pane.query_one("#replay-payload-title").render())
    assert len(blob_line) < MAX_LINE_CHARS + 60
    assert blob_line.startswith('  "blob": "xxx')
    assert "more characters not shown" in blob_line
    assert "1,000," in title  # the size is reported, not hidden


async def test_nothing_to_replay_for_an_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("not json at all")
    app = SidePaneApp(load_detail(path), tab="replay")
    async with app.run_test(size=SIZE) as pilot:
        await app.side.run_replay(force=True)
        await finish_workers(pilot)
        text = app.side.replay_pane.text
    assert "Forced replay failed" in text
    assert "Nothing to replay" in text


# ----------------------------------------------------------------------------- diff


async def test_diff_of_two_records_with_n_and_shift_n_moving_the_cursor() -> None:
    left = detail_from(good_record("exec-000A"))
    right = detail_from(
        good_record("exec-000B", agents=(("fb-primary", "error"), ("fb-tertiary", "ok")))
    )
    app = SidePaneApp(left, tab="verify")
    async with app.run_test(size=SIZE) as pilot:
        app.side.show_diff(left, right)
        await finish_workers(pilot)
        pane = app.side.diff_pane
        view = pane.query_one(DiffView)
        assert app.side.active_tab == "diff"
        title = str(pane.query_one("#diff-title").render())
        summary = str(pane.query_one("#diff-summary").render())
        paths = [view.path_at(i) for i in range(len(view.entries))]
        assert view.cursor == 0
        await pilot.press("n", "n")
        assert view.cursor == 2
        await pilot.press("N")
        assert view.cursor == 1
        status = str(pane.query_one("#diff-status").render())
        current = str(pane.query_one("#diff-current").render())
        for _ in range(len(paths) + 3):  # past the end: stays on the last difference
            app.side.next_difference()
        assert view.cursor == len(paths) - 1
        assert app.side.next_difference() is False
    assert "A: exec-000A" in title and "B: exec-000B" in title
    # "What happened": the header (ids, times) is left out; events are aligned event by
    # event and named by position.
    assert paths == [
        "routerDecision.agent",
        "events[3].payload.to",
        "events[4].payload.agent",
        "events[5].payload.agent",
        "events[6].payload.agent",
        "events[7].payload.metadata.agent",
        "finalResponse.metadata.agent",
    ]
    assert "intent ✓ same   agents ✗ differs   response ✗ differs" in summary
    assert "A fb-primary → fb-secondary\nB fb-primary → fb-tertiary" in summary
    assert "first divergence: events[3] (seq 4 / 4): same type FALLBACK_TRIGGERED" in summary
    assert f"at 2/{len(paths)}" in status
    assert paths[1] in current


@pytest.mark.parametrize(("width", "beside"), [(44, False), (100, True)])
async def test_diff_counts_sit_beside_the_selector_or_under_it(width: int, beside: bool) -> None:
    # 44 columns: the side pane of an 80-column screen. There the counts went beside the
    # selector in a column 11 wide, a word cut per line ("differenc" / "es").
    left = detail_from(good_record("exec-000A"))
    right = detail_from(
        good_record("exec-000B", agents=(("fb-primary", "error"), ("fb-tertiary", "ok")))
    )
    app = SidePaneApp(left, tab="verify")
    async with app.run_test(size=(width, 40)) as pilot:
        app.side.show_diff(left, right)
        await finish_workers(pilot)
        pane = app.side.diff_pane
        await settle(pilot)  # the tab shown, sized, then laid out again for its size
        section = pane.query_one("#diff-section").region
        status = pane.query_one("#diff-status").region
        rows = str(pane.query_one("#diff-status").render()).splitlines()
    if beside:
        assert status.x >= section.right and status.y == section.y
    else:
        assert status.y >= section.bottom and status.x == section.x
    assert rows[0].startswith("7 changed values") and status.width >= len(rows[0]), rows


async def test_diff_keys_work_when_the_diff_view_has_focus() -> None:
    app = SidePaneApp(None)
    async with app.run_test(size=SIZE) as pilot:
        app.side.show_diff_values("snapshot", {"a": 1, "b": 2, "c": 3}, "now", {"a": 2, "c": 4})
        await finish_workers(pilot)
        view = app.side.diff_pane.query_one(DiffView)
        view.focus()
        await pilot.press("j", "j")
        assert view.cursor == 2
        await pilot.press("home")
        assert view.cursor == 0
        await pilot.click(DiffView, offset=(4, 2))  # row 0 is the column header
        assert view.cursor == 1
        kinds = [entry.kind for entry in view.entries]
        lines = [view.line_text(i) for i in range(3)]
    assert kinds == ["changed", "removed", "changed"]
    assert lines[0].startswith("~ a")
    assert lines[1].startswith("- b") and "∅" in lines[1]


async def test_diff_of_equal_records_says_no_changes_and_sections_narrow_it() -> None:
    left = detail_from(good_record("exec-000A"))
    right = detail_from(good_record("exec-000B", final_status="error"))
    app = SidePaneApp(left, tab="diff")
    async with app.run_test(size=SIZE) as pilot:
        app.side.show_diff(left, left)
        await finish_workers(pilot)
        pane = app.side.diff_pane
        assert "(no changes)" in str(pane.query_one("#diff-status").render())
        app.side.show_diff(left, right)
        await finish_workers(pilot)
        pane.query_one("#diff-section", Select).value = "record"
        await pilot.pause()
        await finish_workers(pilot)
        whole = [entry.path for entry in pane.query_one(DiffView).entries]
        pane.query_one("#diff-section", Select).value = "finalResponse"
        await pilot.pause()
        await finish_workers(pilot)
        section_paths = [entry.path for entry in pane.query_one(DiffView).entries]
    assert ("header", "executionId") in whole
    assert len(whole) > len(section_paths)
    assert sorted(section_paths) == [("error",), ("payload",), ("status",)]


async def test_a_ten_thousand_entry_diff_scrolls_to_the_end() -> None:
    before = {f"k{i:05d}": i for i in range(10_000)}
    after = {f"k{i:05d}": i + 1 for i in range(10_000)}
    app = SidePaneApp(None, tab="diff")
    async with app.run_test(size=SIZE) as pilot:
        app.side.show_diff_values("before", before, "after", after)
        await finish_workers(pilot)
        view = app.side.diff_pane.query_one(DiffView)
        view.focus()
        await pilot.press("end")
        await pilot.pause()
        assert view.cursor == 9_999
        assert view.scroll_y > 9_000
        last = view.line_text(9_999)
    assert last.startswith("~ k09999") and "9999" in last and "10000" in last


# ----------------------------------------------------------------------------- post-mortem


async def test_postmortem_of_a_crashed_execution_names_the_attempt_in_flight() -> None:
    app = SidePaneApp(salvaged_detail(), tab="postmortem")
    async with app.run_test(size=SIZE):
        text = app.side.postmortem_pane.text
    assert "In flight       #2 fb-secondary  started, never ended  seq 5" in text
    assert "#1 fb-primary  error  fb-primary failed  seq 2–3" in text
    assert "Last event      seq 5 AGENT_ATTEMPT_START" in text
    assert "Replayable      no (record_corrupted) — " in text
    assert "Partial         events: 5 complete events" in text
    assert "HINT: INVESTIGATE FIRST" in text
    assert "not a decision" in text


def test_postmortem_of_a_completed_execution_hints_replay_not_retry() -> None:
    text = text_of(postmortem_lines(detail_from(good_record())))
    assert "Verdict   ✓ SUCCEEDED \n  verified · ↺ yes" in text
    assert "HINT: DO NOT RETRY" in text
    assert "Replay the recorded response instead" in text


def test_postmortem_prefers_the_wal_when_one_is_joined(tmp_path: Path) -> None:
    with WALWriter(str(tmp_path), "exec-0001") as writer:
        writer.execution_started("ab" * 32, "PayIntent")
        writer.step_started("charge", "payments-agent", "irreversible", {}, "in-1")
    wal = read_wal(tmp_path / "exec-0001.wal")
    record = good_record(final_status=None)
    text = text_of(postmortem_lines(detail_from(record), wal))
    assert "payments-agent (charge), side effect: irreversible" in text
    assert "HINT: DO NOT RETRY" in text
    assert "Based on the record and the write-ahead log" in text


async def test_a_wal_only_execution_is_verified_and_post_mortemed_from_its_log(
    tmp_path: Path,
) -> None:
    with WALWriter(str(tmp_path), "exec-0009") as writer:
        writer.execution_started("ab" * 32, "PayIntent")
        writer.step_started("charge", "payments-agent", "reversible", {}, "in-1")
    detail = load_detail(tmp_path / "exec-0009.wal")
    app = SidePaneApp(detail, tab="verify")
    async with app.run_test(size=SIZE) as pilot:
        verify = app.side.verify_pane.text
        postmortem = app.side.postmortem_pane.text
        await app.side.run_replay(force=True)
        await finish_workers(pilot)
        replay = app.side.replay_pane.text
    assert "File   NO RECORD" in verify
    assert "Write-ahead log   CHAIN VALID" in verify
    assert "Verdict   ◌ IN FLIGHT" in postmortem  # in the verdict's words, as every tab
    assert "only the write-ahead log tells this execution" in postmortem
    assert "step charge (payments-agent)" in postmortem
    assert "payments-agent (charge), side effect: reversible" in postmortem
    assert "HINT: INVESTIGATE FIRST" in postmortem
    assert "Nothing to replay: No record file was written" in replay


def test_postmortem_shows_where_record_and_wal_disagree(tmp_path: Path) -> None:
    with WALWriter(str(tmp_path), "exec-0001") as writer:
        writer.execution_started("ab" * 32, "Summarize")
        writer.step_started("s1", "agent-a", "read_only", {}, "in-1")
    wal = read_wal(tmp_path / "exec-0001.wal")
    text = text_of(postmortem_lines(detail_from(good_record()), wal))
    assert "Inconsistencies" in text
    assert "the record is complete but the WAL never recorded completion" in text


def test_verify_lists_every_problem_at_the_top() -> None:
    record = good_record()
    # A new object: the factory shares one dict between finalResponse and the event.
    record["finalResponse"] = {**record["finalResponse"], "payload": {"summary": "edited"}}
    text = text_of(verify_lines(detail_from(record)))
    head = text.split("Envelope hash")[0]
    assert "1 PROBLEM" in head
    assert "finalResponse differs from the FINAL_RESPONSE event in payload" in head


# ----------------------------------------------------------------------------- hostile text


def hostile_record() -> dict:
    bad = "".join(HOSTILE)
    record = make_record(
        execution_id=f"exec-{bad}", replayable=False, reason=f"reason {bad}", agents=((bad, "ok"),)
    )
    record["finalResponse"]["payload"] = {bad: bad}
    record["finalResponse"]["metadata"][bad] = bad
    return record


def assert_inert(text: str) -> None:
    assert "[b]x[/b]" in text and "[/x]" in text and "[$accent]" in text
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text


def assert_svg_clean(svg: str) -> None:
    ET.fromstring(svg)  # parses: no raw control characters made it into the screenshot
    assert "\x1b" not in svg


async def test_hostile_strings_are_shown_literally_everywhere() -> None:
    record = hostile_record()
    detail = detail_from(record, name="hostile.json")
    other = detail_from(good_record("exec-0001"))
    app = SidePaneApp(detail, tab="verify")
    async with app.run_test(size=(140, 60)) as pilot:
        verify = app.side.verify_pane.text
        assert_svg_clean(app.export_screenshot())
        app.side.show_tab("postmortem")
        await pilot.pause()
        postmortem = app.side.postmortem_pane.text
        assert_svg_clean(app.export_screenshot())
        await pilot.press("R")
        await pilot.pause()
        modal = app.screen.body_text
        assert_svg_clean(app.export_screenshot())
        await pilot.press("y")
        await finish_workers(pilot)
        replay_pane = app.side.query_one(ReplayPane)
        replay = replay_pane.text
        view = replay_pane.query_one(JsonView)
        payload = "\n".join(view.visible_text(i) for i in range(view.line_count))
        assert_svg_clean(app.export_screenshot())
        app.side.show_diff(detail, other)
        await finish_workers(pilot)
        diff_view = app.side.diff_pane.query_one(DiffView)
        diff = "\n".join(diff_view.line_text(i) for i in range(len(diff_view.entries)))
        diff += str(app.side.diff_pane.query_one("#diff-title").render())
        assert_svg_clean(app.export_screenshot())
    for text in (verify, postmortem, modal, replay, payload, diff):
        assert_inert(text)
    assert "exec-[b]x[/b][/x][$accent]" in verify  # the id, in a structure problem
    assert "␛]0;t␇" in modal
    assert "reason [b]x[/b]" in modal
    # In JSON, ESC is written as \u001b (inert text); the bidi override becomes a placeholder.
    assert "⟨U+202E⟩" in payload


def test_confirm_lines_are_sanitized_and_explain_the_write() -> None:
    detail = detail_from(hostile_record(), name="hostile.json")
    for lines in (force_replay_lines(detail), invalidate_lines(detail)):
        joined = "\n".join(lines)
        assert "\x1b" not in joined and "\u202e" not in joined
        assert "[b]x[/b]" in joined
    invalidate = "\n".join(invalidate_lines(detail))
    assert 'replayableReason: "manually_invalidated"' in invalidate
    assert "atomic" in invalidate


def test_a_damaged_file_is_said_not_to_be_invalidable_before_any_confirm() -> None:
    assert cannot_invalidate(salvaged_detail()) == (
        "Not invalidated: this file is damaged, and rewriting it would drop everything "
        "after the damage"
    )
    assert cannot_invalidate(detail_from(good_record())) is None


async def test_side_pane_reads_a_record_written_like_intentusnet(tmp_path: Path) -> None:
    path = write_record(tmp_path, make_record(execution_id="0b7c5a5e-1f7e-4bd5-9c8e-5f1f2d3c4b5a"))
    app = SidePaneApp(load_detail(path))
    async with app.run_test(size=SIZE):
        text = app.side.verify_pane.text
    assert "VERIFIED" in text
    assert "runtime — bare hex" in text


def test_aligned_comparison_reports_an_inserted_event_once() -> None:
    record_a = good_record("exec-000A")
    record_b = good_record("exec-000B")
    events = record_b["events"]
    events.insert(1, {"seq": 0, "type": "MODEL_CALL", "payload": {"model": "m"}})
    for seq, event in enumerate(events, start=1):
        event["seq"] = seq
    request = DiffRequest(
        "A", "B", detail_operand(detail_from(record_a)), detail_operand(detail_from(record_b))
    )
    by_seq = compute_diff(request, COMPARE)
    aligned = compute_diff(request, COMPARE_ALIGNED)
    assert aligned.error is None and by_seq.error is None
    # Events are aligned event by event in both views: one insertion, not every later
    # event changed by its shifted seq.
    assert [(e.path, e.kind) for e in aligned.entries] == [(("events", 1), "added")]
    assert [(e.path, e.kind) for e in by_seq.entries] == [(("events", 1), "added")]


async def test_huge_record_strings_are_cut_everywhere() -> None:
    huge = "z" * 1_000_000
    record = good_record(replayable=False, reason=huge)
    record["header"]["executionId"] = huge
    record["header"]["envelopeHash"] = huge
    app = SidePaneApp(detail_from(record, name="huge.json"), tab="verify")
    async with app.run_test(size=SIZE) as pilot:
        texts = {"verify": app.side.verify_pane.text, "postmortem": app.side.postmortem_pane.text}
        await pilot.press("R")
        await pilot.pause()
        texts["modal"] = app.screen.body_text
        await pilot.press("y")
        await finish_workers(pilot)
        texts["replay"] = app.side.replay_pane.text
    for name, text in texts.items():
        assert len(text) < 20_000, name
        if name == "postmortem":  # the verdict's reason: cut where the summary is made
            assert "z" * 100 in text and "…" in text, name
            continue
        assert "999,700 more characters" in text or "999,400 more characters" in text, name


def test_verify_counts_one_problem_in_the_singular_and_says_where_each_is() -> None:
    record = good_record()
    record["routerDecision"] = [None]  # one structure problem: it said "1 PROBLEMS"
    text = text_of(verify_lines(detail_from(record)))
    assert "Structure   1 PROBLEM " in text and "1 PROBLEMS" not in text, text
    edited = good_record()
    edited["envelope"]["intent"]["name"] = "Edited"  # the hash no longer matches ...
    edited["finalResponse"]["payload"] = {"other": 1}  # ... and the answer unlike its event
    text = text_of(verify_lines(detail_from(edited)))
    assert "2 PROBLEMS in envelope hash, and 1 listed below" in " ".join(text.split()), text


def test_a_torn_last_log_line_is_a_crash_not_a_problem_in_the_verify_tab(tmp_path: Path) -> None:
    """The log's last line torn by a crash mid-append: the tab said VERIFIED, every check
    passed, then marked that line ✗ and named it by its code (``torn_last_line``); the
    parse error was cut before its position."""
    from intentus_tui.demo.writer import build_demo_world

    world = build_demo_world(tmp_path)
    execution_id = world.first("wal_torn_tail")
    detail = load_detail(world.record_path(execution_id), world.wal_dir)
    text = [line.plain for line in verify_lines(detail)]
    torn = [line for line in text if "last line is not a complete entry" in line]
    assert torn and all(line.lstrip().startswith("!") for line in torn), torn
    assert not any("torn_last_line" in line for line in text), text
    assert any("last line torn (a crash while appending, not tampering)" in line for line in text)
    assert all("starting at)" not in line for line in torn), torn  # its column is said


async def test_a_record_beside_its_own_snapshot_is_named_in_the_diff_tabs_header() -> None:
    """A record (`7809d8ed-7dba-…`) beside a snapshot of it, whose name begins with the
    record's id: at 80 columns the Diff tab's header read `− A …` beside `+ B …-592f…`,
    A's name cut to nothing where the two differ. A is named from its start."""
    ident = "7809d8ed-7dba-4ec5-93f4-34a79d21fd56"
    app = SidePaneApp(None)
    async with app.run_test(size=(42, 40)) as pilot:
        app.side.show_diff_values(ident, {"a": 1}, f"{ident}-592f95c2.json", {"a": 2})
        await finish_workers(pilot)
        view = app.side.diff_pane.query_one(DiffView)
        header = "".join(s.text for s in view._header_strip(view.row_width))
    before, after = (cell.strip() for cell in header.split("│")[1:3])
    assert before.startswith("− A 78"), header
    assert after.startswith("+ B …-") and "592f" in after, header


async def test_a_changed_snapshots_short_name_is_whole_in_the_diff_tab(tmp_path: Path) -> None:
    """At 80 columns (a pane 42 wide) `t.snapshot.json`, changed since it was saved, was
    titled `B: t…pshot.json · ⚠ changed since it was` / `saved`: its name cut to 12 cells
    to leave room for a mark that wrapped all the same. The name is whole."""
    from intentus_tui.core.compare.operands import file_operand, record_operand
    from intentus_tui.core.verist.snapshot import save_snapshot, snapshot_from_record

    record = good_record("exec-000A")
    saved = save_snapshot(snapshot_from_record(record), tmp_path / "t.snapshot.json")
    document = json.loads(saved.read_text("utf-8"))
    document["input"]["intent"]["name"] = "Edited"
    saved.write_text(json.dumps(document), "utf-8")
    b = file_operand(str(saved), saved, prefer="snapshot")
    assert b.note  # changed since it was saved
    a = record_operand("exec-000A", record, path=tmp_path / "exec-000A.json")
    app = SidePaneApp(None)
    async with app.run_test(size=(42, 40)) as pilot:
        app.side.show_tab("diff")
        app.side.diff_pane.show_comparison("exec-000A", a, saved.name, b)
        await finish_workers(pilot)
        await pilot.pause()
        title = str(app.side.diff_pane.query_one("#diff-title").content)
    title_b = next(line for line in title.splitlines() if line.startswith("B: "))
    assert title_b.startswith("B: t.snapshot.json · ⚠"), title
