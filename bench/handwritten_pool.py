"""The fork-and-pipe pool the index used before ``concurrent.futures``: the baseline that
``bench/bench_pool.py`` times the library's pool against (same ``map_chunks`` API).

Run one per-chunk function over many chunks on every core, yielding results in batches.

Two ways, chosen by ``map_chunks``:

- **forked helpers** (a single-threaded process on a system with ``fork``: the command
  line). This process forks ``cores - 1`` helpers and works too. A pipe pre-filled with
  chunk numbers is the shared work queue: a 4-byte read claims the next chunk (reads of
  at most ``PIPE_BUF`` bytes are atomic), so a slow chunk never leaves a core idle.
  Helpers send each chunk's result back on their own pipe as one frame (chunk number,
  length, payload); anything a helper claimed but never delivered (it died) is done here
  at the end.
- **a process pool** (``forkserver`` when other threads are alive, as in the debugger,
  where forking would copy locks held by those threads). The first chunk is done in this
  process before the pool starts, so the first rows are ready in milliseconds.

A chunk's result is ``bytes`` (sent as they are) or rows that survive ``orjson`` (tuples
and enums come back as lists and strings): the caller's ``decode`` rebuilds them.
"""

from __future__ import annotations

import contextlib
import gc
import os
import select
import struct
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any, TypeVar

import orjson

Row = TypeVar("Row")
_CLAIM = struct.Struct("=I")  # one chunk number in the work queue
_FRAME = struct.Struct("=IIB")  # chunk number, payload length, payload is raw bytes
_PIPE_BYTES = 1 << 20  # room for many chunks of rows: a helper rarely waits on this process


Work = Callable[[list[str]], Any]  # a chunk's rows (orjson-able) or bytes
Decode = Callable[[Any], Row]
Numbered = Generator[tuple[int, Row], None, None]  # (chunk number, decoded result)


def map_chunks(
    work: Work,
    decode: Decode[Row],
    chunks: Sequence[list[str]],
    cores: int,
    *,
    ordered: bool = False,
) -> Generator[Row, None, None]:
    """``decode(work(chunk))`` for every chunk on ``cores`` cores: as each is ready, or in
    the chunks' order with ``ordered`` (early results wait for the ones before them)."""
    if cores <= 1 or len(chunks) <= 1:
        numbered: Numbered[Row] = ((i, decode(work(chunk))) for i, chunk in enumerate(chunks))
    elif can_fork():
        numbered = _forked(work, decode, chunks, cores - 1)
    else:
        numbered = _pooled(work, decode, chunks, cores)
    try:
        if ordered:
            yield from _in_order(numbered)
        else:
            yield from (result for _, result in numbered)
    finally:
        numbered.close()  # a consumer that stops early leaves no helper behind


def _in_order(numbered: Numbered[Row]) -> Iterator[Row]:
    waiting: dict[int, Row] = {}
    next_index = 0
    for index, result in numbered:
        waiting[index] = result
        while next_index in waiting:
            yield waiting.pop(next_index)
            next_index += 1


def can_fork() -> bool:
    """Forking is safe here: the system has it and no other thread holds locks to copy."""
    return hasattr(os, "fork") and threading.active_count() == 1


def _forked(
    work: Work, decode: Decode[Row], chunks: Sequence[list[str]], helpers: int
) -> Numbered[Row]:
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
            yield index, decode(work(chunks[index]))
            done.add(index)
            yield from _drain(pending, decode, done, block=False)
        yield from _drain(pending, decode, done, block=True)
        for index in range(len(chunks)):
            if index not in done:  # claimed by a helper that died before delivering
                yield index, decode(work(chunks[index]))
    finally:
        os.close(queue_r)
        for fd, pid in pids.items():
            with contextlib.suppress(OSError):
                os.close(fd)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)


def _helper(
    work: Work,
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
            result = work(chunks[index])
            raw = type(result) is bytes
            payload = result if raw else orjson.dumps(result)
            view = memoryview(_FRAME.pack(index, len(payload), raw) + payload)
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
    decode: Decode[Row],
    done: set[int],
    *,
    block: bool,
) -> Numbered[Row]:
    """Yield every complete frame the helpers have sent; with ``block``, until they close."""
    while pending:
        ready, _, _ = select.select(list(pending), [], [], None if block else 0)
        if not ready:
            return
        for fd in ready:
            data = os.read(fd, _PIPE_BYTES)
            if not data:
                del pending[fd]  # a helper finished (or died mid-frame: that chunk is redone)
                continue
            buffer = pending[fd]
            buffer += data
            for index, payload in _frames(buffer):
                done.add(index)
                yield index, decode(payload)


def _frames(buffer: bytearray) -> list[tuple[int, Any]]:
    """Take every complete frame off the front of ``buffer``: (chunk number, result)."""
    frames = []
    start = 0
    while len(buffer) - start >= _FRAME.size:
        index, length, raw = _FRAME.unpack_from(buffer, start)
        end = start + _FRAME.size + length
        if end > len(buffer):
            break
        payload = bytes(buffer[start + _FRAME.size : end])
        frames.append((index, payload if raw else orjson.loads(payload)))
        start = end
    del buffer[:start]
    return frames


def _widen(fd: int) -> None:
    """Make a pipe hold more than the default 64 KiB, where the system allows it."""
    with contextlib.suppress(ImportError, OSError, AttributeError):
        import fcntl  # not on Windows, and F_SETPIPE_SZ is Linux only

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _PIPE_BYTES)


def _pooled(
    work: Work, decode: Decode[Row], chunks: Sequence[list[str]], cores: int
) -> Numbered[Row]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    yield 0, decode(work(chunks[0]))
    # fork is fastest; with other threads alive forkserver avoids inheriting their locks.
    method = "fork" if threading.active_count() == 1 else "forkserver"
    with ProcessPoolExecutor(
        max_workers=cores,
        mp_context=multiprocessing.get_context(method),
        initializer=gc.disable,
    ) as pool:
        for index, result in enumerate(pool.map(work, chunks[1:]), start=1):
            yield index, decode(result)
