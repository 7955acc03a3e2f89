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
"""

from __future__ import annotations

from textual import events
from textual.app import App

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

    def restore_layout(self) -> None:
        """The layout the user chose last time (the default when none or unknown)."""
        layout = load_settings().get("layout")
        self._set_layout(layout if layout in LAYOUTS else LAYOUTS[0])

    def _set_layout(self, layout: str) -> None:
        self.pane_layout = layout
        for name, css_class in _LAYOUT_CLASSES.items():
            if css_class:
                self.set_class(name == layout, css_class)

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
        self.set_class(event.size.width < NARROW_WIDTH, "-narrow")
        self.set_class(event.size.height < SHORT_HEIGHT, "-short")

    def show_side_pane(self) -> None:
        """A side-pane action on a narrow screen shows the side pane in the timeline's place."""
        self.add_class("-side-shown")

    def action_swap_panes(self) -> None:
        """Narrow screen or two panes: the timeline or the side pane beside the list."""
        self.toggle_class("-side-shown")
        if not (self.has_class("-narrow") or self.has_class("-two-panes")):
            self.notify("Both panes are shown in this layout", timeout=1.5)

    def action_maximise(self) -> None:
        """The pane with the focus takes the whole screen; again, every pane comes back."""
        if self.has_class("-maximised"):
            self.remove_class("-maximised")
            for pane in self.query(".pane"):
                pane.remove_class("-max")
            return
        focused = self.focused
        chain = focused.ancestors_with_self if focused is not None else []
        panes = [node for node in chain if node.has_class("pane")]
        (panes[0] if panes else self.query_one("#list-pane")).add_class("-max")
        self.add_class("-maximised")
