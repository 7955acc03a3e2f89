"""Textual's ``Footer``, recomposed only when what it shows changes, and without its leak.

Textual's footer recomposes whenever the screen's bindings are refreshed: every focus
change (opening and closing the filter box is two), and every refresh our ``check_action``
asks for, even when the keys it shows stay the same. A recompose mounts and styles a widget
per key, and each ``FooterKey`` starts compact, then follows the footer's ``compact``
(not compact): two more restylings per key. Under the tests the footer was a tenth of the
debugger's CPU. Here the keys shown are compared first: a recompose that would draw the
same keys is skipped, one that would only enable or disable some sets them in place; new
keys start with the footer's ``compact`` value.

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

# What ``Footer.compose`` reads (``AppFooter._what_is_shown``): a tuple per key shown,
# then the palette's and compact settings. In a key's tuple:
_KEY, _ACTION, _ENABLED = 0, 3, 4
Shown = tuple[tuple[tuple[Hashable, ...], ...], Hashable, Hashable, Hashable]


def _only_enabled_differs(shown: Shown, was: Shown) -> bool:
    """The same keys in the same places, only which are enabled has changed."""
    if shown[1:] != was[1:] or len(shown[0]) != len(was[0]):
        return False
    return all(
        now[:_ENABLED] == before[:_ENABLED] and now[_ENABLED + 1 :] == before[_ENABLED + 1 :]
        for now, before in zip(shown[0], was[0], strict=True)
    )


class AppFooter(Footer):
    _shown: Shown | None = None

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            # The keys bound to the footer's ``compact`` (not the palette's key, left as is).
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                widget.set_reactive(FooterKey.compact, self.compact)
            yield widget

    async def recompose(self) -> None:
        shown, was = self._what_is_shown(), self._shown
        if shown == was:
            return
        self._shown = shown
        if shown is not None and was is not None and _only_enabled_differs(shown, was):
            self._enable_in_place(shown[0])
            return
        await super().recompose()
        self.mutate_reactive(Footer.compact)  # drops the removed keys' watchers

    def _enable_in_place(self, keys: tuple[tuple[Hashable, ...], ...]) -> None:
        """The same keys, some enabled or disabled since: each key is set as ``compose``
        would make it (``FooterKey`` keeps it in ``_disabled`` and the ``-disabled``
        class), not mounted again. Every debugger start enables ``r`` and ``m`` once a row
        is loaded."""
        enabled: dict[tuple[Hashable, Hashable], Hashable] = {}
        for key in keys:  # the first binding of a key and action is the one shown
            enabled.setdefault((key[_KEY], key[_ACTION]), key[_ENABLED])
        for footer_key in self.query(FooterKey):
            now = enabled.get((footer_key.key, footer_key.action))
            if now is not None and not footer_key.has_class("-command-palette"):
                footer_key._disabled = not now
                footer_key.set_class(not now, "-disabled")

    def _what_is_shown(self) -> Shown | None:
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
