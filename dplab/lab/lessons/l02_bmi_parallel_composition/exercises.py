"""Lesson 2's exercises: ``dplab.check("02.N", answer)`` checks an answer, ``python -m
dplab answers 02`` prints the key (questions, computed answers, worked solutions)."""

from __future__ import annotations

from dplab.accounting import subsampling_epsilon
from dplab.bmi import bmi_expected_total_error
from dplab.contingency import contingency_expected_total_error
from dplab.lab.exercises import Exercise

EXERCISES = [
    Exercise("02.1", "Total expected squared error of Algorithm 1 at epsilon = 0.5?",
             lambda: bmi_expected_total_error(1, 0.5),
             "Four answers, each with Lap(4/ε): 4 × 2(4/ε)².",
             "Each count gets ε/4 (sequential composition), so b = 4/ε = 8 and each answer has "
             "variance 2b² = 128; four of them: 512 (= 128/ε²)."),
    Exercise("02.2", "Total expected squared error of Algorithm 2 at epsilon = 0.5 (add/remove)?",
             lambda: bmi_expected_total_error(2, 0.5),
             "q1 and q3 carry one Lap(1/ε) each, the totals two: (2 + 4 + 2 + 4)/ε².",
             "Cells get Lap(1/ε) = Lap(2), variance 8 each. q1 and q3 are one cell (8 each), the "
             "totals # M and # F are sums of two cells (16 each): 8 + 16 + 8 + 16 = 48 (= 12/ε²)."),
    Exercise("02.3", "The same under replace-one neighbours (the cells need Lap(2/ε))?",
             lambda: bmi_expected_total_error(2, 0.5, "replace"),
             "Replacing a row moves it between two cells: sensitivity 2, variance 2(2/ε)².",
             "Cells now get Lap(2/ε) = Lap(4), variance 32 each; 32 + 64 + 32 + 64 = 192 "
             "(= 48/ε²), still 2.7 times better than Algorithm 1."),
    Exercise("02.4", "Seed 003's method for a table of d = 6 cells at epsilon = 1: total "
             "expected squared error over the 6 cells?",
             lambda: contingency_expected_total_error(6, 1.0, "seed003"),
             "5 cells with Lap(5/ε), and the 6th carries the sum of their 5 noises.",
             "Each of the d - 1 = 5 released cells has variance 2(5/1)² = 50, and the derived "
             "last cell the sum of their 5 noises, variance 250: 5 · 50 + 250 = 500 (= 4(d-1)³/ε²)."),
    Exercise("02.5", "An epsilon = 1 mechanism on a Poisson sample with p = 0.1: what is the exact "
             "amplified epsilon?", lambda: subsampling_epsilon(1.0, 0.1),
             "ln(1 + p(e^ε - 1)).",
             "ln(1 + 0.1 (e - 1)) = ln(1.1718) ≈ 0.159, a little below the slide's 2pε = 0.2."),
]
