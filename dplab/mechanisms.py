"""Noise mechanisms with their theory beside them.

Each mechanism's sampler and the closed forms for its error (mean squared error,
mean absolute error, tail bound) and privacy calibration live here together, so
the curve a notebook draws and the noise it simulates come from one place.

Sources: Dwork & Roth, "The Algorithmic Foundations of Differential Privacy"
(2014), Sect. 3.3 and Appendix A; Balle & Wang, "Improving the Gaussian
Mechanism for Differential Privacy" (ICML 2018), Theorem 8; Bun & Steinke,
"Concentrated Differential Privacy" (TCC 2016), Proposition 1.6; seed 004
(Roth, Lecture 5), Theorem 3; seed 003 (Laplace distribution slides).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize, special

from dplab._checks import (
    check_beta,
    check_delta,
    check_epsilon,
    check_positive,
    check_positive_int,
    check_rho,
    check_rng,
    check_sensitivity,
)

__all__ = [
    "gaussian_delta",
    "gaussian_laplace_crossover_k",
    "gaussian_mae",
    "gaussian_mechanism",
    "gaussian_mse",
    "gaussian_sigma",
    "gaussian_sigma_zcdp",
    "gaussian_tail_bound",
    "laplace_accuracy_k",
    "laplace_mae",
    "laplace_mechanism",
    "laplace_mse",
    "laplace_scale",
    "laplace_scale_k",
    "laplace_tail_bound",
]


def _noise_shape(value: ArrayLike, size: int | None) -> tuple[int, ...]:
    shape = np.shape(value)
    if size is None:
        return shape
    return (check_positive_int(size, "size"),) + shape


def _add_noise(value: ArrayLike, noise: np.ndarray) -> np.ndarray | float:
    out = np.asarray(value, dtype=float) + noise
    return float(out) if out.ndim == 0 else out


# ---------------------------------------------------------------- Laplace


def laplace_scale(sensitivity: float, epsilon: float) -> float:
    """Scale b = Delta / epsilon of the Laplace mechanism (Dwork & Roth, Def. 3.3)."""
    return check_sensitivity(sensitivity) / check_epsilon(epsilon)


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
    b = laplace_scale(sensitivity, epsilon)
    rng = check_rng(rng)
    return _add_noise(value, b * rng.laplace(0.0, 1.0, size=_noise_shape(value, size)))


def laplace_mse(sensitivity: float, epsilon: float) -> float:
    """E[(M(x) - f(x))^2] = Var Lap(b) = 2 b^2 = 2 (Delta/epsilon)^2 (seed 003)."""
    return 2.0 * laplace_scale(sensitivity, epsilon) ** 2


def laplace_mae(sensitivity: float, epsilon: float) -> float:
    """E|M(x) - f(x)| = b = Delta/epsilon (seed 004: E|Y| = k/epsilon for b = k/epsilon)."""
    return laplace_scale(sensitivity, epsilon)


def laplace_tail_bound(sensitivity: float, epsilon: float, beta: float) -> float:
    """The t with Pr[|Lap(b)| >= t] = beta exactly: t = (Delta/epsilon) ln(1/beta).

    Dwork & Roth, Fact 3.7; seed 004: Pr[|Y| >= t b] = exp(-t).
    """
    return laplace_scale(sensitivity, epsilon) * math.log(1.0 / check_beta(beta))


def laplace_scale_k(
    sensitivity: float, k: int, epsilon: float, delta: float | None = None
) -> float:
    """Per-query Laplace scale for k queries of sensitivity Delta under one budget.

    Pure epsilon-DP (basic composition): b = k Delta / epsilon.
    (epsilon, delta)-DP (seed 004, advanced composition with epsilon' =
    epsilon / sqrt(8 k ln(1/delta)), valid for epsilon <= 1):
    b = Delta sqrt(8 k ln(1/delta)) / epsilon.
    """
    sensitivity = check_sensitivity(sensitivity)
    k = check_positive_int(k, "k")
    epsilon = check_epsilon(epsilon)
    if delta is None:
        return k * sensitivity / epsilon
    delta = check_delta(delta, allow_zero=False)
    if epsilon > 1:
        raise ValueError(
            "the (epsilon, delta) form of seed 004 Theorem 3 simplifies advanced composition "
            f"for epsilon <= 1 only, got epsilon={epsilon!r}"
        )
    return sensitivity * math.sqrt(8 * k * math.log(1 / delta)) / epsilon


def laplace_accuracy_k(
    sensitivity: float, k: int, epsilon: float, beta: float, delta: float | None = None
) -> float:
    """alpha such that k Laplace answers are all within alpha w.p. >= 1 - beta.

    Seed 004, Theorem 3 (a union bound over the k tails):
    pure epsilon-DP:        alpha = Delta (k/epsilon) ln(k/beta);
    (epsilon, delta)-DP:    alpha = Delta (sqrt(8 k ln(1/delta))/epsilon) ln(k/beta),
    the latter only for epsilon <= 1; it beats the pure form when k > 8 ln(1/delta).
    """
    b = laplace_scale_k(sensitivity, k, epsilon, delta)
    beta = check_beta(beta)
    return b * math.log(k / beta)


# ---------------------------------------------------------------- Gaussian


def gaussian_mechanism(
    value: ArrayLike,
    sigma: float,
    *,
    size: int | None = None,
    rng: np.random.Generator | int | None = None,
) -> np.ndarray | float:
    """Release ``value + N(0, sigma^2)`` per coordinate (Dwork & Roth, Appendix A).

    Its privacy depends on sigma relative to the L2 sensitivity: calibrate sigma with
    :func:`gaussian_sigma` or :func:`gaussian_sigma_zcdp`. Drawn as sigma * N(0, 1).
    """
    sigma = check_positive("sigma", sigma)
    rng = check_rng(rng)
    return _add_noise(value, sigma * rng.standard_normal(size=_noise_shape(value, size)))


def gaussian_mse(sigma: float) -> float:
    """E[(M(x) - f(x))^2] = sigma^2."""
    return check_positive("sigma", sigma) ** 2


def gaussian_mae(sigma: float) -> float:
    """E|M(x) - f(x)| = sigma sqrt(2/pi)."""
    return check_positive("sigma", sigma) * math.sqrt(2 / math.pi)


def gaussian_tail_bound(sigma: float, beta: float) -> float:
    """The t with Pr[|N(0, sigma^2)| >= t] = beta exactly: t = sigma Phi^{-1}(1 - beta/2)."""
    return check_positive("sigma", sigma) * float(special.ndtri(1 - check_beta(beta) / 2))


def gaussian_delta(sigma: float, sensitivity: float, epsilon: float) -> float:
    """Exact delta of the Gaussian mechanism at epsilon (Balle & Wang 2018, Theorem 8).

    delta = Phi(Delta/(2 sigma) - epsilon sigma/Delta)
            - e^epsilon Phi(-Delta/(2 sigma) - epsilon sigma/Delta),
    with the second term evaluated in log space (log Phi) so large epsilon is stable.
    """
    sigma = check_positive("sigma", sigma)
    sensitivity = check_sensitivity(sensitivity)
    epsilon = check_epsilon(epsilon)
    a = sensitivity / (2 * sigma)
    b = epsilon * sigma / sensitivity
    delta = special.ndtr(a - b) - math.exp(epsilon + special.log_ndtr(-a - b))
    return float(max(delta, 0.0))


def gaussian_sigma(
    sensitivity: float, epsilon: float, delta: float, method: str = "analytic"
) -> float:
    """Noise scale sigma that makes the Gaussian mechanism (epsilon, delta)-DP.

    ``method="analytic"`` (default): the smallest sigma with
    :func:`gaussian_delta` (sigma) <= delta, i.e. Balle & Wang 2018, Theorem 8, solved
    by root finding on the exact delta (their Algorithm 1 solves the same equation);
    valid for every epsilon > 0.
    ``method="classical"``: sigma = Delta sqrt(2 ln(1.25/delta)) / epsilon
    (Dwork & Roth, Theorem A.1), proven only for epsilon < 1, so refused otherwise.
    ``sensitivity`` is the L2 sensitivity Delta_2.
    """
    sensitivity = check_sensitivity(sensitivity)
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta, allow_zero=False)
    if method == "classical":
        if epsilon >= 1:
            raise ValueError(
                "the classical Gaussian calibration (Dwork & Roth, Theorem A.1) is proven only "
                f"for epsilon < 1, got epsilon={epsilon!r}; use method='analytic'"
            )
        return sensitivity * math.sqrt(2 * math.log(1.25 / delta)) / epsilon
    if method != "analytic":
        raise ValueError(f"method must be 'analytic' or 'classical', got method={method!r}")

    def excess(log_sigma: float) -> float:
        return gaussian_delta(math.exp(log_sigma), sensitivity, epsilon) - delta

    lo = hi = math.log(sensitivity)
    while excess(hi) > 0:  # delta(sigma) decreases in sigma: grow the bracket
        hi += 1.0
    while excess(lo) < 0:
        lo -= 1.0
    return math.exp(optimize.brentq(excess, lo, hi, xtol=1e-14, rtol=1e-14))


def gaussian_sigma_zcdp(sensitivity: float, rho: float) -> float:
    """sigma = Delta_2 / sqrt(2 rho) makes the Gaussian mechanism rho-zCDP.

    Bun & Steinke 2016, Proposition 1.6: N(0, sigma^2) noise on a query of L2
    sensitivity Delta is (Delta^2 / (2 sigma^2))-zCDP.
    """
    return check_sensitivity(sensitivity) / math.sqrt(2 * check_rho(rho))


def gaussian_laplace_crossover_k(epsilon: float, delta: float) -> int:
    """Smallest k at which the analytic Gaussian beats Laplace per coordinate on k queries.

    k queries of sensitivity Delta each: Laplace pays the L1 sensitivity k Delta
    (MSE 2 (k Delta/epsilon)^2 per coordinate), the Gaussian pays the L2 sensitivity
    sqrt(k) Delta (MSE k sigma_1^2, where sigma_1 = gaussian_sigma(1, epsilon, delta):
    the analytic sigma is linear in Delta). Gaussian < Laplace iff
    k > sigma_1^2 epsilon^2 / 2. Independent of Delta.
    """
    epsilon = check_epsilon(epsilon)
    sigma_1 = gaussian_sigma(1.0, epsilon, delta)
    return math.floor(sigma_1**2 * epsilon**2 / 2) + 1
