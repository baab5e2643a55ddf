"""Histograms over k ordered bins for the range-query notebooks: real and synthetic."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import check_choice, check_nonnegative, check_positive_int, check_rng
from dplab.datasets import load_yrbss

__all__ = ["HISTOGRAM_SHAPES", "check_histogram", "height_histogram", "synthetic_histogram"]

HISTOGRAM_SHAPES = ("heights", "uniform", "spiky", "zipf")


def check_histogram(x: ArrayLike, k: int) -> np.ndarray:
    """x must be a 1-d histogram of k finite counts >= 0; returned as a float array."""
    x = np.asarray(x, dtype=float)
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"x must be a non-empty 1-d histogram, got shape {x.shape}")
    if x.size != k:
        raise ValueError(f"x must have k = {k} bins, got {x.size}")
    return check_nonnegative(x, "x", array_ok=True)


def height_histogram(k: int, low: float = 1.20, high: float = 2.20) -> np.ndarray:
    """YRBSS heights counted in k equal bins [low + i w, low + (i + 1) w), w = (high - low)/k, in
    m. The heights were reported in whole inches (50 to 83 in) and stored in metres rounded to
    1 cm: 34 distinct values, so at most 34 bins are non-empty, a sparse, real histogram.

    A height on a bin's lower edge counts in that bin: 1.70 m is edge 128 of 256 from 1.20 m,
    but in floating point 1.70 - 1.20 < 128 w by 1e-16, so the bin index is floor((h - low)/w)
    with a 1e-9 allowance (numpy's histogram would put 1.70 m in bin 127)."""
    k = check_positive_int(k, "k")
    if not high > low:
        raise ValueError(f"high must exceed low, got low={low!r}, high={high!r}")
    heights = np.asarray(load_yrbss()["height_m"], dtype=float)
    index = np.floor((heights - low) * (k / (high - low)) + 1e-9).astype(int)
    return np.bincount(index[(index >= 0) & (index < k)], minlength=k).astype(float)


def synthetic_histogram(shape: str, k: int, total: int = 10_000, rng=None) -> np.ndarray:
    """A histogram of k bins holding ``total`` rows: ``uniform``, ``spiky`` (a few bins
    hold most rows), ``zipf`` (bin i has weight 1/i) or the real ``heights``."""
    k = check_positive_int(k, "k")
    check_choice(shape, HISTOGRAM_SHAPES, "shape")
    if shape == "heights":
        return height_histogram(k)
    rng = check_rng(rng)
    if shape == "uniform":
        weights = np.ones(k)
    elif shape == "spiky":
        weights = np.full(k, 0.01)
        weights[rng.choice(k, size=max(1, k // 64), replace=False)] = 1.0
    else:  # zipf
        weights = 1.0 / np.arange(1, k + 1)
    return rng.multinomial(check_positive_int(total, "total"), weights / weights.sum()).astype(float)
