"""GreedyH, DAWA's workload-aware second stage (Li, Hay, Miklau & Wang, PVLDB 2014, Section 4;
dpcomp_core's greedyH.py): a binary hierarchy of interval queries over n cells whose weights are
chosen greedily, bottom-up, for a workload with Gram matrix G = W^T W.

**The strategy.** Every node v (an interval of cells; the leaves are single cells) asks its total
with a weight w_v. Each node splits its cells into a left half of floor(n/2) cells and the rest.
At a node whose two subtrees are fixed, the node asks with weight 1 - p and both subtrees are
scaled by p, so along every leaf-to-root path the weights sum to 1: the L1 sensitivity is 1 and
every query gets Lap(1/eps). The estimate is least squares, so (the matrix mechanism, Li et al.
PODS 2010) the expected total squared error of the workload is (2/eps^2) tr(G (A^T A)^-1).

**The greedy choice** of p at a node of cells C, given its children's (A_c^T A_c)^-1 = M_c:
with D = blockdiag(M_c), u = D 1, s = (1 - p)^2 and kappa = 1^T D 1, Sherman-Morrison gives
(A^T A)^-1 = (D - s u u^T / (p^2 + s kappa)) / p^2, so the workload's error on C's own cells is
err(p) = (sum over children of err_c - s u^T G_CC u / (p^2 + s kappa)) / p^2,
minimised over p in {1, 1 - 1/g, ..., 1/g} (g = ``granularity``, 100 as in dpcomp_core; p = 1
asks nothing at the node). Then u becomes u / (p^2 + s kappa) and kappa becomes
kappa / (p^2 + s kappa). A leaf asks with weight 1: M = [1], err = G_ii. dpcomp_core adds a
depth-dependent discount to the cross term and scores a node with the whole workload's columns;
this module scores each node on its own cells (G_CC), the error that node's choice can change.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import check_positive_int
from dplab.range_queries.strategies import RangeStrategy

__all__ = ["GreedyH", "greedy_h"]


@dataclass(frozen=True)
class GreedyH:
    """GreedyH's hierarchy: ``nodes`` (first cell, number of cells) with their query ``weights`` (0:
    not asked), ``error_units`` = tr(G (A^T A)^-1) (total error / (2/eps^2)) and the strategy."""

    nodes: tuple[tuple[int, int], ...]
    weights: np.ndarray
    error_units: float
    strategy: RangeStrategy


def _build(gram: np.ndarray, start: int, n: int, grid: np.ndarray, nodes: list, scale: list):
    """(err, u, kappa, first node index of the subtree) for the node of cells [start, start + n)."""
    here = len(nodes)
    nodes.append((start, n))
    scale.append(1.0)
    if n == 1:
        return float(gram[start, start]), np.ones(1), 1.0, here
    left = n // 2
    err_l, u_l, k_l, _ = _build(gram, start, left, grid, nodes, scale)
    err_r, u_r, k_r, _ = _build(gram, start + left, n - left, grid, nodes, scale)
    u, kappa, block = np.concatenate([u_l, u_r]), k_l + k_r, gram[start:start + n, start:start + n]
    quad = float(u @ block @ u)
    s, p2 = (1 - grid) ** 2, grid**2
    errs = (err_l + err_r - s * quad / (p2 + s * kappa)) / p2
    best = int(np.argmin(errs))
    p, s_best = float(grid[best]), float(s[best])
    scale[here] = 1 - p  # this node's weight; its subtree (every node after it) is scaled by p
    for i in range(here + 1, len(nodes)):
        scale[i] *= p
    denom = p * p + s_best * kappa
    return float(errs[best]), u / denom, kappa / denom, here


def greedy_h(gram: ArrayLike, granularity: int = 100) -> GreedyH:
    """GreedyH for the workload whose Gram matrix W^T W is ``gram`` (n x n): the hierarchy, its
    weights chosen greedily bottom-up (module docstring) and the least-squares strategy of its
    weighted queries (zero-weight nodes dropped; sensitivity 1)."""
    g = np.asarray(gram, dtype=float)
    if g.ndim != 2 or g.shape[0] != g.shape[1] or g.size == 0 or not np.all(np.isfinite(g)):
        raise ValueError(f"gram must be a finite non-empty square matrix, got shape {g.shape}")
    granularity = check_positive_int(granularity, "granularity")
    grid = 1 - np.arange(granularity) / granularity
    nodes: list[tuple[int, int]] = []
    weights: list[float] = []
    err, _, _, _ = _build(g, 0, g.shape[0], grid, nodes, weights)
    w = np.array(weights)
    rows = np.zeros((int(np.count_nonzero(w)), g.shape[0]))
    for row, i in enumerate(np.flatnonzero(w)):
        first, n = nodes[i]
        rows[row, first:first + n] = w[i]
    return GreedyH(tuple(nodes), w, err, RangeStrategy(rows))
