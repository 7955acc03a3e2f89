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
from intentus_tui.tui.live.messages import DirectoriesMissing, WatcherStopped
from intentus_tui.tui.live.watcher import trouble_names, trouble_text

if TYPE_CHECKING:
    from intentus_tui.core.paths import RecordRoot
    from intentus_tui.tui.live.watcher import IndexFeeder
    from intentus_tui.tui.presenters.header_text import HeaderState

Stamp = tuple[int, int]  # size, mtime_ns


def stale_paths(known: Mapping[Path, Stamp | None], directories: Iterable[Path]) -> list[Path]:
    """The files in ``directories`` to read again: the record files whose size or time
    differs from ``known`` (or that it lacks), every write-ahead log (a log's stamp is not
    kept: they are read again), and what ``known`` has that is no longer there."""
    watched = set(directories)
    found: dict[Path, Stamp | None] = {}
    for directory in list(watched):
        try:
            with os.scandir(directory) as listing:
                entries = list(listing)
        except (FileNotFoundError, NotADirectoryError):
            continue  # gone: what it held is gone too
        except OSError:
            # It cannot be listed (no permission): what it holds is unknown, not gone. It
            # is compared whole once it can be listed again.
            watched.discard(directory)
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
    """``WatchResumed``: what the watcher missed is found and read again. The header says
    which watched directories are gone or cannot be listed (``DirectoriesMissing``)."""

    def on_directories_missing(self, message: DirectoriesMissing) -> None:
        # A directory not there when watching began (records to come) is not lost; once
        # it is made (wal/ at the runtime's first log), it is, as one there from the start.
        self._watched_at_start |= {
            d for d in self.watched_directories() if d not in message.missing
        }
        gone = tuple(d for d in message.missing if d in self._watched_at_start)
        self.directories_gone = gone
        self.header_state.trouble = trouble_text(gone, message.unlistable)
        self.header_state.trouble_names = trouble_names(gone, message.unlistable)
        if self.closing:
            return
        if self.header_state.trouble is None:
            self._show_header()
            return  # all back: ``WatchResumed`` follows, and says so
        self.header_state.live = "stopped"
        self._update_empty_message()
        self._show_header()
        self.notify(self.header_state.trouble, severity="warning", markup=False)
        if gone:
            # Its files are gone: their rows go too, rather than show as current what is
            # not there (the logs left make rows of their own). The rows of a directory
            # that cannot be listed stay as last read: what it holds is unknown.
            self._resync(self._known())
            # A record's log is not in what is known of it (its record is): a log gone
            # too is read again, or the row would stay, made from the log alone.
            logs = []
            for summary in self.all_summaries():
                wal_dir = self.root_of(self.file_of(summary)).wal_dir
                if wal_dir in gone:
                    logs.append(wal_dir / f"{summary.execution_id}{WAL_SUFFIX}")
            self.queue_paths(logs)

    def on_watch_resumed(self) -> None:
        # A directory gone, and back (a watch resumed on the others while one is still
        # gone, or cannot be listed, leaves the header saying so).
        if self.header_state.live == "stopped" and self.header_state.trouble is None:
            self.header_state.live = "live" if self.feeder.live else "paused"
            self._update_empty_message()
            self._show_header()
            self.notify("Watching the directory again", markup=False)
        # Every file is compared with the list: what changed while a directory was gone,
        # or could not be listed, is read again; so is the execution shown.
        self._resync(self._known())
        self.reload_shown_detail()

    def on_watcher_stopped(self, message: WatcherStopped) -> None:
        self._start_scan()
        self.header_state.live = "stopped"
        self._show_header()
        self.notify(
            f"Stopped watching the directory: {message.reason}", severity="warning", markup=False
        )

    def _known(self) -> dict[Path, Stamp | None]:
        return {
            self.file_of(summary): (summary.size, summary.mtime_ns)
            if summary.source == "record"
            else None  # known from its log alone
            for summary in self.all_summaries()
        }

    @work(thread=True, group="resync", exit_on_error=False)
    def _resync(self, known: dict[Path, Stamp | None]) -> None:
        paths = stale_paths(known, self.watched_directories())
        if paths:
            self.call_from_thread(self.queue_paths, paths)

    if TYPE_CHECKING:  # given by the app (stubs here would hide its own methods)
        header_state: HeaderState
        feeder: IndexFeeder
        directories_gone: tuple[Path, ...]
        _watched_at_start: set[Path]

        @property
        def closing(self) -> bool: ...

        def _show_header(self) -> None: ...

        def _update_empty_message(self) -> None: ...

        def _start_scan(self) -> None: ...

        def reload_shown_detail(self) -> None: ...

        def file_of(self, summary: ExecutionSummary) -> Path: ...

        def root_of(self, path: Path) -> RecordRoot: ...

        def all_summaries(self) -> Iterable[ExecutionSummary]: ...

        def watched_directories(self) -> list[Path]: ...

        def queue_paths(self, paths: Iterable[Path]) -> None: ...
