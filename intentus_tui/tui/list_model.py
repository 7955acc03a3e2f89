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

from intentus_tui.core.index import ExecutionSummary
from intentus_tui.core.timeline import ExecutionState


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


@lru_cache(maxsize=262144)
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


def haystack_of(summary: ExecutionSummary) -> str:
    """The text ``/`` searches: id, intent, agents, state, group title, source, file name."""
    return "\n".join(
        (
            summary.execution_id,
            summary.intent,
            summary.agent,
            summary.chain,
            summary.state_label,
            summary.state.value,
            GROUP_TITLES[group_of(summary)],
            summary.source,
            summary.key,
        )
    ).casefold()


RowKey = tuple[object, ...]


class ListModel:
    """Rows of the execution list. Row ``i`` is a group header or an execution's file key."""

    # A change touching more rows than this re-sorts everything (cheaper than many bisects).
    REBUILD_THRESHOLD = 2000

    def __init__(self) -> None:
        self.summaries: dict[str, ExecutionSummary] = {}
        self.view: View = VIEWS[0]
        self.sort: Sort = SORTS[0]
        self.query: str = ""
        self.rows: list[RowKey] = []
        self.counts: Counter[str] = Counter()
        self._row_key_of: dict[str, RowKey] = {}  # shown executions only
        self._group_sizes: Counter[Group] = Counter()  # shown executions per group
        self._haystacks: dict[str, str] = {}
        self._terms: tuple[str, ...] = ()

    # ------------------------------------------------------------------ queries

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def shown_count(self) -> int:
        return len(self._row_key_of)

    def is_header(self, row: int) -> bool:
        return self.rows[row][1] == 0

    def header_of(self, row: int) -> tuple[Group, int]:
        group = Group(cast(int, self.rows[row][0]))
        return group, self._group_sizes[group]

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
        row_key = self._row_key_of.get(key)
        if row_key is None:
            return None
        return bisect_left(self.rows, row_key)

    def nearest_item(self, row: int, step: int = 1) -> int | None:
        """The first execution row at or after ``row`` going by ``step``; then the other way."""
        if not self._row_key_of:
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
        self.view = view
        self.rebuild()

    def set_sort(self, sort: Sort) -> None:
        self.sort = sort
        self.rebuild()

    def set_query(self, query: str) -> None:
        self.query = query
        self._terms = tuple(query.casefold().split())
        self.rebuild()

    # ------------------------------------------------------------------ updates

    def _row_key(self, summary: ExecutionSummary) -> RowKey:
        group = int(group_of(summary)) if self.view.grouped else 0
        return (group, 1, *self.sort.key(summary), summary.key)

    def _matches(self, summary: ExecutionSummary) -> bool:
        if self.view.only is not None and group_of(summary) is not self.view.only:
            return False
        if not self._terms:
            return True
        haystack = self._haystacks.get(summary.key)
        if haystack is None:
            haystack = self._haystacks[summary.key] = haystack_of(summary)
        return all(term in haystack for term in self._terms)

    def _group_key(self, row_key: RowKey) -> Group:
        return Group(cast(int, row_key[0]))

    def rebuild(self) -> None:
        """Recompute every shown row from the summaries (after a view, sort or filter change)."""
        shown = {key: self._row_key(s) for key, s in self.summaries.items() if self._matches(s)}
        self._row_key_of = shown
        rows = sorted(shown.values())
        self._group_sizes = Counter()
        if self.view.grouped:
            for row_key in rows:
                self._group_sizes[self._group_key(row_key)] += 1
            headers: list[RowKey] = [(int(g), 0) for g in self._group_sizes]
            rows = sorted(rows + headers)
        self.rows = rows

    def replace_all(self, summaries: Iterable[ExecutionSummary]) -> None:
        self.summaries = {s.key: s for s in summaries}
        self._haystacks.clear()
        self.counts = Counter(category_of(s) for s in self.summaries.values())
        self.rebuild()

    def apply(self, changed: Iterable[ExecutionSummary], removed: Iterable[str] = ()) -> bool:
        """Add or replace ``changed`` and drop ``removed``; return whether rows were re-sorted."""
        changed = list(changed)
        removed = [k for k in removed if k in self.summaries]
        for key in removed:
            self.counts[category_of(self.summaries.pop(key))] -= 1
            self._haystacks.pop(key, None)
        for summary in changed:
            old = self.summaries.get(summary.key)
            if old is not None:
                self.counts[category_of(old)] -= 1
                self._haystacks.pop(summary.key, None)
            self.summaries[summary.key] = summary
            self.counts[category_of(summary)] += 1
        self.counts = +self.counts  # drop zero counts
        if len(changed) + len(removed) > max(self.REBUILD_THRESHOLD, len(self.rows) // 8):
            self.rebuild()
            return True
        for key in removed:
            self._unshow(key)
        for summary in changed:
            self._unshow(summary.key)
            if self._matches(summary):
                self._show(summary)
        return False

    def _unshow(self, key: str) -> None:
        row_key = self._row_key_of.pop(key, None)
        if row_key is None:
            return
        del self.rows[bisect_left(self.rows, row_key)]
        if self.view.grouped:
            group = self._group_key(row_key)
            self._group_sizes[group] -= 1
            if self._group_sizes[group] == 0:
                del self._group_sizes[group]
                del self.rows[bisect_left(self.rows, (int(group), 0))]

    def _show(self, summary: ExecutionSummary) -> None:
        row_key = self._row_key(summary)
        self._row_key_of[summary.key] = row_key
        insort(self.rows, row_key)
        if self.view.grouped:
            group = self._group_key(row_key)
            if self._group_sizes[group] == 0:
                insort(self.rows, (int(group), 0))
            self._group_sizes[group] += 1
