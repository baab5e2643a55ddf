"""Lesson 5's "implement it" exercise: the exponential mechanism, written by the student and checked by
``dplab.check("05.impl", fn)`` against its exact output law (dplab/lab/implement.py)."""

from __future__ import annotations

import numpy as np

from dplab.lab import implement
from dplab.lab.exercises import Exercise
from dplab.mechanisms.exponential import exponential_probabilities, max_privacy_loss
from dplab.simulate import bonferroni_confidence

#: the candidates' scores (sensitivity 1), a neighbour moving each by at most 1, epsilon
SCORES, NEIGHBOUR = np.array([0.0, 1.0, 2.0, 3.0, 5.0]), np.array([1.0, 0.0, 3.0, 2.0, 4.0])
SENSITIVITY, EPSILON = 1.0, 1.0
N = implement.PER_SIDE  # a side: with the rng check's calls, 20,000 releases in all


def exponential_release(scores, sensitivity, epsilon, rng):
    """The exponential mechanism: candidate r with probability proportional to
    exp(epsilon * score_r / (2 * sensitivity))."""
    if not epsilon > 0:
        raise ValueError(f"epsilon must be > 0, got epsilon={epsilon}")
    s = np.asarray(scores, dtype=float)
    weights = np.exp(epsilon * (s - s.max()) / (2 * sensitivity))  # shifted: no overflow
    return int(rng.choice(s.size, p=weights / weights.sum()))


def check_exponential(fn) -> tuple[bool, str]:
    """The student's ``fn(scores, sensitivity, epsilon, rng)``: refuses epsilon <= 0, draws from its rng;
    its choices follow dplab's exponential_probabilities on both score vectors of the pair (so its exact
    loss on the pair is that law's), and an audit certifies no more than epsilon."""
    confidence = bonferroni_confidence(3, implement.FAMILY_ERROR)
    drawn = []

    def law(fn):
        for s in (SCORES, NEIGHBOUR):
            drawn.append(implement.releases(fn, (s, SENSITIVITY, EPSILON), N, kind="index"))
            implement.discrete_law(
                drawn[-1], tuple(range(s.size)), exponential_probabilities(s, SENSITIVITY, EPSILON),
                f"your choices on the scores {s.tolist()}", confidence=confidence,
                hint="Is Pr[r] proportional to exp(eps score_r / (2 sensitivity)), drawn with the rng?",
                mistakes=[(exponential_probabilities(s, SENSITIVITY, 2 * EPSILON),
                           "they fit exp(eps score / sensitivity): the exponent needs the factor 2, "
                           "eps score / (2 sensitivity), since a neighbour moves the normalizer too")])
        loss = max_privacy_loss(*(exponential_probabilities(s, SENSITIVITY, EPSILON)
                                  for s in (SCORES, NEIGHBOUR)))
        return f"your choices follow the exponential mechanism, whose exact loss on the pair is {loss:.2f}"

    def privacy(fn):
        return implement.audit(drawn[0], drawn[1], EPSILON, "the pair of score vectors",
                               confidence=confidence)

    return implement.run(fn, implement.refuses((SCORES, SENSITIVITY, 0.0, np.random.default_rng(0)),
                                               (SCORES, SENSITIVITY, -1.0, np.random.default_rng(0))),
                         implement.uses_rng((SCORES, SENSITIVITY, EPSILON), kind="index"), law, privacy)


EXERCISES = [
    Exercise("05.impl", "Implement the exponential mechanism: exponential_release(scores, sensitivity, "
             "epsilon, rng) returns the index of one candidate, drawn from rng with probability "
             "proportional to exp(epsilon * score / (2 * sensitivity)), and raises ValueError when "
             f"epsilon <= 0. The check calls it 20,000 times on the scores {SCORES.tolist()} and a "
             "neighbour, against the mechanism's exact law.",
             lambda: exponential_release,
             "Weights, normalized to probabilities, then one draw: rng.choice(len(scores), p=...). "
             "Subtract the largest score before exp so large scores do not overflow.",
             "Weight each candidate by exp(ε s_r / (2Δ)) (shifted by the largest score: the "
             "probabilities do not change), normalize, and draw one index with rng.choice. The 2 pays "
             "for the normalizer, which a neighbour moves too: ε/2 for the numerator, ε/2 for the sum.",
             implement=check_exponential),
]
