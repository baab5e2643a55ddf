"""The simulated Neyman-Pearson attacker: its ROC boxes meet the exact trade-off curve, and miss
a curve that claims more privacy than the mechanism has (so the check can fail)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import dplab
from dplab import audit
from dplab.attacks import likelihood_ratio_roc, roc_violations
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
