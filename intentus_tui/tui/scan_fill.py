"""The first scan filling the list, and what its batches of rows change on screen.

The scan (a thread worker: ``IndexFeeder.scan``) posts its rows in batches of at most
``MAX_BATCH``: the list folds one in, and once it is on screen the scan posts the next.
While batches come, the header's counts, the list's titles and its empty message are
redrawn at most every ``PROGRESS_SECONDS`` (the first count at once).

The cyclic garbage collector is held off for the fill (``pause_collector_for_scan``),
its young generations collected by the clock, and what the scan made frozen at its end.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.app import App
from textual.timer import Timer
from textual.worker import Worker, WorkerState

from intentus_tui.core.model import CATCH_UP_SECONDS, ExecutionSummary
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.tui.live.messages import FilesCounted, IndexChanged, ScanFinished
from intentus_tui.tui.presenters.execution_text import removed_while_shown
from intentus_tui.tui.screen_styles import read_screen_styles
from intentus_tui.tui.startup import tuning
from intentus_tui.tui.startup.tuning import (
    collect_young,
    end_of_scan,
    pause_collector_for_scan,
    release_free_memory,
)

if TYPE_CHECKING:
    from intentus_tui.core.actions import ExecutionDetail
    from intentus_tui.tui.live.watcher import IndexFeeder
    from intentus_tui.tui.presenters.header_text import HeaderState
    from intentus_tui.tui.widgets.execution_list import ExecutionList

# The side pane's tabs are built at the latest this long after the first rows arrive.
SIDE_PANE_FALLBACK_SECONDS = 0.5
# While the scan's rows come, the header and the list's titles follow them this often.
PROGRESS_SECONDS = 0.1


class ScanFill(App[None]):
    """The scan's messages: ``IndexChanged`` (also every live change), ``FilesCounted``,
    ``ScanFinished``, and a scan worker's death."""

    scan_done = False
    _scan_started = False
    _scan_problem: str | None = None
    _collector_held = False  # the collector is off while the scan fills the list
    _young_collections: Timer | None = None  # while the collector is held
    _progress_timer: Timer | None = None  # a ``show_progress`` due
    _progress_at = 0.0  # when ``show_progress`` last ran

    def _start_scan(self) -> None:
        if not self._scan_started:
            self._scan_started = True
            self.feeder.claim()
            self._collector_held = pause_collector_for_scan()
            if self._collector_held:
                self._young_collections = self.set_interval(
                    tuning.YOUNG_COLLECTION_SECONDS, collect_young, name="young collections"
                )
            self._scan()

    @work(thread=True, exclusive=True, group="scan", exit_on_error=False)
    def _scan(self) -> None:
        self.feeder.scan()

    def _scan_over(self) -> None:
        """What the scan made frozen; the collector back on if the scan turned it off."""
        held, self._collector_held = self._collector_held, False
        if self._young_collections is not None:
            self._young_collections.stop()
            self._young_collections = None
        end_of_scan(len(self.execution_list.model.summaries), resume=held)

    def _release_collector(self) -> None:
        """The collector back on if the scan turned it off (a scan that died, the app's
        end): never left off for whatever runs next in this process."""
        if self._collector_held:
            self._scan_over()

    def on_index_changed(self, message: IndexChanged) -> None:
        if self.closing:
            self.feeder.stop()  # no frame will show this batch: the scan need not wait for one
            return
        live = message.scanned is None  # the initial scan always says how far it is
        shown = self.shown_key
        try:
            self.execution_list.apply_changes(message.changed, message.removed, live=live)
        finally:
            if not live:  # the scan sends its next batch once this one is on screen
                self.call_after_refresh(self.feeder.batch_shown)
        if message.changed and not self._side_pane_scheduled:
            # normally the list's RowsDrawn comes first; headless, rows are never drawn
            self.set_timer(SIDE_PANE_FALLBACK_SECONDS, self._build_side_pane_soon)
        # The first count the scan gives is said at once; later ones as time allows.
        first_count = not live and not self.header_state.scanned and bool(message.scanned)
        if not live:
            self.header_state.scanned = message.scanned or 0
            if message.total is not None:
                self.header_state.total = message.total
        self._check_again_once_caught_up(message.changed)
        if live:
            self.marked_files_changed(message.changed, message.removed)
            self.compared_files_changed(message.changed, message.removed)
        if live and shown is not None and shown in message.removed and self.detail is not None:
            # Said, with where the cursor is now, or the switch goes unseen.
            said = removed_while_shown(self.detail, self.execution_list.selected_summary)
            if said is not None:
                self.notify(said, markup=False, timeout=6)
        if live or first_count:
            self.show_progress()
        else:
            self._progress_soon()

    def _progress_soon(self) -> None:
        """``show_progress`` now, or at the latest ``PROGRESS_SECONDS`` after it last ran."""
        if self._progress_timer is not None:
            return  # already due
        wait = self._progress_at + PROGRESS_SECONDS - time.monotonic()
        if wait <= 0:
            self.show_progress()
        else:
            self._progress_timer = self.set_timer(wait, self.show_progress, name="progress")

    def show_progress(self) -> None:
        """The header, the list's titles and its empty message, as the rows stand now."""
        if self._progress_timer is not None:
            self._progress_timer.stop()
            self._progress_timer = None
        self._progress_at = time.monotonic()
        self._update_empty_message()
        self._update_titles()
        self._show_header()

    def _check_again_once_caught_up(self, changed: Iterable[ExecutionSummary]) -> None:
        """A record still being written (its log completed moments ago) is read again once
        its writer has had the time to finish: unchanged by then, it lacks its final
        response for good, and its verdict says so (no file event would come to say it)."""
        paths = [self.file_of(s) for s in changed if s.record_catching_up]
        if paths:
            self.set_timer(CATCH_UP_SECONDS + 0.5, lambda: self._read_again(paths))

    def _read_again(self, paths: list[Path]) -> None:
        if not self.closing:
            self.queue_paths(paths)

    def on_files_counted(self, message: FilesCounted) -> None:
        if self.closing:
            return
        self.header_state.total = message.total  # the progress bar's, before any row is read
        self._show_header()

    def on_scan_finished(self, message: ScanFinished) -> None:
        if self.closing:
            return
        self._build_side_pane_soon()
        # What the scan made stays, for good: no collection need walk it again; its young
        # garbage collected first, then what the scan used goes back to the system.
        self.call_after_refresh(self._scan_over)
        self.call_after_refresh(release_free_memory)
        self.scan_done = True
        if self._styles_after_scan:
            self._styles_after_scan = False
            self.call_after_refresh(read_screen_styles, self)
        self._scan_problem = message.error
        self.header_state.scanning = False
        self.header_state.total = message.total
        self.header_state.scanned = message.total
        self.header_state.problem = message.error
        if not self.execution_list.model.summaries:
            self.look_for_runs_here()  # D compares them: the empty list says so
            if self.watching:  # a run store is no record file: the watch does not see it
                self.look_for_runs_while_empty()
        self.show_progress()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A scan or index worker that died must say so, not leave "indexing…" forever."""
        worker = event.worker
        if event.state is not WorkerState.ERROR or worker.group not in ("scan", "index-update"):
            return
        error = worker.error
        reason = sanitize_line(f"{type(error).__name__}: {error}") if error else "unknown error"
        self.feeder.release()
        self._release_collector()
        self.scan_done = True
        self.header_state.scanning = False
        self.header_state.problem = f"indexing failed ({reason})"
        self._show_header()
        self.notify(f"Indexing failed: {reason}", severity="error", markup=False, timeout=10)

    if TYPE_CHECKING:  # given by the app (stubs here would hide its own methods)
        feeder: IndexFeeder
        header_state: HeaderState
        detail: ExecutionDetail | None
        shown_key: str | None
        watching: bool
        _side_pane_scheduled: bool
        _styles_after_scan: bool

        @property
        def closing(self) -> bool: ...

        @property
        def execution_list(self) -> ExecutionList: ...

        def _build_side_pane_soon(self) -> None: ...

        def _update_empty_message(self) -> None: ...

        def _update_titles(self) -> None: ...

        def _show_header(self) -> None: ...

        def file_of(self, summary: ExecutionSummary) -> Path: ...

        def queue_paths(self, paths: Iterable[Path]) -> None: ...

        def marked_files_changed(
            self, changed: Iterable[ExecutionSummary], removed: Iterable[str]
        ) -> None: ...

        def compared_files_changed(
            self, changed: Iterable[ExecutionSummary], removed: Iterable[str]
        ) -> None: ...

        def look_for_runs_here(self) -> Worker[None]: ...

        def look_for_runs_while_empty(self) -> None: ...
