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
    WAL_CHAIN_BROKEN,
    LoadStatus,
    force_replay_risks,
    replay_code_text,
    replay_integrity,
    untrusted_problems,
)
from intentus_tui.core.model import Integrity, ReplayCode
from intentus_tui.core.sanitize import sanitize_line

if TYPE_CHECKING:
    from intentus_tui.core.actions import ExecutionDetail, IntegrityProblem
    from intentus_tui.core.model import ExecutionSummary

UNTRUSTED_TITLE = "REPLAYED FROM AN UNTRUSTED RECORD"
UNCHECKED_TITLE = "REPLAYED FROM A RECORD THAT CANNOT BE FULLY CHECKED"

# What each documented replayable reason means: the verdict's own words, as every screen
# and the command line say them.
REASON_EXPLANATIONS: dict[str, str] = {
    code.value: replay_code_text(code)
    for code in (
        ReplayCode.EXECUTION_INCOMPLETE,
        ReplayCode.RECORDING_FAILURE,
        ReplayCode.MANUALLY_INVALIDATED,
        ReplayCode.RECORD_CORRUPTED,
        ReplayCode.NO_RECORD,
    )
}


_FORCED_READ = (
    "A forced replay returns whatever could be read, after a confirmation listing the risks."
)
_FORCED_RECORDED = (
    "A forced replay returns whatever was recorded, after a confirmation listing the risks."
)


def no_response_note(detail: ExecutionDetail) -> str:
    """A record with no response (none, or a malformed one): what ``replay --force`` says
    of it too, said before and after, as a sentence."""
    said = sanitize_line(detail.no_response_text)
    return f"{said[0].upper()}{said[1:]}."


# Why a refused replay was refused, for each reason the record's header gives (the verdict's
# own words come with an untrusted record), then what forcing one would do when a response
# was recorded (when none was, forcing returns none: ``no_response_note``).
REFUSAL_NOTES: dict[str, tuple[str, str]] = {
    MANUALLY_INVALIDATED: (
        "An operator marked this record as not replayable.",
        "A forced replay returns what was recorded anyway, after a confirmation listing the risks.",
    ),
    RECORD_CORRUPTED: (
        "The file is damaged, not a record, or a malformed record (verify lists what "
        "is wrong): what it holds may be incomplete or wrong.",
        _FORCED_READ,
    ),
    EXECUTION_INCOMPLETE: (
        "No final response was recorded: the execution died or is still running, so "
        "there is no answer to replay.",
        _FORCED_RECORDED,
    ),
    RECORDING_FAILURE: (
        "Its writer says the final response was not recorded properly: it may be incomplete.",
        "A forced replay returns it anyway, after a confirmation listing the risks.",
    ),
}
OTHER_REFUSAL_NOTE = (
    "The record's header marks it not replayable.",
    "A forced replay returns whatever was recorded anyway, after a confirmation listing the risks.",
)
NOTHING_TO_REPLAY = (
    "Nothing to replay: no record holds a response for this execution, so a replay, "
    "forced or not, has nothing to return."
)


# A record_corrupted record that was read: which of the three it is, not all three.
_CORRUPTED_NOTES = {
    "cut short": (
        "The file is cut short: only what was written before its end could be read, and "
        "its response is missing or incomplete."
    ),
    "damaged": (
        "The file is damaged: only what could be read around the damage is there, and it "
        "may be incomplete or wrong."
    ),
    "malformed": (
        "The record is malformed (verify lists what is wrong): what it holds may be "
        "incomplete or wrong."
    ),
}


def refusal_note(reason: str | None, detail: ExecutionDetail | None = None) -> str:
    """What a refusal with code ``reason`` means (a library's reason is its own code; any
    other the header gives is ``marked_not_replayable``), and what forcing would do; of
    ``detail``'s record, when it says which harm it is and whether it holds a response."""
    meaning, forced = REFUSAL_NOTES.get(reason or "", OTHER_REFUSAL_NOTE)
    if reason == RECORD_CORRUPTED and detail is not None:
        report = detail.verify
        kind = None
        if report.load_status is LoadStatus.SALVAGED:
            kind = "cut short" if report.cut_short else "damaged"
        elif report.load_status is LoadStatus.OK and not report.ok:  # else its writer's word
            kind = "malformed"
        if kind is not None:
            meaning = _CORRUPTED_NOTES[kind]
    if detail is not None and not detail.response_recorded:
        forced = no_response_note(detail)
        if reason == EXECUTION_INCOMPLETE:  # its meaning already says none was recorded
            forced = "A forced replay returns none."
    return f"{meaning} {forced}"


def unreadable_record(detail: ExecutionDetail) -> str | None:
    """``the record cannot be read (Cannot read: Permission denied)`` when its file is
    there but could not be read (its directory cannot be searched, or it is mode 000):
    such an execution has a record, one that cannot be acted on now (sanitized)."""
    result = detail.result
    if result.status is not LoadStatus.UNREADABLE:
        return None
    return sanitize_line(f"the record cannot be read ({result.message})")


def nothing_to_replay(detail: ExecutionDetail) -> str:
    """Why there is no replay of an execution without a readable record (sanitized)."""
    unreadable = unreadable_record(detail)
    if unreadable is not None:
        return clip(f"Cannot replay {short_label(detail)}: {unreadable}.")
    verdict = detail.verdict
    why = verdict.replay_reason if verdict is not None else explain_reason(detail.replay_reason)
    return clip(f"Nothing to replay: {why}. A forced replay has nothing to return either.")


def forced_replay_not_made(name: str, still_shown: bool) -> str:
    """Why a forced replay confirmed in its dialog was not made: the execution ``name``
    (sanitized) changed on disk while the dialog asked (``still_shown``), or the cursor left
    it (following the newest execution, ``T``)."""
    if still_shown:
        why = f"{name} changed while you were confirming (its file was written again)"
        return clip(f"Not replayed: {why}; R asks again about it as it is now.")
    why = f"the cursor left {name} while you were confirming"
    return clip(f"Not replayed: {why}; select it and R asks again.")


def not_while_written(name: str) -> str:
    """Why ``R`` asks nothing of a record caught mid-write (``name``, sanitized): its row
    says "… writing"."""
    why = f"{name} is being written (its file changed moments ago and does not parse yet)"
    return clip(f"Not now: {why}; R asks once it is whole.")


# What each key acting on a record does, said when there is no record to act on.
_RECORD_ACTIONS = {
    "replay": "replay",
    "invalidate": "invalidate",
    "save_snapshot": "save a snapshot of",
    "diff_file": "compare",
    "mark": "mark for a diff",
    "diff": "compare with the marked execution",
}


def nothing_selected_to(action: str) -> str:
    """Why a key acting on the selected execution does nothing while the cursor is on no
    row (a filter or view that lists none): it did nothing, saying nothing (``d``: that
    the marked execution was selected)."""
    verb = _RECORD_ACTIONS.get(action, action.replace("_", " "))
    return f"Nothing to {verb}: no execution is selected"


def no_record_to(action: str, detail: ExecutionDetail) -> str:
    """Why a key acting on a record does nothing for an execution without one (known from
    its log alone, or a file that is not a record), sanitized."""
    verb = _RECORD_ACTIONS.get(action, action.replace("_", " "))
    unreadable = unreadable_record(detail)
    if unreadable is not None:  # it has one: it cannot be read now
        return clip(f"Cannot {verb} {short_label(detail)}: {unreadable}.")
    verdict = detail.verdict
    why = verdict.replay_reason if verdict is not None else explain_reason(detail.replay_reason)
    return clip(f"Nothing to {verb}: {short_label(detail)} has no record ({why}).")


def doubt_rows(problems: Sequence[IntegrityProblem], untrusted: bool) -> list[tuple[str, str]]:
    """(label, names) for the integrity problems before a replay: the log's broken chain
    as the log's ("Untrusted log"), the record's own as the record's ("Untrusted record",
    or "Unverifiable record" when the verdict only cannot check it)."""
    log = [p.summary for p in problems if p.kind == WAL_CHAIN_BROKEN]
    record = [p.summary for p in problems if p.kind != WAL_CHAIN_BROKEN]
    rows: list[tuple[str, str]] = []
    if record:
        label = "Untrusted record" if untrusted else "Unverifiable record"  # as the verdict
        rows.append((label, clip("; ".join(record))))
    if log:
        rows.append(("Untrusted log", clip("; ".join(log))))
    return rows


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
    """The execution id if the record has one, else the id its list row shows (a WAL-only
    execution's, not its log's file name), else the file name; sanitized."""
    record = detail.result.record
    execution_id = record.execution_id if record is not None else None
    if execution_id is None and detail.summary is not None:
        execution_id = detail.summary.execution_id or None
    return clip(execution_id if execution_id is not None else detail.path.name)


def short_label(detail: ExecutionDetail) -> str:
    """The id as the list row shows it (a UUID's first 8 characters); sanitized."""
    summary = detail.summary
    return clip(summary.short_id) if summary is not None else execution_label(detail)


def removed_while_shown(detail: ExecutionDetail, now: ExecutionSummary | None) -> str | None:
    """The toast when the row shown leaves the list, saying where the cursor is now: still
    on that execution, known from its log alone (its record file was removed), on another
    row, or on none; None when its record file appeared (its row became the record's: no
    file was removed). Sanitized."""
    gone = clip(detail.path.name)
    was = detail.summary
    if (
        now is not None
        and was is not None
        and (now.root, now.execution_id) == (was.root, was.execution_id)
    ):
        if now.source != "wal":
            return None
        return f"{gone} was removed: the cursor stays on {clip(now.short_id)}, only its write-ahead log is left"
    if now is not None:
        return f"{gone} is gone (its file was removed): the cursor moved on to {clip(now.short_id)}"
    return f"{gone} is gone (its file was removed): no execution is selected"


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
    if detail.replayable:
        return None
    if verdict is not None and verdict.replay is not ReplayCode.REPLAYABLE:
        # The verdict's code and words, as the Replay tab and ``inspect`` give them (a
        # writer's own reason is "marked_not_replayable — marked not replayable: ...").
        return clip(f"{verdict.replay.value} — {verdict.replay_reason}")
    return explain_reason(detail.replay_reason)


def execution_lines(detail: ExecutionDetail, by_file: bool = False) -> list[str]:
    """A dialog's first lines: the execution's id and, with ``by_file`` (another file
    holds the id too: a copy, as its list row and the Replay tab name it), its file's
    name: the id alone does not say which of the files is acted on."""
    lines = [f"Execution: {execution_label(detail)}"]
    if by_file:
        lines.append(f"File: {clip(detail.path.name)}")
    return lines


def force_replay_lines(detail: ExecutionDetail, by_file: bool = False) -> list[str]:
    """What the operator must know before forcing a replay of this record (``by_file``:
    see ``execution_lines``)."""
    lines = execution_lines(detail, by_file)
    why = not_replayable_reason(detail)
    if why is None:
        lines.append("This record is replayable: a forced replay returns the same as a normal one.")
    else:
        lines.append(f"Not replayable: {why}")
    if detail.result.status is not LoadStatus.OK:
        lines.append(f"{'Load' if by_file else 'File'}: {clip(detail.result.message)}")
    doubts = untrusted_problems(replay_integrity(detail))
    verdict = detail.verdict
    # named as the verdict names them: untrusted, or only unverifiable; what broke, the
    # record or its log, each as what it is
    untrusted = verdict is None or not verdict.trusted
    lines.extend(f"{label}: {names}" for label, names in doubt_rows(doubts, untrusted))
    # The risks of this record (its verdict's, then its header's), not a generic table.
    code = verdict.replay.value if verdict is not None else None
    if verdict is not None and verdict.integrity is Integrity.CHAIN_BROKEN:
        code = UNTRUSTED_LOG  # the log broke, not (as far as is known) the record
    header = None if detail.replayable else detail.replay_reason
    risks = force_replay_risks([code, header])
    if not detail.response_recorded:  # no risk to weigh: there is nothing to return
        nothing = sanitize_line(detail.no_response_text)
        lines.extend(("", f"Nothing to replay: {nothing} (no status, no payload)."))
    elif risks:
        lines.append("")
        lines.append("Force replay risk:" if len(risks) == 1 else "Force replay risks:")
        lines.extend(f" ▶ {scenario}: {risk}" for scenario, risk in risks)
    lines.append("")
    never_runs = "Replay returns what was recorded; it never runs agent code or calls a model."
    # Only a replay that overrides a refusal is marked (a replayable one carries no warning).
    marked = f' The result is marked "{FORCED_WARNING}".' if why is not None else ""
    lines.append(never_runs + marked)
    return lines


def invalidate_lines(detail: ExecutionDetail, by_file: bool = False) -> list[str]:
    """What invalidating this record will change on disk (``by_file``: another file holds
    its id too, which stays as it is)."""
    lines = [
        f"Execution: {execution_label(detail)}",
        f"File: {clip(str(detail.path))}",
    ]
    if by_file:
        lines.append("Copy: another file holds this id too, and stays as it is")
    why = not_replayable_reason(detail)
    lines.append("Currently: replayable" if why is None else f"Currently: not replayable ({why})")
    lines.append("")
    lines.append(
        f'The header is rewritten to replayable: false, replayableReason: "{MANUALLY_INVALIDATED}". '
        "Nothing else in the record changes; the write is atomic (temp file, fsync, rename)."
    )
    lines.append("Replay will refuse this record afterwards; a forced replay stays possible.")
    return lines


def snapshot_lines(
    detail: ExecutionDetail, directory: str, warnings: Sequence[str], by_file: bool = False
) -> list[str]:
    """What saving a snapshot of this record writes, where (``directory``), and the
    record's ``warnings`` (a damaged or untrusted record: saved if confirmed); ``by_file``:
    see ``execution_lines``."""
    return [
        *execution_lines(detail, by_file),
        f"Into: {sanitize_line(directory)}",
        *(sanitize_line(warning) for warning in warnings),
        "",
        "A Verist snapshot of this record (input: the envelope; step output: the final "
        "response and the events) is written atomically. The record is not touched.",
    ]


def cannot_invalidate(detail: ExecutionDetail) -> str | None:
    """Why ``I`` cannot invalidate this record (asked, it would only fail), or None."""
    if detail.result.status is not LoadStatus.OK:
        return (
            "Not invalidated: this file is damaged, and rewriting it would drop everything "
            "after the damage"
        )
    return None
