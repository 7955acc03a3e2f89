"""Messages that carry immutable results from worker threads up to the app.

Workers never touch widgets: they post one of these (``post_message`` is thread-safe)
and the app hands the contents down to the widgets on the UI thread.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:  # not imported at start: the first frame should not wait for them
    from intentus_tui.core.detail import ExecutionDetail
    from intentus_tui.core.model import ExecutionSummary


class IndexChanged(Message):
    """Summaries that are new or changed, and file keys that disappeared.

    Posted by the initial scan (in growing batches) and by every live update. Never
    coalesced: each one carries paths the list must see.
    """

    def __init__(
        self,
        changed: tuple[ExecutionSummary, ...],
        removed: tuple[str, ...] = (),
        *,
        scanned: int | None = None,
        total: int | None = None,
    ) -> None:
        super().__init__()
        self.changed = changed
        self.removed = removed
        self.scanned = scanned  # files summarized so far (the initial scan only: else None)
        self.total = total  # files the initial scan found (None until they are counted)


class FilesCounted(Message):
    """The initial scan has listed the directory: how many record files it will read."""

    def __init__(self, total: int) -> None:
        super().__init__()
        self.total = total


class ScanFinished(Message):
    """The initial scan has summarized every file it found."""

    def __init__(self, total: int, error: str | None = None) -> None:
        super().__init__()
        self.total = total
        self.error = error  # why the directory could not be read, if it could not


class DetailLoaded(Message):
    """The selected execution's detail, read and analysed off the UI thread."""

    def __init__(self, key: str, detail: ExecutionDetail) -> None:
        super().__init__()
        self.key = key
        self.detail = detail


class WatchStarted(Message):
    """The directory watcher is in place: a scan started now misses no file."""


class WatchResumed(Message):
    """The directory watcher is watching again after a fault lost what it was reporting (a
    file name that is not UTF-8 stops watchfiles): compare the directories with the list."""


class PathsChanged(Message):
    """The directory watcher saw these record or WAL paths change."""

    def __init__(self, paths: frozenset[Path]) -> None:
        super().__init__()
        self.paths = paths


class DirectoriesMissing(Message):
    """The watched directories not there now, and those there that cannot be listed (each
    with why: ``permission denied``), whenever that changes (both empty: all are back);
    the others are still watched."""

    def __init__(
        self, missing: tuple[Path, ...], unlistable: tuple[tuple[Path, str], ...] = ()
    ) -> None:
        super().__init__()
        self.missing = missing
        self.unlistable = unlistable


class WatcherStopped(Message):
    """The directory watcher ended (the directory vanished, or watching failed)."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason
