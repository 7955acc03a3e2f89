"""Compare two executions: record against record, and the first divergence of two event streams.

``compare_records(a, b)`` diffs the sections that describe *what happened* (``envelope``,
``routerDecision``, ``events``, ``finalResponse``) with the Verist diff, sums it up for a person
(same intent? same agent path? same response? same envelope hash?) and finds the first event
where the two streams part. The ``header`` is left out of the section diffs on purpose: its
execution id and creation time differ between any two executions; its envelope hash is
compared in the summary.

``find_divergence`` is the event-stream comparison shared with Active Graph runs. It is
stricter than Active Graph's strict replay, which compares event *types* only: two streams
diverge at the first position where the types differ (``type``), where one stream has ended
(``length``), or where the types agree but anything else in the event differs (``payload``).

Nothing here raises on a malformed record: a missing section is ``MISSING``, a section of the
wrong type is compared as it is, and events that are not objects are compared whole.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeAlias, TypeVar

import orjson

from intentus_tui.core.verist.diff import DiffEntry, DiffResult, diff
from intentus_tui.core.verist.key_by import KeyFn, key_by
from intentus_tui.core.verist.missing import MISSING

__all__ = [
    "RECORD_SECTIONS_COMPARED",
    "ComparisonSummary",
    "Divergence",
    "DivergenceKind",
    "RecordComparison",
    "agent_path",
    "compare_records",
    "compare_values",
    "find_divergence",
    "first_divergence",
]

E = TypeVar("E")
DivergenceKind: TypeAlias = Literal["type", "length", "payload"]

# (section key in the record, attribute name on RecordComparison)
RECORD_SECTIONS_COMPARED: tuple[tuple[str, str], ...] = (
    ("envelope", "envelope"),
    ("routerDecision", "router_decision"),
    ("events", "events"),
    ("finalResponse", "final_response"),
)
_EQUAL = DiffResult(True, ())


@dataclass(frozen=True, slots=True)
class Divergence(Generic[E]):
    """Where two event streams first part.

    ``index`` is the 0-based position in both streams. ``event_a``/``event_b`` are the events at
    that position (``None`` on the side that has already ended, for ``length``). For ``payload``,
    ``payload_diff`` says what differs between the two events' bodies.
    """

    index: int
    kind: DivergenceKind
    event_a: E | None
    event_b: E | None
    seq_a: int | None
    seq_b: int | None
    type_a: str | None
    type_b: str | None
    payload_diff: DiffResult | None = None

    def describe(self) -> str:
        """One line for a person (raw text: sanitize before printing)."""
        where = f"event #{self.index + 1} (seq {_seq_text(self.seq_a)} / {_seq_text(self.seq_b)})"
        if self.kind == "length":
            if self.type_a is None:
                return f"{where}: A ends, B goes on with {self.type_b}"
            return f"{where}: B ends, A goes on with {self.type_a}"
        if self.kind == "type":
            return f"{where}: type {self.type_a} in A, {self.type_b} in B"
        count = len(self.payload_diff.entries) if self.payload_diff is not None else 0
        plural = "" if count == 1 else "s"
        return f"{where}: same type {self.type_a}, payload differs ({count} change{plural})"


def _seq_text(seq: int | None) -> str:
    return "-" if seq is None else str(seq)


def _surely_equal(a: Any, b: Any) -> bool:
    """A cheap yes for equal JSON values; False means "walk them" (Python's == says True == 1,
    orjson's bytes do not; orjson writes NaN as null, == does not confuse those)."""
    try:
        return bool(a == b) and orjson.dumps(a) == orjson.dumps(b)
    except (TypeError, RecursionError):
        return False


def find_divergence(
    a: Sequence[E],
    b: Sequence[E],
    *,
    type_of: Callable[[E], str],
    body_of: Callable[[E], Any],
    seq_of: Callable[[E], int | None],
) -> Divergence[E] | None:
    """The first position where ``a`` and ``b`` differ by type, by length or by body.

    ``body_of`` gives what must be equal besides the type (it should leave out identifiers that
    always differ between two streams, such as sequence numbers).
    """
    for index in range(min(len(a), len(b))):
        ea, eb = a[index], b[index]
        if _surely_equal(ea, eb):
            continue  # the whole event is the same (the common case): no need to look inside
        ta, tb = type_of(ea), type_of(eb)
        if ta != tb:
            return Divergence(index, "type", ea, eb, seq_of(ea), seq_of(eb), ta, tb)
        body_a, body_b = body_of(ea), body_of(eb)
        if _surely_equal(body_a, body_b):
            continue
        body = diff(body_a, body_b)
        if not body.equal:
            return Divergence(index, "payload", ea, eb, seq_of(ea), seq_of(eb), ta, tb, body)
    if len(a) == len(b):
        return None
    index = min(len(a), len(b))
    rest_a = a[index] if index < len(a) else None
    rest_b = b[index] if index < len(b) else None
    return Divergence(
        index,
        "length",
        rest_a,
        rest_b,
        None if rest_a is None else seq_of(rest_a),
        None if rest_b is None else seq_of(rest_b),
        None if rest_a is None else type_of(rest_a),
        None if rest_b is None else type_of(rest_b),
    )


# --------------------------------------------------------------------------- record events


def _event_type(event: Any) -> str:
    value = event.get("type") if isinstance(event, dict) else None
    if isinstance(value, str):
        return value
    return "(no type)" if value is None else repr(value)


def _event_seq(event: Any) -> int | None:
    value = event.get("seq") if isinstance(event, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _event_body(event: Any) -> Any:
    """Everything but ``seq`` and ``type``: the payload and any extra keys the writer added."""
    if isinstance(event, dict):
        return {k: v for k, v in event.items() if k not in ("seq", "type")}
    return event


def _events_of(record: Mapping[str, Any]) -> list[Any]:
    events = record.get("events")
    return events if isinstance(events, list) else []


def first_divergence(events_a: Any, events_b: Any) -> Divergence[Any] | None:
    """The first event where two records' event lists part (``None``: the streams agree).

    Events are taken in the order the records list them; ``seq`` is reported, not compared
    (a renumbered but otherwise identical stream does not diverge). Non-list inputs count as
    empty streams.
    """
    a = events_a if isinstance(events_a, list) else []
    b = events_b if isinstance(events_b, list) else []
    return find_divergence(a, b, type_of=_event_type, body_of=_event_body, seq_of=_event_seq)


# --------------------------------------------------------------------------- summary


def agent_path(record: Mapping[str, Any]) -> tuple[str, ...]:
    """The agents of ``AGENT_ATTEMPT_START`` events, in order: who was tried."""
    agents: list[str] = []
    for event in _events_of(record):
        if _event_type(event) != "AGENT_ATTEMPT_START":
            continue
        payload = event.get("payload") if isinstance(event, dict) else None
        agent = payload.get("agent") if isinstance(payload, dict) else None
        agents.append(agent if isinstance(agent, str) else "?")
    return tuple(agents)


def _intent(record: Mapping[str, Any]) -> Any:
    envelope = record.get("envelope")
    return envelope.get("intent", MISSING) if isinstance(envelope, dict) else MISSING


def _intent_name(intent: Any) -> str | None:
    if isinstance(intent, dict):
        name = intent.get("name")
        return name if isinstance(name, str) else None
    return intent if isinstance(intent, str) else None


def _envelope_hash(record: Mapping[str, Any]) -> str | None:
    header = record.get("header")
    value = header.get("envelopeHash") if isinstance(header, dict) else None
    return value if isinstance(value, str) and value else None


def _normalized_hash(value: str) -> str:
    # The documented form writes "sha256:<hex>", the runtime form bare hex: same digest.
    return value.removeprefix("sha256:").lower()


@dataclass(frozen=True, slots=True)
class ComparisonSummary:
    """The answers a person wants first. ``same_envelope_hash`` is ``None`` when a side has none."""

    same_intent: bool
    same_agent_path: bool
    same_response: bool
    same_envelope_hash: bool | None
    intent_a: str | None
    intent_b: str | None
    agent_path_a: tuple[str, ...]
    agent_path_b: tuple[str, ...]


def _summarize(a: Mapping[str, Any], b: Mapping[str, Any]) -> ComparisonSummary:
    intent_a, intent_b = _intent(a), _intent(b)
    path_a, path_b = agent_path(a), agent_path(b)
    hash_a, hash_b = _envelope_hash(a), _envelope_hash(b)
    same_hash = (
        None
        if hash_a is None or hash_b is None
        else _normalized_hash(hash_a) == _normalized_hash(hash_b)
    )
    return ComparisonSummary(
        same_intent=diff(intent_a, intent_b).equal,
        same_agent_path=path_a == path_b,
        same_response=diff(a.get("finalResponse", MISSING), b.get("finalResponse", MISSING)).equal,
        same_envelope_hash=same_hash,
        intent_a=_intent_name(intent_a),
        intent_b=_intent_name(intent_b),
        agent_path_a=path_a,
        agent_path_b=path_b,
    )


# --------------------------------------------------------------------------- comparison


@dataclass(frozen=True, slots=True)
class RecordComparison:
    """Section by section diffs of two records, a summary, and the first event divergence.

    Paths in the section diffs are relative to the section; ``entries`` prefixes them with the
    section key (``events.3.payload.agent``: the event with seq 3, when events are keyed by seq).
    """

    envelope: DiffResult
    router_decision: DiffResult
    events: DiffResult
    final_response: DiffResult
    summary: ComparisonSummary
    first_divergence: Divergence[Any] | None
    events_keyed_by_seq: bool

    @property
    def equal(self) -> bool:
        return all(getattr(self, attr).equal for _, attr in RECORD_SECTIONS_COMPARED)

    @property
    def entries(self) -> tuple[DiffEntry, ...]:
        out: list[DiffEntry] = []
        for key, attr in RECORD_SECTIONS_COMPARED:
            result: DiffResult = getattr(self, attr)
            out.extend(
                DiffEntry((key, *e.path), e.before, e.after, e.array_op) for e in result.entries
            )
        return tuple(out)

    @property
    def result(self) -> DiffResult:
        """All sections as one ``DiffResult`` (for ``format_diff``)."""
        entries = self.entries
        return DiffResult(not entries, entries)


def _seqs_are_keys(events: Any) -> bool:
    """True when every event is an object with an integer ``seq`` and no seq repeats."""
    if not isinstance(events, list):
        return False
    seen: set[int] = set()
    for event in events:
        seq = _event_seq(event)
        if seq is None or seq in seen:
            return False
        seen.add(seq)
    return True


def _keyed_by_seq(events: Any) -> dict[str, Any]:
    return {str(event["seq"]): event for event in events}


def _strip_seq(events: Any) -> Any:
    if not isinstance(events, list):
        return events
    return [_event_body_with_type(e) for e in events]


def _event_body_with_type(event: Any) -> Any:
    if isinstance(event, dict):
        return {k: v for k, v in event.items() if k != "seq"}
    return event


def _events_diff(events_a: Any, events_b: Any, *, aligned: bool) -> tuple[DiffResult, bool]:
    """Events keyed by seq when both sides allow it; with ``aligned``, aligned on content.

    Aligned mode leaves ``seq`` out: after an inserted event every later seq shifts, and
    reporting that shift for each of them would bury the one real change.
    """
    if aligned and isinstance(events_a, list) and isinstance(events_b, list):
        return diff(_strip_seq(events_a), _strip_seq(events_b), aligned=True), False
    if _seqs_are_keys(events_a) and _seqs_are_keys(events_b):
        return diff(_keyed_by_seq(events_a), _keyed_by_seq(events_b)), True
    return diff(events_a, events_b, aligned=aligned), False


def _as_record(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def compare_records(
    a_json: Any,
    b_json: Any,
    *,
    key_by_paths: Mapping[str, KeyFn] | None = None,
    aligned: bool = False,
) -> RecordComparison:
    """Compare two record JSON objects (``LoadResult.record.raw``).

    ``key_by_paths`` (dot-paths from the record root, e.g. ``{"events": "seq"}``) reshapes arrays
    before the section diffs, as Verist's ``keyBy``; a bad key (duplicate, missing field) raises
    ``DiffError``, the one exception this function lets through because the caller asked for it.
    The summary and the first divergence always use the records as they are.
    """
    a, b = _as_record(a_json), _as_record(b_json)
    shaped_a, shaped_b = a, b
    if key_by_paths:
        shaped_a = key_by(a, key_by_paths)
        shaped_b = key_by(b, key_by_paths)
    sections: dict[str, DiffResult] = {}
    keyed = False
    for key, attr in RECORD_SECTIONS_COMPARED:
        before = shaped_a.get(key, MISSING)
        after = shaped_b.get(key, MISSING)
        if key == "events":
            sections[attr], keyed = _events_diff(before, after, aligned=aligned)
        else:
            sections[attr] = diff(before, after, aligned=aligned)
    return RecordComparison(
        envelope=sections["envelope"],
        router_decision=sections["router_decision"],
        events=sections["events"],
        final_response=sections["final_response"],
        summary=_summarize(a, b),
        first_divergence=first_divergence(a.get("events"), b.get("events")),
        events_keyed_by_seq=keyed,
    )


def compare_values(
    a: Any,
    b: Any,
    *,
    key_by_paths: Mapping[str, KeyFn] | None = None,
    aligned: bool = False,
) -> DiffResult:
    """A plain diff of two JSON values after ``key_by`` (raises ``DiffError`` on a bad key)."""
    if key_by_paths:
        a = key_by(a, key_by_paths)
        b = key_by(b, key_by_paths)
    return diff(a, b, aligned=aligned)
