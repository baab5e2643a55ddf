"""Strategies for answering all range queries over k ordered bins ([Duke18], "Strategy 1/2/3").

A histogram x of k ordered bins, and the workload W of all k(k+1)/2 range queries
x[i] + ... + x[j]. A *strategy* measures some linear queries A x with Laplace noise
scaled to A's L1 sensitivity (its largest column sum) and answers W from the
measurements (the matrix mechanism; Li, Miklau et al., PODS 2010).

:class:`RangeStrategy` is the strategy of any matrix A, done densely: least-squares
answers through the pseudo-inverse, expected error 2 (Delta_A/eps)^2 ||W A^+||_F^2.
Each named strategy is a subclass that replaces the dense parts with fast ones (with
one difference when k is not a power of the branching factor: the tree and the
wavelet pad the bins to b^h and reconstruct by least squares over the padded tree,
treating the padded bins as unknowns as Hay et al. do; the dense strategy of the same
k columns knows they are empty and does a little better):

* :class:`AllRangesStrategy`: measure every range (sensitivity floor((k+1)^2/4)).
* :class:`IdentityStrategy`: measure every bin; a range is the sum of its bins (sensitivity 1).
* :class:`HierarchyStrategy`: a b-ary tree of interval counts over the bins padded to b^h
  (sensitivity = number of measured levels); a range is the sum of its maximal tree
  nodes, or, with inference, read off the consistent least-squares tree estimate of
  Hay, Rastogi, Miklau & Suciu (VLDB 2010), computed in O(k). The root is measured
  only with ``include_root=True`` (Hay et al.'s H measures it); a hierarchy always says which.
* :class:`WaveletStrategy`: Privelet (Xiao, Wang & Gehrke, ICDE 2010): the Haar wavelet of
  the bins padded to 2^h, each coefficient weighted by its support, i.e. the grand
  total and, for every node of the binary tree, (left half sum - right half sum); a
  bin is in h + 1 of them with coefficient +-1 (sensitivity h + 1). On the padded bins
  A is square and invertible: the inverse Haar transform is the reconstruction.

Every method that can answer two ways takes ``inference``: False (the default, as in
:func:`dplab.expected_total_error`) means the strategy's own answers (sums of
measurements where it has them, least squares where it has none), True least squares.

The optimised p-Identity strategy (``optimization.py``) is a dense subclass.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import check_branching, check_choice, check_epsilon, check_positive_int, check_rng
from dplab.mechanisms.laplace import laplace_mse
from dplab.range_queries.errors import (
    all_range_total_error,
    all_ranges_gram,
    prefix_sums,
    range_error_by_length,
)
from dplab.range_queries.histograms import check_histogram

__all__ = [
    "STRATEGIES",
    "AllRangesStrategy",
    "HierarchyStrategy",
    "IdentityStrategy",
    "RangeStrategy",
    "WaveletStrategy",
    "consistent_tree_estimate",
    "range_strategy",
    "simulated_unit_errors",
    "tree_height",
]

_ALL_RANGES_LIMIT = 2048  # k(k+1)/2 measurements: about 2 million at this k


def tree_height(k: int, branching: int = 2) -> int:
    """Smallest h with branching^h >= k, in integer arithmetic (floating log(125, 5) is 2.9999...)."""
    k = check_positive_int(k, "k")
    branching = check_branching(branching)
    h, size = 0, 1
    while size < k:
        size *= branching
        h += 1
    return h


def _level_sizes(n_leaves: int, branching: int, include_root: bool) -> list[int]:
    sizes, size = [], n_leaves
    while size > 1:
        sizes.append(size)
        size //= branching
    if include_root:
        sizes.append(1)
    return sizes[::-1]  # top level first


def consistent_tree_estimate(noisy_tree: ArrayLike, branching: int = 2, *, include_root: bool) -> np.ndarray:
    """Least-squares leaf counts consistent with a noisy b-ary tree (Hay et al. 2010, Thm 3), whose
    root is measured iff ``include_root`` (Hay et al.'s H measures it: ``include_root=True``).

    ``noisy_tree`` is flat in level order (top level first, leaves last, each level left
    to right), with equal noise variance on every node; leading axes are trials.
    Bottom-up, a node of height l (leaves: l = 1) combines its own count y and its
    children's estimates:  z = (b^l - b^(l-1))/(b^l - 1) y + (b^(l-1) - 1)/(b^l - 1) sum z_child.
    Top-down, each child gets its share of the parent's disagreement:
    h_child = z_child + (h_parent - sum_siblings z)/b. Without a measured root the top
    level's subtrees are independent and keep z. O(number of nodes) time and memory.
    """
    b = check_branching(branching)
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


# ------------------------------------------------------------------ the dense strategy


class RangeStrategy:
    """The strategy of a matrix A (measurements x bins), done densely; the base class of all.

    ``measure(x, epsilon)`` returns A x + Lap(sensitivity/epsilon) (leading trials axis
    with ``size``); ``reconstruct(y)`` returns least-squares bin estimates A^+ y;
    ``total_error(y, x)`` is the total squared error over all ranges of the strategy's
    answers; ``error_units(inference)`` is its expectation divided by the variance of
    one measurement, here ||W A^+||_F^2 = tr(A^+^T W^T W A^+). Subclasses replace the
    dense computations by fast ones and, where the strategy has answers of its own
    other than least squares (sums of measurements), say so with ``answers_directly``.
    """

    name = "matrix"
    #: True when ``inference=False`` means answers other than least squares
    answers_directly = False

    def __init__(self, matrix: ArrayLike):
        if isinstance(matrix, str):
            raise TypeError(f"RangeStrategy(matrix) is the strategy of a matrix, got matrix={matrix!r}; "
                            f"for a named strategy use range_strategy({matrix!r}, k, ...)")
        a = np.array(matrix, dtype=float)
        if a.ndim != 2 or a.size == 0 or not np.all(np.isfinite(a)):
            raise ValueError(f"matrix must be a finite non-empty 2-d array (measurements x bins), "
                             f"got shape {a.shape}")
        a.flags.writeable = False
        self._matrix = a
        self.k = a.shape[1]

    def matrix(self) -> np.ndarray:
        """The strategy matrix A (measurements x bins), dense."""
        return self._matrix

    @cached_property
    def sensitivity(self) -> float:
        """L1 sensitivity of the measurements under add/remove-one: the largest column
        L1 norm of A (a bin changes by 1)."""
        return float(np.abs(self.matrix()).sum(axis=0).max())

    @property
    def n_measurements(self) -> int:
        return self.matrix().shape[0]

    @cached_property
    def _pinv(self) -> np.ndarray:
        return np.linalg.pinv(self.matrix())

    def apply(self, x: ArrayLike) -> np.ndarray:
        """The exact measurements A x (no noise); bins on the last axis."""
        return np.asarray(x, dtype=float) @ self.matrix().T

    def measure(self, x: ArrayLike, epsilon: float, *, rng=None, size: int | None = None) -> np.ndarray:
        """A x + Lap(sensitivity / epsilon) per measurement: epsilon-DP (add/remove)."""
        x = check_histogram(x, self.k)
        epsilon = check_epsilon(epsilon)
        rng = check_rng(rng)
        exact = self.apply(x)
        shape = exact.shape if size is None else (check_positive_int(size, "size"),) + exact.shape
        return exact + (self.sensitivity / epsilon) * rng.laplace(0.0, 1.0, size=shape)

    def reconstruct(self, y: ArrayLike) -> np.ndarray:
        """Least-squares bin estimates x_hat = A^+ y (measurements on the last axis);
        the tree and the wavelet: least squares over their padded bins, cut to k."""
        return np.asarray(y, dtype=float) @ self._pinv.T

    def total_error(self, y: ArrayLike, x: ArrayLike, inference: bool = False) -> np.ndarray:
        """Total squared error over all ranges of the answers from measurements y: the
        strategy's own answers, or least squares with ``inference``."""
        y = np.asarray(y, dtype=float)
        x = np.asarray(x, dtype=float)
        if inference or not self.answers_directly:
            return all_range_total_error(self.reconstruct(y) - x)
        return self.direct_total_error(y - self.apply(x))

    def direct_total_error(self, noise: np.ndarray) -> np.ndarray:
        """Total squared error over all ranges of the direct answers, given the noise of
        the measurements (only for strategies with ``answers_directly``)."""
        raise NotImplementedError(f"{type(self).__name__} answers only by least squares")

    def error_units(self, inference: bool = False) -> float:
        """E[total error over all ranges] / (variance of one measurement).

        Least squares: ||W A^+||_F^2 = tr(P^T G P), P = A^+, G = W^T W (dense here).
        """
        p = self._pinv
        return float(np.sum(p * (all_ranges_gram(self.k) @ p)))

    def prefix_error_units(self) -> np.ndarray:
        """E[(error of the prefix range [1, j])^2] / (variance of one measurement), j = 1..k,
        for the least-squares answers: the prefix error is sum_{i <= j} (A^+ y)_i, so its
        variance is sum_m (sum_{i <= j} A^+_im)^2 in units of one measurement's variance.
        Built from ``reconstruct`` of every unit measurement: O(measurements x k) memory."""
        per_measurement = self.reconstruct(np.eye(self.n_measurements))  # row m: A^+ e_m
        return np.sum(np.cumsum(per_measurement, axis=1) ** 2, axis=0)

    def error_units_by_length(self) -> np.ndarray:
        """Mean over the k - r + 1 ranges of length r of E[(range error)^2] of the least-squares
        answers, r = 1..k (index r - 1), in units of one measurement's variance.

        The matrix mechanism (Li, Hay, Rastogi, Miklau & McGregor, PODS 2010) answers a range w
        with error w A^+ z, z the measurement noise, of variance ||w A^+||_2^2 per unit noise
        variance; so the mean over the ranges W_r of length r is ||W_r A^+||_F^2 / (k - r + 1).
        Each unit measurement's reconstruction (row m: A^+ e_m) is scored by
        :func:`range_error_by_length`, and the independent noises add their variances over m.
        Identity gives r exactly. O(measurements x k log k) time, O(measurements x k) memory."""
        per_measurement = self.reconstruct(np.eye(self.n_measurements))  # row m: A^+ e_m
        return range_error_by_length(per_measurement).sum(axis=0)

    def expected_error_by_length(self, epsilon: float) -> np.ndarray:
        """Exact mean squared error of the least-squares answers to the ranges of each length
        r = 1..k (index r - 1): 2 (Delta/eps)^2 * :meth:`error_units_by_length`; identity: 2r/eps^2."""
        return laplace_mse(self.sensitivity, epsilon) * self.error_units_by_length()

    def expected_total_error(self, epsilon: float, inference: bool = False) -> float:
        """Exact expected total squared error over all ranges: 2 (Delta/eps)^2 * error_units
        (``inference`` as in :meth:`total_error`)."""
        return laplace_mse(self.sensitivity, epsilon) * self.error_units(inference)


# ------------------------------------------------------------------ named strategies


class _FastStrategy(RangeStrategy):
    """A named strategy: A is never stored; ``matrix()`` builds it from ``apply`` (tests)."""

    def __init__(self, k: int):
        self.k = check_positive_int(k, "k")

    def matrix(self) -> np.ndarray:
        return self.apply(np.eye(self.k)).T


class IdentityStrategy(_FastStrategy):
    """Measure every bin (A = I, sensitivity 1); a range is the sum of its noisy bins."""

    name = "identity"
    sensitivity = 1.0

    @property
    def n_measurements(self) -> int:
        return self.k

    def apply(self, x: ArrayLike) -> np.ndarray:
        return np.array(x, dtype=float)

    def reconstruct(self, y: ArrayLike) -> np.ndarray:
        return np.asarray(y, dtype=float)

    def error_units(self, inference: bool = False) -> float:
        """k(k+1)(k+2)/6: a range of length L sums L unit variances."""
        k = self.k
        return k * (k + 1) * (k + 2) / 6


class AllRangesStrategy(_FastStrategy):
    """Measure every range directly (A = W): sensitivity floor((k+1)^2/4), since bin i
    lies in i (k - i + 1) ranges. Direct answers: each range's own measurement."""

    name = "all_ranges"
    answers_directly = True

    def __init__(self, k: int):
        super().__init__(k)
        if self.k > _ALL_RANGES_LIMIT:
            raise ValueError(f"all_ranges measures k(k+1)/2 ranges; k must be <= {_ALL_RANGES_LIMIT}, "
                             f"got k={self.k}")

    @property
    def sensitivity(self) -> float:
        return float((self.k + 1) ** 2 // 4)

    @property
    def n_measurements(self) -> int:
        return self.k * (self.k + 1) // 2

    def apply(self, x: ArrayLike) -> np.ndarray:
        p = prefix_sums(x)
        i, j = np.triu_indices(self.k)
        return p[..., j + 1] - p[..., i]

    def reconstruct(self, y: ArrayLike) -> np.ndarray:
        """Solve (W^T W) x = W^T y; W^T y sums every range answer over its bins."""
        y = np.asarray(y, dtype=float)
        k = self.k
        i, j = np.triu_indices(k)
        grid = np.zeros(y.shape[:-1] + (k, k))
        grid[..., i, j] = y
        # (W^T y)_m = sum_{i <= m <= j} Y[i, j]: cumulative over i ascending, j descending
        cum = np.cumsum(np.cumsum(grid[..., :, ::-1], axis=-1), axis=-2)[..., :, ::-1]
        wty = np.diagonal(cum, axis1=-2, axis2=-1)
        return np.linalg.solve(all_ranges_gram(k), wty[..., None])[..., 0]

    def direct_total_error(self, noise: np.ndarray) -> np.ndarray:
        return np.sum(np.asarray(noise) ** 2, axis=-1)

    def error_units(self, inference: bool = False) -> float:
        """Direct: k(k+1)/2 measurements, one per range. Least squares: W A^+ = W W^+ is
        a rank-k orthogonal projection, ||W W^+||_F^2 = k."""
        k = self.k
        return float(k if inference else k * (k + 1) // 2)


class _LevelStrategy(_FastStrategy):
    """A strategy of levels of measurements over the bins padded to ``n_leaves`` (a power of
    the branching factor), each bin in one measurement per level: sensitivity = levels."""

    level_sizes: list[int]
    n_leaves: int

    @property
    def sensitivity(self) -> float:
        return float(len(self.level_sizes))

    @property
    def n_measurements(self) -> int:
        return int(sum(self.level_sizes))

    def _padded(self, x: ArrayLike) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return np.concatenate([x, np.zeros(x.shape[:-1] + (self.n_leaves - self.k,))], axis=-1)


class HierarchyStrategy(_LevelStrategy):
    """A b-ary tree of interval counts over the bins padded to b^h, flat in level order
    (top level first). Direct answers: each range as the sum of its maximal tree nodes,
    at most 2(b - 1) per level ([Duke18], Strategy 3)."""

    name = "hierarchy"
    answers_directly = True

    def __init__(self, k: int, branching: int = 2, *, include_root: bool):
        super().__init__(k)
        if not isinstance(include_root, bool):
            raise TypeError(f"include_root must be True or False, got include_root={include_root!r}")
        self.branching = check_branching(branching)
        self.include_root = bool(include_root)
        self.height = max(tree_height(self.k, self.branching), 1)
        self.n_leaves = self.branching**self.height
        self.level_sizes = _level_sizes(self.n_leaves, self.branching, self.include_root)

    def apply(self, x: ArrayLike) -> np.ndarray:
        """The node counts, top level first; one node per measured level holds a given bin."""
        x = np.asarray(x, dtype=float)
        levels, level = [], self._padded(x)
        for size in self.level_sizes[::-1]:
            level = level.reshape(x.shape[:-1] + (size, -1)).sum(axis=-1)
            levels.append(level)
        return np.concatenate(levels[::-1], axis=-1)

    def reconstruct(self, y: ArrayLike) -> np.ndarray:
        """The consistent least-squares estimate of Hay et al. in O(k), cut to k bins."""
        leaves = consistent_tree_estimate(y, self.branching, include_root=self.include_root)
        return leaves[..., : self.k]

    def direct_total_error(self, noise: np.ndarray, chunk: int = 1 << 18) -> np.ndarray:
        """Sum over ranges of (sum of the noise of the range's maximal nodes)^2.

        At a level with node size s, the nodes inside [lo, hi) are indices
        ceil(lo/s) .. floor(hi/s) - 1; those whose parent is inside too are dropped,
        so the used noise is a difference of two level prefix sums: O(levels) per
        range, all k(k+1)/2 ranges enumerated in chunks (for moderate k).
        """
        noise = np.asarray(noise, dtype=float)
        b, k = self.branching, self.k
        starts = np.cumsum([0] + self.level_sizes)
        prefixes = [prefix_sums(noise[..., starts[d]:starts[d + 1]]) for d in range(len(self.level_sizes))]
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

    def error_units(self, inference: bool = False) -> float:
        """Direct: the number of maximal nodes summed over all ranges. Least squares:
        ||W A^+||_F^2 from the spectral form of A^T A, in O(k log k)."""
        return self._least_squares_units() if inference else float(self._node_usage())

    def _node_usage(self) -> int:
        """sum over all ranges of the number of maximal nodes used (canonical decomposition).

        A node [a, c] (1-indexed leaves) is used by range [i, j] iff it lies inside and its
        parent does not: #{i <= a, c <= j <= k} minus the same count for the parent (or 0
        for a top-level node when the root is not measured).
        """
        k, b = self.k, self.branching
        usage = 0
        for depth, size in enumerate(self.level_sizes):
            s = self.n_leaves // size
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

    def _least_squares_units(self) -> float:
        """||W A^+||_F^2 = tr(W^T W (A^T A)^{-1}) for the b-ary tree, in O(k log k).

        A^T A = sum over measured levels of s B_s, where B_s averages over blocks of s
        leaves (s = node size). The B_s are nested projections, so on the space V_j of
        vectors constant on blocks of t_j = b^j leaves and summing to 0 on blocks of
        b^(j+1), A^T A acts as lambda_j = sum of the measured sizes s <= t_j. Hence
        (A^T A)^{-1} = sum_j (B_{t_j} - B_{t_(j+1)}) / lambda_j, and tr(G B_t) is the sum
        of G = W^T W over the diagonal t-blocks divided by t, with
        G_ab = min(a, b)(k + 1 - max(a, b)) (zero on padded bins).
        """
        k, b, n = self.k, self.branching, self.n_leaves
        idx = np.arange(1, n + 1, dtype=float)
        g = np.where(idx <= k, idx, 0.0)  # min side
        f = np.where(idx <= k, k + 1 - idx, 0.0)  # max side
        cum_g = np.concatenate([[0.0], np.cumsum(g)])
        measured = sorted(n // size for size in self.level_sizes)  # node sizes, leaves first

        def trace_g_blocks(t: int) -> float:
            """tr(G B_t) = (1/t) sum over blocks of t leaves of the block's sum of G."""
            start = (np.arange(n) // t) * t  # 0-indexed first leaf of each leaf's block
            below = cum_g[np.arange(n)] - cum_g[start]  # sum of g over the block before this leaf
            block = np.sum(g * f) + 2 * np.sum(f * below)
            return float(block) / t

        sizes = [b**j for j in range(self.height + 1)]  # t_0 = 1, ..., t_H = n
        traces = [trace_g_blocks(t) for t in sizes] + [0.0]
        total = 0.0
        for j, t in enumerate(sizes):
            lam = sum(s for s in measured if s <= t)
            total += (traces[j] - traces[j + 1]) / lam
        return total


class WaveletStrategy(_LevelStrategy):
    """Privelet's weighted Haar wavelet over the bins padded to 2^h (always binary)."""

    name = "wavelet"

    def __init__(self, k: int):
        super().__init__(k)
        self.height = max(tree_height(self.k, 2), 1)
        self.n_leaves = 2**self.height
        # the total, then the (left - right) coefficients of 1, 2, ..., n/2 nodes
        self.level_sizes = [1] + [2**j for j in range(self.height)]

    def apply(self, x: ArrayLike) -> np.ndarray:
        """The total and the (left - right) coefficients; a bin is in h + 1 of them."""
        x = np.asarray(x, dtype=float)
        padded = self._padded(x)
        parts = [padded.sum(axis=-1, keepdims=True)]
        for size in self.level_sizes[1:]:
            halves = padded.reshape(x.shape[:-1] + (size, 2, -1)).sum(axis=-1)
            parts.append(halves[..., 0] - halves[..., 1])
        return np.concatenate(parts, axis=-1)

    def reconstruct(self, y: ArrayLike) -> np.ndarray:
        """The inverse Haar transform, top down: halves = (sum +- difference) / 2."""
        y = np.asarray(y, dtype=float)
        sums, start = y[..., :1], 1
        for size in self.level_sizes[1:]:
            diff = y[..., start:start + size]
            sums = np.stack([(sums + diff) / 2, (sums - diff) / 2], axis=-1)
            sums = sums.reshape(y.shape[:-1] + (2 * size,))
            start += size
        return sums[..., : self.k]

    def error_units(self, inference: bool = False, chunk_cells: int = 1 << 22) -> float:
        """||W A^{-1}||_F^2. The rows r of A are orthogonal (A A^T diagonal, ||r||^2 = n for
        the total, s for a node of s leaves), so (A^T A)^{-1} = sum_r r r^T / ||r||^4 and
        the error is sum_r (r^T G r) / ||r||^4, where r^T G r is the all-range error of the
        pattern r (zero on padded bins)."""
        n, k = self.n_leaves, self.k
        total = all_range_total_error(np.ones(k)) / n**2
        for size in self.level_sizes[1:]:
            span = n // size
            pattern = np.concatenate([np.ones(span // 2), -np.ones(span // 2)])
            for start in range(0, size, max(1, chunk_cells // n)):
                nodes = np.arange(start, min(size, start + max(1, chunk_cells // n)))
                rows = np.zeros((nodes.size, n))
                rows[np.arange(nodes.size)[:, None], nodes[:, None] * span + np.arange(span)] = pattern
                total += float(np.sum(all_range_total_error(rows[:, :k]))) / span**2
        return total


_CLASSES = {"all_ranges": AllRangesStrategy, "identity": IdentityStrategy,
            "hierarchy": HierarchyStrategy, "wavelet": WaveletStrategy}
STRATEGIES = tuple(_CLASSES)


def range_strategy(name: str, k: int, branching: int = 2, *,
                   include_root: bool | None = None) -> RangeStrategy:
    """The strategy ``name`` (one of STRATEGIES) for k bins; a hierarchy must say whether it measures its
    root (Hay et al.'s H does: ``include_root=True``). ``branching`` and ``include_root`` concern the
    hierarchy only (the wavelet is always binary)."""
    check_choice(name, STRATEGIES, "name")
    if name == "hierarchy":
        if include_root is None:
            raise TypeError("a hierarchy needs include_root=True (Hay et al.'s H, root measured) or False, "
                            "got include_root=None")
        return HierarchyStrategy(k, branching, include_root=include_root)
    if include_root:
        raise ValueError(f"include_root concerns the hierarchy only, got include_root=True for name={name!r}")
    check_branching(branching)
    return _CLASSES[name](k)


def simulated_unit_errors(
    strategy: RangeStrategy, trials: int, rng=None, *, inference: bool = False
) -> tuple[np.ndarray, np.ndarray | None]:
    """``trials`` releases of the strategy at sensitivity/epsilon = 1 (Lap(1) noise on every
    measurement, so multiply by (Delta/eps)^2 for another epsilon): the total squared error over
    all ranges of each release (mean 2 ``error_units(inference)``: Lap(1) has variance 2), and the
    mean squared error by range length L = 1..k of the least-squares answers (for identity 2L), or
    None when the answers are the strategy's own sums (``answers_directly`` without inference)."""
    zero = np.zeros(strategy.k)
    y = strategy.measure(zero, strategy.sensitivity, rng=rng, size=check_positive_int(trials, "trials"))
    totals = strategy.total_error(y, zero, inference=inference)
    if strategy.answers_directly and not inference:
        return totals, None
    return totals, range_error_by_length(strategy.reconstruct(y)).mean(axis=0)
