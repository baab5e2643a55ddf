"""Notebook 11's MWEM bench row (issue 31's goal), for the lesson to register
(``dplab/lab/lessons/l11_*/bench.py``: ``from dplab.lab.query_release_bench import ROWS``).

MWEM on the YRBSS students over |X| = 2^16 with 10,848 queries (every cell of the 1- and 2-way marginals
over the 16 attributes, every range of height bins and of weight bins with even ends), T = 50, eps = 1:
<= 5 s. The queries are a :class:`dplab.query_release.Workload` (superset sums and prefix sums, no
k x |X| matrix). Time is one run's wall clock, peak memory tracemalloc's in a second run.
"""

from __future__ import annotations

from dplab.lab.timing import time_and_peak

__all__ = ["ROWS", "mwem_rows", "mwem_workload"]


def mwem_workload(bits: int = 16, rounds: int = 50, epsilon: float = 1.0, seed: int = 1
                  ) -> tuple[int, float, float]:
    """MWEM on the b-bit YRBSS universe and :func:`dplab.query_release.yrbss_workload` (range step 2):
    returns (k, max error, mean error) of the released synthetic data, in students."""
    from dplab.query_release import mwem, release_errors, yrbss_histogram, yrbss_workload

    histogram = yrbss_histogram(bits)
    workload = yrbss_workload(bits, range_step=2)
    distribution, _ = mwem(histogram, workload, epsilon, rounds, seed)
    worst, mean = release_errors(workload @ histogram, workload @ (histogram.sum() * distribution))
    return workload.shape[0], worst, mean


def mwem_rows() -> list[tuple[str, str, str]]:
    """(measure, value, goal): MWEM at |X| = 2^16, about 10^4 queries, T = 50."""
    t, peak, (k, worst, mean) = time_and_peak(mwem_workload)
    return [(f"MWEM, YRBSS over |X| = 2^16, {k:,} queries (1-/2-way marginals + 1-D ranges), T = 50, "
             f"eps = 1 (max error {worst:.0f}, mean {mean:.0f} of 12,579 students)",
             f"{t:.1f} s, {peak / 2**20:.0f} MiB", "<= 5 s")]


#: the rows ``make bench`` prints for notebook 11's MWEM (each function returns (measure, value, goal) rows)
ROWS = (mwem_rows,)
