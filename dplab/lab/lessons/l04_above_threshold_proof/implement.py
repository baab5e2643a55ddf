"""Lesson 4's "implement it" exercise: AboveThreshold, written by the student and checked by
``dplab.check("04.impl", fn)`` against its exact halting law (dplab/lab/implement.py)."""

from __future__ import annotations

import numpy as np

from dplab.lab import implement
from dplab.lab.exercises import Exercise
from dplab.mechanisms.exponential import max_privacy_loss
from dplab.simulate import bonferroni_confidence
from dplab.sparse_vector import halting_probabilities

#: a stream of answers (sensitivity 1), a neighbour moving each by at most 1, the threshold, epsilon
ANSWERS, NEIGHBOUR = np.array([1.0, 3.0, 2.0, 6.0, 4.0]), np.array([2.0, 4.0, 3.0, 5.0, 3.0])
THRESHOLD, EPSILON = 5.0, 1.0
#: the outputs: the index of the first query above, or -1 when none is
OUTPUTS = (*range(ANSWERS.size), -1)
N = implement.PER_SIDE  # a side: with the rng check's calls, 20,000 releases in all


def above_threshold(answers, threshold, epsilon, rng):
    """AboveThreshold (Dwork & Roth, Algorithm 1; sensitivity 1): the threshold + Lap(2/eps) once,
    each answer + a fresh Lap(4/eps); the index of the first noisy answer >= the noisy threshold, or -1."""
    if not epsilon > 0:
        raise ValueError(f"epsilon must be > 0, got epsilon={epsilon}")
    noisy_threshold = threshold + rng.laplace(0.0, 2.0 / epsilon)
    for i, answer in enumerate(answers):
        if answer + rng.laplace(0.0, 4.0 / epsilon) >= noisy_threshold:
            return i
    return -1


def check_above_threshold(fn) -> tuple[bool, str]:
    """The student's ``fn(answers, threshold, epsilon, rng)``: refuses epsilon <= 0, draws from its rng;
    where it halts follows dplab.sparse_vector.halting_probabilities on both streams of the pair (so its
    exact loss on the pair is that law's), and an audit certifies no more than epsilon."""
    confidence = bonferroni_confidence(3, implement.FAMILY_ERROR)
    laws = {name: [halting_probabilities(variant, f, THRESHOLD, EPSILON) for f in (ANSWERS, NEIGHBOUR)]
            for name, variant in (("right", "above_threshold"), ("noisy_value", "noisy_value"))}
    drawn = []

    def law(fn):
        for f, p, wrong in zip((ANSWERS, NEIGHBOUR), laws["right"], laws["noisy_value"], strict=True):
            drawn.append(implement.releases(fn, (f, THRESHOLD, EPSILON), N, kind="index"))
            implement.discrete_law(
                drawn[-1], OUTPUTS, p, f"the halts of your function on {f.tolist()}", confidence=confidence,
                hint="Is the threshold noised once, before the stream, with Lap(2/eps), and each answer "
                     "with a fresh Lap(4/eps)?",
                mistakes=[(wrong, "they fit answers noised with Lap(2/eps): each answer's noise is "
                                  "Lap(4/eps), twice the threshold's")])
        loss = max_privacy_loss(*laws["right"])
        return f"where it halts follows AboveThreshold's law, whose exact loss on the pair is {loss:.2f}"

    def privacy(fn):
        return implement.audit(drawn[0], drawn[1], EPSILON, "the pair of streams", confidence=confidence)

    return implement.run(fn, implement.refuses((ANSWERS, THRESHOLD, 0.0, np.random.default_rng(0)),
                                               (ANSWERS, THRESHOLD, -1.0, np.random.default_rng(0))),
                         implement.uses_rng((ANSWERS, THRESHOLD, EPSILON), kind="index"), law, privacy)


EXERCISES = [
    Exercise("04.impl", "Implement AboveThreshold: above_threshold(answers, threshold, epsilon, rng) returns "
             "the index (from 0, as Python counts) of the first answer (sensitivity 1) whose noisy value "
             "reaches the noisy threshold (the threshold + Lap(2/epsilon) drawn once, each answer + a fresh "
             "Lap(4/epsilon)), "
             "or -1 when none does, drawing every noise from rng, and raises ValueError when epsilon <= 0. "
             f"The check calls it 20,000 times on answers {ANSWERS.tolist()} and a neighbour, threshold "
             f"{THRESHOLD:g}, epsilon {EPSILON:g}, against the exact law of where AboveThreshold halts.",
             lambda: above_threshold,
             "Noise the threshold once, before the loop; each answer gets its own noise, at twice the "
             "threshold's scale.",
             "Draw T̂ = T + Lap(2/ε) once; for each answer draw a fresh ν_i = Lap(4/ε) and return the "
             "first i with f_i + ν_i ≥ T̂ (-1 if none). The proof couples T̂ with T̂ + 1 and ν_k with "
             "ν_k + 2 on the neighbour: ε/2 for the threshold and ε/2 for the halting query.",
             implement=check_above_threshold),
]
