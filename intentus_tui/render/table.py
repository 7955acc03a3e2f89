"""The command line's text tables: aligned columns, cut to fit a terminal when they must.

A table wider than the terminal it is printed on wraps every row into two or three lines
and loses its columns. Printed to a terminal, it is fitted instead: named columns are left
out one by one (the least telling first) and flexible ones (an intent, a file name) are cut
with an ellipsis, never below their minimum; when that is not enough, the words a column
may say shorter are (each named, with its whole form, under the table). Piped or
redirected, a table keeps every column whole: that form is for programs.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from rich.cells import cell_len

from intentus_tui.core.model import display_id
from intentus_tui.render.cells import fit, fit_middle

GAP = 2  # spaces between columns


@dataclass(frozen=True, slots=True)
class Fitting:
    """How a table may be made narrower, by column header, in the order it is done."""

    shorten: Mapping[str, Callable[[str], str]] = field(default_factory=dict)  # first
    flexible: Mapping[str, int] = field(default_factory=dict)  # cut, to a least width
    leave_out: Sequence[str] = ()  # while it still does not fit, in this order
    # a column of ``leave_out`` whose value is then said once above its rows, in sections
    # (the root of a listing of several roots), not lost; its sections in ``group_order``
    # (the roots as named), then as they first appear
    group_by: str | None = None
    group_order: Sequence[str] = ()
    # last of all, while it still does not fit: words said shorter, by column header
    # ({"REPLAY": {"manually_invalidated": "invalidated"}}); the note names each one used
    abbreviate: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # flexible columns cut in their middle, keeping their end (where copies of a file
    # differ: ``x.json``, ``x.trunc.json``), not at their end
    cut_middle: frozenset[str] = frozenset()
    # the very last resort, after the words said shorter: flexible columns may be cut
    # below their least width to these (a file name cut in its middle keeps its end, and
    # its row's id is beside it), rather than the table still not fitting
    squeeze: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class FittedTable:
    rows: list[list[str]]
    shortened: tuple[str, ...]  # the headers of the columns shortened
    cut: tuple[str, ...]  # the headers of the columns whose cells were cut
    left_out: tuple[str, ...]  # the headers of the columns left out, in table order
    # ``group_by``'s value of each row (the header's first), when that column was left out
    groups: list[str] | None = None
    group_order: Sequence[str] = ()
    # (column, short word, whole word) for each word said shorter, in table order
    abbreviated: tuple[tuple[str, str, str], ...] = ()

    def lines(self) -> Iterator[str]:
        """The fitted table's lines; with ``groups``, the header, then each group's rows
        (in the order the table had them) under a line naming it, groups in
        ``group_order``, then in the order they first appear."""
        if self.groups is None:
            yield from table_lines(self.rows)
            return
        lines = table_lines(self.rows)
        yield next(lines)
        sections: dict[str, list[str]] = {group: [] for group in self.group_order}
        for group, line in zip(self.groups[1:], lines, strict=True):
            sections.setdefault(group, []).append(line)
        for group, rows in sections.items():
            if not rows:
                continue
            yield f"── {self.groups[0]} {group} ({len(rows)})"
            yield from rows

    def note(self, width: int) -> list[str]:
        """What was done to fit ``width`` columns, in lines no wider, or nothing."""
        grouped = self.groups[0] if self.groups is not None else None
        left_out = tuple(name for name in self.left_out if name != grouped)
        done = [
            f"{', '.join(names)} {what}"
            for names, what in (
                (self.shortened, "shortened"),
                (self.cut, "cut"),
                (left_out, "left out"),
            )
            if names
        ]
        if grouped is not None:
            done.append(f"rows grouped by {grouped}")
        for column in dict.fromkeys(name for name, _, _ in self.abbreviated):
            said = ", ".join(
                f"{short} = {whole}" for c, short, whole in self.abbreviated if c == column
            )
            done.append(f"{column} said shorter: {said}")
        if not done:
            return []
        fitted = table_width(self.rows) <= width
        how = f"fitted to {width} columns" if fitted else f"still wider than {width} columns after"
        said = f"({how}: {'; '.join(done)}. Piped, every column is whole.)"
        return textwrap.wrap(said, width)


def table_width(rows: Sequence[Sequence[str]]) -> int:
    """The cells ``table_lines`` needs for ``rows``."""
    return sum(_widths(rows)) + GAP * (len(rows[0]) - 1) if rows else 0


def table_lines(rows: Sequence[Sequence[str]]) -> Iterator[str]:
    """Each row's cells padded to its column's width (in terminal cells), ``GAP`` apart:
    made as they are read (100,000 lines held at once were 20 MB more at the peak)."""
    if not rows:
        return
    widths = _widths(rows)
    gap = " " * GAP
    for row in rows:
        yield gap.join(
            cell.ljust(width) if cell.isascii() else fit(cell, width)  # most: the quick way
            for cell, width in zip(row, widths, strict=True)
        ).rstrip()


def fit_table(rows: Sequence[Sequence[str]], width: int, fitting: Fitting) -> FittedTable:
    """``rows`` (the first is the header) fitted to ``width`` cells: as they are if they
    fit; else with the ``fitting.shorten`` columns' cells shortened, the flexible columns
    cut as far as needed and, while that is not enough, the ``leave_out`` columns dropped in
    that order, then words said shorter (``abbreviate``), then the ``squeeze`` columns cut
    below their least width. A table that cannot fit even so is as narrow as its least
    widths make it (the terminal wraps it)."""
    header = list(rows[0])
    if table_width(rows) <= width:
        return FittedTable([list(row) for row in rows], (), (), ())
    how = [fitting.shorten.get(name) for name in header]
    original = rows
    rows = [
        header,
        *([h(c) if h else c for h, c in zip(how, row, strict=True)] for row in rows[1:]),
    ]
    shortened = tuple(  # said only where a cell is shorter
        name
        for i, name in enumerate(header)
        if how[i] is not None and any(a[i] != b[i] for a, b in zip(original, rows, strict=True))
    )
    dropped: list[str] = []
    candidates = [name for name in fitting.leave_out if name in header]
    abbreviated: tuple[tuple[str, str, str], ...] = ()
    middle = fitting.cut_middle
    while True:
        kept = [i for i, name in enumerate(header) if name not in dropped]
        table = [[row[i] for i in kept] for row in rows]
        fitted = _cut_flexible(table, width, fitting.flexible, middle)
        if fitted is None and not candidates and not abbreviated and fitting.abbreviate:
            # Nothing left to leave out: the words said shorter, then cut again.
            rows, abbreviated = _abbreviated(rows, fitting.abbreviate)
            if abbreviated:
                continue
        if fitted is None and not candidates and fitting.squeeze:
            fitted = _cut_flexible(table, width, {**fitting.flexible, **fitting.squeeze}, middle)
        if fitted is None and not candidates:  # as narrow as it can be
            least = _least_width(table, fitting.flexible)
            fitted = _cut_flexible(table, least, fitting.flexible, middle)
        if fitted is not None:
            cut = tuple(
                name
                for name, before, after in zip(
                    fitted[0], _widths(table), _widths(fitted), strict=True
                )
                if after < before
            )
            left_out = tuple(name for name in header if name in dropped)
            groups = None
            if fitting.group_by in dropped:
                column = header.index(fitting.group_by)
                groups = [row[column] for row in original]
            return FittedTable(
                fitted, shortened, cut, left_out, groups, fitting.group_order, abbreviated
            )
        dropped.append(candidates.pop(0))


def _abbreviated(
    rows: Sequence[Sequence[str]], words: Mapping[str, Mapping[str, str]]
) -> tuple[list[Sequence[str]], tuple[tuple[str, str, str], ...]]:
    """``rows`` with the words of ``words`` said shorter in their columns, and which were
    (column, short, whole), in table order."""
    header = rows[0]
    columns = [(i, words[name]) for i, name in enumerate(header) if name in words]
    used: dict[tuple[str, str, str], None] = {}
    shorter: list[Sequence[str]] = [header]
    for row in rows[1:]:
        cells = list(row)
        for i, said in columns:
            for whole, short in said.items():
                if whole in cells[i]:
                    cells[i] = cells[i].replace(whole, short)
                    used[(header[i], short, whole)] = None
        shorter.append(cells)
    order = {name: i for i, name in enumerate(header)}
    return shorter, tuple(sorted(used, key=lambda u: (order[u[0]], u[1])))


def short_ids(ids: Iterable[str]) -> Callable[[str], str]:
    """A UUID as ``display_id`` shows it (its first characters), longer where another id of ``ids``
    shares them (the shortest prefix no other id has: ``inspect PREFIX`` finds it); any
    other id as it is. Worked out at the first call: a table that fits never asks."""
    shown: dict[str, str] | None = None

    def short(execution_id: str) -> str:
        nonlocal shown
        if shown is None:
            shown = _unique_prefixes(ids)
        return shown.get(execution_id, execution_id)

    return short


def _unique_prefixes(ids: Iterable[str]) -> dict[str, str]:
    ordered = sorted(set(ids))
    shown: dict[str, str] = {}
    for i, execution_id in enumerate(ordered):
        if display_id(execution_id) == execution_id:  # not a UUID: shown whole
            continue
        shared = max(
            (
                _common_prefix(execution_id, ordered[j])
                for j in (i - 1, i + 1)
                if 0 <= j < len(ordered)
            ),
            default=0,
        )
        short = len(display_id(execution_id))
        shown[execution_id] = execution_id[: max(short, shared + 1)]
    return shown


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _cells(text: str) -> int:
    return len(text) if text.isascii() else cell_len(text)  # most cells: a quick answer


def _widths(rows: Sequence[Sequence[str]]) -> list[int]:
    return [max(_cells(row[i]) for row in rows) for i in range(len(rows[0]))]


def _floors(table: list[list[str]], flexible: Mapping[str, int]) -> dict[int, int]:
    """The least width of each flexible column of ``table`` (by index)."""
    widths = _widths(table)
    return {
        i: min(widths[i], flexible[name]) for i, name in enumerate(table[0]) if name in flexible
    }


def _least_width(table: list[list[str]], flexible: Mapping[str, int]) -> int:
    widths = _widths(table)
    for i, least in _floors(table, flexible).items():
        widths[i] = least
    return sum(widths) + GAP * (len(widths) - 1)


def _cut_flexible(
    table: list[list[str]],
    width: int,
    flexible: Mapping[str, int],
    middle: frozenset[str] = frozenset(),
) -> list[list[str]] | None:
    """``table`` with its flexible columns cut (widest first, one cell at a time) so that
    it fits ``width``, or None if it cannot without cutting one below its least width. The
    columns named in ``middle`` are cut in their middle, keeping both ends."""
    widths = _widths(table)
    total = sum(widths) + GAP * (len(widths) - 1)
    if total <= width:
        return table
    floor = _floors(table, flexible)
    cuttable = floor.keys()
    if _least_width(table, flexible) > width:
        return None
    while total > width:
        i = max(cuttable, key=lambda i: widths[i] - floor[i])
        widths[i] -= 1
        total -= 1
    in_middle = {i for i in cuttable if table[0][i] in middle}
    return [
        [
            (_cut_in_middle(cell, widths[i]) if i in in_middle else fit(cell, widths[i]).rstrip())
            if i in cuttable
            else cell
            for i, cell in enumerate(row)
        ]
        for row in table
    ]


def _cut_in_middle(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells, its middle replaced by an ellipsis: its end,
    what tells copies of a file apart (``.trunc.json``, ``copy.json``), kept the longer;
    narrower than 12 cells (``Fitting.squeeze``), its start is 1 cell, the rest its end."""
    head = (width - 1) // 3 if width >= 12 else 1
    return fit_middle(text, width, head).rstrip()
