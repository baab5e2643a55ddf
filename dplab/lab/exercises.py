"""Exercises: a question, how to compute its answer, a hint and a worked solution.

A lesson's ``exercises.py`` lists its exercises; ``dplab.check("01.2", answer)`` (see
``registry.py``) says right or wrong with the hint, and ``python -m dplab answers``
prints the teacher's key with the worked solutions. Numeric answers are computed by
dplab functions (never typed), so the key cannot drift from the theory; a choice
exercise names its options and the right one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Exercise"]


@dataclass(frozen=True)
class Exercise:
    """A question whose answer is a number (``answer()`` computes it, right within
    ``rel_tol``) or, when ``choices`` is given, one of the named options."""

    id: str
    question: str
    answer: Callable[[], float | str]
    hint: str
    solution: str
    rel_tol: float = 0.01
    choices: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if not self.solution.strip():
            raise ValueError(f"exercise {self.id}: give a worked solution for the teacher's key")

    def parse(self, value: object) -> float | str:
        """The student's answer as this exercise's type; TypeError/ValueError if it is not one."""
        if self.choices is not None:
            if not isinstance(value, str):
                raise TypeError(f"answer must be one of {self.choices}, got answer={value!r}")
            if value.strip().lower() not in [c.lower() for c in self.choices]:
                raise ValueError(f"answer must be one of {self.choices}, got answer={value!r}")
            return value.strip().lower()
        if isinstance(value, (bool, str)):
            raise TypeError(f"answer must be a number, got answer={value!r}")
        try:
            return float(value)
        except (TypeError, ValueError):
            raise TypeError(f"answer must be a number, got answer={value!r}") from None

    def is_right(self, value: object) -> bool:
        given = self.parse(value)
        expected = self.answer()
        if self.choices is not None:
            return given == str(expected).lower()
        return math.isclose(given, float(expected), rel_tol=self.rel_tol, abs_tol=1e-12)

    def expected_text(self) -> str:
        """The right answer as the key prints it."""
        expected = self.answer()
        return str(expected) if self.choices is not None else f"{float(expected):.6g}"
