"""Exercises: a question, how to compute its answer, the mistakes a student is likely to make, a hint
and a worked solution.

A lesson's ``exercises.py`` lists its exercises. ``dplab.check("01.2", answer)`` (see ``registry.py``)
says right, wrong (with the hint for the mistake made) or malformed (what was expected), and never
raises; ``dplab.solution("01.2")`` prints the worked solution; ``python -m dplab answers 01`` prints one
notebook's key. Numeric answers, anticipated mistakes and the numbers of a worked solution are computed
by dplab functions (never typed), so the key cannot drift from the theory. Three kinds:

* a number, right within ``rel_tol`` or when it equals the key rounded to ``sig_figs`` significant
  figures;
* a choice among named options, with an explanation for every option (``explanations``);
* "implement it": the answer is the student's function, which ``implement`` runs and tests the way the
  lab tests its own mechanisms (``dplab/lab/implement.py``).
"""

from __future__ import annotations

import inspect
import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Exercise", "Mistake", "Verdict", "as_number", "round_sig"]

#: a wrong number this close to the key (relative) is told to mind its rounding, not given a hint
CLOSE = 0.05
#: the verdicts dplab.check records (the grade command writes them to grades.csv)
VERDICTS = ("right", "wrong", "malformed", "missing")


@dataclass(frozen=True)
class Mistake:
    """An anticipated wrong answer (computed, never typed: e.g. ε used where ε/2 was due) and the
    hint that mistake deserves."""

    answer: Callable[[], float | str]
    hint: str


@dataclass(frozen=True)
class Verdict:
    """What dplab.check said: ``verdict`` is one of VERDICTS, ``feedback`` the line it printed."""

    exercise_id: str
    verdict: str
    feedback: str


def round_sig(x: float, figures: int) -> float:
    """x rounded to ``figures`` significant figures (0 stays 0)."""
    if x == 0 or not math.isfinite(x):
        return x
    return round(x, figures - 1 - math.floor(math.log10(abs(x))))


def as_number(value: object) -> float | str:
    """A student's numeric answer as a float, or a one-line description of why it is not one.

    Any real number type is taken as its value (int, float, Fraction, Decimal, numpy scalars), and so
    is a one-element list, tuple or array; booleans (numpy's too), strings (even "3"), complex
    numbers, longer sequences, NaN and infinities are not numbers here."""
    if isinstance(value, (list, tuple, np.ndarray)):
        size = np.size(value) if isinstance(value, np.ndarray) else len(value)
        if size != 1:
            return f"a sequence of {size} values, where one number was expected"
        value = value.reshape(-1)[0] if isinstance(value, np.ndarray) else value[0]
        if isinstance(value, (list, tuple, np.ndarray)):
            return "a nested sequence, where one number was expected"
    if isinstance(value, (bool, np.bool_)):
        return f"the boolean {value!r}, where a number was expected"
    if isinstance(value, (str, bytes)):
        return f"the string {value!r}, where a number was expected (write it without quotes)"
    if isinstance(value, (numbers.Complex, np.complexfloating)) and not isinstance(
            value, (numbers.Real, np.floating, np.integer)):
        return f"the complex number {value!r}, where a real number was expected"
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return f"{type(value).__name__} {value!r}, where a number was expected"
    if not math.isfinite(number):
        return f"{number!r}, where a finite number was expected"
    return number


def _matches(given: float, expected: float, rel_tol: float, figures: int) -> bool:
    return (math.isclose(given, expected, rel_tol=rel_tol, abs_tol=1e-12)
            or math.isclose(given, round_sig(expected, figures), rel_tol=1e-9, abs_tol=1e-15))


@dataclass(frozen=True)
class Exercise:
    """A question whose answer is a number (``answer()`` computes it), one of ``choices``, or, when
    ``implement`` is given, a function the student writes (``answer()`` returns the reference one).

    ``mistakes`` lists anticipated wrong answers with their hints (numbers only); ``hint`` is for any
    other wrong answer and must not give the answer away. ``solution`` is the worked solution, a
    template whose ``{name}`` fields ``values()`` computes. ``printed`` marks a question whose answer a
    student can read from a printed line or a figure (at most a quarter of a notebook's)."""

    id: str
    question: str
    answer: Callable[[], object]
    hint: str
    solution: str
    rel_tol: float = 0.01
    choices: tuple[str, ...] | None = None
    mistakes: tuple[Mistake, ...] = ()
    explanations: Mapping[str, str] = field(default_factory=dict)
    sig_figs: int = 2
    printed: bool = False
    implement: Callable[[Callable], tuple[bool, str]] | None = None
    values: Callable[[], Mapping[str, object]] | None = None

    def __post_init__(self) -> None:
        if not self.solution.strip():
            raise ValueError(f"exercise {self.id}: give a worked solution for the teacher's key")
        if self.sig_figs not in (1, 2, 3):
            raise ValueError(f"exercise {self.id}: sig_figs must be 1, 2 or 3, "
                             f"got sig_figs={self.sig_figs!r}")
        if self.explanations and set(self.explanations) != set(self.choices or ()):
            raise ValueError(f"exercise {self.id}: explain every option {self.choices}, got "
                             f"{sorted(self.explanations)}")

    @property
    def kind(self) -> str:
        """"implement", "choice" or "number"."""
        return "implement" if self.implement else "choice" if self.choices is not None else "number"

    def parse(self, value: object) -> float | str:
        """The student's answer as this exercise's type; TypeError/ValueError if it is not one."""
        if self.choices is not None:
            if not isinstance(value, str):
                raise TypeError(f"answer must be one of {self.choices}, got answer={value!r}")
            if value.strip().lower() not in [c.lower() for c in self.choices]:
                raise ValueError(f"answer must be one of {self.choices}, got answer={value!r}")
            return value.strip().lower()
        number = as_number(value)
        if isinstance(number, str):
            raise TypeError(f"answer must be a number, got answer={value!r}: {number}")
        return number

    def is_right(self, value: object) -> bool:
        """Whether a well-formed answer is right (TypeError/ValueError on a malformed one)."""
        given = self.parse(value)
        if self.choices is not None:
            return given == str(self.answer()).lower()
        return _matches(given, float(self.answer()), self.rel_tol, self.sig_figs)

    def verdict(self, value: object) -> Verdict:
        """Right, wrong (with the hint for the mistake made), malformed or missing, as one line each.
        Never raises: an error inside a student's function is reported, not propagated."""
        def say(verdict: str, text: str) -> Verdict:
            return Verdict(self.id, verdict, f"{self.id}: {text}")

        if value is None:
            options = f" Options: {', '.join(self.choices)}." if self.choices else ""
            return say("missing", f"no answer yet. {self.question}{options}")
        if self.implement is not None:
            if not callable(value):
                return say("malformed", f"expected a function (def ...), got "
                                        f"{type(value).__name__} {value!r}")
            try:
                right, text = self.implement(value)
            except Exception as error:  # noqa: BLE001 - a student's code must not stop the answer loop
                return say("wrong", f"your function raised {type(error).__name__}: {error}")
            return say("right" if right else "wrong", text)
        if self.choices is not None:
            if not isinstance(value, str) or value.strip().lower() not in [c.lower() for c in self.choices]:
                return say("malformed", f"not one of the options ({value!r}). "
                                        f"Options: {', '.join(self.choices)}.")
            chosen = next(c for c in self.choices if c.lower() == value.strip().lower())
            why = f" {self.explanations[chosen]}" if chosen in self.explanations else ""
            if self.is_right(chosen):
                return say("right", f"right.{why}")
            return say("wrong", f"not quite ({chosen}).{why or ' Hint: ' + self.hint}")
        number = as_number(value)
        if isinstance(number, str):
            return say("malformed", f"got {number}.")
        if self.is_right(number):
            return say("right", f"right. The worked solution: dplab.solution({self.id!r}).")
        for mistake in self.mistakes:
            if _matches(number, float(mistake.answer()), self.rel_tol, self.sig_figs):
                return say("wrong", f"not quite ({number:.4g}). Hint: {mistake.hint}")
        key = float(self.answer())
        if 0 < key <= 1 and _matches(number / 100, key, self.rel_tol, self.sig_figs):
            return say("wrong", f"not quite ({number:.4g}): that reads as a percentage; give the answer as "
                                "a share (0.25 for 25%).")
        if self.rel_tol > 0 and math.isclose(number, key, rel_tol=CLOSE):
            return say("wrong", f"close ({number:.4g}), but not within {self.rel_tol:.0%} of the answer: if "
                                f"you rounded, round to nearest with at least {self.sig_figs} significant "
                                "figures; if not, check a constant of your computation.")
        return say("wrong", f"not quite ({number:.4g}). Hint: {self.hint}")

    def expected_text(self) -> str:
        """The right answer as the key prints it."""
        expected = self.answer()
        if self.implement is not None:
            return f"a function; the reference is {getattr(expected, '__name__', 'shown below')}"
        return str(expected) if self.choices is not None else f"{float(expected):.6g}"

    def worked_solution(self) -> str:
        """The worked solution with its computed numbers filled in (and the reference code of an
        "implement it" exercise)."""
        text = self.solution.format(**self.values()) if self.values is not None else self.solution
        if self.implement is not None:
            text += "\n\n" + inspect.getsource(self.answer())
        return text

