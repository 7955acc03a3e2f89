"""What a WAL tells: state, steps, fallbacks and the recovery hint, on real IntentusNet logs."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from intentusnet.wal.models import ExecutionState, WALEntryType
from intentusnet.wal.writer import WALWriter

from intentus_tui.core.wal.analyse import recovery_hint
from intentus_tui.core.wal.read import read_wal
from tests.core.wal.support import EXEC_ID, write_in_flight


def test_in_flight_irreversible_step_is_named_and_hinted_do_not_retry(tmp_path: Path) -> None:
    log = read_wal(write_in_flight(tmp_path, "irreversible"))

    assert log.state == "in_flight"
    assert log.chain_valid
    assert log.in_flight_step is not None
    assert log.in_flight_step.step_id == "charge"
    assert log.in_flight_step.agent == "payments-agent"
    assert log.in_flight_step.side_effect == "irreversible"
    assert [s.status for s in log.steps] == ["completed", "started"]
    assert log.hint.verdict == "do_not_retry"
    assert "irreversible" in log.hint.reason
    assert "charge" in log.message and "in flight" in log.message


def test_in_flight_read_only_step_after_read_only_work_is_safe(tmp_path: Path) -> None:
    log = read_wal(write_in_flight(tmp_path, "read_only"))
    assert log.in_flight_step is not None
    assert log.side_effects_completed is False
    assert log.hint.verdict == "safe_to_retry"


def test_failed_execution_with_fallbacks_and_contract_violation(tmp_path: Path) -> None:
    with WALWriter(str(tmp_path), EXEC_ID) as w:
        w.execution_started("ab" * 32, "Translate")
        w.step_started("a", "translator-a", "read_only", {}, "i")
        w.step_failed("a", "agent_error", "timeout after 30s", True)
        w.fallback_triggered("translator-a", "translator-b", "agent_error")
        w.step_started("b", "translator-b", "reversible", {}, "i")
        w.contract_violated("b", "max_latency_ms", "took 9000ms")
        w.step_failed("b", "contract_violation", "took 9000ms", False)
        w.append(WALEntryType.FALLBACK_EXHAUSTED, {"reason": "no agents left"})
        w.execution_failed("fallback_exhausted", "all agents failed", False)

    log = read_wal(tmp_path / f"{EXEC_ID}.wal")

    assert log.state == "failed"
    assert log.terminal_reason == "all agents failed"
    assert [(s.step_id, s.status) for s in log.steps] == [("a", "failed"), ("b", "failed")]
    assert log.steps[0].reason == "timeout after 30s" and log.steps[0].recoverable is True
    assert log.steps[1].contract_violation == "max_latency_ms: took 9000ms"
    assert [(f.from_agent, f.to_agent, f.exhausted) for f in log.fallbacks] == [
        ("translator-a", "translator-b", False),
        (None, None, True),
    ]
    assert log.in_flight_step is None
    assert log.hint.verdict == "safe_to_retry"  # nothing with side effects completed


def test_state_manager_transitions_and_abort_by_recovery_manager(tmp_path: Path) -> None:
    from intentusnet.wal.recovery import RecoveryManager
    from intentusnet.wal.state_manager import ExecutionStateManager

    with WALWriter(str(tmp_path), EXEC_ID) as w:
        manager = ExecutionStateManager(w, EXEC_ID)
        manager.initialize()
        manager.transition(ExecutionState.STARTED)
        manager.transition(ExecutionState.IN_PROGRESS)
        w.step_started("s", "agent", "irreversible", {}, "i")
    assert read_wal(tmp_path / f"{EXEC_ID}.wal").state == "in_flight"

    logging.disable(logging.CRITICAL)
    try:
        RecoveryManager(str(tmp_path)).abort_execution(EXEC_ID, "irreversible step ambiguous")
    finally:
        logging.disable(logging.NOTSET)
    log = read_wal(tmp_path / f"{EXEC_ID}.wal")
    assert log.state == "aborted"
    assert log.terminal_reason == "irreversible step ambiguous"
    assert log.chain_valid
    assert log.hint.verdict == "investigate_first"


# ---------------------------------------------------------------------------------------
# Recovery hints (plain inputs, usable without a WAL)


@pytest.mark.parametrize(
    ("state", "in_flight", "effect", "done", "verdict"),
    [
        ("in_flight", False, None, False, "safe_to_retry"),  # died before any step ran
        ("in_flight", True, None, False, "investigate_first"),  # a step of unknown effect in flight
        ("in_flight", True, "irreversible", False, "do_not_retry"),
        ("in_flight", True, "reversible", False, "investigate_first"),
        ("in_flight", True, "state-changing", False, "investigate_first"),
        ("in_flight", True, "read_only", False, "safe_to_retry"),
        ("in_flight", True, "read_only", True, "investigate_first"),
        ("in_flight", True, "read_only", None, "investigate_first"),
        ("in_flight", False, None, True, "investigate_first"),
        ("completed", False, None, False, "do_not_retry"),  # done: replay instead
        ("failed", False, None, False, "safe_to_retry"),
        ("failed", False, None, True, "investigate_first"),
        ("aborted", False, None, False, "investigate_first"),
        ("unknown", False, None, None, "investigate_first"),
        ("garbage", True, "irreversible", True, "investigate_first"),
    ],
)
def test_recovery_hint(
    state: str, in_flight: bool, effect: str | None, done: bool | None, verdict: str
) -> None:
    hint = recovery_hint(
        state, in_flight=in_flight, in_flight_side_effect=effect, side_effects_completed=done
    )
    assert hint.verdict == verdict
    assert hint.reason  # always explained
    verdict_, reason = hint  # a plain (verdict, reason) pair
    assert (verdict_, reason) == (hint.verdict, hint.reason)


def test_a_records_ended_attempts_are_named_in_the_hint_one_or_several() -> None:
    """A record declares no side effects: the hint names what ended, each with its status,
    and says "it" of one attempt and "they" of several."""
    one = recovery_hint("failed", in_flight=False, ended=("#1 fb-primary (error)",))
    several = recovery_hint(
        "failed", in_flight=False, ended=("#1 a (error)", "#2 b (error)", "#3 c (error)")
    )
    assert one.reason == (
        "Attempt #1 fb-primary (error) ended, and what it changed is unknown: "
        "check before retrying."
    )
    assert several.reason == (
        "Attempts #1 a (error), #2 b (error) and #3 c (error) ended, and what they changed "
        "is unknown: check before retrying."
    )
    assert one.verdict == several.verdict == "investigate_first"
