"""Lesson 7's numbers that its texts quote (the exercises and the notebook state them in words)."""

from __future__ import annotations

import pytest

from dplab.lab.lessons.l07_reconstruction_attack import exercises, report


def test_the_column_sum_quoted_by_exercise_07_7_is_the_designs():
    exercise = next(e for e in exercises.EXERCISES if e.id == "07.7")
    assert f"more than {report.column_max()} of them" in exercise.question
    assert f"sqrt({report.column_max()} /" in exercise.worked_solution()


def test_the_dp_panel_says_its_bound_is_an_average_and_its_still_sits_below_it():
    """The per-bit bound caps the expected share over random secrets: the readout says so, with how
    often a guess that asks nothing beats it on one secret; the stored still is a release under it."""
    pytest.importorskip("ipywidgets")
    from dplab import reconstruction as rec
    from dplab.lab.lessons.l07_reconstruction_attack import views

    view = views.DPView()
    text = view.update({"epsilon": 1.0, "split": "zcdp"}, views.DP_PANEL.still_seed)
    bound = float(rec.split_guessing_bound(1.0, "zcdp", report.DELTA))
    tail = rec.blind_guess_tail(report.DP_N, bound)
    assert f"{bound:.1%} per bit, on average over secrets" in text and f"{tail:.0%} of the secrets" in text
    share = float(view.here.get_ydata()[0])
    assert share < bound, (share, bound)
