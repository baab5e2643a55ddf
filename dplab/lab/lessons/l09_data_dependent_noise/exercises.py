"""Lesson 9's exercises: ``dplab.check("09.N", answer)`` checks an answer, ``python -m
dplab answers 09`` prints the key (questions, computed answers, worked solutions)."""

from __future__ import annotations

import numpy as np

from dplab.lab.exercises import Exercise
from dplab.lab.lessons.l09_data_dependent_noise.report import (
    EPSILONS,
    HIGH,
    LOW,
    data_independent_error,
    relative_errors,
)
from dplab.range_queries.dawa import best_partition, interval_costs
from dplab.smooth_sensitivity import (
    median_distance_to_leak,
    median_local_sensitivity,
    median_smooth_sensitivity,
    smooth_beta,
)


def buckets_of_flat_histogram() -> int:
    """The noiseless partition of a flat 16-bin histogram (every cost 0) with penalty 1."""
    return len(best_partition(interval_costs(np.full(16, 3.0)), 1.0))


EXERCISES = [
    Exercise(
        "09.1",
        "16 bins hold 4, 4, 4, 4, 0, 0, 0, 0, 9, 1, 9, 1, 5, 5, 5, 5 rows. Without any noise, what is the "
        "L1 deviation cost dev(B) of the bucket made of bins 9 to 12 (the 9, 1, 9, 1)?",
        lambda: float(interval_costs(np.array([4, 4, 4, 4, 0, 0, 0, 0, 9, 1, 9, 1, 5, 5, 5, 5.0]))[2][8]),
        "dev(B) is defined in section 1: compare each count with the bucket's mean.",
        "mean (9 + 1 + 9 + 1)/4 = 5; |9 − 5| + |1 − 5| + |9 − 5| + |1 − 5| = 16. Spreading the bucket's "
        "total uniformly would put 5 in each bin: an error of 4 rows in each.",
    ),
    Exercise(
        "09.2",
        "DAWA runs at eps = 0.5 with share 0.4 for the partition. What is the Laplace scale b of each "
        "candidate interval's noisy cost?",
        lambda: 4 / (0.4 * 0.5),
        "Section 1 gives the cost noise's scale in terms of the partition's budget; which part of eps "
        "is that budget?",
        "eps1 = 0.4 x 0.5 = 0.2, so b = 4 / 0.2 = 20: a score of sensitivity 2, at 2 x 2/eps1.",
    ),
    Exercise(
        "09.3",
        "Identity on k = 256 bins at eps = 0.1 has exact error 2(k + 2)/(3 eps^2) per range query. Read "
        "DAWA's error relative to identity off the who-wins figure (uniform shape, eps = 0.1): about how "
        "many rows^2 per range query is DAWA's error there? (20% tolerance)",
        lambda: relative_errors("uniform")[EPSILONS.index(0.1)] * data_independent_error("identity", 0.1),
        "Compute identity's error from the formula, then multiply by DAWA's ratio in the figure.",
        "2 x 258 / (3 x 0.01) = 17,200 per range query for identity. The figure puts the default DAWA "
        "(LAB_1B) at about 0.56 of that on the uniform shape: about 9,700 rows^2 (the key uses the "
        "simulated ratio, 0.564).",
        rel_tol=0.20,
    ),
    Exercise(
        "09.4",
        "A database of 5 heights (m): 1.55, 1.68, 1.68, 1.68, 1.80, clipped to [1.0, 2.2]. What is the "
        "local sensitivity of its lower median after one of the 1.68 is replaced by 1.75?",
        lambda: median_local_sensitivity(np.array([1.55, 1.68, 1.68, 1.75, 1.80]), LOW, HIGH),
        "Sort the new database; the lower median is the 3rd value; LS = max(x_(m) − x_(m−1), "
        "x_(m+1) − x_(m)).",
        "1.55, 1.68, 1.68, 1.75, 1.80: median 1.68, neighbours 1.68 and 1.75, so LS = 0.07 m. Before the "
        "change it was 0: noise scaled to LS would be 0 on one database and not on its neighbour.",
    ),
    Exercise(
        "09.5",
        "12,579 students: 6,189 are 1.60 m tall, 201 are 1.68 m and 6,189 are 1.80 m. The median is "
        "1.68 m and its local sensitivity is 0. At least how many students must change their height "
        "before it can be positive?",
        lambda: median_distance_to_leak(np.repeat([1.60, 1.68, 1.80], [6189, 201, 6189]), LOW, HIGH),
        "Find the median's rank and the ranks the 1.68 m block covers. Which ranks does local "
        "sensitivity look at, and what has to reach them?",
        "Local sensitivity becomes positive once a value other than 1.68 reaches rank 6,289 or 6,291. "
        "From above, the 100 students at ranks 6,291..6,390 must all become taller: 100 replacements "
        "(from below, as many). So A_k = 0 for k < 100 and A_100 > 0; smooth sensitivity weighs it by "
        "e^(-100 beta). On the real heights the same count is 51.",
        rel_tol=0.0,
    ),
    Exercise(
        "09.6",
        "At eps = 0.1 and delta = 1e-5, what is beta of the smooth-sensitivity release (NRS07, Laplace)?",
        lambda: smooth_beta(0.1, 1e-5),
        "Section 4 gives beta for the Laplace release in terms of eps and delta.",
        "ln(2e5) = 12.21, so beta = 0.1 / 24.41 = 0.00410.",
    ),
    Exercise(
        "09.7",
        "Without noise and with penalty 1 per bucket, into how many buckets does the best partition into "
        "power-of-2-length intervals cut a flat histogram of 16 equal bins?",
        buckets_of_flat_histogram,
        "What is dev(B) of any interval of a flat histogram?",
        "Every bucket costs 0 + 1; the fewest buckets win: the whole domain, 16 = 2^4 bins, is one "
        "candidate interval, so 1 bucket.",
        rel_tol=0.0,
    ),
    Exercise(
        "09.8",
        "Five heights (m): 1.60, 1.68, 1.68, 1.68, 1.75, clipped to [1.0, 2.2]. With beta = 0.5, what is "
        "the smooth sensitivity S* of their lower median (3 decimals)?",
        lambda: median_smooth_sensitivity(np.array([1.60, 1.68, 1.68, 1.68, 1.75]), LOW, HIGH, 0.5),
        "Compute A_0, A_1, A_2, ... with section 4's formula (x_(0) and below are lo, x_(6) and above hi), "
        "weigh A_k by e^(-k beta) and take the largest.",
        "m = 3. A_0 = LS = 0; A_1 = max(0.08, 0, 0.07) = 0.08; A_2 = x_(3) - x_(0) = 1.68 - 1.0 = 0.68; "
        "A_3 = 0.68; A_4 = x_(5) - x_(0) = 0.75; A_5 = x_(6) - x_(0) = hi - lo = 1.2 from there on. "
        "Weighted: 0, 0.049, 0.250, 0.152, 0.102, 0.099, ...: S* = 0.68 e^(-1) = 0.250 m, at k = 2.",
        rel_tol=0.005,
    ),
]
