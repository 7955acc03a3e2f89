"""Read IntentusNet write-ahead logs (``.intentusnet/wal/<executionId>.wal``) for a post-mortem.

A WAL is JSON lines, one entry per line (DESIGN 2.3). This module never raises on bad
input: a missing, unreadable, empty, torn or tampered log comes back as a ``WalLog`` whose
``file_status`` / ``issues`` say what is wrong, where (line number and byte offset) and why.

The hash chain is checked exactly as IntentusNet 1.3.0 computes it
(``intentusnet.wal.models.WALEntry.compute_hash``): sha256 over
``json.dumps({seq, execution_id, timestamp_iso, entry_type, payload, prev_hash, version},
sort_keys=True, separators=(",", ":"))`` -- note ``ensure_ascii`` stays at its default
(True) although lines are *written* with ``ensure_ascii=False``.

``recovery_hint`` turns what the log shows into a hint for the operator (seed 003,
"Recovery Decisions"): it never decides, it explains.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, NamedTuple

from intentus_tui.core.fsio import OutsideLinkError, open_confined
from intentus_tui.core.records.load import WAL_SUFFIX
from intentus_tui.core.sanitize import sanitize_line

# A line longer than this is not a WAL entry anyone wrote; don't hold it in memory.
MAX_LINE_BYTES = 32 * 1024 * 1024

WalState = Literal["completed", "failed", "aborted", "in_flight", "unknown"]
WalFileStatus = Literal["ok", "empty", "missing", "is_directory", "permission_denied", "unreadable"]
IssueKind = Literal[
    "hash_mismatch",  # entry_hash is not the hash of the entry's content (tampered/corrupted)
    "broken_link",  # prev_hash is not the previous entry's entry_hash (entry removed/reordered)
    "seq_gap",  # seq jumped forward (entries missing)
    "seq_order",  # seq went backwards or repeated
    "torn_last_line",  # the last line is not a complete entry: crash mid-append
    "not_json",  # a line before the last is not JSON (or not UTF-8)
    "bad_entry",  # JSON, but not a WAL entry (wrong type, missing field)
    "execution_id_mismatch",  # entry belongs to another execution than the file name says
]
StepStatus = Literal["started", "completed", "failed", "skipped"]
Verdict = Literal["safe_to_retry", "investigate_first", "do_not_retry"]

# Issue kinds that mean the log's content cannot be trusted (a torn tail is a crash, not tampering).
INTEGRITY_KINDS: frozenset[str] = frozenset(
    {"hash_mismatch", "broken_link", "seq_gap", "seq_order", "not_json", "bad_entry"}
)

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


@dataclass(frozen=True)
class WalLog:
    """Everything a post-mortem needs from one WAL file."""

    path: Path
    execution_id: str  # from the file name
    file_status: WalFileStatus
    message: str  # one-line human summary
    entries: tuple[WalEntry, ...] = ()
    issues: tuple[WalIssue, ...] = ()
    state: WalState = "unknown"
    steps: tuple[WalStep, ...] = ()
    fallbacks: tuple[WalFallback, ...] = ()
    in_flight_step: WalStep | None = None
    intent_name: str | None = None
    envelope_hash: str | None = None
    terminal_reason: str | None = None  # reason/failure_type given by failed/aborted
    size_bytes: int = 0
    missing_final_newline: bool = False  # last entry is complete but its "\n" never landed

    @property
    def first_issue(self) -> WalIssue | None:
        return self.issues[0] if self.issues else None

    @property
    def torn(self) -> bool:
        return any(i.kind == "torn_last_line" for i in self.issues)

    @property
    def chain_valid(self) -> bool:
        """True when every complete entry verifies (a torn tail does not break the chain)."""
        return self.file_status in ("ok", "empty") and not any(
            i.kind in INTEGRITY_KINDS for i in self.issues
        )

    @property
    def last_entry(self) -> WalEntry | None:
        return self.entries[-1] if self.entries else None

    @property
    def side_effects_completed(self) -> bool | None:
        """Did a step with (possible) side effects complete? None when a class is unknown."""
        return _side_effects_completed(self.steps)

    @property
    def hint(self) -> RecoveryHint:
        return recovery_hint(
            self.state,
            in_flight=self.in_flight_step is not None,
            in_flight_side_effect=self.in_flight_step.side_effect if self.in_flight_step else None,
            side_effects_completed=self.side_effects_completed,
        )


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


# --------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _RawLine:
    line_no: int
    offset: int
    data: bytes  # without the trailing newline
    has_newline: bool
    too_long: bool = False


def _iter_lines(f: Any) -> Iterator[_RawLine]:
    """Lines with their byte offsets; an over-long line is reported, not held in memory."""
    offset = 0
    line_no = 0
    while True:
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
        detail = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
        detail = "a number too long to read" if type(exc) is ValueError else detail
        return None, f"line is not JSON ({detail})"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _entry_shape_problem(obj: Any) -> str | None:
    if not isinstance(obj, dict):
        return f"entry is a JSON {type(obj).__name__}, not an object"
    if not _is_int(obj.get("seq")):
        return "entry has no integer 'seq'"
    for key in ("execution_id", "timestamp_iso", "entry_type"):
        if not isinstance(obj.get(key), str):
            return f"entry has no string '{key}'"
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
    return WalEntry(
        seq=obj["seq"],
        execution_id=obj["execution_id"],
        timestamp_iso=obj["timestamp_iso"],
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
                f"seq {entry.seq} belongs to execution {entry.execution_id!r}, not {self.execution_id!r}",
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


def _read_entries(f: Any, execution_id: str) -> tuple[list[WalEntry], list[WalIssue], bool]:
    """Parse and chain-check every line. Returns entries, issues, missing_final_newline."""
    lines = [raw for raw in _iter_lines(f) if raw.too_long or raw.data.strip()]
    checker = _ChainChecker(execution_id)
    entries: list[WalEntry] = []
    missing_newline = False
    for index, raw in enumerate(lines):
        is_last = index == len(lines) - 1
        obj, why_not = _parse_line(raw)
        if why_not is not None:
            if is_last:
                checker.issues.append(
                    WalIssue(
                        "torn_last_line",
                        raw.line_no,
                        raw.offset,
                        f"last line is not a complete entry ({why_not}): "
                        "the process died while appending it; that entry was never durable",
                    )
                )
            else:
                checker.issues.append(WalIssue("not_json", raw.line_no, raw.offset, why_not))
            checker.lost_line()
            continue
        problem = _entry_shape_problem(obj)
        if problem is not None:
            seq = obj.get("seq") if isinstance(obj, dict) and _is_int(obj.get("seq")) else None
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
        missing_newline = is_last and not raw.has_newline
    issues = sorted(checker.issues, key=lambda i: (i.line_no, i.kind))
    return entries, issues, missing_newline


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
        with open(wal_path, "rb", opener=_open_nonblocking) as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode):
                what = "not a regular file (a FIFO, socket or device)"
                return WalLog(wal_path, execution_id, "unreadable", what)
            size = st.st_size
            entries, issues, missing_newline = _read_entries(f, execution_id)
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
    if not entries and not issues:
        return _empty_log(wal_path, execution_id, size)
    analysis = _analyse(entries)
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
        missing_final_newline=missing_newline,
    )
    return _with_message(log)


def _empty_log(path: Path, execution_id: str, size: int) -> WalLog:
    # The writer opens the file before its first append: an empty WAL is an execution that
    # died before anything about it was durable.
    return WalLog(
        path,
        execution_id,
        "empty",
        "WAL is empty: the execution died before its first entry was written",
        state="in_flight",
        size_bytes=size,
    )


def _with_message(log: WalLog) -> WalLog:
    parts = [f"{len(log.entries)} entries", log.state.replace("_", " ")]
    if log.in_flight_step is not None:
        step = log.in_flight_step
        parts.append(f"step {step.step_id!r} ({step.agent or 'agent unknown'}) in flight")
    first = log.first_issue
    if first is not None:
        parts.append(f"line {first.line_no}: {first.kind}")
    return replace(log, message="; ".join(parts))


def scan_wal_dir(wal_dir: str | os.PathLike[str]) -> dict[str, WalLog]:
    """Every ``*.wal`` in ``wal_dir``, keyed by execution id (sorted). Missing dir -> {}."""
    directory = Path(wal_dir)
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return {}
    logs: dict[str, WalLog] = {}
    for name in names:
        if name.endswith(WAL_SUFFIX) and len(name) > len(WAL_SUFFIX):
            log = read_wal(directory / name)
            logs[log.execution_id] = log
    return logs


# --------------------------------------------------------------------------------------
# Classification
# --------------------------------------------------------------------------------------


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


def _analyse(entries: list[WalEntry]) -> _Analysis:
    analyser = _Analyser()
    for entry in entries:
        analyser.feed(entry)
    return analyser.finish()


def _side_effects_completed(steps: tuple[WalStep, ...]) -> bool | None:
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
# Recovery hint (seed 003, "Recovery Decisions")
# --------------------------------------------------------------------------------------


def recovery_hint(
    state: str,
    *,
    in_flight: bool,
    in_flight_side_effect: str | None = None,
    side_effects_completed: bool | None = None,
) -> RecoveryHint:
    """Hint whether re-submitting the intent looks safe. Plain inputs, so it also serves
    records without a WAL.

    state: completed | failed | aborted | in_flight | anything else (= unknown).
    in_flight: an agent step/attempt started and never ended.
    in_flight_side_effect: that step's side-effect class (None = not declared).
    side_effects_completed: whether an earlier step with side effects completed
    (None = unknown).
    """
    effect = normalise_side_effect(in_flight_side_effect)
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
        )
    if state != "in_flight":
        return RecoveryHint(
            "investigate_first",
            "The execution's state cannot be determined from what was recorded.",
        )
    if not in_flight:
        return _after_earlier_steps(
            side_effects_completed,
            clean="It died before any step with side effects ran (nothing was in flight); a retry looks safe.",
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
            clean="Only a read-only step was in flight and nothing with side effects completed; a retry looks safe.",
        )
    return RecoveryHint(
        "investigate_first",
        "A step was in flight when the process died and its side effects are unknown. "
        "Find out whether the agent changed anything before retrying.",
    )


def _after_earlier_steps(side_effects_completed: bool | None, *, clean: str) -> RecoveryHint:
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
