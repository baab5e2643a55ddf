"""What a lesson must provide, so that a new notebook touches only its own files: the lab's
commands, the bench and the tests find everything else through the registry."""

from __future__ import annotations

import re
from importlib import import_module

import pytest

from dplab.lab.paths import notebooks_dir, repo_root
from dplab.lab.registry import lesson_bench, lesson_names, lesson_panels, lesson_reports, lesson_views
from dplab.lab.widgets import PanelCase

README = (repo_root() / "README.md").read_text(encoding="utf-8")
TEACHING = (notebooks_dir() / "TEACHING.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", lesson_names())
def test_a_lesson_declares_what_the_lab_reads(name):
    """catches: a lesson whose notebook, report rows, exercises, figures or panels the lab cannot
    find (the bench and the browser test would silently skip it), or whose notebook lacks its
    README row or TEACHING section."""
    number = re.match(r"l(\d\d)_", name).group(1)
    report = next(r for r in lesson_reports() if r.__name__.split(".")[-2] == name)
    views = next(v for v in lesson_views() if v.__name__.split(".")[-2] == name)
    assert report.PREFIX == number and report.NOTEBOOK == f"{number}_{name[4:]}.ipynb"
    assert (notebooks_dir() / report.NOTEBOOK).exists()
    exercises = import_module(f"dplab.lab.lessons.{name}.exercises")
    assert callable(report.report_rows) and exercises.EXERCISES
    assert all(ex.id.startswith(f"{number}.") for ex in exercises.EXERCISES)
    assert callable(views.figures)
    assert views.PANELS and all(isinstance(case, PanelCase) for case in views.PANELS)
    assert f"(notebooks/{report.NOTEBOOK})" in README
    assert re.search(rf"^## Notebook {int(number)}:", TEACHING, re.M)


def test_the_registry_pairs_panels_and_bench_rows_with_their_lesson():
    prefixes = [r.PREFIX for r in lesson_reports()]
    assert list(lesson_panels()) == prefixes
    assert set(lesson_bench()) <= set(prefixes)
    assert all(callable(rows) for functions in lesson_bench().values() for rows in functions)


#: issue 25's budget: a lesson (report.py, views.py, __init__.py) at most 500 lines, its exercises.py at
#: most 300.
LESSON_LINES, EXERCISE_LINES = 500, 300


def lesson_lines(name: str) -> int:
    folder = repo_root() / "dplab" / "lab" / "lessons" / name
    return sum(len((folder / f).read_text(encoding="utf-8").splitlines())
               for f in ("report.py", "views.py", "__init__.py"))


@pytest.mark.parametrize("name", lesson_names())
def test_a_lesson_stays_thin(name):
    """catches: a lesson growing a second library again (lessons 5-9 had grown to 745-931 lines of
    untyped DP code before issue 25): formulas belong in dplab, with their tests."""
    folder = repo_root() / "dplab" / "lab" / "lessons" / name
    assert lesson_lines(name) <= LESSON_LINES, f"{name}: {lesson_lines(name)} lines"
    exercises = len((folder / "exercises.py").read_text(encoding="utf-8").splitlines())
    assert exercises <= EXERCISE_LINES, f"{name}/exercises.py: {exercises} lines"


def test_every_lesson_declares_a_browser_step():
    """catches: a lesson no browser row can move. ``make bench`` moved the epsilon slider of every
    lesson and stopped at lesson 12, which has none (its panel moves the noise σ); the bench now falls
    back on the slider the lesson's browser step names, so every lesson must name one."""
    missing = [prefix for prefix, cases in lesson_panels().items() if not any(c.browser for c in cases)]
    assert not missing, missing
