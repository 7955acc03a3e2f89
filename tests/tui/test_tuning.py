"""The start-up knobs: the collector off for the start, and memory the debugger no longer
uses goes back to the system."""

from __future__ import annotations

import ctypes
import gc
import sys
import weakref

import pytest

from intentus_tui.tui.startup.tuning import (
    collector_paused,
    pause_collector_for_start,
    release_free_memory,
    resume_collector,
)


def _resident_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _has_malloc_trim() -> bool:
    try:
        ctypes.CDLL(None).malloc_trim  # noqa: B018 (looked up only)
    except (OSError, AttributeError):
        return False
    return True


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or not _has_malloc_trim(), reason="glibc only"
)
def test_freed_memory_in_the_middle_of_the_heap_is_returned() -> None:
    # 100 MB in blocks small enough for the heap (not mmap-ed one by one), every 16th kept:
    # the heap cannot shrink from its top, so the rest stays resident once freed...
    blocks = [bytearray(20_000) for _ in range(5_000)]
    kept = blocks[::16]
    del blocks
    before = _resident_mib()
    assert release_free_memory()
    after = _resident_mib()
    assert before - after > 50, (before, after)  # ... until it is given back
    assert all(len(block) == 20_000 for block in kept)  # what is in use stays


def test_elsewhere_it_is_a_harmless_no(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert release_free_memory() is False


def test_the_collector_is_off_for_the_start_and_back_on_with_the_start_frozen() -> None:
    assert not collector_paused()
    pause_collector_for_start()
    try:
        assert collector_paused() and not gc.isenabled()
        made_during_the_start = [[n] for n in range(10)]
        assert any(obj is made_during_the_start[0] for obj in gc.get_objects())
        resume_collector()
        assert gc.isenabled() and not collector_paused()
        # frozen: never walked again (frozen objects are not among the collector's)
        assert not any(obj is made_during_the_start[0] for obj in gc.get_objects())
    finally:
        gc.unfreeze()
        gc.enable()


def test_a_start_that_fails_resumes_the_collector_without_freezing() -> None:
    pause_collector_for_start()
    try:
        frozen = gc.get_freeze_count()  # what the test process froze after collecting
        resume_collector(freeze=False)
        assert gc.isenabled() and gc.get_freeze_count() == frozen
    finally:
        gc.enable()


def test_a_big_index_is_frozen_after_the_scan_a_small_one_is_not() -> None:
    from intentus_tui.tui.startup.tuning import FREEZE_AT_EXECUTIONS, freeze_long_lived

    frozen = gc.get_freeze_count()
    try:
        kept = [[n] for n in range(1000)]  # tracked objects, made before the freeze
        assert not freeze_long_lived(FREEZE_AT_EXECUTIONS - 1)
        assert gc.get_freeze_count() == frozen
        assert freeze_long_lived(FREEZE_AT_EXECUTIONS)
        assert gc.get_freeze_count() >= frozen + len(kept)
        assert not any(obj is kept[0] for obj in gc.get_objects())  # no collection walks it
    finally:
        gc.unfreeze()


def test_a_freeze_frees_the_young_garbage_first() -> None:
    """Cycles the frames just made are garbage: collected, not frozen for good."""
    from intentus_tui.tui.startup.tuning import FREEZE_AT_EXECUTIONS, freeze_long_lived

    class Cycle:
        def __init__(self) -> None:
            self.me = self

    was = gc.isenabled()
    gc.disable()  # no collection of its own may free it first
    try:
        probe = Cycle()
        gone = weakref.ref(probe)
        del probe
        assert freeze_long_lived(FREEZE_AT_EXECUTIONS)
        assert gone() is None
    finally:
        gc.unfreeze()
        if was:
            gc.enable()


def test_young_collections_free_cycles_while_the_scan_holds_the_collector() -> None:
    from intentus_tui.tui.startup.tuning import collect_young, pause_collector_for_scan

    class Cycle:
        def __init__(self) -> None:
            self.me = self

    was = pause_collector_for_scan()
    try:
        assert not gc.isenabled()
        probe = Cycle()
        gone = weakref.ref(probe)
        del probe
        kept = [Cycle()]
        collect_young()
        assert gone() is None and kept[0].me is kept[0]
        assert not gc.isenabled()  # still off until the scan ends
    finally:
        if was:
            gc.enable()


@pytest.mark.parametrize("resume", [True, False])
def test_the_end_of_a_scan_turns_the_collector_back_on_if_the_scan_turned_it_off(
    resume: bool,
) -> None:
    from intentus_tui.tui.startup.tuning import end_of_scan

    was = gc.isenabled()
    gc.disable()
    try:
        end_of_scan(10, resume=resume)
        assert gc.isenabled() is resume
    finally:
        gc.unfreeze()
        if was:
            gc.enable()
