"""Cheap, immutable per-file summaries: what the list view and ``inspect --list`` show.

The index holds summaries, never records. ``summarize`` turns one ``LoadResult`` into an
``ExecutionSummary``; ``DirectoryIndex`` keeps one summary per file and updates only the
files it is told changed, so a live change costs work proportional to that file.
"""

from __future__ import annotations

import gc
import json
import os
from collections import namedtuple
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, fields, replace
from functools import partial
from pathlib import Path
from stat import S_ISREG
from typing import TYPE_CHECKING, Any

import orjson

from intentus_tui.core.index.cache import (
    NO_STAMP,
    STAMP_WIDTH,
    IndexCache,
    Snapshot,
    Stamp,
    Stamps,
    new_stamps,
    packable,
)
from intentus_tui.core.index.parallel import can_fork, map_chunks
from intentus_tui.core.native import event_facts as _native_event_facts
from intentus_tui.core.native import json_row as _native_json_row
from intentus_tui.core.native import new_slotted as _native_new_slotted
from intentus_tui.core.native import record_file_values as _native_record_file
from intentus_tui.core.native import record_values as _native_record_values
from intentus_tui.core.native import stat_stamps as _native_stat_stamps
from intentus_tui.core.native import well_formed_values as _native_well_formed
from intentus_tui.core.records.hashing import (
    DOCUMENTED_PREFIX,
    parsed_documented_canonical,
    parsed_runtime_canonical,
    sha256_hex,
)
from intentus_tui.core.records.load import (
    HUGE_FILE_BYTES,
    RECORD_SUFFIX,
    WAL_SUFFIX,
    LoadResult,
    LoadStatus,
    classify_value,
    has_long_digit_run,
    is_record_name,
    load_record_bytes,
    load_record_file,
    load_record_head,
)
from intentus_tui.core.records.replay import RECORD_CORRUPTED, ReplayEngine
from intentus_tui.core.records.timeline import (
    ExecutionState,
    analyze_attempts,
    decided_agent,
    display_text,
    execution_state,
    final_status,
    normalize_status,
)
from intentus_tui.core.sanitize import json_bytes_safe, sanitize_line

if TYPE_CHECKING:  # the WAL reader is imported when a WAL directory is there to read
    from intentus_tui.core.wal.log import WalLog
from intentus_tui.core.records.verify import (
    HashStatus,
    check_envelope_hash,
    check_event_sequence,
    check_final_response,
    check_structure,
    final_response_problems,
    hash_verdict,
)


@dataclass(frozen=True, slots=True)
class RecordRoot:
    """Where records and write-ahead logs live for one opened location."""

    records_dir: Path
    wal_dir: Path | None
    requested: Path

    def path_of(self, key: str) -> Path:
        """The file behind a summary key: a record file, or the WAL of a WAL-only execution."""
        if key.endswith(WAL_SUFFIX) and self.wal_dir is not None:
            return self.wal_dir / key
        return self.records_dir / key


def resolve_root(path: str | os.PathLike[str] | None = None) -> RecordRoot:
    """Accept an ``.intentusnet`` root, a records directory, or any directory of ``*.json``.

    With no path: ``./.intentusnet/records`` when it exists, else the current directory.
    """
    requested = (Path(path) if path is not None else Path.cwd()).absolute()
    base = requested
    if (path is None and (requested / ".intentusnet").is_dir()) or (
        (requested / ".intentusnet" / "records").is_dir() and not (requested / "records").is_dir()
    ):
        base = requested / ".intentusnet"
    if (base / "records").is_dir():
        wal = base / "wal"
        return RecordRoot(base / "records", wal if wal.is_dir() else None, requested)
    for wal in (base / "wal", base.parent / "wal"):
        if wal.is_dir() and wal != base:
            return RecordRoot(base, wal, requested)
    return RecordRoot(base, None, requested)


@dataclass(frozen=True, slots=True)
class ExecutionSummary:
    """One row of the execution list. Strings are already sanitized for display."""

    key: str  # unique within a directory: the file name (or ``<id>.wal`` for WAL-only)
    execution_id: str
    created: str
    intent: str
    agent: str
    strategy: str
    state: ExecutionState
    load_status: LoadStatus
    message: str
    replayable: bool
    replay_reason: str | None
    hash_status: HashStatus
    hash_form: str  # how the stored hash is written: runtime | documented | unknown | absent
    matched_form: str | None
    event_count: int
    attempts: int
    fallbacks: int
    chain: str
    in_flight_agent: str | None
    final_status: str | None
    problems: int  # sequence + structure problems found
    size: int
    mtime_ns: int
    source: str = "record"  # record | wal | record+wal
    wal_state: str | None = None  # completed | failed | aborted | in_flight | unknown
    wal_problem: str | None = None  # the WAL's chain is broken, or it disagrees with the record

    @property
    def short_id(self) -> str:
        """First 8 characters of a UUID; shorter ids (``exec-a1b2c3d4``) whole."""
        return self.execution_id[:8] if len(self.execution_id) == 36 else self.execution_id

    @property
    def state_label(self) -> str:
        """A single word for filtering and grouping: ``replayable``, a reason, or a state."""
        return state_label_of(self.state, self.replayable, self.replay_reason)


def state_label_of(state: ExecutionState, replayable: bool, replay_reason: str | None) -> str:
    """``ExecutionSummary.state_label`` from the three fields it depends on."""
    if state is ExecutionState.CORRUPTED:
        return "corrupted"
    if state is ExecutionState.INCOMPLETE:
        return "incomplete"
    return "replayable" if replayable else (replay_reason or "not_replayable")


def _clean(value: str | None) -> str:
    if not value:
        return ""
    if value.isascii() and value.isprintable():  # nothing to make visible (checked in C)
        return value
    return sanitize_line(value)


def summarize(result: LoadResult) -> ExecutionSummary:
    """One summary per file, whatever the file turned out to be. Never raises.

    Well-formed records take ``_summarize_well_formed``, one pass over plain dicts; every
    other file takes the general path built from the verify/timeline/replay functions.
    ``tests/test_index_fastpath.py`` proves both give the same summary.
    """
    fast = _fast_values(result)
    if fast is not None:
        return ExecutionSummary(*fast)
    if result.status is LoadStatus.HEAD_ONLY:
        return _summarize_head(result)
    return summarize_general(result)


def summary_values(result: LoadResult) -> tuple[Any, ...]:
    """``summarize``'s field values (what an index worker sends): the fast lanes' values
    without building a summary in between."""
    fast = _fast_values(result)
    return fast if fast is not None else _values_of(summarize(result))


def _fast_values(result: LoadResult) -> tuple[Any, ...] | None:
    """The well-formed or salvaged lane's values, or None when neither takes the file."""
    if result.record is None:
        return None
    if result.status is LoadStatus.OK:
        record = result.record
        return _well_formed_values(
            result.path.name, record.raw, result.stem, result.size, result.mtime_ns, parsed=False
        )
    if result.status is LoadStatus.SALVAGED:
        return _salvaged_values(result)
    return None


def _summarize_salvaged(result: LoadResult) -> ExecutionSummary | None:
    values = _salvaged_values(result) if result.record is not None else None
    return None if values is None else ExecutionSummary(*values)


def _salvaged_values(result: LoadResult) -> tuple[Any, ...] | None:
    """A record cut short whose recovered sections are all well-formed (the common way a
    crash leaves one): the fast lane's values for them, with what the damage decides. The
    general path would find no structure or sequence problem in such sections either."""
    record = result.record
    assert record is not None
    values = _well_formed_values(
        result.path.name, record.raw, result.stem, result.size, result.mtime_ns, parsed=False
    )
    if values is None:
        return None
    damaged = list(values)
    damaged[_STATE] = ExecutionState.CORRUPTED
    damaged[_LOAD_STATUS] = result.status
    damaged[_MESSAGE] = _clean(result.message)
    damaged[_REPLAYABLE] = False
    damaged[_REPLAY_REASON] = RECORD_CORRUPTED
    return tuple(damaged)


_HEAD_STATE = {
    "final_response": ExecutionState.COMPLETED,
    "no_final_response": ExecutionState.INCOMPLETE,
    "truncated": ExecutionState.CORRUPTED,
}


def _summarize_head(result: LoadResult) -> ExecutionSummary:
    """A huge file listed from its head and tail: what is known, and nothing invented."""
    general = summarize_general(result)
    record = result.record
    state = _HEAD_STATE.get(result.tail_hint or "", ExecutionState.CORRUPTED)
    header = record.header if record is not None else None
    if state is ExecutionState.CORRUPTED:
        replayable, reason = False, "record_corrupted"
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
        replay_reason=_clean(reason) or None,
        hash_status=hash_status,
        matched_form=matched,
        problems=0,
    )


def summarize_general(result: LoadResult) -> ExecutionSummary:
    """The summary derived from the detailed checks (the definition of every field)."""
    record = result.record
    stem = result.stem
    if record is None:
        return ExecutionSummary(
            key=result.path.name,
            execution_id=_clean(stem),
            created="",
            intent="",
            agent="",
            strategy="",
            state=ExecutionState.CORRUPTED,
            load_status=result.status,
            message=_clean(result.message),
            replayable=False,
            replay_reason="record_corrupted",
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
    analysis = analyze_attempts(record.events)
    hash_check = check_envelope_hash(record, all_forms=False, explain=False)
    structure = check_structure(record, stem)
    replayable, reason = ReplayEngine(
        record, damaged=result.status is not LoadStatus.OK, structure_ok=structure.record_ok
    ).is_replayable()
    problems = (
        len(check_event_sequence(record).problems)
        + len(structure.problems)
        + len(check_final_response(record))
    )
    last_attempt = analysis.attempts[-1].agent if analysis.attempts else ""
    in_flight = analysis.in_flight
    return ExecutionSummary(
        key=result.path.name,
        execution_id=_clean(record.execution_id or stem),
        created=_clean(record.header.created_utc_iso),
        intent=_clean(record.intent_name),
        agent=decided_agent(record) or last_attempt,
        strategy=_clean(record.strategy),
        state=execution_state(record, result.status),
        load_status=result.status,
        message=_clean(result.message),
        replayable=replayable,
        replay_reason=_clean(reason) or None,
        hash_status=hash_check.status,
        hash_form=hash_check.detected_form,
        matched_form=hash_check.matched_form,
        event_count=len(record.events),
        attempts=len(analysis.attempts),
        fallbacks=len(analysis.fallbacks),
        chain=analysis.chain,
        in_flight_agent=in_flight[-1].agent if in_flight else None,
        final_status=final_status(record),
        problems=problems,
        size=result.size,
        mtime_ns=result.mtime_ns,
    )


_MARKS = {"ok": "✓", "error": "✗", "in_flight": "…"}  # as Attempt.mark


def _attempt_facts(events: list[dict[str, Any]]) -> tuple[int, int, str, str, str | None] | None:
    """(attempts, fallbacks, chain, last agent, in-flight agent) for well-formed events.

    The same pairing as ``timeline.analyze_attempts`` (per agent, latest start first),
    kept to what a list row needs. None when an agent name is not a plain string.
    """
    agents: list[str] = []
    marks: list[str] = []
    open_by_agent: dict[str, list[int]] = {}
    fallbacks = 0
    for event in events:
        kind = event["type"]
        if kind == "FALLBACK_TRIGGERED":
            fallbacks += 1
            continue
        if kind != "AGENT_ATTEMPT_START" and kind != "AGENT_ATTEMPT_END":
            continue
        agent = event["payload"].get("agent")
        if type(agent) is not str:
            return None
        if kind == "AGENT_ATTEMPT_START":
            open_by_agent.setdefault(agent, []).append(len(agents))
            agents.append(agent)
            marks.append("…")
            continue
        stack = open_by_agent.get(agent)
        if stack:
            position = stack.pop()
        else:
            position = len(agents)
            agents.append(agent)
            marks.append("")
        marks[position] = _MARKS.get(normalize_status(event["payload"].get("status")), "?")
    names = [sanitize_line(a) for a in agents]
    chain = " → ".join(f"{n} {m}" for n, m in zip(names, marks, strict=True))
    in_flight = [n for n, m in zip(names, marks, strict=True) if m == "…"]
    return (
        len(agents),
        fallbacks,
        chain,
        names[-1] if names else "",
        in_flight[-1] if in_flight else None,
    )


_EventFacts = tuple[int, int, str, str, str | None, dict[str, Any] | None]


def event_facts_python(events: Any) -> _EventFacts | None:
    """(attempts, fallbacks, chain, last agent, in-flight agent, payload of the last
    ``FINAL_RESPONSE`` event) of well-formed events; None when they are not."""
    if not _well_formed_events(events):
        return None
    facts = _attempt_facts(events)
    if facts is None:
        return None
    final = next((e for e in reversed(events) if e["type"] == "FINAL_RESPONSE"), None)
    return (*facts, final["payload"] if final is not None else None)


def _event_facts(events: Any) -> _EventFacts | None:
    if _native_event_facts is not None:  # the same in one pass, in C (tests prove it)
        return _native_event_facts(events, sanitize_line)
    return event_facts_python(events)


def _well_formed_events(events: Any) -> bool:
    """Every event an object with seq 1..n in order, a string type and an object payload."""
    if type(events) is not list:
        return False
    expected = 1
    for event in events:
        if (
            type(event) is not dict
            or event.get("seq") != expected
            or type(event.get("seq")) is not int
        ):
            return False
        if type(event.get("type")) is not str or type(event.get("payload")) is not dict:
            return False
        expected += 1
    return True


def _summarize_well_formed(result: LoadResult) -> ExecutionSummary | None:
    """The common case, fast: None as soon as anything is unusual."""
    record = result.record
    assert record is not None
    values = _well_formed_values(
        result.path.name, record.raw, result.stem, result.size, result.mtime_ns, parsed=False
    )
    return None if values is None else ExecutionSummary(*values)


_PARSED_MESSAGE = "Record parsed"  # classify_value's message for a record parsed whole


def _well_formed_values(
    key: str, raw: Any, stem: str, size: int, mtime_ns: int, *, parsed: bool
) -> tuple[Any, ...] | None:
    """The summary's field values for a well-formed record, straight from its JSON object
    (no model objects); None as soon as anything is unusual or the hash does not match.

    ``parsed``: ``raw`` is exactly what ``orjson.loads`` returned (its hash needs no walk).
    """
    if _native_well_formed is not None and type(raw) is dict:
        hooks = _NATIVE_HOOKS_PARSED if parsed else _NATIVE_HOOKS_LOADED
        return _native_well_formed(raw, key, stem, size, mtime_ns, hooks)
    return well_formed_values_python(key, raw, stem, size, mtime_ns, parsed=parsed)


def well_formed_values_python(
    key: str, raw: Any, stem: str, size: int, mtime_ns: int, *, parsed: bool
) -> tuple[Any, ...] | None:
    """``_well_formed_values`` in Python: the definition the native twin matches."""
    header, envelope = raw.get("header"), raw.get("envelope")
    if type(header) is not dict or type(envelope) is not dict:
        return None
    events = raw.get("events")
    facts = _event_facts(events)
    if facts is None:
        return None
    execution_id, created = header.get("executionId"), header.get("createdUtcIso")
    flag, reason, stored = (
        header.get("replayable"),
        header.get("replayableReason"),
        header.get("envelopeHash"),
    )
    if type(execution_id) is not str or type(created) is not str or type(flag) is not bool:
        return None
    if type(stored) is not str or execution_id != stem:
        return None
    if reason is not None and type(reason) is not str:
        return None
    intent = envelope.get("intent")
    if type(intent) is not dict:
        return None
    decision, final = raw.get("routerDecision"), raw.get("finalResponse")
    if (decision is not None and type(decision) is not dict) or (
        final is not None and type(final) is not dict
    ):
        return None
    hash_fields = _hash_fields(envelope, stored, parsed)
    if hash_fields is None:
        return None
    attempts, fallbacks, chain, last_agent, in_flight_agent, final_event = facts
    if final is None:
        replayable, why = False, "execution_incomplete"
    elif not final:
        replayable, why = False, "recording_failure"
    elif not flag:
        replayable, why = False, reason or "marked not replayable (no reason given)"
    else:
        replayable, why = True, None
    name, routing = intent.get("name"), envelope.get("routing")
    strategy = routing.get("strategy") if type(routing) is dict else None
    decided = (display_text(decision.get("agent")) or None) if decision is not None else None
    problems = 0
    if final is not None and final_event is not None:
        problems = len(final_response_problems(final, final_event))
    return (
        key,
        _clean(execution_id),
        _clean(created),
        _clean(name) if type(name) is str else "",
        decided or last_agent,
        _clean(strategy) if type(strategy) is str else "",
        ExecutionState.INCOMPLETE if final is None else ExecutionState.COMPLETED,
        LoadStatus.OK,
        _PARSED_MESSAGE,
        replayable,
        _clean(why) or None,
        *hash_fields,
        len(events),
        attempts,
        fallbacks,
        chain,
        in_flight_agent,
        normalize_status(final.get("status")) if final is not None else None,
        problems,
        size,
        mtime_ns,
        "record",  # source, wal_state, wal_problem: the WAL join comes later
        None,
        None,
    )


_MATCHED = {
    "runtime": (HashStatus.MATCH, "runtime", "runtime"),
    "documented": (HashStatus.MATCH, "documented", "documented"),
}


def _hash_fields(envelope: Any, stored: str, parsed: bool) -> tuple[Any, ...] | None:
    """(status, detected form, matched form) as ``check_envelope_hash`` decides them; None
    for an envelope that cannot be hashed (the general path says why).

    The common case first: the stored hash equals the digest of the form its prefix names
    (a digest is written one way only, so that is also the form it is detected as).
    """
    known = None
    try:
        if parsed:
            documented = stored.startswith(DOCUMENTED_PREFIX)
            canonical = (
                parsed_documented_canonical(envelope)
                if documented
                else parsed_runtime_canonical(envelope)
            )
            digest = sha256_hex(canonical)
            written = DOCUMENTED_PREFIX + digest if documented else digest
            if stored == written:
                return _MATCHED["documented" if documented else "runtime"]
            known = {"documented" if documented else "runtime": written}  # not again
        verdict = hash_verdict(envelope, stored, parsed=parsed, known=known)
    except (ValueError, TypeError, RecursionError):
        return None
    return verdict.status, verdict.detected_form, verdict.matched_form


def _native_hooks(parsed: bool) -> tuple[Any, ...]:
    """What the native ``well_formed_values`` calls for rare cases, and the values it
    writes (see ``_speedups.c``)."""
    return (
        partial(_hash_fields, parsed=parsed),
        sanitize_line,
        display_text,
        final_response_problems,
        ExecutionState.INCOMPLETE,
        ExecutionState.COMPLETED,
        LoadStatus.OK,
        _PARSED_MESSAGE,
    )


_NATIVE_HOOKS_PARSED = _native_hooks(parsed=True)
_NATIVE_HOOKS_LOADED = _native_hooks(parsed=False)
# What the native bytes lane (``record_values``) calls: the hooks above, orjson for the
# sub-values the rare cases need, the digest, and the hash fields of a match.
_BYTES_LANE_HOOKS = (
    _NATIVE_HOOKS_PARSED,
    orjson.loads,
    sha256_hex,
    _MATCHED["runtime"],
    _MATCHED["documented"],
)


def bytes_lane_values(
    data: bytes, key: str, stem: str, size: int, mtime_ns: int
) -> tuple[Any, ...] | None:
    """``_well_formed_values(key, orjson.loads(data), ...)`` read straight from the bytes by
    the native lane (no Python objects for the whole record); None when it declines (text
    orjson might read otherwise, a record that is not well-formed) or is not built.
    ``tests/test_bytes_lane.py`` proves it equal to the definition."""
    if _native_record_values is None:
        return None
    return _native_record_values(data, key, stem, size, mtime_ns, _BYTES_LANE_HOOKS)


def load_for_index(path: str | os.PathLike[str]) -> LoadResult:
    """Read a file for listing: whole, unless it is huge (then its head and tail only)."""
    try:
        huge = os.stat(path).st_size > HUGE_FILE_BYTES
    except OSError:
        huge = False
    return load_record_head(path) if huge else load_record_file(path)


def summarize_path(path: Path) -> ExecutionSummary:
    return summarize(load_for_index(path))


def list_record_names(directory: Path) -> list[str]:
    """The name of every candidate record file directly in ``directory``, sorted.

    Names, not ``Path`` objects: building 100,000 of those alone takes a noticeable moment.
    """
    try:
        with os.scandir(directory) as entries:
            names = [e.name for e in entries if is_record_name(e.name)]
    except OSError:
        return []
    names.sort()
    return names


def list_record_paths(directory: Path) -> list[Path]:
    """Every candidate record file directly in ``directory``, sorted by name."""
    return [directory / n for n in list_record_names(directory)]


def summary_to_json(s: ExecutionSummary) -> dict[str, object]:
    """The ``inspect --list --json`` row (snake_case keys). The three states are
    ``StrEnum`` members, so they are their values already (``.value`` would cost a Python
    call each, on every row)."""
    return {
        "execution_id": s.execution_id,
        "file": s.key,  # the real name (JSON output escapes what a terminal would act on)
        "created": s.created or None,
        "intent": s.intent or None,
        "status": s.state,
        "replayable": s.replayable,
        "replayable_reason": s.replay_reason,
        "hash_status": s.hash_status,
        "hash_form": s.hash_form,
        "hash_matched_form": s.matched_form,
        "event_count": s.event_count,
        "attempts": s.attempts,
        "fallbacks": s.fallbacks,
        "agent_chain": s.chain or None,
        "in_flight_agent": s.in_flight_agent,
        "final_status": s.final_status,
        "load_status": s.load_status,
        "message": s.message,
        "problems": s.problems,
        "source": s.source,
        "wal_state": s.wal_state,
        "wal_problem": s.wal_problem,
    }


# summary_to_json for the native json_row: per key, what precedes its value, the field it
# comes from, and whether "" is written as null (the fields written ``or None``).
_ROW_KEYS = (
    ("execution_id", "execution_id", False),
    ("file", "key", False),
    ("created", "created", True),
    ("intent", "intent", True),
    ("status", "state", False),
    ("replayable", "replayable", False),
    ("replayable_reason", "replay_reason", False),
    ("hash_status", "hash_status", False),
    ("hash_form", "hash_form", False),
    ("hash_matched_form", "matched_form", False),
    ("event_count", "event_count", False),
    ("attempts", "attempts", False),
    ("fallbacks", "fallbacks", False),
    ("agent_chain", "chain", True),
    ("in_flight_agent", "in_flight_agent", False),
    ("final_status", "final_status", False),
    ("load_status", "load_status", False),
    ("message", "message", False),
    ("problems", "problems", False),
    ("source", "source", False),
    ("wal_state", "wal_state", False),
    ("wal_problem", "wal_problem", False),
)


def listing_counts(summaries: Iterable[ExecutionSummary]) -> dict[str, int]:
    """How many executions per ``state_label``, sorted by label."""
    counts: dict[str, int] = {}
    for s in summaries:
        label = s.state_label
        counts[label] = counts.get(label, 0) + 1
    return dict(sorted(counts.items()))


def listing_row_lines(summaries: Iterable[ExecutionSummary]) -> Iterator[bytes]:
    """The ``executions`` array's members for ``inspect --list --json``, one line each
    (indented to sit inside the document), made one at a time.

    Every summary string is sanitized; only file names are raw, and the few a terminal
    would act on are escaped (``json_bytes_safe``).
    """
    for summary in summaries:
        yield row_line(summary)


def row_line(summary: ExecutionSummary) -> bytes:
    """One line of ``listing_row_lines``."""
    return row_of_values(_values_of(summary))


def row_of_values(values: Sequence[Any]) -> bytes:
    """``row_line`` of the summary with these field values (a worker has only those)."""
    if _native_json_row is not None:
        line = _native_json_row(_ROW_SPEC, values)
        if line is not None:
            return line
    return python_row_of_values(values)


def python_row_of_values(values: Sequence[Any]) -> bytes:
    """``row_of_values`` in Python (the definition the native ``json_row`` matches)."""
    view: Any = _SummaryView._make(values)  # reads like a summary, costs a tuple
    return json_bytes_safe(b"    " + _row_json(summary_to_json(view)))


def _row_json(row: dict[str, object]) -> bytes:
    try:
        return orjson.dumps(row)
    except orjson.JSONEncodeError:  # a file name with undecodable bytes (lone surrogates)
        text = json.dumps(row, ensure_ascii=False, separators=(",", ":"))
        return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace").encode("utf-8")


def _values_of(summary: ExecutionSummary) -> tuple[Any, ...]:
    return tuple(getattr(summary, f) for f in _FIELDS)


# Below this many files to summarize, worker processes cost more than they save.
PARALLEL_THRESHOLD = 2000
_CHUNK = 128


_FIELDS = tuple(f.name for f in fields(ExecutionSummary))
_Row = tuple[Stamp | None, tuple[Any, ...]]
_SummaryView = namedtuple("_SummaryView", _FIELDS)  # type: ignore[misc]
_STATE, _LOAD_STATUS, _MESSAGE, _REPLAYABLE, _REPLAY_REASON = (
    _FIELDS.index(name)
    for name in ("state", "load_status", "message", "replayable", "replay_reason")
)
_ROW_SPEC = tuple(
    (f'{"    {" if i == 0 else ","}"{key}":'.encode(), _FIELDS.index(field), empty_is_null)
    for i, (key, field, empty_is_null) in enumerate(_ROW_KEYS)
)


def _summarize_chunk(paths: list[str]) -> list[tuple[Stamp | None, tuple[Any, ...], str]]:
    """Worker side: (stamp, summary values, listing row) per file. Plain values cross the
    process boundary cheaply; the row is rendered here too, on the worker's core (a
    listing and the cache both print it)."""
    out = []
    for path in paths:
        stamp, values = _index_file(path)
        out.append((stamp, values, row_of_values(values).decode("utf-8")))
    # The scan runs with the cyclic GC off (it would re-walk every summary kept so far),
    # but a damaged file leaves cycles (an exception and its frames): free this chunk's.
    gc.collect(1)
    return out


def _listing_chunk(paths: list[str]) -> bytes:
    """Worker side of a listing that needs no summaries (``listing_json``): one line of
    per-label counts (JSON), then the chunk's listing rows joined by ``,\\n``."""
    counts: dict[str, int] = {}
    rows = []
    for path in paths:
        values = _index_file(path)[1]
        rows.append(row_of_values(values))
        label = state_label_of(values[_STATE], values[_REPLAYABLE], values[_REPLAY_REASON])
        counts[label] = counts.get(label, 0) + 1
    gc.collect(1)  # as in _summarize_chunk
    return orjson.dumps(counts) + b"\n" + b",\n".join(rows)


def _split_listing_chunk(data: bytes) -> tuple[dict[str, int], bytes]:
    head, _, rows = data.partition(b"\n")
    return orjson.loads(head), rows


def _index_file(path: str) -> _Row:
    """One file's row: the bytes lane when it can, else the fast lane, else the general
    path (never reading or parsing the file twice)."""
    read = _read_for_index(path)
    if read is None:  # a link, a FIFO, a huge or changing file...: the careful reader
        result = load_for_index(path)
        return result.stamp, summary_values(result)
    size, mtime_ns, ctime_ns, inode, data, values = read
    stamp = (size, mtime_ns, ctime_ns, inode)
    if values is not None:  # the bytes lane took it: well-formed text
        return stamp, values
    key = os.path.basename(path)
    stem = key[: -len(RECORD_SUFFIX)] if key.endswith(RECORD_SUFFIX) else key
    parsed, error = _parse(data)
    if type(parsed) is dict:
        row = _well_formed_values(key, parsed, stem, size, mtime_ns, parsed=True)
        if row is not None:
            return stamp, row
    if parsed is not _UNPARSED:
        base: dict[str, Any] = {"size": size, "mtime_ns": mtime_ns, "stamp": stamp}
        result = classify_value(Path(path), parsed, base)
    else:
        result = load_record_bytes(
            Path(path), data, size=size, mtime_ns=mtime_ns, stamp=stamp, orjson_error=error
        )
    return stamp, summary_values(result)


_FileRead = tuple[int, int, int, int, bytes, "tuple[Any, ...] | None"]


def _read_for_index(path: str) -> _FileRead | None:
    """(size, mtime_ns, ctime_ns, inode, bytes, the bytes lane's values or None) of a
    plain regular file read whole; None for anything else. One native call where the
    speed-ups are built (the read and the lane), else ``_read_plain``."""
    if _native_record_file is not None:
        return _native_record_file(path, HUGE_FILE_BYTES, _BYTES_LANE_HOOKS)
    read = _read_plain(path)
    if read is None:
        return None
    data, st = read
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, data, None


_QUICK_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_UNPARSED: Any = object()


def _read_plain(path: str) -> tuple[bytes, os.stat_result] | None:
    """A plain regular file's bytes, read whole in one go; None for anything else."""
    try:
        fd = os.open(path, _QUICK_FLAGS)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not S_ISREG(st.st_mode) or st.st_size > HUGE_FILE_BYTES:
            return None
        data = os.read(fd, st.st_size + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return (data, st) if len(data) == st.st_size else None


def _parse(data: bytes) -> tuple[Any, str | None]:
    """(value, None) from orjson; (_UNPARSED, its error) or (_UNPARSED, None) when the text
    may hold an integer orjson would round (``load_record_bytes`` decides)."""
    if has_long_digit_run(data):
        return _UNPARSED, None
    try:
        return orjson.loads(data), None
    except orjson.JSONDecodeError as exc:
        return _UNPARSED, str(exc)


def _quick_values(path: str, raw: dict[str, Any], st: os.stat_result) -> tuple[Any, ...] | None:
    key = os.path.basename(path)
    stem = key[: -len(RECORD_SUFFIX)] if key.endswith(RECORD_SUFFIX) else key
    return _well_formed_values(key, raw, stem, st.st_size, st.st_mtime_ns, parsed=True)


def _quick_row(path: str) -> _Row | None:
    """The index's fast lane alone: one read, one ``orjson.loads``, one pass over the object.

    Only a plain regular file that parses whole into a well-formed record takes it; for
    anything else (a link, a FIFO, a huge or changing file, damage, ...) it returns None
    and ``_index_file`` takes the general path. ``tests/test_index_fastpath.py`` proves
    both lanes give the same summary.
    """
    read = _read_plain(path)
    if read is None:
        return None
    data, st = read
    parsed, _ = _parse(data)
    values = _quick_values(path, parsed, st) if type(parsed) is dict else None
    if values is None:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino), values


_ENUM_FIELDS = tuple(
    (_FIELDS.index(name), {member.value: member for member in kind})
    for name, kind in (
        ("state", ExecutionState),
        ("load_status", LoadStatus),
        ("hash_status", HashStatus),
    )
)


# Fields whose values repeat across a directory (a few intents, agents, chains): decoded
# from JSON each would be a new string; shared, 100,000 summaries hold each value once.
_SHARED_FIELDS = tuple(
    _FIELDS.index(name)
    for name in (
        "intent",
        "agent",
        "strategy",
        "message",
        "replay_reason",
        "hash_form",
        "matched_form",
        "chain",
        "in_flight_agent",
        "final_status",
        "source",
    )
)
_shared: dict[str, str] = {}


def _summary_of(values: list[Any] | tuple[Any, ...]) -> ExecutionSummary:
    """A summary from its field values, as made or after a trip through JSON (lists for
    tuples, strings for enums: a ``StrEnum`` member finds itself by its value)."""
    values = list(values)
    for index, members in _ENUM_FIELDS:
        values[index] = members[values[index]]
    share = _shared.setdefault
    for index in _SHARED_FIELDS:
        value = values[index]
        if value is not None:
            values[index] = share(value, value)
    # A frozen dataclass's __init__ sets each field through object.__setattr__; setting
    # the slots directly builds the same (still frozen) object in half the time (in C, in
    # a tenth), which counts when a warm open rebuilds 100,000 summaries.
    if _native_new_slotted is not None:
        return _native_new_slotted(ExecutionSummary, _SLOT_MEMBERS, values)
    return summary_from_slots(values)


def summary_from_slots(values: list[Any]) -> ExecutionSummary:
    """``_summary_of``'s last step in Python (the native ``new_slotted`` does the same)."""
    summary = _new_object(ExecutionSummary)
    for set_slot, value in zip(_SLOT_SETTERS, values, strict=True):
        set_slot(summary, value)
    return summary


_new_object = object.__new__
_SLOT_MEMBERS = tuple(ExecutionSummary.__dict__[name] for name in _FIELDS)
_SLOT_SETTERS = tuple(member.__set__ for member in _SLOT_MEMBERS)


_Built = tuple[Stamp | None, ExecutionSummary, bytes]


def _rebuild(rows: list[Any]) -> list[_Built]:
    """``_summarize_chunk`` rows as (stamp, summary, row line), however they travelled."""
    return [
        (tuple(st) if st is not None else None, _summary_of(values), line.encode("utf-8"))
        for st, values, line in rows
    ]


def _summarize_many(names: list[str], workers: int | None) -> Iterator[list[_Built]]:
    """Summaries of ``names`` (full paths) in batches, on every core for a big directory."""
    yield from map_chunks(_summarize_chunk, _rebuild, _chunks(names), _cores(names, workers))


def _chunks(names: list[str]) -> list[list[str]]:
    return [names[i : i + _CHUNK] for i in range(0, len(names), _CHUNK)]


def _cores(names: list[str], workers: int | None) -> int:
    if len(names) < PARALLEL_THRESHOLD:
        return 1  # below this, starting helpers costs more than it saves
    return workers if workers is not None else (os.cpu_count() or 1)


def _stored_values(snapshot: Snapshot | None) -> list[list[Any]] | None:
    """The survey's snapshot's summaries (its names and stamps are already loaded), or
    None when there is none or its file is damaged."""
    if snapshot is None:
        return None
    try:
        values = [item for chunk in snapshot.summary_chunks() for item in chunk]
    except (OSError, ValueError):
        return None
    return values if len(values) == len(snapshot.names) else None


def _keep_unchanged(
    survey: _Survey,
    old: Snapshot,
    old_values: list[list[Any]],
    prefix: str,
    fresh: list[ExecutionSummary],
    stamps: dict[str, Stamp],
) -> list[str]:
    """Add to ``fresh`` (and ``stamps``) the snapshot's summary of every file whose stamp
    is unchanged; return the paths of the others, to read."""
    known = {name: i for i, name in enumerate(old.names)}
    todo: list[str] = []
    width = STAMP_WIDTH
    for i, name in enumerate(survey.names):
        stamp = tuple(survey.stamps[width * i : width * (i + 1)])
        j = known.get(name)
        if (
            j is not None
            and stamp != NO_STAMP
            and tuple(old.stamps[width * j : width * (j + 1)]) == stamp
        ):
            fresh.append(_summary_of(old_values[j]))
            stamps[name] = stamp
        else:
            todo.append(prefix + name)
    return todo


@dataclass(frozen=True, slots=True)
class _Survey:
    """A directory's record files and their stamps now, and the snapshot of last time."""

    listing: list[str]
    names: list[str]
    stamps: Stamps
    snapshot: Snapshot | None

    @property
    def fresh(self) -> bool:
        """Nothing changed: same files, same stamps, and every file could be stat'ed."""
        snapshot = self.snapshot
        return (
            snapshot is not None
            and snapshot.names == self.names
            and snapshot.stamps == self.stamps
            and NO_STAMP[0] not in self.stamps[::STAMP_WIDTH]  # sizes: -1 marks NO_STAMP
        )


def _listdir(directory: Path) -> list[str]:
    try:
        return os.listdir(directory)
    except OSError:
        return []


# Below this many files, a second process to stat them costs more than it saves.
PARALLEL_STAT_THRESHOLD = 20_000


def _record_names(listing: list[str]) -> list[str]:
    return sorted(n for n in listing if is_record_name(n))


def stat_names(directory: Path, names: list[str], workers: int | None = None) -> Stamps:
    """Each file's stamp (following a link, as reading does; ``NO_STAMP`` where it cannot
    be stat'ed), packed. A stat costs a few microseconds of system time and there may be
    100,000 of them: a big directory is split with a forked helper when that is safe."""
    try:
        directory_fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return _stamps_of([os.path.join(directory, name) for name in names], None)
    try:
        return _stat_split(names, directory_fd, workers)
    finally:
        os.close(directory_fd)


def _stat_split(names: list[str], directory_fd: int, workers: int | None) -> Stamps:
    cores = workers if workers is not None else (os.cpu_count() or 1)
    if len(names) < PARALLEL_STAT_THRESHOLD or cores <= 1 or not can_fork():
        return _stamps_of(names, directory_fd)
    half = len(names) // 2
    ours, theirs = names[:half], names[half:]
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the helper: stat the second half, send it packed, leave without cleanup
        status = 0
        try:
            os.close(read_end)
            with os.fdopen(write_end, "wb") as out:
                out.write(_stamps_of(theirs, directory_fd).tobytes())
        except BaseException:
            status = 1
        finally:
            os._exit(status)
    os.close(write_end)
    stamps = _stamps_of(ours, directory_fd)
    with os.fdopen(read_end, "rb") as incoming:
        data = incoming.read()
    os.waitpid(pid, 0)
    if len(data) != len(theirs) * STAMP_WIDTH * stamps.itemsize:
        return _stamps_of(names, directory_fd)  # the helper failed: do it all here
    stamps.frombytes(data)
    return stamps


def _stamps_of(names: list[str], directory_fd: int | None) -> Stamps:
    """Stamps of ``names`` (relative to ``directory_fd``, or paths when it is None), as
    ``cache.packable`` packs them: the inner loop of a re-open, in C where it is built."""
    if _native_stat_stamps is not None and directory_fd is not None:
        out = new_stamps()  # the same loop in C: the system calls alone
        out.frombytes(_native_stat_stamps(directory_fd, names))
        return out
    return stamps_of_python(names, directory_fd)


def stamps_of_python(names: list[str], directory_fd: int | None) -> Stamps:
    """``_stamps_of`` in Python (the definition of the native ``stat_stamps``)."""
    out = new_stamps()
    add = out.extend
    stat = os.stat
    for name in names:
        try:
            st = stat(name, dir_fd=directory_fd)
        except OSError:  # vanished, unreadable, a dangling link: read (and explain) it
            add(NO_STAMP)
            continue
        stamp = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
        try:
            add(stamp)
        except OverflowError:  # a time after 2262 or a high inode: see ``cache.Stamps``
            del out[len(out) - len(out) % STAMP_WIDTH :]  # what ``extend`` appended
            add(packable(stamp))
    return out


# ------------------------------------------------------------------ the WAL join


def _stem(key: str) -> str:
    return key[: -len(".json")] if key.endswith(".json") else key


def wal_only_summary(log: WalLog) -> ExecutionSummary:
    """An execution known only from its WAL: it crashed before any record was written."""
    step = log.in_flight_step
    return ExecutionSummary(
        key=f"{log.execution_id}{WAL_SUFFIX}",
        execution_id=_clean(log.execution_id),
        created=_clean(log.entries[0].timestamp_iso) if log.entries else "",
        intent=_clean(log.intent_name),
        agent=_clean(step.agent) if step and step.agent else "",
        strategy="",
        state=ExecutionState.INCOMPLETE,
        load_status=LoadStatus.NO_RECORD,
        message=_clean(f"No record file; write-ahead log: {log.message}"),
        replayable=False,
        replay_reason="execution_incomplete",
        hash_status=HashStatus.UNVERIFIABLE,
        hash_form="absent",
        matched_form=None,
        event_count=len(log.entries),
        attempts=len(log.steps),
        fallbacks=len(log.fallbacks),
        chain=" → ".join(_clean(s.agent or s.step_id) for s in log.steps),
        in_flight_agent=_clean(step.agent or step.step_id) if step else None,
        final_status=None,
        problems=0 if log.chain_valid else 1,
        size=log.size_bytes,
        mtime_ns=0,
        source="wal",
        wal_state=log.state,
        wal_problem=_wal_chain_problem(log),
    )


def _wal_chain_problem(log: WalLog) -> str | None:
    if log.chain_valid:
        return None
    issue = log.first_issue
    detail = f"line {issue.line_no}: {issue.kind}" if issue else log.message
    return _clean(f"WAL chain broken ({detail})")


def wal_disagreement(summary: ExecutionSummary, log: WalLog) -> str | None:
    """Where a record and its WAL tell different stories (or the WAL is damaged)."""
    chain = _wal_chain_problem(log)
    if chain:
        return chain
    completed = summary.state is ExecutionState.COMPLETED
    if completed and log.state == "in_flight":
        return "record has a final response but the WAL never recorded the end of the execution"
    if summary.state is ExecutionState.INCOMPLETE and log.state == "completed":
        return "WAL says the execution completed but the record has no final response"
    if completed and log.state in ("failed", "aborted") and summary.final_status == "ok":
        return f"record says success but the WAL says {log.state}"
    return None


def with_wal(summary: ExecutionSummary, log: WalLog) -> ExecutionSummary:
    in_flight = summary.in_flight_agent
    step = log.in_flight_step
    if in_flight is None and step is not None and summary.state is ExecutionState.INCOMPLETE:
        # A partial record may stop before the attempt began: the WAL knows what ran.
        in_flight = _clean(step.agent or step.step_id)
    return replace(
        summary,
        source="record+wal",
        wal_state=log.state,
        wal_problem=wal_disagreement(summary, log),
        in_flight_agent=in_flight,
    )


class DirectoryIndex:
    """Summaries of one opened location: record files joined with write-ahead logs.

    ``scan``/``scan_batches`` read everything once (in parallel, through the cache);
    ``update`` re-reads only the paths it is given, so a live change costs work
    proportional to that file, not to the directory.
    """

    def __init__(
        self,
        root: RecordRoot,
        *,
        use_cache: bool = True,
        workers: int | None = None,
        keep_rows: bool = False,
    ) -> None:
        """``keep_rows``: keep the listing rows the workers rendered for
        ``listing_lines`` (a command line listing); otherwise they are dropped after the
        scan (they cost about as much memory as the summaries)."""
        self.root = root
        self._use_cache = use_cache
        self._workers = workers
        self._records: dict[str, ExecutionSummary] = {}  # file name -> summary, un-joined
        self._wals: dict[str, WalLog] = {}  # execution id -> log
        self._survey_ahead: _Survey | None = None
        self._keep_rows = keep_rows
        self._lines: dict[str, bytes] = {}  # file name -> listing row rendered by a worker

    # -- reading everything

    def fresh_listing_json(self) -> tuple[dict[str, int], Path] | None:
        """The counts and the file of ``inspect --list --json`` rows in the cache, when no
        record file changed since they were written and there are no WALs to join."""
        if not self._use_cache or self.root.wal_dir is not None:
            return None
        cache = IndexCache()
        try:
            survey = self._survey(cache, self.root.records_dir.resolve())
        finally:
            cache.close()
        self._survey_ahead = survey  # a scan that follows need not list and stat again
        snapshot = survey.snapshot
        if survey.fresh and snapshot is not None:
            return snapshot.counts, snapshot.rows_path
        return None

    def listing_json(self) -> tuple[dict[str, int], list[bytes]] | None:
        """The counts and blocks of rows of ``inspect --list --json`` made by the workers
        alone, when nothing needs the summaries themselves: no cache to fill and no WAL
        to join (None otherwise). The parent only joins what the workers send, in order.
        """
        if self._use_cache or self.root.wal_dir is not None:
            return None
        prefix = os.path.join(self.root.records_dir, "")
        names = [prefix + name for name in _record_names(_listdir(self.root.records_dir))]
        counts: dict[str, int] = {}
        blocks = []
        parts = map_chunks(
            _listing_chunk,
            _split_listing_chunk,
            _chunks(names),
            _cores(names, self._workers),
            ordered=True,
        )
        for chunk_counts, rows in parts:
            for label, count in chunk_counts.items():
                counts[label] = counts.get(label, 0) + count
            blocks.append(rows)
        return dict(sorted(counts.items())), blocks

    def _survey(self, cache: IndexCache | None, resolved: Path) -> _Survey:
        """List the directory and stat every record file; compare with the snapshot."""
        directory = self.root.records_dir
        listing = _listdir(directory)
        snapshot = cache.load(resolved) if cache else None
        if snapshot is not None and snapshot.listing == listing:
            names = snapshot.names  # same entries: no need to filter and sort them again
        else:
            names = _record_names(listing)
        # Stamps only serve to compare with a snapshot: with none, every file is read and
        # its stamp taken by fstat as it is (100,000 stats saved on a first open).
        stamps = stat_names(directory, names, self._workers) if snapshot else new_stamps()
        return _Survey(listing, names, stamps, snapshot)

    def scan_batches(self) -> Iterator[list[ExecutionSummary]]:
        """Fill the index, yielding batches as they are ready.

        Batches are upserts by ``key``: the last batch re-sends records joined with their
        WALs, and adds WAL-only executions.
        """
        resolved = self.root.records_dir.resolve()
        self._records = {}
        cache = IndexCache() if self._use_cache else None
        # 100,000 summaries are 100,000 tracked objects: each full collection would walk
        # them all again, for nothing (summaries hold no cycles). Collect once at the end.
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            survey, self._survey_ahead = self._survey_ahead, None
            if survey is None:
                survey = self._survey(cache, resolved)
            yield from self._read_records(survey, cache, resolved)
        finally:
            if cache is not None:
                cache.close()
            if gc_was_enabled:
                gc.enable()
            if not self._keep_rows:
                self._lines = {}
        self._wals = {}
        if self.root.wal_dir is not None:
            from intentus_tui.core.wal.log import scan_wal_dir

            self._wals = scan_wal_dir(self.root.wal_dir)
        joined = [self._view(execution_id) for execution_id in self._wals]
        if joined:
            yield [s for s in joined if s is not None]

    def _read_records(
        self, survey: _Survey, cache: IndexCache | None, resolved: Path
    ) -> Iterator[list[ExecutionSummary]]:
        """Summaries from the snapshot where a file's stamp is unchanged, read otherwise;
        then a new snapshot if anything changed."""
        if survey.fresh and survey.snapshot is not None:
            # Nothing changed: no file to compare one by one, nothing to store.
            done = yield from self._fresh_chunks(survey.snapshot)
            if done == len(survey.names):
                return
            self._records = {}  # a damaged summaries file: read everything instead
        old, old_values = survey.snapshot, _stored_values(survey.snapshot)
        prefix = os.path.join(self.root.records_dir, "")
        stamps: dict[str, Stamp] = {}
        fresh: list[ExecutionSummary] = []
        if old is None or old_values is None:
            old = None  # no snapshot, or its summaries are damaged: read every file
            todo = [prefix + name for name in survey.names]
        else:
            todo = _keep_unchanged(survey, old, old_values, prefix, fresh, stamps)
        if fresh:
            self._records.update((s.key, s) for s in fresh)
            yield fresh
        for batch in _summarize_many(todo, self._workers):
            for read_stamp, summary, line in batch:  # as fstat saw the file when it was read
                stamps[summary.key] = packable(read_stamp)
                self._lines[summary.key] = line
            summaries = [s for _, s, _ in batch]
            self._records.update((s.key, s) for s in summaries)
            yield summaries
        if cache is not None and (todo or old is None or old.names != survey.names):
            self._store(cache, resolved, survey.listing, stamps)

    def _fresh_chunks(self, snapshot: Snapshot) -> Generator[list[ExecutionSummary], None, int]:
        """Every summary of an unchanged snapshot, a stored chunk at a time; returns how
        many came (fewer than the names if the file turns out damaged)."""
        count = 0
        try:
            for chunk in snapshot.summary_chunks():
                summaries = [_summary_of(values) for values in chunk]
                count += len(summaries)
                self._records.update((s.key, s) for s in summaries)
                yield summaries
        except (OSError, ValueError, TypeError, IndexError, KeyError):
            return -1
        return count

    def _store(
        self, cache: IndexCache, resolved: Path, listing: list[str], stamps: dict[str, Stamp]
    ) -> None:
        names = sorted(self._records)
        summaries = [self._records[n] for n in names]
        packed = new_stamps()
        for name in names:
            packed.extend(stamps.get(name, NO_STAMP))
        cache.store(
            resolved,
            listing=listing,
            names=names,
            stamps=packed,
            counts=listing_counts(summaries),
            rows=(self._lines.get(s.key) or row_line(s) for s in summaries),
            summaries=(_values_of(s) for s in summaries),
        )

    def listing_lines(self) -> Iterator[bytes]:
        """The current view as ``inspect --list --json`` rows (``listing_row_lines``),
        reusing the rows the workers rendered where the summary is still theirs."""
        for summary in self.summaries():
            line = self._lines.get(summary.key) if summary.source == "record" else None
            yield line or row_line(summary)

    def scan(self) -> list[ExecutionSummary]:
        for _ in self.scan_batches():
            pass
        return self.summaries()

    def summaries(self) -> list[ExecutionSummary]:
        """The current view, sorted by key."""
        if not self._wals:  # nothing to join
            return [self._records[k] for k in sorted(self._records)]
        view = {key: self._view(_stem(key)) or summary for key, summary in self._records.items()}
        for execution_id in self._wals:
            joined = self._view(execution_id)
            if joined is not None:
                view[joined.key] = joined
        return [view[k] for k in sorted(view)]

    def _view(self, execution_id: str) -> ExecutionSummary | None:
        record = self._records.get(f"{execution_id}.json")
        log = self._wals.get(execution_id)
        if log is None:
            return record
        return with_wal(record, log) if record is not None else wal_only_summary(log)

    # -- live updates

    def update(self, paths: Iterable[Path]) -> tuple[list[ExecutionSummary], list[str]]:
        """Re-read only ``paths``; return (changed or new summaries, removed keys)."""
        before: dict[str, ExecutionSummary | None] = {}
        for path in paths:
            execution_id = self._apply(path)
            if execution_id is not None and execution_id not in before:
                before[execution_id] = None
        changed: list[ExecutionSummary] = []
        removed: list[str] = []
        for execution_id in before:
            view = self._view(execution_id)
            for key in (f"{execution_id}.json", f"{execution_id}{WAL_SUFFIX}"):
                if view is None or view.key != key:
                    removed.append(key)
            if view is not None:
                changed.append(view)
        return changed, removed

    def _apply(self, path: Path) -> str | None:
        """Re-read one changed path into the index; return the execution id it concerns."""
        if path.parent == self.root.records_dir and is_record_name(path.name):
            self._lines.pop(path.name, None)
            if os.path.lexists(path):
                self._records[path.name] = summarize_path(path)
            else:
                self._records.pop(path.name, None)
            return _stem(path.name)
        wal_dir = self.root.wal_dir
        if wal_dir is not None and path.parent == wal_dir and path.name.endswith(WAL_SUFFIX):
            execution_id = path.name[: -len(WAL_SUFFIX)]
            if os.path.lexists(path):
                from intentus_tui.core.wal.log import read_wal

                self._wals[execution_id] = read_wal(path)
            else:
                self._wals.pop(execution_id, None)
            return execution_id
        return None


def scan_root(
    root: RecordRoot, *, use_cache: bool = True, workers: int | None = None
) -> list[ExecutionSummary]:
    """Summaries of every execution in ``root`` (records joined with WALs), sorted by key."""
    return DirectoryIndex(root, use_cache=use_cache, workers=workers).scan()
