"""dplab.local.randomized_response: the thin call on RandomizedResponse, the unbiased share, its
variance, and the local/central gap, each against an independent computation or a simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dplab.local as L
from dplab.mechanisms import RandomizedResponse
from dplab.simulate import bonferroni_confidence, mean_ci

#: the family of interval checks in this file: each at confidence 1 - 0.01 / 4
CONFIDENCE = bonferroni_confidence(4, 0.01)


def test_randomized_response_is_the_mechanism_objects_sampler():
    bits = np.array([0, 1, 1, 0, 1] * 200)
    got = L.randomized_response(bits, 0.7, rng=5)
    assert np.array_equal(got, RandomizedResponse(0.7).sample(bits, np.random.default_rng(5)))
    assert np.array_equal(L.randomized_response(bits.astype(bool), 0.7, rng=5), got)


@pytest.mark.statistical
@pytest.mark.catches("local.rr_estimate_biased", "local.rr_variance_unsquared", "local.count_rmse_sqrt_n")
def test_rr_estimate_is_unbiased_and_its_variance_is_the_formula():
    """R = 4,000 surveys of n = 400 people, 30% of them with answer 1, at eps = 0.8 (seed 11): the
    mean estimate's t interval contains 0.3, the variance's chi-square interval contains
    rr_variance = e^eps / (n (e^eps - 1)^2) (recomputed here), and the count's RMSE is
    local_count_rmse (each at confidence 1 - 0.01/4)."""
    eps, n, trials = 0.8, 400, 4000
    bits = (np.arange(n) < 0.3 * n).astype(int)
    rng = np.random.default_rng(11)
    est = np.array([L.rr_estimate(L.randomized_response(bits, eps, rng), eps) for _ in range(trials)])
    assert mean_ci(est, CONFIDENCE).contains(0.3)
    var = math.exp(eps) / (n * math.expm1(eps) ** 2)
    assert L.rr_variance(0.3, eps, n) == pytest.approx(var, rel=1e-12)
    a = 1 - CONFIDENCE
    low, high = (est.var(ddof=1) * (trials - 1) / stats.chi2.ppf(x, trials - 1) for x in (1 - a / 2, a / 2))
    assert low <= var <= high
    count_errors = n * (est - 0.3)
    rmse = np.sqrt(np.mean(count_errors**2))
    lo, hi = (rmse * math.sqrt(trials / stats.chi2.ppf(x, trials)) for x in (1 - a / 2, a / 2))
    assert lo <= L.local_count_rmse(eps, n) <= hi


@pytest.mark.catches("local.count_rmse_sqrt_n")
def test_local_central_gap_closed_forms():
    """The local count's RMSE sqrt(n e^eps)/(e^eps - 1) against the central sqrt(2)/eps: the gap grows
    as sqrt(n) (about sqrt(n/2) for small eps), e.g. n = 12,579 at eps = 1."""
    for eps in (0.1, 1.0, 3.0):
        for n in (100, 12_579, 10**6):
            local = math.sqrt(n * math.exp(eps)) / math.expm1(eps)
            assert L.local_count_rmse(eps, n) == pytest.approx(local, rel=1e-12)
            assert L.central_count_rmse(eps) == pytest.approx(math.sqrt(2) / eps, rel=1e-12)
            assert L.local_central_gap(eps, n) == pytest.approx(local * eps / math.sqrt(2), rel=1e-12)
    assert L.local_central_gap(1e-4, 10**6) == pytest.approx(math.sqrt(10**6 / 2), rel=1e-3)


@pytest.mark.parametrize(("call", "match"), [
    (lambda: L.randomized_response([0, 2, 1], 1.0, 0), "bits must hold 0/1"),
    (lambda: L.randomized_response([], 1.0, 0), "bits must be a non-empty"),
    (lambda: L.randomized_response([0.5], 1.0, 0), "bits must hold 0/1"),
    (lambda: L.randomized_response([0, 1], 0.0, 0), "epsilon must be finite and > 0, got epsilon=0.0"),
    (lambda: L.rr_estimate([0, 1, 3], 1.0), "reports must hold 0/1"),
    (lambda: L.rr_estimate([0, 1], -1.0), "epsilon must be finite and > 0, got epsilon=-1.0"),
    (lambda: L.rr_variance(1.5, 1.0, 10), "share must lie in \\[0, 1\\], got share=1.5"),
    (lambda: L.rr_variance(0.5, math.nan, 10), "epsilon must be finite and > 0, got epsilon=nan"),
    (lambda: L.rr_variance(0.5, 1.0, 0), "n must be a positive integer, got n=0"),
    (lambda: L.local_count_rmse(1.0, -3), "n must be a positive integer, got n=-3"),
    (lambda: L.central_count_rmse(math.inf), "epsilon must be finite and > 0, got epsilon=inf"),
    (lambda: L.local_central_gap(0.0, 10), "epsilon must be finite and > 0"),
])
def test_bad_input_names_the_parameter_and_value(call, match):
    with pytest.raises(ValueError, match=match):
        call()
