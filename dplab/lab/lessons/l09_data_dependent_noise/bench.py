"""Notebook 9's bench rows: the library targets its lesson depends on, timed (``make bench NB=09``)."""

from __future__ import annotations

from dplab.lab.timing import median_time


def data_dependent_rows() -> list[tuple[str, str, str]]:
    """Notebook 9's library targets: DAWA's partition + measurement and the median's smooth
    sensitivity."""
    from dplab.datasets import load_yrbss
    from dplab.range_queries.dawa import dawa
    from dplab.range_queries.histograms import synthetic_histogram
    from dplab.smooth_sensitivity import median_smooth_sensitivity, smooth_beta

    heights = load_yrbss()["height_m"]
    rows = []
    for k in (4096, 65536):
        x = synthetic_histogram("zipf", k, rng=1)
        t = median_time(lambda x=x: dawa(x, 1.0, rng=2), repeat=3 if k == 4096 else 1)
        rows.append((f"DAWA partition + identity measurement, k = {k} (zipf shape)", f"{t:.2f} s",
                     "<= 1 s" if k == 4096 else "<= 10 s (printed)"))
    for eps in (1.0, 0.01):
        beta = smooth_beta(eps, 1e-6)
        t = median_time(lambda b=beta: median_smooth_sensitivity(heights, 1.0, 2.2, b), repeat=5)
        rows.append((f"smooth sensitivity of the median, n = {heights.size:,} heights in [1.0, 2.2] m, "
                     f"eps = {eps:g}, delta = 1e-6", f"{t * 1e3:.0f} ms", "<= 0.5 s"))
    return rows


#: the rows ``make bench`` prints for this notebook (each function returns (measure, value, goal) rows)
ROWS = (data_dependent_rows,)
