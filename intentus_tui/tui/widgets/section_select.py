"""A ``Select`` whose first value survives a mount race in Textual 8.2.

``Select`` sets its initial value in its own Mount handler by updating the ``#label`` of
its ``SelectCurrent`` child. When the side pane is mounted into the running app on a busy
machine, that handler has been seen (once, in CI) to run before the child composed its
label: ``NoMatches``, an exception that would end the app. Here the value is set again
once the children are there.
"""

from __future__ import annotations

from textual import events
from textual.css.query import NoMatches
from textual.widget import Widget
from textual.widgets import Select


class SectionSelect(Select[str]):
    def _on_mount(self, event: events.Mount) -> None:
        event.prevent_default()  # Select's own handler (below, made safe) must not run too
        Widget._on_mount(self, event)
        self._setup_options_renderables()
        try:
            self._init_selected_option(self._value)
        except NoMatches:  # the children are not composed yet: once they are, show the
            # value (already set: the watcher raised after storing it) by running it again
            self.call_after_refresh(self._show_value)

    def _show_value(self) -> None:
        self.mutate_reactive(Select.value)  # type: ignore[misc]  # (runs the watcher)
