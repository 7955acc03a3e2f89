"""The filter box above the list: opened with "/", closed with enter (kept) or escape
(cleared). A base of ``IntentusApp``, which composes the box and binds these actions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import App
from textual.widgets import Input

from intentus_tui.tui.widgets.execution_list import ExecutionList

if TYPE_CHECKING:
    from intentus_tui.tui.widgets.filter_input import FilterInput


class Filtering(App[None]):
    """The filter's actions and what the app shows again when the rows it lets through
    change (the titles, the empty-list message, the header)."""

    if TYPE_CHECKING:  # the app's
        _filter: FilterInput

        @property
        def execution_list(self) -> ExecutionList: ...

        def _update_titles(self) -> None: ...

        def _update_empty_message(self) -> None: ...

        def _show_header(self) -> None: ...

    def action_filter(self) -> None:
        filter_input = self._filter
        if self._filter_focused():  # "/" typed into the filter is text, after what it queued
            filter_input.call_later(filter_input.insert_text_at_cursor, "/")
            return
        filter_input.display = True
        # Focus now, not after the next refresh: keys typed right after "/" must land here.
        self.screen.set_focus(filter_input)
        # The searched texts are made when a filter is first wanted, not after every scan:
        # kept, they are 50 MB at 100,000 executions.
        self.execution_list.prepare_filter()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.execution_list.set_query(event.value)
        self._filtered()

    @on(ExecutionList.Filtered)
    @on(ExecutionList.WritingSettled)
    def _filtered(self) -> None:
        self._update_titles()
        self._update_empty_message()
        self._show_header()

    def _filter_focused(self) -> bool:
        """Whether the filter box has focus, as keys must see it: the screen's word, set
        as focus moves (the box's own ``has_focus`` waits for its Focus event, which keys
        arriving in the same burst as "/" overtake: enter went into the box as text)."""
        return self.screen.focused is self._filter

    # Enter and escape are the app's (priority) keys, handled as they arrive; the keys typed
    # before them in the same burst may still wait in the box's queue. Focus moves at once
    # (the keys after go to the list); what becomes of the box waits for the box to have
    # read the text before (``call_later`` on the box: after its queued keys).

    def action_filter_done(self) -> None:
        self.screen.set_focus(self.execution_list)
        self._filter.call_later(self._hide_empty_filter)

    def _hide_empty_filter(self) -> None:
        if not self._filter.value and not self._filter_focused():
            self._filter.display = False

    def action_filter_clear(self) -> None:
        self.screen.set_focus(self.execution_list)
        self._filter.call_later(self._clear_filter)

    def _clear_filter(self) -> None:
        self._filter.value = ""
        if not self._filter_focused():
            self._filter.display = False
        self.execution_list.set_query("")
        self._filtered()
        self.refresh_bindings()  # escape on the list has nothing more to clear
