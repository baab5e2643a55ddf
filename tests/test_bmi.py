"""The BMI example (seed 000) and seed 003's contingency tables."""

from __future__ import annotations

import numpy as np
import pytest

import dplab
from dplab import accounting, bmi, sensitivity


def test_slides_table_conversion_and_answers():
    t = dplab.bmi_slides_table()
    # 6'2" = 74 in = 1.8796 m; 210 lb = 95.2543977 kg (exact definitions of inch and pound)
    assert t["height_m"][0] == pytest.approx(1.8796)
    assert t["weight_kg"][0] == pytest.approx(95.2543977)
    assert dplab.body_mass_index(t) == pytest.approx([26.96, 33.66, 23.63, 31.89, 28.16], abs=0.01)
    np.testing.assert_array_equal(dplab.bmi_true_answers(t), [0, 3, 1, 2])
    np.testing.assert_array_equal(dplab.bmi_cells(t), [0, 3, 1, 1])


def test_bmi_exactly_25_is_counted_once():
    t = {"sex": np.array(["M"]), "height_m": np.array([2.0]), "weight_kg": np.array([100.0])}
    assert dplab.body_mass_index(t)[0] == 25.0
    np.testing.assert_array_equal(dplab.bmi_cells(t), [0, 1, 0, 0])


def test_expected_total_errors():
    for eps in (0.3, 1.0, 2.5):
        assert dplab.bmi_expected_total_error(1, eps) == pytest.approx(128 / eps**2)
        assert dplab.bmi_expected_total_error(2, eps) == pytest.approx(12 / eps**2)
        assert dplab.bmi_expected_total_error(2, eps, "replace") == pytest.approx(48 / eps**2)
        assert dplab.bmi_expected_total_error(1, eps, "replace") == pytest.approx(128 / eps**2)


def test_algorithms_shapes_seeds_and_noise():
    t = dplab.load_yrbss()
    truth = dplab.bmi_true_answers(t)
    a1 = dplab.bmi_algorithm_1(t, 1.0, rng=5, size=3)
    assert a1.shape == (3, 4) and dplab.bmi_algorithm_2(t, 1.0, rng=5).shape == (4,)
    np.testing.assert_array_equal(a1, dplab.bmi_algorithm_1(t, 1.0, rng=5, size=3))
    # Algorithm 2 = A @ (cells + Lap(Delta/eps)): the sums are exact post-processing
    a2 = dplab.bmi_algorithm_2(t, 0.5, rng=6, size=1000, neighbours="replace")
    z = np.random.default_rng(6).laplace(0, 1, size=(1000, 4))
    np.testing.assert_allclose(a2, (dplab.bmi_cells(t) + 4.0 * z) @ bmi.ANSWERS_FROM_CELLS.T)
    np.testing.assert_allclose((dplab.bmi_algorithm_1(t, 2.0, rng=6, size=1000) - truth) / 2.0, z,
                               atol=1e-9)  # Lap(4/eps) = Lap(2) on each answer
    assert bmi.bmi_noise_scale(1, 2.0) == 2.0 and bmi.bmi_noise_scale(2, 0.5, "replace") == 4.0


def test_algorithms_total_error_matches_theory():
    t = dplab.bmi_slides_table()
    truth = dplab.bmi_true_answers(t)
    for alg, run in ((1, dplab.bmi_algorithm_1), (2, dplab.bmi_algorithm_2)):
        noisy = run(t, 0.8, rng=alg, size=200_000)
        est = dplab.mean_ci(np.sum((noisy - truth) ** 2, axis=1), 0.999)
        assert est.contains(dplab.bmi_expected_total_error(alg, 0.8))


def test_order_violation_formula_against_simulation():
    t = dplab.bmi_slides_table()
    for alg, eps in ((1, 0.7), (2, 0.3)):
        r = dplab.bmi_inference_trials(t, alg, eps, 100_000, seed=alg)
        freq = dplab.proportion_ci(int(r["violated"].sum()), 100_000, 0.999)
        assert freq.contains(dplab.bmi_order_violation_probability(alg, 3.0, eps))


@pytest.mark.parametrize("call, error, message", [
    (lambda: dplab.bmi_algorithm_1({"sex": np.array([]), "height_m": np.array([]),
                                    "weight_kg": np.array([])}, 1.0), ValueError, "at least one row"),
    (lambda: dplab.bmi_algorithm_2({"sex": np.array(["M"]), "height": np.array([1.8]),
                                    "weight_kg": np.array([70.0])}, 1.0), ValueError,
     "missing column 'height_m'"),
    (lambda: dplab.bmi_algorithm_1(dplab.bmi_slides_table(), -1.0), ValueError,
     "epsilon must be finite and > 0, got epsilon=-1.0"),
    (lambda: dplab.bmi_algorithm_2(dplab.bmi_slides_table(), 1.0, neighbours="bounded"), ValueError,
     "neighbours must be one of"),
    (lambda: dplab.bmi_expected_total_error(3, 1.0), ValueError,
     r"algorithm must be one of \(1, 2\), got algorithm=3"),
    (lambda: dplab.bmi_cells({"sex": np.array(["X"]), "height_m": np.array([1.8]),
                              "weight_kg": np.array([70.0])}), ValueError, "'M' or 'F'"),
    (lambda: dplab.bmi_cells([("M", 1.8, 70)]), TypeError, "table must be a dict"),
])
def test_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_theory_over_an_array_of_epsilon():
    eps = np.array([0.3, 1.0, 2.5])
    np.testing.assert_allclose(dplab.bmi_expected_total_error(1, eps), 128 / eps**2)
    np.testing.assert_allclose(dplab.bmi_expected_total_error(2, eps, "replace"), 48 / eps**2)
    c2 = 3.0
    np.testing.assert_allclose(dplab.bmi_order_violation_probability(2, c2, eps), 0.5 * np.exp(-c2 * eps))
    b = 4 / eps
    np.testing.assert_allclose(dplab.bmi_order_violation_probability(1, c2, eps),
                               0.5 * np.exp(-c2 / b) * (1 + c2 / (2 * b)))


def test_totals_projection_removes_a_third():
    assert dplab.bmi_totals_expected_error(1.0, projected=False) == pytest.approx(3 * 2 * 9)
    assert dplab.bmi_totals_expected_error(1.0, projected=True) == pytest.approx(2 * 2 * 9)
    r = dplab.bmi_totals_trials(1.0, 50_000, seed=3)
    assert dplab.mean_ci(r["after"], 0.999).contains(dplab.bmi_totals_expected_error(1.0, True))
    assert np.all(r["after"] <= r["before"] + 1e-9)


def test_tall_counts_are_non_increasing_and_the_fit_never_hurts():
    counts = dplab.tall_counts()
    assert np.all(np.diff(counts) <= 0) and counts[0] <= 12_579
    r = dplab.tall_counts_isotonic_trials(0.05, 500, seed=4)
    assert np.all(np.diff(r["fitted"], axis=1) <= 1e-9)
    assert np.all(r["after"] <= r["before"] + 1e-9)


def test_joint_accounting_uses_the_answers_sensitivity():
    for neighbours in accounting.Neighbours:  # the closed form against brute force over small tables
        assert dplab.bmi_answers_sensitivity(neighbours) == sensitivity.l1_sensitivity(
            dplab.bmi_true_answers, bmi.BMI_UNIVERSE, 3, neighbours)
    assert dplab.bmi_expected_total_error(1, 0.5, accounting="joint") == pytest.approx(32 / 0.25)
    assert dplab.bmi_expected_total_error(1, 0.5, "replace", "joint") == pytest.approx(128 / 0.25)
    t = dplab.load_yrbss()
    noisy = dplab.bmi_algorithm_1(t, 0.5, rng=7, size=200_000, accounting="joint")
    est = dplab.mean_ci(np.sum((noisy - dplab.bmi_true_answers(t)) ** 2, axis=1), 0.999)
    assert est.contains(32 / 0.25)
    with pytest.raises(ValueError, match="accounting must be one of"):
        dplab.bmi_algorithm_1(t, 1.0, accounting="loose")


@pytest.mark.statistical
def test_tall_counts_two_releases_match_their_errors():
    assert dplab.tall_counts_expected_error(1.0) == pytest.approx(10 * 2 * 10**2)
    assert dplab.tall_counts_expected_error(1.0, "intervals") == pytest.approx(2 * 55)
    for release in bmi.TALL_RELEASES:
        r = dplab.tall_counts_isotonic_trials(0.5, 100_000, seed=5, release=release)
        assert dplab.mean_ci(r["before"], 0.999).contains(dplab.tall_counts_expected_error(0.5, release))
        assert np.all(r["after"] <= r["before"] + 1e-9)
    with pytest.raises(ValueError, match="release must be one of"):
        dplab.tall_counts_isotonic_trials(0.5, 10, 1, release="both")


def test_derived_sensitivities_match_the_hand_derivation():
    """catches: the brute force run under add/remove for both relations (neighbours not passed on),
    or a query swapped (f2 computed as f1).

    Independent: seed 000's hand derivation. Adding or removing a row changes one cell by 1: f1 = (q1, q2)
    by 1, f2 = (q1, q1 + q2) by up to 2, the answers (q1, q1+q2, q3, q3+q4) by 2. Replacing a row moves it
    between two cells: the cells and f1 by 2, f2 by 2 (M < 25 -> F: q1 and q1+q2 each drop 1), the
    answers by 4 (M < 25 -> F < 25). BMI row by row has stability 1, the first 3 words stability 3."""
    assert bmi.bmi_derived_sensitivities() == {
        "f1 add_remove": 1, "f2 add_remove": 2, "cells add_remove": 1, "answers add_remove": 2,
        "f1 replace": 2, "f2 replace": 2, "cells replace": 2, "answers replace": 4,
        "bmi stability": 1, "3-words stability": 3}


@pytest.mark.statistical
def test_answer_mse_per_answer_matches_simulation():
    """catches: Algorithm 2's totals given one cell's variance (w = 1 instead of 2), i.e. forgetting that
    # M = q1 + q2 adds two independent noises.

    Independent: each answer's mean squared error over 200,000 runs of the algorithms themselves, and
    the hand values 2 (4/eps)^2 (Algorithm 1) and (2, 4, 2, 4)/eps^2 (Algorithm 2, add/remove)."""
    t = dplab.load_yrbss()
    truth = dplab.bmi_true_answers(t)
    np.testing.assert_allclose(bmi.bmi_answer_mse(2, 0.5), np.array([2, 4, 2, 4]) / 0.25)
    np.testing.assert_allclose(bmi.bmi_answer_mse(1, 2.0), np.full(4, 2 * (4 / 2.0) ** 2))
    for alg, run, nb in ((1, dplab.bmi_algorithm_1, "add_remove"), (2, dplab.bmi_algorithm_2, "replace")):
        kw = {"neighbours": nb} if alg == 2 else {}
        sq = (run(t, 0.7, rng=8, size=200_000, **kw) - truth) ** 2
        theory = bmi.bmi_answer_mse(alg, 0.7, nb)
        for i in range(4):
            assert dplab.mean_ci(sq[:, i], 0.9999).contains(theory[i]), (alg, i)
    total = dplab.bmi_expected_total_error(2, 0.7, "replace")
    assert bmi.bmi_answer_mse(2, 0.7, "replace").sum() == pytest.approx(total)
