"""Releasing a contingency table of d cells: [Hu]'s epsilon/(d - 1) against parallel composition.

[Hu] ("Post-processing", where d is called c) releases d - 1 cells with epsilon/(d - 1) each and
derives the last as n minus their sum, which needs n public: replace-one
neighbours. That is valid (sequential composition) but costly. Parallel composition
releases all c cells with Lap(1/epsilon) under add/remove neighbours, or with
Lap(2/epsilon) under replace-one (the histogram's sensitivity is 2 there).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import as_result, check_choice, check_epsilon, check_nonnegative, check_positive_int
from dplab.mechanisms.laplace import laplace_mechanism, laplace_mse
from dplab.sensitivity import histogram_sensitivity

__all__ = ["CONTINGENCY_METHODS", "contingency_expected_total_error", "contingency_release",
           "contingency_squared_errors"]

#: method -> neighbour relation it assumes
CONTINGENCY_METHODS = {
    "derived_last": "replace",
    "parallel_add_remove": "add_remove",
    "parallel_replace": "replace",
}


def _check_method(method: str) -> str:
    return check_choice(method, tuple(CONTINGENCY_METHODS), "method")


def contingency_release(
    counts: ArrayLike, epsilon: float, method: str, *, rng=None, size: int | None = None
) -> np.ndarray:
    """Noisy counts of all c cells by ``method`` (see the module docstring)."""
    counts = np.asarray(counts, dtype=float)
    if counts.ndim != 1 or counts.size < 2:
        raise ValueError(f"counts must be a 1-d table of at least 2 cells, got shape {counts.shape}")
    check_nonnegative(counts, "counts", array_ok=True)
    epsilon = check_epsilon(epsilon)
    d = counts.size
    if _check_method(method) == "derived_last":
        first = laplace_mechanism(counts[:-1], 1.0, epsilon / (d - 1), size=size, rng=rng)
        last = counts.sum() - first.sum(axis=-1, keepdims=True)  # n is public
        return np.concatenate([first, last], axis=-1)
    sensitivity = histogram_sensitivity(CONTINGENCY_METHODS[method])
    return laplace_mechanism(counts, sensitivity, epsilon, size=size, rng=rng)


def contingency_expected_total_error(d: ArrayLike, epsilon: float, method: str) -> float | np.ndarray:
    """E sum over the d cells of the squared error.

    derived_last: d - 1 cells of variance v = laplace_mse(1, epsilon/(d-1)), and the last
    cell carries the sum of their noise, variance (d - 1) v: total 2 (d - 1) v
    = 4 (d - 1)^3 / epsilon^2. parallel: d laplace_mse(Delta, epsilon), Delta = 1 or 2.
    """
    d = check_positive_int(d, "d", array_ok=True)
    if np.any(np.asarray(d) < 2):
        raise ValueError(f"d must be at least 2 cells, got d={np.min(d)}")
    epsilon = check_epsilon(epsilon)
    if _check_method(method) == "derived_last":
        return as_result(2 * (d - 1) * np.asarray(laplace_mse(1.0, epsilon / (d - 1))))
    sensitivity = histogram_sensitivity(CONTINGENCY_METHODS[method])
    return as_result(d * np.asarray(laplace_mse(sensitivity, epsilon)))


def contingency_squared_errors(
    counts: ArrayLike, epsilon: float, method: str, size: int, rng: np.random.Generator | int | None = None
) -> np.ndarray:
    """The total squared error sum_j (noisy_j - count_j)^2 over the d cells of each of ``size``
    releases by :func:`contingency_release` (one value per release, [Hu]'s tables); its mean
    estimates :func:`contingency_expected_total_error`, e.g. 4 (d - 1)^3 / epsilon^2 for "derived_last"."""
    counts = np.asarray(counts, dtype=float)
    noisy = contingency_release(counts, epsilon, method, rng=rng, size=check_positive_int(size, "size"))
    return np.sum((noisy - counts) ** 2, axis=1)
