"""GreedyH against the matrix mechanism's error formula (dense pseudo-inverse), against a dense
re-implementation of the greedy choice, and in DAWA's second stage against simulation."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg

import dplab
from dplab.range_queries import all_ranges_gram, bucket_gram, greedy_h, spread, spread_error
from dplab.simulate import mean_ci


def random_gram(n: int, rng: np.random.Generator) -> np.ndarray:
    """A workload asking mostly for totals (the all-ones block, so the hierarchy's inner nodes pay
    off) plus random noise R R^T/(100 n) (no ties in the greedy's choices)."""
    r = rng.normal(size=(n, n))
    return np.ones((n, n)) + r @ r.T / (100 * n)


def dense_greedy(gram: np.ndarray, start: int, n: int, grid: np.ndarray) -> np.ndarray:
    """The greedy by brute force: the subtree's strategy matrix built densely for every p on the grid,
    its error tr(G_CC pinv(A^T A)) on the node's cells, the first least kept. Returns A (rows:
    weighted queries over the node's n cells)."""
    if n == 1:
        return np.ones((1, 1))
    left = n // 2
    children = scipy.linalg.block_diag(dense_greedy(gram, start, left, grid),
                                       dense_greedy(gram, start + left, n - left, grid))
    block = gram[start:start + n, start:start + n]
    best, best_a = np.inf, None
    for p in grid:
        a = np.vstack([np.full((1, n), 1 - p), p * children])
        err = np.trace(block @ np.linalg.pinv(a.T @ a))
        if err < best - 1e-9 * abs(best) or best_a is None:
            best, best_a = err, a
    return best_a


@pytest.mark.catches("greedy_h.subtree_not_scaled", "greedy_h.u_not_updated")
@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13, 32])
def test_the_error_is_the_matrix_mechanism_formula(n):
    """catches: a subtree's weights not scaled by p (the path sums then exceed 1); u and kappa not
    carried through the node's own rank-one update. tr(G (A^T A)^+) by a dense pseudo-inverse, for
    all ranges and a random workload; every cell's weights sum to 1 along its path (sensitivity 1)."""
    rng = np.random.default_rng(n)
    for gram in (all_ranges_gram(n), random_gram(n, rng)):
        h = greedy_h(gram)
        a = h.strategy.matrix()
        assert np.allclose(np.abs(a).sum(axis=0), 1.0)
        dense = np.trace(gram @ np.linalg.pinv(a.T @ a))
        assert h.error_units == pytest.approx(dense, rel=1e-9)


@pytest.mark.catches("greedy_h.sherman_morrison_sign")
@pytest.mark.parametrize("n", [2, 3, 6, 9])
def test_the_greedy_choice_equals_a_dense_brute_force(n):
    """catches: the rank-one update's sign flipped (the greedy then never asks an inner node). Each
    node's weight as chosen by trying every p with dense algebra (granularity 20)."""
    gram = random_gram(n, np.random.default_rng(10 + n))
    grid = 1 - np.arange(20) / 20
    dense = dense_greedy(gram, 0, n, grid)
    got = greedy_h(gram, granularity=20).strategy.matrix()
    assert got.shape[0] > n and np.any((got > 0) & (got < 1))  # inner nodes asked, at weights below 1
    dense = dense[np.abs(dense).sum(axis=1) > 0]
    order = np.lexsort(np.round(dense, 12).T), np.lexsort(np.round(got, 12).T)
    assert np.allclose(dense[order[0]], got[order[1]])


def test_greedy_h_beats_identity_on_all_ranges_of_many_cells():
    """On the all-range workload of 256 cells GreedyH is below identity's tr(G) and the plain binary
    hierarchy's error (notebook 3's strategy objects, dense formula)."""
    gram = all_ranges_gram(256)
    h = greedy_h(gram)
    assert h.error_units < np.trace(gram)
    plain = dplab.range_queries.range_strategy("hierarchy", 256, include_root=False)
    assert h.error_units < plain.sensitivity**2 * plain.error_units(inference=True)


@pytest.mark.catches("dawa.bucket_gram_sums")
def test_the_bucket_workload_is_the_spread_all_ranges_gram():
    """catches: block sums of W^T W for block means. S^T (W^T W) S with the spreading matrix S built
    densely, on random partitions."""
    rng = np.random.default_rng(2)
    for k in (1, 7, 20):
        cuts = np.flatnonzero(rng.random(k - 1) < 0.4) + 1
        edges = np.concatenate([[0], cuts, [k]])
        buckets = [(int(a), int(b) - 1) for a, b in zip(edges[:-1], edges[1:], strict=True)]
        s = np.zeros((k, len(buckets)))
        for col, (a, b) in enumerate(buckets):
            s[a:b + 1, col] = 1 / (b - a + 1)
        assert np.allclose(bucket_gram(k, buckets), s.T @ all_ranges_gram(k) @ s)
    with pytest.raises(ValueError, match="buckets must cover"):
        bucket_gram(5, [(0, 1), (3, 4)])


@pytest.mark.statistical
def test_dawas_second_stage_with_greedy_h_has_the_formulas_error():
    """Given a partition, GreedyH's totals spread over the bins err by the merging bias (as for
    identity) plus (2/eps2^2) tr(S^T G S (A^T A)^-1) over all ranges: the mean of 3,000 simulated
    runs' total error must hold it in its 99.9% interval."""
    x = np.array([5.0, 1, 0, 0, 7, 7, 7, 9, 3, 3, 3, 3, 0, 12, 2, 2])
    buckets = [(0, 1), (2, 3), (4, 7), (8, 11), (12, 12), (13, 13), (14, 15)]
    eps2 = 0.5
    h = greedy_h(bucket_gram(x.size, buckets))
    expected = spread_error(x, buckets, eps2)[0] + 2 / eps2**2 * h.error_units
    _, estimates = spread(x, buckets, eps2, "greedy_h", size=3000, rng=4)
    assert mean_ci(dplab.all_range_total_error(estimates - x), 0.999).contains(expected)


def test_bad_input():
    with pytest.raises(ValueError, match="gram"):
        greedy_h(np.ones((2, 3)))
    with pytest.raises(ValueError, match="granularity"):
        greedy_h(np.eye(2), granularity=0)
    with pytest.raises(ValueError, match="strategy"):
        spread(np.ones(4), [(0, 3)], 1.0, "greedy")
