from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from intentus_tui.core.records.hashing import runtime_envelope_hash
from intentus_tui.core.records.load import ExecutionRecord, load_record_bytes, load_record_file
from intentus_tui.core.records.verify import (
    HashStatus,
    check_envelope_hash,
    check_event_sequence,
    check_structure,
    detect_hash_form,
)
from intentus_tui.core.sanitize import quoted
from tests.factories import make_record


def _rec(data: dict) -> ExecutionRecord:
    return ExecutionRecord.from_json(data)


def test_forms_are_detected_and_matched() -> None:
    runtime = check_envelope_hash(_rec(make_record()))
    assert (runtime.status, runtime.detected_form, runtime.matched_form) == (
        HashStatus.MATCH,
        "runtime",
        "runtime",
    )
    documented = check_envelope_hash(_rec(make_record(documented=True)))
    assert (documented.detected_form, documented.matched_form) == ("documented", "documented")
    assert detect_hash_form("sha256:" + "a" * 64) == "documented"
    assert detect_hash_form("zz") == "unknown" and detect_hash_form(None) == "absent"


def test_documented_hash_ignores_routing_metadata_but_runtime_does_not() -> None:
    doc = make_record(documented=True)
    doc["envelope"]["routingMetadata"]["decisionPath"] = ["a", "b"]
    assert check_envelope_hash(_rec(doc)).status is HashStatus.MATCH
    run = make_record()
    run["envelope"]["routingMetadata"]["decisionPath"] = ["agent-a"]
    check = check_envelope_hash(_rec(run))
    assert check.status is HashStatus.MISMATCH
    assert check.benign is not None and "routingMetadata" in check.benign


def test_the_routing_story_is_tried_whenever_undoing_routing_changes_the_text() -> None:
    """The story hashes the envelope with no decision path and no retries. Where that is
    already so (an empty list, the integer 0) it is skipped: that hash is the one that
    differs. A value merely equal to them (False, 0.0) is written otherwise: tried."""
    for retries in (False, 0.0):
        run = make_record()
        run["envelope"]["routingMetadata"].update(decisionPath=[], retries=retries)
        check = check_envelope_hash(_rec(run))
        assert check.status is HashStatus.MISMATCH
        assert check.benign is not None and "routingMetadata" in check.benign
    untouched = make_record()
    untouched["envelope"]["routingMetadata"].update(decisionPath=[], retries=0)
    untouched["envelope"]["payload"]["text"] = "changed"
    check = check_envelope_hash(_rec(untouched))
    assert check.status is HashStatus.MISMATCH and check.benign is None


def test_tampered_payload_is_called_tampering_with_expected_and_actual() -> None:
    data = make_record()
    original = data["header"]["envelopeHash"]
    data["envelope"]["payload"]["text"] = "changed"
    check = check_envelope_hash(_rec(data))
    assert check.status is HashStatus.MISMATCH and check.benign is None
    assert check.expected == original
    assert check.actual == runtime_envelope_hash(data["envelope"]) != original
    assert "tampering" in check.explanation


def test_benign_formatting_differences_still_match() -> None:
    data = make_record()
    data["header"]["envelopeHash"] = data["header"]["envelopeHash"].upper()
    check = check_envelope_hash(_rec(data))
    assert check.status is HashStatus.MATCH and check.benign is not None
    prefixed = make_record()
    prefixed["header"]["envelopeHash"] = "sha256:" + prefixed["header"]["envelopeHash"]
    check = check_envelope_hash(_rec(prefixed))
    assert check.status is HashStatus.MATCH and check.matched_form == "runtime"


def test_unverifiable_cases() -> None:
    no_hash = make_record()
    del no_hash["header"]["envelopeHash"]
    assert check_envelope_hash(_rec(no_hash)).status is HashStatus.UNVERIFIABLE
    no_env = make_record()
    del no_env["envelope"]
    assert check_envelope_hash(_rec(no_env)).status is HashStatus.UNVERIFIABLE
    junk = make_record()
    junk["header"]["envelopeHash"] = "md5:abc"
    assert check_envelope_hash(_rec(junk)).status is HashStatus.UNVERIFIABLE


def test_event_sequence_gaps_and_order() -> None:
    data = make_record(agents=(("a", "error"), ("b", "ok")))
    assert check_event_sequence(_rec(data)).ok
    gappy = copy.deepcopy(data)
    gappy["events"][3]["seq"] = 10
    for offset, event in enumerate(gappy["events"][4:]):
        event["seq"] = 11 + offset
    check = check_event_sequence(_rec(gappy))
    assert not check.ok and check.gaps == ((3, 10),)
    backwards = copy.deepcopy(data)
    backwards["events"][2]["seq"] = 1
    assert any(
        "not strictly increasing" in p for p in check_event_sequence(_rec(backwards)).problems
    )
    late_start = copy.deepcopy(data)
    late_start["events"][0]["seq"] = 0
    assert any("expected 1" in p for p in check_event_sequence(_rec(late_start)).problems)


def test_structure_problems_are_named() -> None:
    data = make_record()
    data["header"]["replayable"] = "yes"
    data["events"][1]["payload"] = []
    del data["envelope"]["intent"]
    problems = check_structure(_rec(data), file_stem="other-name").problems
    assert "header.replayable is string" in problems
    assert "events[1].payload is array" in problems
    assert "envelope.intent missing or not an object" in problems
    assert check_structure(_rec(make_record(execution_id="x")), "x").ok


@pytest.mark.parametrize(
    ("execution_id", "stem", "filed_elsewhere"),
    [
        ("c287a5dd-cdf6-4a85-ba57-3903f50453c8", "3d1af1f7-03ca-4672-94a9-e32d276fd756", True),
        ("exec-3580bf82", "exec-47dafba8", True),
        (
            "c287a5dd-cdf6-4a85-ba57-3903f50453c8",
            "c287a5dd-cdf6-4a85-ba57-3903f50453c8.copy",
            False,
        ),
        ("exec-3580bf82", "exec-3580bf82 (1)", False),
        ("exec-3580bf82", "incident-copy", False),
    ],
)
def test_a_file_named_after_another_execution_is_a_problem_and_a_copy_a_note(
    execution_id: str, stem: str, filed_elsewhere: bool
) -> None:
    """IntentusNet's store files a record as ``<executionId>.json``: under another
    execution's id, the store would hand this record out as that one's. A copy (or a name
    of the operator's own) holds the record as written: said, but no problem."""
    check = check_structure(_rec(make_record(execution_id=execution_id)), stem)
    said = f"executionId {quoted(execution_id)} differs from the file name {quoted(stem)}"
    assert check.name_mismatch is filed_elsewhere and check.record_ok
    if filed_elsewhere:
        assert check.problems == (said,) and not check.notes
    else:
        assert check.ok and not check.problems
        assert check.notes == (
            f"{said}: a copy or a renamed file (IntentusNet names it by its id)",
        )


def test_edited_final_response_is_flagged() -> None:
    from intentus_tui.core.records.verify import check_final_response

    data = json.loads(json.dumps(make_record()))  # as read from disk: two independent copies
    assert check_final_response(_rec(data)) == ()
    data["finalResponse"]["payload"] = {"summary": "edited"}
    (problem,) = check_final_response(_rec(data))
    assert "payload" in problem and "FINAL_RESPONSE" in problem
    documented = json.loads(json.dumps(make_record(documented=True)))
    documented["events"][-1]["payload"] = {"status": "success", "has_error": False}
    assert check_final_response(_rec(documented)) == ()
    documented["finalResponse"]["error"] = {"code": "X"}
    assert check_final_response(_rec(documented))


def test_a_misnamed_file_is_flagged_but_still_replayable(tmp_path) -> None:
    from intentus_tui.core.index.summarize import summarize_path

    path = tmp_path / "abd.json"  # filed under another execution's id
    path.write_text(json.dumps(make_record(execution_id="abc")))
    summary = summarize_path(path)
    assert summary.replayable and summary.problems == 1
    structure = check_structure(_rec(make_record(execution_id="abc")), "abd")
    assert structure.name_mismatch and structure.record_ok and not structure.ok


def test_messages_name_json_kinds_and_show_ids_as_listings_do(tmp_path: Path) -> None:
    """An id with a NUL was ``'a\\x00b'`` (Python's escapes) beside a FILE column showing
    ``a␀b``; values were ``NoneType``, ``str``, ``float`` (a bare NaN, which is no JSON)."""
    record = make_record(execution_id="a\x00b")
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(record))
    loaded = load_record_file(path).record
    assert loaded is not None
    (note,) = check_structure(loaded, "evil").notes
    assert note.startswith("executionId 'a␀b' differs from the file name 'evil'")
    assert load_record_bytes(tmp_path / "n.json", b"NaN").message == (
        "Not valid JSON: a bare NaN token"
    )
    assert load_record_bytes(tmp_path / "s.json", b'"x"').message == (
        "Valid JSON, but a string, not an execution record object"
    )


def test_a_malformed_event_is_a_structure_problem_not_a_gap_in_the_sequence(
    tmp_path: Path,
) -> None:
    """A record whose second event is written as a string: its structure is wrong
    (unverifiable, a malformed record), not its sequence (read as events removed: an edit,
    tampered); the event after it, seq 3, follows the place it holds."""
    from intentus_tui.core.index.summarize import summarize_path
    from intentus_tui.core.model import Integrity
    from intentus_tui.core.verdict import verdict_of

    record = make_record()
    record["events"][1] = "not an event"
    assert check_event_sequence(_rec(record)).ok
    assert "events[1] is string, expected object" in check_structure(_rec(record)).problems
    path = tmp_path / f"{record['header']['executionId']}.json"
    path.write_text(json.dumps(record))
    verdict = verdict_of(summarize_path(path))
    assert verdict.integrity is Integrity.UNVERIFIABLE, verdict
