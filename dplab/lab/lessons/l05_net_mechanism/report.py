"""Lesson 5 (``notebooks/05_net_mechanism.ipynb``), the exponential and the net mechanism: data, constants,
report rows (figures and panel: ``views.py``; mechanisms: dplab.mechanisms.exponential, dplab.net_mechanism).
Roth, Lecture 5, "The Net Mechanism" (Theorem 3, Definition 4, Algorithm 1, Proposition 6, Corollary 9,
Theorem 11, Lemma 12) and CSE660's exponential mechanism slides.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from dplab import mechanisms as mech
from dplab import net_mechanism as nm
from dplab.datasets import load_yrbss
from dplab.lab.cache import cached
from dplab.lab.report import ReportRow
from dplab.mechanisms.exponential import ExponentialMechanism, PermuteAndFlip, ReportNoisyMax
from dplab.simulate import proportion_ci, quantile_ci

NOTEBOOK = "05_net_mechanism.ipynb"
PREFIX = "05"
SEED = 2030

# --- the exponential mechanism: the most common height ---------------------------------

#: The candidates: heights in whole inches, 48..84 (1.22 m to 2.13 m), fixed before the data.
INCHES = np.arange(48, 85)
INCH = 0.0254
#: the RNM-Laplace counterexample: two candidates, neighbours moving them apart by Delta = 1
RNM_PAIR = (np.array([0.0, 0.0]), np.array([1.0, -1.0]))


def height_scores() -> np.ndarray:
    """Score of each candidate height: how many YRBSS students measure it (to the whole inch).
    A count: sensitivity 1 under add/remove, and monotone (one row moves one count, up or down)."""
    inches = np.round(load_yrbss()["height_m"] / INCH).astype(int)
    return np.array([np.sum(inches == c) for c in INCHES], dtype=float)


def padded_scores(extra: int) -> np.ndarray:
    """The height scores with ``extra`` useless candidates of score 0 (a larger output space)."""
    return np.r_[height_scores(), np.zeros(extra)]


def selections(epsilon: float, monotone: bool = False) -> dict[str, ReportNoisyMax]:
    """The three private selections the lesson compares at one calibration (Delta = 1): noise of
    scale 2 Delta/eps (any scores), or Delta/eps (``monotone`` scores, such as counts)."""
    return {"exponential mechanism": ExponentialMechanism(1.0, epsilon, monotone),
            "permute-and-flip": PermuteAndFlip(1.0, epsilon, monotone),
            "RNM, Laplace noise": ReportNoisyMax(1.0, epsilon, "laplace", monotone)}


# --- the net mechanism on the YRBSS universe ----------------------------------------------

N_DEFAULT, EPSILON, BETA, DELTA = 1000, 1.0, 0.05, 1e-6  # DELTA: Theorem 3's (eps, delta) branch
M_STATIC = 20  # the net: 888,030 databases of size 20 over |X| = 8
M_LIVE = 13  # the live panel's default net (77,520): the Chernoff m for alpha = 0.5
M_RUNS, N_RUNS, EPS_RUNS = 6, 1000, 0.05  # runs of dplab.net_mechanism itself (a net of 1,716)
LIVE_MAX = 150_000  # the panel's m slider stops where the net would outgrow this


@cached(maxsize=8)
def net_state(n: int = N_DEFAULT, bits: int = 3, m: int = M_STATIC, seed: int = SEED) -> nm.ScoredNet:
    """The scored net for n sampled YRBSS students over the first ``bits`` binary attributes (|X| =
    2^bits cells) and every predicate (cached: the eps slider only reweights it)."""
    h = nm.yrbss_universe_histogram(n, attributes=bits, rng=seed)
    return nm.score_net(h, nm.all_predicates(2**bits), m)


def report_rows(seed: int = SEED) -> list[ReportRow]:
    """This lesson's rows of figures/REPORT.md."""
    scores, eps_em, t, draws = height_scores(), 0.1, 1.0, 200_000
    em, pf = ExponentialMechanism(1.0, eps_em), PermuteAndFlip(1.0, eps_em)
    threshold = mech.exponential_utility_threshold(scores.max(), scores.size, 1.0, eps_em, t)
    em_fails = int(np.sum(scores[em.sample(scores, seed, size=draws)] <= threshold))
    em_fail = mech.exponential_utility_failure_probability(scores, 1.0, eps_em, t)
    # the worst scores for the tail bound: OPT = 0 once, |R| - 1 = 36 candidates at the threshold
    worst = np.r_[0.0, np.full(36, mech.exponential_utility_threshold(0.0, 37, 1.0, eps_em, t))]
    tight, x = mech.exponential_utility_failure_probability(worst, 1.0, eps_em, t), math.exp(-t) / 37
    p_em, top = em.probabilities(scores), int(np.argmax(scores))
    p_pf = mech.permute_and_flip_probabilities(scores, 1.0, eps_em)
    gumbel = ReportNoisyMax(1.0, eps_em, "gumbel").sample(scores, seed + 1, size=draws)
    flipped = pf.sample(scores, seed + 2, size=draws)

    state = net_state(N_DEFAULT, 3, M_STATIC)  # the figures' cache entry
    h, q, n, size = state.histogram, state.queries, int(state.histogram.sum()), state.net.shape[0]
    net_errs = state.errors[state.sample(EPSILON, size=20_000, rng=seed + 3)]
    exact_fail = state.error_tail(EPSILON, nm.net_error_bound(state.opt, size, 1 / n, EPSILON, BETA))
    tv = 0.5 * np.abs(state.net / M_STATIC - h / n).sum(axis=1)  # by hand: each database's max error
    beyond = tv > tv.min() + 2 / (n * EPSILON) * math.log(size / BETA)  # the bound, by hand
    by_hand = float(special.softmax(-tv * n * EPSILON / 2)[beyond].sum())  # the exponential mechanism
    covering = ((6, 2, 12), (5, 3, 15))  # (|X|, m, n'): sizes where some database meets the worst case
    small = net_state(N_DEFAULT, 3, M_RUNS)
    levels, small_cdf = small.error_distribution(EPS_RUNS)
    median = int(np.searchsorted(small_cdf, 0.5))  # the event "error <= its median value"
    runs = [nm.net_mechanism(small.histogram, small.queries, EPS_RUNS, m=M_RUNS, rng=seed + 7 + i).max_error
            for i in range(N_RUNS)]
    runs_below = int(np.sum(np.array(runs) <= levels[median] + 1e-9))
    a12, trials12 = 0.25 + 0.5 / (n * M_STATIC), 20_000  # errors are multiples of 1/(n m): no ties
    sub_fails = int(np.sum(nm.subsample_max_errors(h, q, M_STATIC, trials=trials12, rng=seed + 4) > a12))
    sub_exact = nm.subsample_failure_probability(h, M_STATIC, a12)
    lap = nm.laplace_answers_max_errors(h, q, EPSILON, draws=20_000, rng=seed + 5)
    hist = nm.noisy_histogram_max_errors(h, q, EPSILON, draws=20_000, rng=seed + 6)

    def freq(hits: int, total: int):
        return lambda c: proportion_ci(hits, total, c)

    return [
        ReportRow("05.em_utility", "exponential mechanism: Pr[s ≤ OPT − (2Δ/ε)(ln|R| + t)], simulated = "
                  "exact", "Gaboardi17", f"most common height (|R| = {scores.size}), ε={eps_em:g}, t=1, "
                  "2·10⁵ draws", em_fail, "=", interval=freq(em_fails, draws),
                  catches="exponential.inverse_cdf_off_by_one: the sampler returns the next candidate"),
        ReportRow("05.em_utility_tight", "its bound e^−t, within a factor 2: OPT once and |R| − 1 scores at "
                  "the threshold, exact = (|R|−1)x/(1 + (|R|−1)x), x = e^−t/|R|", "Gaboardi17",
                  f"|R|=37, ε={eps_em:g}, t=1", 36 * x / (1 + 36 * x), "exact", value=tight, rel_tol=1e-9,
                  catches="exponential.threshold_no_ln_r, exponential.weights_no_2: threshold or weights"),
        ReportRow("05.gumbel_is_em", "report noisy max with Gumbel(2Δ/ε) noise picks the mode w.p. "
                  "softmax(εs/2Δ)", "Gaboardi17", f"ε={eps_em:g}, 2·10⁵ draws", float(p_em[top]), "=",
                  interval=freq(int(np.sum(gumbel == top)), draws),
                  catches="exponential.weights_no_2, exponential.rnm_scales_swapped: a calibration off by 2"),
        ReportRow("05.pf_is_rnm_exponential", "permute-and-flip (run literally) = report noisy max with "
                  "Exponential(2Δ/ε) noise (exact), Pr[mode]", "Gaboardi17", f"ε={eps_em:g}, 2·10⁵ draws",
                  float(p_pf[top]), "=", interval=freq(int(np.sum(flipped == top)), draws),
                  catches="exponential.pf_probabilities_scale_2: its exact law at 4Δ/ε"),
        ReportRow("05.pf_beats_em", "E[score] of permute-and-flip ≥ that of the exponential mechanism",
                  "Gaboardi17", f"ε={eps_em:g}, exact", p_em @ scores, ">=", value=float(p_pf @ scores),
                  catches="exponential.pf_probabilities_scale_2: its exact law at 4Δ/ε"),
        ReportRow("05.rnm_laplace_not_monotone", "RNM, Laplace(Δ/ε), non-monotone neighbours: loss "
                  "2ε − ln(1+ε) > ε", "Gaboardi17", "s = (0, 0), s' = (1, −1), ε=1", 2 - math.log(2), "exact",
                  value=ReportNoisyMax(1.0, 1.0, monotone=True).max_privacy_loss(*RNM_PAIR), rel_tol=1e-7,
                  catches="exponential.laplace_rnm_half_dropped, exponential.rnm_scales_swapped: law, scale"),
        ReportRow("05.covering_radius", "covering radius K(|X| − K)/(|X| m), K = min(⌊|X|/2⌋, m) = the "
                  "farthest any database of size n' lies from the net (brute force; max |difference|)",
                  "Roth11", "; ".join(f"|X|={k}, m={m}, n'={nn}" for k, m, nn in covering), 0.0, "exact",
                  value=max(abs(nm.net_covering_distance(k, m, nn) - nm.net_covering_radius(k, m))
                            for k, m, nn in covering),
                  rel_tol=1e-12, catches="net_mechanism.covering_no_min_m: K = ⌊|X|/2⌋ when m is smaller"),
        ReportRow("05.net_bound_exact", "net mechanism: Pr[err > OPT + (2Δ/ε)(ln|N| + ln 1/β)] (≤ β), exact "
                  "over the net = by hand (softmax over each database's TV distance)", "Roth11",
                  f"YRBSS |X|=8, all 256 predicates, n={n}, m={M_STATIC} (|N|={size:,}), ε={EPSILON:g}, "
                  f"β={BETA:g}", by_hand, "exact", value=exact_fail, rel_tol=1e-12,
                  catches="net_mechanism.tail_off_by_one, net_mechanism.bound_ln_beta_sign: level, sign"),
        ReportRow("05.net_release_opt", "net mechanism: Pr[error = OPT], draws over the scored net = exact",
                  "Roth11", f"n={n}, m={M_STATIC}, ε={EPSILON:g}, 2·10⁴ draws",
                  float(state.error_distribution(EPSILON)[1][0]), "=",
                  interval=freq(int(np.sum(net_errs <= state.opt + 1e-9)), net_errs.size),
                  catches="net_mechanism.score_sign: the exact law scores by +error"),
        ReportRow("05.net_mechanism_runs", "dplab.net_mechanism runs: Pr[error ≤ its median] = exact",
                  "Roth11", f"n={n}, m={M_RUNS} (|N|={small.net.shape[0]:,}), ε={EPS_RUNS:g}, {N_RUNS} runs",
                  float(small_cdf[median]), "=", interval=freq(runs_below, N_RUNS),
                  catches="exponential.stream_no_2: the streamed sampler at ε s/Δ"),
        ReportRow("05.lemma12", "Lemma 12's experiment: Pr[a subsample of m rows misses some predicate by "
                  "> α], simulated = exact (multinomial, over the net; the union bound: 42)", "Roth11",
                  f"YRBSS n={n}, |C|=256, m={M_STATIC}, α=0.25, 2·10⁴ subsamples", sub_exact, "=",
                  interval=freq(sub_fails, trials12),
                  catches="net_mechanism.subsample_m_minus_1: a subsample of m − 1 rows divided by m"),
        ReportRow("05.laplace_answers_median", "Laplace on 256 answers at Δ₁ = 128/n: median max error "
                  "= exact quantile", "Roth11", f"n={n}, ε={EPSILON:g}, 2·10⁴ draws",
                  nm.laplace_answers_max_error_quantile(0.5, 256, 128 / n, EPSILON), "=",
                  interval=lambda c: quantile_ci(lap, 0.5, c),
                  catches="net_mechanism.l1_one_direction: the L1 sensitivity 64/n for 128/n"),
        ReportRow("05.histogram_median", "noisy histogram, Lap(2/(nε)) per cell: median max error over every "
                  "predicate = exact (two Gamma sums)", "Roth11", f"|X|=8, n={n}, ε={EPSILON:g}, 2·10⁴ draws",
                  nm.noisy_histogram_max_error_quantile(0.5, 8, n, EPSILON), "=",
                  interval=lambda c: quantile_ci(hist, 0.5, c),
                  catches="net_mechanism.histogram_sensitivity_1: sensitivity 1/n under replace-one"),
    ]
