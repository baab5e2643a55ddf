"""Randomized response: the oldest DP mechanism, with its sampler and its theory together.

K-ary randomized response reports a value in {0, ..., K-1}: the truth with probability
p = e^eps / (e^eps + K - 1), otherwise one of the K - 1 other values uniformly (Warner 1965;
K-ary: Kairouz, Oh & Viswanath, "Extremal Mechanisms for Local Differential Privacy", 2016).
The ratio of any output's probabilities under two secrets is at most p / q = e^eps, q =
1 / (e^eps + K - 1): eps-DP. Binary randomized response is the least private eps-DP mechanism:
its trade-off curve is f_{eps, 0} itself, and k-fold composition of it gives the optimal
composition theorem (Kairouz, Oh & Viswanath 2015).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import (
    as_result,
    check_epsilon,
    check_nonnegative,
    check_positive,
    check_positive_int,
    check_renyi_order,
    check_rng,
)
from dplab._pld import PrivacyLossDistribution, discrete_pld
from dplab._tradeoff import tradeoff_discrete
from dplab.mechanisms.base import Mechanism

__all__ = ["RandomizedResponse", "randomized_response_guess"]


def randomized_response_guess(epsilon: float, n_values: int) -> float:
    """How often the attacker who believes the report guesses a secret uniform over K values
    released by K-ary randomized response: the truth probability e^eps / (e^eps + K - 1)
    (epsilon = 0 allowed: 1/K)."""
    eps = check_nonnegative(epsilon, "epsilon")
    k = check_positive_int(n_values, "n_values")
    return 1 / (1 + (k - 1) * math.exp(-eps))


@dataclass(frozen=True)
class RandomizedResponse(Mechanism):
    """K-ary randomized response at epsilon (``k`` values, 2 by default): eps-DP."""

    epsilon: float
    k: int = 2

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon))
        k = check_positive_int(self.k, "k")
        if k < 2:
            raise ValueError(f"k must be an integer >= 2 (values to report), got k={self.k!r}")
        object.__setattr__(self, "k", k)

    @property
    def keep(self) -> float:
        """p = e^eps / (e^eps + K - 1): the probability of reporting the truth."""
        return randomized_response_guess(self.epsilon, self.k)

    @property
    def flip(self) -> float:
        """q = 1 / (e^eps + K - 1): the probability of each other value."""
        return math.exp(self._log_flip())

    def _log_flip(self) -> float:
        """ln q = -ln(e^eps + K - 1), without overflow for large eps."""
        return -float(np.logaddexp(self.epsilon, math.log(self.k - 1)))

    def probabilities(self, value: int) -> np.ndarray:
        """The output distribution when the secret is ``value``: p there, q elsewhere."""
        value = self._value(value)
        out = np.full(self.k, self.flip)
        out[value] = self.keep
        return out

    def _value(self, value: object) -> int:
        v = np.asarray(value)
        if not np.issubdtype(v.dtype, np.integer) or np.any((v < 0) | (v >= self.k)):
            raise ValueError(f"value must be an integer in [0, {self.k}), got value={value!r}")
        return value if v.ndim else int(v)

    def sample(self, value: ArrayLike, rng: np.random.Generator | int | None = None, *,
               size: int | None = None) -> np.ndarray | int:
        """The reports of ``value`` (an int or an array of ints in [0, K)): the truth with
        probability p (one uniform draw each), else a uniform other value (value + 1 + U{0..K-2}
        mod K; for K = 2 the other value, with no second draw).
        With ``size``, shape ``(size,) + numpy.shape(value)``."""
        v = np.asarray(self._value(value))
        rng = check_rng(rng)
        shape = v.shape if size is None else (check_positive_int(size, "size"),) + v.shape
        keep = rng.random(shape) < self.keep
        other = 1 - v if self.k == 2 else (v + 1 + rng.integers(0, self.k - 1, size=shape)) % self.k
        out = np.where(keep, v, other)
        return int(out) if out.ndim == 0 else out

    def privacy_loss(self, output: ArrayLike, value: ArrayLike, neighbour_value: ArrayLike
                     ) -> float | np.ndarray:
        """ln P(output | value) / P(output | neighbour_value) = ln(p/q) = eps at the truth, -eps at the
        neighbour's value, 0 elsewhere (and 0 where value = neighbour_value). For vectors of values
        (k reports on the last axis, as Laplace's coordinates) the k losses add."""
        out, v, w = (np.asarray(x) for x in (output, self._value(value), self._value(neighbour_value)))
        loss = self.epsilon * ((out == v).astype(float) - (out == w))
        return as_result(np.sum(loss, axis=-1) if v.ndim or w.ndim else loss)

    def _pair(self) -> tuple[np.ndarray, np.ndarray]:
        return self.probabilities(0), self.probabilities(1)

    def epsilon_delta(self) -> tuple[float, float]:
        """(epsilon, 0): pure epsilon-DP."""
        return self.epsilon, 0.0

    def delta(self, epsilon: ArrayLike) -> float | np.ndarray:
        """The privacy profile of two secrets: sum over outputs of (P - e^e Q)_+ =
        (e^eps - e^e)_+ / (e^eps + K - 1)."""
        e = np.asarray(check_nonnegative(epsilon, "epsilon", array_ok=True), dtype=float)
        return as_result(np.maximum(0.0, self.keep - np.exp(e) * self.flip))

    def pld(self, *, step: float = 1e-4, pessimistic: bool = True) -> PrivacyLossDistribution:
        """The PLD of two secrets: L = eps with probability p, -eps with probability q, 0 with
        probability (K - 2) q."""
        return discrete_pld(*self._pair(), step=check_positive(step, "step"), pessimistic=pessimistic)

    def tradeoff(self, alpha: ArrayLike) -> float | np.ndarray:
        """The Neyman-Pearson curve of the two output distributions; f_{eps, 0} for K = 2."""
        return tradeoff_discrete(alpha, *self._pair())

    def zcdp_rho(self) -> float:
        """eps^2 / 2 (Bun & Steinke 2016, Prop. 1.4: every eps-DP mechanism)."""
        return self.epsilon**2 / 2

    def rdp(self, alpha: ArrayLike) -> float | np.ndarray:
        """The Renyi divergence of order alpha of the two output distributions:
        1/(alpha - 1) ln(p^alpha q^(1 - alpha) + q^alpha p^(1 - alpha) + (K - 2) q)."""
        a = np.asarray(check_renyi_order(alpha), dtype=float)
        lq = self._log_flip()
        lp = self.epsilon + lq  # p = e^eps q
        terms = [a * lp + (1 - a) * lq, a * lq + (1 - a) * lp]
        if self.k > 2:
            terms.append(np.full_like(a, math.log(self.k - 2) + lq))
        return as_result(np.logaddexp.reduce(np.stack(terms), axis=0) / (a - 1))
