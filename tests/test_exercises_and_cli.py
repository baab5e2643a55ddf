"""Exercises (dplab.check), the answer key and the command line."""

from __future__ import annotations

import subprocess
import sys

import pytest

import dplab
from dplab.exercises import all_exercises


def test_check_right_wrong_and_unanswered(capsys):
    assert dplab.check("01.1", 8.0)
    assert "right" in capsys.readouterr().out
    assert not dplab.check("01.1", 4.0)
    assert "Hint" in capsys.readouterr().out
    assert not dplab.check("01.1", None)
    assert "no answer yet" in capsys.readouterr().out
    assert dplab.check("01.2", 2.9957)  # ln 20, within 1%


def test_check_bad_input():
    with pytest.raises(ValueError, match="exercise_id must be one of .* got exercise_id='9.9'"):
        dplab.check("9.9", 1.0)
    with pytest.raises(TypeError, match="answer must be a number"):
        dplab.check("01.1", "eight")


def test_every_exercise_answer_is_finite_and_checkable():
    exercises = all_exercises()
    assert len(exercises) >= 5
    for ex in exercises.values():
        assert ex.is_right(ex.answer())
        assert not ex.is_right(ex.answer() * 1.5 + 1)


def test_cli_answers():
    out = subprocess.run([sys.executable, "-m", "dplab", "answers"], capture_output=True,
                         text=True, check=True).stdout
    for exercise_id in all_exercises():
        assert exercise_id in out
    assert "answer: 8" in out
