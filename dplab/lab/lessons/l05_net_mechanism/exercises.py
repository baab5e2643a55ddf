"""Lesson 5's exercises: ``dplab.check("05.N", answer)`` checks an answer, ``dplab.solution("05.N")``
prints its worked solution, ``python -m dplab answers 05`` prints the key. Every number of a key, a
mistake or a worked solution is computed by ``dplab.mechanisms.exponential`` and ``dplab.net_mechanism``
(the "implement it" exercise, 05.impl, is in ``implement.py``)."""

from __future__ import annotations

import math

import numpy as np

from dplab.lab.exercises import Exercise, Mistake
from dplab.mechanisms.exponential import exponential_probabilities, exponential_utility_threshold
from dplab.net_mechanism import (
    all_predicates,
    counting_queries_l1_sensitivity,
    counting_query_sensitivity,
    net_covering_radius,
    net_error_bound,
    net_sample_size,
    net_size,
)

SCORES = np.array([5.0, 4.0, 4.0, 0.0])  # 05.1's candidates


def _softmax_values() -> dict[str, float]:
    weights = np.exp(SCORES / 2)
    return {"x0": SCORES[0] / 2, "w0": weights[0], "w1": weights[1], "w3": weights[3], "total": weights.sum(),
            "p": float(exponential_probabilities(SCORES, 1.0, 1.0)[0])}


def _utility_values() -> dict[str, float]:
    return {"scale": 2 * 1.0 / 0.5, "ln_r": math.log(50), "t": math.log(1 / 0.05),
            "shortfall": -exponential_utility_threshold(0.0, 50, 1.0, 0.5, math.log(1 / 0.05))}


def _lemma12_values() -> dict[str, float]:
    queries = all_predicates(16).shape[0]
    return {"c": queries, "ln_2c": math.log(2 * queries), "bound": math.log(2 * queries) / (2 * 0.25**2),
            "m": net_sample_size(queries, 0.25, rule="chernoff"),
            "seed": net_sample_size(queries, 0.25, rule="theorem11")}


def _net_bound_values() -> dict[str, float]:
    size = net_size(8, 20)
    sensitivity = counting_query_sensitivity(1000)
    return {"size": size, "ln_n": math.log(size), "ln_b": math.log(1 / 0.1), "delta": sensitivity,
            "scale": 2 * sensitivity / 0.5, "bound": net_error_bound(0.077, size, sensitivity, 0.5, 0.1),
            "radius": net_covering_radius(8, 20)}


def _sensitivity_values() -> dict[str, float]:
    queries = all_predicates(6)
    return {"c": queries.shape[0], "moved": int(np.sum(queries[:, 0] != queries[:, 1])),
            "l1": counting_queries_l1_sensitivity(queries, 400)}


EXERCISES = [
    Exercise(
        "05.1", "Four candidates with scores (5, 4, 4, 0), sensitivity 1, eps = 1: with what probability "
        "does the exponential mechanism return the first one?",
        lambda: float(exponential_probabilities(SCORES, 1.0, 1.0)[0]),
        "Each candidate's weight is exponential in its score, with the factor 2Δ in the exponent's "
        "denominator; normalise over all four candidates.",
        "Weights exp(eps s/(2Δ)) = e^(s/2): e^{x0:g} = {w0:.3f}, e^2 = {w1:.3f} twice, e^0 = {w3:g}; their "
        "sum is {total:.3f}, so Pr[first] = {w0:.3f}/{total:.3f} = {p:.4f}.",
        mistakes=(
            Mistake(lambda: float(exponential_probabilities(SCORES, 1.0, 2.0)[0]),
                    "weights exp(eps s/Δ): the exponential mechanism halves the exponent, exp(eps s/(2Δ)), "
                    "because each weight and their sum both move between neighbours."),
            Mistake(lambda: float(exponential_probabilities(SCORES[[0, 1, 3]], 1.0, 1.0)[0]),
                    "two candidates share the score 4: each has its own weight in the sum."),
        ),
        values=_softmax_values),
    Exercise(
        "05.2", "The exponential mechanism over |R| = 50 candidates, Δu = 1, eps = 0.5. With probability "
        "at least 1 - beta = 0.95, its output's score is within how much of OPT (the utility theorem)?",
        lambda: -exponential_utility_threshold(0.0, 50, 1.0, 0.5, math.log(1 / 0.05)),
        "Section 2's theorem bounds the shortfall with probability 1 - e^-t: choose t from beta.",
        "With e^-t = beta, t = ln(1/beta) = {t:.3f}; the shortfall is (2Δu/eps)(ln|R| + t) = "
        "{scale:g} ({ln_r:.3f} + {t:.3f}) = {shortfall:.2f}.",
        mistakes=(
            Mistake(lambda: -exponential_utility_threshold(0.0, 50, 0.5, 0.5, math.log(1 / 0.05)),
                    "the theorem's scale is 2Δu/eps, not Δu/eps (the weights use eps/(2Δu))."),
            Mistake(lambda: -exponential_utility_threshold(0.0, 1, 1.0, 0.5, math.log(1 / 0.05)),
                    "the ln|R| term is missing: every one of the |R| candidates may be the bad one."),
            Mistake(lambda: -exponential_utility_threshold(0.0, 50, 1.0, 0.5, 0.05),
                    "t is not beta: the failure probability is e^-t, so t = ln(1/beta)."),
        ),
        values=_utility_values),
    Exercise(
        "05.3", "Every predicate on a universe of 16 elements, alpha = 0.25: what is the smallest m for "
        "which [Roth11] Lemma 12's proof shows an alpha-net of databases of m rows exists?",
        lambda: net_sample_size(all_predicates(16).shape[0], 0.25, rule="chernoff"),
        "Count the predicates first; the proof needs its union bound below 1, and m is a whole number "
        "of rows.",
        "|C| = 2^16 = {c} predicates. The union bound 2|C| e^(-2 m alpha²) < 1 needs "
        "m > ln(2|C|)/(2 alpha²) = {ln_2c:.3f}/(2 · 0.25²) = {bound:.2f}, so m = {m} ([Roth11]'s "
        "m = ln|C|/alpha² asks for {seed}).",
        rel_tol=1e-12,
        mistakes=(
            Mistake(lambda: net_sample_size(all_predicates(16).shape[0], 0.25, rule="theorem11"),
                    "that is the lecture's m = ln|C|/alpha², more than the proof needs: solve the union "
                    "bound itself."),
            Mistake(lambda: net_sample_size(16, 0.25, rule="chernoff"),
                    "|C| is the number of predicates, not the universe's size."),
            Mistake(lambda: net_sample_size(all_predicates(16).shape[0], 0.25, rule="chernoff") - 1,
                    "the inequality is strict and m is a whole number: round up past the bound."),
        ),
        values=_lemma12_values),
    Exercise(
        "05.4", "The net mechanism over |X| = 8 with m = 20 rows, on n = 1000 students at eps = 0.5; the "
        "best database of the net has max error OPT = 0.077. With probability 0.9 the release's max "
        "error is at most what (the utility theorem for the data at hand)?",
        lambda: net_error_bound(0.077, net_size(8, 20), counting_query_sensitivity(1000), 0.5, 0.1),
        "Apply the exponential mechanism's utility theorem to the net: its size, the score's "
        "sensitivity under replace-one and t from beta.",
        "|N| = C(8 + 20 - 1, 20) = {size:,} databases, Δ = 1/n = {delta:g}, so the bound is OPT + "
        "(2Δ/eps)(ln|N| + ln(1/beta)) = 0.077 + {scale:g} ({ln_n:.3f} + {ln_b:.3f}) = {bound:.4f}, for "
        "this D (for every D the covering radius {radius:g} bounds OPT).",
        mistakes=(
            Mistake(lambda: net_error_bound(0.077, 8**20, counting_query_sensitivity(1000), 0.5, 0.1),
                    "|X|^m counts ordered samples; the net is a set of multisets (stars and bars)."),
            Mistake(lambda: net_error_bound(0.077, net_size(8, 20), counting_query_sensitivity(1000) / 2, 0.5,
                                            0.1),
                    "the scale is 2Δ/eps, not Δ/eps."),
            Mistake(lambda: net_error_bound(0.0, net_size(8, 20), counting_query_sensitivity(1000), 0.5,
                                            0.1),
                    "add OPT: the mechanism can only be as good as the best database of the net."),
        ),
        values=_net_bound_values),
    Exercise(
        "05.5", "Every predicate on a universe of |X| = 6 elements, answers normalised by n = 400: what "
        "is the joint L1 sensitivity of all the answers under replace-one?",
        lambda: counting_queries_l1_sensitivity(all_predicates(6), 400),
        "Replace one row x by y: which predicates' answers move, and by how much each?",
        "Replacing x by y moves by 1/n the predicates that contain exactly one of x and y: {moved} of the "
        "{c} (half of them), so the L1 sensitivity is {moved}/400 = {l1:g}.",
        mistakes=(
            Mistake(lambda: all_predicates(6).shape[0] * counting_query_sensitivity(400),
                    "|C|/n assumes every answer moves; the predicates containing both x and y, or "
                    "neither, do not."),
            Mistake(lambda: counting_query_sensitivity(400),
                    "that is one answer's sensitivity; the question asks the sum over all answers."),
        ),
        values=_sensitivity_values),
    Exercise(
        "05.6", "Report noisy max with Laplace noise of scale Δ/eps (not 2Δ/eps) on the height counts: "
        "under which neighbour relation is it eps-DP?",
        lambda: "add_remove",
        "What must the scores do between neighbours for the smaller scale to suffice (section 3)?",
        "add_remove: adding or removing a student moves every count the same way (monotone scores), "
        "where Δ/eps suffices (Dwork & Roth, Claim 3.9); replace-one moves one count up and another "
        "down.",
        choices=("add_remove", "replace_one", "both", "neither"),
        explanations={
            "add_remove": "Under add/remove the counts are monotone (all move the same way), and then "
                          "Laplace noise of scale Δ/eps is enough.",
            "replace_one": "Replace-one moves a student between heights: one count up, another down. On "
                           "such a pair the loss at Δ/eps exceeds eps (section 3's last lines); 2Δ/eps is "
                           "needed.",
            "both": "Only monotone scores allow Δ/eps; replace-one is not monotone, so this calibration "
                    "fails there.",
            "neither": "Too cautious: for monotone scores, such as counts under add/remove, the factor 2 "
                       "can be saved.",
        }),
    Exercise(
        "05.7", "On |X| = 8 with C all 256 predicates, Proposition 6 with Lemma 12's alpha = "
        "sqrt(ln|C|/m) at m = 20 promises a max error of at most 2 alpha > 1 on answers in [0, 1]. What "
        "is to blame?",
        lambda: "lemma12",
        "Which step of the guarantee uses only |C| and ignores how small the universe is?",
        "lemma12: its union bound over C ignores the small universe; the covering radius |X|/(4m) "
        "is a far smaller alpha for the same net, and Proposition 6 fed with it promises a useful "
        "error.",
        choices=("lemma12", "proposition6", "privacy", "opt"),
        explanations={
            "lemma12": "Its union bound over the |C| predicates gives alpha = sqrt(ln|C|/m); on 8 cells "
                       "every database is within the covering radius |X|/(4m) of the net, far smaller.",
            "proposition6": "Proposition 6 is fine: fed a good alpha (the covering radius), it gives a "
                            "useful bound; it is only as good as the alpha it is given.",
            "privacy": "The privacy term (2Δ/eps) ln(|N|/beta) is small here (Δ = 1/n): it is the net's "
                       "alpha that is too large.",
            "opt": "OPT for this sample is small; a bound vacuous for every D cannot be blamed on one D's "
                   "rounding.",
        }),
]
