"""MWEM: multiplicative weights with the exponential mechanism (Hardt, Ligett & McSherry, "A Simple and
Practical Algorithm for Differentially Private Data Release", NeurIPS 2012; HLM12 below).

Algorithm 1 of HLM12, on a histogram B over X of n records (n public, as HLM12 take it) and k counting
queries (rows q with entries in [0, 1]; q(B) = <q, B> is a count): start from A_0 = n times the uniform
distribution over X; in each of T rounds

1. select: the exponential mechanism at eps/(2T) picks a query q_i with score |q(A_{i-1}) - q(B)|
   (sensitivity 1: one record moves a count by at most 1, under add/remove and under replace-one; the
   score is not monotone, so the mechanism's full 2 Delta/eps scale);
2. measure: the Laplace mechanism at eps/(2T) releases m_i = q_i(B) + Lap(2T/eps);
3. update: A_i(x) proportional to A_{i-1}(x) exp(q_i(x) (m_i - q_i(A_{i-1})) / (2n)), scaled back to n;

and release the average A = (1/T) sum_{i=1..T} A_i, the iterate HLM12's Theorem 2.2 is about (the last
iterate on request). T rounds of two eps/(2T)-DP steps compose to eps-DP (basic composition; HLM12,
Theorem 2.1); the ledger of a run (:class:`MWEMRun`) holds each step's mechanism object, so the
accountants (:func:`mwem_privacy`) and a test can recompute the budget from the noise scales.

HLM12's practical improvement replays the past measurements: after round i, more passes of the
update over (q_1, m_1) .. (q_i, m_i) (``replay`` passes; 0, the plain algorithm, by default). It
spends no privacy (post-processing) but is outside Theorem 2.2.

Accuracy (HLM12, Theorem 2.2): with probability at least 1 - 2T/|Q|,
max_q |q(A) - q(B)| <= 2n sqrt(ln|X| / T) + 10 T ln|Q| / eps (:func:`mwem_error_bound`), smallest at
T* = (n eps sqrt(ln|X|) / (10 ln|Q|))^(2/3) (:func:`mwem_optimal_rounds`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import sparse
from scipy.sparse.linalg import LinearOperator

from dplab._checks import as_result, check_choice, check_delta, check_epsilon, check_positive_int, check_rng
from dplab.accounting.advanced import AdvancedAccountant
from dplab.accounting.base import Accountant
from dplab.accounting.composition import BasicAccountant
from dplab.accounting.pld import PLDAccountant
from dplab.accounting.zcdp import ZCDPAccountant
from dplab.mechanisms.base import Mechanism
from dplab.mechanisms.epsilon_delta import EpsilonDelta
from dplab.mechanisms.exponential import ExponentialMechanism
from dplab.mechanisms.laplace import Laplace

__all__ = [
    "MWEM_ITERATES",
    "MWEMRun",
    "mwem",
    "mwem_bound_confidence",
    "mwem_error_bound",
    "mwem_optimal_rounds",
    "mwem_privacy",
    "mwem_round_epsilon",
    "mwem_run",
    "mwem_update",
]


# --- the queries, whatever their form -------------------------------------------------------------------

class _Queries:
    """Answers (k counts of a vector over X) and rows (query j over X) of a dense matrix, a scipy.sparse
    matrix or a LinearOperator (its ``row(j)`` if it has one, else its adjoint on the j-th unit vector)."""

    def __init__(self, queries: object, domain_size: int) -> None:
        if isinstance(queries, LinearOperator):
            self.answers: Callable[[np.ndarray], np.ndarray] = (
                lambda v: np.asarray(queries.matvec(v)).reshape(-1))
            if callable(getattr(queries, "row", None)):
                self.row: Callable[[int], np.ndarray] = lambda j: np.asarray(queries.row(j), dtype=float)
            else:
                self.row = lambda j: np.asarray(queries.rmatvec(np.eye(1, queries.shape[0], j).ravel()),
                                                dtype=float).reshape(-1)
            shape, entries = queries.shape, None
        elif sparse.issparse(queries):
            q = sparse.csr_array(queries, dtype=float)
            self.answers = lambda v: q @ v
            self.row = lambda j: q[[j], :].toarray().ravel()
            shape, entries = q.shape, q.data
        else:
            q = np.asarray(queries)
            if q.ndim != 2 or q.size == 0 or q.dtype == object:
                raise ValueError(f"queries must be a non-empty 2-d matrix (queries x |X|), a scipy.sparse "
                                 f"matrix or a LinearOperator, got shape {q.shape}")
            q = q.astype(float)
            self.answers = lambda v: q @ v
            self.row = lambda j: q[j]
            shape, entries = q.shape, q
        if len(shape) != 2 or shape[0] < 1 or shape[1] != domain_size:
            raise ValueError(f"queries must have one column per element of X ({domain_size}), "
                             f"got shape {shape}")
        if entries is not None:
            bad = np.flatnonzero(~((entries >= 0) & (entries <= 1)))
            if bad.size:
                raise ValueError(f"queries must hold entries in [0, 1] (counting queries), got "
                                 f"{np.ravel(entries)[bad[0]].item()!r}")
        self.k = int(shape[0])


def _check_histogram(histogram: ArrayLike) -> np.ndarray:
    h = np.asarray(histogram)
    if h.ndim != 1 or h.size == 0 or h.dtype == object:
        raise ValueError(f"histogram must be a non-empty 1-d array of counts over X, got shape {h.shape}")
    h = h.astype(float)
    ok = np.isfinite(h) & (h >= 0) & (np.mod(h, 1) == 0)
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        raise ValueError(f"histogram must hold whole counts >= 0, got histogram[{i}]={h[i].item()!r}")
    if h.sum() < 1:
        raise ValueError("histogram must hold at least one record, got an empty database")
    return h


def _check_replay(replay: object) -> int:
    if isinstance(replay, bool) or not isinstance(replay, (int, np.integer)) or replay < 0:
        raise ValueError(f"replay must be a whole number of passes >= 0, got replay={replay!r}")
    return int(replay)


# --- the algorithm ----------------------------------------------------------------------------------------

def mwem_round_epsilon(epsilon: float, rounds: int) -> float:
    """eps/(2T): the budget of each of the 2T steps (T selections, T measurements; HLM12, Algorithm 1)."""
    return check_epsilon(epsilon) / (2 * check_positive_int(rounds, "rounds"))


def _average(iterates_sum: np.ndarray, last: np.ndarray, rounds: int) -> np.ndarray:
    return iterates_sum / rounds


def _last(iterates_sum: np.ndarray, last: np.ndarray, rounds: int) -> np.ndarray:
    return last


#: which synthetic histogram MWEM releases: the average of A_1 .. A_T (HLM12's output, the one Theorem
#: 2.2 bounds) or the last iterate A_T
MWEM_ITERATES = {"average": _average, "last": _last}


@dataclass(frozen=True)
class MWEMRun:
    """One run of MWEM: the released ``distribution`` over X (sums to 1), the T ``choices`` (query
    indices), the T noisy ``measurements``, the ``ledger`` ((exponential mechanism, Laplace mechanism)
    of each round: the objects that ran, with their noise scales), ``n`` and the ``iterate`` released."""

    distribution: np.ndarray
    choices: np.ndarray
    measurements: np.ndarray
    ledger: tuple[tuple[ExponentialMechanism, Laplace], ...]
    n: float
    iterate: str

    @property
    def histogram(self) -> np.ndarray:
        """The synthetic histogram n * distribution (counts over X, not whole numbers)."""
        return self.n * self.distribution


def _mw_update(a: np.ndarray, row: np.ndarray, measurement: float, n: float) -> np.ndarray:
    """A(x) <- A(x) exp(q(x) (m - q(A)) / (2n)), scaled back to total n (HLM12, Algorithm 1). q(A) by
    ``numpy.einsum``: a BLAS dot product of 2^16 entries can take 20 ms on a busy machine (its threads)."""
    a = a * np.exp(row * (measurement - np.einsum("i,i->", row, a)) / (2 * n))
    return a * (n / a.sum())


def mwem_update(weights: ArrayLike, row: ArrayLike, measurement: float, n: float) -> np.ndarray:
    """One multiplicative-weights step of MWEM (HLM12, Algorithm 1): A(x) <- A(x) exp(q(x) (m - q(A)) /
    (2n)), then scaled back to total n. ``weights``: A over X (total n); ``row``: q over X, entries in
    [0, 1]; ``measurement``: the noisy m. Raises the weight of the records the query counts when the
    measurement says the synthetic data undercounts, lowers it when it overcounts."""
    a = np.asarray(weights, dtype=float)
    q = np.asarray(row, dtype=float)
    if a.ndim != 1 or a.size == 0 or not np.all(np.isfinite(a) & (a >= 0)) or a.sum() <= 0:
        raise ValueError(f"weights must be a non-empty 1-d array of finite weights >= 0 with a positive "
                         f"total, got shape {a.shape}")
    if q.shape != a.shape or not np.all((q >= 0) & (q <= 1)):
        raise ValueError(f"row must have the weights' shape {a.shape} and entries in [0, 1], "
                         f"got shape {q.shape}")
    if not np.isfinite(measurement):
        raise ValueError(f"measurement must be finite, got measurement={measurement!r}")
    if not n > 0:
        raise ValueError(f"n must be > 0, got n={n!r}")
    return _mw_update(a, q, float(measurement), float(n))


def mwem_run(histogram: ArrayLike, queries: object, epsilon: float, rounds: int,
             rng: np.random.Generator | int | None = None, *, replay: int = 0,
             iterate: str = "average") -> MWEMRun:
    """MWEM (HLM12, Algorithm 1) with everything a check needs: see :class:`MWEMRun` and the module
    docstring. ``queries``: a dense or scipy.sparse matrix (k x |X|, entries in [0, 1]) or a
    ``LinearOperator`` such as :class:`dplab.query_release.Workload`. ``replay``: passes over the past
    measurements after each round (0: the plain algorithm). epsilon-DP for add/remove and replace-one
    neighbours, with n treated as public."""
    h = _check_histogram(histogram)
    q = _Queries(queries, h.size)
    epsilon = check_epsilon(epsilon)
    rounds = check_positive_int(rounds, "rounds")
    replay = _check_replay(replay)
    check_choice(iterate, tuple(MWEM_ITERATES), "iterate")
    rng = check_rng(rng)
    n = float(h.sum())
    step = mwem_round_epsilon(epsilon, rounds)
    select, measure = ExponentialMechanism(1.0, step), Laplace(1.0, step)
    truth = q.answers(h)
    a = np.full(h.size, n / h.size)
    total = np.zeros(h.size)
    choices = np.empty(rounds, dtype=np.int64)
    measurements = np.empty(rounds)
    rows: list[np.ndarray] = []
    for i in range(rounds):
        scores = np.abs(q.answers(a) - truth)
        j = select.sample(scores, rng)
        m = measure.sample(truth[j], rng)
        choices[i], measurements[i] = j, m
        rows.append(q.row(j))
        a = _mw_update(a, rows[-1], m, n)
        for _ in range(replay):
            for row, past in zip(rows, measurements[: i + 1], strict=True):
                a = _mw_update(a, row, past, n)
        total += a
    released = MWEM_ITERATES[iterate](total, a, rounds)
    ledger = ((select, measure),) * rounds
    return MWEMRun(released / released.sum(), choices, measurements, ledger, n, iterate)


def mwem(histogram: ArrayLike, queries: object, epsilon: float, rounds: int,
         rng: np.random.Generator | int | None = None, **options: object) -> tuple[np.ndarray, np.ndarray]:
    """MWEM (HLM12, Algorithm 1): ``(distribution, choices)``, the released distribution over X (sums
    to 1; the average iterate by default) and the T queries selected. ``histogram``: counts over X;
    ``queries``: a dense or scipy.sparse 0/1 matrix (queries x |X|) or a LinearOperator. epsilon-DP.
    ``options``: ``replay``, ``iterate`` of :func:`mwem_run`, which also returns the ledger."""
    run = mwem_run(histogram, queries, epsilon, rounds, rng, **options)
    return run.distribution, run.choices


# --- privacy ----------------------------------------------------------------------------------------------

def _default_accountants() -> list[Accountant]:
    return [BasicAccountant(), AdvancedAccountant(), ZCDPAccountant("cks"), PLDAccountant()]


def mwem_privacy(ledger: Sequence[Sequence[Mechanism]], delta: float,
                 accountants: Sequence[Accountant] | None = None) -> dict[str, float]:
    """The epsilon at ``delta`` of MWEM's rounds by each accountant (fresh copies; default: basic,
    advanced, zCDP (CKS), PLD): every mechanism of the ledger composed as itself where the accountant
    reads it, else as the pure ``EpsilonDelta(eps)`` step its epsilon_delta() states (the exponential
    mechanism has no zCDP rho or PLD of its own here: the worst eps-DP step stands for it, which bounds
    it). Basic composition gives sum of the 2T steps' eps = eps at any delta; the others trade a delta
    for less epsilon, which pays only once T is large."""
    delta = check_delta(delta)
    steps: dict[Mechanism, int] = {}
    for i, round_ in enumerate(ledger):
        for m in round_:
            if not isinstance(m, Mechanism):
                raise ValueError(f"ledger[{i}] must hold mechanism objects, got {m!r}")
            steps[m] = steps.get(m, 0) + 1
    if not steps:
        raise ValueError("ledger must hold at least one round, got an empty ledger")
    out = {}
    for accountant in accountants if accountants is not None else _default_accountants():
        acc = accountant.fresh()
        for m, count in steps.items():
            acc.compose(m if acc.supports(m) else EpsilonDelta(*m.epsilon_delta()), count)
        out[acc.name] = acc.epsilon(delta)
    return out


# --- accuracy (HLM12, Theorem 2.2) ------------------------------------------------------------------------

def _bound_inputs(n: object, n_queries: object, domain_size: object, epsilon: object) -> tuple[float, ...]:
    n = float(check_positive_int(n, "n"))
    k = check_positive_int(n_queries, "n_queries")
    size = check_positive_int(domain_size, "domain_size")
    if k < 2 or size < 2:
        raise ValueError(f"n_queries and domain_size must be at least 2 (ln of each), got n_queries={k}, "
                         f"domain_size={size}")
    return n, math.log(k), math.log(size), check_epsilon(epsilon)


def mwem_error_bound(n: int, n_queries: int, domain_size: int, epsilon: float, rounds: ArrayLike
                     ) -> float | np.ndarray:
    """HLM12, Theorem 2.2: with probability at least 1 - 2T/|Q| (:func:`mwem_bound_confidence`),
    MWEM's average iterate A has max_q |q(A) - q(B)| <= 2n sqrt(ln|X| / T) + 10 T ln|Q| / eps, in counts
    (n records, |Q| = ``n_queries``, |X| = ``domain_size``). The first term is multiplicative weights'
    regret, the second the exponential and Laplace mechanisms' errors over T rounds. ``rounds`` may be
    an array (a curve over T)."""
    n, log_q, log_x, epsilon = _bound_inputs(n, n_queries, domain_size, epsilon)
    t = np.asarray(check_positive_int(rounds, "rounds", array_ok=True), dtype=float)
    return as_result(2 * n * np.sqrt(log_x / t) + 10 * t * log_q / epsilon)


def mwem_bound_confidence(n_queries: int, rounds: ArrayLike) -> float | np.ndarray:
    """1 - 2T/|Q|, the probability with which Theorem 2.2 of HLM12 holds (vacuous, <= 0, for T >= |Q|/2)."""
    k = check_positive_int(n_queries, "n_queries")
    return as_result(1 - 2 * np.asarray(check_positive_int(rounds, "rounds", array_ok=True), dtype=float) / k)


def mwem_optimal_rounds(n: int, n_queries: int, domain_size: int, epsilon: float) -> float:
    """The T > 0 that minimises :func:`mwem_error_bound`: setting the derivative
    -n sqrt(ln|X|) T^(-3/2) + 10 ln|Q| / eps to 0 gives T* = (n eps sqrt(ln|X|) / (10 ln|Q|))^(2/3)
    (a real number; the bound is convex in T, so the best whole T is floor or ceil of T*). At T* the
    second term is half the first."""
    n, log_q, log_x, epsilon = _bound_inputs(n, n_queries, domain_size, epsilon)
    return (n * epsilon * math.sqrt(log_x) / (10 * log_q)) ** (2 / 3)
