"""Lesson 8's numbers that its texts quote, and its panel's readout at the edges."""

from __future__ import annotations

import pytest

from dplab.lab.lessons.l08_what_epsilon_promises import report


def test_the_accountings_quoted_by_exercise_08_7_are_computed_ones():
    exercise = next(e for e in report.EXERCISES if e.id == "08.7")
    for name in ("KOV (optimal)", "zCDP (CKS)", "advanced"):
        assert f"{report.accounting(name, 300):.2f}" in exercise.solution, name
    assert f"{report.accounting('PLD (exact)', 300):.2f}" in exercise.solution


def test_the_promise_panel_says_what_one_release_and_k_releases_cost():
    pytest.importorskip("ipywidgets")
    from dplab.lab.lessons.l08_what_epsilon_promises import views

    view = views.PromiseView()
    one = view.update({"epsilon": 1.0, "prior": 0.1, "mechanism": "laplace", "delta": 1e-6, "k": 1}, 0)
    assert "nothing to compose" in one and "1 release of" in one
    many = view.update({"epsilon": 1.0, "prior": 0.1, "mechanism": "laplace", "delta": 1e-6, "k": 64}, 0)
    assert "below the ε = 1 that basic composition charges" in many
    gauss = view.update({"epsilon": 1.0, "prior": 0.1, "mechanism": "gaussian", "delta": 1e-6, "k": 4}, 0)
    assert "μ-GDP" in gauss and "spots Alice's record at most" in gauss


def test_epsilon_for_rmse_inverts_the_error_formula_and_names_bad_input():
    assert report.epsilon_for_rmse(5.0) == pytest.approx(2**0.5 / 5, rel=1e-12)
    with pytest.raises(ValueError, match="rmse must be > 0, got rmse=0"):
        report.epsilon_for_rmse(0)
