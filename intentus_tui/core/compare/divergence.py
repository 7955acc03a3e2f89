"""Where two event streams first part: ``find_divergence`` (records and Active Graph runs).

It is stricter than Active Graph's strict replay, which compares event *types* only: two
streams diverge at the first position where the types differ (``type``), where one stream has
ended (``length``), or where the types agree but anything else in the event differs
(``payload``; differences the ignore rules hide do not count). Events that are not objects
are compared whole.

Given ``key_of``, the streams are first aligned event by event (``events.align_events``, as
the comparison screen draws them), so an event inserted or missing mid-stream is named for
what it is (``only_b``, ``only_a``) rather than as a change of type at every later
position, and two events paired at different places are named by both (``events[3→2]``,
``#9→#4``), as the comparison names them. Records and Active Graph runs are compared this way
(``first_divergence``, ``activegraph.run_divergence``), so the first divergence is the first
row of the comparison's aligned timelines that differs; a run's lineage finds its shared
prefix by position (``activegraph.lineage``), as a replay diverges.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeAlias, TypeVar

import orjson

from intentus_tui.core.compare.events import align_events, record_event_key
from intentus_tui.core.compare.ignore import NO_RULES, IgnoreRules
from intentus_tui.core.compare.notation import run_path_text, shown_path_text
from intentus_tui.core.verist.diff import DiffResult, PathKey, diff, paired_index

E = TypeVar("E")
DivergenceKind: TypeAlias = Literal["type", "length", "payload", "only_a", "only_b"]


@dataclass(frozen=True, slots=True)
class Divergence(Generic[E]):
    """Where two event streams first part.

    ``index`` is the 0-based position in both streams (aligned: B's position, or A's for an
    event only A has, as the comparison's path ``events[index]`` names it; two events paired
    at different places, a ``PairedIndex`` that knows A's too). ``event_a``/
    ``event_b`` are the events there (``None`` on the side that has already ended, for
    ``length``, or that has no such event, for ``only_a``/``only_b``). For ``payload``,
    ``payload_diff`` says what differs between the two events' bodies. ``numbered``: the
    events are two runs', named by number (``event #8``, the runs' eighth) with each side's
    ``seq``.
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
    # Two runs' events: named by number in their runs, as their paths are (``notation``).
    numbered: bool = False

    def describe(self) -> str:
        """One line for a person (raw text: sanitize before printing)."""
        if self.numbered:
            # A run's seq is its row in the file, different for a fork's copy of an event.
            seqs = ", ".join(
                f"{side} seq {seq}"
                for side, seq in (("A", self.seq_a), ("B", self.seq_b))
                if seq is not None
            )
            where = f"event {run_path_text((self.index,))} ({seqs})"
        else:
            # The comparison's one path notation (``events[2]``, ``events[3→2]``), then each
            # side's seq.
            path = shown_path_text(("events", self.index))
            where = f"{path} (seq {_seq_text(self.seq_a)} / {_seq_text(self.seq_b)})"
        if self.kind == "length":
            if self.type_a is None:
                return f"{where}: A ends, B goes on with {self.type_b}"
            return f"{where}: B ends, A goes on with {self.type_a}"
        if self.kind == "type":
            return f"{where}: type {self.type_a} in A, {self.type_b} in B"
        if self.kind == "only_a":
            return f"{where}: only in A ({self.type_a})"
        if self.kind == "only_b":
            return f"{where}: only in B ({self.type_b})"
        count = len(self.payload_diff.entries) if self.payload_diff is not None else 0
        plural = "" if count == 1 else "s"
        # In the unit every count of differences is in (``result.changed_values_text``).
        return f"{where}: same type {self.type_a}, payload differs ({count} changed value{plural})"


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
    key_of: Callable[[E], str] | None = None,
) -> Divergence[E] | None:
    """The first place where ``a`` and ``b`` differ by type, by length or by body: position
    by position, or along their alignment on ``key_of`` (then also by an event only one of
    them has).

    ``body_of`` gives what must be equal besides the type (it should leave out identifiers that
    always differ between two streams, such as sequence numbers). Body differences at paths
    ``ignore`` hides (``prefix + (index, *path)``) do not count: a payload whose timestamp is
    all that changed does not diverge.
    """
    if key_of is not None:
        return _aligned_divergence(a, b, type_of, body_of, seq_of, ignore, prefix, key_of)
    for index in range(min(len(a), len(b))):
        found = _pair_divergence(
            index, a[index], b[index], type_of, body_of, seq_of, ignore, prefix
        )
        if found is not None:
            return found
    if len(a) == len(b):
        return None
    index = min(len(a), len(b))
    rest_a = a[index] if index < len(a) else None
    rest_b = b[index] if index < len(b) else None
    return _one_sided(index, "length", rest_a, rest_b, type_of, seq_of)


def _pair_divergence(
    index: int,
    ea: E,
    eb: E,
    type_of: Callable[[E], str],
    body_of: Callable[[E], Any],
    seq_of: Callable[[E], int | None],
    ignore: IgnoreRules,
    prefix: tuple[PathKey, ...],
) -> Divergence[E] | None:
    """How two events facing each other differ (by type or by body), or None."""
    if surely_equal(ea, eb):
        return None  # the whole event is the same (the common case): no need to look inside
    ta, tb = type_of(ea), type_of(eb)
    if ta != tb:
        return Divergence(index, "type", ea, eb, seq_of(ea), seq_of(eb), ta, tb)
    body_a, body_b = body_of(ea), body_of(eb)
    if surely_equal(body_a, body_b):
        return None
    body = diff(body_a, body_b)
    if ignore:
        where = (*prefix, index)
        kept = tuple(e for e in body.entries if not ignore.covers((*where, *e.path)))
        body = DiffResult(not kept, kept)
    if body.equal:
        return None
    return Divergence(index, "payload", ea, eb, seq_of(ea), seq_of(eb), ta, tb, body)


def _aligned_divergence(
    a: Sequence[E],
    b: Sequence[E],
    type_of: Callable[[E], str],
    body_of: Callable[[E], Any],
    seq_of: Callable[[E], int | None],
    ignore: IgnoreRules,
    prefix: tuple[PathKey, ...],
    key_of: Callable[[E], str],
) -> Divergence[E] | None:
    pairs = align_events(a, b, key_of)
    for n, (i, j) in enumerate(pairs):
        if i is not None and j is not None:
            # Named as the comparison names the pair: ``#9→#4`` where their places differ.
            at = paired_index(i, j)
            found = _pair_divergence(at, a[i], b[j], type_of, body_of, seq_of, ignore, prefix)
            if found is not None:
                return found
            continue
        index = j if j is not None else i
        assert index is not None
        if ignore and ignore.covers((*prefix, index)):
            continue  # as the comparison's timeline hides that gap
        ea = a[i] if i is not None else None
        eb = b[j] if j is not None else None
        # An event facing a gap is only on one side; once the other stream has no event
        # left, the streams differ in length, as position by position.
        other = 1 if j is None else 0
        ended = all(pair[other] is None for pair in pairs[n:])
        kind: DivergenceKind = "length" if ended else "only_a" if j is None else "only_b"
        return _one_sided(index, kind, ea, eb, type_of, seq_of)
    return None


def _one_sided(
    index: int,
    kind: DivergenceKind,
    ea: E | None,
    eb: E | None,
    type_of: Callable[[E], str],
    seq_of: Callable[[E], int | None],
) -> Divergence[E]:
    """A divergence where one side has no event (``None``)."""
    return Divergence(
        index,
        kind,
        ea,
        eb,
        None if ea is None else seq_of(ea),
        None if eb is None else seq_of(eb),
        None if ea is None else type_of(ea),
        None if eb is None else type_of(eb),
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

    Events are taken in the order the records list them and aligned on who did what (their
    type and agent), as the comparison screen shows them side by side; ``seq`` is reported,
    not compared (a renumbered but otherwise identical stream does not diverge). Non-list
    inputs count as empty streams.
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
        key_of=record_event_key,
    )
