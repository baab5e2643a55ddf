"""Any (epsilon, delta)-DP step, described by its guarantee alone, and the worst mechanism that has it.

An accountant that composes "k steps, each (epsilon, delta)-DP" knows nothing else about
them, so it must assume the worst pair of output distributions such a step can have. Kairouz,
Oh & Viswanath ("The Composition Theorem for Differential Privacy", ICML 2015, Theorem 2.4)
show which one: with probability delta reveal the secret bit outright, otherwise answer by
randomized response at epsilon. Its trade-off curve is f_{epsilon, delta}, the lowest any
(epsilon, delta)-DP mechanism can have, so every accountant's answer for :class:`EpsilonDelta`
holds for every (epsilon, delta)-DP step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import as_result, check_delta, check_epsilon, check_nonnegative, check_positive, check_rng
from dplab._pld import PrivacyLossDistribution, discrete_pld
from dplab._tradeoff import tradeoff_dp
from dplab.mechanisms.base import Mechanism
from dplab.mechanisms.randomized_response import RandomizedResponse

__all__ = ["EpsilonDelta"]


@dataclass(frozen=True, init=False)
class EpsilonDelta(Mechanism):
    """An (epsilon, delta)-DP step known only by its guarantee (delta = 0: pure epsilon-DP).
    Where it needs a mechanism (PLD, trade-off curve, a sample) it is the worst one: the truth
    with probability delta, else randomized response at epsilon (Kairouz, Oh & Viswanath 2015).
    The guarantee's delta is the attribute ``delta_`` (``delta(e)`` is the privacy profile)."""

    epsilon: float
    delta_: float

    def __init__(self, epsilon: float, delta: float = 0.0) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(epsilon))
        object.__setattr__(self, "delta_", check_delta(delta))

    def __repr__(self) -> str:
        return f"EpsilonDelta(epsilon={self.epsilon!r}, delta={self.delta_!r})"

    def extreme_pair(self) -> tuple[np.ndarray, np.ndarray]:
        """The worst pair's output distributions on D and on D', over the outputs (says D
        outright, randomized response says D, randomized response says D', says D' outright)."""
        keep = RandomizedResponse(self.epsilon).keep
        d = self.delta_
        p = np.array([d, (1 - d) * keep, (1 - d) * (1 - keep), 0.0])
        return p, p[::-1].copy()

    def sample(self, secret: int, rng: np.random.Generator | int | None = None, *,
               size: int | None = None) -> np.ndarray | int:
        """Outputs (0-3, as in :meth:`extreme_pair`) of the worst mechanism on a secret bit:
        0 for D, 1 for D'."""
        if secret not in (0, 1):
            raise ValueError(f"secret must be 0 (D) or 1 (D'), got secret={secret!r}")
        return check_rng(rng).choice(4, size, p=self.extreme_pair()[secret])

    def epsilon_delta(self) -> tuple[float, float]:
        """(epsilon, delta)."""
        return self.epsilon, self.delta_

    def delta(self, epsilon: ArrayLike) -> float | np.ndarray:
        """The profile of the worst pair: delta + (1 - delta) (e^eps - e^e)_+ / (1 + e^eps), written as
        (1 - e^(e - eps))_+ / (1 + e^-eps) so that no exponential overflows."""
        e = np.asarray(check_nonnegative(epsilon, "epsilon", array_ok=True), dtype=float)
        rr = np.maximum(0.0, -np.expm1(e - self.epsilon)) / (1 + math.exp(-self.epsilon))
        return as_result(self.delta_ + (1 - self.delta_) * rr)

    def pld(self, *, step: float = 1e-4, pessimistic: bool = True) -> PrivacyLossDistribution:
        """The worst pair's PLD: Pr[L = inf] = delta, then randomized response's +-eps."""
        return discrete_pld(*self.extreme_pair(), step=check_positive(step, "step"), pessimistic=pessimistic)

    def tradeoff(self, alpha: ArrayLike) -> float | np.ndarray:
        """f_{eps, delta}(alpha) = max(0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha))."""
        return tradeoff_dp(alpha, self.epsilon, self.delta_)

    def zcdp_rho(self) -> float | None:
        """eps^2 / 2 for pure eps-DP (Bun & Steinke 2016, Prop. 1.4); None when delta > 0."""
        return self.epsilon**2 / 2 if self.delta_ == 0 else None

    def rdp(self, alpha: ArrayLike) -> float | np.ndarray | None:
        """For pure eps-DP, binary randomized response's Renyi divergence: randomized response
        can be post-processed into any eps-DP pair (its curve is the lowest), so no eps-DP pair
        has a larger divergence. None when delta > 0."""
        return RandomizedResponse(self.epsilon).rdp(alpha) if self.delta_ == 0 else None
