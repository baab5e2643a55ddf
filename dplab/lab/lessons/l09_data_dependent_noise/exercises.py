"""Lesson 9's exercises: ``dplab.check("09.N", answer)`` checks an answer (and names the mistake it
suspects), ``dplab.solution("09.N")`` prints the worked solution, ``python -m dplab answers 09`` the key.
Every number of a key, a mistake or a worked solution is computed by dplab."""

from __future__ import annotations

import math

import numpy as np

from dplab.lab.exercises import Exercise, Mistake
from dplab.lab.lessons.l09_data_dependent_noise.report import (
    DELTA,
    EPSILONS,
    HIGH,
    LOW,
    PAIR,
    data_independent_error,
    heights,
    relative_errors,
)
from dplab.range_queries.dawa import interval_costs, partition_noise_scale
from dplab.smooth_sensitivity import (
    median_distance_to_leak,
    median_global_sensitivity,
    median_local_sensitivity,
    median_sensitivity_at_distance,
    median_smooth_sensitivity,
    smooth_beta,
)

_BINS = np.array([4, 4, 4, 4, 0, 0, 0, 0, 9, 1, 9, 1, 5, 5, 5, 5.0])
_FIVE = np.array([1.55, 1.68, 1.68, 1.75, 1.80])  # 09.4: one 1.68 of (1.55, 1.68, 1.68, 1.68, 1.80) -> 1.75
_TIE = np.repeat([1.60, 1.68, 1.80], [6189, 201, 6189])
_SMOOTH = np.array([1.60, 1.68, 1.68, 1.68, 1.75])


def _dev(first: int) -> float:
    """dev of the 4-bin bucket starting at 0-based bin ``first`` (interval_costs' row 2: length 2^2)."""
    return float(interval_costs(_BINS)[2][first])


def _dawa_error() -> float:
    """DAWA's simulated error per range query on the uniform shape at eps = 0.1 (identity's times the "
    "ratio)."""
    return relative_errors("uniform")[EPSILONS.index(0.1)] * data_independent_error("identity", 0.1)


def _block_ranks() -> np.ndarray:
    """The 1-based ranks of 09.5's 1.68 m block in the sorted data."""
    return np.flatnonzero(np.sort(_TIE) == 1.68) + 1


def _a(k: int) -> float:
    return median_sensitivity_at_distance(_SMOOTH, LOW, HIGH, k)


EXERCISES = [
    Exercise(
        "09.1",
        "16 bins hold 4, 4, 4, 4, 0, 0, 0, 0, 9, 1, 9, 1, 5, 5, 5, 5 rows. Without any noise, what is the "
        "L1 deviation cost dev(B) of the bucket made of bins 9 to 12 (counting from 1: the 9, 1, 9, 1)?",
        lambda: _dev(8),
        "dev(B) is defined in section 1: compare each count of the bucket with the bucket's own mean, and "
        "add up.",
        "The bucket's mean is (9 + 1 + 9 + 1)/4 = {mean:.0f}; |9 - {mean:.0f}| + |1 - {mean:.0f}| + "
        "|9 - {mean:.0f}| + |1 - {mean:.0f}| = {dev:.0f}. Spreading the bucket's total evenly would put "
        "{mean:.0f} rows in each bin: an error of 4 rows in each.",
        mistakes=(
            Mistake(lambda: _dev(7),
                    "that is bins 8 to 11 (0, 9, 1, 9): count from 1, as the question does."),
            Mistake(lambda: _dev(9),
                    "that is bins 10 to 13 (1, 9, 1, 5): count from 1, as the question does."),
            Mistake(lambda: _dev(8) / 4,
                    "that is the mean absolute deviation; dev(B) is the sum over the bins."),
        ),
        values=lambda: {"mean": float(_BINS[8:12].mean()), "dev": _dev(8)},
    ),
    Exercise(
        "09.2",
        "DAWA runs at eps = 0.5 with share 0.4 for the partition. What is the Laplace scale b of each "
        "candidate interval's noisy cost?",
        lambda: partition_noise_scale(0.4 * 0.5),
        "Section 1 gives the cost noise's scale in terms of the partition's budget eps1; which part of "
        "eps is eps1?",
        "eps1 = 0.4 × 0.5 = {eps1:.1f}, so b = 4/eps1 = {b:.0f}: report noisy min over a score of "
        "sensitivity 2 needs 2 × 2/eps1.",
        mistakes=(
            Mistake(lambda: partition_noise_scale(0.5),
                    "you used the whole eps; the partition gets eps1 only."),
            Mistake(lambda: partition_noise_scale((1 - 0.4) * 0.5),
                    "you used eps2, the totals' budget; the partition gets the share 0.4."),
            Mistake(lambda: partition_noise_scale(2 * 0.4 * 0.5),
                    "that is 2/eps1, one cost's sensitivity over eps1. The proof shifts the noise of a "
                    "whole partition's bucket: twice that."),
        ),
        values=lambda: {"eps1": 0.4 * 0.5, "b": partition_noise_scale(0.4 * 0.5)},
    ),
    Exercise(
        "09.3",
        "Identity on k = 256 bins at eps = 0.1 has exact error 2(k + 2)/(3 eps^2) per range query. Read "
        "DAWA's error relative to identity off section 3's table (uniform shape, eps = 0.1, LAB_1B): about "
        "how many rows^2 per range query is DAWA's error there? (20% tolerance)",
        _dawa_error,
        "Compute identity's error from the formula, then scale it by DAWA's ratio in the table.",
        "2 × (256 + 2)/(3 × 0.1²) = {identity:,.0f} per range query for identity. The table puts the default "
        "DAWA (LAB_1B) at {ratio:.2f} of that on the uniform shape: about {err:,.0f} rows^2 (the key uses "
        "the simulated ratio, {ratio:.3f}).",
        rel_tol=0.20,
        printed=True,
        mistakes=(
            Mistake(lambda: data_independent_error("identity", 0.1),
                    "that is identity's own error; the table gives DAWA's as a ratio to it."),
            Mistake(lambda: _dawa_error() * 0.1,
                    "check the power of eps: identity's error grows as 1/eps²."),
        ),
        values=lambda: {"identity": data_independent_error("identity", 0.1),
                        "ratio": relative_errors("uniform")[EPSILONS.index(0.1)], "err": _dawa_error()},
    ),
    Exercise(
        "09.4",
        "A database of 5 heights (m): 1.55, 1.68, 1.68, 1.68, 1.80, clipped to [1.0, 2.2]. What is the "
        "local sensitivity of its lower median after one of the 1.68 is replaced by 1.75?",
        lambda: median_local_sensitivity(_FIVE, LOW, HIGH),
        "Sort the new database and find the lower median's rank m; local sensitivity looks at the values "
        "next to it.",
        "Sorted: 1.55, 1.68, 1.68, 1.75, 1.80; m = 3, the median is 1.68 with neighbours 1.68 and 1.75: "
        "LS = max(1.68 - 1.68, 1.75 - 1.68) = {ls:.2f} m. Before the change it was 0: noise scaled to LS "
        "would be 0 on one database and not on its neighbour.",
        mistakes=(
            Mistake(lambda: median_local_sensitivity(PAIR[0], LOW, HIGH),
                    "that is the local sensitivity before the replacement; sort the new database."),
            Mistake(lambda: median_local_sensitivity(PAIR[1], LOW, HIGH),
                    "that is section 4's pair, where the 1.68 became 1.80; here it becomes 1.75."),
            Mistake(lambda: median_global_sensitivity(LOW, HIGH),
                    "that is the global sensitivity hi - lo; local sensitivity looks at this database only."),
        ),
        values=lambda: {"ls": median_local_sensitivity(_FIVE, LOW, HIGH)},
    ),
    Exercise(
        "09.5",
        "12,579 students: 6,189 are 1.60 m tall, 201 are 1.68 m and 6,189 are 1.80 m. The median is "
        "1.68 m and its local sensitivity is 0. At least how many students must change their height "
        "before it can be positive?",
        lambda: median_distance_to_leak(_TIE, LOW, HIGH),
        "Find the median's rank and the ranks the 1.68 m block covers. Which ranks does local "
        "sensitivity look at, and what has to reach them?",
        "The median's rank is m = (12,579 + 1)/2 = {m:,}; the block covers ranks {first:,} to {last:,}. LS "
        "becomes positive once a value other than 1.68 reaches rank m - 1 or m + 1. From above, the "
        "{k} students at ranks m + 1 to {last:,} must all become taller: {k} replacements (from below, as "
        "many). So A_k = 0 for k < {k}, and smooth sensitivity weighs A_{k} by e^(-{k} beta). On the real "
        "heights the same count is {real}.",
        rel_tol=0.0,
        mistakes=(
            Mistake(lambda: median_distance_to_leak(heights(), LOW, HIGH),
                    "that is the count for the real heights of section 4; this block is placed differently."),
            Mistake(lambda: float(np.sum(_TIE == 1.68)),
                    "not the whole block has to change: only the part between the median and one end of it."),
        ),
        values=lambda: {"m": (_TIE.size + 1) // 2, "first": _block_ranks()[0], "last": _block_ranks()[-1],
                        "k": median_distance_to_leak(_TIE, LOW, HIGH),
                        "real": median_distance_to_leak(heights(), LOW, HIGH)},
    ),
    Exercise(
        "09.6",
        "At eps = 0.1 and delta = 1e-5, what is beta of the smooth-sensitivity release (NRS07, Laplace)?",
        lambda: smooth_beta(0.1, 1e-5),
        "Section 4 gives beta for the Laplace release in terms of eps and delta; mind which delta.",
        "beta = eps/(2 ln(2/delta)): ln(2/1e-5) = {log:.3f}, so beta = 0.1/{den:.3f} = {beta:.5f}.",
        mistakes=(
            Mistake(lambda: smooth_beta(0.1, DELTA),
                    "that is the beta of section 4's table, at delta = 1e-6; this one is 1e-5."),
            Mistake(lambda: smooth_beta(2 * 0.1, 1e-5),
                    "you dropped the 2 of the denominator 2 ln(2/delta)."),
        ),
        values=lambda: {"log": math.log(2 / 1e-5),
                        "den": 2 * math.log(2 / 1e-5), "beta": smooth_beta(0.1, 1e-5)},
    ),
    Exercise(
        "09.7",
        "The lab's DAWA adds Laplace noise to every candidate interval's cost, single bins included. Why "
        "single bins too? proof: the privacy proof needs it; sensitivity: a "
        "singleton's cost changes by up to 2 when a row is added; not_needed: privacy does not need it, "
        "it only helps the partition's utility.",
        lambda: "proof",
        "Section 1's privacy argument shifts the noise of one bucket. Which bucket, and what can it be?",
        "proof: the argument shifts the noise of the one bucket that holds the changed bin c, and that "
        "bucket may be a singleton; with no noise there, there is nothing to shift.",
        choices=("proof", "sensitivity", "not_needed"),
        explanations={
            "proof": "The shift argument moves the noise of the bucket holding the changed bin; every "
                     "partition holds c in some bucket, possibly a singleton, so that bucket needs noise.",
            "sensitivity": "Tempting, since the costs of candidates holding c change by up to 2; but a "
                           "singleton's dev is 0 on every database: its cost never changes.",
            "not_needed": "Tempting, since PUBLISHED leaves singletons without noise; but section 1 computes "
                          "that PUBLISHED then loses (k - 1) eps1 on one output: it is not eps1-DP.",
        },
    ),
    Exercise(
        "09.8",
        "Five heights (m): 1.60, 1.68, 1.68, 1.68, 1.75, clipped to [1.0, 2.2]. With beta = 0.5, what is "
        "the smooth sensitivity S* of their lower median (3 decimals)?",
        lambda: median_smooth_sensitivity(_SMOOTH, LOW, HIGH, 0.5),
        "Compute A_0, A_1, A_2, ... with section 4's formula (x_(0) and below are lo, x_(6) and above hi), "
        "weigh each A_k by e^(-k beta) and take the largest.",
        "m = 3. A_0 = LS = {a0:.2f}; A_1 = {a1:.2f}; A_2 = x_(3) - x_(0) = 1.68 - 1.0 = {a2:.2f}; A_3 = "
        "{a3:.2f}; "
        "A_4 = x_(5) - x_(0) = {a4:.2f}; A_5 = hi - lo = {a5:.1f} from there on. Weighted by e^(-k/2): "
        "{w1:.3f}, {w2:.3f}, {w3:.3f}, {w4:.3f}, {w5:.3f}, ...: S* = {a2:.2f} e^(-1) = {s:.3f} m, at k = 2.",
        rel_tol=0.005,
        mistakes=(
            Mistake(lambda: _a(2), "that is A_2 itself; weigh it by e^(-2 beta)."),
            Mistake(lambda: _a(1) * math.exp(-0.5),
                    "that is the k = 1 term; larger k reach larger A_k, and one of them weighs more."),
            Mistake(lambda: median_global_sensitivity(LOW, HIGH),
                    "that is the global sensitivity hi - lo, A_k for large k, before its weight."),
        ),
        values=lambda: {**{f"a{k}": _a(k) for k in range(6)},
                        **{f"w{k}": _a(k) * math.exp(-0.5 * k) for k in range(1, 6)},
                        "s": median_smooth_sensitivity(_SMOOTH, LOW, HIGH, 0.5)},
    ),
]
