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

from dplab._checks import (
    as_result,
    check_choice,
    check_delta,
    check_epsilon,
    check_positive_int,
    check_probability,
)

__all__ = [
    "advanced_beats_basic_from_k",
    "advanced_composition",
    "advanced_composition_per_step",
    "advanced_composition_seed_max_epsilon",
    "parallel_composition",
    "sequential_composition",
    "subsampling_epsilon",
    "subsampling_slide_claim_fails_above",
    "subsampling_slide_claim_holds_up_to",
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


def advanced_composition(
    epsilon: float, k: int, delta_prime: float, *, delta: float = 0.0
) -> tuple[float, float]:
    """k-fold adaptive composition of (epsilon, delta)-DP mechanisms (Dwork, Rothblum &
    Vadhan 2010; Dwork & Roth, Theorem 3.20): (eps_total, k delta + delta') with
    eps_total = sqrt(2 k ln(1/delta')) epsilon + k epsilon (e^epsilon - 1)."""
    epsilon = check_epsilon(epsilon)
    k = check_positive_int(k, "k")
    delta_prime = check_delta(delta_prime, "delta_prime", allow_zero=False)
    delta = check_delta(delta)
    total = math.sqrt(2 * k * math.log(1 / delta_prime)) * epsilon + k * epsilon * math.expm1(epsilon)
    return total, min(1.0, k * delta + delta_prime)


def advanced_composition_per_step(
    epsilon_total: float, k: int, delta_prime: float, *, method: str = "exact"
) -> float:
    """The per-step epsilon whose k-fold advanced composition spends ``epsilon_total``.

    ``method="exact"``: the root of advanced_composition(eps, k, delta')[0] = epsilon_total
    (brentq; the left side increases in eps). ``method="seed"``: seed 004's simplification
    eps = epsilon_total / sqrt(8 k ln(1/delta')), stated for epsilon_total <= 1 (refused
    above: see :func:`advanced_composition_seed_max_epsilon` for where it really holds).
    """
    epsilon_total = check_epsilon(epsilon_total, "epsilon_total")
    k = check_positive_int(k, "k")
    delta_prime = check_delta(delta_prime, "delta_prime", allow_zero=False)
    check_choice(method, ("exact", "seed"), "method")
    log_inv = math.log(1 / delta_prime)
    if method == "seed":
        if epsilon_total > 1:
            raise ValueError("seed 004's per-step epsilon is stated for a total epsilon <= 1, got "
                             f"epsilon_total={epsilon_total!r}; use method='exact'")
        return epsilon_total / math.sqrt(8 * k * log_inv)

    def excess(eps: float) -> float:
        return math.sqrt(2 * k * log_inv) * eps + k * eps * math.expm1(eps) - epsilon_total

    hi = epsilon_total
    while excess(hi) < 0:  # excess increases from -epsilon_total at 0: grow the bracket
        hi *= 2
    return optimize.brentq(excess, 0.0, hi, xtol=1e-15, rtol=1e-14)


def advanced_composition_seed_max_epsilon(k: int, delta_prime: float) -> float:
    """The largest total epsilon for which seed 004's split eps' = epsilon / sqrt(8 k L),
    L = ln(1/delta'), still composes to at most epsilon by advanced composition.

    The first term of advanced composition is then exactly epsilon/2; the second,
    k eps' (e^eps' - 1), stays <= epsilon/2 iff e^eps' <= 1 + sqrt(2 L / k), i.e.
    epsilon <= sqrt(8 k L) ln(1 + sqrt(2 L / k)). It increases with k towards 4 L (about 19
    at k = 1 and 33 at k = 10 for delta' = 1e-6): "epsilon <= 1" is sufficient, not necessary.
    """
    k = check_positive_int(k, "k")
    log_inv = math.log(1 / check_delta(delta_prime, "delta_prime", allow_zero=False))
    return math.sqrt(8 * k * log_inv) * math.log1p(math.sqrt(2 * log_inv / k))


def advanced_beats_basic_from_k(epsilon_total: float, delta_prime: float, k_max: int = 100_000) -> int:
    """The smallest k at which the exact advanced-composition per-step epsilon exceeds the
    basic (pure) epsilon_total / k, so (epsilon, delta') buys less noise per query."""
    epsilon_total = check_epsilon(epsilon_total, "epsilon_total")
    for k in range(1, check_positive_int(k_max, "k_max") + 1):
        if advanced_composition_per_step(epsilon_total, k, delta_prime) > epsilon_total / k:
            return k
    raise ValueError(f"advanced composition does not beat basic composition up to k_max={k_max}")


def subsampling_slide_claim_holds_up_to() -> float:
    """The largest epsilon at which 2 p epsilon >= ln(1 + p (e^epsilon - 1)) for every p.

    As p -> 0 the exact value is p (e^epsilon - 1) + O(p^2), so the claim needs
    e^epsilon - 1 <= 2 epsilon: the root of e^eps - 1 - 2 eps, about 1.2564. For a given
    p < 1/2 it holds further, up to :func:`subsampling_slide_claim_fails_above` (p); for
    p >= 1/2 it holds for every epsilon.
    """
    return optimize.brentq(lambda e: math.expm1(e) - 2 * e, 0.5, 2.0, xtol=1e-14)
