"""What epsilon promises: the hypothesis-testing view of differential privacy.

An attacker who sees the output of M and must decide between two neighbouring databases
D (say, without Alice's record) and D' (with it) runs a test. Its type I error alpha is
Pr[it says D' | D] (a false alarm), its type II error beta is Pr[it says D | D'] (a miss).
The trade-off function f(alpha) of the pair is the smallest beta any test reaches at type I
error alpha (Wasserman & Zhou 2010; Kairouz, Oh & Viswanath 2015; Dong, Roth & Su,
"Gaussian Differential Privacy", JRSS B 2022). The Neyman-Pearson lemma
says the best test rejects D where the likelihood ratio q(y)/p(y) is large, randomizing at
ties, so f is the lower edge of the likelihood-ratio tests' (alpha, beta) pairs. M is
(epsilon, delta)-DP exactly when f >= f_{epsilon, delta} for every neighbouring pair, in
both orders (Wasserman & Zhou 2010; Kairouz, Oh & Viswanath 2015).

The same bound read as belief: an attacker who holds prior p that the record is in the data
ends, after any output of an epsilon-DP mechanism, with posterior odds at most e^epsilon
times its prior odds. Odds-based explanations of epsilon are the ones lay readers understand
best (Nanayakkara et al., USENIX Security 2023), hence :func:`odds_sentence`.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from dplab._checks import (
    as_result,
    check_alpha,
    check_delta,
    check_epsilon,
    check_nonnegative,
    check_positive,
    check_prior,
)

__all__ = [
    "detection_sentence",
    "odds_sentence",
    "posterior_bound",
    "tradeoff_discrete",
    "tradeoff_dp",
    "tradeoff_gaussian",
    "tradeoff_laplace",
    "tradeoff_randomized_response",
]


def posterior_bound(prior: ArrayLike, epsilon: ArrayLike) -> float | np.ndarray:
    """The most an attacker's belief that Alice's record is in the data (or that her record
    is x rather than x'), everything else fixed, can grow from prior p after any output of
    an epsilon-DP mechanism:

        p' <= e^eps p / (1 - p + e^eps p),

    because Bayes' rule multiplies the prior odds p / (1 - p) by the likelihood ratio, which
    epsilon-DP bounds by e^eps. It does not bound what can be learned about Alice from
    everyone else's data (a correlation that holds in the population holds with or without
    her record). 0.232 at p = 0.1, eps = 1.
    """
    p = check_prior(prior, array_ok=True)
    eps = check_nonnegative(epsilon, "epsilon", array_ok=True)
    # e^eps p / (1 - p + e^eps p) = 1 / (1 + e^-eps (1 - p) / p), stable for large eps
    return as_result(1 / (1 + np.exp(-np.asarray(eps)) * (1 - p) / p))


def _percent(x: float) -> str:
    """A share as a percentage, with as many decimals as keep it away from 0% and 100%."""
    for decimals in range(6):
        text = f"{100 * x:.{decimals}f}"
        if 0 < float(text) < 100 or x in (0, 1):
            return text + "%"
    return f"{100 * x:.6g}%"


def odds_sentence(epsilon: float, prior: float = 0.1, *, who: str = "Alice") -> str:
    """One sentence saying what pure epsilon-DP promises a person, in odds (the explanation
    Nanayakkara et al. 2023 found lay readers understand best), with the numbers of
    :func:`posterior_bound`: "at eps = 1, an attacker who was 10% sure that Alice's record
    is in the data can become at most 23% sure (its odds grow at most 2.7-fold)"."""
    eps = check_nonnegative(epsilon, "epsilon")
    p = check_prior(prior, array_ok=True)
    return (f"at eps = {eps:g}, an attacker who was {_percent(p)} sure that {who}'s record is "
            f"in the data can become at most {_percent(posterior_bound(p, eps))} sure "
            f"(its odds grow at most {math.exp(eps):.3g}-fold)")


def detection_sentence(*, epsilon: float | None = None, delta: float = 0.0, mu: float | None = None,
                       alpha: float = 0.05, who: str = "Alice") -> str:
    """What an (epsilon, delta)-DP or mu-GDP release promises, as a test: an attacker allowed
    to accuse wrongly a share alpha of the people not in the data spots ``who``'s record at
    most 1 - f(alpha) of the time. For (epsilon, delta)-DP, 1 - f(alpha) = min(1, e^eps alpha
    + delta) below the kink; for mu-GDP, Phi(Phi^-1(alpha) + mu). Used where the posterior
    odds are not bounded (delta > 0, Gaussian noise). Give epsilon or mu."""
    if (epsilon is None) == (mu is None):
        raise ValueError(f"give exactly one of epsilon and mu, got epsilon={epsilon!r}, mu={mu!r}")
    a = float(check_alpha(alpha))
    if not 0 < a < 1:
        raise ValueError(f"alpha must lie in (0, 1) here, got alpha={alpha!r}")
    if mu is not None:
        power = 1 - float(tradeoff_gaussian(a, mu))
        label = f"mu = {check_nonnegative(mu, 'mu'):.3g} (Gaussian DP)"
    else:
        power = 1 - float(tradeoff_dp(a, epsilon, delta))
        label = f"eps = {check_nonnegative(epsilon, 'epsilon'):g}" + (f", delta = {delta:g}" if delta else "")
    return (f"at {label}, an attacker who wrongly accuses {_percent(a)} of the people not in the "
            f"data spots {who}'s record at most {_percent(power)} of the time")


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


def tradeoff_laplace(alpha: ArrayLike, scale: float, sensitivity: float = 1.0) -> float | np.ndarray:
    """The trade-off function of the Laplace mechanism, Lap(0, b) against Lap(Delta, b): the
    likelihood ratio grows with the output, so the best test says D' above a threshold and
    f(alpha) = F(F^-1(1 - alpha) - eps0), F the standard Laplace CDF, eps0 = Delta / b.
    In closed form (Dong, Roth & Su 2022):

        1 - e^eps0 alpha        for alpha < e^-eps0 / 2,
        e^-eps0 / (4 alpha)     for e^-eps0 / 2 <= alpha <= 1/2,
        e^-eps0 (1 - alpha)     for alpha > 1/2.

    The outer pieces are those of f_{eps0, 0}: it coincides with f_{eps0, 0} for
    alpha <= e^-eps0 / 2 and for alpha >= 1/2, and lies strictly above it in between.
    """
    a = check_alpha(alpha)
    eps0 = check_positive(sensitivity, "sensitivity") / check_positive(scale, "scale")
    with np.errstate(divide="ignore"):
        middle = math.exp(-eps0) / (4 * a)
    return as_result(np.where(a < math.exp(-eps0) / 2, 1 - math.exp(eps0) * a,
                              np.where(a <= 0.5, middle, math.exp(-eps0) * (1 - a))))


def tradeoff_gaussian(alpha: ArrayLike, mu: float) -> float | np.ndarray:
    """G_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu), the trade-off function of N(0, 1) against
    N(mu, 1): the Gaussian mechanism with L2 sensitivity Delta and noise sigma is mu-GDP with
    mu = Delta / sigma (Dong, Roth & Su 2022)."""
    a = check_alpha(alpha)
    mu = check_nonnegative(mu, "mu")
    return as_result(special.ndtr(special.ndtri(1 - a) - mu))


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


def tradeoff_randomized_response(alpha: ArrayLike, epsilon: float) -> float | np.ndarray:
    """The trade-off function of randomized response on one bit (the truth with probability
    e^eps / (1 + e^eps)): :func:`tradeoff_discrete` of its two output distributions. It is
    f_{eps, 0} exactly: randomized response is the least private eps-DP mechanism (Kairouz,
    Oh & Viswanath 2015)."""
    eps = check_epsilon(epsilon)
    keep = 1 / (1 + math.exp(-eps))
    return tradeoff_discrete(alpha, [keep, 1 - keep], [1 - keep, keep])
