"""Feeding the directory index: the initial scan, and live changes from watchfiles.

``IndexFeeder`` owns the ``DirectoryIndex`` and a set of paths waiting to be re-read.
Exactly one worker thread drains it at a time (``add`` says when to start one), so the
index is never touched by two threads, and a burst of changes is coalesced into a few
``IndexChanged`` messages without losing a path: a path added while a drain is running
is picked up by that drain's next round. Pausing keeps collecting paths; resuming applies
them.

``follow_directory`` is the async watchfiles loop the app runs in a worker.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path

from textual.message import Message
from watchfiles import Change, awatch

from intentus_tui.core.formats import is_record_name
from intentus_tui.core.index import (
    DirectoryIndex,
    ExecutionSummary,
    RecordRoot,
    list_record_names,
)
from intentus_tui.core.wal import WAL_SUFFIX
from intentus_tui.tui.messages import IndexChanged, ScanFinished

DEBOUNCE_MS = 75  # watchfiles' default is 1,600 ms: far too slow for a live list
FIRST_BATCH = 64  # the first rows show after this many files are summarized
MAX_BATCH = 16384
COALESCE_SECONDS = 0.25


def directory_problem(directory: Path) -> str | None:
    """Why ``directory`` cannot be listed, or ``None`` when it can."""
    try:
        with os.scandir(directory):
            return None
    except FileNotFoundError:
        return "directory not found"
    except NotADirectoryError:
        return "not a directory"
    except PermissionError:
        return "permission denied"
    except OSError as exc:
        return exc.strerror or type(exc).__name__


def prestart_process_pool(directory: Path) -> bool:
    """Start multiprocessing's forkserver now, if the scan will want worker processes.

    The index summarizes big directories in a process pool, started from a thread, hence
    with the forkserver method. Starting a forkserver passes ``sys.stderr.fileno()`` to it,
    and inside a running Textual app that is ``-1`` (Textual captures stdio), which fails
    with "bad value(s) in fds_to_keep". Started before the app runs, it is reused.
    Returns whether it was started.
    """
    import multiprocessing
    from multiprocessing import forkserver

    from intentus_tui.core.index import PARALLEL_THRESHOLD

    count = 0
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                count += is_record_name(entry.name)
                if count >= PARALLEL_THRESHOLD:
                    # workers fork from a server that already imported the index code
                    multiprocessing.set_forkserver_preload(["intentus_tui.core.index"])
                    forkserver.ensure_running()
                    return True
    except OSError:
        pass
    return False


class IndexFeeder:
    """The index plus the paths waiting to be re-read. Thread-safe."""

    def __init__(
        self, root: RecordRoot, post: Callable[[Message], object], *, use_cache: bool = True
    ) -> None:
        self.index = DirectoryIndex(root, use_cache=use_cache)
        self._post = post
        self._lock = threading.Lock()
        self._pending: set[Path] = set()
        self._forced: set[Path] = set()  # the operator's own writes: applied even when paused
        self._busy = False
        self._live = True

    @property
    def pending_count(self) -> int:
        with self._lock:
            return len(self._pending)

    @property
    def live(self) -> bool:
        return self._live

    def claim(self) -> bool:
        """Mark a drain as running; false if one already is (then don't start another)."""
        with self._lock:
            if self._busy:
                return False
            self._busy = True
            return True

    def add(self, paths: Iterable[Path], *, force: bool = False) -> bool:
        """Queue paths to re-read; true if the caller must start a worker running ``drain``.

        ``force``: re-read them even while paused (the operator's own writes).
        """
        with self._lock:
            (self._forced if force else self._pending).update(paths)
            if self._busy or not self._has_work():
                return False
            self._busy = True
            return True

    def _has_work(self) -> bool:
        return bool(self._forced) or (self._live and bool(self._pending))

    def set_live(self, live: bool) -> bool:
        """Pause or resume; true if the caller must start a worker to apply what piled up."""
        with self._lock:
            self._live = live
            if self._has_work() and not self._busy:
                self._busy = True
                return True
            return False

    def scan(self) -> None:
        """Summarize every execution, posting growing batches so the first rows show fast.

        Call from a worker thread after ``claim()``; ends by draining what the watcher
        queued meanwhile. The index yields small batches; they are coalesced (the first
        right away, then ever larger ones, or whatever arrived within ``COALESCE_SECONDS``)
        so a 100,000-file scan costs the list a handful of merges, not hundreds.
        """
        directory = self.index.root.records_dir
        try:
            problem = directory_problem(directory)
            total = 0 if problem else len(list_record_names(directory))
            if total == 0 and not problem:
                self._post(IndexChanged((), scanned=0, total=0))
            done = 0
            pending: list[ExecutionSummary] = []
            target = FIRST_BATCH
            last_post = time.monotonic()
            batches = iter(()) if problem else self.index.scan_batches()
            for batch in batches:
                pending.extend(batch)
                now = time.monotonic()
                if len(pending) >= target or now - last_post >= COALESCE_SECONDS:
                    done = min(total, done + len(pending))
                    self._post(IndexChanged(tuple(pending), scanned=done, total=total))
                    pending = []
                    target = min(target * 4, MAX_BATCH)
                    last_post = now
            if pending:
                self._post(IndexChanged(tuple(pending), scanned=total, total=total))
            self._post(ScanFinished(total, problem))
        except BaseException:
            self._release()
            raise
        self.drain()

    def drain(self) -> None:
        """Re-read pending paths until none are left (or the feeder is paused)."""
        try:
            while True:
                with self._lock:
                    if not self._has_work():
                        self._busy = False
                        return
                    paths = set(self._forced)
                    self._forced.clear()
                    if self._live:
                        paths |= self._pending
                        self._pending.clear()
                changed, removed = self.index.update(sorted(paths))
                if changed or removed:
                    self._post(IndexChanged(tuple(changed), tuple(removed)))
        except BaseException:
            self._release()
            raise

    def release(self) -> None:
        """Forget a drain that died (the app calls this when its worker failed)."""
        self._release()

    def _release(self) -> None:
        with self._lock:
            self._busy = False


def _record_filter(change: Change, path: str) -> bool:
    name = os.path.basename(path)
    return is_record_name(name) or (name.endswith(WAL_SUFFIX) and not name.startswith("."))


async def follow_directory(
    *directories: Path, on_ready: Callable[[], object] | None = None
) -> AsyncIterator[set[Path]]:
    """Yield sets of changed record and WAL paths in ``directories`` until cancelled.

    ``on_ready`` is called once the directories are being watched, so a scan started
    then cannot miss a file written in between. It is scheduled with ``call_soon`` just
    before the first ``__anext__``: awatch creates its ``RustNotify`` (which registers the
    watches synchronously) before its first real await, and the callback can only run
    at that await.
    """
    changes = awatch(
        *directories,
        watch_filter=_record_filter,
        debounce=DEBOUNCE_MS,
        step=25,
        recursive=False,
        ignore_permission_denied=True,
    )
    if on_ready is not None:
        asyncio.get_running_loop().call_soon(on_ready)
    async for batch in changes:
        yield {Path(path) for _, path in batch}
