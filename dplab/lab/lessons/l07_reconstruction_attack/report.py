"""Lesson 7, reconstruction attacks (``notebooks/07_reconstruction_attack.ipynb``; [Gaboardi17], "Multiple
queries" and "Reconstruction attack with polynomial adversary"): the lesson's data, simulations and report
rows; the formulas and attacks are dplab.reconstruction's, the figures and panels are in ``views.py``."""

from __future__ import annotations

import math

import numpy as np

import dplab.reconstruction as rec
from dplab.lab.cache import cached
from dplab.lab.report import ReportRow
from dplab.simulate import mean_ci, proportion_ci, standard_noise

NOTEBOOK, PREFIX, SEED, DELTA = "07_reconstruction_attack.ipynb", "07", 2032, 1e-6
SPLITS = ("basic", "advanced", "zcdp")
#: each split's delta at the lesson's budget: the basic split is pure DP (dplab.reconstruction wants None)
DELTAS = {"basic": None, "advanced": DELTA, "zcdp": DELTA}
#: noise draws per design: the simulated share at every noise level comes from the same draws
DRAWS = 48
KINDS = ("uniform", "gaussian", "laplace")
#: the transition figure's noise grid (E / sqrt n) and sizes; queries m = 2n
RATIOS = np.round(np.arange(0.05, 1.51, 0.05), 2)
SIZES = (100, 300, 1000)
#: the exhaustive attack (n bits, all 2^n subsets answered within E) and the adversary (n = 300, m = 600)
EXHAUSTIVE_BITS, EXHAUSTIVE_BOUNDS = 10, (0.5, 1.0, 1.5, 2.0)
ADVERSARY_N, ADVERSARY_TRIES, ADVERSARY_RATIOS = 300, 20, (0.25, 0.5, 0.75, 1.0, 1.25)
#: DP answers: the design, the budget grid, the one-sided rows (least squares, zCDP split, under the bound)
DP_N, DP_M, DP_EPSILONS = 256, 512, np.geomspace(0.1, 1000, 41)
DP_CHECK_EPSILONS, DP_CHECK_RUNS = (1.0, 30.0, 100.0), 40
#: robustness: the best attacks on a secret uniform over K values
ROBUST_K, ROBUST_EPSILON, ROBUST_MU, ROBUST_DRAWS = (2, 4, 10, 100), 1.5, 1.5, 100_000
#: the Fourier (Hadamard) attack: n = 2^16 bits, its checks' noise sd / sqrt(n) and bounds E
HADAMARD_N, HADAMARD_RATIOS, HADAMARD_BOUNDS = 2**16, (0.25, 0.5, 1.0), (2, 8, 32)
#: the report's rows on least squares against uniform noise (m = 2n)
LS_N, LS_RATIOS = 300, (0.25, 0.5, 1.0)


def design_noise(m: int, kind: str, seed: int) -> np.ndarray:
    """DRAWS standard noise vectors of length m (dplab.simulate.standard_noise), one stream per kind."""
    return standard_noise(kind, (m, DRAWS), np.random.default_rng([seed, m, KINDS.index(kind)]))


@cached(maxsize=16)
def design(n: int, m: int, seed: int = SEED) -> rec.LeastSquaresDesign:
    """n random bits, m random queries and least squares' errors for DRAWS standard noise vectors of
    each kind (dplab.reconstruction.least_squares_design: one factorisation for every noise level).
    The noise behind draw j of a kind is design_noise(m, kind, seed + n)[:, j]."""
    bits = np.random.default_rng([seed, n]).integers(0, 2, n).astype(np.uint8)
    queries = rec.subset_queries(m, n, rng=np.random.default_rng([seed, n, m]))
    return rec.least_squares_design(queries, bits, {k: design_noise(m, k, seed + n) for k in KINDS})


@cached(maxsize=32)
def simulated_curve(n: int, m: int, seed: int = SEED) -> np.ndarray:
    """Least squares' mean share over the design's draws at each noise level of RATIOS (uniform
    noise): computed once per design, not on every move of a noise slider."""
    d = design(n, m, seed)
    return np.array([d.shares("uniform", r * math.sqrt(n)).mean() for r in RATIOS])


@cached(maxsize=8)
def dp_theory_curve(split: str) -> np.ndarray:
    """dplab.reconstruction.ls_recovery_theory_dp over DP_EPSILONS at the lesson's design size and
    delta (cached: a slider redraws it)."""
    return rec.ls_recovery_theory_dp(DP_N, DP_M, DP_EPSILONS, split=split, delta=DELTAS[split])


@cached(maxsize=4)
def exhaustive_table(secrets: int = 10, seed: int = SEED) -> dict[float, tuple[int, int, int]]:
    """E -> the most bits the exhaustive attack gets wrong over ``secrets`` secrets of n = 10 bits
    (random noise on [-E, E], the adversary's answers) and the farthest consistent candidate's on
    either: dplab.reconstruction.exhaustive_attack_errors (candidate "first", then "worst")."""
    most = {e: [rec.exhaustive_attack_errors(EXHAUSTIVE_BITS, e, secrets=secrets, seed=seed, candidate=c)
                for c in ("first", "worst")] for e in EXHAUSTIVE_BOUNDS}
    return {e: (*map(int, first.max(axis=0)), int(worst.max())) for e, (first, worst) in most.items()}


@cached(maxsize=4)
def adversary_table(seed: int = SEED) -> dict[float, tuple[int, float]]:
    """E/sqrt(n) -> (bits the greedy adversary's decoy hides, the best of ADVERSARY_TRIES orders;
    bits least squares gets wrong on uniform noise of the same bound, mean of the draws),
    n = 300, m = 600."""
    d = design(ADVERSARY_N, 2 * ADVERSARY_N, seed)
    table = {}
    for ratio in ADVERSARY_RATIOS:
        e = ratio * math.sqrt(ADVERSARY_N)
        decoy = rec.adversarial_answers(d.queries, d.bits, e, tries=ADVERSARY_TRIES,
                                        rng=np.random.default_rng([seed, 7]))[1]
        random_wrong = float(ADVERSARY_N * (1 - d.shares("uniform", e).mean()))
        table[ratio] = (int(np.sum(decoy != d.bits)), random_wrong)
    return table


@cached(maxsize=8)
def dp_runs(epsilon: float, split: str = "zcdp", runs: int = DP_CHECK_RUNS, seed: int = SEED) -> np.ndarray:
    """Shares least squares recovers from DP answers, ``runs`` independent releases, through
    dplab.reconstruction.answer_queries_dp and .least_squares_attack (n = 256, m = 512)."""
    d, delta = design(DP_N, DP_M, seed), DELTAS[split]
    return rec.least_squares_shares(d.queries, d.bits, (rec.answer_queries_dp(
        d.queries, d.bits, epsilon, delta=delta, split=split, rng=np.random.default_rng([seed, r, 3]))
        for r in range(runs)))


def column_max(seed: int = SEED) -> int:
    """The largest number of section 6's queries one person is in (a column sum of A)."""
    return int(design(DP_N, DP_M, seed).queries.sum(axis=0).max())


@cached(maxsize=4)
def robustness_attacks(seed: int = SEED) -> dict[str, dict[int, int]]:
    """Successes (of ROBUST_DRAWS) of the best attacks on a secret uniform over K values
    (dplab.reconstruction.k_ary_attack_successes): K-ary randomized response at eps = 1.5 ("rr") and
    a mu-GDP release at mu = 1.5 with its argmax attacker ("gdp")."""
    out: dict[str, dict[int, int]] = {"rr": {}, "gdp": {}}
    for k in ROBUST_K:
        out["rr"][k], out["gdp"][k] = rec.k_ary_attack_successes(
            k, ROBUST_DRAWS, epsilon=ROBUST_EPSILON, mu=ROBUST_MU, rng=np.random.default_rng([seed, k]))
    return out


def report_rows(seed: int = SEED) -> list[ReportRow]:
    """This lesson's rows of figures/REPORT.md."""
    rows = []
    n, m = LS_N, 2 * LS_N
    d = design(n, m, seed)
    for ratio in LS_RATIOS:
        e = ratio * math.sqrt(n)
        shares = rec.least_squares_shares(d.queries, d.bits, (rec.answer_queries(
            d.queries, d.bits, scale=e, rng=np.random.default_rng([seed, r, 5])) for r in range(30)))
        rows.append(ReportRow(
            f"07.least_squares_{ratio:g}", "least squares recovers Φ(√(m − n)/(4σ)) of the bits (σ² = E²/3, "
            "uniform noise on [−E, E])", "Gaboardi17", f"n = {n}, m = {m}, E = {ratio:g}√n; 30 releases",
            float(rec.ls_recovery_theory(n, m, rec.answer_noise_sd("uniform", e))), "=",
            interval=lambda c, shares=shares: mean_ci(shares, c),
            catches="reconstruction.uniform_sd_12, reconstruction.ls_theory_2sigma: σ² = E²/12, or "
            "Φ(√(m − n)/(2σ))"))
    wrong = exhaustive_table(seed=seed)
    rows.append(ReportRow(
        "07.exhaustive_4e", "all 2ⁿ subsets answered within E: the exhaustive attack misses ≤ 4E bits "
        "(Dinur & Nissim)", "Gaboardi17", f"n = {EXHAUSTIVE_BITS}, E = "
        f"{', '.join(f'{e:g}' for e in EXHAUSTIVE_BOUNDS)}; random and adversarial answers; largest "
        "(wrong bits)/(4E)", 1.0, "<=", value=max(max(w) / (4 * e) for e, w in wrong.items()),
        catches="reconstruction.exhaustive_one_sided: a candidate kept when its answers are not above y + E"))
    setting = f"n = {DP_N}, m = {DP_M}, ε = {{:g}}, δ = 10⁻⁶, zCDP split"
    rows.append(ReportRow(  # only at ε = 1: at ε = 30 and 100 the bound (0.98, 1.000) is far above any share
        "07.dp_bound_1", "least squares on DP answers ≤ the per-bit bound on any attacker", "Gaboardi17",
        f"{setting.format(1)}; {DP_CHECK_RUNS} releases", float(rec.split_guessing_bound(1.0, "zcdp", DELTA)),
        "<=", interval=lambda c: mean_ci(dp_runs(1.0, seed=seed), c),
        catches="reconstruction.zcdp_noise_no_m: the zCDP split's σ without the √m of m answers"))
    for eps in DP_CHECK_EPSILONS:
        shares, sigma = dp_runs(eps, seed=seed), rec.dp_answer_noise(DP_M, eps, delta=DELTA, split="zcdp")[1]
        rows.append(ReportRow(
            f"07.dp_least_squares_{eps:g}", "least squares on DP answers = meanᵢ Φ(1/(2σ√vᵢ)), "
            "vᵢ = ((AᵀA)⁻¹)ᵢᵢ (exact, Gaussian noise)", "Gaboardi17", f"{setting.format(eps)} (σ = "
            f"{sigma:.3g}); {DP_CHECK_RUNS} releases", rec.ls_recovery_exact(design(DP_N, DP_M, seed).queries,
            sigma), "=", interval=lambda c, shares=shares: mean_ci(shares, c),
            catches="reconstruction.gaussian_scale_as_variance, reconstruction.ls_exact_no_2: noise √σ, or "
            "Φ(1/(σ√vᵢ))"))
    draws, rng = 200_000, np.random.default_rng([seed, 11])  # randomized response on a bit, output guessed
    right = rec.k_ary_attack_successes(2, draws, epsilon=1.0, mu=0.0, rng=rng)[0]
    rows.append(ReportRow(
        "07.guessing_rr", "dplab.RandomizedResponse(ε) on a bit, guessed by its output, attains the per-bit "
        "bound (e^ε + δ)/(1 + e^ε) of dp_guessing_bound", "Gaboardi17", "ε = 1, δ = 0, prior 1/2; 2·10⁵ bits",
        rec.dp_guessing_bound(1.0), "=", interval=lambda c: proportion_ci(right, draws, c),
        catches="randomized_response.keep_k: the truth kept with e^ε/(e^ε + K), not e^ε/(e^ε + K − 1)"))
    attacks = robustness_attacks(seed)
    for k in (2, 100):
        rows.append(ReportRow(
            f"07.argmax_gdp_{k}", "the argmax attack on a μ-GDP release of one of K values succeeds "
            "∫φ(t − μ/√2)Φ(t)^(K−1)dt", "Gaboardi17", f"K = {k}, μ = {ROBUST_MU:g}; 10⁵ draws (the bound 1 − "
            f"f(1/K) = {rec.reconstruction_robustness_bound(1 / k, mu=ROBUST_MU):.3f} is above it)",
            rec.argmax_guess_success(ROBUST_MU, k), "=",
            interval=lambda c, k=k: proportion_ci(attacks["gdp"][k], ROBUST_DRAWS, c),
            catches="reconstruction.argmax_shift_mu: the secret's coordinate shifted by μ, not μ/√2"))
    e_eps = math.exp(ROBUST_EPSILON)  # the bound e^ε κ + δ = 0.0448 holds by algebra: shown, not the check
    rows.append(ReportRow(
        "07.robustness_rr_100", "K-ary randomized response (dplab.RandomizedResponse), guessed by its "
        "output, succeeds e^ε/(e^ε + K − 1)", "Gaboardi17", f"K = 100, ε = {ROBUST_EPSILON:g}; 10⁵ draws "
        f"(bound e^ε κ = {rec.reconstruction_robustness_bound(0.01, epsilon=ROBUST_EPSILON):.4f}, "
        "Kaissis et al. 2023)", e_eps / (e_eps + 99), "=",
        interval=lambda c: proportion_ci(attacks["rr"][100], ROBUST_DRAWS, c),
        catches="randomized_response.other_includes_truth: the other value drawn from all K values"))
    return rows
