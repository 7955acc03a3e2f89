"""Every size: which panes share the screen (``app.tcss`` draws the classes set here).

Narrower than ``NARROW_WIDTH`` the list shares the screen with the timeline or the side
pane; ``z`` maximises the pane that has the focus, at any size.
"""

from __future__ import annotations

from textual import events
from textual.app import App

# Below this many columns the three panes do not fit side by side (their least widths and
# borders): the list shares the screen with the timeline or the side pane.
NARROW_WIDTH = 128


class PaneLayout(App[None]):
    """The app's pane layout: a base of ``IntentusApp``, which binds its actions."""

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < NARROW_WIDTH, "-narrow")

    def show_side_pane(self) -> None:
        """A side-pane action on a narrow screen shows the side pane in the timeline's place."""
        self.add_class("-side-shown")

    def action_swap_panes(self) -> None:
        """Narrow screen: the timeline or the side pane beside the list."""
        self.toggle_class("-side-shown")
        if not self.has_class("-narrow"):
            self.notify("Both panes are shown at this width", timeout=1.5)

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
