"""The Verify tab: is this record what was written, and is it whole?

``verify_lines(detail, wal)`` is a pure function from the core's ``VerifyReport`` to
display text, so it is tested without an app; ``VerifyPane`` only shows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from intentus_tui.core.actions import (
    ExecutionDetail,
    HashCheck,
    HashStatus,
    LoadResult,
    LoadStatus,
    SequenceCheck,
    StructureCheck,
    VerifyReport,
    salvaged_hash_words,
)
from intentus_tui.core.model import (
    FILE_WORDS,
    INVESTIGATE,
    RECORD_REMOVED,
    Integrity,
    Outcome,
    Verdict,
    break_label,
)
from intentus_tui.tui.presenters.execution_text import unreadable_record
from intentus_tui.tui.presenters.verdict_cells import (
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
    answer_row,
    badge,
    badge_line,
    bullet,
    heading,
    line,
    plain,
    row,
    safe,
)

if TYPE_CHECKING:
    from intentus_tui.core.actions import WalLog

FORM_NAMES: dict[str, str] = {
    "runtime": "runtime — bare hex over the whole envelope (what IntentusNet 1.3.0 writes)",
    "documented": "documented — sha256: prefix, routingMetadata left out",
    "unknown": "unknown — not a sha256 digest",
    "absent": "absent — the header has no envelopeHash",
}
_HASH_BADGE = {
    HashStatus.MATCH: ("MATCH", "ok"),
    HashStatus.MISMATCH: ("MISMATCH", "error"),
    HashStatus.UNVERIFIABLE: ("UNVERIFIABLE", "warning"),
}
MAX_LISTED_PROBLEMS = 50
_INTEGRITY_BADGES = {
    Integrity.VERIFIED: ("VERIFIED", "ok"),
    Integrity.BENIGN: ("BENIGN MISMATCH, EXPLAINED", "warning"),
    Integrity.TAMPERED: ("TAMPERED", "error"),
    Integrity.UNVERIFIABLE: ("UNVERIFIABLE", "warning"),
    Integrity.CHAIN_BROKEN: ("CHAIN BROKEN", "error"),
}
_KIND_STYLES = {"ok": OK_STYLE, "error": PROBLEM_STYLE}


def integrity_lines(verdict: Verdict) -> list[Line]:
    """The verdict's integrity answer and its reason (a harmless mismatch: its story),
    then its two other answers with theirs, in the words of the timeline and ``inspect``:
    the whole verdict, its integrity first."""
    label, kind = _INTEGRITY_BADGES[verdict.integrity]
    lines = [
        heading("Integrity", badge(label, kind)),
        plain(safe(verdict.integrity_reason), _KIND_STYLES.get(kind, WARNING_STYLE)),
        _answer_row(
            "Outcome", outcome_badge(verdict)[0], _outcome_style(verdict), verdict.outcome_reason
        ),
        _answer_row(
            "Replay",
            replay_words(verdict),
            OK_STYLE if verdict.replayable else WARNING_STYLE,
            verdict.replay_reason,
        ),
    ]
    if not verdict.trusted and INVESTIGATE not in verdict.outcome_reason:  # said once
        lines.append(plain(INVESTIGATE, PROBLEM_STYLE))
    return lines


def _outcome_style(verdict: Verdict) -> str:
    if not verdict.trusted or verdict.outcome is Outcome.FAILED:
        return PROBLEM_STYLE
    return OK_STYLE if verdict.outcome is Outcome.SUCCEEDED else WARNING_STYLE


def _answer_row(label: str, answer: str, style: str, reason: str) -> Line:
    return answer_row(label, (answer, style), safe(reason), width=9)


def _hash_mark(
    value: str | None, stored: str | None, *, expected_to_differ: bool = False
) -> Content:
    """✓ when ``value`` is the stored hash; else ✗, or a dim ≠ where it is bound to differ
    (another form than the one that matched: not a failed check; a ✗ read as one)."""
    if value is None:
        return Content("")
    if stored is not None and value == stored:
        return Content.assemble((" ✓", OK_STYLE))
    if expected_to_differ:
        return Content.assemble((" ≠", DIM_STYLE))
    return Content.assemble((" ✗", PROBLEM_STYLE))


def hash_lines(
    check: HashCheck | None, unreadable: str | None = None, salvaged: str | None = None
) -> list[Line]:
    """``unreadable``: why the record there could not be read (then there is one);
    ``salvaged``: what a salvaged record's check is of (``salvaged_hash_words``)."""
    if check is None:
        why = f"Nothing was hashed: {unreadable}." if unreadable else "There is no record to hash."
        return [
            heading("Envelope hash", badge("NOT CHECKED", "muted")),
            plain(safe(why), DIM_STYLE),
        ]
    label, kind = _HASH_BADGE[check.status]
    if check.status is HashStatus.MISMATCH and check.benign is not None:
        label, kind = "MISMATCH, LIKELY BENIGN", "warning"
    style = {"ok": OK_STYLE, "error": PROBLEM_STYLE}.get(kind, WARNING_STYLE)
    explanation = check.explanation
    if salvaged is not None:  # a match of what survived: not the record verified
        explanation, style = f"{explanation} ({salvaged})", WARNING_STYLE
    lines = [heading("Envelope hash", badge(label, kind)), plain(safe(explanation), style)]
    form = FORM_NAMES.get(check.detected_form, check.detected_form)
    lines.append(row("Form stored", safe(form)))
    matched = check.matched_form or "none"
    lines.append(row("Form matched", (matched, OK_STYLE if check.matched_form else PROBLEM_STYLE)))
    if check.benign is not None:
        lines.append(row("Likely cause", (safe(check.benign), WARNING_STYLE)))
    stored = check.expected
    actual_form = check.detected_form if check.detected_form in check.computed else "runtime"
    lines.append(row("Expected", safe(stored) if stored is not None else ("—", DIM_STYLE)))
    if check.computed:
        actual = check.actual
        lines.append(row("Actual", safe(actual or "—"), _hash_mark(actual, stored)))
    for other, value in check.computed.items():
        if other != actual_form:
            mark = _hash_mark(value, stored, expected_to_differ=check.matched_form is not None)
            lines.append(row(f"{other.capitalize()} form", safe(value), mark))
    if check.computed:
        note = f"expected: stored in the header; actual: the envelope on disk, {actual_form} form"
        if check.matched_form is not None and len(check.computed) > 1:
            note += "; ≠: the same envelope in another form (bound to differ)"
        lines.append(plain(note, DIM_STYLE))
    return lines


def sequence_lines(check: SequenceCheck | None, events: int) -> list[Line]:
    if check is None:
        return [heading("Event sequence", badge("NOT CHECKED", "muted"))]
    if check.ok:
        note = f"{events} events, seq 1–{events}, strictly increasing" if events else "no events"
        return [heading("Event sequence", badge("OK", "ok")), plain(note, OK_STYLE)]
    lines = [heading("Event sequence", problems_badge(len(check.problems)))]
    if check.gaps:
        gaps = ", ".join(f"{a}→{b}" for a, b in check.gaps[:10])
        more = f" (+{len(check.gaps) - 10} more)" if len(check.gaps) > 10 else ""
        lines.append(row("Gaps", (gaps + more, PROBLEM_STYLE)))
    lines.extend(_problem_bullets(check.problems))
    return lines


def structure_lines(check: StructureCheck | None) -> list[Line]:
    if check is None:
        return [heading("Structure", badge("NOT CHECKED", "muted"))]
    notes = [bullet(safe(note), WARNING_STYLE, mark="!") for note in check.notes]
    if check.ok:
        return [
            heading("Structure", badge("OK", "ok")),
            plain("All sections present with the expected types.", OK_STYLE),
            *notes,
        ]
    lines = [heading("Structure", problems_badge(len(check.problems)))]
    lines.extend(_problem_bullets(check.problems))
    return lines + notes


def _problem_bullets(problems: tuple[str, ...]) -> list[Line]:
    lines = [bullet(safe(p), PROBLEM_STYLE, mark="✗") for p in problems[:MAX_LISTED_PROBLEMS]]
    if len(problems) > MAX_LISTED_PROBLEMS:
        lines.append(plain(f"… and {len(problems) - MAX_LISTED_PROBLEMS} more", DIM_STYLE))
    return lines


def file_lines(result: LoadResult) -> list[Line]:
    """How the file loaded: cleanly, salvaged (what survived), or not at all."""
    status = result.status
    if status is LoadStatus.OK:
        kind = "ok"
    elif status.has_record or status is LoadStatus.NO_RECORD:  # salvaged, or known from its WAL
        kind = "warning"
    else:
        kind = "error"
    # in the words of its line ("Not UTF-8 text: …"), not its code ("NOT UTF8")
    said = FILE_WORDS.get(status, status.value.replace("_", " "))
    lines = [heading("File", badge(said.upper(), kind))]
    lines.append(plain(safe(result.message), OK_STYLE if kind == "ok" else WARNING_STYLE))
    lines.append(row("Path", safe(str(result.path))))
    if result.damage is not None:
        lines.append(
            row(break_label(result.message), (safe(result.damage.describe()), PROBLEM_STYLE))
        )
    if status is LoadStatus.SALVAGED:
        lines.append(row("Recovered", safe(", ".join(result.recovered) or "no whole section")))
        if result.partial:
            record = result.record
            count = len(record.events) if record is not None else 0
            partial = ", ".join(result.partial)
            lines.append(row("Partial", safe(f"{partial}: {count} complete before the break")))
    for note in result.notes:
        lines.append(bullet(safe(note), WARNING_STYLE, mark="!"))
    return lines


def wal_lines(wal: WalLog | None) -> list[Line]:
    """The write-ahead log's hash chain, when the execution has one."""
    if wal is None:
        return [
            heading("Write-ahead log", badge("NONE", "muted")),
            plain("No write-ahead log is joined to this execution.", DIM_STYLE),
        ]
    if not wal.checkable:  # unreadable, or nothing in it to check
        return [
            heading(
                "Write-ahead log", badge(safe(wal.file_status).upper().replace("_", " "), "warning")
            ),
            plain(safe(wal.message), WARNING_STYLE),
        ]
    valid = bool(wal.chain_valid)
    entries = len(wal.entries)
    chain = badge("CHAIN VALID", "ok") if valid else badge("CHAIN BROKEN", "error")
    lines = [heading("Write-ahead log", chain)]
    lines.append(plain(safe(wal.message), OK_STYLE if valid else PROBLEM_STYLE))
    lines.append(row("Entries", f"{entries} ({safe(wal.state).replace('_', ' ')})"))
    if wal.torn:
        tail = (
            "last line is torn: the process died while appending"
            if wal.cut_short
            else "last line is malformed: whole (not cut short), yet not an entry"
        )
        lines.append(bullet(tail, WARNING_STYLE, mark="!"))
    for issue in wal.issues[:MAX_LISTED_PROBLEMS]:
        where = f"line {issue.line_no}, byte {issue.byte_offset}"
        torn = issue.kind == "torn_last_line"  # a crash, not a problem of the log's: no ✗
        style, mark = (WARNING_STYLE, "!") if torn else (PROBLEM_STYLE, "✗")
        lines.append(bullet(safe(f"{where}: {issue.message}"), style, mark=mark))
    return lines


def summary_lines(
    report: VerifyReport, verdict: Verdict | None = None, *, record_removed: bool = False
) -> list[Line]:
    """One badge, where the problems are, and in full any problem no section below shows.
    ``record_removed``: known from its log alone because its record file, seen before,
    was removed (evidence gone missing, not a record never written).

    A record whose own checks pass is still not VERIFIED when its execution's verdict says
    it cannot be believed (its write-ahead log's chain breaks): as ``verify`` says FAIL."""
    if report.ok and verdict is not None and not verdict.trusted:
        return [  # the note wraps beside its badge, as every badge's does
            badge_line(
                badge("NOT TRUSTED", "error"),
                "the record's own checks pass, but its execution's evidence fails",
                PROBLEM_STYLE,
            )
        ]
    if report.ok:
        harmless = report.hash is not None and report.hash.benign is not None
        benign = "; the hash differs for a harmless reason, explained below" if harmless else ""
        if report.structure is not None and report.structure.notes:
            benign += "; its file is not named by its id (see Structure)"
        return [line(badge("VERIFIED", "ok"), (f"  every check passed{benign}", OK_STYLE))]
    if report.load_status is LoadStatus.NO_RECORD and record_removed:
        note = f"  {RECORD_REMOVED}: no record to check, only its write-ahead log (below)"
        return [line(badge("RECORD REMOVED", "error"), (note, PROBLEM_STYLE))]
    if report.load_status is LoadStatus.NO_RECORD and len(report.problems) <= 1:
        # Known from its write-ahead log alone: no record is not a problem of a record
        # ("1 PROBLEM in file" under the execution's VERIFIED read as a contradiction).
        note = "  only its write-ahead log was written: no record to check (below)"
        return [line(badge("NO RECORD", "muted"), (note, DIM_STYLE))]
    count = len(report.problems)
    places: list[str] = []
    shown: set[str] = set()
    check = report.hash
    if check is not None and check.status is not HashStatus.MATCH:
        places.append("envelope hash")
        shown.add(check.explanation)
    for name, part in (("event sequence", report.sequence), ("structure", report.structure)):
        if part is not None and part.problems:
            places.append(name)
            shown.update(part.problems)
    if report.load_status is not LoadStatus.OK:
        places.append("file")
        shown.add(report.load_message)
    others = tuple(p for p in report.problems if p not in shown)  # listed right here
    where = ("  in " + ", ".join(places)) if places else ""
    if places and others:
        where += f", and {len(others)} listed below"
    lines = [line(problems_badge(count), (where, PROBLEM_STYLE))]
    lines.extend(_problem_bullets(others))
    return lines


def problems_badge(count: int) -> Content:
    """`` 1 PROBLEM ``, `` 3 PROBLEMS ``."""
    return badge(f"{count} PROBLEM{'S' if count != 1 else ''}", "error")


def verify_lines(
    detail: ExecutionDetail | None, wal: WalLog | None = None, verdict: Verdict | None = None
) -> list[Line]:
    """Everything the Verify tab shows (``wal`` defaults to the one joined to ``detail``),
    under the execution's integrity verdict when it is given."""
    if detail is None:
        return [line("Select an execution to verify it.")]
    report = detail.verify
    record = detail.result.record
    wal = wal if wal is not None else detail.wal
    sections: list[list[Line]] = [integrity_lines(verdict)] if verdict is not None else []
    sections += [
        summary_lines(
            report,
            verdict,
            record_removed=detail.summary is not None and detail.summary.record_removed,
        ),
        hash_lines(report.hash, unreadable_record(detail), salvaged_hash_words(report)),
        sequence_lines(report.sequence, len(record.events) if record is not None else 0),
        structure_lines(report.structure),
        file_lines(detail.result),
        wal_lines(wal),
    ]
    lines: list[Line] = []
    for section in sections:
        if lines:
            lines.append(BLANK)
        lines.extend(section)
    return lines


class VerifyPane(LinesPane):
    """Shows ``verify_lines`` for the current detail; scrolls when it is long."""

    TEXT_ID = "verify-text"
    # The selected execution's verdict, set (by the side pane) before its detail.
    verdict: Verdict | None = None

    def lines_for(self, detail: ExecutionDetail | None) -> list[Line]:
        return verify_lines(detail, verdict=self.verdict)
