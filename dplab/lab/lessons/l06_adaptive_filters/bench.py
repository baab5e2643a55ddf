"""Notebook 6's bench rows: the library targets its lesson depends on, timed (``make bench NB=06``)."""

from __future__ import annotations

from dplab.lab.timing import median_time


def accuracy_first_rows() -> list[tuple[str, str, str]]:
    """Issue 11's target: the lab's version of the paper's experiment, 1,000 counts, all methods, one eps."""
    from dplab.accuracy_first import RELEASE_METHODS, heavy_tailed_counts, release_counts

    counts = heavy_tailed_counts(1000, rng=0)

    def all_methods():
        for method in RELEASE_METHODS:
            release_counts(counts, method, 1.0, 1e-6, 0.1, rng=1)

    t = median_time(all_methods, repeat=3)
    return [(f"the accuracy-first experiment: 1,000 counts, all {len(RELEASE_METHODS)} methods, eps = 1",
             f"{t:.2f} s", "<= 5 s")]


#: the rows ``make bench`` prints for this notebook (each function returns (measure, value, goal) rows)
ROWS = (accuracy_first_rows,)
