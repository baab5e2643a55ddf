"""What MWEM is measured against on the same workload: notebook 5's alternatives at notebook 11's scale.

- Laplace on every answer: k counts, each of sensitivity 1, each released by the Laplace mechanism
  with the per-answer epsilon that spends the budget by basic composition (eps/k: pure eps-DP) or by
  advanced composition (Dwork, Rothblum & Vadhan 2010; the exact per-step epsilon of
  :func:`dplab.accounting.advanced_composition_per_step`: (eps, delta)-DP). Its k errors are iid
  Lap(b), |Lap(b)| is Exponential(b), so E[mean error] = b and E[max error] = b H_k (H_k = 1 + 1/2 +
  ... + 1/k, the expected maximum of k standard exponentials; Renyi's representation): exact, for any k.
- The noisy histogram: Lap(Delta/eps) on each of the |X| cells (Delta = 2 under replace-one with n
  public, as MWEM takes n; 1 under add/remove), every answer computed from the noisy cells, then
  (``project``) the cells projected onto {x >= 0, sum x = n}, post-processing that never increases
  the histogram's L2 error (projection onto a convex set that holds the truth). Before projection a
  query over m cells has error variance 2 m b^2 and mean 0. The projection lowers the L2 error of the
  cells, not that of every query: where most cells are empty (12,579 students in 2^16 cells) it
  subtracts one threshold from every cell and zeroes most of them, and along a wide range those
  shifts add up to a bias the raw noise does not have; measure both before choosing one.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from dplab._checks import (
    as_result,
    check_beta,
    check_delta,
    check_epsilon,
    check_positive,
    check_positive_int,
    check_rng,
)
from dplab.accounting.advanced import advanced_composition_per_step
from dplab.mechanisms.laplace import Laplace
from dplab.sensitivity import histogram_sensitivity

__all__ = [
    "COMPOSITIONS",
    "laplace_answers",
    "laplace_answers_expected_errors",
    "laplace_answers_max_error_bound",
    "laplace_per_answer",
    "noisy_histogram",
    "noisy_histogram_expected_squared_errors",
    "project_onto_simplex",
    "release_errors",
]


def _basic(epsilon: float, k: int, delta: float | None) -> float:
    return epsilon / k


def _advanced(epsilon: float, k: int, delta: float | None) -> float:
    if delta is None:
        raise ValueError("advanced composition needs a delta > 0, got delta=None")
    return advanced_composition_per_step(epsilon, k, check_delta(delta, allow_zero=False))


#: how the k answers share the budget: name -> per-answer epsilon (epsilon, k, delta)
COMPOSITIONS = {"basic": _basic, "advanced": _advanced}


def laplace_per_answer(k: int, epsilon: float, composition: str = "basic", delta: float | None = None
                       ) -> Laplace:
    """The Laplace mechanism each of k counts gets (sensitivity 1) when k answers spend ``epsilon`` by
    ``composition``: "basic" (eps/k each, eps-DP) or "advanced" (the exact per-step eps of advanced
    composition at ``delta``: (eps, delta)-DP)."""
    if composition not in COMPOSITIONS:
        raise ValueError(f"composition must be one of {tuple(COMPOSITIONS)}, got composition={composition!r}")
    k, epsilon = check_positive_int(k, "k"), check_epsilon(epsilon)
    return Laplace(1.0, COMPOSITIONS[composition](epsilon, k, delta))


def laplace_answers_expected_errors(k: ArrayLike, epsilon: float, composition: str = "basic",
                                    delta: float | None = None
                                    ) -> tuple[float | np.ndarray, float | np.ndarray]:
    """(E[max error], E[mean error]) of Laplace on every one of k answers: (b H_k, b) with b the scale
    of :func:`laplace_per_answer` and H_k = digamma(k + 1) + Euler's gamma (the mean of the largest
    of k iid standard exponentials). ``k`` may be an array (a curve over k)."""
    ks = np.atleast_1d(check_positive_int(k, "k", array_ok=True))
    b = np.array([laplace_per_answer(int(m), epsilon, composition, delta).scale for m in ks])
    harmonic = special.digamma(ks + 1.0) + np.euler_gamma
    shape = np.shape(k)
    return as_result((b * harmonic).reshape(shape)), as_result(b.reshape(shape))


def laplace_answers_max_error_bound(k: ArrayLike, epsilon: float, beta: float, composition: str = "basic",
                                    delta: float | None = None) -> float | np.ndarray:
    """alpha (counts) with Pr[max error of :func:`laplace_answers` > alpha] <= beta: b ln(k/beta), the
    union bound over the k tails Pr[|Lap(b)| > alpha] = e^(-alpha/b) ([Roth11] Theorem 3) at the scale b
    of :func:`laplace_per_answer`, the one the mechanism uses. With "advanced" that is 1/eps_0, eps_0 the
    root of DRV's eps_0 sqrt(2k ln(1/delta)) + k eps_0 (e^eps_0 - 1) = eps: about sqrt(2k ln(1/delta))/eps,
    half the scale sqrt(8k ln(1/delta))/eps of [Roth11]'s corollary (:func:`dplab.laplace_accuracy_k`),
    and defined for any eps. ``k`` may be an array (a curve over k)."""
    ks = np.atleast_1d(check_positive_int(k, "k", array_ok=True))
    beta = check_beta(beta)
    b = np.array([laplace_per_answer(int(m), epsilon, composition, delta).scale for m in ks])
    return as_result((b * np.log(ks / beta)).reshape(np.shape(k)))


def laplace_answers(answers: ArrayLike, epsilon: float, rng: np.random.Generator | int | None = None, *,
                    composition: str = "basic", delta: float | None = None) -> np.ndarray:
    """The k counts ``answers`` released by :func:`laplace_per_answer`'s mechanism."""
    a = np.asarray(answers, dtype=float)
    if a.ndim != 1 or a.size == 0:
        raise ValueError(f"answers must be a non-empty 1-d array of counts, got shape {a.shape}")
    return np.asarray(laplace_per_answer(a.size, epsilon, composition, delta).sample(a, rng))


def project_onto_simplex(values: ArrayLike, total: float) -> np.ndarray:
    """argmin ||x - values||_2 over {x >= 0, sum x = total}: x = max(values - tau, 0) with tau the
    one threshold that makes the sum right, found by sorting (Held, Wolfe & Crowder 1974; Duchi,
    Shalev-Shwartz, Singer & Chandra, ICML 2008, Figure 1). Leading axes are independent vectors."""
    v = np.asarray(values, dtype=float)
    if v.ndim == 0 or v.shape[-1] == 0 or not np.all(np.isfinite(v)):
        raise ValueError(f"values must be a finite array with at least one entry on its last axis, "
                         f"got shape {v.shape}")
    total = check_positive(total, "total")
    u = -np.sort(-v, axis=-1)
    cumulative = np.cumsum(u, axis=-1) - total
    j = np.arange(1, v.shape[-1] + 1)
    rho = np.sum(u - cumulative / j > 0, axis=-1, keepdims=True)  # the number of positive entries
    tau = np.take_along_axis(cumulative, rho - 1, axis=-1) / rho
    return np.maximum(v - tau, 0.0)


def noisy_histogram(histogram: ArrayLike, epsilon: float, rng: np.random.Generator | int | None = None, *,
                    project: bool = True, neighbours: str = "replace") -> np.ndarray:
    """The histogram with Lap(Delta/eps) on each cell (Delta of
    :func:`dplab.sensitivity.histogram_sensitivity`: 2 under "replace", n public; 1 under "add_remove"),
    then, with ``project``, projected onto {x >= 0, sum x = n} (:func:`project_onto_simplex`; n public,
    so replace-one neighbours only)."""
    h = np.asarray(histogram, dtype=float)
    if h.ndim != 1 or h.size == 0 or np.any(h < 0) or h.sum() <= 0:
        raise ValueError(f"histogram must be a non-empty 1-d array of counts >= 0 with at least one record, "
                         f"got shape {h.shape}")
    sensitivity = histogram_sensitivity(neighbours)
    if project and sensitivity != histogram_sensitivity("replace"):
        raise ValueError("project needs n public, i.e. neighbours='replace', got neighbours='add_remove'")
    noisy = np.asarray(Laplace(sensitivity, check_epsilon(epsilon)).sample(h, check_rng(rng)))
    return project_onto_simplex(noisy, h.sum()) if project else noisy


def noisy_histogram_expected_squared_errors(query_sizes: ArrayLike, epsilon: float,
                                            neighbours: str = "replace") -> float | np.ndarray:
    """E[(error of a query over m cells)^2] = 2 m (Delta/eps)^2 for the noisy histogram before projection
    (a sum of m iid Lap(Delta/eps); Delta of :func:`dplab.sensitivity.histogram_sensitivity`). Query
    sizes: ``workload @ ones``."""
    m = np.asarray(query_sizes, dtype=float)
    if np.any(~np.isfinite(m)) or np.any(m < 0):
        raise ValueError(f"query_sizes must be counts of cells >= 0, got query_sizes={query_sizes!r}")
    b = histogram_sensitivity(neighbours) / check_epsilon(epsilon)
    return as_result(2 * m * b**2)


def release_errors(truth: ArrayLike, estimate: ArrayLike) -> tuple[float, float]:
    """(max, mean) over the queries of |estimate - truth|: the two errors notebook 11 reports."""
    t, e = np.asarray(truth, dtype=float), np.asarray(estimate, dtype=float)
    if t.shape != e.shape or t.ndim != 1 or t.size == 0:
        raise ValueError(f"truth and estimate must be 1-d arrays of the same length, got shapes {t.shape} "
                         f"and {e.shape}")
    err = np.abs(e - t)
    return float(err.max()), float(err.mean())
