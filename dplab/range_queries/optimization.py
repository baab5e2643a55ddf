"""Can we beat the hierarchy? An optimised p-Identity strategy for all range queries (notebook 3).

McKenna, Miklau, Hay & Machanavajjhala, "Optimizing error of high-dimensional
statistical queries under differential privacy" (VLDB 2018), Sect. 5: the strategy
A(Theta) = [I; Theta] D, with Theta a non-negative p x k matrix and D = diag(1/(1 +
column sums of Theta)), so every column of A has L1 norm 1 (sensitivity 1). Its
matrix-mechanism error on the workload W is

    2/eps^2 ||W A^+||_F^2 = 2/eps^2 tr[(I + Theta^T Theta)^{-1} D^{-1} W^T W D^{-1}],

minimised with L-BFGS-B (bounds Theta >= 0) and the analytic gradient below.
W^T W for all ranges is known in closed form: (W^T W)_ab = min(a, b)(k + 1 - max(a, b)).
"""

from __future__ import annotations

import numpy as np
from scipy import optimize

from dplab._checks import check_epsilon, check_positive_int, check_rng
from dplab.datasets import load_array
from dplab.range_queries.errors import all_ranges_gram
from dplab.range_queries.strategies import RangeStrategy

__all__ = [
    "P_IDENTITY_FILE",
    "P_IDENTITY_K",
    "P_IDENTITY_SEED",
    "PIdentityStrategy",
    "load_p_identity",
    "optimize_p_identity",
    "p_identity_error",
    "p_identity_objective",
    "p_identity_matrix",
    "write_p_identity",
]

#: The shipped strategy's k, and the seed of its random start (``make optimise``).
P_IDENTITY_K, P_IDENTITY_SEED = 256, 2028
#: The k = 256 strategy shipped in dplab/data/ (written by ``make optimise``).
P_IDENTITY_FILE = "p_identity_k256.npy"


def p_identity_matrix(theta: np.ndarray) -> np.ndarray:
    """The strategy A(Theta) = [I; Theta] D with unit L1 column norms."""
    theta = np.asarray(theta, dtype=float)
    d = 1.0 / (1.0 + theta.sum(axis=0))
    return np.vstack([np.eye(theta.shape[1]), theta]) * d


def p_identity_objective(theta: np.ndarray, gram: np.ndarray) -> tuple[float, np.ndarray]:
    """The error units ||W A(Theta)^+||_F^2 and their gradient in Theta, for L-BFGS-B.

    f = tr(X^{-1} M), X = I + Theta^T Theta, M = diag(s) G diag(s), s = 1 + 1^T Theta.

    Gradient: -2 Theta X^{-1} M X^{-1} + 2 * 1 u^T, with u_j = (G diag(s) X^{-1})_jj.
    """
    k = theta.shape[1]
    s = 1.0 + theta.sum(axis=0)
    x = np.eye(k) + theta.T @ theta
    x_inv = np.linalg.inv(x)
    m = gram * np.outer(s, s)
    xm = x_inv @ m
    value = float(np.trace(xm))
    y = xm @ x_inv
    u = np.einsum("ij,ji->i", gram * s[None, :], x_inv)
    grad = -2.0 * theta @ y + 2.0 * u[None, :]
    return value, grad


def p_identity_error(theta: np.ndarray, epsilon: float = 1.0) -> float:
    """Expected total squared error over all ranges of the p-Identity strategy, with
    least-squares reconstruction: 2/eps^2 ||W A^+||_F^2."""
    theta = np.asarray(theta, dtype=float)
    return 2.0 / check_epsilon(epsilon) ** 2 * p_identity_objective(theta, all_ranges_gram(theta.shape[1]))[0]


def optimize_p_identity(
    k: int, p: int | None = None, *, rng=None, maxiter: int = 2000, callback=None
) -> np.ndarray:
    """Theta >= 0 (p x k, default p = max(1, k // 16)) minimising the all-range error,
    by L-BFGS-B from a random start (uniform on [0, 1/4]; Theta = 0, the identity, is a
    stationary point on the boundary that larger starts can fall into)."""
    k = check_positive_int(k, "k")
    p = max(1, k // 16) if p is None else check_positive_int(p, "p")
    rng = check_rng(rng)
    gram = all_ranges_gram(k)

    def fun(flat: np.ndarray):
        value, grad = p_identity_objective(flat.reshape(p, k), gram)
        return value, grad.ravel()

    start = rng.uniform(0.0, 0.25, size=p * k)  # large starts can collapse to Theta = 0
    result = optimize.minimize(fun, start, jac=True, method="L-BFGS-B",
                               bounds=[(0.0, None)] * (p * k),
                               options={"maxiter": maxiter}, callback=callback)
    return result.x.reshape(p, k)


class PIdentityStrategy(RangeStrategy):
    """The p-Identity strategy A(Theta) as a range strategy: measure, reconstruct (least
    squares through the pseudo-inverse) and score like every other strategy. Its
    sensitivity is 1 by construction; its expected error has the closed form above."""

    name = "p_identity"
    sensitivity = 1.0

    def __init__(self, theta: np.ndarray):
        self.theta = np.asarray(theta, dtype=float)
        if self.theta.ndim != 2:
            raise ValueError(f"theta must be a 2-d array (p x k), got shape {self.theta.shape}")
        if not np.all(np.isfinite(self.theta) & (self.theta >= 0)):
            low = float(self.theta.min())
            raise ValueError(f"theta must hold finite entries >= 0, got min(theta)={low!r}")
        super().__init__(p_identity_matrix(self.theta))

    def error_units(self, inference: bool = False) -> float:
        """||W A^+||_F^2 = tr[(I + Theta^T Theta)^{-1} D^{-1} W^T W D^{-1}]."""
        return p_identity_objective(self.theta, all_ranges_gram(self.k))[0]


def load_p_identity() -> np.ndarray:
    """Theta of the k = 256 p-Identity strategy optimised by ``make optimise`` (shipped data)."""
    return load_array(P_IDENTITY_FILE)


def write_p_identity(path, *, seed: int = P_IDENTITY_SEED, maxiter: int = 3000, step=None) -> np.ndarray:
    """Optimise the k = 256 p-Identity strategy (a minute or two) and save Theta to ``path``
    (``make optimise`` writes dplab/data's copy). ``step()``, if given, is called after each
    L-BFGS iteration (the lab passes a progress bar's)."""
    theta = optimize_p_identity(P_IDENTITY_K, rng=seed, maxiter=maxiter,
                                callback=None if step is None else (lambda _x: step()))
    np.save(path, theta)
    return theta
