"""The Gaussian mechanism: sampler, error, calibrations, privacy loss.

Three calibrations of sigma for (epsilon, delta)-DP or rho-zCDP, the exact delta of
a given sigma, the privacy loss random variable and the hockey-stick divergence
that turns it into delta, and where the Gaussian starts to beat Laplace on k queries.

:class:`Gaussian` is the mechanism as one object (sampler, error, privacy loss, profile, PLD,
trade-off curve, zCDP, Renyi); the functions are the closed forms and calibrations it calls.

Sources: Dwork & Roth (2014), Appendix A, Theorem A.1; Balle & Wang, "Improving the
Gaussian Mechanism for Differential Privacy" (ICML 2018), Theorems 5 and 8, Lemma 3; Bun &
Steinke, "Concentrated Differential Privacy" (TCC 2016), Proposition 1.6; Mironov, "Renyi
Differential Privacy" (CSF 2017), Proposition 7; Dong, Roth & Su, "Gaussian Differential
Privacy" (JRSS B 2022).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from dplab._calibrate import calibrate
from dplab._checks import (
    as_result,
    check_beta,
    check_choice,
    check_delta,
    check_epsilon,
    check_nonnegative,
    check_positive,
    check_renyi_order,
    check_rho,
    check_rng,
    check_sensitivity,
)
from dplab._pld import PrivacyLossDistribution, pld_from_cdf
from dplab._tradeoff import tradeoff_gdp
from dplab.mechanisms._noise import add_noise, noise_shape
from dplab.mechanisms.base import Mechanism

_ULP = 2.0**-52  # relative spacing of doubles

__all__ = [
    "Gaussian",
    "gaussian_delta",
    "gaussian_laplace_crossover_k",
    "gaussian_mae",
    "gaussian_mechanism",
    "gaussian_mse",
    "gaussian_privacy_loss",
    "gaussian_sigma",
    "gaussian_sigma_zcdp",
    "gaussian_tail_bound",
    "gaussian_tail_probability",
    "hockey_stick_samples",
]


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
    return Gaussian(1.0, sigma).sample(value, rng, size=size)


def gaussian_mse(sigma: ArrayLike) -> float | np.ndarray:
    """E[(M(x) - f(x))^2] = sigma^2."""
    return as_result(np.asarray(check_positive(sigma, "sigma", array_ok=True)) ** 2)


def gaussian_mae(sigma: ArrayLike) -> float | np.ndarray:
    """E|M(x) - f(x)| = sigma sqrt(2/pi)."""
    return as_result(check_positive(sigma, "sigma", array_ok=True) * math.sqrt(2 / math.pi))


def gaussian_tail_bound(sigma: ArrayLike, beta: ArrayLike) -> float | np.ndarray:
    """The t with Pr[|N(0, sigma^2)| >= t] = beta exactly: t = sigma Phi^{-1}(1 - beta/2)."""
    sigma = check_positive(sigma, "sigma", array_ok=True)
    return as_result(sigma * special.ndtri(1 - check_beta(beta, array_ok=True) / 2))


def gaussian_tail_probability(t: ArrayLike, sigma: float) -> float | np.ndarray:
    """Pr[|N(0, sigma^2)| >= t] = 2 Phi(-t/sigma) for t >= 0."""
    t = check_nonnegative(t, "t", array_ok=True)
    return as_result(2 * special.ndtr(-t / check_positive(sigma, "sigma")))


def gaussian_delta(sigma: float, sensitivity: float, epsilon: float) -> float:
    """Exact delta of the Gaussian mechanism at epsilon (Balle & Wang 2018, Theorem 8).

    delta = Phi(Delta/(2 sigma) - epsilon sigma/Delta)
            - e^epsilon Phi(-Delta/(2 sigma) - epsilon sigma/Delta),
    with the second term evaluated in log space (log Phi) so large epsilon is stable.
    """
    first, second, _ = _delta_terms(check_positive(sigma, "sigma"), check_sensitivity(sensitivity),
                                    check_epsilon(epsilon))
    return float(max(first - second, 0.0))


def _delta_terms(sigma: float, sensitivity: float, epsilon: float) -> tuple[float, float, float]:
    """The two terms of Balle & Wang's Theorem 8, delta = first - second, and a bound on the
    rounding error of first - second: Phi(x) has relative error about x^2 ulps when x itself
    carries a few ulps (d ln Phi(x)/dx ~ |x| for x << 0); 16 ulps are added for the rest."""
    a = sensitivity / (2 * sigma)
    b = epsilon * sigma / sensitivity
    first = float(special.ndtr(a - b))
    second = math.exp(epsilon + special.log_ndtr(-a - b))
    error = _ULP * ((16 + 4 * (a - b) ** 2) * first + (16 + 4 * (a + b) ** 2 + epsilon) * second)
    return first, second, error


def gaussian_sigma(
    sensitivity: float, epsilon: float, delta: float, method: str = "analytic"
) -> float:
    """Noise scale sigma that makes the Gaussian mechanism (epsilon, delta)-DP.

    ``method="analytic"`` (default): the smallest sigma with
    :func:`gaussian_delta` (sigma) <= delta, i.e. Balle & Wang 2018, Theorem 8, solved
    by root finding on the exact delta (their Algorithm 1 solves the same equation).
    The root is rounded to the private side, as production accountants do: the sigma
    returned has a delta below the target even after the rounding error of the
    subtraction in :func:`gaussian_delta` (both terms are much larger than delta when
    delta is tiny; see ``_delta_terms``). Valid for every epsilon > 0.
    ``method="classical"``: sigma = Delta sqrt(2 ln(1.25/delta)) / epsilon
    (Dwork & Roth, Theorem A.1), proven only for epsilon < 1, so refused otherwise.
    ``sensitivity`` is the L2 sensitivity Delta_2.
    """
    sensitivity = check_sensitivity(sensitivity)
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta, allow_zero=False)
    check_choice(method, ("analytic", "classical"), "method")
    if method == "classical":
        if epsilon >= 1:
            raise ValueError(
                "the classical Gaussian calibration (Dwork & Roth, Theorem A.1) is proven only "
                f"for epsilon < 1, got epsilon={epsilon!r}; use method='analytic'"
            )
        return sensitivity * math.sqrt(2 * math.log(1.25 / delta)) / epsilon

    # delta(sigma) decreases in sigma: solved on ln sigma from a bracket around Delta, grown either way
    sigma = calibrate(lambda x: gaussian_delta(x, sensitivity, epsilon), delta, sensitivity / 2,
                      2 * sensitivity, grow="both", increasing=False, log=True, xtol=1e-14, rtol=1e-14)
    root = math.log(sigma)

    def unsafe(log_sigma: float) -> bool:
        first, second, error = _delta_terms(math.exp(log_sigma), sensitivity, epsilon)
        return first - second + error > delta

    step = 1e-15 * max(1.0, abs(root))
    while unsafe(root):  # brentq stops on either side of the root: step to the private one
        root += step
        step *= 2
    return math.exp(root)


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


def gaussian_privacy_loss(y: ArrayLike, sigma: float, sensitivity: float) -> float | np.ndarray:
    """The privacy loss L(y) = ln p_D(y) / p_D'(y) of the Gaussian mechanism at output y,
    for f(D) = 0 and f(D') = Delta: L(y) = (Delta^2 - 2 Delta y) / (2 sigma^2).

    With y drawn from the mechanism on D (``gaussian_mechanism(0, sigma)``), L is
    N(r, 2 r) with r = Delta^2 / (2 sigma^2) = mu^2 / 2 (Balle & Wang 2018, Lemma 3).
    """
    sigma = check_positive(sigma, "sigma")
    sensitivity = check_sensitivity(sensitivity)
    y = np.asarray(y, dtype=float)  # any real output, of any shape
    return as_result((sensitivity**2 - 2 * sensitivity * y) / (2 * sigma**2))


def hockey_stick_samples(loss: ArrayLike, epsilon: float) -> np.ndarray:
    """(1 - e^{epsilon - L})_+ for privacy-loss samples L drawn on D: their mean is the
    hockey-stick divergence, the smallest delta at this epsilon (Balle & Wang 2018,
    Theorem 5). Works for any mechanism whose loss one can sample."""
    epsilon = check_epsilon(epsilon)
    return np.maximum(0.0, -np.expm1(epsilon - np.asarray(loss, dtype=float)))


@dataclass(frozen=True)
class Gaussian(Mechanism):
    """The Gaussian mechanism: ``value + N(0, sigma^2)`` per coordinate, for a query of L2
    sensitivity Delta. Its privacy is a curve, not one (epsilon, delta): mu-GDP with
    mu = Delta / sigma (Dong, Roth & Su 2022), (Delta^2 / (2 sigma^2))-zCDP (Bun & Steinke 2016),
    and (epsilon, delta(epsilon))-DP for every epsilon (Balle & Wang 2018, Theorem 8)."""

    sensitivity: float
    sigma: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "sensitivity", check_sensitivity(self.sensitivity))
        object.__setattr__(self, "sigma", check_positive(self.sigma, "sigma"))

    @classmethod
    def calibrated(cls, sensitivity: float, epsilon: float, delta: float,
                   method: str = "analytic") -> Gaussian:
        """The Gaussian with the smallest sigma that is (epsilon, delta)-DP: :func:`gaussian_sigma`."""
        return cls(sensitivity, gaussian_sigma(sensitivity, epsilon, delta, method))

    @classmethod
    def from_zcdp(cls, sensitivity: float, rho: float) -> Gaussian:
        """The rho-zCDP Gaussian: sigma = Delta / sqrt(2 rho) (:func:`gaussian_sigma_zcdp`)."""
        return cls(sensitivity, gaussian_sigma_zcdp(sensitivity, rho))

    @classmethod
    def from_mu(cls, mu: float, sensitivity: float = 1.0) -> Gaussian:
        """The mu-GDP Gaussian: sigma = Delta / mu."""
        return cls(sensitivity, check_sensitivity(sensitivity) / check_positive(mu, "mu"))

    @property
    def mu(self) -> float:
        """mu = Delta / sigma: the mechanism is mu-GDP (Dong, Roth & Su 2022)."""
        return self.sensitivity / self.sigma

    def sample(self, value: ArrayLike, rng: np.random.Generator | int | None = None, *,
               size: int | None = None) -> np.ndarray | float:
        """``value + sigma * N(0, 1)`` per coordinate; with ``size``, shape
        ``(size,) + numpy.shape(value)``."""
        rng = check_rng(rng)
        return add_noise(value, self.sigma * rng.standard_normal(size=noise_shape(value, size)))

    def mse(self) -> float:
        """sigma^2."""
        return gaussian_mse(self.sigma)

    def mae(self) -> float:
        """sigma sqrt(2/pi)."""
        return gaussian_mae(self.sigma)

    def tail_bound(self, beta: ArrayLike) -> float | np.ndarray:
        """The t with Pr[|error| >= t] = beta: sigma Phi^-1(1 - beta/2)."""
        return gaussian_tail_bound(self.sigma, beta)

    def tail_probability(self, t: ArrayLike) -> float | np.ndarray:
        """Pr[|error| >= t] = 2 Phi(-t/sigma)."""
        return gaussian_tail_probability(t, self.sigma)

    def privacy_loss(self, y: ArrayLike, value: ArrayLike, neighbour_value: ArrayLike) -> float | np.ndarray:
        """ln p_x(y)/p_y(y) at outputs y for f(x) = ``value``, f(y) = ``neighbour_value`` (k coordinates
        on the last axis): sum_i ((y_i - f(y)_i)^2 - (y_i - f(x)_i)^2) / (2 sigma^2); for f(x) = 0,
        f(y) = Delta, :func:`gaussian_privacy_loss`."""
        y = np.asarray(y, dtype=float)
        fx, fy = np.asarray(value, dtype=float), np.asarray(neighbour_value, dtype=float)
        return as_result(np.sum((y - fy) ** 2 - (y - fx) ** 2, axis=-1) / (2 * self.sigma**2))

    def delta(self, epsilon: ArrayLike) -> float | np.ndarray:
        """The privacy profile (Balle & Wang 2018, Theorem 8): :func:`gaussian_delta` for epsilon > 0,
        and at epsilon = 0 the total variation distance 2 Phi(mu/2) - 1."""
        e = np.asarray(check_nonnegative(epsilon, "epsilon", array_ok=True), dtype=float)
        out = np.array([gaussian_delta(self.sigma, self.sensitivity, x) if x > 0
                        else float(special.ndtr(self.mu / 2) - special.ndtr(-self.mu / 2)) for x in e.flat])
        return as_result(out.reshape(e.shape))

    def pld(self, *, step: float = 1e-4, pessimistic: bool = True,
            tail: float = 1e-30) -> PrivacyLossDistribution:
        """The PLD: L ~ N(mu^2/2, mu^2) (Balle & Wang 2018, Lemma 3), cut at the ``tail`` quantiles
        on each side: the top tail goes to L = inf when pessimistic, the bottom one to the lowest
        grid point. k compositions carry k * tail at L = inf, so epsilon(delta) is inf for a delta
        below that: keep ``tail`` well under delta / k (1e-30 by default)."""
        mu = self.mu
        step = check_positive(step, "step")
        tail = check_positive(tail, "tail")
        z = -special.ndtri(tail)
        mean = mu * mu / 2
        low, high = mean - z * mu, mean + z * mu

        def cdf(x):
            return special.ndtr((x - mean) / mu)

        return pld_from_cdf(cdf, cdf, low, high, step, pessimistic, mean, below=tail, above=tail)

    def tradeoff(self, alpha: ArrayLike) -> float | np.ndarray:
        """G_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu), the trade-off function of N(0, 1) against
        N(mu, 1) (Dong, Roth & Su 2022)."""
        return tradeoff_gdp(alpha, self.mu)

    def zcdp_rho(self) -> float:
        """Delta^2 / (2 sigma^2) (Bun & Steinke 2016, Proposition 1.6)."""
        return self.mu**2 / 2

    def rdp(self, alpha: ArrayLike) -> float | np.ndarray:
        """alpha Delta^2 / (2 sigma^2) (Mironov 2017, Proposition 7)."""
        return as_result(np.asarray(check_renyi_order(alpha), dtype=float) * self.zcdp_rho())
