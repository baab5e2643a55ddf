"""The shipped YRBSS table: complete, in SI units, and exactly the documented file."""

from __future__ import annotations

import hashlib
from importlib import resources

import numpy as np
import pytest

import dplab
from dplab import datasets

load_yrbss, table_size = dplab.load_yrbss, datasets.table_size


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


def test_columns_are_read_only_and_cached():
    a, b = load_yrbss(), load_yrbss()
    assert np.shares_memory(a["height_m"], b["height_m"]) and a is not b  # one copy, a new dict
    with pytest.raises(ValueError, match="read-only"):
        a["height_m"][0] = 0.0
    with pytest.raises(ValueError, match="WRITEABLE"):  # and it cannot be made writeable again
        a["height_m"].flags.writeable = True
    theta = dplab.load_p_identity()
    with pytest.raises(ValueError, match="WRITEABLE"):
        theta.flags.writeable = True
    with pytest.raises(ValueError, match="name must be a file shipped in dplab/data"):
        datasets.load_array("nothing.npy")
