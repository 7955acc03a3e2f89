"""j/k and g/G on the panes that scroll text, as on the list and the timeline (the arrows,
page keys, home and end are Textual's own)."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll

SCROLL_KEYS: list[BindingType] = [
    Binding("j", "scroll_down", "Scroll down", show=False, id="text.down"),
    Binding("k", "scroll_up", "Scroll up", show=False, id="text.up"),
    Binding("g", "scroll_home", "Top", show=False, id="text.top"),
    Binding("G", "scroll_end", "Bottom", show=False, id="text.bottom"),
]


class KeyedScroll(VerticalScroll):
    """A ``VerticalScroll`` that j/k and g/G scroll too."""

    BINDINGS: ClassVar[list[BindingType]] = SCROLL_KEYS
