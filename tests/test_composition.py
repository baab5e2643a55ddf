"""Composition theorems, stability and subsampling (notebook 2)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import dplab


def test_sequential_and_parallel():
    assert dplab.sequential_composition([0.25] * 4) == (1.0, 0.0)
    assert dplab.sequential_composition([0.5, 0.2], [1e-6, 1e-7]) == pytest.approx((0.7, 1.1e-6))
    assert dplab.parallel_composition([0.5, 1.0, 0.2]) == 1.0
    assert dplab.transformation_epsilon(0.5, 3) == 1.5


@pytest.mark.parametrize("call, message", [
    (lambda: dplab.sequential_composition([]), "epsilons must name at least one"),
    (lambda: dplab.sequential_composition([0.1, -1.0]), r"epsilons\[1\] must be finite and > 0"),
    (lambda: dplab.sequential_composition([0.1], [1e-5, 1e-5]), "one entry per epsilon"),
    (lambda: dplab.sequential_composition([0.1], [1.5]), r"deltas\[0\] must be in \[0, 1\)"),
    (lambda: dplab.parallel_composition([math.nan]), r"epsilons\[0\]"),
    (lambda: dplab.transformation_epsilon(1.0, 0), "stability must be a positive integer"),
    (lambda: dplab.subsampling_epsilon(1.0, 0.0), r"p must be a probability in \(0, 1\], got p=0.0"),
    (lambda: dplab.subsampling_epsilon(1.0, 1.5), "p must be a probability"),
    (lambda: dplab.subsampling_epsilon(-1.0, 0.5), "epsilon must be finite"),
])
def test_bad_input(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_subsampling_exact_formula_and_slide_claim():
    assert dplab.subsampling_epsilon(1.0, 0.1) == pytest.approx(math.log(1 + 0.1 * (math.e - 1)))
    assert dplab.subsampling_epsilon(2.0, 1.0) == pytest.approx(2.0)  # p = 1: no amplification
    # the reference points: the slide's 2 p eps fails beyond about 1.5 (p = 0.1), 2.6 (p = 0.3)
    assert dplab.subsampling_slide_claim_fails_above(0.1) == pytest.approx(1.51, abs=0.01)
    assert dplab.subsampling_slide_claim_fails_above(0.3) == pytest.approx(2.62, abs=0.01)
    assert dplab.subsampling_slide_claim_fails_above(0.5) == math.inf
    for p in (0.01, 0.2, 0.45):
        cross = dplab.subsampling_slide_claim_fails_above(p)
        assert cross > 1.0
        assert dplab.subsampling_epsilon(cross * 0.99, p) < 2 * p * cross * 0.99
        assert dplab.subsampling_epsilon(cross * 1.01, p) > 2 * p * cross * 1.01


def test_subsampling_accepts_an_array_of_epsilon():
    eps = np.array([0.1, 1.0, 3.0])
    np.testing.assert_allclose(dplab.subsampling_epsilon(eps, 0.2), np.log(1 + 0.2 * np.expm1(eps)))
