"""Composition theorems, stability of transformations, amplification by subsampling.

Notebook 2 uses sequential and parallel composition, stability and subsampling;
notebook 6 adds advanced and optimal composition. zCDP conversions: ``zcdp.py``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize

from dplab._checks import as_result, check_delta, check_epsilon, check_positive_int, check_probability

__all__ = [
    "parallel_composition",
    "sequential_composition",
    "subsampling_epsilon",
    "subsampling_slide_claim_fails_above",
    "transformation_epsilon",
]


def sequential_composition(
    epsilons: Sequence[float], deltas: Sequence[float] | None = None
) -> tuple[float, float]:
    """Basic sequential composition: (sum of epsilons, sum of deltas).

    Mechanisms M_1..M_k on the same data, each (epsilon_i, delta_i)-DP, together are
    (sum epsilon_i, sum delta_i)-DP (Dwork & Roth, Theorem 3.16; seed 000, "Sequential
    composition"). Without ``deltas`` every mechanism is pure and delta is 0.
    """
    eps = [check_epsilon(e, f"epsilons[{i}]") for i, e in enumerate(epsilons)]
    if not eps:
        raise ValueError("epsilons must name at least one mechanism, got epsilons=[]")
    if deltas is None:
        return math.fsum(eps), 0.0
    if len(deltas) != len(eps):
        raise ValueError(f"deltas must have one entry per epsilon, got {len(deltas)} deltas "
                         f"for {len(eps)} epsilons")
    dels = [check_delta(d, f"deltas[{i}]") for i, d in enumerate(deltas)]
    return math.fsum(eps), min(1.0, math.fsum(dels))


def parallel_composition(epsilons: Sequence[float]) -> float:
    """Parallel composition: max epsilon over mechanisms run on disjoint parts of the data.

    Holds under add/remove-one neighbours, where one row lives in exactly one part
    (McSherry 2009, Theorem 4; seed 000). Under replace-one, a changed row may leave one
    part and join another: then two parts change and the cost is the sum of the two
    largest epsilons (e.g. a histogram has sensitivity 2).
    """
    eps = [check_epsilon(e, f"epsilons[{i}]") for i, e in enumerate(epsilons)]
    if not eps:
        raise ValueError("epsilons must name at least one mechanism, got epsilons=[]")
    return max(eps)


def transformation_epsilon(epsilon: float, stability: int) -> float:
    """An epsilon-DP mechanism run on V(D), V of stability sigma, is (epsilon * sigma)-DP.

    McSherry 2009, Theorem 2; seed 000, "Transformations & Stability".
    """
    return check_epsilon(epsilon) * check_positive_int(stability, "stability")


def subsampling_epsilon(epsilon: ArrayLike, p: float) -> float | np.ndarray:
    """Exact amplification by Poisson subsampling with rate p: ln(1 + p (e^epsilon - 1)).

    An epsilon-DP mechanism run on a sample that keeps each row independently with
    probability p is this DP under add/remove neighbours (Balle, Barthe & Gaboardi 2018,
    Theorem 8; the seed 000 slide cites Smith's "2 p epsilon", valid only for small eps).
    """
    epsilon = check_epsilon(epsilon, array_ok=True)
    p = check_probability(p)
    return as_result(np.log1p(p * np.expm1(epsilon)))


def subsampling_slide_claim_fails_above(p: float) -> float:
    """The epsilon beyond which the slide's 2 p epsilon is below the exact amplified epsilon.

    For p >= 1/2, 2 p epsilon >= epsilon >= the exact value: never fails (returns inf).
    Otherwise g(eps) = ln(1 + p (e^eps - 1)) - 2 p eps starts negative (g'(0) = -p) and
    has one positive root, found with brentq.
    """
    p = check_probability(p)
    if p >= 0.5:
        return math.inf

    def gap(eps: float) -> float:
        return math.log1p(p * math.expm1(eps)) - 2 * p * eps

    hi = 1.0
    while gap(hi) <= 0:
        hi *= 2
    return optimize.brentq(gap, 1e-9, hi, xtol=1e-12)
