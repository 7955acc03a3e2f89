"""Run one per-chunk function over many chunks on every core, yielding results in batches.

Two ways, chosen by ``map_chunks``:

- **forked helpers** (a single-threaded process on a system with ``fork``: the command
  line). This process forks ``cores - 1`` helpers and works too. A pipe pre-filled with
  chunk numbers is the shared work queue: a 4-byte read claims the next chunk (reads of
  at most ``PIPE_BUF`` bytes are atomic), so a slow chunk never leaves a core idle.
  Helpers send each chunk's rows back as one line of JSON on their own pipe; anything a
  helper claimed but never delivered (it died) is done here at the end.
- **a process pool** (``forkserver`` when other threads are alive, as in the debugger,
  where forking would copy locks held by those threads). The first chunk is done in this
  process before the pool starts, so the first rows are ready in milliseconds.

Rows must survive ``orjson`` (tuples and enums come back as lists and strings): the
caller's ``decode`` rebuilds them.
"""

from __future__ import annotations

import contextlib
import gc
import os
import select
import struct
import threading
from collections.abc import Callable, Generator, Sequence
from typing import Any, TypeVar

import orjson

Row = TypeVar("Row")
_CLAIM = struct.Struct("=I")  # one chunk number in the work queue
_PIPE_BYTES = 1 << 20  # room for many chunks of rows: a helper rarely waits on this process


def map_chunks(
    work: Callable[[list[str]], list[Any]],
    decode: Callable[[list[Any]], list[Row]],
    chunks: Sequence[list[str]],
    cores: int,
) -> Generator[list[Row], None, None]:
    """``decode(work(chunk))`` for every chunk (in no particular order), on ``cores`` cores."""
    if cores <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield decode(work(chunk))
        return
    if can_fork():
        yield from _forked(work, decode, chunks, cores - 1)
    else:
        yield from _pooled(work, decode, chunks, cores)


def can_fork() -> bool:
    """Forking is safe here: the system has it and no other thread holds locks to copy."""
    return hasattr(os, "fork") and threading.active_count() == 1


def _forked(
    work: Callable[[list[str]], list[Any]],
    decode: Callable[[list[Any]], list[Row]],
    chunks: Sequence[list[str]],
    helpers: int,
) -> Generator[list[Row], None, None]:
    queue_r, queue_w = os.pipe()
    _widen(queue_w)
    os.write(queue_w, b"".join(_CLAIM.pack(i) for i in range(len(chunks))))
    os.close(queue_w)  # once drained, a claim reads end-of-file
    pids: dict[int, int] = {}  # result pipe -> helper pid
    try:
        for _ in range(helpers):
            result_r, result_w = os.pipe()
            _widen(result_w)
            pid = os.fork()
            if pid == 0:  # the helper: never returns
                _helper(work, chunks, queue_r, result_w, {result_r, *pids})
            os.close(result_w)
            pids[result_r] = pid
        done: set[int] = set()
        pending = {fd: bytearray() for fd in pids}
        while (index := _claim(queue_r)) is not None:
            yield decode(work(chunks[index]))
            done.add(index)
            yield from _drain(pending, decode, done, block=False)
        yield from _drain(pending, decode, done, block=True)
        for index in range(len(chunks)):
            if index not in done:  # claimed by a helper that died before delivering
                yield decode(work(chunks[index]))
    finally:
        os.close(queue_r)
        for fd, pid in pids.items():
            with contextlib.suppress(OSError):
                os.close(fd)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)


def _helper(
    work: Callable[[list[str]], list[Any]],
    chunks: Sequence[list[str]],
    queue_r: int,
    result_w: int,
    parent_ends: set[int],
) -> None:
    """A forked helper's whole life: claim, work, send; then leave without cleanup."""
    status = 0
    try:
        for fd in parent_ends:
            os.close(fd)
        gc.disable()  # nothing here builds cycles; reference counting frees everything
        while (index := _claim(queue_r)) is not None:
            line = orjson.dumps([index, work(chunks[index])]) + b"\n"
            view = memoryview(line)
            while view:
                view = view[os.write(result_w, view) :]
    except BaseException:  # the parent redoes whatever did not arrive
        status = 1
    finally:
        os._exit(status)


def _claim(queue_r: int) -> int | None:
    data = os.read(queue_r, _CLAIM.size)
    return _CLAIM.unpack(data)[0] if len(data) == _CLAIM.size else None


def _drain(
    pending: dict[int, bytearray],
    decode: Callable[[list[Any]], list[Row]],
    done: set[int],
    *,
    block: bool,
) -> Generator[list[Row], None, None]:
    """Yield every complete line the helpers have sent; with ``block``, until they close."""
    while pending:
        ready, _, _ = select.select(list(pending), [], [], None if block else 0)
        if not ready:
            return
        for fd in ready:
            data = os.read(fd, _PIPE_BYTES)
            buffer = pending[fd]
            if not data:
                del pending[fd]  # a helper finished (or died mid-line: that chunk is redone)
                continue
            buffer += data
            end = buffer.rfind(b"\n")
            if end < 0:
                continue
            lines = bytes(buffer[:end]).split(b"\n")
            del buffer[: end + 1]
            for line in lines:
                index, rows = orjson.loads(line)
                done.add(index)
                yield decode(rows)


def _widen(fd: int) -> None:
    """Make a pipe hold more than the default 64 KiB, where the system allows it."""
    with contextlib.suppress(ImportError, OSError, AttributeError):
        import fcntl  # not on Windows, and F_SETPIPE_SZ is Linux only

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _PIPE_BYTES)


def _pooled(
    work: Callable[[list[str]], list[Any]],
    decode: Callable[[list[Any]], list[Row]],
    chunks: Sequence[list[str]],
    cores: int,
) -> Generator[list[Row], None, None]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    yield decode(work(chunks[0]))
    # fork is fastest; with other threads alive forkserver avoids inheriting their locks.
    method = "fork" if threading.active_count() == 1 else "forkserver"
    with ProcessPoolExecutor(
        max_workers=cores,
        mp_context=multiprocessing.get_context(method),
        initializer=gc.disable,
    ) as pool:
        for rows in pool.map(work, chunks[1:]):
            yield decode(rows)
