"""Run one per-chunk function over many chunks on every core, yielding results in batches.

Two ways, chosen by ``map_chunks``:

- **forked helpers** (a single-threaded process on a system with ``fork``: the command
  line). This process forks ``cores - 1`` helpers and works too. A pipe pre-filled with
  chunk numbers is the shared work queue: a 4-byte read claims the next chunk (reads of
  at most ``PIPE_BUF`` bytes are atomic), so a slow chunk never leaves a core idle.
  Helpers send each chunk's result back on their own pipe as one frame (chunk number,
  length, payload); anything a helper claimed but never delivered (it died) is done here
  at the end.
- **the standard library's pool** (``concurrent.futures.ProcessPoolExecutor``, see
  ``pooled``), with ``forkserver`` when other threads are alive, as in the debugger,
  where forking would copy locks held by those threads. The first chunk is done in this
  process before the pool starts, so the first rows are ready in milliseconds.

Why the forked helpers are kept, hand-written, where the library's pool would do: on the
real workload they are clearly faster. ``python bench/bench_pool.py --dir DIR --runs 5``
on 100,000 generated records, 2 cores, a quiet machine, medians of two runs, library
pool / forked helpers: ``DirectoryIndex.scan()`` 1.38-1.40 with the native helpers and
1.14-1.19 in pure Python; the ``inspect --list --json --no-cache`` rows 1.21-1.25 and
1.11-1.15. (Here every core summarizes, this process included, and results travel as
orjson frames rather than pickles.) On 20,000 records on a busy machine the order was
reversed (0.74-0.89): measure again when the summary lane changes.

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
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import orjson

if TYPE_CHECKING:  # imported when a pool is needed: ~13 ms that most starts can skip
    from concurrent.futures import Future, ProcessPoolExecutor

Row = TypeVar("Row")
# Below this many files to summarize, worker processes cost more than they save. Here,
# not in ``scan``: the debugger's first look reads it before the first frame, which
# ``scan``'s imports (the cache, hashlib, sqlite3) would delay.
PARALLEL_THRESHOLD = 2000
_CLAIM = struct.Struct("=I")  # one chunk number in the work queue
_FRAME = struct.Struct("=IIB")  # chunk number, payload length, payload is raw bytes
_PIPE_BYTES = 1 << 20  # room for many chunks of rows: a helper rarely waits on this process


Work = Callable[[list[str]], Any]  # a chunk's rows (orjson-able) or bytes
Decode = Callable[[Any], Row]
Numbered = Generator[tuple[int, Row], None, None]  # (chunk number, decoded result)

# Chunks sent to the pool per worker before a result is taken: enough that a worker never
# waits for this process, few enough that results do not pile up here. In the debugger this
# thread shares the interpreter with the screen, and waits while a batch is drawn: with 4 a
# worker ran dry meanwhile (100,000 records beside a busy screen thread: 8.3-10.7 s against
# 4.5-6.8 s with 16; 32 and 64 gained nothing more).
IN_FLIGHT_PER_WORKER = 16


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
        for chunk in chunks:
            yield decode(work(chunk))
        return
    if not can_fork():
        yield from pooled(work, decode, chunks, cores, ordered=ordered)
        return
    numbered = _forked(work, decode, chunks, cores - 1)
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
            try:
                payload = result if raw else orjson.dumps(result)
            except orjson.JSONEncodeError:  # e.g. an integer beyond 64 bits: the parent
                continue  # redoes a chunk claimed and never delivered
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


def pooled(
    work: Work,
    decode: Decode[Row],
    chunks: Sequence[list[str]],
    cores: int,
    *,
    ordered: bool = False,
) -> Generator[Row, None, None]:
    """``map_chunks`` on the standard library's pool (``new_pool``): the first chunk here,
    then at most a few chunks in flight per worker, so that when this process takes
    results more slowly than the workers make them, the workers wait and results never
    pile up here (a million files' summaries would not fit). A chunk whose worker raised
    or died is done again here. Closing the generator shuts the pool down."""
    if not chunks:
        return
    yield decode(work(chunks[0]))
    if len(chunks) == 1:
        return
    with new_pool(cores) as pool:
        try:
            for index, result in _results(pool, work, chunks, 1, cores, ordered):
                yield decode(result if index >= 0 else work(chunks[~index]))
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def new_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes, forked when that is safe (see ``can_fork``), else
    started by the forkserver. Workers run with the cyclic collector off: they make no
    cycles worth its walks (reference counting frees their chunks)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if can_fork() else "forkserver"
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context(method),
        initializer=gc.disable,
    )


def _results(
    pool: ProcessPoolExecutor,
    work: Work,
    chunks: Sequence[list[str]],
    first: int,
    workers: int,
    ordered: bool,
) -> Iterator[tuple[int, Any]]:
    """(chunk number, result) for chunks ``first`` on; ``(~number, None)`` for a chunk the
    pool failed to do (its worker raised or died), for the caller to redo."""
    from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Future, wait

    window = workers * IN_FLIGHT_PER_WORKER
    upcoming = iter(range(first, len(chunks)))
    in_flight: deque[tuple[int, Future[Any]]] = deque()

    def submit_more() -> None:
        while len(in_flight) < window:
            index = next(upcoming, None)
            if index is None:
                return
            try:
                future = pool.submit(work, chunks[index])
            except BrokenExecutor as exc:  # a worker died: the rest are done here
                future = Future()
                future.set_exception(exc)
            in_flight.append((index, future))

    submit_more()
    while in_flight:
        if ordered:
            done = [in_flight.popleft()]
        else:
            wait([future for _, future in in_flight], return_when=FIRST_COMPLETED)
            done = [pair for pair in in_flight if pair[1].done()]
            for pair in done:
                in_flight.remove(pair)
        submit_more()  # keep the workers busy while this process decodes
        for index, future in done:
            try:
                result = future.result()
            except Exception:  # raised or died in a worker (the pool breaks): redo it here
                yield ~index, None
            else:
                yield index, result
