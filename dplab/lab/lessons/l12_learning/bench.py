"""Notebook 12's bench rows (``make bench NB=12``): the issue's targets, timed by the library's own rows (one
DP-SGD epoch over the 12,579 students, dplab.lab.learning_bench; 10^4 steps accounted by PLD and by RDP,
dplab.lab.accounting_bench), and the notebook's own precomputations (medians of one run each: they are cached
in the notebook)."""

from __future__ import annotations

from dplab.lab import accounting_bench, learning_bench
from dplab.lab.timing import median_time


def lesson_rows() -> list[tuple[str, str, str]]:
    """The notebook's precomputations: the panel's grid of DP-SGD runs and its accounting, one audit."""
    from dplab.lab.lessons.l12_learning import report

    goal = "the notebook <= 30 s in all"
    timed = (("the panel's grid: 72 DP-SGD runs, 300 steps, 500 students", report.grid_accuracy.__wrapped__),
             ("the panel's accounting: 36 (σ, q, T) by PLD, grid 1e-3", report.grid_epsilon.__wrapped__),
             ("the section 1 fits: 20 non-private models at n = 50, degree 6",
              lambda: report.leak_losses.__wrapped__(6, 50)),
             ("one audit: 160 DP-SGD models of 100 steps on 100 students",
              lambda: report.audit.__wrapped__("canary", 2.0)))
    rows = [(name, f"{median_time(fn, repeat=1):.2f} s", goal) for name, fn in timed]
    return rows


#: the rows ``make bench`` prints for this notebook (each function returns (measure, value, goal) rows)
ROWS = (*learning_bench.ROWS, *accounting_bench.ROWS, lesson_rows)
