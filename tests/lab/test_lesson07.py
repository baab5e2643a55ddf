"""Lesson 7's numbers that its texts quote (the exercises and the notebook state them in words)."""

from __future__ import annotations

from dplab.lab.lessons.l07_reconstruction_attack import exercises, report


def test_the_column_sum_quoted_by_exercise_07_7_is_the_designs():
    exercise = next(e for e in exercises.EXERCISES if e.id == "07.7")
    assert f"more than {report.column_max()} of them" in exercise.question
    assert f"sqrt({report.column_max()} /" in exercise.solution
