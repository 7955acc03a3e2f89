"""The Replay tab on records written by the real intentusnet 1.3.0 and then edited: a replay
of a suspect record shows a warning banner above the result, never "SUCCESS" alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from intentusnet.wal.writer import WALWriter

from intentus_tui.core.detail import ExecutionDetail, detail_of
from intentus_tui.core.records.load import load_record_file
from intentus_tui.core.wal.read import read_wal
from intentus_tui.tui.screens.confirm import ConfirmScreen
from tests.intentusnet_world import RealWorld, with_a_copy
from tests.tui.side_pane_harness import (
    SidePaneApp,
    detail_from,
    finish_workers,
    forced_replay,
    refused_replay,
)

SIZE = (100, 40)
BANNER = "⚠ REPLAYED FROM AN UNTRUSTED RECORD — "
ADVICE = ": investigate before using this answer"


def real_record(world: RealWorld) -> dict[str, Any]:
    return json.loads((world.records_dir / f"{world.success}.json").read_text("utf-8"))


async def replayed_text(detail: Any) -> str:
    """The Replay tab after ``r``, or, where its verdict says untrusted and ``r`` refuses
    (as the list says: not replayable), after a forced replay (``R``, confirmed)."""
    app = SidePaneApp(detail, tab="replay")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await finish_workers(pilot)
        pane = app.side.replay_pane
        assert pane.outcome is not None
        if detail.verdict.replay.value == "untrusted":
            assert pane.outcome.kind == "refused" and pane.outcome.reason == "untrusted"
            refused = pane.text
            assert "Replay refused   NOT REPLAYABLE" in refused
            assert f"Reason          untrusted — {detail.verdict.replay_reason}" in refused
            assert "A forced replay (R) returns the recorded answer anyway" in refused
            await forced_replay(pilot)
        assert pane.outcome.kind == "result"
        return pane.text


async def test_a_tampered_envelope_shows_the_banner_above_the_result(
    real_world: RealWorld,
) -> None:
    record = real_record(real_world)
    record["envelope"]["payload"] = {"text": "a question never asked"}
    lines = (await replayed_text(detail_from(record))).splitlines()
    assert lines[0] == f"{BANNER}envelope hash mismatch, possible tampering{ADVICE}"
    # The verdict's integrity answer and reason, as the Verify tab gives them, then each
    # problem.
    assert lines[1].startswith("  Integrity       tampered — the envelope does not hash to")
    assert lines[2].startswith("  ✗ envelope hash mismatch, possible tampering: stored ")
    status = next(line for line in lines if line.lstrip().startswith("Status"))
    assert "SUCCESS" in status and "from an untrusted record" in status
    assert lines.index(status) > 0  # below the banner


async def test_an_edited_final_response_shows_the_banner(real_world: RealWorld) -> None:
    record = real_record(real_world)
    record["finalResponse"]["payload"] = {"by": "attacker"}
    text = await replayed_text(detail_from(record))
    first = text.splitlines()[0]
    assert first == f"{BANNER}final response differs from its FINAL_RESPONSE event{ADVICE}"
    assert "✗ final response differs from its FINAL_RESPONSE event: finalResponse" in text


async def test_the_refusal_of_an_edited_final_response_reads_as_sentences(
    real_world: RealWorld,
) -> None:
    """``r`` on a record whose final response was edited: its reason ends with a question
    ("edited after recording?"), and the note under the refusal read "edited after
    recording?. A forced replay (R) …"."""
    record = real_record(real_world)
    record["finalResponse"]["payload"] = {"by": "attacker"}
    app = SidePaneApp(detail_from(record), tab="replay")
    async with app.run_test(size=SIZE) as pilot:
        refused = " ".join((await refused_replay(pilot)).split())  # the note wraps
    assert "edited after recording? A forced replay (R) returns" in refused, refused
    assert "?." not in refused and ".." not in refused, refused


async def test_both_edits_are_named_in_the_banner(real_world: RealWorld) -> None:
    record = real_record(real_world)
    record["envelope"]["payload"] = {"text": "a question never asked"}
    record["finalResponse"]["payload"] = {"by": "attacker"}
    first = (await replayed_text(detail_from(record))).splitlines()[0]
    assert first == (
        f"{BANNER}envelope hash mismatch, possible tampering; "
        f"final response differs from its FINAL_RESPONSE event{ADVICE}"
    )


async def test_a_clean_record_replays_with_no_banner_and_no_warnings(
    real_world: RealWorld,
) -> None:
    text = await replayed_text(detail_from(real_record(real_world)))
    assert text.splitlines()[0].startswith(" FROM REPLAY ")
    assert "UNTRUSTED" not in text and "untrusted" not in text
    assert "⚠" not in text and "Warnings" not in text
    assert "SUCCESS" in text


async def test_a_benign_mismatch_is_a_note_not_a_banner(real_world: RealWorld) -> None:
    record = real_record(real_world)
    record["envelope"]["routingMetadata"] = {"decisionPath": ["fb-secondary"], "retries": 1}
    text = await replayed_text(detail_from(record))
    first = text.splitlines()[0]
    assert first.startswith("  ℹ envelope hash differs for a benign reason (not tampering): ")
    assert "routingMetadata" in first
    assert "UNTRUSTED" not in text and "untrusted record" not in text


def _with_broken_chain(real_world: RealWorld, tmp_path: Path) -> ExecutionDetail:
    """The real success record, joined with a real log of it whose first entry was
    deleted (its chain breaks; the record itself is whole)."""
    with WALWriter(str(tmp_path), real_world.success) as writer:
        writer.execution_started("ab" * 32, "Summarize")
        writer.execution_completed("cd" * 32)
    wal_path = tmp_path / f"{real_world.success}.wal"
    lines = wal_path.read_text("utf-8").splitlines()
    wal_path.write_text(lines[1] + "\n", "utf-8")  # the first entry deleted
    result = load_record_file(real_world.records_dir / f"{real_world.success}.json")
    return detail_of(result, read_wal(wal_path))


async def test_a_broken_wal_chain_of_the_execution_shows_the_banner(
    real_world: RealWorld, tmp_path: Path
) -> None:
    text = await replayed_text(_with_broken_chain(real_world, tmp_path))
    assert text.splitlines()[0].startswith(f"{BANNER}write-ahead log hash chain broken")


async def test_before_a_replay_and_before_forcing_one_the_problems_are_named(
    real_world: RealWorld,
) -> None:
    record = real_record(real_world)
    record["envelope"]["payload"] = {"text": "a question never asked"}
    record["header"]["replayable"] = False
    record["header"]["replayableReason"] = "manually_invalidated"
    app = SidePaneApp(detail_from(record), tab="replay")
    async with app.run_test(size=SIZE) as pilot:
        waiting = app.side.replay_pane.text
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        body = app.screen.body_text
    # The verdict's integrity answer and reason, as the Verify tab and inspect give them.
    assert "Integrity       ⚠ tampered — the envelope does not hash to the recorded" in waiting
    assert "Untrusted record: envelope hash mismatch, possible tampering" in body


@pytest.mark.parametrize("hostile", ["[b]x[/b]", "\x1b[2J", "\u202e"])
async def test_record_text_in_a_problem_is_inert(real_world: RealWorld, hostile: str) -> None:
    record = real_record(real_world)
    key = f"{hostile}-someone-else"  # a key whose value was edited after recording
    final_event = next(e for e in record["events"] if e["type"] == "FINAL_RESPONSE")
    record["finalResponse"][key], final_event["payload"][key] = "edited", "recorded"
    text = await replayed_text(detail_from(record))
    said = f"{BANNER}final response differs from its FINAL_RESPONSE event"
    assert text.splitlines()[0].startswith(said), text
    assert "someone-else" in text  # the problem names it, made inert
    assert "\x1b" not in text and "\u202e" not in text


async def test_a_declared_recording_failure_is_forced_as_unchecked_not_untrusted(
    real_world: RealWorld,
) -> None:
    record = real_record(real_world)
    ended = next(i for i, e in enumerate(record["events"]) if e["type"] == "AGENT_ATTEMPT_END")
    del record["events"][ended]  # the writer lost this event, and says so in the header
    record["header"].update(replayable=False, replayableReason="recording_failure")
    detail = detail_from(record)
    assert detail.verdict is not None and detail.verdict.integrity.value == "unverifiable"
    app = SidePaneApp(detail, tab="replay")
    async with app.run_test(size=SIZE) as pilot:
        body = await forced_replay(pilot)
        text = app.side.replay_pane.text
    assert "Unverifiable record: event sequence broken" in body and "Untrusted" not in body
    first = text.splitlines()[0]
    assert first.startswith("⚠ REPLAYED FROM A RECORD THAT CANNOT BE FULLY CHECKED — event seq")
    assert first.endswith(": treat this answer with care")
    assert "UNTRUSTED" not in text and "from an untrusted record" not in text
    assert "from an unchecked record" in text


async def test_a_broken_log_chain_is_named_as_the_log_not_the_record(
    real_world: RealWorld, tmp_path: Path
) -> None:
    # The record is whole; its log's chain breaks: the dialog and the tab blame the log.
    app = SidePaneApp(_with_broken_chain(real_world, tmp_path), tab="replay")
    async with app.run_test(size=SIZE) as pilot:
        waiting = app.side.replay_pane.text
        body = await forced_replay(pilot)
    assert "Untrusted log: write-ahead log hash chain broken" in body
    assert "Untrusted record" not in body
    assert "Integrity       ⚠ chain broken — WAL hash chain broken at line 1" in waiting
    assert "untrusted record" not in waiting and "tampered" not in waiting


@pytest.mark.parametrize(
    ("reason", "says"),
    [
        ("manually_invalidated", "An operator marked this record as not replayable."),
        ("record_corrupted", "The file is damaged, not a record, or a malformed record"),
        ("execution_incomplete", "No final response was recorded"),
    ],
)
async def test_each_refusal_says_what_its_reason_means(
    real_world: RealWorld, reason: str, says: str
) -> None:
    record = real_record(real_world)
    record["header"].update(replayable=False, replayableReason=reason)
    app = SidePaneApp(detail_from(record), tab="replay")
    async with app.run_test(size=SIZE) as pilot:
        refused = " ".join((await refused_replay(pilot)).split())  # the note wraps
    assert says in refused, refused
    assert "cannot be trusted as a replay" not in refused
    assert "A forced replay" in refused


async def test_a_writers_own_reason_is_refused_with_the_verdicts_code(
    real_world: RealWorld,
) -> None:
    """A record marked not replayable with its writer's own reason: the pane gave that
    text as the code ("Reason kept for audit") where the list, inspect --list and replay
    say marked_not_replayable; it says the verdict's code and words, as replay does."""
    record = real_record(real_world)
    record["header"].update(replayable=False, replayableReason="kept for audit")
    detail = detail_from(record)
    assert detail.verdict is not None and detail.verdict.replay.value == "marked_not_replayable"
    app = SidePaneApp(detail, tab="replay")
    async with app.run_test(size=SIZE) as pilot:
        refused = await refused_replay(pilot)
    assert (
        "Reason          marked_not_replayable — marked not replayable: kept for audit" in refused
    ), refused
    assert "The record's header marks it not replayable." in " ".join(refused.split())


async def test_a_copy_of_a_record_is_named_by_its_file_too(
    tmp_path: Path, real_world: RealWorld
) -> None:
    """Two files hold one id (a copy kept beside the record): the border named the file,
    the Execution line only the id, which does not say which of the two is replayed. Both
    name the file now, before and after the replay; a record whose id no other file holds
    is named by its id alone."""
    from tests.tui.app_support import make_app, settle, wait_for

    records = tmp_path / ".intentusnet" / "records"
    copy = with_a_copy(real_world, records)
    app = make_app(records)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for key, file_row in (
            (copy, True),
            (f"{real_world.success}.json", True),
            (f"{real_world.fallback}.json", False),
        ):
            assert app.execution_list.select_key(key)
            await wait_for(pilot, lambda key=key: app.detail_key == key, "detail loaded")
            await pilot.press("2")
            await settle(pilot)
            pane = app.side_pane.replay_pane
            text = " ".join(pane.text.split())  # a long name wraps
            execution_id = key.partition(".")[0]
            assert f"Execution {execution_id}" in text, text
            assert (f"File {key}" in text) is file_row, text
            if key == copy:  # replayed as its original is: a copy is as trusted
                await pilot.press("r")
                await finish_workers(pilot)
                await settle(pilot)
                assert "FROM REPLAY" in pane.text
                assert f"File {key}" in " ".join(pane.text.split())
