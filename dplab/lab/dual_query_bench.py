"""DualQuery's bench row (issue 31's goal), for notebook 11's lesson to register
(``dplab/lab/lessons/l11_*/bench.py``: ``from dplab.lab.dual_query_bench import ROWS``).

DualQuery with the integer-program best response at |X| = 2^30: 10^6 SYNTHETIC records of the block
design (``dplab.query_release.binary_data``: six blocks of five correlated binary attributes), all
1- and 2-way marginal cells (60 + 1,740 = 1,800 conjunctions, 3,600 with their negations), eps = 1,
delta = 1e-6, eta = 1, s = 100 (T = 439 rounds): <= 60 s, <= 1 GiB, where MWEM's weights over X
alone would take 8 GiB. Time is one run's wall clock, peak memory is tracemalloc's (numpy's arrays
included; HiGHS's own memory is not traced) in a second run.
"""

from __future__ import annotations

from dplab.lab.timing import time_and_peak

__all__ = ["ROWS", "dual_query_rows", "dual_query_workload"]

N_RECORDS = 10**6



def dual_query_workload(n: int = N_RECORDS, epsilon: float = 1.0, delta: float = 1e-6, eta: float = 1.0,
                        samples: int = 100, seed: int = 3) -> tuple[int, float, float]:
    """DualQuery (milp best response) on n synthetic block-design records over 30 attributes and
    their 1,800 marginal cells; returns (T, max error, mean error) of the synthetic data."""
    from dplab.query_release import (
        block_binary_records,
        dual_query,
        marginal_conjunctions,
        synthetic_data_error,
    )

    records = block_binary_records(n, rng=seed)
    queries = marginal_conjunctions(records.shape[1])
    result = dual_query(records, queries, epsilon, delta, eta=eta, samples=samples, rng=seed + 1)
    worst, mean = synthetic_data_error(result.records, records, queries)
    return result.rounds, worst, mean


def dual_query_rows() -> list[tuple[str, str, str]]:
    """(measure, value, goal): DualQuery at |X| = 2^30, n = 10^6 synthetic records, 1,800 conjunctions."""
    t, peak, (rounds, worst, mean) = time_and_peak(dual_query_workload)
    return [(f"DualQuery (milp best response), |X| = 2^30, n = 10^6 synthetic records, 1,800 marginal cells, "
             f"eps = 1, delta = 1e-6, T = {rounds} (max error {worst:.3f}, mean {mean:.4f})",
             f"{t:.1f} s, {peak / 2**20:.0f} MiB", "<= 60 s, <= 1 GiB")]


#: the rows ``make bench`` prints for notebook 11 (each function returns (measure, value, goal) rows)
ROWS = (dual_query_rows,)
