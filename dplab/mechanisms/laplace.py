"""The Laplace mechanism with its theory beside it.

The sampler and the closed forms for its error (mean squared error, mean absolute
error, tails, the (alpha, beta)-accuracy of k answers) live here together, so the
curve a notebook draws and the noise it simulates come from one place. The theory
functions accept arrays of epsilon (and of k where it appears) to draw a curve
without a Python loop.

:class:`Laplace` is the mechanism as one object: its sampler, its error, and its privacy in
every representation (privacy loss, privacy profile, PLD, trade-off curve, zCDP, Renyi). The
functions below are the closed forms over grids of epsilon that notebooks draw as curves; the
object's methods call them.

Sources: Dwork & Roth, "The Algorithmic Foundations of Differential Privacy"
(2014), Def. 3.3, Fact 3.7, Theorem 3.8; [Roth11] (Roth, Lecture 5), Theorem 3;
[Hu] (Laplace distribution slides); Mironov, "Renyi Differential Privacy" (CSF 2017),
Table II; Koskela, Jalko & Honkela (AISTATS 2020), Section 5; Dong, Roth & Su (JRSS B 2022).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import (
    as_result,
    check_alpha,
    check_beta,
    check_delta,
    check_epsilon,
    check_nonnegative,
    check_positive,
    check_positive_int,
    check_renyi_order,
    check_rng,
    check_sensitivity,
)
from dplab._pld import PrivacyLossDistribution, pld_from_cdf
from dplab.mechanisms._noise import add_noise, noise_shape
from dplab.mechanisms.base import Mechanism

__all__ = [
    "Laplace",
    "laplace_accuracy_k",
    "laplace_accuracy_k_exact",
    "laplace_mae",
    "laplace_mechanism",
    "laplace_mse",
    "laplace_privacy_loss",
    "laplace_scale",
    "laplace_scale_k",
    "laplace_tail_bound",
    "laplace_tail_probability",
]


def laplace_scale(sensitivity: ArrayLike, epsilon: ArrayLike) -> float | np.ndarray:
    """Scale b = Delta / epsilon of the Laplace mechanism (Dwork & Roth, Def. 3.3)."""
    return as_result(check_sensitivity(sensitivity, array_ok=True) / check_epsilon(epsilon, array_ok=True))


def laplace_mechanism(
    value: ArrayLike,
    sensitivity: float,
    epsilon: float,
    *,
    size: int | None = None,
    rng: np.random.Generator | int | None = None,
) -> np.ndarray | float:
    """Release ``value + Lap(Delta/epsilon)`` per coordinate (Dwork & Roth, Def. 3.3).

    epsilon-DP when ``sensitivity`` is the L1 sensitivity of the query. The noise
    is drawn as standard Laplace(1) and scaled, so a fixed seed gives the same
    standard draw for every epsilon. With ``size`` the result has shape
    ``(size,) + numpy.shape(value)`` (independent trials).
    """
    return Laplace(sensitivity, epsilon).sample(value, rng, size=size)


def laplace_mse(sensitivity: ArrayLike, epsilon: ArrayLike) -> float | np.ndarray:
    """E[(M(x) - f(x))^2] = Var Lap(b) = 2 b^2 = 2 (Delta/epsilon)^2 ([Hu])."""
    return as_result(2.0 * np.asarray(laplace_scale(sensitivity, epsilon)) ** 2)


def laplace_mae(sensitivity: ArrayLike, epsilon: ArrayLike) -> float | np.ndarray:
    """E|M(x) - f(x)| = b = Delta/epsilon ([Roth11]: E|Y| = k/epsilon for b = k/epsilon)."""
    return laplace_scale(sensitivity, epsilon)


def laplace_tail_bound(sensitivity: ArrayLike, epsilon: ArrayLike, beta: ArrayLike) -> float | np.ndarray:
    """The t with Pr[|Lap(b)| >= t] = beta exactly: t = (Delta/epsilon) ln(1/beta).

    Dwork & Roth, Fact 3.7; [Roth11]: Pr[|Y| >= t b] = exp(-t).
    """
    b = np.asarray(laplace_scale(sensitivity, epsilon))
    return as_result(b * -np.log(check_beta(beta, array_ok=True)))


def laplace_tail_probability(t: ArrayLike, scale: float) -> float | np.ndarray:
    """Pr[|Lap(b)| >= t] = exp(-t/b) for t >= 0 (the inverse of :func:`laplace_tail_bound`)."""
    t = check_nonnegative(t, "t", array_ok=True)
    return as_result(np.exp(-t / check_positive(scale, "scale")))


def laplace_scale_k(
    sensitivity: float, k: ArrayLike, epsilon: float, delta: float | None = None
) -> float | np.ndarray:
    """Per-query Laplace scale for k queries of sensitivity Delta under one budget.

    Pure epsilon-DP (basic composition): b = k Delta / epsilon.
    (epsilon, delta)-DP ([Roth11], advanced composition with epsilon' =
    epsilon / sqrt(8 k ln(1/delta)), valid for epsilon <= 1):
    b = Delta sqrt(8 k ln(1/delta)) / epsilon.
    """
    sensitivity = check_sensitivity(sensitivity)
    k = check_positive_int(k, "k", array_ok=True)
    epsilon = check_epsilon(epsilon)
    if delta is None:
        return as_result(k * sensitivity / epsilon)
    delta = check_delta(delta, allow_zero=False)
    if epsilon > 1:
        raise ValueError(
            "the (epsilon, delta) form of [Roth11] Theorem 3 simplifies advanced composition "
            f"for epsilon <= 1 only, got epsilon={epsilon!r}"
        )
    return as_result(sensitivity * np.sqrt(8 * k * np.log(1 / delta)) / epsilon)


def laplace_accuracy_k(
    sensitivity: float, k: ArrayLike, epsilon: float, beta: float, delta: float | None = None
) -> float | np.ndarray:
    """alpha such that k Laplace answers are all within alpha w.p. >= 1 - beta.

    [Roth11] Theorem 3 (a union bound over the k tails):
    pure epsilon-DP:        alpha = Delta (k/epsilon) ln(k/beta);
    (epsilon, delta)-DP:    alpha = Delta (sqrt(8 k ln(1/delta))/epsilon) ln(k/beta),
    the latter only for epsilon <= 1; it beats the pure form when k > 8 ln(1/delta).
    """
    b = laplace_scale_k(sensitivity, k, epsilon, delta)
    beta = check_beta(beta)
    return as_result(b * np.log(check_positive_int(k, "k", array_ok=True) / beta))


def laplace_accuracy_k_exact(
    sensitivity: float, k: ArrayLike, epsilon: float, beta: float, delta: float | None = None
) -> float | np.ndarray:
    """The exact alpha with Pr[max_i |Lap_i(b)| > alpha] = beta for k independent answers.

    The k errors are independent, so Pr[all within alpha] = (1 - e^{-alpha/b})^k;
    setting it to 1 - beta gives alpha = -b ln(1 - (1 - beta)^{1/k}), with b from
    :func:`laplace_scale_k`. Smaller than :func:`laplace_accuracy_k`, whose union
    bound over the k tails it makes exact.
    """
    b = laplace_scale_k(sensitivity, k, epsilon, delta)
    beta = check_beta(beta)
    k = check_positive_int(k, "k", array_ok=True)
    return as_result(-b * np.log(-np.expm1(np.log1p(-beta) / k)))


def laplace_privacy_loss(
    z: ArrayLike, value: ArrayLike, neighbour_value: ArrayLike, sensitivity: float, epsilon: float
) -> float | np.ndarray:
    """ln p_x(z) / p_y(z) for the Laplace mechanism with f(x) = ``value``, f(y) =
    ``neighbour_value`` (k coordinates on the last axis), at outputs z:

    (epsilon / Delta) sum_i (|f(y)_i - z_i| - |f(x)_i - z_i|)
      <= (epsilon / Delta) ||f(x) - f(y)||_1 <= epsilon   (triangle inequality),

    the proof that the Laplace mechanism is epsilon-DP ([Hu]; Dwork & Roth, Thm 3.6).
    """
    b = laplace_scale(check_sensitivity(sensitivity), check_epsilon(epsilon))
    z = np.asarray(z, dtype=float)
    fx, fy = np.asarray(value, dtype=float), np.asarray(neighbour_value, dtype=float)
    return as_result(np.sum(np.abs(fy - z) - np.abs(fx - z), axis=-1) / b)


@dataclass(frozen=True)
class Laplace(Mechanism):
    """The Laplace mechanism: ``value + Lap(b)`` per coordinate with b = Delta / epsilon, for a
    query of L1 sensitivity Delta; epsilon-DP (Dwork & Roth, Def. 3.3 and Theorem 3.6). The second
    argument is epsilon, not the scale (:meth:`from_scale` takes a scale)."""

    sensitivity: float
    epsilon: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "sensitivity", check_sensitivity(self.sensitivity))
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon))

    @classmethod
    def for_rmse(cls, sensitivity: float, rmse: float) -> Laplace:
        """The Laplace mechanism whose root-mean-square error is ``rmse``: 2 (Delta/eps)^2 = rmse^2,
        so eps = sqrt(2) Delta / rmse."""
        return cls(sensitivity, math.sqrt(2) * check_sensitivity(sensitivity) / check_positive(rmse, "rmse"))

    @classmethod
    def from_scale(cls, scale: float, sensitivity: float = 1.0) -> Laplace:
        """The Laplace mechanism with noise scale b (as dp-accounting's LaplaceDpEvent and OpenDP
        take it): epsilon = Delta / b. Laplace(1, 10) is epsilon = 10, not scale 10."""
        return cls(sensitivity, check_sensitivity(sensitivity) / check_positive(scale, "scale"))

    @property
    def scale(self) -> float:
        """b = Delta / epsilon."""
        return self.sensitivity / self.epsilon

    def sample(self, value: ArrayLike, rng: np.random.Generator | int | None = None, *,
               size: int | None = None) -> np.ndarray | float:
        """``value + b * Lap(1)`` per coordinate (the standard draw scaled, so one seed gives the
        same draw for every epsilon); with ``size``, shape ``(size,) + numpy.shape(value)``."""
        rng = check_rng(rng)
        return add_noise(value, self.scale * rng.laplace(0.0, 1.0, size=noise_shape(value, size)))

    def mse(self) -> float:
        """2 b^2 ([Hu])."""
        return laplace_mse(self.sensitivity, self.epsilon)

    def mae(self) -> float:
        """b."""
        return laplace_mae(self.sensitivity, self.epsilon)

    def tail_bound(self, beta: ArrayLike) -> float | np.ndarray:
        """The t with Pr[|error| >= t] = beta: b ln(1/beta) (Dwork & Roth, Fact 3.7)."""
        return laplace_tail_bound(self.sensitivity, self.epsilon, beta)

    def tail_probability(self, t: ArrayLike) -> float | np.ndarray:
        """Pr[|error| >= t] = exp(-t/b)."""
        return laplace_tail_probability(t, self.scale)

    def privacy_loss(self, z: ArrayLike, value: ArrayLike, neighbour_value: ArrayLike) -> float | np.ndarray:
        """ln p_x(z)/p_y(z) at outputs z for f(x) = ``value``, f(y) = ``neighbour_value``: see
        :func:`laplace_privacy_loss`."""
        return laplace_privacy_loss(z, value, neighbour_value, self.sensitivity, self.epsilon)

    def epsilon_delta(self) -> tuple[float, float]:
        """(epsilon, 0): pure epsilon-DP."""
        return self.epsilon, 0.0

    def delta(self, epsilon: ArrayLike) -> float | np.ndarray:
        """The privacy profile of Lap(0, b) against Lap(Delta, b): delta(e) = 1 - e^((e - eps)/2)
        for 0 <= e <= eps, 0 above (the hockey-stick divergence integrated over the loss's law
        below; it reaches 0 at e = eps, pure DP)."""
        e = check_nonnegative(epsilon, "epsilon", array_ok=True)
        return as_result(np.maximum(0.0, -np.expm1((np.asarray(e) - self.epsilon) / 2)) + 0.0)  # no -0.0

    def pld(self, *, step: float = 1e-4, pessimistic: bool = True) -> PrivacyLossDistribution:
        """The PLD of Lap(0, b) against Lap(Delta, b): L = eps with probability 1/2 (outputs
        below 0), -eps with probability e^-eps / 2 (outputs above Delta), and eps - 2y/b in
        between, so P(L <= l) = e^(-(eps - l)/2) / 2 for -eps <= l < eps (Koskela, Jalko &
        Honkela 2020, Section 5); KL = eps + e^-eps - 1."""
        eps = self.epsilon
        step = check_positive(step, "step")

        def cdf(x):
            return np.where(x < -eps, 0.0, np.where(x >= eps, 1.0, np.exp(-(eps - x) / 2) / 2))

        def cdf_left(x):
            return np.where(x <= -eps, 0.0, np.where(x > eps, 1.0, np.exp(-(eps - x) / 2) / 2))

        return pld_from_cdf(cdf, cdf_left, -eps, eps, step, pessimistic, kl=eps + math.expm1(-eps))

    def tradeoff(self, alpha: ArrayLike) -> float | np.ndarray:
        """The trade-off function of Lap(0, b) against Lap(Delta, b): the best test says D' above a
        threshold, f(alpha) = F(F^-1(1 - alpha) - eps), F the standard Laplace CDF. In closed form
        (Dong, Roth & Su 2022): 1 - e^eps alpha for alpha < e^-eps / 2, e^-eps / (4 alpha) up to
        alpha = 1/2, e^-eps (1 - alpha) above. The outer pieces are f_{eps, 0}'s: the curve
        touches f_{eps, 0} for alpha <= e^-eps / 2 and alpha >= 1/2, and lies above it between."""
        a = check_alpha(alpha)
        eps = self.epsilon
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            middle = math.exp(-eps) / (4 * a)
            top = 1 - np.exp(eps) * a
        return as_result(np.where(a < math.exp(-eps) / 2, top,
                                  np.where(a <= 0.5, middle, math.exp(-eps) * (1 - a))))

    def zcdp_rho(self) -> float:
        """eps^2 / 2: every eps-DP mechanism is (eps^2/2)-zCDP (Bun & Steinke 2016, Prop. 1.4)."""
        return self.epsilon**2 / 2

    def rdp(self, alpha: ArrayLike) -> float | np.ndarray:
        """The Renyi divergence of order alpha of Lap(0, b) and Lap(Delta, b) (Mironov 2017,
        Table II): 1/(alpha - 1) ln(alpha/(2 alpha - 1) e^((alpha - 1) eps)
                                    + (alpha - 1)/(2 alpha - 1) e^(-alpha eps))."""
        a = np.asarray(check_renyi_order(alpha), dtype=float)
        eps = self.epsilon
        log_sum = np.logaddexp(np.log(a / (2 * a - 1)) + (a - 1) * eps,
                               np.log((a - 1) / (2 * a - 1)) - a * eps)
        return as_result(log_sum / (a - 1))
