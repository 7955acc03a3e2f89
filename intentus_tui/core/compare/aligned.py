"""A and B laid out side by side, for the full-screen comparison.

``side_by_side(a, b, ignore)`` compares the operands (``compare``, arrays aligned on content)
and lays out:

- ``timeline``: the two event streams aligned event by event (``core.compare.events``), one
  row per event pair; an event only one side has faces a gap (``None``) on the other;
- ``values``: what was compared, as indented JSON lines in two columns, aligned by path: the
  same line side by side, a changed value on one row, a key or element only one side has
  facing gaps. Events are laid out in the timeline's pairs, so the two views agree. Keys
  come in the order ``diff`` visits them (sorted, below the top level's sections), so the
  differences come down the rows in the order of the comparison's entries.

Each row knows its path (in the one notation: ``events[3].payload.agent``; an index is B's
position, or A's for what only A has, as in the comparison's entries) and whether the ignore
rules cover it (``hidden``): the rules never change the layout, only which rows count as
differences, so turning them off and on is instant (``fold``). ``fold`` keeps a few lines of
context around each difference and folds longer unchanged runs into one row, and says where
each difference starts (for next/previous) and where the first one is.

The layout walks A and B as ``compare`` does (arrays aligned the same way, events in the same
pairs, a snapshot's commands by index), so each of the comparison's entries - one changed
value - starts exactly one run of rows (``starts``): ``n`` steps through as many differences
as the status line counts. What the comparison leaves out (an event's ``seq``; a snapshot's
output or commands that only one side has) is shown ``uncompared``, never as a difference.

Snapshots have no event stream: their timeline is empty. A record's header is laid out with
the other sections, as ``compare`` compares it (its ids, times and hash under the ignore rules).
"""

from __future__ import annotations

import json
import math
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, TypeAlias

import orjson

from intentus_tui.core.compare.divergence import Divergence, first_divergence
from intentus_tui.core.compare.events import (
    EventPair,
    align_events,
    record_event_key,
    run_event_key,
)
from intentus_tui.core.compare.ignore import IgnoreRules
from intentus_tui.core.compare.notation import cut_pair, event_number, shown_path_text
from intentus_tui.core.compare.operands import Operand
from intentus_tui.core.compare.records import RECORD_SECTIONS_COMPARED
from intentus_tui.core.compare.result import Comparison
from intentus_tui.core.compare.usecase import compare
from intentus_tui.core.verist.align import align
from intentus_tui.core.verist.diff import PathKey, diff, paired_index
from intentus_tui.core.verist.missing import MISSING
from intentus_tui.core.verist.value import js_sorted

# "uncompared": shown, but not a difference (a side the comparison leaves out: a snapshot's
# output or commands only one side has, an event's seq only one side writes).
RowStatus: TypeAlias = Literal["same", "changed", "added", "removed", "uncompared"]
_NOT_DIFFERENT = frozenset({"same", "uncompared"})
Path: TypeAlias = tuple[PathKey, ...]
CONTEXT_LINES = 3
VALUE_CHARS = 400  # a leaf is never written longer than this on a row
MAX_DEPTH = 64  # deeper values are written on one line


@dataclass(frozen=True, slots=True)
class SideRow:
    """One row: A's line and B's (``None``: a gap), how they differ, and where."""

    a: str | None
    b: str | None
    status: RowStatus
    path: Path = ()
    hidden: bool = False  # they differ, but the ignore rules cover this path

    def differs(self, rules_on: bool) -> bool:
        return self.status not in _NOT_DIFFERENT and not (rules_on and self.hidden)

    @property
    def path_text(self) -> str:
        return shown_path_text(self.path)


@dataclass(frozen=True, slots=True)
class Fold:
    """``count`` unchanged rows from ``start`` (in ``SideBySide.values``), folded away."""

    start: int
    count: int


@dataclass(frozen=True)
class Folded:
    """The rows to draw (rows and folds), where each difference starts, and the first one."""

    rows: tuple[SideRow | Fold, ...]
    # Display indices of the first row of each difference (each entry of the comparison, or
    # each run of changed rows when the layout does not say where its entries start).
    differences: tuple[int, ...]

    @property
    def first(self) -> int | None:
        return self.differences[0] if self.differences else None


@dataclass(frozen=True)
class SideBySide:
    """The comparison and its two-column layout."""

    comparison: Comparison
    timeline: tuple[SideRow, ...]
    values: tuple[SideRow, ...]
    # For each timeline row, the index in ``values`` of that event's first line (or -1).
    event_rows: tuple[int, ...] = field(default=())
    # Where the events are in the values (``("events",)`` for records, ``()`` for runs).
    events_at: Path | None = None
    # The first divergence with the ignore rules off (the comparison's has them on).
    divergence_unfiltered: Divergence[Any] | None = None
    # The index in ``values`` where each difference starts: one for each of the comparison's
    # entries (hidden ones too), in the order they are drawn.
    starts: tuple[int, ...] = field(default=())

    def path_text(self, row: SideRow) -> str:
        """Where ``row`` is, as the command line's ``diff`` names it (two runs' events by
        number: ``#8.type``)."""
        return shown_path_text(row.path, runs=self.comparison.compared == "runs")

    def divergence(self, rules_on: bool) -> Divergence[Any] | None:
        """Where the event streams first part, as the command line's ``diff`` says it."""
        return self.comparison.divergence if rules_on else self.divergence_unfiltered

    def timeline_row_at(self, value_row: int) -> int | None:
        """The timeline row of the event whose lines hold ``values[value_row]``, if any."""
        at = self.events_at
        if at is None or not 0 <= value_row < len(self.values):
            return None
        path = self.values[value_row].path
        if len(path) <= len(at) or path[: len(at)] != at:
            return None
        n = bisect_right(self.event_rows, value_row) - 1
        return n if n >= 0 else None

    @property
    def hidden(self) -> int:
        return self.comparison.hidden

    def shown(self, rules_on: bool) -> int:
        """How many differences (changed values) the comparison reports with the rules on
        or off: as many as ``fold`` gives places to step to."""
        entries = len(self.comparison.entries)
        return entries if rules_on else entries + self.comparison.hidden

    def fold(self, rules_on: bool, context: int = CONTEXT_LINES) -> Folded:
        return fold_rows(self.values, rules_on, context, self.starts)

    def timeline_differences(self, rules_on: bool) -> tuple[int, ...]:
        return tuple(i for i, row in enumerate(self.timeline) if row.differs(rules_on))


# --------------------------------------------------------------------------- folding


def fold_rows(
    rows: Sequence[SideRow],
    rules_on: bool,
    context: int,
    starts: Sequence[int] | None = None,
) -> Folded:
    """Unchanged runs longer than the context folded; nothing folded when nothing differs.
    ``starts``: the row where each difference starts (``SideBySide.starts``); without them,
    each run of changed rows is one."""
    entry_starts = None if starts is None else frozenset(starts)
    differing = [row.differs(rules_on) for row in rows]
    if not any(differing):
        return Folded(tuple(rows), ())
    keep = [False] * len(rows)
    last_change = -(10**9)
    for i, changed in enumerate(differing):  # context after each change
        if changed:
            last_change = i
        keep[i] = changed or i - last_change <= context
    next_change = 10**9
    for i in range(len(rows) - 1, -1, -1):  # context before each change
        if differing[i]:
            next_change = i
        keep[i] = keep[i] or next_change - i <= context
    out: list[SideRow | Fold] = []
    found: list[int] = []
    i = 0
    while i < len(rows):
        if keep[i]:
            if differing[i] and (
                i in entry_starts if entry_starts is not None else i == 0 or not differing[i - 1]
            ):
                found.append(len(out))
            out.append(rows[i])
            i += 1
            continue
        j = i
        while j < len(rows) and not keep[j]:
            j += 1
        if j - i == 1:
            out.append(rows[i])  # folding one line would not save a line
        else:
            out.append(Fold(i, j - i))
        i = j
    return Folded(tuple(out), tuple(found))


# --------------------------------------------------------------------------- JSON lines


def _leaf(value: Any) -> str:
    text = _leaf_text(value)
    return text if len(text) <= VALUE_CHARS else text[: VALUE_CHARS - 1] + "…"


def _leaf_text(value: Any) -> str:
    if value is MISSING:
        return "(undefined)"
    try:
        if type(value) is float and not math.isfinite(value):
            raise TypeError("orjson writes NaN and Infinity as null")
        text = orjson.dumps(value).decode()
    except TypeError:  # past 64-bit integers, NaN kept as written: the slower encoder
        try:
            text = json.dumps(value, ensure_ascii=False, allow_nan=True, default=str)
        except RecursionError:
            text = "(nested too deeply to show)"
        except ValueError:
            text = repr(value)
    return text


@lru_cache(maxsize=4096)
def _key_label(key: str) -> str:
    return json.dumps(key, ensure_ascii=False) + ": "


def _label(key: PathKey | None) -> str:
    if key is None or isinstance(key, int):
        return ""
    return _key_label(str(key))


def _same_value(a: Any, b: Any) -> bool:
    try:
        return bool(a == b) and orjson.dumps(a) == orjson.dumps(b)
    except (TypeError, RecursionError):
        return diff(a, b).equal


def _key_order(keys: Iterable[Any], path: Path) -> list[Any]:
    """An object's keys in the order ``diff`` visits them (JavaScript's sort), so that its
    rows, and ``n`` stepping down them, come in the order the Diff tab and ``intentus-tui
    diff`` list the differences; the top level's sections keep the order they are compared in."""
    return list(keys) if not path else js_sorted(keys)


def _one_line(value: Any, depth: int) -> bool:
    """Whether ``_lines`` writes ``value`` on one line (a leaf, an empty object or array, or
    a value nested deeper than ``MAX_DEPTH``)."""
    return depth >= MAX_DEPTH or not isinstance(value, dict | list) or not value


def _lines(value: Any, key: PathKey | None, depth: int, path: Path) -> list[tuple[str, Path]]:
    """``value`` as indented JSON lines, each with its path."""
    pad = "  " * depth
    label = _label(key)
    if depth < MAX_DEPTH and isinstance(value, dict) and value:
        out = [(f"{pad}{label}{{", path)]
        for k in _key_order(value.keys(), path):
            out.extend(_lines(value[k], k, depth + 1, (*path, k)))
        out.append((f"{pad}}}", path))
        return out
    if depth < MAX_DEPTH and isinstance(value, list) and value:
        out = [(f"{pad}{label}[", path)]
        for i, v in enumerate(value):
            out.extend(_lines(v, i, depth + 1, (*path, i)))
        out.append((f"{pad}]", path))
        return out
    return [(f"{pad}{label}{_leaf(value)}", path)]


def _pairs_of_script(script: list[tuple[str, int, int]], na: int, nb: int) -> list[EventPair]:
    pairs: list[EventPair] = []
    i = j = 0
    for op, oi, oj in script:
        while (op == "ins" or i < oi) and (op == "del" or j < oj):
            pairs.append((i, j))
            i, j = i + 1, j + 1
        if op == "sub":
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif op == "del":
            pairs.append((i, None))
            i += 1
        else:
            pairs.append((None, j))
            j += 1
    while i < na and j < nb:
        pairs.append((i, j))
        i, j = i + 1, j + 1
    pairs.extend((k, None) for k in range(i, na))
    pairs.extend((None, k) for k in range(j, nb))
    return pairs


def _index_pairs(na: int, nb: int) -> list[EventPair]:
    """Arrays compared by index (as Verist's own diff does): past the shorter end, each
    element is one side's alone."""
    common = min(na, nb)
    pairs: list[EventPair] = [(k, k) for k in range(common)]
    pairs.extend((k, None) for k in range(common, na))
    pairs.extend((None, k) for k in range(common, nb))
    return pairs


class _Layout:
    """Walks A and B together and appends rows, as the comparison walks them: each of its
    entries (a value changed, added or removed) starts one run of rows (``starts``)."""

    def __init__(
        self,
        ignore: IgnoreRules,
        events_at: Path | None,
        pairs: list[EventPair],
        *,
        by_index: frozenset[Path] = frozenset(),
        uncompared: frozenset[Path] = frozenset(),
    ):
        """``by_index``: arrays the comparison compares by index (not aligned on content);
        ``uncompared``: paths it leaves out when only one side has them."""
        self.rows: list[SideRow] = []
        self.ignore = ignore
        self.events_at = events_at
        self.event_pairs = pairs
        self.by_index = by_index
        self.uncompared = uncompared
        self.event_rows: dict[int, int] = {}
        self.starts: list[int] = []  # the row where each difference (one entry) starts

    def _is_event_seq(self, path: Path) -> bool:
        at = self.events_at
        return (
            at is not None
            and len(path) == len(at) + 2
            and path[-1] == "seq"
            and path[: len(at)] == at
        )

    def _hidden(self, path: Path) -> bool:
        return bool(self.ignore) and self.ignore.covers(path)

    def one_side(
        self,
        value: Any,
        key: PathKey | None,
        depth: int,
        path: Path,
        side: str,
        compared: bool = True,
    ) -> None:
        hidden = compared and self._hidden(path)
        status: RowStatus = "uncompared" if not compared else "removed" if side == "a" else "added"
        if compared:
            self.starts.append(len(self.rows))
        for text, at in _lines(value, key, depth, path):
            a, b = (text, None) if side == "a" else (None, text)
            self.rows.append(SideRow(a, b, status, at, hidden))

    def same(self, value: Any, key: PathKey | None, depth: int, path: Path) -> None:
        self.rows.extend(SideRow(t, t, "same", at) for t, at in _lines(value, key, depth, path))

    def both(
        self, va: Any, vb: Any, key_a: PathKey | None, key_b: PathKey | None, depth: int, path: Path
    ) -> None:
        if va is MISSING and vb is MISSING:
            return
        if va is MISSING or vb is MISSING:
            # An event's seq is never compared; nor is what the comparison leaves out.
            compared = path not in self.uncompared and not self._is_event_seq(path)
            if vb is MISSING:
                self.one_side(va, key_a, depth, path, "a", compared)
            else:
                self.one_side(vb, key_b, depth, path, "b", compared)
            return
        if _same_value(va, vb):
            self.same(va, key_b, depth, path)
            return
        pad = "  " * depth
        if self._is_event_seq(path):
            # Not compared (after an inserted event every later seq shifts): shown, not counted.
            self.rows.append(
                SideRow(
                    f"{pad}{_label(key_a)}{_leaf(va)}",
                    f"{pad}{_label(key_b)}{_leaf(vb)}",
                    "same",
                    path,
                )
            )
            return
        if depth < MAX_DEPTH and isinstance(va, dict) and isinstance(vb, dict):
            self.rows.append(
                SideRow(f"{pad}{_label(key_a)}{{", f"{pad}{_label(key_b)}{{", "same", path)
            )
            for k in _key_order([*va, *(k for k in vb if k not in va)], path):
                self.both(va.get(k, MISSING), vb.get(k, MISSING), k, k, depth + 1, (*path, k))
            self.rows.append(SideRow(f"{pad}}}", f"{pad}}}", "same", path))
            return
        if depth < MAX_DEPTH and isinstance(va, list) and isinstance(vb, list):
            self.rows.append(
                SideRow(f"{pad}{_label(key_a)}[", f"{pad}{_label(key_b)}[", "same", path)
            )
            is_events = path == self.events_at
            if is_events:
                pairs = self.event_pairs
            elif path in self.by_index:
                pairs = _index_pairs(len(va), len(vb))
            else:
                pairs = _pairs_of_script(align(va, vb), len(va), len(vb))
            for n, (i, j) in enumerate(pairs):
                if is_events:
                    self.event_rows[n] = len(self.rows)
                index = i if j is None else j if i is None else paired_index(i, j)
                assert index is not None
                self.both(
                    va[i] if i is not None else MISSING,
                    vb[j] if j is not None else MISSING,
                    i,
                    j,
                    depth + 1,
                    (*path, index),
                )
            self.rows.append(SideRow(f"{pad}]", f"{pad}]", "same", path))
            return
        if _one_line(va, depth) and _one_line(vb, depth):
            # Cut where the two differ: cut past it, both would read the same.
            text_a, text_b = cut_pair(_leaf_text(va), _leaf_text(vb), VALUE_CHARS)
            lines_a = [(f"{pad}{_label(key_a)}{text_a}", path)]
            lines_b = [(f"{pad}{_label(key_b)}{text_b}", path)]
        else:
            lines_a = _lines(va, key_a, depth, path)
            lines_b = _lines(vb, key_b, depth, path)
        # Written differently, equal to the comparison (1 and 1.0, as JavaScript sees them):
        # side by side, not a difference.
        changed = not diff(va, vb).equal
        hidden = changed and self._hidden(path)
        if changed:
            self.starts.append(len(self.rows))
        for n in range(max(len(lines_a), len(lines_b))):
            a = lines_a[n][0] if n < len(lines_a) else None
            b = lines_b[n][0] if n < len(lines_b) else None
            self.rows.append(SideRow(a, b, "changed" if changed else "same", path, hidden))


# --------------------------------------------------------------------------- timelines


def _record_event_text(event: Any) -> str:
    if not isinstance(event, dict):
        return _leaf(event)
    seq = event.get("seq")
    kind = event.get("type")
    payload = event.get("payload")
    agent = payload.get("agent") if isinstance(payload, dict) else None
    parts = [f"#{seq}" if seq is not None else "#-", str(kind) if kind is not None else "(no type)"]
    if isinstance(agent, str):
        parts.append(agent)
    return " ".join(parts)


def _run_event_texts(events: Sequence[Any]) -> list[str]:
    return [f"{event_number(n)} {e.id} {e.type} by {e.actor or '-'}" for n, e in enumerate(events)]


def _timeline(
    texts: tuple[Sequence[str], Sequence[str]],
    pairs: list[EventPair],
    differing: Callable[[int, int], tuple[bool, bool]],
    at: Path,
    ignore: IgnoreRules,
) -> list[SideRow]:
    """One row per event pair: each side's one-line text, and whether the events differ
    (``differing(i, j)``: (they differ, only where the ignore rules look))."""
    rows: list[SideRow] = []
    for i, j in pairs:
        index = j if j is not None else i
        assert index is not None
        path = (*at, index)
        if i is None:
            rows.append(SideRow(None, texts[1][index], "added", path, ignore.covers(path)))
        elif j is None:
            rows.append(SideRow(texts[0][i], None, "removed", path, ignore.covers(path)))
        else:
            differs, hidden = differing(i, j)
            status: RowStatus = "changed" if differs else "same"
            path = (*at, paired_index(i, j))  # "events[3→2]", as the event's values say
            rows.append(SideRow(texts[0][i], texts[1][j], status, path, hidden))
    return rows


def _body_differences(
    events: tuple[Sequence[Any], Sequence[Any]],
    body_of: Callable[[Any], Any],
    at: Path,
    ignore: IgnoreRules,
) -> Callable[[int, int], tuple[bool, bool]]:
    def differing(i: int, j: int) -> tuple[bool, bool]:
        body = diff(body_of(events[0][i]), body_of(events[1][j]))
        if body.equal:
            return False, False
        where = (*at, j)
        return True, bool(ignore) and all(ignore.covers((*where, *e.path)) for e in body.entries)

    return differing


def _entry_differences(
    comparison: Comparison, ignore: IgnoreRules
) -> Callable[[int, int], tuple[bool, bool]]:
    """From the records comparison's own event entries (paired events: path ``[j, ...]``)."""
    by_event: dict[int, list[bool]] = {}
    records = comparison.records
    for entry in records.events.entries if records is not None else ():
        if entry.array_op is None and entry.path and isinstance(entry.path[0], int):
            covered = ignore.covers(("events", *entry.path)) if ignore else False
            by_event.setdefault(entry.path[0], []).append(covered)

    def differing(i: int, j: int) -> tuple[bool, bool]:
        covered = by_event.get(j)
        return (False, False) if not covered else (True, all(covered))

    return differing


# --------------------------------------------------------------------------- the layout


def _record_doc(operand: Operand) -> dict[str, Any]:
    """The sections ``compare`` compares, in the record's order."""
    record = operand.record or {}
    return {key: record[key] for key, _ in RECORD_SECTIONS_COMPARED if key in record}


def _snapshot_doc(operand: Operand, with_header: bool) -> dict[str, Any]:
    """What ``compare_snapshot_operands`` compares: input, output, commands, and the record
    header's parts when ``with_header`` (both sides have one)."""
    from intentus_tui.core.compare.snapshots import as_snapshot, record_header, step_output
    from intentus_tui.core.verist.recompute import _normalized_commands

    snapshot = as_snapshot(operand)
    doc: dict[str, Any] = {"input": snapshot.input}
    output = step_output(snapshot)
    if output is not MISSING:
        doc["output"] = output
    commands = _normalized_commands(snapshot)
    if commands is not None:
        doc["commands"] = commands
    if with_header:
        header = record_header(snapshot)
        # Compared as one value, its parts in diff's order (``header`` before ``routerDecision``).
        doc.update({key: header[key] for key in js_sorted(header)})
    return doc


def side_by_side(a: Operand, b: Operand, ignore: IgnoreRules) -> SideBySide:
    """Compare A with B (arrays aligned on content) and lay them out side by side.

    Raises what ``compare`` raises (``CompareError``).
    """
    comparison = compare(a, b, aligned=True, ignore=ignore)
    unfiltered = comparison.divergence
    timeline: list[SideRow] = []
    pairs: list[EventPair] = []
    events_at: Path | None = None
    doc_a: Any
    doc_b: Any
    by_index: frozenset[Path] = frozenset()
    uncompared: frozenset[Path] = frozenset()
    if comparison.compared == "records":
        doc_a, doc_b = _record_doc(a), _record_doc(b)
        events_a = doc_a.get("events")
        events_b = doc_b.get("events")
        # A side with no events section (a record cut before it) has none, laid out event
        # by event against the other's list, as ``compare_records`` counts them.
        if "events" not in doc_a and isinstance(events_b, list):
            doc_a, events_a = {**doc_a, "events": []}, []
        elif "events" not in doc_b and isinstance(events_a, list):
            doc_b, events_b = {**doc_b, "events": []}, []
        if isinstance(events_a, list) and isinstance(events_b, list):
            events_at = ("events",)
            pairs = align_events(events_a, events_b, record_event_key)
            texts = (
                [_record_event_text(e) for e in events_a],
                [_record_event_text(e) for e in events_b],
            )
            differing = _entry_differences(comparison, ignore)
            timeline = _timeline(texts, pairs, differing, events_at, ignore)
        if ignore:
            unfiltered = first_divergence(events_a, events_b)
    elif comparison.compared == "runs":
        from intentus_tui.core.activegraph import comparable_events

        run_ids: tuple[str, ...] = tuple(r.run_id for r in (a.run, b.run) if r is not None)
        if comparison.fork is not None and comparison.fork.relation is not None:
            run_ids = comparison.fork.relation.run_ids
        doc_a = comparable_events(a.events, run_ids)
        doc_b = comparable_events(b.events, run_ids)
        events_at = ()
        pairs = align_events(doc_a, doc_b, run_event_key)
        # Each event by its number in its run, as ``diff`` names it, then its own id.
        run_texts = (_run_event_texts(a.events), _run_event_texts(b.events))
        differing = _body_differences((doc_a, doc_b), lambda e: e, (), ignore)
        timeline = _timeline(run_texts, pairs, differing, (), ignore)
    else:
        summary = comparison.snapshots
        with_header = summary is not None and summary.same_header is not None
        doc_a, doc_b = _snapshot_doc(a, with_header), _snapshot_doc(b, with_header)
        # As Verist compares them: the commands by index, the output and the commands only
        # when both sides have them.
        by_index = frozenset({("commands",)})
        uncompared = frozenset({("output",), ("commands",)})
    layout = _Layout(ignore, events_at, pairs, by_index=by_index, uncompared=uncompared)
    layout.both(doc_a, doc_b, None, None, 0, ())
    event_rows = tuple(layout.event_rows.get(n, -1) for n in range(len(timeline)))
    return SideBySide(
        comparison,
        tuple(timeline),
        tuple(layout.rows),
        event_rows,
        events_at if timeline else None,
        unfiltered,
        tuple(layout.starts),
    )


__all__ = [
    "CONTEXT_LINES",
    "Fold",
    "Folded",
    "SideBySide",
    "SideRow",
    "fold_rows",
    "side_by_side",
]
