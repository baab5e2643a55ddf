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


def test_advanced_composition_reference_numbers():
    # LAB_SPEC.md references (dp-accounting 0.6.0): k-fold eps0 = 0.1, delta' = 1e-6
    for k, expected in ((10, 1.7674), (100, 6.3082), (1000, 27.1397)):
        eps, delta = dplab.advanced_composition(0.1, k, 1e-6)
        assert eps == pytest.approx(expected, abs=1e-4) and delta == 1e-6
    assert dplab.advanced_composition(0.1, 10, 1e-6, delta=1e-7)[1] == pytest.approx(1e-6 + 10 * 1e-7)


@pytest.mark.parametrize("k", [1, 10, 300])
def test_per_step_epsilon_inverts_advanced_composition(k):
    step = dplab.advanced_composition_per_step(2.0, k, 1e-6)
    assert dplab.advanced_composition(step, k, 1e-6)[0] == pytest.approx(2.0, rel=1e-12)
    seed = dplab.advanced_composition_per_step(0.5, k, 1e-6, method="seed")
    assert seed == pytest.approx(0.5 / math.sqrt(8 * k * math.log(1e6)))
    with pytest.raises(ValueError, match="epsilon_total <= 1|epsilon_total=2.0"):
        dplab.advanced_composition_per_step(2.0, k, 1e-6, method="seed")


def test_seed_split_holds_up_to_its_max_epsilon():
    log_inv = math.log(1e6)
    for k, approx in ((1, 19.28), (10, 32.55)):
        top = dplab.advanced_composition_seed_max_epsilon(k, 1e-6)
        assert top == pytest.approx(approx, abs=0.01)
        for eps, within in ((top * 0.999, True), (top * 1.001, False)):
            step = eps / math.sqrt(8 * k * log_inv)
            assert (dplab.advanced_composition(step, k, 1e-6)[0] <= eps) == within
    assert dplab.advanced_composition_seed_max_epsilon(10**8, 1e-6) == pytest.approx(4 * log_inv, rel=1e-3)


def test_exact_advanced_composition_beats_basic_from_k_30():
    k = dplab.advanced_beats_basic_from_k(1.0, 1e-6)
    assert k == 30  # the "about 30" at delta = 1e-6
    for j, wins in ((k, True), (k - 1, False)):
        assert (dplab.advanced_composition(1.0 / j, j, 1e-6)[0] < 1.0) == wins  # eps/k composes below 1


def test_subsampling_claim_holds_for_every_p_up_to_1_256():
    top = dplab.subsampling_slide_claim_holds_up_to()
    assert math.expm1(top) == pytest.approx(2 * top) and top == pytest.approx(1.2564, abs=1e-4)
    for p in (1e-6, 0.01, 0.1, 0.3, 0.49, 0.5, 0.9):
        assert 2 * p * top * 0.999 >= dplab.subsampling_epsilon(top * 0.999, p)
    assert dplab.subsampling_epsilon(top * 1.01, 1e-6) > 2e-6 * top * 1.01  # tiny p fails just above


def test_seed_max_epsilon_rises_towards_4_ln_inverse_delta():
    values = [dplab.advanced_composition_seed_max_epsilon(k, 1e-6) for k in (1, 10, 100, 10**4, 10**8)]
    assert values == sorted(values) and values[-1] < 4 * math.log(1e6)
