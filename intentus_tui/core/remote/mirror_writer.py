"""Writing a remote root's files into its local mirror, as the tar lane accepts them.

A thread of its own writes them a batch at a time with the native ``write_new_files``
(the interpreter's lock released for the whole batch) while the event loop reads and
checks the next members; ``python_write_new_files`` is that helper's definition, and runs
on the loop where the helper is not built. A changed file is replaced from a temp file,
so the old copy stays whole until then.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import queue
import threading
from collections.abc import Callable

from intentus_tui.core import native
from intentus_tui.core.fsio import temp_name_for

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | _CLOEXEC
WAITING_LIMIT = 16 << 20  # bytes of accepted members waiting for the writer thread at most
NS = 1_000_000_000

# An accepted member waiting to be written: its index in the feed's ``asked``, and what
# ``write_new_files`` takes (name, bytes, modification time in nanoseconds or -1).
Member = tuple[int, tuple[bytes, bytes, int]]


class MirrorWriter:
    """Writes accepted members into the mirror directory on a thread of its own with the
    native ``write_new_files`` (the lock released for a whole batch); on the loop itself
    where that is not built. Members are handed over as they are accepted, and the
    thread takes everything handed over since its last batch as its next one, without
    waiting for the loop to hear of the last (the loop, busy reading the stream, was
    slow to start the next batch: at the stream's end, thousands of files were still to
    be written). Each file written is reported (``written``) on the loop; the first
    write that failed is raised by the next ``add`` or ``drain``."""

    def __init__(
        self,
        directory: int,
        asked: Callable[[int], tuple[str, float | None]],
        written: Callable[[list[tuple[int, int]]], object],
    ) -> None:
        self._directory = directory
        self._asked = asked  # the name and time of the member at an index
        self._written = written  # told the members written: (index, size) of each
        self._loop = asyncio.get_running_loop()
        self._jobs: queue.SimpleQueue[list[Member] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        if native.write_new_files is not None:
            self._thread = threading.Thread(target=self._work, name="tar-write", daemon=True)
            self._thread.start()
        self._outstanding = 0  # bytes handed to the thread and not yet reported
        self._room = asyncio.Event()  # set while the thread is not too far behind
        self._room.set()
        self._idle = asyncio.Event()  # set while nothing is outstanding
        self._idle.set()
        self._error: OSError | None = None
        self._closed = False

    async def add(self, members: list[Member]) -> None:
        self._raise()
        if not members:
            return
        if self._thread is None:
            files = [file for _, file in members]
            self._finish(members, python_write_new_files(self._directory, files))
            self._raise()
            return
        self._outstanding += sum([len(file[1]) for _, file in members])
        self._idle.clear()
        if self._outstanding > WAITING_LIMIT:
            self._room.clear()
        self._jobs.put(members)
        if not self._room.is_set():  # the writer has fallen behind: wait
            await self._room.wait()
            self._raise()

    async def drain(self) -> None:
        """Every member added written (or the first failure raised)."""
        await self._idle.wait()
        self._raise()

    def close(self) -> None:
        """Stop: nothing more is written or reported (a batch being written is waited
        for)."""
        self._closed = True
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join()

    def _work(self) -> None:
        """The writer thread: everything handed over since the last batch, written, and
        the answers handed to the loop."""
        write = native.write_new_files
        assert write is not None
        while (batch := self._jobs.get()) is not None:
            more: list[Member] | None = batch
            stop = False
            with contextlib.suppress(queue.Empty):
                while True:
                    more = self._jobs.get_nowait()
                    if more is None:
                        stop = True
                        break
                    batch += more
            if self._closed:
                break
            try:
                results: list[int] | BaseException = write(
                    self._directory, [file for _, file in batch]
                )
            except BaseException as exc:  # a bug, not a file's fault: the sync says so
                results = exc
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
                self._loop.call_soon_threadsafe(self._done, batch, results)
            if stop:
                break

    def _done(self, batch: list[Member], results: list[int] | BaseException) -> None:
        if self._closed:
            return
        if isinstance(results, BaseException):
            self._error = self._error or OSError(errno.EIO, str(results))
        else:
            self._finish(batch, results)
        self._outstanding -= sum([len(file[1]) for _, file in batch])
        if self._outstanding <= WAITING_LIMIT or self._error is not None:
            self._room.set()
        if self._outstanding <= 0 or self._error is not None:
            self._idle.set()

    def _finish(self, batch: list[Member], results: list[int]) -> None:
        written: list[tuple[int, int]] = []
        for (index, (name, data, _)), code in zip(batch, results, strict=True):
            if code == errno.EEXIST:  # a changed file: replaced from a temp file at once
                remote_name, mtime = self._asked(index)
                try:
                    write_file(self._directory, remote_name, memoryview(data), mtime)
                except OSError as exc:
                    self._error = self._error or exc
                    continue
            elif code:
                shown = name.decode("utf-8", "surrogateescape")
                self._error = self._error or OSError(code, os.strerror(code), shown)
                continue
            written.append((index, len(data)))
        if written:
            self._written(written)

    def _raise(self) -> None:
        if self._error is not None:
            raise self._error


def nanoseconds(mtime: float | None) -> int:
    """``mtime`` in nanoseconds as ``os.utime`` with it in seconds would set it; -1 for
    none. A listing's times are whole seconds (SFTP version 3 and ``find_listing`` both
    give them so): exact. A fraction (another store's listing) is set as that float is by
    ``os.utime``, rounded down to the nanosecond as CPython rounds it."""
    if mtime is None:
        return -1
    seconds = int(mtime // 1)
    return seconds * NS + int((mtime - seconds) * NS)


def python_write_new_files(directory: int, files: list[tuple[bytes, bytes, int]]) -> list[int]:
    """The definition of the native ``write_new_files``: each (name, data, mtime_ns, -1
    for none) created in ``directory`` (a descriptor) with ``O_EXCL | O_NOFOLLOW``,
    written whole, its times set last; per file 0 or the errno that stopped it (a file
    that failed once created is removed)."""
    results = []
    for name, data, mtime_ns in files:
        try:
            fd = os.open(name, NEW_FILE, 0o666, dir_fd=directory)
        except OSError as exc:
            results.append(exc.errno or errno.EIO)
            continue
        error = 0
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if mtime_ns >= 0:
                os.utime(fd, ns=(mtime_ns, mtime_ns))
        except OSError as exc:
            error = exc.errno or errno.EIO
        try:
            os.close(fd)
        except OSError as exc:
            error = error or exc.errno or errno.EIO
        if error:
            with contextlib.suppress(OSError):
                os.unlink(name, dir_fd=directory)
        results.append(error)
    return results


def write_file(directory: int, name: str, data: memoryview, mtime: float | None) -> None:
    """``name`` in ``directory`` (a descriptor) holding ``data`` (and ``mtime``), created
    with ``O_EXCL | O_NOFOLLOW``: a new file straight under its name (written in one go;
    its modification time set last, so no stamp of a half-written file can match), a
    changed one replaced at once from a temp file, so the old copy stays whole until then."""
    target = name
    try:
        fd = os.open(name, NEW_FILE, 0o666, dir_fd=directory)
    except FileExistsError:
        target = temp_name_for(name)
        fd = os.open(target, NEW_FILE, 0o666, dir_fd=directory)
    try:
        view = data
        while view:
            view = view[os.write(fd, view) :]
        if mtime is not None:
            os.utime(fd, (mtime, mtime))
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(target, dir_fd=directory)
        raise
    os.close(fd)
    if target != name:
        try:
            os.replace(target, name, src_dir_fd=directory, dst_dir_fd=directory)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(target, dir_fd=directory)
            raise
