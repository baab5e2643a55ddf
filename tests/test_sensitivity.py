"""Brute-force sensitivity and stability over every small table."""

from __future__ import annotations

import math

import numpy as np
import pytest

import dplab
from dplab import accounting, bmi, sensitivity

BMI_UNIVERSE, TWEET_UNIVERSE = bmi.BMI_UNIVERSE, bmi.TWEET_UNIVERSE
f1, f2, first_words = bmi.bmi_f1, bmi.bmi_f2, bmi.first_words

COUNT_UNIVERSE = [{"x": 0.0}, {"x": 1.0}]


@pytest.mark.parametrize("neighbours, expected", [
    ("add_remove", {"f1": 1, "f2": 2, "cells": 1, "answers": 2}),
    ("replace", {"f1": 2, "f2": 2, "cells": 2, "answers": 4}),
])
def test_bmi_sensitivities(neighbours, expected):
    queries = {"f1": f1, "f2": f2, "cells": dplab.bmi_cells, "answers": dplab.bmi_true_answers}
    for name, query in queries.items():
        assert sensitivity.l1_sensitivity(query, BMI_UNIVERSE, 3, neighbours) == expected[name], name


def test_count_and_sum_sensitivity():
    def count(t):
        return np.sum(t["x"] == 1.0)

    def total(t):
        return np.sum(t["x"])

    assert sensitivity.l1_sensitivity(count, COUNT_UNIVERSE, 4) == 1
    assert sensitivity.l1_sensitivity(count, COUNT_UNIVERSE, 4, "replace") == 1
    universe = [{"x": v} for v in (-2.0, 0.5, 3.0)]
    assert sensitivity.l1_sensitivity(total, universe, 3) == 3.0  # add/remove: max |x|
    assert sensitivity.l1_sensitivity(total, universe, 3, "replace") == 5.0  # replace: max - min


def test_neighbouring_pairs_are_counted_exactly():
    # add/remove with u types and at most m rows: one pair per (table of < m rows, type)
    u, m = 3, 2
    pairs = list(sensitivity.neighbouring_tables([{"x": i} for i in range(u)], m))
    assert len(pairs) == sum(math.comb(u + s - 1, s) for s in range(m)) * u
    assert all(sum(b) == sum(a) + 1 for a, b in pairs)
    replace = list(sensitivity.neighbouring_tables([{"x": i} for i in range(u)], m, "replace"))
    assert all(sum(a) == sum(b) and sum(abs(x - y) for x, y in zip(a, b, strict=True)) == 2
               for a, b in replace)


def test_stability():
    bmi_transform = bmi.bmi_transform
    assert sensitivity.stability(bmi_transform, BMI_UNIVERSE, 3) == 1
    assert sensitivity.stability(bmi_transform, BMI_UNIVERSE, 3, "replace") == 1
    for k in (1, 2, 3):
        assert sensitivity.stability(first_words(k), TWEET_UNIVERSE, 2) == k


def test_bad_input():
    with pytest.raises(ValueError, match="neighbours must be one of"):
        sensitivity.l1_sensitivity(f1, BMI_UNIVERSE, 2, "swap")
    with pytest.raises(ValueError, match="empty universe"):
        sensitivity.l1_sensitivity(f1, [], 2)
    with pytest.raises(ValueError, match="max_rows must be a positive integer"):
        sensitivity.l1_sensitivity(f1, BMI_UNIVERSE, 0)
    with pytest.raises(ValueError, match="same columns"):
        sensitivity.l1_sensitivity(f1, [{"a": 1}, {"b": 2}], 2)


def test_histogram_sensitivity_is_what_brute_force_finds():
    for neighbours in accounting.Neighbours:
        assert sensitivity.histogram_sensitivity(neighbours) == sensitivity.l1_sensitivity(
            dplab.bmi_cells, BMI_UNIVERSE, 3, neighbours)


@pytest.mark.catches("sensitivity.clipped_mean_add_remove")
def test_clipped_mean_sensitivity_is_the_largest_change_of_the_mean():
    low, high, n = 1.2, 2.1, 5
    assert dplab.clipped_mean_sensitivity(low, high, n) == pytest.approx(0.9 / 5)
    # brute force over replace-one neighbours of tables of n = 3 values on a grid in [low, high]
    grid = [1.2, 1.5, 2.1]
    worst = max(abs(np.mean([a, b, c]) - np.mean([d, b, c])) for a in grid for b in grid
                for c in grid for d in grid)
    assert worst == pytest.approx(dplab.clipped_mean_sensitivity(low, high, 3))
    with pytest.raises(ValueError, match="low < high"):
        dplab.clipped_mean_sensitivity(2.0, 1.0, 3)
    with pytest.raises(ValueError, match="n must be a positive integer"):
        dplab.clipped_mean_sensitivity(0.0, 1.0, 0)
