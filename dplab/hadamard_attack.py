"""The Fourier (Hadamard) reconstruction attack: n structured subset sums, decoded in O(n log n)
([Gaboardi17]'s project idea; Dwork & Yekhanin, "New efficient attacks on statistical disclosure
control mechanisms", CRYPTO 2008, the attack by the Fourier transform over {0, 1}^k).

The least-squares attack of :mod:`dplab.reconstruction` asks m random subsets and solves an
m x n system, O(m n^2) work. Here n = 2^k and the queries are the rows of A = (J + H)/2, H the
n x n Sylvester-Hadamard matrix (H_ij = (-1)^popcount(i & j)) and J the all-ones matrix: query 0
counts everyone, query i > 0 the n/2 people j with popcount(i & j) even. The answers
y = A x + e, with the lab's noise models (:func:`dplab.reconstruction.answer_noise`), are
inverted exactly by one fast Walsh-Hadamard transform (H H = n I):

    H y = (n/2) (x + (sum_j x_j) e_0) + H e,

so bit i > 0 is estimated by x_i + u_i with u = 2 H e / n, and bit 0 by subtracting the others
from the total. No n x n matrix is ever formed: n = 2^20 takes a fraction of a second.

Because A is square and invertible this estimate *is* least squares on these queries (the
tests compare with the dense solution). Parseval, ||H e||^2 = n ||e||^2, gives the two results:
noise bounded by E per answer leaves at most 16 E^2 + 1 bits wrong (:func:`hadamard_max_wrong`),
so E = o(sqrt(n)) is blatantly non-private; Gaussian noise of standard deviation sigma leaves
each bit i > 0 right with probability Phi(sqrt(n) / (4 sigma)) (:func:`hadamard_recovery_theory`),
what least squares needs m = 2n random queries to reach (Phi(sqrt(m - n) / (4 sigma))).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from scipy import linalg, stats

from dplab._checks import as_result, check_nonnegative, check_positive_int
from dplab.reconstruction import _bits, answer_noise

__all__ = [
    "MAX_DENSE_HADAMARD",
    "fwht",
    "hadamard_answers",
    "hadamard_attack",
    "hadamard_estimate",
    "hadamard_max_wrong",
    "hadamard_queries",
    "hadamard_recovery_theory",
    "hadamard_shares",
]

#: the largest n for which :func:`hadamard_queries` builds the dense matrix (for comparisons only)
MAX_DENSE_HADAMARD = 4096


def _power_of_two(n: object, name: str) -> int:
    n = check_positive_int(n, name)
    if n & (n - 1):
        raise ValueError(f"{name} must be a power of 2 (the Sylvester-Hadamard matrix), got {name}={n}")
    return n


def fwht(values: ArrayLike) -> np.ndarray:
    """The fast Walsh-Hadamard transform H v along the first axis (length n = 2^k), H the
    Sylvester-Hadamard matrix of :func:`scipy.linalg.hadamard` (H_{2h} = [[H_h, H_h], [H_h, -H_h]]),
    unnormalised (H H = n I). k butterfly passes (a, b) -> (a + b, a - b): O(n log n) additions,
    no matrix. A 2-d input (n x draws) transforms every column."""
    v = np.array(values, dtype=float)  # a copy: the passes work in place
    if v.ndim not in (1, 2) or not np.all(np.isfinite(v)):
        raise ValueError(f"values must be a 1-d or 2-d array of finite numbers, got shape {v.shape}")
    n = _power_of_two(v.shape[0], "len(values)")
    rest = v.shape[1:]
    h = 1
    while h < n:
        pairs = v.reshape(n // (2 * h), 2, h, *rest)
        top = pairs[:, 0].copy()
        pairs[:, 0] += pairs[:, 1]
        np.subtract(top, pairs[:, 1], out=pairs[:, 1])
        h *= 2
    return v


def hadamard_queries(n_bits: int) -> np.ndarray:
    """The attack's queries (J + H)/2 as a dense n x n 0/1 matrix (uint8), n = 2^k <= 4096:
    for showing them and for comparisons with the dense attacks only; the attack never builds it."""
    n = _power_of_two(n_bits, "n_bits")
    if n > MAX_DENSE_HADAMARD:
        raise ValueError(f"n_bits must be <= {MAX_DENSE_HADAMARD} for the dense matrix, got n_bits={n}")
    return ((1 + linalg.hadamard(n)) // 2).astype(np.uint8)


def hadamard_answers(bits: ArrayLike, *, noise: str = "uniform", scale: float, rng=None) -> np.ndarray:
    """The n answers A x + e to the queries A = (J + H)/2, computed as (sum(x) + H x)/2 by one
    :func:`fwht`, with the noise of :func:`dplab.reconstruction.answer_queries` (uniform on [-E, E],
    Gaussian or Laplace; independent per answer). For a DP release take (noise, scale) from
    :func:`dplab.reconstruction.dp_answer_noise` with n queries (person 0 is in all n of them)."""
    x = _bits(bits).astype(float)  # the transform sums them: no uint8 overflow
    n = _power_of_two(x.size, "len(bits)")
    return (x.sum() + fwht(x)) / 2 + answer_noise(noise, scale, n, rng=rng)


def hadamard_estimate(answers: ArrayLike) -> np.ndarray:
    """The real-valued least-squares estimate z = A^-1 y of the bits from the n answers (one
    column per release for a 2-d n x draws input), A = (J + H)/2. With w = 2 H y / n,
    z_i = w_i for i > 0 and z_0 = (w_0 - sum_{i > 0} w_i) / 2 (w_0 estimates sum(x) + x_0).
    The error is u_i = (2 H e / n)_i for bit i > 0 and (2/n) sum(e) - e_0 for bit 0."""
    y = np.asarray(answers, dtype=float)
    w = fwht(y) * (2 / y.shape[0])
    z = w.copy()
    z[0] = (w[0] - w[1:].sum(axis=0)) / 2
    return z


def hadamard_attack(answers: ArrayLike) -> np.ndarray:
    """The Fourier attack's guess: :func:`hadamard_estimate` rounded at 1/2 (uint8 bits, a 1 when
    z >= 1/2, as :func:`dplab.reconstruction.least_squares_attack` rounds). O(n log n)."""
    return (hadamard_estimate(answers) >= 0.5).astype(np.uint8)


def hadamard_shares(bits: ArrayLike, scales: ArrayLike, *, noise: str = "uniform", draws: int = 1,
                    rng=None) -> np.ndarray:
    """The share of bits :func:`hadamard_attack` recovers at every noise scale (uniform E, Gaussian
    sigma or Laplace b), a len(scales) x draws array, from one draw of standard noise z per release:
    the estimate is linear, x + s A^-1 z, so one transform serves every scale (common random numbers,
    as :class:`dplab.reconstruction.LeastSquaresDesign` does for least squares)."""
    x = _bits(bits).astype(float)  # the transform sums them: no uint8 overflow
    n = _power_of_two(x.size, "len(bits)")
    scales = np.atleast_1d(check_nonnegative(scales, "scales", array_ok=True))
    k = check_positive_int(draws, "draws")
    w = hadamard_estimate(answer_noise(noise, 1.0, n * k, rng=rng).reshape(n, k))
    ones = x[:, None] == 1
    return np.stack([np.where(ones, s * w >= -0.5, s * w < 0.5).mean(axis=0) for s in scales])


def hadamard_recovery_theory(n_bits: int, noise_sd: ArrayLike) -> float | np.ndarray:
    """The expected share of bits :func:`hadamard_attack` recovers when each answer has independent
    noise of standard deviation sigma:

        ((n - 1) Phi(sqrt(n) / (4 sigma)) + Phi(1 / (2 sigma))) / n.

    Bit i > 0 has error u_i = (2/n) sum_j H_ij e_j, variance (4/n^2) n sigma^2 = 4 sigma^2 / n, and
    is right when |u_i| < 1/2 on the wrong side; bit 0's error (2/n) sum(e) - e_0 has variance
    sigma^2 ((1 - 2/n)^2 + 4 (n - 1)/n^2) = sigma^2. Exact for Gaussian noise (then it equals
    :func:`dplab.reconstruction.ls_recovery_exact` on :func:`hadamard_queries`); for uniform and
    Laplace noise u_i is a sum of n independent terms, Gaussian in the limit (central limit theorem).
    """
    n = _power_of_two(n_bits, "n_bits")
    sd = np.asarray(check_nonnegative(noise_sd, "noise_sd", array_ok=True), dtype=float)
    with np.errstate(divide="ignore"):
        share = ((n - 1) * stats.norm.cdf(math.sqrt(n) / (4 * sd)) + stats.norm.cdf(1 / (2 * sd))) / n
    return as_result(share)


def hadamard_max_wrong(n_bits: int, bound: float) -> int:
    """The most bits :func:`hadamard_attack` can get wrong when every answer is within E of the
    truth, whatever the noise (an adversary's included):

        min(n - 1, floor(16 E^2)) + [E (3 - 4/n) >= 1/2]   (n >= 2).

    Bit i > 0 is wrong only if |u_i| >= 1/2, and by Parseval sum_i u_i^2 = (4/n^2) ||H e||^2
    = (4/n) ||e||^2 <= 4 E^2, so at most 16 E^2 of them are (Dwork & Yekhanin 2008: E = o(sqrt n)
    leaves o(n) bits wrong). Bit 0's error (2/n) sum(e) - e_0 is at most E (|1 - 2/n| + 2 (n - 1)/n)
    in absolute value, E (3 - 4/n) for n >= 2. An upper bound, not always attained."""
    n = _power_of_two(n_bits, "n_bits")
    e = check_nonnegative(bound, "bound")
    return min(n - 1, math.floor(16 * e * e)) + int(e * (abs(1 - 2 / n) + 2 * (n - 1) / n) >= 0.5)
