"""Mechanisms and their theory: oracles from outside dplab, properties, and simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dplab


def test_gaussian_delta_matches_dp_accounting_reference():
    # LAB_SPEC.md reference, computed with dp-accounting 0.6.0
    assert dplab.gaussian_delta(1.0, 1.0, 1.0) == pytest.approx(0.1269367375, rel=1e-9)


def test_gaussian_delta_by_hand():
    # Balle & Wang Theorem 8 at sigma = 2, Delta = 1, eps = 0.5, from scipy.stats.norm directly
    from scipy.stats import norm

    a, b = 1 / 4, 0.5 * 2
    expected = norm.cdf(a - b) - math.exp(0.5) * norm.cdf(-a - b)
    assert dplab.gaussian_delta(2.0, 1.0, 0.5) == pytest.approx(expected, rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    eps=st.floats(0.01, 20),
    log_delta=st.floats(-14, -1.5),
    sens=st.floats(0.01, 100),
)
def test_analytic_sigma_solves_delta_exactly(eps, log_delta, sens):
    delta = 10**log_delta
    sigma = dplab.gaussian_sigma(sens, eps, delta)
    assert dplab.gaussian_delta(sigma, sens, eps) == pytest.approx(delta, rel=1e-6)
    # smallest such sigma: a 0.1% smaller sigma leaks more than delta
    assert dplab.gaussian_delta(sigma * 0.999, sens, eps) > delta
    # linear in the sensitivity
    assert sigma == pytest.approx(sens * dplab.gaussian_sigma(1.0, eps, delta), rel=1e-7)


@pytest.mark.parametrize("eps", [0.01, 0.1, 0.5, 0.9])
@pytest.mark.parametrize("delta", [1e-3, 1e-6, 1e-10])
def test_analytic_never_needs_more_noise_than_classical(eps, delta):
    classical = dplab.gaussian_sigma(1, eps, delta, method="classical")
    assert classical == pytest.approx(math.sqrt(2 * math.log(1.25 / delta)) / eps)
    assert dplab.gaussian_sigma(1, eps, delta) < classical
    assert dplab.gaussian_delta(classical, 1, eps) <= delta


def test_classical_refuses_epsilon_at_least_one():
    with pytest.raises(ValueError, match="epsilon < 1.*epsilon=1.0"):
        dplab.gaussian_sigma(1, 1.0, 1e-5, method="classical")
    with pytest.raises(ValueError, match="method"):
        dplab.gaussian_sigma(1, 0.5, 1e-5, method="exact")


def test_zcdp_sigma_and_reference_conversion():
    assert dplab.gaussian_sigma_zcdp(2.0, 0.5) == pytest.approx(2.0)
    assert dplab.zcdp_to_approx_dp(0.5, 1e-6) == pytest.approx(5.756522, abs=1e-6)
    for eps in (0.1, 1.0, 5.0):
        assert dplab.zcdp_to_approx_dp(dplab.approx_dp_to_zcdp(eps, 1e-6), 1e-6) == pytest.approx(eps)


def test_laplace_closed_forms():
    assert dplab.laplace_mse(1, 0.5) == 8.0
    assert dplab.laplace_mae(2, 0.5) == 4.0
    assert dplab.laplace_tail_bound(1, 1.0, math.exp(-3)) == pytest.approx(3.0)


def test_laplace_accuracy_k_both_forms():
    assert dplab.laplace_accuracy_k(1, 10, 1.0, 0.05) == pytest.approx(10 * math.log(200))
    approx = dplab.laplace_accuracy_k(2, 50, 0.5, 0.1, delta=1e-5)
    assert approx == pytest.approx(2 * math.sqrt(8 * 50 * math.log(1e5)) / 0.5 * math.log(500))
    with pytest.raises(ValueError, match="epsilon <= 1.*epsilon=1.5"):
        dplab.laplace_accuracy_k(1, 10, 1.5, 0.05, delta=1e-6)
    # the (eps, delta) form beats the pure one exactly when k > 8 ln(1/delta)
    threshold = 8 * math.log(1e6)
    for k in (50, 110, 111, 500):
        better = dplab.laplace_scale_k(1, k, 1.0, 1e-6) < dplab.laplace_scale_k(1, k, 1.0)
        assert better == (k > threshold)


def _gaussian_wins(j: int, eps: float, delta: float) -> bool:
    return dplab.gaussian_sigma(math.sqrt(j), eps, delta) ** 2 < dplab.laplace_mse(j, eps)


@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 3.0])
@pytest.mark.parametrize("delta", [1e-3, 1e-6, 1e-9])
def test_crossover_k_is_the_smallest_k_where_gaussian_wins(eps, delta):
    k = dplab.gaussian_laplace_crossover_k(eps, delta)
    assert _gaussian_wins(k, eps, delta)
    assert k == 1 or not _gaussian_wins(k - 1, eps, delta)


def test_shapes_and_seeds():
    value = np.array([1.0, 2.0, 3.0])
    out = dplab.laplace_mechanism(value, 1, 1.0, size=5, rng=0)
    assert out.shape == (5, 3)
    assert isinstance(dplab.laplace_mechanism(3.0, 1, 1.0, rng=0), float)
    assert dplab.gaussian_mechanism(np.zeros((2, 2)), 1.0, size=4, rng=0).shape == (4, 2, 2)
    np.testing.assert_array_equal(out, dplab.laplace_mechanism(value, 1, 1.0, size=5, rng=0))
    # noise is scaled standard noise: one seed, every epsilon (common random numbers)
    standard = np.random.default_rng(0).laplace(0, 1, size=(5, 3))
    np.testing.assert_allclose(dplab.laplace_mechanism(value, 2, 0.5, size=5, rng=0),
                               value + 4 * standard)


def test_laplace_mechanism_error_matches_theory():
    # 200,000 draws at a fixed seed; a 99.9% CLT interval must contain 2 (Delta/eps)^2 and Delta/eps
    eps, sens = 0.7, 3.0
    err = dplab.laplace_mechanism(np.zeros(1), sens, eps, size=200_000, rng=42).ravel()
    assert dplab.mean_ci(err**2, 0.999).contains(dplab.laplace_mse(sens, eps))
    assert dplab.mean_ci(np.abs(err), 0.999).contains(dplab.laplace_mae(sens, eps))
    t = dplab.laplace_tail_bound(sens, eps, 0.1)
    assert dplab.proportion_ci(np.sum(np.abs(err) >= t), err.size, 0.999).contains(0.1)


def test_gaussian_mechanism_error_matches_theory():
    sigma = 2.5
    err = dplab.gaussian_mechanism(0.0, sigma, size=200_000, rng=43)
    assert dplab.mean_ci(err**2, 0.999).contains(dplab.gaussian_mse(sigma))
    assert dplab.mean_ci(np.abs(err), 0.999).contains(dplab.gaussian_mae(sigma))
    t = dplab.gaussian_tail_bound(sigma, 0.05)
    assert dplab.proportion_ci(np.sum(np.abs(err) >= t), err.size, 0.999).contains(0.05)


def test_module_all_is_exported_flat():
    for module in dplab._MODULES:
        for name in module.__all__:
            assert getattr(dplab, name) is getattr(module, name)
            assert name in dplab.__all__
