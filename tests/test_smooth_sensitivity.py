"""The median's local and smooth sensitivity, checked by brute force over every small database
on a grid, the smoothness property on random neighbours, and the release's noise scale."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import dplab
from dplab import smooth_sensitivity
from dplab.smooth_sensitivity import (
    median_global_sensitivity,
    median_local_sensitivity,
    median_release_smooth,
    median_sensitivity_at_distance,
    median_smooth_sensitivity,
    smooth_beta,
)

GRID = (0.0, 1.0, 2.0, 3.0, 4.0)


def lower_median(x) -> float:
    s = sorted(x)
    return s[(len(s) + 1) // 2 - 1]


def brute_local(x) -> float:
    """The most one replacement (by any grid value) moves the lower median."""
    return max(abs(lower_median(x[:i] + (v,) + x[i + 1:]) - lower_median(x))
               for i in range(len(x)) for v in GRID)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_sensitivity_at_distance_is_the_largest_local_sensitivity_nearby(n):
    """A_k(x) = max of LS over databases within k replacements, all databases on a 5-value grid."""
    databases = list(itertools.product(GRID, repeat=n))
    local = {x: brute_local(x) for x in databases}
    rng = np.random.default_rng(1)
    for x in [databases[i] for i in rng.choice(len(databases), 40, replace=False)]:
        for k in range(n + 1):
            nearby = max(local[y] for y in databases if sum(a != b for a, b in zip(x, y, strict=True)) <= k)
            assert median_sensitivity_at_distance(x, 0, 4, k) == nearby, (x, k)
        assert median_local_sensitivity(x, 0, 4) == local[x]


def test_smooth_sensitivity_is_the_max_over_distances_and_is_smooth():
    rng = np.random.default_rng(2)
    beta = 0.3
    for _ in range(200):
        n = int(rng.integers(1, 12))
        x = rng.integers(0, 5, n).astype(float)
        s = median_smooth_sensitivity(x, 0, 4, beta)
        direct = max(math.exp(-k * beta) * median_sensitivity_at_distance(x, 0, 4, k)
                     for k in range(n + 2))
        assert s == pytest.approx(direct, rel=1e-12)
        assert s >= median_local_sensitivity(x, 0, 4)
        y = x.copy()
        y[rng.integers(n)] = rng.integers(0, 5)  # a neighbour: one value replaced
        assert s <= math.exp(beta) * median_smooth_sensitivity(y, 0, 4, beta) * (1 + 1e-12)


def test_global_sensitivity_is_attained_by_a_neighbouring_pair():
    """high - low: 3 values at 0 and 4 at 4 (median 4); replace one 4 by 0: median 0."""
    x = [0, 0, 0, 4, 4, 4, 4]
    y = [0, 0, 0, 0, 4, 4, 4]
    assert lower_median(x) - lower_median(y) == median_global_sensitivity(0, 4) == 4.0


def test_ties_give_local_sensitivity_zero_and_a_neighbour_changes_it():
    """Why local sensitivity leaks: on tied data it is 0, one replacement makes it positive."""
    x = [1.0, 2.0, 2.0, 2.0, 3.0]
    assert median_local_sensitivity(x, 0, 4) == 0.0
    assert median_local_sensitivity([1.0, 2.0, 2.0, 3.0, 3.0], 0, 4) == 1.0


def test_release_scale_and_beta():
    x = np.repeat(np.arange(5.0), 20)
    beta = smooth_beta(1.0, 1e-6)
    assert beta == pytest.approx(1 / (2 * math.log(2e6)))
    scale = 2 * median_smooth_sensitivity(x, 0, 4, beta) / 1.0
    draws = median_release_smooth(x, 0, 4, 1.0, 1e-6, size=200_000, rng=3) - 2.0
    # the mean absolute error of Laplace(scale) is scale: 99.9% interval from the sample
    estimate = dplab.mean_ci(np.abs(draws), 0.999)
    assert estimate.contains(scale)


def test_bad_input():
    with pytest.raises(ValueError, match="low and high must be finite with low < high, got low=4, high=4"):
        median_smooth_sensitivity([1, 2], 4, 4, 0.1)
    with pytest.raises(ValueError, match="at least one value"):
        median_local_sensitivity([], 0, 1)
    with pytest.raises(ValueError, match="beta"):
        median_smooth_sensitivity([1, 2], 0, 4, 0.0)
    with pytest.raises(ValueError, match="delta must be in \\(0, 1\\) for smooth sensitivity, got delta=0.0"):
        smooth_beta(1.0, 0.0)
    with pytest.raises(ValueError, match="NaN"):
        median_local_sensitivity([1.0, float("nan")], 0, 4)


@pytest.mark.parametrize("beta", [0.002, 0.05, 1.0])
def test_divide_and_conquer_equals_the_direct_maximum_on_larger_data(beta):
    """300 values with ties and gaps: the O(n log n) search against max over every k of e^-k beta A_k."""
    rng = np.random.default_rng(4)
    x = np.round(rng.normal(2.0, 0.7, 300), 1)
    direct = max(math.exp(-k * beta) * median_sensitivity_at_distance(x, 0, 4, k) for k in range(302))
    assert median_smooth_sensitivity(x, 0, 4, beta) == pytest.approx(direct, rel=1e-12)


def _lower_median(values) -> float:
    ordered = sorted(values)
    return ordered[(len(ordered) + 1) // 2 - 1]


def test_the_distance_to_leak_is_the_first_k_with_a_positive_a_k():
    """catches: a bisection that stops one k early or late (the distance notebook 9 quotes)."""
    rng = np.random.default_rng(11)
    for _ in range(40):
        x = rng.integers(0, 4, size=int(rng.integers(3, 30))).astype(float)
        linear = next(k for k in range(x.size + 2)
                      if smooth_sensitivity.median_sensitivity_at_distance(x, 0, 4, k) > 0)
        assert smooth_sensitivity.median_distance_to_leak(x, 0, 4) == linear


def test_replace_one_neighbours_differ_in_exactly_one_value():
    x = np.array([1.0, 2.0, 2.0, 3.0])
    neighbours = smooth_sensitivity.replace_one_neighbours(x, [0.0, 4.0])
    assert len(neighbours) == 3 * 2  # three distinct values, two replacements each
    for y in neighbours:
        assert y.size == x.size and np.sum(np.sort(y) != y) == 0
        assert sum(abs(np.sum(y == v) - np.sum(x == v)) for v in np.union1d(x, y)) == 2
    assert len(smooth_sensitivity.replace_one_neighbours(x, [2.0], replaced=[2.0])) == 0
    with pytest.raises(ValueError, match="replaced must hold values of values"):
        smooth_sensitivity.replace_one_neighbours(x, [0.0], replaced=[5.0])


@pytest.mark.parametrize("neighbours", ["replace", "add_remove"])
def test_the_global_pair_moves_the_median_by_high_minus_low(neighbours):
    """catches: a witness pair that is not neighbouring (two values replaced, two rows added) or
    moves the median by less (an off-by-one in m = ceil(n/2)); medians here by sorting."""
    for n in range(1 if neighbours == "replace" else 2, 60, 1 if neighbours == "replace" else 2):
        x, y = smooth_sensitivity.median_global_pair(n, 1.0, 2.2, neighbours)
        assert abs(_lower_median(y) - _lower_median(x)) == pytest.approx(1.2)
        if neighbours == "replace":
            assert x.size == y.size == n  # one low became high, nothing else moved:
            assert np.sum(y == 2.2) - np.sum(x == 2.2) == 1 and np.sum(x == 1.0) - np.sum(y == 1.0) == 1
        else:
            assert y.size == x.size + 1 and np.array_equal(np.sort(y)[:-1], np.sort(x))
    with pytest.raises(ValueError, match="n must be even"):
        smooth_sensitivity.median_global_pair(3, 0, 1, "add_remove")
    with pytest.raises(ValueError, match="neighbours must be one of"):
        smooth_sensitivity.median_global_pair(3, 0, 1, "replace-one")


@pytest.mark.statistical
def test_the_smooth_release_rmse_is_its_simulated_error():
    """catches: the rmse of the smooth release without its factor 2 (NRS07's 2 S*/eps scale)."""
    x = np.round(np.random.default_rng(3).normal(1.7, 0.1, 301), 2)
    rmse = smooth_sensitivity.median_smooth_release_rmse(x, 1.0, 2.2, 0.5, 1e-6)
    errors = smooth_sensitivity.median_release_smooth(x, 1.0, 2.2, 0.5, 1e-6, size=200_000, rng=5) \
        - _lower_median(np.clip(x, 1.0, 2.2))
    assert dplab.mean_ci(errors**2, 0.999).contains(rmse**2)


def test_smooth_sensitivity_by_definition_is_the_max_over_every_distance():
    """catches: the definition's weights off by one k (e^(-(k+1) beta) A_k), or a window of A_k shifted
    by one order statistic; against max_k e^(-k beta) A_k with each A_k from median_sensitivity_at_distance
    (itself checked by brute force above) and against the divide and conquer."""
    rng = np.random.default_rng(7)
    betas = [0.01, 0.3, 2.0]
    for _ in range(60):
        n = int(rng.integers(1, 40))
        x = np.round(rng.normal(2.0, 0.8, n), 1)
        got = smooth_sensitivity.median_smooth_sensitivity_by_definition(x, 0, 4, betas)
        for beta, s in zip(betas, got, strict=True):
            direct = max(math.exp(-k * beta) * median_sensitivity_at_distance(x, 0, 4, k)
                         for k in range(n + 2))
            assert s == pytest.approx(direct, rel=1e-12), (x, beta)
            assert s == pytest.approx(median_smooth_sensitivity(x, 0, 4, beta), rel=1e-12)


def test_the_smoothness_ratio_is_the_largest_log_change_over_beta_both_ways():
    """catches: a ratio without the absolute value (only neighbours whose S* grew would count); by
    hand from the direct maximum over k, on every replace-one neighbour by 0 or 4, and at most 1."""
    rng = np.random.default_rng(8)
    beta = 0.4

    def direct(y) -> float:
        return max(math.exp(-k * beta) * median_sensitivity_at_distance(y, 0, 4, k)
                   for k in range(len(y) + 2))

    falls = 0  # cases where the largest change is a fall of S*: the absolute value matters there
    for _ in range(30):
        x = rng.integers(0, 5, int(rng.integers(2, 10))).astype(float)
        neighbours = smooth_sensitivity.replace_one_neighbours(x, [0.0, 4.0])
        logs = [math.log(direct(y) / direct(x)) for y in neighbours]
        got = smooth_sensitivity.median_smoothness_ratio(x, 0, 4, beta)
        assert got == pytest.approx(max(map(abs, logs)) / beta, rel=1e-9) and got <= 1 + 1e-9, x
        falls += -min(logs) > max(logs)
    assert falls >= 3


def test_the_global_release_rmse_is_the_laplace_second_moment_by_quadrature():
    """catches: the global release's rmse without the sqrt(2) (the Laplace scale taken for its rmse)."""
    from scipy import integrate, stats

    for low, high, eps in ((1.0, 2.2, 0.1), (0.0, 4.0, 1.0), (-1.0, 1.0, 3.0)):
        b = (high - low) / eps
        second = integrate.quad(lambda z, b=b: z**2 * stats.laplace.pdf(z, scale=b), -np.inf, np.inf)[0]
        assert smooth_sensitivity.median_global_release_rmse(low, high, eps) == pytest.approx(
            math.sqrt(second), rel=1e-9)


def test_local_sensitivity_by_definition_is_the_largest_move_over_every_grid_replacement():
    """The by-definition LS (replacements by low and high only) against brute_local, which tries
    every grid value at every position, and against the two-gap formula; all databases of 1..5."""
    for n in range(1, 6):
        for x in itertools.combinations_with_replacement(GRID, n):
            by_definition = smooth_sensitivity.median_local_sensitivity_by_definition(x, 0.0, 4.0)
            assert by_definition == brute_local(x) == median_local_sensitivity(x, 0.0, 4.0), x


@pytest.mark.parametrize("neighbours", ["replace", "add_remove"])
def test_global_sensitivity_by_search_finds_high_minus_low(neighbours):
    """The brute-force search over small grid databases attains high - low (the pair of
    median_global_pair is among them) and never more, on two intervals."""
    for low, high in ((0.0, 4.0), (1.0, 2.2)):
        found = smooth_sensitivity.median_global_sensitivity_by_search(low, high, neighbours, n_max=4)
        assert found == pytest.approx(high - low, abs=1e-12)
    # a grid of one point (low): every database is constant, no neighbour moves the median
    assert smooth_sensitivity.median_global_sensitivity_by_search(1.0, 3.0, "replace", grid_points=1,
                                                                  n_max=3) == 0.0
    with pytest.raises(ValueError):
        smooth_sensitivity.median_global_sensitivity_by_search(1.0, 3.0, "swap")
