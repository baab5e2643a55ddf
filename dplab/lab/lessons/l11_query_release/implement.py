"""Lesson 11's "implement it" exercise: one round of MWEM (Hardt, Ligett & McSherry 2012, Algorithm 1),
written by the student and checked by ``dplab.check("11.impl", fn)`` the way the lab checks its own
mechanisms (dplab/lab/implement.py): the law of the chosen query, the law of its measurement, the update."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy import stats

from dplab import query_release as qr
from dplab.lab import implement
from dplab.lab.exercises import Exercise
from dplab.mechanisms.exponential import exponential_probabilities
from dplab.simulate import bonferroni_confidence

#: notebook 5's universe X = {0, 1}^3 (male, tall, BMI >= 25) and 60 students on it; D' moves one student
HISTOGRAM = np.array([12, 3, 9, 2, 4, 1, 20, 9])
NEIGHBOUR = np.array([12, 3, 9, 2, 4, 1, 19, 10])
#: the synthetic distribution before the round (the uniform start drifted by earlier rounds)
DISTRIBUTION = np.array([0.05, 0.1, 0.2, 0.15, 0.1, 0.1, 0.2, 0.1])
#: the workload: the six 1-way cells (female, male, short, tall, BMI < 25, BMI >= 25) as 0/1 rows over X
QUERIES = np.array([[(x >> (2 - a)) & 1 == v for x in range(8)] for a in range(3) for v in (0, 1)],
                   dtype=float)
#: one round's budget: half chooses the query, half measures it
EPSILON = 0.5
#: rounds checked for the update first, then rounds on each of D and D' (20,000 in all with the rng check's)
UPDATE_ROUNDS = 200
N = implement.PER_SIDE - UPDATE_ROUNDS // 2


def mwem_round(histogram, distribution, queries, epsilon, rng):
    """One MWEM round at budget epsilon: choose a query by the exponential mechanism (epsilon/2, score
    |q(h) - n q(A)|, sensitivity 1), measure it with Laplace noise (epsilon/2), update A multiplicatively.
    Returns (the chosen index, its measurement, the new distribution)."""
    if not epsilon > 0:
        raise ValueError(f"epsilon must be > 0, got epsilon={epsilon}")
    h, a, q = (np.asarray(v, dtype=float) for v in (histogram, distribution, queries))
    n = h.sum()
    scores = np.abs(q @ h - n * (q @ a))
    weights = np.exp(epsilon / 2 * (scores - scores.max()) / 2)
    i = int(rng.choice(len(scores), p=weights / weights.sum()))
    m = q[i] @ h + rng.laplace(0.0, 2 / epsilon)
    updated = a * np.exp(q[i] * (m - n * (q[i] @ a)) / (2 * n))
    return i, float(m), updated / updated.sum()


def expected_update(i: int, m: float, distribution: np.ndarray = DISTRIBUTION, n: float = HISTOGRAM.sum()
                    ) -> np.ndarray:
    """HLM12's update after measuring query i as m, by dplab.query_release.mwem_update on the weights n A:
    A(x) exp(q_i(x) (m - n q_i(A)) / (2n)), normalised."""
    return qr.mwem_update(n * distribution, QUERIES[i], m, n) / n


def _rounds(fn, histogram: np.ndarray, n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n rounds fn(histogram, DISTRIBUTION, QUERIES, EPSILON, rng) with one Generator: (choices,
    measurements, distributions); Wrong when a round is not (an index, a number, a distribution over X)."""
    rng, choices, measured, updated = np.random.default_rng(seed), [], [], []
    for _ in range(n):
        out = implement.call(fn, histogram, DISTRIBUTION, QUERIES, EPSILON, rng)
        if not (isinstance(out, tuple) and len(out) == 3):
            raise implement.Wrong(f"a round must return (index, measurement, distribution): your function "
                                  f"returned {type(out).__name__}")
        i, m, a = out
        a = np.asarray(a, dtype=float)
        if not (float(i) == int(i) and 0 <= int(i) < len(QUERIES)) or a.shape != (8,):
            raise implement.Wrong(f"a round must return an index in 0..{len(QUERIES) - 1} and a distribution "
                                  f"over the 8 elements of X: your function returned {out!r}")
        choices.append(int(i))
        measured.append(float(m))
        updated.append(a)
    return np.array(choices), np.array(measured), np.array(updated)


def check_mwem_round(fn) -> tuple[bool, str]:
    """The student's ``fn(histogram, distribution, queries, epsilon, rng)``: refuses epsilon <= 0, draws
    from its rng; its update is HLM12's (on UPDATE_ROUNDS rounds, first: a wrong update is told at once);
    its choices on D and D' follow dplab's exponential_probabilities at epsilon/2 on the scores
    |q(h) - n q(A)|, and its measurements on D are the chosen answers plus Lap(2/epsilon); 6 statistical
    checks (two laws of the choices, four tests of the measurements' law) at a family error of 0.001. No
    privacy audit of the choices: choices that pass both law tests are too close to the eps/2-DP
    exponential mechanism for an audit of these rounds to fail (it proved about 0.00 of eps)."""
    confidence = bonferroni_confidence(4 + 2, implement.FAMILY_ERROR)
    drawn: dict[str, tuple] = {}
    n = HISTOGRAM.sum()

    def update(fn):
        i, m, a = _rounds(fn, HISTOGRAM, UPDATE_ROUNDS, implement.SEED + 9)
        sums = a.sum(axis=1)
        if not np.allclose(sums, 1.0):
            raise implement.Wrong(f"your new distributions sum to {sums[0]:.4g}, not 1: normalise A after "
                                  "the update")
        expected = np.array([expected_update(int(j), float(v)) for j, v in zip(i, m, strict=True)])
        worst = int(np.argmax(np.abs(a - expected).max(axis=1)))
        if not np.allclose(a, expected, rtol=1e-6, atol=1e-9):
            j, v = int(i[worst]), float(m[worst])
            synthetic = n * (QUERIES[j] @ DISTRIBUTION)  # n q_j(A)
            flipped = expected_update(j, 2 * synthetic - v)
            half = expected_update(j, synthetic + 2 * (v - synthetic))
            why = ("it moves A away from the measurement: the sign of (m − n q(A)) is flipped"
                   if np.allclose(a[worst], flipped, rtol=1e-6) else
                   "it divides by n, not 2n" if np.allclose(a[worst], half, rtol=1e-6) else
                   "is it A(x) exp(q_i(x) (m − n q_i(A)) / (2n)), normalised?")
            got, want = np.round(a[worst], 4).tolist(), np.round(expected[worst], 4).tolist()
            raise implement.Wrong(f"after choosing query {j} and measuring {v:.4g} your update gives {got} "
                                  f"where {want} was expected: {why}")
        return "your update is HLM12's multiplicative weights"

    def choices(name: str, h: np.ndarray) -> Callable:
        def law(fn):
            drawn[name] = _rounds(fn, h, N, implement.SEED + len(drawn))
            signed = QUERIES @ h - n * (QUERIES @ DISTRIBUTION)
            implement.discrete_law(
                drawn[name][0], tuple(range(len(QUERIES))),
                exponential_probabilities(np.abs(signed), 1.0, EPSILON / 2),
                f"your choices on {name}", confidence=confidence,
                hint="is Pr[i] proportional to exp((ε/2) s_i / 2), s_i = |q_i(h) − n q_i(A)|?",
                mistakes=[(exponential_probabilities(np.abs(signed), 1.0, EPSILON),
                           "they fit the exponential mechanism at the round's whole ε: the choice gets ε/2, "
                           "the measurement the other half"),
                          (exponential_probabilities(signed, 1.0, EPSILON / 2),
                           "they fit the signed error q(h) − n q(A): the score is its absolute value")])
            return f"your choices on {name} follow the exponential mechanism at ε/2"
        return law

    def measurement(fn):
        i, m, _ = drawn["D"]
        return implement.continuous_law(
            m - QUERIES[i] @ HISTOGRAM, stats.laplace(0.0, 2 / EPSILON),
            "your measurements minus the chosen query's true answer",
            scale_hint="is the noise Lap(2/ε), the measurement's half of the round's budget?",
            shape_hint="is the noise Laplace, added to the chosen query's true answer q_i(h)?",
            confidence=confidence)

    def rng_check(fn):
        measured = lambda *args: fn(*args)[1]  # noqa: E731 - the measurement depends on every draw
        return implement.uses_rng((HISTOGRAM, DISTRIBUTION, QUERIES, EPSILON), kind="number")(measured)

    bad = (HISTOGRAM, DISTRIBUTION, QUERIES)
    return implement.run(fn, implement.refuses((*bad, 0.0, np.random.default_rng(0)),
                                               (*bad, -1.0, np.random.default_rng(0))),
                         rng_check, update, choices("D", HISTOGRAM), measurement, choices("D'", NEIGHBOUR))


EXERCISES = [
    Exercise("11.impl", "Implement one round of MWEM: mwem_round(histogram, distribution, queries, epsilon, "
             "rng) takes the true counts h over X, the synthetic distribution A (summing to 1), the queries "
             "as 0/1 rows over X and the round's budget epsilon; it chooses a query i by the exponential "
             "mechanism at epsilon/2 with score |q_i(h) - n q_i(A)| (sensitivity 1, n = sum of h), measures "
             "m = q_i(h) + Lap(2/epsilon), and returns (i, m, A') with A'(x) proportional to "
             "A(x) exp(q_i(x) (m - n q_i(A)) / (2n)). All draws from the numpy Generator rng; epsilon <= 0 "
             "raises ValueError. The check runs it 20,000 times on notebook 5's |X| = 8 (60 students and a "
             "neighbour) and tests the law of the choices on both, of the measurements and the update.",
             lambda: mwem_round,
             "Three steps: scores and rng.choice with exponential weights; rng.laplace; weights times "
             "exp(...) then divide by their sum.",
             "Check epsilon; scores s = |Q h − n Q A|; choose i with probability ∝ exp((ε/2) s_i / 2) (shift "
             "by the largest score before exp); m = q_i·h + Lap(2/ε) (the other ε/2, sensitivity 1); "
             "A' ∝ A · exp(q_i (m − n q_i·A)/(2n)). The choice and the measurement are each ε/2-DP, the "
             "update is post-processing: the round is ε-DP (ε = {epsilon:g} here), T rounds Tε by basic "
             "composition.",
             implement=check_mwem_round,
             values=lambda: {"epsilon": EPSILON}),
]
