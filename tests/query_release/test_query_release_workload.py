"""The b-bit universe and its workloads: every answer of the operator against a dense matrix built by
brute force over the records (an independent computation), the YRBSS coding against a direct binning."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import dplab.query_release as qr
from dplab.datasets import load_yrbss


def _dense(b: int, conjunctions, ranges) -> np.ndarray:
    """The k x 2^b 0/1 matrix by brute force: every record as a tuple of bits, each query tested on it."""
    rows = []
    records = list(itertools.product((0, 1), repeat=b))  # index order: attribute 0 the highest bit
    for attrs, values in conjunctions:
        rows.append([all(x[a] == v for a, v in zip(attrs, values, strict=True)) for x in records])
    for first, width, low, high in ranges:
        rows.append([low <= int("".join(map(str, x[first:first + width])), 2) < high for x in records])
    return np.array(rows, dtype=float)


@pytest.mark.catches("qr.conjunction_bit_order", "qr.range_prefix", "qr.row_bit_order")
@pytest.mark.parametrize("b", [3, 5, 6])
def test_the_operator_answers_like_the_brute_force_matrix(b):
    conjunctions = qr.marginal_conjunctions(b, (1, 2, 3)) + [((b - 1, 0), (1, 0))]  # and unsorted attributes
    ranges = qr.range_queries(1, b - 1) + qr.range_queries(0, 2) + qr.range_queries(b - 2, 2, 2)
    workload = qr.Workload(b, conjunctions, ranges)
    dense = _dense(b, conjunctions, ranges)
    assert workload.shape == dense.shape
    rng = np.random.default_rng(b)
    for _ in range(3):
        x = rng.integers(0, 7, 2**b).astype(float)
        y = rng.normal(size=dense.shape[0])
        np.testing.assert_allclose(workload @ x, dense @ x, atol=1e-9)
        np.testing.assert_allclose(workload.T @ y, dense.T @ y, atol=1e-9)
    for j in range(dense.shape[0]):
        np.testing.assert_array_equal(workload.row(j), dense[j])


@pytest.mark.catches("qr.conjunction_bit_order")
def test_marginal_tables_and_superset_sums_match_brute_force():
    b = 5
    rng = np.random.default_rng(1)
    x = rng.integers(0, 9, 2**b).astype(float)
    records = qr.universe_records(b)
    for attrs in [(0,), (4,), (1, 3), (0, 2, 4)]:
        table = qr.marginal_table(x, attrs)
        for cell in itertools.product((0, 1), repeat=len(attrs)):
            assert table[cell] == x[np.all(records[:, attrs] == cell, axis=1)].sum()
    f = qr.superset_sums(x)
    for s in range(2**b):
        ones = records[s] == 1
        assert f[s] == x[np.all(records[:, ones] == 1, axis=1)].sum()
    conj = qr.marginal_conjunctions(b, 2)
    np.testing.assert_allclose(qr.conjunction_answers(x, conj), _dense(b, conj, []) @ x)


def test_universe_records_and_indices_are_inverse():
    records = qr.universe_records(4)
    assert records.shape == (16, 4)
    assert records[1].tolist() == [0, 0, 0, 1] and records[8].tolist() == [1, 0, 0, 0]
    np.testing.assert_array_equal(qr.record_indices(records), np.arange(16))


def test_workload_sizes_are_the_counts_of_marginal_cells_and_ranges():
    b = 16
    h, w = qr.yrbss_bits(b)
    assert (h, w) == (8, 7)
    marginals = 2 * b + 4 * math.comb(b, 2)
    height_ranges = math.comb(2**h // 2 + 1, 2)  # ends on multiples of 2 among 0..256
    weight_ranges = math.comb(2**w // 2 + 1, 2)
    workload = qr.yrbss_workload(b, range_step=2)
    assert workload.shape == (marginals + height_ranges + weight_ranges, 2**b) == (10_848, 65_536)
    assert len(qr.marginal_conjunctions(b, 3)) == 8 * math.comb(b, 3)


@pytest.mark.catches("qr.yrbss_bit_order")
@pytest.mark.parametrize("b", [8, 11])
def test_yrbss_records_code_sex_and_the_height_and_weight_bins(b):
    table = load_yrbss()
    records = qr.yrbss_records(b)
    h, w = qr.yrbss_bits(b)
    assert records.shape == (12_579, b) and h + w + 1 == b
    # independently: the bin by floor division on the stated ranges, clipped; its bits by string formatting
    height_bin = np.clip(np.floor((table["height_m"] - 1.20) / (1.0 / 2**h) + 1e-9), 0, 2**h - 1).astype(int)
    weight_bin = np.clip(np.floor((table["weight_kg"] - 25.0) / (160.0 / 2**w) + 1e-9), 0,
                         2**w - 1).astype(int)
    for i in range(0, 12_579, 97):
        expected = ("1" if table["sex"][i] == "M" else "0") + format(height_bin[i], f"0{h}b") + format(
            weight_bin[i], f"0{w}b")
        assert "".join(map(str, records[i])) == expected
    hist = qr.yrbss_histogram(b)
    assert hist.sum() == 12_579 and hist.size == 2**b
    assert hist.reshape(2, -1)[1].sum() == np.sum(table["sex"] == "M")


def test_thresholds_are_equal_bins_of_the_stated_ranges():
    heights, weights = qr.yrbss_thresholds(8)
    np.testing.assert_allclose(heights, 1.20 + 0.0625 * np.arange(17))
    np.testing.assert_allclose(weights, 25.0 + 20.0 * np.arange(9))


@pytest.mark.parametrize(("call", "message"), [
    (lambda: qr.Workload(4, [((0, 4), (1, 1))]), r"conjunctions\[0\]"),
    (lambda: qr.Workload(4, [((0,), (2,))]), r"conjunctions\[0\]"),
    (lambda: qr.Workload(4, [], [(1, 3, 2, 9)]), r"ranges\[0\]"),
    (lambda: qr.Workload(4), "at least one query"),
    (lambda: qr.marginal_conjunctions(4, 5), "ways=5"),
    (lambda: qr.range_queries(0, 3, 3), "step=3"),
    (lambda: qr.yrbss_bits(2), "bits=2"),
    (lambda: qr.marginal_table(np.ones(8), (2, 1)), "attributes"),
    (lambda: qr.Workload(3, [((0,), (1,))]) @ np.ones(5), "dimension mismatch"),
    (lambda: qr.Workload(3, [((0,), (1,))]).row(1), "j=1"),
])
def test_bad_input_is_refused_by_name(call, message):
    with pytest.raises(ValueError, match=message):
        call()
