"""Textual's ``Footer``, recomposed only when what it shows changes, and without its leak.

Textual's footer recomposes whenever the screen's bindings are refreshed: every focus
change (opening and closing the filter box is two), and every refresh our ``check_action``
asks for, even when the keys it shows stay the same. A recompose mounts and styles a widget
per key, and each ``FooterKey`` starts compact, then follows the footer's ``compact``
(not compact): two more restylings per key. Under the tests the footer was a tenth of the
debugger's CPU. Here the keys shown are compared first and a recompose that would draw the
same keys is skipped; new keys start with the footer's ``compact`` value.

The leak: each ``FooterKey`` is data-bound to the footer's ``compact`` reactive, and Textual
drops the watchers of removed widgets only when that reactive changes, which it never does
here: in Textual 8.2 every recompose left its keys alive (about 24 widgets, 40 KB, per
filter opened and closed). ``mutate_reactive`` runs Textual's own pruning of closed
watchers after each recompose.
"""

from __future__ import annotations

from collections.abc import Hashable

from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class AppFooter(Footer):
    _shown: tuple[Hashable, ...] | None = None

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            # The keys bound to the footer's ``compact`` (not the palette's key, left as is).
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                widget.set_reactive(FooterKey.compact, self.compact)
            yield widget

    async def recompose(self) -> None:
        shown = self._what_is_shown()
        if shown == self._shown:
            return
        self._shown = shown
        await super().recompose()
        self.mutate_reactive(Footer.compact)  # drops the removed keys' watchers

    def _what_is_shown(self) -> tuple[Hashable, ...] | None:
        """Everything ``Footer.compose`` reads: the same, the same keys drawn."""
        if not self._bindings_ready or not self.is_attached:
            return None
        app = self.app
        keys = tuple(
            (
                binding.key,
                app.get_key_display(binding),
                binding.description,
                binding.action,
                enabled,
                tooltip,
                binding.tooltip,
                None if binding.group is None else id(binding.group),
            )
            for (_, binding, enabled, tooltip) in self.screen.active_bindings.values()
            if binding.show
        )
        return (keys, self.show_command_palette, app.ENABLE_COMMAND_PALETTE, self.compact)
