"""What a write-ahead log's entries tell: the execution's state, its steps and fallbacks,
and a recovery hint for the operator (IntentusNet never retries by itself: an execution
that died mid-way is the operator's call, and the hint explains, it never decides)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from intentus_tui.core.sanitize import sanitize_line

if TYPE_CHECKING:
    from intentus_tui.core.wal.read import WalEntry

WalState = Literal["completed", "failed", "aborted", "in_flight", "unknown"]
StepStatus = Literal["started", "completed", "failed", "skipped"]
Verdict = Literal["safe_to_retry", "investigate_first", "do_not_retry"]

# Side-effect classes as IntentusNet declares them (contracts.models.SideEffectClass).
READ_ONLY = "read_only"
REVERSIBLE = "reversible"
IRREVERSIBLE = "irreversible"
_SIDE_EFFECT_ALIASES: dict[str, str] = {
    "read_only": READ_ONLY,
    "readonly": READ_ONLY,
    "read": READ_ONLY,
    "none": READ_ONLY,
    "pure": READ_ONLY,
    "reversible": REVERSIBLE,
    "state_changing": REVERSIBLE,
    "write": REVERSIBLE,
    "irreversible": IRREVERSIBLE,
}
_SIDE_EFFECT_KEYS = ("side_effect", "side_effect_class", "sideEffect", "sideEffectClass")

_TERMINAL_ENTRY_STATE: dict[str, WalState] = {
    "execution.completed": "completed",
    "execution.failed": "failed",
    "execution.aborted": "aborted",
}
_STEP_END_STATUS: dict[str, StepStatus] = {
    "step.completed": "completed",
    "step.failed": "failed",
    "step.skipped": "skipped",
}


@dataclass(frozen=True)
class WalStep:
    """A step (agent invocation) as the log tells it."""

    step_id: str
    agent: str | None
    status: StepStatus
    side_effect: str | None  # normalised: read_only | reversible | irreversible | other raw value
    started_seq: int | None
    ended_seq: int | None
    success: bool | None = None  # step.completed's ``success`` flag
    failure_type: str | None = None
    reason: str | None = None
    recoverable: bool | None = None
    contracts_validated: bool = False
    contract_violation: str | None = None  # "<contract>: <reason>"
    input_hash: str | None = None
    output_hash: str | None = None


@dataclass(frozen=True)
class WalFallback:
    """A ``fallback.triggered`` or ``fallback.exhausted`` entry."""

    seq: int
    exhausted: bool
    from_agent: str | None
    to_agent: str | None
    reason: str | None


class RecoveryHint(NamedTuple):
    """A hint for the operator -- never a decision (IntentusNet does not retry by design)."""

    verdict: Verdict
    reason: str


def normalise_side_effect(value: Any) -> str | None:
    """``read_only`` / ``reversible`` / ``irreversible``, another raw string, or None."""
    if not isinstance(value, str) or not value.strip():
        return None
    key = value.strip().lower().replace("-", "_").replace(" ", "_")
    return _SIDE_EFFECT_ALIASES.get(key) or sanitize_line(key)  # shown as a class: make it inert


def _side_effect_of(payload: dict[str, Any]) -> str | None:
    for key in _SIDE_EFFECT_KEYS:
        if key in payload:
            return normalise_side_effect(payload[key])
    contracts = payload.get("contracts")
    if isinstance(contracts, dict):
        for key in _SIDE_EFFECT_KEYS:
            if key in contracts:
                return normalise_side_effect(contracts[key])
    return None


def _str_or_none(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else str(value)


def _bool_or_none(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def _step_key(entry: WalEntry) -> str:
    p = entry.payload
    for key in ("step_id", "stepId", "step"):
        if p.get(key) is not None:
            return str(p[key])
    agent = p.get("agent_name", p.get("agent"))
    return str(agent) if agent is not None else f"seq-{entry.seq}"


@dataclass
class _StepBuilder:
    step_id: str
    agent: str | None = None
    status: StepStatus = "started"
    side_effect: str | None = None
    started_seq: int | None = None
    ended_seq: int | None = None
    success: bool | None = None
    failure_type: str | None = None
    reason: str | None = None
    recoverable: bool | None = None
    contracts_validated: bool = False
    contract_violation: str | None = None
    input_hash: str | None = None
    output_hash: str | None = None

    def freeze(self) -> WalStep:
        return WalStep(**self.__dict__)


@dataclass
class _Analysis:
    state: WalState = "in_flight"
    steps: tuple[WalStep, ...] = ()
    fallbacks: tuple[WalFallback, ...] = ()
    in_flight_step: WalStep | None = None
    intent_name: str | None = None
    envelope_hash: str | None = None
    terminal_reason: str | None = None


class _Analyser:
    """Walks the entries in order, like RecoveryManager.analyze_execution but tolerant."""

    def __init__(self) -> None:
        self.result = _Analysis()
        self.steps: dict[str, _StepBuilder] = {}
        self.fallbacks: list[WalFallback] = []

    def step(self, entry: WalEntry) -> _StepBuilder:
        key = _step_key(entry)
        builder = self.steps.get(key)
        if builder is None:
            builder = self.steps[key] = _StepBuilder(step_id=key)
        agent = entry.payload.get("agent_name", entry.payload.get("agent"))
        if agent is not None and builder.agent is None:
            builder.agent = _str_or_none(agent)
        return builder

    def feed(self, entry: WalEntry) -> None:
        kind, p = entry.entry_type, entry.payload
        if kind in _TERMINAL_ENTRY_STATE:
            self.result.state = _TERMINAL_ENTRY_STATE[kind]
            self.result.terminal_reason = _str_or_none(p.get("reason", p.get("failure_type")))
        elif kind == "execution.state_transition":
            self._transition(p)
        elif kind in ("execution.created", "execution.started", "execution.in_progress"):
            self._started(p)
        elif kind in ("recovery.started", "recovery.completed"):
            self.result.state = "in_flight"  # resumed: whatever follows decides
        elif kind in ("step.started", "agent.invocation_start"):
            self._step_started(entry)
        elif kind in _STEP_END_STATUS or kind == "agent.invocation_end":
            self._step_ended(entry)
        elif kind in ("contract.validated", "contract.violated"):
            self._contract(entry)
        elif kind in ("fallback.triggered", "fallback.exhausted"):
            self._fallback(entry)

    def _started(self, p: dict[str, Any]) -> None:
        if self.result.state not in _TERMINAL_ENTRY_STATE.values():
            self.result.state = "in_flight"
        self.result.intent_name = self.result.intent_name or _str_or_none(p.get("intent_name"))
        self.result.envelope_hash = self.result.envelope_hash or _str_or_none(
            p.get("envelope_hash")
        )

    def _transition(self, p: dict[str, Any]) -> None:
        to_state = p.get("to_state")
        mapped: dict[Any, WalState] = {
            "completed": "completed",
            "failed": "failed",
            "aborted": "aborted",
        }
        self.result.state = mapped.get(to_state, "in_flight")
        if self.result.state != "in_flight":
            self.result.terminal_reason = _str_or_none(p.get("reason"))

    def _step_started(self, entry: WalEntry) -> None:
        builder = self.step(entry)
        p = entry.payload
        builder.status = "started"
        builder.started_seq = entry.seq
        builder.side_effect = _side_effect_of(p) or builder.side_effect
        builder.input_hash = _str_or_none(p.get("input_hash"))

    def _step_ended(self, entry: WalEntry) -> None:
        builder = self.step(entry)
        p = entry.payload
        if entry.entry_type == "agent.invocation_end":
            ok = p.get("success", p.get("status") in ("ok", "success"))
            builder.status = "completed" if ok else "failed"
        else:
            builder.status = _STEP_END_STATUS[entry.entry_type]
        builder.ended_seq = entry.seq
        builder.success = _bool_or_none(p.get("success"))
        builder.failure_type = _str_or_none(p.get("failure_type"))
        builder.reason = _str_or_none(p.get("reason"))
        builder.recoverable = _bool_or_none(p.get("recoverable"))
        builder.output_hash = _str_or_none(p.get("output_hash"))
        builder.side_effect = builder.side_effect or _side_effect_of(p)

    def _contract(self, entry: WalEntry) -> None:
        p = entry.payload
        if p.get("step_id") is None:
            return  # e.g. "pre_execution" checks carry a step_id; without one there's no step
        builder = self.step(entry)
        if entry.entry_type == "contract.validated":
            builder.contracts_validated = True
            builder.side_effect = builder.side_effect or _side_effect_of(p)
        else:
            builder.contract_violation = f"{p.get('contract', '?')}: {p.get('reason', '')}".rstrip(
                ": "
            )

    def _fallback(self, entry: WalEntry) -> None:
        p = entry.payload
        self.fallbacks.append(
            WalFallback(
                seq=entry.seq,
                exhausted=entry.entry_type == "fallback.exhausted",
                from_agent=_str_or_none(p.get("from_agent", p.get("from"))),
                to_agent=_str_or_none(p.get("to_agent", p.get("to"))),
                reason=_str_or_none(p.get("reason")),
            )
        )

    def finish(self) -> _Analysis:
        # A step that was only named by a contract entry never started: not a step.
        steps = [
            b for b in self.steps.values() if b.started_seq is not None or b.ended_seq is not None
        ]
        frozen = tuple(b.freeze() for b in steps)
        self.result.steps = frozen
        self.result.fallbacks = tuple(self.fallbacks)
        if self.result.state == "in_flight":
            pending = [s for s in frozen if s.status == "started"]
            self.result.in_flight_step = max(
                pending, key=lambda s: s.started_seq or 0, default=None
            )
        return self.result


def analyse(entries: list[WalEntry]) -> _Analysis:
    """The state, steps and fallbacks the entries tell, in order."""
    analyser = _Analyser()
    for entry in entries:
        analyser.feed(entry)
    return analyser.finish()


def side_effects_completed(steps: tuple[WalStep, ...]) -> bool | None:
    """True if a non-read-only step completed; None if a completed step's class is unknown."""
    unknown = False
    for step in steps:
        if step.status != "completed":
            continue
        if step.side_effect is None:
            unknown = True
        elif step.side_effect != READ_ONLY:
            return True
    return None if unknown else False


# --------------------------------------------------------------------------------------
# Recovery hint: what IntentusNet's recovery guidance says to do in each situation
# --------------------------------------------------------------------------------------


def recovery_hint(
    state: str,
    *,
    in_flight: bool,
    in_flight_side_effect: str | None = None,
    side_effects_completed: bool | None = None,
    response_recorded: bool = True,
    replay_refused: str | None = None,
    record_removed: bool = False,
    ended: Sequence[str] = (),
) -> RecoveryHint:
    """Hint whether re-submitting the intent looks safe. Plain inputs, so it also serves
    records without a WAL.

    state: completed | failed | aborted | in_flight | anything else (= unknown).
    in_flight: an agent step/attempt started and never ended.
    in_flight_side_effect: that step's side-effect class (None = not declared).
    side_effects_completed: whether an earlier step with side effects completed
    (None = unknown).
    response_recorded: a record holds the final response (False for an execution known only
    from its WAL: there is nothing to replay, and the hint must not suggest it).
    replay_refused: why the recorded response may not be replayed (the verdict's reason),
    if it may not: the hint must not suggest replaying it either.
    record_removed: without a response recorded, because its record file was removed since
    it was seen (not because none was written).
    ended: a record's attempts that ended, each with its status (``#1 fb-primary (error)``):
    a record declares no side effects, and an attempt that failed did not complete.
    """
    effect = normalise_side_effect(in_flight_side_effect)
    if state == "completed" and not response_recorded:
        no_record = (
            "Its record file was removed (seen, then gone)"
            if record_removed
            else "No record was written"
        )
        return RecoveryHint(
            "do_not_retry",
            "The write-ahead log says the execution completed; re-running it would repeat its "
            f"work. {no_record}, so there is no recorded response to replay: take the result "
            "from the systems it acted on.",
        )
    if state == "completed" and replay_refused:
        return RecoveryHint(
            "do_not_retry",
            "The execution completed; re-running it would repeat its work. Its recorded "
            f"response may not be replayed either ({replay_refused}): take the result from "
            "the systems it acted on.",
        )
    if state == "completed":
        return RecoveryHint(
            "do_not_retry",
            "The execution completed; re-running it would repeat its work. Replay the recorded response instead.",
        )
    if state == "aborted":
        return RecoveryHint(
            "investigate_first",
            "The execution was aborted (usually because its state was ambiguous); find out why before re-submitting.",
        )
    if state == "failed":
        return _after_earlier_steps(
            side_effects_completed,
            clean="It failed cleanly and no step with side effects completed; a retry looks safe.",
            ended=ended,
        )
    if state != "in_flight":
        return RecoveryHint(
            "investigate_first",
            "The execution's state cannot be determined from what was recorded.",
        )
    if not in_flight:
        return _after_earlier_steps(
            side_effects_completed,
            clean=(
                "It stopped before any step with side effects ran (nothing was in flight); "
                f"{_ONCE_GONE}"
            ),
            ended=ended,
        )
    if effect == IRREVERSIBLE:
        return RecoveryHint(
            "do_not_retry",
            "An irreversible step was in flight when the process died: it may have taken effect. "
            "Check the target system before doing anything; a retry could repeat it.",
        )
    if effect == REVERSIBLE:
        return RecoveryHint(
            "investigate_first",
            "A state-changing step was in flight when the process died: it may have partly applied. "
            "Check (or undo) its effect before retrying.",
        )
    if effect == READ_ONLY:
        return _after_earlier_steps(
            side_effects_completed,
            clean=(
                "Only a read-only step was in flight and nothing with side effects completed; "
                f"{_ONCE_GONE}"
            ),
        )
    return RecoveryHint(
        "investigate_first",
        "A step was in flight when the process died and its side effects are unknown. "
        "Find out whether the agent changed anything before retrying.",
    )


# An execution with no end may still be running (a live writer, or a log read between two
# of its lines): retried beside it, it would run twice.
_ONCE_GONE = (
    "once its process is gone, a retry looks safe (it may still be running: a retry beside "
    "it would run it twice)."
)


def _after_earlier_steps(
    side_effects_completed: bool | None, *, clean: str, ended: Sequence[str] = ()
) -> RecoveryHint:
    if side_effects_completed is None and ended:  # a record's attempts: none need have completed
        if len(ended) == 1:
            said = f"Attempt {ended[0]} ended, and what it changed"
        else:
            said = f"Attempts {', '.join(ended[:-1])} and {ended[-1]} ended, and what they changed"
        return RecoveryHint("investigate_first", f"{said} is unknown: check before retrying.")
    if side_effects_completed is False:
        return RecoveryHint("safe_to_retry", clean)
    if side_effects_completed:
        return RecoveryHint(
            "investigate_first",
            "Steps with side effects already completed; a retry would repeat them unless they are idempotent.",
        )
    return RecoveryHint(
        "investigate_first",
        "Steps completed whose side effects are unknown; check they are idempotent before retrying.",
    )
