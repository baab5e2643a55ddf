"""Notebook 5's bench rows: the library targets its lesson depends on, timed (``make bench NB=05``)."""

from __future__ import annotations

import numpy as np

from dplab.lab.timing import median_time


def net_mechanism_rows() -> list[tuple[str, str, str]]:
    """Issue 10's library targets: the net of 888,030 databases scored against 256 predicates,
    and the exponential mechanism's sampler."""
    import tracemalloc

    from dplab.mechanisms.exponential import exponential_mechanism
    from dplab.net_mechanism import all_predicates, net_histograms, net_scores, yrbss_universe_histogram

    data, queries = yrbss_universe_histogram(1000, rng=0), all_predicates(8)

    def enumerate_and_score():
        return net_scores(data, queries, net_histograms(8, 20))

    t = median_time(enumerate_and_score, repeat=3)
    tracemalloc.start()
    enumerate_and_score()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    scores = np.random.default_rng(0).normal(size=1000)
    draws = median_time(lambda: exponential_mechanism(scores, 1.0, 1.0, size=10**6, rng=1))
    return [("net: enumerate and score |X| = 8, m = 20 (888,030 databases) x 256 predicates: time, peak",
             f"{t:.2f} s, {peak / 2**20:.0f} MiB", "<= 2.5 s, <= 256 MiB"),
            ("exponential mechanism: 10^6 draws over 10^3 outcomes", f"{draws:.3f} s", "<= 0.2 s")]


#: the rows ``make bench`` prints for this notebook (each function returns (measure, value, goal) rows)
ROWS = (net_mechanism_rows,)
