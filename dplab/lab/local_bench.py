"""The local model's bench rows (issue 30's goals), for notebook 10's lesson to register
(``dplab/lab/lessons/l10_*/bench.py``: ``from dplab.lab.local_bench import ROWS``).

OLH over n = 10^6 users and d = 1,024 values, reports and aggregation: <= 30 s, <= 1 GiB; heavy hitters
over 2^32 ids with n = 10^6 users: <= 60 s, <= 1 GiB. Time is one run's wall clock (seconds each:
a median of several would double ``make bench``), peak memory is tracemalloc's (numpy's arrays
included) in a second run.
"""

from __future__ import annotations

import numpy as np

from dplab.lab.timing import time_and_peak

__all__ = ["ROWS", "heavy_hitters_workload", "local_model_rows", "olh_workload"]

N_USERS = 10**6


def olh_workload(n: int = N_USERS, d: int = 1024, epsilon: float = 1.0, seed: int = 1) -> float:
    """n users with Zipf(1.3) values capped at d - 1 (synthetic), their OLH reports sampled and
    aggregated to d estimates; returns the largest error over the d values in units of the formula's
    standard deviation at f = 0 (about 3 to 4 over 1,024 values)."""
    from dplab.local import frequency_oracle, frequency_oracle_variance

    rng = np.random.default_rng(seed)
    values = np.minimum(rng.zipf(1.3, n) - 1, d - 1)
    estimates = frequency_oracle("olh", values, d, epsilon, rng)
    truth = np.bincount(values, minlength=d) / n
    return float(np.max(np.abs(estimates - truth)) / np.sqrt(frequency_oracle_variance("olh", epsilon, d, n)))


def heavy_hitters_workload(n: int = N_USERS, epsilon: float = 2.0, seed: int = 5) -> tuple[float, float]:
    """n synthetic ids (Zipf exponent 1.5 over 2^32 ids), heavy hitters at the theory's threshold by
    the prefix extension method; returns (precision, recall)."""
    from dplab.local import heavy_hitter_precision_recall, heavy_hitter_threshold, heavy_hitters, zipf_items

    items = zipf_items(n, exponent=1.5, domain_bits=32, rng=seed)
    t = heavy_hitter_threshold(epsilon, n)
    found = heavy_hitters(items, epsilon, domain_bits=32, threshold=t, rng=seed + 1)
    return heavy_hitter_precision_recall(found.ids, items, t)


def local_model_rows() -> list[tuple[str, str, str]]:
    """(measure, value, goal) rows: OLH at n = 10^6, d = 1,024 and heavy hitters over 2^32 ids, n = 10^6."""
    t, peak, z = time_and_peak(olh_workload)
    rows = [(f"OLH reports + aggregation, n = 10^6 users, d = 1,024, eps = 1 (max error {z:.1f} sd)",
             f"{t:.1f} s, {peak / 2**20:.0f} MiB", "<= 30 s, <= 1 GiB")]
    t, peak, (precision, recall) = time_and_peak(heavy_hitters_workload)
    rows.append((f"heavy hitters (prefix extension + OLH), 2^32 ids, n = 10^6, eps = 2 "
                 f"(precision {precision:.2f}, recall {recall:.2f})", f"{t:.1f} s, {peak / 2**20:.0f} MiB",
                 "<= 60 s, <= 1 GiB"))
    return rows


#: the rows ``make bench`` prints for notebook 10 (each function returns (measure, value, goal) rows)
ROWS = (local_model_rows,)
