"""The summary and verdict types every layer shares: what a file turned out to be, what
state its execution is in, whether its envelope hash holds, and one execution's summary.

Summaries are built by keyword only (``ExecutionSummary(key=..., ...)``): adding a field
never shifts another, and nothing anywhere depends on the fields' order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from enum import StrEnum
from typing import Any


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


class ExecutionState(StrEnum):
    COMPLETED = "completed"
    INCOMPLETE = "incomplete"  # no final response: crashed, or still running
    CORRUPTED = "corrupted"  # salvaged from a damaged file, or not usable as a record


class HashStatus(StrEnum):
    MATCH = "match"
    MISMATCH = "mismatch"
    UNVERIFIABLE = "unverifiable"


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


# Fields whose values repeat across a directory (a few intents, agents, chains): decoded
# from JSON each would be a new string; shared, 100,000 summaries hold each value once.
_SHARED = (
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
_shared: dict[str, str] = {}


def summary_from_fields(fields: Mapping[str, Any]) -> ExecutionSummary:
    """A summary from its ``{field: value}`` mapping, as made or after a trip through JSON
    (enums arrive as their string values: a ``StrEnum`` member finds itself by value).

    Every field by name, each set once through its slot: what the frozen ``__init__``
    does, without matching 26 keyword arguments whose names orjson made (not interned,
    each would be compared character by character: three times the cost, which counts
    when 100,000 summaries come back from workers or the cache).
    """
    if fields.keys() != _SLOT_SETTERS.keys():  # a missing or unknown field: the init says
        return ExecutionSummary(**_enums_of(dict(fields)))
    summary = _new_summary(ExecutionSummary)
    setters = _SLOT_SETTERS
    for name, value in fields.items():
        setters[name](summary, value)
    _SET_STATE(summary, _STATES[fields["state"]])  # KeyError for an unknown value
    _SET_LOAD_STATUS(summary, _LOAD_STATUSES[fields["load_status"]])
    _SET_HASH_STATUS(summary, _HASH_STATUSES[fields["hash_status"]])
    share = _shared.setdefault
    for name in _SHARED:
        value = fields[name]
        if value is not None:
            setters[name](summary, share(value, value))
    return summary


def _enums_of(values: dict[str, Any]) -> dict[str, Any]:
    for name, kind in (("state", ExecutionState), ("load_status", LoadStatus)):
        if name in values:
            values[name] = kind(values[name])
    if "hash_status" in values:
        values["hash_status"] = HashStatus(values["hash_status"])
    return values


_new_summary = object.__new__
_SLOT_SETTERS = {
    field.name: ExecutionSummary.__dict__[field.name].__set__
    for field in dataclass_fields(ExecutionSummary)
}
_SET_STATE = _SLOT_SETTERS["state"]
# Members by value: a dict lookup, where calling the enum costs a microsecond each.
_STATES = {member.value: member for member in ExecutionState}
_LOAD_STATUSES = {member.value: member for member in LoadStatus}
_HASH_STATUSES = {member.value: member for member in HashStatus}
_SET_LOAD_STATUS = _SLOT_SETTERS["load_status"]
_SET_HASH_STATUS = _SLOT_SETTERS["hash_status"]


FIELD_NAMES: tuple[str, ...] = tuple(_SLOT_SETTERS)


def summaries_from_table(
    names: Sequence[str], table: Iterable[Sequence[Any]]
) -> list[ExecutionSummary]:
    """Summaries from a table: ``names`` (its header: field names, any order) and rows of
    values under them, as a worker process sends a chunk. The header is the only order
    there is: a reader knows nothing of the fields' order in the class.

    Set through the slots as ``summary_from_fields`` does, with each field's setter found
    once per table (half the cost of one mapping per summary).
    """
    if sorted(names) != sorted(FIELD_NAMES):  # a field missing or unknown: the init says
        return [summary_from_fields(dict(zip(names, row, strict=True))) for row in table]
    setters = [_SLOT_SETTERS[name] for name in names]
    state, load_status, hash_status = (
        names.index("state"),
        names.index("load_status"),
        names.index("hash_status"),
    )
    shared = [(i, setters[i]) for i, name in enumerate(names) if name in _SHARED]
    share = _shared.setdefault
    out = []
    for row in table:
        summary = _new_summary(ExecutionSummary)
        for set_field, value in zip(setters, row, strict=True):
            set_field(summary, value)
        _SET_STATE(summary, _STATES[row[state]])
        _SET_LOAD_STATUS(summary, _LOAD_STATUSES[row[load_status]])
        _SET_HASH_STATUS(summary, _HASH_STATUSES[row[hash_status]])
        for i, set_field in shared:
            value = row[i]
            if value is not None:
                set_field(summary, share(value, value))
        out.append(summary)
    return out


def summaries_from_mappings(chunk: Sequence[Mapping[str, Any]]) -> list[ExecutionSummary]:
    """``summary_from_fields`` of each mapping; as one table (``summaries_from_table``)
    when they all list their fields in the same order, as one writer writes them."""
    if not chunk:
        return []
    header = tuple(chunk[0])
    if all(tuple(fields) == header for fields in chunk):
        return summaries_from_table(header, [tuple(fields.values()) for fields in chunk])
    return [summary_from_fields(fields) for fields in chunk]
