"""DAWA's first stage: a private partition of the bins into nearly uniform buckets (Li, Hay,
Miklau & Wang, "A data- and workload-aware algorithm for range queries under differential
privacy", PVLDB 2014), and its second: the bucket totals measured by a strategy of notebook 3
and spread uniformly within each bucket. (The paper measures the totals with a binary hierarchy
over the buckets whose levels are weighted greedily for the workload, GreedyH; here identity or
notebook 3's hierarchy, so this DAWA is data-aware, not workload-aware.)

**Cost of a bucket** B (an interval of bins): its L1 deviation from uniform,
dev(B) = sum over i in B of |x_i - mean(x_B)| (the error of spreading B's total uniformly),
plus a penalty per bucket: 1/eps2, the expected absolute noise of measuring B's total with
Laplace at eps2 (exact for the identity strategy), and two noise scales of the costs against
the selection bias of a noisy minimum (``partition_penalty``; a penalty only steers utility,
never privacy). The best partition minimises the total cost over partitions into candidate
intervals; as in DAWA the candidates are the intervals whose length is a power of 2 (at every
offset), so the dynamic program takes O(k log k) steps.

**Privacy of the partition** (eps1-DP under add/remove). The argument is this module's own:
DAWA's paper states the stage's privacy in a theorem that could not be consulted when this
was written. Every candidate interval's cost, singletons included, gets independent noise
Z_B ~ Lap(b), b = 4/eps1, and the partition with the least noisy total is released. Adding
or removing one row changes one bin c, so only the costs of intervals containing c change,
each by at most 2 (1 - 1/|B|) < 2 (the bin moves by 1, the mean by 1/|B|). Every partition
holds c in exactly one bucket, so every partition's total moves by less than 2. Fix a
partition P* and the noise where it wins on x; on the neighbour x', move only the noise of
P*'s bucket B0 holding c, by v = (dev_B0(x) - dev_B0(x')) - 2 (|v| < 4), so that P*'s total
drops by exactly 2: partitions sharing B0 move with it and the others drop by less, so P*
still wins. The shift translates one coordinate of the noise, so
Pr_x'[P*] >= e^(-|v|/b) Pr_x[P*] >= e^(-eps1) Pr_x[P*], and the same from x' to x: report noisy
min with a score of sensitivity 2, at the general scale 2 * 2/eps1 (Dwork & Roth, Section
3.3). Ties have probability 0. This proof needs the singletons' noise: B0 may be a
singleton, whose cost never changes, so the shift has to move that singleton's own noise.
(DAWA's public code draws none for singletons; an argument without it would have to absorb
the change in the noise of the other intervals holding c, at a price growing with their
number, and it is not made here.)

**The whole** is eps1 + eps2 = eps-DP by sequential composition; the second stage is the
strategy's Laplace mechanism at eps2 on the bucket totals (a histogram over the released
buckets: sensitivity 1 for identity, the number of levels for the hierarchy).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import check_epsilon, check_nonnegative, check_positive_int, check_prior, check_rng
from dplab.range_queries.errors import all_range_total_error, n_ranges
from dplab.range_queries.histograms import check_histogram
from dplab.range_queries.strategies import range_strategy

__all__ = [
    "DawaErrors",
    "DawaRelease",
    "best_partition",
    "dawa",
    "dawa_errors",
    "dawa_partition",
    "dawa_releases",
    "interval_costs",
    "noiseless_partition",
    "partition_noise_scale",
    "partition_penalty",
    "spread",
    "spread_error",
    "spread_error_draws",
]


def _check_bins(x: ArrayLike) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    return check_histogram(x, x.size if x.ndim == 1 else -1)


class _SortedBlocks:
    """Every aligned block of 2^l bins (l = 0..h, the bins padded to 2^h), its values sorted,
    with running sums: the count and the sum of a window's values above a threshold are sums
    over the window's O(log L) canonical blocks, each found by one binary search (a merge-sort
    tree). The searches of all blocks of a level run at once on keys block * span + value."""

    def __init__(self, x: np.ndarray):
        height = max(1, (x.size - 1).bit_length())
        padded = np.zeros(1 << height)
        padded[: x.size] = x
        self.low = float(padded.min())
        self.span = float(padded.max() - self.low) + 1.0
        self.levels = []
        for level in range(height + 1):
            blocks = np.sort(padded.reshape(-1, 1 << level), axis=1)
            keys = (np.arange(blocks.shape[0])[:, None] * self.span + (blocks - self.low)).ravel()
            self.levels.append((keys, np.cumsum(blocks, axis=1), blocks.shape[1]))

    def above(self, level: int, block: np.ndarray, threshold: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(count, sum) of the values > threshold in the given blocks of one level."""
        keys, sums, width = self.levels[level]
        at = np.searchsorted(keys, block * self.span + (threshold - self.low), side="right") - block * width
        below = np.where(at > 0, sums[block, np.maximum(at - 1, 0)], 0.0)
        return width - at, sums[block, -1] - below


def interval_costs(x: ArrayLike) -> list[np.ndarray]:
    """dev(B) for every interval of length 2^j at every offset: entry j holds the k - 2^j + 1
    costs of the intervals starting at 0, 1, ...

    Since the deviations from the mean sum to 0, dev(B) = 2 (sum of the values above the mean
    - mean * their number); those come from the window's canonical blocks of a merge-sort
    tree, so all lengths together take O(k log^3 k) work, vectorised (0.5 s at k = 2^16).
    Exact up to rounding: a value within about 1e-16 * k * max(x) of a mean may be counted on
    the wrong side, which moves dev by no more than that."""
    x = _check_bins(x)
    blocks = _SortedBlocks(x)
    prefix = np.concatenate([[0.0], np.cumsum(x)])
    costs = []
    length = 1
    while length <= x.size:
        lo = np.arange(x.size - length + 1)
        hi = lo + length
        mean = (prefix[hi] - prefix[lo]) / length
        count, total = np.zeros(lo.size), np.zeros(lo.size)
        for level in range(len(blocks.levels)):  # climb from both ends, block by block
            width = 1 << level
            for from_left in (True, False):
                take = ((lo if from_left else hi) >> level) & 1 == 1
                take &= hi - lo >= width
                if take.any():
                    block = (lo[take] >> level) if from_left else (hi[take] >> level) - 1
                    c, s = blocks.above(level, block, mean[take])
                    count[take] += c
                    total[take] += s
                    if from_left:
                        lo = np.where(take, lo + width, lo)
                    else:
                        hi = np.where(take, hi - width, hi)
        costs.append(np.clip(2 * (total - mean * count), 0.0, None))
        length *= 2
    return costs


def _best_partitions(costs: list[np.ndarray], penalty: float) -> list[list[tuple[int, int]]]:
    """best_partition for many cost draws at once: costs[j] has shape (draws, k - 2^j + 1); the
    dynamic program runs over the bins with every draw as a vector, then each draw backtracks."""
    draws, k = costs[0].shape
    lengths = 1 << np.arange(len(costs))
    padded = np.full((draws, len(costs), k), np.inf)  # padded[:, j, s]: cost of [s, s + 2^j)
    for j, cost in enumerate(costs):
        padded[:, j, : cost.shape[1]] = cost
    best = np.zeros((draws, k + 1))
    choice = np.zeros((draws, k + 1), dtype=int)
    rows = np.arange(draws)[:, None]
    for i in range(1, k + 1):
        fit = lengths[lengths <= i]
        total = best[:, i - fit] + padded[rows, np.arange(fit.size), i - fit] + penalty
        pick = np.argmin(total, axis=1)  # the first minimum: the shortest last bucket on ties
        best[:, i] = total[rows[:, 0], pick]
        choice[:, i] = fit[pick]
    partitions = []
    for row in choice:
        buckets, i = [], k
        while i > 0:
            buckets.append((int(i - row[i]), int(i - 1)))
            i -= row[i]
        partitions.append(buckets[::-1])
    return partitions


def best_partition(costs: list[np.ndarray], penalty: float = 0.0) -> list[tuple[int, int]]:
    """The partition of the k bins into intervals of length 2^j (costs as from interval_costs,
    noisy or not) with the least total cost + penalty per bucket, by dynamic programming over
    prefixes: best[i] = min over j of best[i - 2^j] + cost_j[i - 2^j] + penalty. Returns the
    buckets as (first bin, last bin); ties go to the shorter last bucket."""
    return _best_partitions([np.asarray(c, dtype=float)[None, :] for c in costs], penalty)[0]


def partition_noise_scale(epsilon1: float) -> float:
    """b = 4 / eps1: the Laplace scale of each interval's noisy cost that makes the released
    partition eps1-DP (module docstring: a score of sensitivity 2, report noisy min)."""
    return 4.0 / check_epsilon(epsilon1, "epsilon1")


def partition_penalty(epsilon1: float, epsilon2: float, scales: float = 2.0) -> float:
    """The per-bucket charge of the partition: 1/eps2 (the expected absolute Laplace noise of
    the bucket's measured total) + ``scales`` noise scales b = 4/eps1 of the costs (2b: the lab's
    choice; notebook 9 compares b).

    The 2b corrects a selection bias: the least *noisy* total favours partitions of many
    buckets whose cost noise happened to be negative. On a flat histogram of 256 bins (every
    cost 0, so the buckets come from the noise alone) the partition has about 145 buckets
    with 1/eps2 alone, 81 with 1/eps2 + b and 29 with 1/eps2 + 2b (3 with 3b, which then
    merges real structure on the histograms of notebook 3). DAWA's code instead clamps every
    noisy cost at 0, which this module's privacy proof does not cover. The penalty is the same
    for every database, so it changes the utility, never the privacy."""
    scales = check_nonnegative(scales, "scales")
    return 1.0 / check_epsilon(epsilon2, "epsilon2") + scales * partition_noise_scale(epsilon1)


def _budgets(epsilon: float, share: float) -> tuple[float, float]:
    epsilon = check_epsilon(epsilon)
    share = check_prior(share, "share")
    return share * epsilon, (1 - share) * epsilon


def _noisy_partitions(x: np.ndarray, epsilon1: float, penalty: float, draws: int,
                      rng: np.random.Generator) -> list[list[tuple[int, int]]]:
    scale = partition_noise_scale(epsilon1)
    noisy = [c + rng.laplace(0.0, scale, (draws, c.size)) for c in interval_costs(x)]
    return _best_partitions(noisy, penalty)


def noiseless_partition(x: ArrayLike, epsilon: float, share: float = 0.25) -> list[tuple[int, int]]:
    """The partition DAWA's first stage aims at: the least *true* cost dev(B) + partition_penalty(eps1,
    eps2) per bucket, eps1 = share * epsilon, eps2 = (1 - share) * epsilon (``dawa_partition``
    without the cost noise; not private: for studying the second stage on a fixed partition)."""
    eps1, eps2 = _budgets(epsilon, share)
    return best_partition(interval_costs(x), partition_penalty(eps1, eps2))


def dawa_partition(x: ArrayLike, epsilon: float, share: float = 0.25, *, penalty: float | None = None,
                   rng=None) -> list[tuple[int, int]]:
    """The private partition: least noisy cost, noise Lap(4/eps1) on every candidate interval,
    eps1 = share * epsilon; per-bucket ``penalty`` (default partition_penalty(eps1, eps2), with
    eps2 = (1 - share) * epsilon). eps1-DP (module docstring) whatever the penalty."""
    x = _check_bins(x)
    eps1, eps2 = _budgets(epsilon, share)
    penalty = partition_penalty(eps1, eps2) if penalty is None else check_nonnegative(penalty, "penalty")
    return _noisy_partitions(x, eps1, penalty, 1, check_rng(rng))[0]


@dataclass(frozen=True)
class DawaRelease:
    """DAWA's output: the buckets, their noisy totals (after the strategy's inference) and the
    bin estimates (each bucket's total spread uniformly over its bins)."""

    buckets: list[tuple[int, int]]
    bucket_totals: np.ndarray
    estimate: np.ndarray


def _layout(buckets: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """Each bucket's first bin and its number of bins."""
    first = np.array([b[0] for b in buckets])
    return first, np.array([b[1] for b in buckets]) - first + 1


def spread(x: ArrayLike, buckets: list[tuple[int, int]], epsilon2: float, strategy: str = "identity", *,
           size: int | None = None, rng=None) -> tuple[np.ndarray, np.ndarray]:
    """DAWA's second stage on a given partition: the bucket totals measured by ``strategy`` at
    eps2 (least squares) and each spread uniformly over its bins. Returns (noisy bucket totals,
    bin estimates), with a leading axis of ``size`` independent runs when size is given."""
    x = _check_bins(x)
    starts, lengths = _layout(buckets)
    measured = range_strategy(strategy, len(buckets), include_root=False)
    totals = measured.reconstruct(measured.measure(np.add.reduceat(x, starts), epsilon2, rng=rng, size=size))
    return totals, np.repeat(totals / lengths, lengths, axis=-1)


def dawa(x: ArrayLike, epsilon: float, share: float = 0.25, strategy: str = "identity", *,
         penalty: float | None = None, rng=None) -> DawaRelease:
    """DAWA: ``dawa_partition`` at eps1 = share * eps, then the bucket totals measured by
    ``strategy`` (dplab.range_strategy: "identity" or "hierarchy", least squares) at
    eps2 = (1 - share) * eps and spread uniformly within each bucket. eps-DP in all."""
    return dawa_releases(x, epsilon, share, strategy, size=1, penalty=penalty, rng=rng)[0]


def dawa_releases(x: ArrayLike, epsilon: float, share: float = 0.25, strategy: str = "identity", *,
                  size: int, penalty: float | None = None, rng=None) -> list[DawaRelease]:
    """``size`` independent runs of ``dawa`` (each eps-DP on its own), the interval costs
    computed once and the dynamic programs run side by side: for simulating DAWA's error."""
    x = _check_bins(x)
    eps1, eps2 = _budgets(epsilon, share)
    penalty = partition_penalty(eps1, eps2) if penalty is None else check_nonnegative(penalty, "penalty")
    rng = check_rng(rng)
    partitions = _noisy_partitions(x, eps1, penalty, check_positive_int(size, "size"), rng)
    return [DawaRelease(buckets, *spread(x, buckets, eps2, strategy, rng=rng)) for buckets in partitions]


def spread_error(x: ArrayLike, buckets: list[tuple[int, int]], epsilon2: float) -> tuple[float, float]:
    """The exact error of DAWA's second stage on a *fixed* partition, identity strategy, summed
    over all k(k+1)/2 ranges: (bias^2, variance). With S the k x |buckets| matrix spreading each
    bucket's total uniformly (column B holds 1/|B| on B's bins) and t the true bucket totals,
    the estimate is S (t + z), z ~ Lap(1/eps2) per bucket, so for the all-range workload W
    E||W S (t + z) - W x||^2 = ||W (S t - x)||^2 + (2/eps2^2) ||W S||_F^2.
    Column B's term needs no matrix: its prefix sums rise from 0 to 1 in |B| = L equal steps,
    then stay at 1 over the r bins after B, so (all_range_total_error's identity)
    ||W s_B||^2 = (k + 1) ((L + 1)(2L + 1)/(6L) + r) - ((L + 1)/2 + r)^2.
    Given the partition this is DAWA's error split into the merging error (bias^2) and the
    totals' noise (variance); DAWA's whole error has no closed form: the partition is random."""
    x = _check_bins(x)
    epsilon2 = check_epsilon(epsilon2, "epsilon2")
    first, length = _layout(buckets)
    after = x.size - first - length
    totals = np.add.reduceat(x, first)
    bias = float(all_range_total_error(np.repeat(totals / length, length) - x))
    length = length.astype(float)
    rise = (length + 1) * (2 * length + 1) / (6 * length)
    column = (x.size + 1) * (rise + after) - ((length + 1) / 2 + after) ** 2
    return bias, 2.0 / epsilon2**2 * float(column.sum())


def spread_error_draws(x: ArrayLike, buckets: list[tuple[int, int]], epsilon2: float, *, size: int,
                       rng=None) -> np.ndarray:
    """The error per range query, sum over all k(k+1)/2 ranges of (estimate - truth)^2 / (k(k+1)/2),
    of ``size`` drawn runs of ``spread`` (identity) on the fixed partition ``buckets``: their mean
    estimates ``spread_error``'s (bias^2 + variance) / (k(k+1)/2)."""
    x = _check_bins(x)
    _, estimates = spread(x, buckets, epsilon2, size=check_positive_int(size, "size"), rng=rng)
    return all_range_total_error(estimates - x) / n_ranges(x.size)


@dataclass(frozen=True)
class DawaErrors:
    """DAWA's error per range query over R runs (identity on the totals). Given a run's partition P
    the second stage's expected error is exact (:func:`spread_error`): ``merging`` (the bias^2
    given P, from spreading each bucket's true total evenly) + ``noise`` (the variance given P, from
    the totals' Laplace noise), one value each per run; their sum's mean over the runs estimates
    DAWA's error E_P[merging + noise] (only the partition is simulated, the totals' noise is
    integrated exactly). ``simulated`` holds each run's actual error, its totals' noise drawn (for
    the check that the two agree); ``bucket_counts`` each run's number of buckets; ``example`` the
    first run."""

    merging: np.ndarray
    noise: np.ndarray
    simulated: np.ndarray
    bucket_counts: np.ndarray
    example: DawaRelease

    @property
    def buckets(self) -> float:
        """The mean number of buckets over the runs."""
        return float(self.bucket_counts.mean())

    @property
    def per_run(self) -> np.ndarray:
        """merging + noise of each run: its exact expected error given its partition."""
        return self.merging + self.noise

    @property
    def mean(self) -> float:
        return float(self.per_run.mean())


def dawa_errors(x: ArrayLike, epsilon: float, share: float = 0.25, *, size: int,
                penalty: float | None = None, rng=None) -> DawaErrors:
    """``size`` runs of :func:`dawa` (identity) on ``x``, each run's error per range query split
    exactly given its partition (:class:`DawaErrors`)."""
    x = _check_bins(x)
    runs = dawa_releases(x, epsilon, share, size=size, penalty=penalty, rng=rng)
    eps2 = _budgets(epsilon, share)[1]
    split = np.array([spread_error(x, r.buckets, eps2) for r in runs]) / n_ranges(x.size)
    simulated = all_range_total_error(np.array([r.estimate for r in runs]) - x) / n_ranges(x.size)
    return DawaErrors(split[:, 0], split[:, 1], simulated, np.array([len(r.buckets) for r in runs]), runs[0])
