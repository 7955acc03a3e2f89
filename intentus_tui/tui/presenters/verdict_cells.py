"""A verdict's three answers as the execution list's columns show them (a word, or a mark
where the column is narrow), and in the command line's words where there is room: pure
text, no Textual. The list's rows, its filter (what a row shows is what ``/`` finds) and
every pane that shows a verdict in one line take them from here."""

from __future__ import annotations

from dataclasses import dataclass

from intentus_tui.core.model import UNTRUSTED_INTEGRITY, Integrity, Outcome, ReplayCode, Verdict

# What happened; evidence that fails its check says so instead (nothing else can be believed).
OUTCOME_BADGES = {
    Outcome.SUCCEEDED: ("✓ succeeded", "execution-list--succeeded"),
    Outcome.FAILED: ("✗ failed", "execution-list--failed"),
    Outcome.IN_FLIGHT: ("◌ in flight", "execution-list--in-flight"),
    Outcome.UNKNOWN: ("? unknown", "execution-list--unknown"),
}
UNTRUSTED_BADGE = ("⚠ untrusted", "execution-list--untrusted")
WRITING_BADGE = ("… writing", "execution-list--in-flight")
# Can the record be believed: a word where there is room, a mark where there is not.
INTEGRITY_CELLS = {
    Integrity.VERIFIED: ("verified", "#✓", "execution-list--verified"),
    Integrity.BENIGN: ("benign", "#~", "execution-list--benign"),
    Integrity.TAMPERED: ("TAMPERED", "#!", "execution-list--tampered"),
    Integrity.UNVERIFIABLE: ("unverif.", "#?", "execution-list--unverifiable"),
    Integrity.CHAIN_BROKEN: ("CHAIN ✗", "#✗", "execution-list--tampered"),
}
# Why an execution cannot be replayed, in a few letters. Who decided, for a manual
# invalidation: "invalid." read as an invalid record (a file that does not parse).
REPLAY_SHORT = {
    ReplayCode.REPLAYABLE: "yes",
    ReplayCode.EXECUTION_INCOMPLETE: "no resp",
    ReplayCode.RECORDING_FAILURE: "rec.fail",
    ReplayCode.MANUALLY_INVALIDATED: "operator",
    ReplayCode.MARKED_NOT_REPLAYABLE: "marked",
    ReplayCode.RECORD_CORRUPTED: "corrupt",
    ReplayCode.NO_RECORD: "no rec",
    ReplayCode.UNTRUSTED: "untrust.",  # abbreviated as "unverif.": never a word cut short
    ReplayCode.UNCHECKED: "to check",
}
BADGE_WIDTH = 11  # "✓ succeeded", "⚠ untrusted"
BADGE_MARK_WIDTH = 1  # "✓", "⚠"
INTEGRITY_WIDTH = 8  # "TAMPERED", "verified"
INTEGRITY_MARK_WIDTH = 2  # "#!"
REPLAY_WIDTH = 10  # "↺ yes", "✗ rec.fail"
REPLAY_MARK_WIDTH = 1  # "↺" or "✗"


@dataclass(frozen=True, slots=True)
class WritingVerdict(Verdict):
    """A verdict given while its record is being written (``being_written``): its outcome
    badge is the row's "… writing" wherever it is shown (the timeline's one-line header,
    the Verify tab), not the "? unknown" of a damaged file."""


def being_written(verdict: Verdict) -> Verdict:
    """The verdict of a record caught mid-write (its row says "… writing"), as the timeline
    and the side pane give it: its answers wait for the rest of the file, which is not
    damaged for all that can be told yet (once it has been still a few seconds and is still
    cut short, it is what it is: its own verdict)."""
    return WritingVerdict(
        outcome=verdict.outcome,
        outcome_reason="the file is being written (it changed moments ago and does not parse yet)",
        integrity=verdict.integrity,
        integrity_reason="cannot be checked before the file is whole",
        replay=verdict.replay,
        replay_reason="not before it is whole",
    )


def outcome_badge(verdict: Verdict, writing: bool = False) -> tuple[str, str]:
    """The outcome badge's text and component class (``⚠ untrusted`` when the evidence
    fails its check)."""
    if writing or isinstance(verdict, WritingVerdict):
        return WRITING_BADGE
    if not verdict.trusted:
        return UNTRUSTED_BADGE
    return OUTCOME_BADGES[verdict.outcome]


def integrity_cell(integrity: Integrity, width: int) -> tuple[str, str]:
    word, mark, style = INTEGRITY_CELLS[integrity]
    return (word if width >= INTEGRITY_WIDTH else mark), style


def replay_cell(replay: ReplayCode, width: int) -> tuple[str, str]:
    if replay is ReplayCode.REPLAYABLE:
        return ("↺ yes" if width >= REPLAY_WIDTH else "↺"), "execution-list--replayable"
    return (f"✗ {REPLAY_SHORT[replay]}" if width >= REPLAY_WIDTH else "✗"), (
        "execution-list--not-replayable"
    )


def integrity_words(integrity: Integrity) -> str:
    """The integrity answer as the command line prints it (``chain broken``), where there
    is room for it: a pane's verdict lines, a comparison's sides."""
    return integrity.value.replace("_", " ")


def replay_words(verdict: Verdict) -> str:
    """The replay answer as ``inspect`` prints it (``↺ yes``, ``✗ no (recording_failure)``),
    where there is room for it."""
    return "↺ yes" if verdict.replayable else f"✗ no ({verdict.replay.value})"


def verdict_text(verdict: Verdict) -> str:
    """The three answers in one short line, as the list's columns abbreviate them:
    ``✗ failed · unverif. · ✗ corrupt`` (``verdict_words`` where there is room)."""
    integrity, _ = integrity_cell(verdict.integrity, INTEGRITY_WIDTH)
    replay, _ = replay_cell(verdict.replay, REPLAY_WIDTH)
    return f"{outcome_badge(verdict)[0]} · {integrity} · {replay}"


def verdict_words(verdict: Verdict) -> str:
    """``⚠ untrusted · tampered · ✗ no (untrusted)``: the three answers in the command
    line's words, as the Verify tab and the timeline's verdict lines say them."""
    integrity = integrity_words(verdict.integrity)
    return f"{outcome_badge(verdict)[0]} · {integrity} · {replay_words(verdict)}"


def row_texts(outcome: Outcome, integrity: Integrity, replay: ReplayCode) -> str:
    """What a list row shows of a verdict with these answers, its words and its marks
    (``✗ failed``, ``unverif.``, ``#?``, ``✗ corrupt``), one a line: what ``/`` finds it
    by, beside the verdict's codes."""
    badge = UNTRUSTED_BADGE if integrity in UNTRUSTED_INTEGRITY else OUTCOME_BADGES[outcome]
    word, mark, _ = INTEGRITY_CELLS[integrity]
    return "\n".join((badge[0], word, mark, replay_cell(replay, REPLAY_WIDTH)[0]))
