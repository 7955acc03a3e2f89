"""Memory the debugger no longer uses goes back to the system."""

from __future__ import annotations

import ctypes
import sys

import pytest

from intentus_tui.tui.startup.memory import release_free_memory


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
