"""Summaries made while a remote root's files land in its local mirror, so that the
index overlaps the copy instead of following it.

A first sync copies every file; the command line then indexes the mirror. Started after
the copy, that index read and summarized 10,000 files again: the last 0.4 s of a 1.0 s
open over SSH, with the files still in the page cache. ``Landing`` is the sync's
``on_file``: the paths are sent to a process pool a chunk at a time as they land, and
``finish`` returns what the workers made. ``DirectoryIndex(landed=...)`` takes each of
them whose file is unchanged since (same stamp) and reads only the rest.

The pool is started (forked) at once, before the sync connects: the SSH client runs its
event loop on a thread of its own, and forking once that thread lives would copy its
locks.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from intentus_tui.core.index.parallel import new_pool
from intentus_tui.core.index.scan import Built, RowFormat, rebuild_chunk, summarize_chunk
from intentus_tui.core.records.load import is_record_name

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

# Paths sent to a worker at once: files land in batches of hundreds (see tar_lane), and a
# chunk this size keeps both workers busy without a round trip per file.
LANDING_CHUNK = 64
WORKER_NICENESS = 10


class Landing:
    """``on_file`` for a sync: each landed file summarized on a worker process (with its
    listing row when ``rows`` is given); ``finish`` returns them by file name."""

    def __init__(self, rows: RowFormat | None = None, workers: int | None = None) -> None:
        self._work: Callable[[list[str]], Any] = partial(summarize_chunk, rows=rows)
        self._waiting: list[str] = []
        self._futures: list[Future[Any]] = []
        # Niced: the copy (this process's event loop, the server's tar and sshd) comes
        # first, and the workers take the time it leaves.
        self._pool: ProcessPoolExecutor | None = new_pool(
            workers or os.cpu_count() or 1, niceness=WORKER_NICENESS
        )
        # The first submission starts every worker (a forked pool starts them all at
        # once): now, while this process has one thread.
        self._futures.append(self._pool.submit(self._work, []))

    def __call__(self, path: str) -> None:
        """A file landed (its mirror path): a record is summarized once a chunk is full
        (a write-ahead log is read by the index, with the others of its directory)."""
        if not is_record_name(path.rpartition(os.sep)[2]):
            return
        self._waiting.append(path)
        if len(self._waiting) >= LANDING_CHUNK:
            self._send()

    def _send(self) -> None:
        chunk, self._waiting = self._waiting, []
        if chunk and self._pool is not None:
            self._futures.append(self._pool.submit(self._work, chunk))

    def finish(self) -> dict[str, Built]:
        """Every landed file's (stamp as read, summary, row), by file name; the pool is
        shut down. A chunk its worker failed to do is left out: the index reads it."""
        self._send()
        made: dict[str, Built] = {}
        for future in self._futures:
            try:
                result = future.result()
            except Exception:  # a worker died or raised: the index reads these itself
                continue
            for built in rebuild_chunk(result):
                made[built[1].key] = built
        self.close()
        return made

    def close(self) -> None:
        pool, self._pool = self._pool, None
        self._futures = []
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
