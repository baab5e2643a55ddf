"""Ex-post private noise reduction: release ever less noisy answers, pay for the last one.

An accuracy-first analyst wants the most private answer that is accurate enough. Noise
reduction releases a sequence of answers, each less noisy than the one before, whose noises
are *correlated* so that stopping after the i-th answer costs only the privacy of the i-th
(an ex-post guarantee: the loss depends on when one stopped), not the sum over all of them
as independent releases (the "doubling" baseline) would.

- Laplace noise reduction (Koufogiannis, Han & Pappas, "Gradual Release of Sensitive Data
  under Differential Privacy", J. Privacy and Confidentiality 7(2), 2017; used by Ligett,
  Neel, Roth, Waggoner & Wu, "Accuracy First: Selecting a Differential Privacy Level for
  Accuracy-Constrained ERM", NeurIPS 2017, its noise-reduction algorithm): for
  eps_1 < ... < eps_m the noises are drawn backwards, eta_m ~ Lap(Delta/eps_m) and
  eta_i = eta_{i+1} w.p. (eps_i/eps_{i+1})^2, else eta_{i+1} + Lap(Delta/eps_i). Each
  eta_i is exactly Lap(Delta/eps_i), and (eta_m, ..., eta_1) is a Markov chain whose
  transitions do not depend on the data, so the first i releases are eps_i-DP.
- Brownian noise reduction (Whitehouse, Ramdas, Wu & Rogers, "Brownian Noise Reduction:
  Maximizing Privacy Subject to Accuracy Constraints", NeurIPS 2022; [Rogers23]: Rogers,
  Samorodnitsky, Wu & Ramdas, NeurIPS 2023, Definition 4.4): for times
  t_1 > ... > t_m > 0 release f(D) + W_{t_1}, f(D) + W_{t_2}, ... with W a standard
  Brownian motion, traced backwards. Stopped at time T it is charged like a Gaussian
  mechanism of variance T: rho = Delta^2 / (2T) (the unified filter of [Rogers23]).

Samplers, their privacy losses and the martingale behind the filter live here together.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import (
    as_result,
    check_positive,
    check_positive_int,
    check_rho,
    check_rng,
    check_sensitivity,
)
from dplab.mechanisms._noise import noise_shape

__all__ = [
    "brownian_lookahead_loss",
    "brownian_martingale_terms",
    "brownian_noise_reduction",
    "brownian_privacy_loss",
    "brownian_rho",
    "brownian_stopped_loss",
    "brownian_time",
    "laplace_noise_reduction",
    "laplace_noise_reduction_cost",
]


def _check_schedule(schedule: object, name: str, *, increasing: bool) -> np.ndarray:
    """A non-empty 1-D schedule of finite positive numbers, strictly increasing (epsilons)
    or strictly decreasing (times), as a float array; otherwise raise naming ``name``."""
    order = "strictly increasing" if increasing else "strictly decreasing"
    try:
        x = np.asarray(schedule)
    except ValueError:  # a ragged nested sequence
        x = np.asarray(None)
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence of {order} numbers, "
                         f"got {name}={schedule!r}")
    shown = schedule if isinstance(schedule, (list, tuple, np.ndarray)) else x  # errors show the input
    x = check_positive(shown, name, array_ok=True)
    step = np.diff(x) if increasing else -np.diff(x)
    bad = np.flatnonzero(~(step > 0))
    if bad.size:
        i = int(bad[0]) + 1
        raise ValueError(f"{name} must be {order}, got {name}={x.tolist()!r} "
                         f"({name}[{i}]={x[i].item()!r} after {name}[{i - 1}]={x[i - 1].item()!r})")
    return x


# --- Laplace noise reduction -------------------------------------------------------------


def laplace_noise_reduction(
    value: ArrayLike,
    sensitivity: float,
    epsilons: ArrayLike,
    *,
    size: int | None = None,
    rng: np.random.Generator | int | None = None,
) -> np.ndarray:
    """Release ``value + eta_1, ..., value + eta_m`` with coupled Laplace noises.

    Koufogiannis, Han & Pappas (2017); Ligett et al. (2017), Laplace noise reduction. For an
    increasing schedule eps_1 < ... < eps_m (b_i = Delta/eps_i), drawn backwards:

        eta_m ~ Lap(b_m);  for i = m-1, ..., 1:
        eta_i = eta_{i+1}                 with probability (eps_i / eps_{i+1})^2,
        eta_i = eta_{i+1} + Lap(b_i)      otherwise.

    Each eta_i is exactly Lap(b_i): its characteristic function is
    1/(1 + b_{i+1}^2 u^2) * (p + (1 - p)/(1 + b_i^2 u^2)) = 1/(1 + b_i^2 u^2) for
    p = (b_{i+1}/b_i)^2. Stopping after i releases (by a rule that sees only the released
    values) is eps_i ex-post private (:func:`laplace_noise_reduction_cost`); its realised
    loss is ``laplace_privacy_loss(y_i, ..., epsilon=eps_i)``. Independent draws per level
    would have the same marginals and cost eps_1 + ... + eps_i instead.

    The levels are on the last axis: shape ``(size,) + numpy.shape(value) + (m,)``, without
    the leading axis when ``size`` is None (``(m,)`` for a scalar value). Vectorised over
    the draws; the loop runs over the m levels.
    """
    sensitivity = check_sensitivity(sensitivity)
    epsilons = _check_schedule(epsilons, "epsilons", increasing=True)
    rng = check_rng(rng)
    shape = noise_shape(value, size)
    scales = sensitivity / epsilons
    keep = (epsilons[:-1] / epsilons[1:]) ** 2
    noise = np.empty(shape + (epsilons.size,))
    noise[..., -1] = scales[-1] * rng.laplace(0.0, 1.0, size=shape)
    for i in range(epsilons.size - 2, -1, -1):
        fresh = scales[i] * rng.laplace(0.0, 1.0, size=shape)
        same = rng.random(size=shape) < keep[i]
        noise[..., i] = np.where(same, noise[..., i + 1], noise[..., i + 1] + fresh)
    return np.asarray(value, dtype=float)[..., None] + noise


def laplace_noise_reduction_cost(epsilons: ArrayLike, releases: ArrayLike) -> float | np.ndarray:
    """Ex-post epsilon of stopping a Laplace noise reduction after ``releases`` = i answers: eps_i.

    Ligett et al. (2017): the privacy loss of (y_1, ..., y_i) is that of y_i alone, at most
    eps_i (the chain of noises is Markov backwards with data-free transitions). ``releases``
    counts answers, 1 <= i <= m (an int or an array of them).
    """
    epsilons = _check_schedule(epsilons, "epsilons", increasing=True)
    releases = check_positive_int(releases, "releases", array_ok=True)
    too_many = np.flatnonzero(np.ravel(releases) > epsilons.size)
    if too_many.size:
        bad = np.ravel(releases)[too_many[0]].item()
        raise ValueError(f"releases must be at most len(epsilons)={epsilons.size}, got releases={bad!r}")
    return as_result(epsilons[np.asarray(releases) - 1])


# --- Brownian noise reduction ------------------------------------------------------------


def _brownian_path(times: np.ndarray, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """W_{t_1}, ..., W_{t_m} (last axis) for decreasing times, from Z ~ N(0, 1) of shape
    ``shape + (m,)``: X_s = W_t / t with s = 1/t is a Brownian motion in s (time inversion), so
    W_{t_i} / t_i = sum_{j <= i} sqrt(s_j - s_{j-1}) Z_j with s_0 = 0. Step by step this is the
    Brownian bridge W_{t_{i+1}} = (t_{i+1}/t_i) W_{t_i} + sqrt(t_{i+1} (t_i - t_{i+1}) / t_i) Z."""
    ds = np.empty_like(times)
    ds[0] = 1.0 / times[0]
    ds[1:] = (times[:-1] - times[1:]) / (times[:-1] * times[1:])  # 1/t_{i+1} - 1/t_i, no cancellation
    z = rng.standard_normal(size=shape + (times.size,))
    return times * np.cumsum(np.sqrt(ds) * z, axis=-1)


def brownian_noise_reduction(
    value: ArrayLike,
    sensitivity: float,
    times: ArrayLike,
    *,
    size: int | None = None,
    rng: np.random.Generator | int | None = None,
) -> np.ndarray:
    """Release ``value + W_{t_1}, ..., value + W_{t_m}`` for t_1 > ... > t_m > 0, W a standard
    Brownian motion sampled backwards in time.

    Whitehouse et al. (2022); [Rogers23] Definition 4.4. W_{t_1} ~ N(0, t_1), then each
    W_{t_{i+1}} given W_{t_i} from the Brownian bridge from (0, 0) to (t_i, W_{t_i}):
    mean (t_{i+1}/t_i) W_{t_i}, variance t_{i+1} (t_i - t_{i+1}) / t_i. So W_{t_i} ~ N(0, t_i)
    and Cov(W_{t_i}, W_{t_j}) = min(t_i, t_j).

    The times *are* the variances: ``sensitivity`` (the L2 sensitivity Delta) does not scale
    the noise. It is checked and kept so the call names the Delta that the privacy functions
    use: stopped at time T the release costs rho = Delta^2 / (2T) (:func:`brownian_rho`);
    :func:`brownian_time` turns a schedule of rho into times.

    Shape: ``(size,) + numpy.shape(value) + (m,)``, levels last (``(m,)`` for a scalar value
    and no ``size``). Fully vectorised (one normal draw of that shape).
    """
    check_sensitivity(sensitivity)
    times = _check_schedule(times, "times", increasing=False)
    rng = check_rng(rng)
    noise = _brownian_path(times, noise_shape(value, size), rng)
    return np.asarray(value, dtype=float)[..., None] + noise


def brownian_rho(sensitivity: ArrayLike, time: ArrayLike) -> float | np.ndarray:
    """rho = Delta^2 / (2T): the zCDP charge of a Brownian noise reduction stopped at time T.

    The charge of the Gaussian mechanism with variance T (Bun & Steinke 2016, Prop. 1.6), which
    the unified filter of [Rogers23] (Rogers et al. 2023) applies to the stopped Brownian
    mechanism (Whitehouse et al. 2022). Accepts arrays of T (and of Delta).
    """
    sensitivity = check_sensitivity(sensitivity, array_ok=True)
    time = check_positive(time, "time", array_ok=True)
    return as_result(sensitivity**2 / (2 * time))


def brownian_time(sensitivity: ArrayLike, rho: ArrayLike) -> float | np.ndarray:
    """T = Delta^2 / (2 rho), the inverse of :func:`brownian_rho`: an increasing schedule of
    rho gives the decreasing times of a Brownian noise reduction."""
    sensitivity = check_sensitivity(sensitivity, array_ok=True)
    return as_result(sensitivity**2 / (2 * check_rho(rho, array_ok=True)))


def brownian_privacy_loss(
    noise_at_stop: ArrayLike, time: ArrayLike, sensitivity: float
) -> float | np.ndarray:
    """The realised privacy loss of a Brownian noise reduction stopped at time T with noise W_T:

        L = ln p_D(y) / p_D'(y) = Delta^2 / (2T) - Delta W_T / T,

    for the neighbour D' with f(D') = f(D) + Delta, outputs y drawn under D (y_j = f(D) + W_{t_j}).

    Derivation (Whitehouse et al. 2022; [Rogers23]'s reverse-time martingale). The differences
    y_j - y_i = W_{t_j} - W_{t_i} (j < i) are independent of W_{t_i} and do not involve f, so
    the density ratio of (y_1, ..., y_i) is that of y_i = f(D) + W_T, a Gaussian of variance T:
    L = ((y - f(D) - Delta)^2 - (y - f(D))^2) / (2T) = (Delta^2 - 2 Delta W_T) / (2T), the same as
    ``gaussian_privacy_loss(W_T, sqrt(T), Delta)``. At a fixed T, L ~ N(rho, 2 rho) with
    rho = Delta^2 / (2T).

    At a stopping time. By time inversion X_s = W_t / t (s = 1/t) is a standard Brownian motion in
    s on the filtration of the released values, and L = Delta^2 s / 2 - Delta X_s, so

        exp(lambda L - lambda (lambda + 1) rho_T) = exp(-lambda Delta X_s - (lambda Delta)^2 s / 2)

    is the exponential martingale of X; optional stopping at the bounded stopping time gives
    E[exp(lambda L - lambda (lambda + 1) rho_T)] = 1 for every lambda (the identity behind the
    unified filter; :func:`brownian_stopped_loss` samples it). Sign conventions: the other
    neighbour f(D') = f(D) - Delta gives L = rho + Delta W_T / T, for which the identity holds
    too (-X is also a Brownian motion). What it needs is the direction of the ratio: the loss of
    D against D' at outputs drawn under D (mean +rho). The reversed ratio ln p_D'/p_D at the same
    outputs, -L, has mean -rho and fails it, as does L without its Delta^2 / (2T) term.
    """
    sensitivity = check_sensitivity(sensitivity)
    time = check_positive(time, "time", array_ok=True)
    noise = np.asarray(noise_at_stop, dtype=float)
    return as_result((sensitivity**2 / 2 - sensitivity * noise) / time)


def brownian_stopped_loss(
    value: float,
    sensitivity: float,
    times: ArrayLike,
    stop: Callable[[np.ndarray, float], ArrayLike] | float,
    *,
    size: int | None = None,
    rng: np.random.Generator | int | None = None,
) -> tuple[float | np.ndarray, float | np.ndarray]:
    """Run a Brownian noise reduction on the scalar ``value`` and stop it by its own outputs:
    return (T, L), the stopping time and :func:`brownian_privacy_loss` there, per draw.

    The release stops at the first level i whose released value y_i = value + W_{t_i}
    satisfies ``stop``, or at the last time t_m. ``stop`` is either a callable
    ``stop(released, time) -> bool array`` (``released`` holds y_i for every draw, ``time``
    is t_i) or a real threshold c, meaning "stop once y_i >= c". The rule sees only released
    values and times, never ``value``: that makes i a stopping time ([Rogers23] Definition
    4.3), and so E[exp(lambda L - lambda (lambda + 1) rho_T)] = 1 with rho_T = Delta^2/(2T).
    The same ``rng`` gives the same paths as :func:`brownian_noise_reduction`.
    Shapes: ``(size,)`` arrays, or two floats when ``size`` is None.
    """
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value):
        raise TypeError(f"value must be a finite real number (one query answer), got value={value!r}")
    sensitivity = check_sensitivity(sensitivity)
    times = _check_schedule(times, "times", increasing=False)
    if callable(stop):
        rule = stop
    elif isinstance(stop, numbers.Real) and not isinstance(stop, bool) and not np.isnan(stop):
        threshold = float(stop)

        def rule(released: np.ndarray, time: float) -> np.ndarray:
            return released >= threshold
    else:
        raise TypeError("stop must be a callable stop(released, time) -> bool array or a real "
                        f"threshold, got stop={stop!r}")
    rng = check_rng(rng)
    noise = _brownian_path(times, noise_shape(value, size), rng)
    released = float(value) + noise
    draws = noise.shape[:-1]
    level = np.full(draws, times.size - 1)
    running = np.ones(draws, dtype=bool)
    for i in range(times.size - 1):
        hit = running & np.broadcast_to(np.asarray(rule(released[..., i], float(times[i])), dtype=bool),
                                        draws)
        level[hit] = i
        running &= ~hit
        if not running.any():
            break
    at_stop = np.take_along_axis(noise, level[..., None], axis=-1)[..., 0]
    stopped_time = times[level]
    return as_result(stopped_time), brownian_privacy_loss(at_stop, stopped_time, sensitivity)


def brownian_martingale_terms(time: ArrayLike, loss: ArrayLike, sensitivity: float, lam: float
                              ) -> float | np.ndarray:
    """exp(lambda L - lambda (lambda + 1) rho_T) with rho_T = Delta^2 / (2T), per draw: the terms whose
    mean is 1 when T is a stopping time and L the loss of :func:`brownian_privacy_loss` at T, e.g. the
    (T, L) of :func:`brownian_stopped_loss`, in that order ([Rogers23], Rogers et al. 2023: the martingale
    behind the unified filter; in time inversion s = 1/T it is the exponential martingale
    exp(-lambda Delta X_s - (lambda Delta)^2 s / 2) of :func:`brownian_privacy_loss`). ``lam`` > 0."""
    rho = brownian_rho(sensitivity, time)
    lam = check_positive(lam, "lam")
    return as_result(np.exp(lam * np.asarray(loss, dtype=float) - lam * (lam + 1) * rho))


def brownian_lookahead_loss(
    value: ArrayLike,
    sensitivity: float,
    times: ArrayLike,
    *,
    size: int | None = None,
    rng: np.random.Generator | int | None = None,
) -> tuple[float | np.ndarray, float | np.ndarray]:
    """(T, L) of a Brownian noise reduction stopped by an *illegal* rule that peeks ahead: at the first
    level i whose next released value y_{i+1} exceeds y_i (at the last level if none does).

    The rule looks at a future output, so i is not a stopping time ([Rogers23] Definition 4.3) and the
    identity E[exp(lambda L - lambda (lambda + 1) rho_T)] = 1 fails (the mean exceeds 1 on notebook 6's
    schedule): the negative control of the martingale check. L is :func:`brownian_privacy_loss` at T;
    the same ``rng`` gives the same paths as :func:`brownian_noise_reduction`. Shapes as there, without
    the levels axis.
    """
    sensitivity = check_sensitivity(sensitivity)
    times = _check_schedule(times, "times", increasing=False)
    rng = check_rng(rng)
    noise = _brownian_path(times, noise_shape(value, size), rng)
    released = np.asarray(value, dtype=float)[..., None] + noise
    ahead = released[..., 1:] > released[..., :-1]
    level = np.where(ahead.any(axis=-1), ahead.argmax(axis=-1), times.size - 1)
    at_stop = np.take_along_axis(noise, np.asarray(level)[..., None], axis=-1)[..., 0]
    return as_result(times[level]), brownian_privacy_loss(at_stop, times[level], sensitivity)
