"""Lesson 8's numbers that its texts quote, and its panel's readout at the edges."""

from __future__ import annotations

import pytest

from dplab.accounting import epsilons
from dplab.lab.lessons.l08_what_epsilon_promises import exercises, report
from dplab.mechanisms import Laplace


def test_the_accountings_quoted_by_exercise_08_7_are_computed_ones():
    exercise = next(e for e in exercises.EXERCISES if e.id == "08.7")
    table = epsilons(Laplace(1.0, report.ACCOUNT_EPSILON), 300, report.ACCOUNT_DELTA, report.ACCOUNTANTS)
    for name in ("optimal (KOV)", "zCDP (CKS)", "advanced (DRV)", "PLD (exact)"):
        assert f"{table[name]:.2f}" in exercise.worked_solution(), name


def test_the_promise_panel_says_what_one_release_and_k_releases_cost():
    pytest.importorskip("ipywidgets")
    from dplab.lab.lessons.l08_what_epsilon_promises import views

    view = views.PromiseView()
    one = view.update({"epsilon": 1.0, "prior": 0.1, "mechanism": "laplace", "delta": 1e-6, "k": 1}, 0)
    assert "nothing to compose" in one and "1 release of" in one
    many = view.update({"epsilon": 1.0, "prior": 0.1, "mechanism": "laplace", "delta": 1e-6, "k": 64}, 0)
    assert "below the ε = 1 that basic composition charges" in many
    loose = view.update({"epsilon": 1.0, "prior": 0.1, "mechanism": "laplace", "delta": 1e-2, "k": 64}, 0)
    assert "for δ = 1e-06" in many and "for δ = 0.01" in loose  # the exact ε is read at the slider's δ
    gauss = view.update({"epsilon": 1.0, "prior": 0.1, "mechanism": "gaussian", "delta": 1e-6, "k": 4}, 0)
    assert "μ-GDP" in gauss and "spots Alice's record at most" in gauss


def test_the_dp_accounting_bracket_is_dp_accountings_own_rounded_outwards():
    """lesson.DP_ACCOUNTING_BRACKET (rows 08.pld_reference and 08.pld_bracket, notebook 8's cell 18) are
    Google's dp_accounting's optimistic and pessimistic eps(1e-6) of 1000 Laplace steps of 0.1, rounded
    outwards to 4 decimals: still a lower and an upper bound on the truth."""
    dp_pld = pytest.importorskip("dp_accounting.pld.privacy_loss_distribution")
    low, high = (dp_pld.from_laplace_mechanism(1 / report.ACCOUNT_EPSILON, value_discretization_interval=step,
                                               pessimistic_estimate=pessimistic, use_connect_dots=pessimistic)
                 .self_compose(1000).get_epsilon_for_delta(report.ACCOUNT_DELTA)
                 for step, pessimistic in ((5e-5, False), (1e-4, True)))
    assert report.DP_ACCOUNTING_BRACKET[0] <= low < report.DP_ACCOUNTING_BRACKET[0] + 1e-4
    assert report.DP_ACCOUNTING_BRACKET[1] - 1e-4 < high <= report.DP_ACCOUNTING_BRACKET[1]
