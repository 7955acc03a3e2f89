"""Reading IntentusNet write-ahead logs (``.intentusnet/wal/<executionId>.wal``).

A WAL is JSON lines, one entry per line, each entry holding the hash of the one before
(``prev_hash``) and its own (``entry_hash``). This module never raises on bad input: a
missing, unreadable, empty, torn or tampered log comes back as a ``WalLog`` whose
``file_status`` / ``issues`` say what is wrong, where (line number and byte offset) and why.
What the entries mean (state, steps, recovery hint) is ``core.wal.analyse``.

The hash chain is checked exactly as IntentusNet 1.3.0 computes it
(``intentusnet.wal.models.WALEntry.compute_hash``): sha256 over
``json.dumps({seq, execution_id, timestamp_iso, entry_type, payload, prev_hash, version},
sort_keys=True, separators=(",", ":"))`` -- note ``ensure_ascii`` stays at its default
(True) although lines are *written* with ``ensure_ascii=False``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, TypeGuard

from intentus_tui.core.fsio import OutsideLinkError, open_confined
from intentus_tui.core.model import NOTHING_TO_CHECK
from intentus_tui.core.records.load import WAL_SUFFIX, json_kind
from intentus_tui.core.sanitize import quoted, sanitize_line
from intentus_tui.core.wal.analyse import (
    IRREVERSIBLE,
    READ_ONLY,
    REVERSIBLE,
    RecoveryHint,
    WalFallback,
    WalState,
    WalStep,
    analyse,
    recovery_hint,
    side_effects_completed,
)
from intentus_tui.core.wal.files import wal_paths

# A line longer than this is not a WAL entry anyone wrote; don't hold it in memory.
MAX_LINE_BYTES = 32 * 1024 * 1024

WalFileStatus = Literal[
    "ok",  # at least one complete WAL entry: the chain can be checked
    "empty",  # no complete entry at all: nothing to check
    "no_entry",  # lines, but none a complete WAL entry (random bytes, a torn first append)
    "missing",
    "is_directory",
    "permission_denied",
    "unreadable",
]
IssueKind = Literal[
    "hash_mismatch",  # entry_hash is not the hash of the entry's content (tampered/corrupted)
    "broken_link",  # prev_hash is not the previous entry's entry_hash (entry removed/reordered)
    "seq_gap",  # seq jumped forward (entries missing)
    "seq_order",  # seq went backwards or repeated
    # The last line is not an entry: torn (cut short, no newline: a crash mid-append), or
    # whole (it ends with its newline) yet unreadable: malformed. Neither breaks the chain.
    "torn_last_line",
    "not_json",  # a line before the last is not JSON (or not UTF-8)
    "bad_entry",  # JSON, but not a WAL entry (wrong type, missing field)
    "execution_id_mismatch",  # entry belongs to another execution than the file name says
]
# Issue kinds that mean the log's content cannot be trusted (a torn tail is a crash, not
# tampering). An entry of another execution, its chain intact, is a log renamed, moved or
# mixed with another: whatever it claims is not this execution's evidence.
INTEGRITY_KINDS: frozenset[str] = frozenset(
    {
        "hash_mismatch",
        "broken_link",
        "seq_gap",
        "seq_order",
        "not_json",
        "bad_entry",
        "execution_id_mismatch",
    }
)

# Every ``intentusnet.wal.models.WALEntryType`` of IntentusNet 1.3.0. Its WALReader refuses
# a log holding any other entry type ("Corrupted WAL entry"), whatever its hashes say.
KNOWN_ENTRY_TYPES: frozenset[str] = frozenset(
    {
        *(f"execution.{s}" for s in ("created", "started", "in_progress", "completed")),
        *(f"execution.{s}" for s in ("failed", "aborted", "state_transition")),
        *(f"step.{s}" for s in ("started", "completed", "failed", "skipped")),
        "fallback.triggered",
        "fallback.exhausted",
        "contract.validated",
        "contract.violated",
        "recovery.started",
        "recovery.completed",
        "checkpoint",
        "idempotency.check",
        "idempotency.duplicate",
        "lock.acquired",
        "lock.released",
        "lock.stale_detected",
        "agent.invocation_start",
        "agent.invocation_end",
    }
)


@dataclass(frozen=True)
class WalEntry:
    """One well-formed WAL line. ``payload`` is the entry's payload object as stored."""

    seq: int
    execution_id: str
    timestamp_iso: str
    entry_type: str
    payload: dict[str, Any]
    prev_hash: str | None
    entry_hash: str | None
    version: str
    line_no: int  # 1-based
    byte_offset: int  # offset of the line's first byte in the file
    hash_ok: bool  # entry_hash matches the recomputed hash


@dataclass(frozen=True)
class WalIssue:
    """Something wrong with one line of the log."""

    kind: IssueKind
    line_no: int
    byte_offset: int
    message: str
    seq: int | None = None
    # ``torn_last_line`` only: the line ends with its newline, so it was written whole and
    # is malformed, not torn (not cut short by a crash mid-append).
    whole: bool = False

    def describe(self) -> str:
        """``kind: message``; a malformed last line by its message alone (its kind, shared
        with a torn one, would call it torn)."""
        return self.message if self.whole else f"{self.kind}: {self.message}"

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "line": self.line_no,
            "seq": self.seq,
            "offset": self.byte_offset,
            "message": sanitize_line(self.message),
        }


@dataclass(frozen=True)
class WalLog:
    """Everything a post-mortem needs from one WAL file."""

    path: Path
    execution_id: str  # from the file name
    file_status: WalFileStatus
    message: str  # one-line human summary
    entries: tuple[WalEntry, ...] = ()
    issues: tuple[WalIssue, ...] = ()
    # What the trusted entries establish: those before the first integrity break (all of
    # them when the chain holds). Everything from the break on is untrusted.
    state: WalState = "unknown"
    steps: tuple[WalStep, ...] = ()
    fallbacks: tuple[WalFallback, ...] = ()
    in_flight_step: WalStep | None = None
    intent_name: str | None = None
    envelope_hash: str | None = None
    terminal_reason: str | None = None  # reason/failure_type given by failed/aborted
    size_bytes: int = 0
    mtime_ns: int = 0  # when the file was last written (its last append), as read
    missing_final_newline: bool = False  # last entry is complete but its "\n" never landed
    # What every readable entry, trusted or not, claims: differs from ``state`` only when
    # the chain breaks (an edited "completed" at the end is a claim, not a state).
    claimed_state: WalState = "unknown"
    trusted_count: int = 0  # how many of ``entries`` come before the first integrity break

    @property
    def first_issue(self) -> WalIssue | None:
        return self.issues[0] if self.issues else None

    @property
    def checkable(self) -> bool:
        """The log holds at least one complete entry, so its chain can be checked. An
        empty log, or one with no line that is a WAL entry, proves nothing either way."""
        return self.file_status == "ok"

    @property
    def chain_break(self) -> WalIssue | None:
        """The first issue that breaks the chain (a torn tail is a crash, not a break)."""
        if not self.checkable:  # bytes that are not a log break no chain: there is none
            return None
        return next((i for i in self.issues if i.kind in INTEGRITY_KINDS), None)

    @property
    def last_trusted_entry(self) -> WalEntry | None:
        return self.entries[self.trusted_count - 1] if self.trusted_count else None

    def describe_break(self) -> str | None:
        """One line naming the first broken entry and what can still be believed."""
        issue = self.chain_break
        if issue is None:
            return None
        where = f"line {issue.line_no}" + (f" (seq {issue.seq})" if issue.seq is not None else "")
        last = self.last_trusted_entry
        trusted = (
            f"only the entries through seq {last.seq} (line {last.line_no}) can be trusted"
            if last is not None
            else "no entry can be trusted"
        )
        if issue.kind == "execution_id_mismatch":  # the chain holds; the log is not this one's
            return f"another execution's log from {where}: {issue.message}; {trusted}"
        return f"hash chain broken at {where}: {issue.kind}: {issue.message}; {trusted}"

    @property
    def torn(self) -> bool:
        """Complete entries, then a last line that is not an entry: torn (``cut_short``, a
        crash mid-append) or malformed (whole, yet unreadable). Neither breaks the chain."""
        return self.tail_issue is not None

    @property
    def tail_issue(self) -> WalIssue | None:
        """The issue of a last line that is not an entry, after complete entries."""
        if not self.checkable:
            return None
        return next((i for i in self.issues if i.kind == "torn_last_line"), None)

    @property
    def cut_short(self) -> bool:
        """The last line is torn: it never got its newline, the process died appending it."""
        tail = self.tail_issue
        return tail is not None and not tail.whole

    @property
    def chain_valid(self) -> bool:
        """True when the log has complete entries and every one verifies (a torn tail does
        not break the chain). False for a log with nothing to check (see ``checkable``)."""
        return self.checkable and not any(i.kind in INTEGRITY_KINDS for i in self.issues)

    @property
    def last_entry(self) -> WalEntry | None:
        return self.entries[-1] if self.entries else None

    @property
    def side_effects_completed(self) -> bool | None:
        """Did a step with (possible) side effects complete? None when a class is unknown."""
        return side_effects_completed(self.steps)

    @property
    def hint(self) -> RecoveryHint:
        """The hint from this log alone: it knows of no recorded response (see ``hint_for``)."""
        return self.hint_for(response_recorded=False)

    def hint_for(
        self,
        *,
        response_recorded: bool,
        replay_refused: str | None = None,
        record_removed: bool = False,
    ) -> RecoveryHint:
        """The recovery hint; ``response_recorded``: a record file holds the final response
        (only then can a completed execution's response be replayed); ``replay_refused``:
        why that response may not be replayed, if it may not; ``record_removed``: there is
        no record file because the one seen was removed."""
        if self.chain_break is not None:
            return broken_chain_hint(self)
        return recovery_hint(
            self.state,
            in_flight=self.in_flight_step is not None,
            in_flight_side_effect=self.in_flight_step.side_effect if self.in_flight_step else None,
            side_effects_completed=self.side_effects_completed,
            response_recorded=response_recorded,
            replay_refused=replay_refused,
            record_removed=record_removed,
        )


def broken_chain_hint(log: WalLog) -> RecoveryHint:
    """Investigate first: nothing from the first broken entry on can be believed, so no
    state, step or side effect it claims may decide a retry or a replay. What the entries
    before the break establish still counts: a step with side effects they say started
    (or completed) is warned of, as an intact log's hint would.

    What broke is said once, by ``describe_break`` (which every presentation shows first):
    the hint names the entry and says what follows from it and what to do."""
    issue = log.chain_break
    where = "an unknown entry"
    if issue is not None:
        where = f"line {issue.line_no}" + (f" (seq {issue.seq})" if issue.seq is not None else "")
    claimed = log.claimed_state.replace("_", " ")
    before, warned = _trusted_account(log)
    act = (
        "Check the target system before doing anything, and find out who or what changed "
        "the log; do not act on what it claims."
        if warned
        else "Find out who or what changed the log before retrying, and do not act on what "
        "it claims."
    )
    if issue is not None and issue.kind == "execution_id_mismatch":
        return RecoveryHint(
            "investigate_first",
            f"The log was renamed, moved or mixed with another log: nothing from {where} on "
            f"is this execution's evidence (it claims {claimed}); {before} Find this "
            "execution's own log before retrying, and do not act on what this one claims.",
        )
    return RecoveryHint(
        "investigate_first",
        f"The log was changed after it was written: nothing from {where} on can be believed "
        f"(it claims {claimed}); {before} {act}",
    )


def _trusted_account(log: WalLog) -> tuple[str, bool]:
    """What the entries before a break say, as the hint words it, and whether it warns of
    side effects (a step with them in flight or completed)."""
    last = log.last_trusted_entry
    if last is None:
        return "no entry before it can be trusted.", False
    through = f"the entries before it (through seq {last.seq})"
    step = log.in_flight_step
    if step is not None and step.side_effect != READ_ONLY:
        at = f" at seq {step.started_seq}" if step.started_seq is not None else ""
        name = f"{quoted(step.step_id)} ({step.agent or 'agent unknown'})"
        follows = {
            IRREVERSIBLE: (
                "an irreversible",
                "it may have taken effect, and a retry could repeat it",
            ),
            REVERSIBLE: ("a state-changing", "it may have partly applied"),
        }.get(step.side_effect or "", ("a", "its side effects were not declared"))
        return (
            f"{through} say {follows[0]} step, {name}, started{at} and do not say it ended: "
            f"{follows[1]}.",
            True,
        )
    done = [s for s in log.steps if s.status == "completed" and s.side_effect != READ_ONLY]
    if done:
        names = ", ".join(
            f"{quoted(s.step_id)} ({s.side_effect or 'side effects not declared'})" for s in done
        )
        return (
            f"{through} say steps that may have side effects completed ({names}): a retry would repeat them.",
            True,
        )
    return f"{through} say only: {log.state.replace('_', ' ')}.", False


# --------------------------------------------------------------------------------------
# Hashing
# --------------------------------------------------------------------------------------


def compute_entry_hash(
    *,
    seq: Any,
    execution_id: Any,
    timestamp_iso: Any,
    entry_type: Any,
    payload: Any,
    prev_hash: Any,
    version: Any = "1.0",
) -> str:
    """The hash IntentusNet 1.3.0 stores in ``entry_hash`` (``WALEntry.compute_hash``)."""
    data = {
        "seq": seq,
        "execution_id": execution_id,
        "timestamp_iso": timestamp_iso,
        "entry_type": entry_type,
        "payload": payload,
        "prev_hash": prev_hash,
        "version": version,
    }
    encoded = json.dumps(data, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return hashlib.sha256(encoded).hexdigest()


def make_wal_entry(
    *,
    seq: int,
    execution_id: str,
    timestamp_iso: str,
    entry_type: str,
    payload: dict[str, Any],
    prev_hash: str | None,
    version: str = "1.0",
) -> dict[str, Any]:
    """A WAL entry dict exactly as ``WALEntry.to_dict`` lays it out, hash included."""
    entry_hash = compute_entry_hash(
        seq=seq,
        execution_id=execution_id,
        timestamp_iso=timestamp_iso,
        entry_type=entry_type,
        payload=payload,
        prev_hash=prev_hash,
        version=version,
    )
    return {
        "seq": seq,
        "execution_id": execution_id,
        "timestamp_iso": timestamp_iso,
        "entry_type": entry_type,
        "payload": payload,
        "prev_hash": prev_hash,
        "entry_hash": entry_hash,
        "version": version,
    }


def encode_wal_line(entry: dict[str, Any]) -> bytes:
    """One WAL line as ``WALWriter.append`` writes it (``ensure_ascii=False``, then ``\\n``)."""
    return (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")


@dataclass(frozen=True)
class _RawLine:
    line_no: int
    offset: int
    data: bytes  # without the trailing newline
    has_newline: bool
    too_long: bool = False


# A byte that is not whitespace as ``bytes.strip`` sees it: a line holding one is no blank.
_CONTENT = re.compile(rb"[^ \t\n\r\x0b\x0c]")
_PEEK_BYTES = 1 << 16


def _iter_lines(f: Any) -> Iterator[_RawLine]:
    """Lines with their byte offsets; an over-long line is reported, not held in memory."""
    offset = 0
    line_no = 0
    while True:
        # Blank lines (whitespace alone) are no entries: skipped a buffer at a time, not
        # one object each (10 MB of newlines took 14 s).
        ahead: bytes = f.peek(_PEEK_BYTES) if hasattr(f, "peek") else b""
        found = _CONTENT.search(ahead)
        blank = ahead.rfind(b"\n", 0, found.start() if found else len(ahead)) + 1
        if blank:
            line_no += ahead.count(b"\n", 0, blank)
            offset += blank
            f.read(blank)
            continue
        chunk: bytes = f.readline(MAX_LINE_BYTES)
        if not chunk:
            return
        line_no += 1
        start = offset
        offset += len(chunk)
        if chunk.endswith(b"\n"):
            yield _RawLine(line_no, start, chunk[:-1], True)
            continue
        if len(chunk) < MAX_LINE_BYTES:  # end of file without a newline
            yield _RawLine(line_no, start, chunk, False)
            return
        # Over-long line: skip to its end.
        has_newline = False
        while True:
            rest: bytes = f.readline(MAX_LINE_BYTES)
            offset += len(rest)
            if not rest:
                break
            if rest.endswith(b"\n"):
                has_newline = True
                break
        yield _RawLine(line_no, start, b"", has_newline, too_long=True)


def _parse_line(raw: _RawLine) -> tuple[Any, str | None]:
    """(decoded JSON, None) or (None, why it is not JSON)."""
    if raw.too_long:
        return None, f"line is longer than {MAX_LINE_BYTES} bytes"
    try:
        text = raw.data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"line is not valid UTF-8 (byte {exc.start} of the line)"
    try:
        return json.loads(text), None
    except (ValueError, RecursionError) as exc:  # ValueError: also a > 4300-digit integer
        detail = (
            f"{exc.msg} column {exc.colno}"  # "Unterminated string starting at" needs it
            if isinstance(exc, json.JSONDecodeError)
            else "nested too deeply"
        )
        detail = "a number too long to read" if type(exc) is ValueError else detail
        return None, f"line is not JSON ({detail})"


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


_SEQ_LIMIT = 2**63


def _entry_shape_problem(obj: Any) -> str | None:
    if not isinstance(obj, dict):
        return f"entry is a JSON {json_kind(obj)}, not an object"
    seq = obj.get("seq")
    if not _is_int(seq):
        return "entry has no integer 'seq'"
    if not 0 <= seq < _SEQ_LIMIT:  # no log holds so many entries: not a seq to show
        return f"entry's 'seq' is out of range ({'negative' if seq < 0 else 'over 2**63'})"
    for key in ("execution_id", "entry_type"):
        if not isinstance(obj.get(key), str):
            return f"entry has no string '{key}'"
    if "timestamp_iso" not in obj:  # IntentusNet 1.3.0 takes any value here, and hashes it
        return "entry has no 'timestamp_iso'"
    if not isinstance(obj.get("payload"), dict):
        return "entry has no object 'payload'"
    for key in ("prev_hash", "entry_hash"):
        if obj.get(key) is not None and not isinstance(obj[key], str):
            return f"entry's '{key}' is not a string"
    version = obj.get("version", "1.0")
    if not isinstance(version, str):
        return "entry's 'version' is not a string"
    return None


def _make_entry(obj: dict[str, Any], raw: _RawLine) -> WalEntry:
    version = obj.get("version", "1.0")  # WALEntry.from_dict defaults it the same way
    expected = compute_entry_hash(
        seq=obj["seq"],
        execution_id=obj["execution_id"],
        timestamp_iso=obj["timestamp_iso"],
        entry_type=obj["entry_type"],
        payload=obj["payload"],
        prev_hash=obj.get("prev_hash"),
        version=version,
    )
    stamp = obj["timestamp_iso"]
    return WalEntry(
        seq=obj["seq"],
        execution_id=obj["execution_id"],
        # Shown as written: 12 as "12" (no time is read from it; the hash used the value).
        timestamp_iso=stamp if isinstance(stamp, str) else json.dumps(stamp),
        entry_type=obj["entry_type"],
        payload=obj["payload"],
        prev_hash=obj.get("prev_hash"),
        entry_hash=obj.get("entry_hash"),
        version=version,
        line_no=raw.line_no,
        byte_offset=raw.offset,
        hash_ok=obj.get("entry_hash") == expected,
    )


class _ChainChecker:
    """Checks seq order and hash links entry by entry, as WALReader._verify_chain does."""

    def __init__(self, execution_id: str) -> None:
        self.execution_id = execution_id
        self.prev: WalEntry | None = None
        self.resync = False  # after an unreadable line the next link/seq can't be judged
        self.issues: list[WalIssue] = []

    def lost_line(self) -> None:
        self.resync = True

    def _issue(self, kind: IssueKind, entry: WalEntry, message: str) -> None:
        self.issues.append(WalIssue(kind, entry.line_no, entry.byte_offset, message, entry.seq))

    def check(self, entry: WalEntry) -> None:
        self._check_seq(entry)
        self._check_link(entry)
        if not entry.hash_ok:
            what = (
                "has no entry_hash"
                if entry.entry_hash is None
                else "does not hash to its entry_hash"
            )
            self._issue(
                "hash_mismatch",
                entry,
                f"seq {entry.seq} ({entry.entry_type}) {what}: its content was changed after it was written",
            )
        if entry.execution_id != self.execution_id:
            self._issue(
                "execution_id_mismatch",
                entry,
                f"seq {entry.seq} belongs to execution {quoted(entry.execution_id)}, "
                f"not {quoted(self.execution_id)}",
            )
        self.prev = entry
        self.resync = False

    def _check_seq(self, entry: WalEntry) -> None:
        expected = 1 if self.prev is None else self.prev.seq + 1
        if entry.seq == expected or (self.resync and entry.seq > expected):
            return
        if entry.seq > expected:
            missing = "the start of the log" if self.prev is None else f"after seq {self.prev.seq}"
            self._issue(
                "seq_gap",
                entry,
                f"seq jumps to {entry.seq}, expected {expected}: entries are missing ({missing})",
            )
        else:
            self._issue(
                "seq_order",
                entry,
                f"seq {entry.seq} after seq {expected - 1}: entries are out of order or repeated",
            )

    def _check_link(self, entry: WalEntry) -> None:
        if self.resync:
            return
        expected = None if self.prev is None else self.prev.entry_hash
        if entry.prev_hash == expected:
            return
        if self.prev is None:
            message = f"first entry (seq {entry.seq}) links to a previous entry: the start of the log is missing"
        else:
            message = (
                f"seq {entry.seq}'s prev_hash is not seq {self.prev.seq}'s entry_hash: "
                "an entry was removed, reordered or rewritten"
            )
        self._issue("broken_link", entry, message)


@dataclass(frozen=True)
class _BadTail:
    """The last line, when it does not parse: why, whether it is whole (it ends with its
    newline: malformed) or torn, and whether it begins as a WAL entry's JSON object would."""

    why: str
    whole: bool
    object_like: bool


def _tail_message(tail: _BadTail) -> str:
    if tail.whole:
        return (
            f"last line is malformed ({tail.why}): it ends with its newline, so it was "
            "written whole, not cut short by a crash mid-append, yet it is not an entry"
        )
    return (
        f"last line is not a complete entry ({tail.why}): the process died while appending "
        "it; that entry was never durable"
    )


def _library_takes(obj: Any) -> str:
    """What to add to why an entry is refused when IntentusNet 1.3.0's reader takes it
    (a list for a payload, a number for the execution id, its hash holding): that this tool
    differs on purpose. Empty otherwise."""
    keys = ("seq", "execution_id", "timestamp_iso", "entry_type", "payload")
    if not isinstance(obj, dict) or not all(key in obj for key in keys):
        return ""
    seq, prev = obj["seq"], obj.get("prev_hash")
    if not (_is_int(seq) and 0 <= seq < _SEQ_LIMIT) or not isinstance(prev, str | None):
        return ""  # its reader refuses these too (a seq it does not expect, a link)
    if not isinstance(obj["entry_type"], str) or obj["entry_type"] not in KNOWN_ENTRY_TYPES:
        return ""  # its reader refuses it too (a list for a type was a TypeError here)
    try:
        expected = compute_entry_hash(
            **{key: obj[key] for key in keys}, prev_hash=prev, version=obj.get("version", "1.0")
        )
    except (RecursionError, TypeError, ValueError):
        return ""
    if obj.get("entry_hash") != expected:
        return ""
    return (
        f"; {LIBRARY_TAKES}, but no IntentusNet writer writes an entry of this shape: this "
        "tool does not trust it"
    )


LIBRARY_TAKES = "its hash checks out and IntentusNet 1.3.0's reader takes it"


def _unknown_type(entry: WalEntry) -> str:
    return (
        f"seq {entry.seq}'s entry type {quoted(entry.entry_type)} is one IntentusNet 1.3.0 "
        "does not know: its WALReader refuses this log as corrupted, though the entry's "
        "hash checks out"
    )


def _read_entries(
    f: Any, execution_id: str
) -> tuple[list[WalEntry], list[WalIssue], bool, _BadTail | None]:
    """Parse and chain-check every line. Returns entries, issues, missing_final_newline,
    and the last line if it does not parse."""
    lines = [raw for raw in _iter_lines(f) if raw.too_long or raw.data.strip()]
    checker = _ChainChecker(execution_id)
    entries: list[WalEntry] = []
    missing_newline = False
    bad_tail: _BadTail | None = None
    for index, raw in enumerate(lines):
        is_last = index == len(lines) - 1
        obj, why_not = _parse_line(raw)
        if why_not is not None:
            if is_last:
                object_like = raw.data.lstrip().startswith(b'{"')
                bad_tail = _BadTail(why_not, raw.has_newline, object_like)
                message = _tail_message(bad_tail)
                checker.issues.append(
                    WalIssue(
                        "torn_last_line", raw.line_no, raw.offset, message, whole=raw.has_newline
                    )
                )
            else:
                checker.issues.append(WalIssue("not_json", raw.line_no, raw.offset, why_not))
            checker.lost_line()
            continue
        problem = _entry_shape_problem(obj)
        if problem is not None:
            problem += _library_takes(obj)
            seq = obj.get("seq") if isinstance(obj, dict) else None
            seq = seq if _is_int(seq) and 0 <= seq < _SEQ_LIMIT else None
            checker.issues.append(WalIssue("bad_entry", raw.line_no, raw.offset, problem, seq))
            checker.lost_line()
            continue
        try:
            entry = _make_entry(obj, raw)
        except RecursionError:  # parsed, but too deep for json.dumps to hash it
            why = "entry is nested too deeply to verify its hash"
            checker.issues.append(WalIssue("bad_entry", raw.line_no, raw.offset, why, obj["seq"]))
            checker.lost_line()
            continue
        checker.check(entry)
        entries.append(entry)
        if entry.entry_type not in KNOWN_ENTRY_TYPES:
            checker.issues.append(
                WalIssue("bad_entry", raw.line_no, raw.offset, _unknown_type(entry), entry.seq)
            )
        missing_newline = is_last and not raw.has_newline
    issues = sorted(checker.issues, key=lambda i: (i.line_no, i.kind))
    return entries, issues, missing_newline, bad_tail


def execution_id_from_path(path: Path) -> str:
    name = path.name
    return name[: -len(WAL_SUFFIX)] if name.endswith(WAL_SUFFIX) else name


def _open_nonblocking(path: str, flags: int) -> int:
    # a FIFO must not block until a writer comes; a link must not lead out of the directory
    return open_confined(path, flags)


def read_wal(path: str | os.PathLike[str]) -> WalLog:
    """Read, verify and classify one WAL file. Never raises for bad input."""
    wal_path = Path(path)
    execution_id = execution_id_from_path(wal_path)
    try:
        with open(wal_path, "rb", buffering=_PEEK_BYTES, opener=_open_nonblocking) as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode):
                what = "not a regular file (a FIFO, socket or device)"
                return WalLog(wal_path, execution_id, "unreadable", what)
            size, mtime_ns = st.st_size, st.st_mtime_ns
            entries, issues, missing_newline, bad_tail = _read_entries(f, execution_id)
    except FileNotFoundError:
        return WalLog(wal_path, execution_id, "missing", "WAL file does not exist")
    except IsADirectoryError:
        return WalLog(wal_path, execution_id, "is_directory", "a directory, not a WAL file")
    except OutsideLinkError as exc:
        return WalLog(wal_path, execution_id, "unreadable", f"refused: {exc.strerror}")
    except PermissionError:
        return WalLog(wal_path, execution_id, "permission_denied", "permission denied")
    except OSError as exc:
        return WalLog(wal_path, execution_id, "unreadable", f"cannot read: {exc.strerror or exc}")
    if not entries:  # nothing in it is a WAL entry: there is no chain to check
        return _no_entry_log(wal_path, execution_id, size, issues, bad_tail)
    trusted = _trusted_count(entries, issues)
    analysis = analyse(entries[:trusted])
    claimed = analysis if trusted == len(entries) else analyse(entries)
    log = WalLog(
        path=wal_path,
        execution_id=execution_id,
        file_status="ok",
        message="",
        entries=tuple(entries),
        issues=tuple(issues),
        state=analysis.state,
        steps=analysis.steps,
        fallbacks=analysis.fallbacks,
        in_flight_step=analysis.in_flight_step,
        intent_name=analysis.intent_name,
        envelope_hash=analysis.envelope_hash,
        terminal_reason=analysis.terminal_reason,
        size_bytes=size,
        mtime_ns=mtime_ns,
        missing_final_newline=missing_newline,
        claimed_state=claimed.state,
        trusted_count=trusted,
    )
    return _with_message(log)


def _trusted_count(entries: list[WalEntry], issues: list[WalIssue]) -> int:
    """How many entries come before the first integrity break and can be believed.

    An entry whose hash fails, and everything after it, is untrusted. A broken link
    (``prev_hash`` is not the previous entry's hash) at entry N condemns entry N-1 too:
    N-1 rewritten with a recomputed hash breaks the chain exactly there, at N.
    """
    issue = next((i for i in issues if i.kind in INTEGRITY_KINDS), None)
    if issue is None:
        return len(entries)
    before = sum(1 for e in entries if e.line_no < issue.line_no)
    links_broken_here = any(i.kind == "broken_link" and i.line_no == issue.line_no for i in issues)
    if links_broken_here and before:
        before -= 1
    return before


NO_ENTRY_MESSAGE = f"no complete entry: {NOTHING_TO_CHECK}"


def _no_entry_log(
    path: Path, execution_id: str, size: int, issues: list[WalIssue], tail: _BadTail | None
) -> WalLog:
    """A log without one complete WAL entry proves nothing: not that the execution ran,
    not that it is in flight, not how it ended. Empty (the writer opens the file before
    its first append, so a crash then leaves this, as does anything else that creates the
    file), its only line torn or malformed, or bytes that are not a WAL entry at all."""
    if not issues:
        message = f"WAL is empty: {NO_ENTRY_MESSAGE}"
        return WalLog(path, execution_id, "empty", message, size_bytes=size)
    first = issues[0]
    only_line = len(issues) == 1 and first.kind == "torn_last_line" and tail is not None
    if only_line and tail is not None and tail.object_like:
        what = (
            f"is whole but unreadable: {tail.why}"
            if tail.whole
            else "is torn: cut short before it became an entry"
        )
        message = (
            f"no complete entry (its only line, line {first.line_no}, {what}): {NOTHING_TO_CHECK}"
        )
    else:
        why = first.message
        if first.kind == "torn_last_line" and tail is not None:  # its tail story does not apply
            why = tail.why
        what = "not a write-ahead log: no line is a WAL entry"
        taken = [i for i in issues if LIBRARY_TAKES in i.message]
        if taken:  # a log the library reads: entries this tool refuses on purpose
            what, first = "a write-ahead log whose entries this tool refuses", taken[0]
            why = first.message
        message = f"{what} (line {first.line_no}: {why}); {NOTHING_TO_CHECK}"
    return WalLog(path, execution_id, "no_entry", message, issues=tuple(issues), size_bytes=size)


def entries_text(count: int) -> str:
    """``1 entry``, ``2 entries``: a count of a log's entries, agreeing with its number."""
    return f"{count} {'entry' if count == 1 else 'entries'}"


def _with_message(log: WalLog) -> WalLog:
    state = log.state.replace("_", " ")
    if not log.chain_valid:
        state = f"chain broken (claims {log.claimed_state.replace('_', ' ')}, untrusted)"
    parts = [entries_text(len(log.entries)), state]
    if log.in_flight_step is not None and log.chain_valid:
        step = log.in_flight_step
        parts.append(f"step {quoted(step.step_id)} ({step.agent or 'agent unknown'}) in flight")
    first = log.chain_break or log.first_issue
    if first is not None:
        seq = f" (seq {first.seq})" if first.seq is not None else ""
        if first.whole:
            what = "malformed last line"
        elif first.kind == "torn_last_line":
            what = "last line torn (a crash while appending, not tampering)"
        else:
            what = first.kind.replace("_", " ")
        parts.append(f"line {first.line_no}{seq}: {what}")
    return replace(log, message="; ".join(parts))


def scan_wal_dir(wal_dir: str | os.PathLike[str]) -> dict[str, WalLog]:
    """Every ``*.wal`` in ``wal_dir``, read, keyed by execution id (sorted). Missing dir -> {}."""
    return {execution_id: read_wal(path) for execution_id, path in wal_paths(wal_dir).items()}
