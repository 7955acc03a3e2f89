"""The key bar at the bottom of a screen: the keys in one line of text.

Textual's ``Footer`` mounts a widget per key and mounts them all again whenever the keys
change, which they do at every change of focus (opening and closing the filter box is
two): each of a dozen keys mounted and styled three times over (itself and its two parts).
A debugger test that opened the filter box and closed it spent 255 ms of CPU with that
footer and 178 ms without any; 188 ms with this one. A user paid the same on each key
that moved the focus. Here the keys are one widget's line of text and the palette's key
another's, drawn as Textual's footer draws them (its styles, spacing, the palette's key
docked right after a thin edge: ``▏^p palette``; the snapshots did not change): a change
of keys repaints a line. A key is clicked as before (a disabled one rings the bell) and
hovered as before; its tooltip shows while the mouse is on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget


@dataclass(frozen=True)
class FooterKey:
    """One key shown: what it shows (``key_display``, ``description``), what a click on
    it presses (``key``), its action, whether it is enabled, and its tooltip."""

    key: str
    key_display: str
    description: str
    action: str
    enabled: bool
    tooltip: str


@dataclass(frozen=True)
class _Shown:
    keys: tuple[FooterKey, ...]
    palette: FooterKey | None


class KeysLine(Widget):
    """Keys drawn side by side, each `` key Description `` as Textual's key widget draws
    it; clicked and hovered as it is."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {"keys--hover", "keys--key", "keys--description"}
    DEFAULT_CSS = """
    KeysLine {
        width: auto;
        height: 1;
        background: $footer-item-background;
        .keys--hover { background: $block-hover-background; }
        .keys--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .keys--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
    }
    """

    def __init__(self, *, compact: bool = False, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.set_reactive(Widget.shrink, False)  # as Textual's key widget: cut, not shrunk
        self._compact = compact  # the palette's: no padding around the key
        self._keys: tuple[FooterKey, ...] = ()
        self._places: list[tuple[int, int, FooterKey]] = []  # columns as last drawn
        self._hover: FooterKey | None = None

    def show(self, keys: tuple[FooterKey, ...]) -> None:
        if keys != self._keys:
            self._keys = keys
            self._hover = None
            self.refresh(layout=True)

    def render(self) -> Text:
        line = Text(no_wrap=True, overflow="crop", end="")
        places = []
        key_part = self.get_component_rich_style("keys--key")
        description_part = self.get_component_rich_style("keys--description")
        hovered = Style(bgcolor=self.get_component_rich_style("keys--hover").bgcolor)
        for key in self._keys:
            start = line.cell_len
            # A hovered key's parts lie on the hover's background, a disabled one is dim:
            # what Textual's key widget sets on itself shows through its parts.
            over = hovered if key is self._hover else Style()
            if not key.enabled:
                over += Style(dim=True)
            key_style, description_style = key_part + over, description_part + over
            if self._compact:
                line.append(key.key_display, key_style)
                if key.description:
                    line.append(f" {key.description}", description_style)
            else:
                line.append(f" {key.key_display} ", key_style)
                if key.description:
                    line.append(f"{key.description} ", description_style)
            places.append((start, line.cell_len, key))
        self._places = places
        return line

    def _key_at(self, x: int) -> FooterKey | None:
        x -= self.styles.gutter.left
        return next((key for start, end, key in self._places if start <= x < end), None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._hovering(self._key_at(event.x))

    def on_leave(self, _: events.Leave) -> None:
        self._hovering(None)

    def _hovering(self, key: FooterKey | None) -> None:
        if key is not self._hover:
            self._hover = key
            self.tooltip = key.tooltip if key is not None and key.tooltip else None
            self.refresh()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        key = self._key_at(event.x)
        if key is None:
            return
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()


class AppFooter(Widget, can_focus=False):
    """The keys of what has focus, each ``key Description``, the palette's at the right."""

    ALLOW_SELECT = False
    # Textual's footer's styles, as its key widgets have them.
    DEFAULT_CSS = """
    AppFooter {
        layout: horizontal;
        color: $footer-foreground;
        background: $footer-background;
        dock: bottom;
        height: 1;
        overflow: hidden hidden;
        & > .-palette {
            dock: right;
            padding-right: 1;
            border-left: vkey $foreground 20%;
        }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown = _Shown((), None)
        self._keys = KeysLine()
        self._palette = KeysLine(compact=True, classes="-palette")

    @property
    def keys(self) -> tuple[FooterKey, ...]:
        """The keys shown, left to right, the palette's last."""
        shown = self._shown
        return shown.keys + ((shown.palette,) if shown.palette is not None else ())

    def compose(self) -> ComposeResult:
        yield self._keys
        yield self._palette

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._bindings_changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        if not self.is_attached or screen is not self.screen:
            return
        shown = self._what_is_shown()
        if shown != self._shown:
            self._shown = shown
            self._keys.show(shown.keys)
            self._palette.show(() if shown.palette is None else (shown.palette,))
            self._palette.display = shown.palette is not None

    def _what_is_shown(self) -> _Shown:
        """The keys Textual's footer shows: the first binding shown of each action, in
        the screen's order; the palette's key apart."""
        app = self.app
        active = self.screen.active_bindings

        def shown(binding: Binding, enabled: bool, tooltip: str) -> FooterKey:
            display = app.get_key_display(binding)
            return FooterKey(
                binding.key, display, binding.description, binding.action, enabled, tooltip
            )

        first: dict[str, FooterKey] = {}
        for _, binding, enabled, tooltip in active.values():
            if binding.show and binding.action not in first:
                first[binding.action] = shown(binding, enabled, tooltip)
        palette = None
        if app.ENABLE_COMMAND_PALETTE and app.COMMAND_PALETTE_BINDING in active:
            _, binding, enabled, tooltip = active[app.COMMAND_PALETTE_BINDING]
            palette = shown(binding, enabled, binding.tooltip or binding.description or tooltip)
        return _Shown(tuple(first.values()), palette)
