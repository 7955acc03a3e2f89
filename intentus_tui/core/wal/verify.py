"""``verify`` for one write-ahead log: does its hash chain hold, and if not, where it breaks.

Three outcomes, as an operator must treat them:

- verified: every entry hashes to its ``entry_hash`` and links to the one before it.
- crashed: the entries verify, but the last line is torn (the process died while
  appending it). Not tampering: IntentusNet's writer appends a line, then fsyncs, so a
  kill mid-write leaves exactly this, and that entry never became durable. IntentusNet
  1.3.0's own ``WALReader`` refuses such a file whole ("Corrupted WAL entry"): its
  ``RecoveryManager`` lists the execution as incomplete and will not resume it until the
  torn line is removed. So it is reported, and does not fail ``verify``. A last line
  that ends with its newline yet does not parse (nested too deeply, a number too long)
  was not cut short: it is called malformed, not torn, and is classified the same way.
- failed: the chain breaks (an entry edited, removed, reordered or unreadable), or the
  file cannot be read. Everything from the first broken entry on is untrusted. A log with
  no complete entry (empty, or bytes that are not a WAL entry) fails too: it has nothing
  to check, so nothing in it verifies (``unverifiable``), as an empty record file fails.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from intentus_tui.core.model import Verdict
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.wal.read import WalIssue, WalLog, entries_text, read_wal

WalVerifyStatus = Literal["verified", "crashed", "unverifiable", "chain_broken", "unreadable"]

LIBRARY_ON_TORN = (
    "intentusnet 1.3.0's WALReader refuses this file as it is ('Corrupted WAL entry'): "
    "its RecoveryManager counts the execution as incomplete and will not resume it until "
    "the torn line is removed"
)
LIBRARY_ON_MALFORMED = (
    "intentusnet 1.3.0's WALReader cannot read this file as it is either: that line stops "
    "it until the line is removed"
)


@dataclass(frozen=True, slots=True)
class WalVerifyReport:
    """Everything ``verify`` says about one WAL file."""

    path: str
    log: WalLog
    status: WalVerifyStatus
    summary: str  # one line: what holds, or where it breaks
    details: tuple[str, ...]  # the lines under it
    record: str | None  # the record file beside it, when one was written
    verdict: Verdict | None  # a WAL-only execution's verdict (a record's is the record's)

    @property
    def ok(self) -> bool:
        return self.status in ("verified", "crashed")

    @property
    def crashed(self) -> bool:
        """Its last line is not an entry: torn (see ``torn``) or malformed. Not a failure."""
        return self.status == "crashed"

    @property
    def torn(self) -> bool:
        """Crashed mid-append: the last line was cut short (a malformed one is whole)."""
        return self.crashed and self.log.cut_short

    def to_json(self) -> dict[str, object]:
        log = self.log
        return {
            "kind": "wal",
            "file": self.path,
            "ok": self.ok,
            "status": self.status,
            "summary": sanitize_line(self.summary),
            "details": [sanitize_line(d) for d in self.details],
            "entries": len(log.entries),
            "trusted_entries": log.trusted_count,
            "state": log.state,
            "claimed_state": log.claimed_state,
            "chain_break": _issue_json(log.chain_break),
            "torn_last_line": _issue_json(_torn_issue(log)) if log.torn else None,
            "record": self.record,
            "verdict": None if self.verdict is None else _verdict_json(self.verdict),
        }


def _issue_json(issue: WalIssue | None) -> dict[str, object] | None:
    return issue.to_json() if issue is not None else None


def _verdict_json(verdict: Verdict) -> dict[str, object]:
    doc = verdict.to_json()
    for key in ("outcome_reason", "integrity_reason", "replay_reason"):
        doc[key] = sanitize_line(str(doc[key]))
    return doc


def _torn_issue(log: WalLog) -> WalIssue | None:
    return next((i for i in log.issues if i.kind == "torn_last_line"), None)


def verify_wal(path: str | os.PathLike[str], records_dir: Path | None = None) -> WalVerifyReport:
    """Verify one WAL file. ``records_dir``: where its record would be (default: the
    ``records`` directory beside the WAL's directory). Never raises."""
    wal_path = Path(path)
    log = read_wal(wal_path)
    records = records_dir if records_dir is not None else wal_path.parent.parent / "records"
    record_path = records / f"{log.execution_id}.json"
    record = str(record_path) if os.path.lexists(record_path) else None
    verdict = None
    if record is None:  # an unreadable log too, as the listing and inspect give it one
        from intentus_tui.core.index.wal_join import wal_only_summary
        from intentus_tui.core.verdict import verdict_of

        verdict = verdict_of(wal_only_summary(log))
    status, summary, details = _judge(log)
    return WalVerifyReport(str(wal_path), log, status, summary, details, record, verdict)


def _judge(log: WalLog) -> tuple[WalVerifyStatus, str, tuple[str, ...]]:
    if log.file_status in ("empty", "no_entry"):
        # Proves nothing: no entry to verify, so no chain that holds (or breaks). Like an
        # empty or non-JSON record file, it fails: there is no evidence to check.
        more = tuple(f"line {i.line_no}: {i.describe()}" for i in log.issues[1:4])
        return "unverifiable", f"cannot be verified: {log.message}", more
    if not log.checkable:
        return "unreadable", f"cannot be checked: {log.message}", ()
    broken = log.chain_break
    if broken is not None:
        where = f"line {broken.line_no}" + (f" (seq {broken.seq})" if broken.seq else "")
        last = log.last_trusted_entry
        trusted = (
            f"only the entries through seq {last.seq} (line {last.line_no}) can be trusted"
            if last is not None
            else "no entry can be trusted"
        )
        details = [
            broken.message,
            f"{trusted}; the log claims {log.claimed_state.replace('_', ' ')} (untrusted)",
        ]
        details += [f"line {i.line_no}: {i.describe()}" for i in log.issues[1:4]]
        return "chain_broken", f"chain broken at {where}: {broken.kind}", tuple(details)
    count = len(log.entries)
    # "the 1 complete entries verify", "chain verified: 1 entries" before
    complete = (
        "the 1 complete entry verifies" if count == 1 else f"the {count} complete entries verify"
    )
    state = log.state.replace("_", " ")
    other = [
        f"line {i.line_no}: {i.kind}: {i.message}"
        for i in log.issues
        if i.kind not in ("torn_last_line",)
    ]
    torn = _torn_issue(log)
    if torn is not None and torn.whole:
        return (
            "crashed",  # classified as a torn line is: not a break, not a failure
            f"last line malformed (line {torn.line_no}): whole, not cut short, yet not an "
            f"entry; {complete} ({state})",
            (torn.message, LIBRARY_ON_MALFORMED, *other),
        )
    if torn is not None:
        return (
            "crashed",
            f"last line torn (line {torn.line_no}): a crash mid-append, not tampering; "
            f"{complete} ({state})",
            (
                "that entry never became durable: the process died while appending it",
                LIBRARY_ON_TORN,
                *other,
            ),
        )
    return "verified", f"chain verified: {entries_text(count)}, {state}", tuple(other)
