"""Lesson 9, data-dependent noise: the computations, report rows and exercises (no plotting;
the figures and the panel are in ``views.py``).

Notebook ``notebooks/09_data_dependent_noise.ipynb``. Seed 000 ("Data dependent noise
mechanisms"): DAWA (Li, Hay, Miklau & Wang, PVLDB 2014) against the data-independent
strategies of notebook 3 on the sparse height histogram and synthetic shapes (DPBench, Hay et
al. 2016: who wins depends on scale and shape), and the median's local, smooth and global
sensitivity (Nissim, Raskhodnikova & Smith, STOC 2007).

DAWA's error has no closed form (its partition is random), so its partition is simulated; given
a partition the second stage's error over all k(k+1)/2 range queries is exact, split into the
merging error (bias^2 given the partition) and the totals' noise (variance given it). The
data-independent strategies' errors are exact.
"""

from __future__ import annotations

import math

import numpy as np

from dplab.accounting import Neighbours
from dplab.datasets import load_yrbss
from dplab.lab.cache import cached
from dplab.lab.report import ReportRow
from dplab.mechanisms.laplace import laplace_mechanism
from dplab.range_queries.dawa import (
    DawaErrors,
    best_partition,
    dawa_errors,
    interval_costs,
    partition_penalty,
    spread,
    spread_error,
)
from dplab.range_queries.errors import all_range_total_error, n_ranges
from dplab.range_queries.histograms import height_histogram, synthetic_histogram
from dplab.range_queries.optimization import PIdentityStrategy, load_p_identity
from dplab.range_queries.strategies import RangeStrategy, range_strategy
from dplab.range_queries.theory import expected_error_per_query
from dplab.simulate import Estimate, mean_ci
from dplab.smooth_sensitivity import (
    median_distance_to_leak,
    median_global_pair,
    median_global_sensitivity,
    median_local_sensitivity,
    median_release_smooth,
    median_sensitivity_at_distance,
    median_smooth_release_rmse,
    median_smooth_sensitivity,
    replace_one_neighbours,
    smooth_beta,
    sorted_clipped,
)

NOTEBOOK = "09_data_dependent_noise.ipynb"
PREFIX = "09"
SEED = 2035

# --- 1. DAWA against the data-independent strategies ---------------------------------------------

K = 256
SHAPES = ("heights", "uniform", "spiky", "zipf")
EPSILONS = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0)
SHARE = 0.25
TRIALS = 1000
#: the data-independent strategies of notebook 3, each with its exact error per range query
STRATEGIES = ("identity", "16-ary hierarchy + inference", "optimised p-Identity")
#: the confidence of the who-wins verdicts (each DAWA interval on its own)
WIN_CONFIDENCE = 0.999


def n_heights() -> int:
    return int(height_histogram(K).sum())


@cached(maxsize=64)
def histogram(shape: str, n: int | None = None, seed: int = SEED) -> np.ndarray:
    """The k = 256 histogram of ``shape`` holding n rows (default: as many as the survey).
    The heights are subsampled without replacement (n below 12,579) or drawn from their shares
    (n above); the synthetic shapes are notebook 3's. Read-only."""
    n = n_heights() if n is None else int(n)
    if shape == "heights":
        full = height_histogram(K)
        rng = np.random.default_rng(seed)
        if n == full.sum():
            x = full
        elif n < full.sum():
            x = rng.multivariate_hypergeometric(full.astype(np.int64), n).astype(float)
        else:
            x = rng.multinomial(n, full / full.sum()).astype(float)
    else:
        x = synthetic_histogram(shape, K, total=n, rng=seed)
    x.setflags(write=False)
    return x


@cached(maxsize=1)
def data_independent_strategies() -> dict[str, tuple[RangeStrategy, bool]]:
    """STRATEGIES as objects: (the strategy, whether least squares reconstructs its answers)."""
    return {"identity": (range_strategy("identity", K), False),
            "16-ary hierarchy + inference": (range_strategy("hierarchy", K, 16), True),
            "optimised p-Identity": (PIdentityStrategy(load_p_identity()), False)}


def data_independent_error(name: str, epsilon: float) -> float:
    """The exact expected squared error per range query (all ranges of k = 256 bins) of one of
    STRATEGIES (dplab.range_queries.expected_error_per_query of its object)."""
    strategy, inference = data_independent_strategies()[name]
    return expected_error_per_query(strategy, epsilon=epsilon, inference=inference)


@cached(maxsize=128)
def dawa_error(shape: str, epsilon: float, n: int | None = None, share: float = SHARE,
               trials: int = TRIALS, seed: int = SEED, penalty: float | None = None) -> DawaErrors:
    """DAWA's error on ``shape`` over ``trials`` partitions (dplab.range_queries.dawa_errors)."""
    return dawa_errors(histogram(shape, n), epsilon, share, size=trials, penalty=penalty, rng=seed)


def dawa_interval(shape: str, epsilon: float, trials: int = TRIALS) -> Estimate:
    """The WIN_CONFIDENCE interval of DAWA's mean error per range query at (shape, epsilon)."""
    return mean_ci(dawa_error(shape, epsilon, trials=trials).per_run, WIN_CONFIDENCE)


def compare(shape: str, epsilon: float, strategy: str, trials: int = TRIALS) -> str:
    """DAWA against one data-independent strategy at (shape, epsilon): "DAWA" if DAWA's error's
    upper confidence bound (two-sided WIN_CONFIDENCE, so one-sided (1 + WIN_CONFIDENCE)/2) is
    below the strategy's exact error, the strategy if its error is below DAWA's lower bound,
    else "unresolved"."""
    est = dawa_interval(shape, epsilon, trials)
    exact = data_independent_error(strategy, epsilon)
    if est.high < exact:
        return "DAWA"
    if exact < est.low:
        return strategy
    return "unresolved"


def verdict(shape: str, epsilon: float, trials: int = TRIALS) -> str:
    """Who wins at (shape, epsilon): ``compare`` against the best data-independent strategy."""
    return compare(shape, epsilon, min(STRATEGIES, key=lambda s: data_independent_error(s, epsilon)), trials)


def relative_errors(shape: str, trials: int = TRIALS) -> np.ndarray:
    """DAWA's mean error over identity's, at each of EPSILONS."""
    return np.array([dawa_error(shape, e, trials=trials).mean / data_independent_error("identity", e)
                     for e in EPSILONS])


def larger_part(shape: str, epsilon: float) -> str:
    """Which part of DAWA's error is larger at (shape, epsilon): "merging" or "noise" if the
    WIN_CONFIDENCE interval of the runs' mean (merging - noise) excludes 0, else "unresolved"."""
    err = dawa_error(shape, epsilon)
    ci = mean_ci(err.merging - err.noise, WIN_CONFIDENCE)
    return "merging" if ci.low > 0 else "noise" if ci.high < 0 else "unresolved"


def fixed_partition(epsilon: float = 0.1, share: float = SHARE) -> list[tuple[int, int]]:
    """The partition DAWA would choose on the heights without the partition noise."""
    return best_partition(interval_costs(height_histogram(K)),
                          partition_penalty(share * epsilon, (1 - share) * epsilon))


def spread_per_query(epsilon: float = 0.1, share: float = SHARE) -> tuple[float, float]:
    """(merging error, totals' noise) per range query of the second stage on ``fixed_partition``."""
    bias, variance = spread_error(height_histogram(K), fixed_partition(epsilon, share),
                                  (1 - share) * epsilon)
    return bias / n_ranges(K), variance / n_ranges(K)


def simulate_spread(epsilon: float = 0.1, share: float = SHARE, trials: int = 4000,
                    seed: int = SEED) -> np.ndarray:
    """The second stage on ``fixed_partition`` simulated: identity on the bucket totals,
    spread uniformly; error per range query of each run."""
    x = height_histogram(K)
    _, estimates = spread(x, fixed_partition(epsilon, share), (1 - share) * epsilon, size=trials, rng=seed)
    return all_range_total_error(estimates - x) / n_ranges(K)


# --- 2. the median: local, smooth and global sensitivity -----------------------------------------

LOW, HIGH = 1.0, 2.2
DELTA = 1e-6
MEDIAN_EPSILONS = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0)
#: the constructed pair where local sensitivity jumps: Alice's 1.68 m becomes 1.80 m
PAIR = (np.array([1.55, 1.68, 1.68, 1.68, 1.80]), np.array([1.55, 1.68, 1.68, 1.80, 1.80]))


@cached(maxsize=1)
def heights() -> np.ndarray:
    """The survey's 12,579 heights clipped to [LOW, HIGH] and sorted."""
    return sorted_clipped(load_yrbss()["height_m"], LOW, HIGH)


def median() -> float:
    x = heights()
    return float(x[math.ceil(x.size / 2) - 1])


@cached(maxsize=32)
def smooth(epsilon: float, delta: float = DELTA) -> float:
    return median_smooth_sensitivity(heights(), LOW, HIGH, smooth_beta(epsilon, delta))


def release_rmse(kind: str, epsilon: float) -> float:
    """RMSE of the heights' median released with global ("global": sqrt(2) (hi - lo)/eps) or
    smooth ("smooth": dplab.smooth_sensitivity.median_smooth_release_rmse) noise."""
    if kind == "global":
        return math.sqrt(2) * median_global_sensitivity(LOW, HIGH) / epsilon
    return median_smooth_release_rmse(heights(), LOW, HIGH, epsilon, DELTA)


def distance_to_leak(values: np.ndarray | None = None) -> int:
    """The fewest replaced rows after which the median of ``values`` (default: the heights) can
    have local sensitivity > 0 (dplab.smooth_sensitivity.median_distance_to_leak)."""
    return median_distance_to_leak(heights() if values is None else values, LOW, HIGH)


def median_neighbours(values: np.ndarray, replacements=(LOW, HIGH), replaced=None) -> list[np.ndarray]:
    """Replace-one neighbours of ``values`` (dplab.smooth_sensitivity.replace_one_neighbours)."""
    return replace_one_neighbours(values, replacements, replaced)


def smoothness_ratio(epsilon: float, neighbours: list[np.ndarray] | None = None) -> float:
    """max over neighbours x' of |ln(S*(x') / S*(x))| / beta on the heights: at most 1 if S* is
    beta-smooth (NRS07 Definition 2.1: S*(x) <= e^beta S*(x') and S*(x') <= e^beta S*(x))."""
    beta = smooth_beta(epsilon, DELTA)
    base = smooth(epsilon)
    neighbours = median_neighbours(heights()) if neighbours is None else neighbours
    return max(abs(math.log(median_smooth_sensitivity(y, LOW, HIGH, beta) / base)) for y in neighbours) / beta


def smooth_minus_local(samples: int = 200, seed: int = SEED) -> float:
    """min of S* - LS over ``samples`` subsamples of the heights (n = 5..401) whose median has
    local sensitivity > 0 (about one draw in five; the others would pass trivially), at every
    eps in MEDIAN_EPSILONS: at least 0 if the smooth bound is an upper bound on local sensitivity."""
    rng = np.random.default_rng(seed)
    worst, found = math.inf, 0
    while found < samples:
        x = np.sort(rng.choice(heights(), size=int(rng.integers(5, 402)), replace=False))
        ls = median_local_sensitivity(x, LOW, HIGH)
        if ls == 0:
            continue
        found += 1
        for eps in MEDIAN_EPSILONS:
            worst = min(worst, median_smooth_sensitivity(x, LOW, HIGH, smooth_beta(eps, DELTA)) - ls)
    return worst


def constructed_move(neighbours: Neighbours, sizes=range(1, 201)) -> float:
    """The smallest move of the lower median (by sorting, not dplab) over the witness pairs of
    dplab.smooth_sensitivity.median_global_pair for every n in ``sizes`` (even n for add/remove):
    hi - lo if the construction works for every n."""
    def med(values) -> float:
        ordered = sorted(values)
        return ordered[(len(ordered) + 1) // 2 - 1]

    moves = [abs(med(y) - med(x)) for n in sizes if neighbours == Neighbours.REPLACE or n % 2 == 0
             for x, y in [median_global_pair(n, LOW, HIGH, neighbours)]]
    return float(min(moves))


@cached(maxsize=1)
def _distances() -> np.ndarray:
    """A_k of the heights for every k = 0..n, each from its own window (no early stop)."""
    x = heights()
    return np.array([median_sensitivity_at_distance(x, LOW, HIGH, k) for k in range(x.size + 1)])


def smooth_by_definition(epsilon: float, delta: float = DELTA) -> float:
    """S* of the heights straight from NRS07's definition, max over every k = 0..n of
    e^(-k beta) A_k: a check of the divide-and-conquer search behind ``smooth`` (about 2.5 s)."""
    a = _distances()
    return float(np.max(np.exp(-smooth_beta(epsilon, delta) * np.arange(a.size)) * a))


# --- report --------------------------------------------------------------------------------------

#: the notebook's who-wins claims checked one-sided: (shape, epsilon, strategy DAWA is compared
#: with, the winner)
P_IDENTITY = "optimised p-Identity"
CLAIMS = (
    ("uniform", 0.01, P_IDENTITY, "DAWA"),
    ("uniform", 0.3, P_IDENTITY, "DAWA"),
    ("zipf", 0.01, P_IDENTITY, "DAWA"),
    ("spiky", 0.01, P_IDENTITY, P_IDENTITY),
    ("spiky", 0.1, P_IDENTITY, "DAWA"),
    ("spiky", 1.0, "identity", "DAWA"),
    ("uniform", 3.0, P_IDENTITY, P_IDENTITY),
    ("heights", 1.0, P_IDENTITY, P_IDENTITY),
    ("heights", 1.0, "identity", "identity"),
)
#: which part of DAWA's error is larger: (shape, epsilon, "merging" or "noise")
LARGER_PARTS = (
    ("uniform", 0.01, "noise"),
    ("spiky", 0.01, "merging"),
    ("spiky", 0.1, "noise"),
    ("uniform", 3.0, "merging"),
    ("heights", 1.0, "noise"),
)


def penalty_one_scale(epsilon: float, share: float = SHARE) -> float:
    """The per-bucket penalty with one noise scale b instead of the lab's two: 1/eps2 + b."""
    return partition_penalty(share * epsilon, (1 - share) * epsilon, scales=1)


def report_rows(seed: int = SEED) -> list[ReportRow]:
    rows = []
    bias, variance = spread_per_query()
    per = simulate_spread(seed=seed)
    rows.append(ReportRow(
        "09.spread_fixed", "DAWA's 2nd stage, fixed partition: (‖W(St − x)‖² + 2/ε₂²‖WS‖²_F) per range query",
        "000", f"YRBSS heights, k={K}, noiseless partition at ε=0.1 ({len(fixed_partition())} buckets), "
        "ε₂=0.075, n=4000", bias + variance, "=", interval=lambda c: mean_ci(per, c)))
    for shape, eps, strategy, winner in CLAIMS:
        ci = dawa_interval(shape, eps)
        where = (f"{shape}, k={K}, n={n_heights()}, ε={eps:g}, share={SHARE}, {TRIALS} partitions "
                 "(one end of a two-sided 99.9% interval)")
        if winner == "DAWA":
            rows.append(ReportRow(
                f"09.dawa_beats_{strategy.split()[-1].lower()}_{shape}_{eps:g}",
                f"DAWA (simulated, upper end) < {strategy} (exact), per range query", "000", where,
                data_independent_error(strategy, eps), "<=", value=float(ci.high)))
        else:
            rows.append(ReportRow(
                f"09.dawa_loses_to_{strategy.split()[-1].lower()}_{shape}_{eps:g}",
                f"DAWA (simulated, lower end) > {strategy} (exact), per range query", "000", where,
                data_independent_error(strategy, eps), ">=", value=float(ci.low)))
    rng = np.random.default_rng(seed)
    for eps in (0.1, 1.0):
        scale = 2 * smooth(eps) / eps
        err = np.abs(median_release_smooth(heights(), LOW, HIGH, eps, DELTA, size=20_000, rng=rng) - median())
        rows.append(ReportRow(
            f"09.smooth_release_{eps:g}", "smooth median release: E|error| = 2 S*(x)/ε",
            "000", f"12,579 heights in [{LOW}, {HIGH}] m, ε={eps:g}, δ={DELTA:g}, n=20000", scale, "=",
            interval=lambda c, e=err: mean_ci(e, c)))
    err_global = np.abs(laplace_mechanism(np.full(20_000, median()), median_global_sensitivity(LOW, HIGH),
                                          1.0, rng=rng) - median())
    rows += [
        ReportRow("09.global_release",
                  "global median release (Laplace at scale (hi − lo)/ε): E|error| = (hi − lo)/ε", "000",
                  f"[{LOW}, {HIGH}] m, ε=1, n=20000", HIGH - LOW, "=",
                  interval=lambda c: mean_ci(err_global, c)),
        *[ReportRow(f"09.global_{name}",
                    f"global sensitivity hi − lo ({label}): section 4's pair moves the median that far",
                    "000", f"the pair for every n = 1..200 ({'even n, ' if label == 'add/remove' else ''}"
                    "smallest move), median by sorting", median_global_sensitivity(LOW, HIGH), "exact",
                    value=constructed_move(relation))
          for relation, name, label in ((Neighbours.REPLACE, "replace-one", "replace-one"),
                                        (Neighbours.ADD_REMOVE, "add_remove", "add/remove"))],
        ReportRow("09.local_heights", "local sensitivity of the heights' median (1,103 students at 1.68 m)",
                  "000", "the middle three order statistics, numpy", float(max(
                      heights()[math.ceil(heights().size / 2)] - median(),
                      median() - heights()[math.ceil(heights().size / 2) - 2])),
                  "exact", value=median_local_sensitivity(heights(), LOW, HIGH)),
        ReportRow("09.local_pair", "local sensitivity jumps between neighbours: LS(x') (LS(x) = 0)", "000",
                  "x = (1.55, 1.68, 1.68, 1.68, 1.80), one 1.68 → 1.80", 1.80 - 1.68, "exact",
                  value=median_local_sensitivity(PAIR[1], LOW, HIGH)),
        ReportRow("09.smooth_definition",
                  "S* by divide and conquer vs max_k e^(−kβ) A_k over every k: max relative error", "000",
                  f"12,579 heights, the {len(MEDIAN_EPSILONS)} ε of section 4, δ=1e-6 (1e-12: rounding)",
                  1e-12, "<=",
                  value=max(abs(smooth_by_definition(e) / smooth(e) - 1) for e in MEDIAN_EPSILONS)),
        ReportRow("09.smooth_ge_local", "smooth ≥ local sensitivity: min (S* − LS) (S*'s k = 0 term is LS)",
                  "000",
                  "200 subsamples of the heights with LS > 0, n = 5..401, 6 ε, δ=1e-6", 0.0, ">=",
                  value=smooth_minus_local(seed=seed)),
    ]
    for eps in (0.1, 1.0):
        rows.append(ReportRow(
            f"09.smoothness_{eps:g}", "S* is β-smooth on the heights: max |ln(S*(x')/S*(x))| / β ≤ 1", "000",
            f"the 68 neighbours replacing one of each distinct height by {LOW} or {HIGH}, ε={eps:g} "
            "(bound 1 + 1e-9 for rounding: the bound is attained)", 1.0 + 1e-9, "<=",
            value=smoothness_ratio(eps)))
    return rows
