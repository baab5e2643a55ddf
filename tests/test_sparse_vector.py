"""AboveThreshold and the sparse vector variants: sampling, exact output probabilities and
privacy losses, checked against scipy's quad, simulation and a search over neighbours."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import integrate, stats

import dplab
from dplab.sparse_vector import (
    above_threshold,
    above_threshold_conditional_probability,
    above_threshold_proof,
    exact_privacy_loss,
    halting_privacy_losses,
    output_log_probability,
    sparse_vector,
    variant_noise,
)


def _quad_log_probability(f, threshold, b_rho, b_nu, output):
    """Pr[output] by scipy's adaptive quad, straight from the definition."""
    def integrand(t):
        p = stats.laplace.pdf(t, scale=b_rho)
        for x, top in zip(f, output, strict=False):
            p *= stats.laplace.sf(threshold + t - x, scale=b_nu) if top else \
                stats.laplace.cdf(threshold + t - x, scale=b_nu)
        return p
    return math.log(integrate.quad(integrand, -np.inf, np.inf, epsabs=0, epsrel=1e-12, limit=500)[0])


@pytest.mark.parametrize("variant, c, output", [
    ("above_threshold", 1, [False, False, True]),
    ("lyu_alg1", 2, [True, False, True]),
    ("lee_clifton", 2, [False, True, True]),
    ("no_halting", 1, [True, False, False]),
])
def test_output_probability_against_quad(variant, c, output):
    f, threshold, eps = np.array([0.3, -0.5, 1.2]), 0.4, 0.8
    scales = variant_noise(variant, eps, c=c)
    expected = _quad_log_probability(f, threshold, scales["threshold"], scales["query"], output)
    got = output_log_probability(variant, f, threshold, eps, output, c=c)
    assert got == pytest.approx(expected, rel=1e-9)


def test_above_threshold_sampling_matches_the_exact_probabilities():
    f, threshold, eps, runs = np.array([-1.0, 0.5, 0.0, 2.0]), 1.0, 1.0, 200_000
    first = above_threshold(f, threshold, eps, size=runs, rng=3)
    assert first.shape == (runs,) and isinstance(above_threshold(f, threshold, eps, rng=1), int)
    for position in range(4):  # halting at each query, and never
        output = np.zeros(position + 1, dtype=bool)
        output[-1] = True
        p = math.exp(output_log_probability("above_threshold", f, threshold, eps, output))
        assert dplab.proportion_ci(np.sum(first == position), runs, 0.999).contains(p), position
    none = math.exp(output_log_probability("above_threshold", f, threshold, eps, np.zeros(4, bool)))
    assert dplab.proportion_ci(np.sum(first == -1), runs, 0.999).contains(none)


@pytest.mark.parametrize("variant", ["lyu_alg1", "dwork_roth", "lee_clifton"])
def test_sparse_vector_patterns_match_the_exact_probabilities(variant):
    f, threshold, eps, c, runs = np.array([0.0, 1.5, -0.5]), 0.5, 1.5, 2, 200_000
    result = sparse_vector(f, threshold, eps, c=c, variant=variant, size=runs, rng=4)
    for pattern in ([True, True], [False, True, True], [False, False, False], [True, False, False]):
        n = len(pattern)  # the run answered exactly the first n queries, with these outputs
        hits = np.all(result.above[:, :n] == pattern, axis=1) & result.answered[:, n - 1]
        if n < f.size:
            hits &= ~result.answered[:, n]  # halted after the c-th top
        p = math.exp(output_log_probability(variant, f, threshold, eps, pattern, c=c))
        assert dplab.proportion_ci(int(hits.sum()), runs, 0.999).contains(p), pattern


def test_noisy_value_releases_values_only_at_tops():
    result = sparse_vector([5.0, -5.0, 5.0], 0.0, 1.0, c=2, variant="noisy_value", size=50, rng=1)
    assert np.all(np.isnan(result.values) == ~result.above)
    assert sparse_vector([1.0], 0.0, 1.0, c=1, variant="lyu_alg1").values is None


@pytest.mark.parametrize("variant, c, output", [
    ("above_threshold", 1, None), ("lyu_alg1", 2, [True, False, True]), ("lee_clifton", 1, None),
    ("dwork_roth", 2, [False, True, True]), ("no_halting", 1, [True, False, True]),
])
def test_worst_neighbour_is_a_corner(variant, c, output):
    """Search neighbours whose answers each move by -1, -1/2, 0, 1/2 or 1: none beats the corners."""
    f, threshold, eps = np.array([0.2, -0.4, 0.7]), 0.1, 0.9
    p = output_log_probability(variant, f, threshold, eps, output, c=c)
    shifts = itertools.product((-1, -0.5, 0, 0.5, 1), repeat=3)
    searched = max(abs(p - output_log_probability(variant, f + np.array(s), threshold, eps,
                                                        output, c=c)) for s in shifts)
    assert exact_privacy_loss(variant, f, threshold, eps, output=output, c=c) == \
        pytest.approx(searched, rel=1e-9)


def test_noisy_value_worst_neighbour_at_a_given_value():
    f, threshold, eps = np.array([0.2, -0.4, 0.7]), 0.1, 0.9
    for value in (0.0, 1.5, 3.0):
        p = output_log_probability("noisy_value", f, threshold, eps, value=value)
        searched = max(abs(p - output_log_probability("noisy_value", f + np.array(s), threshold, eps,
                                                            value=value))
                       for s in itertools.product((-1, -0.5, 0, 0.5, 1), repeat=3))
        assert exact_privacy_loss("noisy_value", f, threshold, eps, value=value) == \
            pytest.approx(searched, rel=1e-9)


def test_losses_of_the_correct_and_broken_variants():
    eps = 1.0
    losses = [exact_privacy_loss("above_threshold", np.zeros(k), 0.0, eps) for k in (1, 3, 10, 40)]
    assert all(x <= eps + 1e-9 for x in losses) and losses == sorted(losses) and losses[-1] > 0.999
    # Lee-Clifton at eps = 0.7, T = 0, six zeros, halting at the 6th: 1.2173 (issue 9's reference)
    assert exact_privacy_loss("lee_clifton", np.zeros(6), 0.0, 0.7) == pytest.approx(1.2173, abs=1e-4)
    for c in (1, 2):  # levels off at (1 + 6c)/4 eps
        o = np.zeros(40, dtype=bool)
        o[-c:] = True
        loss = exact_privacy_loss("lee_clifton", np.zeros(40), 0.0, eps, output=o, c=c)
        assert loss == pytest.approx((1 + 6 * c) / 4 * eps, rel=1e-6)
    assert exact_privacy_loss("noisy_value", np.zeros(2), 0.0, eps) == pytest.approx(eps, rel=1e-6)
    no_halting = exact_privacy_loss("no_halting", np.zeros(30), 0.0, eps)
    assert no_halting == pytest.approx(1.5 * eps, rel=1e-6)
    assert exact_privacy_loss("no_query_noise", np.zeros(3), 0.0, eps) == math.inf


@pytest.mark.parametrize("call, error, message", [
    (lambda: above_threshold([], 0.0, 1.0), ValueError, "answers must be a non-empty"),
    (lambda: above_threshold([1.0, np.nan], 0.0, 1.0), ValueError, "answers must be finite"),
    (lambda: above_threshold([1.0], 0.0, 0.0), ValueError, "epsilon must be finite and > 0"),
    (lambda: sparse_vector([1.0], 0.0, 1.0, c=0), ValueError, "c must be a positive integer, got c=0"),
    (lambda: sparse_vector([1.0], 0.0, 1.0, c=1, threshold_share=1.0), ValueError,
     r"threshold_share must be in \(0, 1\), got threshold_share=1.0"),
    (lambda: sparse_vector([1.0], 0.0, 1.0, c=1, variant="svt"), ValueError,
     "variant must be one of .*above_threshold"),
    (lambda: exact_privacy_loss("above_threshold", [1.0, 2.0], 0.0, 1.0, c=2), ValueError,
     "c must be 1"),
    (lambda: exact_privacy_loss("lyu_alg1", [1.0, 2.0], 0.0, 1.0, output=[True, True]), ValueError,
     "output must end at the c-th top"),
])
def test_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("eps", [0.2, 0.7, 2.0])
def test_every_line_of_the_proof_on_a_grid_of_neighbours(eps):
    grid = np.linspace(-1.0, 1.0, 5)  # g(D) - g(D') and f_k(D) - f_k(D') in [-Delta, Delta]
    for dg in grid:
        for df in grid:
            r = above_threshold_proof(0.3, 0.3 - dg, 0.8, 0.8 - df, 0.1, eps)
            assert r["changed"] == pytest.approx(r["p"], rel=1e-9)  # the change of variables
            assert r["v_shift"] <= 2 + 1e-12 and r["t_shift"] <= 1 + 1e-12
            assert r["nu_ratio"] <= math.exp(eps / 2) * (1 + 1e-12)
            assert r["threshold_ratio"] <= math.exp(eps / 2) * (1 + 1e-12)
            assert r["p"] <= r["bound"] * (1 + 1e-9)  # the two density ratios, integrated
            assert r["bound"] <= math.exp(eps) * r["p_prime"] * (1 + 1e-12)  # equal at the largest shifts
            assert r["bottom"] <= math.exp(eps / 2) * r["bottom_prime"] * (1 + 1e-12)


@pytest.mark.slow
def test_conditional_probability_is_the_double_integral():
    g, f_k, threshold, eps = 0.4, 1.1, -0.2, 0.9
    b_rho, b_nu = 2 / eps, 4 / eps
    expected = integrate.dblquad(
        lambda v, t: stats.laplace.pdf(v, scale=b_nu) * stats.laplace.pdf(t, loc=threshold, scale=b_rho),
        g, np.inf, lambda t: t - f_k, np.inf, epsabs=1e-13, epsrel=1e-9)[0]  # t > g, v >= t - f_k
    got = above_threshold_conditional_probability(g, f_k, threshold, eps)
    assert got == pytest.approx(expected, rel=1e-7)


def test_integrating_over_the_fixed_noise_gives_the_output_probability():
    """The proof's last step: averaging over nu_1..nu_(k-1) (through g = max f_i + nu_i, whose CDF is
    the product of the nu CDFs) gives the exact Pr[A = a]."""
    f, threshold, eps = np.array([0.3, -0.6, 0.9]), 0.2, 0.8
    b_nu = 4 / eps

    def density_of_g(x):
        a, b = x - f[0], x - f[1]
        return (stats.laplace.pdf(a, scale=b_nu) * stats.laplace.cdf(b, scale=b_nu)
                + stats.laplace.cdf(a, scale=b_nu) * stats.laplace.pdf(b, scale=b_nu))

    total = integrate.quad(lambda x: density_of_g(x) * above_threshold_conditional_probability(
        x, f[2], threshold, eps), -np.inf, np.inf, epsabs=0, epsrel=1e-10, limit=200)[0]
    exact = math.exp(output_log_probability("above_threshold", f, threshold, eps))
    assert total == pytest.approx(exact, rel=1e-7)
    with pytest.raises(ValueError, match="neighbours move g and f_k by at most"):
        above_threshold_proof(0.0, 2.0, 0.0, 0.0, 0.0, 1.0)


@pytest.mark.parametrize("variant", ["above_threshold", "lyu_alg1", "lee_clifton", "dwork_roth"])
@pytest.mark.parametrize("f", [np.array([0.5, -1.0, 2.0, 0.0, 1.5, -0.5]), np.full(6, 0.7),
                               np.array([-200.0, -200.0, 150.0, 0.0, -200.0, 0.5])],
                         ids=["distinct answers", "constant stream", "far answers"])
# the two code paths of the prefix sums, and outputs so unlikely that the integration range widens
def test_every_output_at_once_matches_one_at_a_time(variant, f):
    together = halting_privacy_losses(variant, f, 0.3, 0.8)
    for k in range(1, 7):
        output = np.r_[np.zeros(k - 1, dtype=bool), True]
        assert together[k - 1] == pytest.approx(
            exact_privacy_loss(variant, f, 0.3, 0.8, output=output), rel=1e-9, abs=1e-12)
    assert together[-1] == pytest.approx(
        exact_privacy_loss(variant, f, 0.3, 0.8, output=np.zeros(6, dtype=bool)), rel=1e-9, abs=1e-12)


def test_above_threshold_stays_within_epsilon_on_long_streams():
    for k in (10, 300, 1000):
        losses = halting_privacy_losses("above_threshold", np.zeros(k), 0.0, 1.0)
        assert losses.max() <= 1.0 + 1e-12  # floating rounding of log-probabilities near 1
    with pytest.raises(ValueError, match="covers the variants that output tops and bottoms"):
        halting_privacy_losses("noisy_value", np.zeros(3), 0.0, 1.0)
    no_halting = halting_privacy_losses("no_halting", np.zeros(5), 0.0, 1.0)
    assert no_halting[3] == pytest.approx(exact_privacy_loss("no_halting", np.zeros(4), 0.0, 1.0))
