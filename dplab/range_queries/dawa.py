"""DAWA with the LAB_1B partition by default (noise Lap(4/eps1) on every candidate, penalty 1/eps2 + b):
the best of the presets this module proves eps-DP (dawa_presets.preset_error_ratios). DAWA (Li, Hay,
Miklau & Wang, "A data- and workload-aware algorithm for range queries under differential privacy",
PVLDB 2014, arXiv:1410.0265): a private partition of the bins into nearly uniform buckets, then the
bucket totals measured by a strategy of notebook 3 and spread uniformly within each bucket. (The
paper measures the totals with GreedyH, a binary hierarchy over the buckets weighted greedily for
the workload: ``strategy="greedy_h"``; identity by default, as in notebook 9's figures.)

**The partition's rules** (``DawaPartition``): PUBLISHED (the lab's reconstruction of the paper's rule,
not checked against its text: noise scaled to each interval's cost sensitivity 2 (1 - 1/L)/eps1,
none on singletons, penalty 1/eps2), DPCOMP
(dpcomp_core's code: (2 - 1/L - 1/k)/eps1 on intervals of length >= 2, noisy costs clamped at 0,
penalty 1/eps2; the code's share is 0.5 in 1-D), LAB_2B (the lab's earlier rules: Lap(4/eps1) on
every candidate, penalty 1/eps2 + 2b, no clamping) and LAB_1B (the same, penalty 1/eps2 + b).
PUBLISHED and DPCOMP are not eps1-DP: ``dawa_privacy`` computes their loss exactly (2 eps1 and
12/7 eps1 at k = 3, 7 eps1 and 6.15 eps1 at k = 8).

**Cost of a bucket** B (an interval of bins): its L1 deviation from uniform, dev(B) = sum over i
in B of |x_i - mean(x_B)| (the error of spreading B's total uniformly), plus a penalty per bucket:
1/eps2, the expected absolute noise of measuring B's total with Laplace at eps2 (exact for the
identity strategy), and in the lab's rules one or two noise scales of the costs against the
selection bias of a noisy minimum (``partition_penalty``; a penalty only steers utility, never
privacy). The best partition minimises the total cost over partitions into candidate intervals; as
in DAWA the candidates are the intervals whose length is a power of 2 (at every offset), so the
dynamic program takes O(k log k) steps.

**Privacy of the partition under LAB_2B and LAB_1B** (eps1-DP under add/remove; this module's own
argument, since the paper's scale fails: ``dawa_privacy``). Every candidate interval's cost,
singletons included, gets independent noise Z_B ~ Lap(b), b = 4/eps1, and the partition with the
least noisy total is released. Adding or removing one row changes one bin c, so only the costs of
intervals containing c change, each by at most 2 (1 - 1/|B|) < 2 (the bin moves by 1, the mean by
1/|B|). Every partition holds c in exactly one bucket, so every partition's total moves by less
than 2. Fix a partition P* and the noise where it wins on x; on the neighbour x', move only the
noise of P*'s bucket B0 holding c, by v = (dev_B0(x) - dev_B0(x')) - 2 (|v| < 4), so that P*'s
total drops by exactly 2: partitions sharing B0 move with it and the others drop by less, so P*
still wins. The shift translates one coordinate of the noise, so Pr_x'[P*] >= e^(-|v|/b) Pr_x[P*]
>= e^(-eps1) Pr_x[P*], and the same from x' to x: report noisy min with a score of sensitivity 2,
at the general scale 2 * 2/eps1 (Dwork & Roth, Section 3.3). Ties have probability 0. This proof
needs the singletons' noise: B0 may be a singleton, whose cost never changes, so the shift has to
move that singleton's own noise. (Without it the price grows with the number of candidates holding
c: ``dawa_privacy``.) The per-bucket penalty is the same for every database, so the proof holds
for any penalty.

**The whole** is eps1 + eps2 = eps-DP by sequential composition; the second stage is the
strategy's Laplace mechanism at eps2 on the bucket totals (a histogram over the released
buckets: sensitivity 1 for identity, the number of levels for the hierarchy).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import (
    check_choice,
    check_epsilon,
    check_nonnegative,
    check_positive_int,
    check_prior,
    check_rng,
)
from dplab.range_queries.errors import all_range_total_error, all_ranges_gram, n_ranges
from dplab.range_queries.greedy_h import greedy_h
from dplab.range_queries.histograms import check_histogram
from dplab.range_queries.strategies import range_strategy

__all__ = [
    "DEFAULT",
    "DPCOMP",
    "LAB_1B",
    "LAB_2B",
    "NOISE_SCALES",
    "PRESETS",
    "PUBLISHED",
    "DawaErrors",
    "DawaPartition",
    "DawaRelease",
    "SECOND_STAGES",
    "best_partition",
    "bucket_gram",
    "dawa",
    "dawa_errors",
    "dawa_partition",
    "dawa_releases",
    "interval_costs",
    "noiseless_partition",
    "noisy_costs",
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
    """b = 4 / eps1: the Laplace scale of each interval's noisy cost in the lab's rules (LAB_2B,
    LAB_1B) that makes the released partition eps1-DP (module docstring: a score of sensitivity
    2, report noisy min)."""
    return 4.0 / check_epsilon(epsilon1, "epsilon1")


def partition_penalty(epsilon1: float, epsilon2: float, scales: float = 2.0) -> float:
    """The lab's per-bucket charge: 1/eps2 (the expected absolute Laplace noise of the bucket's
    measured total) + ``scales`` noise scales b = 4/eps1 of the costs (LAB_2B: 2, LAB_1B: 1).

    The b's correct a selection bias: the least *noisy* total favours partitions of many
    buckets whose cost noise happened to be negative. On a flat histogram of 256 bins (every
    cost 0, so the buckets come from the noise alone) the partition has about 145 buckets
    with 1/eps2 alone, 81 with 1/eps2 + b and 29 with 1/eps2 + 2b (3 with 3b, which then
    merges real structure on the histograms of notebook 3). DAWA's code instead clamps every
    noisy cost at 0 (DPCOMP). The penalty is the same for every database, so it changes the
    utility, never the privacy."""
    scales = check_nonnegative(scales, "scales")
    return 1.0 / check_epsilon(epsilon2, "epsilon2") + scales * partition_noise_scale(epsilon1)


#: the rules for the cost noise's Laplace scale of a candidate of L bins out of k, times eps1
NOISE_SCALES = ("lab", "sensitivity", "dpcomp")


@dataclass(frozen=True)
class DawaPartition:
    """The rules of DAWA's private partition step (presets PUBLISHED, DPCOMP, LAB_2B, LAB_1B).

    ``noise_scale``: the Laplace scale of a candidate of L bins (of k), times eps1: "lab" 4
    (this module's proof); "sensitivity" 2 (1 - 1/L), the sensitivity of dev(B) (the paper's
    rule as this module reads it, none on singletons); "dpcomp" 2 - 1/L - 1/k (dpcomp_core's
    cutil.cpp, L1partition_approx). ``singleton_noise``: whether singletons get noise (their
    dev is always 0). ``penalty``: per bucket, 1/eps2 + penalty * b with b = 4/eps1 ("lab") or
    2/eps1 (the others). ``clamp``: each noisy cost is clamped below at 0 (dpcomp_core)."""

    noise_scale: str
    singleton_noise: bool
    penalty: float
    clamp: bool

    def __post_init__(self):
        check_choice(self.noise_scale, NOISE_SCALES, "noise_scale")
        check_nonnegative(self.penalty, "penalty")

    def scales(self, k: int, epsilon1: float) -> np.ndarray:
        """The Laplace scale of the candidates of length 1, 2, 4, ... <= k (0: no noise)."""
        k, epsilon1 = check_positive_int(k, "k"), check_epsilon(epsilon1, "epsilon1")
        lengths = 1.0 * (1 << np.arange(k.bit_length()))
        if self.noise_scale == "lab":
            scales = np.full(lengths.size, partition_noise_scale(epsilon1))
        else:
            times = 2 * (1 - 1 / lengths) if self.noise_scale == "sensitivity" else 2 - 1 / lengths - 1 / k
            scales = times / epsilon1
        if not self.singleton_noise:
            scales[0] = 0.0
        return scales

    def charge(self, epsilon1: float, epsilon2: float) -> float:
        """The per-bucket penalty 1/eps2 + penalty * b (b = 4/eps1 for "lab", else 2/eps1)."""
        if self.noise_scale == "lab":
            return partition_penalty(epsilon1, epsilon2, self.penalty)
        epsilon1, epsilon2 = check_epsilon(epsilon1, "epsilon1"), check_epsilon(epsilon2, "epsilon2")
        return 1.0 / epsilon2 + 2.0 * self.penalty / epsilon1


#: the paper (Li et al. 2014) as this module reads it: Lap(2 (1 - 1/L)/eps1), penalty 1/eps2
PUBLISHED = DawaPartition("sensitivity", singleton_noise=False, penalty=0.0, clamp=False)
#: dpcomp_core's code: Lap((2 - 1/L - 1/k)/eps1) on intervals of length >= 2, clamped, penalty 1/eps2
DPCOMP = DawaPartition("dpcomp", singleton_noise=False, penalty=0.0, clamp=True)
#: the lab's earlier rules: Lap(4/eps1) on every candidate, penalty 1/eps2 + 2b, no clamping
LAB_2B = DawaPartition("lab", singleton_noise=True, penalty=2.0, clamp=False)
#: the same with one noise scale in the penalty: 1/eps2 + b
LAB_1B = DawaPartition("lab", singleton_noise=True, penalty=1.0, clamp=False)
#: every preset by name
PRESETS = {"PUBLISHED": PUBLISHED, "DPCOMP": DPCOMP, "LAB_2B": LAB_2B, "LAB_1B": LAB_1B}
#: the default: the best variant this module proves eps-DP (dawa_presets.preset_error_ratios)
DEFAULT = LAB_1B


def _check_partition(partition: object) -> DawaPartition:
    if not isinstance(partition, DawaPartition):
        raise ValueError(f"partition must be a DawaPartition (e.g. LAB_1B), got partition={partition!r}")
    return partition


def _budgets(epsilon: float, share: float) -> tuple[float, float]:
    epsilon = check_epsilon(epsilon)
    share = check_prior(share, "share")
    return share * epsilon, (1 - share) * epsilon


def noisy_costs(costs: list[np.ndarray], partition: DawaPartition, epsilon1: float, draws: int,
                rng: np.random.Generator) -> list[np.ndarray]:
    """``draws`` noisy copies of the interval costs (as from interval_costs) under ``partition``'s
    rules: each candidate's cost + Laplace at the scale for its length, clamped at 0 if asked.
    Entry j has shape (draws, k - 2^j + 1)."""
    scales = _check_partition(partition).scales(costs[0].size, epsilon1)
    noisy = [c + rng.laplace(0.0, 1.0, (draws, c.size)) * s for c, s in zip(costs, scales, strict=True)]
    return [np.maximum(c, 0.0) for c in noisy] if partition.clamp else noisy


def _noisy_partitions(x: np.ndarray, epsilon1: float, epsilon2: float, partition: DawaPartition, draws: int,
                      rng: np.random.Generator) -> list[list[tuple[int, int]]]:
    noisy = noisy_costs(interval_costs(x), partition, epsilon1, draws, rng)
    return _best_partitions(noisy, partition.charge(epsilon1, epsilon2))


def noiseless_partition(x: ArrayLike, epsilon: float, *, partition: DawaPartition = DEFAULT,
                        share: float = 0.25) -> list[tuple[int, int]]:
    """The partition DAWA's first stage aims at: the least *true* cost dev(B) + partition.charge(eps1,
    eps2) per bucket, eps1 = share * epsilon, eps2 = (1 - share) * epsilon (``dawa_partition``
    without the cost noise; not private: for studying the second stage on a fixed partition)."""
    eps1, eps2 = _budgets(epsilon, share)
    return best_partition(interval_costs(x), _check_partition(partition).charge(eps1, eps2))


def dawa_partition(x: ArrayLike, epsilon: float, *, partition: DawaPartition = DEFAULT, share: float = 0.25,
                   rng=None) -> list[tuple[int, int]]:
    """The private partition under ``partition``'s rules at eps1 = share * epsilon (eps2 = (1 -
    share) * epsilon sets the penalty). eps1-DP for LAB_2B and LAB_1B (module docstring); not for
    PUBLISHED and DPCOMP (dawa_privacy)."""
    x = _check_bins(x)
    eps1, eps2 = _budgets(epsilon, share)
    return _noisy_partitions(x, eps1, eps2, _check_partition(partition), 1, check_rng(rng))[0]


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


def bucket_gram(k: int, buckets: list[tuple[int, int]]) -> np.ndarray:
    """The all-range workload seen from the buckets: S^T (W^T W) S, S the k x |buckets| matrix that
    spreads each bucket's total uniformly (column B: 1/|B| on B's bins), W^T W = all_ranges_gram(k).
    Entry (A, B) is the mean of W^T W over A's bins x B's bins: GreedyH's workload (Li et al. 2014,
    Section 4: the workload mapped onto the partition)."""
    first, length = _layout(buckets)
    if first[0] != 0 or np.any(first[1:] != first[:-1] + length[:-1]) or first[-1] + length[-1] != k:
        raise ValueError(f"buckets must cover bins 0..{k - 1} in order, got buckets={buckets}")
    sums = np.add.reduceat(np.add.reduceat(all_ranges_gram(k), first, axis=0), first, axis=1)
    return sums / np.outer(length, length)


#: the second stage's strategies: notebook 3's, and GreedyH for the all-range workload
SECOND_STAGES = ("identity", "hierarchy", "greedy_h")


def spread(x: ArrayLike, buckets: list[tuple[int, int]], epsilon2: float, strategy: str = "identity", *,
           size: int | None = None, rng=None) -> tuple[np.ndarray, np.ndarray]:
    """DAWA's second stage on a given partition: the bucket totals measured by ``strategy`` at eps2
    (one of SECOND_STAGES: identity, notebook 3's binary hierarchy, or the paper's GreedyH for the
    all-range workload on the buckets, ``bucket_gram``; least squares) and each spread uniformly
    over its bins. Returns (noisy bucket totals, bin estimates), with a leading axis of ``size``
    independent runs when size is given."""
    x = _check_bins(x)
    check_choice(strategy, SECOND_STAGES, "strategy")
    starts, lengths = _layout(buckets)
    if strategy == "greedy_h":
        measured = greedy_h(bucket_gram(x.size, buckets)).strategy
    else:
        measured = range_strategy(strategy, len(buckets), include_root=False)
    totals = measured.reconstruct(measured.measure(np.add.reduceat(x, starts), epsilon2, rng=rng, size=size))
    return totals, np.repeat(totals / lengths, lengths, axis=-1)


def dawa(x: ArrayLike, epsilon: float, *, partition: DawaPartition = DEFAULT, share: float = 0.25,
         strategy: str = "identity", rng=None) -> DawaRelease:
    """DAWA, by default with the LAB_1B partition (the best preset proven eps-DP): ``dawa_partition``
    under ``partition``'s rules at eps1 = share * eps, then the bucket totals measured by
    ``strategy`` (SECOND_STAGES: "identity", "hierarchy" or the paper's "greedy_h"; least squares)
    at eps2 = (1 - share) * eps and spread uniformly within each bucket. eps-DP in all for LAB_1B
    and LAB_2B; PUBLISHED and DPCOMP's partitions are not eps1-DP (dawa_privacy)."""
    return dawa_releases(x, epsilon, size=1, partition=partition, share=share, strategy=strategy, rng=rng)[0]


def dawa_releases(x: ArrayLike, epsilon: float, *, size: int, partition: DawaPartition = DEFAULT,
                  share: float = 0.25, strategy: str = "identity", rng=None) -> list[DawaRelease]:
    """``size`` independent runs of ``dawa`` (each a release on its own), the interval costs
    computed once and the dynamic programs run side by side: for simulating DAWA's error."""
    x = _check_bins(x)
    eps1, eps2 = _budgets(epsilon, share)
    rng = check_rng(rng)
    size = check_positive_int(size, "size")
    partitions = _noisy_partitions(x, eps1, eps2, _check_partition(partition), size, rng)
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


def dawa_errors(x: ArrayLike, epsilon: float, *, size: int, partition: DawaPartition = DEFAULT,
                share: float = 0.25, rng=None) -> DawaErrors:
    """``size`` runs of :func:`dawa` (identity) on ``x``, each run's error per range query split
    exactly given its partition (:class:`DawaErrors`)."""
    x = _check_bins(x)
    runs = dawa_releases(x, epsilon, size=size, partition=partition, share=share, rng=rng)
    eps2 = _budgets(epsilon, share)[1]
    split = np.array([spread_error(x, r.buckets, eps2) for r in runs]) / n_ranges(x.size)
    simulated = all_range_total_error(np.array([r.estimate for r in runs]) - x) / n_ranges(x.size)
    return DawaErrors(split[:, 0], split[:, 1], simulated, np.array([len(r.buckets) for r in runs]), runs[0])
