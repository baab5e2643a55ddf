"""Lesson 4's exercises: ``dplab.check("04.N", answer)`` checks an answer, ``dplab.solution("04.N")``
prints its worked solution, ``python -m dplab answers 04`` prints the key. Every number of a key, a
mistake or a worked solution is computed by ``dplab.sparse_vector`` (the "implement it" exercise, 04.impl,
is in ``implement.py``)."""

from __future__ import annotations

import math

import numpy as np

from dplab.lab.exercises import Exercise, Mistake
from dplab.mechanisms.laplace import laplace_accuracy_k
from dplab.sparse_vector import (
    above_threshold_accuracy,
    above_threshold_worst_case_supremum,
    comparison_std,
    exact_privacy_loss,
    halting_probabilities,
    loss_limit,
    naive_above_threshold_epsilon,
    optimal_threshold_share,
    variant_noise,
)


def _sup_values() -> dict[str, float]:
    return {"naive": naive_above_threshold_epsilon(3, 0.5),
            "sup": above_threshold_worst_case_supremum(3, 0.5),
            "zeros": exact_privacy_loss("above_threshold", np.zeros(3), 0.0, 0.5)}


def _accuracy_values() -> dict[str, float]:
    return {"ln_k": math.log(200), "two_over_beta": 2 / 0.1, "ln_2b": math.log(2 / 0.1),
            "alpha": above_threshold_accuracy(200, 0.1, 0.5),
            "exact": above_threshold_accuracy(200, 0.1, 0.5, exact=True),
            "laplace": laplace_accuracy_k(1, 200, 0.5, 0.1)}


def _lee_clifton_values() -> dict[str, float]:
    return {"units": loss_limit("lee_clifton", 0.4, c=2) / 0.4, "limit": loss_limit("lee_clifton", 0.4, c=2),
            "c1": loss_limit("lee_clifton", 0.4, c=1)}


def _monotone_values() -> dict[str, float]:
    limit = loss_limit("lyu_alg1", 3.0, neighbours="monotone", threshold_share=0.25)
    return {"eps1": 0.25 * 3.0, "half": limit - 0.25 * 3.0, "limit": limit,
            "general": loss_limit("lyu_alg1", 3.0, threshold_share=0.25)}


def _share_values() -> dict[str, float]:
    share = optimal_threshold_share(6)
    scales = variant_noise("lyu_alg1", 1.0, c=6, threshold_share=share)
    return {"ratio": (1 - share) / share, "share": share, "eps1": share, "eps2": 1 - share,
            "b_threshold": scales["threshold"], "b_query": scales["query"],
            "std": comparison_std("lyu_alg1", 1.0, c=6, threshold_share=share),
            "even": comparison_std("lyu_alg1", 1.0, c=6)}


EXERCISES = [
    Exercise(
        "04.1", "AboveThreshold at eps = 0.5 halts at query k = 3. What is the supremum of the privacy loss "
        "of that output over every stream and every (general) neighbour?",
        lambda: above_threshold_worst_case_supremum(3, 0.5),
        "Two valid upper bounds hold for halting at query k; section 2 says which one streams attain for "
        "small k (streams approach it).",
        "Two bounds hold: composing the k comparisons, each eps/4-DP given the noisy threshold, gives "
        "k eps/4 = 3 · 0.5/4 = {naive:.4g}; the theorem gives eps = 0.5. Streams whose answers sit ever "
        "farther around T approach the smaller one without reaching it, so the supremum is "
        "min(k eps/4, eps) = {sup:.4g}. The stream of zeros loses only {zeros:.4f}: one stream is a lower "
        "bound, not the supremum.",
        mistakes=(
            Mistake(lambda: loss_limit("above_threshold", 0.5),
                    "eps is the theorem's bound for every k; at k = 3 a smaller valid bound exists. Which?"),
            Mistake(lambda: exact_privacy_loss("above_threshold", np.zeros(3), 0.0, 0.5),
                    "that is the loss on the stream of zeros, one stream; the question asks the supremum "
                    "over all streams (section 2's last column)."),
        ),
        values=_sup_values),
    Exercise(
        "04.2", "Dwork & Roth's Theorem 3.24: AboveThreshold on k = 200 queries at eps = 0.5 is "
        "(alpha, beta)-accurate with beta = 0.1 for which alpha?",
        lambda: above_threshold_accuracy(200, 0.1, 0.5),
        "The theorem's alpha grows like ln k over eps and has a term in beta; section 7 states it.",
        "alpha = 8 (ln k + ln(2/beta))/eps = 8 (ln 200 + ln {two_over_beta:g})/0.5 = "
        "8 ({ln_k:.3f} + {ln_2b:.3f})/0.5 = {alpha:.1f}. The exact alpha on the worst stream is "
        "{exact:.1f} (the theorem's union bound is loose); answering the 200 questions with Laplace "
        "noise composed over k would need {laplace:.0f}.",
        mistakes=(
            Mistake(lambda: above_threshold_accuracy(200, 2 * 0.1, 0.5),
                    "ln(1/beta) where the theorem has ln(2/beta): beta is split between the threshold's "
                    "noise and the queries'."),
            Mistake(lambda: laplace_accuracy_k(1, 200, 0.5, 0.1),
                    "that is Laplace noise composed over the k queries; the sparse vector pays only ln k."),
            Mistake(lambda: above_threshold_accuracy(200, 0.1, 0.5, exact=True),
                    "that is the exact alpha on the worst stream; the question asks the theorem's bound."),
        ),
        values=_accuracy_values),
    Exercise(
        "04.3", "Lee-Clifton with c = 2 answers above, claimed eps = 0.4: at what privacy loss does it "
        "level off as the stream grows?",
        lambda: loss_limit("lee_clifton", 0.4, c=2),
        "Section 4 gives its limit in units of eps as a function of c; the units scale with eps.",
        "Its loss levels off at (1 + 6c)/4 eps: (1 + 6 · 2)/4 = {units:g} times eps = 0.4, i.e. "
        "{limit:.4g}, more than three times the claim (with c = 1 it would be {c1:.4g}).",
        mistakes=(
            Mistake(lambda: loss_limit("lee_clifton", 0.4, c=1),
                    "that is c = 1's limit: Lee-Clifton's loss grows with the number of tops c."),
            Mistake(lambda: loss_limit("no_halting", 0.4, c=2),
                    "that is no_halting's limit, (c + 1/2) eps; Lee-Clifton's has its own."),
            Mistake(lambda: loss_limit("above_threshold", 0.4),
                    "that is the claimed eps: Lee-Clifton's query noise Lap(4Δ/(3ε)) is too small for it."),
        ),
        values=_lee_clifton_values),
    Exercise(
        "04.4", "Lyu et al.'s Algorithm 1 with c = 1 at eps = 3 gives the threshold the share eps1 = 0.25 "
        "eps (eps2 = 0.75 eps). Its query noise is the general Lap(2cΔ/eps2). Under monotone "
        "neighbours (counts under add/remove), at what privacy loss does it level off?",
        lambda: loss_limit("lyu_alg1", 3.0, neighbours="monotone", threshold_share=0.25),
        "Under monotone neighbours, ask which shifts are still paid for: the threshold's, the bottoms', "
        "the top's (and by how much of its noise).",
        "Monotone neighbours move every answer the same way: the bottoms' move is free or absorbed by "
        "shifting the threshold by Δ, which costs eps1 = {eps1:g}; the top then moves by Δ against "
        "query noise Lap(2Δ/eps2), which costs eps2/2 = {half:g}. Limit: eps1 + eps2/2 = {limit:.4g} "
        "(general neighbours: {general:.4g}).",
        mistakes=(
            Mistake(lambda: loss_limit("lyu_alg1", 3.0, threshold_share=0.25),
                    "that is the general neighbours' limit; monotone ones save part of the top's cost."),
            Mistake(lambda: loss_limit("above_threshold", 3.0, neighbours="monotone"),
                    "3 eps/4 holds for AboveThreshold's 1:1 split; here the threshold has a quarter."),
        ),
        values=_monotone_values),
    Exercise(
        "04.5", "Lyu et al.'s Algorithm 1 with c = 6 at eps = 1, its split eps1 : eps2 chosen to minimise "
        "the variance of each comparison: what is the comparison noise's standard deviation?",
        lambda: comparison_std("lyu_alg1", 1.0, c=6, threshold_share=optimal_threshold_share(6)),
        "Write the comparison's variance from the two Laplace scales, minimise it over the split "
        "with eps1 + eps2 = eps, then take the square root.",
        "The variance 2 (Δ/eps1)² + 2 (2cΔ/eps2)² is smallest at eps1 : eps2 = 1 : (2c)^(2/3) = "
        "1 : {ratio:.3f}, so eps1 = {eps1:.4f} and eps2 = {eps2:.4f}: scales {b_threshold:.3f} and "
        "{b_query:.3f}, standard deviation sqrt(2 · {b_threshold:.3f}² + 2 · {b_query:.3f}²) = {std:.2f} "
        "(the 1:1 split gives {even:.2f}).",
        mistakes=(
            Mistake(lambda: comparison_std("lyu_alg1", 1.0, c=6),
                    "that is the 1:1 split; the question asks the variance-minimising one."),
            Mistake(lambda: comparison_std("lyu_alg1", 1.0, c=6, threshold_share=optimal_threshold_share(3)),
                    "close: the query noise is Lap(2cΔ/eps2), so the ratio is (2c)^(2/3), not c^(2/3)."),
            Mistake(lambda: comparison_std("dwork_roth", 1.0, c=6),
                    "that is Dwork & Roth's SparseVector; Algorithm 1 keeps one threshold."),
        ),
        values=_share_values),
    Exercise(
        "04.6", "In the proof ([Gaboardi17]; section 3), why do the bottoms before the top cost nothing "
        "beyond the threshold's e^(eps/2), however many there are?",
        lambda: "one_shift",
        "Follow the change of variables: which noises are shifted, and by how much?",
        "one_shift: g = max of the bottoms' noisy answers moves by at most Δ, and shifting the noisy "
        "threshold by g(D') - g(D) puts every bottom back below it at once: one density ratio "
        "e^(eps/2), whatever k.",
        choices=("one_shift", "bottoms_reveal_nothing", "composition", "query_noise"),
        explanations={
            "one_shift": "Only the maximum g of the bottoms matters, it moves by at most Δ, and one shift "
                         "of the threshold by at most Δ covers all of them: e^(eps/2) once.",
            "bottoms_reveal_nothing": "Tempting, since a bottom is a single bit, but bottoms do leak: "
                                      "the all-bottom output costs about eps/2 and no_halting's loss "
                                      "grows with each top. They are paid for, once, by the threshold.",
            "composition": "Composition is the naive argument: it charges eps/4 per comparison and grows "
                           "like k eps/4; the proof avoids exactly that.",
            "query_noise": "The bottoms' noises are held fixed in the proof; only the top's noise is "
                           "shifted (by up to 2Δ, the other e^(eps/2)). Their noise does not absorb it.",
        }),
    Exercise(
        "04.7", "The audit of section 5 gives AboveThreshold (claimed eps = 0.7) a lower bound below "
        "0.7 on its pair. What does that show?",
        lambda: "not_refuted",
        "What can a lower bound from samples prove, and about what?",
        "not_refuted: a lower bound below the claim refutes nothing and proves nothing; privacy comes "
        "from the proof and the exact loss.",
        choices=("private", "not_refuted", "true_epsilon", "broken"),
        explanations={
            "private": "An audit only refutes: a bound below 0.7 on one pair and one event cannot show "
                       "that no pair and no event exceed 0.7. The proof of section 3 does that.",
            "not_refuted": "The claim survives this test, on this pair and this event, and that is all: an "
                           "audit can refute a claim, never prove privacy.",
            "true_epsilon": "It is a lower bound with some confidence, on one pair and one output event; "
                            "the pair's exact loss is larger, and eps is a sup over all pairs.",
            "broken": "A bound below the claim is what a correct mechanism gives, and also a broken one "
                      "when the audit lacks power (section 5's next lines); a broken one is caught only "
                      "when the lower bound exceeds the claim, as for Lee-Clifton.",
        }),
    Exercise(
        "04.8", "AboveThreshold at eps = 1 (the threshold + Lap(2/eps) once, each answer + a fresh "
        "Lap(4/eps)), threshold T = 10, sees a first query whose true answer is 5. With what probability "
        "does it halt on that query?",
        lambda: float(halting_probabilities("above_threshold", [5.0], 10.0, 1.0)[0]),
        "It halts when the query's noise minus the threshold's noise reaches T - 5: integrate one Laplace "
        "density against the other's tail.",
        "Halting means ν − ρ ≥ 5 with ν ~ Lap(b1 = 4) and ρ ~ Lap(b2 = 2). The difference of two "
        "Laplaces has tail Pr[ν − ρ ≥ t] = (b1² e^(−t/b1) − b2² e^(−t/b2)) / (2 (b1² − b2²)) for t ≥ 0: "
        "({b1sq:g} · {e1:.4f} − {b2sq:g} · {e2:.4f}) / {den:g} = {p:.4f}. Without the threshold's noise "
        "it would be ½ e^(−5/4) = {no_rho:.4f}: the threshold's noise fattens the tail.",
        mistakes=(
            Mistake(lambda: 0.5 * math.exp(-5 / 4),
                    "that ignores the threshold's noise: the threshold is T + Lap(2/eps), drawn once."),
            Mistake(lambda: float(halting_probabilities("above_threshold", [5.0], 10.0, 1.0)[1]),
                    "that is the probability it does not halt on this query."),
        ),
        sig_figs=2,
        values=lambda: {"b1sq": 16, "b2sq": 4, "e1": math.exp(-5 / 4), "e2": math.exp(-5 / 2), "den": 24,
                        "p": float(halting_probabilities("above_threshold", [5.0], 10.0, 1.0)[0]),
                        "no_rho": 0.5 * math.exp(-5 / 4)}),
]
