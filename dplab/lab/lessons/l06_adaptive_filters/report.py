"""Lesson 6 (notebook 06), composition, privacy filters and noise reduction: constants, the simulations'
seeds and caches, report rows; figures and the panel are in ``views.py``, the quantities in
``dplab.accounting``, ``dplab.mechanisms.noise_reduction`` and ``dplab.accuracy_first``. Lectures: Rogers,
Samorodnitsky, Wu & Ramdas, "Adaptive Privacy Composition for Accuracy-first Mechanisms" (NeurIPS 2023),
Roth's Lecture 5, "The Net Mechanism" (advanced composition), CSE660 (answering many queries)."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np

from dplab import accounting as acc
from dplab.accuracy_first import RELEASE_METHODS, Release, heavy_tailed_counts, release_counts
from dplab.lab.cache import cached
from dplab.lab.report import ReportRow
from dplab.mechanisms import EpsilonDelta
from dplab.mechanisms import noise_reduction as nr
from dplab.simulate import bonferroni_confidence, mean_ci, proportion_ci

NOTEBOOK, PREFIX, SEED = "06_adaptive_filters.ipynb", "06", 2031
#: the notebook's confidence intervals (cell 19 counts them) and their Bonferroni level (family-wise 99%)
NOTEBOOK_CHECKS = 26
LEVEL = bonferroni_confidence(NOTEBOOK_CHECKS, family_error=0.01)

# --- composition -----------------------------------------------------------------------------
EPS0, DELTA = 0.1, 1e-6
#: k steps, each EPS0-DP and nothing more known about them
STEP = EpsilonDelta(EPS0)
#: the accountants of the table and figure, loosest first
ACCOUNTANTS = (acc.BasicAccountant(), acc.AdvancedAccountant(), acc.ZCDPAccountant("simple"),
               acc.ZCDPAccountant("cks"), acc.OptimalAccountant())
#: Reference numbers (dp-accounting 0.6.0, autodp, OpenDP 0.16): k-fold Laplace with eps0 = 0.1
#: at delta = 1e-6, for k = 10, 100, 1000. External oracles, not dplab's output. Optimal (KOV): delta(eps) of
#: k-fold binary randomized response at eps0 (the worst eps0-DP pair) as its binomial sum, solved for delta =
#: 1e-6 by a separate script (brentq); dp-accounting's randomized-response PLD gives [19.3407, 19.3507].
REFERENCE = {"basic": (1.0, 10.0, 100.0), "advanced (DRV)": (1.7674, 6.3082, 27.1397),
             "zCDP (simple)": (1.7123, 5.7565, 21.6226), "zCDP (CKS)": (1.4716, 5.2215, 20.5519),
             "optimal (KOV)": (0.9994, 4.7746, 19.3447)}
REFERENCE_K = (10, 100, 1000)
#: dp-accounting's privacy loss distribution of 1000 Laplace(10) mechanisms at delta = 1e-6 (a
#: test cross-checks it where dp-accounting is installed): below the optimal bound for the class.
LAPLACE_PLD_1000 = 18.95

# --- filters and noise reduction --------------------------------------------------------------
#: an adaptive sequence of requests: each cost is chosen after seeing the previous answers
ADAPTIVE_COSTS = (0.1, 0.2, 0.15, 0.25, 0.4, 0.2, 0.05)
LAPLACE_EPSILONS = np.array([0.1, 0.2, 0.4, 0.8])
BROWNIAN_TIMES = np.array([8.0, 4.0, 2.0, 1.0, 0.5])
#: the martingale check: times with rho_T = 1/(2T) between 0.1 and 1, a stop rule on the outputs
MARTINGALE_TIMES, MARTINGALE_STOP, MARTINGALE_PATHS = np.geomspace(5.0, 0.5, 20), 1.0, 200_000


@cached(maxsize=4)
def martingale_draws(seed: int = SEED, peek: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(T, L) of 2 x 10^5 Brownian noise reductions (value 0, Delta = 1) stopped at the first released
    value >= MARTINGALE_STOP, or (``peek``) by an illegal rule that peeks at the next output."""
    if peek:
        return nr.brownian_lookahead_loss(0.0, 1.0, MARTINGALE_TIMES, size=MARTINGALE_PATHS, rng=seed)
    return nr.brownian_stopped_loss(0.0, 1.0, MARTINGALE_TIMES, MARTINGALE_STOP, size=MARTINGALE_PATHS,
                                    rng=seed)


def martingale_terms(lam: float, wrong: bool = False, seed: int = SEED) -> np.ndarray:
    """The martingale terms of :func:`martingale_draws`; ``wrong`` drops the Delta^2/(2T) term of L."""
    t, loss = martingale_draws(seed)
    return nr.brownian_martingale_terms(t, loss - nr.brownian_rho(1.0, t) if wrong else loss, 1.0, lam)


# --- the experiment ---------------------------------------------------------------------------
N_COUNTS, TARGET, EPSILONS, REPEATS = 1000, 0.1, (0.5, 1.0, 2.0), 3
#: the methods of the experiment's table and figure, in the order they are drawn
METHODS = ("oracle", "brownian", "gaussian_doubling", "gaussian_halving", "fixed", "laplace_noise_reduction",
           "laplace_doubling")
assert set(METHODS) == set(RELEASE_METHODS)


@cached(maxsize=256)
def experiment(epsilon: float, delta: float = DELTA, target: float = TARGET, repeat: int = 0,
               method: str = "brownian", give_up: str = "pointwise") -> Release:
    """One run of the lab's reconstruction of the paper's experiment: new counts and noise per ``repeat``."""
    counts = heavy_tailed_counts(N_COUNTS, rng=SEED + repeat)
    return release_counts(counts, method, epsilon, delta, target, give_up=give_up, rng=SEED + 1000 + repeat)


@cached(maxsize=16)
def released_table(epsilons=EPSILONS, repeats: int = REPEATS, delta: float = DELTA, target: float = TARGET,
                   methods=METHODS) -> dict[str, np.ndarray]:
    """Mean counts released per method and epsilon over ``repeats`` runs (cached: the panel asks again)."""
    return {m: np.array([np.mean([experiment(e, delta, target, r, m).released for r in range(repeats)])
                         for e in epsilons]) for m in methods}


def report_rows(seed: int = SEED) -> list[ReportRow]:
    """This lesson's rows of figures/REPORT.md."""
    rows = []

    def add(rid, claim, params, theory, relation, source="Rogers23", **kw):
        rows.append(ReportRow(f"06.{rid}", claim, source, params, theory, relation, **kw))

    # basic composition (k ε₀ = 100) is arithmetic, printed in the notebook's table, not a row
    at_1000 = acc.epsilons(STEP, 1000, DELTA, ACCOUNTANTS)

    def composition(name, catches):
        oracle = "randomized response, exact" if name.startswith("optimal") else "dp-accounting / autodp"
        ref = REFERENCE[name][-1]
        add(f"composition_{name.split()[0].strip(',').lower()}" + ("_cks" if "CKS" in name else ""),
            f"k-fold composition, {name}: total ε at δ = 10⁻⁶ = reference", f"ε₀ = 0.1, k = 1000 (reference: "
            f"{oracle})", ref, "exact", "Rogers23, Roth11", value=at_1000[name], rel_tol=0.6e-4 / ref,
catches=catches)
    composition("advanced (DRV)", catches="advanced.drv_no_2: advanced composition's √(2k ln(1/δ)) without "
                "its 2")
    composition("zCDP (simple)", catches="zcdp.simple_conversion_no_2: ρ + √(ρ ln(1/δ)), the 2 dropped")
    composition("zCDP (CKS)", catches="zcdp.cks_no_log_term: the CKS conversion without its ln(1 − 1/α)")
    composition("optimal (KOV)", catches="optimal.rr_loss_k_minus_l: k-fold randomized response's loss "
                "(k − l)ε for (k − 2l)ε")
    f = acc.BasicFilter(0.3)
    exact_ok = f.request(0.1) and f.request(0.2) and not f.request(1e-12) and f.halted
    add("filter_exact", "filter with budget 0.3: accepts 0.1 then 0.2, then refuses",
        "BasicFilter(0.3), exact rational accounting", 0.3, "exact", value=f.spent if exact_ok else math.nan,
        catches="filters.float_accounting, filters.basic_no_exact_fit: binary floats, or a cost that fits "
        "exactly refused")
    draws = 200_000
    lap = nr.laplace_noise_reduction(0.0, 1.0, LAPLACE_EPSILONS, size=draws, rng=seed)
    for i, eps in enumerate(LAPLACE_EPSILONS[:-1]):  # the last level is drawn directly as Lap(Δ/εₘ)
        add(f"laplace_nr_level_{eps:g}", f"Laplace noise reduction, level {i + 1} of 4 (built from the level "
            f"above): E|η_{i + 1}| = Δ/ε_{i + 1}, Lap(Δ/ε)'s mean |η|", "ε = 0.1, 0.2, 0.4, 0.8; 2·10⁵ draws",
            1 / eps, "=", interval=lambda c, i=i: mean_ci(np.abs(lap[:, i]), c),
            catches="noise_reduction.laplace_fresh_scale, noise_reduction.laplace_keep_not_squared: a "
            "level's added noise or its keep probability wrong")
    same = int(np.sum(lap[:, 0] == lap[:, 1]))
    add("laplace_nr_coupling", "Laplace noise reduction: Pr[η₁ = η₂] = (ε₁/ε₂)²",
        "ε₁ = 0.1, ε₂ = 0.2; 2·10⁵ draws", (LAPLACE_EPSILONS[0] / LAPLACE_EPSILONS[1]) ** 2, "=",
        interval=lambda c: proportion_ci(same, draws, c),
        catches="noise_reduction.laplace_keep_not_squared: the keep probability ε₁/ε₂ for (ε₁/ε₂)²")
    path = nr.brownian_noise_reduction(0.0, 1.0, BROWNIAN_TIMES, size=draws, rng=seed + 1)
    for i, j in combinations(range(BROWNIAN_TIMES.size), 2):  # every pair; the variances are in the notebook
        s, t = BROWNIAN_TIMES[i], BROWNIAN_TIMES[j]
        add(f"brownian_cov_{s:g}_{t:g}", f"Brownian noise reduction: Cov(W_{s:g}, W_{t:g}) = min = {t:g}",
            "t = 8, 4, 2, 1, 0.5; 2·10⁵ paths", float(t), "=",
            interval=lambda c, i=i, j=j: mean_ci(path[:, i] * path[:, j], c),
            catches="noise_reduction.brownian_uncoupled, noise_reduction.brownian_bridge_variance: "
            "independent levels, or a wrong bridge step" if i else "noise_reduction.brownian_uncoupled: "
            "independent levels (each N(0, t) alone)")
    for lam in (0.5, 1.0):
        add(f"martingale_{lam:g}",
            f"E[exp(λL − λ(λ+1)ρ_T)] = 1, Brownian noise reduction stopped by its outputs, λ = {lam:g}",
            "ρ_T = 1/(2T) from 0.1 to 1, stop at the first output ≥ 1; 2·10⁵ paths", 1.0, "=",
            interval=lambda c, lam=lam: mean_ci(martingale_terms(lam, seed=seed), c),
            catches="noise_reduction.loss_no_rho, noise_reduction.stop_rule_peeks: the loss without Δ²/(2T), "
            "or a stop rule that sees the next output")
    wrong = mean_ci(martingale_terms(1.0, wrong=True, seed=seed), 0.999)
    add("martingale_wrong_loss",
        "a power check: without its Δ²/(2T) term the loss fails the identity (99.9% upper limit < 1)",
        "λ = 1, same paths", 1.0, "<=", value=float(wrong.high) * (1 + 1e-12),
        catches="noise_reduction.compensator_lam_squared: the compensator λ²ρ, under which the wrong loss "
        "passes")
    peek = mean_ci(nr.brownian_martingale_terms(*martingale_draws(seed, peek=True), 1.0, 0.5), 0.999)
    add("martingale_lookahead", "a power check: a rule that peeks at the next output is not a stopping time "
        "and fails the identity (99.9% lower limit > 1)", "λ = 0.5, stop when the next output is larger; "
        "2·10⁵ paths", 1.0, ">=", value=float(peek.low) * (1 - 1e-12),
        catches="noise_reduction.lookahead_stops_after: the negative control stops after the rise (a legal "
        "stopping time)")
    # the tail Pr[L > ρ + 2√(ρ ln(1/δ))] ≤ δ is no row: a flipped loss, a peeking rule, uncoupled levels pass
    brownian = [experiment(1.0, repeat=r, method="brownian") for r in range(5)]
    doubling = [experiment(1.0, repeat=r, method="gaussian_doubling") for r in range(5)]
    ratio = sum(r.released for r in brownian) / sum(r.released for r in doubling)
    add("brownian_vs_doubling", "counts released: Brownian + unified filter ≥ 1.2 × Gaussian doubling",
        "N = 1000, ε = 1, δ = 10⁻⁶, τ = 0.1, 5 repeats", 1.2, ">=", value=ratio,
        catches="accuracy_first.brownian_charged_cap: a Brownian run charged its cap, not where it stopped")
    within = sum(int(round(r.within_target * r.released)) for r in brownian)
    released = sum(r.released for r in brownian)
    add("within_target", "Brownian releases within the target error: share ≥ 0.9",
        "N = 1000, ε = 1, δ = 10⁻⁶, τ = 0.1, 5 repeats", 0.9, ">=",
        interval=lambda c: proportion_ci(within, released, c),
        catches="noise_reduction.brownian_time_no_2: T = Δ²/ρ for Δ²/(2ρ), noise twice what the release rule "
        "assumes")
    return rows
