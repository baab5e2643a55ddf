"""Empirical privacy audits: a lower bound on epsilon from samples alone.

Run a mechanism many times on D and on a neighbour D', pick an output event E on a
separate pilot sample, and bound epsilon from below with exact (Clopper-Pearson)
intervals: epsilon >= ln(Pr_D[E] / Pr_D'[E]) for every event, so with a lower bound p_lo
on Pr_D[E] and an upper bound q_hi on Pr_D'[E] (each one-sided at (1 - confidence)/2,
together at ``confidence`` by Bonferroni), ln(p_lo / q_hi) is a lower bound on the true
epsilon with probability >= confidence. Choosing E on the pilot, not on the counted
runs, keeps the bound honest (Ding et al., "Detecting Violations of Differential
Privacy", CCS 2018; Bichsel et al., "DP-Sniper", S&P 2021, for the pilot/test split).
Any mechanism works, given as a vectorized sampler or as a description from ``dplab.mechanisms``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from dplab._checks import check_delta, check_positive_int, check_rng
from dplab.mechanisms.base import Mechanism
from dplab.simulate import proportion_ci

__all__ = ["AuditResult", "audit_epsilon", "audit_reach"]


@dataclass(frozen=True)
class AuditResult:
    """``epsilon_lower`` holds with probability >= ``confidence``. ``event`` describes the
    output event (a single output, or ("<=", t) / (">=", t) for real outputs), counted
    ``counts`` = (hits on D, hits on D') in ``n_runs`` runs each; ``direction`` is "D/D'"
    or "D'/D" (which probability was bounded below)."""

    epsilon_lower: float
    event: object
    counts: tuple[int, int]
    n_runs: int
    confidence: float
    direction: str


def _codes(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Integer codes of discrete outputs (one per row), shared by both samples."""
    both = np.concatenate([a.reshape(len(a), -1), b.reshape(len(b), -1)])
    values, inverse = np.unique(both, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    return values, inverse[: len(a)], inverse[len(a):]


def _best_discrete(pa: np.ndarray, pb: np.ndarray) -> tuple[int, int]:
    """(code, direction) maximizing the smoothed log ratio on the pilot (+1 in each count)."""
    n = int(max(pa.max(), pb.max())) + 1
    ca, cb = np.bincount(pa, minlength=n), np.bincount(pb, minlength=n)
    ratio = np.log(ca + 1.0) - np.log(cb + 1.0)
    forward, backward = int(np.argmax(ratio)), int(np.argmin(ratio))
    return (forward, 0) if ratio[forward] >= -ratio[backward] else (backward, 1)


def _best_threshold(pa: np.ndarray, pb: np.ndarray) -> tuple[tuple[str, float], int]:
    """A one-sided event y >= t or y <= t, t among pilot quantiles, maximizing the smoothed
    log ratio of the two pilot frequencies."""
    cuts = np.quantile(np.concatenate([pa, pb]), np.linspace(0.001, 0.999, 999))
    sa, sb = np.sort(pa), np.sort(pb)
    best, best_value = ((">=", float(cuts[0])), 0), -math.inf
    for side in (">=", "<="):
        if side == ">=":
            ca = len(sa) - np.searchsorted(sa, cuts, side="left")
            cb = len(sb) - np.searchsorted(sb, cuts, side="left")
        else:
            ca = np.searchsorted(sa, cuts, side="right")
            cb = np.searchsorted(sb, cuts, side="right")
        ratio = np.log(ca + 1.0) - np.log(cb + 1.0)
        for values, direction in ((ratio, 0), (-ratio, 1)):
            i = int(np.argmax(values))
            if values[i] > best_value:
                best, best_value = ((side, float(cuts[i])), direction), values[i]
    return best


def audit_epsilon(
    sampler: Callable[[object, int, np.random.Generator], np.ndarray] | Mechanism,
    data: object,
    data_prime: object,
    *,
    n_runs: int,
    n_pilot: int,
    confidence: float = 0.95,
    delta: float = 0.0,
    rng=None,
) -> AuditResult:
    """A one-sided lower bound on the epsilon of ``sampler`` from ``n_runs`` runs on each of
    ``data`` and ``data_prime`` (module docstring). ``sampler(data, size, rng)`` returns
    ``size`` outputs (a mechanism description from ``dplab.mechanisms`` is sampled by its
    ``sample(data, rng, size=size)``): integers or booleans (one per run, or one row per run) for a
    discrete mechanism, real numbers for a continuous one (then the event is a threshold
    y >= t or y <= t). The event is chosen on ``n_pilot`` separate runs of each. For a
    mechanism claimed (epsilon, delta)-DP, Pr_D[E] <= e^eps Pr_D'[E] + delta gives the bound
    ln((p_lo - delta) / q_hi) instead (0 when p_lo <= delta)."""
    n_runs = check_positive_int(n_runs, "n_runs")
    n_pilot = check_positive_int(n_pilot, "n_pilot")
    confidence = float(confidence)
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got confidence={confidence!r}")
    delta = check_delta(delta)
    rng = check_rng(rng)

    def draw(x, size, r):
        out = sampler.sample(x, r, size=size) if isinstance(sampler, Mechanism) else sampler(x, size, r)
        return np.asarray(out)

    pilot_rng, run_rng = rng.spawn(2)
    pilot_a, pilot_b = draw(data, n_pilot, pilot_rng), draw(data_prime, n_pilot, pilot_rng)
    runs_a, runs_b = draw(data, n_runs, run_rng), draw(data_prime, n_runs, run_rng)
    if np.issubdtype(runs_a.dtype, np.floating):
        (side, cut), direction = _best_threshold(pilot_a.ravel(), pilot_b.ravel())

        def hits(x):
            return int(np.sum(x >= cut if side == ">=" else x <= cut))

        event = (side, cut)
        counts = (hits(runs_a), hits(runs_b))
    else:
        values, pa, pb = _codes(pilot_a, pilot_b)
        code, direction = _best_discrete(pa, pb)
        target = values[code]
        event = target.item() if target.size == 1 else tuple(target.tolist())

        def hits(x):
            return int(np.sum(np.all(x.reshape(len(x), -1) == target, axis=1)))

        counts = (hits(runs_a), hits(runs_b))
    top, bottom = (counts[0], counts[1]) if direction == 0 else (counts[1], counts[0])
    p_low = float(proportion_ci(top, n_runs, confidence).low)
    q_high = float(proportion_ci(bottom, n_runs, confidence).high)
    lower = math.log((p_low - delta) / q_high) if p_low > delta else 0.0
    return AuditResult(max(lower, 0.0), event, counts, n_runs, confidence,
                       "D/D'" if direction == 0 else "D'/D")


def audit_reach(tradeoff: Callable[[np.ndarray], np.ndarray], n_runs: int, *, confidence: float = 0.95,
                delta: float = 0.0) -> float:
    """The most :func:`audit_epsilon` can certify from ``n_runs`` runs a side against a mechanism whose
    exact trade-off curve is ``tradeoff`` (a function of alpha): ln((P_low - delta) / Q_high) with the
    Clopper-Pearson bounds at the expected counts of the best tests' events, P = 1 - f(alpha) and
    Q = alpha, maximized over alpha in [1e-7, 1/2]. An audit that picks its event well gets near it; one
    far below certifies less than its runs allow (a power check)."""
    n_runs, delta = check_positive_int(n_runs, "n_runs"), check_delta(delta)
    alpha = np.geomspace(1e-7, 0.5, 4000)
    p_low = proportion_ci(np.round(n_runs * (1 - np.asarray(tradeoff(alpha)))), n_runs, confidence).low
    q_high = proportion_ci(np.round(n_runs * alpha), n_runs, confidence).high
    return float(np.max(np.log(np.maximum(p_low - delta, 1e-300) / q_high)))
