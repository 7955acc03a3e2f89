"""Run one per-chunk function over many chunks on every core, yielding results in batches.

The standard library's ``concurrent.futures.ProcessPoolExecutor`` does the work. Around it:

- the first chunk is done in this process before the pool starts, so the first rows are
  ready in milliseconds (a pool's start costs more than one chunk);
- workers are started with ``fork`` when that is safe (no other thread alive, as on the
  command line: nothing to import again), else with ``forkserver`` (the debugger, where
  forking would copy locks held by its threads; ``tui/startup`` preloads the index code
  into the forkserver and starts its resource tracker before Textual holds stdio);
- only a few chunks are in flight at a time: when this process takes results more slowly
  than the workers make them, the workers wait, and results never pile up here (a
  million files' summaries would not fit);
- a chunk whose worker raised or died is done again here: a bad file or a killed worker
  never loses rows.

A fork-and-pipe pool written by hand did this before (kept as the baseline in
``bench/handwritten_pool.py``). On the real workload the library's pool was faster:
``python bench/bench_pool.py --count 20000 --runs 5`` (2 cores, a busy machine), medians,
stdlib / hand-written: scan 0.77 and listing 0.82 with the native helpers, 0.89 and 0.74
in pure Python.
"""

from __future__ import annotations

import gc
import os
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # imported when a pool is needed: ~13 ms that most starts can skip
    from concurrent.futures import Future, ProcessPoolExecutor

Row = TypeVar("Row")
Work = Callable[[list[str]], Any]  # a chunk's result: anything that pickles
Decode = Callable[[Any], Row]

# Chunks sent to the pool per worker before a result is taken: enough that a worker never
# waits for this process, few enough that results do not pile up here.
IN_FLIGHT_PER_WORKER = 4


def map_chunks(
    work: Work,
    decode: Decode[Row],
    chunks: Sequence[list[str]],
    cores: int,
    *,
    ordered: bool = False,
) -> Generator[Row, None, None]:
    """``decode(work(chunk))`` for every chunk on ``cores`` cores: as each is ready, or in
    the chunks' order with ``ordered``. A consumer that stops early leaves no worker
    behind (closing the generator shuts the pool down)."""
    if cores <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield decode(work(chunk))
        return
    yield decode(work(chunks[0]))
    with new_pool(cores) as pool:
        try:
            for index, result in _results(pool, work, chunks, 1, cores, ordered):
                yield decode(result if index >= 0 else work(chunks[~index]))
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def can_fork() -> bool:
    """Forking is safe here: the system has it and no other thread holds locks to copy."""
    return hasattr(os, "fork") and threading.active_count() == 1


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
