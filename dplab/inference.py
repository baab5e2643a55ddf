"""Constrained inference: post-process noisy answers so they obey what the truth obeys.

[Duke18], "Constrained Inference": find qbar closest to the noisy qtilde (least
squares) subject to constraints that hold on the true answers. For a convex
constraint set, ||q - qbar||_2 <= ||q - qtilde||_2 for every draw (projection onto a
convex set containing q never moves away from q), and it is post-processing, so free.
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize

__all__ = ["isotonic_fit", "project_onto_constraints"]

_MAX_INEQUALITIES = 12  # the exact active-set search below tries 2^m sets


def _as_matrix(name: str, a, n: int) -> np.ndarray:
    a = np.atleast_2d(np.asarray(a, dtype=float))
    if a.shape[1] != n:
        raise ValueError(f"{name} must have {n} columns (one per answer), got shape {a.shape}")
    return a


def project_onto_constraints(
    noisy: ArrayLike,
    A_eq: ArrayLike | None = None,
    b_eq: ArrayLike | None = None,
    A_ub: ArrayLike | None = None,
    b_ub: ArrayLike | None = None,
    *,
    tol: float = 1e-9,
) -> np.ndarray:
    """argmin_x ||x - noisy||^2 subject to A_eq x = b_eq and A_ub x <= b_ub.

    ``noisy`` has the answers on its last axis; leading axes are independent trials
    (vectorized). Solved exactly by trying every set of active inequalities (at most
    12 inequalities): for an active set S the KKT system gives x = y - A_S^T lambda with
    A_S A_S^T lambda = A_S y - b_S; the solution is the one that is feasible with
    lambda >= 0 on the inequalities (unique, the problem being strictly convex).
    Raises ValueError when the constraints cannot all be met.
    """
    y = np.asarray(noisy, dtype=float)
    if y.ndim == 0 or y.shape[-1] == 0:
        raise ValueError(f"noisy must have at least one answer on its last axis, got shape {y.shape}")
    n = y.shape[-1]
    eq = _as_matrix("A_eq", A_eq, n) if A_eq is not None else np.zeros((0, n))
    ub = _as_matrix("A_ub", A_ub, n) if A_ub is not None else np.zeros((0, n))
    beq = np.atleast_1d(np.asarray(b_eq if b_eq is not None else np.zeros(len(eq)), dtype=float))
    bub = np.atleast_1d(np.asarray(b_ub if b_ub is not None else np.zeros(len(ub)), dtype=float))
    if beq.shape != (len(eq),) or bub.shape != (len(ub),):
        raise ValueError(f"b_eq and b_ub must have one entry per constraint row, got b_eq "
                         f"{beq.shape} for {len(eq)} rows and b_ub {bub.shape} for {len(ub)} rows")
    if len(ub) > _MAX_INEQUALITIES:
        raise ValueError(f"A_ub may have at most {_MAX_INEQUALITIES} rows, got {len(ub)}")
    feasible = optimize.linprog(np.zeros(n), A_ub=ub if len(ub) else None, b_ub=bub if len(ub) else None,
                                A_eq=eq if len(eq) else None, b_eq=beq if len(eq) else None,
                                bounds=[(None, None)] * n, method="highs")
    if feasible.status == 2:
        raise ValueError("the constraints cannot be met: no x satisfies A_eq x = b_eq and A_ub x <= b_ub")

    flat = y.reshape(-1, n)
    out = np.full_like(flat, np.nan)
    todo = np.ones(len(flat), dtype=bool)
    m = len(ub)
    for size in range(m + 1):
        for active in itertools.combinations(range(m), size):
            if not todo.any():
                break
            A = np.vstack([eq, ub[list(active)]])
            b = np.concatenate([beq, bub[list(active)]])
            if len(A):
                lam = np.linalg.lstsq(A @ A.T, (flat[todo] @ A.T - b).T, rcond=None)[0].T
                x = flat[todo] - lam @ A
                ok = np.all(lam[:, len(eq):] >= -tol, axis=1)
                if len(eq):
                    ok &= np.all(np.abs(x @ eq.T - beq) <= tol * (1 + np.abs(beq)), axis=1)
            else:
                x = flat[todo]
                ok = np.ones(len(x), dtype=bool)
            if m:
                ok &= np.all(x @ ub.T <= bub + tol * (1 + np.abs(bub)), axis=1)
            idx = np.flatnonzero(todo)[ok]
            out[idx] = x[ok]
            todo[idx] = False
    if todo.any():  # pragma: no cover - degenerate constraints the KKT search could not settle
        raise ValueError("project_onto_constraints found no KKT point; the constraints are degenerate")
    return out.reshape(y.shape)


def isotonic_fit(noisy: ArrayLike, increasing: bool = True) -> np.ndarray:
    """Least-squares fit to ``noisy`` that is monotone along its last axis.

    Isotonic regression ([Duke18], "Ordering Constraint"), computed by
    ``scipy.optimize.isotonic_regression`` (pool adjacent violators) for each trial.
    """
    y = np.asarray(noisy, dtype=float)
    if y.ndim == 0 or y.shape[-1] == 0:
        raise ValueError(f"noisy must have at least one answer on its last axis, got shape {y.shape}")
    flat = y.reshape(-1, y.shape[-1])
    fitted = np.array([optimize.isotonic_regression(row, increasing=increasing).x for row in flat])
    return fitted.reshape(y.shape)
