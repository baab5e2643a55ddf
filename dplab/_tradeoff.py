"""Trade-off curves that belong to no single mechanism: the curves of (epsilon, delta)-DP and of
mu-GDP themselves, and the Neyman-Pearson curve of any pair of discrete distributions.

An attacker who sees the output of M and must decide between neighbouring databases D and D'
runs a test; its type I error alpha is Pr[it says D' | D], its type II error beta is
Pr[it says D | D']. The trade-off function f(alpha) is the smallest beta any test reaches at
type I error alpha (Wasserman & Zhou 2010; Kairouz, Oh & Viswanath 2015; Dong, Roth & Su,
"Gaussian Differential Privacy", JRSS B 2022). Each mechanism's own curve is its method
``tradeoff(alpha)`` (``dplab.mechanisms``); these three are what those methods and the
attacker's bounds share.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from dplab._checks import as_result, check_alpha, check_delta, check_nonnegative

__all__ = ["tradeoff_discrete", "tradeoff_dp", "tradeoff_gdp"]


def tradeoff_dp(alpha: ArrayLike, epsilon: float, delta: float = 0.0) -> float | np.ndarray:
    """The trade-off function of (epsilon, delta)-DP, the lowest curve any (epsilon, delta)-DP
    mechanism can reach (Kairouz, Oh & Viswanath 2015; Dong, Roth & Su 2022):

        f(alpha) = max(0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)).

    Randomized response (delta = 0) attains it. In this plane delta is where the curve
    meets the axes: 1 - delta at alpha = 0, a tail of outputs that may betray Alice outright,
    not a probability that the guarantee fails as a whole.
    """
    a = check_alpha(alpha)
    eps = check_nonnegative(epsilon, "epsilon")
    delta = check_delta(delta)
    return as_result(np.maximum.reduce([np.zeros_like(a), 1 - delta - math.exp(eps) * a,
                                        math.exp(-eps) * (1 - delta - a)]))


def tradeoff_discrete(alpha: ArrayLike, p: ArrayLike, q: ArrayLike) -> float | np.ndarray:
    """The trade-off function of two distributions p (on D) and q (on D') over the same
    finitely many outputs, by the Neyman-Pearson lemma: say D' on the outputs in decreasing
    order of q/p, randomizing on the last one, so f is the piecewise-linear curve through
    (sum of p, 1 - sum of q) over those prefixes."""
    a = check_alpha(alpha)
    p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
    for name, v in (("p", p), ("q", q)):
        if v.ndim != 1 or v.size == 0 or np.any(v < 0) or not math.isclose(v.sum(), 1, abs_tol=1e-9):
            raise ValueError(f"{name} must be a probability vector, got {name}={v!r}")
    if p.shape != q.shape:
        raise ValueError(f"p and q must have the same length, got {p.size} and {q.size}")
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(p > 0, q / p, np.inf)
    order = np.argsort(-ratio, kind="stable")
    alphas = np.concatenate([[0.0], np.cumsum(p[order])])
    betas = 1 - np.concatenate([[0.0], np.cumsum(q[order])])
    # outputs impossible under D (p = 0) come first and cost no type I error: f(0) is the lowest beta
    first = int(np.searchsorted(alphas, 0.0, side="right")) - 1
    return as_result(np.clip(np.interp(a, alphas[first:], betas[first:]), 0.0, 1.0))


def tradeoff_gdp(alpha: ArrayLike, mu: float) -> float | np.ndarray:
    """G_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu), the trade-off function of N(0, 1) against
    N(mu, 1): the curve of mu-GDP (Dong, Roth & Su 2022, Definition 2.7); mu = 0 is 1 - alpha.
    The Gaussian mechanism with L2 sensitivity Delta and noise sigma is mu-GDP at mu = Delta/sigma."""
    a = check_alpha(alpha)
    mu = check_nonnegative(mu, "mu")
    return as_result(special.ndtr(special.ndtri(1 - a) - mu))
