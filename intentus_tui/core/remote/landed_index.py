"""Summaries of a mirror's record files made while a sync copies them, on other cores.

A command that syncs a remote root indexes its mirror next. Summarizing only once the
copy is over leaves the cores idle while the network is waited for, and the copy idle
while the summaries are made. Instead, helper processes forked before the connection's
thread starts (forking later would copy locks that thread may hold) summarize each
record file as it lands, with the index's own ``summarize_file``, reading the file back
from the mirror (from the page cache: it was just written). Once the sync is over, if
every record file in the mirror was summarized, the summaries go into the index cache
as the snapshot of the mirror's records directory, each with the stamp its reader took:
the index that follows finds every stamp unchanged and reads no record. Anything less
(a fault, a file that changed since it was read, files from an earlier sync) stores
nothing, or a stamp that no longer matches: the index then reads those files itself, as
it always did.
"""

from __future__ import annotations

import contextlib
import os
import select
import struct
from collections.abc import Iterator
from pathlib import Path

from intentus_tui.core.index.cache import IndexCache, new_stamps, packable, summary_lines
from intentus_tui.core.index.parallel import can_fork
from intentus_tui.core.index.scan import listdir, record_names
from intentus_tui.core.index.summarize import summarize_file

_CHUNK = 32  # paths sent to a helper at once
_LINE = 1024  # summaries per line of the stored summaries file (as the index stores them)
_WORK = struct.Struct("=I")  # a chunk of paths: its length, then the paths joined by NUL
_ITEM = struct.Struct("=II4q")  # a summarized file: name length, line length, its stamp
_PIPE_BYTES = 1 << 20

# One summarized file: (its stamp packed as the cache packs it, its summaries-file line)
Summarized = tuple[tuple[int, int, int, int], bytes]


def summarize_paths(paths: list[str]) -> bytes:
    """Helper side: each file's name, stamp and summary as one summaries-file line (the
    index's own encoding, ``summary_lines``), packed."""
    out = []
    for path in paths:
        stamp, summary = summarize_file(path)
        name = os.fsencode(path.rpartition(os.sep)[2])
        line = summary_lines([summary])
        out.append(_ITEM.pack(len(name), len(line), *packable(stamp)) + name + line)
    return b"".join(out)


def unpack_items(data: bytes) -> Iterator[tuple[str, Summarized]]:
    """``summarize_paths``'s bytes read back: (name, (stamp, line)) per file."""
    view = memoryview(data)
    at = 0
    while at < len(view):
        name_size, line_size, *stamp = _ITEM.unpack_from(view, at)
        at += _ITEM.size
        name = os.fsdecode(bytes(view[at : at + name_size]))
        at += name_size
        line = bytes(view[at : at + line_size])
        at += line_size
        size, mtime, ctime, inode = stamp
        yield name, ((size, mtime, ctime, inode), line)


class LandedIndex:
    """Summaries of ``records_dir``'s files made by forked helpers as each is ``add``-ed;
    ``finish`` stores them as the directory's index snapshot when they cover it all.

    Made before any other thread starts; with threads alive (or no ``fork``) it is
    inactive and ``add``/``finish`` do nothing: the index reads the files itself."""

    def __init__(self, records_dir: Path, helpers: int) -> None:
        self.records_dir = records_dir
        self.summarized: dict[str, Summarized] = {}
        self._pending: list[str] = []
        self._work: list[int] = []  # a pipe to each helper
        self._results: dict[int, bytearray] = {}  # each helper's result pipe -> bytes so far
        self._pids: list[int] = []
        self._next = 0
        self.active = helpers > 0 and can_fork()
        if self.active:
            self._start(helpers)

    def _start(self, helpers: int) -> None:
        for _ in range(helpers):
            work_r, work_w = os.pipe()
            result_r, result_w = os.pipe()
            _widen(work_w)
            _widen(result_w)
            pid = os.fork()
            if pid == 0:  # the helper: never returns
                _helper(work_r, result_w, [work_w, result_r, *self._work, *self._results])
            os.close(work_r)
            os.close(result_w)
            os.set_blocking(work_w, False)  # see _send
            self._work.append(work_w)
            self._results[result_r] = bytearray()
            self._pids.append(pid)

    def add(self, path: Path) -> None:
        """A record file written whole into the mirror: to be summarized."""
        if not self.active:
            return
        self._pending.append(os.fspath(path))
        if len(self._pending) >= _CHUNK:
            self._send()
            self._drain(block=False)  # once a chunk: each look is a system call

    def _send(self) -> None:
        if not self._pending or not self._work:
            return
        payload = b"\0".join(os.fsencode(p) for p in self._pending)
        self._pending = []
        fd = self._work[self._next % len(self._work)]
        self._next += 1
        view = memoryview(_WORK.pack(len(payload)) + payload)
        try:
            while view:
                try:
                    view = view[os.write(fd, view) :]
                except BlockingIOError:
                    # A helper whose result pipe is full waits for this process: take its
                    # results while its work pipe has no room, or both would wait for ever.
                    self._drain(block=False)
                    select.select(list(self._results), [fd], [], 0.05)
        except OSError:  # the helper died: its files are left to the index
            self.active = False

    def _drain(self, block: bool) -> None:
        """Take what the helpers sent (all of it until they end, with ``block``)."""
        while self._results:
            ready, _, _ = select.select(list(self._results), [], [], None if block else 0)
            if not ready:
                return
            for fd in ready:
                data = os.read(fd, _PIPE_BYTES)
                if not data:
                    self._take(self._results.pop(fd), final=True)
                    os.close(fd)
                    continue
                self._results[fd] += data
                self._take(self._results[fd], final=False)

    def _take(self, buffer: bytearray, final: bool) -> None:
        """Every whole frame off the front of ``buffer`` (a frame: its length, then the
        files of one chunk)."""
        at = 0
        while len(buffer) - at >= _WORK.size:
            (size,) = _WORK.unpack_from(buffer, at)
            end = at + _WORK.size + size
            if end > len(buffer):
                break
            self.summarized.update(unpack_items(bytes(buffer[at + _WORK.size : end])))
            at = end
        del buffer[:at]
        if final and buffer:  # a helper that died mid-frame: that chunk is not summarized
            buffer.clear()

    def finish(self) -> bool:
        """Wait for the helpers; store the snapshot when every record file of the
        directory was summarized. Whether it was stored."""
        if not self._pids:
            return False
        try:
            if self.active:
                self._send()
            self._close_work()
            self._drain(block=True)
        except OSError:  # the index reads the files itself
            self.active = False
        finally:
            self.close()
        return self.active and self._store()

    def _store(self) -> bool:
        listing = listdir(self.records_dir)
        names = record_names(listing)
        summarized = self.summarized
        if not names or any(name not in summarized for name in names):
            return False
        stamps = new_stamps()
        for name in names:
            stamps.extend(summarized[name][0])
        cache = IndexCache()
        try:
            return (
                cache.store_parts(
                    self.records_dir.resolve(),
                    listing=listing,
                    names=names,
                    parts=((b"", line) for line in _joined_lines(summarized, names)),
                    totals=lambda: ({}, stamps),  # no listing rows: no counts
                )
                is not None
            )
        finally:
            cache.close()

    def _close_work(self) -> None:
        for fd in self._work:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._work = []

    def close(self) -> None:
        """End the helpers (at once: a sync that stops early waits for none of them)."""
        self._close_work()
        for fd in list(self._results):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._results = {}
        for pid in self._pids:
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, 0)
        self._pids = []


def _joined_lines(summarized: dict[str, Summarized], names: list[str]) -> Iterator[bytes]:
    """The summaries of ``names`` in order as lines of the summaries file: up to ``_LINE``
    a line, a line the index's encoder wrote apart (marked wide) kept on its own."""
    run: list[bytes] = []
    for name in names:
        line = summarized[name][1]
        if line[:1] == b"[" and line[-2:] == b"]\n":
            run.append(line[1:-2])
            if len(run) == _LINE:
                yield b"[" + b",".join(run) + b"]\n"
                run = []
            continue
        if run:
            yield b"[" + b",".join(run) + b"]\n"
            run = []
        yield line
    if run:
        yield b"[" + b",".join(run) + b"]\n"


def _helper(work_r: int, result_w: int, parent_ends: list[int]) -> None:
    """A forked helper's whole life: read chunks of paths until the pipe ends, send each
    chunk's summaries back; leave without cleanup."""
    status = 0
    try:
        import gc

        for fd in parent_ends:
            with contextlib.suppress(OSError):
                os.close(fd)
        gc.disable()  # nothing here builds cycles worth a collection
        incoming = os.fdopen(work_r, "rb", buffering=_PIPE_BYTES)
        while True:
            head = incoming.read(_WORK.size)
            if len(head) < _WORK.size:
                break
            (size,) = _WORK.unpack(head)
            payload = incoming.read(size)
            paths = [os.fsdecode(p) for p in payload.split(b"\0")]
            result = summarize_paths(paths)
            view = memoryview(_WORK.pack(len(result)) + result)
            while view:
                view = view[os.write(result_w, view) :]
            gc.collect(1)  # a damaged file leaves cycles (an exception and its frames)
    except BaseException:
        status = 1
    finally:
        os._exit(status)


def _widen(fd: int) -> None:
    with contextlib.suppress(ImportError, OSError, AttributeError):
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _PIPE_BYTES)
