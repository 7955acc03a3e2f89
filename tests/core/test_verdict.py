"""One verdict per execution: on records written by the real intentusnet 1.3.0, and the
rules that hold for every summary."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from intentus_tui.core.index.directory import scan_root
from intentus_tui.core.model import (
    ExecutionState,
    ExecutionSummary,
    HashStatus,
    Integrity,
    LoadStatus,
    Outcome,
    ReplayCode,
    Verdict,
)
from intentus_tui.core.paths import resolve_root
from intentus_tui.core.verdict import COUNT_KEYS, judge, verdict_counts, verdict_of
from tests.hostile.corpus import deep_array
from tests.intentusnet_world import RealWorld, build_real_world


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> RealWorld:
    return build_real_world(tmp_path_factory.mktemp("real"))


def _copy_with(
    real: RealWorld, tmp_path: Path, edit: dict[str, Callable[[dict[str, Any]], None]]
) -> Path:
    """The real records copied to ``tmp_path``, some edited ({RealWorld field: edit})."""
    records = tmp_path / ".intentusnet" / "records"
    records.mkdir(parents=True)
    for path in real.records_dir.glob("*.json"):
        (records / path.name).write_bytes(path.read_bytes())
    for source, change in edit.items():
        path = records / f"{getattr(real, source)}.json"
        doc = json.loads(path.read_text())
        change(doc)
        path.write_text(json.dumps(doc))
    return records


def _verdicts(directory: Path) -> dict[str, Verdict]:
    return {s.execution_id: verdict_of(s) for s in scan_root(resolve_root(directory))}


def test_real_records_get_the_verdicts_an_operator_expects(real: RealWorld) -> None:
    verdicts = _verdicts(real.records_dir)
    success = verdicts[real.success]
    assert (success.outcome, success.integrity, success.replay) == (
        Outcome.SUCCEEDED,
        Integrity.VERIFIED,
        ReplayCode.REPLAYABLE,
    )
    assert not success.needs_attention
    assert verdicts[real.fallback].outcome is Outcome.SUCCEEDED
    invalidated = verdicts[real.invalidated]
    assert invalidated.outcome is Outcome.SUCCEEDED
    assert invalidated.replay is ReplayCode.MANUALLY_INVALIDATED
    # 1.3.0 leaves an error record truncated: said so, and what survived says it failed
    broken = verdicts[real.error_truncated]
    assert broken.outcome is Outcome.FAILED
    assert broken.integrity is Integrity.UNVERIFIABLE
    assert broken.replay is ReplayCode.RECORD_CORRUPTED
    assert "cut short" in broken.outcome_reason and "1.3.0" in broken.integrity_reason


def _forge_envelope(doc: dict[str, Any]) -> None:
    doc["envelope"]["payload"]["text"] = "forged"


def test_an_edited_envelope_or_final_response_is_not_believed(
    real: RealWorld, tmp_path: Path
) -> None:
    def edit_final(doc: dict[str, Any]) -> None:
        doc["finalResponse"]["payload"] = {"by": "nobody", "echo": "forged"}

    records = _copy_with(real, tmp_path, {"success": _forge_envelope, "fallback": edit_final})
    verdicts = _verdicts(records)
    for execution_id, what in ((real.success, "envelopeHash"), (real.fallback, "finalResponse")):
        v = verdicts[execution_id]
        assert v.integrity is Integrity.TAMPERED, v
        # an answer from evidence that fails its check is not an answer
        assert v.outcome is Outcome.UNKNOWN
        assert v.replay is ReplayCode.UNTRUSTED and not v.replayable
        assert what in v.integrity_reason
        assert "investigate" in v.outcome_reason and v.needs_attention
    assert verdicts[real.invalidated].integrity is Integrity.VERIFIED


def test_a_cut_copy_under_a_copy_s_name_is_damaged_not_tampered(
    real: RealWorld, tmp_path: Path
) -> None:
    """``<id>.trunc.json``, the first half of a real record: a copy's name is not a
    record's contradiction (it was read as tampering: "an id planted under another"). What
    is wrong with it is its damage, said in the integrity's reason; a cut file's record
    cannot be checked whole."""
    records = _copy_with(real, tmp_path, {})
    whole = (records / f"{real.success}.json").read_bytes()
    (records / f"{real.success}.trunc.json").write_bytes(whole[: len(whole) // 2])
    (cut,) = [
        verdict_of(s)
        for s in scan_root(resolve_root(records))
        if s.file_name == f"{real.success}.trunc.json"
    ]
    assert cut.integrity is Integrity.UNVERIFIABLE
    # Damaged once: not "the file is damaged: Damaged record: file ends at byte …".
    assert cut.integrity_reason.startswith("the file is damaged: file ends at byte ")
    assert "executionId" not in cut.integrity_reason
    # Where it breaks is said once, by the integrity; the outcome says what follows.
    assert cut.outcome_reason == (
        "the file is damaged: what happened cannot be told from what survived of it"
    )


def test_a_file_with_no_record_is_said_in_one_sentence(tmp_path: Path) -> None:
    """A binary file and an empty one: their outcome said "the file is damaged: Not UTF-8
    text: invalid UTF-8 at byte 1" (a capital mid-sentence, damage twice) and "the file is
    damaged: File is empty"; each is now one sentence, as the integrity says it."""
    (tmp_path / "binary.json").write_bytes(b"\x00\xff\xfe\x00binary")
    (tmp_path / "empty.json").write_bytes(b"")
    verdicts = {s.file_name: verdict_of(s) for s in scan_root(resolve_root(tmp_path))}
    binary, empty = verdicts["binary.json"], verdicts["empty.json"]
    assert binary.outcome_reason == "the file is not UTF-8 text: invalid UTF-8 at byte 1"
    assert binary.integrity_reason == "nothing to check: not UTF-8 text: invalid UTF-8 at byte 1"
    assert empty.outcome_reason == "the file is empty"
    assert empty.integrity_reason == "nothing to check: file is empty"


def test_a_file_that_is_not_json_or_not_a_file_is_said_without_a_capital_mid_sentence(
    tmp_path: Path,
) -> None:
    """Text that is no JSON said "the file is damaged: Not a readable record: invalid JSON
    …" and a FIFO "the file cannot be read: Named like a record but is a FIFO …"."""
    (tmp_path / "text.json").write_text("hello world\n")
    os.mkfifo(tmp_path / "fifo.json")
    verdicts = {s.file_name: verdict_of(s) for s in scan_root(resolve_root(tmp_path))}
    text, fifo = verdicts["text.json"], verdicts["fifo.json"]
    assert text.outcome_reason == (
        "the file is not a readable record: invalid JSON at byte 0 (line 1, column 1): "
        "expecting value"
    )
    assert fifo.outcome_reason == (
        "the file cannot be read: named like a record but is a FIFO (named pipe)"
    )
    assert fifo.integrity_reason == (
        "nothing to check: the file cannot be read (named like a record but is a FIFO (named pipe))"
    )


def test_why_a_file_with_no_record_cannot_be_replayed_says_what_the_file_is(
    tmp_path: Path,
) -> None:
    """An empty file's replay reason said "the file is damaged, not a record, or a
    malformed record" under the outcome "the file is empty"; it says what the outcome says."""
    (tmp_path / "empty.json").write_bytes(b"")
    (tmp_path / "binary.json").write_bytes(b"\x00\xff\xfe\x00binary")
    verdicts = {s.file_name: verdict_of(s) for s in scan_root(resolve_root(tmp_path))}
    assert verdicts["empty.json"].replay_reason == (
        "the file is empty; no response to replay from it"
    )
    assert verdicts["binary.json"].replay_reason == (
        "the file is not UTF-8 text: invalid UTF-8 at byte 1; no response to replay from it"
    )


def _lose_an_event(doc: dict[str, Any]) -> None:
    ended = next(i for i, e in enumerate(doc["events"]) if e["type"] == "AGENT_ATTEMPT_END")
    del doc["events"][ended]  # its seq is gone too: a gap


def _declare_recording_failure(doc: dict[str, Any]) -> None:
    _lose_an_event(doc)
    doc["header"].update(replayable=False, replayableReason="recording_failure")


def test_a_loss_its_writer_declared_is_unverifiable_an_undeclared_one_tampering(
    real: RealWorld, tmp_path: Path
) -> None:
    records = _copy_with(
        real, tmp_path, {"success": _declare_recording_failure, "fallback": _lose_an_event}
    )
    verdicts = _verdicts(records)
    declared = verdicts[real.success]
    # The writer said it lost part of the record: the gap is that story, not an edit.
    assert declared.integrity is Integrity.UNVERIFIABLE, declared
    assert declared.integrity_reason.startswith(
        "its writer declared a recording failure, and the record shows the loss: gap: seq"
    )
    assert declared.outcome is Outcome.SUCCEEDED
    assert declared.replay is ReplayCode.RECORDING_FAILURE and declared.trusted
    # The same gap with no such declaration: only an edit explains it.
    undeclared = verdicts[real.fallback]
    assert undeclared.integrity is Integrity.TAMPERED
    assert undeclared.replay is ReplayCode.UNTRUSTED


def test_a_malformed_record_whose_hash_matches_is_unverifiable_not_verified(
    real: RealWorld, tmp_path: Path
) -> None:
    def malform(doc: dict[str, Any]) -> None:
        doc["events"] = "oops"  # not a list: no event can be checked
        doc["header"]["replayable"] = "yes"  # not a boolean

    verdicts = _verdicts(_copy_with(real, tmp_path, {"success": malform}))
    malformed = verdicts[real.success]
    assert malformed.integrity is Integrity.UNVERIFIABLE, malformed  # the hash still matches
    assert malformed.integrity_reason.startswith("the record is malformed")
    assert malformed.replay is ReplayCode.RECORD_CORRUPTED
    assert verdicts[real.fallback].integrity is Integrity.VERIFIED


def test_an_envelope_too_deep_to_hash_is_unverifiable_for_that_reason(
    real: RealWorld, tmp_path: Path
) -> None:
    # Its digest is a well-formed sha256: the reason said it was not one.
    def deepen(doc: dict[str, Any]) -> None:
        doc["envelope"]["payload"] = {"deep": "__DEEP__"}

    records = _copy_with(real, tmp_path, {"success": deepen})
    path = records / f"{real.success}.json"
    path.write_bytes(path.read_bytes().replace(b'"__DEEP__"', deep_array(990)))
    deep = _verdicts(records)[real.success]
    assert deep.integrity is Integrity.UNVERIFIABLE, deep
    assert deep.integrity_reason.startswith("the envelope cannot be hashed"), deep
    assert "sha256" not in deep.integrity_reason


def test_a_file_that_is_no_record_says_so_in_one_sentence(tmp_path: Path) -> None:
    """What the loader found of a file that holds no record is the rest of the integrity's
    sentence: "nothing to check: valid JSON, but an array, …", not "…: Valid JSON, …"."""
    records = tmp_path / ".intentusnet" / "records"
    records.mkdir(parents=True)
    (records / "array.json").write_text("[1, 2]")
    (records / "other.json").write_text('{"x": 1}')
    (records / "empty.json").write_text("")
    (records / "cut.json").write_text('{"header": {')
    reasons = {s.key: verdict_of(s).integrity_reason for s in scan_root(resolve_root(records))}
    assert reasons == {
        "array.json": "nothing to check: valid JSON, but an array, not an execution record object",
        "other.json": "nothing to check: valid JSON object, but not an execution record (keys: x)",
        "empty.json": "nothing to check: file is empty",
        "cut.json": "nothing to check: not a readable record: file ends at byte 12 (line 1, "
        "column 13): truncated, expecting property name enclosed in double quotes",
    }


def test_a_record_its_writer_marked_corrupted_but_whole_stays_verified(
    real: RealWorld, tmp_path: Path
) -> None:
    def mark(doc: dict[str, Any]) -> None:
        doc["header"].update(replayable=False, replayableReason="record_corrupted")

    marked = _verdicts(_copy_with(real, tmp_path, {"success": mark}))[real.success]
    assert marked.replay is ReplayCode.RECORD_CORRUPTED  # the writer's word
    assert marked.integrity is Integrity.VERIFIED  # nothing found wrong with it


def test_an_untrusted_record_names_its_claim_only_when_it_makes_one(
    real: RealWorld, tmp_path: Path
) -> None:
    def edit_envelope_and_status(doc: dict[str, Any]) -> None:
        _forge_envelope(doc)
        doc["finalResponse"]["status"] = "weird"  # no outcome can be read from it

    records = _copy_with(
        real, tmp_path, {"success": _forge_envelope, "fallback": edit_envelope_and_status}
    )
    verdicts = _verdicts(records)
    claims = verdicts[real.success].outcome_reason
    assert claims.startswith("cannot be believed: the record claims succeeded but fails")
    nothing = verdicts[real.fallback]
    assert nothing.integrity is Integrity.TAMPERED
    assert nothing.outcome_reason.startswith("cannot be believed: the record fails its integrity")
    assert "claims unknown" not in nothing.outcome_reason


def test_counts_are_the_fixed_vocabulary_and_add_up(real: RealWorld) -> None:
    summaries = scan_root(resolve_root(real.records_dir))
    counts = verdict_counts(summaries)
    assert tuple(counts) == COUNT_KEYS
    total = counts["executions"]
    assert total == len(summaries) == 4
    for axis in ("outcome.", "integrity.", "replay."):
        assert sum(n for key, n in counts.items() if key.startswith(axis)) == total
    assert counts["needs_attention"] == 1  # the truncated error record


_summaries = st.builds(
    ExecutionSummary,
    key=st.just("e.json"),
    execution_id=st.just("e"),
    created=st.just(""),
    intent=st.just("I"),
    agent=st.sampled_from(["", "a"]),
    strategy=st.just(""),
    state=st.sampled_from(ExecutionState),
    load_status=st.sampled_from(LoadStatus),
    message=st.just("m"),
    replayable=st.booleans(),
    replay_reason=st.sampled_from(
        [None, "execution_incomplete", "recording_failure", "manually_invalidated", "x"]
    ),
    hash_status=st.sampled_from(HashStatus),
    hash_form=st.sampled_from(["runtime", "absent", "unknown"]),
    matched_form=st.none(),
    event_count=st.just(1),
    attempts=st.just(1),
    fallbacks=st.just(0),
    chain=st.just(""),
    in_flight_agent=st.sampled_from([None, "a"]),
    final_status=st.sampled_from([None, "ok", "error", "weird"]),
    problems=st.just(0),
    size=st.just(1),
    mtime_ns=st.just(0),
    source=st.sampled_from(["record", "wal", "record+wal"]),
    wal_state=st.sampled_from([None, "completed", "failed", "aborted", "in_flight", "unknown"]),
    wal_problem=st.sampled_from([None, "WAL chain broken (line 3: hash_mismatch)"]),
    wal_chain_ok=st.sampled_from([None, True, False]),
    hash_story=st.sampled_from([None, "numeric keys"]),
    contradiction=st.sampled_from([None, "finalResponse differs"]),
)


@settings(max_examples=500, deadline=None, derandomize=True)
@given(_summaries)
def test_every_summary_gets_one_consistent_verdict(s: ExecutionSummary) -> None:
    v = verdict_of(s)
    assert v == judge(s)  # the common-case shortcut answers as the definition does
    assert v.outcome_reason and v.integrity_reason and v.replay_reason
    if v.integrity in (Integrity.TAMPERED, Integrity.CHAIN_BROKEN):
        assert v.outcome is Outcome.UNKNOWN and v.replay is ReplayCode.UNTRUSTED
        assert v.needs_attention
    if s.wal_chain_ok is False:
        assert v.integrity is Integrity.CHAIN_BROKEN
    if s.source == "wal" and v.trusted:
        assert v.replay is ReplayCode.NO_RECORD  # nothing recorded to replay
    if v.outcome is Outcome.SUCCEEDED and v.trusted:
        assert not v.needs_attention
    if s.load_status is LoadStatus.HEAD_ONLY:  # listed from its head and tail: nothing
        assert not v.replayable  # behind its header's flag was checked, so no "yes"


def test_the_listing_counts_the_problems_inspect_and_verify_list(tmp_path: Path) -> None:
    from intentus_tui.core.actions import verify_file
    from intentus_tui.core.index.summarize import summarize_file
    from tests.hostile.corpus import build_corpus

    corpus = build_corpus(tmp_path)
    checked = 0
    for path in corpus.record_paths():
        _, summary = summarize_file(str(path))
        if summary.load_status is LoadStatus.HEAD_ONLY:
            continue  # listed from its head and tail: verify reads it whole
        assert summary.problems == len(verify_file(path).problems), path.name
        checked += summary.problems > 0
    assert checked > 10  # files with problems were among them
