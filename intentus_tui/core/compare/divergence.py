"""Where two event streams first part: ``find_divergence`` (records and Active Graph runs).

It is stricter than Active Graph's strict replay, which compares event *types* only: two
streams diverge at the first position where the types differ (``type``), where one stream has
ended (``length``), or where the types agree but anything else in the event differs
(``payload``; differences the ignore rules hide do not count). Events that are not objects
are compared whole.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeAlias, TypeVar

import orjson

from intentus_tui.core.compare.ignore import NO_RULES, IgnoreRules
from intentus_tui.core.verist.diff import DiffResult, PathKey, diff

E = TypeVar("E")
DivergenceKind: TypeAlias = Literal["type", "length", "payload"]


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
        # The comparison's one path notation (``events[2]``), then each side's seq.
        seqs = f"seq {_seq_text(self.seq_a)} / {_seq_text(self.seq_b)}"
        where = f"events[{self.index}] ({seqs})"
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


def surely_equal(a: Any, b: Any) -> bool:
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
    ignore: IgnoreRules = NO_RULES,
    prefix: tuple[PathKey, ...] = (),
) -> Divergence[E] | None:
    """The first position where ``a`` and ``b`` differ by type, by length or by body.

    ``body_of`` gives what must be equal besides the type (it should leave out identifiers that
    always differ between two streams, such as sequence numbers). Body differences at paths
    ``ignore`` hides (``prefix + (index, *path)``) do not count: a payload whose timestamp is
    all that changed does not diverge.
    """
    for index in range(min(len(a), len(b))):
        ea, eb = a[index], b[index]
        if surely_equal(ea, eb):
            continue  # the whole event is the same (the common case): no need to look inside
        ta, tb = type_of(ea), type_of(eb)
        if ta != tb:
            return Divergence(index, "type", ea, eb, seq_of(ea), seq_of(eb), ta, tb)
        body_a, body_b = body_of(ea), body_of(eb)
        if surely_equal(body_a, body_b):
            continue
        body = diff(body_a, body_b)
        if ignore:
            where = (*prefix, index)
            kept = tuple(e for e in body.entries if not ignore.covers((*where, *e.path)))
            body = DiffResult(not kept, kept)
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


def event_type(event: Any) -> str:
    value = event.get("type") if isinstance(event, dict) else None
    if isinstance(value, str):
        return value
    return "(no type)" if value is None else repr(value)


def event_seq(event: Any) -> int | None:
    value = event.get("seq") if isinstance(event, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def event_body(event: Any) -> Any:
    """Everything but ``seq`` and ``type``: the payload and any extra keys the writer added."""
    if isinstance(event, dict):
        return {k: v for k, v in event.items() if k not in ("seq", "type")}
    return event


def events_of(record: Mapping[str, Any]) -> list[Any]:
    events = record.get("events")
    return events if isinstance(events, list) else []


def first_divergence(
    events_a: Any, events_b: Any, ignore: IgnoreRules = NO_RULES
) -> Divergence[Any] | None:
    """The first event where two records' event lists part (``None``: the streams agree).

    Events are taken in the order the records list them; ``seq`` is reported, not compared
    (a renumbered but otherwise identical stream does not diverge). Non-list inputs count as
    empty streams.
    """
    a = events_a if isinstance(events_a, list) else []
    b = events_b if isinstance(events_b, list) else []
    return find_divergence(
        a,
        b,
        type_of=event_type,
        body_of=event_body,
        seq_of=event_seq,
        ignore=ignore,
        prefix=("events",),
    )
