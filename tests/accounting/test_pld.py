"""Privacy loss distributions: exact composition by FFT, checked against closed forms (Gaussian,
randomized response), Monte Carlo and dp-accounting, with its rounding always on the safe side."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dplab
from dplab.accounting import gdp_limit_mu, optimal_composition
from dplab.promises import tradeoff_discrete, tradeoff_gdp


def test_issue_reference_laplace_k1000():
    """k = 1000 Laplace mechanisms of eps0 = 0.1 at delta = 1e-6: 18.95 by PLD, against 19.34
    (KOV), 20.55 (zCDP, CKS), 27.14 (advanced), 100 (basic)."""
    pess = dplab.Laplace(1.0, 0.1).pld().compose(1000, accuracy=0.1)
    opt = dplab.Laplace(1.0, 0.1).pld(pessimistic=False).compose(1000)
    high, low = pess.epsilon(1e-6), opt.epsilon(1e-6)
    assert low <= high <= low + pess.rounding_bound
    assert high == pytest.approx(18.95, rel=0.005)
    assert (
        high < optimal_composition(0.1, 1000, 1e-6) < dplab.zcdp_to_approx_dp(5.0, 1e-6, method="cks")
    )
    assert pess.delta(high) == pytest.approx(1e-6, rel=1e-9)


def test_never_below_dp_accounting(optional_module):
    """The true value lies between dp-accounting's optimistic and pessimistic estimates: ours
    must not fall below its optimistic one, and our optimistic must not exceed its pessimistic."""
    optional_module("dp_accounting")
    from dp_accounting.pld import privacy_loss_distribution as pld

    theirs = {
        pessimistic: pld.from_laplace_mechanism(
            10.0,
            value_discretization_interval=1e-4,
            pessimistic_estimate=pessimistic,
            use_connect_dots=pessimistic,
        ).self_compose(1000)
        for pessimistic in (True, False)
    }
    for delta in (1e-3, 1e-6, 1e-9):
        ours_high = dplab.Laplace(1.0, 0.1).pld().compose(1000).epsilon(delta)
        ours_low = dplab.Laplace(1.0, 0.1).pld(pessimistic=False).compose(1000).epsilon(delta)
        assert ours_high >= theirs[False].get_epsilon_for_delta(delta) - 1e-9
        assert ours_low <= theirs[True].get_epsilon_for_delta(delta) + 1e-9
        assert ours_high - theirs[True].get_epsilon_for_delta(delta) < 0.01


@pytest.mark.catches("gaussian.pld_mean_mu_squared")
@pytest.mark.parametrize("k", [1, 10, 100])
@pytest.mark.parametrize("eps", [0.0, 0.5, 2.0])
def test_gaussian_composition_brackets_the_closed_form(k, eps):
    """k Gaussian mechanisms of mu are exactly sqrt(k) mu-GDP: delta from Balle & Wang's formula
    must lie between the optimistic and pessimistic grids, which differ by little."""
    mu = 0.5
    exact = (
        dplab.gaussian_delta(1 / (math.sqrt(k) * mu), 1.0, eps)
        if eps > 0
        else 2 * stats.norm.cdf(math.sqrt(k) * mu / 2) - 1
    )  # total variation at eps = 0
    high = dplab.Gaussian.from_mu(mu).pld(step=1e-3).compose(k).delta(eps)
    low = dplab.Gaussian.from_mu(mu).pld(step=1e-3, pessimistic=False).compose(k).delta(eps)
    assert low - 1e-12 <= exact <= high + 1e-12
    assert high - low < 0.01


@pytest.mark.catches("gaussian.pld_mean_mu_squared")
def test_gaussian_composition_against_dp_accounting(optional_module):
    """k = 16 Gaussians of mu = 1/4 composed by FFT (the discretised N(mu^2/2, mu^2) to the 16th
    power): epsilon(delta) against Google's dp-accounting, which builds and composes the same PLD
    with its own code, and against the closed form of sqrt(16) mu = 1-GDP (solved here by brentq)."""
    optional_module("dp_accounting")
    from dp_accounting.pld import privacy_loss_distribution as pld

    theirs = pld.from_gaussian_mechanism(4.0, value_discretization_interval=1e-4).self_compose(16)
    high = dplab.Gaussian.from_mu(0.25).pld(step=1e-4).compose(16)
    low = dplab.Gaussian.from_mu(0.25).pld(step=1e-4, pessimistic=False).compose(16)
    for delta in (1e-3, 1e-6, 1e-9):
        exact = _gdp_epsilon(1.0, delta)
        assert low.epsilon(delta) <= exact <= high.epsilon(delta) <= exact + high.rounding_bound
        assert theirs.get_epsilon_for_delta(delta) == pytest.approx(exact, abs=high.rounding_bound)


def test_randomized_response_composition_is_kov():
    """k-fold randomized response on a grid that holds its losses exactly is the optimal
    composition theorem (computed there as a binomial sum, here by FFT)."""
    for step in (1e-3, 1e-4):
        rr = dplab.RandomizedResponse(0.1).pld(step=step).compose(1000)
        assert rr.epsilon(1e-6) == pytest.approx(optimal_composition(0.1, 1000, 1e-6), abs=1e-6)


def test_monte_carlo_of_the_mechanism_itself():
    """delta(eps) of 50 composed Laplace mechanisms (eps0 = 0.2), estimated from the losses of
    simulated outputs: (|y - 1| - |y|)/b for y ~ Lap(0, b), summed over the 50. The 99.9%
    interval must meet [optimistic, pessimistic]."""
    rng = np.random.default_rng(8)
    b, k, eps = 5.0, 50, 1.0
    y = rng.laplace(0.0, b, size=(200_000, k))
    losses = ((np.abs(y - 1) - np.abs(y)) / b).sum(axis=1)
    est = dplab.mean_ci(np.maximum(0.0, -np.expm1(eps - losses)), confidence=0.999)
    high = dplab.Laplace(1.0, 0.2).pld(step=1e-3).compose(k).delta(eps)
    low = dplab.Laplace(1.0, 0.2).pld(step=1e-3, pessimistic=False).compose(k).delta(eps)
    assert est.low <= high and low <= est.high


def test_pmf_sums_and_kl():
    for pessimistic in (True, False):
        lap = dplab.Laplace(1.0, 0.5).pld(step=1e-4, pessimistic=pessimistic)
        assert lap.pmf.sum() + lap.infinity_mass == pytest.approx(1.0, abs=1e-12)
        assert lap.mean() == pytest.approx(lap.kl, abs=1e-4) and lap.kl == pytest.approx(
            0.5 + math.exp(-0.5) - 1
        )
        gauss = dplab.Gaussian.from_mu(1.0).pld(pessimistic=pessimistic)
        assert gauss.pmf.sum() + gauss.infinity_mass == pytest.approx(1.0, abs=1e-12)
        assert gauss.mean() == pytest.approx(0.5, abs=1e-4)


def test_gdp_limit():
    """catches: a KL of the Laplace pair that is not KL (mu = sqrt(2 k KL) with KL by quadrature of
    p ln(p/q) here), a Gaussian limit that is not sqrt(k) mu."""
    from scipy import integrate

    assert gdp_limit_mu(dplab.Gaussian.from_mu(0.3).pld(), 100) == pytest.approx(3.0, abs=1e-3)
    p, q = stats.laplace(0, 10.0), stats.laplace(1.0, 10.0)
    kl = integrate.quad(lambda y: p.pdf(y) * (p.logpdf(y) - q.logpdf(y)), -400, 400, points=[0.0, 1.0],
                        limit=200)[0]
    assert gdp_limit_mu(dplab.Laplace(1.0, 0.1).pld(), 1000) == pytest.approx(math.sqrt(2000 * kl), rel=1e-6)
    with pytest.raises(ValueError, match="share step and rounding"):
        dplab.Laplace(1.0, 0.1).pld(step=1e-3).convolve(dplab.Laplace(1.0, 0.1).pld(step=1e-4))


def test_composed_laplace_approaches_its_gaussian_limit():
    """The central limit theorem of composition: k Laplace steps of eps0 = 1/sqrt(k) (so sqrt(k) eps0
    stays 1) give an epsilon(1e-3) ever closer to the Gaussian limit's."""
    gaps = []
    for k in (4, 16, 64, 256):
        step = dplab.Laplace(1.0, 1 / math.sqrt(k)).pld(step=1e-4)
        mu = gdp_limit_mu(step, k)
        gaussian = dplab.Gaussian.from_mu(mu).pld(step=1e-4).epsilon(1e-3)
        gaps.append(abs(step.compose(k).epsilon(1e-3) - gaussian))
    assert all(b < a for a, b in zip(gaps, gaps[1:], strict=False)) and gaps[-1] < 0.05, gaps


def test_infinite_losses_and_edges():
    g = dplab.Gaussian.from_mu(1.0).pld(tail=1e-3)
    assert g.infinity_mass == pytest.approx(1e-3)
    assert g.epsilon(1e-4) == math.inf
    assert g.compose(3).infinity_mass == pytest.approx(1 - (1 - 1e-3) ** 3)
    assert dplab.Laplace(1.0, 1.0).pld().epsilon(0.9) == 0.0  # the total variation is below 0.9


def test_bad_input():
    with pytest.raises(ValueError, match="k must be"):
        dplab.Laplace(1.0, 0.1).pld().compose(0)
    with pytest.raises(ValueError, match="step must be"):
        dplab.Laplace(1.0, 0.1).pld(step=0.0)
    with pytest.raises(
        ValueError, match=r"step=0.001 is too coarse for accuracy=0.1 with k=1000: .* step <= 0.0001"
    ):
        dplab.Laplace(1.0, 0.1).pld(step=1e-3).compose(1000, accuracy=0.1)
    with pytest.raises(ValueError, match=r"needs \d+ grid points"):
        dplab.Laplace(1.0, 1.0).pld(step=1e-6).compose(100)
    with pytest.raises(ValueError, match="delta must be in"):
        dplab.Laplace(1.0, 0.1).pld().epsilon(1.5)
    with pytest.raises(ValueError, match="epsilon must be"):
        dplab.Laplace(1.0, 0.1).pld().delta(-1.0)
    with pytest.raises(ValueError, match="mu must be"):
        dplab.Gaussian.from_mu(0.0)
    with pytest.raises(TypeError, match="pld must be a PrivacyLossDistribution"):
        gdp_limit_mu(0.5, 3)


def test_gdp_limit_of_a_composed_pld_counts_its_steps():
    ten = dplab.Laplace(1.0, 0.1).pld().compose(10)
    one = dplab.Laplace(1.0, 0.1).pld()
    assert gdp_limit_mu(ten, 100) == pytest.approx(gdp_limit_mu(one, 1000))


def test_the_window_loses_nothing_visible():
    """Composition runs on a Hoeffding window shorter than the full support; the full-support
    convolution (one long FFT, no wrap-around) must agree on it, and have no mass outside."""
    from scipy import fft

    one = dplab.Laplace(1.0, 0.1).pld(step=1e-3)
    composed = one.compose(400)
    full_size = 400 * (len(one.pmf) - 1) + 1
    assert len(composed.pmf) < full_size
    length = fft.next_fast_len(full_size, real=True)
    full = fft.irfft(fft.rfft(one.pmf, length) ** 400, length)[:full_size]
    start = composed.offset - 400 * one.offset
    assert np.allclose(full[start : start + len(composed.pmf)], composed.pmf, atol=1e-15)
    outside = np.concatenate([full[:start], full[start + len(composed.pmf) :]])
    assert np.abs(outside).max() < 1e-15


def test_tradeoff_of_a_pld_brackets_the_closed_forms():
    """The pessimistic PLD's trade-off curve lies below the exact Laplace curve and the
    optimistic one above, within the rounding; composed, the k-fold Gaussian gives the
    Gaussian curve of sqrt(k) mu, and k-fold randomized response the Neyman-Pearson curve
    of its two binomial counts (computed here by tradeoff_discrete)."""
    alpha = np.linspace(0, 1, 501)
    for eps in (0.5, 1.0, 3.0):
        exact = dplab.Laplace(1.0, eps).tradeoff(alpha)
        low = dplab.Laplace(1.0, eps).pld(step=1e-4).tradeoff(alpha)
        high = dplab.Laplace(1.0, eps).pld(step=1e-4, pessimistic=False).tradeoff(alpha)
        assert np.all(low <= exact + 1e-12) and np.all(exact <= high + 1e-12)
        assert np.max(high - low) < 2e-4 * eps  # one step of loss moves the curve by about that
    gauss = dplab.Gaussian.from_mu(0.5).pld(step=1e-4).compose(16)
    assert np.max(np.abs(gauss.tradeoff(alpha) - tradeoff_gdp(alpha, 2.0))) < 1e-3
    keep = math.exp(1) / (1 + math.exp(1))
    counts = np.arange(6)
    p, q = stats.binom.pmf(counts, 5, 1 - keep), stats.binom.pmf(counts, 5, keep)
    rr = dplab.RandomizedResponse(1.0).pld().compose(5)
    assert rr.tradeoff(alpha) == pytest.approx(tradeoff_discrete(alpha, p, q), abs=1e-9)
    with pytest.raises(ValueError, match=r"alpha must lie in \[0, 1\], got alpha=1.5"):
        rr.tradeoff([0.5, 1.5])


def _gdp_epsilon(mu: float, delta: float) -> float:
    """The exact epsilon(delta) of mu-GDP, solved here in log space from Balle & Wang's
    delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu), independently of dplab."""
    from scipy import optimize, special

    def log_delta(eps):
        a = special.log_ndtr(mu / 2 - eps / mu)
        return a + math.log1p(-math.exp(eps + special.log_ndtr(-mu / 2 - eps / mu) - a))

    return optimize.brentq(lambda e: log_delta(e) - math.log(delta), 1e-6, 50 * mu * mu, xtol=1e-9)


@pytest.mark.parametrize(("mu", "k"), [(2.0, 1000), (40.0, 1)])
def test_epsilon_above_709_is_not_capped(mu, k):
    """catches: epsilon(delta) computed with e^L, which overflows above L = 709.78 and returned
    709.783 for a true 2,268.77 (1,000 Gaussians of mu = 2 at 1e-5; external review): the
    pessimistic epsilon must stay at or above the truth and the optimistic one at or below it."""
    import warnings

    step = 1e-2
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow on the way either
        high = dplab.Gaussian.from_mu(mu).pld(step=step).compose(k)
        low = dplab.Gaussian.from_mu(mu).pld(step=step, pessimistic=False).compose(k)
        for delta in (1e-5, 1e-9):
            exact = _gdp_epsilon(mu * math.sqrt(k), delta)
            assert exact > 709.8
            assert low.epsilon(delta) <= exact <= high.epsilon(delta) <= exact + high.rounding_bound
