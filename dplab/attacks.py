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
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import check_positive_int
from dplab.simulate import proportion_ci

__all__ = ["EmpiricalRoc", "likelihood_ratio_roc", "roc_violations"]


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
