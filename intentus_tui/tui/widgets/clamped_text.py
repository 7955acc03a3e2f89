"""Text cut by its widget's max-height that says so: its last row ends with "…"."""

from __future__ import annotations

from textual.app import RenderResult
from textual.content import Content
from textual.geometry import Size
from textual.widgets import Static

ELLIPSIS = "…"


class ClampedText(Static):
    """A ``Static`` whose text, when it has more rows than the widget (held by a
    ``max-height``), ends the last row shown with "…": a timeline summary cut there read as
    if it ended with "final response:"."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # Every row of the text, not the rows shown (which ``render`` decides from them),
        # measured as Textual's own ``Widget.get_content_height`` measures it.
        return self.visual.get_height(self.styles, width) if width else 0  # type: ignore[arg-type]

    def render(self) -> RenderResult:
        visual = self.visual
        width, rows = self.size
        if not isinstance(visual, Content) or width <= 0 or rows <= 0:
            return visual
        lines = visual.split("\n") if self.styles.text_wrap == "nowrap" else visual.wrap(width)
        if len(lines) <= rows:
            return visual
        last = lines[rows - 1]
        if last.cell_length >= width:
            last = last.truncate(width - 1)
        return Content("\n").join([*lines[: rows - 1], last + ELLIPSIS])
