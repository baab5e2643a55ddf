"""Data-dependent noise for the median: local, smooth and global sensitivity (Nissim,
Raskhodnikova & Smith, "Smooth sensitivity and sampling in private data analysis", STOC 2007;
cited as NRS07, the full version).

The median here is the lower median x_(m), m = ceil(n/2), of n values clipped to [low, high]
and sorted; the sorted list is padded with low at index 0 and below, high at index n + 1 and
above (NRS07, Section 3.1). Neighbours replace one value (n public), as in NRS07.

* Global sensitivity: high - low. Put m = ceil(n/2) values at low and the rest at high:
  replacing one value at low by high moves x_(m) from low to high. Under
  add/remove it is high - low too (k values at each end: adding one at high moves the lower
  median of 2k + 1 values from low to high).
* Local sensitivity LS(x) = max(x_(m) - x_(m-1), x_(m+1) - x_(m)): the most one replacement
  moves the median of *this* x. Noise scaled to it is not private: LS itself changes between
  neighbours (0 on data with ties, positive after one replacement), so the noise level
  reveals the data.
* Smooth sensitivity S*(x) = max over k >= 0 of e^(-k beta) A_k(x), with A_k(x) the largest
  local sensitivity of a database at distance <= k from x:
  A_k(x) = max over t = 0..k+1 of x_(m+t) - x_(m+t-k-1) (NRS07, Section 3.1). It is at
  least LS(x) and changes by at most a factor e^beta between neighbours (beta-smooth).
* Release: median + (2 S*(x) / epsilon) Lap(1) with beta = epsilon / (2 ln(2/delta)) is
  (epsilon, delta)-DP (NRS07, Lemma 2.6 with the Laplace distribution's admissibility,
  Lemma 2.9).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import (
    Neighbours,
    check_bounds,
    check_delta,
    check_epsilon,
    check_neighbours,
    check_nonnegative,
    check_positive_int,
    check_rng,
)

__all__ = [
    "median_distance_to_leak",
    "median_global_pair",
    "median_global_release_rmse",
    "median_global_sensitivity",
    "median_global_sensitivity_by_search",
    "median_local_sensitivity",
    "median_local_sensitivity_by_definition",
    "median_release_smooth",
    "median_smooth_release_rmse",
    "median_sensitivity_at_distance",
    "median_smooth_sensitivity",
    "median_smooth_sensitivity_by_definition",
    "median_smoothness_ratio",
    "smooth_beta",
    "replace_one_neighbours",
    "sorted_clipped",
]


def sorted_clipped(values: ArrayLike, low: float, high: float) -> np.ndarray:
    """The values clipped to [low, high] and sorted (ValueError if there are none)."""
    low, high = check_bounds(low, high)
    x = np.asarray(values, dtype=float).ravel()
    if x.size == 0:
        raise ValueError("values must hold at least one value, got an empty array")
    if np.isnan(x).any():
        raise ValueError("values must not contain NaN")
    return np.sort(np.clip(x, low, high))


def _median_index(n: int) -> int:
    """m = ceil(n / 2), 1-based: the lower median."""
    return (n + 1) // 2


def _padded(x: np.ndarray, low: float, high: float, k: int) -> tuple[np.ndarray, int]:
    """x_(i) for i = m - k - 1 .. m + k + 1 (low below 1, high above n), and the offset of x_(m)."""
    n, m = x.size, _median_index(x.size)
    i = np.arange(m - k - 1, m + k + 2)
    inside = x[np.clip(i - 1, 0, n - 1)]
    return np.where(i < 1, low, np.where(i > n, high, inside)), k + 1


def median_global_sensitivity(low: float, high: float) -> float:
    """high - low: the median's global sensitivity over values in [low, high] (replace-one, and
    add/remove too; module docstring)."""
    low, high = check_bounds(low, high)
    return high - low


def median_sensitivity_at_distance(values: ArrayLike, low: float, high: float, k: int) -> float:
    """A_k(x) = max over t = 0..k+1 of x_(m+t) - x_(m+t-k-1): the largest local sensitivity of
    the median over databases within k replacements of x (NRS07, Section 3.1). A_0 = LS(x)."""
    x = sorted_clipped(values, *check_bounds(low, high))
    k = int(check_nonnegative(k, "k"))
    window, mid = _padded(x, low, high, k)
    t = np.arange(k + 2)
    return float(np.max(window[mid + t] - window[mid + t - k - 1]))


def median_local_sensitivity(values: ArrayLike, low: float, high: float) -> float:
    """LS(x) = max(x_(m) - x_(m-1), x_(m+1) - x_(m)): 0 when the median's neighbours in the
    sorted list tie with it. Not a basis for private noise (module docstring)."""
    return median_sensitivity_at_distance(values, low, high, 0)


def smooth_beta(epsilon: float, delta: float) -> float:
    """beta = epsilon / (2 ln(2/delta)): the smoothness that Laplace noise of scale
    2 S*/epsilon needs for (epsilon, delta)-DP (NRS07, Lemma 2.9)."""
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    if delta <= 0:
        raise ValueError(f"delta must be in (0, 1) for smooth sensitivity, got delta={delta!r}")
    return epsilon / (2 * math.log(2 / delta))


def median_smooth_sensitivity(values: ArrayLike, low: float, high: float, beta: float) -> float:
    """S*(x) = max over k of e^(-k beta) A_k(x) (NRS07, Definition 2.1 and Section 3.1).

    Written over pairs, S* = max over i <= m <= j of g(i, j) = (x_(j) - x_(i)) e^(-beta (j - i - 1))
    (the pair j - i = k + 1 straddles the median). g is totally monotone: if a larger j wins
    for row i, it wins for every later row too (x_(i) grows with i), so the best j of each row
    grows with i and divide and conquer finds every row's best in O(n log n) (the
    algorithm NRS07 give in Section 3.1)."""
    low, high = check_bounds(low, high)
    x = sorted_clipped(values, low, high)
    beta = check_epsilon(beta, "beta")
    y = np.concatenate([[low], x, [high]])  # x_(0) = low, x_(n+1) = high
    m = _median_index(x.size)
    best = 0.0
    stack = [(0, m, m, x.size + 1)]  # rows i in [0, m], their best j in [j_low, j_high]
    while stack:
        i_low, i_high, j_low, j_high = stack.pop()
        if i_low > i_high:
            continue
        i = (i_low + i_high) // 2
        j = np.arange(max(j_low, i), j_high + 1)
        g = (y[j] - y[i]) * np.exp(-beta * (j - i - 1))
        top = g.size - 1 - int(np.argmax(g[::-1]))  # the last of the best: monotone in i
        best = max(best, float(g[top]))
        stack.append((i_low, i - 1, j_low, int(j[top])))
        stack.append((i + 1, i_high, int(j[top]), j_high))
    return best


def median_smooth_sensitivity_by_definition(values: ArrayLike, low: float, high: float,
                                            betas: ArrayLike) -> np.ndarray:
    """S*(x) = max over k = 0..n of e^(-k beta) A_k(x) for each beta, straight from NRS07's
    Definition 2.1 (A_n = high - low, and A_k e^(-k beta) only falls after it): every A_k from its
    own window, O(n^2) in all but shared by the betas. A check of :func:`median_smooth_sensitivity`'s
    divide and conquer (about 0.5 s at n = 12,579)."""
    low, high = check_bounds(low, high)
    x = sorted_clipped(values, low, high)
    n, m = x.size, _median_index(x.size)
    y = np.concatenate([np.full(n + 2, low), x, np.full(n + 2, high)])  # x_(i) is y[i + n + 1]
    at = m + n + 1  # x_(m)
    a = np.array([float(np.max(y[at:at + k + 2] - y[at - k - 1:at + 1])) for k in range(n + 1)])
    k = np.arange(a.size)
    return np.array([float(np.max(np.exp(-check_epsilon(b, "beta") * k) * a))
                     for b in np.atleast_1d(np.asarray(betas, dtype=float))])


def median_local_sensitivity_by_definition(values: ArrayLike, low: float, high: float) -> float:
    """LS(x) by its definition: the largest move of the lower median (found by sorting) when one
    value of x is replaced, by low or by high (the farthest replacements), over every distinct value
    (:func:`replace_one_neighbours`). A check of :func:`median_local_sensitivity`'s two gaps."""
    x = sorted_clipped(values, low, high)
    m = (x.size + 1) // 2 - 1  # the lower median's 0-based index, written out
    return float(max(abs(y[m] - x[m]) for y in replace_one_neighbours(x, (low, high))))


def median_global_sensitivity_by_search(low: float, high: float, neighbours: Neighbours | str, *,
                                        grid_points: int = 5, n_max: int = 6) -> float:
    """max |median(x') - median(x)| over every database x of 1..n_max values on a grid of
    ``grid_points`` values on [low, high] and each of its neighbours x' (replace-one: one value by a
    grid value; add/remove: one grid value added, or one of n > 1 values removed), the lower median by
    sorting: the global sensitivity by brute force, a check of :func:`median_global_sensitivity`."""
    low, high = check_bounds(low, high)
    grid = tuple(np.linspace(low, high, check_positive_int(grid_points, "grid_points")))
    replace = check_neighbours(neighbours) == Neighbours.REPLACE

    def med(values) -> float:
        return sorted(values)[(len(values) + 1) // 2 - 1]

    worst = 0.0
    for n in range(1, check_positive_int(n_max, "n_max") + 1):
        for x in itertools.combinations_with_replacement(grid, n):
            near = ([x[:i] + (v,) + x[i + 1:] for i in range(n) for v in grid] if replace
                    else [x + (v,) for v in grid] + [x[:i] + x[i + 1:] for i in range(n) if n > 1])
            worst = max(worst, *(abs(med(y) - med(x)) for y in near))
    return float(worst)


def median_smoothness_ratio(values: ArrayLike, low: float, high: float, beta: float,
                            neighbours: list[np.ndarray] | None = None) -> float:
    """max over the ``neighbours`` x' of x of |ln(S*(x') / S*(x))| / beta (default neighbours:
    :func:`replace_one_neighbours` by low and by high). At most 1 when S* is beta-smooth, NRS07
    Definition 2.1: S*(x) <= e^beta S*(x') and S*(x') <= e^beta S*(x)."""
    base = median_smooth_sensitivity(values, low, high, beta)
    neighbours = replace_one_neighbours(values, (low, high)) if neighbours is None else neighbours
    return max(abs(math.log(median_smooth_sensitivity(y, low, high, beta) / base)) for y in neighbours) / beta


def median_release_smooth(values: ArrayLike, low: float, high: float, epsilon: float, delta: float, *,
                          size: int | None = None, rng=None) -> float | np.ndarray:
    """The (epsilon, delta)-DP median: x_(m) + (2 S*(x) / epsilon) Lap(1), S* at
    beta = epsilon / (2 ln(2/delta)) (NRS07, Lemmas 2.6 and 2.9). ``size`` releases at once."""
    x = sorted_clipped(values, low, high)
    scale = 2 * median_smooth_sensitivity(x, low, high, smooth_beta(epsilon, delta)) / epsilon
    rng = check_rng(rng)
    if size is None:
        return float(x[_median_index(x.size) - 1] + scale * rng.laplace())
    size = check_positive_int(size, "size")
    return x[_median_index(x.size) - 1] + scale * rng.laplace(size=size)


def median_smooth_release_rmse(values: ArrayLike, low: float, high: float, epsilon: float,
                               delta: float) -> float:
    """The root-mean-square error of :func:`median_release_smooth`: sqrt(2) times its Laplace
    scale 2 S*(x)/epsilon (the global release's is sqrt(2)(high - low)/epsilon)."""
    x = sorted_clipped(values, low, high)
    return math.sqrt(2) * 2 * median_smooth_sensitivity(x, low, high, smooth_beta(epsilon, delta)) / epsilon


def median_global_release_rmse(low: float, high: float, epsilon: float) -> float:
    """sqrt(2) (high - low) / epsilon: the root-mean-square error of the epsilon-DP median released
    with Laplace noise at the global sensitivity (E[Lap(b)^2] = 2 b^2, b = (high - low)/epsilon)."""
    return math.sqrt(2) * median_global_sensitivity(low, high) / check_epsilon(epsilon)


def median_distance_to_leak(values: ArrayLike, low: float, high: float) -> int:
    """The fewest replaced values after which the median can have local sensitivity > 0: the
    smallest k with A_k(x) > 0 (A_k grows with k, so by bisection; n + 1 at most)."""
    x = sorted_clipped(values, low, high)
    lo, hi = 0, x.size + 1
    while lo < hi:
        mid = (lo + hi) // 2
        if median_sensitivity_at_distance(x, low, high, mid) > 0:
            hi = mid
        else:
            lo = mid + 1
    return lo


def replace_one_neighbours(values: ArrayLike, replacements: ArrayLike,
                           replaced: ArrayLike | None = None) -> list[np.ndarray]:
    """Replace-one neighbours of ``values``, each sorted: one copy of each value in ``replaced``
    (default: every distinct value) replaced by each of ``replacements`` that differs from it."""
    x = np.sort(np.asarray(values, dtype=float).ravel())
    out = []
    for v in (np.unique(x) if replaced is None else np.asarray(replaced, dtype=float).ravel()):
        i = int(np.searchsorted(x, v))
        if i >= x.size or x[i] != v:
            raise ValueError(f"replaced must hold values of values, got {v!r}")
        for r in np.asarray(replacements, dtype=float).ravel():
            if r != v:
                y = x.copy()
                y[i] = r
                out.append(np.sort(y))
    return out


def median_global_pair(n: int, low: float, high: float,
                       neighbours: Neighbours | str = Neighbours.REPLACE) -> tuple[np.ndarray, np.ndarray]:
    """Neighbouring databases whose lower medians are high - low apart: the witness that the
    global sensitivity is high - low. Replace-one: m = ceil(n/2) values at low and the rest at
    high, then one low becomes high. Add/remove (n even): n/2 values at each end, then one more
    at high (module docstring)."""
    n = check_positive_int(n, "n")
    low, high = check_bounds(low, high)
    if check_neighbours(neighbours) == Neighbours.REPLACE:
        m = _median_index(n)
        x = np.array([low] * m + [high] * (n - m))
        return x, np.sort(np.append(x[1:], high))
    if n % 2:
        raise ValueError(f"n must be even for the add/remove pair, got n={n}")
    x = np.array([low] * (n // 2) + [high] * (n // 2))
    return x, np.append(x, high)
