"""Least-squares projection onto linear constraints and isotonic regression."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.optimize import minimize

from dplab import bmi, inference

ORDER_A_UB, ORDER_B_UB = bmi.BMI_ORDER_A_UB, bmi.BMI_ORDER_B_UB


def _slsqp(y, A_ub, b_ub, A_eq=None, b_eq=None):
    cons = [{"type": "ineq", "fun": lambda z: b_ub - A_ub @ z}]
    if A_eq is not None:
        cons.append({"type": "eq", "fun": lambda z: A_eq @ z - b_eq})
    return minimize(lambda z: np.sum((z - y) ** 2), np.zeros(len(y)), constraints=cons,
                    method="SLSQP", options={"ftol": 1e-14, "maxiter": 500}).x


@pytest.mark.catches("inference.empty_active_set_skipped")
def test_projection_matches_a_general_solver():
    """catches: an active-set search that never tries the empty set (interior points unsolved)."""
    rng = np.random.default_rng(0)
    y = rng.normal(0, 3, size=(40, 4))
    x = inference.project_onto_constraints(y, A_ub=ORDER_A_UB, b_ub=ORDER_B_UB)
    A_eq, b_eq = np.ones((1, 4)), np.array([10.0])
    xe = inference.project_onto_constraints(y, A_eq, b_eq, ORDER_A_UB, ORDER_B_UB)
    for i in range(len(y)):
        np.testing.assert_allclose(x[i], _slsqp(y[i], ORDER_A_UB, ORDER_B_UB), atol=1e-5)
        np.testing.assert_allclose(xe[i], _slsqp(y[i], ORDER_A_UB, ORDER_B_UB, A_eq, b_eq), atol=1e-5)
    np.testing.assert_allclose(xe.sum(axis=1), 10.0)


def test_equality_projection_closed_form():
    y = np.array([1.0, 2.0, 6.0])
    # projection onto {x : sum x = 6}: shift every coordinate by (6 - 9)/3
    np.testing.assert_allclose(inference.project_onto_constraints(y, [[1, 1, 1]], [6]), y - 1.0)


@settings(max_examples=80, deadline=None)
@given(truth=arrays(float, 4, elements=st.floats(0, 50)),
       noise=arrays(float, 4, elements=st.floats(-30, 30)))
def test_projection_never_moves_away_from_a_feasible_truth(truth, noise):
    truth = np.sort(truth)[[0, 1, 2, 3]]
    truth[1] = max(truth[0], truth[1])
    truth[3] = max(truth[2], truth[3])
    projected = inference.project_onto_constraints(truth + noise, A_ub=ORDER_A_UB, b_ub=ORDER_B_UB)
    assert np.all(projected @ ORDER_A_UB.T <= 1e-7)
    assert np.linalg.norm(projected - truth) <= np.linalg.norm(noise) + 1e-7


def test_isotonic_fit():
    fitted = inference.isotonic_fit([3.0, 1.0, 2.0, 5.0, 4.0])
    np.testing.assert_allclose(fitted, [2.0, 2.0, 2.0, 4.5, 4.5])  # pool adjacent violators by hand
    down = inference.isotonic_fit(np.array([[1.0, 3.0, 2.0]]), increasing=False)
    np.testing.assert_allclose(down, [[2.0, 2.0, 2.0]])


def test_bad_input():
    with pytest.raises(ValueError, match="constraints cannot be met"):
        inference.project_onto_constraints([1.0, 2.0], A_ub=[[1, 0], [-1, 0]], b_ub=[-1, 0])
    with pytest.raises(ValueError, match="constraints cannot be met"):
        inference.project_onto_constraints([1.0, 2.0], A_eq=[[1, 1], [1, 1]], b_eq=[1, 2])
    with pytest.raises(ValueError, match="A_ub must have 2 columns"):
        inference.project_onto_constraints([1.0, 2.0], A_ub=[[1, 0, 0]], b_ub=[0])
    with pytest.raises(ValueError, match="one entry per constraint row"):
        inference.project_onto_constraints([1.0, 2.0], A_ub=[[1, 0]], b_ub=[0, 1])
    with pytest.raises(ValueError, match="at least one answer"):
        inference.project_onto_constraints([])
    with pytest.raises(ValueError, match="at least one answer"):
        inference.isotonic_fit(np.zeros((3, 0)))
