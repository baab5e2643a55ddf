"""Notebook 10's bench rows: the local model's library targets at the issue's sizes, timed, with their peak
memory (``make bench NB=10``). The notebook itself runs smaller sizes."""

from __future__ import annotations

import time
import tracemalloc

import numpy as np

#: the issue's sizes: OLH over d = 1,024 values and heavy hitters over 2^32 ids, both with n = 10^6 users
N, D, EPSILON = 10**6, 1024, float(np.log(3))


def _measured(fn):
    """(seconds, peak traced bytes, result) of one call (numpy's allocations are traced)."""
    tracemalloc.start()
    start = time.perf_counter()
    out = fn()
    elapsed, peak = time.perf_counter() - start, tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return elapsed, peak, out


def local_model_rows() -> list[tuple[str, str, str]]:
    """OLH's reports and aggregation at n = 10^6, d = 1,024 (chunked), and the prefix extension method
    over 2^32 synthetic Zipf ids at n = 10^6 (precision and recall at the theory's threshold)."""
    from dplab import local

    rng = np.random.default_rng(0)
    values = rng.integers(0, D, size=N)
    t, peak, est = _measured(lambda: local.frequency_oracle("olh", values, D, EPSILON, rng))
    error = float(np.sqrt(np.mean((est - np.bincount(values, minlength=D) / N) ** 2)))
    sd = float(np.sqrt(local.frequency_oracle_variance("olh", EPSILON, D, N, 1 / D)))
    rows = [(f"OLH at eps = ln 3: {N:,} users' reports and the {D:,} estimates (RMSE / the theory's sd)",
             f"{t:.1f} s, {peak / 2**30:.2f} GiB ({error / sd:.2f})", "<= 30 s, <= 1 GiB (about 1)")]
    items = local.zipf_items(N, exponent=1.5, rng=np.random.default_rng(1))
    threshold = local.heavy_hitter_threshold(4.0, N)
    t, peak, found = _measured(lambda: local.heavy_hitters(items, 4.0, threshold=threshold, rng=2))
    precision, recall = local.heavy_hitter_precision_recall(found.ids, items, threshold)
    rows.append((f"heavy hitters (prefix extension) over 2^32 ids, {N:,} users, eps = 4, T = {threshold:.4f}"
                 ": precision, recall", f"{t:.1f} s, {peak / 2**30:.2f} GiB ({precision:.2f}, {recall:.2f})",
                 "<= 60 s, <= 1 GiB"))
    return rows


#: the rows ``make bench`` prints for this notebook (each function returns (measure, value, goal) rows)
ROWS = (local_model_rows,)
