"""Textual's command palette, with its page keys made safe before its list is drawn."""

from __future__ import annotations

from textual.command import CommandPalette


class SafeCommandPalette(CommandPalette):
    """The command palette. PageDown or PageUp pressed within a few milliseconds of
    ``ctrl+p``, before the list of commands is laid out, raised ``KeyError`` inside
    Textual's ``OptionList._move_page`` (its map from options to lines is still empty) and
    took the whole debugger down; such a key now does nothing, as it would on an empty
    list."""

    def _action_command_list(self, action: str) -> None:
        try:
            super()._action_command_list(action)
        except (KeyError, IndexError):
            if action not in ("page_down", "page_up"):
                raise
