"""Counting queries, the net and the net mechanism (seed 004): sizes, scores, bounds, sampling."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

import dplab
from dplab.mechanisms import exponential_probabilities
from dplab.net_mechanism import (
    all_predicates,
    counting_queries_l1_sensitivity,
    counting_query_answers,
    counting_query_sensitivity,
    lemma12_failure_bound,
    net_alpha,
    net_covering_radius,
    net_error_bound,
    net_histograms,
    net_mechanism_alpha,
    net_sample_size,
    net_scores,
    net_size,
    net_size_bound,
    noisy_histogram_max_error_bound,
    noisy_histogram_max_error_cdf,
    random_predicates,
    subsample_max_errors,
    subsample_query_failure_probability,
    yrbss_universe_histogram,
)


def test_net_sizes_are_the_multiset_counts_of_the_issue():
    assert net_size(8, 20) == 888_030
    assert net_size(8, 13) == 77_520
    assert net_size(8, 23) == 2_035_800
    assert net_size(1, 7) == 1
    # Theorem 11: the multisets are at most the sequences, |X|^m
    for k, m in itertools.product((2, 3, 8), (1, 5, 20)):
        assert net_size(k, m) <= k**m


@pytest.mark.parametrize(("k", "m"), [(1, 4), (2, 5), (3, 4), (4, 6), (5, 3)])
def test_net_histograms_enumerate_every_database_of_size_m_once(k, m):
    net = net_histograms(k, m)
    assert net.dtype == np.int16 and net.shape == (net_size(k, m), k)
    # the independent enumeration: every multiset of m elements of X, as a histogram
    multisets = itertools.combinations_with_replacement(range(k), m)
    expected = {tuple(np.bincount(c, minlength=k)) for c in multisets}
    assert {tuple(int(v) for v in row) for row in net} == expected
    assert len(expected) == net.shape[0]


def test_a_net_too_large_is_refused_with_its_size():
    with pytest.raises(ValueError, match="N = 2,035,800"):
        net_histograms(8, 23, max_size=1_000_000)


def test_sample_sizes_of_the_two_rules():
    assert net_sample_size(256, 0.5) == 23  # ceil(ln 256 / 0.25) = ceil(22.18)
    assert net_sample_size(256, 0.5, rule="chernoff") == 13
    for c, alpha in itertools.product((3, 10, 256, 10**6), (0.05, 0.2, 0.5, 0.9)):
        m = net_sample_size(c, alpha, rule="chernoff")
        assert lemma12_failure_bound(c, m, alpha) < 1  # the proof works at m ...
        if m > 1:
            assert lemma12_failure_bound(c, m - 1, alpha) >= 1  # ... and not below it
        seed_m = net_sample_size(c, alpha)
        assert seed_m >= m and lemma12_failure_bound(c, seed_m, alpha) <= 2 / c + 1e-12
    assert net_alpha(256, 20) == pytest.approx(math.sqrt(math.log(256) / 20))
    assert round(net_alpha(256, 20), 3) == 0.527
    assert net_sample_size(256, net_alpha(256, 23) + 1e-12) == 23


def test_scores_over_every_predicate_are_minus_the_total_variation_distance():
    """Over every predicate on X, max_Q |Q(D) - Q(D')| is the largest mass one subset can gain:
    half the L1 distance between the two normalised histograms."""
    h = yrbss_universe_histogram(500, rng=4)
    net = net_histograms(8, 6)
    scores = net_scores(h, all_predicates(8), net)
    tv = 0.5 * np.abs(net / 6 - h / h.sum()).sum(axis=1)
    np.testing.assert_allclose(-scores, tv, atol=1e-6)  # float32


def test_scores_against_a_direct_loop_on_random_predicates():
    rng = np.random.default_rng(8)
    q = random_predicates(30, 5, rng=rng)
    h = rng.integers(0, 9, size=5)
    net = net_histograms(5, 4)
    scores = net_scores(h, q, net)
    for i in (0, 17, 69):
        direct = max(abs(q[j] @ h / h.sum() - q[j] @ net[i] / 4) for j in range(30))
        assert -scores[i] == pytest.approx(direct, abs=1e-6)


def test_joint_sensitivity_by_brute_force_over_replaced_rows():
    n, q = 50, all_predicates(8)
    assert counting_queries_l1_sensitivity(q, n) == pytest.approx(128 / n)
    rng = np.random.default_rng(1)
    q = random_predicates(40, 6, rng=rng)
    base = rng.multinomial(n, np.full(6, 1 / 6))
    worst = 0.0
    for x, y in itertools.permutations(range(6), 2):  # replace a row x by a row y
        if base[x] == 0:
            continue
        other = base.copy()
        other[x] -= 1
        other[y] += 1
        worst = max(worst, np.abs(counting_query_answers(q, base)
                                  - counting_query_answers(q, other)).sum())
    assert worst <= counting_queries_l1_sensitivity(q, n) + 1e-12
    assert counting_query_sensitivity(n) == 1 / n


def test_the_yrbss_universe_counts_every_student_once():
    full = yrbss_universe_histogram()
    assert full.sum() == 12_579 and full.size == 8
    table = dplab.load_yrbss()
    assert full[4:].sum() == np.sum(table["sex"] == "M")
    sample = yrbss_universe_histogram(1000, rng=3)
    assert sample.sum() == 1000 and np.all(sample <= full)


def test_lemma12_failure_rate_stays_below_its_union_bound():
    h, q = yrbss_universe_histogram(1000, rng=2), all_predicates(8)
    trials, m, alpha = 4000, 40, 0.2
    errors = subsample_max_errors(h, q, m, trials=trials, rng=5)
    fails = int(np.sum(errors > alpha))
    bound = lemma12_failure_bound(256, m, alpha)  # 2 * 256 * e^{-3.2} = 20.9: vacuous
    assert bound > 1
    # a sharper independent check: one fixed predicate's error is a binomial deviation
    p = q[77] @ h / h.sum()
    one = (stats.binom.sf(math.floor(m * (p + alpha)), m, p)
           + stats.binom.cdf(math.ceil(m * (p - alpha)) - 1, m, p))
    assert dplab.proportion_ci(fails, trials, 0.999).high >= one  # the max misses at least as often
    assert dplab.proportion_ci(fails, trials, 0.999).consistent_with_upper_bound(min(1.0, bound))


def test_per_query_failure_probability_of_a_subsample():
    h, q = yrbss_universe_histogram(1000, rng=2), all_predicates(8)
    m, alpha, trials = 30, 0.15, 20_000
    exact = subsample_query_failure_probability(h, q, m, alpha)
    assert np.all(exact <= 2 * math.exp(-2 * m * alpha**2) + 1e-12)  # Chernoff, per query
    sub = np.random.default_rng(3).multinomial(m, h / h.sum(), size=trials)
    for j in (1, 77, 200):  # simulated per-query failure rates against the binomial formula
        missed = np.abs(sub @ q[j] / m - q[j] @ h / h.sum()) > alpha
        assert dplab.proportion_ci(int(missed.sum()), trials, 0.999).contains(exact[j])
    assert exact[0] == 0.0 and exact[255] == 0.0  # the constant predicates never miss


def test_noisy_histogram_max_error_distribution_over_every_predicate():
    k, n, eps, trials = 8, 1000, 1.0, 40_000
    noise = dplab.laplace_mechanism(np.zeros(k), 2 / n, eps, size=trials, rng=9)
    worst = np.abs(noise @ all_predicates(k).T.astype(float)).max(axis=1)  # every predicate, directly
    for t in (0.005, 0.01, 0.02):
        inside = int(np.sum(worst <= t))
        exact = noisy_histogram_max_error_cdf(t, k, n, eps)
        assert dplab.proportion_ci(inside, trials, 0.999).contains(exact)
    gamma_bound = noisy_histogram_max_error_bound(k, n, eps, 0.05)
    assert noisy_histogram_max_error_cdf(gamma_bound, k, n, eps) >= 0.95  # ||Z||_1 bounds it


def test_noisy_histogram_bound_holds_in_simulation():
    k, n, eps, beta, trials = 8, 1000, 1.0, 0.1, 20_000
    bound = noisy_histogram_max_error_bound(k, n, eps, beta)
    noise = dplab.laplace_mechanism(np.zeros(k), 2 / n, eps, size=trials, rng=6)
    worst = np.maximum(np.clip(noise, 0, None).sum(axis=1), -np.clip(noise, None, 0).sum(axis=1))
    fails = int(np.sum(worst > bound))
    assert dplab.proportion_ci(fails, trials, 0.999).consistent_with_upper_bound(beta)


@pytest.mark.parametrize(("k", "m"),
                         [(2, 3), (3, 2), (4, 2), (4, 3), (5, 2), (8, 1), (8, 3), (6, 2), (4, 1)])
def test_covering_radius_is_the_worst_database_distance_to_the_net(k, m):
    """Brute force: every database D of size up to 2 k m (and at most 300,000 of each size)
    against every database of size m, over the class of every predicate (where max error is
    the total variation). m < |X|/2 included: there at most m cells can be rounded up."""
    net = net_histograms(k, m).astype(float) / m
    worst = 0.0
    for size in range(1, 2 * k * m + 1):
        if net_size(k, size) * net.shape[0] > 3_000_000:
            continue
        d = net_histograms(k, size).astype(float) / size
        distance = 0.5 * np.abs(d[:, None, :] - net[None, :, :]).sum(axis=2)  # (databases, net)
        worst = max(worst, distance.min(axis=1).max())
    assert worst == pytest.approx(net_covering_radius(k, m), abs=1e-12)


def test_histogram_bound_for_a_class_of_queries():
    k, n, eps, beta, trials = 64, 1000, 1.0, 0.05, 4000
    q = random_predicates(500, k, rng=1).astype(float)
    bound = noisy_histogram_max_error_bound(k, n, eps, beta, n_queries=500)
    noise = dplab.laplace_mechanism(np.zeros(k), 2 / n, eps, size=trials, rng=2)
    fails = int(np.sum(np.abs(noise @ q.T).max(axis=1) > bound))
    assert dplab.proportion_ci(fails, trials, 0.999).consistent_with_upper_bound(beta)
    # the Chernoff exponent is the minimum over u of -u s - k ln(1 - u^2): check on a grid
    b, t = 2 / (n * eps), bound
    u = np.linspace(1e-4, 1 - 1e-4, 200_001)
    log_tail = np.min(-u * t / b - k * np.log1p(-u**2))
    assert 2 * 500 * math.exp(log_tail) == pytest.approx(beta, rel=1e-4)


def test_bounds_in_closed_form():
    assert net_mechanism_alpha(888_030, 1 / 1000, 1.0, 0.05) == pytest.approx(
        0.002 * (math.log(888_030) + math.log(20)))
    assert net_error_bound(0.031, 888_030, 1 / 1000, 1.0, 0.05) == pytest.approx(
        0.031 + 0.002 * (math.log(888_030) + math.log(20)))
    assert net_size_bound(8, 256, 0.5) == pytest.approx(8 ** (math.log(256) / 0.25))
    assert net_size_bound(10**6, 10**6, 0.01) == math.inf


def test_net_mechanism_samples_the_exponential_distribution_over_the_net():
    h = np.array([3, 0, 5])
    q = all_predicates(3)
    net = net_histograms(3, 2)
    eps = 2.0
    scores = net_scores(h, q, net)
    p = exponential_probabilities(scores.astype(float), 1 / 8, eps)
    runs = 3000
    rng = np.random.default_rng(11)
    picked = [dplab.net_mechanism.net_mechanism(h, q, eps, m=2, rng=rng).histogram for _ in range(runs)]
    index = {tuple(row): i for i, row in enumerate(net.tolist())}
    counts = np.bincount([index[tuple(r.tolist())] for r in picked], minlength=net.shape[0])
    assert stats.chisquare(counts, runs * p).pvalue > 0.001


def test_net_mechanism_error_stays_within_the_non_vacuous_bound():
    h, q = yrbss_universe_histogram(400, rng=9), all_predicates(8)
    eps, beta, m, runs = 0.1, 0.1, 4, 300
    net = net_histograms(8, m)
    opt = float(-net_scores(h, q, net).max())
    bound = net_error_bound(opt, net.shape[0], 1 / 400, eps, beta)
    rng = np.random.default_rng(12)
    releases = [dplab.net_mechanism.net_mechanism(h, q, eps, m=m, rng=rng) for _ in range(runs)]
    assert all(r.m == m and r.net_size == 330 and r.histogram.sum() == m for r in releases)
    errors = np.array([r.max_error for r in releases])
    assert np.all(errors >= opt - 1e-6) and np.unique(errors).size > 3  # float32 scores
    fails = int(np.sum(errors > bound))
    assert dplab.proportion_ci(fails, runs, 0.999).consistent_with_upper_bound(beta)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: net_histograms(8, 0), "m must be a positive integer, got m=0"),
    (lambda: net_sample_size(256, 1.2), "alpha must be in \\(0, 1\\).*alpha=1.2"),
    (lambda: net_sample_size(256, 0), "alpha must be finite and > 0, got alpha=0"),
    (lambda: net_sample_size(2, 0.3), "n_queries >= 3, got n_queries=2"),
    (lambda: net_sample_size(20, 0.3, rule="exact"), "rule must be one of"),
    (lambda: net_scores([1, 2], np.zeros((0, 2)), [[1, 0]]), "queries must be a non-empty 2-d"),
    (lambda: net_scores([1, 2], [[0, 2]], [[1, 0]]), "only 0 and 1.*queries\\[0, 1\\]=2"),
    (lambda: net_scores([1, 2, 3], [[0, 1]], [[1, 0, 0]]), "one column per universe element \\(3\\)"),
    (lambda: net_scores([0, 0], [[0, 1]], [[1, 0]]), "at least one row"),
    (lambda: net_scores([1, -1], [[0, 1]], [[1, 0]]), "histogram\\[1\\]=-1"),
    (lambda: dplab.net_mechanism.net_mechanism([1, 2], [[0, 1]], 1.0), "exactly one of alpha and m"),
    (lambda: dplab.net_mechanism.net_mechanism([1, 2], [[0, 1]], 0.0, m=2), "epsilon=0"),
    (lambda: dplab.net_mechanism.net_mechanism([1, 2, 3, 4, 5, 6, 7, 8], all_predicates(8), 1.0, m=30,
                                 max_size=10**6), f"N = {math.comb(37, 30):,}"),
    (lambda: all_predicates(20), "universe_size=20"),
    (lambda: yrbss_universe_histogram(20_000), "n=20000"),
])
def test_bad_input_names_the_parameter(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_the_noisy_histogram_quantile_inverts_its_cdf():
    """catches: a quantile that solves the wrong CDF or stops short of it. On one cell the max error
    over the predicates ({} and {x}) is |Lap(b)|, whose q-quantile is -b ln(1 - q)."""
    b = 2.0 / (100 * 0.5)
    for q in (0.1, 0.5, 0.9):
        assert dplab.net_mechanism.noisy_histogram_max_error_quantile(q, 1, 100, 0.5) == pytest.approx(
            -b * math.log1p(-q), rel=1e-10)
    t = dplab.net_mechanism.noisy_histogram_max_error_quantile(0.5, 8, 1000, 1.0)
    assert dplab.net_mechanism.noisy_histogram_max_error_cdf(t, 8, 1000, 1.0) == pytest.approx(0.5, abs=1e-12)
    with pytest.raises(ValueError, match="q must be in"):
        dplab.net_mechanism.noisy_histogram_max_error_quantile(1.0, 8, 1000, 1.0)


# --- the scored net, the alternatives' simulations, the panel's and the scaling figure's helpers ------

def test_scored_net_error_law_against_a_brute_force_enumeration():
    """catches: the net mechanism's law computed with Delta = 1/m (the size of the released
    databases) instead of 1/n, equal errors left as separate levels, or a tail taken at the wrong
    side of a level.

    Brute force here: every multiset of m rows by itertools, its max error over every predicate in
    exact fractions, weights exp(-eps n err / 2) (score -err, Delta = 1/n), summed per error."""
    from fractions import Fraction

    from dplab.net_mechanism import score_net

    d, m, eps = np.array([2, 1, 1]), 3, 1.7
    n, q = int(d.sum()), all_predicates(3)
    errs = {}
    for rows in itertools.combinations_with_replacement(range(3), m):
        dp = np.bincount(rows, minlength=3)
        err = max(abs(Fraction(int(row @ d), n) - Fraction(int(row @ dp), m)) for row in q)
        errs[err] = errs.get(err, 0.0) + math.exp(-eps * n * float(err) / 2)
    levels = sorted(errs)
    total = sum(errs.values())
    cdf = np.cumsum([errs[e] / total for e in levels])
    state = score_net(d, q, m)
    x, p = state.error_distribution(eps)
    np.testing.assert_allclose(x, [float(e) for e in levels], rtol=0, atol=1e-12)
    np.testing.assert_allclose(p, cdf, rtol=1e-12)
    assert state.opt == float(levels[0]) and state.net.shape[0] == net_size(3, m)
    for i, e in enumerate(levels):
        assert state.error_tail(eps, float(e)) == pytest.approx(1 - cdf[i], abs=1e-12)
    assert state.error_tail(eps, float(levels[0]) / 2) == 1.0
    draws = state.errors[state.sample(eps, size=20_000, rng=3)]
    ci = dplab.proportion_ci(int(np.sum(draws == state.opt)), draws.size, 0.999)
    assert ci.contains(cdf[0])


def test_laplace_answers_max_errors_follow_the_law_of_k_laplace_maxima():
    """catches: Laplace noise on the answers calibrated to one query's sensitivity 1/n instead of
    the joint L1 sensitivity of all of them (2^{|X|-1}/n for every predicate: 8/n at |X| = 4), or a
    quantile that swaps q and 1 - q.

    Independent: the CDF (1 - e^{-t/b})^k of the max of k iid |Lap(b)| (|Lap(b)| is Exponential(b)),
    b = 8/(n eps); a Kolmogorov-Smirnov test of the draws; the quantile by brentq on that CDF."""
    from scipy import optimize

    from dplab.net_mechanism import laplace_answers_max_error_quantile, laplace_answers_max_errors

    d, eps = np.array([3, 4, 1, 2]), 0.7
    n, q = int(d.sum()), all_predicates(4)
    b, k = 8 / (n * eps), q.shape[0]

    def cdf(t):
        return (-np.expm1(-np.asarray(t) / b)) ** k

    draws = laplace_answers_max_errors(d, q, eps, draws=20_000, rng=4)
    assert stats.kstest(draws, cdf).pvalue > 1e-3
    for level in (0.1, 0.5, 0.9):
        root = optimize.brentq(lambda t, level=level: cdf(t) - level, 0.0, 100 * b, xtol=1e-14)
        assert laplace_answers_max_error_quantile(level, k, 8 / n, eps) == pytest.approx(root, rel=1e-9)


def test_noisy_histogram_max_errors_at_its_replace_one_scale():
    """catches: the noisy histogram at Lap(1/(n eps)) per cell (add/remove's sensitivity) where
    replace-one with public n moves two cells (Lap(2/(n eps))).

    Independent: on a one-element universe the class {empty, X} has max error |Z|, which is
    Exponential(2/(n eps)); on |X| = 3 the draws against the exact law over every predicate."""
    from dplab.net_mechanism import noisy_histogram_max_errors

    one = noisy_histogram_max_errors(np.array([10]), all_predicates(1), 0.5, draws=20_000, rng=5)
    assert stats.kstest(one, stats.expon(scale=2 / (10 * 0.5)).cdf).pvalue > 1e-3
    three = noisy_histogram_max_errors(np.array([4, 3, 3]), all_predicates(3), 1.0, draws=20_000, rng=6)
    assert stats.kstest(three, lambda t: noisy_histogram_max_error_cdf(t, 3, 10, 1.0)).pvalue > 1e-3


@pytest.mark.parametrize("k", [2, 4, 8])
@pytest.mark.parametrize("max_size", [3, 100, 150_000])
def test_largest_net_m_is_the_last_m_within_the_size(k, max_size):
    """catches: an off-by-one that returns the first m whose net is already too large."""
    from dplab.net_mechanism import largest_net_m

    m = largest_net_m(k, max_size, m_max=500)
    assert m == 1 or math.comb(k + m - 1, m) <= max_size
    assert m == 500 or math.comb(k + m, m + 1) > max_size


def test_scoring_time_is_log10_of_net_size_times_queries_over_rate():
    """catches: the running time in natural log (ln |N| not divided by ln 10).

    Independent: exact integers, log10(C(|X| + m - 1, m) |C| / rate) with math.comb."""
    from dplab.net_mechanism import net_scoring_log10_seconds

    for k, m, c in ((8, 20, 256), (1000, 7, 10**5), (2**20, 30, 10)):
        exact = math.log10(math.comb(k + m - 1, m) * c) - math.log10(5e8)
        assert net_scoring_log10_seconds(k, m, c, 5e8) == pytest.approx(exact, rel=1e-9)


# --- OPT without enumeration, and how it moves with the sample ------------------------------

def _opt_by_enumeration(histogram: np.ndarray, m: int) -> float:
    """Independent: the smallest TV distance from D/n to every database of size m, by listing them
    with itertools (not dplab's net_histograms)."""
    k, p = histogram.size, histogram / histogram.sum()
    best = math.inf
    for bars in itertools.combinations(range(m + k - 1), k - 1):  # stars and bars
        edges = (-1, *bars, m + k - 1)
        counts = np.diff(edges) - 1
        best = min(best, 0.5 * float(np.abs(p - counts / m).sum()))
    return best


@pytest.mark.catches("net_mechanism.opt_smallest_remainders")
def test_net_opt_is_the_closest_database_of_size_m_by_enumeration():
    rng = np.random.default_rng(3)
    for k, m in ((3, 4), (4, 7), (5, 6), (8, 5)):
        hists = rng.integers(0, 40, size=(6, k))
        hists[:, 0] += 1  # at least one row
        got = dplab.net_mechanism.net_opt(hists, m)
        for h, value in zip(hists, got, strict=True):
            assert value == pytest.approx(_opt_by_enumeration(h, m), abs=1e-12), (h, m)
        assert dplab.net_mechanism.net_opt(hists[0], m) == pytest.approx(got[0])  # one database: a float


@pytest.mark.catches("net_mechanism.opt_smallest_remainders")
def test_net_opt_matches_the_scored_net_on_the_data():
    for h in (yrbss_universe_histogram(1000, rng=2030), yrbss_universe_histogram()):  # a sample; all 12,579
        scored = dplab.net_mechanism.score_net(h, all_predicates(8), 13)  # every database, every predicate
        assert dplab.net_mechanism.net_opt(h, 13) == pytest.approx(scored.opt, abs=1e-12)


def test_net_opt_over_samples_draws_without_replacement():
    pop = np.array([5, 0, 3])
    opts = dplab.net_mechanism.net_opt_over_samples(pop, 8, 4, samples=50, rng=1)
    assert np.allclose(opts, dplab.net_mechanism.net_opt(pop, 4))  # n = the population: one sample only
    assert dplab.net_mechanism.net_opt_over_samples(pop, 3, 4, samples=7, rng=1).shape == (7,)
    with pytest.raises(ValueError, match="n=9"):
        dplab.net_mechanism.net_opt_over_samples(pop, 9, 4, samples=5)
    with pytest.raises(ValueError, match="m"):
        dplab.net_mechanism.net_opt(pop, 0)
    with pytest.raises(ValueError, match="histogram"):
        dplab.net_mechanism.net_opt([1, -1, 2], 3)


# --- where the net mechanism and the noisy histogram overtake Laplace -------------------------

def _laplace_guarantee(k: int, n: int, delta: float | None) -> float:
    """Theorem 3 at eps = 1, beta = 0.05, sensitivity 1/n, written out independently."""
    noise = k if delta is None else math.sqrt(8 * k * math.log(1 / delta))
    return noise / n * math.log(k / 0.05)


def _histogram_guarantee(cells: int, k: int, n: int) -> float:
    """The Chernoff-union bound on a sum of `cells` Lap(2/n) noises, minimised numerically over
    lambda with scipy and solved with brentq (not dplab's closed-form minimiser)."""
    from scipy import optimize

    def log_tail(s: float) -> float:
        return optimize.minimize_scalar(lambda u: -u * s - cells * math.log1p(-u * u), method="bounded",
                                        bounds=(1e-12, 1 - 1e-12), options={"xatol": 1e-13}).fun

    s = optimize.brentq(lambda s: log_tail(s) - math.log(0.05 / (2 * k)), 1e-6, 1e6, xtol=1e-13)
    return 2 / n * s


def _net_guarantee(universe: float, k: int, n: int) -> float:
    m = np.arange(1, 20_001)
    log_size = np.array([math.lgamma(universe + j) - math.lgamma(j + 1) - math.lgamma(universe) for j in m])
    return float(np.min(np.sqrt(math.log(2 * k) / (2 * m)) + 2 / n * (log_size + math.log(20))))


@pytest.mark.catches("net_mechanism.crossover_off_by_one", "net_mechanism.crossover_delta_dropped")
@pytest.mark.parametrize(("universe", "rival", "delta"), [
    (2**10, "histogram", None), (2**10, "histogram", 1e-6), (2.0**40, "net", None), (2.0**40, "net", 1e-6)])
def test_laplace_crossover_is_the_first_k_where_the_rival_wins(universe, rival, delta):
    n = 10**6
    k = dplab.net_mechanism.laplace_crossover_queries(universe, n, 1.0, 0.05, rival=rival, delta=delta)

    def rival_wins(c: int) -> bool:
        if rival == "histogram":
            return _histogram_guarantee(int(universe), c, n) < _laplace_guarantee(c, n, delta)
        return _net_guarantee(universe, c, n) < _laplace_guarantee(c, n, delta)

    assert rival_wins(k) and not rival_wins(k - 1), k
    for c in np.unique(np.geomspace(2, k - 1, 8).astype(int)):  # one crossing: Laplace wins everywhere before
        assert not rival_wins(int(c)), c


def test_laplace_crossover_refuses_bad_input():
    with pytest.raises(ValueError, match="rival"):
        dplab.net_mechanism.laplace_crossover_queries(8, 1000, 1.0, 0.05, rival="mwem")
    with pytest.raises(ValueError, match="k_max"):
        dplab.net_mechanism.laplace_crossover_queries(2**20, 10**6, 1.0, 0.05, rival="histogram", k_max=100)
    with pytest.raises(ValueError, match="universe_size"):
        dplab.net_mechanism.laplace_crossover_queries(0, 1000, 1.0, 0.05)


@pytest.mark.catches("net_mechanism.stated_not_doubled")
def test_net_accuracy_stated_solves_the_lectures_fixed_point():
    n, eps, beta = 10**6, 1.0, 0.05
    for universe, k in ((2.0**40, 10**4), (8, 256), (2.0**20, 10**6)):
        c = 2 / (n * eps)
        # alpha^3 - c ln(1/beta) alpha^2 - c ln|X| ln|C| = 0: its one positive real root, by numpy
        roots = np.roots([1.0, -c * math.log(1 / beta), 0.0, -c * math.log(universe) * math.log(k)])
        alpha = max(r.real for r in roots if abs(r.imag) < 1e-9 and r.real > 0)
        got = dplab.net_mechanism.net_mechanism_accuracy_stated(universe, k, n, eps, beta)
        assert got == pytest.approx(2 * alpha, rel=1e-9)
        assert got > dplab.net_mechanism.net_mechanism_accuracy(universe, k, n, eps, beta, m_max=20_000)[0]
    for delta in (None, 1e-6):
        k = dplab.net_mechanism.laplace_crossover_queries(2.0**40, n, eps, beta, rival="net_stated",
                                                          delta=delta)
        wins = [2 * max(r.real for r in np.roots([1.0, -2 / n * math.log(20), 0.0,
                                                  -2 / n * math.log(2.0**40) * math.log(c)])
                        if abs(r.imag) < 1e-9 and r.real > 0) < _laplace_guarantee(c, n, delta)
                for c in (k - 1, k)]
        assert wins == [False, True] and k > 1000, k
    with pytest.raises(ValueError, match="n_queries"):
        dplab.net_mechanism.net_mechanism_accuracy_stated(8, 2, 1000, 1.0, 0.05)


def test_fewer_yrbss_attributes_sum_the_cells_dropped():
    """Issue 25 (lesson 5's universe_histogram moved here): |X| = 2 is F/M, |X| = 4 adds tall."""
    table = dplab.load_yrbss()
    assert yrbss_universe_histogram(attributes=1).tolist() == [np.sum(table["sex"] == "F"),
                                                               np.sum(table["sex"] == "M")]
    tall = table["height_m"] >= 1.70
    males = table["sex"] == "M"
    assert yrbss_universe_histogram(attributes=2).tolist() == [np.sum(~males & ~tall), np.sum(~males & tall),
                                                               np.sum(males & ~tall), np.sum(males & tall)]
    sample = yrbss_universe_histogram(500, rng=7)
    pairs = sample.reshape(4, 2).sum(axis=1)  # the sample's cells with BMI dropped
    assert np.array_equal(yrbss_universe_histogram(500, attributes=2, rng=7), pairs)
    with pytest.raises(ValueError, match="attributes"):
        yrbss_universe_histogram(attributes=4)


def test_yrbss_cell_labels_name_the_bits_of_each_cell():
    labels = dplab.net_mechanism.yrbss_cell_labels(3)
    assert labels == ["Fs−", "Fs+", "FT−", "FT+", "Ms−", "Ms+", "MT−", "MT+"]
    assert dplab.net_mechanism.yrbss_cell_labels(1) == ["F", "M"]
    with pytest.raises(ValueError, match="attributes"):
        dplab.net_mechanism.yrbss_cell_labels(0)


def test_subsample_failure_probability_on_two_cells_is_a_binomial_tail():
    """|X| = 2: the max error over every predicate is |k/m - p| with k ~ Binomial(m, p), which is the
    single query's tail (subsample_query_failure_probability); and it is below Lemma 12's bound."""
    from dplab.net_mechanism import subsample_failure_probability

    h, m = np.array([30.0, 70.0]), 25
    for alpha in (0.05, 0.12, 0.2):  # off the grid of errors |k/25 - 0.3| (no ties)
        k = np.arange(m + 1)
        direct = stats.binom.pmf(k, m, 0.3)[np.abs(k / m - 0.3) > alpha].sum()
        assert subsample_failure_probability(h, m, alpha) == pytest.approx(direct, rel=1e-10)
        single = subsample_query_failure_probability(h, np.array([[1, 0]]), m, alpha)[0]
        assert subsample_failure_probability(h, m, alpha) == pytest.approx(single, rel=1e-10)
    h8 = yrbss_universe_histogram(1000, rng=2)
    assert subsample_failure_probability(h8, 20, 0.3) <= lemma12_failure_bound(256, 20, 0.3)


def test_net_covering_distance_by_brute_force_meets_the_closed_form():
    """catches: net_mechanism.covering_no_min_m (the brute force is the closed form's oracle)."""
    from dplab.net_mechanism import net_covering_distance

    for k, m, n in ((6, 2, 12), (5, 3, 15), (4, 2, 8)):
        assert net_covering_distance(k, m, n) == pytest.approx(net_covering_radius(k, m), abs=1e-12)
    for k, m, n in ((3, 2, 5), (4, 3, 7)):  # sizes that cannot reach the worst case: below it
        assert net_covering_distance(k, m, n) <= net_covering_radius(k, m) + 1e-12
    # by hand, |X| = 2, m = 1: the net is (1, 0), (0, 1); D = (1, 1)/2 is 1/2 from both
    assert net_covering_distance(2, 1, 2) == pytest.approx(0.5)
