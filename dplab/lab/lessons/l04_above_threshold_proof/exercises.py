"""Lesson 4's exercises: ``dplab.check("04.N", answer)`` checks an answer, ``python -m
dplab answers 04`` prints the key (questions, computed answers, worked solutions)."""

from __future__ import annotations

import numpy as np

from dplab.lab.exercises import Exercise
from dplab.sparse_vector import exact_privacy_loss, naive_above_threshold_epsilon

EXERCISES = [
    Exercise("04.1", "Naive accounting charges k eps/4 for k comparisons, each through Lap(4/eps) noise. "
             "For k = 40 queries at eps = 0.5, what does it charge?",
             lambda: naive_above_threshold_epsilon(40, 0.5),
             "Given the noisy threshold, each comparison is an eps/4-DP release: compose them.",
             "40 × 0.5/4 = 5, ten times the theorem's eps = 0.5; the naive bound wins only for k < 4."),
    Exercise("04.2", "The exact privacy loss of AboveThreshold halting at the 3rd query of a stream of "
             "zeros with threshold 0, at eps = 0.5?",
             lambda: exact_privacy_loss("above_threshold", np.zeros(3), 0.0, 0.5),
             "dplab.sparse_vector.exact_privacy_loss('above_threshold', np.zeros(3), 0.0, 0.5).",
             f"{exact_privacy_loss('above_threshold', np.zeros(3), 0.0, 0.5):.4f}: the worst neighbour moves "
             "the two bottoms up by 1 and the top down by 1; below eps = 0.5, as the theorem says."),
    Exercise("04.3", "no_halting on a stream of 34 zeros (T = 0, eps = 1): what is the exact loss of 30 "
             "bottoms followed by 4 tops?",
             lambda: exact_privacy_loss("no_halting", np.zeros(34), 0.0, 1.0,
                                        output=np.r_[np.zeros(30, dtype=bool), np.ones(4, dtype=bool)]),
             "Each further top adds about eps; compare the table for 1, 2, 3 and 5 tops.",
             "4.5 = eps/2 + 4 eps: without halting, every top leaks about eps more, so the loss grows "
             "without bound as tops accumulate."),
    Exercise("04.4", "Lee-Clifton with c = 4 answers above: at what multiple of eps does its loss level "
             "off?", lambda: (1 + 6 * 4) / 4,
             "(1 + 6c)/4; check with exact_privacy_loss on a long stream with c tops at the end.",
             "(1 + 6 · 4)/4 = 6.25: Lee-Clifton's loss grows with the number of tops c, not with the "
             "stream."),
    Exercise("04.5", "On a stream of 10 zeros with T = 0 and eps = 1, which of these variants loses the "
             "most on 'bottom on the first 9 queries, top on the 10th'?", lambda: "lee_clifton",
             "Compute exact_privacy_loss for each option, or read the loss figure at k = 10.",
             "lee_clifton (about 1.75 eps), then no_halting (about 1.5 eps), then above_threshold "
             "(0.991 eps).",
             choices=("above_threshold", "lee_clifton", "no_halting")),
]
