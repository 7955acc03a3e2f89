"""Lines wrapped with a hanging indent: a line's head (a key, a mark, a label), then text
that, when it wraps, goes on under its own first column rather than back at column 0."""

from __future__ import annotations

from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual

# A line: a plain one, or a hanging one (its head, then what follows it).
HangingLine = Content | tuple[Content, Content]
MIN_HANGING_WIDTH = 16  # narrower than this beside its head, the text wraps under the head


class HangingText(Visual):
    """The lines, wrapped to the width they are shown at: text that wraps goes on under
    its first column (a hanging indent), not back at column 0.

    ``str()`` is the text unwrapped, one line per line given."""

    def __init__(self, lines: list[HangingLine]) -> None:
        self._lines = lines
        self._unwrapped = Content("\n").join(
            line if isinstance(line, Content) else line[0] + line[1] for line in lines
        )
        self._wrapped: tuple[int, Content] | None = None

    def __str__(self) -> str:
        return self._unwrapped.plain

    def wrapped(self, width: int) -> Content:
        """The text as shown ``width`` cells wide: every line fits, continuations hang."""
        if self._wrapped is not None and self._wrapped[0] == width:
            return self._wrapped[1]
        shown: list[Content] = []
        for line in self._lines:
            if isinstance(line, Content):
                shown.extend(line.wrap(width) if width > 0 else [line])
                continue
            head, meaning = line
            indent = head.cell_length
            if width - indent < MIN_HANGING_WIDTH:
                shown.extend((head + meaning).wrap(width) if width > 0 else [head + meaning])
                continue
            first, *rest = meaning.wrap(width - indent) or [Content("")]
            shown.append(head + first)
            shown.extend(Content(" " * indent) + more for more in rest)
        text = Content("\n").join(shown)
        self._wrapped = (width, text)
        return text

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        return self.wrapped(width).render_strips(width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self._unwrapped.get_optimal_width(rules, container_width)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.wrapped(width).get_height(rules, width)
