"""Notebook 3's second computations (error units column by column, the crossover from them) and the
unit-noise simulation its panel draws, against dense linear algebra and closed forms."""

from __future__ import annotations

import numpy as np
import pytest

import dplab
from dplab.range_queries import (
    hierarchy_crossover_k,
    hierarchy_crossover_k_by_columns,
    hierarchy_units_by_columns,
    range_strategy,
    simulated_unit_errors,
)


def _dense_units(k: int, b: int, root: bool) -> float:
    """||W A^+||_F^2 from the definition: the padded tree's 0/1 matrix A, numpy's pinv, and W^T W
    (bins a, c lie together in min(a, c) (k + 1 - max(a, c)) ranges; counted below for small k)."""
    s = range_strategy("hierarchy", k, b, include_root=root)
    rows = []
    for size in s.level_sizes:
        span = s.n_leaves // size
        for idx in range(size):
            rows.append(np.r_[np.zeros(idx * span), np.ones(span), np.zeros(s.n_leaves - (idx + 1) * span)])
    pinv = np.linalg.pinv(np.array(rows))[:k]  # the k real bins of the least-squares leaves
    a = np.arange(1, k + 1)
    gram = np.minimum.outer(a, a) * (k + 1 - np.maximum.outer(a, a))
    if k <= 20:
        counted = np.zeros((k, k))
        for lo in range(k):
            for hi in range(lo, k):
                counted[lo:hi + 1, lo:hi + 1] += 1
        assert np.array_equal(counted, gram)
    return float(np.trace(pinv.T @ gram @ pinv))


@pytest.mark.parametrize("k, b, root", [(8, 2, False), (8, 2, True), (20, 3, False), (16, 4, True)])
def test_units_by_columns_are_the_dense_matrix_mechanism(k, b, root):
    """catches: a node left out of the unit columns (np.eye(n)[1:]) or the root flag not passed on"""
    dense = _dense_units(k, b, root)
    assert hierarchy_units_by_columns(k, b, include_root=root) == pytest.approx(dense, rel=1e-9)


def test_crossover_by_columns_against_dense_units():
    """catches: the sensitivity l not squared in 2 l^2 ||W A^+||^2 (the tree would win from k = 16)"""
    k = 2
    while (2 * len(range_strategy("hierarchy", k, 2, include_root=False).level_sizes) ** 2
           * _dense_units(k, 2, False) >= 2 * k * (k + 1) * (k + 2) / 6):
        k *= 2
    assert hierarchy_crossover_k_by_columns(2) == k == 512
    assert hierarchy_crossover_k_by_columns(4) == hierarchy_crossover_k(4, include_root=False)


def test_simulated_unit_errors_have_the_unit_noise_variance():
    """catches: noise drawn at Lap(1/eps) with eps = 1 instead of Lap(Delta/eps) at eps = Delta (the
    totals would be Delta^2 = 36 times the units), or by-length errors of the direct answers"""
    s = range_strategy("hierarchy", 64, 2, include_root=False)  # sensitivity 6
    totals, by_length = simulated_unit_errors(s, 2000, 3, inference=True)
    assert dplab.mean_ci(totals, 0.999).contains(2 * s.error_units(inference=True))
    assert by_length.shape == (64,)
    assert simulated_unit_errors(s, 10, 3)[1] is None  # direct sums of nodes: no reconstructed bins
    identity = range_strategy("identity", 16)
    totals, by_length = simulated_unit_errors(identity, 4000, 4)
    assert dplab.mean_ci(totals, 0.999).contains(2 * identity.error_units())
    np.testing.assert_allclose(by_length, 2 * np.arange(1, 17), rtol=0.1)  # a range of L bins: 2L
