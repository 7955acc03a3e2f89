"""One verdict per execution, from its summary: what happened (outcome), can the record be
believed (integrity), can it be replayed (replayability), each with its reason.

Every screen and command asks ``verdict_of``: the list row, the header counts, the
timeline header, ``inspect``, ``verify`` and the listing's counts all say the same thing.

The rule that orders everything below: an answer taken from evidence that fails its
integrity check is not an answer. A tampered record or a broken WAL chain makes the
outcome *unknown* and the execution *not replayable*, each saying what broke and that it
needs investigating before anything recorded in it is used.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from intentus_tui.core.model import (
    CANNOT_READ,
    CATCH_UP_SECONDS,
    CUT_BY_ITS_WRITER,
    DAMAGED_RECORD,
    INVESTIGATE,
    NOTHING_TO_CHECK,
    RECORD_CATCHING_UP,
    RECORD_REMOVED,
    UNTRUSTED_INTEGRITY,
    ExecutionState,
    ExecutionSummary,
    HashStatus,
    Integrity,
    LoadStatus,
    Outcome,
    ReplayCode,
    Verdict,
    where_it_breaks,
)

# The library's replayable reasons that have a code of their own; any other reason a
# writer gave is kept as text under MARKED_NOT_REPLAYABLE.
_LIBRARY_REASONS = {
    code.value: code
    for code in (
        ReplayCode.EXECUTION_INCOMPLETE,
        ReplayCode.RECORDING_FAILURE,
        ReplayCode.MANUALLY_INVALIDATED,
        ReplayCode.RECORD_CORRUPTED,
    )
}
_REPLAY_TEXT = {
    ReplayCode.REPLAYABLE: "the recorded final response can be replayed",
    ReplayCode.EXECUTION_INCOMPLETE: "no final response was recorded",
    ReplayCode.RECORDING_FAILURE: "a final response exists but was not recorded properly",
    ReplayCode.MANUALLY_INVALIDATED: "an operator marked this record as not replayable",
    ReplayCode.RECORD_CORRUPTED: "the file is damaged, not a record, or a malformed record",
    ReplayCode.NO_RECORD: "no record file was written: there is no recorded response",
    ReplayCode.UNCHECKED: "too large to check in the listing: inspect or open it to check it",
}
_WAL_OUTCOME = {
    "completed": (Outcome.SUCCEEDED, "the write-ahead log recorded execution.completed"),
    "failed": (Outcome.FAILED, "the write-ahead log recorded execution.failed"),
    "aborted": (Outcome.FAILED, "the write-ahead log recorded execution.aborted"),
    "in_flight": (
        Outcome.IN_FLIGHT,
        "the write-ahead log never recorded an end: crashed or running",
    ),
}


# What an untrusted execution's evidence says happened, wherever it is told: only claimed.
CLAIMED = "(claimed)"


def claims_only(verdict: Verdict | None) -> bool:
    """Nothing vouches for what the execution's evidence says happened (its attempts, how
    each ended): it fails its integrity check, tampered or its log's chain broken. The
    Post-mortem marks each attempt ``(claimed)``; the chain of its attempts says it too,
    wherever it is shown (the timeline, the palette, ``inspect``)."""
    return verdict is not None and not verdict.trusted


def claimed_chain(chain: str, verdict: Verdict | None) -> str:
    """``(claimed) a ✗ → b ✓`` for an execution whose evidence ``claims_only``; said first,
    so that a chain cut to fit still says it."""
    return f"{CLAIMED} {chain}" if chain and claims_only(verdict) else chain


def verdict_of(s: ExecutionSummary) -> Verdict:
    """The verdict on one execution (pure: the summary holds everything it needs)."""
    if (
        s.replayable
        and s.hash_status is HashStatus.MATCH
        and s.final_status == "ok"
        and s.source == "record"
        and s.load_status is LoadStatus.OK
        and s.contradiction is None
        and s.state is ExecutionState.COMPLETED
        and s.wal_chain_ok is not False
        and s.bundle_change is None
    ):
        # Most executions: one shared answer (every listing row asks; 0.3 us, not 2.5).
        return _CLEAN
    return judge(s)


def judge(s: ExecutionSummary) -> Verdict:
    """``verdict_of`` without its shortcut for the common case (its definition)."""
    integrity, integrity_reason = _integrity(s)
    if integrity in UNTRUSTED_INTEGRITY:
        # What broke is the integrity's reason; these two only say what follows from it.
        claimed, _ = _outcome(s)
        what = "record" if integrity is Integrity.TAMPERED else "write-ahead log"
        # A record that claims nothing believable (damaged, contradictory) has no claim to
        # name: "claims unknown" reads as a claim.
        claim = (
            "" if claimed is Outcome.UNKNOWN else f" claims {claimed.value.replace('_', ' ')} but"
        )
        return Verdict(
            Outcome.UNKNOWN,
            f"cannot be believed: the {what}{claim} fails its integrity check; {INVESTIGATE}",
            integrity,
            integrity_reason,
            ReplayCode.UNTRUSTED,
            f"the {what} fails its integrity check: investigate before replaying it",
        )
    outcome, outcome_reason = _outcome(s)
    replay, replay_reason = _replayability(s)
    return Verdict(outcome, outcome_reason, integrity, integrity_reason, replay, replay_reason)


_CLEAN = Verdict(
    Outcome.SUCCEEDED,
    "the final response is a success",
    Integrity.VERIFIED,
    "the envelope hashes to the recorded envelopeHash",
    ReplayCode.REPLAYABLE,
    "the recorded final response can be replayed",
)
# The one verdict most executions share (``verdict_of`` returns this very object).
CLEAN_VERDICT = _CLEAN


def _integrity(s: ExecutionSummary) -> tuple[Integrity, str]:
    if s.bundle_change is not None:
        # Its bytes are not those its bundle sealed: whatever they say of themselves now
        # (a hash recomputed to match, a log beside them) was said after the fact.
        return Integrity.TAMPERED, s.bundle_change
    if s.wal_chain_ok is False:
        return Integrity.CHAIN_BROKEN, s.wal_problem or "the write-ahead log's hash chain breaks"
    if s.source == "wal":
        if s.wal_chain_ok is None:  # the only evidence, and it cannot be read
            return Integrity.UNVERIFIABLE, _unread_log(s)
        if s.record_removed:  # the log holds, but what the record said is lost unchecked
            return Integrity.UNVERIFIABLE, (
                f"{RECORD_REMOVED}: what it held cannot be checked; only the write-ahead "
                "log is left, and its hash chain verifies"
            )
        return Integrity.VERIFIED, "no record file; the write-ahead log's hash chain verifies"
    if s.load_status in _UNREAD:  # one sentence: not "nothing to check: Cannot read: ..."
        what = _what_the_file_is(s.load_status)
        return Integrity.UNVERIFIABLE, f"nothing to check: {what} ({_found(s)})"
    if not s.load_status.has_record and s.load_status is not LoadStatus.HEAD_ONLY:
        return Integrity.UNVERIFIABLE, f"nothing to check: {_clause(s.message) or s.load_status}"
    if s.hash_status is HashStatus.MISMATCH:
        return (
            Integrity.TAMPERED,
            "the envelope does not hash to the recorded envelopeHash and no harmless "
            "explanation reproduces it: possible tampering",
        )
    if s.contradiction:
        if not s.replayable and s.replay_reason == ReplayCode.RECORDING_FAILURE:
            # Its writer said it lost part of the record (an event, the final response):
            # the losses are that story, not evidence of an edit; they cannot be checked.
            return (
                Integrity.UNVERIFIABLE,
                "its writer declared a recording failure, and the record shows the loss: "
                f"{s.contradiction}",
            )
        said = f"the record contradicts itself: {s.contradiction}"  # an edit
        if s.load_status is LoadStatus.SALVAGED:  # a cut copy: its damage is said too
            said += f"; and the file is damaged: {where_it_breaks(s.message)}"
        return Integrity.TAMPERED, said
    story = writer_cut_story(s)
    if story is not None:
        return Integrity.UNVERIFIABLE, story
    if s.load_status is LoadStatus.SALVAGED:
        return (
            Integrity.UNVERIFIABLE,
            f"the file is damaged: {where_it_breaks(s.message)}",
        )
    if s.hash_status is HashStatus.UNVERIFIABLE:
        if s.load_status is LoadStatus.HEAD_ONLY:
            return Integrity.UNVERIFIABLE, "too large to hash in the listing (inspect checks it)"
        return Integrity.UNVERIFIABLE, _unverifiable_hash(s.hash_form)
    if (
        s.replay_reason == ReplayCode.RECORD_CORRUPTED
        and s.load_status is LoadStatus.OK
        and s.problems  # found by the checks, not only a reason its writer gave
    ):
        # Whole and parsed, but a field is missing or of the wrong type (events not a list,
        # a header flag not a boolean): a hash that matches does not vouch for the rest.
        return Integrity.UNVERIFIABLE, _MALFORMED
    if s.source == "record+wal" and s.wal_chain_ok is None:
        return Integrity.UNVERIFIABLE, _unread_log(s)  # the record alone is not all of it
    if s.hash_status is HashStatus.BENIGN:
        return Integrity.BENIGN, f"the hash differs harmlessly: {s.hash_story or 'explained'}"
    return Integrity.VERIFIED, "the envelope hashes to the recorded envelopeHash"


def _unread_log(s: ExecutionSummary) -> str:
    problem = s.wal_problem or "the write-ahead log cannot be read"
    if problem.endswith(NOTHING_TO_CHECK):  # it says so already (no complete entry)
        return problem
    return f"{problem}: its hash chain cannot be checked"


_MALFORMED = (
    "the record is malformed (a field missing or of the wrong type; verify lists them): "
    "it cannot be fully checked"
)


def _unverifiable_hash(form: str) -> str:
    if form == "absent":
        return "no envelopeHash was recorded"
    if form == "unknown":
        return "the recorded envelopeHash is not a sha256 digest"
    # A digest of a form IntentusNet writes, but the envelope cannot be written as JSON
    # to hash (nested too deeply, or a value such as NaN): nothing to compare it with.
    return "the envelope cannot be hashed to compare with its envelopeHash (verify says why)"


# The outcome of a damaged record, whose integrity's reason says where and how it breaks
# (the same long reason on two lines read as two problems).
_CUT_UNTOLD = "the file is damaged: what happened cannot be told from what survived of it"


def _outcome(s: ExecutionSummary) -> tuple[Outcome, str]:
    if s.source == "wal" and s.wal_chain_ok is None:  # nothing in it could be checked
        return Outcome.UNKNOWN, "the write-ahead log establishes nothing: it cannot be checked"
    if s.source == "wal":
        outcome, reason = _WAL_OUTCOME.get(
            s.wal_state or "", (Outcome.UNKNOWN, "the write-ahead log says nothing usable")
        )
        return outcome, f"{reason}; {RECORD_REMOVED}" if s.record_removed else reason
    if s.state is ExecutionState.CORRUPTED:
        if cut_short_by_writer(s):
            if s.all_attempts_failed:
                return Outcome.FAILED, (
                    f"every attempt failed ({s.chain}) and the router gave up; the file is "
                    "cut short after them: its final response is lost"
                )
            return Outcome.FAILED, (
                "the final response is an error: the file ends inside it, where its error "
                "was to be written (the error itself is lost)"
            )
        if s.load_status is LoadStatus.SALVAGED:  # where it breaks: the integrity's reason
            return Outcome.UNKNOWN, _CUT_UNTOLD
        return Outcome.UNKNOWN, _unusable_file(s)
    if s.state is ExecutionState.INCOMPLETE:
        if s.wal_state in ("failed", "aborted"):
            return Outcome.FAILED, _WAL_OUTCOME[s.wal_state][
                1
            ] + " (the record has no final response)"
        if s.wal_state == "completed" and s.record_catching_up:
            # A moment of a live write: the log first, then the record (or a reader that
            # read the record just before the log's last append).
            return Outcome.IN_FLIGHT, RECORD_CATCHING_UP
        if s.wal_state == "completed":
            return (
                Outcome.UNKNOWN,
                "the write-ahead log says completed but the record has no final response, "
                f"more than {CATCH_UP_SECONDS:g} s after it: not a record being written",
            )
        agent = f" ({s.in_flight_agent} never ended)" if s.in_flight_agent else ""
        return Outcome.IN_FLIGHT, f"no final response: crashed or still running{agent}"
    if s.final_status == "ok":
        if s.wal_state in ("failed", "aborted"):
            return (
                Outcome.UNKNOWN,
                f"the record says success but the write-ahead log says {s.wal_state}",
            )
        return Outcome.SUCCEEDED, "the final response is a success"
    if s.final_status == "error":
        last = f" (last agent: {s.agent})" if s.agent else ""
        return Outcome.FAILED, f"the final response is an error{last}"
    if s.final_status is None and s.load_status is LoadStatus.HEAD_ONLY:
        return Outcome.UNKNOWN, "too large to read whole in the listing (inspect reads it)"
    if s.final_kind is not None:  # it has no status to be missing
        return Outcome.UNKNOWN, f"the final response is {s.final_kind}, not an object"
    return Outcome.UNKNOWN, f"the final response's status is {s.final_status or 'missing'}"


def replay_code_text(code: ReplayCode) -> str:
    """What a replayability code means, as the verdict words it."""
    return _REPLAY_TEXT.get(code, code.value.replace("_", " "))


def replay_text(reason: str | None) -> str:
    """What a replayability code or header reason means, as the verdict words it."""
    code = _LIBRARY_REASONS.get(reason or "")
    if code is not None:
        return _REPLAY_TEXT[code]
    return f"marked not replayable: {reason or 'no reason given'}"


def _replayability(s: ExecutionSummary) -> tuple[ReplayCode, str]:
    if s.source == "wal":
        if s.record_removed:
            return ReplayCode.NO_RECORD, f"{RECORD_REMOVED}: there is no recorded response"
        return ReplayCode.NO_RECORD, _REPLAY_TEXT[ReplayCode.NO_RECORD]
    if s.replayable and s.load_status is LoadStatus.HEAD_ONLY:
        # Its header says replayable, but nothing behind that was checked: no yes yet.
        return ReplayCode.UNCHECKED, _REPLAY_TEXT[ReplayCode.UNCHECKED]
    if s.replayable:
        return ReplayCode.REPLAYABLE, _REPLAY_TEXT[ReplayCode.REPLAYABLE]
    code = _LIBRARY_REASONS.get(s.replay_reason or "", ReplayCode.MARKED_NOT_REPLAYABLE)
    if code is ReplayCode.RECORD_CORRUPTED and cut_short_by_writer(s):
        return (
            code,
            "the record was never written whole (IntentusNet 1.3.0 cuts error responses "
            "short): no recorded response to replay",
        )
    if code is ReplayCode.RECORD_CORRUPTED and s.final_kind is not None:
        # what is there is no answer (replay --force returns none), not a damaged file
        return code, (
            f"the final response is {s.final_kind}, not an object: a malformed response, "
            "no response to replay"
        )
    if code is ReplayCode.RECORD_CORRUPTED and s.load_status in _UNREAD:
        # not damage: a file that could not be read (no permission, a socket) may be whole
        return code, f"the file cannot be read ({_found(s)}): no response to replay from it"
    if code is ReplayCode.RECORD_CORRUPTED and s.load_status.read_no_record:
        # what the file is, as the outcome says it ("the file is empty"), not the code's
        # every case ("the file is damaged, not a record, or a malformed record")
        return code, f"{_unusable_file(s)}; no response to replay from it"
    return code, replay_text(s.replay_reason)


_UNREAD = tuple(status for status in LoadStatus if status.not_read)


def cut_short_by_writer(s: ExecutionSummary) -> bool:
    """A record cut short after every attempt failed, or inside the error response it
    began to write: what IntentusNet 1.3.0 leaves for every error response (its writer
    stops at the error it cannot write), not damage done to the file since; what survived
    says how it ended."""
    return s.load_status is LoadStatus.SALVAGED and (
        s.all_attempts_failed or s.final_status == "error"
    )


def damaged_by_others(s: ExecutionSummary | None) -> bool:
    """A record read from a damaged file (salvaged), not one its writer cut short: what is
    missing past the break may have been recorded, and lost."""
    return s is not None and s.load_status is LoadStatus.SALVAGED and not cut_short_by_writer(s)


def load_words(message: str, s: ExecutionSummary | None) -> str:
    """The loader's message (``LoadResult.message``) of the execution ``s`` summarizes, as
    every screen and command says it: of a record its writer cut short
    (``cut_short_by_writer``) "Cut short by its writer: file ends at …", the story its
    verdict tells, not "Damaged record: …" (damage done since); any other as it is."""
    if s is None or not message.startswith(DAMAGED_RECORD) or not cut_short_by_writer(s):
        return message
    return CUT_BY_ITS_WRITER + where_it_breaks(message)


def told_by_its_writer(s: ExecutionSummary) -> ExecutionSummary:
    """``s`` with its message in ``load_words``' words (a summary's ``message`` is its
    file's load message)."""
    told = load_words(s.message, s)
    return s if told is s.message else replace(s, message=told)


def writer_cut_story(s: ExecutionSummary) -> str | None:
    """How a record cut short by its writer (``cut_short_by_writer``) came to be, with
    where its file ends: its verdict's integrity reason, and what ``verify`` says of its
    damage; None for any other record."""
    if not cut_short_by_writer(s):
        return None
    where = "after every attempt failed" if s.all_attempts_failed else "inside its error"
    return (
        f"cut short {where}, as IntentusNet 1.3.0 leaves every error response (most "
        "likely cut by its writer, not damaged afterwards); the rest cannot be checked: "
        f"{where_it_breaks(s.message)}"
    )


# The listing's ``counts``: one fixed vocabulary, every key always present, flat so that
# the counts of the scan's chunks add up key by key.
COUNT_KEYS: tuple[str, ...] = tuple(
    sorted(
        (
            *(f"outcome.{m.value}" for m in Outcome),
            *(f"integrity.{m.value}" for m in Integrity),
            *(f"replay.{m.value}" for m in ReplayCode),
            "needs_attention",
            "executions",
        )
    )
)


def verdict_counts(summaries: Iterable[ExecutionSummary]) -> dict[str, int]:
    """How many executions have each outcome (``outcome.succeeded`` ...), integrity
    (``integrity.verified`` ...) and replayability code (``replay.replayable`` ...), and
    how many need attention, of how many ``executions``: every key of ``COUNT_KEYS``,
    zero or not."""
    return tally_verdicts(map(verdict_of, summaries))


def tally_verdicts(verdicts: Iterable[Verdict]) -> dict[str, int]:
    """``verdict_counts`` of verdicts already made."""
    # Verdicts counted whole first (most are one shared object), then spread over the keys:
    # two thirds of the time of five counters per execution.
    counts: Counter[str] = Counter()
    for v, n in Counter(verdicts).items():
        counts[_OUTCOME_KEYS[v.outcome]] += n
        counts[_INTEGRITY_KEYS[v.integrity]] += n
        counts[_REPLAY_KEYS[v.replay]] += n
        counts["needs_attention"] += n if v.needs_attention else 0
        counts["executions"] += n
    return {key: counts[key] for key in COUNT_KEYS}


_OUTCOME_KEYS = {m: f"outcome.{m.value}" for m in Outcome}
_INTEGRITY_KEYS = {m: f"integrity.{m.value}" for m in Integrity}
_REPLAY_KEYS = {m: f"replay.{m.value}" for m in ReplayCode}


def _clause(sentence: str) -> str:
    """The loader's sentence as the rest of one: "Valid JSON, but an array, …" after "nothing
    to check: " reads "valid JSON, …" (a word in capitals, "JSON is …", stays as it is)."""
    if sentence[:1].isupper() and sentence[1:2].islower():
        return sentence[0].lower() + sentence[1:]
    return sentence


def _found(s: ExecutionSummary) -> str:
    """What the loader found of a file that holds no whole record, as the rest of a sentence
    (without its "Cannot read: ", which after "the file cannot be read" would say it twice):
    "the file cannot be read: named like a record but is a FIFO", not "…: Named like …"."""
    found = s.message.removeprefix(CANNOT_READ) if s.load_status in _UNREAD else s.message
    return _clause(found)


def _unusable_file(s: ExecutionSummary) -> str:
    """What a file that holds no record is, as one sentence: "the file is empty", "the file
    is not UTF-8 text: invalid UTF-8 at byte 1" (not "the file is damaged: Not UTF-8 …")."""
    found = _found(s) or s.load_status.value
    if s.load_status is LoadStatus.EMPTY and found.startswith("file is "):
        return f"the file is {found.removeprefix('file is ')}"
    if s.load_status in (LoadStatus.NOT_UTF8, LoadStatus.NOT_JSON):
        # "the file is not a readable record: invalid JSON at byte 0 …", not "the file is
        # damaged: Not a readable record: …" (a capital mid-sentence, a guess at damage)
        return f"the file is {found}"
    return f"{_what_the_file_is(s.load_status)}: {found}"


def _what_the_file_is(status: LoadStatus) -> str:
    """What an execution's file turned out to be, when it holds no whole record."""
    if status in _UNREAD:
        return "the file cannot be read"  # a link leading nowhere, a socket: not damage
    if status is LoadStatus.NOT_RECORD:
        return "the file is not a record"
    return "the file is damaged"
