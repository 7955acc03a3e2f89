"""Every size: which panes share the screen (``app.tcss`` draws the classes set here).

Three layouts, cycled with ``L`` and remembered between runs:

- ``columns``: list | timeline | side pane side by side. Narrower than ``NARROW_WIDTH`` the
  list shares the screen with the timeline or the side pane (``w`` swaps them).
- ``stacked``: the list across the top, the timeline and the side pane below it (for tall,
  narrow terminals; narrow, the timeline or the side pane, as above; under ``SHORT_HEIGHT``
  rows without the event detail).
- ``two panes``: the list and the timeline only, at any width; a side-pane action shows
  the side pane in the timeline's place (``w`` swaps back).

``z`` maximises the pane that has the focus, in every layout.

The classes go on the panes' container (``#main``), not on the app: a class changed on a
node restyles every node below it, and on the app that is the whole screen, header and
footer included (each node's restyle matches it against every rule of the stylesheet).
"""

from __future__ import annotations

from textual import events
from textual.app import App
from textual.css.query import NoMatches
from textual.widget import Widget

from intentus_tui.tui.settings import load_settings, remember

# Below this many columns the three panes do not fit side by side (their least widths and
# borders): the list shares the screen with the timeline or the side pane.
NARROW_WIDTH = 128
# On fewer rows than this, the timeline's summary and the event detail give rows to the
# events (and, stacked, the event detail is not shown).
SHORT_HEIGHT = 36
LAYOUTS = ("columns", "stacked", "two panes")
_LAYOUT_CLASSES = {"columns": "", "stacked": "-stacked", "two panes": "-two-panes"}


class PaneLayout(App[None]):
    """The app's pane layout: a base of ``IntentusApp``, which binds its actions."""

    pane_layout = LAYOUTS[0]

    @property
    def panes(self) -> Widget:
        """The panes' container, which holds the layout's classes."""
        return self.query_one("#main")

    def restore_layout(self) -> None:
        """The layout the user chose last time (the default when none or unknown)."""
        layout = load_settings().get("layout")
        self._set_layout(layout if layout in LAYOUTS else LAYOUTS[0])
        self._fit(self.size.width, self.size.height)

    def _set_layout(self, layout: str) -> None:
        self.pane_layout = layout
        panes = self.panes
        for name, css_class in _LAYOUT_CLASSES.items():
            if css_class:
                panes.set_class(name == layout, css_class)

    def action_cycle_layout(self) -> None:
        layout = LAYOUTS[(LAYOUTS.index(self.pane_layout) + 1) % len(LAYOUTS)]
        self._set_layout(layout)
        problem = remember("layout", layout)
        self.notify(
            problem or f"Layout: {layout}",
            severity="warning" if problem else "information",
            timeout=1.5,
        )

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        try:
            panes = self.panes
        except NoMatches:  # not composed yet: ``restore_layout`` fits them
            return
        panes.set_class(width < NARROW_WIDTH, "-narrow")
        panes.set_class(height < SHORT_HEIGHT, "-short")

    def show_side_pane(self) -> None:
        """A side-pane action on a narrow screen shows the side pane in the timeline's place."""
        self.panes.add_class("-side-shown")

    def action_swap_panes(self) -> None:
        """Narrow screen or two panes: the timeline or the side pane beside the list."""
        panes = self.panes
        panes.toggle_class("-side-shown")
        if not (panes.has_class("-narrow") or panes.has_class("-two-panes")):
            self.notify("Both panes are shown in this layout", timeout=1.5)

    def action_maximise(self) -> None:
        """The pane with the focus takes the whole screen; again, every pane comes back."""
        panes = self.panes
        if panes.has_class("-maximised"):
            panes.remove_class("-maximised")
            for pane in self.query(".pane"):
                pane.remove_class("-max")
            return
        focused = self.focused
        chain = focused.ancestors_with_self if focused is not None else []
        maximised = [node for node in chain if node.has_class("pane")]
        (maximised[0] if maximised else self.query_one("#list-pane")).add_class("-max")
        panes.add_class("-maximised")
