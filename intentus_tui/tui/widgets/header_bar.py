"""The header bar: where we are, whether we are watching, what the directory holds."""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget

from intentus_tui.tui.presenters.header_text import HeaderState, counts_parts, location_parts


class HeaderBar(Widget):
    """Two lines: location and live state; counts by verdict."""

    # The presenter fits each line to the width; nowrap keeps a line that still does not
    # fit (a wide character measured otherwise) from pushing the counts off the header.
    DEFAULT_CSS = """
    HeaderBar { height: 2; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.state = HeaderState()

    def show(self, state: HeaderState) -> None:
        self.state = state
        self.refresh()

    def render(self) -> Content:
        width = self.size.width or None
        location = location_parts(self.state, width)
        counts = counts_parts(self.state, width)
        return Content("\n").join([Content.assemble(*location), Content.assemble(*counts)])
