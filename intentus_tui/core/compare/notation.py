"""The one path notation of every comparison output: ``events[2].payload.agent``.

JavaScript's (and jq's) form: a key that is an identifier follows a dot, an array index is in
brackets, any other key is a quoted string in brackets (``headers["x-id"]``, ``byId["7"]``),
so no path can be read two ways. The command line's text and JSON and the debugger all print
paths with ``path_text``. Where an aligned comparison paired two elements at different
positions, both show: ``events[3→2]`` is A's events[3] beside B's events[2].

Two Active Graph runs are compared as their event lists, so their paths start at an event:
that event is named by its number in its run (``runs=True``), ``#8.payload.behavior``, the
run's eighth event (1-based, as the run's own positional ids count: ``evt_008``), so that the
number a person reads is the one they find the event by in the run and in the debugger's
timelines; ``#10→#9`` is A's event #10 beside B's #9.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from intentus_tui.core.verist.diff import DiffEntry, PairedIndex, PathKey
from intentus_tui.core.verist.format import format_value
from intentus_tui.core.verist.value import is_index

ROOT_TEXT = "(root)"
ELLIPSIS = "…"
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")


def key_text(key: PathKey, *, first: bool) -> str:
    """One step of a path: ``.name``, ``[3]`` or ``["odd key"]`` (no dot when ``first``)."""
    if is_index(key):
        return f"[{key}]"
    text = str(key)
    if _IDENTIFIER.match(text):
        return text if first else f".{text}"
    return f"[{json.dumps(text, ensure_ascii=False)}]"


def format_path_text(path: Sequence[PathKey]) -> str:
    """``events[2].payload.agent``; ``(root)`` for the empty path."""
    if not path:
        return ROOT_TEXT
    return "".join(key_text(key, first=i == 0) for i, key in enumerate(path))


def event_number(index: int) -> str:
    """A run's event by its number: ``#8`` for the event at 0-based ``index`` 7."""
    return f"#{index + 1}"


def fork_event_text(event_id: str | None, index: int | None = None) -> str:
    """The event a run was forked after, numbered as a run's events are everywhere: ``#7``
    for the 0-based ``index`` 6 in its parent's log, else for ``evt_007`` (when that place
    is not known); an id of another form as it is, ``?`` for none. Raw text."""
    if index is not None:
        return event_number(index)
    if event_id is None:
        return "?"
    number = event_id.removeprefix("evt_")
    return f"#{int(number)}" if number != event_id and number.isdigit() else event_id


def run_path_text(path: Sequence[PathKey], *, both: bool = True) -> str:
    """A path in two runs' event lists, its event by number: ``#8.payload.behavior``; an
    event at different positions in A and B (``PairedIndex``) is ``#10→#9`` with ``both``,
    else B's number."""
    if not path or not is_index(path[0]):
        return shown_path_text(path) if both else format_path_text(path)
    head = path[0]
    number = event_number(int(head))
    if both and type(head) is PairedIndex:
        number = f"{event_number(head.before)}→{number}"
    return number + "".join(key_text(key, first=False) for key in path[1:])


def shown_path_text(path: Sequence[PathKey], *, runs: bool = False) -> str:
    """``format_path_text``, but an element that is at different positions in A and B (an
    aligned diff's ``PairedIndex``) shows both: ``events[3→2].payload.reason`` is A's
    fourth event and B's third. What a person reads; the ignore rules match the plain
    form (B's position). ``runs``: a path in two runs' events (``run_path_text``)."""
    if runs:
        return run_path_text(path)
    if not any(type(key) is PairedIndex for key in path):
        return format_path_text(path)
    return "".join(
        f"[{key.before}→{int(key)}]" if type(key) is PairedIndex else key_text(key, first=i == 0)
        for i, key in enumerate(path)
    )


def path_in_a(path: Sequence[PathKey]) -> list[PathKey] | None:
    """The path with A's positions where an aligned diff paired elements at different
    positions (``PairedIndex``); None where it is the path itself."""
    if not any(type(key) is PairedIndex for key in path):
        return None
    return [key.before if type(key) is PairedIndex else key for key in path]


def path_text(entry: DiffEntry, *, runs: bool = False) -> str:
    """The path of one difference, as a person reads it (``shown_path_text``)."""
    return shown_path_text(entry.path, runs=runs)


def entry_line(entry: DiffEntry, limit: int | None = None, *, runs: bool = False) -> str:
    """One line, as Verist's ``formatDiff`` writes it but with this notation:
    ``+ path: after``, ``- path: before`` or ``  path: before → after``. With ``limit``,
    a value written longer than that is cut, saying how much is left out (a record's
    payload can be megabytes on one line); a changed value's two sides where they differ
    (``cut_pair``), both from the same place."""
    path = path_text(entry, runs=runs)
    kind = entry.kind
    if kind == "added":
        return f"+ {path}: {_value(format_value(entry.after), 0, limit)}"
    if kind == "removed":
        return f"- {path}: {_value(format_value(entry.before), 0, limit)}"
    before, after = format_value(entry.before), format_value(entry.after)
    # Both cut where they differ: cut at their end, two values that differ past it read the same.
    start = 0 if limit is None else _pair_start(before, after, limit + 1)
    return f"  {path}: {_value(before, start, limit)} → {_value(after, start, limit)}"


def _value(text: str, start: int, limit: int | None) -> str:
    """``text`` from ``start``, at most ``limit`` characters of it, and how many are left out."""
    if limit is None:
        return text
    shown, left_out = _cut_from(text, start, limit + 1)
    if not left_out:
        return shown
    return f"{shown} ({left_out:,} {'characters left out' if start else 'more characters'})"


def diff_lines(
    entries: Sequence[DiffEntry], limit: int | None = None, *, runs: bool = False
) -> list[str]:
    """One line per entry (each value cut to ``limit`` characters, ``entry_line``), or
    ``(no changes)``."""
    return [entry_line(e, limit, runs=runs) for e in entries] if entries else ["(no changes)"]


def first_difference(a: str, b: str) -> int | None:
    """Where ``a`` and ``b`` first differ: the index of the first character that is not the
    same (the shorter one's length where it is how the other begins); None when equal."""
    if a == b:
        return None
    # Halving on prefixes compares in C: a megabyte value costs a few dozen slices.
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def cut_pair(a: str, b: str, limit: int) -> tuple[str, str]:
    """Two texts that are shown side by side, each cut to ``limit`` characters (an ellipsis
    for what is left out), so that where they differ stays in both: cut at their end while
    that keeps their first difference in; else both begin a little before it, at the same
    place (``…ledger and emailed the…`` beside ``…ledger and called the …``). Cut at the end
    alone, two values that differ only past the cut read the same."""
    start = _pair_start(a, b, limit)
    return _cut_from(a, start, limit)[0], _cut_from(b, start, limit)[0]


def _pair_start(a: str, b: str, limit: int) -> int:
    """Where ``cut_pair`` begins both texts: 0 where it cuts them at their end alone."""
    at = first_difference(a, b)
    if at is None or at < limit - 1 or (len(a) <= limit and len(b) <= limit):
        return 0
    # As much of what they share as leaves room for their ends; at least a few characters.
    return max(1, min(at - max(1, limit // 4), max(len(a), len(b)) - (limit - 1)))


def _cut_from(text: str, start: int, limit: int) -> tuple[str, int]:
    """``text`` from ``start`` (an ellipsis in front where that leaves some out) in at most
    ``limit`` characters, an ellipsis at the end where it is cut there; and how many of its
    characters are left out."""
    body = ELLIPSIS + text[start:] if start else text
    if len(body) <= limit:
        return body, start
    return body[: limit - 1] + ELLIPSIS, len(text) - (limit - 1 - (1 if start else 0))
