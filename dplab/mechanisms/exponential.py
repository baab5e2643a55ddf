"""Private selection: the exponential mechanism, report noisy max and permute-and-flip.

Given scores s_r (r in a finite set R of candidates) whose sensitivity is Delta (every
|s_r(x) - s_r(y)| <= Delta between neighbours x, y), each mechanism here returns one index
r, likely one with a high score, and is epsilon-DP. Samplers and exact output
probabilities live together, so a notebook can draw a frequency and the probability it
estimates from one place.

- Exponential mechanism: Pr[r] proportional to exp(eps s_r / (2 Delta)) (McSherry &
  Talwar, "Mechanism Design via Differential Privacy", FOCS 2007; Dwork & Roth, "The
  Algorithmic Foundations of Differential Privacy" (2014), Section 3.4, Def. 3.4; privacy
  Thm 3.10). Utility (Thm 3.11 and its Corollary 3.12):
  Pr[s_out <= OPT - (2 Delta/eps)(ln|R| + t)] <= e^{-t}.
- Report noisy max (RNM): argmax_r (s_r + Z_r) with Z_r iid noise of scale b. With Laplace
  noise it needs b = 2 Delta/eps in general and b = Delta/eps when the scores are monotone
  (all move in the same direction between neighbours, e.g. counts; Dwork & Roth, Claim
  3.9); :func:`max_privacy_loss` shows Delta/eps failing on non-monotone scores.
- Gumbel noise of scale 2 Delta/eps makes RNM exactly the exponential mechanism (the
  Gumbel-max trick: Pr[argmax_r (s_r/b + G_r) = r] = softmax(s/b)_r), which also samples
  a candidate set too large to hold: :func:`exponential_mechanism_stream`.
- Permute-and-flip (PF; McKenna & Sheldon, "Permute-and-Flip: A new mechanism for
  differentially private selection", NeurIPS 2020, Algorithm 1): visit the candidates in
  random order, accept r with probability exp(eps (s_r - s_max) / (2 Delta)). It is
  exactly RNM with exponential noise of the same scale (Ding, Kifer, Saghaian, Steinke,
  Wang, Xiao & Zhang, "The Permute-and-Flip Mechanism is Identical to Report-Noisy-Max
  with Exponential Noise", arXiv:2105.07260, 2021), and its expected score is never below
  the exponential mechanism's (McKenna & Sheldon, Thm 2).

The three are one description, :class:`ReportNoisyMax` (noise, scale): ``ExponentialMechanism``
is its Gumbel case and ``PermuteAndFlip`` its exponential case, each with its own sampler; all
three give their exact output probabilities, expected shortfall OPT - E[s] and privacy loss on a
pair of neighbouring score vectors.

Exact RNM probabilities (:func:`report_noisy_max_probabilities`) are the integrals
Pr[r] = int f(x - s_r) prod_{j != r} F(x - s_j) dx: softmax for Gumbel noise, a polynomial
integrated exactly by Gauss-Legendre for exponential noise, and for Laplace noise a
closed-form lower tail, the same exact polynomial for the upper tail and adaptive
quadrature (``scipy.integrate.quad_vec``) split at the scores in between.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike
from scipy import integrate, special

from dplab._checks import (
    as_result,
    check_choice,
    check_epsilon,
    check_nonnegative,
    check_positive,
    check_positive_int,
    check_rng,
    check_sensitivity,
)
from dplab.mechanisms.base import Mechanism

__all__ = [
    "RNM_NOISES",
    "ExponentialMechanism",
    "PermuteAndFlip",
    "ReportNoisyMax",
    "exponential_mechanism",
    "exponential_mechanism_stream",
    "exponential_probabilities",
    "exponential_utility_failure_probability",
    "exponential_utility_threshold",
    "max_privacy_loss",
    "permute_and_flip",
    "permute_and_flip_probabilities",
    "report_noisy_max",
    "report_noisy_max_probabilities",
    "report_noisy_max_scale",
]

#: The noises of :func:`report_noisy_max`: Lap(b), Exponential(b) and Gumbel(b).
RNM_NOISES = ("laplace", "exponential", "gumbel")

_BLOCK = 1 << 22  # noise matrices are drawn in blocks of at most this many entries
_LAPLACE_WINDOW = 40.0  # Laplace RNM: mass below s_max - 40 b is <= e^{-40}/2 (see below)


# ---------------------------------------------------------------------------------------
# Parameter checks of this module (the scalar ones come from dplab._checks)
# ---------------------------------------------------------------------------------------


def _check_scores(scores: object, name: str = "scores") -> np.ndarray:
    """A non-empty 1-d array of finite real numbers, as floats; else raise naming ``name``."""
    x = np.asarray(scores)
    if x.dtype == bool or not (np.issubdtype(x.dtype, np.integer) or np.issubdtype(x.dtype, np.floating)):
        raise TypeError(f"{name} must be a 1-d array of real numbers, got {name}={scores!r}")
    if x.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array, got {name} with shape {x.shape}")
    if x.size == 0:
        raise ValueError(f"{name} must be non-empty, got {name}={scores!r}")
    x = x.astype(float)
    bad = np.flatnonzero(~np.isfinite(x))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"{name} must be finite, got {name}[{i}]={x[i].item()!r}")
    return x


def _check_finite(value: object, name: str) -> float:
    """A finite real number (any sign), as a float."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a real number, got {name}={value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {name}={value!r}")
    return float(value)


def _check_size(size: object) -> tuple[int, ...] | None:
    """``None`` (one draw), an int n >= 1 or a tuple of them (the shape of the draws)."""
    if size is None:
        return None
    if isinstance(size, tuple):
        if not size:
            raise ValueError(f"size must be None, an int >= 1 or a non-empty tuple of them, "
                             f"got size={size!r}")
        return tuple(check_positive_int(n, "size") for n in size)
    return (check_positive_int(size, "size"),)


def _check_bool(value: object, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {name}={value!r}")
    return bool(value)


def _draw_indices(
    shape: tuple[int, ...] | None, n_outcomes: int, block: Callable[[int], np.ndarray]
) -> int | np.ndarray:
    """Indices from ``block(m)`` (m draws as an int array), in blocks of <= _BLOCK noise
    entries; a Python int when ``shape`` is None, else an int array of that shape."""
    if shape is None:
        return int(block(1)[0])
    n = math.prod(shape)
    rows = max(1, _BLOCK // n_outcomes)
    out = np.empty(n, dtype=np.int64)
    for start in range(0, n, rows):
        stop = min(n, start + rows)
        out[start:stop] = block(stop - start)
    return out.reshape(shape)


# ---------------------------------------------------------------------------------------
# The exponential mechanism
# ---------------------------------------------------------------------------------------


def _exponential_log_probabilities(s: np.ndarray, sensitivity: float, epsilon: ArrayLike) -> np.ndarray:
    """ln Pr[r] for checked scores, one row per epsilon (epsilon may be an array)."""
    z = np.multiply.outer(np.asarray(epsilon) / (2 * sensitivity), s - s.max())  # shift: exact for ties
    return z - special.logsumexp(z, axis=-1, keepdims=True)


def exponential_probabilities(scores: ArrayLike, sensitivity: float, epsilon: float) -> np.ndarray:
    """Pr[r] = exp(eps s_r / (2 Delta)) / sum_j exp(eps s_j / (2 Delta)), the exponential
    mechanism's output distribution (McSherry & Talwar 2007; Dwork & Roth, Def. 3.4).

    Computed as exp(z_r - logsumexp(z)) with z = eps (s - max s) / (2 Delta): scores of 1e6
    give the same answer as the same scores shifted to 0.
    """
    s = _check_scores(scores)
    return np.exp(_exponential_log_probabilities(s, check_sensitivity(sensitivity), check_epsilon(epsilon)))


def exponential_mechanism(
    scores: ArrayLike,
    sensitivity: float,
    epsilon: float,
    *,
    size: int | tuple[int, ...] | None = None,
    rng: np.random.Generator | int | None = None,
) -> int | np.ndarray:
    """Sample r with Pr[r] proportional to exp(eps s_r / (2 Delta)) (Dwork & Roth, Def. 3.4),
    eps-DP when Delta bounds the scores' sensitivity (Thm 3.10).

    Exact inverse-CDF sampling: r = #{j : C_j <= U} for U ~ U[0, 1) and C the cumulative
    probabilities (``np.searchsorted``); a U beyond the rounded total C_{|R|} goes to the
    last outcome of positive probability. ``size=None`` returns a Python int, otherwise an
    int array of shape ``size`` (independent draws).
    """
    p = exponential_probabilities(scores, sensitivity, epsilon)
    shape = _check_size(size)
    rng = check_rng(rng)
    cdf = np.cumsum(p)
    last = int(np.flatnonzero(p > 0)[-1])
    u = rng.random(1 if shape is None else shape)
    r = np.minimum(np.searchsorted(cdf, u, side="right"), last)
    return int(r[0]) if shape is None else r.astype(np.int64, copy=False)


def exponential_mechanism_stream(
    score_chunks: Iterable[ArrayLike],
    sensitivity: float,
    epsilon: float,
    *,
    rng: np.random.Generator | int | None = None,
) -> int:
    """One exact draw of the exponential mechanism over the concatenation of ``score_chunks``
    (1-d arrays, read once: the candidate set need never be held in memory).

    Gumbel-max trick: argmax_r (eps s_r / (2 Delta) + G_r), G_r iid standard Gumbel, has
    Pr[r] = softmax(eps s / (2 Delta))_r, the exponential mechanism; a running maximum over
    the chunks gives the argmax. Returns the index in the concatenation. Empty chunks are
    skipped; an iterable with no score at all is refused.
    """
    sensitivity = check_sensitivity(sensitivity)
    epsilon = check_epsilon(epsilon)
    rng = check_rng(rng)
    c = epsilon / (2 * sensitivity)
    best, best_index, offset = -np.inf, -1, 0
    for k, chunk in enumerate(score_chunks):
        x = np.asarray(chunk)
        if x.ndim == 1 and x.size == 0:
            continue
        s = _check_scores(chunk, f"score_chunks[{k}]")
        key = c * s + rng.gumbel(0.0, 1.0, size=s.size)
        i = int(np.argmax(key))
        if key[i] > best:
            best, best_index = float(key[i]), offset + i
        offset += s.size
    if best_index < 0:
        raise ValueError(f"score_chunks must hold at least one score, got {offset} scores")
    return best_index


def exponential_utility_threshold(
    opt: float, n_outcomes: int, sensitivity: ArrayLike, epsilon: ArrayLike, t: ArrayLike
) -> float | np.ndarray:
    """OPT - (2 Delta/eps)(ln|R| + t): the exponential mechanism's output scores at most
    this with probability <= e^{-t} (Dwork & Roth, Corollary 3.12 of Thm 3.11). Arrays of
    epsilon, t (and Delta) broadcast, for curves; scalars give a float."""
    opt = _check_finite(opt, "opt")
    n_outcomes = check_positive_int(n_outcomes, "n_outcomes")
    sensitivity = check_sensitivity(sensitivity, array_ok=True)
    epsilon = check_epsilon(epsilon, array_ok=True)
    t = check_nonnegative(t, "t", array_ok=True)
    return as_result(opt - 2 * sensitivity / epsilon * (np.log(n_outcomes) + t))


def exponential_utility_failure_probability(
    scores: ArrayLike, sensitivity: float, epsilon: ArrayLike, t: ArrayLike
) -> float | np.ndarray:
    """The exact Pr[s_out <= OPT - (2 Delta/eps)(ln|R| + t)] for the exponential mechanism
    on these scores (OPT = max s, |R| = len(scores)): the sum of :func:`exponential_probabilities`
    over the scores at or below :func:`exponential_utility_threshold`. Cor. 3.12 of Dwork &
    Roth bounds it by e^{-t}. Arrays of epsilon and t broadcast."""
    s = _check_scores(scores)
    sensitivity = check_sensitivity(sensitivity)
    epsilon = check_epsilon(epsilon, array_ok=True)
    t = check_nonnegative(t, "t", array_ok=True)
    thr = np.asarray(exponential_utility_threshold(s.max(), s.size, sensitivity, epsilon, t))
    p = np.exp(_exponential_log_probabilities(s, sensitivity, epsilon))
    return as_result(np.sum(np.where(s <= thr[..., None], p, 0.0), axis=-1))


# ---------------------------------------------------------------------------------------
# Report noisy max
# ---------------------------------------------------------------------------------------


def report_noisy_max_scale(
    sensitivity: ArrayLike, epsilon: ArrayLike, monotone: bool = False
) -> float | np.ndarray:
    """The noise scale b of eps-DP report noisy max: 2 Delta/eps in general, Delta/eps for
    monotone scores (Dwork & Roth, Claim 3.9 for Laplace noise on counts; McKenna & Sheldon
    2020 for exponential noise; Gumbel at 2 Delta/eps is the exponential mechanism)."""
    factor = 1.0 if _check_bool(monotone, "monotone") else 2.0
    return as_result(
        factor * check_sensitivity(sensitivity, array_ok=True) / check_epsilon(epsilon, array_ok=True)
    )


def _standard_noise(noise: str, rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    if noise == "laplace":
        return rng.laplace(0.0, 1.0, size=shape)
    if noise == "exponential":
        return rng.standard_exponential(size=shape)
    return rng.gumbel(0.0, 1.0, size=shape)


def report_noisy_max(
    scores: ArrayLike,
    sensitivity: float,
    epsilon: float,
    *,
    noise: str = "laplace",
    monotone: bool = False,
    size: int | tuple[int, ...] | None = None,
    rng: np.random.Generator | int | None = None,
) -> int | np.ndarray:
    """argmax_r (s_r + b Z_r), Z_r iid standard Laplace (density e^{-|x|}/2), exponential
    (e^{-x}, x >= 0) or Gumbel (exp(-x - e^{-x})), b from :func:`report_noisy_max_scale`.

    eps-DP (Dwork & Roth, Claim 3.9; McKenna & Sheldon 2020; Gumbel: the exponential
    mechanism). The noise is drawn standard and scaled, shape (draws, |R|). ``size=None``
    returns a Python int, otherwise an int array of shape ``size``.
    """
    s = _check_scores(scores)
    b = report_noisy_max_scale(sensitivity, epsilon, monotone)
    check_choice(noise, RNM_NOISES, "noise")
    shape = _check_size(size)
    rng = check_rng(rng)
    s = s - s.max()  # argmax is shift-invariant; keeps the noise's resolution at large scores

    def block(m: int) -> np.ndarray:
        return np.argmax(s + b * _standard_noise(noise, rng, (m, s.size)), axis=1)

    return _draw_indices(shape, s.size, block)


def _exact_polynomial_tail(a: np.ndarray, c: float) -> np.ndarray:
    """int_0^1 a_r prod_{j != r} (1 - c a_j u) du for every r (a_j in [0, 1], c in (0, 1]).

    The integrand is a polynomial of degree |R| - 1 in u, so Gauss-Legendre with
    |R|//2 + 1 nodes integrates it exactly; the product is taken in log space at nodes
    inside (0, 1), where every factor is > 0.
    """
    nodes, weights = special.roots_legendre(a.size // 2 + 1)
    u, w = (nodes + 1) / 2, weights / 2
    log_factors = np.log1p(-c * np.multiply.outer(u, a))  # (nodes, R)
    others = log_factors.sum(axis=1, keepdims=True) - log_factors
    return a * (w @ np.exp(others))


def _laplace_log_cdf(z: np.ndarray) -> np.ndarray:
    """ln F(z) for standard Laplace: z - ln 2 below 0, ln(1 - e^{-z}/2) above."""
    return np.where(z < 0, z - math.log(2), np.log1p(-0.5 * np.exp(-np.abs(z))))


def _laplace_rnm_probabilities(y: np.ndarray) -> np.ndarray:
    """Pr[argmax_r (y_r + Z_r) = r] for standard Laplace Z and max y = 0.

    Three pieces of int f(x - y_r) prod_{j != r} F(x - y_j) dx, with F(z) = e^z/2 below 0
    and 1 - e^{-z}/2 above:
    - x < min y: every factor is exponential, 2^{-R} e^{R x - sum y}: the integral is
      2^{-R} e^{R min y - sum y} / R for every r (exact);
    - x > 0: with u = e^{-x}, a_j = e^{y_j}, it is int_0^1 (a_r/2) prod (1 - a_j u/2) du,
      a polynomial integrated exactly (:func:`_exact_polynomial_tail`);
    - [max(min y, -40), 0]: ``scipy.integrate.quad_vec`` over all r at once, split at
      the scores and at every unit (the integrand increases on each piece between
      scores). Below -40 the integrand sums to the density of max_j (y_j + Z_j), whose
      mass there is at most Pr[Z < -40] = e^{-40}/2 < 3e-18: left out.
    """
    n = y.size
    low = math.exp(n * (y.min() - math.log(2)) - y.sum() - math.log(n))
    high = _exact_polynomial_tail(np.exp(y), 0.5) / 2
    lo = max(float(y.min()), -_LAPLACE_WINDOW)
    if lo >= 0:
        return low + high

    def integrand(x: float) -> np.ndarray:
        log_cdf = _laplace_log_cdf(x - y)
        return np.exp(-math.log(2) - np.abs(x - y) + log_cdf.sum() - log_cdf)

    cuts = np.unique(np.concatenate([y[(y > lo) & (y < 0)], np.arange(math.ceil(lo), 0.0)]))
    cuts = cuts[(cuts > lo) & (cuts < 0)]
    middle, err = integrate.quad_vec(integrand, lo, 0.0, epsabs=1e-14, epsrel=1e-12, norm="max",
                                     points=cuts if cuts.size else None)
    if err > 1e-10:
        warnings.warn(f"report_noisy_max_probabilities: quadrature error estimate {err:.1e}",
                      RuntimeWarning, stacklevel=3)
    return low + high + middle


def report_noisy_max_probabilities(scores: ArrayLike, scale: float, noise: str) -> np.ndarray:
    """The exact Pr[argmax_r (s_r + Z_r) = r] = int f(x - s_r) prod_{j != r} F(x - s_j) dx for
    iid noise Z of scale b = ``scale`` (f, F its density and CDF):

    - ``"gumbel"``: softmax(s / b) (closed form: the exponential mechanism at eps/(2 Delta) = 1/b);
    - ``"exponential"``: with u = e^{-(x - max s)/b}, a_j = e^{(s_j - max s)/b}:
      int_0^1 a_r prod_{j != r} (1 - a_j u) du, a polynomial integrated exactly by
      Gauss-Legendre; this is also permute-and-flip's formula (u is r's position in a
      random order, each j comes before it with probability u and rejects w.p. 1 - a_j);
    - ``"laplace"``: exact tails and adaptive quadrature split at the scores
      (see :func:`_laplace_rnm_probabilities`), accurate to about 1e-12.

    Equal scores get equal probabilities; practical for a few hundred outcomes.
    """
    s = _check_scores(scores)
    b = check_positive(scale, "scale")
    check_choice(noise, RNM_NOISES, "noise")
    y = (s - s.max()) / b
    if noise == "gumbel":
        return special.softmax(y)
    if noise == "exponential":
        return _exact_polynomial_tail(np.exp(y), 1.0)
    return _laplace_rnm_probabilities(y)


# ---------------------------------------------------------------------------------------
# Permute-and-flip
# ---------------------------------------------------------------------------------------


def permute_and_flip(
    scores: ArrayLike,
    sensitivity: float,
    epsilon: float,
    *,
    monotone: bool = False,
    size: int | tuple[int, ...] | None = None,
    rng: np.random.Generator | int | None = None,
) -> int | np.ndarray:
    """Permute-and-flip, literally McKenna & Sheldon's Algorithm 1: visit the candidates in
    a uniformly random order and return the first r whose coin with
    Pr[heads] = exp(eps (s_r - s_max) / (2 Delta)) comes up heads (Delta instead of 2 Delta
    when ``monotone``). A best candidate always accepts, so each draw ends.

    Vectorised: each row is an independent random permutation (``rng.permuted``) with
    one coin per position; the answer is the candidate at the first heads.
    """
    s = _check_scores(scores)
    b = report_noisy_max_scale(sensitivity, epsilon, monotone)
    shape = _check_size(size)
    rng = check_rng(rng)
    accept = np.exp((s - s.max()) / b)  # exactly 1 for the best candidates
    n = s.size

    def block(m: int) -> np.ndarray:
        order = rng.permuted(np.broadcast_to(np.arange(n), (m, n)), axis=1)
        heads = rng.random((m, n)) < accept[order]
        return order[np.arange(m), np.argmax(heads, axis=1)]

    return _draw_indices(shape, n, block)


def permute_and_flip_probabilities(
    scores: ArrayLike, sensitivity: float, epsilon: float, monotone: bool = False
) -> np.ndarray:
    """Permute-and-flip's exact output probabilities, Pr[r] = int_0^1 a_r prod_{j != r}
    (1 - a_j u) du with a_j = exp((s_j - s_max)/b): report noisy max with exponential noise
    of scale b = 2 Delta/eps (Delta/eps when monotone) (Ding et al. 2021)."""
    b = report_noisy_max_scale(sensitivity, epsilon, monotone)
    return report_noisy_max_probabilities(scores, b, "exponential")


# ---------------------------------------------------------------------------------------
# Privacy loss of a finite-output mechanism
# ---------------------------------------------------------------------------------------


def max_privacy_loss(probabilities: ArrayLike, neighbour_probabilities: ArrayLike) -> float:
    """max_r |ln p_r - ln q_r| for two output distributions p, q on the same finite set:
    the smallest eps with e^{-eps} q_r <= p_r <= e^{eps} q_r for all r (eps-DP on this pair
    of neighbours). inf where exactly one of p_r, q_r is 0; outcomes with p_r = q_r = 0
    are ignored."""
    p = np.atleast_1d(check_nonnegative(probabilities, "probabilities", array_ok=True))
    q = np.atleast_1d(check_nonnegative(neighbour_probabilities, "neighbour_probabilities", array_ok=True))
    if p.shape != q.shape:
        raise ValueError(f"probabilities and neighbour_probabilities must have the same shape, "
                         f"got {p.shape} and {q.shape}")
    if np.any((p > 0) != (q > 0)):
        return math.inf
    both = p > 0
    if not both.any():
        return 0.0
    return float(np.max(np.abs(np.log(p[both]) - np.log(q[both]))))


# ---------------------------------------------------------------------------------------
# The description objects
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReportNoisyMax(Mechanism):
    """Report noisy max, argmax_r (s_r + Z_r) with Z_r iid ``noise`` of scale b = 2 Delta/eps, or
    Delta/eps when ``monotone`` (:func:`report_noisy_max_scale`; Dwork & Roth, Claim 3.9).
    epsilon-DP for scores of sensitivity Delta, and for ``monotone=True`` only when the scores
    move in one direction between neighbours: :meth:`max_privacy_loss` on a non-monotone pair
    shows Laplace noise at Delta/eps losing 2 eps - ln(1 + eps) > eps."""

    sensitivity: float
    epsilon: float
    noise: str = "laplace"
    monotone: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "sensitivity", check_sensitivity(self.sensitivity))
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon))
        object.__setattr__(self, "noise", check_choice(self.noise, RNM_NOISES, "noise"))
        object.__setattr__(self, "monotone", _check_bool(self.monotone, "monotone"))

    @property
    def scale(self) -> float:
        """The noise scale b: 2 Delta/eps, or Delta/eps for monotone scores."""
        return report_noisy_max_scale(self.sensitivity, self.epsilon, self.monotone)

    def probabilities(self, scores: ArrayLike) -> np.ndarray:
        """The exact Pr[output = r] for each candidate (:func:`report_noisy_max_probabilities`)."""
        return report_noisy_max_probabilities(scores, self.scale, self.noise)

    def sample(self, scores: ArrayLike, rng: np.random.Generator | int | None = None, *,
               size: int | tuple[int, ...] | None = None) -> int | np.ndarray:
        """The index of the candidate released (:func:`report_noisy_max`)."""
        return report_noisy_max(scores, self.sensitivity, self.epsilon, noise=self.noise,
                                monotone=self.monotone, size=size, rng=rng)

    def expected_shortfall(self, scores: ArrayLike) -> float:
        """OPT - E[s_output] = max_r s_r - sum_r Pr[r] s_r: how much worse than the best candidate,
        on average (for the exponential mechanism at most (2 Delta/eps)(ln|R| + 1), Dwork & Roth
        Thm 3.11 integrated over t)."""
        s = _check_scores(scores)
        return float(s.max() - self.probabilities(s) @ s)

    def max_privacy_loss(self, scores: ArrayLike, neighbour_scores: ArrayLike) -> float:
        """max_r |ln Pr[r | s] - ln Pr[r | s']| on one pair of neighbouring score vectors: the
        smallest eps for which this pair satisfies eps-DP (:func:`max_privacy_loss`)."""
        return max_privacy_loss(self.probabilities(scores), self.probabilities(neighbour_scores))

    def epsilon_delta(self) -> tuple[float, float]:
        """(epsilon, 0): pure epsilon-DP (with ``monotone``, for monotone scores only)."""
        return self.epsilon, 0.0


@dataclass(frozen=True)
class ExponentialMechanism(ReportNoisyMax):
    """The exponential mechanism, Pr[r] proportional to exp(eps s_r / (2 Delta)) (Dwork & Roth,
    Def. 3.4), or exp(eps s_r / Delta) for monotone scores (their remark after Thm 3.10): report
    noisy max with Gumbel noise of the same scale. Probabilities by :func:`exponential_probabilities`
    (log-sum-exp), draws by inverse CDF (:func:`exponential_mechanism`)."""

    noise: str = field(default="gumbel", init=False)

    def _halved(self) -> float:
        """The sensitivity that gives exp(eps s / (2 Delta')) its scale b: Delta/2 when monotone."""
        return self.sensitivity / 2 if self.monotone else self.sensitivity

    def probabilities(self, scores: ArrayLike) -> np.ndarray:
        return exponential_probabilities(scores, self._halved(), self.epsilon)

    def sample(self, scores: ArrayLike, rng: np.random.Generator | int | None = None, *,
               size: int | tuple[int, ...] | None = None) -> int | np.ndarray:
        return exponential_mechanism(scores, self._halved(), self.epsilon, size=size, rng=rng)


@dataclass(frozen=True)
class PermuteAndFlip(ReportNoisyMax):
    """Permute-and-flip (McKenna & Sheldon 2020, Algorithm 1), exactly report noisy max with
    exponential noise of the same scale (Ding et al. 2021): draws run the algorithm literally
    (:func:`permute_and_flip`)."""

    noise: str = field(default="exponential", init=False)

    def sample(self, scores: ArrayLike, rng: np.random.Generator | int | None = None, *,
               size: int | tuple[int, ...] | None = None) -> int | np.ndarray:
        return permute_and_flip(scores, self.sensitivity, self.epsilon, monotone=self.monotone, size=size,
                                rng=rng)
