"""Read-only roots: where the operator's writes (invalidate a record, save a snapshot) are
refused, because the records are not the user's to change here: an evidence bundle's
extracted copy, a remote root's mirror. ``RecordRoot.read_only`` says why (the marker
``core.read_only`` leaves in the directory); the header shows
"read-only"; each writing action asks ``refuse_write`` first, of the root its execution is in.
"""

from __future__ import annotations

from typing import Any, cast

from textual.app import App

from intentus_tui.core.paths import RecordRoot


class ReadOnlyGuard:
    """A base of the app: refuses a write on a read-only root with one clear line."""

    def refuse_write(self, action: str, root: RecordRoot) -> bool:
        """True (after saying so) when ``action`` must not run: ``root``, the one holding
        the execution written about (of several: a bundle's or a mirror's, beside the
        operator's own directory), is read-only."""
        reason = root.read_only
        if reason is None:
            return False
        app = cast("App[Any]", self)  # a base of the app: its notify
        app.notify(f"{action} refused: the records are {reason}.", severity="warning", markup=False)
        return True
