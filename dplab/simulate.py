"""Monte Carlo harness: one standard draw, every scale, estimates with confidence intervals.

Noise mechanisms are scale families: Lap(b) = b Lap(1), N(0, s^2) = s N(0, 1).
So a sweep over epsilon draws the *standard* errors once and scales them
(common random numbers): the empirical curve is smooth, a slider only rescales,
and the whole sweep costs one draw. :func:`standard_draw` is the one cache of such
draws (read-only arrays, so no caller can change what the next one sees).
Intervals: a normal (CLT) interval for means, Clopper-Pearson
(``scipy.stats.binomtest``) for probabilities, order statistics for quantiles, and
:func:`bonferroni_confidence` for a family of checks.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from dplab._checks import check_beta, check_choice, check_positive_int, check_rng

__all__ = [
    "Estimate",
    "ScaledErrors",
    "bonferroni_confidence",
    "mean_ci",
    "proportion_ci",
    "quantile_ci",
    "standard_draw",
    "standard_errors",
    "standard_noise",
]

NOISES = ("laplace", "gaussian", "uniform")


def standard_noise(
    noise: str, size: int | tuple[int, ...], rng: np.random.Generator | int | None = None
) -> np.ndarray:
    """Standard noise: ``"laplace"`` is Lap(0, 1), ``"gaussian"`` is N(0, 1), ``"uniform"`` is
    uniform on [-1, 1] (a bounded noise, scaled by its bound E)."""
    check_choice(noise, NOISES, "noise")
    rng = check_rng(rng)
    if noise == "laplace":
        return rng.laplace(0.0, 1.0, size=size)
    if noise == "uniform":
        return rng.uniform(-1.0, 1.0, size=size)
    return rng.standard_normal(size=size)


def standard_draw(noise: str, shape: int | tuple[int, ...], seed: int) -> np.ndarray:
    """``standard_noise(noise, shape, default_rng(seed))``, cached and read-only: every
    panel, figure and report row that scales the same standard draw shares one copy
    (a read-only view: it cannot be made writeable again). ``seed`` must be an int >= 0."""
    check_choice(noise, NOISES, "noise")
    shape = (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
    shape = tuple(check_positive_int(n, "shape") for n in shape)
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed must be an int >= 0, got seed={seed!r}")
    return _cached_draw(noise, shape, int(seed)).view()


@lru_cache(maxsize=16)
def _cached_draw(noise: str, shape: tuple[int, ...], seed: int) -> np.ndarray:
    z = standard_noise(noise, shape, np.random.default_rng(seed))
    z.flags.writeable = False
    return z


def bonferroni_confidence(n_checks: int, family_error: float = 0.01) -> float:
    """Per-check confidence 1 - family_error / n_checks: n interval checks of true
    statements then all pass with probability >= 1 - family_error (Bonferroni)."""
    return 1 - check_beta(family_error, "family_error") / check_positive_int(n_checks, "n_checks")


@dataclass(frozen=True)
class Estimate:
    """Point estimates with a confidence interval [low, high] (arrays or scalars)."""

    estimate: np.ndarray
    low: np.ndarray
    high: np.ndarray
    confidence: float

    def contains(self, value: ArrayLike) -> np.ndarray:
        """True where ``low <= value <= high`` (a two-sided check of an equality)."""
        value = np.asarray(value)
        return (self.low <= value) & (value <= self.high)

    def consistent_with_upper_bound(self, bound: ArrayLike) -> np.ndarray:
        """True where the data do not refute ``true value <= bound``: ``low <= bound``."""
        return self.low <= np.asarray(bound)

    def consistent_with_lower_bound(self, bound: ArrayLike) -> np.ndarray:
        """True where the data do not refute ``true value >= bound``: ``high >= bound``."""
        return self.high >= np.asarray(bound)

    def scaled(self, factor: ArrayLike) -> Estimate:
        """The estimate of ``factor * X`` (factor >= 0), interval scaled with it."""
        f = np.asarray(factor, dtype=float)
        return Estimate(f * self.estimate, f * self.low, f * self.high, self.confidence)

    @classmethod
    def stack(cls, estimates: list[Estimate]) -> Estimate:
        """One Estimate of arrays from a list of scalar Estimates (same confidence)."""
        return cls(*(np.array([float(getattr(e, f)) for e in estimates])
                     for f in ("estimate", "low", "high")), estimates[0].confidence)

    def __getitem__(self, i) -> Estimate:
        return Estimate(self.estimate[i], self.low[i], self.high[i], self.confidence)


def mean_ci(samples: ArrayLike, confidence: float = 0.95, axis: int = -1) -> Estimate:
    """Mean with Student's t interval mean +- t_{n-1} s / sqrt(n) along ``axis`` (the CLT's normal
    interval for large n; the t quantile keeps a handful of samples from claiming too much)."""
    x = np.asarray(samples, dtype=float)
    n = x.shape[axis]
    if n < 2:
        raise ValueError(f"mean_ci needs at least 2 samples, got n={n}")
    mean = x.mean(axis=axis)
    half = stats.t.ppf(0.5 + confidence / 2, n - 1) * x.std(axis=axis, ddof=1) / np.sqrt(n)
    return Estimate(mean, mean - half, mean + half, confidence)


def proportion_ci(successes: ArrayLike, trials: int, confidence: float = 0.95) -> Estimate:
    """Frequency successes/trials with the exact Clopper-Pearson interval, vectorized:
    [Beta^{-1}(a/2; s, n - s + 1), Beta^{-1}(1 - a/2; s + 1, n - s)] with a = 1 - confidence
    (what ``scipy.stats.binomtest(...).proportion_ci(method="exact")`` gives for one s)."""
    trials = check_positive_int(trials, "trials")
    s = np.asarray(successes, dtype=float)
    if np.any((s < 0) | (s > trials)):
        raise ValueError(f"successes must lie in [0, trials={trials}], got {successes!r}")
    a = 1 - confidence
    with np.errstate(invalid="ignore", divide="ignore"):
        low = np.where(s > 0, stats.beta.ppf(a / 2, s, trials - s + 1), 0.0)
        high = np.where(s < trials, stats.beta.ppf(1 - a / 2, s + 1, trials - s), 1.0)
    return Estimate(s / trials, low, high, confidence)


def quantile_ci(samples: ArrayLike, q: float, confidence: float = 0.95) -> Estimate:
    """Sample q-quantile with the distribution-free order-statistic interval.

    [x_(l), x_(u)] with l, u the binomial(n, q) quantiles at (1 -+ confidence)/2.
    """
    x = np.sort(np.asarray(samples, dtype=float).ravel())
    n = x.size
    a = (1 - confidence) / 2
    lo = int(max(stats.binom.ppf(a, n, q) - 1, 0))
    hi = int(min(stats.binom.ppf(1 - a, n, q), n - 1))
    return Estimate(np.quantile(x, q), x[lo], x[hi], confidence)


class ScaledErrors:
    """Absolute errors of a scale family from one standard draw (common random numbers).

    ``ScaledErrors.draw("laplace", trials)`` holds |Z| for Z ~ Lap(0, 1); the error of
    the mechanism at scale b is b |Z|. With ``k`` queries per trial, ``reduce="max"``
    keeps max_i |Z_i| (the (alpha, beta)-accuracy statistic), ``reduce="none"`` keeps
    every coordinate (per-coordinate error).
    """

    def __init__(self, standard_abs: np.ndarray):
        z = np.array(np.ravel(standard_abs), dtype=float)  # a copy that owns its memory
        z.flags.writeable = False
        self.standard_abs = z.view()  # read-only for good: shared through the caches
        self._sorted: np.ndarray | None = None
        self._moments: dict[int, tuple[float, float]] = {}  # p -> (mean, variance) of |Z|^p

    @classmethod
    def draw(
        cls,
        noise: str,
        trials: int,
        *,
        k: int = 1,
        reduce: str = "none",
        rng: np.random.Generator | int | None = None,
    ) -> ScaledErrors:
        trials = check_positive_int(trials, "trials")
        k = check_positive_int(k, "k")
        check_choice(reduce, ("none", "max"), "reduce")
        return cls._from_standard(standard_noise(noise, (trials, k), rng), reduce)

    @classmethod
    def _from_standard(cls, z: np.ndarray, reduce: str) -> ScaledErrors:
        z = np.abs(z)
        return cls(z.max(axis=1) if reduce == "max" else z)

    @property
    def n(self) -> int:
        return self.standard_abs.size

    def _moment(self, power: int, confidence: float) -> Estimate:
        """E|Z|^power (power 1 or 2) with its CLT interval, from sample moments computed
        once per draw: the variance of |Z|^p is E|Z|^2p - (E|Z|^p)^2."""
        if not self._moments:
            z2 = self.standard_abs * self.standard_abs
            m1, m2 = self.standard_abs.mean(), z2.mean()
            m4 = np.dot(z2, z2) / self.n
            self._moments = {1: (m1, m2 - m1 * m1), 2: (m2, m4 - m2 * m2)}
        mean, var = self._moments[power]
        half = stats.t.ppf(0.5 + confidence / 2, self.n - 1) * np.sqrt(var * self.n / (self.n - 1) / self.n)
        return Estimate(mean, mean - half, mean + half, confidence)

    def mse(self, scales: ArrayLike, confidence: float = 0.95) -> Estimate:
        """E[(b |Z|)^2] = b^2 E[Z^2] for each scale b, with a CLT interval."""
        return self._moment(2, confidence).scaled(np.asarray(scales, float) ** 2)

    def mae(self, scales: ArrayLike, confidence: float = 0.95) -> Estimate:
        """E[b |Z|] = b E|Z| for each scale b, with a CLT interval."""
        return self._moment(1, confidence).scaled(np.asarray(scales, float))

    def exceed(self, scales: ArrayLike, thresholds: ArrayLike, confidence: float = 0.95) -> Estimate:
        """Pr[b |Z| >= t] = Pr[|Z| >= t/b] for each (b, t), Clopper-Pearson intervals.

        A few cut-offs are counted directly; many use one sort and binary search.
        """
        cut = np.asarray(thresholds, float) / np.asarray(scales, float)
        if self._sorted is None and cut.size <= 32:
            count = np.array([np.count_nonzero(self.standard_abs >= c) for c in cut.ravel()])
            count = count.reshape(cut.shape)
        else:
            if self._sorted is None:
                self._sorted = np.sort(self.standard_abs)
            count = self.n - np.searchsorted(self._sorted, cut, side="left")
        return proportion_ci(count, self.n, confidence)

    def quantile(self, scale: float, q: float, confidence: float = 0.95) -> Estimate:
        """The q-quantile of the absolute error at scale b, with its interval."""
        return quantile_ci(self.standard_abs, q, confidence).scaled(scale)


@lru_cache(maxsize=32)
def standard_errors(
    noise: str, trials: int, k: int = 1, reduce: str = "none", seed: int = 0
) -> ScaledErrors:
    """``ScaledErrors.draw`` with a fixed integer seed from :func:`standard_draw`, cached: a
    slider that only changes a scale reuses the draw instead of simulating again."""
    check_choice(reduce, ("none", "max"), "reduce")
    shape = (check_positive_int(trials, "trials"), check_positive_int(k, "k"))
    if reduce == "max":  # only the maxima are kept: the large raw draw is not cached
        return ScaledErrors._from_standard(standard_noise(noise, shape, np.random.default_rng(seed)), reduce)
    return ScaledErrors._from_standard(standard_draw(noise, shape, seed), reduce)
