"""A ``finalResponse`` that is no object (the corpus's ``42``) has no status to be missing:
every place that reports it says what it is, and that its FINAL_RESPONSE event disagrees."""

from __future__ import annotations

import json
from pathlib import Path

from intentus_tui.core.detail import load_detail
from intentus_tui.core.index.summarize import summarize_file, summarize_general
from intentus_tui.core.model import Integrity, Outcome
from intentus_tui.core.records.load import load_record_file
from intentus_tui.core.verdict import verdict_of
from intentus_tui.tui.widgets.postmortem_pane import postmortem_lines
from intentus_tui.tui.widgets.verify_pane import verify_lines
from tests.cli.support import cli
from tests.factories import make_record, write_record
from tests.hostile.corpus import build_corpus
from tests.intentusnet_world import RealWorld

WHAT_IT_IS = "finalResponse is a number, not an object"


def _text(lines: list) -> str:
    return "\n".join(line.plain for line in lines)


def test_the_corpus_number_is_named_a_number_not_a_missing_status(tmp_path: Path) -> None:
    corpus = build_corpus(tmp_path)
    path = corpus.records_dir / "wrong-finalResponse.json"
    _, summary = summarize_file(str(path))
    verdict = verdict_of(summary)
    # Its FINAL_RESPONSE event holds a success: the two copies disagree, as an edit leaves
    # them (what a differing status says too).
    assert verdict.integrity is Integrity.TAMPERED
    assert WHAT_IT_IS in verdict.integrity_reason
    assert "FINAL_RESPONSE event records a response (status success)" in verdict.integrity_reason
    detail = load_detail(path)
    shown = {
        "inspect": cli("inspect", str(path)).stdout,
        "verify": cli("verify", str(path)).stdout,
        "the Verify tab": _text(verify_lines(detail)),
        "the Post-mortem tab": _text(postmortem_lines(detail)),
        "the list's reasons": f"{verdict.outcome_reason} {verdict.integrity_reason}",
    }
    for where, text in shown.items():
        assert "missing" not in text, where
        assert "a number, not an object" in text, where
    assert WHAT_IT_IS in shown["verify"] and WHAT_IT_IS in shown["the Verify tab"]
    assert detail.timeline is not None
    assert detail.timeline.final_text == "a number, not an object"


def test_without_its_event_the_outcome_says_what_the_final_response_is(
    tmp_path: Path,
) -> None:
    record = make_record(execution_id="e1")
    record["events"] = [e for e in record["events"] if e["type"] != "FINAL_RESPONSE"]
    record["finalResponse"] = ["done"]
    _, summary = summarize_file(str(write_record(tmp_path, record)))
    verdict = verdict_of(summary)
    assert verdict.outcome is Outcome.UNKNOWN
    assert verdict.outcome_reason == "the final response is an array, not an object"
    # A malformed record, as any other section of the wrong type makes it: no writer said
    # it lost a response.
    assert summary.replay_reason == "record_corrupted"
    assert verdict.integrity is Integrity.UNVERIFIABLE


def test_a_null_final_response_beside_its_event_is_an_edit_not_an_execution_in_flight(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """IntentusNet 1.3.0 sets ``finalResponse`` and appends its FINAL_RESPONSE event before
    it saves a record, once: a real record with ``finalResponse`` made null beside its
    event was "in flight · verified" (the timeline's "✓ final success" above "no final
    response: never finished"). It contradicts itself: tampered, in both halves of the
    summary lane and in verify. Cut short before its ``finalResponse`` (as its end goes
    first), the same record is damaged, not edited."""
    source = real_world.records_dir / f"{real_world.success}.json"
    record = json.loads(source.read_text(encoding="utf-8"))
    record["finalResponse"] = None
    path = tmp_path / source.name
    path.write_text(json.dumps(record, indent=2), encoding="utf-8")
    for summary in (summarize_file(str(path))[1], summarize_general(load_record_file(path))):
        verdict = verdict_of(summary)
        assert verdict.integrity is Integrity.TAMPERED, verdict
        assert verdict.integrity_reason == (
            "the record contradicts itself: finalResponse is null, but the FINAL_RESPONSE event records a response "
            "(status success): edited after recording?"
        )
        assert not verdict.replayable
    run = cli("verify", str(path))
    assert run.returncode == 1
    assert "      - finalResponse is null, but the FINAL_RESPONSE event records" in run.stdout

    text = path.read_text(encoding="utf-8")
    cut = tmp_path / "cut" / source.name
    cut.parent.mkdir()
    cut.write_text(text[: text.index('"finalResponse"')], encoding="utf-8")
    verdict = verdict_of(summarize_file(str(cut))[1])
    assert verdict.integrity is Integrity.UNVERIFIABLE, verdict
    assert "FINAL_RESPONSE" not in verdict.integrity_reason
