"""Summaries made while a remote root's files land in its local mirror, so that the
index overlaps the copy instead of following it.

A first sync copies every file; the command line then indexes the mirror. Started after
the copy, that index read and summarized every file again. ``Landing`` is the sync's
``on_file``: the paths go to helper processes a chunk at a time as they land, and
``finish`` returns what the helpers made. ``DirectoryIndex(landed=...)`` takes each of
them whose file is unchanged since (same stamp) and reads only the rest.

Why forked helpers fed through pipes, and not the standard library's pool: during a sync
this process's event loop thread reads the stream, and both cores are busy with it and
with the server. The pool's own threads (its manager and its queue feeder, pickling each
chunk) took the interpreter's lock from that loop: the copy of 10,000 files slowed from
0.55 s to 0.80 s, and the index after it gained nothing (``bench/bench_remote.py``). Here
a chunk costs this process one ``os.write``, no thread is added, and the helpers write
what they make to files of their own, read once at the end.

The helpers are forked at once, before the sync connects: the SSH client runs its event
loop on a thread of its own, and forking once that thread lives would copy its locks.
They are niced: the copy comes first, and they take the time it leaves.
"""

from __future__ import annotations

import contextlib
import gc
import os
import struct
import tempfile
from typing import IO

import orjson

from intentus_tui.core.index.parallel import can_fork, widen_pipe
from intentus_tui.core.index.scan import (
    Built,
    RowFormat,
    rebuild_chunk,
    summarize_chunk,
    summarize_many,
)
from intentus_tui.core.records.load import is_record_name

# Paths sent to a helper at once: files land in batches of hundreds (see tar_lane).
LANDING_CHUNK = 64
WORKER_NICENESS = 10
_LENGTH = struct.Struct("=I")


class Landing:
    """``on_file`` for a sync: each landed record summarized by a helper process (with
    its listing row when ``rows`` is given); ``finish`` returns them by file name. Where
    helpers cannot be forked (another thread is alive, or no ``fork``) the files are
    summarized by ``finish``, as the index would read them."""

    def __init__(self, rows: RowFormat | None = None, workers: int | None = None) -> None:
        self._rows = rows
        self._workers = workers
        self._waiting: list[str] = []
        self._helpers: list[tuple[int, int, IO[bytes]]] = []  # pid, work pipe, results
        self._next = 0
        if not can_fork():
            return
        for _ in range(workers or os.cpu_count() or 1):
            results = tempfile.TemporaryFile()  # noqa: SIM115 (closed by finish or close)
            work_r, work_w = os.pipe()
            widen_pipe(work_w)
            pid = os.fork()
            if pid == 0:  # the helper: never returns
                os.close(work_w)
                for _, other_w, _ in self._helpers:
                    os.close(other_w)
                _helper(work_r, results.fileno(), rows)
            os.close(work_r)
            self._helpers.append((pid, work_w, results))

    def __call__(self, path: str) -> None:
        """A file landed (its mirror path): a record is summarized once a chunk is full
        (a write-ahead log is read by the index, with the others of its directory)."""
        if not is_record_name(path.rpartition(os.sep)[2]):
            return
        self._waiting.append(path)
        if len(self._waiting) >= LANDING_CHUNK and self._helpers:
            self._send()

    def _send(self) -> None:
        chunk, self._waiting = self._waiting, []
        if not chunk or not self._helpers:
            return
        _, work_w, _ = self._helpers[self._next % len(self._helpers)]
        self._next += 1
        payload = "\0".join(chunk).encode("utf-8", "surrogateescape")
        with contextlib.suppress(OSError):  # the helper died: the index reads these
            _write_all(work_w, _LENGTH.pack(len(payload)) + payload)

    def finish(self) -> dict[str, Built]:
        """Every landed record's (stamp as read, summary, row), by file name, once the
        helpers are done. What a helper did not deliver is left out: the index reads it."""
        if not self._helpers:  # none could be forked: the index's own lane, now
            paths, self._waiting = self._waiting, []
            return {
                built[1].key: built
                for batch in summarize_many("", paths, self._workers, self._rows)
                for built in batch
            }
        self._send()
        helpers, self._helpers = self._helpers, []
        for _, work_w, _ in helpers:
            os.close(work_w)  # end of work: the helper finishes its chunks and leaves
        made: dict[str, Built] = {}
        for pid, _, results in helpers:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
            with results:
                results.seek(0)
                data = results.read()
            for payload in _frames(data):
                for built in rebuild_chunk(orjson.loads(payload)):
                    made[built[1].key] = built
        return made

    def close(self) -> None:
        """Stop without the results (the sync failed, or nobody will index)."""
        helpers, self._helpers = self._helpers, []
        for pid, work_w, results in helpers:
            os.close(work_w)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
            results.close()


def _helper(work_r: int, results: int, rows: RowFormat | None) -> None:
    """A helper's whole life: read chunks of paths until the pipe closes, append each
    chunk's summaries to its results file; then leave without cleanup."""
    status = 0
    try:
        gc.disable()  # nothing here builds cycles; reference counting frees everything
        with contextlib.suppress(OSError):
            os.nice(WORKER_NICENESS)
        with os.fdopen(work_r, "rb") as work:
            while (head := work.read(_LENGTH.size)) and len(head) == _LENGTH.size:
                payload = work.read(_LENGTH.unpack(head)[0])
                paths = payload.decode("utf-8", "surrogateescape").split("\0")
                try:
                    made = orjson.dumps(summarize_chunk(paths, rows))
                except orjson.JSONEncodeError:  # an integer beyond 64 bits: the index
                    continue  # reads this chunk's files itself
                _write_all(results, _LENGTH.pack(len(made)) + made)
    except BaseException:  # what was not written is read by the index
        status = 1
    finally:
        os._exit(status)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _frames(data: bytes) -> list[bytes]:
    """The complete frames in ``data`` (a helper that died mid-write leaves a part)."""
    frames = []
    start = 0
    while start + _LENGTH.size <= len(data):
        end = start + _LENGTH.size + _LENGTH.unpack_from(data, start)[0]
        if end > len(data):
            break
        frames.append(data[start + _LENGTH.size : end])
        start = end
    return frames
