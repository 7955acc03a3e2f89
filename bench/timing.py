"""Timing helpers shared by the benchmark scripts (imported as ``bench.timing``)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def median_s(fn: Callable[[], Any], repeat: int) -> float:
    """The median wall time of ``repeat`` calls of ``fn``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def median_ms(fn: Callable[[], Any], repeat: int) -> float:
    """The same, in milliseconds."""
    return median_s(fn, repeat) * 1000
