"""The bench's one timer: the median of repeated wall-clock runs (noisy machines: never a test)."""

from __future__ import annotations

import statistics
import time
import tracemalloc
from collections.abc import Callable

__all__ = ["median_time", "time_and_peak"]


def median_time(fn: Callable[[], object], repeat: int = 7) -> float:
    """Median seconds of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def time_and_peak(fn: Callable[[], object]) -> tuple[float, int, object]:
    """(seconds of one call, peak bytes traced by tracemalloc in a second call, the first call's result)."""
    start = time.perf_counter()
    out = fn()
    elapsed = time.perf_counter() - start
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return elapsed, peak, out
