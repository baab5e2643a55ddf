"""The privacy loss of DAWA's partition step under each preset: the closed form of the all-singletons
output against brute force (every dyadic partition enumerated), the exact losses against counts of
the candidates holding the changed bin, the two-bin loss against simulation, and the audit."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from dplab.range_queries import (
    DPCOMP,
    LAB_1B,
    LAB_2B,
    PUBLISHED,
    DawaPartition,
)
from dplab.range_queries.dawa_privacy import (
    partition_loss_audit,
    singletons_loss,
    singletons_probability,
    two_bin_loss,
    worst_singletons_loss,
)
from dplab.simulate import mean_ci


def candidates(k):
    """Every interval of power-of-2 length at every offset, as (start, length)."""
    return [(s, 2**j) for j in range(k.bit_length()) for s in range(k - 2**j + 1)]


def dyadic_partitions(k):
    if k == 0:
        yield ()
        return
    for length in (2**j for j in range(k.bit_length())):
        for rest in dyadic_partitions(k - length):
            yield ((0, length), *((s + length, n) for s, n in rest))


def scale_by_hand(rule: str, length: int, k: int, eps1: float) -> float:
    """The Laplace scale of a candidate of ``length`` bins as the presets are specified (issue 28):
    the paper, 2 (1 - 1/L)/eps1; dpcomp_core's cutil.cpp, (2 - 1/L - 1/k)/eps1 for L >= 2."""
    if length == 1:
        return 0.0
    return (2 * (1 - 1 / length) if rule == "published" else 2 - 1 / length - 1 / k) / eps1


@pytest.mark.statistical
@pytest.mark.catches("dawa_privacy.singletons_threshold")
@pytest.mark.parametrize("partition", [PUBLISHED, DPCOMP])
def test_the_singletons_probability_is_the_brute_force_argmin_frequency(partition):
    """catches: the all-singletons event's threshold L p for (L - 1) p. Brute force: draw every
    candidate's noise, total every dyadic partition of k = 5 bins by hand (clamped costs for DPCOMP),
    and count how often every bin alone is the least; 99.9% interval of the frequency."""
    rng = np.random.default_rng(3)
    x = np.array([0.0, 1.0, 1.0, 3.0, 0.0])
    eps1, eps2 = 2.0, 4.0
    k, cands = x.size, candidates(5)
    dev = np.array([np.abs(x[s:s + n] - x[s:s + n].mean()).sum() for s, n in cands])
    rule = "published" if partition is PUBLISHED else "dpcomp"
    scales = np.array([scale_by_hand(rule, n, k, eps1) for _, n in cands])
    noisy = dev + rng.laplace(size=(200_000, len(cands))) * scales
    if partition.clamp:
        noisy = np.maximum(noisy, 0.0)
    members = np.array([[b in p for b in cands] for p in dyadic_partitions(k)], dtype=float)
    totals = noisy @ members.T + members.sum(axis=1) / eps2
    singles = [i for i, p in enumerate(dyadic_partitions(k)) if len(p) == k][0]
    hit = (np.argmin(totals, axis=1) == singles).astype(float)
    assert mean_ci(hit, 0.999).contains(singletons_probability(x, eps1, eps2, partition))


@pytest.mark.catches("dawa.published_scale_no_2", "dawa.dpcomp_scale_no_k")
def test_the_exact_loss_counts_the_candidates_holding_the_changed_bin():
    """catches: the paper's scale (1 - 1/L)/eps1 for 2 (1 - 1/L)/eps1; dpcomp's without its 1/k. On
    x = 0 and x' = e_c with p >= 1, every candidate B holding c contributes dev_B(x')/b_B =
    2 (1 - 1/L)/b_B to the loss: eps1 each for PUBLISHED (2 eps1 at k = 3, 7 eps1 at k = 8, c = 3),
    summed by hand over the candidates for DPCOMP."""
    for k, c in ((3, 1), (8, 3), (6, 2)):
        for eps1 in (0.5, 1.0):
            holding = [n for s, n in candidates(k) if n > 1 and s <= c < s + n]
            for partition, rule in ((PUBLISHED, "published"), (DPCOMP, "dpcomp")):
                by_hand = sum(2 * (1 - 1 / n) / scale_by_hand(rule, n, k, eps1) for n in holding)
                got = singletons_loss(np.zeros(k), c, eps1, 1.0, partition)
                assert got == pytest.approx(by_hand, rel=1e-9)
            assert singletons_loss(np.zeros(k), c, eps1, 1.0, PUBLISHED) == pytest.approx(len(holding) * eps1)
    assert singletons_loss(np.zeros(3), 1, 1.0, 1.0, PUBLISHED) == pytest.approx(2.0)
    assert singletons_loss(np.zeros(8), 3, 1.0, 1.0, PUBLISHED) == pytest.approx(7.0)
    assert singletons_loss(np.zeros(3), 1, 1.0, 1.0, DPCOMP) == pytest.approx(12 / 7)


def test_the_worst_pair_enumerates_every_histogram():
    """The largest loss over x in {0, 1, 2}^3 and every bin is the middle bin of x = 0 (2 eps1), by
    enumerating the pairs here with singletons_loss."""
    loss, x, c = worst_singletons_loss(3, 1.0, 1.0, PUBLISHED, max_count=2)
    by_hand = max(abs(singletons_loss(np.array(y, dtype=float), b, 1.0, 1.0, PUBLISHED))
                  for y in itertools.product(range(3), repeat=3) for b in range(3))
    assert loss == pytest.approx(by_hand) and loss == pytest.approx(2.0)
    assert abs(singletons_loss(np.array(x), c, 1.0, 1.0, PUBLISHED)) == pytest.approx(loss)
    with pytest.raises(ValueError, match="no noise on singletons"):
        worst_singletons_loss(3, 1.0, 1.0, LAB_1B)


@pytest.mark.statistical
@pytest.mark.catches("dawa.singleton_noise_dropped")
@pytest.mark.parametrize("partition", [LAB_2B, LAB_1B, PUBLISHED, DPCOMP])
def test_the_two_bin_merge_probability_against_simulation(partition):
    """catches: the lab's rules without the singletons' noise. k = 2: one bucket iff
    c01 + p < c0 + c1 + 2p, simulated from the rule's definition (LAB: Lap(4/eps1) on all three;
    PUBLISHED: Lap(1/eps1) on the pair; DPCOMP: the same, clamped); the exact loss's two
    probabilities must lie in the frequencies' 99.9% intervals."""
    from dplab.range_queries import dawa_privacy

    rng = np.random.default_rng(5)
    eps1, eps2, draws = 1.0, 2.0, 400_000
    lab = partition.noise_scale == "lab"
    p = 1 / eps2 + (partition.penalty * 4 / eps1 if lab else 0.0)
    for x in ((0.0, 0.0), (3.0, 1.0)):
        dev = abs(x[0] - x[1])
        if lab:
            z = rng.laplace(0.0, 4 / eps1, (draws, 3))
            merge = dev + z[:, 2] < z[:, 0] + z[:, 1] + p
        else:
            pair = dev + rng.laplace(0.0, 1 / eps1, draws)
            merge = (np.maximum(pair, 0) if partition.clamp else pair) < p
        got = dawa_privacy._merge_probability(dev, eps1, eps2, partition)
        assert mean_ci(merge.astype(float), 0.999).contains(got), (x, got)


@pytest.mark.slow
def test_the_two_bin_loss_is_at_most_eps1_for_every_preset():
    """At k = 2 only one candidate holds more than one bin, so no preset exceeds eps1 there:
    PUBLISHED reaches it (x = (0, 0), p = 1/eps2 >= 1: the Laplace tail's ratio e^(1/b) = e^eps1)."""
    pairs = [np.array(x, dtype=float) for x in itertools.product(range(2), repeat=2)]
    for partition in (LAB_2B, LAB_1B, PUBLISHED, DPCOMP):
        worst = max(two_bin_loss(x, 1.0, 1.0, partition) for x in pairs)
        assert worst <= 1.0 + 1e-9, partition
    assert two_bin_loss(np.zeros(2), 1.0, 1.0, PUBLISHED) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="k = 2"):
        two_bin_loss(np.zeros(3), 1.0, 1.0, PUBLISHED)


@pytest.mark.slow
@pytest.mark.statistical
def test_the_audit_refutes_the_published_scale_and_not_the_labs():
    """The audit (99% Clopper-Pearson, Bonferroni over the outputs) on x = 0, x' = e_1 at k = 3,
    eps1 = 1: its lower bound exceeds eps1 for PUBLISHED (the exact loss is 2) and stays below for
    LAB_1B (eps1-DP by the proof). 100,000 runs a side."""
    refuted = partition_loss_audit(np.zeros(3), 1, 1.0, 1.0, PUBLISHED, runs=100_000, rng=2)
    assert 1.0 < refuted.low <= 2.0 + 1e-9 and refuted.estimate == pytest.approx(2.0, abs=0.15)
    lab = partition_loss_audit(np.zeros(3), 1, 1.0, 1.0, LAB_1B, runs=100_000, rng=2)
    assert lab.low < 1.0


def test_bad_input():
    with pytest.raises(ValueError, match="c must be a bin"):
        singletons_loss(np.zeros(3), 3, 1.0, 1.0, PUBLISHED)
    with pytest.raises(ValueError, match="epsilon1"):
        singletons_probability(np.zeros(3), 0.0, 1.0, PUBLISHED)
    with pytest.raises(ValueError, match="no noise on singletons"):
        singletons_probability(np.zeros(3), 1.0, 1.0, DawaPartition("lab", True, 1.0, False))
    with pytest.raises(ValueError, match="runs"):
        partition_loss_audit(np.zeros(3), 1, 1.0, 1.0, LAB_1B, runs=0)
