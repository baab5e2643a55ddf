"""The BMI example of [Duke18] (notebook 2): four counts, two algorithms, 128/eps^2 against 12/eps^2.

Queries on a table of (sex, height, weight): # males with BMI < 25, # males,
# females with BMI < 25, # females. q2 counts BMI >= 25 (the slide's "> 25" would
leave BMI = 25 in no cell). The cut-off 25 is an adult convention used here as a
teaching device, also on the (teenage) YRBSS data.

Also here, because notebook 2 builds them on the same table: the queries f1, f2
and transformations whose sensitivity and stability are derived by brute force,
and the constrained-inference experiments (order constraints on the four answers,
a total that must equal its cells, and the ordering of "# at least h tall").
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import (
    as_result,
    check_choice,
    check_epsilon,
    check_neighbours,
    check_nonnegative,
    check_positive,
    check_positive_int,
)
from dplab.datasets import load_yrbss, table_size
from dplab.inference import isotonic_fit, project_onto_constraints
from dplab.mechanisms.laplace import laplace_mechanism, laplace_mse, laplace_scale
from dplab.sensitivity import histogram_sensitivity, l1_sensitivity, stability

__all__ = [
    "ANSWERS_FROM_CELLS",
    "BMI_CUTOFF",
    "BMI_ORDER_A_UB",
    "BMI_ORDER_B_UB",
    "BMI_TOTAL_A_EQ",
    "BMI_UNIVERSE",
    "TALL_RELEASES",
    "TALL_THRESHOLDS_M",
    "TWEET_UNIVERSE",
    "body_mass_index",
    "ACCOUNTINGS",
    "bmi_algorithm_1",
    "bmi_answers_sensitivity",
    "bmi_algorithm_2",
    "bmi_answer_mse",
    "bmi_cells",
    "bmi_derived_sensitivities",
    "bmi_expected_total_error",
    "bmi_f1",
    "bmi_f2",
    "bmi_inference_trials",
    "bmi_noise_scale",
    "bmi_order_violation_probability",
    "bmi_slides_table",
    "bmi_totals_expected_error",
    "bmi_totals_trials",
    "bmi_transform",
    "bmi_true_answers",
    "first_words",
    "tall_counts",
    "tall_counts_expected_error",
    "tall_counts_isotonic_trials",
]

BMI_CUTOFF = 25.0
INCH = 0.0254  # metres
POUND = 0.45359237  # kilograms
#: Algorithm 2's post-processing: answers = A @ cells, cells = (M<25, M>=25, F<25, F>=25).
ANSWERS_FROM_CELLS = np.array([[1, 0, 0, 0], [1, 1, 0, 0], [0, 0, 1, 0], [0, 0, 1, 1]], dtype=float)
_COLUMNS = ("sex", "height_m", "weight_kg")


def bmi_slides_table() -> dict[str, np.ndarray]:
    """The 5-row table of [Duke18], converted from feet/inches and pounds to m and kg."""
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
    if len(table["height_m"]):
        check_positive(table["height_m"], "column 'height_m' (metres)", array_ok=True)


def body_mass_index(table: dict[str, np.ndarray]) -> np.ndarray:
    """Body mass index weight / height^2 (kg/m^2) of every row: the row-by-row
    transformation (s, h, w) -> (s, bmi) of [Duke18], stability 1. An empty table
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


#: How Algorithm 1 accounts for its four noisy answers.
ACCOUNTINGS = ("per_query", "joint")


def bmi_answers_sensitivity(neighbours: str = "add_remove") -> float:
    """L1 sensitivity of the four answers A @ cells as one vector ([Duke18], "Generalized
    sensitivity"): max_i ||A e_i||_1 under add/remove (a row joins one cell: 2, a male with
    BMI < 25 is in q1 and in # M), max_(i != j) ||A (e_i - e_j)||_1 under replace-one (a
    row moves between two cells: 4)."""
    a = ANSWERS_FROM_CELLS
    if check_neighbours(neighbours) == "add_remove":
        return float(np.abs(a).sum(axis=0).max())
    return float(max(np.abs(a[:, i] - a[:, j]).sum() for i in range(4) for j in range(4) if i != j))


def bmi_algorithm_1(
    table: dict[str, np.ndarray],
    epsilon: float,
    *,
    rng=None,
    size: int | None = None,
    accounting: str = "per_query",
    neighbours: str = "add_remove",
) -> np.ndarray:
    """[Duke18] Algorithm 1: the four answers, each + Laplace noise of scale
    :func:`bmi_noise_scale` (1, epsilon, neighbours, accounting).

    ``accounting="per_query"`` (the slide): each count has sensitivity 1 under either
    neighbour relation and gets epsilon/4; sequential composition makes the four
    epsilon-DP: Lap(4/epsilon), total error 128/epsilon^2. ``"joint"``: the four answers
    as one vector of L1 sensitivity Delta = :func:`bmi_answers_sensitivity` (2 under
    add/remove, 4 under replace-one) get Lap(Delta/epsilon): 32/epsilon^2 under add/remove,
    the same 128/epsilon^2 under replace-one.
    """
    scale = bmi_noise_scale(1, epsilon, neighbours, accounting)
    _check_table(table, nonempty=True)
    return laplace_mechanism(bmi_true_answers(table), scale, 1.0, size=size, rng=rng)


def bmi_algorithm_2(
    table: dict[str, np.ndarray],
    epsilon: float,
    *,
    rng=None,
    size: int | None = None,
    neighbours: str = "add_remove",
) -> np.ndarray:
    """[Duke18] Algorithm 2: the four disjoint cells + Lap(Delta/epsilon), then sums.

    Parallel composition (add/remove, Delta = 1) or the histogram's sensitivity 2 under
    replace-one (Delta = 2); the sums are post-processing. Returns the same four
    answers as Algorithm 1, with a leading trials axis when ``size`` is given.
    """
    epsilon = check_epsilon(epsilon)
    _check_table(table, nonempty=True)
    cells = laplace_mechanism(bmi_cells(table), histogram_sensitivity(neighbours), epsilon,
                              size=size, rng=rng)
    return cells @ ANSWERS_FROM_CELLS.T


def bmi_noise_scale(
    algorithm: int, epsilon: ArrayLike, neighbours: str = "add_remove", accounting: str = "per_query"
) -> float | np.ndarray:
    """Laplace scale of each noisy count: Algorithm 1, 4/epsilon (four counts at epsilon/4,
    ``accounting="per_query"``) or bmi_answers_sensitivity/epsilon (``"joint"``);
    Algorithm 2, Delta/epsilon for its cells (Delta = histogram_sensitivity)."""
    check_choice(algorithm, (1, 2), "algorithm")
    check_choice(accounting, ACCOUNTINGS, "accounting")
    if algorithm == 2:
        return laplace_scale(histogram_sensitivity(neighbours), epsilon)
    if accounting == "joint":
        return laplace_scale(bmi_answers_sensitivity(neighbours), epsilon)
    check_neighbours(neighbours)
    return laplace_scale(1.0, np.asarray(check_epsilon(epsilon, array_ok=True)) / 4)


def bmi_expected_total_error(
    algorithm: int, epsilon: ArrayLike, neighbours: str = "add_remove", accounting: str = "per_query"
) -> float | np.ndarray:
    """E sum_i (answer_i - truth_i)^2, from the mechanisms' variances.

    Algorithm 1: 4 answers with variance 2 b^2 each, b = bmi_noise_scale: 128/eps^2
    (per-query accounting), 32/eps^2 (joint, add/remove), 128/eps^2 (joint, replace-one).
    Algorithm 2: answers A @ cells with independent cell noise of variance
    laplace_mse(Delta, epsilon): total trace(A A^T) laplace_mse(Delta, epsilon)
    = 6 * 2/eps^2 = 12/eps^2 (add/remove) or 6 * 8/eps^2 = 48/eps^2 (replace-one).
    """
    epsilon = check_epsilon(epsilon, array_ok=True)
    check_neighbours(neighbours)
    check_choice(algorithm, (1, 2), "algorithm")
    if algorithm == 1:
        scale = np.asarray(bmi_noise_scale(1, epsilon, neighbours, accounting))
        return as_result(4 * 2 * scale**2)
    trace = float(np.trace(ANSWERS_FROM_CELLS @ ANSWERS_FROM_CELLS.T))
    return as_result(trace * np.asarray(laplace_mse(histogram_sensitivity(neighbours), epsilon)))


def bmi_answer_mse(
    algorithm: int, epsilon: float, neighbours: str = "add_remove", accounting: str = "per_query"
) -> np.ndarray:
    """E (answer_i - truth_i)^2 for each of the four answers: 2 b^2 w_i with b = bmi_noise_scale.

    Algorithm 1: w_i = 1 (one Laplace draw per answer). Algorithm 2: the answers are A @ cells, so
    answer i carries the noise of sum_j A_ij^2 independent cells: w = (1, 2, 1, 2) ([Duke18]; the
    totals # M and # F are sums of two noisy cells). The four sum to :func:`bmi_expected_total_error`.
    """
    b = bmi_noise_scale(algorithm, check_epsilon(epsilon), neighbours, accounting)
    row_var = np.sum(ANSWERS_FROM_CELLS**2, axis=1) if algorithm == 2 else np.ones(4)
    return 2 * b**2 * row_var


# ------------------------------------------------------------ brute-force sensitivity and stability

#: Four row types that reach every cell: (M, BMI < 25), (M, >= 25), (F, < 25), (F, >= 25).
BMI_UNIVERSE = (
    {"sex": "M", "height_m": 1.80, "weight_kg": 65.0},
    {"sex": "M", "height_m": 1.80, "weight_kg": 90.0},
    {"sex": "F", "height_m": 1.65, "weight_kg": 55.0},
    {"sex": "F", "height_m": 1.65, "weight_kg": 80.0},
)
#: Two tweets for [Duke18]'s "first k words" transformation.
TWEET_UNIVERSE = ({"text": "privacy is hard to get right"}, {"text": "noise makes data safe"})


def bmi_f1(table: dict[str, np.ndarray]) -> np.ndarray:
    """f1 = (q1, q2) = (# M with BMI < 25, # M with BMI >= 25) ([Duke18], sensitivity 1)."""
    return bmi_cells(table)[:2]


def bmi_f2(table: dict[str, np.ndarray]) -> np.ndarray:
    """f2 = (q1, q1 + q2) = (# M with BMI < 25, # M) ([Duke18], sensitivity 2)."""
    return bmi_true_answers(table)[:2]


def bmi_transform(table: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """(sex, height, weight) -> (sex, bmi), row by row: stability 1 ([Duke18]). BMI is
    rounded to 1e-9 so that rows compare equal as multisets."""
    return {"sex": table["sex"], "bmi": np.round(body_mass_index(table), 9)}


def first_words(w: int):
    """[Duke18]'s V2: each tweet becomes w rows, one per word among its first w (stability
    w; the lecture calls it k)."""
    w = check_positive_int(w, "w")

    def transform(table: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        words = [word for text in table["text"] for word in str(text).split()[:w]]
        return {"word": np.array(words)}

    return transform


def bmi_derived_sensitivities(max_rows: int = 3) -> dict[str, float]:
    """Every sensitivity and stability of [Duke18]'s BMI example, by brute force over tables of at
    most ``max_rows`` rows of :data:`BMI_UNIVERSE` (:func:`dplab.sensitivity.l1_sensitivity`,
    :func:`dplab.sensitivity.stability`): S(f1), S(f2), the four cells and the four answers under
    add/remove and replace-one neighbours, the stability of (s, h, w) -> (s, bmi) and of a tweet's
    first 3 words (:data:`TWEET_UNIVERSE`)."""
    out, queries = {}, {"f1": bmi_f1, "f2": bmi_f2, "cells": bmi_cells, "answers": bmi_true_answers}
    for neighbours in ("add_remove", "replace"):
        for name, query in queries.items():
            out[f"{name} {neighbours}"] = l1_sensitivity(query, BMI_UNIVERSE, max_rows, neighbours)
    out["bmi stability"] = stability(bmi_transform, BMI_UNIVERSE, max_rows)
    out["3-words stability"] = stability(first_words(3), TWEET_UNIVERSE, max_rows)
    return out


# ------------------------------------------------------------ constrained inference

#: Inequalities that the true answers obey: 0 <= a1 <= a2 and 0 <= a3 <= a4 (A_ub a <= 0).
BMI_ORDER_A_UB = np.array([[-1, 0, 0, 0], [1, -1, 0, 0], [0, 0, -1, 0], [0, 0, 1, -1]], dtype=float)
BMI_ORDER_B_UB = np.zeros(4)
#: q1 + q2 - total = 0: a released total must equal the sum of its two cells.
BMI_TOTAL_A_EQ = np.array([[1.0, 1.0, -1.0]])


def bmi_order_violation_probability(
    algorithm: int, males_high: float, epsilon: ArrayLike, neighbours: str = "add_remove"
) -> float | np.ndarray:
    """Pr[noisy (# M with BMI < 25) > noisy (# M)] when c2 = # M with BMI >= 25.

    Algorithm 2: the noisy # M minus noisy q1 is c2 + Lap(b), b = Delta/eps the cells'
    scale (Delta = 1 under add/remove, 2 under replace-one): Pr = 1/2 e^{-c2/b}.
    Algorithm 1: the difference of two independent Lap(b), b = 4/eps, exceeds c2 with
    Pr = 1/2 e^{-c2/b} (1 + c2/(2b)) (the difference has density (1 + |x|/b) e^{-|x|/b}/(4b)).
    """
    males_high = check_nonnegative(males_high, "males_high")
    check_choice(algorithm, (1, 2), "algorithm")
    b = np.asarray(bmi_noise_scale(algorithm, epsilon, neighbours))
    if algorithm == 2:
        return as_result(0.5 * np.exp(-males_high / b))
    return as_result(0.5 * np.exp(-males_high / b) * (1 + males_high / (2 * b)))


def bmi_inference_trials(table, algorithm: int, epsilon: float, trials: int, seed: int,
                         neighbours: str = "add_remove") -> dict[str, np.ndarray]:
    """``trials`` runs of an algorithm: the noisy answers, their least-squares projection
    onto the order constraints ([Duke18], "Constrained inference"), the total squared
    error before and after, and whether the noisy answers broke q1 <= q1 + q2."""
    truth = bmi_true_answers(table)
    check_choice(algorithm, (1, 2), "algorithm")
    if algorithm == 1:
        noisy = bmi_algorithm_1(table, epsilon, rng=seed, size=trials)
    else:
        noisy = bmi_algorithm_2(table, epsilon, rng=seed, size=trials, neighbours=neighbours)
    projected = project_onto_constraints(noisy, A_ub=BMI_ORDER_A_UB, b_ub=BMI_ORDER_B_UB)
    return {
        "noisy": noisy,
        "projected": projected,
        "before": np.sum((noisy - truth) ** 2, axis=1),
        "after": np.sum((projected - truth) ** 2, axis=1),
        "violated": noisy[:, 0] > noisy[:, 1],
    }


def bmi_totals_expected_error(epsilon: ArrayLike, projected: bool) -> float | np.ndarray:
    """(# M < 25, # M >= 25, # M) released with Lap(3/epsilon) each (3 queries, epsilon/3 each).

    As released: 3 v with v = laplace_mse(1, epsilon/3). Least-squares projection onto the
    plane q1 + q2 = total is an orthogonal projection onto a 2-dimensional subspace through
    the truth, so it keeps exactly 2 of the 3 independent noise dimensions: 2 v.
    """
    v = np.asarray(laplace_mse(1.0, np.asarray(check_epsilon(epsilon, array_ok=True)) / 3))
    return as_result((2 if projected else 3) * v)


def bmi_totals_trials(epsilon: float, trials: int, seed: int) -> dict[str, np.ndarray]:
    """Squared errors of the three YRBSS male counts before and after projecting onto
    q1 + q2 = total (see :func:`bmi_totals_expected_error`)."""
    cells = bmi_cells(load_yrbss())
    truth = np.array([cells[0], cells[1], cells[0] + cells[1]])
    noisy = laplace_mechanism(truth, 1.0, epsilon / 3, size=trials, rng=seed)
    projected = project_onto_constraints(noisy, A_eq=BMI_TOTAL_A_EQ, b_eq=[0.0])
    return {"before": np.sum((noisy - truth) ** 2, axis=1),
            "after": np.sum((projected - truth) ** 2, axis=1)}


#: Heights h (m) of the counts "# students at least h tall", 1.50, 1.55, ..., 1.95.
TALL_THRESHOLDS_M = np.round(np.arange(1.50, 1.951, 0.05), 2)


def tall_counts(table: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """# students at least h tall for each h of TALL_THRESHOLDS_M: a non-increasing vector.
    One student counts in several: the vector has L1 sensitivity len(TALL_THRESHOLDS_M)."""
    table = load_yrbss() if table is None else table
    return np.array([np.sum(table["height_m"] >= h) for h in TALL_THRESHOLDS_M], dtype=float)


#: How the "# at least h tall" counts are released (see :func:`tall_counts_expected_error`).
TALL_RELEASES = ("direct", "intervals")


def tall_counts_expected_error(epsilon: ArrayLike, release: str = "direct") -> float | np.ndarray:
    """Total expected squared error of the m = len(TALL_THRESHOLDS_M) = 10 tall counts.

    "direct": each count + Lap(m/eps) (the vector's L1 sensitivity is m: a tall student is
    in every count): m * 2 (m/eps)^2 = 2000/eps^2. "intervals": the m disjoint height
    intervals [h_1, h_2), ..., [h_m, oo) + Lap(1/eps) each (a histogram, sensitivity 1 under
    add/remove), then suffix sums: count i carries m - i + 1 noises, total
    2/eps^2 (1 + ... + m) = 110/eps^2 (Algorithm 2's lesson again).
    """
    epsilon = np.asarray(check_epsilon(epsilon, array_ok=True))
    check_choice(release, TALL_RELEASES, "release")
    m = TALL_THRESHOLDS_M.size
    if release == "direct":
        return as_result(m * np.asarray(laplace_mse(float(m), epsilon)))
    return as_result(m * (m + 1) / 2 * np.asarray(laplace_mse(1.0, epsilon)))


def tall_counts_isotonic_trials(
    epsilon: float, trials: int, seed: int, release: str = "direct"
) -> dict[str, np.ndarray]:
    """``trials`` Laplace releases of :func:`tall_counts` (YRBSS), ``release`` as in
    :func:`tall_counts_expected_error`, and their non-increasing isotonic fits ([Duke18],
    "Ordering constraint"), with the squared errors of both."""
    truth = tall_counts()
    check_choice(release, TALL_RELEASES, "release")
    if release == "direct":
        noisy = laplace_mechanism(truth, float(truth.size), epsilon, size=trials, rng=seed)
    else:
        cells = -np.diff(np.append(truth, 0.0))  # the students in [h_i, h_(i+1)), and >= h_m
        noisy_cells = laplace_mechanism(cells, 1.0, epsilon, size=trials, rng=seed)
        noisy = np.cumsum(noisy_cells[:, ::-1], axis=1)[:, ::-1]  # suffix sums
    fitted = isotonic_fit(noisy, increasing=False)
    return {"truth": truth, "noisy": noisy, "fitted": fitted,
            "before": np.sum((noisy - truth) ** 2, axis=1),
            "after": np.sum((fitted - truth) ** 2, axis=1)}
