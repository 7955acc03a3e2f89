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
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from intentus_tui.core.index.cache import (
    STAMP_WIDTH,
    IndexCache,
    Stamps,
    new_stamps,
    packable,
    summary_lines,
)
from intentus_tui.core.index.parallel import can_fork
from intentus_tui.core.index.scan import listdir, record_names
from intentus_tui.core.index.summarize import summarize_file

_CHUNK = 32  # names sent to the helpers at once
_LINE = 1024  # summaries per line of the stored summaries file (as the index stores them)
# The queue's messages: each exactly this size (a pipe write of at most PIPE_BUF bytes is
# never split nor mixed with another, so each read of this size takes one message whole):
# the names' length, then the names joined by NUL, then padding.
_MESSAGE = min(4096, select.PIPE_BUF)
_LENGTH = struct.Struct("=I")
_HEAD = struct.Struct("=III")  # a chunk's summaries: files, names' bytes, lines' bytes
_PIPE_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class Chunk:
    """One chunk's summaries as a helper sent them: each file's stamp (four numbers, as
    the cache packs them), and its summary as a line of the summaries file."""

    stamps: Stamps
    ends: array[int]  # where each file's line ends in ``lines``
    lines: bytes

    def line(self, i: int) -> bytes:
        return self.lines[self.ends[i - 1] if i else 0 : self.ends[i]]


def summarize_paths(prefix: str, names: list[str]) -> bytes:
    """Each file's stamp and summary (a summaries-file line, the index's own encoding,
    ``summary_lines``) with its name, packed as a few blocks (the reader takes a chunk
    with a few calls, not a few per file)."""
    stamps = new_stamps()
    ends = array("I")
    lines = []
    size = 0
    for name in names:
        stamp, summary = summarize_file(prefix + name)
        stamps.extend(packable(stamp))
        line = summary_lines([summary])
        lines.append(line)
        size += len(line)
        ends.append(size)
    joined = "\0".join(names).encode("utf-8", "surrogateescape")
    body = [joined, stamps.tobytes(), ends.tobytes(), *lines]
    return _HEAD.pack(len(names), len(joined), size) + b"".join(body)


def read_chunk(data: bytes) -> tuple[list[str], Chunk]:
    """``summarize_paths``'s bytes read back: the names, and their summaries."""
    count, names_size, lines_size = _HEAD.unpack_from(data)
    at = _HEAD.size
    names = data[at : at + names_size].decode("utf-8", "surrogateescape").split("\0")
    at += names_size
    stamps = new_stamps()
    stamps.frombytes(data[at : at + count * STAMP_WIDTH * stamps.itemsize])
    at += count * STAMP_WIDTH * stamps.itemsize
    ends = array("I")
    ends.frombytes(data[at : at + count * ends.itemsize])
    at += count * ends.itemsize
    if len(names) != count or len(data) - at != lines_size:
        raise ValueError("a damaged chunk of summaries")
    return names, Chunk(stamps, ends, data[at:])


class LandedIndex:
    """Summaries of ``records_dir``'s files made by forked helpers as each is ``add``-ed;
    ``finish`` stores them as the directory's index snapshot when they cover it all.

    The helpers take chunks of names from one shared queue (a pipe of fixed-size
    messages, each read whole by one reader), so none idles while work is left, and this
    process takes chunks too once the copy is over. Made before any other thread starts;
    with threads alive (or no ``fork``) it is inactive and ``add``/``finish`` do nothing:
    the index reads the files itself."""

    def __init__(self, records_dir: Path, helpers: int) -> None:
        self.records_dir = records_dir
        self.summarized: dict[str, tuple[Chunk, int]] = {}  # name -> its chunk, place
        self._prefix = os.path.join(records_dir, "")
        self._pending: list[str] = []
        self._queue_r = self._queue_w = -1
        self._results: dict[int, bytearray] = {}  # each helper's result pipe -> bytes so far
        self._pids: list[int] = []
        self.active = helpers > 0 and can_fork()
        if self.active:
            try:
                self._start(helpers)
            except OSError:  # no process or pipe to be had: the index reads the files
                self.active = False
                self.close()

    def _start(self, helpers: int) -> None:
        self._queue_r, self._queue_w = os.pipe()
        _widen(self._queue_w)
        for _ in range(helpers):
            result_r, result_w = os.pipe()
            self._results[result_r] = bytearray()  # closed by close(), whatever happens
            try:
                _widen(result_w)
                pid = os.fork()
                if pid == 0:  # the helper: never returns
                    _helper(self._prefix, self._queue_r, result_w, [self._queue_w, *self._results])
            finally:
                os.close(result_w)
            self._pids.append(pid)
        os.set_blocking(self._queue_w, False)  # see _send

    def add(self, path: Path) -> None:
        """A record file written whole into the mirror: to be summarized."""
        if not self.active:
            return
        name = path.name
        if len(name.encode("utf-8", "surrogateescape")) > _MESSAGE // 2:
            return  # no room in a message: left to the index (the snapshot will lack it)
        self._pending.append(name)
        if len(self._pending) >= _CHUNK:
            self._send()
            self._drain(block=False)  # once a chunk: each look is a system call

    def _send(self) -> None:
        while self._pending and self.active:
            names, size = [], _LENGTH.size
            while self._pending:
                encoded = self._pending[0].encode("utf-8", "surrogateescape")
                if size + len(encoded) + 1 > _MESSAGE:
                    break
                names.append(encoded)
                size += len(encoded) + 1
                self._pending.pop(0)
            payload = b"\0".join(names)
            message = (_LENGTH.pack(len(payload)) + payload).ljust(_MESSAGE, b"\0")
            self._put(message)

    def _put(self, message: bytes) -> None:
        """One message into the queue, whole (a write of ``PIPE_BUF`` bytes at most is
        never split), taking results while the queue is full: a helper whose result
        pipe is full waits for this process, which would otherwise wait for it."""
        while True:
            try:
                os.write(self._queue_w, message)
                return
            except BlockingIOError:
                self._drain(block=False)
                select.select(list(self._results), [self._queue_w], [], 0.05)
            except OSError:  # every helper is gone: the files are left to the index
                self.active = False
                return

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
        while len(buffer) - at >= _LENGTH.size:
            (size,) = _LENGTH.unpack_from(buffer, at)
            end = at + _LENGTH.size + size
            if end > len(buffer):
                break
            self._note(bytes(buffer[at + _LENGTH.size : end]))
            at = end
        del buffer[:at]
        if final and buffer:  # a helper that died mid-frame: that chunk is not summarized
            buffer.clear()

    def _note(self, data: bytes) -> None:
        try:
            names, chunk = read_chunk(data)
        except ValueError:  # those files are left to the index
            return
        self.summarized.update((name, (chunk, i)) for i, name in enumerate(names))

    def finish(self) -> bool:
        """Summarize what is left (with the helpers: this process has nothing else to do
        now), then store the snapshot when every record file of the directory was
        summarized. Whether it was stored."""
        if not self._pids:
            return False
        try:
            if self.active:
                self._send()
            self._close_queue_writer()
            while self.active and (message := _take_message(self._queue_r)) is not None:
                self._note(summarize_paths(self._prefix, message))
                self._drain(block=False)
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
        width = STAMP_WIDTH
        for name in names:
            chunk, i = summarized[name]
            stamps.extend(chunk.stamps[width * i : width * (i + 1)])
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

    def _close_queue_writer(self) -> None:
        if self._queue_w >= 0:
            with contextlib.suppress(OSError):
                os.close(self._queue_w)
            self._queue_w = -1

    def close(self) -> None:
        """End the helpers (at once: a sync that stops early waits for none of them)."""
        self._close_queue_writer()
        if self._queue_r >= 0:
            with contextlib.suppress(OSError):
                os.close(self._queue_r)
            self._queue_r = -1
        for fd in list(self._results):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._results = {}
        for pid in self._pids:
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, 0)
        self._pids = []


def _take_message(queue_r: int) -> list[str] | None:
    """The next message's names from the queue, or None once it is empty and closed."""
    data = os.read(queue_r, _MESSAGE)
    if len(data) != _MESSAGE:
        return None
    (size,) = _LENGTH.unpack_from(data)
    payload = data[_LENGTH.size : _LENGTH.size + size]
    return payload.decode("utf-8", "surrogateescape").split("\0")


def _joined_lines(summarized: dict[str, tuple[Chunk, int]], names: list[str]) -> Iterator[bytes]:
    """The summaries of ``names`` in order as lines of the summaries file: up to ``_LINE``
    a line, a line the index's encoder wrote apart (marked wide) kept on its own."""
    run: list[bytes] = []
    for name in names:
        chunk, i = summarized[name]
        line = chunk.line(i)
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


def _helper(prefix: str, queue_r: int, result_w: int, parent_ends: list[int]) -> None:
    """A forked helper's whole life: take messages from the queue until it is empty and
    closed, send each one's summaries back; leave without cleanup."""
    status = 0
    try:
        import gc

        for fd in parent_ends:
            with contextlib.suppress(OSError):
                os.close(fd)
        gc.disable()  # nothing here builds cycles worth a collection
        while (names := _take_message(queue_r)) is not None:
            result = summarize_paths(prefix, names)
            view = memoryview(_LENGTH.pack(len(result)) + result)
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
