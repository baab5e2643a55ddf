"""Lesson 9's "implement it" exercise: the median's smooth sensitivity by its definition, written by the
student and checked by ``dplab.check("09.impl", fn)`` against dplab.smooth_sensitivity."""

from __future__ import annotations

import math

import numpy as np

from dplab.lab import implement
from dplab.lab.exercises import Exercise
from dplab.smooth_sensitivity import (
    median_global_sensitivity,
    median_local_sensitivity,
    median_smooth_sensitivity,
)

#: data sets in [LOW, HIGH] (odd and even sizes, ties), the smoothness beta of the check
LOW, HIGH, BETA, SIZES = 0.0, 100.0, 0.3, (5, 8, 15, 24)


def smooth_sensitivity(values, low, high, beta):
    """S*(x) = max over k = 0..n of e^(-beta k) A_k(x), A_k(x) = max over t = 0..k+1 of
    x_(m+t) - x_(m+t-k-1): m = ceil(n/2) (the lower median), x_(i) = low for i < 1, high for i > n."""
    if not beta > 0:
        raise ValueError(f"beta must be > 0, got beta={beta}")
    x = np.sort(np.asarray(values, dtype=float))
    n, m = x.size, (x.size + 1) // 2

    def at(i):
        return low if i < 1 else high if i > n else x[i - 1]

    return max(math.exp(-beta * k) * max(at(m + t) - at(m + t - k - 1) for t in range(k + 2))
               for k in range(n + 1))


def check_smooth(fn) -> tuple[bool, str]:
    """The student's ``fn(values, low, high, beta)``: refuses beta <= 0 and equals
    dplab.smooth_sensitivity.median_smooth_sensitivity (its divide and conquer) on seeded data sets."""
    rng = np.random.default_rng(implement.SEED)
    cases = [np.round(rng.uniform(LOW, HIGH, n) / 10) * 10 for n in SIZES]  # multiples of 10: ties

    def values(fn):
        for x in cases:
            given = implement.call(fn, x, LOW, HIGH, BETA)
            number = implement.as_number(given)
            if isinstance(number, str):
                raise implement.Wrong(f"your function returned {number}")
            right = median_smooth_sensitivity(x, LOW, HIGH, BETA)
            if math.isclose(number, right, rel_tol=1e-9):
                continue
            shown = f"your value {number:.4g} for values {x.tolist()} (S* = {right:.4g})"
            if math.isclose(number, median_global_sensitivity(LOW, HIGH), rel_tol=1e-9):
                raise implement.Wrong(f"{shown} is high - low, the largest A_k: multiply each A_k by "
                                      "e^(-beta k) before taking the max")
            if math.isclose(number, median_local_sensitivity(x, LOW, HIGH), rel_tol=1e-9):
                raise implement.Wrong(f"{shown} is the local sensitivity A_0: the max runs over every "
                                      "k = 0..n")
            raise implement.Wrong(f"{shown}: is x_(i) low below 1 and high above n, m = ceil(n/2), and t "
                                  "in 0..k+1?")
        return f"equals the smooth sensitivity on {len(cases)} data sets"

    return implement.run(fn, implement.refuses((cases[0], LOW, HIGH, 0.0), (cases[0], LOW, HIGH, -1.0),
                                               what="beta <= 0"), values)


EXERCISES = [
    Exercise("09.impl", "Implement the median's smooth sensitivity by its definition: "
             "smooth_sensitivity(values, low, high, beta) returns S* = max over k = 0..n of "
             "e^(-beta k) A_k, with A_k the largest local sensitivity of the lower median within k "
             "replacements (values in [low, high]), and "
             "raises ValueError when beta <= 0. The check compares it with dplab's fast algorithm on "
             f"{len(SIZES)} data sets.",
             lambda: smooth_sensitivity,
             "Sort; A_k = max over t = 0..k+1 of x_(m+t) - x_(m+t-k-1), where indices below 1 read low and "
             "above n read high.",
             "With m = ⌈n/2⌉ and the sorted values padded by low on the left and high on the right, "
             "A_k = max_{t=0..k+1} (x_(m+t) − x_(m+t−k−1)) (Nissim, Raskhodnikova & Smith 2007, Section "
             "3.1), and S* = max_k e^(−βk) A_k. A_n = high − low, so the factor e^(−βk) is what keeps S* "
             "small on a data set whose median is stable.",
             implement=check_smooth),
]
