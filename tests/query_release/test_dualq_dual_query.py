"""DualQuery (Gaboardi, Gallego Arias, Hsu, Roth & Wu, ICML 2014): the MW distribution against a hand
computation, the sampling law against it, the privacy formula against the paper's expression and
dplab's advanced composition, the calibration both ways, accuracy against T, bad input, and a run at
d = 40 that would fail if anything held the 2^40 records."""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest
from scipy import stats

import dplab.query_release as qr
from dplab.accounting import AdvancedAccountant, BasicAccountant
from dplab.mechanisms import EpsilonDelta


def _small_records(n: int = 2000, seed: int = 0) -> np.ndarray:
    return qr.block_binary_records(n, block_probabilities=(0.25, 0.7), block_size=3, flip=0.1, rng=seed)


@pytest.mark.catches("qr.dq_mw_sign")
def test_mw_distribution_against_a_hand_computation_on_three_queries():
    """catches: the multiplicative-weights update with its sign flipped (weight moving to the
    queries the records over-count). q(D) = (0.5, 0.2, 0.9); the records so far answer (1, 0, 1)
    and (0, 0, 1); by hand u = sum_i (q(D) - q(x^i)) = (0, 0.4, -0.2), the negations -u, and
    Q(q) = e^{eta u} / sum."""
    eta = 0.7
    u = np.array([0.0, 0.4, -0.2, 0.0, -0.4, 0.2])
    expected = np.exp(eta * u) / np.exp(eta * u).sum()
    got = qr.dual_query_distribution([0.5, 0.2, 0.9], [[1, 0, 1], [0, 0, 1]], eta)
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    np.testing.assert_allclose(qr.dual_query_distribution([0.5, 0.2, 0.9], np.zeros((0, 3)), eta),
                               np.full(6, 1 / 6), rtol=1e-12)


@pytest.mark.catches("qr.dq_round_epsilon")
def test_round_two_draws_follow_the_mw_distribution():
    """catches: a round's exponential mechanism run at eta (t - 1)/n instead of 2 eta (t - 1)/n
    (the draws then follow exp(eta u / 2)). Round 2's s = 20,000 draws against
    :func:`dual_query_distribution` after round 1's record: chi-square test at level 1e-3."""
    records = _small_records(500, seed=2)
    queries = [((0,), (1,)), ((3,), (1,)), ((0, 3), (1, 0)), ((1, 4), (0, 0))]
    eta, s = 2.0, 20_000
    res = qr.dual_query(records, queries, 1e9, 1e-6, eta=eta, samples=s, rounds=2, best_response="enumerate",
                        rng=7)
    conj = qr.as_conjunctions(queries, records.shape[1])
    p = qr.dual_query_distribution(qr.answers_on_records(records, conj),
                                   conj.evaluate(res.records[:1]).astype(float), eta)
    counts = np.bincount(res.sampled[1], minlength=p.size)
    assert stats.chisquare(counts, s * p).pvalue > 1e-3


def _paper_epsilon(eta, s, t, n, delta):
    """GAHRW14's privacy expression, written out again: eps_0 = 2 eta (T - 1)/n, k = s (T - 1)."""
    eps0 = 2 * eta * (t - 1) / n
    k = s * (t - 1)
    return eps0 * math.sqrt(2 * k * math.log(1 / delta)) + k * eps0 * (math.exp(eps0) - 1)


@pytest.mark.catches("qr.dq_eps_rounds")
@pytest.mark.parametrize("eta, s, t, n, delta", [(1.0, 100, 95, 10**5, 1e-6),
                                                 (0.4, 1000, 30, 5 * 10**4, 1e-3), (2.0, 50, 2, 1000, 1e-9)])
def test_privacy_formula_against_the_paper_and_advanced_composition(eta, s, t, n, delta):
    """catches: eps_0 computed from T rounds instead of the T - 1 that sample from data-dependent
    weights. Against the paper's expression written out here, and against dplab's advanced
    composition of s (T - 1) draws at eps_0 (an independent implementation)."""
    got = qr.dual_query_epsilon(eta, s, t, n, delta)
    assert got == pytest.approx(_paper_epsilon(eta, s, t, n, delta), rel=1e-12)
    eps0 = 2 * eta * (t - 1) / n
    assert got == pytest.approx(AdvancedAccountant().compose(EpsilonDelta(eps0), s * (t - 1)).epsilon(delta),
                                rel=1e-12)
    assert qr.dual_query_epsilon(eta, s, 1, n, delta) == 0.0


@pytest.mark.catches("qr.dq_pure_epsilon")
def test_pure_epsilon_is_basic_composition_of_the_rounds():
    """catches: the pure eps summed over T rounds of T (eta s T^2/n) instead of the rounds' own
    t - 1. The basic accountant over :func:`dual_query_steps` (s draws of round t at
    2 eta (t - 1)/n) gives eta s T (T - 1)/n; the accountants also see each round's own eps."""
    eta, s, t, n = 0.8, 40, 25, 20_000
    steps = qr.dual_query_steps(eta, s, t, n)
    basic = BasicAccountant()
    for mechanism, count in steps:
        basic.compose(mechanism, count)
    assert qr.dual_query_pure_epsilon(eta, s, t, n) == pytest.approx(eta * s * t * (t - 1) / n, rel=1e-12)
    assert basic.epsilon(0.0) == pytest.approx(qr.dual_query_pure_epsilon(eta, s, t, n), rel=1e-9)
    advanced = AdvancedAccountant()
    for mechanism, count in steps:
        advanced.compose(mechanism, count)
    assert advanced.epsilon(1e-6) <= qr.dual_query_epsilon(eta, s, t, n, 1e-6)  # sanity: rounds' own eps


@pytest.mark.catches("qr.dq_rounds_ceil")
@pytest.mark.parametrize("target", [0.1, 0.5, 1.0, 3.0])
def test_rounds_and_samples_meet_the_target_and_the_next_one_exceeds_it(target):
    """catches: T rounded up from the real root (the run then spends more than the target)."""
    eta, s, n, delta = 1.0, 100, 10**5, 1e-6
    t = qr.dual_query_rounds(target, delta, eta, s, n)
    spent, next_one = (qr.dual_query_epsilon(eta, s, r, n, delta) for r in (t, t + 1))
    assert spent <= target < next_one
    samples = qr.dual_query_samples(target, delta, eta, 20, n)
    assert qr.dual_query_epsilon(eta, samples, 20, n, delta) <= target
    assert qr.dual_query_epsilon(eta, samples + 1, 20, n, delta) > target


@pytest.mark.catches("qr.dq_mw_sign")
def test_accuracy_improves_with_rounds_at_large_epsilon():
    """catches: the MW sign flipped (the records then chase the over-counted queries). At eps = 10^9
    (no privacy constraint on T), 1- and 2-way marginal cells over 6 attributes: the mean error
    over three seeds falls from T = 5 to T = 150, and at T = 150 stays below 0.02."""
    records = _small_records()
    queries = qr.marginal_conjunctions(6)
    errors = {}
    for t in (5, 150):
        runs = [qr.dual_query(records, queries, 1e9, 1e-6, eta=0.5, samples=200, rounds=t,
                              best_response="enumerate", rng=seed) for seed in range(3)]
        errors[t] = np.mean([qr.synthetic_data_error(r.records, records, queries)[1] for r in runs])
    assert errors[150] < errors[5] and errors[150] < 0.02, errors


def test_result_states_its_privacy():
    records = _small_records(1000)
    res = qr.dual_query(records, qr.marginal_conjunctions(6), 2.0, 1e-6, eta=1.0, samples=20,
                        best_response="enumerate", rng=1)
    assert res.rounds == qr.dual_query_rounds(2.0, 1e-6, 1.0, 20, 1000) == res.records.shape[0]
    assert res.epsilon == qr.dual_query_epsilon(1.0, 20, res.rounds, 1000, 1e-6) <= 2.0
    assert res.sampled.shape == (res.rounds, 20) and res.n == 1000


@pytest.mark.parametrize("kwargs, match", [
    (dict(epsilon=0.0), "epsilon=0.0"),
    (dict(delta=0.0), "delta=0.0"),
    (dict(delta=1.0), "delta=1.0"),
    (dict(eta=-1.0), "eta=-1.0"),
    (dict(samples=0), "samples=0"),
    (dict(rounds=10**4), "rounds=10000"),
    (dict(best_response="cplex"), "best_response='cplex'"),
])
def test_bad_input_is_refused_naming_the_parameter(kwargs, match):
    args = dict(records=_small_records(200), queries=qr.marginal_conjunctions(6), epsilon=1.0, delta=1e-6)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        qr.dual_query(**args)


@pytest.mark.catches("qr.dq_default_enumerates")
def test_forty_attributes_never_allocate_the_universe():
    """catches: a default best response that enumerates X (2^40 records here: refused, or memory).
    The whole run at d = 40 stays under 16 MiB of Python/numpy allocations (2^40 bits alone are
    128 GiB)."""
    rng = np.random.default_rng(4)
    records = (rng.random((400, 40)) < 0.3).astype(np.uint8)
    queries = [((a,), (1,)) for a in range(40)] + [((a, a + 1), (1, 0)) for a in range(39)]
    tracemalloc.start()
    try:
        res = qr.dual_query(records, queries, 1e9, 1e-6, eta=1.0, samples=30, rounds=4, rng=5)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert res.records.shape == (4, 40)
    assert peak < 16 * 2**20, peak


def _exact_epsilon(eta, s, t, n, delta):
    """The exact eps at delta of s draws per round t = 2..T, each the worst eps_t-DP pair (randomized
    response: loss +eps_t w.p. e^eps_t/(1 + e^eps_t), else -eps_t), composed on the integer lattice of
    u = 2 eta/n by binomial laws and np.convolve; delta(eps) = sum_L p(L) (1 - e^(eps - L))_+ (Dwork &
    Rothblum 2016's privacy-loss form), solved for eps by brentq."""
    from scipy import optimize

    u, law = 2 * eta / n, np.array([1.0])
    for r in range(1, t):  # round r + 1: eps = r u; j of s draws at +r u, s - j at -r u
        p = 1 / (1 + math.exp(-r * u))
        step = np.zeros(2 * s * r + 1)
        step[np.arange(s + 1) * 2 * r] = stats.binom.pmf(np.arange(s + 1), s, p)
        law = np.convolve(law, step)
    losses = (np.arange(law.size) - (law.size - 1) / 2) * u
    def excess(eps):
        return float(np.sum(law * np.maximum(0.0, -np.expm1(eps - losses)))) - delta
    return optimize.brentq(excess, 0.0, losses.max(), xtol=1e-12)


@pytest.mark.catches("qr.dq_pld_grid")
@pytest.mark.parametrize("eta, s, t, n", [(1.0, 50, 13, 12_579), (0.5, 20, 25, 3_001)])
def test_privacy_pld_is_exact_on_the_lattice_of_the_rounds(eta, s, t, n):
    """catches: the PLD on a generic grid (1e-4), which rounds every eps_t up (0.134 for 0.104 in the
    first case). Against the exact lattice composition written out here; the PLD is also below the
    zCDP and DRV bounds, as an exact value must be."""
    got = qr.dual_query_privacy(eta, s, t, n, 1e-6)
    assert got["PLD (exact)"] == pytest.approx(_exact_epsilon(eta, s, t, n, 1e-6), rel=1e-4)
    assert got["PLD (exact)"] < got["zCDP (CKS)"] < got["advanced (DRV)"]
    assert got["basic"] == pytest.approx(qr.dual_query_pure_epsilon(eta, s, t, n), rel=1e-9)
    with pytest.raises(ValueError, match="rounds"):
        qr.dual_query_privacy(eta, s, 1, n, 1e-6)
