"""Seed 003's contingency tables: epsilon/(d - 1) against parallel composition."""

from __future__ import annotations

import numpy as np
import pytest

import dplab


def test_contingency_methods():
    counts = np.array([5.0, 0.0, 12.0, 3.0])
    derived_last = dplab.contingency_release(counts, 1.0, "derived_last", rng=1, size=10)
    np.testing.assert_allclose(derived_last.sum(axis=1), counts.sum())  # the last cell is n - the rest
    z = np.random.default_rng(1).laplace(0, 1, size=(10, 3))
    np.testing.assert_allclose(derived_last[:, :3], counts[:3] + 3.0 * z)  # Lap((d - 1)/eps)
    for method in dplab.CONTINGENCY_METHODS:
        noisy = dplab.contingency_release(counts, 0.7, method, rng=2, size=200_000)
        est = dplab.mean_ci(np.sum((noisy - counts) ** 2, axis=1), 0.999)
        assert est.contains(dplab.contingency_expected_total_error(4, 0.7, method)), method
    assert dplab.contingency_expected_total_error(6, 1.0, "derived_last") == pytest.approx(4 * 5**3)
    assert dplab.contingency_expected_total_error(6, 1.0, "parallel_add_remove") == pytest.approx(12)
    assert dplab.contingency_expected_total_error(6, 1.0, "parallel_replace") == pytest.approx(48)
    with pytest.raises(ValueError, match="method must be one of"):
        dplab.contingency_release(counts, 1.0, "halve")
    with pytest.raises(ValueError, match=r"counts must be finite and >= 0, got counts=-5.0 at index 0"):
        dplab.contingency_release(-counts, 1.0, "derived_last")
    with pytest.raises(ValueError, match="d must be at least 2 cells"):
        dplab.contingency_expected_total_error(1, 1.0, "derived_last")


def test_expected_error_over_an_array_of_c():
    d = np.array([2, 6, 10])
    np.testing.assert_allclose(dplab.contingency_expected_total_error(d, 1.0, "derived_last"),
                               4 * (d - 1) ** 3)
    np.testing.assert_allclose(dplab.contingency_expected_total_error(d, 0.5, "parallel_replace"),
                               8 * d / 0.25)


def test_squared_errors_by_hand():
    """catches: the error summed over the releases instead of the cells (axis 0), or the derived
    last cell left out of the total.

    Independent: seed 003's release written out in numpy with the same generator: d - 1 cells plus
    Lap((d - 1)/eps) noise, the last cell n minus their sum; and the hand value 4 (d - 1)^3 / eps^2."""
    from dplab.contingency import contingency_squared_errors

    counts = np.array([50.0, 50.0, 50.0, 50.0, 50.0, 50.0])
    got = contingency_squared_errors(counts, 1.0, "derived_last", size=1000, rng=7)
    first = counts[:-1] + 5.0 * np.random.default_rng(7).laplace(0, 1, size=(1000, 5))
    last = counts.sum() - first.sum(axis=1)
    np.testing.assert_allclose(got, np.sum((first - 50.0) ** 2, axis=1) + (last - 50.0) ** 2, rtol=1e-12)
    big = contingency_squared_errors(counts, 1.0, "derived_last", size=200_000, rng=8)
    assert dplab.mean_ci(big, 0.9999).contains(4 * 5**3)
