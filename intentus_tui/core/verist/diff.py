"""Structural diff, apply and format with Verist's semantics (seed 004, DESIGN 2.4).

Ported from Verist's ``diff.ts`` / ``normalize.ts`` behaviour, exactly where it is observable:

- ``diff(before, after)`` walks depth-first. Arrays are compared **by index**; object keys are
  visited in JavaScript ``Array.prototype.sort()`` order (UTF-16 code units). A key only in
  ``after`` is ``DiffEntry(path, MISSING, after)``, a key only in ``before`` is
  ``DiffEntry(path, before, MISSING)``. A type change, or two different primitives, is one entry
  at that path. ``MISSING`` (JavaScript ``undefined``) in an object counts as an absent key, so
  ``{"a": MISSING}`` equals ``{}``; past the end of an array it is reported (``[1]`` vs
  ``[1, MISSING]`` is one entry whose both sides are ``MISSING``).
- Equality is JavaScript's ``===`` on primitives: ``True`` is not ``1`` (Python would say it is),
  ``1`` is ``1.0``, ``-0`` is ``0``. ``NaN`` (not JSON, but Python's parser accepts it) differs
  from another ``NaN``, though a subtree holding the very same NaN object compares equal.
- ``apply_diff`` applies removals at descending array indices (Verist's comparator, with the same
  stable sort) and raises ``DiffError`` with Verist's messages on a bad path.
- ``format_diff`` lines are ``+ path: after``, ``- path: before``, ``  path: before → after`` or
  ``(no changes)``; ``format_path`` prints ``a.b[0].c`` and ``(root)`` for the empty path, as
  Verist's ``formatPath`` does (keys are not escaped: a key containing ``.`` prints as is).
- ``key_by`` is Verist's ``normalizeForDiff``: arrays at dot-paths become maps keyed by an element
  field, so a reordered array compares equal and a changed element is reported by identity.

Beyond Verist (off by default): ``diff(..., aligned=True)`` aligns arrays on element hashes
(Myers, with a patience-anchor fallback for large edit distances) so an element inserted at the
front is one ``insert`` entry instead of one entry per shifted index. Aligned entries carry an
``array_op`` and their indices are positions in the *after* array (``delete`` entries: in the
*before* array); ``apply_diff`` understands both forms.

The walk uses an explicit stack, so nesting depth is limited by memory, not by Python's stack.
Subtrees that are equal are skipped at C speed (Python ``==`` plus an ``orjson`` byte comparison
that tells ``true`` from ``1``), which keeps large, mostly-equal records fast.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cmp_to_key
from typing import Any, Literal, TypeAlias

import orjson

from intentus_tui.core.verist.missing import MISSING

__all__ = [
    "MISSING",
    "DiffEntry",
    "DiffError",
    "DiffResult",
    "KeyFn",
    "Path",
    "PathKey",
    "apply_diff",
    "diff",
    "format_diff",
    "format_entry",
    "format_path",
    "format_value",
    "js_typeof",
    "key_by",
]

PathKey: TypeAlias = str | int
Path: TypeAlias = tuple[PathKey, ...]
EntryKind: TypeAlias = Literal["added", "removed", "changed"]
ArrayOp: TypeAlias = Literal["insert", "delete"]
KeyFn: TypeAlias = str | Callable[[Any], Any]


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
# JavaScript value model
# --------------------------------------------------------------------------------------------


def js_typeof(value: Any) -> str:
    """JavaScript's ``typeof`` for a JSON value (``null`` gives ``"null"``, as Verist prints it)."""
    if value is MISSING:
        return "undefined"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object"


def _js_number_to_string(value: int | float) -> str:
    """JavaScript ``String(n)``."""
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
    # For finite numbers JSON.stringify(n) and String(n) print the same digits.
    return _verist_stringify(value)


def _verist_stringify(value: Any) -> str:
    """Verist's ``stableStringify`` (lives in hashing; imported lazily)."""
    from intentus_tui.core.records import hashing

    stringify: Callable[[Any], str] = getattr(hashing, "verist_stringify")  # noqa: B009
    return stringify(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _js_strict_equal(b: Any, a: Any) -> bool:
    """``b === a`` for values that are not both containers of the same kind."""
    if b is a:
        # JavaScript: NaN !== NaN even when it is "the same" value.
        return not (type(b) is float and b != b)
    tb = type(b)
    if tb is type(a):
        if tb is dict or tb is list:
            return False  # two distinct objects are never === (only reached for opaque uses)
        return bool(b == a)
    if _is_number(b) and _is_number(a):
        return bool(b == a)
    if isinstance(b, str) and isinstance(a, str):
        return str(b) == str(a)
    if isinstance(b, bool) and isinstance(a, bool):
        return bool(b) == bool(a)
    return False


def _utf16_key(key: Any) -> bytes:
    return str(key).encode("utf-16-be", "surrogatepass")


def _js_sorted(keys: Iterable[Any]) -> list[Any]:
    """``Array.prototype.sort()`` order: UTF-16 code units, not code points."""
    ks = list(keys)
    try:
        if all(map(str.isascii, ks)):  # O(1) per key in CPython
            ks.sort()
            return ks
    except TypeError:
        pass  # a non-string key: JavaScript would compare its string form
    ks.sort(key=_utf16_key)
    return ks


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
            if not _js_strict_equal(b, a):
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
        if not _js_strict_equal(b, a):
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
    keys = _js_sorted(b.keys() if b.keys() == a.keys() else set(b) | set(a))
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


# --------------------------------------------------------------------------------------------
# Aligned arrays (beyond Verist)
# --------------------------------------------------------------------------------------------

_MYERS_MAX_EDITS = 1000  # never search for a shortest script longer than this
_PATIENCE_ABOVE = 400  # regions with more elements than this are anchored before Myers
_ANCHOR_MAX_LEVELS = 32  # patience recursion depth (each level strictly shrinks the region)


def _fingerprint(value: Any) -> Any:
    """A hashable key that is equal for JavaScript-equal values (1 == 1.0, true != 1)."""
    if value is None or value is MISSING:
        return (0, None)
    t = type(value)
    if t is bool:
        return (1, value)
    if t is int or t is float:
        return (2, value)
    if t is str:
        return (3, value)
    try:
        # Key order is not normalised (sorting costs ~2x): equal objects whose keys are in a
        # different order just pair up as a substitution whose recursive diff is empty.
        return (4, orjson.dumps(value))
    except TypeError:
        return (5, id(value))  # unsupported by orjson: equal only to itself


def _push_aligned_children(
    b: Sequence[Any],
    a: Sequence[Any],
    node: Any,
    depth: int,
    fast_from: int,
    push: Callable[[tuple[Any, Any, Any, int, int]], None],
) -> None:
    items: list[tuple[Any, Any, Any, int, int]] = []
    for op, i, j in _align(b, a):
        if op == "sub":
            if not _skip_pair(b[i], a[j]):
                items.append((b[i], a[j], (node, j), depth, fast_from))
        elif op == "del":
            items.append((b[i], MISSING, (node, i), _EMIT_DELETE, 0))
        else:
            items.append((MISSING, a[j], (node, j), _EMIT_INSERT, 0))
    for item in reversed(items):
        push(item)


def _align(b: Sequence[Any], a: Sequence[Any]) -> list[tuple[str, int, int]]:
    """Edit script without the equal pairs: ("sub", i, j), ("del", i, -1), ("ins", -1, j).

    Within each run of edits between two matches, deleted and inserted elements of the same
    shape are paired up as substitutions, so an element changed in place diffs recursively.
    When aligning does not beat pairing by index (``[0, 0, 1]`` -> ``[1, 0, 2]``), the
    by-index script is used, so aligned mode never reports more changed elements.
    """
    nb, na = len(b), len(a)
    ids: dict[Any, int] = {}
    sb = [ids.setdefault(_fingerprint(x), len(ids)) for x in b]
    sa = [ids.setdefault(_fingerprint(x), len(ids)) for x in a]
    matches = _match_pairs(sb, sa)
    out: list[tuple[str, int, int]] = []
    pi = pj = 0
    for mi, mj in [*matches, (nb, na)]:
        if mi > pi or mj > pj:  # a run of edits between two matches
            out.extend(_pair_hunk(b, a, range(pi, mi), range(pj, mj)))
        pi, pj = mi + 1, mj + 1
    common = min(nb, na)
    by_index = [("sub", i, i) for i in range(common) if sb[i] != sa[i]]
    if len(by_index) + abs(nb - na) < len(out):
        by_index += [("del", i, -1) for i in range(common, nb)]
        by_index += [("ins", -1, j) for j in range(common, na)]
        return by_index
    return out


_HUNK_SHAPE_LIMIT = 200  # longer runs are paired by position only


def _shape(value: Any) -> Any:
    if isinstance(value, dict):
        return ("object", tuple(sorted(map(str, value))))
    if isinstance(value, list):
        return ("array",)
    return ("scalar", js_typeof(value))


def _pair_hunk(
    b: Sequence[Any], a: Sequence[Any], dels: range, inss: range
) -> list[tuple[str, int, int]]:
    pairs: list[tuple[int, int]] = []
    if dels and inss and len(dels) + len(inss) <= _HUNK_SHAPE_LIMIT:
        ids: dict[Any, int] = {}
        xs = [ids.setdefault(_shape(b[i]), len(ids)) for i in dels]
        ys = [ids.setdefault(_shape(a[j]), len(ids)) for j in inss]
        found = _myers(xs, ys, _HUNK_SHAPE_LIMIT, _Budget(_HUNK_SHAPE_LIMIT))
        pairs = [(dels[x], inss[y]) for x, y in found or ()]
    out: list[tuple[str, int, int]] = []
    pi, pj = dels.start, inss.start
    for mi, mj in [*pairs, (dels.stop, inss.stop)]:
        gap_d, gap_i = range(pi, mi), range(pj, mj)
        paired = min(len(gap_d), len(gap_i))  # what is left pairs up by position
        out.extend(("sub", gap_d[k], gap_i[k]) for k in range(paired))
        out.extend(("del", i, -1) for i in gap_d[paired:])
        out.extend(("ins", -1, j) for j in gap_i[paired:])
        if mi < dels.stop:
            out.append(("sub", mi, mj))
        pi, pj = mi + 1, mj + 1
    return out


class _Budget:
    """Bounds the Myers work for one array, so a worst case degrades instead of stalling."""

    def __init__(self, size: int) -> None:
        self.left = 50 * size + 20_000


def _match_pairs(sb: list[int], sa: list[int]) -> list[tuple[int, int]]:
    """Matched index pairs (increasing in both): common prefix/suffix, then the middle."""
    nb, na = len(sb), len(sa)
    start = 0
    while start < nb and start < na and sb[start] == sa[start]:
        start += 1
    end_b, end_a = nb, na
    while end_b > start and end_a > start and sb[end_b - 1] == sa[end_a - 1]:
        end_b -= 1
        end_a -= 1
    budget = _Budget(nb + na)
    middle = _match_region(sb, sa, start, end_b, start, end_a, budget, 0)
    head = [(k, k) for k in range(start)]
    tail = [(end_b + k, end_a + k) for k in range(nb - end_b)]
    return head + middle + tail


def _match_region(
    sb: list[int],
    sa: list[int],
    lo_b: int,
    hi_b: int,
    lo_a: int,
    hi_a: int,
    budget: _Budget,
    level: int,
) -> list[tuple[int, int]]:
    """Matches in a region: small regions by Myers; large ones anchored on elements unique to
    both sides first (patience), then recursively; what stays unmatched pairs by position."""
    if lo_b >= hi_b or lo_a >= hi_a:
        return []
    xs, ys = sb[lo_b:hi_b], sa[lo_a:hi_a]
    # Every element not shared (as a multiset) costs one edit: a cheap lower bound on D.
    shared = sum((Counter(xs) & Counter(ys)).values())
    if shared == 0:
        return []
    anchors: list[tuple[int, int]] | None = None
    if len(xs) + len(ys) > _PATIENCE_ABOVE and level < _ANCHOR_MAX_LEVELS:
        anchors = _unique_anchors(xs, ys)
    if not anchors and len(xs) + len(ys) - 2 * shared <= _MYERS_MAX_EDITS:
        found = _myers(xs, ys, _MYERS_MAX_EDITS, budget)
        if found is not None:
            return [(lo_b + i, lo_a + j) for i, j in found]
    if anchors is None and level < _ANCHOR_MAX_LEVELS:
        anchors = _unique_anchors(xs, ys)
    if not anchors:
        return []  # nothing to anchor on: the region pairs up by position
    out: list[tuple[int, int]] = []
    pb, pa = lo_b, lo_a
    for ib, ia in anchors:
        ib += lo_b
        ia += lo_a
        out.extend(_match_region(sb, sa, pb, ib, pa, ia, budget, level + 1))
        out.append((ib, ia))
        pb, pa = ib + 1, ia + 1
    out.extend(_match_region(sb, sa, pb, hi_b, pa, hi_a, budget, level + 1))
    return out


def _unique_anchors(xs: list[int], ys: list[int]) -> list[tuple[int, int]]:
    """Patience anchors: values unique on both sides, longest run increasing on both."""
    count_x = Counter(xs)
    count_y = Counter(ys)
    pos_x = {v: i for i, v in enumerate(xs) if count_x[v] == 1}
    pairs = [(pos_x[v], j) for j, v in enumerate(ys) if count_y[v] == 1 and v in pos_x]
    # pairs is in y order; take the longest subsequence increasing in x (O(n log n)).
    tails: list[int] = []
    tail_at: list[int] = []
    prev = [-1] * len(pairs)
    for k, (i, _) in enumerate(pairs):
        p = bisect_left(tails, i)
        if p == len(tails):
            tails.append(i)
            tail_at.append(k)
        else:
            tails[p] = i
            tail_at[p] = k
        prev[k] = tail_at[p - 1] if p > 0 else -1
    chain: list[tuple[int, int]] = []
    k = tail_at[-1] if tail_at else -1
    while k >= 0:
        chain.append(pairs[k])
        k = prev[k]
    chain.reverse()
    return chain


def _myers(x: list[int], y: list[int], max_d: int, budget: _Budget) -> list[tuple[int, int]] | None:
    """Matched pairs of a shortest edit script (Myers 1986), or None past ``max_d``/budget."""
    n, m = len(x), len(y)
    limit = min(max_d, n + m)
    offset = limit + 1
    v = [0] * (2 * limit + 3)
    trace: list[list[int]] = []
    for d in range(limit + 1):
        budget.left -= d + 1
        if budget.left < 0:
            return None
        trace.append(v[offset - d - 1 : offset + d + 2])
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[offset + k - 1] < v[offset + k + 1]):
                i = v[offset + k + 1]
            else:
                i = v[offset + k - 1] + 1
            j = i - k
            while i < n and j < m and x[i] == y[j]:
                i += 1
                j += 1
            v[offset + k] = i
            if i >= n and j >= m:
                return _myers_backtrack(trace, n, m, d, k)
    return None


def _myers_backtrack(
    trace: list[list[int]], n: int, m: int, d_end: int, k_end: int
) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    i, j, k = n, m, k_end
    for d in range(d_end, 0, -1):
        vd = trace[d]  # v before round d, holding diagonals -d-1 .. d+1 at [0 .. 2d+2]
        # Down from diagonal k+1 is an insertion; right from k-1 is a deletion.
        came_down = k == -d or (k != d and vd[k - 1 + d + 1] < vd[k + 1 + d + 1])
        prev_k = k + 1 if came_down else k - 1
        prev_i = vd[prev_k + d + 1]
        prev_j = prev_i - prev_k
        while i > prev_i and j > prev_j:  # the diagonal (matches) after that edit
            i -= 1
            j -= 1
            pairs.append((i, j))
        i, j, k = prev_i, prev_j, prev_k
    while i > 0 and j > 0:
        i -= 1
        j -= 1
        pairs.append((i, j))
    pairs.reverse()
    return pairs


# --------------------------------------------------------------------------------------------
# apply_diff
# --------------------------------------------------------------------------------------------


def apply_diff(base: Any, result: DiffResult) -> Any:
    """Apply ``result`` to ``base`` and return the new value. ``base`` is never mutated.

    Only the containers along changed paths are copied; unchanged subtrees are shared with
    ``base`` and entry values are shared with the diff (as Verist shares ``entry.after``).
    """
    if result.equal:
        return base
    for entry in result.entries:
        if not entry.path:
            return entry.after  # replacement of the whole value
    writer = _CopyOnWrite(base)
    if any(e.array_op is not None for e in result.entries):
        for entry in _aligned_order(result.entries):
            writer.apply(entry, aligned=True)
    else:
        for entry in sorted(result.entries, key=_VERIST_ORDER):
            writer.apply(entry, aligned=False)
    return writer.root


def _verist_compare(x: DiffEntry, y: DiffEntry) -> int:
    # Verist's comparator: removals at numeric indices, descending; everything else "equal".
    # Python's sort is the same TimSort V8 uses, so the resulting order matches.
    if x.after is MISSING and y.after is MISSING:
        xl, yl = x.path[-1], y.path[-1]
        if _is_index(xl) and _is_index(yl):
            return int(yl) - int(xl)
    return 0


_VERIST_ORDER = cmp_to_key(_verist_compare)


def _is_index(key: Any) -> bool:
    return isinstance(key, int) and not isinstance(key, bool)


def _aligned_order(entries: Sequence[DiffEntry]) -> list[DiffEntry]:
    """Shallow containers first; per container deletions (descending), insertions, then sets.

    Paths below an aligned array use after-array positions, so an array has to reach its
    final shape before anything inside it is touched.
    """
    groups: dict[Path, list[DiffEntry]] = {}
    for entry in entries:
        groups.setdefault(entry.path[:-1], []).append(entry)
    ordered: list[DiffEntry] = []
    for parent in sorted(groups, key=len):
        group = groups[parent]
        deletes = [e for e in group if e.array_op == "delete"]
        inserts = [e for e in group if e.array_op == "insert"]
        others = [e for e in group if e.array_op is None]
        deletes.sort(key=lambda e: _as_index(e.path[-1]), reverse=True)
        inserts.sort(key=lambda e: _as_index(e.path[-1]))
        ordered.extend(deletes + inserts + others)
    return ordered


def _as_index(key: Any) -> int:
    if not _is_index(key):
        raise DiffError(f'applyDiff: array index must be number, got {js_typeof(key)} "{key}"')
    return int(key)


def _dotted(path: Sequence[PathKey]) -> str:
    # JavaScript's path.join("."), as Verist uses it in error messages.
    return ".".join(str(p) for p in path) or "(root)"


class _CopyOnWrite:
    """Applies entries to a lazily copied tree; containers from ``base`` are copied once."""

    def __init__(self, base: Any) -> None:
        self._owned: set[int] = set()
        self._keep: list[Any] = []  # keeps copies alive so their ids are never reused
        self.root = self._own(base) if isinstance(base, dict | list) else base

    def _own(self, value: Any) -> Any:
        copy: Any = dict(value) if isinstance(value, dict) else list(value)
        self._owned.add(id(copy))
        self._keep.append(copy)
        return copy

    def apply(self, entry: DiffEntry, *, aligned: bool) -> None:
        path = entry.path
        current = self.root
        for i in range(len(path) - 1):
            if not isinstance(current, dict | list):
                raise DiffError(
                    f'applyDiff: cannot traverse path at "{_dotted(path[:i])}": '
                    f"expected object, got {js_typeof(current)}"
                )
            key = path[i]
            child = _js_get(current, key)
            if isinstance(child, dict | list) and id(child) not in self._owned:
                child = self._own(child)
                _js_set(current, key, child)
            current = child
        if not isinstance(current, dict | list):
            raise DiffError(
                f'applyDiff: cannot apply change at "{_dotted(path[:-1])}": '
                f"expected object, got {js_typeof(current)}"
            )
        last = path[-1]
        if isinstance(current, list):
            if not _is_index(last):
                raise DiffError(
                    f'applyDiff: array index must be number, got {js_typeof(last)} "{last}"'
                )
            index = int(last)
            if entry.array_op == "insert":
                if not 0 <= index <= len(current):
                    raise DiffError(
                        f"applyDiff: cannot insert at index {index} of an array of "
                        f"length {len(current)}"
                    )
                current.insert(index, entry.after)
            elif entry.array_op == "delete" or (entry.after is MISSING and not aligned):
                _js_splice_one(current, index)
            else:
                _js_set(current, index, entry.after)
        elif entry.after is MISSING:
            current.pop(_dict_key(current, last), None)
        else:
            current[_dict_key(current, last)] = entry.after


def _dict_key(obj: dict[Any, Any], key: PathKey) -> Any:
    # JavaScript property keys are strings: obj[0] is obj["0"].
    if key in obj or isinstance(key, str):
        return key
    return str(key)


def _canonical_index(key: str) -> int | None:
    if key == "0" or (key.isdigit() and key.isascii() and key[0] != "0"):
        return int(key)
    return None


def _list_index(key: PathKey) -> int | None:
    if _is_index(key):
        return int(key)
    if isinstance(key, str):
        return _canonical_index(key)
    return None


def _js_get(container: dict[Any, Any] | list[Any], key: PathKey) -> Any:
    if isinstance(container, dict):
        return container.get(_dict_key(container, key), MISSING)
    index = _list_index(key)
    if index is None or not 0 <= index < len(container):
        return MISSING
    return container[index]


def _js_set(container: dict[Any, Any] | list[Any], key: PathKey, value: Any) -> None:
    if isinstance(container, dict):
        container[_dict_key(container, key)] = value
        return
    index = _list_index(key)
    if index is None or index < 0:
        # JavaScript would add a non-element property that JSON drops; refuse instead.
        raise DiffError(f'applyDiff: invalid array index "{key}"')
    if index < len(container):
        container[index] = value
    else:
        # Assigning past the end leaves holes, which JSON writes as null.
        container.extend([MISSING] * (index - len(container)))
        container.append(value)


def _js_splice_one(array: list[Any], index: int) -> None:
    start = index if index >= 0 else max(len(array) + index, 0)
    if start < len(array):
        del array[start]


# --------------------------------------------------------------------------------------------
# format
# --------------------------------------------------------------------------------------------


def format_path(path: Sequence[PathKey]) -> str:
    """Verist's ``formatPath``: ``a.b[0].c``; ``[1]`` for a leading index; ``(root)`` if empty."""
    if not path:
        return "(root)"
    parts: list[str] = []
    for i, p in enumerate(path):
        if _is_index(p):
            parts.append(f"[{p}]")
        elif i == 0:
            parts.append(str(p))
        else:
            parts.append(f".{p}")
    return "".join(parts)


def format_value(value: Any) -> str:
    """Verist's ``formatValue``: strings quoted as is, objects in Verist's canonical JSON."""
    if value is MISSING:
        return "(undefined)"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, int | float):
        return _js_number_to_string(value)
    return _verist_stringify(value)


def format_entry(entry: DiffEntry) -> str:
    """One line: ``+ path: after``, ``- path: before`` or ``  path: before → after``."""
    path = format_path(entry.path)
    kind = entry.kind
    if kind == "added":
        return f"+ {path}: {format_value(entry.after)}"
    if kind == "removed":
        return f"- {path}: {format_value(entry.before)}"
    return f"  {path}: {format_value(entry.before)} → {format_value(entry.after)}"


def format_diff(result: DiffResult) -> str:
    """Verist's ``formatDiff``: one line per entry, or ``(no changes)``."""
    if result.equal:
        return "(no changes)"
    return "\n".join(format_entry(e) for e in result.entries)


# --------------------------------------------------------------------------------------------
# key_by (Verist's normalizeForDiff)
# --------------------------------------------------------------------------------------------


def key_by(value: Any, paths: Mapping[str, KeyFn]) -> Any:
    """Turn the arrays at ``paths`` (dot-paths) into maps keyed by an element field.

    A key function is a field name or a callable returning a string or number. As in Verist,
    paths that do not resolve, pass through a non-object or end at a non-array are skipped,
    and the root must be an object. Raises ``DiffError`` with Verist's message on a duplicate
    key, an element without the field, or a key that is not a string or number.
    ``value`` is not mutated; only the containers along each path are copied.
    """
    if not paths or not isinstance(value, dict):
        return value
    result: dict[Any, Any] = dict(value)
    for dot_path, key_fn in paths.items():
        result = _key_at(result, dot_path.split("."), key_fn)
    return result


def _key_at(root: dict[Any, Any], segments: list[str], key_fn: KeyFn) -> dict[Any, Any]:
    chain: list[dict[Any, Any]] = [root]
    current: dict[Any, Any] = root
    for index, segment in enumerate(segments):
        if segment not in current:
            return root  # the path does not resolve: skipped (partial outputs)
        child = current[segment]
        if index == len(segments) - 1:
            if not isinstance(child, list):
                return root
            replacement: Any = _array_to_record(child, key_fn, ".".join(segments))
            break
        if not isinstance(child, dict):
            return root  # non-object intermediate: skipped
        chain.append(child)
        current = child
    # Rebuild the chain bottom-up with shallow copies, as the spread in Verist does.
    for obj, segment in zip(reversed(chain), reversed(segments), strict=False):
        copy = dict(obj)
        copy[segment] = replacement
        replacement = copy
    result: dict[Any, Any] = replacement
    return result


def _array_to_record(array: list[Any], key_fn: KeyFn, label: str) -> dict[str, Any]:
    record: dict[str, Any] = {}
    for i, element in enumerate(array):
        if isinstance(key_fn, str):
            raw = _js_field(element, key_fn)
            if raw is _NO_FIELD:
                raise DiffError(f'keyBy: element at {label}[{i}] has no field "{key_fn}"')
        else:
            raw = key_fn(element)
        if isinstance(raw, str):
            key = raw
        elif _is_number(raw):
            key = _js_number_to_string(raw)
        else:
            raise DiffError(f"keyBy: key must be string or number, got {_typeof_for_key(raw)}")
        if key in record:
            raise DiffError(f'keyBy: duplicate key "{key}" in {label}')
        record[key] = element
    return record


def _typeof_for_key(value: Any) -> str:
    # Plain JavaScript typeof here (Verist prints `typeof rawKey`): null is "object".
    kind = js_typeof(value)
    return "object" if kind == "null" else kind


_NO_FIELD = object()


def _js_field(element: Any, name: str) -> Any:
    """``name in element ? element[name] : <none>`` for an object or array element."""
    if isinstance(element, dict):
        return element.get(name, _NO_FIELD)
    if isinstance(element, list):
        if name == "length":
            return len(element)
        index = _canonical_index(name)
        if index is not None and index < len(element):
            return element[index]
    return _NO_FIELD
