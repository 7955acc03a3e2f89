"""The scan's chunks: what they leave behind."""

from __future__ import annotations

import gc
import os
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from intentus_tui.core.index import scan
from tests.factories import make_record, write_record


class _Cycle:
    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def collector_off() -> Iterator[list[int]]:
    """The cyclic GC off, as in a scan's workers; the generations of each collection."""
    collections: list[int] = []
    here = threading.get_ident()

    def seen(phase: str, info: dict[str, int]) -> None:
        # This thread's collections only: a thread an earlier test left running in this
        # worker may collect too (the callbacks run in the collecting thread).
        if phase == "start" and threading.get_ident() == here:
            collections.append(info["generation"])

    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    gc.callbacks.append(seen)
    try:
        yield collections
    finally:
        gc.callbacks.remove(seen)
        if was_enabled:
            gc.enable()


def test_a_chunk_that_leaves_nothing_costs_no_collection(collector_off: list[int]) -> None:
    kept = [_Cycle() for _ in range(100)]  # a few objects made and kept: no reason
    scan.free_cycles()
    assert collector_off == [] and kept


def test_cycles_left_behind_are_freed_once_they_add_up(collector_off: list[int]) -> None:
    """A damaged file may leave a cycle (an exception and its frames): with the GC off
    nothing frees it, so the chunks' end collects once enough have piled up."""
    probe = _Cycle()
    gone = weakref.ref(probe)
    del probe
    for _ in range(scan._CYCLE_ALLOWANCE):
        _Cycle()  # unreachable at once, but a cycle: only a collection frees it
    assert gone() is not None
    scan.free_cycles()
    assert gone() is None and collector_off == [1]


def test_summaries_made_here_hold_one_string_per_repeated_value(tmp_path: Path) -> None:
    """The scan keeps every summary: those this process makes itself hold an intent, an
    agent or a chain many records repeat as one string, as those a worker sends do (each
    record's parse had made its own: 140 MB at 1,000,000 records)."""
    records = tmp_path / "records"
    for n in range(12):
        agents = (("router-a", "error"), ("backup", "ok")) if n % 2 else (("solo", "ok"),)
        write_record(records, make_record(intent="Summarize", agents=agents))
    names = sorted(p.name for p in records.iterdir())
    (batch,) = scan.summarize_many(os.path.join(records, ""), names, workers=1)
    summaries = [summary for _, summary, _ in batch]
    assert {s.intent for s in summaries} == {"Summarize"}
    assert {s.chain for s in summaries} == {"solo ✓", "router-a ✗ → backup ✓"}
    for field in ("intent", "agent", "strategy", "chain", "final_status"):
        assert len({id(getattr(s, field)) for s in summaries}) <= 2, field


@pytest.mark.parametrize("collector_off", [True, False])
def test_a_scan_turns_the_collector_off_only_when_asked(
    tmp_path: Path, collector_off: bool
) -> None:
    """The command line's scan has the collector off while it runs (it would walk every
    summary kept so far, again and again); a program that runs on meanwhile (the
    debugger) asks it not to: the switch is the whole process's, and everything made
    meanwhile would wait uncollected, then be walked in one go."""
    from intentus_tui.core.index.directory import DirectoryIndex
    from intentus_tui.core.paths import resolve_root

    for _ in range(3):
        write_record(tmp_path, make_record())
    index = DirectoryIndex(resolve_root(tmp_path), use_cache=False, collector_off=collector_off)
    was = gc.isenabled()
    gc.enable()
    try:
        during = [gc.isenabled() for _ in index.scan_batches()]
        after = gc.isenabled()
    finally:
        if not was:
            gc.disable()
    assert during and all(on is not collector_off for on in during)
    assert after


@pytest.mark.parametrize("tidy_home", [True, False])
def test_a_chunk_at_home_frees_cycles_only_when_the_scan_turned_the_collector_off(
    tmp_path: Path, collector_off: list[int], tidy_home: bool
) -> None:
    """The debugger turns the collector off itself and collects now and then: a chunk
    summarized in its process must not collect too (each young collection walks the
    list's rows, a million at 1,000,000 records). A worker process always does."""
    write_record(tmp_path, make_record())
    paths = [str(path) for path in tmp_path.iterdir()]
    for _ in range(scan._CYCLE_ALLOWANCE):
        _Cycle()
    scan.summarize_chunk(paths, home=os.getpid(), tidy_home=tidy_home)
    assert collector_off == ([1] if tidy_home else [])
