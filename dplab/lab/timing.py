"""The bench's one timer: the median of repeated wall-clock runs (noisy machines: never a test)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

__all__ = ["median_time"]


def median_time(fn: Callable[[], object], repeat: int = 7) -> float:
    """Median seconds of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)
