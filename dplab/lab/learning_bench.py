"""The learner's bench rows (issue 32's goal), for notebook 12's lesson to register
(``dplab/lab/lessons/l12_*/bench.py``: ``from dplab.lab.learning_bench import ROWS``).

One epoch of DP-SGD over the 12,579 YRBSS students, per-example gradients and clipping included:
<= 50 ms. An epoch is ceil(1/q) steps of expected batch q n (each student sampled once per epoch on
average); timed as the median of 7 runs (:func:`dplab.lab.timing.median_time`) after one warm-up,
for an expected batch of 256 and of 64 (four times as many steps: the per-step overhead), at degree
1 (3 features) and 6 (28 features).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from dplab.lab.timing import median_time

__all__ = ["ROWS", "dpsgd_epoch", "dpsgd_epoch_rows"]


def dpsgd_epoch(batch: int = 256, degree: int = 1, seed: int = 0) -> Callable[[], object]:
    """A function that runs one DP-SGD epoch (sigma = 1, C = 1, q = batch / n, ceil(1/q) steps) on all
    12,579 students with ``degree`` polynomial features; the data are loaded once, outside it."""
    from dplab.learning import dpsgd, sex_task

    X, y = sex_task(degree=degree, rng=seed)
    q = batch / len(y)

    def epoch():
        return dpsgd(X, y, noise_multiplier=1.0, clip=1.0, sampling_rate=q, steps=math.ceil(1 / q), rng=seed)

    return epoch


def dpsgd_epoch_rows() -> list[tuple[str, str, str]]:
    """(measure, value, goal) rows: one epoch at expected batch 256 and 64, degree 1 and 6."""
    rows = []
    for degree in (1, 6):
        for batch in (256, 64):
            run = dpsgd_epoch(batch, degree)
            run()  # warm-up: imports, caches
            steps = math.ceil(12_579 / batch)
            rows.append((f"DP-SGD epoch, 12,579 students, degree {degree}, expected batch {batch} "
                         f"({steps} steps): median of 7", f"{median_time(run) * 1e3:.1f} ms", "<= 50 ms"))
    return rows


#: the rows ``make bench`` prints for notebook 12 (each function returns (measure, value, goal) rows)
ROWS = (dpsgd_epoch_rows,)
