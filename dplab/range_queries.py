"""Range queries over k ordered bins: answer every range, identity, b-ary hierarchy.

Seed 000, "Strategy 1/2/3": a histogram x of k ordered bins, and the workload W of
all k(k+1)/2 range queries x[i] + ... + x[j]. A *strategy* measures some linear
queries A x with Laplace noise scaled to A's L1 sensitivity (its largest column
sum) and answers W from the measurements.

* ``all_ranges``: measure every range (sensitivity floor((k+1)^2/4)).
* ``identity``: measure every bin; a range is the sum of its bins (sensitivity 1).
* ``wavelet``: Privelet (Xiao, Wang & Gehrke, ICDE 2010): the Haar wavelet of the
  bins padded to 2^h, each coefficient weighted by its support, i.e. the grand total
  and, for every node of the binary tree, (left half sum - right half sum); a bin is
  in h + 1 of them with coefficient +-1 (sensitivity h + 1). A is square and
  invertible: the inverse Haar transform is the least-squares reconstruction.
* ``hierarchy``: a b-ary tree of interval counts over the bins padded to b^h
  (sensitivity = number of measured levels); a range is the sum of its maximal
  tree nodes, at most 2(b-1) per level. The root is measured only with
  ``include_root=True``: with every leaf measured a noisy root only costs budget
  (Qardaji, Yang & Li 2013). With inference, the consistent least-squares tree
  estimate of Hay, Rastogi, Miklau & Suciu (VLDB 2010) in O(k).

Errors over all ranges never materialise the ranges: a range error is a difference
of two prefix sums of the per-bin error, so the total over all ranges is
(k + 1) sum P_a^2 - (sum P_a)^2 (prefix sums P_0 = 0, ..., P_k).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import check_epsilon, check_positive_int, check_rng
from dplab.datasets import load_yrbss
from dplab.mechanisms import laplace_mse

__all__ = [
    "HISTOGRAM_SHAPES",
    "STRATEGIES",
    "RangeStrategy",
    "all_range_max_error",
    "all_range_total_error",
    "all_ranges_gram",
    "best_branching",
    "consistent_tree_estimate",
    "expected_total_error",
    "height_histogram",
    "hierarchy_crossover_k",
    "range_error_by_length",
    "range_strategy",
    "synthetic_histogram",
    "tree_height",
]

STRATEGIES = ("all_ranges", "identity", "hierarchy", "wavelet")
_ALL_RANGES_LIMIT = 2048  # k(k+1)/2 measurements: about 2 million at this k


def tree_height(k: int, branching: int = 2) -> int:
    """Smallest h with branching^h >= k, in integer arithmetic (floating log(125, 5) is 2.9999...)."""
    k = check_positive_int(k, "k")
    branching = _check_branching(branching)
    h, size = 0, 1
    while size < k:
        size *= branching
        h += 1
    return h


def _check_branching(branching: int) -> int:
    if isinstance(branching, bool) or not isinstance(branching, (int, np.integer)) or branching < 2:
        raise ValueError(f"branching must be an integer >= 2, got branching={branching!r}")
    return int(branching)


def _check_histogram(x: ArrayLike, k: int) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"x must be a non-empty 1-d histogram, got shape {x.shape}")
    if x.size != k:
        raise ValueError(f"x must have k = {k} bins, got {x.size}")
    if np.any(x < 0) or not np.all(np.isfinite(x)):
        raise ValueError("x must hold finite counts >= 0")
    return x


# ------------------------------------------------------------------ histograms

HISTOGRAM_SHAPES = ("heights", "uniform", "spiky", "zipf")


def height_histogram(k: int, low: float = 1.20, high: float = 2.20) -> np.ndarray:
    """YRBSS heights counted in k equal bins on [low, high) m (heights are given to 1 cm,
    so for k > 100 many bins are empty: a sparse, real histogram)."""
    k = check_positive_int(k, "k")
    heights = load_yrbss()["height_m"]
    counts, _ = np.histogram(heights, bins=np.linspace(low, high, k + 1))
    return counts.astype(float)


def synthetic_histogram(shape: str, k: int, total: int = 10_000, rng=None) -> np.ndarray:
    """A histogram of k bins holding ``total`` rows: ``uniform``, ``spiky`` (a few bins
    hold most rows), ``zipf`` (bin i has weight 1/i) or the real ``heights``."""
    k = check_positive_int(k, "k")
    if shape == "heights":
        return height_histogram(k)
    rng = check_rng(rng)
    if shape == "uniform":
        weights = np.ones(k)
    elif shape == "spiky":
        weights = np.full(k, 0.01)
        weights[rng.choice(k, size=max(1, k // 64), replace=False)] = 1.0
    elif shape == "zipf":
        weights = 1.0 / np.arange(1, k + 1)
    else:
        raise ValueError(f"shape must be one of {HISTOGRAM_SHAPES}, got shape={shape!r}")
    return rng.multinomial(check_positive_int(total, "total"), weights / weights.sum()).astype(float)


# ------------------------------------------------------------------ all-range errors in O(k)


def all_ranges_gram(k: int) -> np.ndarray:
    """W^T W for the workload of all k(k+1)/2 ranges: entry (a, b) counts the ranges
    holding both bins, min(a, b) (k + 1 - max(a, b)) with 1-indexed bins."""
    k = check_positive_int(k, "k")
    a = np.arange(1, k + 1)
    return (np.minimum.outer(a, a) * (k + 1 - np.maximum.outer(a, a))).astype(float)



def _prefix(errors: np.ndarray) -> np.ndarray:
    zero = np.zeros(errors.shape[:-1] + (1,))
    return np.concatenate([zero, np.cumsum(errors, axis=-1)], axis=-1)


def all_range_total_error(errors: ArrayLike) -> np.ndarray:
    """sum over all k(k+1)/2 ranges [i, j] of (sum_{i<=m<=j} errors[m])^2, in O(k).

    With prefix sums P_0 = 0, P_a = e_1 + ... + e_a, a range error is P_b - P_a
    (0 <= a < b <= k) and sum_{a<b} (P_b - P_a)^2 = (k + 1) sum_a P_a^2 - (sum_a P_a)^2.
    Per-bin errors on the last axis; the result has shape ``errors.shape[:-1]``.
    """
    e = np.asarray(errors, dtype=float)
    if e.ndim == 0 or e.shape[-1] == 0:
        raise ValueError(f"errors must have at least one bin on the last axis, got shape {e.shape}")
    p = _prefix(e)
    return (e.shape[-1] + 1) * np.sum(p**2, axis=-1) - np.sum(p, axis=-1) ** 2


def range_error_by_length(errors: ArrayLike) -> np.ndarray:
    """Mean squared error of the ranges of each length L = 1..k (result index L - 1).

    sum_a (P_(a+L) - P_a)^2 = sum_a P_(a+L)^2 + sum_a P_a^2 - 2 sum_a P_a P_(a+L); the
    last term for every L at once is an autocorrelation, done with the FFT: O(k log k).
    """
    p = _prefix(np.asarray(errors, dtype=float))
    m = p.shape[-1]  # k + 1 prefix sums
    k = m - 1
    spec = np.fft.rfft(p, n=2 * m, axis=-1)
    corr = np.fft.irfft(spec * np.conj(spec), n=2 * m, axis=-1)[..., 1:m]  # lags 1..k
    sq = np.cumsum(p**2, axis=-1)
    lags = np.arange(1, m)
    upper = sq[..., -1] [..., None] - sq[..., lags - 1]  # sum_{a >= L} P_a^2
    lower = sq[..., m - 1 - lags]  # sum_{a <= k - L} P_a^2
    return (upper + lower - 2 * corr) / (k - lags + 1)


def all_range_max_error(errors: ArrayLike) -> np.ndarray:
    """max over all ranges of |range error| = max_a P_a - min_a P_a, in O(k)."""
    p = _prefix(np.asarray(errors, dtype=float))
    return p.max(axis=-1) - p.min(axis=-1)


# ------------------------------------------------------------------ the consistent tree estimate


def _level_sizes(n_leaves: int, branching: int, include_root: bool) -> list[int]:
    sizes, size = [], n_leaves
    while size > 1:
        sizes.append(size)
        size //= branching
    if include_root:
        sizes.append(1)
    return sizes[::-1]  # top level first


def consistent_tree_estimate(
    noisy_tree: ArrayLike, branching: int = 2, include_root: bool = False
) -> np.ndarray:
    """Least-squares leaf counts consistent with a noisy b-ary tree (Hay et al. 2010, Thm 3).

    ``noisy_tree`` is flat in level order (top level first, leaves last, each level left
    to right), with equal noise variance on every node; leading axes are trials.
    Bottom-up, a node of height l (leaves: l = 1) combines its own count y and its
    children's estimates:  z = (b^l - b^(l-1))/(b^l - 1) y + (b^(l-1) - 1)/(b^l - 1) sum z_child.
    Top-down, each child gets its share of the parent's disagreement:
    h_child = z_child + (h_parent - sum_siblings z)/b. Without a measured root the top
    level's subtrees are independent and keep z. O(number of nodes) time and memory.
    """
    b = _check_branching(branching)
    y = np.asarray(noisy_tree, dtype=float)
    n_nodes = y.shape[-1]
    # the number of leaves n = b^h from the node count b + b^2 + ... + b^h (+ 1 with the root)
    n, total = 1, int(include_root)
    while total < n_nodes:
        n *= b
        total += n
    if total != n_nodes or n == 1:
        raise ValueError(f"noisy_tree has {n_nodes} nodes, which is no complete {b}-ary tree "
                         f"({'with' if include_root else 'without'} its root)")
    sizes = _level_sizes(n, b, include_root)
    starts = np.cumsum([0] + sizes)
    levels = [y[..., starts[i]:starts[i + 1]] for i in range(len(sizes))]
    lead = y.shape[:-1]

    # bottom-up pass: z at every level, leaves first
    z = [None] * len(levels)
    z[-1] = levels[-1]
    for depth in range(len(levels) - 2, -1, -1):
        height = len(levels) - depth  # leaves have height 1
        child_sum = z[depth + 1].reshape(lead + (sizes[depth], b)).sum(axis=-1)
        bl, bl1 = float(b**height), float(b ** (height - 1))
        z[depth] = ((bl - bl1) * levels[depth] + (bl1 - 1) * child_sum) / (bl - 1)

    # top-down pass
    h = z[0]
    for depth in range(1, len(levels)):
        zc = z[depth].reshape(lead + (sizes[depth - 1], b))
        h = (zc + ((h - zc.sum(axis=-1)) / b)[..., None]).reshape(lead + (sizes[depth],))
    return h


# ------------------------------------------------------------------ strategies


class RangeStrategy:
    """A strategy for all range queries over k bins: measure, reconstruct, score.

    ``measure(x, epsilon)`` returns A x + Lap(sensitivity/epsilon) (leading trials axis
    with ``size``); ``reconstruct(y)`` returns least-squares bin estimates from the
    measurements; ``total_error(y, x)`` is the total squared error over all ranges of
    the strategy's own answers (``inference`` chooses least squares or direct sums).
    """

    def __init__(self, name: str, k: int, branching: int = 2, include_root: bool = False):
        if name not in STRATEGIES:
            raise ValueError(f"name must be one of {STRATEGIES}, got name={name!r}")
        self.name = name
        self.k = check_positive_int(k, "k")
        self.branching = _check_branching(branching)
        self.include_root = bool(include_root)
        if name == "all_ranges" and self.k > _ALL_RANGES_LIMIT:
            raise ValueError(f"all_ranges measures k(k+1)/2 ranges; k must be <= {_ALL_RANGES_LIMIT}, "
                             f"got k={self.k}")
        if name == "hierarchy":
            self.height = max(tree_height(self.k, self.branching), 1)
            self.n_leaves = self.branching**self.height
            self.level_sizes = _level_sizes(self.n_leaves, self.branching, self.include_root)
        elif name == "wavelet":  # binary whatever the branching argument
            self.height = max(tree_height(self.k, 2), 1)
            self.n_leaves = 2**self.height
            # the total, then the (left - right) coefficients of 1, 2, ..., n/2 nodes
            self.level_sizes = [1] + [2**j for j in range(self.height)]
        else:
            self.height, self.n_leaves, self.level_sizes = 0, self.k, [self.k]

    @property
    def sensitivity(self) -> float:
        """L1 sensitivity of the measurements under add/remove-one (a bin changes by 1)."""
        if self.name == "identity":
            return 1.0
        if self.name == "all_ranges":
            return float((self.k + 1) ** 2 // 4)  # bin i lies in i (k - i + 1) ranges
        return float(len(self.level_sizes))  # one node (or coefficient) per level

    @property
    def n_measurements(self) -> int:
        if self.name == "all_ranges":
            return self.k * (self.k + 1) // 2
        return int(sum(self.level_sizes))

    def apply(self, x: ArrayLike) -> np.ndarray:
        """The exact measurements A x (no noise)."""
        x = np.asarray(x, dtype=float)
        if self.name == "identity":
            return x.copy()
        if self.name == "all_ranges":
            p = _prefix(x)
            i, j = np.triu_indices(self.k)
            return p[..., j + 1] - p[..., i]
        padded = np.concatenate([x, np.zeros(x.shape[:-1] + (self.n_leaves - self.k,))], axis=-1)
        if self.name == "wavelet":
            parts = [padded.sum(axis=-1, keepdims=True)]
            for size in self.level_sizes[1:]:
                halves = padded.reshape(x.shape[:-1] + (size, 2, -1)).sum(axis=-1)
                parts.append(halves[..., 0] - halves[..., 1])
            return np.concatenate(parts, axis=-1)
        levels, level = [], padded
        for size in self.level_sizes[::-1]:
            level = level.reshape(x.shape[:-1] + (size, -1)).sum(axis=-1)
            levels.append(level)
        return np.concatenate(levels[::-1], axis=-1)

    def measure(self, x: ArrayLike, epsilon: float, *, rng=None, size: int | None = None) -> np.ndarray:
        """A x + Lap(sensitivity / epsilon) per measurement: epsilon-DP (add/remove)."""
        x = _check_histogram(x, self.k)
        epsilon = check_epsilon(epsilon)
        rng = check_rng(rng)
        exact = self.apply(x)
        shape = exact.shape if size is None else (check_positive_int(size, "size"),) + exact.shape
        return exact + (self.sensitivity / epsilon) * rng.laplace(0.0, 1.0, size=shape)

    def reconstruct(self, y: ArrayLike) -> np.ndarray:
        """Least-squares bin estimates x_hat = A^+ y (identity: y; hierarchy: Hay et al.)."""
        y = np.asarray(y, dtype=float)
        if self.name == "identity":
            return y
        if self.name == "hierarchy":
            leaves = consistent_tree_estimate(y, self.branching, self.include_root)
            return leaves[..., : self.k]
        if self.name == "wavelet":  # inverse Haar, top down: halves = (sum +- difference) / 2
            sums, start = y[..., :1], 1
            for size in self.level_sizes[1:]:
                diff = y[..., start:start + size]
                sums = np.stack([(sums + diff) / 2, (sums - diff) / 2], axis=-1)
                sums = sums.reshape(y.shape[:-1] + (2 * size,))
                start += size
            return sums[..., : self.k]
        # all ranges: solve (W^T W) x = W^T y; W^T y sums every range answer over its bins
        k = self.k
        i, j = np.triu_indices(k)
        grid = np.zeros(y.shape[:-1] + (k, k))
        grid[..., i, j] = y
        # (W^T y)_m = sum_{i <= m <= j} Y[i, j]: cumulative over i ascending, j descending
        cum = np.cumsum(np.cumsum(grid[..., :, ::-1], axis=-1), axis=-2)[..., :, ::-1]
        wty = np.diagonal(cum, axis1=-2, axis2=-1)
        return np.linalg.solve(all_ranges_gram(k), wty[..., None])[..., 0]

    def total_error(self, y: ArrayLike, x: ArrayLike, inference: bool = True) -> np.ndarray:
        """Total squared error over all ranges of the answers from measurements y."""
        y = np.asarray(y, dtype=float)
        x = np.asarray(x, dtype=float)
        if inference or self.name in ("identity", "wavelet"):  # their own answers are A^+ y
            return all_range_total_error(self.reconstruct(y) - x)
        if self.name == "all_ranges":
            return np.sum((y - self.apply(x)) ** 2, axis=-1)
        return self._direct_tree_total_error(y - self.apply(x))

    def _direct_tree_total_error(self, noise: np.ndarray, chunk: int = 1 << 18) -> np.ndarray:
        """Sum over ranges of (sum of the noise of the range's maximal nodes)^2.

        At a level with node size s, the nodes inside [lo, hi) are indices
        ceil(lo/s) .. floor(hi/s) - 1; those whose parent is inside too are dropped,
        so the used noise is a difference of two level prefix sums: O(levels) per
        range, all k(k+1)/2 ranges enumerated in chunks (for moderate k).
        """
        b, k = self.branching, self.k
        starts = np.cumsum([0] + self.level_sizes)
        prefixes = [_prefix(noise[..., starts[d]:starts[d + 1]]) for d in range(len(self.level_sizes))]
        i_all, j_all = np.triu_indices(k)
        total = np.zeros(noise.shape[:-1])
        top = len(self.level_sizes) - 1  # depth of the leaves
        for c in range(0, i_all.size, chunk):
            lo, hi = i_all[c:c + chunk], j_all[c:c + chunk] + 1
            err = 0.0
            for depth, p in enumerate(prefixes):
                s = b ** (top - depth)  # leaves per node at this depth
                first, last = -(-lo // s), hi // s  # nodes [first, last) inside the range
                last = np.maximum(last, first)
                if depth == 0:
                    pf = pl = np.zeros_like(first)
                else:
                    ps = s * b
                    pf, pl = -(-lo // ps), np.maximum(hi // ps, -(-lo // ps))
                # drop children of parents that are inside: child indices [pf b, pl b)
                inner_first = np.clip(pf * b, first, last)
                inner_last = np.clip(pl * b, inner_first, last)
                used = (p[..., last] - p[..., first]) - (p[..., inner_last] - p[..., inner_first])
                err = err + used
            total += np.sum(err**2, axis=-1)
        return total


def range_strategy(name: str, k: int, branching: int = 2, include_root: bool = False) -> RangeStrategy:
    """The strategy ``name`` ("all_ranges", "identity" or "hierarchy") for k bins."""
    return RangeStrategy(name, k, branching, include_root)


# ------------------------------------------------------------------ exact expected error


def _hierarchy_node_usage(strategy: RangeStrategy) -> int:
    """sum over all ranges of the number of maximal nodes used (canonical decomposition).

    A node [a, c] (1-indexed leaves) is used by range [i, j] iff it lies inside and its
    parent does not: #{i <= a, c <= j <= k} minus the same count for the parent (or 0
    for a top-level node when the root is not measured).
    """
    k, b = strategy.k, strategy.branching
    usage = 0
    for depth, size in enumerate(strategy.level_sizes):
        s = strategy.n_leaves // size
        idx = np.arange(size)
        a, c = idx * s + 1, (idx + 1) * s
        inside = np.where(c <= k, np.minimum(a, k) * (k - c + 1), 0)
        if depth == 0:
            parent = 0
        else:
            ps = s * b
            pidx = idx // b
            pa, pc = pidx * ps + 1, (pidx + 1) * ps
            parent = np.where(pc <= k, np.minimum(pa, k) * (k - pc + 1), 0)
        usage += int(np.sum(inside - parent))
    return usage


def _hierarchy_least_squares_units(strategy: RangeStrategy) -> float:
    """||W A^+||_F^2 = tr(W^T W (A^T A)^{-1}) for the b-ary tree, in O(k log k).

    A^T A = sum over measured levels of s B_s, where B_s averages over blocks of s
    leaves (s = node size). The B_s are nested projections, so on the space V_j of
    vectors constant on blocks of t_j = b^j leaves and summing to 0 on blocks of
    b^(j+1), A^T A acts as lambda_j = sum of the measured sizes s <= t_j. Hence
    (A^T A)^{-1} = sum_j (B_{t_j} - B_{t_(j+1)}) / lambda_j, and tr(G B_t) is the sum
    of G = W^T W over the diagonal t-blocks divided by t, with
    G_ab = min(a, b)(k + 1 - max(a, b)) (zero on padded bins).
    """
    k, b, n = strategy.k, strategy.branching, strategy.n_leaves
    idx = np.arange(1, n + 1, dtype=float)
    g = np.where(idx <= k, idx, 0.0)  # min side
    f = np.where(idx <= k, k + 1 - idx, 0.0)  # max side
    cum_g = np.concatenate([[0.0], np.cumsum(g)])
    measured = sorted(n // size for size in strategy.level_sizes)  # node sizes, leaves first

    def trace_g_blocks(t: int) -> float:
        """tr(G B_t) = (1/t) sum over blocks of t leaves of the block's sum of G."""
        start = (np.arange(n) // t) * t  # 0-indexed first leaf of each leaf's block
        below = cum_g[np.arange(n)] - cum_g[start]  # sum of g over the block before this leaf
        block = np.sum(g * f) + 2 * np.sum(f * below)
        return float(block) / t

    sizes = [b**j for j in range(strategy.height + 1)]  # t_0 = 1, ..., t_H = n
    traces = [trace_g_blocks(t) for t in sizes] + [0.0]
    total = 0.0
    for j, t in enumerate(sizes):
        lam = sum(s for s in measured if s <= t)
        total += (traces[j] - traces[j + 1]) / lam
    return total


def _wavelet_units(strategy: RangeStrategy, chunk_cells: int = 1 << 22) -> float:
    """||W A^{-1}||_F^2 for the weighted Haar strategy. Its rows r are orthogonal
    (A A^T diagonal, ||r||^2 = n for the total, s for a node of s leaves), so
    (A^T A)^{-1} = sum_r r r^T / ||r||^4 and the error is sum_r (r^T G r) / ||r||^4,
    where r^T G r is the all-range error of the pattern r (zero on padded bins)."""
    n, k = strategy.n_leaves, strategy.k
    total = all_range_total_error(np.ones(k)) / n**2
    for size in strategy.level_sizes[1:]:
        span = n // size
        pattern = np.concatenate([np.ones(span // 2), -np.ones(span // 2)])
        for start in range(0, size, max(1, chunk_cells // n)):
            nodes = np.arange(start, min(size, start + max(1, chunk_cells // n)))
            rows = np.zeros((nodes.size, n))
            rows[np.arange(nodes.size)[:, None], nodes[:, None] * span + np.arange(span)] = pattern
            total += float(np.sum(all_range_total_error(rows[:, :k]))) / span**2
    return total


def expected_total_error(
    name: str,
    k: int,
    epsilon: float,
    branching: int = 2,
    inference: bool = False,
    include_root: bool = False,
) -> float:
    """Exact E[sum over all k(k+1)/2 ranges of the squared error] of a strategy.

    identity:    (2/eps^2) k(k+1)(k+2)/6 (a range of length L has variance 2L/eps^2).
    all_ranges:  direct: k(k+1)/2 * 2(Delta/eps)^2, Delta = floor((k+1)^2/4);
                 least squares: 2 (Delta/eps)^2 k (W A^+ = W W^+ is a rank-k projection).
    wavelet:     2 ((h + 1)/eps)^2 ||W A^{-1}||_F^2 (inverse transform = least squares).
    hierarchy:   direct: 2 (Delta/eps)^2 * (number of nodes summed over all ranges);
                 least squares: the matrix-mechanism error 2 (Delta/eps)^2 ||W A^+||_F^2,
                 from the spectral form of A^T A (see _hierarchy_least_squares_units).
    """
    strategy = range_strategy(name, k, branching, include_root)
    unit = laplace_mse(strategy.sensitivity, epsilon)  # variance of each measurement
    return unit * _error_units(name, strategy.k, strategy.branching, bool(inference),
                               strategy.include_root)


@lru_cache(maxsize=4096)
def _error_units(name: str, k: int, branching: int, inference: bool, include_root: bool) -> float:
    """The expected total error divided by the variance of one measurement (epsilon-free,
    cached: a slider that moves epsilon only rescales)."""
    strategy = range_strategy(name, k, branching, include_root)
    if name == "identity":
        return k * (k + 1) * (k + 2) / 6
    if name == "all_ranges":
        return float(k if inference else k * (k + 1) // 2)
    if name == "wavelet":
        return _wavelet_units(strategy)
    if not inference:
        return float(_hierarchy_node_usage(strategy))
    return _hierarchy_least_squares_units(strategy)


def hierarchy_crossover_k(branching: int = 2, include_root: bool = False, max_height: int = 30) -> int:
    """The smallest power of b at which hierarchy + inference has a lower total error over
    all ranges than identity (epsilon cancels: both errors scale as 1/epsilon^2)."""
    b = _check_branching(branching)
    for h in range(1, max_height + 1):
        k = b**h
        if expected_total_error("hierarchy", k, 1.0, b, True, include_root) < \
                expected_total_error("identity", k, 1.0):
            return k
    raise ValueError(f"no crossover up to {b}^{max_height} bins")


def best_branching(k: int, branchings=range(2, 65), include_root: bool = False) -> tuple[int, float]:
    """The branching factor with the lowest hierarchy + inference error for k bins, and that
    error per range query at epsilon = 1."""
    k = check_positive_int(k, "k")
    n_ranges = k * (k + 1) / 2
    errors = {b: expected_total_error("hierarchy", k, 1.0, b, True, include_root) / n_ranges
              for b in branchings}
    best = min(errors, key=errors.get)
    return best, errors[best]
