"""Text made of parts that wraps only between them: a status line's ``5 changed events``
never ends one row with ``5`` and starts the next with ``changed events`` (Textual 8.2.8
breaks a line at a non-breaking space too)."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import RenderResult
from textual.content import Content
from textual.geometry import Size
from textual.visual import VisualType
from textual.widgets import Static


def join_parts(parts: Sequence[Content], width: int) -> Content:
    """``parts`` on as few rows of ``width`` cells as fit them, a row broken only between
    two parts; a part that begins a row loses the spaces that set it apart from the one
    before. A part wider than ``width`` has a row of its own (the widget wraps it)."""
    rows: list[Content] = []
    row: Content | None = None
    for part in parts:
        if not part.plain:
            continue
        if row is None:
            row = _unindented(part)
        elif width <= 0 or row.cell_length + part.cell_length <= width:
            row += part
        else:
            rows.append(row)
            row = _unindented(part)
    if row is not None:
        rows.append(row)
    return Content("\n").join(rows)


def separated_rows(
    parts: Sequence[Content],
    width: int,
    marks: Sequence[Content],
    flowing: int | None = None,
    *,
    ends: bool = True,
) -> list[Content]:
    """``parts`` joined by ``marks`` (each part's: `` ·``) and a space, in rows of
    ``width`` cells broken only between two parts, the separator ending the row of the part
    before it (never a row of its own, never beginning one: "0" and "changed events" on two
    rows, or a lone "·", read wrong at 40-50 columns); where a part fits a row but not with
    its separator, the separator goes. The parts from ``flowing`` on (sentences), and any part
    wider than ``width``, begin where the row is and are wrapped at their words.

    ``ends`` False: no separator ends a row, the row's end parts the two ("chain broken"
    over "✗ no (untrusted)", where "chain broken ·" read as cut off)."""
    rows: list[Content] = []
    row = Content("")
    tail = 0  # the characters of the separator that ends ``row`` (0: none)

    def closed(done: Content, tail: int) -> Content:
        return done if ends or not tail else done[: len(done.plain) - tail]

    shown = [(index, part) for index, part in enumerate(parts) if part.plain]
    for at, (index, part) in enumerate(shown):
        mark = marks[index]
        last = at == len(shown) - 1
        piece, piece_tail = (part, 0) if last else (part + mark, len(mark.plain))
        if row.plain and row.cell_length + 1 + piece.cell_length <= width:
            row += Content(" ") + piece
            tail = piece_tail
            continue
        if not ends and row.plain and row.cell_length + 1 + part.cell_length <= width:
            row += Content(" ") + part  # its separator would end the row: the end parts them
            tail = 0
            continue
        if part.cell_length <= width < piece.cell_length:  # the part fits a row, its "·" not
            piece, piece_tail = part, 0  # the row's end parts them
        sentence = flowing is not None and index >= flowing
        if not (ends or sentence) and row.plain:  # a part too wide begins a row of its own
            rows.append(closed(row, tail))
            row, tail = Content(""), 0
        if sentence or piece.cell_length > width:
            lines = (row + Content(" ") + piece if row.plain else piece).wrap(max(width, 1))
            if len(lines) > 1 and lines[-1].plain.strip() == mark.plain.strip():
                rows.extend(lines[:-1])  # its "·" wrapped away from it: the row's end parts
                row, tail = Content(""), 0
                continue
            broke_at_end = len(lines) > 1 and lines[0].plain.rstrip() == row.plain.rstrip()
            if not ends and row.plain and broke_at_end:
                lines[0] = closed(row, tail)  # the wrap broke the row where it ended
            rows.extend(lines[:-1])
            row, tail = lines[-1], piece_tail
            continue
        if row.plain:
            rows.append(closed(row, tail))
        row, tail = piece, piece_tail
    if row.plain:
        rows.append(row)
    return rows


def _unindented(part: Content) -> Content:
    spaces = len(part.plain) - len(part.plain.lstrip(" "))
    return part[spaces:] if spaces else part


class PartsText(Static):
    """A ``Static`` that shows either a text (``update``) or parts (``show_parts``), these
    wrapped only between them at the widget's width."""

    _parts: tuple[Content, ...] = ()

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        self._parts = ()
        super().update(content, layout=layout)

    def show_parts(self, parts: Sequence[Content]) -> None:
        super().update(Content("").join(parts))  # its widest: the width it asks for
        self._parts = tuple(parts)

    def render(self) -> RenderResult:
        if self._parts:
            return join_parts(self._parts, self.content_region.width)
        return super().render()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if width <= 0:  # a pane squeezed to nothing (50 columns): Rich cannot wrap to 0
            return 0
        if self._parts:
            rows = join_parts(self._parts, width)  # measured as Textual measures it
            return rows.get_height(self.styles, width)  # type: ignore[arg-type]
        return super().get_content_height(container, viewport, width)
