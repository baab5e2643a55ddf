"""The simulated Neyman-Pearson attacker: its ROC boxes meet the exact trade-off curve, and miss
a curve that claims more privacy than the mechanism has (so the check can fail)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dplab
from dplab import audit
from dplab.attacks import (
    bayes_attack,
    composed_roc,
    likelihood_ratio_roc,
    mechanism_roc,
    membership_by_bin,
    privacy_loss_samples,
    roc_violations,
)
from dplab.mechanisms.gaussian import hockey_stick_samples
from dplab.promises import tradeoff_dp, tradeoff_gdp


@pytest.fixture(scope="module")
def rng():
    return np.random.default_rng(20261125)


def test_gaussian_roc_meets_its_curve_and_catches_a_false_claim(rng):
    mu = 1.0
    roc = likelihood_ratio_roc(rng.normal(0, 1, 200_000), rng.normal(mu, 1, 200_000))
    assert roc_violations(roc, lambda a: tradeoff_gdp(a, mu), two_sided=True).size == 0
    assert roc_violations(roc, lambda a: tradeoff_gdp(a, 0.8 * mu)).size > 0
    assert roc.confidence == 0.95 and roc.n == (200_000, 200_000)
    assert np.all(roc.alpha_low <= roc.alpha) and np.all(roc.alpha <= roc.alpha_high)
    assert roc.alpha.min() < 1e-3  # the log-spaced thresholds reach small false-alarm rates


def test_laplace_roc_meets_its_curve(rng):
    eps = 1.0
    roc = likelihood_ratio_roc(rng.laplace(0, 1, 200_000), rng.laplace(eps, 1, 200_000))
    assert roc_violations(roc, lambda a: dplab.Laplace(1.0, eps).tradeoff(a), two_sided=True).size == 0
    # the membership-inference reading: TPR <= e^eps FPR within the boxes
    assert np.all(1 - roc.beta_high <= math.exp(eps) * roc.alpha_high + 1e-12)
    assert roc_violations(roc, lambda a: tradeoff_dp(a, 0.8 * eps)).size > 0


def test_randomized_response_roc_sits_on_the_vertices(rng):
    keep = 1 / (1 + math.exp(-1.0))
    truth_d = (rng.random(100_000) > keep).astype(float)  # reports 1 with probability 1 - keep on D
    truth_dp = (rng.random(100_000) < keep).astype(float)
    roc = likelihood_ratio_roc(truth_d, truth_dp)
    assert set(np.round(roc.thresholds, 9)) <= {0.0, 1.0}
    assert (
        roc_violations(roc, lambda a: dplab.RandomizedResponse(1.0).tradeoff(a), two_sided=True).size
        == 0
    )


def test_boxes_are_bonferroni_over_all_intervals(rng):
    roc = likelihood_ratio_roc(
        rng.normal(0, 1, 1000), rng.normal(1, 1, 1000), thresholds=[0.0, 1.0], confidence=0.9
    )
    single = dplab.proportion_ci(int(round(roc.alpha[0] * 1000)), 1000, 1 - 0.1 / 4)
    assert roc.alpha_low[0] == pytest.approx(float(single.low)) and roc.alpha_high[0] == pytest.approx(
        float(single.high)
    )


def test_bad_input():
    with pytest.raises(ValueError, match="need at least 2 scores"):
        likelihood_ratio_roc([1.0], [1.0, 2.0])
    with pytest.raises(ValueError, match=r"confidence must be in \(0, 1\), got confidence=1.0"):
        likelihood_ratio_roc([0.0, 1.0], [1.0, 2.0], confidence=1.0)
    with pytest.raises(TypeError, match="roc must be an EmpiricalRoc"):
        roc_violations(None, lambda a: a)


def test_audit_with_delta_certifies_less():
    """A Gaussian mechanism calibrated to (1, 1e-2) is not 1-DP: its tail events give an audit
    that ignores delta a lower bound above 1. Counting delta, the bound is back below 1."""
    sigma = dplab.gaussian_sigma(1.0, 1.0, 1e-2)

    def release(data, size, rng):
        return data + rng.normal(0, sigma, size)

    plain = audit.audit_epsilon(release, 0.0, 1.0, n_runs=200_000, n_pilot=50_000, rng=3)
    with_delta = audit.audit_epsilon(release, 0.0, 1.0, n_runs=200_000, n_pilot=50_000, delta=1e-2, rng=3)
    assert with_delta.epsilon_lower <= 1.0 < plain.epsilon_lower
    with pytest.raises(ValueError, match="delta must be in"):
        audit.audit_epsilon(release, 0.0, 1.0, n_runs=10, n_pilot=10, delta=1.0)


def test_mechanism_roc_of_randomized_response_and_the_extreme_pair_is_exact():
    """catches: both sides sampled at D's value, or discrete thresholds off by one (no test between
    the outputs): randomized response's one test has alpha = beta = 1 / (1 + e^eps) in closed form."""
    flip = 1 / (1 + math.e)
    roc = mechanism_roc(dplab.RandomizedResponse(1.0), 0, 1, 100_000, 1, confidence=0.999)
    assert roc.thresholds.tolist() == [0.5]
    assert roc.alpha_low[0] <= flip <= roc.alpha_high[0] and roc.beta_low[0] <= flip <= roc.beta_high[0]
    step = dplab.EpsilonDelta(1.0, 0.05)
    roc = mechanism_roc(step, 0, 1, 100_000, 2, confidence=0.999)
    assert roc.thresholds.tolist() == [0.5, 1.5, 2.5]
    alpha = 1 - np.cumsum(step.extreme_pair()[0])[:3]  # Pr_D[output >= t], summed by hand
    assert np.all((roc.alpha_low <= alpha) & (alpha <= roc.alpha_high))


def test_mechanism_roc_of_the_laplace_count_meets_its_closed_form():
    """catches: D and D' swapped (every box above the curve, a test worse than guessing)."""
    roc = mechanism_roc(dplab.Laplace(1.0, 1.0), 0.0, 1.0, 200_000, 3, n_points=30, confidence=0.999)
    # the true (alpha, beta) of "say D' when y >= t" for Lap(0, 1) against Lap(1, 1), by scipy's cdf
    alpha, beta = stats.laplace.sf(roc.thresholds), stats.laplace.cdf(roc.thresholds, loc=1)
    assert np.all((roc.alpha_low <= alpha) & (alpha <= roc.alpha_high))
    assert np.all((roc.beta_low <= beta) & (beta <= roc.beta_high))


@pytest.mark.statistical
def test_privacy_loss_samples_give_dp_accountings_delta_and_the_kl():
    """catches: losses drawn on D' by default (their mean is then -KL): the hockey-stick mean of 50
    composed Laplace losses is dp_accounting's delta(1), their mean 50 KL = 50 (eps + e^-eps - 1), and
    e^L averages 1 on D'."""
    from dp_accounting.pld import privacy_loss_distribution as dp_pld

    eps0, k = 0.1, 50
    laplace = dplab.Laplace(1.0, eps0)
    losses = privacy_loss_samples(laplace, np.zeros(k), np.ones(k), 400_000, 4)
    theirs = dp_pld.from_laplace_mechanism(1 / eps0, value_discretization_interval=1e-4).self_compose(k)
    level = 1 - 0.01 / 3
    assert dplab.mean_ci(hockey_stick_samples(losses, 1.0), level).contains(theirs.get_delta_for_epsilon(1.0))
    assert dplab.mean_ci(losses, level).contains(k * (eps0 + math.exp(-eps0) - 1))
    on_prime = privacy_loss_samples(laplace, np.zeros(k), np.ones(k), 400_000, 5, on_neighbour=True)
    assert dplab.mean_ci(np.exp(on_prime), level).contains(1.0)


def test_the_bayes_attackers_share_per_bin_is_bayes_rule():
    """catches: membership drawn with probability 1 - prior, or bins shifted by one edge: the share of
    members per bin is p Q / (p Q + (1 - p) P) with P, Q the bin's Laplace probabilities (scipy's cdf)."""
    prior, edges = 0.25, np.arange(-3.0, 4.01, 1.0)
    member, y = bayes_attack(dplab.Laplace(1.0, 1.0), prior, 400_000, 6)
    assert abs(member.mean() - prior) < 0.005
    p, q = np.diff(stats.laplace.cdf(edges)), np.diff(stats.laplace.cdf(edges, loc=1))
    truth = prior * q / (prior * q + (1 - prior) * p)
    shares = membership_by_bin(member, y, edges, 1 - 0.01 / truth.size)
    assert all(c.contains(t) for c, t in zip(shares, truth, strict=True))
    assert len(membership_by_bin(member, y, [1.0, np.inf])) == 1


def test_randomized_tests_trace_randomized_responses_whole_curve():
    """mechanism_roc(randomized=True): the bit plus a uniform tie-break gives tests all along f_eps's two
    segments (not only the vertex), each box on the exact curve; without it, one box."""
    rr = dplab.RandomizedResponse(1.0)
    roc = dplab.attacks.mechanism_roc(rr, 0, 1, 100_000, np.random.default_rng(3), confidence=0.999,
                                      randomized=True)
    vertex = 1 - rr.keep
    assert roc.thresholds.size > 20 and np.any(roc.alpha < 0.8 * vertex) and np.any(roc.alpha > 1.5 * vertex)
    assert dplab.attacks.roc_violations(roc, rr.tradeoff, two_sided=True).size == 0
    assert dplab.attacks.mechanism_roc(rr, 0, 1, 1000, np.random.default_rng(3)).thresholds.size == 1


@pytest.mark.catches("attacks.composed_roc_loss_as_score", "randomized_response.privacy_loss_sign")
def test_composed_roc_meets_the_binomial_and_normal_closed_forms():
    """catches: attacks.composed_roc_loss_as_score (the summed loss L itself as the score, not -L) and
    randomized_response.privacy_loss_sign (RR's loss ln q/p). Independent: with s the number of 1s
    among k randomized-response reports, -L >= t says D' when s >= (t/eps0 + k)/2, s Binomial(k, q) on
    D and (k, p) on D' (scipy); for k Gaussians -L = (2 S - k) / (2 sigma^2), S = the outputs' sum,
    N(0, k sigma^2) on D and N(k, k sigma^2) on D' (scipy). One seed at sigma and 2 sigma: the same
    draws rescaled, so the same alphas."""
    eps0, k = 0.25, 16
    rr = dplab.RandomizedResponse(eps0)
    roc = composed_roc(rr, k, 100_000, 7, confidence=0.999)
    ones = np.ceil((roc.thresholds / eps0 + k) / 2 - 1e-9)
    alpha, beta = stats.binom.sf(ones - 1, k, rr.flip), stats.binom.cdf(ones - 1, k, rr.keep)
    assert 8 <= roc.thresholds.size <= k
    assert np.all((roc.alpha_low <= alpha) & (alpha <= roc.alpha_high))
    assert np.all((roc.beta_low <= beta) & (beta <= roc.beta_high))
    sigma, k = 2.0, 9
    roc = composed_roc(dplab.Gaussian(1.0, sigma), k, 200_000, 8, n_points=20, confidence=0.999)
    cut, sd = (2 * sigma**2 * roc.thresholds + k) / 2, sigma * math.sqrt(k)
    alpha, beta = stats.norm.sf(cut, 0, sd), stats.norm.cdf(cut, k, sd)
    assert np.all((roc.alpha_low <= alpha) & (alpha <= roc.alpha_high))
    assert np.all((roc.beta_low <= beta) & (beta <= roc.beta_high))
    rescaled = composed_roc(dplab.Gaussian(1.0, 2 * sigma), k, 200_000, 8, n_points=20, confidence=0.999)
    assert np.array_equal(rescaled.alpha, roc.alpha)
