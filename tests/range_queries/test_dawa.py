"""DAWA's partition: the costs and the dynamic program against brute force, the privacy of the
released partition by an audit (which fails when the noise is too small), and the release."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import dplab
from dplab.range_queries import (
    LAB_1B,
    LAB_2B,
    DawaPartition,
    best_partition,
    dawa,
    dawa_partition,
    dawa_releases,
    interval_costs,
    partition_noise_scale,
    partition_penalty,
    spread_error,
)

#: the module (dplab.range_queries.dawa is the function of the same name)
dawa_module = importlib.import_module("dplab.range_queries.dawa")


def dyadic_partitions(k: int):
    """Every partition of k bins into intervals whose lengths are powers of 2, by enumeration."""
    if k == 0:
        yield []
        return
    length = 1
    while length <= k:
        for rest in dyadic_partitions(k - length):
            yield [length, *rest]
        length *= 2


def test_interval_costs_are_the_l1_deviations():
    x = np.random.default_rng(1).integers(0, 9, 13).astype(float)
    costs = interval_costs(x)
    assert len(costs) == 4  # lengths 1, 2, 4, 8
    for j, cost in enumerate(costs):
        length = 2**j
        for start in range(13 - length + 1):
            b = x[start:start + length]
            assert cost[start] == pytest.approx(sum(abs(v - b.mean()) for v in b))


@pytest.mark.parametrize("k", [1, 5, 8, 11])
def test_best_partition_is_the_least_cost_dyadic_partition(k):
    rng = np.random.default_rng(k)
    for _ in range(20):
        costs = [rng.normal(0, 1, k - 2**j + 1) for j in range(k.bit_length())]
        penalty = float(rng.uniform(0, 1))

        def total(lengths, costs=costs, penalty=penalty):
            starts = np.cumsum([0, *lengths[:-1]])
            return sum(costs[int(np.log2(n))][s] + penalty for s, n in zip(starts, lengths, strict=True))

        best = min(dyadic_partitions(k), key=total)
        got = best_partition(costs, penalty)
        assert [b - a + 1 for a, b in got] == best
        assert got[0][0] == 0 and got[-1][1] == k - 1


def test_noiseless_partition_finds_the_uniform_pieces():
    x = np.repeat([5.0, 40.0, 0.0, 12.0], [4, 8, 2, 2])
    costs = interval_costs(x)
    assert best_partition(costs, penalty=1.0) == [(0, 3), (4, 11), (12, 13), (14, 15)]


def _codes(x, scale, runs, seed, share=0.5, epsilon=1.0):
    """The partitions released in ``runs`` runs, as integers (the bitmask of bucket starts)."""
    rng = np.random.default_rng(seed)
    costs = interval_costs(x)
    penalty = 1.0 / ((1 - share) * epsilon)
    out = np.empty(runs, dtype=np.int64)
    for r in range(runs):
        noisy = [c + rng.laplace(0.0, scale, c.size) for c in costs]
        out[r] = sum(1 << a for a, _ in best_partition(noisy, penalty))
    return out


@pytest.mark.statistical
def test_the_released_partition_is_eps1_dp_by_an_audit_that_can_fail():
    """x = (0, 2) and x' = (0, 3) differ by one row. With penalty 2 the two partitions tie on x,
    and on x' one row tips the balance: the pair where one bucket's cost moves most. With
    b = 4/eps1 the audit's 99% lower bound on eps stays below eps1; with a twentieth of that
    noise it exceeds eps1, so the check can fail (the audit cannot see a factor of 2: the
    report-noisy-min argument is not tight for every pair)."""
    x, x_prime = np.array([0.0, 2.0]), np.array([0.0, 3.0])
    eps1 = 0.5
    b = partition_noise_scale(eps1)
    for scale, refuted in ((b, False), (b / 20, True)):
        def sampler(data, size, rng, scale=scale):
            return _codes(data, scale, size, int(rng.integers(2**31)))

        audit = dplab.audit.audit_epsilon(sampler, x, x_prime, n_runs=20_000, n_pilot=5_000, confidence=0.99,
                                    rng=np.random.default_rng(7))
        assert (audit.epsilon_lower > eps1) == refuted, (scale, audit)


def test_dawa_release_spreads_the_bucket_totals():
    x = dplab.height_histogram(64)
    release = dawa(x, 1.0, share=0.25, strategy="identity", rng=3)
    assert release.estimate.size == 64
    for (a, b), total in zip(release.buckets, release.bucket_totals, strict=True):
        assert np.allclose(release.estimate[a:b + 1], total / (b - a + 1))
    hierarchy = dawa(x, 1.0, share=0.25, strategy="hierarchy", rng=3)
    assert hierarchy.estimate.sum() == pytest.approx(hierarchy.bucket_totals.sum())


def test_bad_input():
    with pytest.raises(ValueError, match=r"share must be in \(0, 1\), got share=1.0"):
        dawa_partition([1, 2], 1.0, share=1.0)
    with pytest.raises(ValueError, match="non-empty"):
        dawa_partition([], 1.0)
    with pytest.raises(ValueError, match="x"):
        dawa_partition([1, -2], 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        dawa([1, 2], 0.0)
    assert dawa_module.__all__


@pytest.mark.parametrize("k", [1, 2, 3, 64, 777, 1000])
def test_the_merge_sort_tree_costs_equal_the_sliding_window_sums(k):
    """interval_costs (by canonical blocks) against |window - its mean| summed directly."""
    from numpy.lib.stride_tricks import sliding_window_view

    rng = np.random.default_rng(k)
    for x in (rng.integers(0, 50, k).astype(float), rng.random(k) * 10, np.zeros(k)):
        for j, cost in enumerate(interval_costs(x)):
            windows = sliding_window_view(x, 2**j)
            direct = np.abs(windows - windows.mean(axis=1, keepdims=True)).sum(axis=1)
            np.testing.assert_allclose(cost, direct, atol=1e-9, rtol=1e-12)


def test_many_draws_side_by_side_equal_one_at_a_time():
    rng = np.random.default_rng(4)
    x = rng.integers(0, 30, 37).astype(float)
    noisy = [c + rng.laplace(0.0, 5.0, (6, c.size)) for c in interval_costs(x)]
    together = dawa_module._best_partitions(noisy, 2.0)
    assert together == [best_partition([c[d] for c in noisy], 2.0) for d in range(6)]


def test_the_penalty_counters_the_noisy_minimums_pull_to_many_buckets():
    """On a flat histogram every cost is 0, so the buckets come from the noise alone. Charging
    only 1/eps2 per bucket leaves over half the bins in their own bucket (partition_penalty's
    docstring: about 145 of 256); one noise scale more per bucket leaves about 81, two about
    29. 40 draws each: the counts' standard deviation is at most about 6, so the margins below
    are over 3 standard errors of a single draw and far more of the mean."""
    x = np.full(256, 10.0)
    eps, share = 1.0, 0.25
    b = partition_noise_scale(share * eps)
    means = [np.mean([len(r.buckets) for r in dawa_releases(x, eps, size=40, share=share, rng=7,
                                                            partition=p)])
             for p in (DawaPartition("lab", True, 0.0, False), LAB_1B, LAB_2B)]
    assert b == 16
    assert 125 <= means[0] <= 165
    assert 61 <= means[1] <= 101
    assert 12 <= means[2] <= 46
    assert partition_penalty(0.25, 0.75) == pytest.approx(1 / 0.75 + 32)
    assert partition_penalty(0.25, 0.75, scales=1) == pytest.approx(1 / 0.75 + 16)
    with pytest.raises(ValueError, match="scales"):
        partition_penalty(0.25, 0.75, scales=-1)


def test_releases_are_estimates_of_the_right_shape_and_total():
    x = np.repeat([5.0, 40.0, 0.0, 12.0], [4, 8, 2, 2])
    runs = dawa_releases(x, 1e6, size=5, partition=DawaPartition("lab", True, 20.0, False), rng=1)
    assert len(runs) == 5
    for r in runs:  # almost no noise: the uniform pieces come back exactly
        assert r.buckets == [(0, 3), (4, 11), (12, 13), (14, 15)]
        np.testing.assert_allclose(r.estimate, x, atol=1e-3)
    with pytest.raises(ValueError, match="size"):
        dawa_releases(x, 1.0, size=0)
    with pytest.raises(ValueError, match="penalty"):
        DawaPartition("lab", True, -1.0, False)
    with pytest.raises(ValueError, match="noise_scale"):
        DawaPartition("paper", True, 1.0, False)
    with pytest.raises(ValueError, match="partition must be a DawaPartition"):
        dawa_partition(x, 1.0, partition="LAB_1B")


def test_spread_error_against_every_range_by_hand():
    """Bias: each range's error of the spread true totals; variance: each bucket's Laplace
    noise (variance 2/eps2^2) enters a range weighted by the share of its bins inside."""
    x = np.array([5.0, 1, 0, 0, 7, 7, 7, 9, 3])
    buckets = [(0, 1), (2, 3), (4, 7), (8, 8)]
    eps2 = 0.7
    spread = np.concatenate([np.full(b - a + 1, x[a:b + 1].mean()) for a, b in buckets])
    bias = variance = 0.0
    for i in range(9):
        for j in range(i, 9):
            bias += (spread[i:j + 1].sum() - x[i:j + 1].sum()) ** 2
            for a, b in buckets:
                inside = max(0, min(b, j) - max(a, i) + 1)
                variance += 2 / eps2**2 * (inside / (b - a + 1)) ** 2
    got = spread_error(x, buckets, eps2)
    assert got == pytest.approx((bias, variance), rel=1e-12)


def test_spread_error_closed_form_equals_the_dense_spread_matrix():
    """The variance term's closed form per bucket against ||W S||_F^2 with S built as a matrix, on
    random partitions of k = 1..40 bins (buckets at the ends, singletons, one bucket of all)."""
    rng = np.random.default_rng(11)
    for k in range(1, 41):
        x = rng.integers(0, 30, k).astype(float)
        cuts = np.flatnonzero(rng.random(k - 1) < 0.3) + 1
        edges = np.concatenate([[0], cuts, [k]])
        buckets = [(int(a), int(b) - 1) for a, b in zip(edges[:-1], edges[1:], strict=True)]
        spread = np.zeros((len(buckets), k))
        for row, (a, b) in enumerate(buckets):
            spread[row, a:b + 1] = 1.0 / (b - a + 1)
        totals = np.array([x[a:b + 1].sum() for a, b in buckets])
        dense = (float(dplab.all_range_total_error(totals @ spread - x)),
                 2 / 0.3**2 * float(np.sum(dplab.all_range_total_error(spread))))
        assert spread_error(x, buckets, 0.3) == pytest.approx(dense, rel=1e-12, abs=1e-9), k


@pytest.mark.statistical
def test_each_runs_exact_error_given_its_partition_is_what_its_drawn_noise_gives():
    """catches: a merging/noise split that does not add up to DAWA's error (a variance without the
    factor 2, a bias taken around the runs' mean): over the runs, the drawn error minus the exact
    conditional one has mean 0 (a paired 99.9% interval)."""
    x = dplab.synthetic_histogram("zipf", 64, total=2000, rng=3)
    errors = dawa_module.dawa_errors(x, 0.5, size=400, rng=9, partition=LAB_2B)
    assert errors.merging.shape == errors.noise.shape == errors.simulated.shape == (400,)
    assert np.all(errors.merging >= 0) and np.all(errors.noise > 0)
    assert dplab.mean_ci(errors.simulated - errors.per_run, 0.999).contains(0.0)
    assert errors.mean == pytest.approx(np.mean(errors.per_run)) and errors.example.buckets


def test_the_noiseless_partition_is_the_least_true_cost_plus_the_penalty_by_enumeration():
    """catches: eps1 and eps2 swapped in the noiseless partition's penalty (1/eps2 + 2 * 4/eps1); by
    enumerating every dyadic partition with dev(B) computed directly."""
    rng = np.random.default_rng(5)
    for k, eps, share in ((8, 1.0, 0.25), (11, 0.5, 0.25), (8, 2.0, 0.6), (12, 4.0, 0.1)):
        x = rng.integers(0, 30, k).astype(float)
        penalty = 1 / ((1 - share) * eps) + 2 * 4 / (share * eps)

        def total(lengths, x=x, penalty=penalty):
            starts = np.cumsum([0, *lengths[:-1]])
            return sum(np.abs(x[s:s + n] - x[s:s + n].mean()).sum() + penalty
                       for s, n in zip(starts, lengths, strict=True))

        got = dawa_module.noiseless_partition(x, eps, share=share, partition=LAB_2B)
        assert total([b - a + 1 for a, b in got]) == pytest.approx(min(map(total, dyadic_partitions(k))))


def test_the_drawn_second_stage_errors_sum_every_range_by_hand():
    """catches: drawn errors normalised by k instead of the k(k+1)/2 ranges (or not differenced from
    the truth); every range's squared error summed by loops over the same seeded draws."""
    x = np.array([3.0, 0.0, 5.0, 5.0, 1.0, 2.0, 8.0])
    buckets = [(0, 1), (2, 3), (4, 4), (5, 6)]
    got = dawa_module.spread_error_draws(x, buckets, 0.5, size=5, rng=3)
    _, estimates = dawa_module.spread(x, buckets, 0.5, size=5, rng=3)
    for run, est in zip(got, estimates, strict=True):
        by_hand = [(est[a:b + 1].sum() - x[a:b + 1].sum()) ** 2 for a in range(7) for b in range(a, 7)]
        assert run == pytest.approx(np.mean(by_hand), rel=1e-12)
