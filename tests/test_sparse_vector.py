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
    PROOF_BASES,
    above_threshold,
    above_threshold_conditional_probability,
    above_threshold_proof,
    above_threshold_proof_grid,
    exact_privacy_loss,
    halting_loss_curves,
    halting_privacy_losses,
    halting_probabilities,
    naive_above_threshold_epsilon,
    output_log_probability,
    output_sampler,
    pair_privacy_loss,
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


@pytest.mark.catches("sparse_vector.fresh_threshold")
def test_above_threshold_sampling_matches_the_exact_probabilities():
    """catches: a sampler that draws a fresh noisy threshold for every query (the exact probabilities
    couple every comparison through one threshold)"""
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


@pytest.mark.catches("sparse_vector.noise_ignores_sensitivity")
def test_the_noise_scales_with_the_sensitivity():
    """catches: sparse_vector.noise_ignores_sensitivity (noise for Delta = 1 whatever Delta): answers and
    threshold 0, neighbours moving by Delta = 2 see the same loss as Delta = 1 only if the noise doubles"""
    for k in (1, 5):
        at_1 = exact_privacy_loss("above_threshold", np.zeros(k), 0.0, 0.8)
        assert exact_privacy_loss("above_threshold", np.zeros(k), 0.0, 0.8, sensitivity=2.0) == \
            pytest.approx(at_1, rel=1e-9)


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
@pytest.mark.catches("sparse_vector.prefix_off_by_one")
def test_every_output_at_once_matches_one_at_a_time(variant, f):
    """catches: the prefix sums of a constant stream off by one (one bottom too few before the top)"""
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


def test_naive_epsilon_is_k_times_the_loss_of_one_comparison():
    """catches: the naive bound charged at the threshold noise's scale (k eps/2) rather than the
    query noise's Lap(4/eps), or without the factor k"""
    for eps in (0.5, 1.0, 3.0):
        # one comparison f + Lap(4/eps) >= t given t, on neighbours f = 0 and f' = 1: the largest
        # |ln| ratio of its two outputs over t, from scipy's Laplace
        t = np.linspace(-30.0, 30.0, 6001)
        top = np.abs(stats.laplace.logsf(t, scale=4 / eps) - stats.laplace.logsf(t - 1, scale=4 / eps))
        bottom = np.abs(stats.laplace.logcdf(t, scale=4 / eps) - stats.laplace.logcdf(t - 1, scale=4 / eps))
        one = max(top.max(), bottom.max())
        for k in (1, 3, 40):
            assert naive_above_threshold_epsilon(k, eps) == pytest.approx(k * one, rel=1e-9)


def test_halting_probabilities_sum_to_one_and_match_quad():
    """catches: an off-by-one output (halting at query i + 1 reported for i) or a missing 'never halts'
    entry: the probabilities of all outputs must sum to 1, each equal to scipy's quad"""
    f, threshold, eps = np.array([0.3, -0.5, 1.2, 0.0]), 0.4, 0.8
    probs = halting_probabilities("above_threshold", f, threshold, eps)
    assert probs.shape == (5,) and probs.sum() == pytest.approx(1.0, rel=1e-9)
    scales = variant_noise("above_threshold", eps)
    for i in range(4):
        output = [False] * i + [True]
        assert math.log(probs[i]) == pytest.approx(
            _quad_log_probability(f, threshold, scales["threshold"], scales["query"], output), rel=1e-9)
    assert halting_probabilities("lyu_alg1", f, threshold, eps).sum() == pytest.approx(1.0, rel=1e-9)


def test_halting_loss_curves_are_each_halting_output_on_zeros():
    """catches: the all-bottom entry of halting_privacy_losses kept (a curve one longer whose last
    point is the never-halting loss) or a stream other than zeros with T = 0"""
    curves = halting_loss_curves(("above_threshold", "lee_clifton"), 1.0, 7)
    for variant, curve in curves.items():
        assert curve.shape == (7,)
        for k in (1, 4, 7):
            assert curve[k - 1] == pytest.approx(exact_privacy_loss(variant, np.zeros(k), 0.0, 1.0), rel=1e-9)
    long = halting_loss_curves(("lee_clifton",), 1.0, 1000)["lee_clifton"]
    assert long[-1] == pytest.approx((1 + 6) / 4, rel=1e-6)  # Lyu et al.: levels off at (1 + 6c)/4 eps


def test_proof_grid_reaches_the_proofs_bounds_at_the_corners():
    """catches: a grid that moves the neighbours one way only (np.linspace(0, 1)), which never reaches
    the shifts |v_hat - v| = 2 and |t_hat - t| = 1 where the density ratios equal e^(eps/2)"""
    for eps in (0.4, 1.5):
        worst = above_threshold_proof_grid(eps)
        assert worst["nu ratio / e^(eps/2)"] == pytest.approx(1.0, rel=1e-9)
        assert worst["threshold ratio / e^(eps/2)"] == pytest.approx(1.0, rel=1e-9)
        assert worst["|changed - p| / p"] < 1e-9 and worst["p / bound"] <= 1 + 1e-9
        # Pr[all bottom] = Pr[That > g] from scipy, over the same grid of g - g'
        bottom = max(stats.laplace.sf(g - t0, scale=2 / eps) / stats.laplace.sf(g - dg - t0, scale=2 / eps)
                     for (g, _, t0), dg in itertools.product(PROOF_BASES, np.linspace(-1, 1, 5)))
        assert worst["bottom / (e^(eps/2) bottom')"] == pytest.approx(bottom / math.exp(eps / 2), rel=1e-9)


def test_output_sampler_reports_no_top_as_minus_one():
    """catches: the first top taken as argmax alone, so a run without a top counts as halting at
    query 1 (checked against the exact probabilities of halting first and of never halting)"""
    f, runs = np.array([-3.0, -2.0, -3.0]), 100_000
    for variant in ("above_threshold", "lyu_alg1", "lee_clifton"):
        first = output_sampler(variant, 1.0)(f, runs, np.random.default_rng(5))
        probs = halting_probabilities(variant, f, 0.0, 1.0)
        for event, p in ((0, probs[0]), (-1, probs[-1])):
            assert dplab.proportion_ci(int(np.sum(first == event)), runs, 0.999).contains(p), (variant, event)
    rows = output_sampler("no_halting", 1.0)(f, 10, np.random.default_rng(5))
    assert rows.shape == (10, 3) and rows.dtype == bool


def test_pair_privacy_loss_against_quad():
    """catches: the never-halting output left out of the largest |log ratio| (on this pair it is the
    largest), each output's probability from scipy's quad"""
    d, d_prime, eps = np.zeros(3), np.ones(3), 0.7
    scales = variant_noise("above_threshold", eps)
    outputs = [[False] * i + [True] for i in range(3)] + [[False] * 3]
    expected = max(abs(_quad_log_probability(d, 0.0, scales["threshold"], scales["query"], o)
                       - _quad_log_probability(d_prime, 0.0, scales["threshold"], scales["query"], o))
                   for o in outputs)
    assert pair_privacy_loss("above_threshold", d, d_prime, 0.0, eps) == pytest.approx(expected, rel=1e-8)
    assert pair_privacy_loss("above_threshold", d, d_prime, 0.0, eps) <= \
        exact_privacy_loss("above_threshold", d, 0.0, eps, output=np.zeros(3, dtype=bool)) + 1e-12
    with pytest.raises(ValueError, match="halting variant"):
        pair_privacy_loss("no_halting", d, d_prime, 0.0, eps)


@pytest.mark.catches("sparse_vector.worst_case_top_at_one_corner")
def test_the_worst_case_over_streams_is_at_a_corner_and_meets_the_naive_and_the_theorem_bounds():
    """catches: a worst case that keeps the bottoms and the top at one answer (the stream of zeros: far
    below k eps/4), that forgets a corner, or whose shifts move the answers the wrong way.

    Independent: halting_privacy_losses on every one of the 2^k corner streams (k <= 6) and on a full
    grid of answers in [-M, M] (k <= 3); then the bounds min(k eps/4, eps) (naive composition and the
    theorem) from above, met at k = 1, 2, 3 and from k = 5 on."""
    from dplab.sparse_vector import halting_worst_case_losses

    eps, reach = 1.0, 15.0
    m = reach * (4 / eps + 2 / eps)  # AboveThreshold: Lap(4/eps) on the queries, Lap(2/eps) on T
    worst = halting_worst_case_losses("above_threshold", eps, 6, reach=reach)
    for k in range(1, 7):
        corners = max(halting_privacy_losses("above_threshold", np.array(c), 0.0, eps)[k - 1]
                      for c in itertools.product((-m, m), repeat=k))
        assert worst[k - 1] == pytest.approx(corners, rel=1e-9), k
    grid = np.linspace(-m, m, 13)
    for k in (1, 2, 3):
        on_grid = max(halting_privacy_losses("above_threshold", np.array(c), 0.0, eps)[k - 1]
                      for c in itertools.product(grid, repeat=k))
        assert on_grid <= worst[k - 1] + 1e-9, k
    bound = np.minimum(np.arange(1, 7) * eps / 4, eps)
    assert np.all(worst <= bound + 1e-9)
    assert np.allclose(worst[[0, 1, 2, 4, 5]], bound[[0, 1, 2, 4, 5]], atol=1e-6) and worst[3] > 0.98
    zeros = halting_privacy_losses("above_threshold", np.zeros(6), 0.0, eps)[:-1]
    assert np.all(zeros < worst - 0.05)  # the one-stream curve the lesson drew is far from the worst
    with pytest.raises(ValueError, match="variant='noisy_value'"):
        halting_worst_case_losses("noisy_value", eps, 3)


def test_the_corner_streams_approach_the_supremum_from_below_as_they_move_away_from_t():
    """Independent: halting_worst_case_losses (exact integrals over corner streams) at growing M. At
    k = 4 the loss rises towards eps, its gap shrinking like 1/M (x4 reach, gap / 4), never above it;
    elsewhere the corners already meet min(k eps/4, eps) at M = 15 noise scales."""
    from dplab.sparse_vector import above_threshold_worst_case_supremum, halting_worst_case_losses

    for eps in (0.5, 1.0, 2.0):
        sup = np.array([above_threshold_worst_case_supremum(k, eps) for k in range(1, 9)])
        by_reach = np.array([halting_worst_case_losses("above_threshold", eps, 8, reach=r)
                             for r in (15, 60, 240, 640)])
        assert np.all(by_reach <= sup + 1e-9)
        assert np.allclose(by_reach[:, [0, 1, 2, 4, 5, 6, 7]], sup[[0, 1, 2, 4, 5, 6, 7]], rtol=1e-6)
        gaps = sup[3] - by_reach[:, 3]
        assert np.all(np.diff(gaps) < 0) and 3.5 < gaps[1] / gaps[2] < 4.5 and gaps[-1] < 5e-4 * eps, gaps
    with pytest.raises(ValueError, match="k_queries"):
        above_threshold_worst_case_supremum(0, 1.0)
