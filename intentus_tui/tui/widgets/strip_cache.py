"""A base for Line-API lists that cache their rendered rows as strips.

A cached strip bakes in the width, the theme's styles and the focus (the cursor is drawn
differently when the list is blurred), so a resize, a style update, focus and blur each
drop the cache. Component styles are cached by name until the next style update.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from rich.style import Style
from textual import events
from textual.cache import LRUCache
from textual.geometry import Size
from textual.scroll_view import ScrollView

K = TypeVar("K")
V = TypeVar("V")
STRIP_CACHE_SIZE = 512


class StripCachedView(ScrollView, Generic[K, V]):
    """``_strips`` maps a subclass's row key to what it cached; ``_style`` looks styles up once."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._strips: LRUCache[K, V] = LRUCache(STRIP_CACHE_SIZE)
        self._styles: dict[str, Style] = {}

    def _virtual_height(self) -> int:
        """How many lines there are to scroll through."""
        raise NotImplementedError

    def _update_virtual_size(self) -> None:
        new = Size(self.size.width, self._virtual_height())
        old = self.virtual_size
        if new == old:
            return
        height = self.scrollable_content_region.height
        if (
            self.is_mounted
            and new.width == old.width
            and (old.height > height) == (new.height > height)
        ):
            # Only the scroll range changed (rows came or went, the scrollbar neither
            # appears nor goes): no layout pass. Setting ``virtual_size`` would re-lay out
            # the whole screen, on every batch of a 100,000-file scan. This is what Textual
            # itself does when a size changes without a layout (``Widget._size_updated``).
            self.set_reactive(ScrollView.virtual_size, new)
            self._scroll_update(new)
            self.refresh()
        else:
            self.virtual_size = new

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()
        self._styles.clear()

    def _on_focus(self, event: events.Focus) -> None:
        self._strips.clear()
        self.refresh()

    def _on_blur(self, event: events.Blur) -> None:
        self._strips.clear()
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        self._update_virtual_size()
        self._strips.clear()

    def _style(self, name: str) -> Style:
        # Not partial: translucent theme colours ($foreground-disabled, the blurred cursor)
        # are blended with the background here; a Rich style cannot carry alpha.
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = self.get_component_rich_style(name)
        return style
