"""j/k and g/G on the panes that scroll text, as on the list and the timeline (the arrows,
page keys, home and end are Textual's own)."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widget import Widget

SCROLL_KEYS: list[BindingType] = [
    Binding("j", "line(1)", "Scroll down", show=False, id="text.down"),
    Binding("k", "line(-1)", "Scroll up", show=False, id="text.up"),
    Binding("g", "line(-1_000_000_000)", "Top", show=False, id="text.top"),
    Binding("G", "line(1_000_000_000)", "Bottom", show=False, id="text.bottom"),
]


class ScrollKeys(Widget, can_focus=True):
    """``SCROLL_KEYS`` on a scrolling (focusable) widget: a line at a time, at once. Six j
    typed in one burst moved one line (each animated or deferred scroll started from
    where the last had not yet got to)."""

    BINDINGS: ClassVar[list[BindingType]] = SCROLL_KEYS
    DEFAULT_CSS = ""  # no style of its own: it comes second, after the scrolling widget

    def action_line(self, lines: int) -> None:
        self.scroll_to(y=self.scroll_y + lines, animate=False, immediate=True)


class KeyedScroll(VerticalScroll, ScrollKeys):
    """A ``VerticalScroll`` that j/k and g/G scroll too. (The scrolling class first: CSS
    type names follow the first base, and VerticalScroll's overflow is what scrolls.)"""
