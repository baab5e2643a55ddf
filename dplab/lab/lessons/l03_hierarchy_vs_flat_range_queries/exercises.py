"""Lesson 3's exercises: ``dplab.check("03.N", answer)`` checks an answer, ``python -m
dplab answers 03`` prints the key (questions, computed answers, worked solutions)."""

from __future__ import annotations

from dplab.lab.exercises import Exercise
from dplab.range_queries.strategies import range_strategy
from dplab.range_queries.theory import best_branching, expected_error_per_query, hierarchy_crossover_k

EXERCISES = [
    Exercise("03.1", "What is the L1 sensitivity of answering all ranges directly over k = 10 bins?",
             lambda: range_strategy("all_ranges", 10).sensitivity,
             "Bin i lies in i(k - i + 1) ranges; take the largest.",
             "Adding a row to bin i changes every range that holds it: i(k - i + 1) of them, at "
             "most 5 · 6 = 30 for k = 10 (bins 5 and 6) = ⌊(k+1)²/4⌋."),
    Exercise("03.2", "Binary hierarchy over k = 64 bins without the root: how many levels ℓ are "
             "measured (its sensitivity)?",
             lambda: range_strategy("hierarchy", 64, 2, include_root=False).sensitivity,
             "Levels of 2, 4, ..., 64 nodes.",
             "64 = 2⁶: the levels of 2, 4, 8, 16, 32 and 64 nodes are measured, and a row lies in "
             "one node of each, so the sensitivity is 6."),
    Exercise("03.3", "Expected error per range query of identity at k = 64, epsilon = 1?",
             lambda: expected_error_per_query("identity", 64, 1.0),
             "A range of length r has variance 2r/ε²; average over all ranges: 2(k + 2)/3.",
             "A range of length r sums r bins of variance 2/ε²; the mean length over all "
             "k(k+1)/2 ranges is (k + 2)/3, so the mean error is 2(k + 2)/3 = 44 at k = 64."),
    Exercise("03.4", "From which power of 2 on does binary hierarchy + inference (no root) beat "
             "identity?", lambda: hierarchy_crossover_k(2, include_root=False),
             "Use the panel or expected_total_error.",
             "Compare expected_total_error('hierarchy', k, 1, 2, inference=True, include_root=False) with "
             "identity's "
             "2/ε² k(k+1)(k+2)/6 at k = 2, 4, 8, ...: per range query at ε = 1, 220.1 against 172.0 "
             "at k = 256 (identity wins), 305.5 against 342.7 at k = 512 (the tree wins from 512).",
             rel_tol=0.0),
    Exercise("03.5", "Which branching factor minimises hierarchy + inference error at k = 4096, "
             "the root not measured?",
             lambda: best_branching(4096, range(2, 33), include_root=False)[0], "See the branching figure.",
             "best_branching(4096, range(2, 33), include_root=False) evaluates the exact error for every B: "
             "16 wins with "
             "262.0 per range query at ε = 1 (with the root measured, B = 8 would, at 381.2). A wider "
             "tree has fewer levels (a smaller sensitivity) but more nodes per range.",
             rel_tol=0.0),
]
