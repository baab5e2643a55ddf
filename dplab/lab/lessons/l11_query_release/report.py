"""Lesson 11, query release in practice (notebook 11): constants, seeded runs, report rows (figures in
views.py; theory in dplab.query_release: Hardt, Ligett & McSherry 2012 (HLM12) for MWEM; Gaboardi, Gallego
Arias, Hsu, Roth & Wu 2014 (GAHRW14) for DualQuery; the baselines of notebook 5 in dplab.net_mechanism and
dplab.query_release.baselines). Counting queries over the YRBSS students as binary records."""

from __future__ import annotations

import math
import time
import tracemalloc

import numpy as np
from scipy import special

from dplab import net_mechanism as nm
from dplab import query_release as qr
from dplab.lab.cache import cached
from dplab.lab.report import ReportRow
from dplab.simulate import bonferroni_confidence, mean_ci, proportion_ci

NOTEBOOK = "11_query_release.ipynb"
PREFIX = "11"
SEED = 2041
#: the notebook's confidence intervals: 2 in section 1 (Laplace's max error, the histogram's squared
#: error), 2 in section 2 (the first choice's law, the measurements' noise)
N_INTERVALS = 4
LEVEL = bonferroni_confidence(N_INTERVALS, family_error=0.01)  #: each interval's level (1% for all)

EPSILON, BETA, DELTA = 1.0, 0.05, 1e-6
#: the universes |X| = 2^bits of the comparisons (3: notebook 5's eight cells); the workload's ranges
#: have ends on multiples of RANGE_STEP bins at 16 bits (10,848 queries), of 1 below
BITS, RANGE_STEP = (3, 8, 12, 16), {16: 2}
#: the query counts of the bounds' figure and panel
KS = np.unique(np.geomspace(10, 10**6, 41).round().astype(int))
BASELINES = ("Laplace, basic", "Laplace, advanced", "noisy histogram", "net mechanism")


@cached(maxsize=8)
def universe(bits: int) -> tuple[np.ndarray, qr.Workload, np.ndarray]:
    """(histogram of the students over X = {0, 1}^bits, the workload as an operator, its true answers as
    shares of n): dplab.query_release.yrbss_histogram and yrbss_workload."""
    h = qr.yrbss_histogram(bits)
    w = qr.yrbss_workload(bits, range_step=RANGE_STEP.get(bits, 1))
    return h, w, w.matvec(h) / h.sum()


def baseline_bounds(k: int, bits: int, epsilon: float = EPSILON, n: int = 12_579, beta: float = BETA,
                    delta: float = DELTA) -> dict[str, float]:
    """Each baseline's (1 - beta) bound on the max error over k counting queries (shares of n; replace-one,
    public n, Delta = 1/n): Laplace on every answer at the scale qr.laplace_answers uses (basic; advanced
    with DRV solved exactly: qr.laplace_answers_max_error_bound), the raw noisy histogram over 2^bits
    cells (Chernoff and a union bound) and the net mechanism's best m (notebook 5's functions)."""
    out = {f"Laplace, {c}": float(qr.laplace_answers_max_error_bound(k, epsilon, beta, c, delta)) / n
           for c in qr.COMPOSITIONS}
    hist = nm.noisy_histogram_max_error_bound(2**bits, n, epsilon, beta, n_queries=k)
    return {**out, "noisy histogram": hist,
            "net mechanism": nm.net_mechanism_accuracy(2.0**bits, k, n, epsilon, beta, m_max=2_000)[0]}


# --- 1. the baselines measured on the workload -----------------------------------------------------
MAIN_BITS, BASELINE_RUNS = 12, 200


@cached(maxsize=4)
def laplace_max_errors(bits: int = MAIN_BITS, epsilon: float = EPSILON, runs: int = BASELINE_RUNS,
                       seed: int = SEED) -> np.ndarray:
    """Max error (counts) of qr.laplace_answers (basic composition) over the workload, per run."""
    h, w, truth = universe(bits)
    rng = np.random.default_rng([seed, 1, bits])
    return np.array([np.abs(qr.laplace_answers(truth * h.sum(), epsilon, rng) - truth * h.sum()).max()
                     for _ in range(runs)])


@cached(maxsize=4)
def histogram_squared_errors(bits: int = MAIN_BITS, epsilon: float = EPSILON, runs: int = BASELINE_RUNS,
                             seed: int = SEED) -> np.ndarray:
    """Sum over the workload of the squared errors (counts) of qr.noisy_histogram without projection."""
    h, w, truth = universe(bits)
    rng = np.random.default_rng([seed, 2, bits])
    return np.array([np.sum((w.matvec(qr.noisy_histogram(h, epsilon, rng, project=False)) - truth * h.sum())
                            ** 2) for _ in range(runs)])


# --- 2. MWEM ------------------------------------------------------------------------------------------
PANEL_BITS = 8
#: the first choice's law: one round at CHOICE_EPSILON (its choice at CHOICE_EPSILON/2), CHOICE_RUNS runs
CHOICE_EPSILON, CHOICE_RUNS = 0.02, 1000
#: the measurements: MEASURE_RUNS runs of MEASURE_ROUNDS rounds at EPSILON
MEASURE_ROUNDS, MEASURE_RUNS = 20, 30


def first_choice_probabilities(epsilon: float = CHOICE_EPSILON, rounds: int = 1, bits: int = PANEL_BITS
                               ) -> np.ndarray:
    """The exact law of MWEM's first choice, by hand: A_0 is n times the uniform distribution, the score of
    query q is |q(A_0) - q(B)| (counts, sensitivity 1), the exponential mechanism at eps/(2T) picks q with
    probability softmax(eps/(2T) score / 2) (scipy.special.softmax)."""
    h, w, truth = universe(bits)
    scores = np.abs(w.matvec(np.full(h.size, h.sum() / h.size)) - truth * h.sum())
    return special.softmax(epsilon / (2 * rounds) * scores / 2)


@cached(maxsize=2)
def first_choices(seed: int = SEED) -> np.ndarray:
    """The first query MWEM chose in each of CHOICE_RUNS one-round runs at CHOICE_EPSILON."""
    h, w, _ = universe(PANEL_BITS)
    return np.array([qr.mwem(h, w, CHOICE_EPSILON, 1, np.random.default_rng([seed, 3, i]))[1][0]
                     for i in range(CHOICE_RUNS)])


@cached(maxsize=2)
def measurement_noise(seed: int = SEED) -> np.ndarray:
    """m_i - q_i(B) (counts) of every round of MEASURE_RUNS runs of qr.mwem_run (MEASURE_ROUNDS rounds)."""
    h, w, truth = universe(PANEL_BITS)
    out = []
    for i in range(MEASURE_RUNS):
        run = qr.mwem_run(h, w, EPSILON, MEASURE_ROUNDS, np.random.default_rng([seed, 4, i]))
        out.append(run.measurements - truth[run.choices] * h.sum())
    return np.concatenate(out)


def ledger_epsilon(run: qr.MWEMRun) -> float:
    """The budget a run spent, recomputed from its ledger's noise scales: each Laplace step is Delta/b-DP,
    each exponential step (Gumbel noise of scale 2 Delta/eps) is 2 Delta/scale-DP; summed (basic
    composition)."""
    return float(sum(laplace.sensitivity / laplace.scale + 2 * choice.sensitivity / choice.scale
                     for choice, laplace in run.ledger))


#: the error-against-T figure: rounds, epsilons, the variants of HLM12 (the theorem's, and its practice)
ROUNDS = (5, 10, 20, 40, 80)
EPSILONS = (0.25, 0.5, 1.0, 2.0, 4.0)
VARIANTS = {"average iterate (Theorem 2.2)": {}, "last iterate": {"iterate": "last"},
            "last iterate, one replay pass": {"iterate": "last", "replay": 1}}


@cached(maxsize=64)
def mwem_errors(bits: int, epsilon: float, rounds: int, variant: str = "average iterate (Theorem 2.2)",
                seed: int = SEED) -> tuple[float, float]:
    """(max, mean) error (shares of n) of one MWEM run on the workload."""
    h, w, truth = universe(bits)
    rng = np.random.default_rng([seed, 5, bits, rounds])
    run = qr.mwem_run(h, w, epsilon, rounds, rng, **VARIANTS[variant])
    return qr.release_errors(truth, w.matvec(run.distribution))


# --- 3. DualQuery ---------------------------------------------------------------------------------
DQ_BITS, DQ_INSTANCES, DQ_SAMPLES = 12, 12, 50


def best_response_gaps(seed: int = SEED) -> np.ndarray:
    """|value of the milp best response - value of the enumerated one| on DQ_INSTANCES random sets of
    DQ_SAMPLES signed 1- and 2-way marginal queries over DQ_BITS attributes (0 when both are optimal)."""
    conj = qr.as_conjunctions(qr.marginal_conjunctions(DQ_BITS), DQ_BITS)
    rng, out = np.random.default_rng([seed, 6]), []
    for _ in range(DQ_INSTANCES):
        sampled = rng.integers(0, 2 * conj.size, DQ_SAMPLES)
        values = [qr.best_response_value(qr.best_response(conj, sampled, DQ_BITS, method=m, rng=rng), conj,
                                         sampled) for m in ("milp", "enumerate")]
        out.append(abs(values[0] - values[1]))
    return np.array(out)


def dual_query_epsilon_by_hand(eta: float, samples: int, rounds: int, n: int, delta: float) -> float:
    """GAHRW14's privacy, as the authors' code has it: eps_0 = 2 eta (T - 1)/n for each of the s (T - 1)
    draws of rounds 2..T, composed by advanced composition: eps_0 sqrt(2 s (T - 1) ln(1/delta)) +
    s (T - 1) eps_0 (e^eps_0 - 1)."""
    e0, draws = 2 * eta * (rounds - 1) / n, samples * (rounds - 1)
    return e0 * math.sqrt(2 * draws * math.log(1 / delta)) + draws * e0 * math.expm1(e0)


#: 2^30: synthetic records of the block design of dplab.query_release.binary_data (labelled synthetic)
BIG_N, BIG_BITS = 20_000, 30


@cached(maxsize=2)
def big_run(epsilon: float = EPSILON, seed: int = SEED) -> tuple[qr.DualQueryResult, float, float, float]:
    """DualQuery (milp best response) on BIG_N synthetic records over 30 attributes (|X| = 2^30), the
    1- and 2-way marginals: (result, seconds, peak MiB by tracemalloc, max error)."""
    x = qr.block_binary_records(BIG_N, rng=np.random.default_rng([seed, 7]))
    conj = qr.marginal_conjunctions(BIG_BITS)
    tracemalloc.start()
    start = time.perf_counter()
    result = qr.dual_query(x, conj, epsilon, DELTA, rng=np.random.default_rng([seed, 8]))
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return result, seconds, peak, qr.synthetic_data_error(result.records, x, conj)[0]


def big_laplace_error(epsilon: float = EPSILON) -> float:
    """E[max error] (share of n) of Laplace on every answer (advanced composition at DELTA) to big_run's
    1- and 2-way marginals over 2^BIG_BITS: qr.laplace_answers_expected_errors; it never builds X either."""
    k = len(qr.marginal_conjunctions(BIG_BITS))
    return float(qr.laplace_answers_expected_errors(k, epsilon, "advanced", DELTA)[0]) / BIG_N


# --- 4. who wins where: every method on the 1-, 2- and 3-way marginals ---------------------------------
METHODS = ("Laplace, basic", "Laplace, advanced", "noisy histogram", "MWEM", "DualQuery", "net mechanism")
#: measured at EPSILON over BITS, and over WIN_EPSILONS at MAIN_BITS; MWEM's rounds; the net's m (at 2^3)
WAYS, WIN_EPSILONS, WIN_ROUNDS, NET_M = (1, 2, 3), (0.25, 1.0, 4.0), 30, 13


@cached(maxsize=8)
def marginals(bits: int) -> tuple[np.ndarray, list, qr.Workload, np.ndarray]:
    """(histogram, the 1-, 2- and 3-way marginals' cells as conjunctions, as an operator, true shares)."""
    h, conj = qr.yrbss_histogram(bits), qr.marginal_conjunctions(bits, [w for w in WAYS if w <= bits])
    w = qr.Workload(bits, conj)
    return h, conj, w, w.matvec(h) / h.sum()


def _release(method: str, bits: int, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """One release of ``method``'s answers (shares of n) to the marginals over 2^bits: MWEM's last iterate
    after WIN_ROUNDS rounds, DualQuery at (epsilon, DELTA) with the exact best response by enumeration up
    to 2^12 and by the integer program above."""
    h, conj, w, truth = marginals(bits)
    n = h.sum()
    if method.startswith("Laplace"):
        return qr.laplace_answers(truth * n, epsilon, rng, composition=method.split(", ")[1], delta=DELTA) / n
    if method.startswith("noisy histogram"):  # ", raw": before the projection, on the same draws
        return w.matvec(qr.noisy_histogram(h, epsilon, rng, project=not method.endswith("raw"))) / n
    if method == "MWEM":
        return w.matvec(qr.mwem(h, w, epsilon, WIN_ROUNDS, rng, iterate="last")[0])
    if method == "net mechanism":
        dense = np.array([w.row(j) for j in range(w.shape[0])]).astype(np.int64)
        return w.matvec(nm.net_mechanism(h, dense, epsilon, m=NET_M, rng=rng).histogram) / NET_M
    solver = "enumerate" if bits <= 12 else "milp"
    synthetic = qr.dual_query(qr.yrbss_records(bits), conj, epsilon, DELTA, best_response=solver, rng=rng)
    return qr.answers_on_records(synthetic.records, conj)


@cached(maxsize=128)
def who_wins(method: str, bits: int, epsilon: float, seed: int = SEED) -> tuple[float, float, float]:
    """(max error, mean error, seconds) of one release by ``method`` (the net mechanism at 2^3 only; also
    "noisy histogram, raw", on the projected one's draws)."""
    truth, index = marginals(bits)[3], METHODS.index(method.removesuffix(", raw"))  # before the clock starts
    start = time.perf_counter()
    answers = _release(method, bits, epsilon, np.random.default_rng([seed, 9, bits, index]))
    seconds = time.perf_counter() - start
    return (*qr.release_errors(truth, answers), seconds)


def report_rows(seed: int = SEED) -> list[ReportRow]:
    """This lesson's rows of figures/REPORT.md."""
    h, w, truth = universe(MAIN_BITS)
    n, k = int(h.sum()), w.shape[0]
    expected_max = k / EPSILON * (special.digamma(k + 1) + np.euler_gamma)  # E max of k |Lap(k/eps)|, by hand
    sizes = w.matvec(np.ones(h.size))  # the cells each query sums
    expected_sq = float(np.sum(2 * sizes * (2 / EPSILON) ** 2))  # Lap(2/eps) per cell, by hand
    where = f"|X| = 2^{MAIN_BITS}, k = {k:,} queries, n = {n:,}, ε = {EPSILON:g}; {BASELINE_RUNS} runs"
    p, chosen = first_choice_probabilities(), first_choices(seed)
    top = int(np.argmax(p))
    noise = measurement_noise(seed)
    h8, w8, _ = universe(PANEL_BITS)
    run = qr.mwem_run(h8, w8, EPSILON, MEASURE_ROUNDS, seed)
    rounds = qr.dual_query_rounds(EPSILON, DELTA, 1.0, DQ_SAMPLES, n)
    return [
        ReportRow("11.laplace_max", "Laplace on every answer, Lap(k/ε) each: E[max error] = (k/ε) H_k, "
                  "H_k = ψ(k + 1) + γ", "Roth11", where, float(expected_max), "=",
                  interval=lambda c: mean_ci(laplace_max_errors(seed=seed), c),
                  catches="qr.l11_laplace_eps_per_answer: each answer at ε, not ε/k"),
        ReportRow("11.histogram_sq", "noisy histogram, Lap(2/ε) per cell (replace-one): E Σ_q err_q² = "
                  "Σ_q 2 m_q (2/ε)², m_q the cells q sums", "Roth11", where + ", no projection", expected_sq,
                  "=",
                  interval=lambda c: mean_ci(histogram_squared_errors(seed=seed), c),
                  catches="qr.histogram_sensitivity: sensitivity 1 with n public"),
        ReportRow("11.mwem_first_choice", "MWEM's first choice: Pr[worst query] = softmax(ε/(2T) · |q(A₀) − "
                  "q(B)| / 2) at A₀ uniform", "Gaboardi17",
                  f"|X| = 2^{PANEL_BITS}, k = {w8.shape[0]}, T = 1, ε = {CHOICE_EPSILON:g}; {CHOICE_RUNS} "
                  "runs", float(p[top]), "=",
                  interval=lambda c: proportion_ci(int(np.sum(chosen == top)), CHOICE_RUNS, c),
                  catches="qr.l11_mwem_select_monotone, qr.round_epsilon: a choice at 2ε/(2T)"),
        ReportRow("11.mwem_measurement", "MWEM's measurements: E(m − q(B))² = 2 (2T/ε)² (Lap(2T/ε) on "
                  "counts)", "Gaboardi17", f"|X| = 2^{PANEL_BITS}, T = {MEASURE_ROUNDS}, ε = {EPSILON:g}; "
                  f"{MEASURE_RUNS} runs", 2 * (2 * MEASURE_ROUNDS / EPSILON) ** 2, "=",
                  interval=lambda c: mean_ci(noise**2, c),
                  catches="qr.round_epsilon, qr.laplace_sensitivity: each step at ε/T; Lap(2 · 2T/ε)"),
        ReportRow("11.mwem_ledger", "MWEM's budget recomputed from its ledger's noise scales (Δ/b per step) "
                  "sums to ε", "Gaboardi17", f"T = {MEASURE_ROUNDS}, ε = {EPSILON:g}", EPSILON, "exact",
                  value=ledger_epsilon(run), catches="qr.round_epsilon: each step at ε/T"),
        ReportRow("11.dq_best_response", "DualQuery's best response: the integer program's value = the "
                  "enumeration's (max |gap|)", "Gaboardi17",
                  f"{DQ_INSTANCES} random sets of {DQ_SAMPLES} signed 1- and 2-way marginals, d = {DQ_BITS}",
                  0.0, "exact", value=float(best_response_gaps(seed).max()),
                  catches="qr.dq_milp_negation: a negated conjunction's y_j ≤ x_a"),
        ReportRow("11.dq_epsilon", "DualQuery's ε = ε₀ √(2s(T − 1) ln(1/δ)) + s(T − 1) ε₀ (e^ε₀ − 1), ε₀ = "
                  "2η(T − 1)/n (GAHRW14, as the authors' code computes it)", "Gaboardi17",
                  f"η = 1, s = {DQ_SAMPLES}, T = {rounds}, n = {n:,}, δ = {DELTA:g}",
                  dual_query_epsilon_by_hand(1.0, DQ_SAMPLES, rounds, n, DELTA), "exact",
                  value=qr.dual_query_epsilon(1.0, DQ_SAMPLES, rounds, n, DELTA),
                  catches="qr.dq_eps_rounds: the draws of T rounds, not T − 1"),
    ]
