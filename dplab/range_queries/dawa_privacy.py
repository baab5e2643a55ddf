"""The privacy loss of DAWA's partition step under each preset's rules (dawa.DawaPartition), on a
pair of neighbouring histograms x' = x + e_c (one row added to bin c).

**The question.** The paper (Li, Hay, Miklau & Wang, PVLDB 2014, Section 3) releases the partition
with the least noisy total cost and states that this step is eps1-DP; PUBLISHED reads its noise as
Laplace scaled to dev's sensitivity, 2 (1 - 1/|B|)/eps1 (none for a singleton, whose dev is always
0). The paper's own wording of the theorem could not be consulted when this was written (only its
abstract was at hand); the reading follows dpcomp_core's code, the authors' implementation, which
uses (2 - 1/L - 1/k)/eps1 on intervals of length L >= 2 and clamps each noisy cost at 0 (DPCOMP).
Neither is eps1-DP, and the refutation below holds for any scale of order 2/eps1 without noise on
singletons.

**The refuting event: every bin its own bucket.** Without noise on singletons, that partition's
total is k * p (p the per-bucket charge), with no noise. It wins iff every candidate B of L >= 2
bins has noisy cost > (L - 1) p: if one has not, the partition holding B and singletons elsewhere
beats it; if all have, every partition's extra over k p is a sum of positive terms. So, exactly,
Pr[singletons] = prod over B, L >= 2, of Pr[dev_B(x) + Z_B > (L - 1) p]
(clamping at 0 changes nothing: (L - 1) p > 0). Adding a row to bin c raises dev of every
candidate holding c by up to 2 (1 - 1/L), all at once. For x = 0 and x' = e_c with p >= 1 each
factor lies in the Laplace tail, exactly exponential, so the ratio is exp(sum over B holding c of
dev_B(x')/b_B): with b_B = 2 (1 - 1/L)/eps1 every such candidate adds eps1. At k = 3, c = 1 the
loss is 2 eps1; at k = 8, c = 3 it is 7 eps1 (2 candidates of length 2, 4 of length 4, 1 of 8);
DPCOMP's larger scales give 12/7 eps1 and 6.15 eps1. The loss grows with the number of candidates
holding c: (k - 1) eps1 at the worst bin for k = 2..8; report-noisy-min fails because one
row moves many scores.

**The lab's rules** (LAB_2B, LAB_1B: Lap(4/eps1) on every candidate, singletons included) are
eps1-DP by the shift argument of dawa's module docstring; ``two_bin_loss`` computes the exact loss
at k = 2 for every rule, and ``partition_loss_audit`` bounds the loss from below on any pair by
simulation (Clopper-Pearson), which stays below eps1 for the lab's rules on every pair tried.
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import ArrayLike
from scipy import integrate, stats

from dplab._checks import check_epsilon, check_positive_int, check_probability, check_rng
from dplab.range_queries.dawa import (
    DawaPartition,
    _best_partitions,
    _check_bins,
    _check_partition,
    interval_costs,
    noisy_costs,
)
from dplab.simulate import Estimate, proportion_ci

__all__ = [
    "partition_loss_audit",
    "singletons_loss",
    "singletons_probability",
    "two_bin_loss",
    "worst_singletons_loss",
]


def _no_singleton_noise(partition: DawaPartition, k: int, epsilon1: float) -> np.ndarray:
    scales = _check_partition(partition).scales(k, epsilon1)
    if scales[0] > 0:
        raise ValueError("partition must put no noise on singletons for the closed form, "
                         f"got partition={partition}")
    return scales


def _log_singletons(x: np.ndarray, epsilon1: float, epsilon2: float, partition: DawaPartition) -> float:
    scales = _no_singleton_noise(partition, x.size, epsilon1)
    p = partition.charge(epsilon1, epsilon2)
    total = 0.0
    for j, cost in enumerate(interval_costs(x)[1:], start=1):
        total += stats.laplace.logsf((2**j - 1) * p - cost, scale=scales[j]).sum()
    return float(total)


def singletons_probability(x: ArrayLike, epsilon1: float, epsilon2: float, partition: DawaPartition) -> float:
    """Pr[the released partition puts every bin in its own bucket], exactly, for a rule with no
    noise on singletons (PUBLISHED, DPCOMP): the product over the candidates B of L >= 2 bins of
    Pr[dev_B(x) + Z_B > (L - 1) p], Z_B ~ Lap(b_B), p = partition.charge(eps1, eps2) (module
    docstring)."""
    x = _check_bins(x)
    return float(np.exp(_log_singletons(x, check_epsilon(epsilon1, "epsilon1"),
                                        check_epsilon(epsilon2, "epsilon2"), partition)))


def singletons_loss(x: ArrayLike, c: int, epsilon1: float, epsilon2: float,
                    partition: DawaPartition) -> float:
    """The exact privacy loss ln Pr_x'[singletons] - ln Pr_x[singletons] between x and x' = x + e_c
    (one row added to bin c) for a rule with no noise on singletons; eps1-DP needs |loss| <= eps1."""
    x = _check_bins(x)
    if not (isinstance(c, (int, np.integer)) and 0 <= c < x.size):
        raise ValueError(f"c must be a bin of x (0 to {x.size - 1}), got c={c!r}")
    epsilon1, epsilon2 = check_epsilon(epsilon1, "epsilon1"), check_epsilon(epsilon2, "epsilon2")
    x_prime = x.copy()
    x_prime[c] += 1
    after = _log_singletons(x_prime, epsilon1, epsilon2, partition)
    return after - _log_singletons(x, epsilon1, epsilon2, partition)


def worst_singletons_loss(k: int, epsilon1: float, epsilon2: float, partition: DawaPartition,
                          max_count: int = 2) -> tuple[float, tuple[float, ...], int]:
    """The largest |singletons_loss| over every histogram x of k bins with counts 0..max_count and
    every bin c: (loss, x, c). Exact (closed form per pair, every pair enumerated)."""
    k, max_count = check_positive_int(k, "k"), check_positive_int(max_count, "max_count")
    epsilon1, epsilon2 = check_epsilon(epsilon1, "epsilon1"), check_epsilon(epsilon2, "epsilon2")
    _no_singleton_noise(partition, k, epsilon1)
    logs = {x: _log_singletons(np.array(x, dtype=float), epsilon1, epsilon2, partition)
            for x in itertools.product(range(max_count + 2), repeat=k)}
    best = (0.0, (0.0,) * k, 0)
    for x in itertools.product(range(max_count + 1), repeat=k):
        for c in range(k):
            up = x[:c] + (x[c] + 1,) + x[c + 1:]
            loss = abs(logs[up] - logs[x])
            if loss > best[0]:
                best = (loss, tuple(float(v) for v in x), c)
    return best


def _merge_probability(dev: float, epsilon1: float, epsilon2: float, partition: DawaPartition) -> float:
    """k = 2: Pr[one bucket] = Pr[c01 < c0 + c1 + p] (the dynamic program keeps two buckets on a tie),
    c01 = dev + Z01 and c0, c1 = Z0, Z1 (0 without singleton noise), each clamped at 0 if asked."""
    scales = partition.scales(2, epsilon1)
    p = partition.charge(epsilon1, epsilon2)
    pair = stats.laplace(dev, scales[1])

    def below(t: float) -> float:  # Pr[c01 < t]
        return 0.0 if partition.clamp and t <= 0 else float(pair.cdf(t))

    if scales[0] == 0:
        return below(p)
    single = stats.laplace(0.0, scales[0])
    if partition.clamp:  # c0 = max(Z0, 0): an atom of 1/2 at 0, the density above
        def inner(z0: float) -> float:
            rest = 0.5 * below(max(z0, 0.0) + p)
            return rest + integrate.quad(lambda z1: single.pdf(z1) * below(max(z0, 0) + z1 + p), 0, np.inf)[0]
        atom = 0.5 * inner(0.0)
        return atom + integrate.quad(lambda z0: single.pdf(z0) * inner(z0), 0, np.inf)[0]
    # no clamping: c0 + c1 = S, the sum of two Laplace(b) with density (1 + |s|/b) e^(-|s|/b) / (4b)
    b = scales[0]

    def density(s: float) -> float:
        return (1 + abs(s) / b) * np.exp(-abs(s) / b) / (4 * b)

    return integrate.quad(lambda s: density(s) * below(s + p), -np.inf, np.inf, epsabs=1e-13, epsrel=1e-11)[0]


def two_bin_loss(x: ArrayLike, epsilon1: float, epsilon2: float, partition: DawaPartition) -> float:
    """The exact privacy loss of the partition step at k = 2 between x and x + e_c, the larger over
    both bins c and both outputs (one bucket, two buckets): max |ln Pr_x'[P] - ln Pr_x[P]|. The
    output is one bucket iff c01 < c0 + c1 + p, a one-dimensional event integrated numerically."""
    x = _check_bins(x)
    if x.size != 2:
        raise ValueError(f"x must have k = 2 bins, got k={x.size}")
    epsilon1, epsilon2 = check_epsilon(epsilon1, "epsilon1"), check_epsilon(epsilon2, "epsilon2")
    _check_partition(partition)
    merge = _merge_probability(abs(x[0] - x[1]), epsilon1, epsilon2, partition)
    worst = 0.0
    for c in range(2):
        x_prime = x.copy()
        x_prime[c] += 1
        merge_prime = _merge_probability(abs(x_prime[0] - x_prime[1]), epsilon1, epsilon2, partition)
        for a, b in ((merge, merge_prime), (1 - merge, 1 - merge_prime)):
            worst = max(worst, abs(np.log(b) - np.log(a)))
    return float(worst)


def _partition_codes(x: np.ndarray, epsilon1: float, epsilon2: float, partition: DawaPartition, runs: int,
                     rng: np.random.Generator, batch: int = 20_000) -> np.ndarray:
    """The released partitions of ``runs`` draws as integers (bit a set: a bucket starts at bin a)."""
    costs = interval_costs(x)
    codes = []
    for start in range(0, runs, batch):
        noisy = noisy_costs(costs, partition, epsilon1, min(batch, runs - start), rng)
        codes += [sum(1 << a for a, _ in buckets) for buckets in _best_partitions(noisy, partition.charge(
            epsilon1, epsilon2))]
    return np.array(codes, dtype=np.int64)


def partition_loss_audit(x: ArrayLike, c: int, epsilon1: float, epsilon2: float, partition: DawaPartition, *,
                         runs: int = 200_000, confidence: float = 0.99, rng=None) -> Estimate:
    """A lower confidence bound on the partition step's privacy loss between x and x' = x + e_c, by
    simulation: ``runs`` partitions released on each, and for every output P seen 20 times or more
    on either side, the Clopper-Pearson interval of each probability at confidence 1 - alpha/(2 m)
    (m outputs: Bonferroni, so all hold together with ``confidence``); the bound is the largest
    ln(low of the likelier side / high of the other). Estimate: the largest point estimate of |ln
    Pr_x'[P] - ln Pr_x[P]| over the outputs seen 100 times or more on both sides, and that bound
    (its high end is inf: an audit cannot bound the loss from above)."""
    x = _check_bins(x)
    if not (isinstance(c, (int, np.integer)) and 0 <= c < x.size):
        raise ValueError(f"c must be a bin of x (0 to {x.size - 1}), got c={c!r}")
    epsilon1, epsilon2 = check_epsilon(epsilon1, "epsilon1"), check_epsilon(epsilon2, "epsilon2")
    runs, confidence = check_positive_int(runs, "runs"), check_probability(confidence, "confidence")
    rng = check_rng(rng)
    x_prime = x.copy()
    x_prime[c] += 1
    a = _partition_codes(x, epsilon1, epsilon2, _check_partition(partition), runs, rng)
    b = _partition_codes(x_prime, epsilon1, epsilon2, partition, runs, rng)
    outputs, counts = np.unique(np.concatenate([a, b]), return_counts=True)
    outputs = outputs[counts >= 20]
    ka = np.array([np.count_nonzero(a == o) for o in outputs])
    kb = np.array([np.count_nonzero(b == o) for o in outputs])
    alpha = (1 - confidence) / (2 * max(outputs.size, 1))
    in_a, in_b = proportion_ci(ka, runs, 1 - 2 * alpha), proportion_ci(kb, runs, 1 - 2 * alpha)
    low_a, high_a, low_b, high_b = in_a.low, in_a.high, in_b.low, in_b.high
    with np.errstate(divide="ignore", invalid="ignore"):
        bound = np.nanmax(np.maximum(np.log(low_a / high_b), np.log(low_b / high_a)), initial=0.0)
        both = (ka >= 100) & (kb >= 100)
        point = np.max(np.where(both, np.abs(np.log(ka / np.maximum(kb, 1))), 0.0), initial=0.0)
    return Estimate(float(point), float(max(bound, 0.0)), float("inf"), confidence)
