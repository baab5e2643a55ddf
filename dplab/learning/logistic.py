"""Logistic regression on the shipped YRBSS students, with its per-example gradients written out.

The task: tell a student's sex (``y = 1`` for "M") from height and weight. Two numbers per person
give a model little capacity to remember anyone, so :func:`polynomial_features` adds every monomial
of the two standardised measurements up to a ``degree``: capacity that lets a model fit (and leak)
a small training set, which notebook 12 needs to show why a model leaks.

The feature map is a fixed function of one row (public centres and scales, not the data's own
mean and standard deviation), so it costs no privacy: each standardised value z is clipped to
[-3, 3] and divided by 3, every monomial lies in [-1, 1], and a row of d features (the intercept 1
included) has norm at most sqrt(d).

Loss and gradient (labels y in {0, 1}, margin z = w.x, p = sigmoid(z)): the per-example loss
l(w; x, y) = ln(1 + e^z) - y z = ln(1 + e^{-s z}) with s = 2y - 1, and its gradient
(p - y) x, one row per example: the (n, d) array that DP-SGD clips row by row. The non-private fit
minimises the mean loss plus (l2/2) ||w||^2 with scipy.optimize (trust-region Newton).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize, special

from dplab._checks import check_nonnegative, check_positive_int, check_rng
from dplab.datasets import load_yrbss

__all__ = [
    "HEIGHT_CENTRE_M",
    "HEIGHT_SCALE_M",
    "LogisticModel",
    "WEIGHT_CENTRE_KG",
    "WEIGHT_SCALE_KG",
    "clip_rows",
    "fit_logistic",
    "logistic_gradients",
    "logistic_loss",
    "n_features",
    "polynomial_features",
    "sex_task",
]

#: public centres and scales of the standardisation (rounded values for teenagers, fixed in
#: advance: the data's own mean and sd would make the feature map depend on everyone's data)
HEIGHT_CENTRE_M, HEIGHT_SCALE_M = 1.69, 0.10
WEIGHT_CENTRE_KG, WEIGHT_SCALE_KG = 68.0, 17.0
_Z_CLIP = 3.0


def n_features(degree: int) -> int:
    """d = (degree + 1)(degree + 2)/2: the intercept and every monomial h^i w^j, 1 <= i + j <= degree."""
    degree = check_positive_int(degree, "degree")
    return (degree + 1) * (degree + 2) // 2


def polynomial_features(height_m: ArrayLike, weight_kg: ArrayLike, degree: int = 1) -> np.ndarray:
    """The (n, d) design matrix: column 0 the intercept 1, then u^i v^j for 1 <= i + j <= degree
    (ordered by total degree, then by the power of u), where u = clip((h - 1.69 m)/0.10 m, -3, 3)/3
    and v = clip((w - 68 kg)/17 kg, -3, 3)/3: every entry lies in [-1, 1], so a row's norm is at most
    sqrt(d), d = :func:`n_features` (degree)."""
    degree = check_positive_int(degree, "degree")
    h = np.asarray(height_m, dtype=float)
    w = np.asarray(weight_kg, dtype=float)
    if h.ndim != 1 or h.shape != w.shape or h.size == 0:
        raise ValueError(f"height_m and weight_kg must be non-empty 1-d arrays of one length, got shapes "
                         f"{h.shape} and {w.shape}")
    if not (np.all(np.isfinite(h)) and np.all(np.isfinite(w))):
        raise ValueError("height_m and weight_kg must be finite")
    u = np.clip((h - HEIGHT_CENTRE_M) / HEIGHT_SCALE_M, -_Z_CLIP, _Z_CLIP) / _Z_CLIP
    v = np.clip((w - WEIGHT_CENTRE_KG) / WEIGHT_SCALE_KG, -_Z_CLIP, _Z_CLIP) / _Z_CLIP
    columns = [np.ones_like(u)]
    for total in range(1, degree + 1):
        columns += [u ** i * v ** (total - i) for i in range(total, -1, -1)]
    return np.column_stack(columns)


def sex_task(n: int | None = None, *, degree: int = 1, rng: np.random.Generator | int | None = 0
             ) -> tuple[np.ndarray, np.ndarray]:
    """(X, y) for "is this student male?" from height and weight: X = :func:`polynomial_features`
    of ``degree``, y = 1 for "M", 0 for "F". With ``n`` a uniform random subset of n of the 12,579
    students (without replacement, drawn with ``rng``, seed 0 by default), else all of them in a random
    order. The rows left out are the natural non-members of a membership attack: ``sex_task(None)``
    with the same seed lists the n members first."""
    table = load_yrbss()
    total = len(table["sex"])
    rng = check_rng(rng)
    order = rng.permutation(total)
    if n is not None:
        n = check_positive_int(n, "n")
        if n > total:
            raise ValueError(f"n must be at most the {total} students, got n={n}")
        order = order[:n]
    X = polynomial_features(table["height_m"][order], table["weight_kg"][order], degree)
    return X, (table["sex"][order] == "M").astype(float)


def _check_features(X: ArrayLike, name: str = "X") -> np.ndarray:
    """A finite, non-empty (n, d) float array, else ValueError naming ``name``."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty 2-d array (n, d), got shape {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name} must be finite, got a NaN or inf in {name}")
    return X


def _check_labels(y: ArrayLike, n: int, name: str = "y") -> np.ndarray:
    """Labels in {0, 1}, one per row of X (n of them), as floats; else ValueError naming ``name``."""
    y = np.asarray(y, dtype=float)
    if y.shape != (n,):
        raise ValueError(f"{name} must hold one label per row of X ({n}), got shape {y.shape}")
    if not np.all((y == 0) | (y == 1)):
        raise ValueError(f"{name} must hold labels 0 or 1, got {name}={y[(y != 0) & (y != 1)][0].item()!r}")
    return y


def _weights(weights: ArrayLike, d: int) -> np.ndarray:
    w = np.asarray(weights, dtype=float)
    if w.shape != (d,) or not np.all(np.isfinite(w)):
        raise ValueError(f"weights must be {d} finite numbers (one per column of X), got shape {w.shape}")
    return w


def logistic_loss(weights: ArrayLike, X: ArrayLike, y: ArrayLike) -> np.ndarray:
    """The per-example logistic loss l_i = ln(1 + e^{z_i}) - y_i z_i, z_i = w.x_i (an (n,) array),
    computed as logaddexp(0, z) - y z so that large margins neither overflow nor lose digits."""
    X = _check_features(X)
    y = _check_labels(y, X.shape[0])
    z = X @ _weights(weights, X.shape[1])
    return np.logaddexp(0.0, z) - y * z


def logistic_gradients(weights: ArrayLike, X: ArrayLike, y: ArrayLike) -> np.ndarray:
    """Per-example gradients of :func:`logistic_loss`: row i is (sigmoid(w.x_i) - y_i) x_i, an (n, d)
    array (d l_i / d w = (e^z/(1 + e^z) - y) x). Their mean is the gradient of the mean loss."""
    X = _check_features(X)
    y = _check_labels(y, X.shape[0])
    return _gradients(_weights(weights, X.shape[1]), X, y)


def _gradients(w: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """(sigmoid(X w) - y)[:, None] * X without the checks (DP-SGD's inner loop)."""
    return (special.expit(X @ w) - y)[:, None] * X


@dataclass(frozen=True)
class LogisticModel:
    """A linear classifier on features X: Pr[y = 1 | x] = sigmoid(w.x)."""

    weights: np.ndarray

    def probability(self, X: ArrayLike) -> np.ndarray:
        """Pr[y = 1 | x] = sigmoid(w.x) for each row of X."""
        X = _check_features(X)
        return special.expit(X @ _weights(self.weights, X.shape[1]))

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The predicted label 1 where sigmoid(w.x) > 1/2 (w.x > 0), else 0."""
        return (self.probability(X) > 0.5).astype(float)

    def accuracy(self, X: ArrayLike, y: ArrayLike) -> float:
        """The share of rows whose predicted label equals y."""
        X = _check_features(X)
        return float(np.mean(self.predict(X) == _check_labels(y, X.shape[0])))

    def losses(self, X: ArrayLike, y: ArrayLike) -> np.ndarray:
        """The per-example loss of each row (:func:`logistic_loss`): a membership attacker's score."""
        return logistic_loss(self.weights, X, y)


def fit_logistic(X: ArrayLike, y: ArrayLike, *, l2: float = 1e-4) -> LogisticModel:
    """The non-private model: argmin_w (1/n) sum_i l_i(w) + (l2/2) ||w||^2 (the intercept regularised
    too), by scipy.optimize.minimize (a trust-region Newton method with the exact gradient and
    Hessian) to a gradient norm of 1e-10. With l2 > 0 the objective is strongly convex and the
    minimiser unique; with l2 = 0 on separable data there is none (the weights grow until 2,000
    iterations stop them)."""
    X = _check_features(X)
    y = _check_labels(y, X.shape[0])
    l2 = check_nonnegative(l2, "l2")
    return LogisticModel(_minimise(X, y, l2, np.zeros(X.shape[1])))


def _minimise(X: np.ndarray, y: np.ndarray, l2: float, linear: np.ndarray) -> np.ndarray:
    """argmin_w mean(logistic loss) + (l2/2)||w||^2 + linear.w (objective perturbation adds the last), by
    scipy's trust-region Newton method (``trust-exact``) with the exact gradient and Hessian
    X^T diag(p(1 - p)) X / n + l2 I, to a gradient norm of 1e-10 or 2,000 iterations."""
    n = X.shape[0]

    def objective(w):
        z = X @ w
        return np.mean(np.logaddexp(0.0, z) - y * z) + 0.5 * l2 * (w @ w) + linear @ w

    def gradient(w):
        return X.T @ (special.expit(X @ w) - y) / n + l2 * w + linear

    def hessian(w):
        p = special.expit(X @ w)
        return X.T @ (X * (p * (1 - p))[:, None]) / n + l2 * np.eye(X.shape[1])

    result = optimize.minimize(objective, np.zeros(X.shape[1]), jac=gradient, hess=hessian,
                               method="trust-exact", options={"gtol": 1e-10, "maxiter": 2000})
    return result.x


def clip_rows(X: ArrayLike, bound: float = 1.0) -> np.ndarray:
    """Each row scaled down to norm <= ``bound`` (x min(1, bound/||x||)); rows inside are unchanged.
    A map of one row at a time (no privacy cost): what output and objective perturbation need
    (||x|| <= 1). Dividing a :func:`polynomial_features` matrix by sqrt(d) also does it, uniformly."""
    X = _check_features(X)
    if not (bound > 0 and np.isfinite(bound)):
        raise ValueError(f"bound must be finite and > 0, got bound={bound!r}")
    norms = np.linalg.norm(X, axis=1)
    return X * np.minimum(1.0, bound / np.maximum(norms, np.finfo(float).tiny))[:, None]
