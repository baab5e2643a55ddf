"""The BMI example of seed 000: four counts, two algorithms, 128/eps^2 against 12/eps^2.

Queries on a table of (sex, height, weight): # males with BMI < 25, # males,
# females with BMI < 25, # females. q2 counts BMI >= 25 (the slide's "> 25" would
leave BMI = 25 in no cell). The cut-off 25 is an adult convention used here as a
teaching device, also on the (teenage) YRBSS data.
"""

from __future__ import annotations

import numpy as np

from dplab._checks import check_epsilon
from dplab.datasets import table_size
from dplab.mechanisms import laplace_mechanism, laplace_mse
from dplab.sensitivity import check_neighbours

__all__ = [
    "ANSWERS_FROM_CELLS",
    "BMI_CUTOFF",
    "body_mass_index",
    "bmi_algorithm_1",
    "bmi_algorithm_2",
    "bmi_cells",
    "bmi_expected_total_error",
    "bmi_slides_table",
    "bmi_true_answers",
    "histogram_sensitivity",
]

BMI_CUTOFF = 25.0
INCH = 0.0254  # metres
POUND = 0.45359237  # kilograms
#: Algorithm 2's post-processing: answers = A @ cells, cells = (M<25, M>=25, F<25, F>=25).
ANSWERS_FROM_CELLS = np.array([[1, 0, 0, 0], [1, 1, 0, 0], [0, 0, 1, 0], [0, 0, 1, 1]], dtype=float)
_COLUMNS = ("sex", "height_m", "weight_kg")


def bmi_slides_table() -> dict[str, np.ndarray]:
    """The 5-row table of seed 000, converted from feet/inches and pounds to m and kg."""
    rows = [("M", 6, 2, 210), ("F", 5, 3, 190), ("F", 5, 9, 160), ("M", 5, 3, 180), ("M", 6, 7, 250)]
    return {
        "sex": np.array([r[0] for r in rows]),
        "height_m": np.array([(12 * r[1] + r[2]) * INCH for r in rows]),
        "weight_kg": np.array([r[3] * POUND for r in rows]),
    }


def _check_table(table: dict[str, np.ndarray], *, nonempty: bool = False) -> None:
    if not isinstance(table, dict):
        raise TypeError(f"table must be a dict of numpy arrays, got {type(table).__name__}")
    for column in _COLUMNS:
        if column not in table:
            raise ValueError(f"table must have columns {list(_COLUMNS)}, missing column {column!r}; "
                             f"got columns {sorted(table)}")
    if nonempty:
        table_size(table)
    bad = set(np.unique(table["sex"])) - {"M", "F"}
    if bad:
        raise ValueError(f"column 'sex' must hold 'M' or 'F', got {sorted(bad)}")
    if np.any(table["height_m"] <= 0):
        raise ValueError("column 'height_m' must be > 0 (metres)")


def body_mass_index(table: dict[str, np.ndarray]) -> np.ndarray:
    """Body mass index weight / height^2 (kg/m^2) of every row: the row-by-row
    transformation (s, h, w) -> (s, bmi) of seed 000, stability 1. An empty table
    gives an empty array (so brute-force sensitivity can start from the empty table)."""
    _check_table(table)
    return table["weight_kg"] / table["height_m"] ** 2


def bmi_cells(table: dict[str, np.ndarray]) -> np.ndarray:
    """Counts of the four disjoint cells (M, BMI < 25), (M, >= 25), (F, < 25), (F, >= 25)."""
    value = body_mass_index(table)
    male, low = table["sex"] == "M", value < BMI_CUTOFF
    return np.array([np.sum(male & low), np.sum(male & ~low), np.sum(~male & low),
                     np.sum(~male & ~low)], dtype=float)


def bmi_true_answers(table: dict[str, np.ndarray]) -> np.ndarray:
    """The four true answers (# M with BMI < 25, # M, # F with BMI < 25, # F)."""
    return ANSWERS_FROM_CELLS @ bmi_cells(table)


def histogram_sensitivity(neighbours: str = "add_remove") -> float:
    """L1 sensitivity of a histogram of disjoint cells: 1 under add/remove (one cell
    changes by one), 2 under replace-one (one cell loses a row, another gains it)."""
    return 1.0 if check_neighbours(neighbours) == "add_remove" else 2.0


def bmi_algorithm_1(
    table: dict[str, np.ndarray], epsilon: float, *, rng=None, size: int | None = None
) -> np.ndarray:
    """Seed 000, Algorithm 1: each of the four counts + Lap(4/epsilon).

    Each count has sensitivity 1 under either neighbour relation and gets epsilon/4;
    sequential composition makes the four epsilon-DP. Total expected squared error
    4 * 2 (4/epsilon)^2 = 128/epsilon^2.
    """
    epsilon = check_epsilon(epsilon)
    _check_table(table, nonempty=True)
    return laplace_mechanism(bmi_true_answers(table), 1.0, epsilon / 4, size=size, rng=rng)


def bmi_algorithm_2(
    table: dict[str, np.ndarray],
    epsilon: float,
    *,
    rng=None,
    size: int | None = None,
    neighbours: str = "add_remove",
) -> np.ndarray:
    """Seed 000, Algorithm 2: the four disjoint cells + Lap(Delta/epsilon), then sums.

    Parallel composition (add/remove, Delta = 1) or the histogram's sensitivity 2 under
    replace-one (Delta = 2); the sums are post-processing. Returns the same four
    answers as Algorithm 1, with a leading trials axis when ``size`` is given.
    """
    epsilon = check_epsilon(epsilon)
    _check_table(table, nonempty=True)
    cells = laplace_mechanism(bmi_cells(table), histogram_sensitivity(neighbours), epsilon,
                              size=size, rng=rng)
    return cells @ ANSWERS_FROM_CELLS.T


def bmi_expected_total_error(algorithm: int, epsilon: float, neighbours: str = "add_remove") -> float:
    """E sum_i (answer_i - truth_i)^2, from the mechanisms' variances.

    Algorithm 1: 4 answers with variance laplace_mse(1, epsilon/4) each (128/eps^2).
    Algorithm 2: answers A @ cells with independent cell noise of variance
    laplace_mse(Delta, epsilon): total trace(A A^T) laplace_mse(Delta, epsilon)
    = 6 * 2/eps^2 = 12/eps^2 (add/remove) or 6 * 8/eps^2 = 48/eps^2 (replace-one).
    """
    epsilon = check_epsilon(epsilon)
    check_neighbours(neighbours)
    if algorithm == 1:
        return 4 * laplace_mse(1.0, epsilon / 4)
    if algorithm == 2:
        trace = float(np.trace(ANSWERS_FROM_CELLS @ ANSWERS_FROM_CELLS.T))
        return trace * laplace_mse(histogram_sensitivity(neighbours), epsilon)
    raise ValueError(f"algorithm must be 1 or 2, got algorithm={algorithm!r}")
