"""Lesson 10's "implement it" exercise: randomized response, written by the student and checked by
``dplab.check("10.impl", fn)`` the way the lab checks its own (dplab/lab/implement.py)."""

from __future__ import annotations

import math

import numpy as np

from dplab.lab import implement
from dplab.lab.exercises import Exercise
from dplab.mechanisms import RandomizedResponse
from dplab.simulate import bonferroni_confidence

#: the exercise's epsilon (p = e^eps/(1 + e^eps) = 0.62, far from the coin-flip survey's 3/4)
EPSILON = 0.5
N = implement.PER_SIDE  # reports on each of the two answers (20,000 in all with the rng check's calls)


def rr_report(bit, epsilon, rng):
    """One randomized-response report of a 0/1 answer: the truth with probability e^eps/(1 + e^eps)."""
    if not epsilon > 0:
        raise ValueError(f"epsilon must be > 0, got epsilon={epsilon}")
    keep = rng.random() < math.exp(epsilon) / (1 + math.exp(epsilon))
    return bit if keep else 1 - bit


def check_rr(fn) -> tuple[bool, str]:
    """The student's ``fn(bit, epsilon, rng)``: refuses epsilon <= 0, draws from its rng, reports each answer
    with the law (p, q) of dplab.mechanisms.RandomizedResponse, and an audit on the pair of answers 0 and 1
    certifies no more than epsilon; 3 statistical checks at a family error of 0.001."""
    confidence = bonferroni_confidence(3, implement.FAMILY_ERROR)
    rr, drawn = RandomizedResponse(EPSILON), {}

    def law(fn):
        for bit in (0, 1):
            drawn[bit] = implement.releases(fn, (bit, EPSILON), N, kind="index")
            truth = rr.probabilities(bit)
            coin = np.where(np.arange(2) == bit, 0.75, 0.25)  # Warner's survey: a fair coin decides
            implement.discrete_law(
                drawn[bit], (0, 1), truth, f"your reports of the answer {bit}", confidence=confidence,
                hint=f"is the truth kept with probability e^ε/(1 + e^ε) = {rr.keep:.3f}?",
                mistakes=[(truth[::-1], "they fit the truth kept with probability q = 1/(1 + e^ε): p and q "
                                        "swapped"),
                          (coin, "they fit a fair coin's survey (the truth with probability 3/4): the "
                                 "probability must come from ε")])
        return f"your reports keep the answer with probability p = {rr.keep:.3f}"

    def privacy(fn):
        return implement.audit(drawn[0], drawn[1], EPSILON, "the answers 0 and 1", confidence=confidence)

    return implement.run(fn, implement.refuses((1, 0.0, np.random.default_rng(0)),
                                               (1, -1.0, np.random.default_rng(0))),
                         implement.uses_rng((1, EPSILON), kind="index"), law, privacy)


EXERCISES = [
    Exercise("10.impl", "Implement randomized response: rr_report(bit, epsilon, rng) returns one report of "
             "the answer bit (0 or 1): the truth with probability e^epsilon/(1 + e^epsilon), else the other "
             "answer, drawn from the numpy Generator rng; epsilon <= 0 raises ValueError. The check calls it "
             f"20,000 times (epsilon {EPSILON:g}, on the answers 0 and 1), tests the law of the reports and "
             "audits their privacy.",
             lambda: rr_report,
             "One uniform draw rng.random() per report, compared with p = e^ε/(1 + e^ε).",
             "Check epsilon first, then draw one uniform number from rng and keep the answer when it is "
             "below p = e^ε/(1 + e^ε) = {p:.4f} (ε = {epsilon:g}); otherwise report 1 − bit. The ratio of "
             "the report's probabilities under the two answers is p/q = e^ε: ε-DP.",
             implement=check_rr,
             values=lambda: {"epsilon": EPSILON, "p": RandomizedResponse(EPSILON).keep}),
]
