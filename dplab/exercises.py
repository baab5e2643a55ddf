"""Exercises: ``dplab.check("01.2", answer)`` says right or wrong, with a hint.

Each lesson module lists its exercises; the expected answers are computed by
dplab functions (never typed), so the key cannot drift from the theory.
``python -m dplab answers`` prints the teacher's key.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Exercise", "all_exercises", "answer_key", "check"]


@dataclass(frozen=True)
class Exercise:
    """A question with a numeric answer (``answer()`` computes it) and a hint."""

    id: str
    question: str
    answer: Callable[[], float]
    hint: str
    rel_tol: float = 0.01

    def is_right(self, value: float) -> bool:
        expected = self.answer()
        return math.isclose(float(value), expected, rel_tol=self.rel_tol, abs_tol=1e-12)


def all_exercises() -> dict[str, Exercise]:
    """Every lesson's exercises by id (imported lazily: lessons import this module)."""
    from dplab import lessons

    return {ex.id: ex for lesson in lessons.LESSONS for ex in lesson.EXERCISES}


def check(exercise_id: str, answer: float | None) -> bool:
    """Print whether ``answer`` is right (within 1%) with a hint if not; return the verdict.

    ``answer=None`` (not answered yet) prints the question and returns False.
    """
    exercises = all_exercises()
    if exercise_id not in exercises:
        raise ValueError(
            f"exercise_id must be one of {sorted(exercises)}, got exercise_id={exercise_id!r}"
        )
    exercise = exercises[exercise_id]
    if answer is None:
        print(f"{exercise_id}: no answer yet. {exercise.question}")
        return False
    try:
        value = float(answer)
    except (TypeError, ValueError):
        raise TypeError(f"answer must be a number, got answer={answer!r}") from None
    if exercise.is_right(value):
        print(f"{exercise_id}: right.")
        return True
    print(f"{exercise_id}: not quite ({value:.4g}). Hint: {exercise.hint}")
    return False


def answer_key() -> str:
    """The teacher's key: every question with its computed answer."""
    lines = []
    for ex in all_exercises().values():
        lines.append(f"{ex.id}  {ex.question}\n      answer: {ex.answer():.6g}")
    return "\n".join(lines)
