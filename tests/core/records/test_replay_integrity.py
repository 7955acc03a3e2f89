"""A replayed answer carries its record's integrity problems; a strict replay refuses them.

Every record here is written by the real intentusnet 1.3.0, then edited in the test the way
an attacker or a broken tool would; the real library's own replay is the baseline (it hands
the edited answer out without a word).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from intentusnet.recording.replay import ReplayEngine as RealReplayEngine
from intentusnet.recording.store import FileExecutionStore as RealStore
from intentusnet.wal.reader import WALIntegrityError, WALReader
from intentusnet.wal.writer import WALWriter

from intentus_tui.core.records.load import load_record_file
from intentus_tui.core.records.replay import (
    BENIGN_HASH_MISMATCH,
    DAMAGED_RECORD,
    ENVELOPE_TAMPERED,
    EVENT_SEQUENCE_BROKEN,
    FINAL_RESPONSE_MISMATCH,
    HASH_UNVERIFIABLE,
    RECORD_MISNAMED,
    WAL_CHAIN_BROKEN,
    ReplayEngine,
    UntrustedRecordError,
    batch_replay,
)
from intentus_tui.core.records.store import FileExecutionStore
from intentus_tui.core.wal.read import read_wal
from tests.intentusnet_world import RealWorld

FORGED_PAYLOAD = {"by": "attacker", "echo": {"text": "wire 1,000,000 to account 666"}}


def change_final_response(record: dict[str, Any]) -> None:
    record["finalResponse"]["payload"] = FORGED_PAYLOAD


def change_envelope(record: dict[str, Any]) -> None:
    record["envelope"]["payload"] = {"text": "a question never asked"}


def change_both(record: dict[str, Any]) -> None:
    change_final_response(record)
    change_envelope(record)


@pytest.fixture
def records(real_world: RealWorld, tmp_path: Path) -> Path:
    """A private copy of the real records (the session's are shared, read-only)."""
    copy = tmp_path / ".intentusnet" / "records"
    shutil.copytree(real_world.records_dir, copy)
    return copy


def edit(records: Path, execution_id: str, change: Callable[[dict[str, Any]], None]) -> Path:
    path = records / f"{execution_id}.json"
    record = json.loads(path.read_text("utf-8"))
    change(record)
    path.write_text(json.dumps(record, indent=2), "utf-8")
    return path


def engine_for(path: Path, **kwargs: Any) -> ReplayEngine:
    return ReplayEngine.from_load_result(load_record_file(path), **kwargs)


def kinds(engine: ReplayEngine) -> list[str]:
    return [problem.kind for problem in engine.replay(force=True).integrity]


def test_a_clean_real_record_replays_with_no_warnings(real_world: RealWorld) -> None:
    for execution_id in (real_world.success, real_world.fallback):
        result = engine_for(real_world.records_dir / f"{execution_id}.json").replay(strict=True)
        assert result.warnings == () and result.integrity == () and result.untrusted == ()
        assert result.to_json()["trusted"] is True and result.to_json()["integrity"] == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (change_final_response, [FINAL_RESPONSE_MISMATCH]),
        (change_envelope, [ENVELOPE_TAMPERED]),
        (change_both, [ENVELOPE_TAMPERED, FINAL_RESPONSE_MISMATCH]),
    ],
)
def test_an_edited_real_record_replays_with_its_problems_as_warnings(
    real_world: RealWorld, records: Path, change: Callable[[dict[str, Any]], None], expected: list
) -> None:
    path = edit(records, real_world.success, change)
    # The real library replays it as if nothing happened.
    real = RealStore(str(records)).load(real_world.success)
    real_result = RealReplayEngine(real).replay(env=real.envelope)
    tampered_envelope = ENVELOPE_TAMPERED in expected
    assert real_result.envelope_hash_ok is not tampered_envelope  # its only (opt-in) signal

    result = engine_for(path).replay()
    assert result.payload == real_result.response["payload"]  # the same answer, handed out...
    assert [problem.kind for problem in result.integrity] == expected  # ...but not silently
    assert result.untrusted == result.integrity
    assert [problem.text for problem in result.integrity] == list(result.warnings)
    doc = result.to_json()
    assert doc["trusted"] is False
    assert [entry["kind"] for entry in doc["integrity"]] == expected
    if tampered_envelope:
        warning = next(w for w in result.warnings if "possible tampering" in w)
        assert real.header.envelopeHash in warning  # names the stored hash
    if FINAL_RESPONSE_MISMATCH in expected:
        assert any("FINAL_RESPONSE event" in w and "payload" in w for w in result.warnings)

    with pytest.raises(UntrustedRecordError) as refused:
        engine_for(path).replay(strict=True)
    assert [problem.kind for problem in refused.value.problems] == expected


def test_a_benign_hash_mismatch_is_a_note_and_strict_replay_accepts_it(
    real_world: RealWorld, records: Path
) -> None:
    def routed(record: dict[str, Any]) -> None:
        # routing metadata filled in after the hash was taken: a known harmless difference
        record["envelope"]["routingMetadata"] = {"decisionPath": ["fb-secondary"], "retries": 1}

    path = edit(records, real_world.success, routed)
    result = engine_for(path).replay(strict=True)
    (note,) = result.integrity
    assert note.kind == BENIGN_HASH_MISMATCH and note.benign
    assert "benign" in note.text and "routingMetadata" in note.text
    assert "tampering" not in note.text.replace("not tampering", "")
    assert result.untrusted == () and result.to_json()["trusted"] is True


def test_an_unverifiable_hash_is_a_problem(real_world: RealWorld, records: Path) -> None:
    path = edit(records, real_world.success, lambda r: r["header"].update(envelopeHash="n/a"))
    result = engine_for(path).replay()
    assert [p.kind for p in result.integrity] == [HASH_UNVERIFIABLE]
    assert "not a sha256 hex digest" in result.warnings[0]
    with pytest.raises(UntrustedRecordError):
        engine_for(path).replay(strict=True)


def test_the_damaged_record_the_real_library_leaves_is_a_problem_of_its_forced_replay(
    real_world: RealWorld,
) -> None:
    engine = engine_for(real_world.records_dir / f"{real_world.error_truncated}.json")
    result = engine.replay(force=True)
    assert DAMAGED_RECORD in [p.kind for p in result.integrity]
    damaged = next(p for p in result.integrity if p.kind == DAMAGED_RECORD)
    assert "truncated" in damaged.detail
    with pytest.raises(UntrustedRecordError):
        engine.replay(force=True, strict=True)


def test_removed_events_and_a_misnamed_file_are_problems(
    real_world: RealWorld, records: Path
) -> None:
    path = edit(records, real_world.success, lambda r: r["events"].pop(1))
    assert kinds(engine_for(path)) == [EVENT_SEQUENCE_BROKEN]
    # Filed under another execution's id: the store would hand it out as that one's.
    moved = records / f"{real_world.success}.json"
    shutil.copy(records / f"{real_world.fallback}.json", moved)
    assert kinds(engine_for(moved)) == [RECORD_MISNAMED]
    # A copy or a name of the operator's own: the record is as written, nothing to trust less.
    for name in (f"{real_world.fallback}.copy.json", "someone-else.json"):
        shutil.copy(records / f"{real_world.fallback}.json", records / name)
        assert kinds(engine_for(records / name)) == []


def test_a_broken_wal_chain_of_the_execution_is_a_problem(
    real_world: RealWorld, records: Path
) -> None:
    wal_dir = records.parent / "wal"
    execution_id = real_world.success
    with WALWriter(str(wal_dir), execution_id) as writer:
        writer.execution_started("ab" * 32, "Summarize")
        writer.execution_completed("cd" * 32)
    wal_path = wal_dir / f"{execution_id}.wal"
    path = records / f"{execution_id}.json"
    assert engine_for(path, wal=read_wal(wal_path)).replay(strict=True).integrity == ()

    lines = wal_path.read_text("utf-8").splitlines()
    entry = json.loads(lines[0])
    entry["payload"]["intent_name"] = "Refund"
    wal_path.write_text("\n".join([json.dumps(entry), *lines[1:]]) + "\n", "utf-8")
    with pytest.raises(WALIntegrityError):  # the real library refuses the edited log
        WALReader(str(wal_dir), execution_id).read_all()
    (problem,) = engine_for(path, wal=read_wal(wal_path)).replay().integrity
    assert problem.kind == WAL_CHAIN_BROKEN and f"{execution_id}.wal line 1" in problem.detail
    with pytest.raises(UntrustedRecordError):
        engine_for(path, wal=read_wal(wal_path)).replay(strict=True)


def test_batch_replay_results_carry_the_problems_too(real_world: RealWorld, records: Path) -> None:
    edit(records, real_world.success, change_final_response)
    results = batch_replay(FileExecutionStore(records), [real_world.success, real_world.fallback])
    assert [p.kind for p in results[real_world.success].integrity] == [FINAL_RESPONSE_MISMATCH]
    assert results[real_world.fallback].integrity == ()


def test_thousands_of_problems_make_one_bounded_warning(
    real_world: RealWorld, records: Path
) -> None:
    def scramble(record: dict[str, Any]) -> None:
        event = record["events"][0]
        record["events"] = [{**event, "seq": 10_000 - i} for i in range(5_000)]

    path = edit(records, real_world.success, scramble)
    (problem,) = engine_for(path).replay().integrity
    assert problem.kind == EVENT_SEQUENCE_BROKEN
    assert "more" in problem.detail and len(problem.detail) <= 501
