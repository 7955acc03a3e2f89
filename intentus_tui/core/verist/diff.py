"""Verist's structural diff of two JSON values: ``diff(before, after)``.

Ported from Verist's ``diff.ts`` behaviour, exactly where it is observable:

- ``diff`` walks depth-first. Arrays are compared **by index**; object keys are visited in
  JavaScript ``Array.prototype.sort()`` order (UTF-16 code units). A key only in ``after`` is
  ``DiffEntry(path, MISSING, after)``, a key only in ``before`` is
  ``DiffEntry(path, before, MISSING)``. A type change, or two different primitives, is one entry
  at that path. ``MISSING`` (JavaScript ``undefined``) in an object counts as an absent key, so
  ``{"a": MISSING}`` equals ``{}``; past the end of an array it is reported (``[1]`` vs
  ``[1, MISSING]`` is one entry whose both sides are ``MISSING``).
- Equality is JavaScript's ``===`` on primitives (``core.verist.value``): ``True`` is not ``1``
  (Python would say it is), ``1`` is ``1.0``, ``-0`` is ``0``. ``NaN`` (not JSON, but Python's
  parser accepts it) differs from another ``NaN``, though a subtree holding the very same NaN
  object compares equal.

Beyond Verist (off by default): ``diff(..., aligned=True)`` aligns arrays on element hashes
(``core.verist.align``) so an element inserted at the front is one ``insert`` entry instead of
one entry per shifted index. Aligned entries carry an ``array_op`` and their indices are
positions in the *after* array (``delete`` entries: in the *before* array);
``core.verist.apply.apply_diff`` understands both forms.

The walk uses an explicit stack, so nesting depth is limited by memory, not by Python's stack.
Subtrees that are equal are skipped at C speed (Python ``==`` plus an ``orjson`` byte comparison
that tells ``true`` from ``1``), which keeps large, mostly-equal records fast.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

import orjson

from intentus_tui.core.verist.align import align
from intentus_tui.core.verist.missing import MISSING
from intentus_tui.core.verist.value import js_sorted, js_strict_equal

PathKey: TypeAlias = str | int


class PairedIndex(int):
    """An index in the path of an aligned diff where the two sides hold the element at
    different positions: the int is the *after* side's position (what the index of a
    changed element always is, so that ``apply_diff`` and the ignore rules see a plain
    index), ``before`` the *before* side's. Shown as ``[before→after]`` (``notation``):
    ``events[2]`` alone named A's third event on one line and B's on the next."""

    before: int

    def __new__(cls, after: int, before: int) -> PairedIndex:
        index = super().__new__(cls, after)
        index.before = before
        return index

    def __getnewargs__(self) -> tuple[int, int]:  # type: ignore[override]
        return int(self), self.before


def paired_index(before: int, after: int) -> int:
    """The path index of an element at ``before`` in one side and ``after`` in the other:
    the plain index where they agree."""
    return after if before == after else PairedIndex(after, before)


Path: TypeAlias = tuple[PathKey, ...]
EntryKind: TypeAlias = Literal["added", "removed", "changed"]
ArrayOp: TypeAlias = Literal["insert", "delete"]


class DiffError(ValueError):
    """A diff cannot be applied to this base, or ``key_by`` met a duplicate or missing key."""


@dataclass(frozen=True, slots=True)
class DiffEntry:
    """One change. ``before``/``after`` are ``MISSING`` for an added/removed key or element."""

    path: Path
    before: Any
    after: Any
    # Only set by aligned diffs: "insert" shifts later elements right, "delete" shifts them left.
    array_op: ArrayOp | None = None

    @property
    def kind(self) -> EntryKind:
        # Same precedence as Verist's formatDiff: an undefined ``before`` wins.
        if self.before is MISSING:
            return "added"
        if self.after is MISSING:
            return "removed"
        return "changed"


@dataclass(frozen=True, slots=True)
class DiffResult:
    equal: bool
    entries: tuple[DiffEntry, ...]


# --------------------------------------------------------------------------------------------
# Fast equality of whole subtrees
# --------------------------------------------------------------------------------------------

_FAST_SKIP_LEVELS = 200  # after a depth failure, retry the fast path this many levels deeper


def _fast_equal(b: Any, a: Any) -> bool | None:
    """True only if ``b`` and ``a`` are equal in JavaScript's sense; None if too deep to tell.

    Python's ``==`` confuses ``True`` with ``1``; orjson's bytes do not. orjson writes NaN as
    ``null``; Python's ``==`` does not confuse those. Together they are sound for JSON values.
    """
    try:
        if b != a:
            return False
        return orjson.dumps(b) == orjson.dumps(a)
    except RecursionError:
        return None
    except TypeError as exc:  # orjson.JSONEncodeError is a TypeError
        if "ecursion" in str(exc):
            return None
        return False  # unsupported value (huge int, lone surrogate, MISSING, ...): walk it


# --------------------------------------------------------------------------------------------
# diff
# --------------------------------------------------------------------------------------------

# A path is built lazily as a linked list of (parent, key) nodes; only entries materialise it.
_PathNode: TypeAlias = "tuple[Any, PathKey] | None"

# Stack item modes (the 4th field). >= 0: compare at this depth. Negative: emit an entry as is.
_EMIT = -1
_EMIT_INSERT = -2
_EMIT_DELETE = -3


def _walk_up(node: Any) -> Path:
    parts: list[PathKey] = []
    while node is not None:
        node, key = node
        parts.append(key)
    parts.reverse()
    return tuple(parts)


class _Paths:
    """Materialises entry paths; siblings share their parent's tuple instead of re-walking."""

    def __init__(self) -> None:
        # id(parent node) -> (parent node, its path); holding the node keeps the id unique.
        self._parents: dict[int, tuple[Any, Path]] = {}

    def of(self, node: Any) -> Path:
        if node is None:
            return ()
        parent, key = node
        if parent is None:
            return (key,)
        hit = self._parents.get(id(parent))
        if hit is None or hit[0] is not parent:
            hit = (parent, _walk_up(parent))
            self._parents[id(parent)] = hit
        return (*hit[1], key)


def diff(before: Any, after: Any, *, aligned: bool = False) -> DiffResult:
    """Structural diff of two JSON values (Verist semantics unless ``aligned``).

    ``aligned=True`` is an extension beyond Verist: arrays are aligned on element hashes so an
    insertion or deletion is one entry. Its entries carry ``array_op`` (see module docs).
    """
    entries: list[DiffEntry] = []
    append = entries.append
    path_of = _Paths().of
    stack: list[tuple[Any, Any, Any, int, int]] = [(before, after, None, 0, 0)]
    pop = stack.pop
    push = stack.append
    while stack:
        b, a, node, depth, fast_from = pop()
        if depth < 0:
            op: ArrayOp | None = (
                None if depth == _EMIT else "insert" if depth == _EMIT_INSERT else "delete"
            )
            append(DiffEntry(path_of(node), b, a, op))
            continue
        if b is a and not (type(b) is float and b != b):
            continue
        tb = type(b)
        ta = type(a)
        if tb in _PLAIN_SCALARS and ta in _PLAIN_SCALARS:
            # The common leaf case, without the isinstance checks below.
            if not js_strict_equal(b, a):
                append(DiffEntry(path_of(node), b, a))
            continue
        if tb is not ta or (tb is not dict and tb is not list):
            tb, ta = _container_kind(b), _container_kind(a)
        if tb is dict and ta is dict:
            if depth >= fast_from:
                same = _fast_equal(b, a)
                if same:
                    continue
                if same is None:
                    fast_from = depth + _FAST_SKIP_LEVELS
            _push_object_children(b, a, node, depth + 1, fast_from, push)
            continue
        if tb is list and ta is list:
            if depth >= fast_from:
                same = _fast_equal(b, a)
                if same:
                    continue
                if same is None:
                    fast_from = depth + _FAST_SKIP_LEVELS
            if aligned:
                _push_aligned_children(b, a, node, depth + 1, fast_from, push)
            else:
                _push_array_children(b, a, node, depth + 1, fast_from, push)
            continue
        if not js_strict_equal(b, a):
            append(DiffEntry(path_of(node), b, a))
    return DiffResult(not entries, tuple(entries))


_PLAIN_SCALARS = frozenset({str, int, float, bool, type(None), type(MISSING)})


def _container_kind(value: Any) -> type:
    """dict for any mapping, list for any list; the value's own type otherwise."""
    if isinstance(value, dict):
        return dict
    if isinstance(value, list):
        return list
    return type(value)


def _skip_pair(bv: Any, av: Any) -> bool:
    """Cheap pre-filter: identical objects or equal primitives of the same type."""
    if bv is av:
        return not (type(bv) is float and bv != bv)
    t = type(bv)
    return t is type(av) and t is not dict and t is not list and bool(bv == av)


def _push_object_children(
    b: Mapping[Any, Any],
    a: Mapping[Any, Any],
    node: Any,
    depth: int,
    fast_from: int,
    push: Callable[[tuple[Any, Any, Any, int, int]], None],
) -> None:
    keys = js_sorted(b.keys() if b.keys() == a.keys() else set(b) | set(a))
    bget = b.get
    aget = a.get
    # Pushed in reverse so they pop in sorted order (depth-first order of entries).
    for key in reversed(keys):
        # An absent key and an undefined value are the same thing to Verist.
        bv = bget(key, MISSING)
        av = aget(key, MISSING)
        # Inline of _skip_pair (hot loop): identical objects or equal same-type primitives.
        if bv is av:
            if type(bv) is not float or bv == bv:
                continue
        else:
            t = type(bv)
            if t is type(av) and t is not dict and t is not list and bv == av:
                continue
        push((bv, av, (node, key), depth, fast_from))


def _push_array_children(
    b: Sequence[Any],
    a: Sequence[Any],
    node: Any,
    depth: int,
    fast_from: int,
    push: Callable[[tuple[Any, Any, Any, int, int]], None],
) -> None:
    nb, na = len(b), len(a)
    common = min(nb, na)
    # Past the shorter end every index is an entry, even undefined vs undefined (as Verist does).
    for i in range(max(nb, na) - 1, common - 1, -1):
        if i >= nb:
            push((MISSING, a[i], (node, i), _EMIT, 0))
        else:
            push((b[i], MISSING, (node, i), _EMIT, 0))
    for i in range(common - 1, -1, -1):
        bv = b[i]
        av = a[i]
        if _skip_pair(bv, av):
            continue
        push((bv, av, (node, i), depth, fast_from))


def _push_aligned_children(
    b: Sequence[Any],
    a: Sequence[Any],
    node: Any,
    depth: int,
    fast_from: int,
    push: Callable[[tuple[Any, Any, Any, int, int]], None],
) -> None:
    items: list[tuple[Any, Any, Any, int, int]] = []
    for op, i, j in align(b, a):
        if op == "sub":
            if not _skip_pair(b[i], a[j]):
                items.append((b[i], a[j], (node, paired_index(i, j)), depth, fast_from))
        elif op == "del":
            items.append((b[i], MISSING, (node, i), _EMIT_DELETE, 0))
        else:
            items.append((MISSING, a[j], (node, j), _EMIT_INSERT, 0))
    for item in reversed(items):
        push(item)
