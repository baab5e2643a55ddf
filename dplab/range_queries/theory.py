"""Exact expected errors of the range-query strategies, and what follows from them.

expected_total_error(name, k, eps, ...) = Var(one measurement) * error_units, where
the epsilon-free units are computed once per configuration (cached: a slider that
moves epsilon only rescales). Also: the error per range query, where the hierarchy
starts to beat identity, the best branching factor, and [Duke18]'s orders of growth.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import check_branching, check_epsilon, check_positive_int
from dplab.mechanisms.laplace import laplace_mse
from dplab.range_queries.errors import all_range_total_error, n_ranges
from dplab.range_queries.strategies import RangeStrategy, range_strategy, tree_height

__all__ = [
    "best_branching",
    "expected_error_per_query",
    "expected_total_error",
    "hierarchy_crossover_any_k",
    "hierarchy_crossover_k",
    "hierarchy_crossover_k_by_columns",
    "hierarchy_max_range_error",
    "hierarchy_max_range_nodes",
    "hierarchy_node_variance",
    "hierarchy_units_by_columns",
    "seed_error_orders",
]


@lru_cache(maxsize=4096)
def _units(name: str, k: int, branching: int, inference: bool, include_root: bool | None
           ) -> tuple[float, float]:
    """(sensitivity, error units) of a named strategy: epsilon-free, cached."""
    s = range_strategy(name, k, branching, include_root=include_root)
    return s.sensitivity, s.error_units(inference)


def expected_total_error(
    name: str | RangeStrategy,
    k: int | None = None,
    epsilon: float | None = None,
    branching: int = 2,
    inference: bool = False,
    *,
    include_root: bool | None = None,
) -> float:
    """The TOTAL over all k(k+1)/2 ranges (not per query: :func:`expected_error_per_query`) of the
    exact expected squared error of a strategy, with its own answers (``inference=False``) or
    least squares (``inference=True``). ``name`` is a
    strategy's name (with ``k``, ``branching`` and, for a hierarchy, ``include_root``: Hay et al.'s H
    measures the root, ``include_root=True``) or any :class:`RangeStrategy` object
    (p-Identity included; ``k`` then its own).

    identity:    (2/eps^2) k(k+1)(k+2)/6 (a range of length L has variance 2L/eps^2).
    all_ranges:  direct: k(k+1)/2 * 2(Delta/eps)^2, Delta = floor((k+1)^2/4);
                 least squares: 2 (Delta/eps)^2 k (W A^+ = W W^+ is a rank-k projection).
    wavelet:     2 ((h + 1)/eps)^2 ||W A^{-1}||_F^2 (inverse transform = least squares).
    hierarchy:   direct: 2 (Delta/eps)^2 * (number of nodes summed over all ranges);
                 least squares: the matrix-mechanism error 2 (Delta/eps)^2 ||W A^+||_F^2
                 (Li, Miklau et al. 2010), from the spectral form of A^T A.
    """
    if epsilon is None:
        raise ValueError("epsilon must be given, got epsilon=None")
    if isinstance(name, RangeStrategy):
        if k is not None and check_positive_int(k, "k") != name.k:
            raise ValueError(f"k must be the strategy's own k={name.k} or None, got k={k!r}")
        return name.expected_total_error(epsilon, inference)
    if k is None:
        raise ValueError(f"k must be given with a strategy's name, got k=None for name={name!r}")
    sensitivity, units = _units(name, check_positive_int(k, "k"), check_branching(branching),
                                bool(inference), include_root)
    return laplace_mse(sensitivity, epsilon) * units


def expected_error_per_query(
    name: str | RangeStrategy,
    k: int | None = None,
    epsilon: float | None = None,
    branching: int = 2,
    inference: bool = False,
    *,
    include_root: bool | None = None,
) -> float:
    """Expected squared error per range query: expected_total_error / (k(k+1)/2), for a
    strategy's name or a :class:`RangeStrategy` object."""
    total = expected_total_error(name, k, epsilon, branching, inference, include_root=include_root)
    return total / n_ranges(name.k if isinstance(name, RangeStrategy) else k)


def hierarchy_crossover_k(branching: int = 2, *, include_root: bool, max_height: int = 30) -> int:
    """The smallest power of b at which hierarchy + inference has a lower total error over
    all ranges than identity (epsilon cancels: both errors scale as 1/epsilon^2)."""
    b = check_branching(branching)
    for h in range(1, max_height + 1):
        k = b**h
        if expected_total_error("hierarchy", k, 1.0, b, True, include_root=include_root) < \
                expected_total_error("identity", k, 1.0):
            return k
    raise ValueError(f"no crossover up to {b}^{max_height} bins")


def hierarchy_units_by_columns(k: int, branching: int = 2, *, include_root: bool) -> float:
    """||W A^+||_F^2 of the b-ary hierarchy column by column: Hay et al. (2010)'s inference applied
    to a unit error at each node m in turn, sum_m ||W A^+ e_m||^2, each column scored over all ranges
    with :func:`~dplab.range_queries.errors.all_range_total_error`. O(k^2): a second computation of
    ``error_units(inference=True)`` (the spectral form of Li, Miklau et al. 2010), independent of it."""
    s = range_strategy("hierarchy", k, branching, include_root=include_root)
    return float(np.sum(all_range_total_error(s.reconstruct(np.eye(s.n_measurements)))))


def hierarchy_crossover_k_by_columns(branching: int = 2) -> int:
    """:func:`hierarchy_crossover_k` (root not measured) from the units counted column by column:
    the smallest power k of b with 2 l^2 ||W A^+||_F^2 < 2 k(k+1)(k+2)/6 at eps = 1, where l (the
    sensitivity) is the number of measured levels and the right side is identity's total error."""
    b = check_branching(branching)
    k = b
    while (hierarchy_units_by_columns(k, b, include_root=False) * 2
           * len(range_strategy("hierarchy", k, b, include_root=False).level_sizes) ** 2
           >= 2 * k * (k + 1) * (k + 2) / 6):
        k *= b
    return k


def best_branching(k: int, branchings=range(2, 65), *, include_root: bool) -> tuple[int, float]:
    """The branching factor with the lowest hierarchy + inference error for k bins, and that
    error per range query at epsilon = 1."""
    k = check_positive_int(k, "k")
    errors = {b: expected_error_per_query("hierarchy", k, 1.0, b, True, include_root=include_root)
              for b in branchings}
    best = min(errors, key=errors.get)
    return best, errors[best]


def seed_error_orders(k: ArrayLike, epsilon: float) -> dict[str, np.ndarray]:
    """[Duke18]'s orders of growth of the *total* error (constants set to 1): strategy 2
    O(k^3/eps^2), strategy 3 O(k^2 log^3 k / eps^2); strategy 1's slide value O(k^4/eps^2)
    is its per-query error (the total is about k^6/(16 eps^2))."""
    k = np.asarray(check_positive_int(k, "k", array_ok=True), dtype=float)
    epsilon = check_epsilon(epsilon)
    return {"identity": k**3 / epsilon**2, "hierarchy": k**2 * np.log2(k) ** 3 / epsilon**2,
            "all ranges (per query)": k**4 / epsilon**2}


def hierarchy_crossover_any_k(
    branching: int = 2, *, include_root: bool, k_max: int = 1100
) -> tuple[int, int]:
    """Where hierarchy + inference beats identity over every k < k_max, padding included:
    (the first k at which it wins, the k from which it wins for every larger k < k_max).

    :func:`hierarchy_crossover_k` looks at powers of b only; padded trees can win
    earlier, and for some b lose again after a first win.
    """
    b = check_branching(branching)
    k_max = check_positive_int(k_max, "k_max")
    wins = [expected_total_error("hierarchy", k, 1.0, b, True, include_root=include_root)
            < expected_total_error("identity", k, 1.0) for k in range(1, k_max)]
    if not wins[-1]:
        raise ValueError(f"hierarchy + inference does not win at k = {k_max - 1}: raise k_max")
    first = wins.index(True) + 1
    last_loss = max((k for k, w in enumerate(wins, start=1) if not w), default=0)
    return first, last_loss + 1


def hierarchy_node_variance(k: int, epsilon: float, branching: int = 2, include_root: bool = False) -> float:
    """Variance of one noisy node of the b-ary hierarchy: 2 (l/eps)^2 with l the number of
    measured levels (its sensitivity); l = log_b k for k = b^H without the root, [Duke18]'s
    "error in each node O(log^2 k / eps^2)"."""
    s = range_strategy("hierarchy", k, branching, include_root=include_root)
    return laplace_mse(s.sensitivity, epsilon)


def hierarchy_max_range_nodes(k: int, branching: int = 2) -> int:
    """The most maximal nodes any range needs in the b-ary tree over k = b^H bins without
    the root: 2(b - 1)(H - 1) + (b - 2) for H >= 2 (two runs of up to b - 1 siblings on each
    level below the top, and up to b - 2 top nodes between them), b for H = 1 (checked
    against the canonical decomposition of every range in the tests)."""
    b = check_branching(branching)
    height = tree_height(k, b)
    if b**height != check_positive_int(k, "k") or height < 1:
        raise ValueError(f"k must be a power of branching={b} (no padding), got k={k}")
    return b if height == 1 else 2 * (b - 1) * (height - 1) + (b - 2)


def hierarchy_max_range_error(k: int, epsilon: float, branching: int = 2) -> float:
    """The largest expected squared error of a range answered by summing its maximal nodes
    (no inference, no root): hierarchy_max_range_nodes * hierarchy_node_variance. For b = 2
    it is 4 H^2 (H - 1)/eps^2 with H = log2 k: [Duke18]'s O(log^3 k / eps^2)."""
    return hierarchy_max_range_nodes(k, branching) * hierarchy_node_variance(k, epsilon, branching)
