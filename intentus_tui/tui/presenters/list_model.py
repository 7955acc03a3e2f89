"""The execution list's rows: grouping, filtering, sorting, incremental updates.

Pure Python (no Textual) so it is cheap to test and to benchmark. The model keeps every
summary it was given, and a sorted list of *row keys* for the rows currently shown.
A row key is a tuple that sorts rows into place: ``(group, 0)`` for a group header and
``(group, 1, *sort fields, file key)`` for an execution. Keeping it sorted lets a live
update move one row with a bisect instead of re-sorting 100,000 rows.
"""

from __future__ import annotations

import math
from bisect import bisect_left, insort
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import IntEnum
from functools import lru_cache
from typing import cast

from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.records.timeline import ExecutionState


class Group(IntEnum):
    """Sections of the grouped list, in display order: most useful to an operator first."""

    REPLAYABLE = 0
    NOT_REPLAYABLE = 1
    INCOMPLETE = 2
    IN_FLIGHT = 3  # known only from a write-ahead log: no record file yet
    CORRUPTED = 4


GROUP_TITLES = {
    Group.REPLAYABLE: "Replayable",
    Group.NOT_REPLAYABLE: "Not replayable",
    Group.INCOMPLETE: "Incomplete (crashed or still running)",
    Group.IN_FLIGHT: "In flight (write-ahead log only)",
    Group.CORRUPTED: "Corrupted / unreadable",
}


def group_of(summary: ExecutionSummary) -> Group:
    if summary.source == "wal":
        return Group.IN_FLIGHT
    if summary.state is ExecutionState.CORRUPTED:
        return Group.CORRUPTED
    if summary.state is ExecutionState.INCOMPLETE:
        return Group.INCOMPLETE
    return Group.REPLAYABLE if summary.replayable else Group.NOT_REPLAYABLE


@dataclass(frozen=True, slots=True)
class View:
    """A way of showing the list: grouped, flat, or only one group."""

    name: str
    label: str
    grouped: bool
    only: Group | None = None


VIEWS: tuple[View, ...] = (
    View("grouped", "grouped by state", grouped=True),
    View("all", "all, ungrouped", grouped=False),
    View("replayable", "replayable only", grouped=False, only=Group.REPLAYABLE),
    View("not_replayable", "not replayable only", grouped=False, only=Group.NOT_REPLAYABLE),
    View("incomplete", "incomplete only", grouped=False, only=Group.INCOMPLETE),
    View("in_flight", "in flight (WAL) only", grouped=False, only=Group.IN_FLIGHT),
    View("corrupted", "corrupted only", grouped=False, only=Group.CORRUPTED),
)


# Small on purpose: every row key holds its timestamp already; this only spares re-parsing
# the rows a live update touches. (Caching all 100,000 would cost ~12 MB.)
@lru_cache(maxsize=4096)
def created_timestamp(created: str) -> float:
    """Seconds since the epoch, or +inf for a missing or unparseable time (sorts last)."""
    if not created:
        return math.inf
    try:
        return datetime.fromisoformat(created.replace("Z", "+00:00")).timestamp()
    except (ValueError, OverflowError, OSError):
        return math.inf


def _newest_first(s: ExecutionSummary) -> tuple[float]:
    ts = created_timestamp(s.created)
    return (-ts if ts != math.inf else math.inf,)


SortKey = Callable[[ExecutionSummary], tuple[object, ...]]


@dataclass(frozen=True, slots=True)
class Sort:
    name: str
    label: str
    key: SortKey


SORTS: tuple[Sort, ...] = (
    Sort("newest", "newest first", _newest_first),
    Sort("oldest", "oldest first", lambda s: (created_timestamp(s.created),)),
    Sort("intent", "intent", lambda s: (s.intent.casefold(), *_newest_first(s))),
    Sort("state", "state", lambda s: (int(group_of(s)), s.state_label, *_newest_first(s))),
    Sort("attempts", "most attempts", lambda s: (-s.attempts, *_newest_first(s))),
)


def category_of(summary: ExecutionSummary) -> str:
    """What the header bar counts this execution as."""
    group = group_of(summary)
    if group is Group.NOT_REPLAYABLE:
        return f"not_replayable:{summary.replay_reason or 'unknown'}"
    return group.name.lower()


_GROUP_WORDS = {int(g): title.casefold() for g, title in GROUP_TITLES.items()}


def haystack_of(summary: ExecutionSummary, group: int | None = None) -> str:
    """The text ``/`` searches: id, intent, agents, state, group title, source, file name."""
    group = int(group_of(summary)) if group is None else group
    return (
        (
            f"{summary.execution_id}\n{summary.intent}\n{summary.agent}\n{summary.chain}\n"
            f"{summary.state_label}\n{summary.state.value}\n{summary.source}\n{summary.key}"
        ).casefold()
        + "\n"
        + _GROUP_WORDS[group]
    )


RowKey = tuple[object, ...]

# Fewer new rows than this are inserted one by one (a bisect each, in place).
_MERGE_AT = 32
# A batch this large against the rows (1/16 of them or more) is merged by one ``list.sort``
# of the two sorted runs: timsort merges them in linear time, in C. A smaller one is
# spliced in: a bisect per new row and slice copies of the rows between. ``list.sort``
# compares every row key with its neighbour (its first pass checks the long run is
# sorted), and at 1,000,000 rows those scattered tuples miss the cache: 16,384 new rows
# took 1.1 s to merge that way against 0.08 s spliced (measured on this module's row keys).
_SORT_MERGE_SHARE = 16


def _merged(rows: list[RowKey], new: list[RowKey]) -> list[RowKey]:
    """The sorted ``rows`` with the sorted ``new`` row keys inserted (``rows`` itself when
    they are few, else a new list)."""
    if len(new) < _MERGE_AT:
        for row_key in new:
            insort(rows, row_key)
        return rows
    if len(new) * _SORT_MERGE_SHARE >= len(rows):
        rows.extend(new)
        rows.sort()
        return rows
    merged: list[RowKey] = []
    start = 0
    for row_key in new:
        at = bisect_left(rows, row_key, start)
        merged += rows[start:at]
        merged.append(row_key)
        start = at
    merged += rows[start:]
    return merged


def _remove(rows: list[RowKey], row_key: RowKey) -> bool:
    """Remove ``row_key`` from the sorted ``rows``; whether it was there."""
    index = bisect_left(rows, row_key)
    if index < len(rows) and rows[index] == row_key:
        del rows[index]
        return True
    return False


class ListModel:
    """Rows of the execution list. Row ``i`` is a group header or an execution's file key.

    Two sorted lists of row keys are kept: every execution's (``_sorted_all``, re-sorted
    only when the sort or grouping changes) and the shown rows with their group headers
    (``rows``); a shown execution's row key is the same tuple in both. Typing a filter
    re-filters the first into the second in one ordered pass. A batch of new executions is
    merged into the shown rows (see ``_merged``) and only noted for the first, which is put
    in order when next needed: so the initial scan's batches cost the list about what they
    hold, not a pass over every row (which made a 1,000,000-file scan quadratic).

    Per execution only the summary and its row key are kept (a row key is a pure function
    of the summary, the sort and the grouping, so it is computed again rather than stored
    in a dict): 100,000 executions cost about 16 MB here beyond the summaries themselves.
    """

    # A change replacing or removing more existing rows than this re-sorts everything
    # (cheaper than many bisect deletions).
    REBUILD_THRESHOLD = 2000

    def __init__(self) -> None:
        self.summaries: dict[str, ExecutionSummary] = {}
        self.view: View = VIEWS[0]
        self.sort: Sort = SORTS[0]
        self.query: str = ""
        self.rows: list[RowKey] = []
        self.counts: Counter[str] = Counter()
        self._sorted_all: list[RowKey] = []
        # Row keys added since ``_sorted_all`` was last needed in order (by a filter, a view
        # change or a removal): the initial scan merges each batch into the shown rows only.
        self._unmerged: list[RowKey] = []
        self._shown = 0  # executions among ``rows``
        self._group_sizes: Counter[int] = Counter()  # shown executions per group
        self._haystacks: dict[str, str] = {}  # filled while a filter is typed
        self._terms: tuple[str, ...] = ()

    # ------------------------------------------------------------------ queries

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def shown_count(self) -> int:
        return self._shown

    def is_header(self, row: int) -> bool:
        return self.rows[row][1] == 0

    def header_of(self, row: int) -> tuple[Group, int]:
        group = cast(int, self.rows[row][0])
        return Group(group), self._group_sizes[group]

    def key_at(self, row: int) -> str | None:
        """The file key of the execution on ``row``, or ``None`` for a header or no row."""
        if 0 <= row < len(self.rows) and self.rows[row][1] != 0:
            key = self.rows[row][-1]
            assert isinstance(key, str)
            return key
        return None

    def summary_at(self, row: int) -> ExecutionSummary | None:
        key = self.key_at(row)
        return self.summaries.get(key) if key is not None else None

    def row_of(self, key: str) -> int | None:
        summary = self.summaries.get(key)
        if summary is None:
            return None
        row_key = self._row_key(summary)
        index = bisect_left(self.rows, row_key)
        if index < len(self.rows) and self.rows[index] == row_key:
            return index
        return None

    def nearest_item(self, row: int, step: int = 1) -> int | None:
        """The first execution row at or after ``row`` going by ``step``; then the other way."""
        if not self._shown:
            return None
        row = max(0, min(row, len(self.rows) - 1))
        for direction in (step, -step):
            probe = row
            while 0 <= probe < len(self.rows):
                if self.rows[probe][1] != 0:
                    return probe
                probe += direction
        return None

    # ------------------------------------------------------------------ settings

    def set_view(self, view: View) -> None:
        regroup = view.grouped != self.view.grouped
        self.view = view
        if regroup:
            self.rebuild()
        else:
            self._refilter()

    def set_sort(self, sort: Sort) -> None:
        self.sort = sort
        self.rebuild()

    def set_query(self, query: str) -> None:
        self.query = query
        self._terms = tuple(query.casefold().split())
        self._refilter()

    # ------------------------------------------------------------------ building

    def _row_key(self, summary: ExecutionSummary) -> RowKey:
        group = int(group_of(summary)) if self.view.grouped else 0
        return (group, 1, *self.sort.key(summary), summary.key)

    def _matches(self, summary: ExecutionSummary) -> bool:
        only = self.view.only
        if only is not None and group_of(summary) is not only:
            return False
        if not self._terms:
            return True
        key = summary.key
        haystack = self._haystacks.get(key)
        if haystack is None:
            haystack = self._haystacks[key] = haystack_of(summary)
        return all(term in haystack for term in self._terms)

    def rebuild(self) -> None:
        """Re-sort every execution (after a sort or grouping change), then re-filter."""
        row_key = self._row_key
        self._sorted_all = sorted(row_key(s) for s in self.summaries.values())
        self._unmerged = []
        self._refilter()

    def _all_in_order(self) -> list[RowKey]:
        """Every execution's row key, sorted (merging in those added since last asked)."""
        if self._unmerged:
            self._sorted_all.extend(self._unmerged)
            self._sorted_all.sort()
            self._unmerged = []
        return self._sorted_all

    def _refilter(self) -> None:
        """Recompute the shown rows from the sorted executions, in one ordered pass."""
        rows: list[RowKey] = []
        sizes: Counter[int] = Counter()
        grouped = self.view.grouped
        current_group: object = None
        summaries = self.summaries
        matches = self._matches
        everything = self.view.only is None and not self._terms
        for row_key in self._all_in_order():
            if not everything and not matches(summaries[cast(str, row_key[-1])]):
                continue
            if grouped:
                group = cast(int, row_key[0])
                if group != current_group:
                    rows.append((group, 0))
                    current_group = group
                sizes[group] += 1
            rows.append(row_key)
        self.rows, self._group_sizes = rows, sizes
        self._shown = len(rows) - (len(sizes) if grouped else 0)

    def replace_all(self, summaries: Iterable[ExecutionSummary]) -> None:
        self.summaries = {s.key: s for s in summaries}
        self._haystacks.clear()
        self.counts = Counter(category_of(s) for s in self.summaries.values())
        self.rebuild()

    # ------------------------------------------------------------------ updates

    def apply(self, changed: Iterable[ExecutionSummary], removed: Iterable[str] = ()) -> bool:
        """Add or replace ``changed`` and drop ``removed``; return whether rows were re-sorted.

        New executions are merged in whatever their number; replacing or removing many
        existing ones re-sorts everything instead (see ``REBUILD_THRESHOLD``).
        """
        latest = {s.key: s for s in changed}  # a key twice in one batch: the last one wins
        summaries = self.summaries
        # removals first: a key both removed and changed in one batch ends up changed
        gone_keys = {k: None for k in removed if k in summaries}
        gone = [summaries[k] for k in gone_keys]
        replaced = [summaries[k] for k in latest if k in summaries and k not in gone_keys]
        big = len(gone) + len(replaced) > max(self.REBUILD_THRESHOLD, len(self.rows) // 8)
        counts = self.counts
        for old in (*gone, *replaced):
            counts[category_of(old)] -= 1
            self._haystacks.pop(old.key, None)
            del summaries[old.key]
            if not big:
                self._forget(old)
        for summary in latest.values():
            summaries[summary.key] = summary
            counts[category_of(summary)] += 1
        if gone or replaced:
            self.counts = +counts  # drop zero counts
        if big:
            self.rebuild()
        else:
            self._add(list(latest.values()))
        return big

    def _forget(self, summary: ExecutionSummary) -> None:
        row_key = self._row_key(summary)
        _remove(self._all_in_order(), row_key)
        if not _remove(self.rows, row_key):
            return
        self._shown -= 1
        if self.view.grouped:
            group = cast(int, row_key[0])
            self._group_sizes[group] -= 1
            if self._group_sizes[group] == 0:
                del self._group_sizes[group]
                _remove(self.rows, (group, 0))

    def _add(self, summaries: list[ExecutionSummary]) -> None:
        if not summaries:
            return
        row_key = self._row_key
        new = sorted(row_key(s) for s in summaries)
        self._unmerged += new
        if self.view.only is not None or self._terms:
            matches, by_key = self._matches, self.summaries
            new = [rk for rk in new if matches(by_key[cast(str, rk[-1])])]
        headers: list[RowKey] = []
        if self.view.grouped:
            sizes = self._group_sizes
            for rk in new:
                group = cast(int, rk[0])
                if not sizes[group]:
                    headers.append((group, 0))
                sizes[group] += 1
            if headers:
                new = sorted(new + headers)
        self._shown += len(new) - len(headers)
        self.rows = _merged(self.rows, new)
