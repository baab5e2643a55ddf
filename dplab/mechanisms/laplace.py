"""The Laplace mechanism with its theory beside it.

The sampler and the closed forms for its error (mean squared error, mean absolute
error, tails, the (alpha, beta)-accuracy of k answers) live here together, so the
curve a notebook draws and the noise it simulates come from one place. The theory
functions accept arrays of epsilon (and of k where it appears) to draw a curve
without a Python loop.

Sources: Dwork & Roth, "The Algorithmic Foundations of Differential Privacy"
(2014), Def. 3.3, Fact 3.7, Theorem 3.8; seed 004 (Roth, Lecture 5), Theorem 3;
seed 003 (Laplace distribution slides).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import (
    as_result,
    check_beta,
    check_delta,
    check_epsilon,
    check_nonnegative,
    check_positive,
    check_positive_int,
    check_rng,
    check_sensitivity,
)
from dplab.mechanisms._noise import add_noise, noise_shape

__all__ = [
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
    b = check_sensitivity(sensitivity) / check_epsilon(epsilon)
    rng = check_rng(rng)
    return add_noise(value, b * rng.laplace(0.0, 1.0, size=noise_shape(value, size)))


def laplace_mse(sensitivity: ArrayLike, epsilon: ArrayLike) -> float | np.ndarray:
    """E[(M(x) - f(x))^2] = Var Lap(b) = 2 b^2 = 2 (Delta/epsilon)^2 (seed 003)."""
    return as_result(2.0 * np.asarray(laplace_scale(sensitivity, epsilon)) ** 2)


def laplace_mae(sensitivity: ArrayLike, epsilon: ArrayLike) -> float | np.ndarray:
    """E|M(x) - f(x)| = b = Delta/epsilon (seed 004: E|Y| = k/epsilon for b = k/epsilon)."""
    return laplace_scale(sensitivity, epsilon)


def laplace_tail_bound(sensitivity: ArrayLike, epsilon: ArrayLike, beta: ArrayLike) -> float | np.ndarray:
    """The t with Pr[|Lap(b)| >= t] = beta exactly: t = (Delta/epsilon) ln(1/beta).

    Dwork & Roth, Fact 3.7; seed 004: Pr[|Y| >= t b] = exp(-t).
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
    (epsilon, delta)-DP (seed 004, advanced composition with epsilon' =
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
            "the (epsilon, delta) form of seed 004 Theorem 3 simplifies advanced composition "
            f"for epsilon <= 1 only, got epsilon={epsilon!r}"
        )
    return as_result(sensitivity * np.sqrt(8 * k * np.log(1 / delta)) / epsilon)


def laplace_accuracy_k(
    sensitivity: float, k: ArrayLike, epsilon: float, beta: float, delta: float | None = None
) -> float | np.ndarray:
    """alpha such that k Laplace answers are all within alpha w.p. >= 1 - beta.

    Seed 004, Theorem 3 (a union bound over the k tails):
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

    the proof that the Laplace mechanism is epsilon-DP (seed 003; Dwork & Roth, Thm 3.6).
    """
    b = laplace_scale(check_sensitivity(sensitivity), check_epsilon(epsilon))
    z = np.asarray(z, dtype=float)
    fx, fy = np.asarray(value, dtype=float), np.asarray(neighbour_value, dtype=float)
    return as_result(np.sum(np.abs(fy - z) - np.abs(fx - z), axis=-1) / b)
