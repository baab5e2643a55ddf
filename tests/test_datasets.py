"""The shipped YRBSS table: complete, in SI units, and exactly the documented file."""

from __future__ import annotations

import hashlib
from importlib import resources

import numpy as np
import pytest

from dplab.datasets import load_yrbss, table_size


def test_yrbss_shape_and_units():
    t = load_yrbss()
    assert table_size(t) == 12_579
    assert set(np.unique(t["sex"])) == {"F", "M"}
    assert 1.2 < t["height_m"].min() and t["height_m"].max() < 2.2  # metres
    assert 25 < t["weight_kg"].min() and t["weight_kg"].max() < 200  # kilograms
    assert np.sum(t["sex"] == "M") == 6414


def test_yrbss_checksum_matches_readme():
    data = resources.files("dplab.data")
    digest = hashlib.sha256(data.joinpath("yrbss_sex_height_weight.csv").read_bytes()).hexdigest()
    assert digest in data.joinpath("README.md").read_text()


def test_table_size_rejects_empty_and_ragged():
    with pytest.raises(ValueError, match="at least one row"):
        table_size({"a": np.array([])})
    with pytest.raises(ValueError, match="at least one column"):
        table_size({})
    with pytest.raises(ValueError, match="equal lengths"):
        table_size({"a": np.zeros(2), "b": np.zeros(3)})
