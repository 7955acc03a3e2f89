"""Giving memory the process no longer uses back to the system."""

from __future__ import annotations

import ctypes
import sys


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
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return False
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    trim(0)
    return True
