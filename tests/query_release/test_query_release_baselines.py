"""The baselines MWEM is measured against: Laplace on every answer and the noisy histogram with projection."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate

import dplab.query_release as qr
from dplab.accounting import AdvancedAccountant
from dplab.inference import project_onto_constraints


@pytest.mark.catches("qr.harmonic_number")
@pytest.mark.parametrize("k", [1, 2, 7, 100, 10_000])
def test_expected_max_and_mean_of_k_laplace_answers(k):
    epsilon = 0.5
    expected_max, expected_mean = qr.laplace_answers_expected_errors(k, epsilon)
    b = k / epsilon  # basic composition: Lap(k/eps) on each count
    # E max |Z_i| = int_0^inf Pr[max > t] dt = b int (1 - (1 - e^{-u})^k) du, by quadrature split at ln k
    def survival(u):
        return -math.expm1(k * math.log1p(-math.exp(-u))) if u > 0 else 1.0

    split = math.log(k) + 1
    head, _ = integrate.quad(survival, 0, split, points=[max(split - 3, 0.5)], limit=200)
    tail, _ = integrate.quad(survival, split, math.inf, limit=200)
    assert math.isclose(expected_max, b * (head + tail), rel_tol=1e-7)
    assert math.isclose(expected_mean, b, rel_tol=1e-12)
    curve_max, _ = qr.laplace_answers_expected_errors(np.array([k, k]), epsilon)
    assert curve_max.shape == (2,) and math.isclose(curve_max[0], expected_max, rel_tol=1e-12)


def test_advanced_composition_spends_the_budget_over_the_k_answers():
    k, epsilon, delta = 1000, 1.0, 1e-6
    mechanism = qr.laplace_per_answer(k, epsilon, "advanced", delta)
    spent = AdvancedAccountant().compose(mechanism, k).epsilon(delta)
    assert math.isclose(spent, epsilon, rel_tol=1e-9)
    assert mechanism.scale < qr.laplace_per_answer(k, epsilon).scale  # it pays at k = 1000
    with pytest.raises(ValueError, match="delta"):
        qr.laplace_per_answer(k, epsilon, "advanced")
    with pytest.raises(ValueError, match="composition='zcdp'"):
        qr.laplace_per_answer(k, epsilon, "zcdp")


@pytest.mark.catches("qr.simplex_threshold")
def test_projection_onto_the_simplex_matches_the_constrained_least_squares():
    rng = np.random.default_rng(7)
    for _ in range(20):
        v = rng.normal(2.0, 4.0, size=8)
        total = float(rng.uniform(1, 20))
        # independent: the exact active-set solver with sum x = total and -x <= 0
        expected = project_onto_constraints(v, np.ones((1, 8)), [total], -np.eye(8), np.zeros(8))
        np.testing.assert_allclose(qr.project_onto_simplex(v, total), expected, atol=1e-9)
    stacked = qr.project_onto_simplex(np.array([[1.0, 2.0], [5.0, -5.0]]), 1.0)
    np.testing.assert_allclose(stacked, [[0.0, 1.0], [1.0, 0.0]])


@pytest.mark.catches("qr.histogram_sensitivity")
def test_the_noisy_histogram_adds_laplace_at_its_sensitivity_and_projects():
    hist = np.array([5.0, 0.0, 12.0, 3.0, 0.0, 1.0])
    epsilon = 0.7
    raw = qr.noisy_histogram(hist, epsilon, rng=3, project=False)
    # replace-one, n public: sensitivity 2, Lap(2/eps) per cell, from the same standard draws
    np.testing.assert_allclose(raw - hist, 2 / epsilon * np.random.default_rng(3).laplace(0, 1, hist.size))
    projected = qr.noisy_histogram(hist, epsilon, rng=3)
    np.testing.assert_allclose(projected, qr.project_onto_simplex(raw, hist.sum()))
    assert projected.min() >= 0 and math.isclose(projected.sum(), hist.sum())
    # projection never moves the histogram away from the truth (a convex set holding it)
    assert np.linalg.norm(projected - hist) <= np.linalg.norm(raw - hist)
    with pytest.raises(ValueError, match="neighbours='replace'"):
        qr.noisy_histogram(hist, epsilon, neighbours="add_remove")


def test_the_noisy_histograms_squared_error_grows_with_the_query_size():
    sizes = np.array([1, 4, 64])
    np.testing.assert_allclose(qr.noisy_histogram_expected_squared_errors(sizes, 2.0), 2 * sizes * 1.0**2)
    assert qr.release_errors([1.0, 2.0, 3.0], [1.5, 2.0, 0.0]) == (3.0, 3.5 / 3)


@pytest.mark.catches("qr.laplace_bound_union")
@pytest.mark.parametrize("k", [1, 100, 1_800, 10_000])
def test_max_error_bound_uses_the_scale_the_mechanism_uses(k):
    """catches: the bound without the union bound over the k answers (ln(1/beta) for ln(k/beta)).
    Basic: (k/eps) ln(k/beta) in closed form; advanced: 1/eps_0 ln(k/beta), eps_0 the root of DRV's
    eps_0 sqrt(2k ln(1/delta)) + k eps_0 (e^eps_0 - 1) = eps found here by brentq, below [Roth11]'s
    corollary sqrt(8k ln(1/delta))/eps once k is large; the bound holds: (1 - e^(-alpha/b))^k >= 1 - beta."""
    from scipy import optimize

    epsilon, beta, delta = 1.0, 0.05, 1e-6
    basic = k / epsilon * math.log(k / beta)
    assert qr.laplace_answers_max_error_bound(k, epsilon, beta) == pytest.approx(basic, rel=1e-12)
    drv = lambda e: e * math.sqrt(2 * k * math.log(1 / delta)) + k * e * math.expm1(e) - epsilon  # noqa: E731
    eps0 = optimize.brentq(drv, 1e-12, 10.0, xtol=1e-15)
    got = qr.laplace_answers_max_error_bound(k, epsilon, beta, "advanced", delta)
    assert got == pytest.approx(math.log(k / beta) / eps0, rel=1e-8)
    assert (-math.expm1(-got * eps0)) ** k >= 1 - beta
    if k >= 100:
        assert got < math.sqrt(8 * k * math.log(1 / delta)) / epsilon * math.log(k / beta) / 1.8
    curve = qr.laplace_answers_max_error_bound(np.array([k, k]), epsilon, beta, "advanced", delta)
    assert curve.shape == (2,) and curve[0] == pytest.approx(got, rel=1e-12)
