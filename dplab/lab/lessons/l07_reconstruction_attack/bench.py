"""Notebook 7's bench rows: the library targets its lesson depends on, timed (``make bench NB=07``)."""

from __future__ import annotations

import numpy as np

from dplab.lab.timing import median_time


def reconstruction_rows() -> list[tuple[str, str, str]]:
    """Issue 13's targets: least squares at n = 1,000 bits, L1 decoding at n = 300."""
    from dplab.reconstruction import answer_queries, least_squares_attack, lp_attack, subset_queries

    rng = np.random.default_rng(0)
    rows = []
    cases = (((1000, 2000), least_squares_attack, "<= 1 s"), ((300, 600), lp_attack, "<= 5 s"))
    for (n, m), attack, goal in cases:
        a = subset_queries(m, n, rng=rng)
        x = rng.integers(0, 2, n)
        y = answer_queries(a, x, scale=0.25 * np.sqrt(n), rng=rng)
        t = median_time(lambda a=a, y=y, attack=attack: attack(a, y), repeat=3)
        share = np.mean(attack(a, y) == x)
        rows.append((f"{attack.__name__}, n = {n} bits, m = {m} queries (E = sqrt(n)/4: {share:.1%} right)",
                     f"{t:.2f} s", goal))
    return rows


def hadamard_rows() -> list[tuple[str, str, str]]:
    """Issue 28's target: the Fourier (Hadamard) attack at n = 2^16 (the notebook's cell) and 2^20 bits,
    answers and decoding, no n x n matrix."""
    from dplab.hadamard_attack import hadamard_answers, hadamard_attack

    rows = []
    for k, goal in ((16, "<= 0.5 s"), (20, "<= 5 s")):
        n = 2**k
        x = np.random.default_rng(k).integers(0, 2, n)

        def run(x=x, n=n):
            return hadamard_attack(hadamard_answers(x, scale=0.25 * np.sqrt(n), rng=0))

        t = median_time(run, repeat=5)
        share = np.mean(run() == x)
        rows.append((f"hadamard_attack with its answers, n = 2^{k} bits (E = sqrt(n)/4: {share:.1%} right)",
                     f"{t:.3f} s", goal))
    return rows


#: the rows ``make bench`` prints for this notebook (each function returns (measure, value, goal) rows)
ROWS = (reconstruction_rows, hadamard_rows)
