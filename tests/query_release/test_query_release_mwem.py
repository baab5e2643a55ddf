"""MWEM (Hardt, Ligett & McSherry 2012): the released distribution, a run replayed by hand, the budget
recomputed from the noise scales, the accountants, the selection's law, Theorem 2.2's bound and T*."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import sparse, stats

import dplab.query_release as qr
from dplab.accounting import OptimalAccountant, RDPAccountant, ZCDPAccountant
from dplab.mechanisms import exponential_probabilities


def _tiny():
    """4 attributes (|X| = 16), a skewed database of 40 records and its 1- and 2-way marginals (56)."""
    b = 4
    rng = np.random.default_rng(3)
    hist = rng.multinomial(40, rng.dirichlet(np.full(2**b, 0.3)))
    workload = qr.Workload(b, qr.marginal_conjunctions(b, (1, 2)))
    dense = np.array([workload.row(j) for j in range(workload.shape[0])])
    return hist, workload, dense


@pytest.mark.catches("qr.mw_sign", "qr.mw_scale", "qr.average_iterate")
def test_a_run_replayed_by_hand_gives_the_same_distribution():
    hist, workload, dense = _tiny()
    n = hist.sum()
    run = qr.mwem_run(hist, workload, 2.0, 6, rng=11)
    # Algorithm 1 of HLM12 written out from the run's choices and measurements: A_0 = n uniform,
    # A_i(x) = A_{i-1}(x) exp(q(x)(m - q(A_{i-1}))/(2n)) renormalised to n, output the average of A_1..A_T
    a = np.full(16, n / 16)
    iterates = []
    for j, m in zip(run.choices, run.measurements, strict=True):
        q = dense[j]
        a = a * np.exp(q * (m - q @ a) / (2 * n))
        a = a * n / a.sum()
        iterates.append(a)
    np.testing.assert_allclose(run.distribution, np.mean(iterates, axis=0) / n, rtol=1e-12)
    a0, q1, m1 = np.full(16, n / 16), dense[run.choices[0]], run.measurements[0]
    a1 = a0 * np.exp(q1 * (m1 - q1 @ a0) / (2 * n))
    np.testing.assert_allclose(qr.mwem_update(a0, q1, m1, n), a1 * n / a1.sum(), rtol=1e-12)
    last = qr.mwem_run(hist, workload, 2.0, 6, rng=11, iterate="last")
    np.testing.assert_allclose(last.distribution, iterates[-1] / n, rtol=1e-12)
    assert np.all(run.distribution >= 0) and math.isclose(run.distribution.sum(), 1.0, rel_tol=1e-12)


def test_dense_sparse_and_operator_queries_give_the_same_run():
    hist, workload, dense = _tiny()
    runs = [qr.mwem(hist, q, 1.0, 5, np.random.default_rng(4))
            for q in (dense.astype(np.uint8), sparse.csr_matrix(dense), sparse.csr_array(dense), workload)]
    for distribution, choices in runs[1:]:
        np.testing.assert_allclose(distribution, runs[0][0], rtol=1e-12)
        np.testing.assert_array_equal(choices, runs[0][1])
    assert runs[0][1].shape == (5,)


@pytest.mark.catches("qr.mw_sign")
def test_with_a_huge_epsilon_the_error_falls_with_the_rounds():
    hist, workload, dense = _tiny()
    truth = dense @ hist
    errors = []
    for rounds in (1, 4, 16, 64):
        distribution, _ = qr.mwem(hist, workload, 1e6, rounds, rng=1)
        errors.append(np.abs(dense @ (hist.sum() * distribution) - truth).max())
    # no noise to speak of: multiplicative weights' regret term 2n sqrt(ln|X|/T) shrinks with T
    assert errors[0] > errors[1] > errors[2] > errors[3]
    assert errors[3] < 0.5 * errors[0]


@pytest.mark.catches("qr.round_epsilon", "qr.laplace_sensitivity")
@pytest.mark.parametrize(("epsilon", "rounds"), [(1.0, 1), (0.5, 7), (3.0, 20)])
def test_each_rounds_epsilon_recomputed_from_its_noise_scales_sums_to_epsilon(epsilon, rounds):
    hist, workload, _ = _tiny()
    run = qr.mwem_run(hist, workload, epsilon, rounds, rng=0)
    assert len(run.ledger) == rounds
    spent = []
    for select, measure in run.ledger:
        # sensitivity 1 (a count): the exponential mechanism's Gumbel scale is 2/eps, the Laplace scale 1/eps
        spent.append(2 / select.scale + 1 / measure.scale)
        assert math.isclose(2 / select.scale, 1 / measure.scale, rel_tol=1e-12)  # half and half
    assert math.isclose(sum(spent), epsilon, rel_tol=1e-12)


@pytest.mark.catches("qr.round_epsilon")
def test_the_accountants_price_the_rounds():
    hist, workload, _ = _tiny()
    epsilon, rounds, delta = 1.0, 50, 1e-6
    run = qr.mwem_run(hist, workload, epsilon, rounds, rng=0)
    costs = qr.mwem_privacy(run.ledger, delta)
    assert math.isclose(costs["basic"], epsilon, rel_tol=1e-12)
    # advanced composition of 2T steps of eps0 = eps/(2T) (Dwork & Roth, Thm 3.20), written out
    k, eps0 = 2 * rounds, epsilon / (2 * rounds)
    advanced = math.sqrt(2 * k * math.log(1 / delta)) * eps0 + k * eps0 * math.expm1(eps0)
    assert math.isclose(costs["advanced (DRV)"], advanced, rel_tol=1e-9)
    # zCDP: every eps0-DP step is eps0^2/2-zCDP; rho + 2 sqrt(rho ln(1/delta)) (Bun & Steinke, Prop. 1.3)
    simple = qr.mwem_privacy(run.ledger, delta, [ZCDPAccountant("simple")])["zCDP (simple)"]
    rho = k * eps0**2 / 2
    assert math.isclose(simple, rho + 2 * math.sqrt(rho * math.log(1 / delta)), rel_tol=1e-9)
    assert costs["PLD (exact)"] <= costs["zCDP (CKS)"] <= simple < epsilon
    # the other accountants take the run too (as pure eps0-DP steps where they cannot read a mechanism);
    # the optimal composition of 2T pure eps0-DP steps (KOV) is exact for them, PLD reads Laplace's own PLD
    others = qr.mwem_privacy(run.ledger, delta, [RDPAccountant(), OptimalAccountant()])
    assert costs["PLD (exact)"] <= others["optimal (KOV)"] <= others["RDP"] < epsilon


@pytest.mark.catches("qr.score_abs", "qr.round_epsilon")
def test_the_first_selection_follows_the_exponential_mechanisms_law():
    hist, workload, dense = _tiny()
    n, epsilon, rounds, draws = hist.sum(), 0.8, 1, 1000
    scores = np.abs(dense @ np.full(16, n / 16) - dense @ hist)
    p = exponential_probabilities(scores, 1.0, epsilon / (2 * rounds))
    rng = np.random.default_rng(2024)
    first = np.array([qr.mwem_run(hist, dense, epsilon, rounds, rng).choices[0] for _ in range(draws)])
    counts = np.bincount(first, minlength=p.size)
    # the worst-answered query is the likeliest choice, and the most frequent one here
    assert np.argmax(counts) == np.argmax(p) == np.argmax(scores)
    # chi-square goodness of fit, cells with expected count < 5 pooled; level 0.001 (fixed seed)
    expected = p * draws
    small = expected < 5
    observed, wanted = counts[~small], expected[~small]
    if small.any():
        observed, wanted = np.append(observed, counts[small].sum()), np.append(wanted, expected[small].sum())
    assert stats.chisquare(observed, wanted).pvalue > 1e-3


@pytest.mark.catches("qr.bound_constant", "qr.optimal_rounds_power")
@pytest.mark.parametrize(("n", "k", "size", "epsilon"), [(12_579, 10_848, 2**16, 1.0), (1000, 100, 2**8, 0.1),
                                                         (10**6, 500, 2**20, 2.0)])
def test_the_optimal_rounds_minimise_the_bound(n, k, size, epsilon):
    t_star = qr.mwem_optimal_rounds(n, k, size, epsilon)
    grid = np.arange(1, int(10 * t_star) + 10)
    bound = qr.mwem_error_bound(n, k, size, epsilon, grid)
    assert grid[np.argmin(bound)] in (math.floor(t_star), math.ceil(t_star))
    # the bound written out: 2n sqrt(ln|X|/T) + 10 T ln|Q| / eps
    t = 7
    assert math.isclose(qr.mwem_error_bound(n, k, size, epsilon, t),
                        2 * n * math.sqrt(math.log(size) / t) + 10 * t * math.log(k) / epsilon, rel_tol=1e-12)


@pytest.mark.catches("qr.mw_sign")
def test_the_measured_max_error_stays_under_theorem_2_2s_bound():
    b, rounds, epsilon = 8, 120, 1.0
    hist = 100 * qr.yrbss_histogram(b)  # n = 1,257,900: the bound is below n from T = 4 ln|X| = 22 on
    workload = qr.yrbss_workload(b, ways=(1, 2, 3))
    k, n = workload.shape[0], int(hist.sum())
    assert qr.mwem_bound_confidence(k, rounds) > 0.6
    bound = qr.mwem_error_bound(n, k, 2**b, epsilon, rounds)
    assert bound < 0.5 * n
    truth = workload @ hist
    for seed in range(4):  # at confidence 1 - 2T/|Q| each; every seed inside shows no bug, not the rate
        distribution, _ = qr.mwem(hist, workload, epsilon, rounds, rng=seed)
        assert np.abs(workload @ (n * distribution) - truth).max() <= bound


@pytest.mark.parametrize(("call", "message"), [
    (lambda h, q: qr.mwem(h, q, 0.0, 3), "epsilon=0.0"),
    (lambda h, q: qr.mwem(h, q, 1.0, 0), "rounds"),
    (lambda h, q: qr.mwem(-h, q, 1.0, 3), "histogram"),
    (lambda h, q: qr.mwem(h[:-1], q, 1.0, 3), "one column per element"),
    (lambda h, q: qr.mwem(h, 2 * q, 1.0, 3), r"in \[0, 1\]"),
    (lambda h, q: qr.mwem(h, q, 1.0, 3, replay=-1), "replay=-1"),
    (lambda h, q: qr.mwem(h, q, 1.0, 3, iterate="first"), "iterate='first'"),
    (lambda h, q: qr.mwem_error_bound(100, 1, 16, 1.0, 5), "n_queries"),
    (lambda h, q: qr.mwem_privacy([], 1e-6), "empty ledger"),
    (lambda h, q: qr.mwem_update(np.ones(16), 2 * q[0], 3.0, 40), "row"),
    (lambda h, q: qr.mwem_update(np.ones(16), q[0], np.nan, 40), "measurement=nan"),
])
def test_bad_input_is_refused_by_name(call, message):
    hist, _, dense = _tiny()
    with pytest.raises(ValueError, match=message):
        call(hist, dense)


def test_replaying_past_measurements_is_free_and_helps_when_noise_is_small():
    hist, workload, dense = _tiny()
    truth = dense @ hist
    plain = qr.mwem_run(hist, workload, 1e6, 8, rng=5)
    replayed = qr.mwem_run(hist, workload, 1e6, 8, rng=5, replay=5)
    assert replayed.ledger == plain.ledger  # post-processing: the same mechanisms ran
    errors = [np.abs(dense @ (r.n * r.distribution) - truth).max() for r in (plain, replayed)]
    assert errors[1] < errors[0]
