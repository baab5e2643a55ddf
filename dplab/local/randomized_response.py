"""Randomized response in the local model: each person randomizes their own answer, the server
only ever sees the reports, and debiases their mean (notebook 10, section 1).

The randomizer is :class:`dplab.mechanisms.RandomizedResponse` (binary, K = 2): the truth with
probability p = e^eps / (1 + e^eps), the other answer with probability q = 1 - p = 1 / (1 + e^eps)
(Warner 1965, "Randomized response: a survey technique for eliminating evasive answer bias",
JASA 60(309)). This module adds what the server does with the reports (the unbiased estimate of
the share and its variance) and the price of trusting no one: the error of the local estimate of a
count grows as sqrt(n)/eps, where a trusted curator adding Laplace(1/eps) noise to the count has
error of order 1/eps, whatever n.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import as_result, check_epsilon, check_positive_int
from dplab.mechanisms.laplace import laplace_mse
from dplab.mechanisms.randomized_response import RandomizedResponse

__all__ = [
    "central_count_rmse",
    "local_central_gap",
    "local_count_rmse",
    "randomized_response",
    "rr_estimate",
    "rr_variance",
]


def _bits(bits: ArrayLike, name: str) -> np.ndarray:
    b = np.asarray(bits)
    if b.size == 0:
        raise ValueError(f"{name} must be a non-empty array of 0/1 answers, got {name}={bits!r}")
    if b.dtype == bool:
        return b.astype(np.int64)
    if not np.issubdtype(b.dtype, np.integer) or np.any((b != 0) & (b != 1)):
        bad = b.ravel()[0] if not np.issubdtype(b.dtype, np.integer) else b[(b != 0) & (b != 1)].ravel()[0]
        raise ValueError(f"{name} must hold 0/1 (or bool) answers, got {name} with the value {bad!r}")
    return b


def randomized_response(bits: ArrayLike, epsilon: float,
                        rng: np.random.Generator | int | None = None) -> np.ndarray:
    """Each 0/1 answer of ``bits`` randomized on its own: kept with probability
    p = e^eps / (1 + e^eps), flipped otherwise (Warner 1965). A thin call on
    ``RandomizedResponse(epsilon).sample(bits, rng)``: the lab has one randomized response.
    Returns the reports as an int array of the shape of ``bits``."""
    b = _bits(bits, "bits")
    return np.asarray(RandomizedResponse(epsilon).sample(b, rng))


def rr_estimate(reports: ArrayLike, epsilon: float) -> float:
    """The unbiased estimate of the share of 1s from randomized-response reports:
    pi_hat = (mean(reports) - q) / (p - q), p = e^eps/(1 + e^eps), q = 1 - p
    (Warner 1965, eq. 5; E[mean] = q + (p - q) pi). It can leave [0, 1]: clipping it would bias it."""
    r = _bits(reports, "reports")
    mech = RandomizedResponse(epsilon)
    p, q = mech.keep, mech.flip
    return float((r.mean() - q) / (p - q))


def rr_variance(share: ArrayLike, epsilon: ArrayLike, n: int) -> float | np.ndarray:
    """Var[pi_hat] of :func:`rr_estimate` over the randomization, for n people of whom a fixed
    share has answer 1: Wang, Blocki, Li & Jha (USENIX Security 2017, the variance of a pure
    protocol, their Theorem 2, with k-RR at d = 2):
    Var = [q(1 - q)/(p - q)^2 + f (1 - p - q)/(p - q)] / n = e^eps / (n (e^eps - 1)^2): with two
    answers p + q = 1, so the share's term vanishes (every person's report has variance pq).
    (Were the n people themselves drawn at random, add the sampling variance share (1 - share) / n.)"""
    f = np.asarray(share, dtype=float)
    if f.size == 0 or np.any(~((f >= 0) & (f <= 1))):
        raise ValueError(f"share must lie in [0, 1], got share={share!r}")
    eps = np.asarray(check_epsilon(epsilon, array_ok=True), dtype=float)
    n = check_positive_int(n, "n")
    p = 1 / (1 + np.exp(-eps))
    q = 1 - p
    return as_result(q * (1 - q) / (p - q) ** 2 / n + f * (1 - p - q) / (p - q) / n)


def local_count_rmse(epsilon: ArrayLike, n: int) -> float | np.ndarray:
    """The root mean squared error of the count n * pi_hat estimated from n randomized-response
    reports: n sqrt(rr_variance) = sqrt(n e^eps) / (e^eps - 1), of order sqrt(n)/eps for small eps."""
    n = check_positive_int(n, "n")
    return as_result(n * np.sqrt(np.asarray(rr_variance(0.0, epsilon, n))))


def central_count_rmse(epsilon: ArrayLike) -> float | np.ndarray:
    """The root mean squared error of a count released by a trusted curator with the Laplace
    mechanism (sensitivity 1): sqrt(laplace_mse(1, eps)) = sqrt(2)/eps, whatever n."""
    return as_result(np.sqrt(np.asarray(laplace_mse(1.0, epsilon))))


def local_central_gap(epsilon: ArrayLike, n: int) -> float | np.ndarray:
    """How many times larger the local count's error is than the central one at the same eps:
    local_count_rmse / central_count_rmse = eps sqrt(n e^eps / 2) / (e^eps - 1), ~ sqrt(n/2) as
    eps -> 0: the price of the local model grows as sqrt(n)."""
    return as_result(np.asarray(local_count_rmse(epsilon, n)) / np.asarray(central_count_rmse(epsilon)))


