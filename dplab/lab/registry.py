"""The lessons, found by walking ``dplab/lab/lessons/``: their exercises, the answer key,
their report rows.

A lesson is a package ``lNN_<notebook stem>`` whose ``report.py`` defines ``NOTEBOOK``,
``PREFIX``, ``EXERCISES`` and ``report_rows()``, and whose ``views.py`` defines
``figures()``. A new notebook's lesson is picked up without editing this file.
"""

from __future__ import annotations

import pkgutil
from functools import lru_cache
from importlib import import_module
from types import ModuleType

from dplab.lab import lessons
from dplab.lab.exercises import Exercise
from dplab.lab.report import ReportRow, evaluate_rows

__all__ = ["all_exercises", "all_report_rows", "answer_key", "check", "lesson_names", "lesson_reports",
           "lesson_views"]


def lesson_names() -> list[str]:
    """The lesson packages in teaching order (``l01_...``, ``l02_...``, ...)."""
    return sorted(m.name for m in pkgutil.iter_modules(lessons.__path__) if m.ispkg)


def lesson_reports() -> list[ModuleType]:
    """Every lesson's ``report`` module (no matplotlib, no ipywidgets)."""
    return [import_module(f"dplab.lab.lessons.{name}.report") for name in lesson_names()]


def lesson_views() -> list[ModuleType]:
    """Every lesson's ``views`` module (figures and panels)."""
    return [import_module(f"dplab.lab.lessons.{name}.views") for name in lesson_names()]


@lru_cache(maxsize=1)
def all_exercises() -> dict[str, Exercise]:
    """Every lesson's exercises by id."""
    exercises: dict[str, Exercise] = {}
    for report in lesson_reports():
        for ex in report.EXERCISES:
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


def answer_key() -> str:
    """The teacher's key: every question with its computed answer and worked solution."""
    lines = []
    for ex in all_exercises().values():
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
