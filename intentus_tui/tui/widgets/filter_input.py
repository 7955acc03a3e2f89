"""The ``/`` filter box above the execution list: filters as you type."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Input


class FilterInput(Input):
    """Enter keeps the filter and returns to the list; escape clears it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "clear_filter", "Clear filter", id="filter.clear"),
        Binding("down", "done", "Back to the list", show=False, id="filter.done"),
    ]

    class Done(Message):
        """The user is finished with the filter box (it may still hold a filter)."""

    def action_clear_filter(self) -> None:
        self.value = ""
        self.display = False
        self.post_message(self.Done())

    def action_done(self) -> None:
        if not self.value:
            self.display = False
        self.post_message(self.Done())

    async def action_submit(self) -> None:
        await super().action_submit()
        self.action_done()
