"""The Laplace mechanism and its theory: closed forms, oracles, simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest

import dplab
from dplab import mechanisms


@pytest.mark.catches("laplace.scale_times_2", "laplace.mse_no_factor_2", "laplace.scale_over_eps_squared")
def test_laplace_closed_forms():
    assert dplab.laplace_mse(1, 0.5) == 8.0
    assert dplab.laplace_mae(2, 0.5) == 4.0
    assert dplab.laplace_tail_bound(1, 1.0, math.exp(-3)) == pytest.approx(3.0)
    assert mechanisms.laplace_tail_probability(3.0, 1.0) == pytest.approx(math.exp(-3))


def test_theory_accepts_arrays_of_epsilon_and_k():
    eps = np.array([0.1, 0.5, 2.0])
    np.testing.assert_allclose(dplab.laplace_mse(1, eps), [2 / e**2 for e in eps])
    np.testing.assert_allclose(dplab.laplace_tail_bound(2, eps, 0.1), [2 / e * math.log(10) for e in eps])
    ks = np.array([1, 10, 100])
    np.testing.assert_allclose(dplab.laplace_accuracy_k(1, ks, 1.0, 0.05),
                               [k * math.log(k / 0.05) for k in ks])
    assert isinstance(dplab.laplace_mse(1, 0.5), float)  # a scalar stays a Python float


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


@pytest.mark.parametrize("k", [1, 7, 100])
def test_exact_accuracy_solves_its_equation_and_beats_the_union_bound(k):
    beta, eps = 0.05, 0.8
    alpha = dplab.laplace_accuracy_k_exact(1, k, eps, beta)
    b = k / eps
    # Pr[all k |Lap(b)| <= alpha] = (1 - e^{-alpha/b})^k must be 1 - beta
    assert (1 - math.exp(-alpha / b)) ** k == pytest.approx(1 - beta, rel=1e-12)
    assert alpha <= dplab.laplace_accuracy_k(1, k, eps, beta) + 1e-9
    if k == 1:
        assert alpha == pytest.approx(dplab.laplace_tail_bound(1, eps / k, beta))


def test_exact_accuracy_against_simulation():
    k, eps, beta, trials = 30, 1.0, 0.1, 40_000
    alpha = dplab.laplace_accuracy_k_exact(1, k, eps, beta)
    noise = dplab.laplace_mechanism(np.zeros(k), k, eps, size=trials, rng=3)  # b = k/eps
    fails = int(np.sum(np.abs(noise).max(axis=1) > alpha))
    assert dplab.proportion_ci(fails, trials, 0.999).contains(beta)


def test_shapes_and_seeds():
    value = np.array([1.0, 2.0, 3.0])
    out = dplab.laplace_mechanism(value, 1, 1.0, size=5, rng=0)
    assert out.shape == (5, 3)
    assert isinstance(dplab.laplace_mechanism(3.0, 1, 1.0, rng=0), float)
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


def test_privacy_loss_is_the_log_density_ratio_and_at_most_epsilon():
    from scipy import stats

    eps, sens = 0.7, 2.0
    fx, fy = np.array([3.0, -1.0]), np.array([4.0, 0.0])  # ||fx - fy||_1 = 2 = Delta
    z = np.random.default_rng(4).uniform(-10, 10, size=(5000, 2))
    b = sens / eps
    direct = (stats.laplace.logpdf(z, fx, b) - stats.laplace.logpdf(z, fy, b)).sum(axis=1)
    loss = dplab.laplace_privacy_loss(z, fx, fy, sens, eps)
    np.testing.assert_allclose(loss, direct, atol=1e-12)
    assert loss.max() <= eps + 1e-12
    assert dplab.laplace_privacy_loss(np.array([0.0, -5.0]), fx, fy, sens, eps) == pytest.approx(eps)
