"""Notebook 4's bench rows: the library targets its lesson depends on, timed (``make bench NB=04``)."""

from __future__ import annotations

import time

import numpy as np

from dplab.lab.timing import median_time


def sparse_vector_rows(seeds: int = 20) -> list[tuple[str, str, str]]:
    """Issue 9's library targets: exact losses, the audit's cost, and its power on Lee-Clifton."""
    import tracemalloc

    from dplab.audit import audit_epsilon
    from dplab.sparse_vector import halting_privacy_losses, output_sampler

    rows = []
    for n in (50, 1000):
        stream = np.linspace(-1.0, 1.0, n)
        t = median_time(lambda s=stream: halting_privacy_losses("above_threshold", s, 0.0, 1.0), repeat=3)
        rows.append((f"exact privacy loss of every output of a {n}-query stream ({n + 1} outputs)",
                     f"{t:.2f} s", "<= 1 s" if n == 50 else "report"))
    d, d_prime = np.zeros(6), np.array([1.0, 1.0, 1.0, 1.0, 1.0, -1.0])
    at = output_sampler("above_threshold", 0.7)
    tracemalloc.start()
    start = time.perf_counter()
    audit_epsilon(at, d, d_prime, n_runs=1_000_000, n_pilot=100_000, rng=0)
    elapsed, peak = time.perf_counter() - start, tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rows.append(("audit, 10^6 runs of AboveThreshold on D and D' (6 queries): time, peak memory",
                 f"{elapsed:.2f} s, {peak / 2**20:.0f} MiB", "<= 10 s, <= 1 GiB"))
    lee_clifton = output_sampler("lee_clifton", 0.7)
    bounds = [audit_epsilon(lee_clifton, d, d_prime, n_runs=2_000_000, n_pilot=200_000, rng=s).epsilon_lower
              for s in range(seeds)]
    rows.append((f"audit power, Lee-Clifton (true 1.2173, claimed 0.7), 2x10^6 runs: bound, share of "
                 f"{seeds} seeds >= 1.15", f"{bounds[0]:.3f}, {np.mean(np.array(bounds) >= 1.15):.0%}",
                 ">= 1.15"))
    return rows


#: the rows ``make bench`` prints for this notebook (each function returns (measure, value, goal) rows)
ROWS = (sparse_vector_rows,)
