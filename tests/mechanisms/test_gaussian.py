"""The Gaussian mechanism: exact delta, calibrations, privacy loss, crossover with Laplace."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dplab
from dplab import mechanisms


def test_gaussian_delta_matches_dp_accounting_reference():
    # LAB_SPEC.md reference, computed with dp-accounting 0.6.0
    assert dplab.gaussian_delta(1.0, 1.0, 1.0) == pytest.approx(0.1269367375, rel=1e-9)


def test_gaussian_delta_by_hand():
    # Balle & Wang Theorem 8 at sigma = 2, Delta = 1, eps = 0.5, from scipy.stats.norm directly
    from scipy.stats import norm

    a, b = 1 / 4, 0.5 * 2
    expected = norm.cdf(a - b) - math.exp(0.5) * norm.cdf(-a - b)
    assert dplab.gaussian_delta(2.0, 1.0, 0.5) == pytest.approx(expected, rel=1e-12)


def test_gaussian_against_dp_accounting(optional_module):
    """Cross-check against Google's dp-accounting (a test extra)."""
    pld = optional_module("dp_accounting.pld.privacy_loss_distribution")
    for sigma, eps in ((1.0, 1.0), (2.0, 0.5), (0.7, 3.0)):
        dist = pld.from_gaussian_mechanism(sigma, sensitivity=1.0, value_discretization_interval=1e-4)
        assert dplab.gaussian_delta(sigma, 1.0, eps) == pytest.approx(
            dist.get_delta_for_epsilon(eps), rel=2e-3)


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


def _exact_delta(mp, sigma: float, sensitivity: float, eps: float) -> float:
    """Balle & Wang Theorem 8 in 60-digit arithmetic (mpmath), independent of scipy."""
    mp.mp.dps = 60
    s, d, e = mp.mpf(sigma), mp.mpf(sensitivity), mp.mpf(eps)
    a, b = d / (2 * s), e * s / d
    return float(mp.ncdf(a - b) - mp.e**e * mp.ncdf(-a - b))


def test_analytic_sigma_is_always_on_the_private_side(optional_module):
    """The returned sigma's exact delta (60 digits) never exceeds the target, on a grid of
    15 x 12 x 3 cases, and the sigma is still within 1e-9 of the root."""
    mp = optional_module("mpmath")
    over = []
    for eps in np.geomspace(0.01, 30, 15):
        for delta in np.geomspace(1e-14, 0.3, 12):
            for sens in (0.3, 1.0, 7.0):
                sigma = dplab.gaussian_sigma(sens, float(eps), float(delta))
                exact = _exact_delta(mp, sigma, sens, float(eps))
                if exact > delta:
                    over.append((eps, delta, sens, exact / delta - 1))
                assert _exact_delta(mp, sigma * (1 - 1e-9), sens, float(eps)) > delta * (1 - 1e-6)
    assert not over, over


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
    with pytest.raises(ValueError, match="method must be one of"):
        dplab.gaussian_sigma(1, 0.5, 1e-5, method="exact")


def test_zcdp_sigma():
    assert dplab.gaussian_sigma_zcdp(2.0, 0.5) == pytest.approx(2.0)


def test_privacy_loss_and_hockey_stick():
    sigma, eps = 1.3, 0.8
    # the loss is N(mu, 2 mu), mu = Delta^2/(2 sigma^2): check the formula at two outputs
    mu = 1 / (2 * sigma**2)
    assert dplab.gaussian_privacy_loss(0.0, sigma, 1.0) == pytest.approx(mu)
    assert dplab.gaussian_privacy_loss(1.0, sigma, 1.0) == pytest.approx(-mu)
    y = dplab.gaussian_mechanism(0.0, sigma, size=1_000_000, rng=11)
    hs = dplab.hockey_stick_samples(dplab.gaussian_privacy_loss(y, sigma, 1.0), eps)
    assert dplab.mean_ci(hs, 0.999).contains(dplab.gaussian_delta(sigma, 1.0, eps))


def test_tail_probability_inverts_the_tail_bound():
    t = mechanisms.gaussian_tail_bound(2.0, 0.05)
    assert mechanisms.gaussian_tail_probability(t, 2.0) == pytest.approx(0.05, rel=1e-12)


def _gaussian_wins(j: int, eps: float, delta: float) -> bool:
    return dplab.gaussian_sigma(math.sqrt(j), eps, delta) ** 2 < dplab.laplace_mse(j, eps)


@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 3.0])
@pytest.mark.parametrize("delta", [1e-3, 1e-6, 1e-9])
def test_crossover_k_is_the_smallest_k_where_gaussian_wins(eps, delta):
    k = dplab.gaussian_laplace_crossover_k(eps, delta)
    assert _gaussian_wins(k, eps, delta)
    assert k == 1 or not _gaussian_wins(k - 1, eps, delta)


def test_shapes():
    assert dplab.gaussian_mechanism(np.zeros((2, 2)), 1.0, size=4, rng=0).shape == (4, 2, 2)


def test_gaussian_mechanism_error_matches_theory():
    sigma = 2.5
    err = dplab.gaussian_mechanism(0.0, sigma, size=200_000, rng=43)
    assert dplab.mean_ci(err**2, 0.999).contains(mechanisms.gaussian_mse(sigma))
    assert dplab.mean_ci(np.abs(err), 0.999).contains(mechanisms.gaussian_mae(sigma))
    t = mechanisms.gaussian_tail_bound(sigma, 0.05)
    assert dplab.proportion_ci(np.sum(np.abs(err) >= t), err.size, 0.999).contains(0.05)


def test_privacy_loss_samples_are_drawn_on_d():
    """catches: drawing the outputs on D' (Y ~ N(Delta, sigma^2)), which flips the loss to N(-r, 2r)
    and makes the hockey-stick average far below delta.

    Independent: the loss recomputed as scipy's log-density ratio at the same outputs (same seed), and
    its mean and variance against Lemma 3's N(r, 2r), r = Delta^2 / (2 sigma^2)."""
    from scipy.stats import norm

    from dplab.attacks import privacy_loss_samples

    sigma, sens = 1.7, 1.3
    loss = privacy_loss_samples(mechanisms.Gaussian(sens, sigma), [0.0], [sens], 400_000, rng=3)
    y = np.random.default_rng(3).normal(0.0, sigma, 400_000)
    np.testing.assert_allclose(loss, norm.logpdf(y, 0, sigma) - norm.logpdf(y, sens, sigma), atol=1e-9)
    r = sens**2 / (2 * sigma**2)
    assert dplab.mean_ci(loss, 0.9999).contains(r) and np.var(loss) == pytest.approx(2 * r, rel=0.02)
