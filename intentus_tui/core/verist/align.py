"""Aligning two arrays for the diff's ``aligned=True`` mode (an extension beyond Verist).

Elements are matched on a fingerprint that is equal for JavaScript-equal values: the common
prefix and suffix first, then Myers' shortest edit script, with patience anchors (elements
unique on both sides) splitting large regions first. Whatever stays unmatched pairs up by
shape or by position, so a changed element diffs recursively instead of being reported as a
deletion plus an insertion. Every search is bounded, so a worst case degrades, never stalls.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from typing import Any

import orjson

from intentus_tui.core.verist.missing import MISSING
from intentus_tui.core.verist.value import js_typeof

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


def align(b: Sequence[Any], a: Sequence[Any]) -> list[tuple[str, int, int]]:
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
