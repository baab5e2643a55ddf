"""Exercises (dplab.check): numbers and choices, the answer key with worked solutions, the CLI."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import dplab
from dplab.lab.exercises import Exercise, Mistake
from dplab.lab.paths import repo_root
from dplab.lab.registry import RECORDED, RIGHT_ONCE, all_exercises, answer_key


def test_check_right_wrong_and_unanswered(capsys):
    assert dplab.check("01.1", 18.0)
    assert "right" in capsys.readouterr().out
    assert not dplab.check("01.1", 4.0)
    assert "Hint" in capsys.readouterr().out
    assert not dplab.check("01.1", None)
    assert "no answer yet" in capsys.readouterr().out
    assert dplab.check("01.2", 9.2103)  # 2 ln 100, within 1%


MALFORMED = [True, np.True_, "8", "eight", [8.0, 4.0], np.array([8.0, 4.0]), [[8.0]], float("nan"),
             float("inf"), -math.inf, 1j, {"a": 1}, object(), b"8"]


@pytest.mark.catches("exercises.bool_as_number", "exercises.nan_accepted", "exercises.long_sequence_first")
@pytest.mark.parametrize("answer", MALFORMED, ids=lambda v: "object" if type(v) is object else repr(v))
def test_a_malformed_answer_gets_one_line_saying_what_was_expected(answer, capsys):
    """catches: np.True_ taken as 1, NaN judged a wrong number, a list judged by its first value."""
    assert dplab.check("01.1", answer) is False
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "expected" in out and "not quite" not in out
    assert RECORDED["01.1"].verdict == "malformed"


@pytest.mark.parametrize("answer", [18, 18.0, Fraction(18), Decimal("18"), np.float32(18), np.int64(18), [18],
                                    (18.0,), np.array([18.0]), np.array([[18]])], ids=repr)
def test_any_numeric_type_is_taken_as_its_value(answer, capsys):
    assert dplab.check("01.1", answer)


def test_a_wrong_fraction_gets_feedback_not_a_crash(capsys):
    """Python 3.11 cannot format a Fraction with .4g: the feedback shows its float value."""
    assert not dplab.check("01.1", Fraction(3, 2))
    assert "not quite (1.5)" in capsys.readouterr().out


def test_unknown_ids_name_the_notebooks_own_ids(capsys):
    assert not dplab.check("01.99", 1.0)
    out = capsys.readouterr().out
    assert "01.99" in out and "01.1" in out and "02.1" not in out
    assert not dplab.check(None, 1.0)
    assert "ids look like" in capsys.readouterr().out
    dplab.solution("07.99")
    assert "07.1" in capsys.readouterr().out


def _toy(**kw) -> Exercise:
    return Exercise("x.1", "What is the variance of Lap(2)?", lambda: 8.0, "Var Lap(b) = 2 b².",
                    "Var = 2 · 2² = {v}.", values=lambda: {"v": 8}, **kw)


@pytest.mark.catches("exercises.no_rounded_key")
def test_the_key_rounded_to_its_significant_figures_is_right():
    """catches: a student who rounds as asked (0.0072 for 0.0071548) told "not quite"."""
    ex = Exercise("x.2", "q", lambda: 0.0071548, "h", "s", rel_tol=0.001)
    assert ex.verdict(0.0072).verdict == "right" and ex.verdict(0.0071).verdict == "wrong"
    one = Exercise("x.3", "q (one significant figure is enough)", lambda: 0.0071548, "h", "s",
                   rel_tol=0.001, sig_figs=1)
    assert one.verdict(0.007).verdict == "right" and one.verdict(0.008).verdict == "wrong"


@pytest.mark.catches("exercises.no_close_feedback", "exercises.percent_as_wrong")
def test_a_near_miss_and_a_percentage_are_told_what_they_are():
    """The student's run: 0.37 for 0.375 and 29.19 for 0.2919 were given hints about the concept."""
    ex = Exercise("x.7", "q", lambda: 0.375, "the concept's hint", "s")
    assert "close (0.37)" in ex.verdict(0.37).feedback and ex.verdict(0.37).verdict == "wrong"
    assert "as a share" in ex.verdict(37.5).feedback
    assert ex.verdict(0.5).feedback.endswith("the concept's hint")


@pytest.mark.catches("exercises.mistakes_ignored")
def test_an_anticipated_mistake_gets_its_own_hint():
    ex = _toy(mistakes=(Mistake(lambda: 4.0, "b² is half of it: the variance is 2b²."),
                        Mistake(lambda: 2.0, "that is the scale b, not the variance.")))
    assert "half of it" in ex.verdict(4.0).feedback and "the scale b" in ex.verdict(2.0).feedback
    assert "Var Lap(b)" in ex.verdict(5.0).feedback
    assert ex.worked_solution() == "Var = 2 · 2² = 8."


@pytest.mark.catches("exercises.student_error_raises")
def test_an_error_in_a_students_function_is_one_line():
    def fn(value, sensitivity, epsilon, rng):
        return value / 0

    ex = Exercise("x.4", "Implement it", lambda: fn, "h", "s",
                  implement=lambda f: (f(1, 1, 1, None) > 0, "ok"))
    verdict = ex.verdict(fn)
    assert verdict.verdict == "wrong" and "ZeroDivisionError" in verdict.feedback
    assert ex.verdict(3.0).verdict == "malformed" and ex.verdict(None).verdict == "missing"


def test_a_choice_explains_the_option_chosen():
    ex = Exercise("x.5", "Which?", lambda: "b", "h", "s", choices=("a", "b"),
                  explanations={"a": "a is the classic slip.", "b": "b follows from the proof."})
    assert ex.verdict("a").feedback == "x.5: not quite (a). a is the classic slip."
    assert ex.verdict(" B ").feedback == "x.5: right. b follows from the proof."
    with pytest.raises(ValueError, match="explain every option"):
        Exercise("x.6", "Which?", lambda: "b", "h", "s", choices=("a", "b"), explanations={"a": "..."})


def test_solution_and_progress(capsys):
    RECORDED.clear()
    RIGHT_ONCE.clear()
    dplab.progress()
    assert "no answer checked yet" in capsys.readouterr().out
    dplab.check("01.1", 18.0)
    dplab.check("01.2", "x")
    capsys.readouterr()
    dplab.progress()
    out = capsys.readouterr().out
    assert out.startswith("notebook 01: 1 of ") and "01.1 right" in out and "01.2 malformed" in out
    dplab.check("01.1", 3.0)
    capsys.readouterr()
    dplab.progress("01")
    assert "01.1 right earlier, wrong last" in capsys.readouterr().out  # a later wrong try keeps it
    dplab.progress("04")
    assert "notebook 04: 0 of" in capsys.readouterr().out
    dplab.solution("01.1")
    out = capsys.readouterr().out
    assert out.startswith("01.1 ") and "answer: 18" in out and "solution:" in out


def test_every_exercise_answer_is_finite_and_checkable():
    exercises = all_exercises()
    assert len(exercises) >= 5
    for ex in exercises.values():
        if ex.kind == "implement":  # a function: tests/lab/test_implement.py checks it passes its check
            continue
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
    assert "answer: 18\n" in out
    assert out.count("solution: ") == len(all_exercises())


def test_the_key_of_one_notebook():
    """catches: ``answers 08`` (the form each exercises.py names) printing every notebook's key,
    or an unknown number printing an empty key."""
    key = answer_key("08")
    assert key.count("solution: ") == sum(i.startswith("08.") for i in all_exercises()) > 0
    assert "08.7" in key and "07.1" not in key
    assert answer_key("8") == key  # "answers 8" as "answers 08", as the assignment command takes it
    with pytest.raises(ValueError, match=r"notebook must be one of .*got notebook='99'"):
        answer_key("99")


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
    """One of the worked solution's numbers must be the answer (0.5%)."""
    for ex in all_exercises().values():
        if ex.kind == "implement":
            continue
        if ex.kind == "choice":
            assert ex.expected_text() in ex.worked_solution(), ex.id
            continue
        answer = float(ex.answer())
        assert any(math.isclose(x, answer, rel_tol=0.005) for x in _numbers(ex.worked_solution())), \
            (ex.id, answer, ex.worked_solution())


#: the notebooks with an "implement it" exercise (03 and 08 have none: notebooks/TEACHING.md says why)
IMPLEMENT = {"01", "02", "04", "05", "06", "07", "09", "10", "11", "12"}
NOTEBOOKS = sorted({i.split(".")[0] for i in all_exercises()})


def _typed_numbers(template: str) -> list[str]:
    """The numbers written in a worked solution's template outside its {fields}."""
    return re.findall(r"(?<![\w{.])\d+(?:\.\d+)?(?:e-?\d+)?", re.sub(r"\{[^}]*\}", " ", template))


@pytest.mark.parametrize("number", NOTEBOOKS)
def test_a_notebooks_exercises_are_worth_doing(number):
    """Issue 29: at least six exercises; at most a quarter readable from a printed line or a figure;
    an idea question with an explanation for every option; every numeric exercise anticipates two
    mistakes (none of them right), its generic hint does not carry the answer, and its worked solution
    types no number that the question does not give (small constants aside): the rest is computed."""
    exercises = [ex for i, ex in all_exercises().items() if i.startswith(number + ".")]
    assert len(exercises) >= 6
    assert sum(ex.printed for ex in exercises) <= len(exercises) / 4
    assert any(ex.kind == "choice" and set(ex.explanations) == set(ex.choices) for ex in exercises)
    assert any(ex.kind == "implement" for ex in exercises) == (number in IMPLEMENT)
    for ex in exercises:
        if ex.kind != "number":
            continue
        assert len(ex.mistakes) >= 2, ex.id
        assert not any(ex.is_right(m.answer()) for m in ex.mistakes), ex.id
        key = float(ex.answer())
        assert not any(math.isclose(x, key, rel_tol=0.01) for x in _numbers(ex.hint)), ex.id
        given = set(_typed_numbers(ex.question))
        typed = [x for x in _typed_numbers(ex.solution)
                 if x not in given and not (x.isdigit() and int(x) <= 12)]
        assert not typed, (ex.id, typed)


def _answer_cell_ids(number: str) -> list[str]:
    path = next((repo_root() / "notebooks").glob(f"{number}_*.ipynb"))
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    source = next("".join(c["source"]) for c in cells if "".join(c["source"]).startswith("answers = {"))
    return re.findall(r'"(\d\d\.\w+)"\s*:', source)


@pytest.mark.parametrize("number", NOTEBOOKS)
def test_a_notebooks_answer_cell_lists_its_exercises(number):
    """catches: an exercise added to exercises.py but missing from the notebook's answer cell (or a
    stale id there): a student would never be asked it."""
    ids = [i for i, ex in all_exercises().items() if i.startswith(number + ".") and ex.kind != "implement"]
    assert _answer_cell_ids(number) == ids


def test_a_name_that_is_not_an_option_gets_the_options(capsys):
    assert not dplab.check("04.6", "Lee-Clifton")
    assert "not one of the options" in capsys.readouterr().out
