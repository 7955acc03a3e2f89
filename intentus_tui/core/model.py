"""The summary and verdict types every layer shares: what a file turned out to be, what
state its execution is in, whether its envelope hash holds, and one execution's summary.

Summaries are built by keyword only (``ExecutionSummary(key=..., ...)``): adding a field
never shifts another, and nothing anywhere depends on the fields' order.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import MISSING, dataclass
from dataclasses import fields as dataclass_fields
from enum import StrEnum
from typing import Any, AnyStr, cast


class LoadStatus(StrEnum):
    """What a file turned out to be."""

    OK = "ok"
    SALVAGED = "salvaged"  # damaged, but some of the record was recovered
    EMPTY = "empty"
    NOT_JSON = "not_json"  # damaged before anything of a record could be recovered
    NOT_RECORD = "not_record"  # valid JSON, but not an execution record
    NOT_UTF8 = "not_utf8"
    TOO_DEEP = "too_deep"
    UNREADABLE = "unreadable"  # permission denied, vanished, I/O error
    NOT_A_FILE = "not_a_file"  # a directory, FIFO, socket or device named *.json
    NO_RECORD = "no_record"  # known only from its write-ahead log: no record file was written
    HEAD_ONLY = "head_only"  # a huge file listed from its head and tail, not read whole

    @property
    def has_record(self) -> bool:
        return self in (LoadStatus.OK, LoadStatus.SALVAGED)

    @property
    def read_no_record(self) -> bool:
        """The file was read and holds no record at all (empty, binary, not JSON, not a
        record, too deep): not one cut short, not one known from its log, not unread."""
        return self in (
            LoadStatus.EMPTY,
            LoadStatus.NOT_UTF8,
            LoadStatus.NOT_JSON,
            LoadStatus.NOT_RECORD,
            LoadStatus.TOO_DEEP,
        )

    @property
    def not_read(self) -> bool:
        """The file was not read at all (a link leading nowhere, or outside the directory
        and not followed; a directory; no permission): nothing says it is damaged."""
        return self in (LoadStatus.UNREADABLE, LoadStatus.NOT_A_FILE)


class ExecutionState(StrEnum):
    COMPLETED = "completed"
    INCOMPLETE = "incomplete"  # no final response: crashed, or still running
    CORRUPTED = "corrupted"  # salvaged from a damaged file, or not usable as a record
    # A huge record listed from its head and tail, whose tail ends like a whole document
    # without showing its final response (a large one starts before the tail): not read.
    UNKNOWN = "unknown"


class HashStatus(StrEnum):
    MATCH = "match"
    MISMATCH = "mismatch"
    UNVERIFIABLE = "unverifiable"
    # A summary's status only: the hash differs, and a harmless story reproduces the
    # stored digest exactly (``HashCheck`` says MISMATCH and gives the story).
    BENIGN = "benign"


class Outcome(StrEnum):
    """What happened to an execution."""

    SUCCEEDED = "succeeded"
    FAILED = "failed"  # the final response (or the WAL's last word) is a failure or an abort
    IN_FLIGHT = "in_flight"  # no final response: it crashed, or it is still running
    UNKNOWN = "unknown"  # nothing believable to go on: damaged, untrusted or contradictory


class Integrity(StrEnum):
    """Whether the recorded evidence can be believed."""

    VERIFIED = "verified"  # the envelope hash (or the WAL's hash chain) checks out
    BENIGN = "benign"  # the hash differs for a harmless reason that reproduces it exactly
    # The hash differs with no harmless story, the record contradicts itself, or (in an
    # evidence bundle) its bytes are not those the manifest sealed.
    TAMPERED = "tampered"
    UNVERIFIABLE = "unverifiable"  # nothing to check against: no hash, a damaged file
    CHAIN_BROKEN = "chain_broken"  # the write-ahead log's hash chain breaks


# The integrities whose evidence cannot be believed: a verdict with one is untrusted.
UNTRUSTED_INTEGRITY = frozenset({Integrity.TAMPERED, Integrity.CHAIN_BROKEN})


def outcome_words(outcome: str, integrity: str) -> str:
    """``Verdict.outcome_words`` from a verdict's JSON values (a ``StrEnum`` member and
    its value are one key: ``"tampered" in UNTRUSTED_INTEGRITY``)."""
    return f"{outcome} (untrusted)" if integrity in UNTRUSTED_INTEGRITY else outcome


# How a damaged record's message begins (``LoadResult.message``, the summary's ``message``).
DAMAGED_RECORD = "Damaged record: "
# How it begins instead when its writer cut it short (``core.verdict.load_words``): what
# IntentusNet 1.3.0 leaves of an error response, not damage done to the file since.
_CUT_WORDS = "cut short by its writer"
CUT_BY_ITS_WRITER = f"{_CUT_WORDS.capitalize()}: "


def salvaged_words(message: str) -> str:
    """What a salvaged record's file is, as its load message tells it: "cut short by its
    writer" (``CUT_BY_ITS_WRITER``), else "salvaged from a damaged file"."""
    return _CUT_WORDS if message.startswith(CUT_BY_ITS_WRITER) else "salvaged from a damaged file"


def break_label(message: str) -> str:
    """The label of where a salvaged record's file breaks, from its load message as told:
    "Cut short" where its writer cut it (``CUT_BY_ITS_WRITER``), else "Damage"."""
    return "Cut short" if message.startswith(CUT_BY_ITS_WRITER) else "Damage"


def recovered_note(message: str) -> str:
    """A comparison's note on a salvaged record, from its load message as told: "cut short
    by its writer, compared what was recovered: file ends at …" (or "damaged record, …")."""
    what = _CUT_WORDS if message.startswith(CUT_BY_ITS_WRITER) else "damaged record"
    return f"{what}, compared what was recovered: {where_it_breaks(message)}"


def recovered_mark(note: str) -> str:
    """A comparison title's mark for a side with ``recovered_note``'s ``note`` (short: a
    title is cut at 120 characters)."""
    if note.startswith(_CUT_WORDS):
        return "cut by its writer: compared what survived"
    return "damaged: compared what was recovered"


def where_it_breaks(message: str) -> str:
    """A salvaged record's load message without how it begins (``DAMAGED_RECORD`` or
    ``CUT_BY_ITS_WRITER``): where the file breaks and what survived; others as they are."""
    for start in (DAMAGED_RECORD, CUT_BY_ITS_WRITER):
        if message.startswith(start):
            return message[len(start) :]
    return message


CANNOT_READ = "Cannot read: "  # how a file that could not be read is said (then why)

# What a file holding no whole record is, in the words its line says it with ("Not UTF-8
# text: …", "File is empty", "Cannot read: …") and verify's "hash not checked (…)": D's
# count of what it cannot offer and the Verify tab's File badge say them.
FILE_WORDS: Mapping[LoadStatus, str] = {
    LoadStatus.EMPTY: "empty",
    LoadStatus.NOT_UTF8: "not UTF-8 text",
    LoadStatus.NOT_JSON: "not a readable record",
    LoadStatus.NOT_RECORD: "not a record",
    LoadStatus.TOO_DEEP: "nested too deeply",
    LoadStatus.UNREADABLE: "cannot be read",
    LoadStatus.NOT_A_FILE: "not a regular file",
}


class ReplayCode(StrEnum):
    """Why an execution can or cannot be replayed: a fixed vocabulary (``counts`` keys)."""

    REPLAYABLE = "replayable"
    EXECUTION_INCOMPLETE = "execution_incomplete"  # no final response was recorded
    RECORDING_FAILURE = "recording_failure"  # a final response exists but was not recorded
    MANUALLY_INVALIDATED = "manually_invalidated"  # an operator marked it not replayable
    MARKED_NOT_REPLAYABLE = "marked_not_replayable"  # the writer gave another reason
    RECORD_CORRUPTED = "record_corrupted"  # a damaged file, not a record, or a malformed one
    NO_RECORD = "no_record"  # known only from its write-ahead log: nothing to replay
    UNTRUSTED = "untrusted"  # the evidence fails its integrity check: investigate first
    # A huge record listed from its head and tail: not checked yet (reading it whole does)
    UNCHECKED = "unchecked"


# What a WAL-only execution whose record file was removed (seen, then gone) says of it.
RECORD_REMOVED = "the record file was removed (seen, then gone)"
# How long after its write-ahead log recorded completion a record may still lack its
# final response while it is being written. A write-ahead writer (the demo's recorder)
# appends execution.completed, then replaces the record; and a reader reads an execution's
# record before its log, so a completion appended in between is seen beside the record
# read just before it. (IntentusNet 1.3.0 saves its record, whole, before it appends the
# completion.) Past this, a record without its final response beside a completed log is
# taken to lack it for good.
CATCH_UP_SECONDS = 5.0
RECORD_CATCHING_UP = (
    "the write-ahead log recorded completion moments ago: the record is still being "
    "written (its final response not saved yet)"
)
# What to do when the evidence fails its integrity check.
INVESTIGATE = "investigate before trusting or replaying anything recorded in it"
# How a write-ahead log without one complete entry (empty, or not a log) ends its reason.
NOTHING_TO_CHECK = "nothing to check"


@dataclass(frozen=True, slots=True)
class Verdict:
    """One execution's three answers, each with its reason: the same on every screen and
    in every command (``core.verdict.verdict_of`` makes it from a summary)."""

    outcome: Outcome
    outcome_reason: str
    integrity: Integrity
    integrity_reason: str
    replay: ReplayCode
    replay_reason: str

    @property
    def replayable(self) -> bool:
        return self.replay is ReplayCode.REPLAYABLE

    @property
    def trusted(self) -> bool:
        """False when the evidence fails its check: no other answer can be believed."""
        return self.integrity not in UNTRUSTED_INTEGRITY

    @property
    def needs_attention(self) -> bool:
        """Anything short of a believable success: what the failures-first view shows."""
        return self.outcome is not Outcome.SUCCEEDED or not self.trusted

    @property
    def outcome_words(self) -> str:
        """The outcome as the command line's text says it: ``unknown (untrusted)`` where
        the evidence fails its check (the debugger's ``⚠ untrusted``), else its value."""
        return outcome_words(self.outcome.value, self.integrity.value)

    def to_json(self) -> dict[str, object]:
        return {
            "outcome": self.outcome.value,
            "outcome_reason": self.outcome_reason,
            "integrity": self.integrity.value,
            "integrity_reason": self.integrity_reason,
            "replayable": self.replayable,
            "replay": self.replay.value,
            "replay_reason": self.replay_reason,
            "needs_attention": self.needs_attention,
        }


def display_id(execution_id: str) -> str:
    """A UUID's first 8 characters (unique enough in practice); other ids (``exec-a1b2c3d4``)
    as they are: the one short form of an id, wherever one is shown."""
    if len(execution_id) == 36 and execution_id.count("-") == 4:
        return execution_id[:8]
    return execution_id


def copy_rank(file_name: AnyStr, execution_id: AnyStr) -> int:
    """Where a file comes among the files that record one execution (one time, one id),
    in every listing of them (``inspect --list`` and its ``--json``, the debugger's list):
    0 for the file named after its id (``X.json``, the one IntentusNet writes), 1 for a
    copy or a renamed file (``X.copy.json``, ``huge.json``). The original comes first,
    then its copies by name, in ``export`` too (``core.export.source``). Names as text or
    as bytes (a listing row's), both of one kind."""
    suffix = _RECORD_SUFFIX if isinstance(file_name, str) else _RECORD_SUFFIX_BYTES
    return 0 if file_name == execution_id + suffix else 1


_RECORD_SUFFIX = ".json"  # records.load's RECORD_SUFFIX (that module imports this one)
_RECORD_SUFFIX_BYTES = _RECORD_SUFFIX.encode()


@dataclass(frozen=True, slots=True, kw_only=True)
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
    wal_chain_ok: bool | None = None  # False: its hash chain breaks; None: no WAL, or unreadable
    hash_story: str | None = None  # the harmless story reproducing a differing hash (BENIGN)
    contradiction: str | None = None  # how the record contradicts itself (its final response)
    final_kind: str | None = None  # what a finalResponse that is not an object is: "a number"
    # Every recorded attempt ended in error and the router's decision (if it names an agent)
    # names one of them: what a record cut short still says of how it ended.
    all_attempts_failed: bool = False
    root: str = ""  # the label of the root it was found in; "" when one root is open
    # Why the record's bytes are not those its evidence bundle's manifest sealed (changed
    # since it was bundled, or never in the manifest), read from the bundle's extracted
    # copy (``core.bundle.seal``): then it cannot be believed, whatever its own checks say.
    bundle_change: str | None = None
    # Known from its WAL alone because its record file, seen while watched, was removed
    # since: evidence gone missing, not a record never written.
    record_removed: bool = False
    # The record has no final response yet, and its write-ahead log recorded completion
    # moments before it was read (``wal_join.CATCH_UP_SECONDS``): a record still being
    # written, not one that lacks its final response for good.
    record_catching_up: bool = False

    @property
    def file_name(self) -> str:
        """The file's name as found (raw: sanitize it to show it): ``key`` without the
        ``LABEL/`` that several roots put before it."""
        return self.key.rpartition("/")[2]

    @property
    def copy_rank(self) -> int:
        """``copy_rank`` of its file: 0 for the file named after its id, 1 for a copy."""
        return copy_rank(self.file_name, self.execution_id)

    @property
    def short_id(self) -> str:
        """``display_id`` of its id."""
        return display_id(self.execution_id)

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


# Fields whose values repeat across a directory (a few intents, agents, chains): decoded
# from JSON each would be a new string; shared, 100,000 summaries hold each value once.
_SHARED = frozenset(
    {
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
        "hash_story",
        "final_kind",
        "root",
    }
)
_shared: dict[str, str] = {}

FIELD_NAMES: tuple[str, ...] = tuple(field.name for field in dataclass_fields(ExecutionSummary))
_FIELD_SET = frozenset(FIELD_NAMES)


# Building summaries fast
# -----------------------
# The frozen ``__init__`` sets each field with ``object.__setattr__`` after
# matching keyword arguments through a dict: 3.9 us a summary, a tenth of a file's
# listing. Here a summary is filled in as an instance of a private twin class with the
# very same slots and no frozen ``__setattr__`` (a plain attribute store each), then
# becomes an ``ExecutionSummary`` by assigning its ``__class__`` (allowed between
# classes of identical layout): 1.2 us. Callers only ever see the finished, frozen
# summary. The functions are generated once (from the field names, as ``dataclasses``
# generates ``__init__``); where the interpreter refuses the class switch they set the
# slots through their descriptors instead, as ``object.__setattr__`` would.


class _SummaryInTheMaking:
    __slots__ = ExecutionSummary.__slots__


def _retypes() -> bool:
    """Whether this interpreter lets a twin become an ``ExecutionSummary``."""
    twin = object.__new__(_SummaryInTheMaking)
    try:
        twin.__class__ = ExecutionSummary  # type: ignore[assignment]
    except TypeError:
        return False
    return type(twin) is ExecutionSummary


_RETYPES = _retypes()


def _generated(source: str, name: str, namespace: dict[str, Any]) -> Any:
    # Only field names (checked against the class) and fixed text go into ``source``.
    exec(compile(source, f"<generated {name}>", "exec"), namespace)
    return namespace[name]


def _namespace() -> dict[str, Any]:
    namespace: dict[str, Any] = {
        "_new": object.__new__,
        "_Twin": _SummaryInTheMaking if _RETYPES else ExecutionSummary,
        "_Summary": ExecutionSummary,
        "_STATES": _STATES,
        "_LOAD_STATUSES": _LOAD_STATUSES,
        "_HASH_STATUSES": _HASH_STATUSES,
        "_share": _shared.setdefault,
    }
    for name in FIELD_NAMES:
        namespace[f"_set_{name}"] = ExecutionSummary.__dict__[name].__set__
    return namespace


def _fill(target: str, name: str, value: str) -> str:
    """One line setting field ``name`` of ``target`` to the expression ``value``."""
    if _RETYPES:
        return f"    {target}.{name} = {value}"
    return f"    _set_{name}({target}, {value})"


def _maker() -> Any:
    params = []
    defaults: dict[str, Any] = {}
    for field in dataclass_fields(ExecutionSummary):
        if field.default is MISSING:
            params.append(field.name)
        else:
            params.append(f"{field.name}=_default_{field.name}")
            defaults[f"_default_{field.name}"] = field.default
    lines = [f"def new_summary(*, {', '.join(params)}):", "    s = _new(_Twin)"]
    lines += [_fill("s", name, name) for name in FIELD_NAMES]
    if _RETYPES:
        lines.append("    s.__class__ = _Summary")
    lines.append("    return s")
    return _generated("\n".join(lines), "new_summary", {**_namespace(), **defaults})


_STATES = {member.value: member for member in ExecutionState}
_LOAD_STATUSES = {member.value: member for member in LoadStatus}
_HASH_STATUSES = {member.value: member for member in HashStatus}

new_summary: Callable[..., ExecutionSummary] = _maker()
"""``ExecutionSummary(...)``, by keyword only with the same defaults, in a third of the
time: for the lane that makes one summary per file."""

# How each field's value comes back from a table (as a worker or the cache sends it):
# enums from their string values (a dict lookup, where calling the enum costs a
# microsecond), repeated strings shared.
_DECODE = {
    "state": "_STATES[{}]",
    "load_status": "_LOAD_STATUSES[{}]",
    "hash_status": "_HASH_STATUSES[{}]",
    **dict.fromkeys(_SHARED, "_share({0}, {0})"),
}


@functools.lru_cache(maxsize=8)
def _table_reader(names: tuple[str, ...]) -> Callable[[Iterable[Sequence[Any]]], list[Any]]:
    """The function rebuilding the summaries of a table with header ``names`` (all the
    fields, checked): one line per field, made once per header."""
    values = [f"v{i}" for i in range(len(names))]
    lines = [
        "def read_table(table):",
        "    out = []",
        "    append = out.append",
        f"    for ({', '.join(values)},) in table:",  # a row too short or long: ValueError
        "        s = _new(_Twin)",
    ]
    for name, value in zip(names, values, strict=True):
        decode = _DECODE.get(name, "{}").format(value)
        lines.append("    " + _fill("s", name, decode))
    if _RETYPES:
        lines.append("        s.__class__ = _Summary")
    lines.append("        append(s)")
    lines.append("    return out")
    return cast(
        "Callable[[Iterable[Sequence[Any]]], list[Any]]",
        _generated("\n".join(lines), "read_table", _namespace()),
    )


def summary_maker(
    names: Sequence[str], fixed: Mapping[str, Any] | None = None
) -> Callable[..., ExecutionSummary]:
    """A function making a summary from one value per field in ``names``, passed
    positionally in that order; ``fixed`` fields get the same value every time, and the
    rest their defaults (every field once: checked here, once). For a hot path with its
    own fixed header, where matching 23 keyword arguments would cost a microsecond a
    call (on 3.11), a tenth of a file's listing."""
    header = tuple(names)
    constants = dict(fixed or {})
    for field in dataclass_fields(ExecutionSummary):
        if field.name not in header and field.name not in constants:
            if field.default is MISSING:
                raise TypeError(f"a summary maker without field {field.name!r}")
            constants[field.name] = field.default
    given = header + tuple(constants)
    if len(given) != len(FIELD_NAMES) or set(given) != _FIELD_SET:
        raise TypeError(f"a summary maker needs every field once, got {given!r}")
    values = [f"v{i}" for i in range(len(header))]
    lines = [f"def make_summary({', '.join(values)}):", "    s = _new(_Twin)"]
    lines += [_fill("s", name, value) for name, value in zip(header, values, strict=True)]
    lines += [_fill("s", name, f"_fixed_{name}") for name in constants]
    if _RETYPES:
        lines.append("    s.__class__ = _Summary")
    lines.append("    return s")
    namespace = _namespace()
    namespace.update((f"_fixed_{name}", value) for name, value in constants.items())
    return cast(
        "Callable[..., ExecutionSummary]",
        _generated("\n".join(lines), "make_summary", namespace),
    )


def summary_from_fields(fields: Mapping[str, Any]) -> ExecutionSummary:
    """A summary from its ``{field: value}`` mapping, as made or after a trip through JSON
    (enums arrive as their string values: a ``StrEnum`` member finds itself by value)."""
    names = tuple(fields)
    if len(names) != len(FIELD_NAMES) or not _FIELD_SET.issuperset(names):
        return ExecutionSummary(**_enums_of(dict(fields)))  # the init says what is wrong
    return cast(ExecutionSummary, _table_reader(names)([tuple(fields.values())])[0])


def _enums_of(values: dict[str, Any]) -> dict[str, Any]:
    for name, kind in (("state", ExecutionState), ("load_status", LoadStatus)):
        if name in values:
            values[name] = kind(values[name])
    if "hash_status" in values:
        values["hash_status"] = HashStatus(values["hash_status"])
    return values


def summaries_from_table(
    names: Sequence[str], table: Iterable[Sequence[Any]]
) -> list[ExecutionSummary]:
    """Summaries from a table: ``names`` (its header: field names, any order) and rows of
    values under them, as a worker process sends a chunk. The header is the only order
    there is: a reader knows nothing of the fields' order in the class.

    Each header gets its own reader (generated once): every field set straight from its
    column, with no per-field loop or lookup.
    """
    header = tuple(names)
    if len(header) != len(FIELD_NAMES) or set(header) != _FIELD_SET:  # the init says
        return [summary_from_fields(dict(zip(header, row, strict=True))) for row in table]
    return cast("list[ExecutionSummary]", _table_reader(header)(table))


def share_repeated(summaries: Iterable[ExecutionSummary]) -> None:
    """Make ``summaries``, just made in this process and seen by no one yet, hold each
    repeated value (``_SHARED``: an intent, an agent, a chain) as the one string every
    other summary holds, as ``summaries_from_table`` does for those a worker sent: each
    record's parse made its own. At 100,000 generated records the scan's own half held
    46,000 copies of each intent, agent, strategy and chain (14 MB; 140 MB at 1,000,000).
    Only sets what a summary was made with, through the slots' own setters."""
    _sharer()(summaries)


@functools.cache
def _sharer() -> Callable[[Iterable[ExecutionSummary]], None]:
    """``share_repeated``, generated: one line per field, no per-field loop or lookup
    (0.6 us a summary, against 2.1 us for a loop over the fields)."""
    lines = ["def share(summaries):", "    for s in summaries:"]
    for name in sorted(_SHARED):
        lines += [
            f"        v = s.{name}",
            f"        if v is not None and (w := _share(v, v)) is not v: _set_{name}(s, w)",
        ]
    return cast(
        "Callable[[Iterable[ExecutionSummary]], None]",
        _generated("\n".join(lines), "share", _namespace()),
    )
