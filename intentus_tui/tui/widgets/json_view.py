"""A read-only, syntax-highlighted JSON viewer that only renders what is on screen.

``pretty_json_lines`` (run it in a thread for big values) turns a value into indented
lines; ``JsonView`` is a Line-API widget that tokenizes and styles a line only when it is
scrolled into view, and cuts very long lines (a 1 MB string is one line) at
``MAX_LINE_CHARS`` with a note saying how much was left out.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any, ClassVar

import orjson
from rich.segment import Segment
from rich.style import Style
from textual.cache import LRUCache
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from intentus_tui.core import actions
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.tui.widgets.scroll_keys import ScrollKeys

MAX_LINE_CHARS = 1000

_TOKEN = re.compile(
    r'(?P<key>"(?:[^"\\]|\\.)*")(?=\s*:)'
    r'|(?P<string>"(?:[^"\\]|\\.)*"?)'
    r"|(?P<number>-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)"
    r"|(?P<literal>\btrue\b|\bfalse\b|\bnull\b|NaN|-?Infinity)"
    r"|(?P<punct>[{}\[\],:])"
)


def _needs_stdlib(value: Any) -> bool:
    """Does ``value`` hold what orjson would write otherwise than wanted here: NaN or
    Infinity (as null; the stdlib keeps them), or containers ``FLAT_BELOW`` levels deep
    (indented to their depth: a 1 MB payload of 250-deep arrays made 251 MB of lines)?"""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, float):
            if not math.isfinite(item):
                return True
        elif isinstance(item, dict | list | tuple):
            if depth >= actions.FLAT_BELOW and item:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


def pretty_json_lines(value: Any) -> list[str]:
    """Indented JSON, one string per line. Never raises: non-JSON values fall back to repr.
    Containers nested deeper than ``FLAT_BELOW`` are on one line (``dumps_indented``)."""
    try:
        if _needs_stdlib(value):
            raise ValueError("non-finite numbers or deep nesting")
        text = orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS).decode()
    except (TypeError, ValueError, orjson.JSONEncodeError):
        try:
            text = actions.dumps_indented(value, default=repr)
        except (TypeError, ValueError, RecursionError):
            text = repr(value)
    return text.splitlines() or [""]


class JsonView(ScrollView, ScrollKeys, can_focus=True):
    """Scrollable JSON lines; tokenized and styled lazily, line by line."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "json-view--key",
        "json-view--string",
        "json-view--number",
        "json-view--literal",
        "json-view--punct",
        "json-view--more",
    }

    DEFAULT_CSS = """
    JsonView {
        background: $surface;
        scrollbar-gutter: stable;
    }
    JsonView > .json-view--key { color: $text-primary; }
    JsonView > .json-view--string { color: $text-success; }
    JsonView > .json-view--number { color: $text-warning; }
    JsonView > .json-view--literal { color: $text-accent; text-style: italic; }
    JsonView > .json-view--punct { color: $foreground-muted; }
    JsonView > .json-view--more { color: $foreground-muted; text-style: italic reverse; }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None) -> None:
        super().__init__(name=name, id=id)
        self._lines: Sequence[str] = ()
        self._cache: LRUCache[int, Strip] = LRUCache(1024)

    @property
    def line_count(self) -> int:
        return len(self._lines)

    def set_lines(self, lines: Sequence[str]) -> None:
        """Show these lines (already pretty-printed; they are sanitized when drawn)."""
        self._lines = lines
        self._cache.clear()
        longest = max(map(len, lines), default=0)
        width = min(longest, MAX_LINE_CHARS + 40)
        self.virtual_size = Size(width, len(lines))
        self.scroll_to(0, 0, animate=False)
        self.refresh()

    def visible_text(self, line: int) -> str:
        """The text drawn for one line (for tests): sanitized and cut."""
        return "".join(seg.text for seg in self._strip_for(line))

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._cache.clear()

    def _styles(self) -> dict[str, Style]:
        return {
            name: self.get_component_rich_style(f"json-view--{name}", partial=False)
            for name in ("key", "string", "number", "literal", "punct", "more")
        }

    def _strip_for(self, index: int) -> Strip:
        cached = self._cache.get(index)
        if cached is not None:
            return cached
        raw = self._lines[index]
        extra = len(raw) - MAX_LINE_CHARS
        text = sanitize_line(raw[:MAX_LINE_CHARS] if extra > 0 else raw)
        styles = self._styles()
        segments: list[Segment] = []
        pos = 0
        for match in _TOKEN.finditer(text):
            if match.start() > pos:
                segments.append(Segment(text[pos : match.start()]))
            kind = match.lastgroup or "punct"
            segments.append(Segment(match.group(), styles[kind]))
            pos = match.end()
        if pos < len(text):
            segments.append(Segment(text[pos:]))
        if extra > 0:
            segments.append(Segment(f" … {extra:,} more characters not shown ", styles["more"]))
        strip = Strip(segments)
        self._cache[index] = strip
        return strip

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.size.width
        base = self.rich_style
        if index >= len(self._lines):
            return Strip.blank(width, base)
        strip = self._strip_for(index).apply_style(base)
        return strip.crop_extend(scroll_x, scroll_x + width, base)
