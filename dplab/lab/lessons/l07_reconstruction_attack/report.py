"""Lesson 7, reconstruction attacks: the computations, report rows and exercises (no plotting;
the figures and the panels are in ``views.py``).

Notebook ``notebooks/07_reconstruction_attack.ipynb``. Seed 001, "Multiple queries" and
"Reconstruction attack with polynomial adversary".
"""

from __future__ import annotations

import math

import numpy as np

from dplab.lab.cache import cached
from dplab.lab.report import ReportRow
from dplab.mechanisms import RandomizedResponse
from dplab.reconstruction import (
    LeastSquaresDesign,
    adversarial_answers,
    all_subset_queries,
    answer_noise_sd,
    answer_queries,
    answer_queries_dp,
    argmax_guess_success,
    dp_answer_noise,
    dp_guessing_bound,
    exhaustive_attack,
    least_squares_attack,
    least_squares_design,
    ls_recovery_exact,
    ls_recovery_theory,
    reconstruction_robustness_bound,
    split_guessing_bound,
    subset_queries,
    zcdp_split_guessing_bound,
)
from dplab.simulate import mean_ci, proportion_ci, standard_noise

NOTEBOOK = "07_reconstruction_attack.ipynb"
PREFIX = "07"
SEED = 2032
DELTA = 1e-6
SPLITS = ("basic", "advanced", "zcdp")
#: noise draws per design: the simulated share at every noise level comes from the same draws
DRAWS = 48
KINDS = ("uniform", "gaussian", "laplace")
#: the transition figure's noise grid (E / sqrt n) and sizes; queries m = 2n
RATIOS = np.round(np.arange(0.05, 1.51, 0.05), 2)
SIZES = (100, 300, 1000)


def noise_bound(ratio: float, n: int) -> float:
    """E for a noise level given as E / sqrt(n)."""
    return ratio * math.sqrt(n)


def design_noise(m: int, kind: str, seed: int) -> np.ndarray:
    """DRAWS standard noise vectors of length m (dplab.simulate.standard_noise), one stream per kind."""
    return standard_noise(kind, (m, DRAWS), np.random.default_rng([seed, m, KINDS.index(kind)]))


@cached(maxsize=16)
def design(n: int, m: int, seed: int = SEED) -> LeastSquaresDesign:
    """n random bits, m random queries and least squares' errors for DRAWS standard noise vectors of
    each kind (dplab.reconstruction.least_squares_design: one factorisation for every noise level).
    The noise behind draw j of a kind is design_noise(m, kind, seed + n)[:, j]."""
    bits = np.random.default_rng([seed, n]).integers(0, 2, n).astype(np.uint8)
    queries = subset_queries(m, n, rng=np.random.default_rng([seed, n, m]))
    return least_squares_design(queries, bits, {k: design_noise(m, k, seed + n) for k in KINDS})


@cached(maxsize=32)
def simulated_curve(n: int, m: int, seed: int = SEED) -> np.ndarray:
    """Least squares' mean share over the design's draws at each noise level of RATIOS (uniform
    noise): computed once per design, not on every move of a noise slider."""
    d = design(n, m, seed)
    curve = np.array([d.shares("uniform", noise_bound(r, n)).mean() for r in RATIOS])
    curve.flags.writeable = False
    return curve


def dp_noise(m: int, epsilon: float, split: str, delta: float = DELTA) -> tuple[str, float]:
    """dplab.reconstruction.dp_answer_noise with the lesson's delta (none for the basic split)."""
    return dp_answer_noise(m, epsilon, delta=None if split == "basic" else delta, split=split)


@cached(maxsize=8)
def dp_theory_curve(split: str) -> np.ndarray:
    """dp_theory over DP_EPSILONS for the lesson's design size (cached: a slider redraws it)."""
    curve = dp_theory(DP_N, DP_M, DP_EPSILONS, split)
    curve.flags.writeable = False
    return curve


def dp_theory(n: int, m: int, epsilon, split: str, delta: float = DELTA):
    """Least squares' expected share on DP answers (the formula with the split's noise sd)."""
    eps = np.atleast_1d(np.asarray(epsilon, dtype=float))
    sds = [answer_noise_sd(*dp_noise(m, float(e), split, delta)) for e in eps]
    out = ls_recovery_theory(n, m, np.array(sds))
    return out if np.ndim(epsilon) else float(np.atleast_1d(out)[0])


def zcdp_bound(m: int, epsilon, delta: float = DELTA):
    """Any attacker's per-bit success against the zCDP split of m answers at the lesson's delta
    (dplab.reconstruction.zcdp_split_guessing_bound: the same for every m)."""
    return zcdp_split_guessing_bound(epsilon, delta)


def attacker_bound(epsilon: float, split: str) -> float:
    """The bound on any attacker's per-bit success against the split's release at the lesson's
    delta (dplab.reconstruction.split_guessing_bound)."""
    return float(split_guessing_bound(epsilon, split, None if split == "basic" else DELTA))


# --- the exhaustive attack and the adversary -----------------------------------------------------------

EXHAUSTIVE_BITS = 10
EXHAUSTIVE_BOUNDS = (0.5, 1.0, 1.5, 2.0)


@cached(maxsize=4)
def exhaustive_table(secrets: int = 10, seed: int = SEED) -> dict[float, tuple[int, int]]:
    """E -> (most wrong bits over ``secrets`` secrets with random noise on [-E, E], the same
    with the adversary's answers), all 2^10 subsets answered, n = 10."""
    q = all_subset_queries(EXHAUSTIVE_BITS)
    table = {}
    for e in EXHAUSTIVE_BOUNDS:
        worst = [0, 0]
        for s in range(secrets):
            x = np.random.default_rng([seed, s]).integers(0, 2, EXHAUSTIVE_BITS).astype(np.uint8)
            answers = (
                answer_queries(q, x, scale=e, rng=np.random.default_rng([seed, s, 1])),
                adversarial_answers(q, x, e, rng=np.random.default_rng([seed, s, 2]))[0],
            )
            for j, y in enumerate(answers):
                worst[j] = max(worst[j], int(np.sum(exhaustive_attack(y, EXHAUSTIVE_BITS, e) != x)))
        table[e] = tuple(worst)
    return table


ADVERSARY_N = 300
ADVERSARY_RATIOS = (0.25, 0.5, 0.75, 1.0, 1.25)
ADVERSARY_TRIES = 20


@cached(maxsize=4)
def adversary_table(seed: int = SEED) -> dict[float, tuple[int, float]]:
    """E/sqrt(n) -> (bits the greedy adversary's decoy hides, the best of ADVERSARY_TRIES orders;
    bits least squares gets wrong on uniform noise of the same bound, mean of the draws),
    n = 300, m = 600."""
    d = design(ADVERSARY_N, 2 * ADVERSARY_N, seed)
    table = {}
    for ratio in ADVERSARY_RATIOS:
        e = noise_bound(ratio, ADVERSARY_N)
        decoy = adversarial_answers(
            d.queries, d.bits, e, tries=ADVERSARY_TRIES, rng=np.random.default_rng([seed, 7])
        )[1]
        random_wrong = float(ADVERSARY_N * (1 - d.shares("uniform", e).mean()))
        table[ratio] = (int(np.sum(decoy != d.bits)), random_wrong)
    return table


# --- DP --------------------------------------------------------------------------------------------

DP_N, DP_M = 256, 512
DP_EPSILONS = np.geomspace(0.1, 1000, 41)
#: the one-sided rows: least squares on DP answers (zCDP split) under the bound on any attacker
DP_CHECK_EPSILONS = (1.0, 30.0, 100.0)
DP_CHECK_RUNS = 40


@cached(maxsize=8)
def dp_runs(epsilon: float, split: str = "zcdp", runs: int = DP_CHECK_RUNS, seed: int = SEED) -> np.ndarray:
    """Shares least squares recovers from DP answers, ``runs`` independent releases, through
    dplab.reconstruction.answer_queries_dp and .least_squares_attack (n = 256, m = 512)."""
    d = design(DP_N, DP_M, seed)
    delta = None if split == "basic" else DELTA
    return np.array(
        [
            np.mean(
                least_squares_attack(
                    d.queries,
                    answer_queries_dp(
                        d.queries,
                        d.bits,
                        epsilon,
                        delta=delta,
                        split=split,
                        rng=np.random.default_rng([seed, r, 3]),
                    ),
                )
                == d.bits
            )
            for r in range(runs)
        ]
    )


# --- robustness: simulated optimal attackers on a secret of K values ----------------------------------

ROBUST_K = (2, 4, 10, 100)
ROBUST_EPSILON, ROBUST_MU = 1.5, 1.5
ROBUST_DRAWS = 100_000


@cached(maxsize=4)
def robustness_attacks(seed: int = SEED) -> dict[str, dict[int, int]]:
    """Successes (of ROBUST_DRAWS) of the best attack on a secret uniform over K values, for
    K-ary randomized response at eps = 1.5 and a mu-GDP release (mu = 1.5: s e_z + N(0, I),
    s = mu / sqrt 2) with its argmax attacker."""
    out: dict[str, dict[int, int]] = {"rr": {}, "gdp": {}}
    for k in ROBUST_K:
        rng = np.random.default_rng([seed, k])
        z = rng.integers(0, k, ROBUST_DRAWS)
        out["rr"][k] = int(np.sum(RandomizedResponse(ROBUST_EPSILON, k).sample(z, rng) == z))
        y = rng.standard_normal((ROBUST_DRAWS, k))
        y[np.arange(ROBUST_DRAWS), z] += ROBUST_MU / math.sqrt(2)
        out["gdp"][k] = int(np.sum(np.argmax(y, axis=1) == z))
    return out


# --- the report -----------------------------------------------------------------------------------

LS_N = 300
LS_RATIOS = (0.25, 0.5, 1.0)


def report_rows(seed: int = SEED) -> list[ReportRow]:
    """This lesson's rows of figures/REPORT.md."""
    rows = []
    n, m = LS_N, 2 * LS_N
    d = design(n, m, seed)
    for ratio in LS_RATIOS:
        e = noise_bound(ratio, n)
        shares = []
        for r in range(30):  # through the library's attack, not the design's shortcut
            y = answer_queries(d.queries, d.bits, scale=e, rng=np.random.default_rng([seed, r, 5]))
            shares.append(np.mean(least_squares_attack(d.queries, y) == d.bits))
        rows.append(
            ReportRow(
                f"07.least_squares_{ratio:g}",
                "least squares recovers Φ(√(m − n)/(4σ)) of the bits (σ² = E²/3, uniform noise on [−E, E])",
                "001",
                f"n = {n}, m = {m}, E = {ratio:g}√n; 30 releases",
                float(ls_recovery_theory(n, m, answer_noise_sd("uniform", e))),
                "=",
                interval=lambda c, shares=shares: mean_ci(shares, c),
            )
        )
    table = exhaustive_table(seed=seed)
    ratio_4e = max(max(wrong) / (4 * e) for e, wrong in table.items())
    rows.append(
        ReportRow(
            "07.exhaustive_4e",
            "all 2ⁿ subsets answered within E: the exhaustive attack misses ≤ 4E bits (Dinur & Nissim)",
            "001",
            f"n = {EXHAUSTIVE_BITS}, E = {', '.join(f'{e:g}' for e in EXHAUSTIVE_BOUNDS)}; random and "
            "adversarial answers; largest (wrong bits)/(4E)",
            1.0,
            "<=",
            value=ratio_4e,
        )
    )
    for eps in DP_CHECK_EPSILONS:
        shares = dp_runs(eps, seed=seed)
        bound = attacker_bound(eps, "zcdp")
        rows.append(
            ReportRow(
                f"07.dp_bound_{eps:g}",
                "least squares on DP answers ≤ the per-bit bound on any attacker",
                "001",
                f"n = {DP_N}, m = {DP_M}, ε = {eps:g}, δ = 10⁻⁶, zCDP split; {DP_CHECK_RUNS} releases",
                bound,
                "<=",
                interval=lambda c, shares=shares: mean_ci(shares, c),
            )
        )
    d_dp = design(DP_N, DP_M, seed)
    for eps in DP_CHECK_EPSILONS:
        shares = dp_runs(eps, seed=seed)
        sigma = dp_noise(DP_M, eps, "zcdp")[1]
        rows.append(
            ReportRow(
                f"07.dp_least_squares_{eps:g}",
                "least squares on DP answers = meanᵢ Φ(1/(2σ√vᵢ)), vᵢ = ((AᵀA)⁻¹)ᵢᵢ (exact, Gaussian noise)",
                "001",
                f"n = {DP_N}, m = {DP_M}, ε = {eps:g}, δ = 10⁻⁶, zCDP split (σ = {sigma:.3g}); "
                f"{DP_CHECK_RUNS} releases",
                ls_recovery_exact(d_dp.queries, sigma),
                "=",
                interval=lambda c, shares=shares: mean_ci(shares, c),
            )
        )
    draws = 200_000
    rng = np.random.default_rng([seed, 11])
    bits = rng.integers(0, 2, draws)
    right = int(np.sum(RandomizedResponse(1.0).sample(bits, rng) == bits))
    rows.append(
        ReportRow(
            "07.guessing_rr",
            "randomized response attains the per-bit bound (e^ε + δ)/(1 + e^ε)",
            "001",
            "ε = 1, δ = 0, prior 1/2; 2·10⁵ bits",
            dp_guessing_bound(1.0),
            "=",
            interval=lambda c: proportion_ci(right, draws, c),
        )
    )
    attacks = robustness_attacks(seed)
    for k in (2, 100):
        rows.append(
            ReportRow(
                f"07.argmax_gdp_{k}",
                "the argmax attack on a μ-GDP release of one of K values succeeds ∫φ(t − μ/√2)Φ(t)^(K−1)dt",
                "001",
                f"K = {k}, μ = {ROBUST_MU:g}; 10⁵ draws (the bound 1 − f(1/K) = "
                f"{reconstruction_robustness_bound(1 / k, mu=ROBUST_MU):.3f} is above it)",
                argmax_guess_success(ROBUST_MU, k),
                "=",
                interval=lambda c, k=k: proportion_ci(attacks["gdp"][k], ROBUST_DRAWS, c),
            )
        )
    rows.append(
        ReportRow(
            "07.robustness_rr_100",
            "reconstruction robustness, ε-DP: K-ary randomized response ≤ e^ε κ + δ (Kaissis et al. 2023)",
            "001",
            f"K = 100 (κ = 0.01), ε = {ROBUST_EPSILON:g}, δ = 0; 10⁵ draws",
            reconstruction_robustness_bound(0.01, epsilon=ROBUST_EPSILON),
            "<=",
            interval=lambda c: proportion_ci(attacks["rr"][100], ROBUST_DRAWS, c),
        )
    )
    return rows




def column_max(seed: int = SEED) -> int:
    """The largest number of section 6's queries one person is in (a column sum of A)."""
    return int(design(DP_N, DP_M, seed).queries.sum(axis=0).max())
