"""The help (``?``): every key by where it works, with the marks the rows use; a key
remapped in the keymap file shown as remapped; ``p`` and ``T`` where nothing is watched
listed as not offered. On the comparison screen its own keys come first: they are the ones
that work there.
"""

from __future__ import annotations

from typing import Any, cast

from textual.app import App
from textual.binding import Binding, BindingType

from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.tui.comparing import comparison_bindings
from intentus_tui.tui.screens.help import HelpScreen, help_content
from intentus_tui.tui.unwatched import NOT_WATCHED
from intentus_tui.tui.widgets.execution_list import ExecutionList
from intentus_tui.tui.widgets.timeline_view import EventLines

COMPARISON_SECTION = "Comparison (d, D; f in the Diff tab)"


class HelpKeys(App[Any]):
    """A base of ``IntentusApp``: its ``BINDINGS``, ``keymap`` and ``watched`` are the app's."""

    keymap: dict[str, str]

    def help_sections(self) -> list[tuple[str, Any]]:
        from intentus_tui.tui.screens.compare_picker import ComparePicker

        def is_filter(binding: BindingType) -> bool:
            return isinstance(binding, Binding) and (binding.id or "").startswith("filter.")

        return [
            ("Everywhere", [b for b in self.BINDINGS if not is_filter(b)]),
            ("Execution list", ExecutionList.BINDINGS),
            ("Timeline", EventLines.BINDINGS),
            (COMPARISON_SECTION, comparison_bindings()),
            ("Filter box", [b for b in self.BINDINGS if is_filter(b)]),
            ("Compare picker (D)", ComparePicker.HELP_KEYS),
            (
                "Also",
                [
                    Binding(
                        "ctrl+p", "command_palette", "Commands: jump to an execution, run an action"
                    ),
                    Binding("tab", "focus_next", "Next pane"),
                    Binding("shift+tab", "focus_previous", "Previous pane"),
                    Binding("ctrl+q", "quit", "Quit"),
                ],
            ),
        ]

    def action_help(self) -> None:
        from intentus_tui.tui.keymap import keymap_path

        footer = (
            f"Remap keys in {sanitize_line(str(keymap_path()))}: one line per binding id, "
            'e.g. replay = "ctrl+r".'
        )
        from intentus_tui.tui.presenters.compare_text import legend as compare_legend
        from intentus_tui.tui.presenters.list_rows import legend
        from intentus_tui.tui.presenters.time_cells import time_legend

        marks = [*legend(), time_legend(), compare_legend()]
        # ``p`` and ``T`` where nothing is watched (a bundle): listed, said not offered, as
        # the footer and the palette leave them out.
        why = "not offered: this is not watched, nothing new arrives"
        watched = cast("Any", self).watched()  # ``UnwatchedKeys``, another base of the app
        hidden = {} if watched else dict.fromkeys(NOT_WATCHED, why)
        sections = self.help_sections()
        from intentus_tui.tui.screens.compare import ComparisonScreen

        if isinstance(self.screen, ComparisonScreen):  # its keys, then the others as always
            sections.sort(key=lambda section: section[0] != COMPARISON_SECTION)
        content = help_content(
            sections, self.keymap, self.get_key_display_for, footer, marks, hidden
        )
        self.push_screen(HelpScreen(content))

    def get_key_display_for(self, key: str) -> str:
        return self.get_key_display(Binding(key, ""))
