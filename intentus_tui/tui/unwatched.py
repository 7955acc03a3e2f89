"""The keys about watching, ``p`` (live/pause) and ``T`` (follow the newest), where nothing
is watched (a bundle, whose copy never changes): not offered (``check_action`` hides
them, the palette leaves them out), and pressed, each says in one line why it does
nothing. ``T`` turned following on there: the header's "⇣ follow" cut the bundle's own
warning short, for a follow that could never select anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from textual.app import App

if TYPE_CHECKING:
    from textual.actions import ActionParseResult
    from textual.dom import DOMNode

# action -> what its key says where nothing is watched
NOT_WATCHED: dict[str, str] = {
    "toggle_live": "Nothing to pause or resume: this is not watched, nothing new arrives",
    "toggle_follow": "Nothing to follow: this is not watched, nothing new arrives",
}


class UnwatchedKeys:
    """For ``IntentusApp``: ``watched`` is what ``check_action`` answers for the two keys,
    ``run_action`` answers them when it hides them."""

    def watched(self) -> bool:
        """Whether the roots are watched (live or paused): new executions can arrive."""
        return cast("Any", self).header_state.live != "off"

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Textual's, but ``p`` and ``T`` pressed where nothing is watched say why they do
        nothing (Textual does not run an action ``check_action`` hides)."""
        app = cast("App[Any]", self)  # a base of the app
        on_app = default_namespace is None or default_namespace is self
        said = NOT_WATCHED.get(action) if isinstance(action, str) else None
        on_main = app.screen is app.screen_stack[0]
        if on_app and on_main and said is not None and not self.watched():
            app.notify(said, severity="warning", markup=False, timeout=3)
            return True
        return await super().run_action(  # type: ignore[misc]
            action, default_namespace, namespaces
        )
