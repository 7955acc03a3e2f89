"""Two columns, A | B, one row per line: the full-screen comparison's timelines and values.

A Line-API widget (``ScrollView`` + ``render_line``): a row is sanitized and drawn only when it
is on screen, so a comparison of megabyte records scrolls as fast as a small one. The first
line is a fixed header naming the sides; the rows scroll beneath it. A row is a ``SideRow``
(A's text, B's text, how they differ) or a ``Fold`` (unchanged lines folded away). A gap - a
line only the other side has - is drawn as an empty, shaded cell.

The cursor moves line by line (``j``/``k``) and difference by difference (``n``/``N``, through
``differences``, the rows where each run of changes starts).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip

from intentus_tui.core.actions import Fold, SideRow
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.render.cells import fit, fit_pair
from intentus_tui.tui.widgets.cursor_rows import CursorRowsView

SEPARATOR = " │ "
GAP_FILL = "╱"
MARKS = {"changed": "~", "added": "+", "removed": "-", "same": " "}
HIDDEN_MARK = "≈"  # differs, but an ignore rule hides it
_INDENTED_KEY = re.compile(r' *(?:"(?:[^"\\]|\\.)*": )?')  # how a line of a value begins


def fold_text(fold: Fold) -> str:
    lines = "line" if fold.count == 1 else "lines"
    return f"⋯ {fold.count:,} unchanged {lines} ⋯"


def fold_fitting(text: str, width: int) -> str:
    """A fold's text in ``width`` cells, shortened by whole words (at 48 columns it read
    "⋯ 30 unchanged line…", and a side under 15 cells "⋯ 30 unch…"): without its closing
    "⋯", then one word less at a time, with and without it ("⋯ 30 unchanged ⋯", "⋯ 30
    unchanged", "⋯ 30 ⋯", "⋯ 30", "⋯"); cut at a character only where no word fits."""
    count_words, _, _ = text.partition(" ⋯")
    words = count_words.split(" ")  # "⋯", the count, "unchanged", "lines"
    shorter = [text, count_words]
    for kept in range(len(words) - 1, 0, -1):
        fewer = " ".join(words[:kept])
        shorter += [f"{fewer} ⋯", fewer] if kept > 1 else [fewer]
    for candidate in shorter:
        if cell_len(candidate) <= width:
            return candidate
    return fit(text, width)


class SideBySideView(CursorRowsView, can_focus=True):
    """A | B rows with a cursor; ``n``/``N`` jump between differences."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "cursor(1)", "Down", show=False),
        Binding("up,k", "cursor(-1)", "Up", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "side-by-side--header",
        "side-by-side--same",
        "side-by-side--a",
        "side-by-side--b",
        "side-by-side--changed",
        "side-by-side--hidden",
        "side-by-side--gap",
        "side-by-side--fold",
        "side-by-side--separator",
        "side-by-side--cursor",
        "side-by-side--empty",
    }

    DEFAULT_CSS = """
    SideBySideView {
        background: $surface;
        overflow-x: hidden;
        scrollbar-gutter: stable;
    }
    SideBySideView > .side-by-side--header { background: $panel; color: $text; text-style: bold; }
    SideBySideView > .side-by-side--same { color: $foreground; }
    SideBySideView > .side-by-side--a { color: $text-error; background: $error 12%; }
    SideBySideView > .side-by-side--b { color: $text-success; background: $success 12%; }
    SideBySideView > .side-by-side--changed { color: $text-warning; text-style: bold; }
    SideBySideView > .side-by-side--hidden { color: $foreground-disabled; text-style: italic; }
    SideBySideView > .side-by-side--gap { color: $panel-lighten-1; }
    SideBySideView > .side-by-side--fold { color: $foreground-muted; text-style: italic; }
    SideBySideView > .side-by-side--separator { color: $panel-lighten-2; }
    SideBySideView > .side-by-side--cursor { background: $block-cursor-blurred-background; }
    SideBySideView:focus > .side-by-side--cursor {
        background: $block-cursor-background 60%; text-style: bold;
    }
    SideBySideView > .side-by-side--empty { color: $foreground-muted; text-style: italic; }
    """

    class CursorMoved(Message):
        """The cursor moved to display row ``index`` (``row`` is ``None`` when empty)."""

        def __init__(self, view: SideBySideView, index: int, row: SideRow | Fold | None) -> None:
            super().__init__()
            self.view = view
            self.index = index
            self.row = row

        @property
        def control(self) -> SideBySideView:
            return self.view

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._rows: Sequence[SideRow | Fold] = ()
        self._differences: Sequence[int] = ()
        self.rules_on = True
        self._labels = ("A", "B")
        self.empty_text = "(nothing to compare)"
        self._texts: LRUCache[int, tuple[str | None, str | None]] = LRUCache(4096)
        self._strips: LRUCache[tuple[int, int, bool, bool], Strip] = LRUCache(1024)

    # ------------------------------------------------------------------ data

    @property
    def rows(self) -> Sequence[SideRow | Fold]:
        return self._rows

    @property
    def differences(self) -> Sequence[int]:
        return self._differences

    @property
    def current_row(self) -> SideRow | Fold | None:
        return self._rows[self.cursor] if 0 <= self.cursor < len(self._rows) else None

    def set_rows(
        self,
        rows: Sequence[SideRow | Fold],
        differences: Sequence[int],
        *,
        rules_on: bool,
        labels: tuple[str, str],
        cursor: int | None = None,
        empty_text: str = "(nothing to compare)",
    ) -> None:
        """Show new rows; the cursor goes to ``cursor`` (default: the first difference)."""
        self._rows = rows
        self._differences = differences
        self.rules_on = rules_on
        self._labels = (sanitize_line(labels[0]), sanitize_line(labels[1]))
        self.empty_text = empty_text
        self._texts.clear()
        self._strips.clear()
        self.virtual_size = Size(0, len(rows) + 1)
        if cursor is None:
            cursor = differences[0] if differences else 0
        self.cursor = cursor
        self._scroll_to_cursor(center=True)
        self.refresh()

    def texts_for(self, index: int) -> tuple[str | None, str | None]:
        """The sanitized A and B text of one row (cached)."""
        cached = self._texts.get(index)
        if cached is None:
            row = self._rows[index]
            if isinstance(row, Fold):
                cached = (fold_text(row), fold_text(row))
            else:
                cached = (
                    None if row.a is None else sanitize_line(row.a),
                    None if row.b is None else sanitize_line(row.b),
                )
            self._texts[index] = cached
        return cached

    def line_text(self, index: int) -> str:
        """The plain text of one row as drawn at the current width (for tests)."""
        return "".join(s.text for s in self._row_strip(index, self.row_width, False))

    # ------------------------------------------------------------------ cursor

    def watch_cursor(self, old: int, new: int) -> None:
        if self._clamped(new):
            return
        self._strips.clear()
        self.refresh()
        self._scroll_to_cursor()
        self.post_message(self.CursorMoved(self, self.cursor, self.current_row))

    def next_difference(self) -> bool:
        """Move to the start of the next difference; False when there is none after."""
        later = [i for i in self._differences if i > self.cursor]
        if not later:
            return False
        self.cursor = later[0]
        return True

    def previous_difference(self) -> bool:
        earlier = [i for i in self._differences if i < self.cursor]
        if not earlier:
            return False
        self.cursor = earlier[-1]
        return True

    def difference_position(self) -> int | None:
        """1-based number of the difference the cursor is in or after (None before the first)."""
        count = sum(1 for i in self._differences if i <= self.cursor)
        return count or None

    def action_cursor(self, step: int) -> None:
        self.cursor = self.cursor + step

    def row_count(self) -> int:
        return len(self._rows)

    # ------------------------------------------------------------------ drawing

    def _style(self, name: str) -> Style:
        return super()._style(f"side-by-side--{name}")

    def _columns(self, width: int) -> tuple[int, int]:
        """(A, B) widths; the mark takes 2 cells, the separator 3. Always equal (an odd
        cell left over is left blank at the end): a value cut on one side only looked
        different from the same value whole on the other."""
        room = max(0, width - 2 - len(SEPARATOR))
        return room // 2, room // 2

    def _header_strip(self, width: int) -> Strip:
        a_w, b_w = self._columns(width)
        header = self._style("header")
        sep = header + Style(color=self._style("separator").color)
        return Strip(
            [
                Segment("  ", header),
                Segment(fit(self._labels[0], a_w), header),
                Segment(SEPARATOR, sep),
                Segment(fit(self._labels[1], b_w), header),
            ]
        ).extend_cell_length(width, header)

    def _cell(self, text: str | None, width: int, style: Style) -> Segment:
        if text is None:
            return Segment(GAP_FILL * width, self._style("gap"))
        return Segment(fit(text, width), style)

    def _row_strip(self, index: int, width: int, is_cursor: bool) -> Strip:
        key = (index, width, is_cursor, self.has_focus)
        cached = self._strips.get(key)
        if cached is not None:
            return cached
        row = self._rows[index]
        a_w, b_w = self._columns(width)
        sep = self._style("separator")
        a_text, b_text = self.texts_for(index)
        if isinstance(row, Fold):
            fold = self._style("fold")
            segments = [
                Segment("  ", fold),
                Segment(fit(fold_fitting(a_text or "", a_w), a_w), fold),
                Segment(SEPARATOR, sep),
                Segment(fit(fold_fitting(b_text or "", b_w), b_w), fold),
            ]
        else:
            differs = row.differs(self.rules_on)
            if differs:
                mark, mark_style = MARKS[row.status], self._style("changed")
                a_style, b_style = self._style("a"), self._style("b")
            elif row.status != "same":  # hidden by a rule
                mark, mark_style = HIDDEN_MARK, self._style("hidden")
                a_style = b_style = self._style("hidden")
            else:
                mark, mark_style = " ", self._style("same")
                a_style = b_style = self._style("same")
            if a_text is not None and b_text is not None and a_text != b_text:
                # Cut where they differ (two long values cut past it read the same), the
                # line's indentation and key kept in front when there is room.
                head = _INDENTED_KEY.match(a_text)
                cut_a, cut_b = fit_pair(a_text, b_text, a_w, b_w, head=head.end() if head else 0)
                a_cell, b_cell = Segment(cut_a, a_style), Segment(cut_b, b_style)
            else:
                a_cell = self._cell(a_text, a_w, a_style)
                b_cell = self._cell(b_text, b_w, b_style)
            segments = [Segment(f"{mark} ", mark_style), a_cell, Segment(SEPARATOR, sep), b_cell]
        strip = Strip(self._with_cursor(segments) if is_cursor else segments)
        strip = strip.extend_cell_length(width)  # the odd cell the halves leave
        self._strips[key] = strip
        return strip
