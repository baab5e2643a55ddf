"""The Poisson-subsampled Gaussian mechanism: one step of DP-SGD, with its Renyi curve and its PLD.

Each row enters the sample independently with probability q (Poisson subsampling), the
sample's sum of contributions (each of L2 norm at most 1: clipped gradients) gets
N(0, sigma^2) noise per coordinate, sigma = the noise multiplier. Between neighbours that
differ by adding or removing one row, the worst case is one coordinate, where the released
value is distributed as

    mu_0 = N(0, sigma^2)   without the row,   mu = (1 - q) N(0, sigma^2) + q N(1, sigma^2)   with it

(Mironov, Talwar & Zhang 2019, Section 2; Abadi et al. 2016). The pair is not symmetric: the
privacy loss of (mu, mu_0) ("add": the row joins D) is ln(1 - q + q e^u) and that of
(mu_0, mu) ("remove") is -ln(1 - q + q e^u), u = (2 y - 1) / (2 sigma^2). An accountant must
bound both and report the larger epsilon, as dp-accounting does (its REMOVE is our "add",
its ADD our "remove": it names the pair by the neighbour D' of its second distribution).

Sources: Mironov, Talwar & Zhang, "Renyi Differential Privacy of the Sampled Gaussian
Mechanism" (arXiv:1908.10530, 2019); Abadi et al., "Deep Learning with Differential Privacy"
(CCS 2016); Doroshenko et al., "Connect the Dots" (PETS 2022) for the pessimistic PLD.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from dplab._checks import (
    as_result,
    check_choice,
    check_nonnegative,
    check_positive,
    check_probability,
    check_renyi_order,
    check_rng,
)
from dplab._pld import PrivacyLossDistribution, pld_from_intervals
from dplab.mechanisms.base import Mechanism

__all__ = ["DIRECTIONS", "SubsampledGaussian", "subsampled_gaussian_rdp"]

#: the two orders of a neighbouring pair: "add" is mu (the row joins) against mu_0, "remove" mu_0 against mu
DIRECTIONS = ("add", "remove")

_SERIES_BLOCK = 32  # terms of the fractional-order series in the first round (doubled each round)
_SERIES_MAX = 2**16  # terms at most; the sum stays an upper bound however many
_SERIES_RTOL = 1e-12  # stop once the next terms are below this share of the sum


def _log_a_integer(q: float, sigma: float, alpha: np.ndarray) -> np.ndarray:
    """ln A_alpha for integer orders alpha >= 2: the binomial expansion of (1 - q + q e^u)^alpha
    under mu_0 (Mironov, Talwar & Zhang 2019, Section 3.1), exact:
    A_alpha = sum_{i=0}^{alpha} C(alpha, i) (1 - q)^(alpha - i) q^i e^((i^2 - i) / (2 sigma^2))."""
    sizes = alpha.astype(np.int64) + 1
    a = np.repeat(alpha, sizes)  # the terms of every order, one after the other
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    i = np.arange(a.size) - np.repeat(starts, sizes)
    log_factorial = special.gammaln(np.arange(sizes.max() + 1) + 1.0)
    ai = a.astype(np.int64)
    log_terms = (log_factorial[ai] - log_factorial[i] - log_factorial[ai - i] + i * math.log(q)
                 + (a - i) * math.log1p(-q) + (i * i - i) / (2 * sigma**2))
    top = np.maximum.reduceat(log_terms, starts)
    return top + np.log(np.add.reduceat(np.exp(log_terms - np.repeat(top, sizes)), starts))


def _fractional_terms(q: float, sigma: float, alpha: np.ndarray, i: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ln |term i| of both series of :func:`_log_a_fractional` (orders on axis 0, i on axis 1) and
    the terms' common sign, that of C(alpha, i)."""
    z0 = sigma**2 * (math.log1p(-q) - math.log(q)) + 0.5
    a = alpha[:, None]
    j = a - i
    log_binom = special.gammaln(a + 1) - special.gammaln(i + 1) - special.gammaln(j + 1)
    first = (log_binom + i * math.log(q) + j * math.log1p(-q) + (i * i - i) / (2 * sigma**2)
             + special.log_ndtr((z0 - i) / sigma))
    second = (log_binom + j * math.log(q) + i * math.log1p(-q) + (j * j - j) / (2 * sigma**2)
              + special.log_ndtr((j - z0) / sigma))
    return first, second, special.gammasgn(j + 1)


def _log_a_fractional(q: float, sigma: float, alpha: np.ndarray) -> np.ndarray:
    """ln A_alpha for fractional orders alpha > 1, by the two series of Mironov, Talwar & Zhang
    2019, Section 3.3. Split the line at z0 = sigma^2 ln(1/q - 1) + 1/2, where q e^u = 1 - q, and
    expand (1 - q + q e^u)^alpha by the generalised binomial series in the smaller summand:

        A_alpha = sum_i C(alpha, i) q^i (1 - q)^(alpha - i) e^((i^2 - i)/(2 sigma^2)) Phi((z0 - i)/sigma)
                + sum_i C(alpha, i) q^(alpha - i) (1 - q)^i e^((j^2 - j)/(2 sigma^2)) Phi((j - z0)/sigma),

    j = alpha - i. Past i > alpha + 1 both series alternate in sign and their terms shrink (each
    is an integral over its half-line of a ratio below 1 to the power i, times |C(alpha, i)|, which
    decreases), so the sum stopped before term N is within the size of term N of the truth: that
    size is added, and the result is an upper bound (the curve is never below the true one).
    Terms are added in blocks, each order stopping when the next one is below 1e-12 of its sum."""
    total = np.full(alpha.shape, -np.inf)
    sign = np.ones(alpha.shape)
    bound = np.zeros(alpha.shape)
    active = np.arange(alpha.size)
    start, block = 0, _SERIES_BLOCK
    while active.size and start < _SERIES_MAX:
        a = alpha[active]
        i = np.arange(start, start + block + 1, dtype=float)[None, :]
        first, second, sgn = _fractional_terms(q, sigma, a, i)
        terms = np.concatenate([total[active, None], first[:, :-1], second[:, :-1]], axis=1)
        signs = np.concatenate([sign[active, None], sgn[:, :-1], sgn[:, :-1]], axis=1)
        total[active], sign[active] = special.logsumexp(terms, axis=1, b=signs, return_sign=True)
        bound[active] = np.logaddexp(first[:, -1], second[:, -1])  # ln |term N| of both series
        start += block
        done = (start > a + 1) & (sign[active] > 0) & (bound[active] - total[active] < math.log(_SERIES_RTOL))
        active = active[~done]
        block *= 2
    return np.logaddexp(total, bound)


def subsampled_gaussian_rdp(noise_multiplier: float, sampling_rate: float, alpha: ArrayLike
                            ) -> float | np.ndarray:
    """R(alpha) of the Poisson-subsampled Gaussian under add/remove neighbours:
    ln(A_alpha) / (alpha - 1), A_alpha = E_{z ~ mu_0}[(mu(z) / mu_0(z))^alpha], the Renyi divergence
    D_alpha(mu || mu_0) (Mironov, Talwar & Zhang 2019, Section 3; they show it is at least
    D_alpha(mu_0 || mu), so it bounds both orders of the pair). Integer orders by the binomial
    expansion (exact), fractional ones by the series of their Section 3.3 (an upper bound within
    1e-12 relative); q = 1 is the Gaussian, alpha / (2 sigma^2) (Mironov 2017, Proposition 7)."""
    sigma = check_positive(noise_multiplier, "noise_multiplier")
    q = check_probability(sampling_rate, "sampling_rate")
    orders = np.asarray(check_renyi_order(alpha), dtype=float)
    if q == 1.0:
        return as_result(orders / (2 * sigma**2))
    flat = orders.ravel()
    log_a = np.empty(flat.shape)
    whole = flat == np.round(flat)
    if whole.any():
        log_a[whole] = _log_a_integer(q, sigma, flat[whole])
    if not whole.all():
        log_a[~whole] = _log_a_fractional(q, sigma, flat[~whole])
    return as_result((np.maximum(log_a, 0.0) / (flat - 1)).reshape(orders.shape))


def _log_excess(loss: np.ndarray, log_1q: float) -> np.ndarray:
    """ln(e^loss - (1 - q)) for loss > ln(1 - q), -inf at or below it (stable near both ends)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = loss + np.log(-np.expm1(log_1q - loss))
    return np.where(loss > log_1q, out, -np.inf)


def _gauss_between(a: np.ndarray, b: np.ndarray, mean: float, sigma: float) -> np.ndarray:
    """P(a < N(mean, sigma^2) < b) for a <= b, from the nearer tail (accurate far out on either side)."""
    za, zb = (a - mean) / sigma, (b - mean) / sigma
    return np.where(za > 0, special.ndtr(-za) - special.ndtr(-zb), special.ndtr(zb) - special.ndtr(za))


@dataclass(frozen=True)
class SubsampledGaussian(Mechanism):
    """One step of DP-SGD: Poisson subsampling with rate ``sampling_rate`` = q, then the sum of the
    sample's contributions (L2 norm <= 1, sensitivity 1) plus N(0, sigma^2), sigma =
    ``noise_multiplier``; neighbours add or remove one row. Its privacy: the Renyi curve
    ``rdp(alpha)`` (Mironov, Talwar & Zhang 2019) and a PLD for each order of the pair
    (``pld(direction="add" | "remove")``); ``dplab.accounting.PLDAccountant`` composes both and
    reports the larger epsilon. q = 1 is ``Gaussian(1, noise_multiplier)``."""

    noise_multiplier: float
    sampling_rate: float

    #: the orders of the neighbouring pair whose PLDs differ (a PLDAccountant composes each)
    pld_directions: ClassVar[tuple[str, ...]] = DIRECTIONS

    def __post_init__(self) -> None:
        sigma = check_positive(self.noise_multiplier, "noise_multiplier")
        object.__setattr__(self, "noise_multiplier", sigma)
        object.__setattr__(self, "sampling_rate", check_probability(self.sampling_rate, "sampling_rate"))

    @property
    def sigma(self) -> float:
        """The noise's standard deviation on a sum of sensitivity 1: the noise multiplier."""
        return self.noise_multiplier

    def sample(self, contributions: ArrayLike, rng: np.random.Generator | int | None = None, *,
               size: int | None = None) -> np.ndarray | float:
        """The noised sum of a Poisson subsample: each entry of ``contributions`` (a database of
        0/1 contributions, one per row) joins with probability q, the sum of those that joined plus
        sigma N(0, 1). With ``size``, that many independent releases."""
        rng = check_rng(rng)
        x = np.asarray(contributions, dtype=float)
        if x.ndim != 1 or np.any((x != 0) & (x != 1)):
            raise ValueError(f"contributions must be a 1-d array of 0/1 values, "
                             f"got contributions={contributions!r}")
        shape = () if size is None else (int(size),)
        joined = rng.random(shape + x.shape) < self.sampling_rate
        out = (joined * x).sum(axis=-1) + self.sigma * rng.standard_normal(shape)
        return as_result(out)

    def privacy_loss(self, y: ArrayLike, direction: str = "add") -> float | np.ndarray:
        """L(y) = ln(1 - q + q e^u) ("add": mu against mu_0) or its negative ("remove"),
        u = (2 y - 1) / (2 sigma^2), the Gaussian's loss of N(1) against N(0)."""
        check_choice(direction, DIRECTIONS, "direction")
        u = (2 * np.asarray(y, dtype=float) - 1) / (2 * self.sigma**2)
        q = self.sampling_rate
        loss = np.logaddexp(math.log1p(-q), math.log(q) + u) if q < 1 else u
        return as_result(loss if direction == "add" else -loss)

    def _delta_one(self, epsilon: np.ndarray, direction: str) -> np.ndarray:
        """The hockey-stick divergence of one order of the pair, exactly: with y* where the loss
        crosses epsilon, "add": delta = q Phi((1 - y*)/s) - (e^eps - 1 + q) Phi(-y*/s);
        "remove": delta = (1 - e^eps (1 - q)) Phi(y*/s) - e^eps q Phi((y* - 1)/s), 0 if e^-eps <= 1 - q."""
        s, q = self.sigma, self.sampling_rate
        log_1q = math.log1p(-q) if q < 1 else -math.inf
        log_q = math.log(q)
        if direction == "add":
            y = s**2 * (_log_excess(epsilon, log_1q) - log_q) + 0.5
            out = q * special.ndtr((1 - y) / s) - np.exp(_log_excess(epsilon, log_1q)) * special.ndtr(-y / s)
        else:
            y = s**2 * (_log_excess(-epsilon, log_1q) - log_q) + 0.5
            out = (-np.expm1(epsilon + log_1q) * special.ndtr(y / s)
                   - np.exp(epsilon) * q * special.ndtr((y - 1) / s))
        return np.clip(out, 0.0, 1.0)

    def delta(self, epsilon: ArrayLike) -> float | np.ndarray:
        """The privacy profile: the larger of the two orders' exact hockey-stick divergences."""
        e = np.asarray(check_nonnegative(epsilon, "epsilon", array_ok=True), dtype=float)
        return as_result(np.maximum(self._delta_one(e, "add"), self._delta_one(e, "remove")))

    def pld(self, *, step: float = 1e-4, pessimistic: bool = True, direction: str = "add",
            tail: float = 1e-30) -> PrivacyLossDistribution:
        """The PLD of one order of the pair (``direction``: "add", mu against mu_0, or "remove",
        mu_0 against mu) on a grid of ``step``. The loss is monotone in y, so each grid interval
        [l_j, l_(j+1)] is an interval of outputs whose masses under both distributions are
        Gaussian probabilities; pessimistic: connect the dots over them
        (:func:`dplab._pld.pld_from_intervals`), optimistic: rounded down. Outputs beyond the
        ``tail`` quantiles of the first distribution are cut: the upper tail goes to L = inf."""
        check_choice(direction, DIRECTIONS, "direction")
        step = check_positive(step, "step")
        tail = check_positive(tail, "tail")
        s, q = self.sigma, self.sampling_rate
        log_1q = math.log1p(-q) if q < 1 else -math.inf
        z = -float(special.ndtri(tail))
        add = direction == "add"
        # the outputs kept: the first distribution's tail quantiles (mu: below N(0)'s, above N(1)'s)
        y_low, y_high = -z * s, (1.0 if add else 0.0) + z * s
        ends = np.asarray(self.privacy_loss(np.array([y_low, y_high]), direction))
        l_low, l_high = float(ends.min()), float(ends.max())
        first, last = math.floor(l_low / step), math.ceil(l_high / step)
        losses = np.arange(first, last + 1) * step
        sign = 1.0 if add else -1.0
        y = s**2 * (_log_excess(sign * losses, log_1q) - math.log(q)) + 0.5  # where the loss is l_j
        lo, hi = (y[:-1], y[1:]) if add else (y[1:], y[:-1])
        base = _gauss_between(lo, hi, 0.0, s)
        mixture = (1 - q) * base + q * _gauss_between(lo, hi, 1.0, s)
        p_mass, q_mass = (mixture, base) if add else (base, mixture)
        # the first distribution's mass beyond the grid's ends: loss below l_0, above l_m
        if add:  # the loss increases with y: below l_0 is y < y_0, above l_m is y > y_m
            below = (1 - q) * special.ndtr(y[0] / s) + q * special.ndtr((y[0] - 1) / s)
            above = (1 - q) * special.ndtr(-y[-1] / s) + q * special.ndtr((1 - y[-1]) / s)
        else:  # it decreases: below l_0 is y > y_0, above l_m is y < y_m
            below, above = special.ndtr(-y[0] / s), special.ndtr(y[-1] / s)
        return pld_from_intervals(first, step, p_mass, q_mass, pessimistic=pessimistic, below=float(below),
                                  above=float(above))

    def rdp(self, alpha: ArrayLike) -> float | np.ndarray:
        """:func:`subsampled_gaussian_rdp`: ln(A_alpha) / (alpha - 1) (Mironov, Talwar & Zhang 2019)."""
        return subsampled_gaussian_rdp(self.noise_multiplier, self.sampling_rate, alpha)
