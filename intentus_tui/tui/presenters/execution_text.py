"""Text about one execution for the debugger's dialogs and panes: no Textual.

Every string here is sanitized (record-derived text is inert) and cut when huge, so a hostile
execution id cannot style a dialog, break it with ``[/x]`` or write escape sequences to the
terminal. Used by the confirmation dialog, the app and the side pane's tabs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from intentus_tui.core.actions import (
    EXECUTION_INCOMPLETE,
    FORCED_WARNING,
    MANUALLY_INVALIDATED,
    RECORD_CORRUPTED,
    RECORDING_FAILURE,
    UNTRUSTED_LOG,
    LoadStatus,
    force_replay_risks,
    replay_integrity,
    untrusted_problems,
)
from intentus_tui.core.model import Integrity
from intentus_tui.core.sanitize import sanitize_line

if TYPE_CHECKING:
    from intentus_tui.core.actions import ExecutionDetail, IntegrityProblem

UNTRUSTED_TITLE = "REPLAYED FROM AN UNTRUSTED RECORD"
UNCHECKED_TITLE = "REPLAYED FROM A RECORD THAT CANNOT BE FULLY CHECKED"

# What each documented replayable reason means, in words.
REASON_EXPLANATIONS: dict[str, str] = {
    EXECUTION_INCOMPLETE: "no final response was recorded (the process died or is still running)",
    RECORDING_FAILURE: "a final response exists but was not recorded properly",
    MANUALLY_INVALIDATED: "an operator marked this record as not replayable",
    RECORD_CORRUPTED: "the record is damaged or structurally invalid",
    "no_record": "no record was written: only the write-ahead log tells it, no response to replay",
}


MAX_FIELD_CHARS = 300  # record-derived text in a dialog: enough to recognise, never a 1 MB wall


def clip(text: str, limit: int = MAX_FIELD_CHARS) -> str:
    """Sanitized, and cut with a note when longer than ``limit``."""
    if len(text) > limit:
        text = f"{text[:limit]}… ({len(text) - limit:,} more characters)"
    return sanitize_line(text)


def explain_reason(reason: str | None) -> str:
    """``reason — what it means``, sanitized; unknown reasons are shown as recorded."""
    if reason is None:
        return "no reason recorded"
    shown = clip(reason)
    meaning = REASON_EXPLANATIONS.get(reason)
    return f"{shown} — {meaning}" if meaning else shown


def execution_label(detail: ExecutionDetail) -> str:
    """The execution id if the record has one, else the file name; sanitized."""
    record = detail.result.record
    execution_id = record.execution_id if record is not None else None
    return clip(execution_id if execution_id is not None else detail.path.name)


def short_label(detail: ExecutionDetail) -> str:
    """The id as the list row shows it (a UUID's first 8 characters); sanitized."""
    summary = detail.summary
    return clip(summary.short_id) if summary is not None else execution_label(detail)


def untrusted_banner(problems: Sequence[IntegrityProblem], untrusted: bool = True) -> str:
    """The one-line warning above an answer replayed from a record with integrity problems
    (``problems``: the untrusted ones); ``untrusted``: the verdict says the evidence fails
    its check (else it only cannot be fully checked); sanitized."""
    names = "; ".join(problem.summary for problem in problems)
    if not untrusted:
        return clip(f"⚠ {UNCHECKED_TITLE} — {names}: treat this answer with care", 600)
    return clip(f"⚠ {UNTRUSTED_TITLE} — {names}: investigate before using this answer", 600)


def integrity_note(problem: IntegrityProblem) -> str:
    """One integrity problem (or benign note) in full, sanitized and cut when huge."""
    return clip(problem.text)


def not_replayable_reason(detail: ExecutionDetail) -> str | None:
    """Why this execution cannot be replayed, as the verdict says it everywhere; None when
    it can be. An untrusted record is not replayable whatever its header says: the header's
    answer follows (invalidating rewrites it; forcing a replay ignores it)."""
    verdict = detail.verdict
    if verdict is not None and not verdict.trusted:
        why = clip(f"{verdict.replay.value} — {verdict.replay_reason}")
        said = explain_reason(detail.replay_reason)
        header = "replayable" if detail.replayable else f"not replayable, {said}"
        return f"{why}; its header says {header}"
    return None if detail.replayable else explain_reason(detail.replay_reason)


def force_replay_lines(detail: ExecutionDetail) -> list[str]:
    """What the operator must know before forcing a replay of this record."""
    lines = [f"Execution: {execution_label(detail)}"]
    why = not_replayable_reason(detail)
    if why is None:
        lines.append("This record is replayable: a forced replay returns the same as a normal one.")
    else:
        lines.append(f"Not replayable: {why}")
    if detail.result.status is not LoadStatus.OK:
        lines.append(f"File: {clip(detail.result.message)}")
    doubts = untrusted_problems(replay_integrity(detail))
    verdict = detail.verdict
    if doubts:  # named as the verdict names them: untrusted, or only not fully checked
        label = (
            "Untrusted record" if verdict is None or not verdict.trusted else "Not fully checked"
        )
        lines.append(f"{label}: {clip('; '.join(p.summary for p in doubts))}")
    # The risks of this record (its verdict's, then its header's), not a generic table.
    code = verdict.replay.value if verdict is not None else None
    if verdict is not None and verdict.integrity is Integrity.CHAIN_BROKEN:
        code = UNTRUSTED_LOG  # the log broke, not (as far as is known) the record
    header = None if detail.replayable else detail.replay_reason
    risks = force_replay_risks([code, header])
    if risks:
        lines.append("")
        lines.append("Force replay risk:" if len(risks) == 1 else "Force replay risks:")
        lines.extend(f" ▶ {scenario}: {risk}" for scenario, risk in risks)
    lines.append("")
    lines.append(
        "Replay returns what was recorded; it never runs agent code or calls a model. "
        f'The result is marked "{FORCED_WARNING}".'
    )
    return lines


def invalidate_lines(detail: ExecutionDetail) -> list[str]:
    """What invalidating this record will change on disk."""
    lines = [
        f"Execution: {execution_label(detail)}",
        f"File: {clip(str(detail.path))}",
    ]
    why = not_replayable_reason(detail)
    lines.append("Currently: replayable" if why is None else f"Currently: not replayable ({why})")
    lines.append("")
    lines.append(
        f'The header is rewritten to replayable: false, replayableReason: "{MANUALLY_INVALIDATED}". '
        "Nothing else in the record changes; the write is atomic (temp file, fsync, rename)."
    )
    lines.append("Replay will refuse this record afterwards; a forced replay stays possible.")
    if detail.result.status is not LoadStatus.OK:
        lines.append(
            "This file is damaged: it cannot be invalidated, because rewriting it would drop "
            "everything after the damage."
        )
    return lines
