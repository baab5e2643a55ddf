"""Noise reduction: the marginals, the couplings that make it ex-post private, and the martingale.

Every statistical check runs at a fixed seed, so it is deterministic; its stated level (KS at
alpha = 1e-3, intervals at 0.999 or Bonferroni over a family) bounds the chance that a seed
would fail a correct sampler. Each check of a property is paired with a deliberately wrong
version that it must catch.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dplab
from dplab.mechanisms import (
    brownian_lookahead_loss,
    brownian_martingale_terms,
    brownian_noise_reduction,
    brownian_privacy_loss,
    brownian_rho,
    brownian_stopped_loss,
    brownian_time,
    laplace_noise_reduction,
    laplace_noise_reduction_cost,
)

ALPHA = 1e-3  # KS significance per level
EPSILONS = np.array([0.2, 0.5, 1.0, 2.0])
SENSITIVITY = 2.0
TIMES = np.array([4.0, 2.5, 1.0, 0.3])
RHOS = np.linspace(0.1, 1.0, 10)  # the filter's charges Delta^2/(2T), Delta = 1: T from 5 down to 0.5
PATHS = 200_000


@pytest.fixture(scope="module")
def laplace_noise():
    return laplace_noise_reduction(0.0, SENSITIVITY, EPSILONS, size=20_000, rng=11)


@pytest.fixture(scope="module")
def brownian_noise():
    return brownian_noise_reduction(0.0, 1.0, TIMES, size=40_000, rng=21)


def independent_laplace(epsilons, size, rng):
    """WRONG on purpose: a fresh Lap(Delta/eps_i) per level. Same marginals, no coupling, so
    stopping after i releases costs eps_1 + ... + eps_i, not eps_i."""
    standard = np.random.default_rng(rng).laplace(size=(size, len(epsilons)))
    return (SENSITIVITY / np.asarray(epsilons)) * standard


def independent_gaussians(times, size, rng):
    """WRONG on purpose: a fresh N(0, t_i) per level. Same marginals, not a Brownian path."""
    return np.sqrt(times) * np.random.default_rng(rng).standard_normal(size=(size, len(times)))


def ks_pvalues(noise, dist, scales):
    return [stats.kstest(noise[:, i], dist, args=(0, s)).pvalue for i, s in enumerate(scales)]


# --- shapes and seeds ---------------------------------------------------------------------


@pytest.mark.parametrize("mechanism, schedule", [(laplace_noise_reduction, EPSILONS),
                                                 (brownian_noise_reduction, TIMES)])
def test_shapes_seeds_and_the_value_added(mechanism, schedule):
    m = len(schedule)
    assert mechanism(3.0, 1.0, schedule, rng=0).shape == (m,)
    assert mechanism(3.0, 1.0, schedule, size=5, rng=0).shape == (5, m)
    counts = np.array([10.0, 20.0, 30.0])
    out = mechanism(counts, 1.0, schedule, size=5, rng=0)
    assert out.shape == (5, 3, m)  # draws, counts, levels last
    np.testing.assert_array_equal(out, mechanism(counts, 1.0, schedule, size=5, rng=0))
    np.testing.assert_allclose(out - counts[:, None], mechanism(np.zeros(3), 1.0, schedule, size=5, rng=0),
                               atol=1e-12)
    assert not np.array_equal(out, mechanism(counts, 1.0, schedule, size=5, rng=1))


# --- Laplace noise reduction --------------------------------------------------------------


def test_each_laplace_level_is_exactly_laplace(laplace_noise):
    assert min(ks_pvalues(laplace_noise, "laplace", SENSITIVITY / EPSILONS)) > ALPHA


def test_the_coupling_keeps_the_noise_with_probability_eps_ratio_squared(laplace_noise):
    for i in range(len(EPSILONS) - 1):
        same = laplace_noise[:, i] == laplace_noise[:, i + 1]
        keep = (EPSILONS[i] / EPSILONS[i + 1]) ** 2
        assert dplab.proportion_ci(same.sum(), same.size, 0.999).contains(keep)
        # when it moves, it moves by a fresh Lap(Delta/eps_i)
        step = laplace_noise[~same, i] - laplace_noise[~same, i + 1]
        assert stats.kstest(step, "laplace", args=(0, SENSITIVITY / EPSILONS[i])).pvalue > ALPHA
        # and whether it moves does not depend on where it is (the transition is data-free)
        big = np.abs(laplace_noise[:, i + 1]) > np.median(np.abs(laplace_noise[:, i + 1]))
        assert dplab.proportion_ci(same[big].sum(), big.sum(), 0.999).contains(keep)
    # the chain telescopes: eta_1 = eta_m with probability (eps_1/eps_m)^2
    same = laplace_noise[:, 0] == laplace_noise[:, -1]
    assert dplab.proportion_ci(same.sum(), same.size, 0.999).contains((EPSILONS[0] / EPSILONS[-1]) ** 2)


def test_independent_levels_pass_the_marginals_and_fail_the_coupling():
    noise = independent_laplace(EPSILONS, 20_000, rng=11)
    assert min(ks_pvalues(noise, "laplace", SENSITIVITY / EPSILONS)) > ALPHA  # the marginals cannot tell
    for i in range(len(EPSILONS) - 1):
        same = np.sum(noise[:, i] == noise[:, i + 1])  # 0: continuous draws never coincide
        keep = (EPSILONS[i] / EPSILONS[i + 1]) ** 2
        assert not dplab.proportion_ci(same, noise.shape[0], 0.999).contains(keep)


def test_laplace_noise_reduction_cost_is_the_last_epsilon():
    assert laplace_noise_reduction_cost(EPSILONS, 1) == 0.2
    assert laplace_noise_reduction_cost(EPSILONS, 3) == 1.0
    np.testing.assert_array_equal(laplace_noise_reduction_cost(EPSILONS, [1, 2, 4]), [0.2, 0.5, 2.0])
    assert isinstance(laplace_noise_reduction_cost(EPSILONS, 2), float)
    # versus independent releases, which pay the sum: 0.2 + 0.5 + 1.0 for three answers
    assert laplace_noise_reduction_cost(EPSILONS, 3) < EPSILONS[:3].sum()


# --- Brownian noise reduction -------------------------------------------------------------


def test_each_brownian_level_is_normal_with_variance_t(brownian_noise):
    assert min(ks_pvalues(brownian_noise, "norm", np.sqrt(TIMES))) > ALPHA


def _covariance_checks(noise):
    """For every pair i <= j: does the CLT interval of mean(W_i W_j) contain min(t_i, t_j)?

    The mean is known to be 0, so mean(W_i W_j) is the unbiased covariance; for a centred
    Gaussian pair Var(W_i W_j) = t_i t_j + min(t_i, t_j)^2 is finite, so the normal interval
    applies. Bonferroni over the 10 pairs at a family error of 1e-3."""
    m = len(TIMES)
    confidence = dplab.bonferroni_confidence(m * (m + 1) // 2, 1e-3)
    return {(i, j): bool(dplab.mean_ci(noise[:, i] * noise[:, j], confidence).contains(min(TIMES[[i, j]])))
            for i in range(m) for j in range(i, m)}


def test_brownian_covariance_is_min_of_the_times(brownian_noise):
    assert all(_covariance_checks(brownian_noise).values())


def test_independent_gaussians_pass_the_marginals_and_fail_the_covariance():
    noise = independent_gaussians(TIMES, 40_000, rng=21)
    assert min(ks_pvalues(noise, "norm", np.sqrt(TIMES))) > ALPHA
    checks = _covariance_checks(noise)
    assert all(ok for (i, j), ok in checks.items() if i == j)
    assert not any(ok for (i, j), ok in checks.items() if i != j)


def test_the_path_is_the_brownian_bridge_traced_backwards():
    n = 1000
    z = np.random.default_rng(5).standard_normal(size=(n, len(TIMES)))
    w = np.empty_like(z)
    w[:, 0] = math.sqrt(TIMES[0]) * z[:, 0]
    for i in range(1, len(TIMES)):
        t_prev, t = TIMES[i - 1], TIMES[i]
        w[:, i] = t / t_prev * w[:, i - 1] + math.sqrt(t * (t_prev - t) / t_prev) * z[:, i]
    np.testing.assert_allclose(brownian_noise_reduction(0.0, 1.0, TIMES, size=n, rng=5), w,
                               rtol=1e-12, atol=1e-12)
    # the times are the variances: the sensitivity does not scale the noise
    np.testing.assert_array_equal(brownian_noise_reduction(0.0, 7.0, TIMES, size=n, rng=5),
                                  brownian_noise_reduction(0.0, 1.0, TIMES, size=n, rng=5))


# --- Brownian theory ----------------------------------------------------------------------


def test_rho_and_time_are_inverse():
    assert brownian_rho(2.0, 4.0) == 0.5
    np.testing.assert_allclose(brownian_rho(1.0, TIMES), 1 / (2 * TIMES))
    np.testing.assert_allclose(brownian_time(1.0, brownian_rho(1.0, TIMES)), TIMES)
    times = brownian_time(1.0, RHOS)
    assert np.all(np.diff(times) < 0) and times[0] == pytest.approx(5.0) and times[-1] == pytest.approx(0.5)


def test_privacy_loss_is_the_gaussian_log_density_ratio_of_d_against_d_plus_delta():
    sens, value = 1.5, 4.0
    time = np.array([3.0, 1.0, 0.2])
    noise = np.random.default_rng(8).normal(0, np.sqrt(time), size=(500, 3))
    y = value + noise  # outputs drawn under D, f(D) = value; f(D') = value + Delta
    direct = stats.norm.logpdf(y, value, np.sqrt(time)) - stats.norm.logpdf(y, value + sens, np.sqrt(time))
    loss = brownian_privacy_loss(noise, time, sens)
    np.testing.assert_allclose(loss, direct, atol=1e-10)
    np.testing.assert_allclose(loss, sens**2 / (2 * time) - sens * noise / time, atol=1e-12)
    for t in time:
        np.testing.assert_allclose(brownian_privacy_loss(noise[:, 0], t, sens),
                                   dplab.gaussian_privacy_loss(noise[:, 0], math.sqrt(t), sens), atol=1e-12)
    assert isinstance(brownian_privacy_loss(0.3, 2.0, 1.0), float)


def test_stopping_rules_stop_where_they_say():
    times = brownian_time(1.0, RHOS)
    path = brownian_noise_reduction(1.0, 1.0, times, size=2000, rng=3)
    stopped_time, loss = brownian_stopped_loss(1.0, 1.0, times, 1.5, size=2000, rng=3)  # same paths
    crossed = path >= 1.5
    first = np.where(crossed.any(axis=1), crossed.argmax(axis=1), len(times) - 1)
    np.testing.assert_array_equal(stopped_time, times[first])
    noise = path[np.arange(2000), first] - 1.0
    np.testing.assert_allclose(loss, brownian_privacy_loss(noise, times[first], 1.0), atol=1e-9)
    never, _ = brownian_stopped_loss(1.0, 1.0, times, lambda y, t: np.zeros(y.shape, bool),
                                           size=50, rng=0)
    assert np.all(never == times[-1])
    at_fourth, _ = brownian_stopped_loss(1.0, 1.0, times, lambda y, t: t <= times[3], size=50, rng=0)
    assert np.all(at_fourth == times[3])
    one_t, one_l = brownian_stopped_loss(1.0, 1.0, times, 1.5, rng=0)
    assert isinstance(one_t, float) and isinstance(one_l, float)


@pytest.fixture(scope="module", params=["threshold", "z-score"])
def stopped(request):
    """(rho_T, L) for 2 x 10^5 Brownian noise reductions of the count 1 (Delta = 1, rho from 0.1
    to 1), each stopped by its own outputs: once y >= 1.5, or once y > 1.5 sqrt(t)."""
    rule = 1.5 if request.param == "threshold" else (lambda y, t: y > 1.5 * np.sqrt(t))
    times = brownian_time(1.0, RHOS)
    stopped_time, loss = brownian_stopped_loss(1.0, 1.0, times, rule, size=PATHS, rng=2024)
    # the stop is genuinely random: at least three times each taken by >= 5% of the paths
    _, counts = np.unique(stopped_time, return_counts=True)
    assert np.sum(counts >= 0.05 * PATHS) >= 3
    return brownian_rho(1.0, stopped_time), loss


@pytest.mark.parametrize("lambda_", [0.5, 1.0])
def test_martingale_identity_holds_at_a_stopping_time(stopped, lambda_):
    rho, loss = stopped
    # E[exp(lambda L - lambda (lambda + 1) rho_T)] = 1, for either neighbour direction:
    # f(D') = f(D) + Delta gives L = rho - Delta W/T; f(D') = f(D) - Delta gives rho + Delta W/T = 2 rho - L
    for right in (loss, 2 * rho - loss):
        assert dplab.mean_ci(np.exp(lambda_ * right - lambda_ * (lambda_ + 1) * rho), 0.999).contains(1.0)


@pytest.mark.parametrize("lambda_", [0.5, 1.0])
def test_martingale_identity_fails_for_wrong_losses(stopped, lambda_):
    rho, loss = stopped
    # without the Delta^2/(2T) term, and the reversed ratio ln p_D'/p_D at outputs drawn under D
    for wrong in (loss - rho, -loss):
        ci = dplab.mean_ci(np.exp(lambda_ * wrong - lambda_ * (lambda_ + 1) * rho), 0.999)
        assert not ci.contains(1.0) and ci.high < 1


def test_martingale_identity_fails_when_the_stop_peeks_at_the_future():
    # choosing, in hindsight, the time with the largest exp(L - 2 rho) is not a stopping time
    times = brownian_time(1.0, RHOS)
    noise = brownian_noise_reduction(0.0, 1.0, times, size=PATHS, rng=7)
    rho = brownian_rho(1.0, times)
    martingale = np.exp(brownian_privacy_loss(noise, times, 1.0) - 2 * rho)
    assert dplab.mean_ci(martingale[:, -1], 0.999).contains(1.0)  # a fixed time is a stopping time
    assert dplab.mean_ci(martingale.max(axis=1), 0.999).low > 1



@pytest.mark.parametrize("lam, time, sensitivity", [(0.5, 1.0, 1.0), (1.0, 0.3, 2.0), (2.5, 4.0, 0.5)])
def test_martingale_terms_integrate_to_one_at_a_fixed_time(lam, time, sensitivity):
    """catches: lambda^2 rho instead of lambda (lambda + 1) rho in the compensator (then the mean at a
    fixed T is exp(-lambda rho), not 1). Independent: quadrature over W_T ~ N(0, T), and the time
    inversion form exp(-lambda Delta X_s - (lambda Delta)^2 s / 2) with X_s = W_T / T, s = 1/T."""
    from scipy import integrate

    def density_times_term(w):
        loss = sensitivity**2 / (2 * time) - sensitivity * w / time
        density = stats.norm.pdf(w, scale=math.sqrt(time))
        return brownian_martingale_terms(time, loss, sensitivity, lam) * density

    reach = lam * sensitivity + 30 * math.sqrt(time)  # beyond it the integrand is below e^-400
    assert integrate.quad(density_times_term, -reach, reach, limit=200)[0] == pytest.approx(1.0, abs=1e-9)
    w = np.linspace(-3.0, 3.0, 7)
    s = 1 / time
    inverted = np.exp(-lam * sensitivity * w * s - (lam * sensitivity) ** 2 * s / 2)
    loss = brownian_privacy_loss(w, time, sensitivity)
    np.testing.assert_allclose(brownian_martingale_terms(time, loss, sensitivity, lam), inverted, rtol=1e-12)


def test_lookahead_stops_where_the_next_output_is_larger():
    """catches: a peeking rule that compares the wrong way (y_{i+1} < y_i) or stops one level late.
    Independent: a per-path loop over the released values of brownian_noise_reduction (same rng)."""
    times = np.array([5.0, 3.0, 2.0, 1.0, 0.5])
    stopped_time, loss = brownian_lookahead_loss(2.0, 1.5, times, size=500, rng=9)
    paths = brownian_noise_reduction(2.0, 1.5, times, size=500, rng=9)
    for path, t, ell in zip(paths, stopped_time, loss, strict=True):
        i = next((i for i in range(times.size - 1) if path[i + 1] > path[i]), times.size - 1)
        assert t == times[i]
        assert ell == pytest.approx(1.5**2 / (2 * times[i]) - 1.5 * (path[i] - 2.0) / times[i], abs=1e-9)
    one_t, one_l = brownian_lookahead_loss(0.0, 1.0, times, rng=0)
    assert isinstance(one_t, float) and isinstance(one_l, float)
    # and it is no stopping time: the martingale identity fails (the lesson's power check)
    terms = brownian_martingale_terms(*brownian_lookahead_loss(0.0, 1.0, times, size=PATHS, rng=3), 1.0, 0.5)
    assert dplab.mean_ci(terms, 0.999).low > 1


# --- bad input ----------------------------------------------------------------------------


LNR, LCOST = "laplace_noise_reduction", "laplace_noise_reduction_cost"
BNR, STOP = "brownian_noise_reduction", "brownian_stopped_loss"
TERMS = "brownian_martingale_terms"


@pytest.mark.parametrize("name, args, kwargs, error, match", [
    (LNR, (0, 1, [1.0, 0.5]), {}, ValueError,
     r"epsilons must be strictly increasing, got epsilons=\[1.0, 0.5\] "
     r"\(epsilons\[1\]=0.5 after epsilons\[0\]=1.0\)"),
    (LNR, (0, 1, [0.5, 0.5]), {}, ValueError, r"strictly increasing.*epsilons\[1\]=0.5"),
    (LNR, (0, 1, [0.0, 1.0]), {}, ValueError, r"epsilons must be finite and > 0, got epsilons=0.0 at index"),
    (LNR, (0, 1, [-1.0, 1.0]), {}, ValueError, r"epsilons=-1.0 at index 0"),
    (LNR, (0, 1, [1.0, math.inf]), {}, ValueError, r"epsilons=inf at index 1"),
    (LNR, (0, 1, [1.0, math.nan]), {}, ValueError, r"epsilons=nan at index 1"),
    (LNR, (0, 1, []), {}, ValueError, r"epsilons must be a non-empty 1-D.*epsilons=\[\]"),
    (LNR, (0, 1, 1.0), {}, ValueError, r"epsilons must be a non-empty 1-D.*epsilons=1.0"),
    (LNR, (0, 1, [[0.5, 1.0]]), {}, ValueError, r"1-D.*epsilons=\[\[0.5, 1.0\]\]"),
    (LNR, (0, 1, ["a", "b"]), {}, TypeError, r"epsilons=\['a', 'b'\]"),
    (LNR, (0, 0, [1.0]), {}, ValueError, r"sensitivity must be finite and > 0, got sensitivity=0"),
    (LNR, (0, -2.0, [1.0]), {}, ValueError, r"sensitivity=-2.0"),
    (LNR, (0, 1, [1.0]), {"size": 0}, ValueError, r"size=0"),
    (LNR, (0, 1, [1.0]), {"rng": "seed"}, TypeError, r"rng='seed'"),
    (LCOST, ([0.5, 1.0], 3), {}, ValueError, r"releases must be at most len\(epsilons\)=2, got releases=3"),
    (LCOST, ([0.5, 1.0], 0), {}, ValueError, r"releases=0"),
    (LCOST, ([1.0, 0.5], 1), {}, ValueError, r"epsilons must be strictly increasing"),
    (BNR, (0, 1, [1.0, 2.0]), {}, ValueError,
     r"times must be strictly decreasing, got times=\[1.0, 2.0\] \(times\[1\]=2.0 after times\[0\]=1.0\)"),
    (BNR, (0, 1, [2.0, 2.0]), {}, ValueError, r"strictly decreasing.*times\[1\]=2.0"),
    (BNR, (0, 1, [1.0, 0.0]), {}, ValueError, r"times must be finite and > 0, got times=0.0 at index 1"),
    (BNR, (0, 1, [math.inf, 1.0]), {}, ValueError, r"times=inf at index 0"),
    (BNR, (0, 1, [math.nan]), {}, ValueError, r"times=nan at index 0"),
    (BNR, (0, 1, ()), {}, ValueError, r"times must be a non-empty 1-D.*times=\(\)"),
    (BNR, (0, 0.0, [1.0]), {}, ValueError, r"sensitivity=0.0"),
    ("brownian_rho", (1, 0), {}, ValueError, r"time must be finite and > 0, got time=0"),
    ("brownian_rho", (-1, 1), {}, ValueError, r"sensitivity=-1"),
    ("brownian_time", (1, 0), {}, ValueError, r"rho must be finite and > 0, got rho=0"),
    ("brownian_privacy_loss", (0.0, -1.0, 1), {}, ValueError, r"time=-1.0"),
    ("brownian_privacy_loss", (0.0, 1.0, math.nan), {}, ValueError, r"sensitivity=nan"),
    (STOP, (0.0, 1, [1.0, 2.0], 1.0), {}, ValueError, r"times must be strictly decreasing"),
    (STOP, (0.0, 1, [2.0, 1.0], "high"), {}, TypeError, r"stop=.high."),
    (STOP, (0.0, 1, [2.0, 1.0], math.nan), {}, TypeError, r"stop=nan"),
    (STOP, ([0.0, 1.0], 1, [2.0, 1.0], 1.0), {}, TypeError, r"value=\[0.0, 1.0\]"),
    (STOP, (0.0, 0, [2.0, 1.0], 1.0), {}, ValueError, r"sensitivity=0"),
    ("brownian_lookahead_loss", (0.0, 1, [1.0, 2.0]), {}, ValueError, r"times must be strictly decreasing"),
    (TERMS, (1.0, 0.0, 1.0, -1.0), {}, ValueError, r"lam must be finite and > 0, got lam=-1.0"),
    (TERMS, (0.0, 0.0, 1.0, 1.0), {}, ValueError, r"time must be finite and > 0, got time=0.0"),
])
def test_bad_input_names_the_parameter_and_value(name, args, kwargs, error, match):
    with pytest.raises(error, match=match):
        getattr(dplab.mechanisms, name)(*args, **kwargs)
