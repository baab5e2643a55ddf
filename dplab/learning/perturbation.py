"""Simpler private learners for L2-regularised logistic regression: output perturbation and objective
perturbation (Chaudhuri, Monteleoni & Sarwate, "Differentially Private Empirical Risk Minimization",
JMLR 12, 2011, Algorithms 1 and 2).

Both minimise J(w, D) = (1/n) sum_i l(y_i w.x_i) + Lambda N(w), N(w) = ||w||^2 / 2 (1-strongly convex),
here with the logistic loss l(t) = ln(1 + e^{-t}) (labels +-1 as s = 2y - 1), whose derivative
satisfies |l'| <= 1 and |l''| <= c = 1/4. Their conditions: every row has ||x|| <= 1 (use
:func:`dplab.learning.clip_rows` or divide the features by sqrt(d)), n public, and neighbours that
REPLACE one row (the paper's D and D' differ in one entry, same n; not the add/remove relation of
DP-SGD's accounting). Each is pure epsilon-DP.

- Output perturbation (Algorithm 1): w* = argmin J, released as w* + b. The minimiser moves by at
  most 2/(n Lambda) between neighbours (Corollary 8), and b has density proportional to
  exp(-beta ||b||) with beta = n Lambda epsilon / 2: epsilon-DP by Theorem 6.
- Objective perturbation (Algorithm 2): epsilon' = epsilon - ln(1 + 2c/(n Lambda) + c^2/(n Lambda)^2);
  if epsilon' > 0 then Delta = 0, else Delta = c / (n (e^{epsilon/4} - 1)) - Lambda and epsilon' =
  epsilon/2; b has density proportional to exp(-(epsilon'/2) ||b||); released:
  argmin J(w, D) + b.w / n + (Delta/2) ||w||^2. epsilon-DP by Theorem 9 (the extra regulariser Delta
  keeps the Jacobian's ratio between neighbours within e^{epsilon/2} when n Lambda is small).

The noise density proportional to exp(-beta ||b||) in d dimensions has its norm Gamma(d, 1/beta)
distributed (the density of r = ||b|| is proportional to r^{d-1} e^{-beta r}) and its direction
uniform on the sphere, independent of the norm: :func:`norm_exponential_noise` samples it that way.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import check_epsilon, check_positive, check_positive_int, check_rng
from dplab.learning.logistic import LogisticModel, _check_features, _check_labels, _minimise

__all__ = [
    "LOGISTIC_SMOOTHNESS",
    "norm_exponential_noise",
    "objective_perturbation",
    "objective_perturbation_parameters",
    "output_perturbation",
    "output_perturbation_beta",
]

#: c, the bound on the logistic loss's second derivative: l''(t) = e^t/(1 + e^t)^2 <= 1/4
LOGISTIC_SMOOTHNESS = 0.25
_NORM_SLACK = 1e-9  # rows with ||x|| <= 1 + this are accepted (rounding in a division by sqrt(d))


def norm_exponential_noise(dim: int, beta: float, *, size: int | None = None,
                           rng: np.random.Generator | int | None = None) -> np.ndarray:
    """Draws b in R^dim with density proportional to exp(-beta ||b||), the noise of Chaudhuri et al.
    2011, Algorithms 1 and 2: ||b|| ~ Gamma(shape = dim, scale = 1/beta) times a direction uniform on
    the unit sphere (a standard normal vector over its norm). Drawn in that order: ``size`` (or one)
    gammas, then the normals. Returns shape (dim,) or (size, dim)."""
    dim = check_positive_int(dim, "dim")
    beta = check_positive(beta, "beta")
    rng = check_rng(rng)
    count = 1 if size is None else check_positive_int(size, "size")
    radius = rng.gamma(dim, 1.0 / beta, size=count)
    direction = rng.standard_normal((count, dim))
    direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    out = radius[:, None] * direction
    return out[0] if size is None else out


def _check_unit_rows(X: np.ndarray) -> None:
    norms = np.linalg.norm(X, axis=1)
    if np.any(norms > 1 + _NORM_SLACK):
        i = int(np.argmax(norms))
        raise ValueError(f"X's rows must have norm <= 1 (Chaudhuri et al.'s condition), got norm "
                         f"{norms[i]!r} at row {i}; use clip_rows(X) or divide by sqrt(d)")


def output_perturbation_beta(n: int, l2: float, epsilon: float) -> float:
    """beta = n Lambda epsilon / 2 (Chaudhuri et al. 2011, Algorithm 1): the argmin's L2 sensitivity is
    2/(n Lambda) (Corollary 8) and a density proportional to exp(-beta ||b||) with beta = epsilon over
    that sensitivity gives epsilon-DP (Theorem 6), under replace-one neighbours."""
    n = check_positive_int(n, "n")
    return n * check_positive(l2, "l2") * check_epsilon(epsilon) / 2


def objective_perturbation_parameters(n: int, l2: float, epsilon: float,
                                      smoothness: float = LOGISTIC_SMOOTHNESS) -> tuple[float, float]:
    """(epsilon', Delta) of Chaudhuri et al. 2011, Algorithm 2: epsilon' = epsilon - ln(1 + 2c/(n Lambda)
    + c^2/(n Lambda)^2); when epsilon' <= 0, Delta = c/(n (e^{epsilon/4} - 1)) - Lambda and epsilon' =
    epsilon/2, else Delta = 0. The noise is then exp(-(epsilon'/2) ||b||) (beta = epsilon'/2)."""
    n = check_positive_int(n, "n")
    lam, epsilon = check_positive(l2, "l2"), check_epsilon(epsilon)
    c = check_positive(smoothness, "smoothness")
    ratio = c / (n * lam)
    eps_prime = epsilon - math.log1p(2 * ratio + ratio**2)
    if eps_prime > 0:
        return eps_prime, 0.0
    return epsilon / 2, c / (n * math.expm1(epsilon / 4)) - lam


def output_perturbation(X: ArrayLike, y: ArrayLike, epsilon: float, *, l2: float,
                        rng: np.random.Generator | int | None = None) -> LogisticModel:
    """Chaudhuri et al. 2011, Algorithm 1: the regularised minimiser (:func:`dplab.learning.fit_logistic`
    with l2 = Lambda) plus b ~ exp(-beta ||b||), beta = :func:`output_perturbation_beta`. epsilon-DP
    under replace-one neighbours (Theorem 6) when every ||x|| <= 1."""
    X = _check_features(X)
    y = _check_labels(y, X.shape[0])
    _check_unit_rows(X)
    beta = output_perturbation_beta(X.shape[0], l2, epsilon)
    w = _minimise(X, y, float(l2), np.zeros(X.shape[1]))
    return LogisticModel(w + norm_exponential_noise(X.shape[1], beta, rng=rng))


def objective_perturbation(X: ArrayLike, y: ArrayLike, epsilon: float, *, l2: float,
                           rng: np.random.Generator | int | None = None,
                           smoothness: float = LOGISTIC_SMOOTHNESS) -> LogisticModel:
    """Chaudhuri et al. 2011, Algorithm 2: argmin_w J(w, D) + b.w/n + (Delta/2)||w||^2 with
    b ~ exp(-(epsilon'/2) ||b||) and (epsilon', Delta) from :func:`objective_perturbation_parameters`.
    epsilon-DP under replace-one neighbours (Theorem 9) when every ||x|| <= 1 and the loss's second
    derivative is at most ``smoothness`` (1/4 for the logistic loss)."""
    X = _check_features(X)
    y = _check_labels(y, X.shape[0])
    _check_unit_rows(X)
    n = X.shape[0]
    eps_prime, extra = objective_perturbation_parameters(n, l2, epsilon, smoothness)
    b = norm_exponential_noise(X.shape[1], eps_prime / 2, rng=rng)
    return LogisticModel(_minimise(X, y, float(l2) + extra, b / n))
