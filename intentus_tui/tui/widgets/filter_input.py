"""The ``/`` filter box above the execution list: filters as you type.

Its keys (enter or down: back to the list, escape: clear) are priority bindings on the
app, active only while the box has focus: a key handled by the box itself would be too
late for the keys the terminal delivers in the same burst (they are routed to the
focused widget before the box could hand focus back).
"""

from __future__ import annotations

from textual.widgets import Input


class FilterInput(Input):
    """A one-line input; the app reads its value as you type."""
