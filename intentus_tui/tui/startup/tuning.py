"""The debugger's start-up tuning, in one place: one function per knob, and who turns it.

The start of the debugger on a big directory is a race for the first frame, then for the
complete index. What the process itself is told to do differently for that race is here:

- the cyclic garbage collector is off for the start and comes back, with every object
  made so far frozen, once the first frame is out (``pause_collector_for_start``,
  ``resume_collector``: the command line, then the app);
- the scan's process pool is prepared before Textual holds stdio (``prepare_pool``: the
  app, just before it runs);
- the collector is off while the scan fills the list, its young generations collected
  now and then, and what the scan made is frozen at its end: no collection walks the
  100,000 summaries again (``pause_collector_for_scan``, ``collect_young``,
  ``end_of_scan``: the app);
- memory the scan freed goes back to the system once it ends (``release_free_memory``:
  the app, after the scan).

The first rows, read before Textual is imported, are ``first_rows``; the index itself
keeps what is purely its own (its pool choice in ``core.index.parallel``; the collector off
while the command line's scan runs, in ``core.index.directory``).
"""

from __future__ import annotations

import gc
import sys


def pause_collector_for_start() -> None:
    """Turn the cyclic garbage collector off for the start (``cli/open.py``).

    The start (importing Textual and the app, the first frame) allocates much and frees
    little: collections would only walk the same objects again, about 50 ms of it. The app
    turns the collector back on once its first frame is out (``resume_collector``).
    """
    gc.disable()


def collector_paused() -> bool:
    """Whether the collector is off (``pause_collector_for_start``), for the app to turn
    it back on after its first frame."""
    return not gc.isenabled()


def resume_collector(*, freeze: bool = True) -> None:
    """Turn the collector back on; with ``freeze``, every object made so far is frozen
    first: they live as long as the app, and no collection need ever walk them again."""
    if freeze:
        gc.freeze()
    gc.enable()


# Executions from which the index's objects are frozen after the scan: at 10,000 a full
# collection walking them costs ~25 ms, at 100,000 ~250 ms.
FREEZE_AT_EXECUTIONS = 10_000


def collect_young() -> None:
    """Free the cycles made since the last collection (the frames', while the scan runs
    with the collector off): the young generations only, what came since the last."""
    gc.collect(1)


def freeze_long_lived(executions: int) -> bool:
    """Collect the young generations, then freeze every object left, if the index holds
    ``FREEZE_AT_EXECUTIONS`` or more (``end_of_scan``); whether it did. The summaries live
    as long as the app, and a full collection walking them again and again stalled
    whatever key was pressed then (~250 ms at 100,000 executions, a second at 1,000,000).
    The young collection first (a few milliseconds: they hold only what came since the
    last) frees the cycles the frames made meanwhile, which a freeze would keep for good.
    Frozen objects are still freed by their reference counts (summaries hold no cycles);
    only a cycle old enough to be frozen, become garbage later, stays: below the threshold
    that is not worth it.
    """
    if executions < FREEZE_AT_EXECUTIONS:
        return False
    collect_young()
    gc.freeze()
    return True


def pause_collector_for_scan() -> bool:
    """Turn the collector off while the scan fills the list (the app, as the scan starts);
    whether it was on (then ``end_of_scan`` turns it back on).

    Left on, it ran ten thousand young collections during a fill of 1,000,000 rows, 13-19 s
    of a 64-93 s fill: each walks every list made since the last, and each batch makes the
    list's rows anew (a million entries, each entry's object looked at). Off, the app
    collects the young generations every ``YOUNG_COLLECTION_SECONDS`` (``collect_young``)
    and freezes what the scan made at its end."""
    was_on = gc.isenabled()
    gc.disable()
    return was_on


# How often the young generations are collected while the collector is off for the scan:
# each such collection takes 30-40 ms at 1,000,000 rows (those lists again), and after
# every batch (250 of them) they took 8-13 s of a fill. By the clock, not by the rows
# that came: a scan that stalls (a slow disk, a remote root) brings no rows, while the
# frames go on making cycles.
YOUNG_COLLECTION_SECONDS = 5.0


def end_of_scan(executions: int, *, resume: bool) -> None:
    """The scan is over (the app): what it made frozen (``freeze_long_lived``), then, with
    ``resume``, the collector back on (``pause_collector_for_scan`` turned it off)."""
    freeze_long_lived(executions)
    if resume:
        gc.enable()


def prepare_pool() -> None:
    """Before the app runs: what the scan's process pool needs, and cannot get later.

    The index summarizes big directories in a process pool, started from a thread, hence
    with the forkserver method. The forkserver needs multiprocessing's resource tracker,
    whose start passes ``sys.stderr.fileno()`` to it: inside a running Textual app that is
    ``-1`` (Textual captures stdio), which fails with "bad value(s) in fds_to_keep". So the
    tracker starts here, before the app runs; the forkserver itself starts when the scan
    first needs it (a warm open may never), not now: its start (importing the index code,
    once for every worker) would compete with the first frame for the machine.
    """
    import multiprocessing
    from multiprocessing import resource_tracker

    multiprocessing.set_forkserver_preload(
        ["intentus_tui.core.index.directory", "intentus_tui.render.rows"]
    )
    resource_tracker.ensure_running()


def release_free_memory() -> bool:
    """Return the C allocator's free pages to the system (glibc's ``malloc_trim``).

    Freed memory stays resident until the allocator gives it back, which glibc does only
    at the top of its heap. A cold scan of a big directory leaves much of it in the middle:
    each chunk of worker results arrives as one buffer, and batches wait for the list; at
    100,000 files about 60 MB was free yet resident after the scan. Takes ~10 ms. Returns
    whether it could (not on other systems or C libraries).
    """
    if not sys.platform.startswith("linux"):
        return False
    import ctypes  # only here: the start needs none of it

    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return False
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    trim(0)
    return True
