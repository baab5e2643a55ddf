"""DualQuery's best response and the conjunctions it is built on: the integer program (scipy milp)
against brute force over every record, answers against a record-by-record count, the block design's
closed form against a sample."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

import dplab.query_release as qr


def _random_conjunctions(rng: np.random.Generator, d: int, k: int) -> list:
    out = []
    for _ in range(k):
        width = int(rng.integers(1, min(d, 4) + 1))
        attributes = rng.choice(d, size=width, replace=False)
        out.append((tuple(int(a) for a in attributes), tuple(int(v) for v in rng.integers(0, 2, width))))
    return out


def _brute_value(record, queries, sampled) -> int:
    """sum over the sampled signed queries of q(x), one literal at a time (independent of the library)."""
    k = len(queries)
    total = 0
    for i in sampled:
        attributes, values = queries[i % k]
        hit = all(record[a] == v for a, v in zip(attributes, values, strict=True))
        total += hit if i < k else 1 - hit
    return total


@pytest.mark.catches("qr.dq_milp_negation")
def test_milp_best_response_is_feasible_and_matches_enumeration_on_random_instances():
    """catches: a negated conjunction given the conjunction's inequality (y <= each literal) in the
    integer program: its best response then misses records that satisfy the negations."""
    rng = np.random.default_rng(11)
    for trial in range(25):
        d = int(rng.integers(3, 9))
        queries = _random_conjunctions(rng, d, int(rng.integers(3, 12)))
        conj = qr.as_conjunctions(queries, d)
        sampled = rng.integers(0, 2 * len(queries), size=int(rng.integers(1, 25)))
        x_milp = qr.milp_best_response(conj, sampled, rng)
        x_enum = qr.enumerate_best_response(conj, sampled)
        assert x_milp.shape == (d,) and set(np.unique(x_milp)) <= {0, 1}, (trial, x_milp)  # feasible
        best = max(_brute_value(x, queries, sampled) for x in itertools.product((0, 1), repeat=d))
        assert _brute_value(x_milp, queries, sampled) == best, (trial, queries, sampled)
        assert _brute_value(x_enum, queries, sampled) == best, (trial, queries, sampled)
        assert qr.best_response_value(x_milp, conj, sampled) == best


def test_milp_best_response_of_negations_only():
    """Sanity: only negated queries sampled: a record failing all of them exists, value s."""
    queries = [((0, 1), (1, 1)), ((2,), (0,))]
    x = qr.best_response(queries, np.array([2, 3, 3]), 3, method="milp", rng=0)
    assert qr.best_response_value(x, qr.as_conjunctions(queries, 3), [2, 3, 3]) == 3


def test_conjunction_answers_against_a_record_by_record_count():
    rng = np.random.default_rng(3)
    records = rng.integers(0, 2, size=(300, 7))
    queries = _random_conjunctions(rng, 7, 40)
    expected = [np.mean([all(r[a] == v for a, v in zip(at, va, strict=True)) for r in records])
                for at, va in queries]
    np.testing.assert_allclose(qr.answers_on_records(records, queries), expected, rtol=0, atol=1e-12)


@pytest.mark.catches("qr.dq_block_design")
def test_block_design_answers_match_a_sample_within_bonferroni_intervals():
    """catches: the block design's closed form with the flip's roles swapped given Z = 0.
    Every 1-, 2- and 3-way conjunction's sample answer (n = 20,000) lies within its normal
    interval at family-wise level 1e-3 (Bonferroni over the queries)."""
    design = dict(block_probabilities=(0.2, 0.7), block_size=3, flip=0.15)
    d = 6
    queries = [(c, v) for w in (1, 2, 3) for c in itertools.combinations(range(d), w)
               for v in itertools.product((0, 1), repeat=w)]
    x = qr.block_binary_records(20_000, rng=5, **design)
    p = qr.block_binary_answers(queries, **design)
    z = stats.norm.isf(1e-3 / (2 * len(queries)))
    half = z * np.sqrt(p * (1 - p) / x.shape[0])
    assert np.all(np.abs(qr.answers_on_records(x, queries) - p) <= half + 1e-12)


def test_block_design_one_way_marginals_in_closed_form():
    """Sanity: P(x_a = 1) = 0.1 + 0.8 pi_b for the default design (flip 0.1)."""
    p = qr.block_binary_answers([((a,), (1,)) for a in range(30)])
    np.testing.assert_allclose(p, 0.1 + 0.8 * np.repeat(qr.BLOCK_PROBABILITIES, 5), atol=1e-15)


@pytest.mark.catches("qr.dq_records_check")
@pytest.mark.parametrize("records, match", [
    (np.array([[0, 1], [2, 0]]), r"records\[1, 0\]=2"),
    (np.array([[0, 1], [-1, 0]]), r"records\[1, 0\]=-1"),
    (np.zeros((0, 3)), "shape"),
    (np.array([0, 1, 1]), "shape"),
])
def test_bad_records_are_refused_naming_the_entry(records, match):
    """catches: a records check that lets a negative entry through."""
    with pytest.raises(ValueError, match=match):
        qr.answers_on_records(records, [((0,), (1,))])


@pytest.mark.parametrize("queries, match", [
    ([((0, 5), (1, 1))], r"queries\[0\]"),
    ([((0,), (1,)), ((1, 1), (0, 1))], r"queries\[1\]"),
    ([((0,), (2,))], r"queries\[0\]"),
    ([((0, 1), (1,))], r"queries\[0\]"),
    ([], "at least one"),
])
def test_bad_queries_are_refused_naming_the_query(queries, match):
    with pytest.raises(ValueError, match=match):
        qr.as_conjunctions(queries, 3)


def test_enumeration_refuses_a_universe_too_large_and_bad_methods():
    conj = qr.as_conjunctions([((0,), (1,))], 30)
    with pytest.raises(ValueError, match="n_attributes=30"):
        qr.enumerate_best_response(conj, [0])
    with pytest.raises(ValueError, match="method"):
        qr.best_response([((0,), (1,))], [0], 3, method="cplex")
    with pytest.raises(ValueError, match="sampled"):
        qr.milp_best_response(conj, [2])


def test_answers_on_records_agree_with_the_workload_on_the_yrbss_histogram():
    """DualQuery reads the YRBSS students as records, MWEM as a histogram over X: the same
    conjunctions (1- and 2-way marginal cells over 8 bits) give the same fractions both ways."""
    records = qr.yrbss_records(8)
    queries = qr.marginal_conjunctions(8)
    histogram = qr.yrbss_histogram(8)
    fractions = qr.conjunction_answers(histogram, queries) / histogram.sum()
    np.testing.assert_allclose(qr.answers_on_records(records, queries), fractions, rtol=0, atol=1e-12)
