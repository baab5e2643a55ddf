"""The lab's version of the accuracy-first experiment: counts released under a relative-error target."""

from __future__ import annotations

import math

import numpy as np
import pytest

import dplab
from dplab import accounting, accuracy_first


def test_heavy_tailed_counts_have_the_papers_shape():
    y = accuracy_first.heavy_tailed_counts(200_000, rng=1)
    assert np.all(y >= 1000) and np.all(y == np.floor(y))
    # floor(1000/U) >= 2000 iff U <= 1/2; >= 10^5 iff U <= 1/100
    assert dplab.proportion_ci(int(np.sum(y >= 2000)), y.size, 0.999).contains(0.5)
    assert dplab.proportion_ci(int(np.sum(y >= 100_000)), y.size, 0.999).contains(0.01)


@pytest.mark.catches("accuracy_first.laplace_half_width_two_sided")
@pytest.mark.parametrize("beta", [0.05, 0.01, 0.2])
def test_half_widths(beta):
    """Independent: scipy's quantiles; Pr[|noise| > h] = beta for both laws."""
    from scipy import stats
    assert accuracy_first.release_half_width(2.0, "gaussian", beta) == pytest.approx(
        2.0 * stats.norm.ppf(1 - beta / 2), rel=1e-12)
    h = accuracy_first.release_half_width(2.0, "laplace", beta)
    assert h == pytest.approx(stats.laplace.ppf(1 - beta / 2, scale=2.0), rel=1e-12)
    assert 2 * stats.laplace.sf(h, scale=2.0) == pytest.approx(beta, rel=1e-12)
    # at equal standard deviation (Laplace sd = sqrt(2) b) the Laplace 95% half-width is 1.08 x the Gaussian's
    if beta == 0.05:
        laplace = accuracy_first.release_half_width(1 / math.sqrt(2), "laplace")
        ratio = laplace / accuracy_first.release_half_width(1.0, "gaussian")
        assert ratio == pytest.approx(math.log(20) / math.sqrt(2) / 1.959963984540054, rel=1e-12)
        assert round(ratio, 2) == 1.08


@pytest.mark.parametrize("method", accuracy_first.RELEASE_METHODS)
def test_every_release_meets_the_rule_and_the_budget_holds(method):
    y = accuracy_first.heavy_tailed_counts(1000, rng=3)
    tau, beta = 0.1, 0.05
    result = accuracy_first.release_counts(y, method, 1.0, 1e-6, tau, rng=4)
    mask, charge = result.released_mask, result.charge
    assert result.released == int(mask.sum()) > 0
    assert 0 < result.spent <= 1.0
    laplace = method in ("laplace_noise_reduction", "laplace_doubling")
    total = 1.0 if laplace else accounting.approx_dp_to_zcdp(1.0, 1e-6)
    assert charge.sum() == pytest.approx(result.spent * total, rel=1e-9)
    assert np.all(charge <= 3 * total / y.size * (1 + 1e-9))  # the per-count cap
    if method in ("brownian", "fixed", "oracle"):  # the charge is the rho of the released level
        h = accuracy_first.release_half_width(1 / np.sqrt(2 * charge[mask]), "gaussian", beta)
        seen = y[mask] if method == "oracle" else result.estimate[mask]  # the oracle's rule uses y
        assert np.all(h <= tau * (seen - h) * (1 + 1e-9))
    elif method == "laplace_noise_reduction":
        h = accuracy_first.release_half_width(1 / charge[mask], "laplace", beta)
        assert np.all(h <= tau * (result.estimate[mask] - h) * (1 + 1e-9))


@pytest.mark.statistical
def test_brownian_beats_gaussian_doubling_and_releases_accurately():
    """Over 5 repeats (new counts and noise each): the unified filter with Brownian noise
    reduction releases at least 1.2 times what Gaussian doubling releases at eps = 1, and at
    least 90% of its released counts are within the target (95% half-widths)."""
    brownian, doubling, within = [], [], []
    for seed in range(5):
        y = accuracy_first.heavy_tailed_counts(1000, rng=100 + seed)
        b = accuracy_first.release_counts(y, "brownian", 1.0, 1e-6, 0.1, rng=200 + seed)
        d = accuracy_first.release_counts(y, "gaussian_doubling", 1.0, 1e-6, 0.1, rng=300 + seed)
        brownian.append(b.released)
        doubling.append(d.released)
        within.append(b.within_target)
    assert sum(brownian) >= 1.2 * sum(doubling), (brownian, doubling)
    assert min(within) >= 0.9, within


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"method": "magic"}, "method must be one of"),
    ({"epsilon": 0.0}, "epsilon=0"),
    ({"delta": 0.0}, "delta must be in \\(0, 1\\), got delta=0"),
    ({"target": 1.5}, "target must be a relative error in \\(0, 1\\), got target=1.5"),
    ({"target": 0.0}, "target=0"),
    ({"grid_ratio": 1.0}, "grid_ratio must be > 1, got grid_ratio=1.0"),
])
def test_bad_input_names_the_parameter(kwargs, message):
    args = {"method": "brownian", "epsilon": 1.0, "delta": 1e-6, "target": 0.1} | kwargs
    with pytest.raises(ValueError, match=message):
        accuracy_first.release_counts(np.array([100.0, 2000.0]), **args)
