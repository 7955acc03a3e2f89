"""A side-by-side diff: one path per line, before | after, with a cursor on one difference.

A Line-API widget (``ScrollView`` + ``render_line``): a line is formatted only when it is
on screen, and values are cut to their column before anything is drawn, so a
10,000-entry diff with megabyte-sized values scrolls as fast as a ten-entry one.
The first line is a fixed column header; the entries scroll beneath it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip

from intentus_tui.core.actions import DiffEntry, path_text
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.render.cells import clip_apart, clip_pair, fit, fit_pair
from intentus_tui.tui.widgets.cursor_rows import CursorRowsView
from intentus_tui.tui.widgets.pane_text import compact_value

MARKS = {"added": "+", "removed": "-", "changed": "~"}
ABSENT = "∅"
SEPARATOR = " │ "
VALUE_CHARS = 400  # a value is never formatted longer than this, whatever the column width
VALUE_REACH = 16  # how far past that two changed values are read, to find where they differ


def entry_paths(entries: Sequence[DiffEntry], *, runs: bool = False) -> list[str]:
    """Display paths (sanitized; ``runs``: two runs', their events by number). Worth
    computing in the worker for big diffs."""
    return [sanitize_line(path_text(entry, runs=runs)) for entry in entries]


class DiffView(CursorRowsView, can_focus=True):
    """Before | after, one difference per line. ``n``/``N`` move between differences."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "next_difference", "Next difference", id="diff.next"),
        Binding("N", "previous_difference", "Previous difference", id="diff.previous"),
        Binding("down,j", "next_difference", "Down", show=False),
        Binding("up,k", "previous_difference", "Up", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "diff-view--header",
        "diff-view--added",
        "diff-view--removed",
        "diff-view--changed",
        "diff-view--absent",
        "diff-view--path",
        "diff-view--separator",
        "diff-view--cursor",
        "diff-view--empty",
    }

    DEFAULT_CSS = """
    DiffView {
        background: $surface;
        overflow-x: hidden;
        scrollbar-gutter: stable;
    }
    DiffView > .diff-view--header { background: $panel; color: $text; text-style: bold; }
    DiffView > .diff-view--added { color: $text-success; }
    DiffView > .diff-view--removed { color: $text-error; }
    DiffView > .diff-view--changed { color: $text-warning; }
    DiffView > .diff-view--absent { color: $foreground-disabled; }
    DiffView > .diff-view--path { color: $text; }
    DiffView > .diff-view--separator { color: $panel-lighten-2; }
    DiffView > .diff-view--cursor { background: $block-cursor-blurred-background; }
    DiffView:focus > .diff-view--cursor { background: $block-cursor-background 60%; text-style: bold; }
    DiffView > .diff-view--empty { color: $foreground-muted; text-style: italic; }
    """

    class CursorMoved(Message):
        """The current difference changed (or the entries were replaced)."""

        def __init__(self, view: DiffView, index: int, entry: DiffEntry | None) -> None:
            super().__init__()
            self.view = view
            self.index = index
            self.entry = entry

        @property
        def control(self) -> DiffView:
            return self.view

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._entries: Sequence[DiffEntry] = ()
        self._paths: Sequence[str] = ()
        self._path_width = 12
        self._labels = ("before", "after")
        self.empty_text = "(no changes)"
        self._values: LRUCache[int, tuple[str, str]] = LRUCache(4096)
        self._strips: LRUCache[tuple[int, int, bool, bool], Strip] = LRUCache(1024)

    # ------------------------------------------------------------------ data

    @property
    def entries(self) -> Sequence[DiffEntry]:
        return self._entries

    @property
    def current_entry(self) -> DiffEntry | None:
        return self._entries[self.cursor] if self._entries else None

    def set_entries(
        self,
        entries: Sequence[DiffEntry],
        *,
        paths: Sequence[str] | None = None,
        before_label: str = "before",
        after_label: str = "after",
        empty_text: str = "(no changes)",
    ) -> None:
        """Show a new diff; the cursor goes to the first difference."""
        self._entries = entries
        self._paths = paths if paths is not None else entry_paths(entries)
        # len, not cell_len: C speed on 100k paths; fit() still cuts by cells when drawing.
        self._path_width = max(map(len, self._paths), default=4) + 1
        self._labels = (sanitize_line(before_label), sanitize_line(after_label))
        self.empty_text = empty_text
        self._values.clear()
        self._strips.clear()
        self.virtual_size = Size(0, len(entries) + 1)
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.cursor = 0
        self.refresh()

    def move_to_path(self, path: tuple[object, ...]) -> bool:
        """The cursor to the entry at ``path``, else to the one holding it (the full
        screen's row of a value inside it), else to the first inside it; whether found."""
        paths = [tuple(entry.path) for entry in self._entries]
        index = next((i for i, p in enumerate(paths) if p == path), None)
        if index is None:
            holding = [i for i, p in enumerate(paths) if path[: len(p)] == p]
            inside = (i for i, p in enumerate(paths) if p[: len(path)] == path)
            index = max(holding, key=lambda i: len(paths[i])) if holding else next(inside, None)
        if index is None:
            return False
        self.cursor = index
        return True

    def path_at(self, index: int) -> str:
        """The display path of one entry (sanitized)."""
        return self._paths[index] if 0 <= index < len(self._paths) else ""

    def values_for(self, index: int) -> tuple[str, str]:
        """Compact, sanitized before/after strings of one entry (cached)."""
        cached = self._values.get(index)
        if cached is None:
            entry = self._entries[index]
            if entry.kind == "changed":
                # Read further, then cut where they differ: cut at their end, two values
                # that differ past it would read the same.
                reach = VALUE_CHARS * VALUE_REACH
                before, after = (
                    compact_value(entry.before, reach, sort_keys=True),
                    compact_value(entry.after, reach, sort_keys=True),
                )
                cached = clip_pair(before, after, VALUE_CHARS)
            else:
                cached = (
                    compact_value(entry.before, VALUE_CHARS, sort_keys=True),
                    compact_value(entry.after, VALUE_CHARS, sort_keys=True),
                )
            self._values[index] = cached
        return cached

    def line_text(self, index: int) -> str:
        """The plain text of one entry's line as drawn at the current width (for tests)."""
        return "".join(segment.text for segment in self._row_strip(index, self.row_width, False))

    # ------------------------------------------------------------------ cursor

    def watch_cursor(self, old: int, new: int) -> None:
        if self._entries and self._clamped(new):
            return
        self._strips.clear()
        self.refresh()
        self._scroll_to_cursor()
        self.post_message(self.CursorMoved(self, self.cursor, self.current_entry))

    def next_difference(self) -> bool:
        """Move to the next difference; False at the last one."""
        if self.cursor + 1 >= len(self._entries):
            return False
        self.cursor += 1
        return True

    def previous_difference(self) -> bool:
        if self.cursor <= 0:
            return False
        self.cursor -= 1
        return True

    def action_next_difference(self) -> None:
        if not self.next_difference() and self._entries:
            self.app.bell()

    def action_previous_difference(self) -> None:
        if not self.previous_difference() and self._entries:
            self.app.bell()

    def row_count(self) -> int:
        return len(self._entries)

    # ------------------------------------------------------------------ drawing

    def _style(self, name: str) -> Style:
        return super()._style(f"diff-view--{name}")

    def _columns(self, width: int) -> tuple[int, int, int]:
        """(path, before, after) widths; the mark takes 2 cells, separators 3 each."""
        room = max(0, width - 2 - 2 * len(SEPARATOR))
        path = max(8, min(self._path_width, room * 2 // 5))
        values = max(0, room - path)
        before = values // 2
        return path, before, values - before

    def _header_strip(self, width: int) -> Strip:
        path_w, before_w, after_w = self._columns(width)
        # Two names alike at their start (a record's copy beside it, one id: "A 10f1b8…"
        # twice) are cut where they differ, after their side's letter.
        (side_a, name_a), (side_b, name_b) = (self._side_name(label) for label in self._labels)
        name_a, name_b = clip_apart(name_a, name_b, min(before_w, after_w) - 2 - len(side_a))
        before, after = side_a + name_a, side_b + name_b
        header = self._style("header")
        sep = header + Style(color=self._style("separator").color)
        segments = [
            Segment("  ", header),
            Segment(fit("path", path_w), header),
            Segment(SEPARATOR, sep),
            Segment(fit(f"− {before}", before_w), header),
            Segment(SEPARATOR, sep),
            Segment(fit(f"+ {after}", after_w), header),
        ]
        return Strip(segments)

    @staticmethod
    def _side_name(label: str) -> tuple[str, str]:
        """``A 10f1….json``: its side's letter (``A ``, ``B ``, or none) and its name."""
        side, space, name = label.partition(" ")
        return (side + space, name) if side in ("A", "B") and space else ("", label)

    def _row_strip(self, index: int, width: int, is_cursor: bool) -> Strip:
        key = (index, width, is_cursor, self.has_focus)
        cached = self._strips.get(key)
        if cached is not None:
            return cached
        entry = self._entries[index]
        kind = entry.kind
        path_w, before_w, after_w = self._columns(width)
        before, after = self.values_for(index)
        if kind == "changed":
            before, after = fit_pair(before, after, before_w, after_w)  # where they differ
        else:
            before = fit(ABSENT if kind == "added" else before, before_w)
            after = fit(ABSENT if kind == "removed" else after, after_w)
        kind_style = self._style(kind)
        absent = self._style("absent")
        sep = self._style("separator")
        before_style = absent if kind == "added" else self._style("removed")
        after_style = absent if kind == "removed" else self._style("added")
        segments = [
            Segment(f"{MARKS[kind]} ", kind_style),
            Segment(fit(self._paths[index], path_w), self._style("path")),
            Segment(SEPARATOR, sep),
            Segment(before, before_style),
            Segment(SEPARATOR, sep),
            Segment(after, after_style),
        ]
        strip = Strip(self._with_cursor(segments) if is_cursor else segments)
        self._strips[key] = strip
        return strip
