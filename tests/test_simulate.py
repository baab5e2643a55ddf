"""The Monte Carlo harness: intervals, common random numbers, exceedance counts."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import dplab
from dplab import simulate

ScaledErrors, standard_errors = dplab.ScaledErrors, simulate.standard_errors


def test_proportion_ci_is_clopper_pearson():
    counts = np.array([0, 1, 7, 49, 50])
    est = dplab.proportion_ci(counts, 50, 0.95)
    for i, s in enumerate(counts):  # scipy's own exact interval, one count at a time
        ci = stats.binomtest(int(s), 50).proportion_ci(0.95, method="exact")
        assert (est.low[i], est.high[i]) == pytest.approx((ci.low, ci.high), abs=1e-12)
    assert est.estimate[2] == pytest.approx(0.14)
    with pytest.raises(ValueError, match="successes must lie in"):
        dplab.proportion_ci(51, 50)


@pytest.mark.catches("simulate.mean_ci_normal_quantile")
def test_mean_ci_width():
    """catches: simulate.mean_ci_normal_quantile (the normal quantile on 4 samples: 1.96 for t_3's 3.18)"""
    x = np.array([1.0, 2.0, 3.0, 4.0])
    est = dplab.mean_ci(x, 0.95)
    half = 3.182446305284263 * np.std(x, ddof=1) / 2  # t_{0.975} with 3 degrees of freedom
    assert (est.low, est.high) == pytest.approx((2.5 - half, 2.5 + half))
    with pytest.raises(ValueError, match="at least 2"):
        dplab.mean_ci([1.0])


def test_mean_ci_coverage():
    # 2,000 intervals at 90% on N(0,1) samples of 5: exact for t, coverage within a 99.9% binomial interval
    # (the normal quantile covers 84% there)
    rng = np.random.default_rng(5)
    est = dplab.mean_ci(rng.standard_normal((2000, 5)), 0.90, axis=1)
    covered = int(np.sum(est.contains(0.0)))
    ci = dplab.proportion_ci(covered, 2000, 0.999)
    assert ci.low <= 0.90 <= ci.high


def test_scaled_errors_agree_with_direct_computation():
    errs = ScaledErrors.draw("laplace", 10_000, rng=3)
    z = np.abs(np.random.default_rng(3).laplace(0, 1, size=(10_000, 1))).ravel()
    for b in (0.5, 2.0):
        for got, samples in ((errs.mse(b, 0.99), (b * z) ** 2), (errs.mae(b, 0.99), b * z)):
            direct = dplab.mean_ci(samples, 0.99)  # two-pass mean and sample std
            assert (got.estimate, got.low, got.high) == pytest.approx(
                (direct.estimate, direct.low, direct.high), rel=1e-9)
        for t in (0.1, 1.0, 3.0):
            assert float(errs.exceed(b, t).estimate) == np.mean(b * z >= t)


def test_scaled_errors_max_reduce_and_cache():
    errs = ScaledErrors.draw("gaussian", 1000, k=7, reduce="max", rng=1)
    z = np.abs(np.random.default_rng(1).standard_normal((1000, 7))).max(axis=1)
    np.testing.assert_array_equal(errs.standard_abs, z)
    assert standard_errors("laplace", 1000, seed=4) is standard_errors("laplace", 1000, seed=4)
    with pytest.raises(ValueError, match="noise must be"):
        ScaledErrors.draw("cauchy", 10)
    with pytest.raises(ValueError, match="reduce must be"):
        ScaledErrors.draw("laplace", 10, reduce="sum")


def test_quantile_ci_contains_the_true_quantile():
    errs = ScaledErrors.draw("laplace", 50_000, rng=8)
    est = errs.quantile(2.0, 0.95, 0.999)
    assert est.contains(2.0 * np.log(20))  # the 0.95 quantile of |Lap(2)| is 2 ln 20


def test_standard_draw_is_cached_read_only_and_seeded():
    z = simulate.standard_draw("laplace", (100, 3), 7)
    assert np.shares_memory(z, simulate.standard_draw("laplace", (100, 3), 7))  # one cached copy
    np.testing.assert_array_equal(z, np.random.default_rng(7).laplace(0, 1, size=(100, 3)))
    with pytest.raises(ValueError, match="read-only"):
        z[0, 0] = 1.0
    with pytest.raises(ValueError, match="WRITEABLE"):
        z.flags.writeable = True
    draw = simulate.standard_draw
    assert np.shares_memory(draw("gaussian", 4, 1), draw("gaussian", (4,), 1))
    errs = standard_errors("gaussian", 50, seed=2).standard_abs
    with pytest.raises(ValueError, match="WRITEABLE"):
        errs.flags.writeable = True
    for bad in (None, -1, 1.5):
        with pytest.raises(ValueError, match="seed must be an int >= 0"):
            simulate.standard_draw("laplace", 3, bad)


def test_bonferroni_confidence():
    assert dplab.bonferroni_confidence(20, 0.01) == pytest.approx(0.9995)
    assert dplab.bonferroni_confidence(1) == pytest.approx(0.99)
    with pytest.raises(ValueError, match="n_checks must be a positive integer"):
        dplab.bonferroni_confidence(0)


def test_uniform_standard_noise_is_bounded_with_variance_one_third():
    z = simulate.standard_noise("uniform", 200_000, rng=3)
    assert np.all(np.abs(z) <= 1.0)
    assert dplab.mean_ci(z**2, 0.999).contains(1 / 3)
    np.testing.assert_array_equal(z, np.random.default_rng(3).uniform(-1.0, 1.0, 200_000))
