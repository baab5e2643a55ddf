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
from dplab.lab.exercises import Exercise, Verdict
from dplab.lab.report import ReportRow, evaluate_rows

__all__ = ["RECORDED", "RIGHT_ONCE", "all_exercises", "all_report_rows", "answer_key", "check",
           "lesson_bench", "lesson_exercises", "lesson_mutants", "lesson_names", "lesson_panels",
           "lesson_reports", "lesson_views", "notebook_prefix", "progress", "solution"]


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
    """Every lesson's ``exercises`` module (its EXERCISES; no plotting) and, where the lesson has one,
    its ``implement`` module (the "implement it" exercises: EXERCISES too)."""
    modules = []
    for name in lesson_names():
        modules.append(import_module(f"dplab.lab.lessons.{name}.exercises"))
        if find_spec(f"dplab.lab.lessons.{name}.implement") is not None:
            modules.append(import_module(f"dplab.lab.lessons.{name}.implement"))
    return modules


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


#: the latest verdict dplab.check gave each exercise in this kernel (``python -m dplab grade`` reads it)
RECORDED: dict[str, Verdict] = {}
#: the exercises answered right at least once in this kernel (dplab.progress)
RIGHT_ONCE: set[str] = set()


def notebook_prefix(notebook: object) -> str:
    """A notebook's two-digit number as exercise ids and file names carry it: 4, "4" and "04" -> "04"."""
    return str(notebook).zfill(2) if isinstance(notebook, (str, int)) else ""


def _notebook_ids(exercise_id: object) -> str:
    """One line naming the ids a student can use: the notebook's own when its number is recognisable."""
    exercises = all_exercises()
    notebooks = sorted({i.split(".")[0] for i in exercises})
    number = str(exercise_id).split(".")[0] if isinstance(exercise_id, (str, int, float)) else None
    prefix = notebook_prefix(number)
    if prefix in notebooks:
        ids = [i for i in exercises if i.startswith(prefix + ".")]
        return f"there is no exercise {exercise_id!r}; notebook {prefix}'s are {', '.join(ids)}"
    return (f"there is no exercise {exercise_id!r}; ids look like \"01.1\" (notebooks "
            f"{', '.join(notebooks)})")


def check(exercise_id: str, answer: object = None) -> bool:
    """Print whether ``answer`` is right, wrong (with the hint for the mistake made), malformed (what
    was expected) or missing (``None``: the question is printed); record the verdict; return whether it
    is right. Never raises, so an answer loop checks every exercise."""
    exercises = all_exercises()
    if not isinstance(exercise_id, str) or exercise_id not in exercises:
        print(_notebook_ids(exercise_id) + ".")
        return False
    verdict = exercises[exercise_id].verdict(answer)
    RECORDED[exercise_id] = verdict
    if verdict.verdict == "right":
        RIGHT_ONCE.add(exercise_id)
    print(verdict.feedback)
    return verdict.verdict == "right"


def _key_entry(ex: Exercise) -> str:
    options = f" [{' / '.join(ex.choices)}]" if ex.choices else ""
    return (f"{ex.id}  {ex.question}{options}\n      answer: {ex.expected_text()}\n"
            f"      solution: {ex.worked_solution()}")


def solution(exercise_id: str) -> None:
    """Print one exercise's question, answer and worked solution (its numbers computed by dplab)."""
    exercises = all_exercises()
    if not isinstance(exercise_id, str) or exercise_id not in exercises:
        print(_notebook_ids(exercise_id) + ".")
        return
    print(_key_entry(exercises[exercise_id]))


def progress(notebook: str | None = None) -> None:
    """Print which exercises were answered right in this kernel: for ``notebook`` ("04"), or for every
    notebook with at least one answer checked."""
    exercises = all_exercises()
    numbers = sorted({i.split(".")[0] for i in exercises})
    if notebook is not None and notebook_prefix(notebook) not in numbers:
        print(f"there is no notebook {notebook!r}; the notebooks are {', '.join(numbers)}.")
        return
    chosen = [notebook_prefix(notebook)] if notebook is not None else sorted(
        {i.split(".")[0] for i in RECORDED})
    if not chosen:
        print("no answer checked yet in this kernel: run a notebook's exercise cell first.")
        return
    for number in chosen:
        ids = [i for i in exercises if i.startswith(number + ".")]
        said = {i: RECORDED[i].verdict if i in RECORDED else "not answered" for i in ids}
        said.update({i: f"right earlier, {said[i]} last" for i in RIGHT_ONCE & set(ids)
                     if said[i] != "right"})
        right = len(RIGHT_ONCE & set(ids))
        print(f"notebook {number}: {right} of {len(ids)} right; "
              + ", ".join(f"{i} {v}" for i, v in said.items()))


def answer_key(notebook: str | None = None) -> str:
    """The teacher's key: every question with its computed answer and worked solution (only
    ``notebook``'s, by its number such as "08", when given)."""
    exercises = list(all_exercises().values())
    if notebook is not None:
        numbers = sorted({ex.id.split(".")[0] for ex in exercises})
        if notebook_prefix(notebook) not in numbers:
            raise ValueError(f"notebook must be one of {numbers}, got notebook={notebook!r}")
        exercises = [ex for ex in exercises if ex.id.split(".")[0] == notebook_prefix(notebook)]
    return "\n".join(_key_entry(ex) for ex in exercises)


def all_report_rows(progress=None) -> list[ReportRow]:
    """Every lesson's report rows, evaluated with the Bonferroni correction over all of them.
    ``progress`` optionally wraps the list of lessons (a progress bar)."""
    reports = lesson_reports()
    rows: list[ReportRow] = []
    for report in (progress(reports) if progress else reports):
        rows += report.report_rows()
    return evaluate_rows(rows)
