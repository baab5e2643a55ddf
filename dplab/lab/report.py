"""The formula report: one row per formula the lab checks against a simulation.

Columns:
``id | formula | lecture | parameters | theory | empirical [CI] (level) | relation | catches | verdict``;
``lecture`` cites the lecture the formula comes from by its short name (README.md's lecture table,
:data:`LECTURES`), ``—`` for a formula beyond the lectures; ``catches`` names the mutants (plausible
bugs, ``make mutants``) the row is there to catch.
Relations: ``=`` (the interval must contain the theory value), ``<=`` / ``>=`` (a
bound, one-sided: the interval must not refute it), ``exact`` (a computed value,
equal to the theory up to a relative tolerance). Intervals are Bonferroni-corrected
over the statistical rows: each gets confidence 1 - 0.05 / m, so a correct lab
passes all m rows with probability >= 95% at fixed seeds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from dplab.simulate import Estimate

__all__ = ["LECTURES", "Mutant", "ReportRow", "evaluate_rows", "lecture_citation", "report_markdown"]

#: The lectures' short names, as README.md's and notebooks/00_glossary.md's lecture tables list them.
LECTURES = ("Duke18", "Gaboardi17", "Rogers23", "Hu", "Roth11")


def lecture_citation(lecture: str) -> str:
    """A row's ``lecture`` as its REPORT.md cell: ``"Rogers23, Roth11"`` -> ``"[Rogers23] [Roth11]"``,
    ``"—"`` unchanged. ValueError for anything else (a "001"-style label, an unknown name)."""
    if lecture == "—":
        return lecture
    names = [name.strip() for name in lecture.split(",")]
    if any(name not in LECTURES for name in names):
        raise ValueError(f"lecture must be '—' or short names of {LECTURES} joined by ', ', got {lecture!r}")
    return " ".join(f"[{name}]" for name in names)

#: a mutant's id: lowercase words joined by dots, underscores or dashes (``laplace.scale_times_2``)
MUTANT_ID = re.compile(r"^[a-z0-9][a-z0-9_.\-]*$")

RELATIONS = ("=", "<=", ">=", "exact")


@dataclass(frozen=True)
class Mutant:
    """One plausible bug a report row or a test must catch (``make mutants``, dplab.lab.mutants):
    replace ``old`` (found exactly once) by ``new`` in ``path`` (relative to the repository)."""

    id: str
    path: str
    old: str
    new: str
    bug: str

    def __post_init__(self) -> None:
        if not MUTANT_ID.match(self.id):
            raise ValueError(f"mutant id must match {MUTANT_ID.pattern}, got id={self.id!r}")
        if self.old == self.new:
            raise ValueError(f"mutant {self.id}: old and new text are the same")


@dataclass
class ReportRow:
    """One checked formula. Statistical rows give ``interval(confidence)``; computed rows
    give ``value``: ``exact`` compares it with ``theory`` to ``rel_tol``, ``<=`` / ``>=``
    check it against the bound ``theory``. ``catches`` names the mutants it must kill (make mutants)."""

    id: str
    formula: str
    #: the short name(s) of the lecture(s) it comes from (:data:`LECTURES`, "Rogers23, Roth11"), or "—"
    lecture: str
    parameters: str
    theory: float
    relation: str
    interval: Callable[[float], Estimate] | None = None
    value: float | None = None
    rel_tol: float = 1e-9
    #: "<mutant id>[, <mutant id>]: <the bug>": the mutants (a lesson's mutants.py) this row is there to catch
    catches: str | None = None
    # filled by evaluate_rows
    empirical: Estimate | None = field(default=None, repr=False)
    passed: bool | None = None

    def __post_init__(self) -> None:
        lecture_citation(self.lecture)
        if self.relation not in RELATIONS:
            raise ValueError(f"relation must be one of {RELATIONS}, got relation={self.relation!r}")
        if (self.value is None) == (self.interval is None) or (
                self.relation == "exact" and self.value is None):
            raise ValueError(f"row {self.id}: give value (computed rows, all exact rows) "
                             f"or interval (statistical rows), not both")

    @property
    def statistical(self) -> bool:
        return self.interval is not None

    @property
    def verdict(self) -> str:
        return "PASS" if self.passed else "FAIL"


def evaluate_rows(rows: Sequence[ReportRow], family_confidence: float = 0.95,
                  family_size: int | None = None) -> list[ReportRow]:
    """Compute every row's interval at the Bonferroni level and its verdict; ``family_size``: the
    number of statistical rows the level divides by (default: those of ``rows``)."""
    m = family_size or max(1, sum(row.statistical for row in rows))
    confidence = 1 - (1 - family_confidence) / m
    for row in rows:
        if not row.statistical:
            if row.relation == "exact":
                row.passed = abs(row.value - row.theory) <= row.rel_tol * max(1.0, abs(row.theory))
            else:
                row.passed = row.value <= row.theory if row.relation == "<=" else row.value >= row.theory
            continue
        est = row.interval(confidence)
        row.empirical = est
        if row.relation == "=":
            row.passed = bool(est.contains(row.theory))
        elif row.relation == "<=":
            row.passed = bool(est.consistent_with_upper_bound(row.theory))
        else:
            row.passed = bool(est.consistent_with_lower_bound(row.theory))
    return list(rows)


def _fmt(x: float) -> str:
    return f"{x:.6g}"


def _cell(text: str) -> str:
    """Escape the pipe so formulas such as E|err| stay inside their table cell."""
    return text.replace("|", "\\|")



def percent(level: float) -> str:
    """A confidence level as a percentage with the digits it needs: 95%, 99.75%, 99.9999% (never a
    rounded 100%)."""
    digits = max(4, 2 + math.ceil(-math.log10(max(1 - level, 1e-15))))
    return f"{100 * level:.{digits}g}%"

def report_markdown(rows: Sequence[ReportRow], mutants: int | None = None) -> str:
    """The rows as the Markdown table of figures/REPORT.md; ``mutants``: how many are declared."""
    m = max(1, sum(row.statistical for row in rows))
    naming = sum(bool(row.catches) for row in rows)
    lines = [
        "# dplab formula report",
        "",
        "Written by `make figures` (`python -m dplab figures`); checked by `make test`.",
        f"{len(rows)} rows, {naming} of them naming the bugs they catch (column `catches`: mutant ids, then "
        "the bug)" + ("" if mutants is None else f"; {mutants} mutants declared: `make mutants` applies "
                      "each to a copy of the lab and runs the rows and tests that name it") + ".",
        f"Intervals are Bonferroni-corrected over the {m} statistical rows "
        f"(each at {100 * (1 - 0.05 / m):.4g}% confidence, as its row says; family-wise 95%): "
        "a correct lab passes them all with probability >= 95% at fixed seeds.",
        "For `<=` rows the empirical value is the observed rate or quantity and the bound "
        "holds unless the whole interval lies above it.",
        "",
        "Column `lecture`: the lecture a formula comes from, by its short name (README.md's lecture "
        "table); — for a formula beyond the lectures.",
        "",
        "| id | formula | lecture | parameters | theory | empirical [CI] (level) | relation | catches "
        "| verdict |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        if not row.statistical:
            empirical = _fmt(row.value)
        else:
            e = row.empirical
            empirical = (f"{_fmt(float(e.estimate))} [{_fmt(float(e.low))}, {_fmt(float(e.high))}] "
                         f"({percent(e.confidence)})")
        lines.append(
            f"| {row.id} | {_cell(row.formula)} | {lecture_citation(row.lecture)} | {_cell(row.parameters)} "
            f"| {_fmt(row.theory)} "
            f"| {empirical} | {row.relation} | {_cell(row.catches or '—')} | {row.verdict} |"
        )
    return "\n".join(lines) + "\n"
