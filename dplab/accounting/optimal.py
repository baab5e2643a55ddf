"""Optimal composition (Kairouz, Oh & Viswanath 2015) and its accountant.

The smallest epsilon' such that every k-fold composition of (epsilon, delta)-DP steps is
(epsilon', delta')-DP: the hockey-stick divergence of k-fold randomized response (with the
truth told with probability delta), the worst pair for the whole class. Tight for the class,
so it holds for any such steps and beats advanced composition; a given mechanism (Laplace,
Gaussian) can do better, which its PLD shows (``pld.py``).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import gammaln, logsumexp

from dplab._calibrate import calibrate
from dplab._checks import check_delta, check_epsilon, check_nonnegative, check_positive_int
from dplab.accounting.base import _NEEDS_A_PAIR, Accountant
from dplab.mechanisms.base import Mechanism

__all__ = ["OptimalAccountant", "optimal_composition", "optimal_composition_delta"]


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
        return calibrate(excess, 0.0, 0.0, below_top, xtol=1e-13, rtol=4 * np.finfo(float).eps)
    # above (k - 2) epsilon only l = 0 is active: p^k (1 - e^(eps' - k eps)) = target, explicit
    return k * epsilon + math.log1p(-math.exp(log_target - log_weights[0]))


class OptimalAccountant(Accountant):
    """Optimal composition (KOV, Theorem 3.3) of k identical steps, each with one (epsilon, delta):
    the tightest bound that holds for every such step. Refuses, with a TypeError naming the
    mechanism, a step without one (epsilon, delta) (the Gaussian) and a step unlike those it
    holds (the theorem is for k identical steps; the heterogeneous case is #P-hard, Murtagh &
    Vadhan 2016)."""

    name = "optimal (KOV)"

    def supports(self, mechanism: object) -> bool:
        if not isinstance(mechanism, Mechanism) or mechanism.epsilon_delta() is None:
            return False
        return all(m.epsilon_delta() == mechanism.epsilon_delta() for m in self._steps)

    def _why_not(self, mechanism: Mechanism) -> str:
        if mechanism.epsilon_delta() is None:
            return _NEEDS_A_PAIR.format("optimal")
        held = next(iter(self._steps))
        return (f"optimal composition (Kairouz, Oh & Viswanath) is for k identical steps; it holds steps "
                f"with (epsilon, delta) = {held.epsilon_delta()} ({held!r})")

    def _step(self) -> tuple[float, float, int]:
        (eps, step_delta), = {m.epsilon_delta() for m in self._steps}
        return eps, step_delta, sum(self._steps.values())

    def epsilon(self, delta: float) -> float:
        delta = check_delta(delta)
        if not self._steps:
            return 0.0
        eps, step_delta, k = self._step()
        if -math.expm1(k * math.log1p(-step_delta)) > delta:  # below the steps' own deltas
            return math.inf
        return optimal_composition(eps, k, delta, delta_step=step_delta)

    def delta(self, epsilon: float) -> float:
        epsilon = check_nonnegative(epsilon, "epsilon")
        if not self._steps:
            return 0.0
        eps, step_delta, k = self._step()
        return optimal_composition_delta(eps, k, epsilon, delta_step=step_delta)
