"""The Post-mortem tab: what state was the execution left in, and is it safe to retry?

``postmortem_lines(detail, wal=None)`` shows the core's post-mortem (``actions.postmortem``:
record and write-ahead log joined, their disagreements, the recovery hint) with the
record's own detail around it: the attempt in flight, what completed before it, the
salvage, replayability. ``wal`` defaults to the one the core joined (``detail.wal``).
The hint is always phrased as a hint: IntentusNet never retries by itself, and neither
does this tool. An untrusted execution's (its record or its log fails its integrity check)
opens on its verdict, what broke and the hint; what the evidence claims comes after.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from intentus_tui.core.actions import CLAIMED, ExecutionState, LoadStatus, postmortem
from intentus_tui.core.model import RECORD_REMOVED, Integrity, Outcome, break_label
from intentus_tui.tui.presenters.verdict_cells import (
    integrity_words,
    outcome_badge,
    replay_words,
)
from intentus_tui.tui.widgets.pane_text import (
    BLANK,
    DIM_STYLE,
    OK_STYLE,
    PROBLEM_STYLE,
    WARNING_STYLE,
    Line,
    LinesPane,
    badge,
    bullet,
    heading,
    line,
    parted,
    plain,
    replayable_row,
    row,
    safe,
)

if TYPE_CHECKING:
    from intentus_tui.core.actions import (
        Attempt,
        ExecutionDetail,
        PostMortem,
        RecoveryHint,
        Timeline,
        WalLog,
    )
    from intentus_tui.core.model import Verdict

_STATE_BADGE = {
    ExecutionState.COMPLETED: ("COMPLETED", "ok"),
    ExecutionState.INCOMPLETE: ("INCOMPLETE", "warning"),
    ExecutionState.CORRUPTED: ("CORRUPTED", "error"),
}
_STATE_NOTE = {
    ExecutionState.COMPLETED: "a final response was recorded",
    ExecutionState.INCOMPLETE: "no final response: the process died mid-execution, or it is still running",
    ExecutionState.CORRUPTED: "the record file is not whole; what survived is shown below",
}
HINT_BADGE: dict[str, tuple[str, str]] = {
    "safe_to_retry": ("HINT: SAFE TO RETRY", "ok"),
    "investigate_first": ("HINT: INVESTIGATE FIRST", "warning"),
    "do_not_retry": ("HINT: DO NOT RETRY", "error"),
}
HINT_DISCLAIMER = "A hint from what was recorded, not a decision: nothing is retried automatically."


def _attempt_text(attempt: Attempt) -> str:
    bits = [f"#{attempt.number} {attempt.agent}"]
    if attempt.status == "in_flight":
        bits.append("started, never ended")
    else:
        bits.append(attempt.status)
    if attempt.exception:
        bits.append(attempt.exception)
    if attempt.latency_ms is not None:
        bits.append(f"{attempt.latency_ms:g}ms")  # one word: a wrap never parts it from its unit
    seqs = [s for s in (attempt.start_seq, attempt.end_seq) if s is not None]
    if seqs:
        bits.append("seq " + "–".join(str(s) for s in seqs))
    if attempt.log_start_seq is not None:  # the record stops before it
        bits.append(f"from the write-ahead log (WAL #{attempt.log_start_seq})")
    return safe("  ".join(bits))


def record_removed(detail: ExecutionDetail) -> bool:
    """Known from its log alone because its record file was seen, then removed."""
    return detail.summary is not None and detail.summary.record_removed


def _postmortem_only_lines(pm: PostMortem) -> list[Line]:
    """No readable record: what the core's post-mortem (from the WAL, if any) says."""
    last = pm.last_event or "none: nothing of the record could be read"
    lines = [row("Last event", safe(last) if pm.last_event else (last, DIM_STYLE))]
    for step in pm.in_flight:
        lines.append(row("In flight", (safe(step), WARNING_STYLE)))
    if pm.completed_before:  # the steps that ended, each with its status
        lines.append(row("Ended", ""))
        lines.extend(bullet(safe(done), indent=4) for done in pm.completed_before)
    return lines


# Ended attempts listed at each end of a longer chain: a 16,000-attempt execution's
# post-mortem took ten seconds to show, and read as the timeline, one line an attempt.
ENDS_SHOWN = 10


def _ends_shown(finished: list[Attempt]) -> list[Attempt | int]:
    """The first and last ``ENDS_SHOWN`` attempts, and how many there are between them."""
    if len(finished) <= 2 * ENDS_SHOWN + 1:
        return list(finished)
    between = len(finished) - 2 * ENDS_SHOWN
    return [*finished[:ENDS_SHOWN], between, *finished[-ENDS_SHOWN:]]


def _events_lines(timeline: Timeline | None, pm: PostMortem) -> list[Line]:
    if timeline is None:
        return _postmortem_only_lines(pm)
    lines: list[Line] = []
    last = timeline.last_event
    if last is None:
        lines.append(row("Last event", ("no events recorded", DIM_STYLE)))
    else:
        seq = f"seq {last.seq}" if last.seq is not None else f"event #{last.index + 1}"
        lines.append(row("Last event", safe(f"{seq} {last.type}  {last.summary}".rstrip())))
    # Untrusted: what the record says happened is only claimed (as inspect says it).
    claimed = f"  {CLAIMED}" if pm.untrusted is not None else ""
    if timeline.in_flight:
        for attempt in timeline.in_flight:
            lines.append(row("In flight", (_attempt_text(attempt) + claimed, WARNING_STYLE)))
        # The log's step in flight where the record has another agent's: its own line,
        # with its side effect (no attempt of the record's has it).
        for number, step in enumerate(pm.in_flight[len(timeline.in_flight) :]):
            at = len(timeline.in_flight) + number
            effect = (
                f", side effect: {pm.side_effect}"
                if pm.side_effect and at == pm.side_effect_at
                else ""
            )
            lines.append(row("In flight", (safe(f"{step}{effect}"), WARNING_STYLE)))
    elif pm.in_flight:  # the record closed every attempt; its log did not
        for step in pm.in_flight:
            text = f"{step}: open in the write-ahead log (the record closed every attempt)"
            lines.append(row("In flight", (safe(text), WARNING_STYLE)))
    else:
        lines.append(row("In flight", ("no attempt was left open", OK_STYLE)))
    finished = [a for a in timeline.attempts if not a.in_flight]
    if finished:  # ended, each with its status: a failed attempt completed nothing
        lines.append(row("Ended", ("claimed" if claimed else "", DIM_STYLE)))
        for shown in _ends_shown(finished):
            if isinstance(shown, int):
                text = f"… {shown:,} more between (the timeline lists every attempt)"
                lines.append(bullet(text, DIM_STYLE, mark=" ", indent=4))
                continue
            style = PROBLEM_STYLE if shown.status == "error" else OK_STYLE
            text = _attempt_text(shown) + claimed
            lines.append(bullet(text, style, mark=shown.mark, indent=4))
    else:
        lines.append(row("Ended", ("no attempt ended", DIM_STYLE)))
    if timeline.attempts:
        chain = f"{CLAIMED} {timeline.chain}" if claimed else timeline.chain  # as everywhere
        lines.append(row("Branches" if timeline.fan_out else "Chain", safe(chain)))
    return lines


def _salvage_lines(detail: ExecutionDetail) -> list[Line]:
    result = detail.result
    if result.status is LoadStatus.OK:
        return [row("Salvage", ("not needed: the file is whole", OK_STYLE))]
    if result.status is LoadStatus.NO_RECORD:
        gone = record_removed(detail)
        what = "removed (seen, then gone)" if gone else "none was written"
        return [row("Record file", (what, PROBLEM_STYLE if gone else WARNING_STYLE))]
    if result.status.not_read:  # nothing to salvage: said under State
        return [row("Salvage", ("none: the file was not read", WARNING_STYLE))]
    lines = [row("Salvage", (safe(result.message), WARNING_STYLE))]
    if result.damage is not None:
        lines.append(row(break_label(result.message), safe(result.damage.describe())))
    if result.recovered:
        lines.append(row("Recovered", safe(", ".join(result.recovered))))
    if result.partial and result.record is not None:
        count = len(result.record.events)
        lines.append(row("Partial", safe(f"{', '.join(result.partial)}: {count} complete events")))
    return lines


def _wal_lines(wal: WalLog) -> list[Line]:
    lines = [row("WAL", safe(wal.message))]
    broken = wal.chain_break
    if broken is not None:
        last = wal.last_trusted_entry
        through = f"through seq {last.seq}" if last is not None else "no entry"
        trusted = f"{wal.state} ({through}; claims {wal.claimed_state}, untrusted)"
        lines.append(row("WAL state", (safe(trusted), PROBLEM_STYLE)))
    else:
        lines.append(row("WAL state", safe(wal.state)))
    step = wal.in_flight_step
    if step is not None:
        effect = step.side_effect or "not declared"
        agent = step.agent or "?"
        text = safe(f"{agent} ({step.step_id}), side effect: {effect}")
        lines.append(row("Step in flight", (text, WARNING_STYLE)))
    effects = wal.side_effects_completed
    done = {
        True: ("a step with side effects completed", WARNING_STYLE),
        False: ("no step with side effects completed", OK_STYLE),
        None: ("unknown: a step's side effects were not declared", DIM_STYLE),
    }[effects]
    if broken is not None:  # the untrusted entries may say anything: they are not counted
        done = (f"{done[0]} before the break; unknown after it", WARNING_STYLE)
    elif not wal.checkable:  # no entry: the log says nothing about any step
        done = ("unknown: the log holds no entry", DIM_STYLE)
    lines.append(row("Side effects", done))
    if broken is not None:
        where = f"line {broken.line_no}" + (f", seq {broken.seq}" if broken.seq is not None else "")
        text = f"broken at {where} ({broken.kind}): everything from there on is untrusted"
        lines.append(row("Chain", (safe(text), PROBLEM_STYLE)))  # the why: in the verdict
    elif wal.file_status in ("empty", "no_entry"):
        lines.append(row("Chain", ("none: no complete entry, nothing to check", WARNING_STYLE)))
    elif not wal.chain_valid:
        lines.append(row("Chain", ("unreadable: the log cannot be checked", PROBLEM_STYLE)))
    elif wal.torn:
        tail = (
            "the last line is torn: the process died while appending it (a crash)"
            if wal.cut_short
            else "the last line is malformed: whole, not cut short, yet not an entry"
        )
        lines.append(row("Chain", (tail, WARNING_STYLE)))
    return lines


_SOURCES = {"record": "the record", "wal": "the write-ahead log"}


def hint_source(pm: PostMortem) -> str:
    """What a hint is based on, as the rest of "Based on …": "the record and the write-ahead
    log", "the record alone: no write-ahead log (…)", and for a file holding no record "the
    file alone: no write-ahead log (…)" (it said "Based on no write-ahead log", nothing)."""
    names = [_SOURCES.get(source, source) for source in pm.sources]
    if "wal" in pm.sources:
        return " and ".join(names)
    alone = names[0] if names else "the file"
    return f"{alone} alone: no write-ahead log (records do not declare side-effect classes)"


def hint_lines(hint: RecoveryHint, source: str) -> list[Line]:
    label, kind = HINT_BADGE.get(hint.verdict, (f"HINT: {hint.verdict}", "muted"))
    return [
        heading("Recovery", badge(label, kind)),
        plain(safe(hint.reason)),
        plain(f"Based on {source}. {HINT_DISCLAIMER}", DIM_STYLE),
    ]


_WAL_STATE_BADGE = {
    "completed": ("COMPLETED (WAL)", "ok"),
    "failed": ("FAILED (WAL)", "error"),
    "aborted": ("ABORTED (WAL)", "warning"),
    "in_flight": ("IN FLIGHT (WAL)", "warning"),
    "chain_broken": ("CHAIN BROKEN (WAL)", "error"),
}


def verdict_heading(verdict: Verdict) -> list[Line]:
    """``Verdict  ✗ FAILED`` and under it ``unverifiable · ✗ no (record_corrupted)``: its
    three answers in the words of the Verify tab and the timeline's verdict lines (on a
    line of their own: beside the badge, a narrow pane wrapped "✗" apart from "no"), broken
    between two answers only, with no "·" ending a row (``parted``)."""
    outcome, _ = outcome_badge(verdict)
    if not verdict.trusted:
        kind, style = "error", PROBLEM_STYLE
    else:
        kind = _OUTCOME_KINDS[verdict.outcome]
        style = OK_STYLE if verdict.integrity is Integrity.VERIFIED else WARNING_STYLE
    answers = [integrity_words(verdict.integrity), replay_words(verdict)]
    parts = [Content.styled(answer, style) for answer in answers]
    marks = [Content.styled(" ·", style)] * len(parts)
    return [heading("Verdict", badge(outcome.upper(), kind)), parted(Content("  "), parts, marks)]


_OUTCOME_KINDS = {
    Outcome.SUCCEEDED: "ok",
    Outcome.FAILED: "error",
    Outcome.IN_FLIGHT: "warning",
    Outcome.UNKNOWN: "error",
}


def untrusted_lines(verdict: Verdict | None, pm: PostMortem) -> list[Line]:
    """The verdict, what broke and the investigate-first hint: what an untrusted
    execution's post-mortem says before anything its evidence claims."""
    lines: list[Line] = []
    if verdict is not None:
        lines.extend(verdict_heading(verdict))
    else:
        lines.append(heading("Verdict", badge("⚠ UNTRUSTED", "error")))
    lines.append(plain(safe(pm.untrusted or ""), PROBLEM_STYLE))
    lines.extend(hint_lines(pm.hint, hint_source(pm)))
    return lines


def _verdict_or_state(verdict: Verdict | None, label: str, kind: str) -> list[Line]:
    """The verdict's heading, as every other tab says it; the state's badge without one
    (an untrusted execution's verdict is said above, before what it claims)."""
    if verdict is not None:
        return verdict_heading(verdict)
    return [heading("State", badge(label, kind))]


def _state_lines(detail: ExecutionDetail, pm: PostMortem) -> list[Line]:
    timeline = detail.timeline
    verdict = detail.verdict
    believed = verdict if pm.untrusted is None else None  # an untrusted one's is said above
    if timeline is None and detail.result.status is LoadStatus.NO_RECORD:
        label, kind = _WAL_STATE_BADGE.get(pm.state, (safe(pm.state).upper(), "muted"))
        said = _verdict_or_state(believed, label, kind)
        if record_removed(detail):  # evidence gone missing: not a clean WAL-only execution
            note = f"{RECORD_REMOVED}: only the write-ahead log is left to tell this execution"
            return [*said, plain(note, PROBLEM_STYLE)]
        note = "no record file was written: only the write-ahead log tells this execution"
        return [*said, plain(note)]
    if timeline is None and detail.result.status.not_read:
        # Not damaged: never read (a link leading nowhere or outside the directory, a
        # directory), as verify says it. It was "CORRUPTED: the record file is not whole".
        note = f"the file was not read: {detail.result.why_not_read}"
        said = _verdict_or_state(believed, "NOT READ", "warning")
        return [*said, plain(safe(note), WARNING_STYLE)]
    state = timeline.state if timeline is not None else ExecutionState.CORRUPTED
    if pm.untrusted is not None:  # what the evidence claims (its verdict is said above)
        lines = [row("Claimed", (_STATE_NOTE[state], DIM_STYLE))]
    elif verdict is not None:  # in the verdict's words, as every other tab says it
        lines = [*verdict_heading(verdict), plain(safe(verdict.outcome_reason), DIM_STYLE)]
    else:
        label, kind = _STATE_BADGE[state]
        lines = [heading("State", badge(label, kind)), plain(_STATE_NOTE[state])]
    if timeline is not None and (timeline.final_status or timeline.final_kind) is not None:
        bad = timeline.final_status == "error" or timeline.final_kind is not None
        final_style = PROBLEM_STYLE if bad else OK_STYLE
        lines.append(row("Final response", (safe(timeline.final_text), final_style)))
    return lines


def postmortem_lines(detail: ExecutionDetail | None, wal: WalLog | None = None) -> list[Line]:
    """The Post-mortem tab's lines for one execution (``wal`` defaults to ``detail.wal``)."""
    if detail is None:
        return [line("Select an execution for its post-mortem.")]
    wal = wal if wal is not None else detail.wal
    pm = postmortem(detail, wal)
    lines: list[Line] = []
    if pm.untrusted is not None:  # the verdict first: nothing claimed below is believed
        lines.extend(untrusted_lines(detail.verdict, pm))
        lines.append(BLANK)
    lines.extend(_state_lines(detail, pm))
    lines.append(BLANK)
    if pm.untrusted is None:  # what to do next, where a pane of 24 rows shows it at once
        lines.extend(hint_lines(pm.hint, hint_source(pm)))
        lines.append(BLANK)
    lines.extend(_events_lines(detail.timeline, pm))
    lines.append(BLANK)
    lines.append(replayable_row(detail))
    lines.extend(_salvage_lines(detail))
    if wal is not None:
        lines.extend(_wal_lines(wal))
    if pm.disagreements:
        lines.append(BLANK)
        lines.append(heading("Inconsistencies", badge("CHECK", "warning")))
        lines.extend(bullet(safe(d), WARNING_STYLE, mark="!") for d in pm.disagreements)
    return lines


class PostmortemPane(LinesPane):
    """Shows ``postmortem_lines`` for the current detail."""

    TEXT_ID = "postmortem-text"

    def lines_for(self, detail: ExecutionDetail | None) -> list[Line]:
        return postmortem_lines(detail)
