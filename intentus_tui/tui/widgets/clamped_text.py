"""Text cut by its widget's max-height that says so: its last row ends with "…"."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from textual.app import RenderResult
from textual.content import Content
from textual.geometry import Size
from textual.visual import VisualType
from textual.widgets import Static

ELLIPSIS = "…"
MIN_HANGING_ROOM = 16  # narrower than this beside its label, a line wraps from the left edge
# A line longer than this many rows (a character a cell) is cut there before it is wrapped:
# the widget shows a dozen rows. A 1 MB intent in the summary's title was wrapped whole,
# 0.5 s each time, eleven times a selection: 9 s on the screen's thread.
MAX_LINE_ROWS = 100


class ClampedText(Static):
    """A ``Static`` whose text, when it has more rows than the widget (held by a
    ``max-height``), ends the last row shown with "…": a timeline summary cut there read as
    if it ended with "final response:".

    Given with ``show``, each line may hang: its wrapped rows are indented under the text
    after its label (``outcome   ⚠ untrusted — cannot be believed: …``), not back at the
    left edge under the label."""

    _hanging: tuple[tuple[Content, int], ...] = ()
    _short: tuple[tuple[Content, int], ...] = ()
    _keep = 0
    _first: tuple[int, ...] = ()
    _yielding: frozenset[int] = frozenset()
    _folded: Content | None = None
    # Rows of its container that others take above it, and rows the widget below it would
    # fill: up to half of what is left stays theirs (the events under a timeline summary
    # whose reasons wrap to a dozen rows). The reasons cut are a tab away.
    rows_above = 0
    rows_below = 0
    _shorter: Mapping[int, tuple[Content, ...]] = MappingProxyType({})
    _abbreviate: frozenset[int] = frozenset()

    def show(
        self,
        lines: Sequence[Content],
        hangs: Sequence[int],
        short: tuple[Sequence[Content], Sequence[int]] | None = None,
        keep: int = 0,
        first: Sequence[int] = (),
        *,
        shorter: Sequence[tuple[Content, Sequence[Content]]] = (),
        yielding: Iterable[int] = (),
        folded: Content | None = None,
        abbreviate: Iterable[Content] = (),
    ) -> None:
        """``lines``, each wrapped ``hangs[i]`` cells in (0: from the left edge). When the
        widget is too short for them all, each line keeps a row (the first ``keep``, the
        essentials, always) and the rows to spare go to the essentials first: those in
        ``first``, the others, then the first line, then the rest in order. Shorter than
        ``keep`` rows, ``short`` (lines and hangs: the essentials in fewer rows) is shown
        instead. ``first`` may name a line after the essentials too (it then has its rows
        to spare before the title's). ``shorter``: lines (of ``lines`` or ``short``, the
        same object) and what to draw instead when one has fewer rows than it wraps to,
        the first of them that fits (else the last, cut): a line cut at its end loses
        what may matter most. ``yielding``: lines (of ``lines``, after the essentials) that
        have a row only when the essentials have all they wrap to (a chain's fallbacks,
        which its events show, give way to the verdict's reasons); ``folded``: the
        yielding lines said in one, drawn in their place when not all of them have a row.
        ``abbreviate``: lines of ``shorter`` drawn shorter whenever they wrap, rows to
        spare or not, as the list's columns abbreviate (a verdict reads the same at a
        width whatever else the pane shows)."""
        hanging = tuple(zip(lines, hangs, strict=True))
        super().update(Content("\n").join(lines))
        self._hanging = hanging
        self._short = tuple(zip(*short, strict=True)) if short is not None else ()
        self._keep = keep
        self._first = tuple(first)
        self._yielding = frozenset(yielding)
        self._folded = folded
        # By identity: the line objects are held in ``_hanging`` and ``_short``.
        self._shorter = {id(line): tuple(forms) for line, forms in shorter if forms}
        self._abbreviate = frozenset(map(id, abbreviate))

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        self._hanging = self._short = ()  # text given whole: no line hangs
        self._folded = None
        self._shorter = MappingProxyType({})
        self._abbreviate = frozenset()
        super().update(content, layout=layout)

    def _rows(self, visual: Content, width: int) -> list[Content]:
        if self.styles.text_wrap == "nowrap":
            return visual.split("\n")
        if not self._hanging:
            return visual.wrap(width)
        return self._hung(self._hanging, width)

    @staticmethod
    def _hung(hanging: Sequence[tuple[Content, int]], width: int) -> list[Content]:
        rows: list[Content] = []
        limit = MAX_LINE_ROWS * max(width, 1)
        for line, hang in hanging:
            if len(line) > limit:  # its end would never be shown
                line = line[:limit] + ELLIPSIS
            if hang <= 0 or width - hang < MIN_HANGING_ROOM:
                rows += line.wrap(width)
                continue
            label, text = line[:hang], line[hang:]
            wrapped = text.wrap(width - hang) or [Content("")]
            rows.append(label + wrapped[0])
            rows += [Content(" " * hang) + row for row in wrapped[1:]]
        return rows

    @classmethod
    def _fitted(
        cls,
        hanging: Sequence[tuple[Content, int]],
        width: int,
        budget: int,
        keep: int,
        first: Sequence[int] = (),
        shorter: Mapping[int, Sequence[Content]] | None = None,
        yielding: frozenset[int] = frozenset(),
        folded: Content | None = None,
        abbreviate: frozenset[int] = frozenset(),
    ) -> tuple[list[Content], bool]:
        """The rows of ``hanging`` in ``budget`` rows, and whether any line was cut or left
        out. Each line has a row (the first ``keep``, the essentials, whatever the budget;
        the others in order while rows last); the rows to spare go to whole lines in order
        of importance: the essentials' reasons (lines 1 on), the title, the rest in order.
        A line given fewer rows than it wraps to is drawn shorter (``shorter``, by the
        line's id), else ends in "…". The ``yielding`` lines have rows after the
        essentials' reasons have all theirs (with no essentials: after every other line);
        when some of them have none, ``folded`` is drawn in their place, as one of them."""
        wrapped = [cls._hung([pair], width) or [Content("")] for pair in hanging]
        for index, (line, hang) in enumerate(hanging):
            forms = (shorter or {}).get(id(line), ()) if id(line) in abbreviate else ()
            if forms and len(wrapped[index]) > 1:  # the first form in fewer rows, if one is
                shorts = (cls._hung([(form, hang)], width) for form in forms)
                fewer = (rows for rows in shorts if len(rows) < len(wrapped[index]))
                wrapped[index] = next(fewer, wrapped[index])
        given = [0] * len(wrapped)
        used = 0  # sum(given), kept as it grows: summed in the loop, a line's cost grew with n
        for index in range(len(wrapped)):
            if index < keep or (index not in yielding and used < budget):
                given[index] = 1
                used += 1
        spare = budget - used
        essentials = [*first, *(index for index in range(1, keep) if index not in first)]
        rest = [index for index in range(keep, len(wrapped)) if index not in yielding]
        order = [*essentials, *sorted(yielding), 0, *rest] if keep else [*rest, *sorted(yielding)]
        spare = _share(order, wrapped, given, spare)
        if folded is not None and any(not given[index] for index in yielding):
            return cls._folding(
                hanging, width, budget, keep, first, shorter, yielding, folded, abbreviate
            )
        for index, (line, hang) in enumerate(hanging):
            forms = (shorter or {}).get(id(line), ())
            if not forms or not given[index] or given[index] >= len(wrapped[index]):
                continue
            drawn = [cls._hung([(form, hang)], width) for form in forms]
            wrapped[index] = next((rows for rows in drawn if len(rows) <= given[index]), drawn[-1])
            spare += max(0, given[index] - len(wrapped[index]))  # rows it no longer needs
            given[index] = min(given[index], len(wrapped[index]))
        _share(order, wrapped, given, spare)
        rows: list[Content] = []
        for (_, hang), line_rows, count in zip(hanging, wrapped, given, strict=True):
            if count:
                indent = hang if hang > 0 and width - hang >= MIN_HANGING_ROOM else 0
                rows += [*line_rows[: count - 1], _cut_after(line_rows, count, width, indent)]
        return rows, any(count < len(r) for r, count in zip(wrapped, given, strict=True))

    @classmethod
    def _folding(
        cls,
        hanging: Sequence[tuple[Content, int]],
        width: int,
        budget: int,
        keep: int,
        first: Sequence[int],
        shorter: Mapping[int, Sequence[Content]] | None,
        yielding: frozenset[int],
        folded: Content,
        abbreviate: frozenset[int] = frozenset(),
    ) -> tuple[list[Content], bool]:
        """``_fitted`` with the ``yielding`` lines replaced by ``folded``, where the first of
        them was: a line that yields as they did, and is cut with the others."""
        at = min(yielding)
        kept = [i for i in range(len(hanging)) if i not in yielding or i == at]
        moved = {old: new for new, old in enumerate(kept)}  # indices after them move up
        lines = [(folded, 0) if i == at else hanging[i] for i in kept]
        again = [moved[i] for i in first if i in moved]
        return cls._fitted(
            lines, width, budget, keep, again, shorter, frozenset({at}), abbreviate=abbreviate
        )

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # Every row of the text, not the rows shown (which ``render`` decides from them),
        # but for the rows it leaves the widget below it.
        visual = self.visual
        if not width:
            return 0
        if isinstance(visual, Content) and self._hanging:
            rows = len(self._rows(visual, width))
        else:  # as Textual's own ``Widget.get_content_height`` measures it
            rows = visual.get_height(self.styles, width)  # type: ignore[arg-type]
        if self.rows_below:
            room = container.height - self.rows_above
            rows = min(rows, max(room - min(self.rows_below, room // 2), 1))
        return rows

    def render(self) -> RenderResult:
        visual = self.visual
        width, height = self.size
        if not isinstance(visual, Content) or width <= 0 or height <= 0:
            return visual
        rows = self._rows(visual, width)
        if len(rows) <= height:
            return Content("\n").join(rows) if self._hanging else visual
        if self._hanging:
            lines, keep = self._hanging, self._keep
            if height < keep and self._short:  # the essentials need fewer rows
                lines, keep = self._short, len(self._short)
            full = lines is self._hanging
            first = self._first if full else ()
            yielding = self._yielding if full else frozenset()
            folded = self._folded if full else None
            rows, cut = self._fitted(
                lines, width, height, keep, first, self._shorter, yielding, folded, self._abbreviate
            )
            if len(rows) <= height:
                if cut and not rows[-1].plain.endswith(ELLIPSIS):
                    rows[-1] = _cut_after([rows[-1], Content("")], 1, width)
                return Content("\n").join(rows)
        last = rows[height - 1]
        if not last.plain.endswith(ELLIPSIS):  # a line cut already says so
            last = (last.truncate(width - 1) if last.cell_length >= width else last) + ELLIPSIS
        return Content("\n").join([*rows[: height - 1], last])


def _share(order: Iterable[int], wrapped: list[list[Content]], given: list[int], spare: int) -> int:
    """``spare`` rows given to the lines in ``order`` that want more; what is left."""
    for index in order:
        take = min(len(wrapped[index]) - given[index], max(spare, 0))
        given[index] += take
        spare -= take
    return spare


def _cut_after(rows: list[Content], given: int, width: int, indent: int = 0) -> Content:
    """Row ``given`` of a line's wrapped ``rows``; when rows follow it, filled with the
    start of the next one (wrapping had left room there) and ending in "…". ``indent``:
    the cells the following rows start with (a hanging line's)."""
    last = rows[given - 1]
    if given == len(rows):
        return last
    last = last + Content(" ") + rows[given][indent:]
    if last.cell_length >= width:
        last = last.truncate(width - 1)
    return last.rstrip() + ELLIPSIS
