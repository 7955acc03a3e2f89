"""A base for Line-API lists of rows under a heading line, with a row cursor: paging,
first and last, a click, keeping the cursor on screen (the diff list, the side-by-side
comparison)."""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.strip import Strip

from intentus_tui.render.cells import fit
from intentus_tui.tui.widgets.strip_cache import StripCachedView

# A cached row: (index, width, under the cursor, focused).
RowStripKey = tuple[int, int, bool, bool]


class CursorRowsView(StripCachedView[RowStripKey, Strip]):
    """Rows 0..``row_count() - 1`` drawn below one heading line; ``cursor`` is a row.
    Page keys, first and last are bound here; a subclass binds how the cursor steps."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("home,g", "first", "First", show=False),
        Binding("end,G", "last", "Last", show=False),
    ]

    cursor: reactive[int] = reactive(0, init=False, always_update=True)
    empty_text = ""  # said on the first row when there are none

    def row_count(self) -> int:
        raise NotImplementedError

    def _header_strip(self, width: int) -> Strip:
        raise NotImplementedError

    def _row_strip(self, index: int, width: int, is_cursor: bool) -> Strip:
        raise NotImplementedError

    def _with_cursor(self, segments: list[Segment]) -> list[Segment]:
        """``segments`` under the cursor: only its background and weight, laid over each
        column's own colours."""
        cursor = self._style("cursor")
        overlay = Style(bgcolor=cursor.bgcolor, bold=cursor.bold)
        return [Segment(seg.text, (seg.style or Style()) + overlay) for seg in segments]

    @property
    def row_width(self) -> int:
        """The cells a row is drawn in: the width less the vertical scrollbar's gutter (a row
        drawn wider had its last cells, a cut value's ellipsis among them, under it)."""
        return self.scrollable_content_region.width

    def render_line(self, y: int) -> Strip:
        width = self.row_width
        base = self.rich_style
        if y == 0:
            return self._header_strip(width).apply_style(base).crop_extend(0, width, base)
        index = round(self.scroll_y) + y - 1
        count = self.row_count()
        if not count:
            if y == 1:
                text = fit(f"  {self.empty_text}", width)
                return Strip([Segment(text, base + self._style("empty"))])
            return Strip.blank(width, base)
        if index >= count:
            return Strip.blank(width, base)
        strip = self._row_strip(index, width, index == self.cursor)
        return strip.apply_style(base).crop_extend(0, width, base)

    def _virtual_height(self) -> int:
        return self.row_count() + 1  # the heading, then the rows

    def _clamped(self, new: int) -> bool:
        """Put a cursor set out of range back in it; True when it was (the watcher runs
        again with the clamped value)."""
        count = self.row_count()
        clamped = max(0, min(new, count - 1)) if count else 0
        if clamped != new:
            self.cursor = clamped
            return True
        return False

    def _scroll_to_cursor(self, center: bool = False) -> None:
        visible = max(1, self.size.height - 1)
        top = round(self.scroll_y)
        if center and not (top <= self.cursor < top + visible):
            self.scroll_to(y=max(0, self.cursor - visible // 3), animate=False, immediate=True)
        elif self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + visible:
            self.scroll_to(y=self.cursor - visible + 1, animate=False, immediate=True)

    def on_resize(self, event: events.Resize) -> None:
        # Taller, every row fitting, the list scrolled back to its top; shorter again, the
        # cursor was left below the pane's last row, its place lost.
        self._scroll_to_cursor()

    def action_page(self, direction: int) -> None:
        self.cursor = self.cursor + direction * max(1, self.size.height - 2)

    def action_first(self) -> None:
        self.cursor = 0

    def action_last(self) -> None:
        self.cursor = max(0, self.row_count() - 1)

    def on_click(self, event: events.Click) -> None:
        if event.y >= 1 and self.row_count():
            self.cursor = round(self.scroll_y) + event.y - 1
