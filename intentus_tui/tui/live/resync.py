"""Catching up after the directory watcher lost events: the record files that differ from
what the list shows (new, changed or gone), and the write-ahead logs, are read again."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.app import App

from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.records.load import WAL_SUFFIX, is_record_name

if TYPE_CHECKING:
    from intentus_tui.tui.live.watcher import IndexFeeder
    from intentus_tui.tui.presenters.header_text import HeaderState

Stamp = tuple[int, int]  # size, mtime_ns


def stale_paths(known: Mapping[Path, Stamp | None], directories: Iterable[Path]) -> list[Path]:
    """The files in ``directories`` to read again: the record files whose size or time
    differs from ``known`` (or that it lacks), every write-ahead log (a log's stamp is not
    kept: they are read again), and what ``known`` has that is no longer there."""
    watched = set(directories)
    found: dict[Path, Stamp | None] = {}
    for directory in watched:
        try:
            with os.scandir(directory) as listing:
                entries = list(listing)
        except OSError:
            continue
        for entry in entries:
            if entry.name.endswith(WAL_SUFFIX) and not entry.name.startswith("."):
                found[Path(entry.path)] = None
                continue
            if not is_record_name(entry.name):
                continue
            try:
                stat = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            found[Path(entry.path)] = (stat.st_size, stat.st_mtime_ns)
    changed = [path for path, stamp in found.items() if stamp is None or known.get(path) != stamp]
    gone = [path for path in known if path not in found and path.parent in watched]
    return changed + gone


class Resyncing(App[None]):
    """``WatchResumed``: what the watcher missed is found and read again."""

    def on_watch_resumed(self) -> None:
        # A directory gone, and back (a watch resumed on the others while one is still
        # gone leaves the header saying so).
        if self.header_state.live == "stopped" and not self.directories_gone:
            self.header_state.live = "live" if self.feeder.live else "paused"
            self._show_header()
            self.notify("Watching the directory again", markup=False)
        known: dict[Path, Stamp | None] = {
            self.file_of(summary): (summary.size, summary.mtime_ns)
            if summary.source == "record"
            else None  # known from its log alone
            for summary in self.all_summaries()
        }
        self._resync(known)

    @work(thread=True, group="resync", exit_on_error=False)
    def _resync(self, known: dict[Path, Stamp | None]) -> None:
        paths = stale_paths(known, self.watched_directories())
        if paths:
            self.call_from_thread(self.queue_paths, paths)

    if TYPE_CHECKING:  # given by the app (stubs here would hide its own methods)
        header_state: HeaderState
        feeder: IndexFeeder
        directories_gone: tuple[Path, ...]

        def _show_header(self) -> None: ...

        def file_of(self, summary: ExecutionSummary) -> Path: ...

        def all_summaries(self) -> Iterable[ExecutionSummary]: ...

        def watched_directories(self) -> list[Path]: ...

        def queue_paths(self, paths: Iterable[Path]) -> None: ...
