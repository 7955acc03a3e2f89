"""Every size: which panes share the screen.

Three layouts, cycled with ``L`` and remembered between runs:

- ``columns``: list | timeline | side pane side by side. Narrower than ``NARROW_WIDTH`` the
  list shares the screen with the timeline or the side pane (``w`` swaps them).
- ``stacked``: the list across the top, the timeline and the side pane below it (for tall,
  narrow terminals; narrow, the timeline or the side pane, as above; under ``SHORT_HEIGHT``
  rows without the event detail).
- ``two panes``: the list and the timeline only, at any width; a side-pane action shows
  the side pane in the timeline's place (``w`` swaps back).

``z`` maximises the pane that has the focus, in every layout.

``app.tcss`` draws the columns at full size; what differs from that in a layout, a size,
or with a pane maximised is set here on the few widgets concerned, as their own (inline)
styles (``pane_styles``). Not as CSS classes: a class changed on a node restyles every
node below it, matching each against every rule of the stylesheet (the side pane alone
holds some forty widgets), which took half of each ``L`` and ``z``.
"""

from __future__ import annotations

from textual import events
from textual.app import App
from textual.css.query import NoMatches

from intentus_tui.tui.pane_widths import NARROW_LIST_MIN, NARROW_LIST_PERCENT, NARROW_WIDTH
from intentus_tui.tui.settings import load_settings, remember, settings_path

# On fewer rows than this, the timeline's summary and the event detail give rows to the
# events (and, stacked, the event detail is not shown).
SHORT_HEIGHT = 36
LAYOUTS = ("columns", "stacked", "two panes")
PANES = ("list-pane", "centre", "side-pane")
# Each widget's styles set here (by id), and their names: those a state does not set are
# cleared (back to app.tcss).
STYLED: dict[str, tuple[str, ...]] = {
    "main": ("layout", "grid_size_columns", "grid_size_rows", "grid_columns", "grid_rows"),
    **{pane: ("display", "width", "min_width", "column_span", "row_span") for pane in PANES},
    "timeline": ("height",),
    "event-detail": ("height", "display"),
    "event-detail-title": ("margin",),
    "timeline-summary": ("max_height", "text_wrap", "text_overflow"),
}
Styles = dict[str, dict[str, object]]


def pane_styles(
    layout: str,
    *,
    narrow: bool = False,
    short: bool = False,
    side_shown: bool = False,
    maximised: str | None = None,
) -> Styles:
    """The styles, by widget id, of ``layout`` on a ``narrow`` or ``short`` screen, with
    the side pane in the timeline's place (``side_shown``) and a pane ``maximised`` (its
    id)."""
    styles: Styles = {name: {} for name in STYLED}
    main, listing, centre, side = (styles[name] for name in ("main", *PANES))
    two_panes = layout == "two panes"
    if narrow:
        listing.update(width=f"{NARROW_LIST_PERCENT}%", min_width=NARROW_LIST_MIN)
        centre.update(min_width=0)
    if narrow or two_panes:  # one pane beside the list: the timeline, or the side pane
        side.update(display="none", width="1fr", min_width=0)
        if side_shown:
            centre.update(display="none")
            side.update(display="block")
    if layout == "stacked":
        main.update(
            layout="grid",
            grid_size_columns=2,
            grid_size_rows=2,
            grid_columns="2fr 1fr",
            grid_rows="1fr 2fr",
        )
        listing.update(column_span=2, width="1fr", min_width=0)
        for below in (centre, side):
            below.update(width="1fr", min_width=0)
            if narrow or two_panes:  # the one pane below the list takes the whole width
                below.update(column_span=2)
    if short:  # the events keep most of the timeline pane
        styles["timeline"].update(height="2fr")
        styles["event-detail"].update(height="1fr")
        styles["event-detail-title"].update(margin=(0, 0, 0, 0))  # a row more of the event
        # Three or so lines: each answer on its own line, cut with an ellipsis rather than
        # wrapped (a wrapped outcome reason pushed integrity, what broke, out of sight).
        styles["timeline-summary"].update(
            max_height=8 if maximised else 4, text_wrap="nowrap", text_overflow="ellipsis"
        )
        if layout == "stacked":  # no room for the event detail
            styles["event-detail"].update(display="none")
    if maximised is not None:
        for pane in PANES:
            styles[pane].update(display="none")
        styles[maximised].update(display="block", column_span=2, row_span=2)
        styles[maximised].update(width="1fr", min_width=0)
    return styles


class PaneLayout(App[None]):
    """The app's pane layout: a base of ``IntentusApp``, which binds its actions."""

    pane_layout = LAYOUTS[0]
    _narrow = False
    _short = False
    _side_shown = False
    _maximised: str | None = None  # the id of the pane that has the whole screen

    def restore_theme(self) -> list[str]:
        """The theme the user chose last time; what to say when the settings name one this
        app does not have (the default is used: it was, without a word, where a broken
        keymap file is said)."""
        theme = load_settings().get("theme")
        if isinstance(theme, str) and theme in self.available_themes:
            self.theme = theme
        if theme is None or self.theme == theme:
            return []
        return [
            f"settings {settings_path()}: no theme {theme!r} here, the default is used "
            "(ctrl+p, Change theme, picks one)"
        ]

    def restore_layout(self) -> None:
        """The layout the user chose last time (the default when none or unknown)."""
        layout = load_settings().get("layout")
        self.pane_layout = layout if layout in LAYOUTS else LAYOUTS[0]
        self._fit(self.size.width, self.size.height)

    def _apply_layout(self) -> None:
        styles = pane_styles(
            self.pane_layout,
            narrow=self._narrow,
            short=self._short,
            side_shown=self._side_shown,
            maximised=self._maximised,
        )
        try:
            widgets = {name: self.query_one(f"#{name}") for name in STYLED}
        except NoMatches:  # not composed yet: ``restore_layout`` lays them out
            return
        for name, names in STYLED.items():
            own = widgets[name].styles
            wanted = styles[name]
            for style in names:  # setting a style to what it is already costs nothing
                setattr(own, style, wanted.get(style))
        self._keep_focus_in_sight()

    def _keep_focus_in_sight(self) -> None:
        """The focus was in a pane just hidden: it goes to the pane shown in its place (or
        the list), so that the keys typed next reach what is on screen (they did nothing
        until Tab was pressed)."""
        focused = self.focused
        chain = focused.ancestors_with_self if focused is not None else []
        if not any(node.id in PANES and not node.display for node in chain):
            return  # in sight, or hidden by something else than a pane (a closed filter box)
        shown = "side-pane" if self._side_shown else "centre"
        focusable = self.screen.focus_chain
        for pane in (shown, "list-pane"):
            for widget in focusable:
                if any(node.id == pane for node in widget.ancestors_with_self):
                    widget.focus()
                    return

    def action_cycle_layout(self) -> None:
        layout = LAYOUTS[(LAYOUTS.index(self.pane_layout) + 1) % len(LAYOUTS)]
        self.pane_layout = layout
        self._apply_layout()
        # Once the new layout is on screen: writing the settings file (and syncing it to
        # disk) and the toast's own layout are not the key's answer.
        self.call_after_refresh(self._remember_layout, layout)

    def _remember_layout(self, layout: str) -> None:
        problem = remember("layout", layout)
        said = f"Layout: {layout}"
        if self._narrow and layout != "stacked":  # else L looked like it did nothing
            said += f" (under {NARROW_WIDTH} columns, columns and two panes look alike)"
        self.notify(
            problem or said,
            severity="warning" if problem else "information",
            timeout=1.5,
        )

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        self._narrow = width < NARROW_WIDTH
        self._short = height < SHORT_HEIGHT
        self._apply_layout()

    def show_side_pane(self, tab: str | None = None) -> None:
        """A side-pane action on a narrow screen shows the side pane in the timeline's place,
        on its ``tab`` (the tab the action shows). The tab is switched to first: the focus,
        leaving the hidden timeline, goes into the tab on top, and a focused tab is brought
        to the front, so that the tab open before came back over the action's (``r``
        pressed on the timeline showed the Post-mortem tab, the replay behind it)."""
        if tab is not None:
            from intentus_tui.tui.widgets.side_pane import SidePane

            self.query_one("#side-pane", SidePane).show_tab(tab)
        if not self._side_shown:
            self._side_shown = True
            self._apply_layout()

    def show_timeline_pane(self) -> None:
        """Opening the timeline on a narrow screen shows it in the side pane's place."""
        if self._side_shown:
            self._side_shown = False
            self._apply_layout()

    # The list's and the timeline's own keys (priority bindings ``list.open`` and
    # ``timeline.back``): the focus moves at once, not after the next refresh, so that the
    # keys typed after them in one burst go where it went.

    def action_open_timeline(self) -> None:
        from intentus_tui.tui.widgets.execution_list import ExecutionList

        if self.query_one("#executions", ExecutionList).selected_summary is None:
            return
        self.show_timeline_pane()
        self.screen.set_focus(self.query_one("#event-lines"))

    def action_back_to_list(self) -> None:
        self.screen.set_focus(self.query_one("#executions"))

    def action_swap_panes(self) -> None:
        """Narrow screen or two panes: the timeline or the side pane beside the list."""
        self._side_shown = not self._side_shown
        self._apply_layout()
        if not (self._narrow or self.pane_layout == "two panes"):
            self.notify("Both panes are shown in this layout", timeout=1.5)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The focus went to a pane the maximised one hides (escape sends it to the list):
        every pane comes back, so that the keys typed next act on what is on screen (they
        moved the hidden list's cursor, the maximised timeline following it unexplained)."""
        if self._maximised is None or event.widget.screen is not self.screen:
            return
        panes = [node.id for node in event.widget.ancestors_with_self if node.id in PANES]
        if panes and panes[0] != self._maximised:
            self._maximised = None
            self._apply_layout()

    @property
    def maximised(self) -> bool:
        """Whether a pane has the whole screen (``z``)."""
        return self._maximised is not None

    def action_maximise(self) -> None:
        """The pane with the focus takes the whole screen; again, every pane comes back."""
        if self._maximised is not None:
            self._maximised = None
        else:
            focused = self.focused
            chain = focused.ancestors_with_self if focused is not None else []
            panes = [node.id for node in chain if node.id in PANES]
            self._maximised = panes[0] if panes else "list-pane"
        self._apply_layout()
