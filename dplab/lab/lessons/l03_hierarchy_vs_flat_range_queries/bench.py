"""Notebook 3's bench rows: the library targets its lesson depends on, timed (``make bench NB=03``)."""

from __future__ import annotations

import numpy as np

from dplab.lab.timing import median_time


def range_query_rows() -> list[tuple[str, str, str]]:
    """Notebook 3's scale targets: O(k) inference, O(k) all-range error, vs dense least squares."""
    import tracemalloc

    from dplab.range_queries.errors import all_range_total_error
    from dplab.range_queries.strategies import consistent_tree_estimate, range_strategy

    rows = []
    rng = np.random.default_rng(0)
    for b in (2, 16):
        peaks = {}
        for k in (2**16, 2**20):  # both powers of 2 and of 16: no padding
            s = range_strategy("hierarchy", k, b, include_root=False)
            x = np.zeros(k)
            tracemalloc.start()
            s.reconstruct(s.measure(x, 1.0, rng=rng))
            peaks[k] = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        t = median_time(lambda s=s, x=x: s.reconstruct(s.measure(x, 1.0, rng=rng)), repeat=5)
        rows.append((f"hierarchy b={b} + inference, k = 2^20: measure + reconstruct", f"{t:.3f} s",
                     "<= 1 s"))
        rows.append(("  peak memory / bin at k = 2^16, 2^20 (linear: equal)",
                     f"{peaks[2**16] / 2**16:.0f} B, {peaks[2**20] / 2**20:.0f} B", "linear"))
    errors = rng.normal(size=(100, 2**16))
    t = median_time(lambda: all_range_total_error(errors), repeat=5)
    rows.append(("all-range total error, k = 2^16, 100 trials", f"{t:.3f} s", "<= 2 s"))
    s = range_strategy("hierarchy", 2**10, 2, include_root=False)
    a = s.apply(np.eye(2**10)).T  # dense strategy matrix, measurements x bins
    y = s.measure(np.zeros(2**10), 1.0, rng=rng)
    fast = median_time(lambda: consistent_tree_estimate(y, 2, include_root=False), repeat=7)
    dense = median_time(lambda: np.linalg.lstsq(a, y, rcond=None), repeat=3)
    diff = np.max(np.abs(consistent_tree_estimate(y, 2, include_root=False)
                         - np.linalg.lstsq(a, y, rcond=None)[0]))
    rows.append(("O(k) inference vs dense lstsq, k = 2^10: speed-up", f"{dense / fast:.0f}x "
                 f"(max diff {diff:.1e})", ">= 100x, <= 1e-8"))
    return rows


#: the rows ``make bench`` prints for this notebook (each function returns (measure, value, goal) rows)
ROWS = (range_query_rows,)
