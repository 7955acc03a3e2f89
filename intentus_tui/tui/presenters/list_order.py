"""The execution list's orders: a verdict as the list keeps it, every execution newest
first, the sorts offered, and the row keys each makes (merged in as rows arrive, or made
whole on a worker thread by a ``SortJob``)."""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from operator import itemgetter
from typing import NamedTuple

from intentus_tui.core.model import ExecutionSummary
from intentus_tui.tui.presenters.list_groups import VerdictKind, group_of_kind, kind_of


def parse_created(created: str) -> float:
    """Seconds since the epoch, or +inf for a missing or unparseable time (sorts last)."""
    if not created:
        return math.inf
    try:
        return datetime.fromisoformat(created.replace("Z", "+00:00")).timestamp()
    except (ValueError, OverflowError, OSError):
        return math.inf


def newest_first(ts: float) -> float:
    return -ts if ts != math.inf else math.inf


# An execution as a re-sort needs it: (group, newest-first time, file key, time, intent
# casefolded, minus its attempts, ``copy_rank``: a record before its copies of one time).
# Plain values only, no summary: the cyclic collector stops tracking such tuples, so the
# 100,000 kept add nothing to each full collection (holding the summary, they added ~50 ms
# to each, stalling a key now and then).
Base = tuple[int, float, str, float, str, int, int]


class Sort(NamedTuple):
    """An order of the list. Every order ends in newest first, then ``copy_rank`` and the
    file key (a record before its copies of the same time, as every listing); ``lead``
    gives the fields before those, of one row (from the summary, its group and its time),
    and ``lead_column`` the same for every row at once (a comprehension: a call per row
    costs more than the sort). Each field is of one type in every row."""

    name: str
    label: str
    lead: Callable[[ExecutionSummary, int, float], tuple[object, ...]]
    lead_column: Callable[[list[Base]], list[object]] | None
    short: str | None = None  # its name where the whole label does not fit (a narrow list)


SORTS: tuple[Sort, ...] = (
    Sort("newest", "newest first", lambda s, g, ts: (), None),
    Sort("oldest", "oldest first", lambda s, g, ts: (ts,), lambda base: [b[3] for b in base]),
    Sort(
        "intent",
        "intent",
        lambda s, g, ts: (s.intent.casefold(),),
        lambda base: [b[4] for b in base],
    ),
    Sort(
        "verdict",
        "verdict, failures first",
        lambda s, g, ts: (g,),
        lambda base: [b[0] for b in base],
        short="by verdict",
    ),
    Sort(
        "attempts",
        "most attempts",
        lambda s, g, ts: (-s.attempts,),
        lambda base: [b[5] for b in base],
    ),
)


RowKey = tuple[object, ...]

# Fewer new rows than this go into the every-execution order one by one (a bisect each).
MERGE_AT = 32

# A verdict as the model keeps it: the summary, its verdict codes, group and creation time.
Verdict = tuple[ExecutionSummary, VerdictKind, int, float]


_GROUP_NUMBERS: dict[VerdictKind, int] = {}  # group_of_kind as an int, for each kind seen


def verdict_entry(summary: ExecutionSummary) -> Verdict:
    """What the model keeps of ``summary``'s verdict (made once per summary): the
    summary, its verdict codes, its group (as an int) and its creation time."""
    kind = kind_of(summary)
    group = _GROUP_NUMBERS.get(kind)
    if group is None:
        group = _GROUP_NUMBERS[kind] = int(group_of_kind(kind))
    return summary, kind, group, parse_created(summary.created)


# ``(newest-first order, sorted row keys)``: what a sort makes.
SortResult = tuple[list[Base], list[RowKey]]
NEWEST_FIRST = itemgetter(1, 6, 2)


def base_of(verdict: Verdict) -> Base:
    summary, _, group, ts = verdict
    return (
        group,
        newest_first(ts),
        summary.key,
        ts,
        summary.intent.casefold(),
        -summary.attempts,
        summary.copy_rank,
    )


def remove_base(order: list[Base], base: Base) -> None:
    """Remove ``base``'s execution from the newest-first ``order`` (if there)."""
    index = bisect_left(order, (base[1], base[6], base[2]), key=NEWEST_FIRST)
    if index < len(order) and order[index][2] == base[2]:
        del order[index]


def newest_order(summaries: list[ExecutionSummary], verdicts: dict[str, Verdict]) -> list[Base]:
    """Every execution newest first, then by copy rank and file key. ``verdicts``: those
    already made, only read (so this may run on another thread): a missing one is made,
    not kept."""
    order: list[Base] = []
    for summary in summaries:
        cached = verdicts.get(summary.key)
        if cached is None or cached[0] is not summary:
            cached = verdict_entry(summary)
        order.append(base_of(cached))
    order.sort(key=NEWEST_FIRST)
    return order


def sorted_rows(newest: list[Base], sort: Sort, grouped: bool) -> list[RowKey]:
    """Every execution's row key in ``sort``'s order, from the executions newest first.

    Every order ends in newest first, then the copy rank and file key, so the rows need
    only a stable sort by the order's leading field and then by group, each a pass over
    plain floats, ints or strings (which CPython compares without the tuple machinery):
    100,000 shuffled rows cost 65-100 ms of CPU instead of ~260 ms sorting the row-key tuples
    (``bench/bench_list_model.py``)."""
    column = sort.lead_column
    rows: list[RowKey]
    if column is None:
        if grouped:
            rows = [(b[0], 1, b[1], b[6], b[2]) for b in newest]
        else:
            rows = [(0, 1, b[1], b[6], b[2]) for b in newest]
    else:
        leads = column(newest)
        if grouped:
            rows = [
                (b[0], 1, lead, b[1], b[6], b[2]) for lead, b in zip(leads, newest, strict=True)
            ]
        else:
            rows = [(0, 1, lead, b[1], b[6], b[2]) for lead, b in zip(leads, newest, strict=True)]
        rows.sort(key=itemgetter(2))
    if grouped:
        rows.sort(key=itemgetter(0))
    return rows


@dataclass(frozen=True, slots=True)
class SortJob:
    """A re-sort of every execution, made by ``ListModel.sort_job``. ``run`` only reads
    what the job holds (summaries and tuples, never changed), so it may run on another
    thread while the model changes; ``ListModel.finish_sort`` then refuses a stale one."""

    sort: Sort
    grouped: bool
    generation: int
    # A copy of the model's newest-first order, if it had one; else every execution (and
    # the verdicts made of them). Not in the repr: 100,000 executions.
    newest: list[Base] | None = field(repr=False)
    summaries: list[ExecutionSummary] = field(repr=False)
    verdicts: dict[str, Verdict] = field(repr=False)

    def run(self) -> SortResult:
        newest = self.newest
        if newest is None:
            newest = newest_order(self.summaries, self.verdicts)
        return newest, sorted_rows(newest, self.sort, self.grouped)
