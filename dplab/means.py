"""Releasing a mean: with n public (replace-one) or not (add/remove), [Hu].

A mean of values clipped to [lo, hi] (bounds chosen without looking at the data) has
sensitivity (hi - lo)/n when n is public: replace-one neighbours, where one value moves
by at most hi - lo. Under add/remove, n itself changes and is private: release a noisy
sum and a noisy count and divide. The same question decides parallel composition of
means over disjoint groups ([Hu], "average income of rural CUs" and "of urban CUs"):
with add/remove a row is in one group, so the groups' (sum, count) releases compose in
parallel; a per-group mean with public group sizes would need replace-one, under which a
row can move from one group to another, so the group sizes are not fixed.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import check_bounds, check_epsilon, check_probability, check_rng
from dplab.mechanisms.laplace import laplace_mechanism, laplace_mse
from dplab.sensitivity import clipped_mean_sensitivity

__all__ = ["clipped_mean", "mean_release_n_public", "mean_release_sum_count", "mean_sum_count_mse"]


def _values(values: ArrayLike, low: float, high: float) -> np.ndarray:
    x = np.asarray(values, dtype=float)
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"values must be a non-empty 1-d array, got shape {x.shape}")
    return np.clip(x, *check_bounds(low, high))


def clipped_mean(values: ArrayLike, low: float, high: float) -> float:
    """The mean of the values clipped to [low, high]."""
    return float(_values(values, low, high).mean())


def mean_release_n_public(
    values: ArrayLike, low: float, high: float, epsilon: float, *, size: int | None = None, rng=None
) -> np.ndarray | float:
    """clipped mean + Lap((high - low)/(n epsilon)): epsilon-DP under replace-one neighbours
    with n public ([Hu]). MSE 2 ((high - low)/(n epsilon))^2."""
    x = _values(values, low, high)
    return laplace_mechanism(x.mean(), clipped_mean_sensitivity(low, high, x.size), epsilon,
                             size=size, rng=rng)


def mean_release_sum_count(
    values: ArrayLike,
    low: float,
    high: float,
    epsilon: float,
    *,
    count_share: float = 0.5,
    center: float | None = None,
    size: int | None = None,
    rng=None,
) -> np.ndarray | float:
    """center + (sum of (x - center) + Lap(M / eps_s)) / (n + Lap(1 / eps_c)): epsilon-DP
    under add/remove with n private. M = max(|low - center|, |high - center|) is the
    centred sum's sensitivity (one row adds at most that), eps_c = count_share * epsilon,
    eps_s = epsilon - eps_c (sequential composition of the two releases). ``center``
    (default (low + high)/2, chosen without the data) matters: with center = 0 the sum of
    heights has sensitivity high, and its noise, not the private count, dominates."""
    x = _values(values, low, high)
    epsilon = check_epsilon(epsilon)
    share = _check_share(count_share)
    c, bound = _center_and_bound(low, high, center)
    rng = check_rng(rng)
    noisy_sum = laplace_mechanism(float(np.sum(x - c)), bound, (1 - share) * epsilon, size=size, rng=rng)
    noisy_count = laplace_mechanism(float(x.size), 1.0, share * epsilon, size=size, rng=rng)
    return c + noisy_sum / noisy_count


def _center_and_bound(low: float, high: float, center: float | None) -> tuple[float, float]:
    """The centre c (default the middle of [low, high]) and the centred sum's sensitivity
    max(|low - c|, |high - c|) under add/remove."""
    c = (low + high) / 2 if center is None else float(center)
    return c, max(abs(low - c), abs(high - c))


def _check_share(count_share: float) -> float:
    share = check_probability(count_share, "count_share")
    if share >= 1:
        raise ValueError(f"count_share must be in (0, 1), got count_share={count_share!r}")
    return share


def mean_sum_count_mse(
    n: int,
    mean: float,
    low: float,
    high: float,
    epsilon: float,
    count_share: float = 0.5,
    center: float | None = None,
) -> float:
    """First-order (delta-method) MSE of :func:`mean_release_sum_count`:
    (Var(sum noise) + (mean - center)^2 Var(count noise)) / n^2, Var = 2 (Delta/eps)^2.
    Its relative error is of order Var(count noise) / n^2 (negligible for large n)."""
    epsilon = check_epsilon(epsilon)
    share = _check_share(count_share)
    c, bound = _center_and_bound(low, high, center)
    var_sum = laplace_mse(bound, (1 - share) * epsilon)
    var_count = laplace_mse(1.0, share * epsilon)
    return (var_sum + (mean - c) ** 2 * var_count) / n**2
