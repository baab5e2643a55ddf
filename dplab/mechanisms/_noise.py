"""Shapes shared by the noise mechanisms: one release, or ``size`` independent trials."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import check_positive_int


def noise_shape(value: ArrayLike, size: int | None) -> tuple[int, ...]:
    """``numpy.shape(value)``, with a leading trials axis of length ``size`` when given."""
    shape = np.shape(value)
    if size is None:
        return shape
    return (check_positive_int(size, "size"),) + shape


def add_noise(value: ArrayLike, noise: np.ndarray) -> np.ndarray | float:
    """``value + noise`` as a float array, or a Python float for a single scalar release."""
    out = np.asarray(value, dtype=float) + noise
    return float(out) if out.ndim == 0 else out
