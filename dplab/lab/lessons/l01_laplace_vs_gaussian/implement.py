"""Lesson 1's "implement it" exercise: the Laplace mechanism, written by the student and checked by
``dplab.check("01.impl", fn)`` the way the lab checks its own (dplab/lab/implement.py)."""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from dplab.lab import implement
from dplab.lab.exercises import Exercise
from dplab.mechanisms.laplace import laplace_mse, laplace_scale
from dplab.simulate import bonferroni_confidence

#: the exercise's pair of neighbours (a sum of values in [0, 2], and the sum with one more person who
#: adds 2) and its parameters: sensitivity 2, so a function that ignores its sensitivity is caught
VALUE, NEIGHBOUR, SENSITIVITY, EPSILON = 10.0, 12.0, 2.0, 0.5
#: releases drawn on each of the pair (the harness's limit is 20,000 in all)
N = implement.PER_SIDE  # a side: with the rng check's calls, 20,000 releases in all


def laplace_release(value, sensitivity, epsilon, rng):
    """One release of the Laplace mechanism: value + Lap(sensitivity / epsilon)."""
    if not epsilon > 0 or not sensitivity > 0:
        raise ValueError(f"epsilon and sensitivity must be > 0, got epsilon={epsilon}, "
                         f"sensitivity={sensitivity}")
    return value + rng.laplace(0.0, sensitivity / epsilon)


def check_laplace(fn) -> tuple[bool, str]:
    """The student's ``fn(value, sensitivity, epsilon, rng)``: refuses epsilon <= 0, draws from its rng,
    releases Lap(Delta/eps) around the value on both neighbours (shape, sd, centre, law) and an audit on
    the pair certifies no more than epsilon; 9 statistical checks at a family error of 0.001."""
    confidence = bonferroni_confidence(9, implement.FAMILY_ERROR)
    b = float(laplace_scale(SENSITIVITY, EPSILON))
    hints = dict(scale_hint="is the scale Delta/eps?", shape_hint="is the noise Laplace (rng.laplace), "
                 "not Gaussian or uniform?", confidence=confidence)
    drawn = {}

    def law(fn):
        said = []
        for value in (VALUE, NEIGHBOUR):
            drawn[value] = implement.releases(fn, (value, SENSITIVITY, EPSILON), N)
            said.append(implement.continuous_law(drawn[value], stats.laplace(value, b),
                                                 f"your releases at value {value:g}", **hints))
        return said[0]

    def privacy(fn):
        return implement.audit(drawn[VALUE], drawn[NEIGHBOUR], EPSILON,
                               f"the sums {VALUE:g} and {NEIGHBOUR:g}", confidence=confidence)

    return implement.run(fn, implement.refuses((VALUE, SENSITIVITY, 0.0, np.random.default_rng(0)),
                                               (VALUE, SENSITIVITY, -1.0, np.random.default_rng(0))),
                         implement.uses_rng((VALUE, SENSITIVITY, EPSILON)), law, privacy)


EXERCISES = [
    Exercise("01.impl", "Implement the Laplace mechanism: laplace_release(value, sensitivity, epsilon, rng) "
             "returns one release, value plus Laplace noise of scale sensitivity/epsilon drawn from the "
             "numpy Generator rng, and raises ValueError when epsilon <= 0. The check calls it 20,000 times "
             f"(value {VALUE:g}, sensitivity {SENSITIVITY:g}, epsilon {EPSILON:g}, and its neighbour "
             f"{NEIGHBOUR:g}), tests the law of the releases and audits their privacy.",
             lambda: laplace_release,
             "rng.laplace(loc, scale) draws one Laplace number; the scale is Δ/ε, and numpy's second "
             "argument is the scale, not the rate ε/Δ.",
             "Check epsilon first (raise ValueError unless it is > 0), then return value + "
             "rng.laplace(0.0, sensitivity / epsilon): one draw per call, from the rng given, so the "
             "releases are reproducible. At ε = {epsilon:g} and Δ = {sensitivity:g} the scale is {b:.3g} "
             "and the standard deviation √(2b²) ≈ {sd:.3g}.",
             implement=check_laplace,
             values=lambda: {"epsilon": EPSILON, "sensitivity": SENSITIVITY,
                             "b": float(laplace_scale(SENSITIVITY, EPSILON)),
                             "sd": math.sqrt(laplace_mse(SENSITIVITY, EPSILON))}),
]
