"""Text cut by its widget's max-height that says so: its last row ends with "…"."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import RenderResult
from textual.content import Content
from textual.geometry import Size
from textual.visual import VisualType
from textual.widgets import Static

ELLIPSIS = "…"
MIN_HANGING_ROOM = 16  # narrower than this beside its label, a line wraps from the left edge


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

    def show(
        self,
        lines: Sequence[Content],
        hangs: Sequence[int],
        short: tuple[Sequence[Content], Sequence[int]] | None = None,
        keep: int = 0,
    ) -> None:
        """``lines``, each wrapped ``hangs[i]`` cells in (0: from the left edge). When the
        widget is too short for the first ``keep`` lines whole, each of them takes one row,
        cut; too short for that, ``short`` (lines and hangs: the essentials in fewer rows)
        is shown instead."""
        hanging = tuple(zip(lines, hangs, strict=True))
        super().update(Content("\n").join(lines))
        self._hanging = hanging
        self._short = tuple(zip(*short, strict=True)) if short is not None else ()
        self._keep = keep

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        self._hanging = self._short = ()  # text given whole: no line hangs
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
        for line, hang in hanging:
            if hang <= 0 or width - hang < MIN_HANGING_ROOM:
                rows += line.wrap(width)
                continue
            label, text = line[:hang], line[hang:]
            wrapped = text.wrap(width - hang) or [Content("")]
            rows.append(label + wrapped[0])
            rows += [Content(" " * hang) + row for row in wrapped[1:]]
        return rows

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # Every row of the text, not the rows shown (which ``render`` decides from them).
        visual = self.visual
        if not width:
            return 0
        if isinstance(visual, Content) and self._hanging:
            return len(self._rows(visual, width))
        # As Textual's own ``Widget.get_content_height`` measures it.
        return visual.get_height(self.styles, width)  # type: ignore[arg-type]

    def render(self) -> RenderResult:
        visual = self.visual
        width, height = self.size
        if not isinstance(visual, Content) or width <= 0 or height <= 0:
            return visual
        rows = self._rows(visual, width)
        if len(rows) <= height:
            return Content("\n").join(rows) if self._hanging else visual
        keep = self._keep
        if self._short and len(self._hung(self._hanging[:keep], width)) > height:
            # Too short a widget for the essentials whole: one row each, cut, where there
            # are rows enough; else the short form says them in fewer rows.
            if height >= keep:
                cut = [_one_row(line, width) for line, _ in self._hanging[:keep]]
                rows = cut + self._hung(self._hanging[keep:], width)
            else:
                rows = self._hung(self._short, width)
            if len(rows) <= height:
                return Content("\n").join(rows)
        last = rows[height - 1]
        if last.cell_length >= width:
            last = last.truncate(width - 1)
        return Content("\n").join([*rows[: height - 1], last + ELLIPSIS])


def _one_row(line: Content, width: int) -> Content:
    """``line`` in one row of ``width`` cells: cut, and saying so with "…", if longer."""
    return line if line.cell_length <= width else line.truncate(width - 1) + ELLIPSIS
