"""What epsilon promises a person: posterior odds, an attacker's test, and sentences that say so.

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

Each mechanism's own trade-off curve is its method ``tradeoff(alpha)`` (``dplab.mechanisms``);
the curves of (epsilon, delta)-DP and of mu-GDP and the Neyman-Pearson curve of any discrete
pair are :func:`tradeoff_dp`, :func:`tradeoff_gdp` and :func:`tradeoff_discrete`, re-exported here.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import as_result, check_alpha, check_nonnegative, check_prior
from dplab._tradeoff import tradeoff_discrete, tradeoff_dp, tradeoff_gdp

__all__ = [
    "detection_sentence",
    "epsilon_for_posterior",
    "odds_sentence",
    "posterior",
    "posterior_bound",
    "tradeoff_discrete",
    "tradeoff_dp",
    "tradeoff_gdp",
]


def posterior(prior: ArrayLike, log_likelihood_ratio: ArrayLike) -> float | np.ndarray:
    """Bayes' rule in odds: an attacker with prior p that the record is in the data, who sees an
    output with likelihood ratio e^L = Pr[output | in] / Pr[output | out], ends with
    p' = 1 / (1 + e^-L (1 - p) / p). For a mechanism, L is its privacy loss at that output
    (``Laplace.privacy_loss(y, in, out)``); an eps-DP one has |L| <= eps, whence
    :func:`posterior_bound`."""
    p = check_prior(prior, array_ok=True)
    loss = np.asarray(log_likelihood_ratio, dtype=float)
    return as_result(1 / (1 + np.exp(-loss) * (1 - p) / p))


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


def epsilon_for_posterior(prior: float, posterior: float) -> float:
    """The largest epsilon whose :func:`posterior_bound` from ``prior`` stays at or below
    ``posterior`` (> prior): e^eps may be at most the ratio of the posterior odds to the prior
    odds, eps = ln((q / (1 - q)) / (p / (1 - p)))."""
    p = check_prior(prior)
    q = check_prior(posterior, "posterior")
    if q < p:
        raise ValueError(f"posterior must be >= prior, got prior={prior!r}, posterior={posterior!r}")
    return math.log(q / (1 - q)) - math.log(p / (1 - p))


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
        power = 1 - float(tradeoff_gdp(a, mu))
        label = f"mu = {check_nonnegative(mu, 'mu'):.3g} (Gaussian DP)"
    else:
        power = 1 - float(tradeoff_dp(a, epsilon, delta))
        label = f"eps = {check_nonnegative(epsilon, 'epsilon'):g}" + (f", delta = {delta:g}" if delta else "")
    return (f"at {label}, an attacker who wrongly accuses {_percent(a)} of the people not in the "
            f"data spots {who}'s record at most {_percent(power)} of the time")
