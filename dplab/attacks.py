"""Simulated attackers: the Neyman-Pearson test run on samples, its ROC with confidence boxes.

Given outputs of M on D and on D' and a score that grows with the likelihood ratio
q(y)/p(y) (the ratio itself, or the output when the ratio grows with it), the test "say D'
when score >= t" is the most powerful at its type I error (Neyman-Pearson), so its
points (alpha(t), beta(t)) estimate the trade-off curve f of the pair. Each count gets an
exact Clopper-Pearson interval; with Bonferroni over the 2 n intervals of n points, every
box [alpha_low, alpha_high] x [beta_low, beta_high] holds its true point at once with
probability >= ``confidence``. Since f is decreasing and no test beats it, a box with
beta_high < f(alpha_high) lies wholly below the curve: evidence that the claimed f is
wrong (:func:`roc_violations`). For membership inference the same points read as
FPR = alpha and TPR = 1 - beta, against TPR <= e^eps FPR + delta.

The simulations that feed it take a mechanism description (``dplab.mechanisms``) and the
statistic on D and D': :func:`mechanism_roc` (its outputs as scores), :func:`composed_roc` (k releases,
scored by their summed privacy loss), :func:`privacy_loss_samples` (sampled, possibly composed, privacy
losses) and :func:`bayes_attack` with
:func:`membership_by_bin` (a Bayesian attacker's world, and its empirical posterior).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import check_positive_int, check_prior, check_rng
from dplab.mechanisms.base import Mechanism
from dplab.simulate import Estimate, proportion_ci

__all__ = ["EmpiricalRoc", "bayes_attack", "composed_roc", "likelihood_ratio_roc", "mechanism_roc",
           "membership_by_bin", "privacy_loss_samples", "roc_violations"]


@dataclass(frozen=True)
class EmpiricalRoc:
    """Points (alpha, beta) of the tests "say D' when score >= threshold", with boxes that
    hold together at ``confidence``; ``n`` samples on each side."""

    thresholds: np.ndarray
    alpha: np.ndarray
    beta: np.ndarray
    alpha_low: np.ndarray
    alpha_high: np.ndarray
    beta_low: np.ndarray
    beta_high: np.ndarray
    confidence: float
    n: tuple[int, int]

    @property
    def tpr(self) -> np.ndarray:
        """The true positive rate 1 - beta (membership inference's name for the power)."""
        return 1 - self.beta


def likelihood_ratio_roc(scores: ArrayLike, scores_prime: ArrayLike, *, n_points: int = 40,
                         thresholds: ArrayLike | None = None, confidence: float = 0.95) -> EmpiricalRoc:
    """The empirical ROC of "say D' when score >= t" from ``scores`` (outputs of M(D)) and
    ``scores_prime`` (of M(D')): alpha(t) = share of scores >= t, beta(t) = share of
    scores_prime < t. Thresholds default to ``n_points`` quantiles of the pooled scores,
    spread evenly in log alpha as well as in alpha so the small-alpha end (membership
    inference's log-log plot) is sampled. Sorting makes 10^6 samples a side cost well
    under a second."""
    a = np.sort(np.asarray(scores, dtype=float).ravel())
    b = np.sort(np.asarray(scores_prime, dtype=float).ravel())
    if a.size < 2 or b.size < 2:
        raise ValueError(f"need at least 2 scores on each side, got {a.size} and {b.size}")
    confidence = float(confidence)
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got confidence={confidence!r}")
    if thresholds is None:
        n_points = check_positive_int(n_points, "n_points")
        half = max(n_points // 2, 1)
        levels = np.concatenate([np.geomspace(10 / a.size, 0.5, half, endpoint=False),
                                 np.linspace(0.5, 1 - 1 / a.size, n_points - half)])
        thresholds = np.unique(np.quantile(a, 1 - levels))  # alpha(t) close to each level
    t = np.asarray(thresholds, dtype=float).ravel()
    false_alarms = a.size - np.searchsorted(a, t, side="left")  # scores >= t on D
    misses = np.searchsorted(b, t, side="left")  # scores < t on D'
    level = 1 - (1 - confidence) / (2 * t.size)
    fa, miss = proportion_ci(false_alarms, a.size, level), proportion_ci(misses, b.size, level)
    return EmpiricalRoc(t, fa.estimate, miss.estimate, np.asarray(fa.low), np.asarray(fa.high),
                        np.asarray(miss.low), np.asarray(miss.high), confidence, (a.size, b.size))


def roc_violations(roc: EmpiricalRoc, tradeoff, *, two_sided: bool = False) -> np.ndarray:
    """Indices of the points whose box misses the curve ``tradeoff`` (a function of alpha):
    below it (beta_high < f(alpha_high): a test better than the claim allows), and with
    ``two_sided`` also above it (beta_low > f(alpha_low): the test is worse than the curve,
    which for a Neyman-Pearson test of the exact pair should not happen either)."""
    if not isinstance(roc, EmpiricalRoc):
        raise TypeError(f"roc must be an EmpiricalRoc, got roc={roc!r}")
    below = roc.beta_high < np.asarray(tradeoff(roc.alpha_high)) - 1e-12
    if two_sided:
        below |= roc.beta_low > np.asarray(tradeoff(roc.alpha_low)) + 1e-12
    return np.flatnonzero(below)


def mechanism_roc(mechanism: Mechanism, value: ArrayLike, neighbour_value: ArrayLike, draws: int,
                  rng: np.random.Generator | int | None = None, *, n_points: int = 40,
                  confidence: float = 0.95, randomized: bool = False) -> EmpiricalRoc:
    """The Neyman-Pearson attacker's ROC on ``draws`` outputs of ``mechanism.sample`` at ``value``
    (D, drawn first) and at ``neighbour_value`` (D'), each output its own score: the most powerful
    test wherever the likelihood ratio q(y)/p(y) grows with y (a Laplace or Gaussian count with
    value < neighbour_value, randomized response's bit, EpsilonDelta's outputs 0-3). Integer
    outputs get one test between each two neighbouring observed values (thresholds v + 1/2), or with
    ``randomized`` a uniform tie-break in [0, 1) and ``n_points`` quantiles: the randomized tests, which
    trace the segments between those vertices too; real ones ``n_points`` quantiles
    (:func:`likelihood_ratio_roc`)."""
    draws, rng = check_positive_int(draws, "draws"), check_rng(rng)
    a = np.asarray(mechanism.sample(value, rng, size=draws))
    b = np.asarray(mechanism.sample(neighbour_value, rng, size=draws))
    thresholds = None
    if np.issubdtype(a.dtype, np.integer) and np.issubdtype(b.dtype, np.integer) and randomized:
        a, b = a + rng.random(a.shape), b + rng.random(b.shape)
    elif np.issubdtype(a.dtype, np.integer) and np.issubdtype(b.dtype, np.integer):
        thresholds = np.arange(min(a.min(), b.min()), max(a.max(), b.max())) + 0.5
    return likelihood_ratio_roc(a, b, n_points=n_points, thresholds=thresholds, confidence=confidence)


def composed_roc(mechanism: Mechanism, k: int, draws: int, rng: np.random.Generator | int | None = None, *,
                 n_points: int = 40, confidence: float = 0.95) -> EmpiricalRoc:
    """The Neyman-Pearson attacker's ROC on k releases of ``mechanism``, each of 0 on D and of its
    sensitivity (1 for randomized response) on D': ``draws`` runs a side (D's drawn first), each scored
    by -L, minus the summed privacy loss ``mechanism.privacy_loss(y, 0, sensitivity)`` of its k outputs.
    -L is the log likelihood ratio of the whole transcript, so "say D' when -L >= t" is the most
    powerful test (Neyman-Pearson) and the points estimate the k-fold composition's trade-off curve
    (Dong, Roth & Su 2022, Def. 3.1). Integer outputs (randomized response) give one test between each
    two neighbouring observed scores (the curve's vertices), real ones ``n_points`` quantiles
    (:func:`likelihood_ratio_roc`). Laplace and Gaussian draws are standard ones scaled, so one seed
    gives the same draws, rescaled, at every epsilon."""
    k, draws, rng = check_positive_int(k, "k"), check_positive_int(draws, "draws"), check_rng(rng)
    value = np.zeros(k, dtype=int)
    neighbour_value = value + getattr(mechanism, "sensitivity", 1)
    outputs = [np.asarray(mechanism.sample(v, rng, size=draws)) for v in (value, neighbour_value)]
    scores = [-np.asarray(mechanism.privacy_loss(y, value, neighbour_value)) for y in outputs]
    thresholds = None
    if np.issubdtype(outputs[0].dtype, np.integer):
        observed = np.unique(np.concatenate(scores))
        thresholds = (observed[1:] + observed[:-1]) / 2
    return likelihood_ratio_roc(*scores, n_points=n_points, thresholds=thresholds, confidence=confidence)


def privacy_loss_samples(mechanism: Mechanism, value: ArrayLike, neighbour_value: ArrayLike, size: int,
                         rng: np.random.Generator | int | None = None, *, on_neighbour: bool = False
                         ) -> np.ndarray:
    """``size`` draws of the privacy loss L = ln p_D(y) / p_D'(y) =
    ``mechanism.privacy_loss(y, value, neighbour_value)``, y drawn on D (``mechanism.sample(value)``)
    or, with ``on_neighbour``, on D'. For a vector ``value`` (k releases) L sums the k steps' losses:
    a draw of the composed privacy loss distribution (Sommer, Meiser & Mohammadi 2019, Def. 3),
    whose hockey-stick mean E[(1 - e^(eps - L))_+] on D is delta(eps) (Balle & Wang 2018, Thm. 5).
    L is also the Neyman-Pearson attacker's score. For mechanisms whose ``privacy_loss`` takes
    (output, value, neighbour_value): Laplace, the Gaussian, randomized response."""
    y = mechanism.sample(neighbour_value if on_neighbour else value, check_rng(rng),
                         size=check_positive_int(size, "size"))
    return np.asarray(mechanism.privacy_loss(y, value, neighbour_value))


def bayes_attack(mechanism: Mechanism, prior: float, draws: int, rng: np.random.Generator | int | None = None,
                 *, value: int = 0, neighbour_value: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """A Bayesian attacker's world, simulated: in each of ``draws`` runs the record is in with
    probability ``prior`` (the statistic is then ``neighbour_value``, else ``value``) and the
    curator releases ``mechanism.sample`` of it. Returns (membership, outputs). Among the runs
    whose output falls in a region, the share of members is Pr[in | region], the attacker's
    posterior (Bayes' rule; :func:`dplab.promises.posterior`, :func:`membership_by_bin`)."""
    prior, rng = check_prior(prior), check_rng(rng)
    member = rng.random(check_positive_int(draws, "draws")) < prior
    return member, np.asarray(mechanism.sample(np.where(member, neighbour_value, value), rng))


def membership_by_bin(member: ArrayLike, outputs: ArrayLike, edges: ArrayLike, confidence: float = 0.95
                      ) -> list[Estimate]:
    """For each bin [edges[i], edges[i + 1]) of the outputs, the share of runs with the record in,
    with its exact Clopper-Pearson interval (:func:`dplab.simulate.proportion_ci`): the simulated
    attacker's posterior Pr[in | y in bin]. Every bin must hold a run."""
    member, edges = np.asarray(member, dtype=bool), np.asarray(edges, dtype=float)
    which = np.digitize(np.asarray(outputs, dtype=float), edges)
    return [proportion_ci(int(np.sum(member[which == i])), int(np.sum(which == i)), confidence)
            for i in range(1, edges.size)]
