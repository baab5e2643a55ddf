"""Errors over all k(k+1)/2 range queries, without ever materialising the ranges.

A range error is a difference of two prefix sums of the per-bin error, so the total
over all ranges, the error by range length and the largest range error each take
O(k) (or O(k log k)) per trial. The workload's Gram matrix W^T W is known in closed
form too.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import check_positive_int

__all__ = [
    "all_range_max_error",
    "all_range_total_error",
    "all_ranges_gram",
    "n_ranges",
    "prefix_sums",
    "range_error_by_length",
]


def n_ranges(k: int) -> int:
    """The number of range queries [i, j], 1 <= i <= j <= k, over k bins: k(k+1)/2."""
    k = check_positive_int(k, "k")
    return k * (k + 1) // 2


def all_ranges_gram(k: int) -> np.ndarray:
    """W^T W for the workload of all k(k+1)/2 ranges: entry (a, b) counts the ranges
    holding both bins, min(a, b) (k + 1 - max(a, b)) with 1-indexed bins."""
    k = check_positive_int(k, "k")
    a = np.arange(1, k + 1)
    return (np.minimum.outer(a, a) * (k + 1 - np.maximum.outer(a, a))).astype(float)


def prefix_sums(errors: ArrayLike) -> np.ndarray:
    """P_0 = 0, P_a = e_1 + ... + e_a along the last axis (k + 1 values)."""
    errors = np.asarray(errors, dtype=float)
    zero = np.zeros(errors.shape[:-1] + (1,))
    return np.concatenate([zero, np.cumsum(errors, axis=-1)], axis=-1)


def all_range_total_error(errors: ArrayLike) -> np.ndarray:
    """sum over all k(k+1)/2 ranges [i, j] of (sum_{i<=m<=j} errors[m])^2, in O(k).

    With prefix sums P_0 = 0, P_a = e_1 + ... + e_a, a range error is P_b - P_a
    (0 <= a < b <= k) and sum_{a<b} (P_b - P_a)^2 = (k + 1) sum_a P_a^2 - (sum_a P_a)^2.
    Per-bin errors on the last axis; the result has shape ``errors.shape[:-1]``.
    """
    e = np.asarray(errors, dtype=float)
    if e.ndim == 0 or e.shape[-1] == 0:
        raise ValueError(f"errors must have at least one bin on the last axis, got shape {e.shape}")
    p = prefix_sums(e)
    return (e.shape[-1] + 1) * np.sum(p**2, axis=-1) - np.sum(p, axis=-1) ** 2


def range_error_by_length(errors: ArrayLike) -> np.ndarray:
    """Mean squared error of the ranges of each length L = 1..k (result index L - 1).

    sum_a (P_(a+L) - P_a)^2 = sum_a P_(a+L)^2 + sum_a P_a^2 - 2 sum_a P_a P_(a+L); the
    last term for every L at once is an autocorrelation, done with the FFT: O(k log k).
    """
    p = prefix_sums(errors)
    m = p.shape[-1]  # k + 1 prefix sums
    k = m - 1
    spec = np.fft.rfft(p, n=2 * m, axis=-1)
    corr = np.fft.irfft(spec * np.conj(spec), n=2 * m, axis=-1)[..., 1:m]  # lags 1..k
    sq = np.cumsum(p**2, axis=-1)
    lags = np.arange(1, m)
    upper = sq[..., -1][..., None] - sq[..., lags - 1]  # sum_{a >= L} P_a^2
    lower = sq[..., m - 1 - lags]  # sum_{a <= k - L} P_a^2
    return (upper + lower - 2 * corr) / (k - lags + 1)


def all_range_max_error(errors: ArrayLike) -> np.ndarray:
    """max over all ranges of |range error| = max_a P_a - min_a P_a, in O(k)."""
    p = prefix_sums(errors)
    return p.max(axis=-1) - p.min(axis=-1)
