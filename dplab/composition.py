"""Composition theorems, stability of transformations, amplification by subsampling.

Notebook 2 uses sequential and parallel composition, stability and subsampling;
notebook 6 adds basic, advanced and optimal composition of k copies of one mechanism.
zCDP conversions: ``zcdp.py``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize
from scipy.special import gammaln, logsumexp

from dplab._checks import (
    as_result,
    check_choice,
    check_delta,
    check_epsilon,
    check_nonnegative,
    check_positive_int,
    check_probability,
)

__all__ = [
    "advanced_beats_basic_from_k",
    "advanced_composition",
    "advanced_composition_per_step",
    "advanced_composition_seed_max_epsilon",
    "basic_composition",
    "optimal_composition",
    "optimal_composition_delta",
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
    composition"). Without ``deltas`` every mechanism is pure and delta is 0. Equal
    mechanisms are grouped and each group composed by :func:`basic_composition`.
    """
    eps = [check_epsilon(e, f"epsilons[{i}]") for i, e in enumerate(epsilons)]
    if not eps:
        raise ValueError("epsilons must name at least one mechanism, got epsilons=[]")
    if deltas is None:
        dels = [0.0] * len(eps)
    elif len(deltas) != len(eps):
        raise ValueError(f"deltas must have one entry per epsilon, got {len(deltas)} deltas "
                         f"for {len(eps)} epsilons")
    else:
        dels = [check_delta(d, f"deltas[{i}]") for i, d in enumerate(deltas)]
    groups = [basic_composition(e, k, d) for (e, d), k in Counter(zip(eps, dels, strict=True)).items()]
    return math.fsum(e for e, _ in groups), min(1.0, math.fsum(d for _, d in groups))


def basic_composition(epsilon: float, k: int, delta: float = 0.0) -> tuple[float, float]:
    """k-fold composition of one (epsilon, delta)-DP mechanism: (k epsilon, k delta).

    Dwork & Roth, Theorem 3.16 with k equal mechanisms (delta capped at 1);
    :func:`sequential_composition` for unequal ones.
    """
    epsilon = check_epsilon(epsilon)
    k = check_positive_int(k, "k")
    delta = check_delta(delta)
    return k * epsilon, min(1.0, k * delta)


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

    hi = min(epsilon_total / k, 1.0)
    while excess(hi) < 0:  # excess increases from -epsilon_total at 0: grow the bracket (from below,
        hi *= 2  # so e^eps never overflows: the root is below 10 for any total up to 10^300)
    return optimize.brentq(excess, 0.0, hi, xtol=1e-15, rtol=1e-14)


def _randomized_response_losses(epsilon: float, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k-fold randomized response pair: ln P(l) and the privacy loss (k - 2l) epsilon for
    l = 0..k flipped answers, P(l) = C(k, l) p^(k-l) q^l, p = e^eps / (1 + e^eps), q = 1 - p."""
    flips = np.arange(k + 1)
    log_p = -np.logaddexp(0.0, -epsilon)  # ln(e^eps / (1 + e^eps))
    log_q = -np.logaddexp(0.0, epsilon)  # ln(1 / (1 + e^eps))
    log_binom = gammaln(k + 1) - gammaln(flips + 1) - gammaln(k - flips + 1)
    return log_binom + (k - flips) * log_p + flips * log_q, (k - 2 * flips) * epsilon


def _log_pure_delta(epsilon_total: float, log_weights: np.ndarray, losses: np.ndarray) -> float:
    """ln sum_l P(l) [1 - e^(eps' - (k - 2l) eps)]_+ (-inf when no loss exceeds eps')."""
    active = losses > epsilon_total
    if not active.any():
        return -math.inf
    return float(logsumexp(log_weights[active] + np.log(-np.expm1(epsilon_total - losses[active]))))


def optimal_composition_delta(
    epsilon: float, k: int, epsilon_total: float, *, delta_step: float = 0.0
) -> float:
    """The smallest delta for which every k-fold composition of (epsilon, delta_step)-DP
    mechanisms is (epsilon_total, delta)-DP (Kairouz, Oh & Viswanath, "The Composition Theorem
    for Differential Privacy", ICML 2015 / IEEE Trans. Inf. Theory 2017, Theorem 3.3).

    delta = 1 - (1 - delta_step)^k (1 - delta_pure), delta_pure = sum_{l=0}^{k} C(k, l)
    p^(k-l) q^l [1 - e^(eps' - (k - 2l) eps)]_+ with p = e^eps / (1 + e^eps), q = 1 - p: the
    hockey-stick divergence of k-fold randomized response, the worst pair. At eps' = (k - 2i) eps
    this is the theorem's delta_i; between those points it is the exact continuous curve.
    """
    epsilon = check_epsilon(epsilon)
    k = check_positive_int(k, "k")
    epsilon_total = check_nonnegative(epsilon_total, "epsilon_total")
    delta_step = check_delta(delta_step, "delta_step")
    log_pure = _log_pure_delta(epsilon_total, *_randomized_response_losses(epsilon, k))
    # 1 - (1 - delta_step)^k (1 - delta_pure), in log space
    return float(-np.expm1(k * math.log1p(-delta_step) + math.log1p(-math.exp(log_pure))))


def optimal_composition(epsilon: float, k: int, delta: float, *, delta_step: float = 0.0) -> float:
    """The smallest eps' such that k-fold composition of (epsilon, delta_step)-DP mechanisms is
    (eps', delta)-DP: optimal for the whole class (Kairouz, Oh & Viswanath 2015, Theorem 3.3).

    Solves :func:`optimal_composition_delta` (epsilon, k, eps') = delta for eps' (continuous,
    not only the theorem's grid eps_i = (k - 2i) epsilon): delta_pure(eps') decreases from
    its value at 0 to 0 at k epsilon. Needs delta >= 1 - (1 - delta_step)^k; with
    delta = delta_step = 0 it is k epsilon, and 0 if delta_pure(0) (the total variation
    distance) is already <= the target. Sums in log space: k = 10^4 takes milliseconds.
    """
    epsilon = check_epsilon(epsilon)
    k = check_positive_int(k, "k")
    delta = check_delta(delta)
    delta_step = check_delta(delta_step, "delta_step")
    # the budget left for delta_pure: 1 - (1 - delta) / (1 - delta_step)^k
    target = -math.expm1(math.log1p(-delta) - k * math.log1p(-delta_step))
    if target < 0:
        floor = -math.expm1(k * math.log1p(-delta_step))
        raise ValueError(f"delta must be >= 1 - (1 - delta_step)^k = {floor!r} (the steps' own deltas), "
                         f"got delta={delta!r}, delta_step={delta_step!r}, k={k}")
    if target == 0:
        return k * epsilon
    log_weights, losses = _randomized_response_losses(epsilon, k)
    log_target = math.log(target)

    def excess(eps_total: float) -> float:
        return _log_pure_delta(eps_total, log_weights, losses) - log_target

    if excess(0.0) <= 0:
        return 0.0
    below_top = max(0.0, (k - 2) * epsilon)
    if below_top > 0 and excess(below_top) <= 0:  # decreasing, so the root is in [0, (k - 2) eps]
        return optimize.brentq(excess, 0.0, below_top, xtol=1e-13, rtol=4 * np.finfo(float).eps)
    # above (k - 2) epsilon only l = 0 is active: p^k (1 - e^(eps' - k eps)) = target, explicit
    return k * epsilon + math.log1p(-math.exp(log_target - log_weights[0]))


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
