"""Replay: return what was recorded. Never runs agent code, never calls a model.

The contract is IntentusNet's documented replay API: ``ReplayEngine(record).is_replayable()
-> (bool, reason)`` and ``replay(env=None, force=False) -> ReplayResult``. Field names of
``ReplayResult`` are IntentusNet's (camelCase) so code written against that documentation
works unchanged.

A replayed answer is only as good as the record it comes from, so every result carries the
record's integrity problems (``IntegrityProblem``): an envelope that no longer hashes to the
recorded hash, a final response edited after recording, a damaged file, a broken
write-ahead log chain, a record changed since its evidence bundle sealed it.
``replay(strict=True)`` refuses such a record instead (``UntrustedRecordError``); a hash
mismatch with a known benign explanation is only a note.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from intentus_tui.core.bundle.seal import change_parts, log_change, record_change
from intentus_tui.core.model import HashStatus, where_it_breaks
from intentus_tui.core.records.hashing import documented_envelope_hash, runtime_envelope_hash
from intentus_tui.core.records.load import (
    ExecutionRecord,
    LoadResult,
    LoadStatus,
    not_an_object,
)
from intentus_tui.core.records.store import FileExecutionStore, RecordLoadError, UnsafeIdError
from intentus_tui.core.records.verify import (
    HashCheck,
    SequenceCheck,
    StructureCheck,
    VerifyReport,
    check_envelope_hash,
    check_event_sequence,
    check_final_response,
    check_structure,
    detect_hash_form,
)
from intentus_tui.core.sanitize import sanitize_line

if TYPE_CHECKING:
    from intentus_tui.core.wal.read import WalLog

EXECUTION_INCOMPLETE = "execution_incomplete"
RECORDING_FAILURE = "recording_failure"
MANUALLY_INVALIDATED = "manually_invalidated"
RECORD_CORRUPTED = "record_corrupted"
FORCED_WARNING = "Forced replay of non-replayable record"

# What a forced replay risks, by why the record is not replayable: shown before one.
FORCE_REPLAY_RISKS: tuple[tuple[str, str], ...] = (
    ("Incomplete execution", "May return null payload"),
    ("Recording failure", "May return partial/corrupt data"),
    ("Corrupted record", "May raise parse errors"),
)
UNTRUSTED = "untrusted"  # the verdict's code for evidence that fails its integrity check
MARKED_NOT_REPLAYABLE = "marked_not_replayable"  # the verdict's code for a writer's own reason
UNTRUSTED_LOG = "untrusted_log"  # UNTRUSTED, when what broke is the log's chain, not the record

# The risk of forcing a replay, by the verdict's replayability code (``model.ReplayCode``)
# or the header's replayableReason; the three above keep their words.
_RISK_BY_CODE: dict[str, tuple[str, str]] = {
    UNTRUSTED: (
        "Untrusted record",
        "May return an answer that was altered after it was recorded",
    ),
    EXECUTION_INCOMPLETE: FORCE_REPLAY_RISKS[0],
    RECORDING_FAILURE: FORCE_REPLAY_RISKS[1],
    RECORD_CORRUPTED: FORCE_REPLAY_RISKS[2],
    MANUALLY_INVALIDATED: (
        "Invalidated record",
        "May return an answer an operator withdrew from replay",
    ),
    MARKED_NOT_REPLAYABLE: (
        "Marked not replayable",
        "May return a response its writer said not to replay",
    ),
    # Untrusted because its write-ahead log's chain breaks: the record itself may be whole.
    UNTRUSTED_LOG: (
        "Untrusted log",
        "May return an answer whose execution's log was altered: nothing vouches for it",
    ),
}


# Said wherever a forced replay of a record with no response is offered or shown.
NO_RESPONSE_TO_FORCE = "no response was recorded, so a forced replay returns none"
# The same of a file damaged before its response: one may have been recorded, and lost.
NO_RESPONSE_READ = "no response could be read from the file, so a forced replay returns none"


def response_recorded(record: ExecutionRecord | None) -> bool:
    """Whether a replay, forced or not, has a recorded response to return: a record whose
    finalResponse is an object. IntentusNet 1.3.0 leaves it null until the execution
    finishes, and a file cut short may end before it; anything else there (a string, a
    number, a list) is a malformed response, no answer: forcing such a record returns no
    status and no payload."""
    return record is not None and isinstance(record.final_response, dict)


def no_response_text(record: ExecutionRecord | None, damaged: bool = False) -> str:
    """Why a forced replay of a record with no response (``response_recorded``) returns
    none, in the words every screen uses: none was recorded, none could be read from a
    file ``damaged`` before it (not by its writer's own cut: verdict.damaged_by_others),
    or what is there is malformed."""
    kind = not_an_object(record.final_response) if record is not None else None
    if kind is None:
        return NO_RESPONSE_READ if damaged else NO_RESPONSE_TO_FORCE
    return f"the recorded response is {kind}, not an object, so a forced replay returns none"


def force_replay_risks(codes: Iterable[str | None]) -> list[tuple[str, str]]:
    """The risks a forced replay of one record runs: one per code that names one (the
    verdict's replayability code first, then the header's replayableReason), each once."""
    risks: list[tuple[str, str]] = []
    for code in codes:
        risk = _RISK_BY_CODE.get(code or "")
        if risk is not None and risk not in risks:
            risks.append(risk)
    return risks


# Kinds of integrity problem a replayed record can have (the ``kind`` in ``replay --json``).
ENVELOPE_TAMPERED = "envelope_tampered"  # hash mismatch, no benign explanation
BENIGN_HASH_MISMATCH = "benign_hash_mismatch"  # explained, harmless: a note, not a problem
HASH_UNVERIFIABLE = "hash_unverifiable"  # no stored hash, or not a sha256 digest
FINAL_RESPONSE_MISMATCH = "final_response_mismatch"  # differs from the FINAL_RESPONSE event
DAMAGED_RECORD = "damaged_record"  # salvaged from a broken file, or structurally invalid
EVENT_SEQUENCE_BROKEN = "event_sequence_broken"  # events missing or out of order
WAL_CHAIN_BROKEN = "wal_chain_broken"  # the execution's write-ahead log fails its hash chain
WAL_UNCHECKED = "wal_unchecked"  # its write-ahead log is there but cannot be read or checked
# How a forced replay's warning that it returns no response ends.
NULL_PAYLOAD = ": payload is null"
RECORD_MISNAMED = "record_misnamed"  # executionId differs from the id in the file name
# not the bytes its evidence bundle's manifest sealed (changed since, or never in it)
CHANGED_SINCE_BUNDLED = "changed_since_bundled"

MAX_DETAILS = 5  # problems named in one warning; a hostile record may have thousands
MAX_DETAIL_CHARS = 500


class IntegrityProblem(NamedTuple):
    """One reason not to trust a record's answer (or, when ``benign``, a note why a
    difference is harmless). ``summary`` names it; ``detail`` says what was found."""

    kind: str
    summary: str
    detail: str
    benign: bool = False

    @property
    def text(self) -> str:
        return f"{self.summary}: {self.detail}" if self.detail else self.summary

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "benign": self.benign,
            "summary": self.summary,
            "detail": self.detail,
        }


def _joined(problems: Sequence[str]) -> str:
    shown = "; ".join(problems[:MAX_DETAILS])
    if len(problems) > MAX_DETAILS:
        shown += f"; and {len(problems) - MAX_DETAILS:,} more"
    if len(shown) > MAX_DETAIL_CHARS:
        shown = shown[:MAX_DETAIL_CHARS] + "…"
    return sanitize_line(shown)


def _hash_problem(check: HashCheck) -> IntegrityProblem | None:
    if check.benign is not None:
        summary = "envelope hash differs for a benign reason (not tampering)"
        return IntegrityProblem(BENIGN_HASH_MISMATCH, summary, _joined([check.benign]), True)
    if check.status is HashStatus.MATCH:
        return None
    if check.status is HashStatus.UNVERIFIABLE:
        summary = "envelope hash unverifiable"
        return IntegrityProblem(HASH_UNVERIFIABLE, summary, _joined([check.explanation]))
    detail = (
        f"stored {check.expected}, but the envelope on disk hashes to {check.actual}; "
        "no benign explanation found"
    )
    summary = "envelope hash mismatch, possible tampering"
    return IntegrityProblem(ENVELOPE_TAMPERED, summary, _joined([detail]))


def _wal_problem(wal: WalLog) -> IntegrityProblem | None:
    if wal.file_status == "missing":
        return None  # gone since it was found: there is no log to speak of
    if not wal.checkable:
        # There, but unreadable (permission denied) or holding no entry: the record is not
        # all the evidence, and the rest cannot be checked (the verdict says unverifiable).
        summary = "write-ahead log cannot be checked (its hash chain is unknown)"
        return IntegrityProblem(
            WAL_UNCHECKED, summary, _joined([f"{wal.path.name}: {wal.message}"])
        )
    if wal.chain_valid:
        return None
    first = wal.first_issue
    where = f"{wal.path.name}" if first is None else f"{wal.path.name} line {first.line_no}"
    detail = where if first is None else f"{where}: {first.message}"
    summary = "write-ahead log hash chain broken (entries edited or removed)"
    return IntegrityProblem(WAL_CHAIN_BROKEN, summary, _joined([detail]))


def integrity_problems(
    record: ExecutionRecord,
    *,
    load: LoadResult | None = None,
    report: VerifyReport | None = None,
    wal: WalLog | None = None,
    cut_by_writer: bool = False,
) -> tuple[IntegrityProblem, ...]:
    """What stands between this record's answer and trust, from the record's own checks
    (``core.records.verify``): envelope hash, final response against its FINAL_RESPONSE
    event, the file (``load``), structure, event sequence and, with ``wal``, the write-ahead
    log's hash chain. ``report``: the checks already made (``verify_load_result``).
    ``cut_by_writer``: the file is what IntentusNet 1.3.0's writer leaves of an error
    response (``core.verdict.cut_short_by_writer``), not damage done to it since."""
    problems = _bundle_problems(load, wal)
    hash_check = report.hash if report is not None else None
    if hash_check is None:
        hash_check = check_envelope_hash(record, all_forms=False)
    hash_problem = _hash_problem(hash_check)
    if hash_problem is not None:
        problems.append(hash_problem)
    try:
        final = check_final_response(record)
    except RecursionError:  # nested too deeply to compare: cannot be shown to agree
        final = ("finalResponse is nested too deeply to compare with the FINAL_RESPONSE event",)
    if final:
        summary = "final response differs from its FINAL_RESPONSE event"
        problems.append(IntegrityProblem(FINAL_RESPONSE_MISMATCH, summary, _joined(final)))
    damage: list[str] = []
    if load is not None and load.status is not LoadStatus.OK:
        # where a writer's own cut ends, not called damage (as its verdict tells it)
        cut = where_it_breaks(load.message) if cut_by_writer else None
        damage.append(cut or load.message)
    structure: StructureCheck | None = report.structure if report is not None else None
    if structure is None:
        structure = check_structure(record, load.stem if load is not None else None)
    if structure.name_mismatch:  # its message is the last one
        summary = "record filed under another execution's id"
        problems.append(
            IntegrityProblem(RECORD_MISNAMED, summary, _joined(structure.problems[-1:]))
        )
    damage.extend(structure.problems[:-1] if structure.name_mismatch else structure.problems)
    if damage:
        # A file cut before its response holds no answer to be partial; cut by its own
        # writer, it never held one (as ``no_response_text`` says: none was recorded).
        if response_recorded(record):
            summary = "damaged record, the answer may be partial"
        elif cut_by_writer:
            summary = "cut short by its writer, no response was recorded in it"
        else:
            summary = "damaged record, no response could be read from it"
        problems.append(IntegrityProblem(DAMAGED_RECORD, summary, _joined(damage)))
    sequence: SequenceCheck | None = report.sequence if report is not None else None
    if sequence is None:
        sequence = check_event_sequence(record)
    if not sequence.ok:
        summary = "event sequence broken (events missing or reordered)"
        problems.append(
            IntegrityProblem(EVENT_SEQUENCE_BROKEN, summary, _joined(sequence.problems))
        )
    if wal is not None:
        wal_problem = _wal_problem(wal)
        if wal_problem is not None:
            problems.append(wal_problem)
    return tuple(problems)


def unread_record_problems(
    load: LoadResult, wal: WalLog | None = None
) -> tuple[IntegrityProblem, ...]:
    """What stands between an execution with no record to read and trust: its record file,
    when there is one, cannot be read (damaged past salvage, as ``integrity_problems`` calls
    a salvaged one damaged) and, with ``wal``, the write-ahead log's hash chain breaks. One
    known only from its log has no record file to be damaged."""
    problems: list[IntegrityProblem] = []
    if load.status is not LoadStatus.NO_RECORD:
        problems += _bundle_problems(load, wal)
        summary = "record cannot be read, nothing to replay"
        problems.append(IntegrityProblem(DAMAGED_RECORD, summary, _joined([load.message])))
    wal_problem = _wal_problem(wal) if wal is not None else None
    if wal_problem is not None:
        problems.append(wal_problem)
    return tuple(problems)


def _bundle_problems(load: LoadResult | None, wal: WalLog | None) -> list[IntegrityProblem]:
    """The record file, or its write-ahead log, is not what its evidence bundle's manifest
    sealed (read from a bundle's copy: ``core.bundle.seal``), first: whatever else they
    say came after."""
    changes = [
        record_change(load.path) if load is not None else None,
        log_change(wal.path) if wal is not None else None,
    ]
    problems = []
    for change in filter(None, changes):
        summary, detail = change_parts(change)
        problems.append(IntegrityProblem(CHANGED_SINCE_BUNDLED, summary, _joined([detail])))
    return problems


def untrusted_problems(problems: Iterable[IntegrityProblem]) -> tuple[IntegrityProblem, ...]:
    """The problems that make an answer untrustworthy (every one but benign notes)."""
    return tuple(p for p in problems if not p.benign)


class UntrustedRecordError(Exception):
    """``replay(strict=True)`` of a record with integrity problems."""

    def __init__(self, problems: Sequence[IntegrityProblem]) -> None:
        self.problems = tuple(problems)
        named = "; ".join(p.summary for p in self.problems)
        super().__init__(f"Untrusted record, not replayed: {named}")


class NotReplayableError(Exception):
    def __init__(self, reason: str | None) -> None:
        super().__init__(f"Execution is not replayable: {reason or 'unknown reason'}")
        self.reason = reason


class ReplayHashMismatchError(Exception):
    def __init__(self, recorded: str | None, provided: str) -> None:
        super().__init__(
            f"Envelope modified since original execution: recorded {recorded}, provided {provided}"
        )
        self.recorded = recorded
        self.provided = provided


@dataclass(frozen=True)
class ReplayResult:
    payload: Any
    metadata: Mapping[str, Any]
    fromReplay: bool = True
    originalExecutionId: str | None = None
    originalTimestamp: str | None = None
    warnings: tuple[str, ...] = field(default=())
    status: str | None = None  # the recorded response's status (success, error, ...)
    error: Any = None  # the recorded error: an error response replays as the error
    # the record's integrity problems (each also in ``warnings``) and benign notes
    integrity: tuple[IntegrityProblem, ...] = field(default=())
    # False for a forced replay of a record with no final response: nothing was returned
    response_recorded: bool = True

    @property
    def untrusted(self) -> tuple[IntegrityProblem, ...]:
        """The integrity problems that make this answer untrustworthy (not the notes)."""
        return untrusted_problems(self.integrity)

    def to_json(self) -> dict[str, Any]:
        return {
            "payload": self.payload,
            "metadata": dict(self.metadata),
            "from_replay": self.fromReplay,
            "original_execution_id": self.originalExecutionId,
            "original_timestamp": self.originalTimestamp,
            "status": self.status,
            "error": self.error,
            "response_recorded": self.response_recorded,
            "warnings": list(self.warnings),
            "trusted": not self.untrusted,
            "integrity": [problem.to_json() for problem in self.integrity],
        }


class ReplayEngine:
    def __init__(
        self,
        record: ExecutionRecord,
        *,
        damaged: bool = False,
        structure_ok: bool | None = None,
        load: LoadResult | None = None,
        report: VerifyReport | None = None,
        wal: WalLog | None = None,
        cut_by_writer: bool = False,
    ) -> None:
        """``damaged``: salvaged from a broken file. ``structure_ok``: a check already made.
        ``load``, ``report`` and ``wal`` (the file as read, its checks, the execution's
        write-ahead log) make the integrity problems a replay reports more complete;
        ``cut_by_writer``: see ``integrity_problems``."""
        self._record = record
        self._cut_by_writer = cut_by_writer
        self._damaged = damaged
        self._structure_ok = structure_ok
        self._load = load
        self._report = report
        self._wal = wal
        self._integrity: tuple[IntegrityProblem, ...] | None = None

    @classmethod
    def from_load_result(
        cls,
        result: LoadResult,
        *,
        report: VerifyReport | None = None,
        wal: WalLog | None = None,
        cut_by_writer: bool = False,
    ) -> ReplayEngine:
        if result.record is None:
            raise RecordLoadError(result)
        return cls(
            result.record,
            damaged=result.status is not LoadStatus.OK,
            load=result,
            report=report,
            wal=wal,
            cut_by_writer=cut_by_writer,
        )

    @property
    def record(self) -> ExecutionRecord:
        return self._record

    def is_replayable(self) -> tuple[bool, str | None]:
        raw = self._record.raw
        if self._damaged:
            return False, RECORD_CORRUPTED
        final = raw.get("finalResponse")
        if final is None:
            return False, EXECUTION_INCOMPLETE
        if not isinstance(final, dict):
            # A malformed record (1.3.0 writes an object or null there), not a lost response.
            return False, RECORD_CORRUPTED
        if not final:
            return False, RECORDING_FAILURE
        header = self._record.header
        if header.replayable is False:
            return False, header.replayable_reason or "marked not replayable (no reason given)"
        if header.replayable is None and "replayable" in header.raw:
            return False, RECORD_CORRUPTED  # present but not a boolean; absent means true (1.3.0)
        if self._structure_ok is None:
            self._structure_ok = check_structure(self._record).record_ok
        if not self._structure_ok:
            return False, RECORD_CORRUPTED
        return True, None

    def integrity(self) -> tuple[IntegrityProblem, ...]:
        """The record's integrity problems and benign notes (computed once)."""
        if self._integrity is None:
            self._integrity = integrity_problems(
                self._record,
                load=self._load,
                report=self._report,
                wal=self._wal,
                cut_by_writer=self._cut_by_writer,
            )
        return self._integrity

    def untrusted(self) -> tuple[IntegrityProblem, ...]:
        """The integrity problems that make this record's answer untrustworthy."""
        return untrusted_problems(self.integrity())

    def replay(self, env: Any = None, force: bool = False, *, strict: bool = False) -> ReplayResult:
        """The recorded response. ``strict``: raise ``UntrustedRecordError`` rather than
        return the answer of a record with integrity problems (benign notes do not count),
        forced or not, before any other refusal: a damaged record is refused as untrusted,
        as a tampered one is, not as merely not replayable."""
        integrity = self.integrity()
        if strict and untrusted_problems(integrity):
            raise UntrustedRecordError(untrusted_problems(integrity))
        ok, reason = self.is_replayable()
        if not ok and not force:
            raise NotReplayableError(reason)
        if env is not None:
            self._verify_envelope(env)
        final = self._record.final_response
        response = final if isinstance(final, dict) else {}
        metadata = response.get("metadata")
        warnings: list[str] = []
        if not ok:
            warnings.append(FORCED_WARNING)
            warnings.append(f"Not replayable: {reason}")
            if final is None and self._damaged:  # one may have been recorded, and lost
                warnings.append(f"No final response could be read from the file{NULL_PAYLOAD}")
            elif final is None:
                warnings.append(f"No final response was recorded{NULL_PAYLOAD}")
            elif not isinstance(final, dict):
                kind = not_an_object(final)
                warnings.append(
                    f"The recorded final response is {kind}, not an object{NULL_PAYLOAD}"
                )
        warnings.extend(problem.text for problem in integrity)
        return ReplayResult(
            payload=response.get("payload"),
            metadata=metadata if isinstance(metadata, dict) else {},
            fromReplay=True,
            originalExecutionId=self._record.execution_id,
            originalTimestamp=self._record.header.created_utc_iso,
            warnings=tuple(warnings),
            status=response.get("status") if isinstance(response.get("status"), str) else None,
            error=response.get("error"),
            integrity=integrity,
            response_recorded=response_recorded(self._record),
        )

    def _verify_envelope(self, env: Any) -> None:
        recorded = self._record.header.envelope_hash
        hasher = documented_envelope_hash
        if detect_hash_form(recorded) != "documented":
            hasher = runtime_envelope_hash
        try:
            provided = hasher(env)
        except RecursionError:  # an envelope too deep to hash cannot be shown to match
            raise ReplayHashMismatchError(
                recorded, "(envelope too deeply nested to hash)"
            ) from None
        if recorded is None or provided.lower() != recorded.lower():
            raise ReplayHashMismatchError(recorded=recorded, provided=provided)


def _failed_result(execution_id: str, message: str) -> ReplayResult:
    return ReplayResult(
        payload=None,
        metadata={"error": message},
        fromReplay=True,
        originalExecutionId=execution_id,
        warnings=(f"Not replayable: {message}",),
    )


def batch_replay(
    store: FileExecutionStore, execution_ids: Iterable[str]
) -> dict[str, ReplayResult]:
    """Replay many; one bad id never stops the rest (its result carries the reason)."""
    results: dict[str, ReplayResult] = {}
    for execution_id in execution_ids:
        try:
            engine = ReplayEngine.from_load_result(store.load_result(execution_id))
            results[execution_id] = engine.replay()
        except NotReplayableError as exc:
            results[execution_id] = _failed_result(execution_id, str(exc))
        except (RecordLoadError, UnsafeIdError) as exc:
            results[execution_id] = _failed_result(execution_id, str(exc))
    return results


class CachingReplayEngine:
    """Replays by id through a bounded LRU cache, invalidated when the file changes.

    A cache entry is keyed by the file's (size, mtime, inode): a record rewritten in
    place, replaced by rename, or invalidated by an operator is replayed afresh.
    """

    def __init__(self, store: FileExecutionStore, max_entries: int = 256) -> None:
        self._store = store
        self._max = max_entries
        self._cache: OrderedDict[str, tuple[tuple[int, int, int], ReplayResult]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def _stamp(self, execution_id: str) -> tuple[int, int, int] | None:
        try:
            st = os.stat(self._store.path_for(execution_id))
        except OSError:
            return None
        return (st.st_size, st.st_mtime_ns, st.st_ino)

    def replay(self, execution_id: str) -> ReplayResult:
        stamp = self._stamp(execution_id)
        cached = self._cache.get(execution_id)
        if cached is not None and stamp is not None and cached[0] == stamp:
            self._cache.move_to_end(execution_id)
            self.hits += 1
            return cached[1]
        self.misses += 1
        self._cache.pop(execution_id, None)
        result = ReplayEngine.from_load_result(self._store.load_result(execution_id)).replay()
        if stamp is not None:
            self._cache[execution_id] = (stamp, result)
            while len(self._cache) > self._max:
                self._cache.popitem(last=False)
        return result

    def __len__(self) -> int:
        return len(self._cache)
