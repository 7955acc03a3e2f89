"""The rows the ``/`` filter found by each query the one typed starts with, kept so that a
backspace shows those of the query before at once (searching every execution again took
0.16 s at 100,000), and kept right through a live change: the rows changed are taken out
of each and put in where its query finds them, which is what a search made now would find
(whether a row is found depends on it alone: its searched text and its verdict codes)."""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Iterable, Sequence

from intentus_tui.tui.presenters.list_groups import Group, VerdictKind
from intentus_tui.tui.presenters.list_search import (
    VERDICT_TERMS,
    as_searched,
    query_terms,
    term_found,
)

RowKey = tuple[object, ...]
# What the rows kept were made under: the model's generation, view and sort.
Tag = tuple[object, ...]
# A changed execution's row key, its verdict codes, its group and its searched texts (its
# own and its verdict's words, as ``term_found`` takes them).
Arrival = tuple[RowKey, VerdictKind, int, Callable[[], tuple[bytes, bytes]]]


def remove_sorted(rows: list[RowKey], row_key: RowKey) -> bool:
    """Remove ``row_key`` from the sorted ``rows``; whether it was there."""
    index = bisect_left(rows, row_key)
    if index < len(rows) and rows[index] == row_key:
        del rows[index]
        return True
    return False


def _finds(query: str, only: frozenset[Group] | None) -> Callable[[Arrival], bool]:
    """Whether ``query`` finds a row in a view showing the groups ``only``: as the model's
    search does (its verdict terms asked of the codes, its text terms of the text)."""
    terms = query_terms(query)
    text = tuple(as_searched(t) for t in terms if t not in VERDICT_TERMS)
    checks = tuple(VERDICT_TERMS[t] for t in terms if t in VERDICT_TERMS)

    def finds(arrival: Arrival) -> bool:
        _, kind, group, haystack = arrival
        if only is not None and group not in only:
            return False
        if not all(check(kind) for check in checks):
            return False
        if not text:
            return True
        searched, words = haystack()
        return all(term_found(term, searched, words) for term in text)

    return finds


class FoundRows:
    """Each query's rows (sorted row keys), under the tag they were found under."""

    def __init__(self) -> None:
        self._found: dict[str, tuple[Tag, list[RowKey]]] = {}

    def take(self, query: str, tag: Tag) -> list[RowKey] | None:
        """The rows kept for ``query`` under ``tag`` (None: none); those of a query it does
        not start with, or of another tag, are dropped."""
        found = self._found.get(query)
        self._found = {q: f for q, f in self._found.items() if query.startswith(q) and f[0] == tag}
        return found[1] if found is not None and found[0] == tag else None

    def keep(self, query: str, tag: Tag, rows: list[RowKey]) -> None:
        self._found[query] = (tag, rows)

    def __bool__(self) -> bool:
        return bool(self._found)

    def clear(self) -> None:
        self._found = {}

    def follow(
        self,
        old: Tag,
        new: Tag,
        removed: Iterable[RowKey],
        arrived: Sequence[Arrival],
        only: frozenset[Group] | None,
    ) -> None:
        """A few executions changed (the tag went from ``old`` to ``new``): each query's
        rows lose ``removed`` (the old rows of those changed or gone) and gain those of
        ``arrived`` it finds, in place."""
        removed = list(removed)
        kept: dict[str, tuple[Tag, list[RowKey]]] = {}
        for query, (tag, rows) in self._found.items():
            if tag != old:
                continue
            for row_key in removed:
                remove_sorted(rows, row_key)
            finds = _finds(query, only)
            for arrival in arrived:
                if finds(arrival):
                    insort(rows, arrival[0])
            kept[query] = (new, rows)
        self._found = kept
