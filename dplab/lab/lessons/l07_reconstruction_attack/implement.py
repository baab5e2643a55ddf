"""Lesson 7's "implement it" exercise: the least-squares reconstruction attack, written by the student
and checked by ``dplab.check("07.impl", fn)`` against dplab.reconstruction (dplab/lab/implement.py)."""

from __future__ import annotations

import numpy as np

from dplab.lab import implement
from dplab.lab.exercises import Exercise
from dplab.reconstruction import answer_queries, least_squares_attack, subset_queries

#: secrets of N_BITS bits, M_QUERIES random subset sums with uniform noise of bound E, INSTANCES of them
N_BITS, M_QUERIES, E, INSTANCES = 32, 128, 2.0, 3


def least_squares_guess(queries, answers):
    """The least-squares attack: z minimizing ||queries z - answers||_2, each entry rounded at 1/2."""
    a, y = np.asarray(queries, dtype=float), np.asarray(answers, dtype=float)
    if y.shape != (a.shape[0],):
        raise ValueError(f"answers must have one entry per query ({a.shape[0]}), got shape {y.shape}")
    z = np.linalg.lstsq(a, y, rcond=None)[0]
    return (z >= 0.5).astype(int)


def check_attack(fn) -> tuple[bool, str]:
    """The student's ``fn(queries, answers)``: refuses answers of the wrong length; on INSTANCES seeded
    secrets it returns bits (0 or 1), the same as dplab.reconstruction.least_squares_attack."""
    rng = np.random.default_rng(implement.SEED)
    cases = []
    for _ in range(INSTANCES):
        bits, queries = rng.integers(0, 2, N_BITS), subset_queries(M_QUERIES, N_BITS, rng=rng)
        cases.append((bits, queries, answer_queries(queries, bits, noise="uniform", scale=E, rng=rng)))

    def guesses(fn):
        for bits, queries, answers in cases:
            given = np.asarray(implement.call(fn, queries, answers))
            if given.shape != (N_BITS,):
                raise implement.Wrong(f"your function returned shape {given.shape} where {N_BITS} bits, "
                                      "one per person, were expected")
            if not np.all((given == 0) | (given == 1)):
                shown = ", ".join(f"{v:.3g}" for v in given[:4])
                raise implement.Wrong(f"your function returned values that are not bits ({shown} ...): round "
                                      "the least-squares estimate at 1/2")
            reference = least_squares_attack(queries, answers)
            if (wrong := int(np.sum(given != reference))) > 0:
                raise implement.Wrong(
                    f"your guess differs from the least-squares one in {wrong} of {N_BITS} bits (it recovers "
                    f"{np.mean(given == bits):.0%} of the secret, least squares "
                    f"{np.mean(reference == bits):.0%}):"
                    " use every query in the fit, and round z at 1/2")
        return f"recovers the same bits as least squares on {INSTANCES} secrets"

    bad = (cases[0][1], cases[0][2][:-1])
    return implement.run(fn, implement.refuses(bad, what="answers of another length than the queries"),
                         guesses)


EXERCISES = [
    Exercise("07.impl", "Implement the least-squares attack: least_squares_guess(queries, answers) takes the "
             "m x n 0/1 matrix of subset queries and the m noisy answers and returns n bits (0 or 1): the "
             "least-squares solution rounded at 1/2. It raises ValueError when the answers do not have one "
             f"entry per query. The check runs it on {INSTANCES} secrets of {N_BITS} bits, {M_QUERIES} "
             f"queries each, answers with uniform noise in [-{E:g}, {E:g}].",
             lambda: least_squares_guess,
             "np.linalg.lstsq(queries, answers, rcond=None)[0] is the real-valued fit; the secret is 0/1.",
             "Solve min_z ||A z - y||₂ over real z (np.linalg.lstsq uses all m queries; with m > n random "
             "subsets A has full column rank) and round: bit i is 1 when z_i ≥ 1/2. The estimate is "
             "x + (AᵀA)⁻¹Aᵀe, so the noise averages out as m grows.",
             implement=check_attack),
]
