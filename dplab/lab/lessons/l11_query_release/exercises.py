"""Lesson 11's exercises: ``dplab.check("11.N", answer)`` checks an answer (and names the mistake it
suspects), ``dplab.solution("11.N")`` prints the worked solution, ``python -m dplab answers 11`` the key.
Every number of a key, a mistake or a worked solution is computed by dplab."""

from __future__ import annotations

import math

from dplab import query_release as qr
from dplab.lab.exercises import Exercise, Mistake
from dplab.mechanisms import Laplace
from dplab.mechanisms.laplace import laplace_accuracy_k

#: 11.2's budget and rounds; 11.3's attributes; 11.6's attributes, students and epsilon
EPS2, T2 = 0.5, 20
D3 = 14
D6, N6, EPS6 = 14, 20_000, 1.0
#: 11.4's students, queries, universe and epsilon; 11.8's eta, samples, rounds, students and delta
N4, K4, X4, EPS4 = 50_000, 1_000, 2**20, 0.5
ETA8, S8, T8, N8, DELTA8 = 1.0, 20, 40, 20_000, 1e-6
#: 11.1's students, queries, epsilon and beta (not the notebook's printed sizes)
N1, K1, EPS1, BETA1 = 5_000, 200, 0.5, 0.05


def _marginal_cells(d: int) -> int:
    """The cells of every 1- and 2-way marginal over d binary attributes: 2 per attribute, 4 per pair."""
    return 2 * d + 4 * math.comb(d, 2)


def _cell_sd(d: int, n: int, epsilon: float) -> float:
    """The sd of a 1-way marginal cell (a share of n) read off the noisy histogram over 2^d cells: a sum of
    2^(d-1) noises Lap(2/(n eps)) (replace-one), each of variance dplab's Laplace(2/n, eps).mse."""
    return math.sqrt(2 ** (d - 1) * Laplace(2 / n, epsilon).mse())


def _bound_at_best() -> float:
    """11.4's bound at the whole T nearest T*."""
    return float(qr.mwem_error_bound(N4, K4, X4, EPS4, round(qr.mwem_optimal_rounds(N4, K4, X4, EPS4))))


def _weights_gib(bits: int, each: int = 4) -> float:
    """MWEM's weights over |X| = 2^bits, ``each`` bytes per weight (float32: 4), in GiB."""
    return each * 2**bits / 2**30


EXERCISES = sorted([
    Exercise(
        "11.1",
        f"n = {N1:,} students, k = {K1} counting queries answered as shares of n (sensitivity 1/n each, "
        f"replace-one, n public), each with Laplace noise, at epsilon = {EPS1:g} in all (basic composition). "
        f"By the union bound of [Roth11] Theorem 3, within what alpha are all k answers with probability "
        f"1 - beta = {1 - BETA1:g}?",
        lambda: laplace_accuracy_k(1 / N1, K1, EPS1, BETA1),
        "Each answer gets ε/k, so Lap(k/(nε)); a union bound over k tails of e^(−α/b).",
        "b = k/(nε) = {b:.4f}; Pr[some |Z_i| > α] ≤ k e^(−α/b) = β gives α = b ln(k/β) = {answer:.4f}: "
        "{pct:.1f}% of the students.",
        mistakes=(
            Mistake(lambda: 1 / (N1 * EPS1) * math.log(K1 / BETA1),
                    "that is the noise of one query at the whole ε; k answers share ε: Lap(k/(nε))."),
            Mistake(lambda: K1 / (N1 * EPS1) * math.log(1 / BETA1),
                    "that is one answer's tail; all k must hold: a union bound, ln(k/β)."),
        ),
        values=lambda: {"b": K1 / (N1 * EPS1), "answer": laplace_accuracy_k(1 / N1, K1, EPS1, BETA1),
                        "pct": 100 * laplace_accuracy_k(1 / N1, K1, EPS1, BETA1)},
    ),
    Exercise(
        "11.2",
        f"MWEM runs T = {T2} rounds at epsilon = {EPS2:g} in all, each round split equally between the "
        "exponential mechanism (choice) and the Laplace mechanism (measurement), on counts (sensitivity 1). "
        "What is the scale b of each round's Laplace noise, in students?",
        lambda: Laplace(1.0, EPS2 / (2 * T2)).scale,
        "Basic composition over 2T steps: each gets ε/(2T).",
        "Each of the 2T = {steps} steps gets ε/(2T) = {eps_step:g}; the measurement's Laplace scale is "
        "1/(ε/(2T)) = 2T/ε = {answer:g} students.",
        mistakes=(
            Mistake(lambda: Laplace(1.0, EPS2 / T2).scale,
                    "that gives the measurement the whole round's ε/T; the choice needs the other half."),
            Mistake(lambda: Laplace(1.0, EPS2 / 2).scale,
                    "that spends ε/2 on every round's measurement: T rounds compose, ε/(2T) each."),
        ),
        values=lambda: {"steps": 2 * T2, "eps_step": EPS2 / (2 * T2),
                        "answer": Laplace(1.0, EPS2 / (2 * T2)).scale},
    ),
    Exercise(
        "11.3",
        f"A workload holds every 1-way and every 2-way marginal over d = {D3} binary attributes, one "
        "counting query per cell of each marginal (a 1-way marginal has 2 cells, a 2-way one 4). How many "
        "queries?",
        lambda: _marginal_cells(D3),
        "Count the marginals of each size and multiply by their cells.",
        "d = {d} one-way marginals of 2 cells and C(d, 2) = {pairs} two-way marginals of 4 cells: "
        "2·{d} + 4·{pairs} = {answer}.",
        rel_tol=0.0,
        mistakes=(
            Mistake(lambda: D3 + math.comb(D3, 2), "that counts marginals, not their cells (queries)."),
            Mistake(lambda: 2 * D3 + 4 * D3 * D3, "that counts ordered pairs with repeats; a 2-way marginal "
                                                   "takes two distinct attributes, C(d, 2) of them."),
        ),
        values=lambda: {"d": D3, "pairs": math.comb(D3, 2), "answer": _marginal_cells(D3)},
    ),
    Exercise(
        "11.6",
        f"The noisy histogram over |X| = 2^{D6} cells, Lap(2/(n epsilon)) per cell (shares; replace-one), "
        f"n = {N6:,}, epsilon = {EPS6:g}. A 1-way marginal cell ('attribute 1 is 1') is read off it as a "
        "sum of cells. What is the standard deviation of its error, as a share of n?",
        lambda: _cell_sd(D6, N6, EPS6),
        "How many cells does the query sum, and what is one cell's variance?",
        "It sums 2^(d−1) = {cells:,} cells, each of variance 2b², b = 2/(nε) = {b:.3g}: sd = "
        "b √(2 · {cells:,}) = {answer:.4f}, {ratio:.0f} times one cell's.",
        mistakes=(
            Mistake(lambda: math.sqrt(Laplace(2 / N6, EPS6).mse()),
                    "that is one cell's error; the query sums half of the cells."),
            Mistake(lambda: 2 ** (D6 - 1) * Laplace(2 / N6, EPS6).mse(),
                    "that is the variance; take its root."),
        ),
        values=lambda: {"cells": 2 ** (D6 - 1), "b": 2 / (N6 * EPS6), "answer": _cell_sd(D6, N6, EPS6),
                        "ratio": math.sqrt(2 ** (D6 - 1))},
    ),
    Exercise(
        "11.4",
        f"MWEM on n = {N4:,} records, k = {K4:,} counting queries, |X| = 2^20, epsilon = {EPS4:g}. "
        "HLM12's Theorem 2.2 bounds its max error (counts) by 2n sqrt(ln|X| / T) + 10 T ln(k) / epsilon. "
        "Which real T minimises this bound?",
        lambda: qr.mwem_optimal_rounds(N4, K4, X4, EPS4),
        "Set the derivative in T to zero: one term falls like T^(−1/2), the other grows like T.",
        "d/dT: −n √(ln|X|) T^(−3/2) + 10 ln k/ε = 0, so T* = (nε √(ln|X|)/(10 ln k))^(2/3) = "
        "({inner:.1f})^(2/3) = {answer:.1f}; the bound there is {bound:,.0f} records, {share:.0%} of n.",
        mistakes=(
            Mistake(lambda: (N4 * EPS4 * math.sqrt(math.log2(X4)) / (10 * math.log2(K4))) ** (2 / 3),
                    "those are base-2 logarithms; the theorem's are natural."),
            Mistake(lambda: (N4 * EPS4 * math.sqrt(math.log(X4)) / (10 * math.log(K4))) ** 2,
                    "the exponent: solving n √(ln|X|) T^(−3/2) = 10 ln k/ε for T gives the power 2/3."),
        ),
        values=lambda: {"inner": N4 * EPS4 * math.sqrt(math.log(X4)) / (10 * math.log(K4)),
                        "answer": qr.mwem_optimal_rounds(N4, K4, X4, EPS4),
                        "bound": _bound_at_best(), "share": _bound_at_best() / N4},
    ),
    Exercise(
        "11.8",
        f"DualQuery with eta = {ETA8:g}, s = {S8} queries sampled per round, T = {T8} rounds, n = {N8:,} "
        "records. Each draw of round t is the exponential mechanism at eps_t = 2 eta (t - 1)/n; GAHRW14 "
        "compose the s (T - 1) draws at the largest, eps_0, by advanced composition. What epsilon at "
        "delta = 1e-6?",
        lambda: qr.dual_query_epsilon(ETA8, S8, T8, N8, DELTA8),
        "ε = ε₀ √(2m ln(1/δ)) + m ε₀ (e^ε₀ − 1) for m draws of ε₀ each; round 1 samples uniformly.",
        "ε₀ = 2η(T − 1)/n = {e0:.5f}; m = s(T − 1) = {m} draws; ε = ε₀ √(2m ln(1/δ)) + m ε₀ (e^ε₀ − 1) = "
        "{answer:.4f}.",
        sig_figs=3,
        mistakes=(
            Mistake(lambda: qr.dual_query_pure_epsilon(ETA8, S8, T8, N8),
                    "that is basic composition, Σ_t s ε_t: the paper's statement is advanced composition."),
            Mistake(lambda: (2 * ETA8 * T8 / N8) * math.sqrt(2 * S8 * T8 * math.log(1 / DELTA8))
                    + S8 * T8 * (2 * ETA8 * T8 / N8) * math.expm1(2 * ETA8 * T8 / N8),
                    "that counts T rounds of draws at 2ηT/n; round 1 is uniform (free) and round t's draws "
                    "pay 2η(t − 1)/n."),
        ),
        values=lambda: {"e0": 2 * ETA8 * (T8 - 1) / N8, "m": S8 * (T8 - 1),
                        "answer": qr.dual_query_epsilon(ETA8, S8, T8, N8, DELTA8)},
    ),
    Exercise(
        "11.5",
        "An MWEM implementation keeps one weight per element of X as a 32-bit float (4 bytes). For |X| = 2^d "
        "(d binary attributes), what is the smallest d at which these weights alone exceed a machine's "
        "16 GiB (2^34 bytes)?",
        lambda: next(d for d in range(1, 64) if _weights_gib(d) > 16),
        "4 bytes per element: 4 · 2^d > 2^34.",
        "4 · 2^d > 2^34 means 2^(d+2) > 2^34, d + 2 > 34: d = {answer} (2^{exact} weights are exactly "
        "16 GiB).",
        rel_tol=0.0,
        mistakes=(
            Mistake(lambda: 34,
                    "2^34 is the number of bytes in 16 GiB, not of weights: each weight takes 4."),
            Mistake(lambda: next(d for d in range(1, 64) if _weights_gib(d) >= 16),
                    "2^32 float32 weights take exactly 16 GiB: they exceed it from the next d (and 64-bit "
                    "weights would be 8 bytes each: the question's are 4)."),
        ),
        values=lambda: {"answer": next(d for d in range(1, 64) if _weights_gib(d) > 16),
                        "exact": next(d for d in range(1, 64) if _weights_gib(d) >= 16)},
    ),
    Exercise(
        "11.7",
        "One MWEM round chooses a query with the exponential mechanism, measures it with the Laplace "
        "mechanism, and updates the synthetic distribution with the measurement. Which steps spend privacy "
        "budget?",
        lambda: "choice and measurement",
        "Which steps read the private histogram?",
        "The exponential mechanism reads the data (its scores) and the Laplace mechanism reads it (the "
        "true answer): each gets ε/(2T). The update only uses the measurement and the public synthetic "
        "distribution: post-processing, free (answer: choice and measurement).",
        choices=("choice and measurement", "measurement only", "all three", "choice only"),
        explanations={
            "choice and measurement": "both read the private data; the update reads only what was released.",
            "measurement only": "the choice reads the data too: its scores are the errors on the true "
                                "answers, so it needs its own ε/(2T).",
            "all three": "the update uses only the released measurement and the synthetic distribution: "
                         "post-processing costs nothing.",
            "choice only": "the measurement adds noise to a true answer: without its own budget it would "
                           "release that answer exactly.",
        },
    ),
], key=lambda ex: int(ex.id.split(".")[1]))  # in the order of their numbers
