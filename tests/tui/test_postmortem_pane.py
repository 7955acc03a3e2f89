"""The Post-mortem tab on executions whose logs were written by the real IntentusNet 1.3.0
``WALWriter``: a broken hash chain is shown as broken, with the first broken entry and the
trusted part, and no pane ever advises replaying a response that was never recorded. An
untrusted execution's post-mortem leads with its verdict and the investigate-first hint."""

from __future__ import annotations

from pathlib import Path

import pytest

from intentus_tui.core.detail import load_detail
from intentus_tui.tui.widgets.postmortem_pane import postmortem_lines
from intentus_tui.tui.widgets.verify_pane import verify_lines
from tests.core.wal.support import (
    RECORD_WITH_EDITED_LOG,
    write_completed,
    write_incident_logs,
    write_record_with_edited_log,
)
from tests.intentusnet_world import RealWorld
from tests.tui.side_pane_harness import detail_from, tampered_record


def text_of(lines: list) -> str:
    return "\n".join(line.plain for line in lines)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_incident_logs(tmp_path_factory.mktemp("pane") / "wal")


def test_an_edited_log_is_shown_broken_from_its_first_broken_entry(logs) -> None:
    text = text_of(postmortem_lines(load_detail(logs["edited"])))
    assert "State   CHAIN BROKEN (WAL)" in text
    assert "broken at line 4, seq 4 (hash_mismatch): everything from there on is untrusted" in text
    assert "in_flight (through seq 3; claims completed, untrusted)" in text
    assert "HINT: INVESTIGATE FIRST" in text and "line 4 (seq 4)" in text
    # The charge claims to be read-only in the edited entry: that claim is not counted.
    assert "unknown after it" in text
    assert "Replay the recorded response" not in text and "SAFE TO RETRY" not in text


def test_a_completed_wal_only_execution_is_not_told_to_replay(logs) -> None:
    text = text_of(postmortem_lines(load_detail(logs["clean"])))
    # In the verdict's words, as every tab says it (it said "State COMPLETED (WAL)").
    assert "Verdict   ✓ SUCCEEDED" in text and "HINT: DO NOT RETRY" in text
    assert "only the write-ahead log tells this execution" in text
    assert "no recorded response to replay" in text
    assert "Replay the recorded response" not in text
    assert "no (no_record) — no record file was written" in text


def test_a_torn_log_is_shown_as_a_crash(logs) -> None:
    text = text_of(postmortem_lines(load_detail(logs["killed"])))
    assert "Verdict   ◌ IN FLIGHT" in text
    assert "the last line is torn: the process died while appending it (a crash)" in text
    assert "CHAIN BROKEN" not in text


def test_a_whole_unreadable_last_line_is_shown_as_malformed_not_torn(tmp_path: Path) -> None:
    """It ends with its newline: not cut short by a crash, so neither tab says torn."""
    path = write_completed(tmp_path / "wal")
    path.write_bytes(path.read_bytes() + b'{"seq": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n")
    detail = load_detail(path)
    postmortem = text_of(postmortem_lines(detail))
    assert "the last line is malformed: whole, not cut short, yet not an entry" in postmortem
    verify = text_of(verify_lines(detail))
    assert "! last line is malformed: whole (not cut short), yet not an entry" in verify
    assert "last line is malformed (line is not JSON (nested too deeply))" in verify
    assert "line 8: malformed last line" in verify
    for text in (postmortem, verify):
        assert "torn" not in text and "died while appending" not in text
        assert "CHAIN BROKEN" not in text  # classified as before


@pytest.fixture(scope="module")
def edited_under_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("pane") / ".intentusnet"
    write_record_with_edited_log(base)
    return base


def test_a_record_whose_log_was_edited_leads_with_the_verdict_and_the_hint(
    edited_under_record: Path,
) -> None:
    """The record is whole and complete, its WAL's chain breaks: the verdict (untrusted,
    what broke) and the investigate-first hint come before anything the evidence claims."""
    path = edited_under_record / "records" / f"{RECORD_WITH_EDITED_LOG}.json"
    lines = [
        line.plain for line in postmortem_lines(load_detail(path, edited_under_record / "wal"))
    ]
    assert lines[0].startswith("Verdict   ⚠ UNTRUSTED")
    assert lines[1] == "  chain broken · ✗ no (untrusted)"
    assert lines[2].startswith("  the write-ahead log fails its integrity check: hash chain broken")
    assert "line 3 (seq 3)" in lines[2]
    assert lines[3].startswith("Recovery   HINT: INVESTIGATE FIRST")
    text = "\n".join(lines)
    # what is claimed comes after, said to be claimed; the hint is not repeated at the end
    assert text.index("HINT: INVESTIGATE FIRST") < text.index("Claimed")
    assert "Claimed         a final response was recorded" in text
    assert text.count("HINT:") == 1
    # the log's trusted entries leave the step open: no "no attempt was left open"
    assert "no attempt was left open" not in text
    assert "step attempt-1 (ticket-classifier): open in the write-ahead log" in text


def test_a_tampered_record_leads_with_the_verdict_too() -> None:
    lines = [line.plain for line in postmortem_lines(detail_from(tampered_record()))]
    assert lines[0].startswith("Verdict   ⚠ UNTRUSTED")
    assert lines[1] == "  tampered · ✗ no (untrusted)"
    assert lines[2].startswith("  the record fails its integrity check:")
    assert any(line.startswith("Recovery   HINT: INVESTIGATE FIRST") for line in lines[3:5])


def test_an_attempt_s_latency_is_one_word_with_its_unit() -> None:
    """``613.2`` ended a row and ``ms`` began the next one."""
    from tests.tui.side_pane_harness import good_record

    record = good_record()
    for event in record["events"]:
        if event["type"] == "AGENT_ATTEMPT_END":
            event["payload"]["latency_ms"] = 613.2
    text = text_of(postmortem_lines(detail_from(record)))
    assert "613.2ms" in text and "613.2 ms" not in text


def test_the_attempts_of_an_untrusted_execution_are_marked_claimed(
    tmp_path: Path, real_world: RealWorld
) -> None:
    # The tab listed them as facts ("Completed ✓ #1 ...") where inspect said "(claimed)".
    from tests.intentusnet_world import with_broken_wal_chain

    base = with_broken_wal_chain(real_world, tmp_path)
    detail = load_detail(base / "records" / f"{real_world.success}.json", base / "wal")
    text = text_of(postmortem_lines(detail))
    completed = [line for line in text.splitlines() if line.lstrip().startswith(("✓", "✗"))]
    assert completed and all(line.rstrip().endswith("(claimed)") for line in completed), text
    trusted = load_detail(real_world.records_dir / f"{real_world.success}.json")
    assert "claimed" not in text_of(postmortem_lines(trusted))


def test_a_file_that_was_not_read_is_said_not_read_not_corrupted(
    tmp_path: Path, real_world: RealWorld
) -> None:
    """A link leading outside the directory (not followed), a link leading nowhere and a
    directory named ``x.json`` beside real records: tab 4 said "State CORRUPTED — the record
    file is not whole; what survived is shown below". Nothing was read: it says what each
    is, as ``verify DIR`` does."""
    records = tmp_path / "records"
    records.mkdir()
    (records / "outside.json").symlink_to(real_world.records_dir / f"{real_world.success}.json")
    (records / "dangling.json").symlink_to(records / "nowhere.json")
    (records / "x.json").mkdir()
    said = {
        "outside": "outside the directory: not followed",
        "dangling": "read: the link leads nowhere (its target does not exist)",
        "x": "Named like a record but is a directory",
    }
    for name, words in said.items():
        text = text_of(postmortem_lines(load_detail(records / f"{name}.json")))
        assert "Verdict   ? UNKNOWN" in text and "unverifiable · ✗ no (record_corrupted)" in text
        assert "Cannot read" not in text, text  # said once: "the file was not read: …"
        assert "  the file was not read: " in text and words in text
        assert "CORRUPTED" not in text and "not whole" not in text and "survived" not in text
        assert "Salvage         none: the file was not read" in text


def test_a_cut_record_s_post_mortem_speaks_the_verdict_and_names_the_attempt_that_ended(
    real_world: RealWorld,
) -> None:
    """A record the real 1.3.0 cut short after its only attempt failed: the tab said
    ``State CORRUPTED`` beside the verdict's words elsewhere, and its hint "Steps completed
    whose side effects are unknown", though no step completed. It now says the verdict
    (outcome · integrity · replay, as the Verify tab) and which attempt ended, and how."""
    path = real_world.records_dir / f"{real_world.error_truncated}.json"
    lines = [line.plain for line in postmortem_lines(load_detail(path))]
    text = "\n".join(lines)
    assert lines[0].startswith("Verdict   ✗ FAILED")
    assert lines[1] == "  unverifiable · ✗ no (record_corrupted)"
    assert lines[2].startswith("  every attempt failed (fb-primary ✗)")
    assert "CORRUPTED" not in text and "State" not in text
    assert "Steps completed" not in text and "Completed" not in text
    assert "Attempt #1 fb-primary (error) ended, and what it changed is unknown" in text
    assert "  Ended" in text and "✗ #1 fb-primary  error" in text


def test_a_whole_record_s_post_mortem_speaks_the_verdict(real_world: RealWorld) -> None:
    """The fallback the real 1.3.0 recorded whole: ``State COMPLETED`` (the record's state)
    is its verdict now; both attempts ended, the first with an error."""
    path = real_world.records_dir / f"{real_world.fallback}.json"
    lines = [line.plain for line in postmortem_lines(load_detail(path))]
    assert lines[0].startswith("Verdict   ✓ SUCCEEDED") and lines[1] == "  verified · ↺ yes"
    assert "COMPLETED" not in "\n".join(lines)


def _ended_lines(directory: Path, failures: int) -> list[str]:
    from tests.factories import make_record, write_record

    agents = (*((f"agent-{n}", "error") for n in range(failures)), ("agent-last", "ok"))
    path = write_record(directory, make_record(agents=agents))
    return [
        line.strip()
        for line in text_of(postmortem_lines(load_detail(path))).splitlines()
        if line.lstrip().startswith(("✓", "✗", "…"))
    ]


def test_a_long_chain_lists_its_first_and_last_attempts_and_counts_those_between(
    tmp_path: Path,
) -> None:
    """A 16,000-attempt execution's post-mortem listed every attempt, one line each: the
    tab took ten seconds to show, and read as the timeline does. Its ends are listed, and
    how many ended between them, with where each is."""
    ended = _ended_lines(tmp_path / "long", 40)
    assert len(ended) == 21, ended
    assert ended[0].startswith("✗ #1 agent-0  error") and ended[9].startswith("✗ #10 agent-9 ")
    assert ended[10] == "… 21 more between (the timeline lists every attempt)", ended
    assert ended[-2].startswith("✗ #40 agent-39 ") and ended[-1].startswith("✓ #41 agent-last")
    # One more than the two ends: each is listed (a line "1 more" would save nothing).
    assert len(_ended_lines(tmp_path / "short", 20)) == 21
