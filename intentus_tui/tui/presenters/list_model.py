"""The execution list's rows: grouping, filtering, sorting, incremental updates.

Pure Python (no Textual) so it is cheap to test and to benchmark. The model keeps every
summary it was given, and a sorted list of *row keys* for the rows currently shown.
A row key is a tuple that sorts rows into place: ``(group, 0)`` for a group header and
``(group, 1, *sort fields, copy rank, file key)`` for an execution; the group is the execution's
verdict (``verdict_of``), failures first. Keeping it sorted lets a live
update move one row with a bisect instead of re-sorting 100,000 rows.
"""

from __future__ import annotations

import math
from bisect import bisect_left, insort
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping
from functools import partial
from typing import NamedTuple, cast

from intentus_tui.core.model import (
    ExecutionSummary,
)
from intentus_tui.core.shared_ids import SharedIds
from intentus_tui.tui.presenters.list_found import Arrival, FoundRows, remove_sorted
from intentus_tui.tui.presenters.list_groups import (
    ATTENTION_GROUPS,
    KINDS,
    Group,
    VerdictKind,
    group_of_kind,
    kind_of,
)
from intentus_tui.tui.presenters.list_order import (
    MERGE_AT,
    NEWEST_FIRST,
    SORTS,
    Base,
    RowKey,
    Sort,
    SortJob,
    SortResult,
    Verdict,
    base_of,
    newest_first,
    remove_base,
    verdict_entry,
)
from intentus_tui.tui.presenters.list_search import (
    VERDICT_TERMS,
    as_searched,
    haystack_of,
    only_substrings,
    query_terms,
    searched_words,
    term_found,
    unshown_match,
    verdict_hits,
    verdict_text,
)
from intentus_tui.tui.presenters.sorted_rows import SortedRows

# Executions handled by a thread worker between two calls of its ``pause`` (a millisecond
# or two: a key waits for the worker to get there).
PAUSE_EVERY = 500


class View(NamedTuple):
    """A way of showing the list: grouped, flat, or only some groups. ``short``: its name
    where the whole label does not fit (a narrow list's border), if not the label."""

    name: str
    label: str
    grouped: bool
    only: frozenset[Group] | None = None
    short: str | None = None


# Every execution whose outcome is succeeded (the verdict makes an untrusted one's outcome
# unknown): the "succeeded" view's rows and the header's "succeeded" count.
SUCCEEDED_GROUPS = frozenset({Group.SUCCEEDED, Group.SUCCEEDED_NOT_REPLAYABLE})
NOT_REPLAYABLE_GROUPS = frozenset({Group.SUCCEEDED_NOT_REPLAYABLE})

VIEWS: tuple[View, ...] = (
    View("grouped", "failures first, by verdict", grouped=True, short="failures first"),
    View(
        "attention",
        "needs attention only",
        grouped=True,
        only=ATTENTION_GROUPS,
        short="attention only",  # with "newest first", the 29 cells of a border at 80 columns
    ),
    View("all", "all, ungrouped", grouped=False, short="all"),
    View("succeeded", "succeeded only", grouped=False, only=SUCCEEDED_GROUPS),
    View(
        "not_replayable",
        "succeeded, not replayable only",
        grouped=False,
        only=NOT_REPLAYABLE_GROUPS,
        # "not replayable" read as all of them; the list's mark for succeeded says it in
        # one cell, leaving the sort whole on the border of 80 columns
        short="✓ no replay",
    ),
    View("failed", "failed only", grouped=False, only=frozenset({Group.FAILED})),
    View("in_flight", "in flight only", grouped=False, only=frozenset({Group.IN_FLIGHT})),
    View(
        "untrusted",
        "untrusted or unknown only",
        grouped=False,
        only=frozenset({Group.UNTRUSTED, Group.UNKNOWN}),
        short="untrust./unkn.",  # its label left the sort "n…" at 80 columns
    ),
)
FAILURES_FIRST = VIEWS[0]


def group_sizes(counts: Mapping[VerdictKind, int]) -> Counter[Group]:
    """How many executions each group holds, from the executions per verdict
    (``ListModel.counts``)."""
    sizes: Counter[Group] = Counter()
    for kind, n in counts.items():
        if n > 0:
            sizes[group_of_kind(kind)] += n
    return sizes


def size_of(groups: frozenset[Group] | None, counts: Mapping[VerdictKind, int]) -> int:
    """How many executions these groups hold (``None``: all of them), from the executions
    per verdict: the rows a view with these groups shows when no filter is typed, and the
    number the header gives for them (one count, said the same everywhere)."""
    sizes = group_sizes(counts)
    return sum(n for group, n in sizes.items() if groups is None or group in groups)


def category_of(summary: ExecutionSummary) -> VerdictKind:
    """What the header bar counts this execution as: its verdict's codes."""
    return kind_of(summary)


class ListModel:
    """Rows of the execution list. Row ``i`` is a group header or an execution's file key.

    Two sorted lists of row keys are kept: every execution's (``_sorted_all``, re-sorted
    only when the sort or grouping changes) and the shown rows with their group headers
    (``rows``); a shown execution's row key is the same tuple in both. Typing a filter
    re-filters the first into the second in one ordered pass. A batch of new executions is
    merged into the shown rows (``SortedRows``: in blocks) and only noted for the first, which is put
    in order when next needed: so the initial scan's batches cost the list about what they
    hold, not a pass over every row (which made a 1,000,000-file scan quadratic).

    Per execution only the summary, its row key and its verdict codes are kept (a row key
    is a pure function of the summary, its verdict, the sort and the grouping, so it is
    computed again rather than stored; the verdict is cached, as it costs more than the
    rest of the key).
    """

    # A change replacing or removing more existing rows than this re-sorts everything
    # (cheaper than many bisect deletions).
    REBUILD_THRESHOLD = 2000

    def __init__(self) -> None:
        self.summaries: dict[str, ExecutionSummary] = {}
        self.view: View = VIEWS[0]
        self.sort: Sort = SORTS[0]
        self.query: str = ""
        self.rows = SortedRows()
        self.counts: Counter[VerdictKind] = Counter()
        # Each execution's verdict codes, with the summary they were made from: computing
        # a verdict costs more than the rest of a row key, and re-sorts and re-filters
        # need every row's group again.
        self._kinds: dict[str, tuple[ExecutionSummary, VerdictKind, int, float]] = {}
        self._sorted_all: list[RowKey] = []
        # Row keys added since ``_sorted_all`` was last needed in order (by a filter, a view
        # change or a removal): the initial scan merges each batch into the shown rows only.
        self._unmerged: list[RowKey] = []
        self._shown = 0  # executions among ``rows``
        self._group_sizes: Counter[int] = Counter()  # shown executions per group
        self._haystacks: dict[str, bytes] = {}  # filled while a filter is typed
        self.writing: Collection[str] = frozenset()  # rows saying "… writing" (``_of_view``)
        # Every execution newest first (see ``sorted_rows``): kept through small changes,
        # None after big ones (made again by the next sort).
        self._newest_order: list[Base] | None = None
        # Counts changes of the executions or the grouping: a sort job made before one is
        # stale (``finish_sort``).
        self._generation = 0
        self._terms: tuple[str, ...] = ()  # the query's terms (``query_terms``)
        self._text_terms: tuple[bytes, ...] = ()  # those searched in the text (``as_searched``)
        # What the verdict terms among them ask of an execution's verdict codes.
        self._verdict_checks: tuple[Callable[[VerdictKind], bool], ...] = ()
        # Execution ids more than one file holds (copies of a record): their rows name
        # their files. Counted as executions come and go; nothing more while none repeats.
        self.shared_ids = SharedIds()
        # The rows shown that the filter finds by what no row shows alone, by key: the
        # part found in (``unshown_match``; None: to be counted, ``found_unshown``).
        self._unshown: dict[str, str] | None = None
        # The rows found by each query the one typed starts with: a backspace shows those
        # of the query before at once (it searched every execution again: 0.16 s at
        # 100,000), while no view or sort changed since; a few executions changing, they
        # follow (``FoundRows.follow``).
        self._found = FoundRows()
        self._ordered: list[RowKey] = []  # the execution rows ``_show`` showed last

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
        index = self.rows.bisect_left(row_key)
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

    def copies(self) -> list[ExecutionSummary]:
        """The executions whose id another file holds too (none, at no cost, usually)."""
        shared = self.shared_ids
        if not shared:
            return []
        return [s for s in self.summaries.values() if s in shared]

    def newest(self, among: Iterable[ExecutionSummary] | None = None) -> ExecutionSummary | None:
        """The execution created last (by its recorded time, then its file's mtime; one with
        no readable time counts as the oldest), of ``among`` or of all."""
        verdicts = self._kinds.values() if among is None else (self._verdict(s) for s in among)

        def when(cached: tuple[ExecutionSummary, VerdictKind, int, float]) -> tuple[float, int]:
            ts = cached[3]
            return (ts if ts != math.inf else -math.inf, cached[0].mtime_ns)

        newest = max(verdicts, key=when, default=None)
        return newest[0] if newest is not None else None

    # ------------------------------------------------------------------ settings

    def set_view(self, view: View) -> None:
        regroup = view.grouped != self.view.grouped
        self.view = view
        if regroup:
            self._generation += 1
            self.rebuild()
        else:
            self._refilter()

    def set_sort(self, sort: Sort) -> None:
        """Re-sort now, on this thread (``sort_job`` for another)."""
        job = self.sort_job(sort)
        self.finish_sort(job, job.run())

    def set_query(self, query: str) -> None:
        if query == self.query:
            return
        # Typing on (the query grows at its end): every row the new query matches matches
        # the old one too, so only the rows shown are searched. Not after a verdict term:
        # "replayable" typed on to "replayables" is text, found where the term was not.
        narrowing = (
            bool(self.query.strip())
            and query.startswith(self.query)
            and not self._verdict_checks
            and only_substrings(self._text_terms)  # no verdict term: all of them
        )
        self.query = query
        self._terms = terms = query_terms(query)
        self._text_terms = tuple(as_searched(t) for t in terms if t not in VERDICT_TERMS)
        self._verdict_checks = tuple(VERDICT_TERMS[t] for t in terms if t in VERDICT_TERMS)
        tag = (self._generation, self.view, self.sort)
        found = self._found.take(query, tag)
        if found is not None:
            self._show(found)
            return
        self._refilter(within=self.rows if narrowing else None)
        if terms:
            self._found.keep(query, tag, self._ordered)

    # ------------------------------------------------------------------ building

    def _verdict(
        self, summary: ExecutionSummary
    ) -> tuple[ExecutionSummary, VerdictKind, int, float]:
        """``summary``, its verdict codes, its group (as an int) and its creation time,
        computed once."""
        cached = self._kinds.get(summary.key)
        if cached is not None and cached[0] is summary:
            return cached
        cached = self._kinds[summary.key] = verdict_entry(summary)
        return cached

    def _verdicts(self, summaries: Iterable[ExecutionSummary]) -> list[Verdict]:
        """``_verdict`` of each summary, in one pass (a batch of the first scan is
        thousands: a call per summary cost a third of adding it)."""
        kinds = self._kinds
        made = []
        for summary in summaries:
            cached = kinds.get(summary.key)
            if cached is None or cached[0] is not summary:
                cached = kinds[summary.key] = verdict_entry(summary)
            made.append(cached)
        return made

    def kind(self, summary: ExecutionSummary) -> VerdictKind:
        """``kind_of(summary)``, computed once per summary."""
        return self._verdict(summary)[1]

    def group(self, summary: ExecutionSummary) -> Group:
        return Group(self._verdict(summary)[2])

    def _row_key(self, summary: ExecutionSummary) -> RowKey:
        return self._key_of(self._verdict(summary))

    def _key_of(self, verdict: Verdict) -> RowKey:
        summary, _, group, ts = verdict
        lead = self.sort.lead(summary, group, ts)
        rank = summary.copy_rank
        return (group if self.view.grouped else 0, 1, *lead, newest_first(ts), rank, summary.key)

    def _held_back(self, key: object) -> bool:  # a record being written, in a flat view
        return not self.view.grouped and self.view.only is not None and key in self.writing

    def _of_view(self, rows: list[RowKey]) -> list[RowKey]:
        """``rows`` of the view's groups; a record being written ("… writing": neither
        untrusted nor unknown yet) in a grouped view only, there under its row's title."""
        only, kinds, writing = self.view.only, self._kinds, self.writing
        if only is None or self.view.grouped:  # the group leads each grouped row key
            return rows if only is None else [rk for rk in rows if rk[0] in only]
        return [rk for rk in rows if kinds[rk[-1]][2] in only and rk[-1] not in writing]  # type: ignore[index,operator]

    def verdict_words(self, summary: ExecutionSummary) -> str:  # "/"'s, the palette's
        return searched_words(self.kind(summary), summary.key in self.writing)

    def _matches(self, summary: ExecutionSummary) -> bool:
        only = self.view.only
        _, kind, group, _ = self._verdict(summary)
        if only is not None and (group not in only or self._held_back(summary.key)):
            return False
        if not all(check(kind) for check in self._verdict_checks):
            return False
        if not self._text_terms:
            return True
        haystack, words = self._texts(summary, kind)
        return all(term_found(term, haystack, words) for term in self._text_terms)

    def _texts(self, summary: ExecutionSummary, kind: VerdictKind) -> tuple[bytes, bytes]:
        """``summary``'s own searched text (made once) and its verdict's words."""
        haystack = self._haystacks.get(summary.key)
        if haystack is None:
            haystack = self._haystacks[summary.key] = haystack_of(summary)
        return haystack, verdict_text(kind, summary.key in self.writing)

    def rebuild(self) -> None:
        """Re-sort every execution (after a grouping change or many changed), then
        re-filter (see ``sorted_rows``)."""
        self.set_sort(self.sort)

    def sort_job(self, sort: Sort) -> SortJob:
        """The re-sort of every execution into ``sort``, to ``run`` on any thread while the
        model goes on, then to hand to ``finish_sort``."""
        newest = self._newest_order
        return SortJob(
            sort,
            self.view.grouped,
            self._generation,
            # A copy: a live change puts its row in place in the model's own list.
            list(newest) if newest is not None else None,
            list(self.summaries.values()) if newest is None else [],
            self._kinds,
        )

    def is_stale(self, job: SortJob) -> bool:
        """Whether the executions or the grouping changed since ``job`` was made."""
        return job.generation != self._generation or job.grouped != self.view.grouped

    def finish_sort(self, job: SortJob, result: SortResult) -> bool:
        """Put a ``job``'s result in place and re-filter; false (nothing done) when the
        executions or the grouping changed since the job was made (make another)."""
        if self.is_stale(job):
            return False
        self.sort = job.sort
        self._newest_order, self._sorted_all = result
        self._unmerged = []
        self._refilter()
        return True

    def _all_in_order(self) -> list[RowKey]:
        """Every execution's row key, sorted (merging in those added since last asked)."""
        if self._unmerged:
            if self._shown == len(self.summaries):
                # The shown rows hold every execution, in order (headers aside), as after
                # a fill with no filter: taken from them in one pass, rather than sorting
                # the keys noted meanwhile (1,000,000 of them: 2.3 s, on the app's thread,
                # at the first filter or view change after the fill).
                self._sorted_all = [rk for rk in self.rows if rk[1] != 0]
            else:
                self._sorted_all.extend(self._unmerged)
                self._sorted_all.sort()
            self._unmerged = []
        return self._sorted_all

    def _refilter(self, within: Iterable[RowKey] | None = None) -> None:
        """Recompute the shown rows from the sorted executions (or, narrowing a filter, from
        the rows ``within``), in one ordered pass."""
        if not self._terms:
            self._show(self._of_view(self._all_in_order()))
            return
        kinds = self._kinds
        if within is not None:
            source = [rk for rk in within if rk[1] != 0]
        else:
            source = self._of_view(self._all_in_order())
        checks = self._verdict_checks
        if checks:  # asked of the few dozen verdicts, not of each row
            wanted = {kind for kind in KINDS if all(check(kind) for check in checks)}
            source = [rk for rk in source if kinds[rk[-1]][1] in wanted]  # type: ignore[index]
        terms = self._text_terms
        if not terms:
            self._show(source)
            return
        haystacks, writing = self._every_haystack(), self.writing
        # No call per row (not even ``cast``): 100,000 rows a keystroke. A term is found in
        # an execution's own text, or in its verdict's words: which verdicts' words hold
        # it is asked once (``verdict_hits``), each row's verdict then looked up.
        if not only_substrings(terms):
            matched = [
                rk
                for rk in source
                if all(
                    term_found(
                        t,
                        haystacks[rk[-1]],  # type: ignore[index]
                        verdict_text(kinds[rk[-1]][1], rk[-1] in writing),  # type: ignore[index]
                    )
                    for t in terms
                )
            ]
        elif len(terms) == 1:  # the common case, without a generator per row
            term, hits = terms[0], verdict_hits(terms[0])
            matched = [
                rk
                for rk in source
                if term in haystacks[rk[-1]]  # type: ignore[index]
                or (kinds[rk[-1]][1], rk[-1] in writing) in hits  # type: ignore[index]
            ]
        else:
            each = [(t, verdict_hits(t)) for t in terms]
            matched = [
                rk
                for rk in source
                if all(
                    t in haystacks[rk[-1]]  # type: ignore[index]
                    or (kinds[rk[-1]][1], rk[-1] in writing) in hits  # type: ignore[index]
                    for t, hits in each
                )
            ]
        self._show(matched)

    @property
    def unshown_counted(self) -> bool:
        """Whether ``found_unshown`` answers at once (nothing to count, or counted)."""
        return not self._text_terms or self._unshown is not None

    def found_unshown(self) -> int:
        """How many of the executions shown the filter finds by what no row shows alone
        (an agent's name, the rest of the id, the file's name, the source: a term found
        nowhere in what the row shows): these rows seem not to match. Counted when first
        asked after the rows are filtered again, then kept through live changes."""
        terms = self._text_terms
        if not terms:
            return 0
        if self._unshown is None:
            haystacks, kinds, writing = self._haystacks, self._kinds, self.writing
            keys: list[str] = [rk[-1] for rk in self.rows if rk[1] != 0]  # type: ignore[misc]
            named = self._names_its_file
            found = (
                (
                    k,
                    unshown_match(
                        terms, haystacks[k], verdict_text(kinds[k][1], k in writing), named(k)
                    ),
                )
                for k in keys
            )
            self._unshown = {k: part for k, part in found if part is not None}
        return len(self._unshown)

    def _names_its_file(self, key: str) -> bool:
        """Whether the row of ``key`` shows its file's name (``shared_ids``)."""
        return self.summaries[key] in self.shared_ids

    def unshown_parts(self) -> list[str]:
        """The parts (``UNSHOWN_PARTS`` marks) ``found_unshown`` found rows by, in the
        marks' order."""
        self.found_unshown()
        return sorted(set(self._unshown.values())) if self._unshown else []

    def missing_haystacks(
        self, among: list[ExecutionSummary] | None = None
    ) -> list[ExecutionSummary]:
        """The executions whose searched text is not made yet: for ``make_haystacks`` on
        another thread, ahead of the first filter keystroke. ``among``: of these (a copy of
        the summaries, for another thread to look through), not of every execution."""
        haystacks = self._haystacks
        if among is not None:
            return [s for s in among if s.key not in haystacks]
        return [s for key, s in self.summaries.items() if key not in haystacks]

    def unsearched_count(self) -> int:
        """About how many executions have no searched text yet (at once, for any number)."""
        return max(0, len(self.summaries) - len(self._haystacks))

    def adopt_haystacks(self, made: list[ExecutionSummary], texts: list[bytes]) -> int:
        """Keep the texts ``make_haystacks`` made of ``made``, for those executions still
        as they were (one changed since gets its own when next searched); how many."""
        haystacks, summaries = self._haystacks, self.summaries
        kept = 0
        for summary, text in zip(made, texts, strict=True):
            key = summary.key
            if summaries.get(key) is summary and key not in haystacks:
                haystacks[key] = text
                kept += 1
        return kept

    def make_haystacks(
        self, made: list[ExecutionSummary], pause: Callable[[], None] | None = None
    ) -> list[bytes]:
        """The searched texts of ``made``; only reads the model (any thread may call it).
        ``pause`` is called every ``PAUSE_EVERY`` executions (a thread worker leaves the
        interpreter to the keys there)."""
        texts = []
        for done, summary in enumerate(made, 1):
            if pause is not None and done % PAUSE_EVERY == 0:
                pause()
            texts.append(haystack_of(summary))
        return texts

    def searched_texts(self) -> Mapping[str, bytes]:
        """The searched texts made so far, by key (each its execution's as it is now: a
        changed one's is dropped): the command palette looks only where one holds the
        query."""
        return self._haystacks

    def _every_haystack(self) -> dict[str, bytes]:
        """Every execution's searched text, made once (on the first filter) and kept."""
        haystacks = self._haystacks
        if len(haystacks) != len(self.summaries):
            for key, summary in self.summaries.items():
                if key not in haystacks:
                    haystacks[key] = haystack_of(summary)
        return haystacks

    def _show(self, ordered: list[RowKey]) -> None:
        """Show these execution rows (sorted), with a header above each group when grouped:
        each group's rows are sliced out whole (found by bisect) rather than walked one by
        one (100,000 rows: a few ms instead of ~45)."""
        sizes: Counter[int] = Counter()
        rows: list[RowKey]
        if not self.view.grouped:
            rows = ordered  # copied into blocks
        else:
            rows, start = [], 0
            while start < len(ordered):
                group = cast(int, ordered[start][0])
                end = bisect_left(ordered, (group + 1,), start)
                rows.append((group, 0))
                rows += ordered[start:end]
                sizes[group] = end - start
                start = end
        self.rows, self._group_sizes = SortedRows(rows), sizes
        self._shown, self._ordered = len(ordered), ordered
        self._unshown = None

    def replace_all(self, summaries: Iterable[ExecutionSummary]) -> None:
        self._newest_order = None
        self._generation += 1
        self.summaries = {s.key: s for s in summaries}
        self.shared_ids.clear()
        self.shared_ids.update(list(self.summaries.values()))
        self._haystacks.clear()
        self._kinds.clear()
        kind = self.kind
        self.counts = Counter(kind(s) for s in self.summaries.values())
        self.rebuild()

    # ------------------------------------------------------------------ updates

    def apply(self, changed: Iterable[ExecutionSummary], removed: Iterable[str] = ()) -> bool:
        """Add or replace ``changed`` and drop ``removed``; return whether rows were re-sorted.

        New executions are merged in whatever their number; replacing or removing many
        existing ones re-sorts everything instead (see ``REBUILD_THRESHOLD``).
        """
        latest = {s.key: s for s in changed}  # a key twice in one batch: the last one wins
        tag = (self._generation, self.view, self.sort)  # of the rows each query found
        self._generation += 1
        summaries = self.summaries
        # removals first: a key both removed and changed in one batch ends up changed
        gone_keys = {k: None for k in removed if k in summaries}
        gone = [summaries[k] for k in gone_keys]
        replaced = [summaries[k] for k in latest if k in summaries and k not in gone_keys]
        big = len(gone) + len(replaced) > max(self.REBUILD_THRESHOLD, len(self.rows) // 8)
        counts = self.counts
        kind = self.kind
        # The newest-first order follows a few changes (a bisect each); more, it is made
        # again by the next sort.
        newest = self._newest_order
        if newest is not None and (big or len(latest) >= MERGE_AT):
            newest = self._newest_order = None
        left: list[RowKey] = []  # the rows of those replaced or gone
        for old in (*gone, *replaced):
            counts[kind(old)] -= 1
            if newest is not None:
                remove_base(newest, base_of(self._verdict(old)))
            if not big:
                left.append(self._forget(old))
            self._haystacks.pop(old.key, None)
            self._kinds.pop(old.key, None)
            del summaries[old.key]
        named = self.shared_ids.version
        self.shared_ids.update(list(latest.values()), [*gone, *replaced])
        if self.shared_ids.version != named:  # rows that name their file changed
            self._unshown = None
        verdicts = self._verdicts(latest.values())
        for verdict in verdicts:
            summary = verdict[0]
            summaries[summary.key] = summary
            counts[verdict[1]] += 1
            if newest is not None:
                insort(newest, base_of(verdict), key=NEWEST_FIRST)
        if gone or replaced:
            self.counts = +counts  # drop zero counts
        if big:
            self._found.clear()
            self.rebuild()
        else:
            self._add(verdicts)
            self._follow_found(tag, left, verdicts)
        return big

    def _follow_found(
        self, tag: tuple[object, ...], left: list[RowKey], new: list[Verdict]
    ) -> None:
        if self._found:
            arrived: list[Arrival] = [
                (self._key_of(v), v[1], v[2], partial(self._texts, v[0], v[1]))
                for v in new
                if not self._held_back(v[0].key)
            ]
            now = (self._generation, self.view, self.sort)
            self._found.follow(tag, now, left, arrived, self.view.only)

    def _forget(self, summary: ExecutionSummary) -> RowKey:
        row_key = self._row_key(summary)
        # Not ``_all_in_order()``: putting the noted keys in order re-sorts every row, and
        # the first scan replaces the preview's rows one batch at a time (at 1,000,000 rows,
        # one full sort per batch took most of the scan).
        if not remove_sorted(self._sorted_all, row_key) and row_key in self._unmerged:
            self._unmerged.remove(row_key)
        if not self.rows.remove(row_key):
            return row_key
        self._shown -= 1
        if self._unshown is not None:
            self._unshown.pop(summary.key, None)
        if self.view.grouped:
            group = cast(int, row_key[0])
            self._group_sizes[group] -= 1
            if self._group_sizes[group] == 0:
                del self._group_sizes[group]
                self.rows.remove((group, 0))
        return row_key

    def _add(self, verdicts: list[Verdict]) -> None:
        if not verdicts:
            return
        key_of = self._key_of
        new = sorted([key_of(v) for v in verdicts])
        if len(new) < MERGE_AT and not self._unmerged:
            # A live change: put it in place now (a bisect each). Noted for later, the
            # next change's removal would re-sort every row to find its old place.
            for rk in new:
                insort(self._sorted_all, rk)
        else:
            self._unmerged += new
        if self.view.only is not None or self._terms:
            matches, by_key = self._matches, self.summaries
            new = [rk for rk in new if matches(by_key[cast(str, rk[-1])])]
            if self._unshown is not None and self._text_terms:
                terms, haystacks = self._text_terms, self._haystacks
                for rk in new:
                    key = cast(str, rk[-1])
                    words = verdict_text(self._kinds[key][1], key in self.writing)
                    part = unshown_match(terms, haystacks[key], words, self._names_its_file(key))
                    if part is not None:
                        self._unshown[key] = part
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
        self.rows.add_sorted(new)
