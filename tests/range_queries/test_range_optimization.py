"""The optimised p-Identity strategy: objective, gradient, the shipped matrix."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import check_grad

import dplab
from dplab import range_queries


def _workload(k: int) -> np.ndarray:
    i, j = np.triu_indices(k)
    return np.array([[1.0 if a <= m <= b else 0.0 for m in range(k)] for a, b in zip(i, j, strict=True)])


def test_gram_and_error_against_dense_pinv():
    k = 10
    w = _workload(k)
    np.testing.assert_array_equal(range_queries.all_ranges_gram(k), w.T @ w)  # closed form vs definition
    theta = np.random.default_rng(0).uniform(size=(3, k))
    a = dplab.p_identity_matrix(theta)
    assert np.allclose(np.abs(a).sum(axis=0), 1.0)  # every column has L1 norm 1
    dense = 2 / 0.5**2 * np.linalg.norm(w @ np.linalg.pinv(a), "fro") ** 2
    assert dplab.p_identity_error(theta, 0.5) == pytest.approx(dense, rel=1e-10)
    # Theta = 0 is the identity strategy
    assert dplab.p_identity_error(np.zeros((2, k))) == pytest.approx(
        dplab.expected_total_error("identity", k, 1.0))


def test_analytic_gradient():
    k, p = 12, 3
    gram = range_queries.all_ranges_gram(k)
    theta = np.random.default_rng(1).uniform(size=p * k)

    def value(t):
        return range_queries.p_identity_objective(t.reshape(p, k), gram)[0]

    def grad(t):
        return range_queries.p_identity_objective(t.reshape(p, k), gram)[1].ravel()

    assert check_grad(value, grad, theta) < 1e-6 * np.linalg.norm(grad(theta))


def test_optimisation_beats_identity_and_hierarchies_at_k64():
    theta = range_queries.optimize_p_identity(64, rng=2028)
    assert np.all(theta >= 0)
    ours = range_queries.PIdentityStrategy(theta).expected_total_error(1.0) / dplab.n_ranges(64)
    best_tree = min(dplab.expected_error_per_query("hierarchy", 64, 1.0, b, True, include_root=False)
                    for b in range(2, 65))
    assert ours < best_tree < dplab.expected_error_per_query("identity", 64, 1.0)


def test_shipped_k256_strategy_meets_the_goal():
    theta = dplab.load_p_identity()
    assert theta.shape == (16, 256) and np.all(theta >= 0)
    assert dplab.p_identity_error(theta) / (256 * 257 / 2) <= 66.0


def test_bad_input():
    with pytest.raises(ValueError, match="k must be a positive integer"):
        range_queries.optimize_p_identity(0)
    with pytest.raises(ValueError, match="epsilon"):
        dplab.p_identity_error(np.zeros((1, 4)), epsilon=0.0)


def test_p_identity_strategy_is_a_range_strategy():
    theta = np.random.default_rng(3).uniform(0, 0.3, size=(2, 12))
    s = range_queries.PIdentityStrategy(theta)
    assert isinstance(s, range_queries.RangeStrategy) and s.sensitivity == 1.0 and s.k == 12
    assert np.abs(s.matrix()).sum(axis=0).max() == pytest.approx(1.0)
    # closed form = the dense base class's ||W A^+||_F^2
    assert s.error_units() == pytest.approx(range_queries.RangeStrategy.error_units(s), rel=1e-10)
    x = np.arange(12.0)
    np.testing.assert_allclose(s.reconstruct(s.apply(x)), x, atol=1e-9)  # A has full column rank
    y = s.measure(x, 0.9, rng=5, size=20_000)
    est = dplab.mean_ci(s.total_error(y, x), 0.999)
    assert est.contains(s.expected_total_error(0.9))
    with pytest.raises(ValueError, match=r"theta must hold finite entries >= 0, got min\(theta\)=-0.29"):
        range_queries.PIdentityStrategy(-theta)
