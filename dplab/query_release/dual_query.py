"""DualQuery (Gaboardi, Gallego Arias, Hsu, Roth & Wu, "Dual Query: Practical Private Query Release
for High Dimensional Data", ICML 2014, Algorithm 1): synthetic binary records for many conjunctions,
without ever holding the universe X = {0, 1}^d.

Query release as a zero-sum game between a query player over the signed queries Q u not-Q and a
data player over records x, with payoff q(D) - q(x). The query player runs multiplicative weights
(MW): Q^t(q) proportional to exp(eta sum_{i<t} (q(D) - q(x^i))), the queries that the records so far
under-count gaining weight. The data player only ever sees s queries sampled from Q^t, and answers
with the best response x^t = argmax_x sum_j q_j(x) over the sampled ones (solved exactly by an
integer program: :mod:`dplab.query_release.best_response`). After T rounds the multiset
{x^1, ..., x^T} is the synthetic data set.

Privacy: the data enter only through the sampling. Q^t is the exponential mechanism with score
u(q) = sum_{i<t} (q(D) - q(x^i)), of sensitivity (t - 1)/n (replace-one neighbours, n public, as
the paper's normalised queries assume), and Q^t(q) proportional to exp(eta u(q)) = exp(eps_t u / (2
Delta_t)) with eps_t = 2 eta (t - 1)/n: each of the s draws of round t is eps_t-DP (round 1 is
uniform: free). The paper composes the s (T - 1) draws of rounds 2..T at the largest,
eps_0 = 2 eta (T - 1)/n, by advanced composition (Dwork, Rothblum & Vadhan 2010):

    eps = eps_0 sqrt(2 s (T - 1) ln(1/delta)) + s (T - 1) eps_0 (e^{eps_0} - 1)

(:func:`dual_query_epsilon`; the same expression as the authors' public code, ``epsilon.ml``). Basic
composition of the same draws gives the pure sum_t s eps_t = eta s T (T - 1)/n
(:func:`dual_query_pure_epsilon`), and :func:`dual_query_steps` hands the per-round mechanisms to
the accountants (which can use each round's own eps_t). Under add/remove neighbours the score's
sensitivity is also at most (t - 1)/n with n the larger of the two data sets.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from dplab._calibrate import calibrate
from dplab._checks import (
    check_choice,
    check_delta,
    check_epsilon,
    check_positive,
    check_positive_int,
    check_rng,
)
from dplab.accounting.advanced import AdvancedAccountant
from dplab.accounting.composition import BasicAccountant
from dplab.accounting.pld import PLDAccountant
from dplab.accounting.zcdp import ZCDPAccountant
from dplab.mechanisms.exponential import ExponentialMechanism
from dplab.query_release.best_response import (
    BEST_RESPONSES,
    Conjunctions,
    answers_on_records,
    as_conjunctions,
    check_records,
    signed_answers,
)
from dplab.query_release.mwem import mwem_privacy

__all__ = [
    "DualQueryResult",
    "dual_query",
    "dual_query_distribution",
    "dual_query_epsilon",
    "dual_query_privacy",
    "dual_query_pure_epsilon",
    "dual_query_rounds",
    "dual_query_samples",
    "dual_query_steps",
    "synthetic_data_error",
]

_MAX_ROUNDS = 10**7


def _check_delta_positive(delta: object) -> float:
    return check_delta(delta, allow_zero=False)


def dual_query_epsilon(eta: float, samples: int, rounds: int, n: int, delta: float) -> float:
    """DualQuery's (eps, delta) as the paper states it: eps_0 = 2 eta (T - 1)/n per sampled query,
    k = s (T - 1) draws, eps = eps_0 sqrt(2 k ln(1/delta)) + k eps_0 (e^{eps_0} - 1) (advanced
    composition; module docstring). T = 1 costs nothing (the one round samples uniformly)."""
    eta = check_positive(eta, "eta")
    s = check_positive_int(samples, "samples")
    t = check_positive_int(rounds, "rounds")
    n = check_positive_int(n, "n")
    delta = _check_delta_positive(delta)
    return _eps_real(eta, s, t, n, delta)


def dual_query_pure_epsilon(eta: float, samples: int, rounds: int, n: int) -> float:
    """The pure eps of the same draws by basic composition: sum_{t=1}^T s 2 eta (t - 1)/n
    = eta s T (T - 1)/n (the authors' ``epsilon_0``)."""
    eta = check_positive(eta, "eta")
    s = check_positive_int(samples, "samples")
    t = check_positive_int(rounds, "rounds")
    n = check_positive_int(n, "n")
    return eta * s * t * (t - 1) / n


def dual_query_steps(eta: float, samples: int, rounds: int,
                     n: int) -> tuple[tuple[ExponentialMechanism, int], ...]:
    """What DualQuery runs, for the accountants: for rounds t = 2..T, the exponential mechanism with
    score sensitivity (t - 1)/n at eps_t = 2 eta (t - 1)/n, drawn s times. Compose them with
    ``accountant.compose(mechanism, s)``."""
    eta = check_positive(eta, "eta")
    s = check_positive_int(samples, "samples")
    t_max = check_positive_int(rounds, "rounds")
    n = check_positive_int(n, "n")
    return tuple((ExponentialMechanism(sensitivity=(t - 1) / n, epsilon=2 * eta * (t - 1) / n), s)
                 for t in range(2, t_max + 1))


def dual_query_privacy(eta: float, samples: int, rounds: int, n: int, delta: float) -> dict[str, float]:
    """The epsilon at ``delta`` of DualQuery's draws (:func:`dual_query_steps`, each a pure eps_t-DP step,
    rounds >= 2) by dplab.query_release.mwem_privacy's accountants: basic, advanced (DRV), zCDP (CKS), and
    the PLD on the lattice of step 2 eta/n. Every eps_t = 2 eta (t - 1)/n lies on that lattice, so the
    losses +-eps_t of randomized response (the worst eps_t-DP pair) are not rounded and the PLD's epsilon
    is exact, up to the truncation it adds to delta. On a generic grid each eps_t is rounded up: at
    n = 12,579 the default step 1e-4 moves 1,450 draws by up to 0.145."""
    steps = dual_query_steps(eta, samples, rounds, n)
    if not steps:
        raise ValueError(f"rounds must be >= 2 (round 1 draws from no data), got rounds={rounds!r}")
    accountants = (BasicAccountant(), AdvancedAccountant(), ZCDPAccountant("cks"),
                   PLDAccountant(step=2 * eta / n))
    return mwem_privacy([[mechanism] * count for mechanism, count in steps], delta, accountants)


def _largest_int(f, target: float, low: int, high: int) -> int:
    """The largest integer m in [low, high] with f(m) <= target (f increasing; f(low) <= target),
    from the real root of f = target (dplab._calibrate) then checked on the integers."""
    if f(high) <= target:
        return high
    root = calibrate(lambda m: f(m) - target, 0.0, float(low), float(high))
    m = max(low, int(math.floor(root)))
    return m + 1 if m + 1 <= high and f(m + 1) <= target else m  # a root a rounding below an integer


def _eps_real(eta: float, s: float, t: float, n: int, delta: float) -> float:
    """:func:`dual_query_epsilon`'s expression for real s and T (for the calibration only)."""
    eps0 = 2 * eta * (t - 1) / n
    k = s * (t - 1)
    if eps0 > 700:  # e^{eps_0} overflows: no finite guarantee
        return math.inf
    return eps0 * math.sqrt(2 * k * math.log(1 / delta)) + k * eps0 * math.expm1(eps0)


def dual_query_rounds(epsilon: float, delta: float, eta: float, samples: int, n: int) -> int:
    """The largest T whose :func:`dual_query_epsilon` is at most ``epsilon`` (at least 1: one round
    is free), by the calibration routine on the expression for real T."""
    epsilon = check_epsilon(epsilon)
    delta = _check_delta_positive(delta)
    eta = check_positive(eta, "eta")
    s = check_positive_int(samples, "samples")
    n = check_positive_int(n, "n")
    return _largest_int(lambda t: _eps_real(eta, s, t, n, delta), epsilon, 1, _MAX_ROUNDS)


def dual_query_samples(epsilon: float, delta: float, eta: float, rounds: int, n: int) -> int:
    """The largest s whose :func:`dual_query_epsilon` is at most ``epsilon`` for T = ``rounds`` >= 2;
    ValueError if even s = 1 exceeds it."""
    epsilon = check_epsilon(epsilon)
    delta = _check_delta_positive(delta)
    eta = check_positive(eta, "eta")
    t = check_positive_int(rounds, "rounds")
    n = check_positive_int(n, "n")
    if t < 2:
        raise ValueError(f"one round costs nothing whatever s: rounds must be >= 2, got rounds={rounds!r}")
    if _eps_real(eta, 1, t, n, delta) > epsilon:
        raise ValueError(f"even samples=1 exceeds epsilon={epsilon!r} at rounds={t}, eta={eta!r}, n={n}")
    return _largest_int(lambda s: _eps_real(eta, s, t, n, delta), epsilon, 1, 10**12)


def _payoffs(signed_truth: np.ndarray, synthetic_sum: np.ndarray, rounds_done: int) -> np.ndarray:
    """u(q) = sum_{i<t} (q(D) - q(x^i)) over the signed queries, from the sum of the records' answers."""
    return rounds_done * signed_truth - synthetic_sum


def dual_query_distribution(true_answers: ArrayLike, record_answers: ArrayLike, eta: float) -> np.ndarray:
    """Q^t over the signed queries (q_1..q_k, then their negations) after the records x^1..x^{t-1}:
    Q^t(q) proportional to exp(eta sum_{i<t} (q(D) - q(x^i))) (uniform when no record is given).
    ``true_answers``: q(D) for the k conjunctions; ``record_answers``: a (t - 1) x k array of q(x^i)."""
    eta = check_positive(eta, "eta")
    truth = np.asarray(true_answers, dtype=float).reshape(-1)
    past = np.asarray(record_answers, dtype=float).reshape(-1, truth.size)
    u = _payoffs(signed_answers(truth), signed_answers(past).sum(axis=0), past.shape[0])
    z = eta * (u - u.max())
    return np.exp(z) / np.exp(z).sum()


@dataclass(frozen=True)
class DualQueryResult:
    """DualQuery's output and what its privacy statement needs: ``records`` (T x d, the synthetic
    data), the parameters (eta, s, T, n) and the (epsilon, delta) of :func:`dual_query_epsilon`
    for them; ``sampled`` (T x s) the signed queries drawn each round (index i < k: query i,
    k + i: its negation)."""

    records: np.ndarray
    eta: float
    samples: int
    rounds: int
    n: int
    epsilon: float
    delta: float
    sampled: np.ndarray


def dual_query(
    records: ArrayLike,
    queries: Conjunctions | Iterable,
    epsilon: float,
    delta: float,
    *,
    eta: float = 1.0,
    samples: int = 50,
    rounds: int | None = None,
    best_response: str = "milp",
    rng: np.random.Generator | int | None = None,
) -> DualQueryResult:
    """DualQuery (GAHRW14, Algorithm 1) on ``records`` (n x d, 0/1) for ``queries`` (conjunctions:
    pairs (attributes, values)): T rounds of s draws from the MW distribution over Q u not-Q (the
    exponential mechanism, :func:`dual_query_steps`), each answered by an exact best response
    (``best_response``: a key of ``BEST_RESPONSES``), then the MW update. T is the largest that
    meets (``epsilon``, ``delta``) (:func:`dual_query_rounds`), or ``rounds`` if given (refused if it
    exceeds the target). Returns a :class:`DualQueryResult` with the T synthetic records."""
    x = check_records(records)
    n, d = x.shape
    conj = as_conjunctions(queries, d)
    epsilon = check_epsilon(epsilon)
    delta = _check_delta_positive(delta)
    eta = check_positive(eta, "eta")
    s = check_positive_int(samples, "samples")
    solver = BEST_RESPONSES[check_choice(best_response, tuple(BEST_RESPONSES), "best_response")]
    rng = check_rng(rng)
    if rounds is None:
        t_max = dual_query_rounds(epsilon, delta, eta, s, n)
    else:
        t_max = check_positive_int(rounds, "rounds")
        spent = dual_query_epsilon(eta, s, t_max, n, delta)
        if spent > epsilon:
            raise ValueError(f"rounds={t_max} spends epsilon={spent!r} > epsilon={epsilon!r} "
                             f"(eta={eta!r}, samples={s}, n={n}, delta={delta!r})")
    truth = signed_answers(answers_on_records(x, conj))
    synthetic_sum = np.zeros_like(truth)
    out = np.empty((t_max, d), dtype=np.uint8)
    sampled = np.empty((t_max, s), dtype=np.int64)
    for t in range(1, t_max + 1):
        if t == 1:
            draws = rng.integers(0, truth.size, size=s)
        else:
            mechanism = ExponentialMechanism(sensitivity=(t - 1) / n, epsilon=2 * eta * (t - 1) / n)
            draws = mechanism.sample(_payoffs(truth, synthetic_sum, t - 1), rng, size=s)
        record = solver(conj, draws, rng)
        synthetic_sum += signed_answers(conj.evaluate(record[None, :])[0].astype(float))
        out[t - 1] = record
        sampled[t - 1] = draws
    return DualQueryResult(out, eta, s, t_max, n, dual_query_epsilon(eta, s, t_max, n, delta), delta, sampled)


def synthetic_data_error(synthetic: ArrayLike, records: ArrayLike,
                         queries: Conjunctions | Iterable) -> tuple[float, float]:
    """(max, mean) over the conjunctions of |q(synthetic) - q(D)|, both answered as fractions of
    their own records (the error the paper plots; MWEM's distribution is compared on the same scale)."""
    syn = check_records(synthetic, "synthetic")
    x = check_records(records)
    if syn.shape[1] != x.shape[1]:
        raise ValueError(f"synthetic must have the records' {x.shape[1]} attributes, got {syn.shape[1]}")
    conj = as_conjunctions(queries, x.shape[1])
    err = np.abs(answers_on_records(syn, conj) - answers_on_records(x, conj))
    return float(err.max()), float(err.mean())
