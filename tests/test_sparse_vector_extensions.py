"""Issue 27's additions to dplab.sparse_vector: monotone and nested neighbours, the loss limits,
Dwork & Roth's accuracy theorem, Lyu et al.'s threshold share, adaptive streams and the proof's
last integration; each against an independent computation (a grid of neighbours, the counts of a
small data set, scipy's quad and minimize_scalar, closed forms from the papers, simulation)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import integrate, optimize, stats

import dplab
from dplab.sparse_vector import (
    above_threshold,
    above_threshold_accuracy,
    above_threshold_failure_probability,
    above_threshold_proof_integrated,
    adaptive_answers,
    comparison_std,
    exact_privacy_loss,
    loss_limit,
    optimal_threshold_share,
    output_log_probability,
    sparse_vector_adaptive,
)


@pytest.mark.parametrize("variant, c, output", [
    ("above_threshold", 1, None), ("lyu_alg1", 2, [True, False, True]), ("lee_clifton", 1, None),
    ("no_halting", 1, [False, True, False]),
])
@pytest.mark.catches("sparse_vector.monotone_as_general")
def test_monotone_neighbours_against_a_grid(variant, c, output):
    """catches: monotone neighbours taken as general ones (bottoms and top moving opposite ways)"""
    f, threshold, eps = np.array([0.2, -0.4, 0.7]), 0.1, 0.9
    p = output_log_probability(variant, f, threshold, eps, output, c=c)
    searched = max(abs(p - output_log_probability(variant, f + sign * np.array(s), threshold, eps, output,
                                                  c=c))
                   for s in itertools.product((0, 0.5, 1), repeat=3) for sign in (1, -1))
    got = exact_privacy_loss(variant, f, threshold, eps, output=output, c=c, neighbours="monotone")
    assert got == pytest.approx(searched, rel=1e-9)
    assert got <= exact_privacy_loss(variant, f, threshold, eps, output=output, c=c) + 1e-12


def test_nested_neighbours_are_a_record_added_to_counts():
    """The stream "# rows >= h" for decreasing h on a small data set; a neighbour adds or removes one
    row anywhere (its counts recomputed from the data): no such neighbour beats the nested loss."""
    rows = np.array([1.62, 1.70, 1.70, 1.75, 1.81, 1.86])
    heights = np.array([1.90, 1.84, 1.78, 1.72, 1.66])
    counts = lambda data: np.array([np.sum(data >= h) for h in heights], dtype=float)  # noqa: E731
    eps, threshold = 1.0, 3.0
    neighbours = [np.append(rows, x) for x in np.linspace(1.5, 2.0, 26)] + \
        [np.delete(rows, i) for i in range(rows.size)]
    for k in range(1, heights.size + 1):
        output = np.r_[np.zeros(k - 1, dtype=bool), True]
        p = output_log_probability("above_threshold", counts(rows)[:k], threshold, eps, output)
        searched = max(abs(p - output_log_probability("above_threshold", counts(n)[:k], threshold, eps,
                                                      output))
                       for n in neighbours)
        nested = exact_privacy_loss("above_threshold", counts(rows)[:k], threshold, eps, neighbours="nested")
        assert searched <= nested + 1e-12 <= eps / 2 + 1e-9


def test_loss_limits_are_the_papers_closed_forms():
    """Lyu, Su & Li 2017: eps for their Algorithms 1 and 2, (1 + 6c)/4 eps for Lee-Clifton's, c + 1/2
    eps for no halting (c tops), and for monotone neighbours eps1 + eps2/2 (Algorithm 1)."""
    eps = 0.8
    assert loss_limit("above_threshold", eps) == pytest.approx(eps, rel=1e-4)
    for c in (1, 2, 5):
        for variant in ("lyu_alg1", "dwork_roth"):
            assert loss_limit(variant, eps, c=c) == pytest.approx(eps, rel=1e-4)
        assert loss_limit("lee_clifton", eps, c=c) == pytest.approx((1 + 6 * c) / 4 * eps, rel=1e-4)
        assert loss_limit("no_halting", eps, c=c) == pytest.approx((c + 0.5) * eps, rel=1e-4)
    for share in (0.3, 0.5):
        assert loss_limit("lyu_alg1", eps, c=3, neighbours="monotone", threshold_share=share) == \
            pytest.approx(share * eps + (1 - share) * eps / 2, rel=1e-4)
    assert loss_limit("above_threshold", eps, neighbours="nested") == pytest.approx(eps / 2, rel=1e-4)


@pytest.mark.catches("sparse_vector.accuracy_constant_2", "sparse_vector.accuracy_constant_4")
def test_accuracy_theorem_and_the_exact_failure_probability():
    """catches: Dwork & Roth's alpha with 2 for 8 (the exact failure probability then exceeds beta), or
    with 4 for 8 (the theorem's formula, typed here independently).

    Independent: the failure probability by scipy's quad (1 - Pr[halt at k] on the stream k - 1 answers
    at T - alpha, then T + alpha) and by simulation at the exact alpha."""
    for k, beta, eps in ((5, 0.1, 1.0), (50, 0.05, 0.5), (400, 0.01, 2.0)):
        alpha = above_threshold_accuracy(k, beta, eps)
        assert alpha == pytest.approx(8 * (math.log(k) + math.log(2 / beta)) / eps)
        assert above_threshold_failure_probability(k, alpha, eps) <= beta
    k, alpha, eps = 4, 3.0, 1.0

    def integrand(t):
        return (stats.laplace.pdf(t, scale=2 / eps) * stats.laplace.cdf(t + alpha, scale=4 / eps) ** (k - 1)
                * stats.laplace.sf(t - alpha, scale=4 / eps))
    quad = 1 - integrate.quad(integrand, -np.inf, np.inf, epsabs=0, epsrel=1e-12, limit=400)[0]
    assert above_threshold_failure_probability(k, alpha, eps) == pytest.approx(quad, rel=1e-8)
    exact = above_threshold_accuracy(20, 0.1, 1.0, exact=True)
    assert above_threshold_failure_probability(20, exact, 1.0) == pytest.approx(0.1, rel=1e-6)
    stream = np.r_[np.full(19, -exact), exact]
    first = above_threshold(stream, 0.0, 1.0, size=200_000, rng=11)
    assert dplab.proportion_ci(int(np.sum(first != 19)), first.size, 0.999).contains(0.1)


@pytest.mark.catches("sparse_vector.share_exponent")
def test_optimal_threshold_share_minimises_the_comparison_variance():
    """catches: Lyu et al.'s allocation with exponent 1/2 for 2/3 (scipy's minimize_scalar finds the
    share that minimises comparison_std)"""
    for c in (1, 2, 5):
        best = optimize.minimize_scalar(lambda s, c=c: comparison_std("lyu_alg1", 1.0, c=c,
                                                                      threshold_share=s),
                                        bounds=(0.01, 0.99), method="bounded", options={"xatol": 1e-10})
        assert optimal_threshold_share(c) == pytest.approx(best.x, abs=1e-6)
    assert comparison_std("above_threshold", 1.0) == pytest.approx(math.sqrt(2 * 2**2 + 2 * 4**2))


def _bands(history):
    """An analyst whose next query depends on its earlier tops: counts in a band that starts at the
    last top's position (a made-up stream of per-position counts)."""
    per_position = np.array([0.0, 1.0, 2.0, 1.0, 3.0, 0.0, 2.0, 2.0])
    i = len(history)
    if i >= per_position.size:
        return None
    start = max([j for j, top in enumerate(history) if top], default=-1) + 1
    return float(per_position[start:i + 1].sum())


@pytest.mark.statistical
@pytest.mark.catches("sparse_vector.adaptive_stale_history")
def test_adaptive_stream_frequencies_match_the_fixed_stream_of_each_output():
    """catches: the analyst shown the outputs up to the query before last (a stale history)"""
    eps, threshold, runs = 1.0, 2.5, 100_000
    result = sparse_vector_adaptive(_bands, threshold, eps, c=2, max_queries=8, size=runs, rng=5)
    patterns = [tuple(row[answered]) for row, answered in zip(result.above, result.answered, strict=True)]
    seen = {p: patterns.count(p) for p in set(patterns)}
    for pattern, count in sorted(seen.items(), key=lambda kv: -kv[1])[:6]:
        answers = adaptive_answers(_bands, pattern)
        row = patterns.index(pattern)
        np.testing.assert_array_equal(result.answers[row, :len(pattern)], answers)
        p = math.exp(output_log_probability("lyu_alg1", answers, threshold, eps, list(pattern), c=2))
        assert dplab.proportion_ci(count, runs, 0.9995).contains(p), pattern
    assert sum(seen.values()) == runs


@pytest.mark.catches("sparse_vector.g_density_one_term")
def test_the_proofs_last_integration_is_the_output_probability():
    """catches: the density of g = max f_i + nu_i taken without the other queries' CDF division (one
    term of the product rule). Independent: the output probability as an integral over the noisy
    threshold (output_log_probability, checked against quad elsewhere) and a Monte Carlo over nu_<k."""
    f, threshold, eps = np.array([0.3, -0.6, 0.9, 0.5]), 0.2, 0.8
    r = above_threshold_proof_integrated(f, threshold, eps)
    assert r["p"] == pytest.approx(r["p_direct"], rel=1e-8)
    assert r["p_prime"] == pytest.approx(r["p_prime_direct"], rel=1e-8)
    assert r["pointwise"] <= 1 + 1e-9 and r["ratio"] <= math.exp(eps) * (1 + 1e-9)
    rng = np.random.default_rng(8)
    g = np.max(f[:-1] + rng.laplace(0, 4 / eps, size=(400_000, 3)), axis=1)
    # Pr[That in (g, f_k + nu_k]] given g, by the proof's conditional probability on a few quantiles
    qs = np.quantile(g, np.linspace(0.0005, 0.9995, 1000))
    mc = np.mean([dplab.sparse_vector.above_threshold_conditional_probability(x, f[-1], threshold, eps)
                  for x in qs])
    assert mc == pytest.approx(r["p"], rel=2e-3)


@pytest.mark.parametrize("call, message", [
    (lambda: exact_privacy_loss("above_threshold", [0.0], 0.0, 1.0, neighbours="close"),
     "neighbours must be"),
    (lambda: exact_privacy_loss("noisy_value", [0.0], 0.0, 1.0, neighbours="monotone"),
     "neighbours='monotone' needs a variant without released values"),
    (lambda: above_threshold_accuracy(10, 1.0, 1.0), r"beta must be in \(0, 1\), got beta=1.0"),
    (lambda: above_threshold_failure_probability(10, -1.0, 1.0), "alpha must be finite and >= 0"),
    (lambda: sparse_vector_adaptive(_bands, 0.0, 1.0, c=2, max_queries=3, variant="dwork_roth"),
     "variant must halt after c tops with one noisy threshold"),
    (lambda: adaptive_answers(_bands, [False] * 9), "output must stop where the analyst stops"),
    (lambda: loss_limit("noisy_value", 1.0), "variant must be one of"),
    (lambda: above_threshold_proof_integrated([0.0], 0.0, 1.0), "at least one bottom and the top"),
])
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()
