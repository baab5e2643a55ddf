"""The Poisson-subsampled Gaussian: its Renyi curve against dp-accounting (integer orders, both
exact) and against quadrature (fractional orders, where dp-accounting's series adds the sizes of
its terms and so overstates the curve), its PLD against the Gaussian's closed form at q = 1 and
against the exact hockey-stick divergence, its sampler against the mixture, and its checks."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, special, stats

from dplab.accounting import ORDERS
from dplab.mechanisms import Gaussian, SubsampledGaussian, subsampled_gaussian_rdp

GRID = [(0.6, 0.001), (0.6, 0.1), (1.0, 0.01), (1.0, 0.5), (2.0, 0.001), (2.0, 0.1), (5.0, 0.02)]


def _renyi_by_quadrature(sigma: float, q: float, alpha: float, order: str = "add") -> float:
    """D_alpha(mu || mu_0) ("add") or D_alpha(mu_0 || mu) ("remove") by adaptive quadrature of
    the density ratio in log space (independent of the series)."""
    def log_ratio(z):  # ln mu(z) / mu_0(z)
        return np.logaddexp(math.log1p(-q), math.log(q) + (2 * z - 1) / (2 * sigma**2))

    if order == "add":  # E_mu0[(mu/mu0)^alpha]
        def f(z):
            return math.exp(stats.norm.logpdf(z, 0, sigma) + alpha * log_ratio(z))
    else:  # E_mu[(mu0/mu)^alpha] = E_mu0[(mu0/mu)^(alpha - 1)]
        def f(z):
            return math.exp(stats.norm.logpdf(z, 0, sigma) - (alpha - 1) * log_ratio(z))
    z0 = sigma**2 * math.log(1 / q - 1) + 0.5
    reach = 40 * sigma + 3 * alpha
    value, _ = integrate.quad(f, -reach, reach, points=sorted([0, 0.5, 1, z0]), epsabs=0, epsrel=1e-12,
                              limit=2000)
    return math.log(value) / (alpha - 1)


@pytest.mark.catches("acct.sgauss_rdp_exponent_sign")
@pytest.mark.parametrize(("sigma", "q"), GRID)
def test_rdp_integer_orders_equal_dp_accounting(sigma, q, optional_module):
    """At integer orders both compute the binomial expansion exactly: equal to 1e-6 relative."""
    optional_module("dp_accounting")
    from dp_accounting.rdp import rdp_privacy_accountant

    orders = ORDERS[ORDERS == np.round(ORDERS)]
    theirs = rdp_privacy_accountant._compute_rdp_poisson_subsampled_gaussian(q, sigma, orders)
    np.testing.assert_allclose(SubsampledGaussian(sigma, q).rdp(orders), theirs, rtol=1e-6)


@pytest.mark.catches("acct.sgauss_rdp_unsigned_series")
@pytest.mark.parametrize(("sigma", "q"), [(0.6, 0.1), (1.0, 0.01), (2.0, 0.001), (1.0, 0.5)])
def test_rdp_fractional_orders_equal_quadrature(sigma, q, optional_module):
    """At fractional orders the series of Mironov, Talwar & Zhang (Section 3.3) equals the integral
    (1e-6 relative) and never exceeds dp-accounting's, which sums the sizes of its terms
    (an upper bound: 7% above the truth at alpha = 1.1, sigma = 1, q = 0.01)."""
    optional_module("dp_accounting")
    from dp_accounting.rdp import rdp_privacy_accountant

    orders = np.array([1.1, 1.5, 2.5, 3.7, 6.3, 10.9])
    ours = subsampled_gaussian_rdp(sigma, q, orders)
    truth = [_renyi_by_quadrature(sigma, q, a) for a in orders]
    np.testing.assert_allclose(ours, truth, rtol=1e-6)
    theirs = rdp_privacy_accountant._compute_rdp_poisson_subsampled_gaussian(q, sigma, orders)
    assert np.all(ours <= theirs * (1 + 1e-9))
    # the curve is D_alpha(mu || mu_0); the other order D_alpha(mu_0 || mu) is never above it
    for alpha in (1.5, 2.0, 4.0):
        other = _renyi_by_quadrature(sigma, q, alpha, "remove")
        assert other <= float(subsampled_gaussian_rdp(sigma, q, alpha))


@pytest.mark.catches("acct.sgauss_q1_rdp_double")
def test_q_one_is_the_gaussian():
    """q = 1: the Renyi curve alpha / (2 sigma^2), the privacy profile Balle & Wang's, and k steps
    the Gaussian of sigma / sqrt(k) (exact, Gaussian.epsilon_at), between the two grids."""
    sigma, k, delta = 2.0, 50, 1e-6
    m = SubsampledGaussian(sigma, 1.0)
    np.testing.assert_allclose(m.rdp([2.0, 7.5]), [2.0 / 8, 7.5 / 8], rtol=1e-12)
    np.testing.assert_allclose(m.delta([0.1, 1.0]), Gaussian(1.0, sigma).delta([0.1, 1.0]), rtol=1e-9)
    exact = Gaussian(1.0, sigma / math.sqrt(k)).epsilon_at(delta)
    for direction in ("add", "remove"):
        high = m.pld(step=1e-4, direction=direction).compose(k).epsilon(delta)
        low = m.pld(step=1e-4, direction=direction, pessimistic=False).compose(k).epsilon(delta)
        assert low <= exact <= high <= exact + 1e-4


@pytest.mark.catches("acct.sgauss_ctd_rounds_down", "acct.sgauss_remove_crossing_sign")
@pytest.mark.parametrize("direction", ["add", "remove"])
@pytest.mark.parametrize(("sigma", "q"), [(1.0, 0.01), (0.6, 0.3), (2.0, 0.1)])
def test_one_step_pld_brackets_the_exact_profile(sigma, q, direction):
    """One step: the pessimistic PLD's delta(eps) is never below the exact hockey-stick
    divergence (Gaussian probabilities at the crossing point) and above it by less than the
    connect-the-dots error (second order: 1e-6 at step 1e-3 here); the optimistic never above it."""
    m = SubsampledGaussian(sigma, q)
    eps = np.array([0.0, 0.01, 0.05, 0.2, 0.5, 1.0])
    exact = m._delta_one(eps, direction)
    high = np.asarray(m.pld(step=1e-3, direction=direction).delta(eps))
    low = np.asarray(m.pld(step=1e-3, direction=direction, pessimistic=False).delta(eps))
    assert np.all(high >= exact - 1e-15)
    assert np.all(high <= exact + 1e-6)
    assert np.all(low <= exact + 1e-15)


@pytest.mark.catches("acct.sgauss_ctd_split_linearised")
def test_pld_masses_sum_to_one_and_keep_the_second_distribution():
    """Connect the dots keeps both distributions' masses, on a coarse grid too: sum p = 1 and
    sum p e^-L = 1 (the second distribution's total)."""
    for direction in ("add", "remove"):
        pld = SubsampledGaussian(1.0, 0.01).pld(step=1e-2, direction=direction)
        assert pld.pmf.sum() + pld.infinity_mass == pytest.approx(1.0, abs=1e-12)
        assert float(np.dot(pld.pmf, np.exp(-pld.losses))) == pytest.approx(1.0, abs=1e-9)


@pytest.mark.catches("acct.sgauss_remove_crossing_sign")
def test_profile_is_the_larger_direction():
    m = SubsampledGaussian(1.0, 0.2)
    eps = np.array([0.0, 0.1, 1.0])
    both = np.maximum(m._delta_one(eps, "add"), m._delta_one(eps, "remove"))
    np.testing.assert_allclose(m.delta(eps), both, rtol=0)
    assert float(m._delta_one(np.array(-math.log(0.8) + 1e-9), "remove")) == 0.0  # its loss is bounded


@pytest.mark.statistical
@pytest.mark.catches("acct.sgauss_sampler_complement")
def test_sampler_is_the_mixture():
    """One row contributes 1: the release is Bernoulli(q) + N(0, sigma^2); the Kolmogorov-Smirnov
    test against that mixture's CDF at level 1e-4 (seeded), and a database of zeros gives N(0, sigma^2)."""
    sigma, q = 0.7, 0.3
    m = SubsampledGaussian(sigma, q)
    draws = np.asarray(m.sample([0, 0, 1], rng=2026, size=20_000))

    def mixture_cdf(y):
        return (1 - q) * special.ndtr(y / sigma) + q * special.ndtr((y - 1) / sigma)

    assert stats.kstest(draws, mixture_cdf).pvalue > 1e-4
    assert stats.kstest(np.asarray(m.sample([0, 0], rng=7, size=20_000)) / sigma, "norm").pvalue > 1e-4


@pytest.mark.catches("acct.sgauss_rate_unchecked")
@pytest.mark.parametrize(("call", "name"), [
    (lambda: SubsampledGaussian(0.0, 0.1), "noise_multiplier=0.0"),
    (lambda: SubsampledGaussian(-1.0, 0.5), "noise_multiplier=-1.0"),
    (lambda: SubsampledGaussian(1.0, 0.0), "sampling_rate=0.0"),
    (lambda: SubsampledGaussian(1.0, 1.5), "sampling_rate=1.5"),
    (lambda: SubsampledGaussian(1.0, 0.1).pld(direction="both"), "direction='both'"),
    (lambda: SubsampledGaussian(1.0, 0.1).pld(step=0), "step=0"),
    (lambda: SubsampledGaussian(1.0, 0.1).rdp(1.0), "alpha=1.0"),
    (lambda: SubsampledGaussian(1.0, 0.1).sample([0, 2], rng=1), "contributions="),
])
def test_bad_input_is_named(call, name):
    with pytest.raises(ValueError, match=name):
        call()
