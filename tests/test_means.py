"""Releasing a mean with n public (replace-one) or as a noisy sum over a noisy count (add/remove)."""

from __future__ import annotations

import numpy as np
import pytest

import dplab

HEIGHTS = dplab.load_yrbss()["height_m"]


def test_n_public_release_matches_its_mse():
    mean = dplab.clipped_mean(HEIGHTS, 1.2, 2.1)
    noisy = dplab.mean_release_n_public(HEIGHTS, 1.2, 2.1, 0.5, size=200_000, rng=1)
    theory = dplab.laplace_mse(dplab.clipped_mean_sensitivity(1.2, 2.1, HEIGHTS.size), 0.5)
    assert dplab.mean_ci((noisy - mean) ** 2, 0.999).contains(theory)


@pytest.mark.catches("means.sum_count_full_eps")
def test_sum_count_release_matches_its_first_order_mse():
    """catches: the sum released at the whole epsilon (its noise 4x too small in variance)."""
    mean = dplab.clipped_mean(HEIGHTS, 1.2, 2.1)
    for share in (0.5, 0.2):
        noisy = dplab.mean_release_sum_count(HEIGHTS, 1.2, 2.1, 0.5, count_share=share,
                                             size=400_000, rng=2)
        theory = dplab.mean_sum_count_mse(HEIGHTS.size, mean, 1.2, 2.1, 0.5, share)
        assert dplab.mean_ci((noisy - mean) ** 2, 0.999).contains(theory)


def test_bad_input():
    with pytest.raises(ValueError, match="low < high"):
        dplab.clipped_mean([1.0], 2.0, 1.0)
    with pytest.raises(ValueError, match="non-empty 1-d"):
        dplab.mean_release_n_public(np.zeros((2, 2)), 0.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="count_share must be in"):
        dplab.mean_release_sum_count([1.0, 2.0], 0.0, 3.0, 1.0, count_share=1.0)


def test_centring_the_sum_makes_a_private_n_cheap():
    mean, n = dplab.clipped_mean(HEIGHTS, 1.2, 2.1), HEIGHTS.size
    public = dplab.laplace_mse(dplab.clipped_mean_sensitivity(1.2, 2.1, n), 1.0)
    raw = dplab.mean_sum_count_mse(n, mean, 1.2, 2.1, 1.0, center=0.0)
    centred = dplab.mean_sum_count_mse(n, mean, 1.2, 2.1, 1.0)
    assert raw / public > 20 and centred / public < 1.1
    noisy = dplab.mean_release_sum_count(HEIGHTS, 1.2, 2.1, 1.0, center=0.0, size=400_000, rng=3)
    assert dplab.mean_ci((noisy - mean) ** 2, 0.999).contains(raw)
