"""The lessons, found by walking ``dplab/lab/lessons/``: their exercises, the answer key,
their report rows, their panels and bench rows.

A lesson is a package ``lNN_<notebook stem>`` whose ``report.py`` defines ``NOTEBOOK``,
``PREFIX`` and ``report_rows()``, whose ``exercises.py`` defines ``EXERCISES``, whose ``views.py``
defines ``figures()`` and
``PANELS`` (the widget panels, declared with what the bench and the browser test do to them),
whose optional ``bench.py`` defines ``ROWS`` (functions timing its library targets), and whose
optional ``mutants.py`` defines ``MUTANTS`` (the bugs its checks must catch, ``make mutants``). The
figures command, the bench, the widget tests and the browser test read these declarations, so a
new notebook's lesson is picked up without editing any file outside its package.
"""

from __future__ import annotations

import pkgutil
from collections.abc import Callable
from functools import lru_cache
from importlib import import_module
from importlib.util import find_spec
from types import ModuleType

from dplab.lab import lessons
from dplab.lab.exercises import Exercise
from dplab.lab.report import ReportRow, evaluate_rows

__all__ = ["all_exercises", "all_report_rows", "answer_key", "check", "lesson_bench", "lesson_exercises",
           "lesson_mutants", "lesson_names", "lesson_panels", "lesson_reports", "lesson_views"]


def lesson_names() -> list[str]:
    """The lesson packages in teaching order (``l01_...``, ``l02_...``, ...)."""
    return sorted(m.name for m in pkgutil.iter_modules(lessons.__path__) if m.ispkg)


def lesson_reports() -> list[ModuleType]:
    """Every lesson's ``report`` module (no matplotlib, no ipywidgets)."""
    return [import_module(f"dplab.lab.lessons.{name}.report") for name in lesson_names()]


def lesson_views() -> list[ModuleType]:
    """Every lesson's ``views`` module (figures and panels)."""
    return [import_module(f"dplab.lab.lessons.{name}.views") for name in lesson_names()]


def lesson_exercises() -> list[ModuleType]:
    """Every lesson's ``exercises`` module (its EXERCISES; no plotting)."""
    return [import_module(f"dplab.lab.lessons.{name}.exercises") for name in lesson_names()]


def lesson_panels() -> dict[str, tuple]:
    """Every lesson's declared panels (``views.PANELS``, PanelCase each) by its PREFIX ("01", ...)."""
    return {report.PREFIX: tuple(views.PANELS) for report, views in zip(lesson_reports(), lesson_views(),
                                                                          strict=True)}


def lesson_mutants() -> dict[str, tuple]:
    """Every lesson's declared mutants (``mutants.MUTANTS``, where the lesson has a mutants module) by
    its PREFIX: the bugs its report rows and tests must catch (make mutants)."""
    out = {}
    for name, report in zip(lesson_names(), lesson_reports(), strict=True):
        if find_spec(f"dplab.lab.lessons.{name}.mutants") is not None:
            out[report.PREFIX] = tuple(import_module(f"dplab.lab.lessons.{name}.mutants").MUTANTS)
    return out


def lesson_bench() -> dict[str, tuple[Callable[[], list], ...]]:
    """Every lesson's bench rows (``bench.ROWS``, where the lesson has a bench module) by its PREFIX."""
    out = {}
    for name, report in zip(lesson_names(), lesson_reports(), strict=True):
        if find_spec(f"dplab.lab.lessons.{name}.bench") is not None:
            out[report.PREFIX] = tuple(import_module(f"dplab.lab.lessons.{name}.bench").ROWS)
    return out


@lru_cache(maxsize=1)
def all_exercises() -> dict[str, Exercise]:
    """Every lesson's exercises by id."""
    exercises: dict[str, Exercise] = {}
    for module in lesson_exercises():
        for ex in module.EXERCISES:
            if ex.id in exercises:
                raise ValueError(f"exercise id {ex.id} is used twice")
            exercises[ex.id] = ex
    return exercises


def check(exercise_id: str, answer: float | str | None) -> bool:
    """Print whether ``answer`` is right (numbers: within 1%) with a hint if not; return the
    verdict. ``answer=None`` (not answered yet) prints the question and returns False."""
    exercises = all_exercises()
    if exercise_id not in exercises:
        raise ValueError(
            f"exercise_id must be one of {sorted(exercises)}, got exercise_id={exercise_id!r}"
        )
    exercise = exercises[exercise_id]
    if answer is None:
        options = f" Options: {', '.join(exercise.choices)}." if exercise.choices else ""
        print(f"{exercise_id}: no answer yet. {exercise.question}{options}")
        return False
    if exercise.choices is not None and (not isinstance(answer, str) or answer.strip().lower()
                                         not in [c.lower() for c in exercise.choices]):
        print(f"{exercise_id}: not one of the options ({answer!r}). Options: {', '.join(exercise.choices)}.")
        return False
    if exercise.is_right(answer):
        print(f"{exercise_id}: right.")
        return True
    shown = f"{answer:.4g}" if exercise.choices is None else repr(answer)
    print(f"{exercise_id}: not quite ({shown}). Hint: {exercise.hint}")
    return False


def answer_key(notebook: str | None = None) -> str:
    """The teacher's key: every question with its computed answer and worked solution (only
    ``notebook``'s, by its number such as "08", when given)."""
    exercises = list(all_exercises().values())
    if notebook is not None:
        numbers = sorted({ex.id.split(".")[0] for ex in exercises})
        if notebook not in numbers:
            raise ValueError(f"notebook must be one of {numbers}, got notebook={notebook!r}")
        exercises = [ex for ex in exercises if ex.id.split(".")[0] == notebook]
    lines = []
    for ex in exercises:
        options = f" [{' / '.join(ex.choices)}]" if ex.choices else ""
        lines.append(f"{ex.id}  {ex.question}{options}\n      answer: {ex.expected_text()}\n"
                     f"      solution: {ex.solution}")
    return "\n".join(lines)


def all_report_rows(progress=None) -> list[ReportRow]:
    """Every lesson's report rows, evaluated with the Bonferroni correction over all of them.
    ``progress`` optionally wraps the list of lessons (a progress bar)."""
    reports = lesson_reports()
    rows: list[ReportRow] = []
    for report in (progress(reports) if progress else reports):
        rows += report.report_rows()
    return evaluate_rows(rows)
