"""The list pane's width on a screen of a given width: the app's layout (``app.tcss``,
``tui.layout``) and the start frame, drawn before Textual is imported, agree on it. No
Textual here."""

from __future__ import annotations

# Below this many columns the three panes do not fit side by side (their least widths and
# borders): the list shares the screen with the timeline or the side pane.
NARROW_WIDTH = 128
# The list pane's share of the width and its least width, as in app.tcss (#list-pane),
# and on a narrow screen.
LIST_PANE_PERCENT, LIST_PANE_MIN = 40, 44
NARROW_LIST_PERCENT, NARROW_LIST_MIN = 45, 30


def list_pane_width(columns: int) -> int:
    """The list pane's width, borders included, in the columns layout."""
    if columns < NARROW_WIDTH:
        return min(columns, max(NARROW_LIST_MIN, columns * NARROW_LIST_PERCENT // 100))
    return min(columns, max(LIST_PANE_MIN, columns * LIST_PANE_PERCENT // 100))
