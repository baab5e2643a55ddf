"""Trade-off functions and the posterior bound, each checked against a direct Neyman-Pearson
computation written here (sort the outputs by likelihood ratio, accumulate the masses)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dplab
from dplab.promises import (
    detection_sentence,
    epsilon_for_posterior,
    odds_sentence,
    posterior,
    posterior_bound,
    tradeoff_discrete,
    tradeoff_dp,
    tradeoff_gdp,
)

ALPHAS = np.linspace(0, 1, 201)


def _neyman_pearson(p: np.ndarray, q: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """The best test of p against q at each alpha: reject p on outputs in decreasing q/p."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(p > 0, q / p, np.inf)
    order = np.argsort(-ratio, kind="stable")
    a = np.concatenate([[0.0], np.cumsum(p[order])])
    b = 1 - np.concatenate([[0.0], np.cumsum(q[order])])
    start = np.flatnonzero(a == 0)[-1]
    return np.interp(alpha, a[start:], b[start:])


def _binned(dist, edges: np.ndarray) -> np.ndarray:
    """Masses of ``dist`` on the bins of ``edges``, its tails in the end bins."""
    cdf = dist.cdf(edges)
    cdf[0], cdf[-1] = 0.0, 1.0
    return np.diff(cdf)


@pytest.mark.catches("laplace.tradeoff_top_exp_minus_eps")
@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0])
def test_laplace_tradeoff_is_the_neyman_pearson_curve(eps):
    edges = np.linspace(-40, 40, 400_001)  # bins of 2e-4: the binning moves beta by < 1e-3
    p = _binned(stats.laplace(0, 1), edges)
    q = _binned(stats.laplace(eps, 1), edges)
    assert np.allclose(dplab.Laplace(1.0, eps).tradeoff(ALPHAS), _neyman_pearson(p, q, ALPHAS), atol=1e-3)
    # above the eps-DP curve, touching it at alpha = e^-eps / 2 and 1/2
    assert np.all(dplab.Laplace(1.0, eps).tradeoff(ALPHAS) >= tradeoff_dp(ALPHAS, eps) - 1e-12)
    touch = np.array([math.exp(-eps) / 2, 0.5])
    assert np.allclose(dplab.Laplace(2 * eps, eps).tradeoff(touch), tradeoff_dp(touch, eps))


@pytest.mark.parametrize("mu", [0.3, 1.0, 2.5])
def test_gaussian_tradeoff_is_the_neyman_pearson_curve(mu):
    edges = np.linspace(-12, 12 + mu, 400_001)
    p, q = _binned(stats.norm(0, 1), edges), _binned(stats.norm(mu, 1), edges)
    assert np.allclose(tradeoff_gdp(ALPHAS, mu), _neyman_pearson(p, q, ALPHAS), atol=1e-3)


@pytest.mark.parametrize(("eps", "delta"), [(0.5, 0.0), (1.0, 1e-2), (2.0, 0.2)])
def test_dp_tradeoff_is_the_four_point_mechanism(eps, delta):
    """Kairouz, Oh & Viswanath's extreme (eps, delta) pair: outputs 'betray D', two randomized
    response outputs, 'betray D''. Its Neyman-Pearson curve is f_{eps, delta}."""
    e = math.exp(eps)
    p = np.array([delta, (1 - delta) * e / (1 + e), (1 - delta) / (1 + e), 0.0])
    q = p[::-1].copy()
    assert np.allclose(tradeoff_dp(ALPHAS, eps, delta), _neyman_pearson(p, q, ALPHAS), atol=1e-12)
    assert tradeoff_dp(0.0, eps, delta) == pytest.approx(1 - delta)


@pytest.mark.parametrize("eps", [0.2, 1.0, 4.0])
def test_randomized_response_attains_the_pure_dp_curve(eps):
    assert np.allclose(
        dplab.RandomizedResponse(eps).tradeoff(ALPHAS), tradeoff_dp(ALPHAS, eps), atol=1e-12
    )


def test_discrete_tradeoff_handles_outputs_impossible_under_d():
    # q puts 0.3 on an output p never shows: f(0) = 0.7
    assert tradeoff_discrete(0.0, [0.5, 0.5, 0.0], [0.2, 0.5, 0.3]) == pytest.approx(0.7)
    assert tradeoff_discrete(1.0, [0.5, 0.5, 0.0], [0.2, 0.5, 0.3]) == pytest.approx(0.0)


@pytest.mark.parametrize("prior", [0.01, 0.1, 0.5, 0.9])
@pytest.mark.parametrize("eps", [0.1, 1.0, 5.0])
def test_posterior_bound_is_attained_by_randomized_response(prior, eps):
    """Bayes' rule on a randomized-response report of 'Alice is in': the report 'in' leaves
    the attacker exactly at the bound."""
    keep = math.exp(eps) / (1 + math.exp(eps))
    posterior = prior * keep / (prior * keep + (1 - prior) * (1 - keep))
    assert posterior_bound(prior, eps) == pytest.approx(posterior, rel=1e-12)


def test_posterior_bound_in_the_issue_and_arrays():
    assert posterior_bound(0.1, 1.0) == pytest.approx(math.e / (math.e + 9))
    assert np.allclose(posterior_bound(np.array([0.1, 0.5]), 0.0), [0.1, 0.5])
    assert posterior_bound(0.5, 800.0) == 1.0  # no overflow


def test_odds_sentence_numbers_are_computed():
    assert odds_sentence(1.0) == (
        "at eps = 1, an attacker who was 10% sure that Alice's record is in "
        "the data can become at most 23% sure (its odds grow at most 2.72-fold)"
    )
    assert "at most 99.96% sure" in odds_sentence(10.0)  # not a rounded 100%
    assert "50% sure" in odds_sentence(0.5, prior=0.5, who="Bob") and "Bob's" in odds_sentence(
        1, who="Bob"
    )


def test_detection_sentence():
    # mu = 1: Phi(Phi^-1(0.05) + 1) = 0.2595; eps = 1, delta = 1e-5: e * 0.05 + 1e-5 = 0.1359
    assert "at most 26% of the time" in detection_sentence(mu=1.0)
    assert "at most 14% of the time" in detection_sentence(epsilon=1.0, delta=1e-5)
    assert "delta = 1e-05" in detection_sentence(epsilon=1.0, delta=1e-5)


@pytest.mark.parametrize("prior", [0, 1, -0.1, 1.5, [0.2, 1.0]])
def test_prior_outside_the_open_interval(prior):
    with pytest.raises(ValueError, match=r"prior must be in \(0, 1\), got prior="):
        posterior_bound(prior, 1.0)
    with pytest.raises(ValueError, match="prior"):
        odds_sentence(1.0, prior=prior)


@pytest.mark.parametrize("alpha", [-0.01, 1.01, [0.5, 2.0], []])
def test_alpha_outside_the_unit_interval(alpha):
    for f in (
        lambda a: tradeoff_dp(a, 1.0),
        lambda a: dplab.Laplace(1.0, 1.0).tradeoff(a),
        lambda a: tradeoff_gdp(a, 1.0),
        lambda a: dplab.RandomizedResponse(1.0).tradeoff(a),
    ):
        with pytest.raises(ValueError, match=r"alpha must lie in \[0, 1\], got alpha="):
            f(alpha)


def test_other_bad_input():
    with pytest.raises(ValueError, match="epsilon must be"):
        tradeoff_dp(0.5, -1.0)
    with pytest.raises(ValueError, match="delta must be in"):
        tradeoff_dp(0.5, 1.0, 1.0)
    with pytest.raises(ValueError, match="epsilon must be"):
        dplab.Laplace(1.0, 0.0)
    with pytest.raises(ValueError, match="give exactly one of epsilon and mu"):
        detection_sentence()
    with pytest.raises(ValueError, match=r"alpha must lie in \(0, 1\) here"):
        detection_sentence(mu=1.0, alpha=0.0)
    with pytest.raises(ValueError, match="p must be a probability vector"):
        tradeoff_discrete(0.5, [0.5, 0.6], [0.5, 0.5])


def test_epsilon_for_posterior_inverts_the_posterior_bound():
    """catches: the ratio of probabilities instead of odds (ln(q/p): 3.91 instead of 4.60 for
    1% -> 50%, exercise 08.2)."""
    assert epsilon_for_posterior(0.01, 0.5) == pytest.approx(math.log(99))
    for prior, target in ((0.1, 0.2), (0.3, 0.99), (0.5, 0.5)):
        eps = epsilon_for_posterior(prior, target)
        assert posterior_bound(prior, eps) == pytest.approx(target)
    with pytest.raises(ValueError, match="posterior must be >= prior"):
        epsilon_for_posterior(0.5, 0.1)


def test_posterior_is_bayes_rule_and_the_bound_is_its_largest_value():
    """catches: odds multiplied the wrong way (e^-L for e^L) or a bound not attained at loss eps."""
    prior, loss = 0.2, np.array([-1.0, 0.0, 0.7])
    bayes = prior * np.exp(loss) / (prior * np.exp(loss) + (1 - prior))  # Pr[in | y] directly
    assert np.allclose(posterior(prior, loss), bayes)
    assert posterior(prior, 1.5) == pytest.approx(posterior_bound(prior, 1.5))
    assert posterior(0.3, 0.0) == pytest.approx(0.3)
