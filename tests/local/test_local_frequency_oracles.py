"""dplab.local.frequency_oracles: each oracle's law against its p and q (chi-square), exact privacy
loss == eps from its enumerated output probabilities, unbiased estimates whose variance is Wang et
al.'s formula (simulation, confidence intervals), closed forms recomputed here, which oracle wins,
chunking, bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dplab.local as L
from dplab.local import frequency_oracles as fo
from dplab.simulate import bonferroni_confidence, mean_ci

NAMES = ("grr", "sue", "oue", "olh", "hadamard")
#: every chi-square (goodness of fit) test of a law here rejects a true law with probability 0.001
#: (12 of them: the family's error <= 0.012); the samples are fixed by their seeds
LAW_LEVEL = 0.001


def _pattern_index(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.int64) << np.arange(bits.shape[1])).sum(axis=1)


@pytest.mark.catches("local.sue_full_epsilon_sampler", "local.ue_hot_bit_q", "local.hadamard_no_toggle")
@pytest.mark.parametrize("name", ["grr", "sue", "oue", "hadamard"])
def test_the_reports_law_is_the_output_probabilities(name):
    """40,000 reports of the value 2 (d = 5 for k-RR and Hadamard, d = 4 for unary encoding, every
    output enumerated: 5, 16 or 8 cells) against the row of output_probabilities, chi-square at 0.001;
    and the row itself has p on the supported outputs (total p) and q for another value's."""
    d = 4 if name in ("sue", "oue") else 5
    oracle = L.ORACLES[name](1.2, d)
    reports = oracle.sample(np.full(40_000, 2), rng=21)
    cells = _pattern_index(reports) if reports.ndim == 2 else reports
    probs = oracle.output_probabilities()
    observed = np.bincount(cells, minlength=probs.shape[1])
    assert stats.chisquare(observed, probs[2] * cells.size).pvalue > LAW_LEVEL
    support = np.stack([oracle.supports(np.asarray(_all_outputs(oracle)), v) for v in range(d)])
    assert probs[2] @ support[2] == pytest.approx(oracle.p, rel=1e-12)
    assert probs[2] @ support[0] == pytest.approx(oracle.q, rel=1e-12)


def _all_outputs(oracle):
    """Every output of an oracle whose reports are a value or a bit vector, in output_probabilities' order."""
    n_out = oracle.output_probabilities().shape[1]
    if isinstance(oracle, fo._UnaryEncoding):
        return (np.arange(n_out)[:, None] >> np.arange(oracle.d)) & 1
    return np.arange(n_out)


@pytest.mark.catches("local.olh_hash_not_pairwise", "local.olh_q_is_rr_flip")
def test_olh_law_given_the_hash_and_the_hash_pairs():
    """OLH at eps = 1 (g = 4), 60,000 users holding 3: (y - H(3)) mod g is 0 with probability
    p = e^eps/(e^eps + g - 1), each other shift q' = 1/(e^eps + g - 1) (chi-square at 0.001); the pair
    (H(3), H(7)) is uniform on the g^2 cells (pairwise independence, chi-square at 0.001); and a report
    supports 7 (a value the users do not hold) with probability q = 1/g (Clopper-Pearson, 0.999)."""
    oracle = L.ORACLES["olh"](1.0, 16)
    g = oracle.g
    assert g == 4
    reports = oracle.sample(np.full(60_000, 3), rng=22)
    h3 = fo._hash(reports.a, reports.b, np.full(reports.a.size, 3, dtype=np.uint64), g).astype(np.int64)
    h7 = fo._hash(reports.a, reports.b, np.full(reports.a.size, 7, dtype=np.uint64), g).astype(np.int64)
    shift = np.bincount((reports.y - h3) % g, minlength=g)
    e = math.exp(1.0)
    expected = np.array([e] + [1] * (g - 1)) / (e + g - 1)
    assert stats.chisquare(shift, expected * reports.y.size).pvalue > LAW_LEVEL
    pairs = np.bincount(h3 * g + h7, minlength=g * g)
    assert stats.chisquare(pairs).pvalue > LAW_LEVEL
    hits = int(oracle.supports(reports, 7).sum())
    ci = stats.binomtest(hits, reports.y.size).proportion_ci(1 - LAW_LEVEL)
    assert ci.low <= 1 / g <= ci.high
    assert oracle.q == 1 / g


@pytest.mark.catches("local.sue_full_epsilon_p", "local.oue_q_half_epsilon")
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("epsilon", [0.3, math.log(3), 2.0])
def test_exact_privacy_loss_is_epsilon(name, epsilon):
    """ln max_y max_(v, v') P(y | v) / P(y | v'), every output enumerated at a small d, is eps."""
    d = {"olh": 4, "sue": 5, "oue": 5}.get(name, 6)
    oracle = L.ORACLES[name](epsilon, d)
    assert oracle.exact_epsilon() == pytest.approx(epsilon, rel=1e-9)
    probs = oracle.output_probabilities()
    assert np.allclose(probs.sum(axis=1), 1.0)


@pytest.mark.catches("local.olh_g_floor")
def test_olh_buckets():
    """g = max(2, round(e^eps + 1)), rounded half up: eps = ln 3 gives 4 (the issue's value)."""
    for eps, g in ((math.log(3), 4), (1.0, 4), (0.1, 2), (2.0, 8), (math.log(5.6), 7), (math.log(5.4), 6)):
        assert L.olh_buckets(eps) == g


@pytest.mark.catches("local.pure_variance_f_term", "local.sue_full_epsilon_p")
def test_variances_against_the_closed_forms():
    """Wang et al. 2017's closed forms at f = 0, recomputed: k-RR (d - 2 + e^eps)/(e^eps - 1)^2,
    SUE e^(eps/2)/(e^(eps/2) - 1)^2, OUE 4 e^eps/(e^eps - 1)^2, OLH (e^eps - 1 + g)^2/((e^eps - 1)^2
    (g - 1)), Hadamard (e^eps + 1)^2/(e^eps - 1)^2, all over n; and at f > 0 the term
    f (1 - p - q)/(p - q) / n from each object's p and q (for OUE: f / n exactly)."""
    n = 1000
    for eps in (0.5, 1.0, 3.0):
        e = math.exp(eps)
        g = L.olh_buckets(eps)
        closed = {"grr": (17 - 2 + e) / (e - 1) ** 2, "sue": math.sqrt(e) / (math.sqrt(e) - 1) ** 2,
                  "oue": 4 * e / (e - 1) ** 2, "olh": (e - 1 + g) ** 2 / ((e - 1) ** 2 * (g - 1)),
                  "hadamard": (e + 1) ** 2 / (e - 1) ** 2}
        for name, value in closed.items():
            assert L.frequency_oracle_variance(name, eps, 17, n) == pytest.approx(value / n, rel=1e-10)
        oue = L.frequency_oracle_variance("oue", eps, 17, n, f=0.4)
        p, q = 0.5, 1 / (e + 1)
        assert oue == pytest.approx((4 * e / (e - 1) ** 2 + 0.4 * (1 - p - q) / (p - q)) / n)
    grid = L.frequency_oracle_variance("grr", np.array([0.5, 1.0]), 17, n)
    assert grid.shape == (2,) and grid[1] == L.frequency_oracle_variance("grr", 1.0, 17, n)
    both = L.frequency_oracle_variance("oue", np.array([0.5, 1.0, 2.0]), 17, n, f=np.array([0.0, 0.3]))
    assert both.shape == (3, 2) and both[2, 1] == L.frequency_oracle_variance("oue", 2.0, 17, n, f=0.3)


@pytest.mark.statistical
@pytest.mark.catches("local.pure_variance_f_term", "local.sue_full_epsilon_p", "local.olh_q_is_rr_flip",
                     "local.hadamard_row_off_by_one", "local.oue_q_half_epsilon")
@pytest.mark.parametrize("name", NAMES)
def test_estimates_are_unbiased_with_the_formula_variance(name):
    """R = 300 runs of n = 3,000 users over d = 6 values with shares (0.5, 0.2, 0.15, 0.1, 0.05, 0) at
    eps = 1 (seed 31): every value's mean estimate's t interval contains its share, and its sample
    variance's chi-square interval contains variance(n, f) (12 checks per oracle, 60 in all: each at
    confidence 1 - 0.01/60; the estimates are sums of thousands of reports, close to normal)."""
    d, n, trials, eps = 6, 3000, 300, 1.0
    shares = np.array([0.5, 0.2, 0.15, 0.1, 0.05, 0.0])
    values = np.repeat(np.arange(d), np.round(shares * n).astype(int))
    rng = np.random.default_rng(31)
    est = np.array([L.frequency_oracle(name, values, d, eps, rng) for _ in range(trials)])
    confidence = bonferroni_confidence(60, 0.01)
    assert mean_ci(est, confidence, axis=0).contains(shares).all()
    a = 1 - confidence
    sample_var = est.var(axis=0, ddof=1)
    low = sample_var * (trials - 1) / stats.chi2.ppf(1 - a / 2, trials - 1)
    high = sample_var * (trials - 1) / stats.chi2.ppf(a / 2, trials - 1)
    var = L.frequency_oracle_variance(name, eps, d, n, f=shares)
    assert ((low <= var) & (var <= high)).all(), (low, var, high)


@pytest.mark.statistical
@pytest.mark.catches("local.crn_own_value_q")
@pytest.mark.parametrize("name", ["grr", "olh"])
def test_common_random_numbers_have_the_formula_mean_and_variance(name):
    """As above with frequencies_from_uniforms on fresh (n, d) uniforms each run (R = 300, n = 3,000,
    d = 6, eps = 1, seed 32): each estimate's mean and variance are the protocol's (24 checks, each at
    1 - 0.01/24); one draw serves two epsilons (the smaller eps, the larger the error)."""
    d, n, trials, eps = 6, 3000, 300, 1.0
    shares = np.array([0.5, 0.2, 0.15, 0.1, 0.05, 0.0])
    values = np.repeat(np.arange(d), np.round(shares * n).astype(int))
    rng = np.random.default_rng(32)
    oracle = L.ORACLES[name](eps, d)
    est = np.array([oracle.frequencies_from_uniforms(values, rng.random((n, d))) for _ in range(trials)])
    confidence = bonferroni_confidence(24, 0.01)
    assert mean_ci(est, confidence, axis=0).contains(shares).all()
    a = 1 - confidence
    sample_var = est.var(axis=0, ddof=1)
    low = sample_var * (trials - 1) / stats.chi2.ppf(1 - a / 2, trials - 1)
    high = sample_var * (trials - 1) / stats.chi2.ppf(a / 2, trials - 1)
    var = oracle.variance(n, shares)
    assert ((low <= var) & (var <= high)).all(), (low, var, high)
    u = rng.random((n, d))
    small, large = (np.abs(L.ORACLES[name](e, d).frequencies_from_uniforms(values, u) - shares).sum()
                    for e in (0.2, 3.0))
    assert small > large


@pytest.mark.catches("local.chunk_drops_user")
def test_chunks_cover_every_user(monkeypatch):
    """With 7 users per chunk, k-RR's estimates still sum to 1 exactly (every report supports one value)
    and unary encoding's support counts add up to what one chunk gives."""
    monkeypatch.setattr(fo, "CHUNK_ELEMENTS", 7)
    values = np.arange(100) % 5
    assert L.frequency_oracle("grr", values, 5, 1.0, 3).sum() == pytest.approx(1.0, rel=1e-12)
    oue = L.ORACLES["oue"](1.0, 5)
    monkeypatch.setattr(fo, "CHUNK_ELEMENTS", 7 * 5)
    chunked = oue.frequencies(values, np.random.default_rng(4))
    rng = np.random.default_rng(4)
    counts = sum(oue.support_counts(oue.sample(values[i:i + 7], rng)) for i in range(0, 100, 7))
    assert np.allclose(chunked, oue.estimate(counts, 100))


def test_olh_candidates_are_the_full_estimates_of_those_values():
    values = np.arange(500) % 9
    full = L.ORACLES["olh"](1.0, 9).frequencies(values, 8)
    some = L.ORACLES["olh"](1.0, 9).frequencies(values, 8, candidates=np.arange(9)[::-1])
    assert np.allclose(some, full[::-1])


@pytest.mark.catches("local.grr_wins_bound")
def test_which_oracle_wins():
    """k-RR wins exactly below d = 3 e^eps + 2, OUE (or OLH where it ties, sending fewer bits) above;
    the winner has the smallest variance of the five."""
    for eps in (0.5, 1.0, 2.0, 3.0):
        for d in range(2, 90):
            best = L.best_frequency_oracle(eps, d)
            variances = {n: L.frequency_oracle_variance(n, eps, d, 1) for n in NAMES}
            assert variances[best] <= min(variances.values()) * (1 + 1e-12)
            assert (best == "grr") == (d < L.grr_wins_below(eps)), (eps, d, best)
    assert L.best_frequency_oracle(math.log(3), 20) in ("oue", "olh")
    assert L.grr_wins_below(math.log(3)) == pytest.approx(11.0)


def test_communication_bits():
    assert [L.ORACLES[n](1.0, 1024).communication_bits for n in NAMES] == [10, 1024, 1024, 130, 11]


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: L.frequency_oracle("rappor", [0, 1], 2, 1.0, 0), ValueError, "name must be one of"),
    (lambda: L.frequency_oracle("grr", [0, 2], 2, 1.0, 0), ValueError,
     r"values must hold integers in \[0, 2\), got values\[1\]=2"),
    (lambda: L.frequency_oracle("oue", [0.0, 1.0], 2, 1.0, 0), ValueError, "values must hold integers"),
    (lambda: L.frequency_oracle("olh", [], 2, 1.0, 0), ValueError, "values must be a non-empty 1-d array"),
    (lambda: L.frequency_oracle("olh", [0, 1], 1, 1.0, 0), ValueError, "d must be an integer in"),
    (lambda: L.frequency_oracle("hadamard", [0, 1], 2, 0.0, 0), ValueError,
     "epsilon must be finite and > 0, got epsilon=0.0"),
    (lambda: L.frequency_oracle("sue", [0, 1], 2, 1.0, -1), ValueError,
     "rng must be a seed >= 0, got rng=-1"),
    (lambda: L.frequency_oracle_variance("grr", 1.0, 4, 0), ValueError,
     "n must be a positive integer, got n=0"),
    (lambda: L.frequency_oracle_variance("grr", 1.0, 4, 10, f=1.5), ValueError,
     "f must lie in \\[0, 1\\], got f=1.5"),
    (lambda: L.frequency_oracle_variance("x", 1.0, 4, 10), ValueError, "name must be one of .* got name='x'"),
    (lambda: L.frequency_oracle_variance("oue", [1.0, -1.0], 4, 10), ValueError,
     "epsilon must be finite and > 0, got epsilon=-1.0 at index 1"),
    (lambda: L.best_frequency_oracle(1.0, 1), ValueError, "d must be an integer in"),
    (lambda: L.best_frequency_oracle(math.inf, 4), ValueError, "epsilon must be finite and > 0"),
    (lambda: L.grr_wins_below(0), ValueError, "epsilon must be finite and > 0, got epsilon=0"),
    (lambda: L.olh_buckets(-2), ValueError, "epsilon must be finite and > 0, got epsilon=-2"),
    (lambda: L.ORACLES["sue"](1.0, 40).output_probabilities(), ValueError, "MAX_ENUMERATED_OUTPUTS"),
    (lambda: L.ORACLES["olh"](1.0, 9).frequencies([0], 0, candidates=[9]), ValueError,
     r"candidates must hold integers in \[0, 9\)"),
    (lambda: L.pure_protocol_variance(0.5, 0.25, 10, f=-0.1), ValueError, "f must lie in"),
    (lambda: L.ORACLES["olh"](50.0, 4), ValueError, "epsilon is too large for local hashing"),
    (lambda: L.GeneralizedRR(1.0, 1), ValueError, "d must be an integer in \\[2, 2\\^32\\].*got d=1"),
    (lambda: L.OptimizedUnaryEncoding(-1.0, 4), ValueError,
     "epsilon must be finite and > 0, got epsilon=-1.0"),
    (lambda: L.HadamardResponse(1.0, 4).estimate([1.0] * 4, 0), ValueError, "n must be a positive integer"),
    (lambda: L.check_values([[0, 1]], 3), ValueError, "values must be a non-empty 1-d array"),
    (lambda: L.ORACLES["oue"](1.0, 4).frequencies_from_uniforms([0, 1, 2], np.zeros((2, 4))), ValueError,
     r"uniforms must be an array of shape at least \(3, 4\), got shape \(2, 4\)"),
])
def test_bad_input_names_the_parameter_and_value(call, error, match):
    with pytest.raises(error, match=match):
        call()
