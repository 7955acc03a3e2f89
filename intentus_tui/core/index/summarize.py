"""One summary per file, by one lane: what the list view and ``inspect --list`` show.

The lane has two halves. The orjson half (``summarize_parsed``) takes the common case,
a well-formed record as ``orjson.loads`` returned it (or as salvaged from a file cut
short, when what survived is well-formed), in one pass over plain dicts, and steps
aside (None) as soon as anything is unusual. The tolerant general half
(``summarize_general``) is the definition of every field, built from the verify,
timeline and replay checks; it takes everything else: damaged, odd, hostile and huge
files. ``summarize_file`` is the lane's one entry for a path: the first scan's
workers and live updates both call it, so a file is read once, parsed once and hashed
once whichever way it goes.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import orjson

from intentus_tui.core.fsio import read_plain_file
from intentus_tui.core.model import (
    ExecutionState,
    ExecutionSummary,
    HashStatus,
    LoadStatus,
    new_summary,
    summary_maker,
)
from intentus_tui.core.paths import id_of_key
from intentus_tui.core.records.hashing import (
    DOCUMENTED_PREFIX,
    documented_canonical,
    parsed_documented_canonical,
    parsed_runtime_canonical,
    runtime_canonical,
    sha256_hex,
)
from intentus_tui.core.records.head import load_record_head
from intentus_tui.core.records.load import (
    HUGE_FILE_BYTES,
    ExecutionRecord,
    LoadResult,
    classify_value,
    has_long_digit_run,
    load_record_bytes,
    load_record_file,
    not_an_object,
)
from intentus_tui.core.records.replay import RECORD_CORRUPTED, RECORDING_FAILURE, ReplayEngine
from intentus_tui.core.records.timeline import (
    FAN_OUT_STRATEGIES,
    analyze_attempts,
    chain_text,
    decided_agent,
    display_text,
    execution_state,
    final_status,
    normalize_status,
)
from intentus_tui.core.records.verify import (
    SequenceCheck,
    StructureCheck,
    benign_story,
    check_envelope_hash,
    check_event_sequence,
    check_final_response,
    check_structure,
    final_response_problems,
    hash_verdict,
    record_problems,
)
from intentus_tui.core.sanitize import clean, sanitize_line
from intentus_tui.core.verdict import told_by_its_writer

Stamp = tuple[int, int, int, int]  # size, mtime_ns, ctime_ns, inode of the file as read


# ------------------------------------------------------------------ a path


def summarize_file(path: str) -> tuple[Stamp | None, ExecutionSummary]:
    """The stamp of ``path`` as it was read, and its summary. Never raises.

    A plain regular file is read whole in one go and parsed once by orjson; the orjson
    half takes it if it is a well-formed record, the general half (with that parse)
    otherwise. Anything else (a link, a FIFO, a huge or changing file) takes the careful
    reader.
    """
    read = read_plain_file(path, HUGE_FILE_BYTES)
    if read is None:
        result = load_for_index(path)
        return result.stamp, summarize(result)
    data, size, mtime_ns, ctime_ns, inode = read
    stamp = (size, mtime_ns, ctime_ns, inode)
    key = path.rpartition(os.sep)[2]  # os.path.basename, without its generality
    # orjson reads integers beyond 64 bits as floats (changing the value and its hash):
    # any run of 19+ digits sends the file to the stdlib parser instead.
    error: str | None = None
    if not has_long_digit_run(data):
        try:
            parsed = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            error = str(exc)
        else:
            if type(parsed) is dict:
                summary = summarize_parsed(key, parsed, id_of_key(key), size, mtime_ns)
                if summary is not None:
                    return stamp, summary
            base: dict[str, Any] = {"size": size, "mtime_ns": mtime_ns, "stamp": stamp}
            return stamp, summarize_general(classify_value(Path(path), parsed, base))
    result = load_record_bytes(
        Path(path), data, size=size, mtime_ns=mtime_ns, stamp=stamp, orjson_error=error
    )
    return stamp, summarize(result)


def summarize_path(path: str | os.PathLike[str]) -> ExecutionSummary:
    """``summarize_file``'s summary alone."""
    return summarize_file(os.fspath(path))[1]


def load_for_index(path: str | os.PathLike[str]) -> LoadResult:
    """Read a file for listing: whole, unless it is huge (then its head and tail only)."""
    try:
        huge = os.stat(path).st_size > HUGE_FILE_BYTES
    except OSError:
        huge = False
    return load_record_head(path) if huge else load_record_file(path)


# ------------------------------------------------------------------ a loaded file


def summarize(result: LoadResult) -> ExecutionSummary:
    """One summary per loaded file, whatever it turned out to be. Never raises."""
    record = result.record
    if record is not None and (
        result.status is LoadStatus.OK or result.status is LoadStatus.SALVAGED
    ):
        # A salvaged record whose surviving sections are well-formed (a file cut short
        # among its events, as a crashed writer leaves it) takes the orjson half too.
        damaged = result.message if result.status is LoadStatus.SALVAGED else None
        fast = summarize_parsed(
            result.path.name,
            record.raw,
            result.stem,
            result.size,
            result.mtime_ns,
            parsed=False,
            damaged=damaged,
            cut_final_status=result.cut_final_status,  # not a copy made after: 10 us each
        )
        if fast is not None:
            return told_by_its_writer(fast)
    return summarize_general(result)


def _with_cut_final_status(summary: ExecutionSummary, result: LoadResult) -> ExecutionSummary:
    """Of a file cut short inside its FINAL_RESPONSE event, the status that event began to
    write (what IntentusNet 1.3.0 leaves of an error response) is its final status."""
    if result.cut_final_status is None or summary.final_status is not None:
        return summary
    return replace(summary, final_status=normalize_status(result.cut_final_status))


def summarize_general(result: LoadResult) -> ExecutionSummary:
    """The summary derived from the detailed checks (the definition of every field)."""
    record = result.record
    stem = result.stem
    if record is None:
        nothing = new_summary(
            key=result.path.name,
            execution_id=clean(stem),
            created="",
            intent="",
            agent="",
            strategy="",
            state=ExecutionState.CORRUPTED,
            load_status=result.status,
            message=clean(result.message),
            replayable=False,
            replay_reason=RECORD_CORRUPTED,
            hash_status=HashStatus.UNVERIFIABLE,
            hash_form="absent",
            matched_form=None,
            event_count=0,
            attempts=0,
            fallbacks=0,
            chain="",
            in_flight_agent=None,
            final_status=None,
            problems=1,
            size=result.size,
            mtime_ns=result.mtime_ns,
        )
        # A huge file whose first megabyte holds no whole section is not known damaged
        # ("the file is damaged" was said of a 20 MB file whole and well-formed): how it
        # ends says, as for a huge record whose head holds some.
        return _head_only(result, nothing) if result.status is LoadStatus.HEAD_ONLY else nothing
    analysis = analyze_attempts(record.events)
    # A mismatch looks for its harmless story (only then: a match needs none).
    hash_check = check_envelope_hash(record, all_forms=False, explain=True)
    structure = check_structure(record, stem)
    replayable, reason = ReplayEngine(
        record, damaged=result.status is not LoadStatus.OK, structure_ok=structure.record_ok
    ).is_replayable()
    sequence = check_event_sequence(record)
    final_problems = check_final_response(record)  # a problem and a contradiction: once
    problems = record_problems(result, hash_check, sequence, structure, final_problems)
    contradictions = _contradictions(final_problems, sequence, structure)
    if result.status is LoadStatus.SALVAGED and _declares_a_loss(record):
        # A damaged file whose writer said it lost part of the record (as a whole one says
        # it, below): the losses are that story, not an edit; the damage decides.
        contradictions = []
    hash_status = hash_check.status
    if hash_status is HashStatus.MISMATCH and hash_check.benign:
        hash_status = HashStatus.BENIGN
    last_attempt = analysis.attempts[-1].agent if analysis.attempts else ""
    in_flight = analysis.in_flight
    decided, strategy = decided_agent(record), clean(record.strategy)
    tried = analysis.attempts
    failed = {a.agent for a in tried} if tried and all(a.status == "error" for a in tried) else ()
    summary = new_summary(
        key=result.path.name,
        execution_id=clean(record.execution_id or stem),
        created=clean(record.header.created_utc_iso),
        intent=clean(record.intent_name),
        agent=decided or last_attempt,
        strategy=strategy,
        state=execution_state(record, result.status),
        load_status=result.status,
        message=clean(result.message),
        replayable=replayable,
        replay_reason=clean(reason) or None,
        hash_status=hash_status,
        hash_form=hash_check.detected_form,
        matched_form=hash_check.matched_form,
        event_count=len(record.events),
        attempts=len(analysis.attempts),
        fallbacks=len(analysis.fallbacks),
        chain=analysis.chain,
        in_flight_agent=in_flight[-1].agent if in_flight else None,
        final_status=final_status(record),
        problems=len(problems),
        size=result.size,
        mtime_ns=result.mtime_ns,
        hash_story=clean(hash_check.benign) or None if hash_status is HashStatus.BENIGN else None,
        contradiction=clean("; ".join(contradictions)) or None,
        final_kind=not_an_object(record.final_response),
        all_attempts_failed=router_gave_up(failed, decided, strategy),
    )
    if result.status is LoadStatus.HEAD_ONLY:
        return _head_only(result, summary)
    return told_by_its_writer(_with_cut_final_status(summary, result))


def router_gave_up(failed: Collection[str], decided: str | None, strategy: str) -> bool:
    """Every attempt failed (``failed``: their agents; empty when one did not) and the
    router's decision agrees: it names no agent, one of them, or the routing strategy (as
    IntentusNet 1.3.0 names a failed fallback, broadcast or parallel run: ``fallback``). A
    decision naming another agent is a success lost with the rest of a file cut short."""
    if not failed:
        return False
    return decided is None or decided in failed or decided.lower() == strategy.lower()


def _declares_a_loss(record: ExecutionRecord) -> bool:
    """The record's header says its writer failed to record all of it."""
    header = record.header
    return header.replayable is False and header.replayable_reason == RECORDING_FAILURE


def _contradictions(
    final_problems: tuple[str, ...], sequence: SequenceCheck, structure: StructureCheck
) -> list[str]:
    """How a record disagrees with itself, which only an edit after recording explains: a
    final response unlike its FINAL_RESPONSE event (``final_problems``, what
    ``check_final_response`` found), events missing or out of order, a file named after
    another execution."""
    found = list(final_problems)
    found += sequence.problems[:_SEQUENCE_SAID_MOST]
    if len(sequence.problems) > _SEQUENCE_SAID_MOST:  # a damaged file may have thousands
        more = len(sequence.problems) - _SEQUENCE_SAID_MOST
        found.append(f"and {more:,} more in the events' seq numbers")
    if structure.name_mismatch:
        found.append(structure.problems[-1])  # the name's problem comes last
    return found


# The seq problems a contradiction names (``verify`` lists each): the verdict's reason,
# the list's row and the cache carried all of them, 77 KB for 2,000 gaps.
_SEQUENCE_SAID_MOST = 5


_HEAD_STATE = {
    "final_response": ExecutionState.COMPLETED,
    "no_final_response": ExecutionState.INCOMPLETE,
    "truncated": ExecutionState.CORRUPTED,
    "unknown": ExecutionState.UNKNOWN,
}


def _head_only(result: LoadResult, general: ExecutionSummary) -> ExecutionSummary:
    """A huge file listed from its head and tail: what is known, and nothing invented."""
    record = result.record
    state = _HEAD_STATE.get(result.tail_hint or "", ExecutionState.CORRUPTED)
    header = record.header if record is not None else None
    if state is ExecutionState.CORRUPTED:
        replayable, reason = False, RECORD_CORRUPTED
    elif state is ExecutionState.INCOMPLETE:
        replayable, reason = False, "execution_incomplete"
    elif header is not None and header.replayable is False:
        replayable, reason = (
            False,
            header.replayable_reason or "marked not replayable (no reason given)",
        )
    else:
        replayable, reason = True, None
    if record is None or "envelope" not in result.recovered:
        hash_status, matched = HashStatus.UNVERIFIABLE, None
    else:
        hash_status, matched = general.hash_status, general.matched_form
    return replace(
        general,
        state=state,
        replayable=replayable,
        replay_reason=clean(reason) or None,
        hash_status=hash_status,
        matched_form=matched,
        problems=0,
    )


# ------------------------------------------------------------------ the orjson half

_PARSED_MESSAGE = "Record parsed"  # classify_value's message for a record parsed whole
_MARKS = {"ok": "✓", "error": "✗", "in_flight": "…"}  # as Attempt.mark


def summarize_parsed(
    key: str,
    raw: Mapping[str, Any],
    stem: str,
    size: int,
    mtime_ns: int,
    *,
    parsed: bool = True,
    damaged: str | None = None,
    cut_final_status: Any = None,
) -> ExecutionSummary | None:
    """The summary of a well-formed record straight from its JSON object (no model
    objects), or None as soon as anything is unusual: then ``summarize_general`` decides.
    Where it answers, it answers exactly as ``summarize_general`` would (tests prove it).

    ``parsed``: ``raw`` is exactly what ``orjson.loads`` returned (its hash needs no
    type walk). ``damaged``: the load message of a record salvaged from a damaged file
    (``raw`` is what survived): corrupted, not replayable, the damage one more problem;
    ``cut_final_status``: its ``LoadResult.cut_final_status`` (``_with_cut_final_status``).
    """
    # Subscripts, not .get(): a missing key is as unusual as a wrong type, and this is the
    # per-file hot path (a KeyError or TypeError below means: not the common case).
    try:
        header, envelope = raw["header"], raw["envelope"]
        execution_id, created = header["executionId"], header["createdUtcIso"]
        flag, stored = header["replayable"], header["envelopeHash"]
        intent = envelope["intent"]
    except (KeyError, TypeError, IndexError):
        return None
    if type(header) is not dict or type(envelope) is not dict:
        return None
    if type(execution_id) is not str or type(created) is not str or type(flag) is not bool:
        return None
    if type(stored) is not str or execution_id != stem or type(intent) is not dict:
        return None
    reason = header.get("replayableReason")
    if reason is not None and type(reason) is not str:
        return None
    get = raw.get
    decision, final = get("routerDecision"), get("finalResponse")
    if (decision is not None and type(decision) is not dict) or (
        final is not None and type(final) is not dict
    ):
        return None
    events = get("events")
    facts = _event_facts(events)
    if facts is None:
        return None
    hashed = _hash_fields(envelope, stored, parsed)
    if hashed is None:
        return None
    attempts, fallbacks, chain, last_agent, in_flight_agent, final_event, failed = facts
    if final is None and final_event is not None and "finalResponse" in raw:
        return None  # a response in its event, null in the record: the general half says it
    if damaged is not None:  # as ReplayEngine and execution_state judge a damaged record
        replayable, why = False, RECORD_CORRUPTED
        state = ExecutionState.CORRUPTED
        final_status = None if final is None else normalize_status(final.get("status"))
        if final_status is None and cut_final_status is not None:
            final_status = normalize_status(cut_final_status)  # as _with_cut_final_status
    elif final is None:
        replayable, why = False, "execution_incomplete"
        state, final_status = ExecutionState.INCOMPLETE, None
    else:
        if not final:
            replayable, why = False, "recording_failure"
        elif not flag:
            replayable, why = False, reason or "marked not replayable (no reason given)"
        else:
            replayable, why = True, None
        state, final_status = ExecutionState.COMPLETED, normalize_status(final.get("status"))
    name, routing = intent.get("name"), envelope.get("routing")
    strategy = routing.get("strategy") if type(routing) is dict else None
    agent = last_agent
    decided_name: str | None = None  # as ``timeline.decided_agent`` names it
    if decision is not None:
        decided = decision.get("agent")
        if type(decided) is str and decided:
            agent = decided if decided.isascii() and decided.isprintable() else clean(decided)
            decided_name = agent
        elif decided is not None:
            decided_name = display_text(decided) or None
            agent = decided_name or last_agent
    strategy_text = clean(strategy) if type(strategy) is str else ""
    contradictions: tuple[str, ...] = ()
    if final is not None and final_event is not None:
        contradictions = final_response_problems(final, final_event)
    hash_status, hash_form, matched_form, canonical = hashed
    story = None
    if hash_status is HashStatus.MISMATCH:  # rare: is there a harmless story?
        try:
            story = benign_story(envelope, stored, canonical)
        except (ValueError, TypeError, RecursionError):
            return None  # the general half says why
        if story is not None:
            hash_status, story = HashStatus.BENIGN, clean(story) or None
    # What ``verify`` lists: a hash that differs with no harmless story, or that cannot
    # be checked, is one problem.
    problems = len(contradictions) + (
        hash_status is HashStatus.UNVERIFIABLE or hash_status is HashStatus.MISMATCH
    )
    make = _make_parsed
    if damaged is not None:
        problems += 1  # the damage itself, the first problem verify lists
        make = partial(_make_parsed_damaged, clean(damaged))
    return make(
        key,
        clean(execution_id),
        clean(created),
        clean(name) if type(name) is str else "",
        agent,
        strategy_text,
        state,
        replayable,
        clean(why) or None,
        hash_status,
        hash_form,
        matched_form,
        len(events) if type(events) is list else 0,  # a list: _event_facts checked it
        attempts,
        fallbacks,
        chain,
        in_flight_agent,
        final_status,
        problems,
        size,
        mtime_ns,
        clean("; ".join(contradictions)) or None,
        story,
        failed is not None and router_gave_up(failed, decided_name, strategy_text),
    )


# The summary of a parsed record, its values passed in this order: positionally, as a
# keyword call with 21 arguments costs 1 us more.
_PARSED_FIELDS = (
    "key",
    "execution_id",
    "created",
    "intent",
    "agent",
    "strategy",
    "state",
    "replayable",
    "replay_reason",
    "hash_status",
    "hash_form",
    "matched_form",
    "event_count",
    "attempts",
    "fallbacks",
    "chain",
    "in_flight_agent",
    "final_status",
    "problems",
    "size",
    "mtime_ns",
    "contradiction",
    "hash_story",
    "all_attempts_failed",
)
_make_parsed = summary_maker(
    _PARSED_FIELDS, fixed={"load_status": LoadStatus.OK, "message": _PARSED_MESSAGE}
)
# The same, for a record salvaged from a damaged file: its load message first.
_make_parsed_damaged = summary_maker(
    ("message", *_PARSED_FIELDS), fixed={"load_status": LoadStatus.SALVAGED}
)


_EventFacts = tuple[int, int, str, str, str | None, dict[str, Any] | None, frozenset[str] | None]
_IN_FLIGHT = "…"


def _event_facts(events: Any) -> _EventFacts | None:
    """(attempts, fallbacks, chain, last agent, in-flight agent, payload of the last
    ``FINAL_RESPONSE`` event, the agents' names when every attempt ended in error) in
    one pass, or None unless every event is an object with seq 1..n in order, a string
    type, an object payload, and string agent names.

    The same pairing as ``timeline.analyze_attempts`` (per agent, latest start first),
    kept to what a list row needs.
    """
    if type(events) is not list:
        return None
    agents: list[str] = []
    marks: list[str] = []
    open_by_agent: dict[str, list[int]] = {}
    strategy: Any = None  # the first one an attempt recorded: it decides the chain's shape
    fallbacks = 0
    final: dict[str, Any] | None = None
    expected = 0
    try:  # a missing key is as unusual as a wrong type: subscripts, the cheaper lookup
        for event in events:
            expected += 1
            if type(event) is not dict:
                return None
            seq, kind, payload = event["seq"], event["type"], event["payload"]
            if seq != expected or type(seq) is not int:
                return None
            if type(kind) is not str or type(payload) is not dict:
                return None
            if kind == "AGENT_ATTEMPT_START":
                agent = payload["agent"]
                if type(agent) is not str:
                    return None
                stack = open_by_agent.get(agent)
                if stack is None:
                    open_by_agent[agent] = [len(agents)]
                else:
                    stack.append(len(agents))
                agents.append(agent)
                marks.append(_IN_FLIGHT)
                if strategy is None or strategy == "":
                    strategy = payload.get("strategy")
            elif kind == "AGENT_ATTEMPT_END":
                agent = payload["agent"]
                if type(agent) is not str:
                    return None
                stack = open_by_agent.get(agent)
                if stack:
                    position = stack.pop()
                else:
                    position = len(agents)
                    agents.append(agent)
                    marks.append("")
                marks[position] = _MARKS.get(normalize_status(payload.get("status")), "?")
            elif kind == "FALLBACK_TRIGGERED":
                fallbacks += 1
            elif kind == "FINAL_RESPONSE":
                final = payload
    except KeyError:
        return None
    if not agents:
        return 0, fallbacks, "", "", None, final, None
    names = [a if a.isascii() and a.isprintable() else sanitize_line(a) for a in agents]
    failed = frozenset(names) if marks.count("✗") == len(marks) else None
    # As analyze_attempts, which reads the sanitized text: a string sanitizing would change
    # spells no fan-out either way, so the raw string decides the same.
    fan_out = strategy.lower() if type(strategy) is str else None
    if fan_out not in FAN_OUT_STRATEGIES:
        fan_out = None
    if len(names) == 1 and fan_out is None:
        name, mark = names[0], marks[0]
        in_flight = name if mark == _IN_FLIGHT else None
        return 1, fallbacks, f"{name} {mark}", name, in_flight, final, failed
    chain = chain_text([f"{n} {m}" for n, m in zip(names, marks, strict=True)], fan_out)
    in_flight = None
    for n, m in zip(names, marks, strict=True):
        if m == _IN_FLIGHT:
            in_flight = n
    return len(agents), fallbacks, chain, names[-1], in_flight, final, failed


_MATCHED_RUNTIME = (HashStatus.MATCH, "runtime", "runtime", None)
_MATCHED_DOCUMENTED = (HashStatus.MATCH, "documented", "documented", None)


def _hash_fields(envelope: Any, stored: str, parsed: bool) -> tuple[Any, ...] | None:
    """(status, detected form, matched form, the runtime canonical text if it was written)
    as ``check_envelope_hash`` decides them; None for an envelope that cannot be hashed
    (the general half says why). The text is kept for the harmless-story search.

    The common case first: the stored hash equals the digest of the form its prefix names
    (a digest is written one way only, so that is also the form it is detected as).
    """
    try:
        # The texts hash_verdict's forms hash (``parsed``: the same, without a type walk).
        if stored.startswith(DOCUMENTED_PREFIX):
            canonical = None
            text = (parsed_documented_canonical if parsed else documented_canonical)(envelope)
            digest = DOCUMENTED_PREFIX + sha256_hex(text)
            if stored == digest:
                return _MATCHED_DOCUMENTED
            known = {"documented": digest}  # not again
        else:
            canonical = (parsed_runtime_canonical if parsed else runtime_canonical)(envelope)
            digest = sha256_hex(canonical)
            if stored == digest:
                return _MATCHED_RUNTIME
            known = {"runtime": digest}
        verdict = hash_verdict(envelope, stored, parsed=parsed, known=known)
    except (ValueError, TypeError, RecursionError):
        return None
    return verdict.status, verdict.detected_form, verdict.matched_form, canonical
