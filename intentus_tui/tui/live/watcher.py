"""Feeding the directory index: the initial scan, and live changes from watchfiles.

``IndexFeeder`` owns the ``DirectoryIndex`` and a set of paths waiting to be re-read.
Exactly one worker thread drains it at a time (``add`` says when to start one), so the
index is never touched by two threads, and a burst of changes is coalesced into a few
``IndexChanged`` messages without losing a path: a path added while a drain is running
is picked up by that drain's next round. Pausing keeps collecting paths; resuming applies
them.

``DirectoryWatcher`` follows the directory with watchfiles, from its own thread.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

from intentus_tui.core.index.directory import EVERY_SUMMARY_OUT, DirectoryIndex
from intentus_tui.core.index.multi import MultiIndex
from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.paths import RecordRoot
from intentus_tui.core.records.load import WAL_SUFFIX, is_record_name
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.tui.live.messages import (
    DirectoriesMissing,
    FilesCounted,
    IndexChanged,
    PathsChanged,
    ScanFinished,
    WatcherStopped,
    WatchResumed,
    WatchStarted,
)
from intentus_tui.tui.startup.first_rows import PREVIEW, preview_summaries

if TYPE_CHECKING:
    from watchfiles import Change

DEBOUNCE_MS = 75  # watchfiles' default is 1,600 ms: far too slow for a live list
FIRST_BATCH = 64  # the first rows show after this many files are summarized
FIRST_POST_MAX = 1024  # ... and the first message holds at most this many (the rest follow)
MAX_BATCH = 16384  # rows in one message: what the list folds in between two key presses
COALESCE_SECONDS = 0.25
SHOWN_WAIT_SECONDS = 1.0  # never wait longer than this for the list to take a batch
# A watch that fails after it started is started again, unless it failed this often lately.
MAX_RESTARTS = 20
RESTART_WINDOW = 10.0  # seconds
RESTART_PAUSE = 0.05  # seconds before a watch that failed at once is started again
# How often the watched directories are looked at (removed, replaced, back again?).
LOOK_SECONDS = 0.5


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


def root_problem(root: RecordRoot) -> str | None:
    """Why ``root``'s records cannot be listed, or ``None`` when they can: a layout with
    its logs and no records directory yet lists its logs (``RecordRoot.records_to_come``)."""
    return None if root.records_to_come else directory_problem(root.records_dir)


def _gone_names(directories: Sequence[Path]) -> list[str]:
    """Each directory named by the highest of its directories that went with it
    (``/p/.intentusnet``, not its records and wal one by one), sanitized."""
    named: list[Path] = []
    for directory in directories:
        top = directory
        while top.parent != top and _look(top.parent) is None:
            top = top.parent
        if top not in named:
            named.append(top)
    return [sanitize_line(str(d)) for d in named]


def gone_text(directories: Sequence[Path]) -> str:
    """``/a/records gone: waiting for it to come back``: what is said of watched
    directories that are not there."""
    names = _gone_names(directories)
    what = "it" if len(names) == 1 else "them"
    return f"{' and '.join(names)} gone: waiting for {what} to come back"


def trouble_text(missing: Sequence[Path], unlistable: Sequence[tuple[Path, str]]) -> str | None:
    """What the header says of watched directories gone or that cannot be listed (as the
    command line does: ``cannot list DIR: permission denied``); None when there are none."""
    said = [f"cannot list {sanitize_line(str(d))}: {why}" for d, why in unlistable]
    if missing:
        said.append(gone_text(missing))
    return "; ".join(said) or None


def trouble_names(
    missing: Sequence[Path], unlistable: Sequence[tuple[Path, str]]
) -> tuple[str, ...]:
    """The directory names ``trouble_text`` says (the header shortens them to fit)."""
    return tuple(sanitize_line(str(d)) for d, _ in unlistable) + tuple(
        _gone_names(missing) if missing else ()
    )


class IndexFeeder:
    """The index plus the paths waiting to be re-read. Thread-safe."""

    def __init__(
        self,
        root: RecordRoot,
        post: Callable[[Message], object],
        *,
        use_cache: bool = True,
        preview: bool = True,
        index: MultiIndex | None = None,
    ) -> None:
        """``index``: the merged index of several roots (else ``root``'s own)."""
        # No listing rows: the debugger never shows them, and making, holding and storing
        # them cost a quarter of a cold scan's time (1.5 s of 6.3 s of CPU at 100,000
        # records) and 90 MB. The first `inspect --list --json` after makes them once.
        # The app's collector is its own (``startup.tuning``): the scan leaves it alone.
        self.index: DirectoryIndex | MultiIndex = index or DirectoryIndex(
            root, use_cache=use_cache, collector_off=False
        )
        self._preview = preview and index is None  # a preview's rows are one root's
        self._post = post
        self._lock = threading.Lock()
        self._pending: set[Path] = set()
        self._forced: set[Path] = set()  # the operator's own writes: applied even when paused
        self._busy = False
        self._live = True
        # Set while no scan batch is waiting to be shown: at most one is in flight, so a
        # key press never queues behind a pile of them, and while the list is busy the
        # next batch just grows (see ``scan``).
        self._shown = threading.Event()
        self._shown.set()
        self._stopping = threading.Event()

    def preview_shown(self) -> None:
        """The app already shows a preview (read before it ran): the scan reads none."""
        self._preview = False

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

    def stop(self) -> None:
        """The app is closing: end the scan at its next batch and drain no more.

        (Python waits for worker threads at exit: a scan left running would hold the
        terminal for as long as it still had to read.)
        """
        self._stopping.set()
        self._shown.set()

    def batch_shown(self) -> None:
        """The app has folded in the last scan batch (and drawn it): send the next."""
        self._shown.set()

    def scan(self) -> None:
        """Summarize every execution, posting growing batches so the first rows show fast.

        Call from a worker thread after ``claim()``; ends by draining what the watcher
        queued meanwhile.
        """
        directory = self.index.root.records_dir
        try:
            problem = root_problem(self.index.root)
            if problem:
                self._post(ScanFinished(0, problem))
            else:
                total = self._scan_batches(directory)
                if total is not None:  # else it was posted once every summary was out
                    self._post(ScanFinished(total))
        except BaseException:
            self._release()
            raise
        self.drain()

    def _scan_batches(self, directory: Path) -> int | None:
        """Post the index's batches as ``IndexChanged`` messages; return the file count,
        or None when ``ScanFinished`` is posted already: as soon as every summary is out
        (``EVERY_SUMMARY_OUT``), the list is complete while the cache is still written.

        The first rows go out as soon as the index has any (at most ``FIRST_POST_MAX``:
        a warm cache yields everything at once). Then one message at a time: the next is
        posted once the app has shown the last (``batch_shown``), and holds what arrived
        meanwhile, once there are ``target`` rows (growing 4x each time) or
        ``COALESCE_SECONDS`` have passed, at most ``MAX_BATCH``. So a 100,000-file scan
        costs the list a few dozen merges, and a key press waits for one at most.
        The progress bar's total is posted (``FilesCounted``) as soon as the index has
        listed the files, before it reads any.
        """
        pending: list[ExecutionSummary] = []
        total: int | None = None
        scanned = posts = 0
        target, limit = FIRST_BATCH, FIRST_POST_MAX
        last_post = 0.0
        finished = False  # ScanFinished is posted
        if self._preview:
            preview = preview_summaries(directory, PREVIEW, self.index.root.wal_dir)
            if preview:
                self._shown.clear()
                posts += 1
                self._post(IndexChanged(tuple(preview), scanned=0))

        def post(rows: list[ExecutionSummary]) -> None:
            nonlocal scanned, posts, last_post
            self._shown.clear()
            posts += 1
            scanned = scanned + len(rows) if total is None else min(total, scanned + len(rows))
            self._post(IndexChanged(tuple(rows), scanned=scanned, total=total))
            last_post = time.monotonic()

        def flush() -> None:
            nonlocal limit
            while pending and not self._stopping.is_set():  # the rest, one message at a time
                self._shown.wait(SHOWN_WAIT_SECONDS)
                post(pending[:limit])
                del pending[:limit]
                limit = MAX_BATCH

        def last_count() -> int:
            """Every row is out: the file count, and a message even if nothing was shown."""
            nonlocal total
            if total is None:
                total = self.index.file_count()
            if not posts:  # nothing to show: still say the scan found nothing
                self._post(IndexChanged((), scanned=0, total=total))
            return total

        def listed(count: int) -> None:
            nonlocal total
            total = count
            if not self._stopping.is_set():
                self._post(FilesCounted(count))

        batches = self.index.scan_batches(listed)
        for batch in batches:
            if self._stopping.is_set():
                close = getattr(batches, "close", None)  # a generator: its own cleanup runs
                if close is not None:
                    close()
                return None if finished else scanned
            pending.extend(batch)
            if not batch:  # every file is read: show the rest now, not after the cache write
                flush()
            if batch is EVERY_SUMMARY_OUT and not self._stopping.is_set():
                self._post(ScanFinished(last_count()))
                finished = True
            while pending and self._shown.is_set():
                due = time.monotonic() - last_post >= COALESCE_SECONDS
                if len(pending) < target and not due:
                    break
                post(pending[:limit])
                del pending[:limit]
                target, limit = min(target * 4, MAX_BATCH), MAX_BATCH
                if total is None:
                    total = self.index.file_count()
        if finished:
            return None
        flush()
        return last_count()

    def drain(self) -> None:
        """Re-read pending paths until none are left (or the feeder is paused)."""
        try:
            while True:
                with self._lock:
                    if not self._has_work() or self._stopping.is_set():
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


class _ReadySignal:
    """The stop event handed to ``watchfiles.watch``, which also says when watching began.

    watchfiles registers its watches when the watch starts, then asks ``is_set()`` between
    its waits (``step``): the first question means the directories are being watched.
    """

    def __init__(self, on_ready: Callable[[], object]) -> None:
        self.stop = threading.Event()
        self._on_ready: Callable[[], object] | None = on_ready
        self.ready = False  # since the last ``rearm``
        self.ever_ready = False
        # Asked now and then while watching: true ends this watch (a directory moved).
        self.moved: Callable[[], bool] = lambda: False
        self._next_look = 0.0

    def rearm(self, on_ready: Callable[[], object]) -> None:
        """For the next watch: ``on_ready`` once it is in place."""
        self._on_ready, self.ready = on_ready, False

    def is_set(self) -> bool:
        if self._on_ready is not None:
            on_ready, self._on_ready = self._on_ready, None
            self.ready = self.ever_ready = True
            on_ready()
        if self.stop.is_set():
            return True
        now = time.monotonic()
        if now < self._next_look:
            return False
        self._next_look = now + LOOK_SECONDS
        return self.moved()


# How a watched directory looks now: its identity (device, inode) when it is there and
# can be listed; why it cannot be listed when it is there (or may be: a parent that
# cannot be searched hides it); None when it is not there.
Look = tuple[int, int] | str | None


def _look(directory: Path) -> Look:
    try:
        st = os.stat(directory)
        if not stat.S_ISDIR(st.st_mode):
            return None
        with os.scandir(directory):
            pass
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:  # no permission: its files are there but cannot be seen
        return (exc.strerror or type(exc).__name__).lower()
    return (st.st_dev, st.st_ino)


class DirectoryWatcher:
    """Watches directories from a daemon thread and posts what changed.

    Posts ``WatchStarted`` once the directories are watched (a scan started then cannot
    miss a file written in between), ``PathsChanged`` for each burst of changed record and
    WAL paths, and ``WatcherStopped`` if watching fails. A plain thread, not a Textual
    worker: it lives as long as the app and must not hold up its exit (or a pool slot),
    and it spares the UI thread watchfiles' async machinery (anyio's import alone is
    ~30 ms before the first frame).
    """

    def __init__(self, directories: list[Path], post: Callable[[Message], object]) -> None:
        self._directories = directories
        self._post = post
        self._signal = _ReadySignal(lambda: self._send(WatchStarted()))
        # The directories last said to be gone, and to be unlistable (None: none watched).
        self._said: tuple[tuple[Path, ...], tuple[tuple[Path, str], ...]] | None = ((), ())
        self._thread = threading.Thread(target=self._run, name="directory-watcher", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop watching (within one ``step``)."""
        self._signal.stop.set()

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    def _run(self) -> None:
        restarts: list[float] = []
        while True:
            try:
                watched = self._in_place()
                if watched is None:
                    return  # stopped while a directory was gone
                self._watch(watched)
                if self._signal.stop.is_set():
                    return
                # A directory was removed, replaced or is back: watch what is there now,
                # and have what changed meanwhile found.
                self._signal.rearm(lambda: self._send(WatchResumed()))
                continue
            except Exception as exc:  # the directory vanished, inotify limits, a name ...
                if self._signal.stop.is_set():
                    return
                reason = sanitize_line(str(exc)) or type(exc).__name__
                now = time.monotonic()
                restarts = [at for at in restarts if now - at < RESTART_WINDOW] + [now]
                if not self._signal.ever_ready or len(restarts) > MAX_RESTARTS:
                    # It never started (it would fail again), or fails again and again.
                    self._send(WatcherStopped(reason))
                    return
                # Watching ran, then failed on one event (watchfiles stops at a file name
                # that is not UTF-8, or a directory went): watch again what is there, and
                # have what changed meanwhile found. A watch started again may fail at
                # once, on an event of that name still queued: it is tried again too.
                if not self._signal.ready:
                    self._signal.stop.wait(RESTART_PAUSE)
                    continue  # its WatchResumed is still to come, when one starts
                self._signal.rearm(lambda: self._send(WatchResumed()))

    def _in_place(self) -> dict[Path, Look] | None:
        """How each directory looks now (see ``_look``) once one can be watched; whenever
        the ones gone or that cannot be listed change, say so (``DirectoriesMissing``).
        While none can be watched, wait for one (None: stopped meanwhile)."""
        while not self._signal.stop.is_set():
            looks = {d: _look(d) for d in self._directories}
            missing = tuple(d for d, look in looks.items() if look is None)
            unlistable = tuple((d, look) for d, look in looks.items() if isinstance(look, str))
            watchable = any(isinstance(look, tuple) for look in looks.values())
            if not watchable and not self._signal.ever_ready:
                # Never watched (it would not start): the scan says why it read nothing.
                if self._said is not None:
                    self._said = None
                    self._send(WatcherStopped(trouble_text(missing, unlistable) or "gone"))
            elif (missing, unlistable) != self._said:
                self._said = (missing, unlistable)
                self._send(DirectoriesMissing(missing, unlistable))
            if watchable:
                return looks
            self._signal.stop.wait(LOOK_SECONDS)
        return None

    def _watch(self, looks: dict[Path, Look]) -> None:
        from watchfiles import watch  # here: its import need not delay the first frame

        def moved() -> bool:  # one gone, replaced or back, or one that can be listed no more
            return any(_look(d) != looks[d] for d in self._directories)

        self._signal.moved = moved
        for batch in watch(
            # A directory that cannot be listed is not watched: when it can be again, the
            # watch starts again, and what changed in it meanwhile is read (WatchResumed).
            *(directory for directory, look in looks.items() if isinstance(look, tuple)),
            watch_filter=_record_filter,
            debounce=DEBOUNCE_MS,
            step=25,
            stop_event=self._signal,
            recursive=False,
            ignore_permission_denied=True,
            raise_interrupt=False,
        ):
            self._send(PathsChanged(frozenset(Path(path) for _, path in batch)))

    def _send(self, message: Message) -> None:
        try:
            self._post(message)
        except RuntimeError:  # the app's event loop is closed: nobody to tell any more
            self.stop()
