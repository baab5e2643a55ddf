"""Lesson 2's "implement it" exercise: Algorithm 2 (noisy disjoint cells, then sums), written by the
student and checked by ``dplab.check("02.impl", fn)`` (dplab/lab/implement.py)."""

from __future__ import annotations

import numpy as np
from scipy import stats

from dplab.bmi import ANSWERS_FROM_CELLS, bmi_cells, bmi_noise_scale, bmi_slides_table
from dplab.lab import implement
from dplab.lab.exercises import Exercise
from dplab.simulate import bonferroni_confidence

#: the slides' four cells (M < 25, M >= 25, F < 25, F >= 25), a neighbour with one more M < 25, epsilon
CELLS = bmi_cells(bmi_slides_table())
NEIGHBOUR = CELLS + np.array([1.0, 0.0, 0.0, 0.0])
EPSILON = 1.0
CELL_NAMES = ("M < 25", "M >= 25", "F < 25", "F >= 25")
N = implement.PER_SIDE  # a side: with the rng check's calls, 20,000 releases in all


def algorithm_2(cells, epsilon, rng):
    """Algorithm 2: each of the four disjoint cells + Lap(1/epsilon) (parallel composition under
    add/remove), then the four answers (M < 25, all M, F < 25, all F) as sums of noisy cells."""
    if not epsilon > 0:
        raise ValueError(f"epsilon must be > 0, got epsilon={epsilon}")
    noisy = np.asarray(cells, dtype=float) + rng.laplace(0.0, 1.0 / epsilon, size=4)
    return np.array([noisy[0], noisy[0] + noisy[1], noisy[2], noisy[2] + noisy[3]])


def check_algorithm_2(fn) -> tuple[bool, str]:
    """The student's ``fn(cells, epsilon, rng)``: refuses epsilon <= 0, draws from its rng; the noisy
    cells behind its four answers (the answers' inverse of dplab.bmi.ANSWERS_FROM_CELLS) are each
    cell + Lap(Delta/eps) with Delta = 1 (shape, sd, centre, law); an audit of the answer M < 25 on the
    pair certifies no more than epsilon. 17 statistical checks at a family error of 0.001."""
    confidence = bonferroni_confidence(4 * 4 + 1, implement.FAMILY_ERROR)
    b = float(bmi_noise_scale(2, EPSILON))
    to_cells = np.linalg.inv(ANSWERS_FROM_CELLS).T
    drawn = {}

    def law(fn):
        drawn["D"] = implement.releases(fn, (CELLS, EPSILON), N, kind=4)
        noisy = drawn["D"] @ to_cells
        for j, name in enumerate(CELL_NAMES):
            implement.continuous_law(
                noisy[:, j], stats.laplace(CELLS[j], b),
                f"the noisy counts of cell {name} behind your answers",
                scale_hint="is each cell's noise Lap(1/eps)? The cells are disjoint, so each gets the whole "
                           "epsilon (parallel composition)", confidence=confidence,
                shape_hint="is each cell's noise Laplace, and are the totals sums of the noisy cells "
                           "(post-processing) rather than totals with noise of their own?")
        return "the noisy cells behind your answers follow the law"

    def privacy(fn):
        neighbour = implement.releases(fn, (NEIGHBOUR, EPSILON), N, kind=4)
        return implement.audit(drawn["D"][:, 0], neighbour[:, 0], EPSILON,
                               "the answer M < 25 with one student more", confidence=confidence)

    return implement.run(fn, implement.refuses((CELLS, 0.0, np.random.default_rng(0)),
                                               (CELLS, -1.0, np.random.default_rng(0))),
                         implement.uses_rng((CELLS, EPSILON), kind=4), law, privacy)


EXERCISES = [
    Exercise("02.impl", "Implement Algorithm 2: algorithm_2(cells, epsilon, rng) takes the four disjoint "
             "cells (M < 25, M >= 25, F < 25, F >= 25) and returns the four answers (M < 25, all M, F < 25, "
             "all F) under add/remove: each cell plus Laplace noise drawn from rng, then sums. It raises "
             "ValueError when epsilon <= 0. The check calls it 20,000 times, tests the noise of every cell "
             "and audits the privacy of the first answer.",
             lambda: algorithm_2,
             "One person is in exactly one cell: what scale does parallel composition allow each cell? "
             "Then add noisy cells; do not draw new noise for the totals.",
             "Under add/remove one person changes one cell by 1, so the histogram of cells has sensitivity "
             "1 and every cell gets Lap(1/ε) at the whole ε (parallel composition). The totals M and F are "
             "sums of noisy cells: post-processing, free, and their variance is 2 · 2b² = 4/ε².",
             implement=check_algorithm_2),
]
