"""What a write-ahead log may be believed about, on five logs the real IntentusNet 1.3.0
``WALWriter`` wrote: completed, failed, killed mid-write, one entry edited, one line
deleted (and no record file for any of them).

For each: the post-mortem's state and hint, the verdict the listing shows, and the real
library's own answer about the same file (``WALReader.read_all(verify_integrity=True)``
and ``RecoveryManager``), which must agree on what is intact and what is not.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from intentusnet.wal.models import ExecutionState as LibraryState
from intentusnet.wal.reader import WALIntegrityError, WALReader
from intentusnet.wal.recovery import RecoveryManager
from intentusnet.wal.writer import WALWriter

from intentus_tui.core.detail import detail_to_json, load_detail
from intentus_tui.core.index.wal_join import wal_only_summary
from intentus_tui.core.model import Integrity, Outcome, ReplayCode
from intentus_tui.core.postmortem import build_postmortem
from intentus_tui.core.verdict import verdict_of
from intentus_tui.core.wal.read import read_wal
from tests.core.wal.support import NAMES, write_incident_logs
from tests.intentusnet_world import build_real_world

REPLAY_ADVICE = "Replay the recorded response"


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    logging.getLogger("intentusnet").setLevel(logging.CRITICAL)
    return write_incident_logs(tmp_path_factory.mktemp("trust") / ".intentusnet" / "wal")


def _library_error(path: Path) -> str | None:
    """The real reader's verdict: None when it accepts the log, else its error."""
    try:
        WALReader(str(path.parent), path.name.removesuffix(".wal")).read_all(verify_integrity=True)
    except WALIntegrityError as exc:
        return str(exc)
    return None


# ------------------------------------------------------------------ intact logs


def test_a_completed_wal_only_execution_succeeded_but_has_nothing_to_replay(logs) -> None:
    log = read_wal(logs["clean"])
    assert _library_error(logs["clean"]) is None and log.chain_valid
    decision = RecoveryManager(str(logs["clean"].parent)).analyze_execution(log.execution_id)
    assert decision.state is LibraryState.COMPLETED and log.state == "completed"

    pm = build_postmortem(None, log)
    assert pm.state == "completed" and pm.chain_break is None
    assert pm.hint.verdict == "do_not_retry"
    assert REPLAY_ADVICE not in pm.hint.reason  # there is no recorded response
    assert "no recorded response to replay" in pm.hint.reason

    verdict = verdict_of(wal_only_summary(log))
    assert verdict.outcome is Outcome.SUCCEEDED and verdict.integrity is Integrity.VERIFIED
    assert verdict.replay is ReplayCode.NO_RECORD and "no record" in verdict.replay_reason


def test_a_failed_wal_only_execution_is_failed_not_incomplete(logs) -> None:
    log = read_wal(logs["failed"])
    assert _library_error(logs["failed"]) is None
    decision = RecoveryManager(str(logs["failed"].parent)).analyze_execution(log.execution_id)
    assert decision.state is LibraryState.FAILED and log.state == "failed"

    pm = build_postmortem(None, log)
    assert pm.state == "failed"
    # Only a read-only step ran, and it failed: nothing with side effects happened.
    assert pm.hint.verdict == "safe_to_retry"

    summary = wal_only_summary(log)
    assert summary.state.value == "completed" and summary.replay_reason == "no_record"
    verdict = verdict_of(summary)
    assert verdict.outcome is Outcome.FAILED and verdict.replay is ReplayCode.NO_RECORD


def test_a_log_killed_mid_write_is_a_crash_not_tampering(logs) -> None:
    log = read_wal(logs["killed"])
    # The real reader refuses the torn file whole; its recovery lists the execution as
    # incomplete (never as completed: the completion never became durable).
    error = _library_error(logs["killed"])
    assert error is not None and "Corrupted WAL entry" in error
    manager = RecoveryManager(str(logs["killed"].parent))
    assert log.execution_id in manager.scan_incomplete_executions()

    assert log.torn and log.chain_valid and log.chain_break is None
    assert len(log.entries) == 5 and log.state == "in_flight" == log.claimed_state
    pm = build_postmortem(None, log)
    assert pm.state == "in_flight" and pm.chain_break is None
    assert pm.last_event == "WAL #5 step.completed"
    # The irreversible charge completed before the crash: a retry would repeat it.
    assert pm.hint.verdict == "investigate_first" and "side effects" in pm.hint.reason

    summary = wal_only_summary(log)
    assert summary.wal_problem is not None and "not tampering" in summary.wal_problem
    verdict = verdict_of(summary)
    assert verdict.outcome is Outcome.IN_FLIGHT and verdict.integrity is Integrity.VERIFIED


# ------------------------------------------------------------------ broken chains


@pytest.mark.parametrize(
    ("name", "line", "seq", "kind", "trusted_through", "library_says"),
    [
        # seq 4 (the irreversible charge) edited to claim read-only
        ("edited", 4, 4, "hash_mismatch", 3, "Hash mismatch at seq=4"),
        # line 3 (seq 3) deleted: line 3 now holds seq 4, whose link points at the lost one;
        # seq 2 before the broken link is not trusted either (rewritten with a recomputed
        # hash, it would break the chain in just this way)
        ("deleted", 3, 4, "broken_link", 1, "expected 3, got 4"),
    ],
)
def test_a_broken_chain_makes_everything_after_the_break_untrusted(
    logs, name: str, line: int, seq: int, kind: str, trusted_through: int, library_says: str
) -> None:
    path = logs[name]
    error = _library_error(path)
    assert error is not None and library_says in error  # the library names the same entry
    decision = RecoveryManager(str(path.parent)).analyze_execution(NAMES[name])
    assert not decision.can_resume and "integrity check failed" in decision.reason

    log = read_wal(path)
    assert not log.chain_valid
    broken = log.chain_break
    assert broken is not None and (broken.line_no, broken.seq, broken.kind) == (line, seq, kind)
    # The last entry says execution.completed: a claim, not the state.
    assert log.last_entry is not None and log.last_entry.entry_type == "execution.completed"
    assert log.claimed_state == "completed" and log.state == "in_flight"
    assert log.last_trusted_entry is not None and log.last_trusted_entry.seq == trusted_through
    # Steps come from the trusted entries only: the charge's claimed class is not believed.
    assert all(s.started_seq is not None and s.started_seq <= trusted_through for s in log.steps)

    pm = build_postmortem(None, log)
    assert pm.state == "chain_broken"
    assert pm.chain_break is not None and pm.chain_break.line == line
    assert pm.chain_break.seq == seq and pm.chain_break.trusted_through_seq == trusted_through
    assert pm.hint.verdict == "investigate_first"
    assert f"nothing from line {line} (seq {seq}) on can be believed" in pm.hint.reason
    assert REPLAY_ADVICE not in pm.hint.reason and "retry looks safe" not in pm.hint.reason
    assert pm.last_event is not None and pm.last_event.startswith(f"WAL #{trusted_through} ")

    summary = wal_only_summary(log)
    assert summary.wal_chain_ok is False and summary.problems == 1
    assert summary.wal_problem is not None and f"line {line} (seq {seq})" in summary.wal_problem
    verdict = verdict_of(summary)
    assert verdict.outcome is Outcome.UNKNOWN and verdict.integrity is Integrity.CHAIN_BROKEN
    assert verdict.replay is ReplayCode.UNTRUSTED and verdict.needs_attention


def test_inspect_json_carries_the_verdict_and_the_break(logs) -> None:
    doc = detail_to_json(load_detail(logs["edited"]))
    assert doc["status"] == "incomplete" and doc["replayable_reason"] == "untrusted"
    assert doc["library_replayable"] == {"replayable": False, "reason": "no_record"}
    verdict = doc["verdict"]
    assert isinstance(verdict, dict)
    assert (verdict["outcome"], verdict["integrity"], verdict["replay"]) == (
        "unknown",
        "chain_broken",
        "untrusted",
    )
    wal = doc["wal"]
    assert isinstance(wal, dict) and wal["chain_break"]["seq"] == 4
    assert wal["state"] == "in_flight" and wal["claimed_state"] == "completed"
    assert wal["trusted_entries"] == 3 and wal["entries"] == 6
    pm = doc["postmortem"]
    assert isinstance(pm, dict) and pm["state"] == "chain_broken"
    assert pm["chain_break"]["line"] == 4 and pm["hint"]["verdict"] == "investigate_first"

    clean = detail_to_json(load_detail(logs["clean"]))
    assert clean["status"] == "completed" and clean["verdict"]["outcome"] == "succeeded"
    assert clean["verdict"]["replay"] == "no_record"


# ------------------------------------------------------------------ with a record


@pytest.fixture(scope="module")
def real_record(tmp_path_factory: pytest.TempPathFactory):
    return build_real_world(tmp_path_factory.mktemp("record"))


def _wal_for(world, *, edit: bool) -> Path:
    wal_dir = world.records_dir.parent / "wal"
    with WALWriter(str(wal_dir), world.success) as w:
        w.execution_started("ab" * 32, "Summarize")
        w.step_started("s1", "fb-secondary", "read_only", {}, "in-1")
        w.step_completed("s1", "out-1", True)
        w.execution_completed("cd" * 32)
    path = wal_dir / f"{world.success}.wal"
    if edit:
        path.write_bytes(path.read_bytes().replace(b'"read_only"', b'"reversible"', 1))
    return path


def test_a_recorded_response_is_replayable_advice_only_while_its_wal_holds(real_record) -> None:
    path = _wal_for(real_record, edit=False)
    detail = load_detail(real_record.records_dir / f"{real_record.success}.json", path.parent)
    assert detail.postmortem is not None and REPLAY_ADVICE in detail.postmortem.hint.reason
    assert detail.verdict is not None and detail.verdict.replayable

    path.unlink()
    path = _wal_for(real_record, edit=True)
    assert _library_error(path) is not None
    detail = load_detail(real_record.records_dir / f"{real_record.success}.json", path.parent)
    pm = detail.postmortem
    assert pm is not None and pm.state == "completed"  # the record's own state
    assert pm.chain_break is not None and pm.chain_break.seq == 2
    assert pm.hint.verdict == "investigate_first" and REPLAY_ADVICE not in pm.hint.reason
    assert detail.verdict is not None and detail.verdict.integrity is Integrity.CHAIN_BROKEN
    assert re.search(r"line 2 \(seq 2\)", detail.verdict.integrity_reason)
