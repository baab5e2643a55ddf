"""Lesson 10, the local model (notebook 10): constants, seeded simulations, report rows (figures in views.py;
theory in dplab.local: Warner 1965; Wang, Blocki, Li & Jha 2017 for frequency oracles; Feldman, McMillan &
Talwar 2021 for shuffling). Each user randomizes her own answer; the server only ever sees reports."""

from __future__ import annotations

import math

import numpy as np

from dplab import local
from dplab.bmi import BMI_CUTOFF, body_mass_index
from dplab.datasets import load_yrbss
from dplab.lab.cache import cached
from dplab.lab.report import ReportRow
from dplab.simulate import bonferroni_confidence, mean_ci, proportion_ci

NOTEBOOK = "10_local_model.ipynb"
PREFIX = "10"
SEED = 2040
#: the notebook's confidence intervals: 10 in section 1 (3 unbiased, 3 variance, 4 of the gap figure),
#: 5 oracles' variances in section 2, 6 in section 3 (recall and false ids at 3 epsilons), 1 in section 4
N_INTERVALS = 22
LEVEL = bonferroni_confidence(N_INTERVALS, family_error=0.01)  #: each interval's level (1% for all)

# --- 1. randomized response on "BMI >= 25" --------------------------------------------------------
#: ln 3: a student tells the truth with probability 3/4
RR_EPSILON = math.log(3)
RR_EPSILONS = (0.5, RR_EPSILON, 2.0)
RR_TRIALS = 1000
#: the gap figure: the first n students, randomized response against the central Laplace count
GAP_NS = (100, 300, 1000, 3000, 12_579)
GAP_TRIALS = 1000


@cached(maxsize=1)
def overweight() -> np.ndarray:
    """The yes/no answers: 1 where a student's BMI is >= 25 (12,579 students of the shipped YRBSS)."""
    return (body_mass_index(load_yrbss()) >= BMI_CUTOFF).astype(np.int64)


@cached(maxsize=16)
def rr_estimates(epsilon: float, n: int | None = None, trials: int = RR_TRIALS,
                 seed: int = SEED) -> np.ndarray:
    """``trials`` runs of the local protocol on the first ``n`` students: each reports by
    dplab.local.randomized_response, the server estimates the share by dplab.local.rr_estimate."""
    bits = overweight()[:n]
    rng = np.random.default_rng([seed, round(epsilon * 1000), bits.size])
    return np.array([local.rr_estimate(local.randomized_response(bits, epsilon, rng), epsilon)
                     for _ in range(trials)])


@cached(maxsize=8)
def central_errors(epsilon: float, trials: int = GAP_TRIALS, seed: int = SEED) -> np.ndarray:
    """Errors of the central model's count: the server holds the data and adds Lap(1/eps) once."""
    from dplab.mechanisms import laplace_mechanism

    return laplace_mechanism(np.zeros(trials), 1.0, epsilon, rng=np.random.default_rng([seed, 7]))


# --- 2. frequency oracles on the students' heights ----------------------------------------------
ORACLES = ("grr", "sue", "oue", "olh", "hadamard")
ORACLE_NAMES = {"grr": "k-RR (GRR)", "sue": "SUE (basic RAPPOR)", "oue": "OUE", "olh": "OLH",
                "hadamard": "Hadamard response"}
ORACLE_EPSILON = math.log(3)
ORACLE_TRIALS = 200


@cached(maxsize=1)
def height_values() -> tuple[np.ndarray, np.ndarray]:
    """(values, heights): each student's height as an index 0..d-1 into the d heights (cm) that occur."""
    cm = np.round(load_yrbss()["height_m"] * 100).astype(int)
    heights, values = np.unique(cm, return_inverse=True)
    return values, heights


def height_frequencies() -> np.ndarray:
    """The true shares of the d heights (what every oracle estimates)."""
    values, heights = height_values()
    return np.bincount(values, minlength=heights.size) / values.size


@cached(maxsize=8)
def oracle_squared_errors(name: str, epsilon: float = ORACLE_EPSILON, trials: int = ORACLE_TRIALS,
                          seed: int = SEED) -> np.ndarray:
    """Per run, the summed squared error over the d heights of dplab.local.frequency_oracle."""
    values, heights = height_values()
    rng, f = np.random.default_rng([seed, 11, ORACLES.index(name)]), height_frequencies()
    return np.array([np.sum((local.frequency_oracle(name, values, heights.size, epsilon, rng) - f) ** 2)
                     for _ in range(trials)])


def oracle_total_variance(name: str, epsilon: float = ORACLE_EPSILON) -> float:
    """Sum over the d heights of dplab.local.frequency_oracle_variance at each height's true share."""
    values, heights = height_values()
    return float(sum(local.frequency_oracle_variance(name, epsilon, heights.size, values.size, f)
                     for f in height_frequencies()))


#: the bug each oracle's variance row is there to catch (mutants.py)
ORACLE_MUTANTS = {
    "grr": dict(catches="local.grr_q_uniform: k-RR's q as 1/d"),
    "sue": dict(catches="local.sue_full_epsilon_sampler, local.sue_full_epsilon_p: SUE's bits at ε, not ε/2"),
    "oue": dict(catches="local.ue_hot_bit_q: the user's own bit kept with probability q"),
    "olh": dict(catches="local.olh_q_is_rr_flip: OLH's q as k-RR's, not 1/g"),
    "hadamard": dict(catches="local.hadamard_q_one_over_k: Hadamard's q as 1/K"),
}
#: the small domain on which every oracle's outputs are enumerated for its exact privacy loss
LOSS_D = 4


def exact_loss_gaps(epsilon: float = ORACLE_EPSILON, d: int = LOSS_D) -> dict[str, float]:
    """|exact privacy loss − eps| of each oracle (its output probabilities enumerated at d values)."""
    return {name: abs(local.ORACLES[name](epsilon, d).exact_epsilon() - epsilon) for name in ORACLES}


def grr_crossing(epsilon: float) -> int:
    """The smallest d at which OUE's variance (f = 0) is below k-RR's, by the library's variances."""
    return next(d for d in range(2, 10**6) if local.frequency_oracle_variance("oue", epsilon, d, 1)
                < local.frequency_oracle_variance("grr", epsilon, d, 1))


# --- 3. heavy hitters over 2^32 ids (synthetic) -------------------------------------------------------
#: synthetic ids: Zipf ranks with this exponent scattered over 2^32 ids (dplab.local.zipf_items), seeded
HH_N, HH_EXPONENT, HH_BITS = 100_000, 1.5, 32
HH_EPSILONS = (1.0, 2.0, 4.0, 8.0)
HH_RUNS = 10
#: the protocol's failure probabilities: a frequency-0 id reported (alpha), a heavy id missed (beta)
HH_ALPHA = HH_BETA = 0.05


@cached(maxsize=1)
def hh_items(seed: int = SEED) -> np.ndarray:
    """HH_N synthetic users' ids (labelled synthetic: no one's data)."""
    rng = np.random.default_rng([seed, 31])
    return local.zipf_items(HH_N, exponent=HH_EXPONENT, domain_bits=HH_BITS, rng=rng)


@cached(maxsize=8)
def hh_runs(epsilon: float, seed: int = SEED) -> np.ndarray:
    """HH_RUNS runs of dplab.local.heavy_hitters at the theory's threshold: per run (precision, recall,
    found ids of true frequency 0)."""
    items, rng = hh_items(seed), np.random.default_rng([seed, 37, round(epsilon * 100)])
    threshold = local.heavy_hitter_threshold(epsilon, HH_N, alpha=HH_ALPHA, beta=HH_BETA)
    present = set(np.unique(items).tolist())
    out = []
    for _ in range(HH_RUNS):
        found = local.heavy_hitters(items, epsilon, threshold=threshold, rng=rng, beta=HH_BETA).ids
        out.append((*local.heavy_hitter_precision_recall(found, items, threshold),
                    sum(i not in present for i in found.tolist())))
    return np.array(out, dtype=float)


# --- 4. shuffling -----------------------------------------------------------------------------------
SHUFFLE_DELTA = 1e-6
SHUFFLE_EPSILON0S = (0.5, 1.0, 2.0, 3.0, 4.0)
SHUFFLE_NS = (12_579, 10**5, 10**6)
#: the shuffled target: (1, 1e-6)-DP for the 12,579 students; the eps0 each may then use
SHUFFLE_TARGET = 1.0


def shuffled_epsilon0(target: float = SHUFFLE_TARGET, n: int = 12_579, delta: float = SHUFFLE_DELTA) -> float:
    """The largest eps0 whose shuffled reports are (target, delta)-DP by dplab.local.shuffle_epsilon (at most
    the bound's limit ln(n/(16 ln(2/delta))), where its condition ends)."""
    from scipy.optimize import brentq

    top = local.shuffle_max_epsilon0(n, delta)
    if local.shuffle_epsilon(top, n, delta) <= target:
        return top
    return float(brentq(lambda e0: local.shuffle_epsilon(e0, n, delta) - target, 1e-6, top))


def report_rows(seed: int = SEED) -> list[ReportRow]:
    """This lesson's rows of figures/REPORT.md."""
    share, n = float(overweight().mean()), overweight().size
    rows = []
    for eps in RR_EPSILONS:
        est = rr_estimates(eps, seed=seed)
        rows += [
            ReportRow(f"10.rr_unbiased_{eps:.3g}", "randomized response: the server's estimate of the share "
                      "is unbiased", "Gaboardi17", f"ε = {eps:.4g}, BMI ≥ 25, n = {n}; {RR_TRIALS} runs",
                      share, "=", interval=lambda c, est=est: mean_ci(est, c),
                      catches="local.rr_estimate_biased: debiased by 1/p, not 1/(p − q)"),
            ReportRow(f"10.rr_variance_{eps:.3g}", "randomized response: Var = p(1 − p)/(n (2p − 1)²), p = "
                      "e^ε/(1 + e^ε)", "Gaboardi17", f"ε = {eps:.4g}, n = {n}; {RR_TRIALS} runs",
                      float(local.rr_variance(share, eps, n)), "=",
                      interval=lambda c, est=est: mean_ci((est - share) ** 2, c),
                      catches="local.rr_variance_unsquared: (2p − 1) not squared")]
    for m in GAP_NS[:-1]:
        est, truth = rr_estimates(RR_EPSILON, m, GAP_TRIALS, seed), float(overweight()[:m].mean())
        rows.append(ReportRow(
            f"10.rr_count_mse_{m}", "the local count's MSE n p(1 − p)/(2p − 1)²: of order n/ε², against the "
            "central 2/ε²", "Gaboardi17", f"ε = ln 3, the first {m} students; {GAP_TRIALS} runs",
            float(local.local_count_rmse(RR_EPSILON, m)) ** 2, "=",
            interval=lambda c, est=est, m=m, truth=truth: mean_ci((m * (est - truth)) ** 2, c),
            catches="local.rr_variance_unsquared, local.count_rmse_sqrt_n: (2p − 1) not squared; √n for n"))
    for name, named in ORACLE_MUTANTS.items():
        errors = oracle_squared_errors(name, seed=seed)
        rows.append(ReportRow(
            f"10.oracle_variance_{name}", "frequency oracle: Σ_v Var f̂_v = Σ_v [q(1 − q)/(p − q)² + f_v(1 − "
            "p − q)/(p − q)]/n (Wang et al. 2017)", "—", f"{ORACLE_NAMES[name]}, ε = ln 3, the "
            f"{height_values()[1].size} heights of {n} students; {ORACLE_TRIALS} runs",
            oracle_total_variance(name), "=",
            interval=lambda c, errors=errors: mean_ci(errors, c),
            **named))
    rows.append(ReportRow(
        "10.grr_crossing", "k-RR's variance is below OUE's exactly for d < 3e^ε + 2 (the first d where OUE "
        "wins)", "—", "ε = ln 3: 3e^ε + 2 = 11", math.floor(3 * math.exp(ORACLE_EPSILON) + 2) + 1, "exact",
        value=float(grr_crossing(ORACLE_EPSILON)), catches="local.grr_q_uniform: k-RR's q as 1/d"))
    rows.append(ReportRow(
        "10.exact_loss", "every oracle's exact privacy loss (ln of the largest ratio of its output "
        "probabilities) is ε: the largest |loss − ε|", "—",
        f"ε = ln 3, d = {LOSS_D}, every output enumerated",
        0.0, "exact", value=max(exact_loss_gaps().values()),
        catches="local.sue_full_epsilon_p, local.oue_q_half_epsilon: 1.5ε or ε/2 spent"))
    for eps in HH_EPSILONS[:3]:
        runs = hh_runs(eps, seed)
        where = f"ε = {eps:g}, {HH_N} synthetic users (Zipf {HH_EXPONENT:g}) over 2^32 ids; {HH_RUNS} runs"
        rows += [
            ReportRow(f"10.hh_recall_{eps:g}", "heavy hitters (prefix extension): the mean recall at the "
                      "theory's threshold is ≥ 1 − β (one-sided)", "Gaboardi17", where, 1 - HH_BETA, ">=",
                      interval=lambda c, runs=runs: mean_ci(runs[:, 1], c),
                      catches="local.pem_prefix_shift: prefixes cut from the wrong end"),
            ReportRow(f"10.hh_false_{eps:g}", "heavy hitters: runs reporting an id nobody holds ≤ α "
                      "(one-sided)", "Gaboardi17", where, HH_ALPHA, "<=",
                      interval=lambda c, runs=runs: proportion_ci(np.sum(runs[:, 2] > 0), HH_RUNS, c),
                      catches="local.pem_threshold_all_users: σ of all n users, not of a group")]
    return rows
