"""Lesson 5, the exponential mechanism and the net mechanism: the examples, report rows and
exercises (no plotting; the figures and the panel are in ``views.py``).

Notebook ``notebooks/05_net_mechanism.ipynb``. Seed 004 (Roth, Lecture 5, "The Net
Mechanism": Theorem 3, Definition 4, Algorithm 1, Proposition 6, Corollary 9, Theorem 11,
Lemma 12) and seed 001 (the exponential mechanism slides).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from dplab.datasets import load_yrbss
from dplab.lab.cache import cached
from dplab.lab.report import ReportRow
from dplab.mechanisms.exponential import (
    exponential_mechanism,
    exponential_probabilities,
    exponential_utility_failure_probability,
    exponential_utility_threshold,
    max_privacy_loss,
    permute_and_flip,
    permute_and_flip_probabilities,
    report_noisy_max,
    report_noisy_max_probabilities,
    report_noisy_max_scale,
)
from dplab.mechanisms.laplace import laplace_accuracy_k_exact, laplace_mechanism
from dplab.net_mechanism import (
    all_predicates,
    counting_queries_l1_sensitivity,
    counting_query_sensitivity,
    lemma12_failure_bound,
    net_alpha,
    net_covering_radius,
    net_error_bound,
    net_histograms,
    net_mechanism,
    net_mechanism_alpha,
    net_scores,
    noisy_histogram_max_error_quantile,
    subsample_max_errors,
    yrbss_universe_histogram,
)
from dplab.simulate import proportion_ci, quantile_ci

NOTEBOOK = "05_net_mechanism.ipynb"
PREFIX = "05"
SEED = 2030

# --- the exponential mechanism: the most common height ---------------------------------

#: The candidates: heights in whole inches, 48..84 (1.22 m to 2.13 m), fixed before the data.
INCHES = np.arange(48, 85)
INCH = 0.0254


def height_scores() -> np.ndarray:
    """Score of each candidate height: how many YRBSS students measure it (to the whole inch).
    A count: sensitivity 1 under add/remove, and monotone (one row moves one count, up or down)."""
    inches = np.round(load_yrbss()["height_m"] / INCH).astype(int)
    return np.array([np.sum(inches == c) for c in INCHES], dtype=float)


def padded_scores(extra: int) -> np.ndarray:
    """The height scores with ``extra`` useless candidates of score 0 (a larger output space)."""
    return np.r_[height_scores(), np.zeros(extra)]


def expected_shortfall(scores: np.ndarray, probabilities: np.ndarray) -> float:
    """OPT - E[score of the output]: how much worse than the best candidate, on average."""
    return float(scores.max() - probabilities @ scores)


def selection_probabilities(scores: np.ndarray, epsilon: float,
                            monotone: bool = False) -> dict[str, np.ndarray]:
    """Exact output probabilities of three private selections at one calibration: noise of scale
    2 Delta/eps (any scores), or Delta/eps (``monotone`` scores, such as counts under add/remove).
    The exponential mechanism is computed as Gumbel report noisy max (softmax(s / scale))."""
    scale = report_noisy_max_scale(1.0, epsilon, monotone=monotone)
    return {
        "exponential mechanism": report_noisy_max_probabilities(scores, scale, "gumbel"),
        "permute-and-flip": permute_and_flip_probabilities(scores, 1.0, epsilon, monotone=monotone),
        "RNM, Laplace noise": report_noisy_max_probabilities(scores, scale, "laplace"),
    }


#: the RNM-Laplace counterexample: two candidates, neighbours moving them apart by Delta = 1
RNM_PAIR = (np.array([0.0, 0.0]), np.array([1.0, -1.0]))


def selection_pair_losses(epsilon: float = 1.0, monotone: bool = True) -> dict[str, float]:
    """The privacy loss of each selection of :func:`selection_probabilities` on RNM_PAIR, a
    replace-one neighbour of two counts (one up by 1, one down by 1): at the monotone scale
    Delta/eps all three exceed eps; at 2 Delta/eps none does."""
    s, s2 = RNM_PAIR
    first = selection_probabilities(s, epsilon, monotone)
    second = selection_probabilities(s2, epsilon, monotone)
    return {name: max_privacy_loss(first[name], second[name]) for name in first}


def rnm_laplace_pair_loss(scale: float, epsilon: float = 1.0) -> float:
    """The privacy loss of RNM with Laplace noise of ``scale`` x (Delta / eps) on RNM_PAIR."""
    s, s2 = RNM_PAIR
    b = scale / epsilon
    return max_privacy_loss(report_noisy_max_probabilities(s, b, "laplace"),
                            report_noisy_max_probabilities(s2, b, "laplace"))


# --- the net mechanism on the YRBSS universe ----------------------------------------------

N_DEFAULT = 1000
EPSILON = 1.0
BETA = 0.05
M_STATIC = 20  # the net: 888,030 databases of size 20 over |X| = 8
M_LIVE = 13  # the live panel's default net (77,520): the Chernoff m for alpha = 0.5
M_RUNS, N_RUNS, EPS_RUNS = 6, 1000, 0.05  # runs of dplab.net_mechanism itself (a net of 1,716)
LIVE_MAX = 150_000  # the panel's m slider stops where the net would outgrow this


def universe_histogram(n: int = N_DEFAULT, bits: int = 3, seed: int = SEED) -> np.ndarray:
    """n sampled YRBSS students as a histogram over the first ``bits`` binary attributes
    (male, height >= 1.70 m, BMI >= 25): |X| = 2^bits cells."""
    full = yrbss_universe_histogram(n, rng=seed)
    return full.reshape(2**bits, -1).sum(axis=1)


class NetState(NamedTuple):
    """One net, scored: every database of size m over X and its max error on D."""

    histogram: np.ndarray
    queries: np.ndarray
    net: np.ndarray
    errors: np.ndarray  # max_Q |Q(D) - Q(D')| of each net database, exact (float64)
    levels: np.ndarray  # the distinct errors, ascending
    level_of: np.ndarray  # errors == levels[level_of]

    @property
    def opt(self) -> float:
        return float(self.levels[0])


@cached(maxsize=8)
def net_state(n: int = N_DEFAULT, bits: int = 3, m: int = M_STATIC, seed: int = SEED) -> NetState:
    """The scored net for the sampled database (cached: the eps slider only reweights it).

    Every error is a multiple of 1/(n m) (|m <Q, D> - n <Q, D'>| / (n m)), so the float32
    scores are rounded back to that grid: their rounding error (< 1e-7 relative) is far below
    1/(2 n m) for n m <= 2.4e6, and equal errors become equal floats."""
    h = universe_histogram(n, bits, seed)
    q = all_predicates(2**bits)
    net = net_histograms(2**bits, m, max_size=2_000_000)
    grid = float(n * m)
    errors = np.round(-net_scores(h, q, net).astype(float) * grid) / grid
    levels, level_of = np.unique(errors, return_inverse=True)
    for a in (net, errors, levels, level_of):
        a.flags.writeable = False
    return NetState(h, q, net, errors, levels, level_of)


def release_error_distribution(state: NetState, epsilon: float) -> tuple[np.ndarray, np.ndarray]:
    """The exact distribution of the net mechanism's max error: its distinct values x, ascending,
    and Pr[error <= x] at each (the exponential mechanism's probabilities over the net, summed
    per value and accumulated)."""
    n = int(state.histogram.sum())
    p = exponential_probabilities(-state.errors, counting_query_sensitivity(n), epsilon)
    return state.levels, np.cumsum(np.bincount(state.level_of, weights=p, minlength=state.levels.size))


def net_release_errors(state: NetState, epsilon: float, draws: int, seed: int) -> np.ndarray:
    """Max errors of ``draws`` releases of the net mechanism (exponential mechanism draws over
    the scored net)."""
    n = int(state.histogram.sum())
    index = exponential_mechanism(-state.errors, counting_query_sensitivity(n), epsilon, size=draws, rng=seed)
    return state.errors[index]


def laplace_answers_max_errors(histogram: np.ndarray, queries: np.ndarray, epsilon: float, draws: int,
                               seed: int) -> np.ndarray:
    """Max error over the queries of the Laplace mechanism on their answers, at their joint L1
    sensitivity (brute force; replace-one, public n)."""
    n = int(histogram.sum())
    delta1 = counting_queries_l1_sensitivity(queries, n)
    noise = laplace_mechanism(np.zeros(queries.shape[0]), delta1, epsilon, size=draws, rng=seed)
    return np.abs(noise).max(axis=1)


def noisy_histogram_max_errors(histogram: np.ndarray, queries: np.ndarray, epsilon: float, draws: int,
                               seed: int) -> np.ndarray:
    """Max error over the queries of answers computed from the noisy histogram: Lap(2/(n eps))
    per cell of X (sensitivity 2/n under replace-one with public n)."""
    n = int(histogram.sum())
    noise = laplace_mechanism(np.zeros(histogram.size), 2 / n, epsilon, size=draws, rng=seed)
    return np.abs(noise @ queries.T.astype(float)).max(axis=1)


def laplace_answers_median(n: int, n_queries: int, delta1_counts: float, epsilon: float) -> float:
    """The exact median of max |Lap(b)| over k answers, b = Delta_1 / (n eps): (1 - e^{-a/b})^k = 1/2."""
    return laplace_accuracy_k_exact(delta1_counts / (n_queries * n), n_queries, epsilon, 0.5)


def report_rows(seed: int = SEED) -> list[ReportRow]:
    """This lesson's rows of figures/REPORT.md."""
    scores = height_scores()
    eps_em, t, draws = 0.1, 1.0, 200_000
    threshold = exponential_utility_threshold(scores.max(), scores.size, 1.0, eps_em, t)
    em_draws = exponential_mechanism(scores, 1.0, eps_em, size=draws, rng=seed)
    em_fails = int(np.sum(scores[em_draws] <= threshold))
    p_em = exponential_probabilities(scores, 1.0, eps_em)
    top = int(np.argmax(scores))
    gumbel = report_noisy_max(scores, 1.0, eps_em, noise="gumbel", size=draws, rng=seed + 1)
    pf = permute_and_flip(scores, 1.0, eps_em, size=draws, rng=seed + 2)
    p_pf = permute_and_flip_probabilities(scores, 1.0, eps_em)

    state = net_state()
    n = int(state.histogram.sum())
    bound = net_error_bound(state.opt, state.net.shape[0], 1 / n, EPSILON, BETA)
    net_errs = net_release_errors(state, EPSILON, 20_000, seed + 3)
    values, cdf = release_error_distribution(state, EPSILON)
    exact_fail = float(1 - cdf[np.searchsorted(values, bound, side="right") - 1])
    alpha_seed = net_alpha(256, M_STATIC)
    at_opt = float(cdf[0])  # exact Pr[the release is one of the best databases of the net]
    uniform = np.full(8, n // 8)  # the worst database for the covering radius: m/|X| = 2.5 per cell
    uniform_opt = float(-net_scores(uniform, state.queries, state.net).max())
    small = net_state(N_DEFAULT, 3, M_RUNS)
    levels, small_cdf = release_error_distribution(small, EPS_RUNS)
    median_level = int(np.searchsorted(small_cdf, 0.5))  # the event "error <= its median value"
    runs = [net_mechanism(small.histogram, small.queries, EPS_RUNS, m=M_RUNS, rng=seed + 7 + i).max_error
            for i in range(N_RUNS)]
    runs_below = int(np.sum(np.array(runs) <= levels[median_level] + 1e-9))

    m12, a12, trials12 = 100, 0.2, 20_000
    sub = subsample_max_errors(state.histogram, state.queries, m12, trials=trials12, rng=seed + 4)
    lap = laplace_answers_max_errors(state.histogram, state.queries, EPSILON, 20_000, seed + 5)
    hist = noisy_histogram_max_errors(state.histogram, state.queries, EPSILON, 20_000, seed + 6)
    return [
        ReportRow("05.em_utility",
                  "exponential mechanism: Pr[s ≤ OPT − (2Δ/ε)(ln|R| + t)], simulated = exact",
                  "001", f"most common height (|R| = {scores.size}), ε={eps_em:g}, t=1, 2·10⁵ draws",
                  exponential_utility_failure_probability(scores, 1.0, eps_em, t), "=",
                  interval=lambda c: proportion_ci(em_fails, draws, c)),
        ReportRow("05.em_utility_exact",
                  "the same failure probability, exact, ≤ e^−t (Dwork-Roth Cor. 3.12)", "001",
                  f"ε={eps_em:g}, t=1", math.exp(-t), "<=",
                  value=exponential_utility_failure_probability(scores, 1.0, eps_em, t)),
        ReportRow("05.gumbel_is_em", "report noisy max with Gumbel(2Δ/ε) noise picks the mode w.p. "
                  "softmax(εs/2Δ)", "001", f"ε={eps_em:g}, 2·10⁵ draws", float(p_em[top]), "=",
                  interval=lambda c: proportion_ci(int(np.sum(gumbel == top)), draws, c)),
        ReportRow("05.pf_is_rnm_exponential", "permute-and-flip (run literally) = report noisy max with "
                  "Exponential(2Δ/ε) noise (exact), Pr[mode]", "001", f"ε={eps_em:g}, 2·10⁵ draws",
                  float(p_pf[top]), "=", interval=lambda c: proportion_ci(int(np.sum(pf == top)), draws, c)),
        ReportRow("05.pf_beats_em", "E[score] of permute-and-flip ≥ that of the exponential mechanism",
                  "001", f"ε={eps_em:g}, exact", float(p_em @ scores), ">=", value=float(p_pf @ scores)),
        ReportRow("05.rnm_laplace_not_monotone",
                  "RNM, Laplace(Δ/ε), non-monotone neighbours: loss 2ε − ln(1+ε) > ε",
                  "001", "s = (0, 0), s' = (1, −1), ε=1", 2 - math.log(2), "exact",
                  value=rnm_laplace_pair_loss(1.0), rel_tol=1e-7),
        ReportRow("05.seed_bound_vacuous", "Prop. 6 with Lemma 12's α = √(ln|C|/m): 2α ≥ 1 says nothing "
                  "about answers in [0, 1]", "004", f"|C|=256, m={M_STATIC}", 1.0, ">=",
                  value=2 * alpha_seed),
        ReportRow("05.covering_radius",
                  "covering radius |X|/(4m) of the size-m net is reached: the uniform D's OPT (brute force)",
                  "004", f"|X|=8, m={M_STATIC}, D uniform (n={n}), all 256 predicates",
                  net_covering_radius(8, M_STATIC), "exact", value=uniform_opt, rel_tol=1e-6),
        ReportRow("05.prop6_covering",
                  "Prop. 6 holds with α = |X|/(4m): α ≥ (2Δ/ε) ln(|N|/β), so (2α, β)-useful",
                  "004", f"n={n}, m={M_STATIC}, ε={EPSILON:g}, β={BETA:g}",
                  net_mechanism_alpha(state.net.shape[0], 1 / n, EPSILON, BETA), ">=",
                  value=net_covering_radius(8, M_STATIC)),
        ReportRow("05.net_bound_exact", "net mechanism: Pr[err > OPT + (2Δ/ε)(ln|N| + ln 1/β)] ≤ β, exact "
                  "over the net", "004", f"YRBSS |X|=8, all 256 predicates, n={n}, m={M_STATIC} "
                  f"(|N|={state.net.shape[0]:,}), ε={EPSILON:g}, β={BETA:g}", BETA, "<=", value=exact_fail),
        ReportRow("05.net_release_opt", "net mechanism: Pr[error = OPT], draws over the scored net = exact",
                  "004", f"n={n}, m={M_STATIC}, ε={EPSILON:g}, 2·10⁴ draws", at_opt, "=",
                  interval=lambda c: proportion_ci(int(np.sum(net_errs <= state.opt + 1e-9)),
                                                   net_errs.size, c)),
        ReportRow("05.net_mechanism_runs", "dplab.net_mechanism (Gumbel max over float32 blocks): "
                  "Pr[error ≤ its median] = exact", "004",
                  f"n={n}, m={M_RUNS} (|N|={small.net.shape[0]:,}), ε={EPS_RUNS:g}, {N_RUNS} runs",
                  float(small_cdf[median_level]), "=",
                  interval=lambda c: proportion_ci(runs_below, N_RUNS, c)),
        ReportRow("05.lemma12",
                  "Lemma 12: Pr[a subsample of size m misses some query by > α] ≤ 2|C|e^(−2mα²)",
                  "004", f"YRBSS n={n}, |C|=256, m={m12}, α={a12:g}, 2·10⁴ subsamples",
                  lemma12_failure_bound(256, m12, a12), "<=",
                  interval=lambda c: proportion_ci(int(np.sum(sub > a12)), trials12, c)),
        ReportRow("05.laplace_answers_median", "Laplace on 256 answers at Δ₁ = 128/n: median max error "
                  "= exact quantile", "004", f"n={n}, ε={EPSILON:g}, 2·10⁴ draws",
                  laplace_answers_median(n, 256, 128, EPSILON), "=",
                  interval=lambda c: quantile_ci(lap, 0.5, c)),
        ReportRow("05.histogram_median", "noisy histogram, Lap(2/(nε)) per cell: median max error over every "
                  "predicate = exact (max of two Gamma sums)", "004",
                  f"|X|=8, n={n}, ε={EPSILON:g}, 2·10⁴ draws",
                  noisy_histogram_max_error_quantile(0.5, 8, n, EPSILON), "=",
                  interval=lambda c: quantile_ci(hist, 0.5, c)),
    ]
