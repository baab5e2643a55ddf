"""Exercises (dplab.check): numbers and choices, the answer key with worked solutions, the CLI."""

from __future__ import annotations

import math
import re
import subprocess
import sys

import pytest

import dplab
from dplab.lab.exercises import Exercise
from dplab.lab.registry import all_exercises, answer_key


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
    with pytest.raises(TypeError, match="answer must be a number"):
        dplab.check("01.1", True)


def test_every_exercise_answer_is_finite_and_checkable():
    exercises = all_exercises()
    assert len(exercises) >= 5
    for ex in exercises.values():
        assert ex.is_right(ex.answer())
        if ex.choices is None:
            assert math.isfinite(ex.answer()) and not ex.is_right(ex.answer() * 1.5 + 1)
        else:  # every other option is wrong
            assert ex.answer() in ex.choices
            assert not any(ex.is_right(c) for c in ex.choices if c != ex.answer())


@pytest.mark.slow
def test_cli_answers():
    out = subprocess.run([sys.executable, "-m", "dplab", "answers"], capture_output=True,
                         text=True, check=True).stdout
    for exercise_id in all_exercises():
        assert exercise_id in out
    assert "answer: 8\n" in out
    assert out.count("solution: ") == len(all_exercises())


def test_the_key_of_one_notebook():
    """catches: ``answers 08`` (the form each exercises.py names) printing every notebook's key,
    or an unknown number printing an empty key."""
    key = answer_key("08")
    assert key.count("solution: ") == sum(i.startswith("08.") for i in all_exercises()) > 0
    assert "08.7" in key and "07.1" not in key
    with pytest.raises(ValueError, match=r"notebook must be one of .*got notebook='8'"):
        answer_key("8")


def test_choice_exercise(capsys):
    ex = Exercise("x.1", "Which variant is this?", lambda: "lyu_alg1", "Look at the threshold noise.",
                  "Threshold noise Lap(Δ/ε1) and query noise Lap(2cΔ/ε2): Lyu's Algorithm 1.",
                  choices=("above_threshold", "lyu_alg1", "no_threshold_noise"))
    assert ex.is_right("lyu_alg1") and ex.is_right(" LYU_ALG1 ")
    assert not ex.is_right("above_threshold")
    with pytest.raises(ValueError, match="answer must be one of"):
        ex.is_right("lyu")
    with pytest.raises(TypeError, match="answer must be one of"):
        ex.is_right(1.0)
    assert ex.expected_text() == "lyu_alg1"


def test_every_exercise_has_a_worked_solution():
    with pytest.raises(ValueError, match="worked solution"):
        Exercise("x.2", "q", lambda: 1.0, "hint", "  ")
    for ex in all_exercises().values():
        assert len(ex.solution) > 20, ex.id


def _numbers(text: str) -> list[float]:
    return [float(m.replace(",", "")) for m in re.findall(r"\d[\d,]*\.?\d*(?:e-?\d+)?", text)]


def test_each_worked_solution_arrives_at_the_computed_answer():
    """The key's worked solutions are typed: one of their numbers must be the answer (0.5%)."""
    for ex in all_exercises().values():
        if ex.choices is not None:
            assert ex.expected_text() in ex.solution, ex.id
            continue
        answer = float(ex.answer())
        assert any(math.isclose(x, answer, rel_tol=0.005) for x in _numbers(ex.solution)), \
            (ex.id, answer, ex.solution)


def test_a_name_that_is_not_an_option_gets_the_options(capsys):
    assert not dplab.check("04.5", "Lee-Clifton")
    assert "not one of the options" in capsys.readouterr().out
