"""AboveThreshold and the sparse vector technique (SVT), with exact output probabilities.

A stream of answers f_1, f_2, ... (queries of sensitivity Delta each) is compared with a
threshold T through noise: the algorithm outputs "bottom" (below) or "top" (above) for
each query and halts after c tops. Which noise goes where decides its privacy, and
several published variants got it wrong (Lyu, Su & Li, "Understanding the Sparse Vector
Technique for Differential Privacy", PVLDB 10(6), 2017, Figure 1). ``VARIANTS`` lists
them with their noise scales; eps1 = threshold_share * epsilon, eps2 = epsilon - eps1:

================  ===============  ================  =================  ===========================
name              threshold noise  query noise       after a top        source
================  ===============  ================  =================  ===========================
above_threshold   Lap(2 D/eps)     Lap(4 D/eps)      halt (c = 1)       Dwork & Roth, Alg. 1
lyu_alg1          Lap(D/eps1)      Lap(2c D/eps2)    halt after c       Lyu et al., Alg. 1
dwork_roth        Lap(c D/eps1)    Lap(2c D/eps1)    new threshold      Lyu et al., Alg. 2
                                                     Lap(c D/eps2);     (Dwork & Roth's
                                                     halt after c       SparseVector)
noisy_value       Lap(D/eps1)      Lap(c D/eps2)     release f + nu;    Lyu et al., Alg. 3
                                                     halt after c       (Roth's notes)
lee_clifton       Lap(4 D/eps)     Lap(4 D/(3 eps))  halt after c       Lyu et al., Alg. 4
no_query_noise    Lap(D/eps1)      none              never halt         Lyu et al., Alg. 5
no_halting        Lap(D/eps1)      Lap(D/eps2)       never halt         Lyu et al., Alg. 6
================  ===============  ================  =================  ===========================

(D is Delta.) The probability of an output pattern is a one-dimensional integral over the
noisy threshold of a product of Laplace CDFs (one per query), computed here in log space
by Gauss-Legendre quadrature on panels split at the kinks: :func:`output_log_probability`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from dplab._checks import (
    check_choice,
    check_epsilon,
    check_positive,
    check_positive_int,
    check_rng,
    check_sensitivity,
)

__all__ = [
    "PRIVATE_VARIANTS",
    "PROOF_BASES",
    "VARIANTS",
    "SparseVectorResult",
    "above_threshold",
    "above_threshold_accuracy",
    "above_threshold_conditional_probability",
    "above_threshold_failure_probability",
    "above_threshold_proof",
    "above_threshold_proof_grid",
    "above_threshold_proof_integrated",
    "adaptive_answers",
    "comparison_std",
    "exact_privacy_loss",
    "halting_loss_curves",
    "halting_privacy_losses",
    "halting_probabilities",
    "halting_worst_case_losses",
    "loss_limit",
    "naive_above_threshold_epsilon",
    "optimal_threshold_share",
    "output_log_probability",
    "output_sampler",
    "pair_privacy_loss",
    "sparse_vector",
    "sparse_vector_adaptive",
    "variant_noise",
]

#: The variants, in Lyu et al.'s Figure 1 order (see the module docstring).
VARIANTS = ("above_threshold", "lyu_alg1", "dwork_roth", "noisy_value", "lee_clifton",
            "no_query_noise", "no_halting")
_HALTING = {"above_threshold", "lyu_alg1", "dwork_roth", "noisy_value", "lee_clifton"}
#: The variants that are epsilon-DP as claimed (Lyu, Su & Li 2017 prove their Algorithms 1 and 2;
#: above_threshold is Dwork & Roth's Algorithm 1); the others are not epsilon-DP at their epsilon.
PRIVATE_VARIANTS = ("above_threshold", "lyu_alg1", "dwork_roth")


@dataclass(frozen=True)
class _Noise:
    threshold: float  # Laplace scale of the threshold noise
    query: float  # Laplace scale of each query's noise (0: none)
    after_top: float | None  # scale of the fresh threshold after a top (dwork_roth), else None
    halts: bool  # halt after c tops


def _check_stream(answers: ArrayLike) -> np.ndarray:
    f = np.asarray(answers, dtype=float)
    if f.ndim != 1 or f.size == 0:
        raise ValueError(f"answers must be a non-empty 1-d stream, got shape {f.shape}")
    if not np.all(np.isfinite(f)):
        raise ValueError(f"answers must be finite, got answers={f!r}")
    return f


def _check_share(share: float) -> float:
    share = float(share)
    if not (math.isfinite(share) and 0 < share < 1):
        raise ValueError(f"threshold_share must be in (0, 1), got threshold_share={share!r}")
    return share


def variant_noise(
    variant: str, epsilon: float, *, c: int = 1, threshold_share: float = 0.5, sensitivity: float = 1.0
) -> dict[str, float | None]:
    """The Laplace scales of a variant (module docstring): ``threshold``, ``query`` (0 for
    none) and ``after_top`` (dwork_roth's fresh threshold, else None)."""
    noise = _noise(variant, epsilon, c, threshold_share, sensitivity)
    return {"threshold": noise.threshold, "query": noise.query, "after_top": noise.after_top}


def _check_threshold(threshold: float) -> float:
    """The threshold T as a float; ValueError naming it unless finite."""
    t = float(threshold)
    if not math.isfinite(t):
        raise ValueError(f"threshold must be finite, got threshold={threshold!r}")
    return t


def _noise(variant: str, epsilon: float, c: int, share: float, sensitivity: float) -> _Noise:
    check_choice(variant, VARIANTS, "variant")
    eps = check_epsilon(epsilon)
    c = check_positive_int(c, "c")
    d = check_sensitivity(sensitivity)
    eps1 = _check_share(share) * eps
    eps2 = eps - eps1
    if variant == "above_threshold":
        if c != 1:
            raise ValueError(f"above_threshold halts at the first top: c must be 1, got c={c}")
        return _Noise(2 * d / eps, 4 * d / eps, None, True)
    if variant == "lyu_alg1":
        return _Noise(d / eps1, 2 * c * d / eps2, None, True)
    if variant == "dwork_roth":
        return _Noise(c * d / eps1, 2 * c * d / eps1, c * d / eps2, True)
    if variant == "noisy_value":
        return _Noise(d / eps1, c * d / eps2, None, True)
    if variant == "lee_clifton":
        return _Noise(d / (eps / 4), d / (3 * eps / 4), None, True)
    if variant == "no_query_noise":
        return _Noise(d / eps1, 0.0, None, False)
    return _Noise(d / eps1, d / eps2, None, False)  # no_halting


# ------------------------------------------------------------------ sampling


def above_threshold(
    answers: ArrayLike,
    threshold: float,
    epsilon: float,
    *,
    sensitivity: float = 1.0,
    size: int | None = None,
    rng=None,
) -> int | np.ndarray:
    """Dwork & Roth's AboveThreshold (their Algorithm 1; [Gaboardi17]): That = T + Lap(2 Delta/eps);
    for each query nu_i = Lap(4 Delta/eps); bottom until the first f_i + nu_i >= That, then top
    and halt. Returns the index of the first top (-1 if none); with ``size``, an array of
    ``size`` independent runs drawn as one matrix of noise (no loop over runs). eps-DP for
    queries of sensitivity Delta, whatever the length of the stream."""
    f = _check_stream(answers)
    t = _check_threshold(threshold)
    noise = _noise("above_threshold", epsilon, 1, 0.5, sensitivity)
    rng = check_rng(rng)
    runs = 1 if size is None else check_positive_int(size, "size")
    that = t + noise.threshold * rng.laplace(0.0, 1.0, size=(runs, 1))
    above = f + noise.query * rng.laplace(0.0, 1.0, size=(runs, f.size)) >= that
    first = np.where(above.any(axis=1), above.argmax(axis=1), -1)
    return int(first[0]) if size is None else first


@dataclass(frozen=True)
class SparseVectorResult:
    """One or more runs of a sparse vector variant: ``above[r, i]`` True where run r reported
    query i above (top); ``answered[r, i]`` False after the run halted; ``values`` the
    released noisy values (NaN where none) for "noisy_value", else None; ``answers`` the answers
    an adaptive analyst asked (NaN where none; :func:`sparse_vector_adaptive`), else None."""

    above: np.ndarray
    answered: np.ndarray
    values: np.ndarray | None
    answers: np.ndarray | None = None


def sparse_vector(
    answers: ArrayLike,
    threshold: float,
    epsilon: float,
    *,
    c: int,
    variant: str = "lyu_alg1",
    threshold_share: float = 0.5,
    sensitivity: float = 1.0,
    size: int | None = None,
    rng=None,
) -> SparseVectorResult:
    """Run a sparse vector ``variant`` (module docstring) on the stream ``answers``: up to c
    tops for the halting variants. Without ``size`` the arrays have one row."""
    f = _check_stream(answers)
    t = _check_threshold(threshold)
    c = check_positive_int(c, "c")
    noise = _noise(variant, epsilon, c, threshold_share, sensitivity)
    rng = check_rng(rng)
    runs = 1 if size is None else check_positive_int(size, "size")
    noisy = f + noise.query * rng.laplace(0.0, 1.0, size=(runs, f.size))
    if noise.after_top is None:
        that = t + noise.threshold * rng.laplace(0.0, 1.0, size=(runs, 1))
        above = noisy >= that
    else:  # dwork_roth: a fresh threshold after each top, so the queries are walked in order
        fresh = rng.laplace(0.0, 1.0, size=(runs, c))
        tops = np.zeros(runs, dtype=int)
        above = np.zeros((runs, f.size), dtype=bool)
        for i in range(f.size):
            scale = np.where(tops == 0, noise.threshold, noise.after_top)
            current = t + scale * fresh[np.arange(runs), np.minimum(tops, c - 1)]
            above[:, i] = noisy[:, i] >= current
            tops += above[:, i]
    if noise.halts:
        tops_before = np.cumsum(above, axis=1) - above  # tops strictly before each query
        answered = tops_before < c
        above &= answered
    else:
        answered = np.ones_like(above)
    values = np.where(above, noisy, np.nan) if variant == "noisy_value" else None
    return SparseVectorResult(above, answered, values)


def sparse_vector_adaptive(
    next_answer: Callable[[tuple[bool, ...]], float | None],
    threshold: float,
    epsilon: float,
    *,
    c: int,
    max_queries: int,
    variant: str = "lyu_alg1",
    threshold_share: float = 0.5,
    sensitivity: float = 1.0,
    size: int | None = None,
    rng=None,
) -> SparseVectorResult:
    """A sparse vector ``variant`` with one noisy threshold (not dwork_roth) on an adaptively chosen
    stream ([Gaboardi17]: "an adaptively chosen stream of sensitivity 1 queries"): the analyst's
    ``next_answer(outputs so far)`` gives the next query's answer on the data (None: stop asking).
    The noise is the variant's, drawn as in :func:`sparse_vector`; each run's next query depends
    on its own tops and bottoms so far, so the runs are grouped by their history at each step.
    Given the outputs so far the next query is fixed, so the probability of an output is the fixed
    stream's :func:`output_log_probability` on the answers :func:`adaptive_answers` lists, and the
    proof (which conditions on the noise before query k) covers adaptive streams unchanged."""
    t = _check_threshold(threshold)
    c = check_positive_int(c, "c")
    noise = _noise(variant, epsilon, c, threshold_share, sensitivity)
    if noise.after_top is not None or not noise.halts:
        raise ValueError(f"variant must halt after c tops with one noisy threshold, got variant={variant!r}")
    n = check_positive_int(max_queries, "max_queries")
    rng = check_rng(rng)
    runs = 1 if size is None else check_positive_int(size, "size")
    that = t + noise.threshold * rng.laplace(0.0, 1.0, size=runs)
    nu = noise.query * rng.laplace(0.0, 1.0, size=(runs, n))
    above, answered = np.zeros((runs, n), dtype=bool), np.zeros((runs, n), dtype=bool)
    answers, active = np.full((runs, n), np.nan), np.ones(runs, dtype=bool)
    for i in range(n):
        idx = np.flatnonzero(active)
        if idx.size == 0:
            break
        keys, inverse = np.unique(above[idx, :i], axis=0, return_inverse=True)
        asked = np.array([next_answer(tuple(bool(x) for x in key)) for key in keys], dtype=float)
        a = asked[inverse.ravel()]
        go, stop = idx[np.isfinite(a)], idx[~np.isfinite(a)]
        answers[go, i], answered[go, i] = a[np.isfinite(a)], True
        above[go, i] = answers[go, i] + nu[go, i] >= that[go]
        active[stop] = False
        active[go] = above[go, : i + 1].sum(axis=1) < c
    return SparseVectorResult(above, answered, None, answers)


def adaptive_answers(next_answer: Callable[[tuple[bool, ...]], float | None],
                     output: ArrayLike) -> np.ndarray:
    """The answers an adaptive analyst (as in :func:`sparse_vector_adaptive`) asks along ``output``:
    query i's answer is next_answer(output[:i]), a fixed stream once the output is fixed."""
    o = np.asarray(output, dtype=bool).ravel()
    asked = [next_answer(tuple(bool(x) for x in o[:i])) for i in range(o.size)]
    if any(a is None for a in asked):
        raise ValueError("output must stop where the analyst stops asking, got an output past it")
    return np.array(asked, dtype=float)


def output_sampler(variant: str, epsilon: float, *, threshold: float = 0.0) -> Callable:
    """A vectorized sampler ``(answers, size, rng) -> outputs`` of ``variant`` with c = 1, as
    :func:`dplab.audit.audit_epsilon` takes it: the index of the first top of each run (-1 if none)
    of a halting variant, the whole row of tops and bottoms of one that never halts."""
    check_choice(variant, VARIANTS, "variant")
    if variant == "above_threshold":
        return lambda data, size, rng: above_threshold(data, threshold, epsilon, size=size, rng=rng)
    if variant not in _HALTING:
        return lambda data, size, rng: sparse_vector(data, threshold, epsilon, c=1, variant=variant,
                                                     size=size, rng=rng).above

    def first_top(data, size, rng):
        above = sparse_vector(data, threshold, epsilon, c=1, variant=variant, size=size, rng=rng).above
        return np.where(above.any(axis=1), above.argmax(axis=1), -1)

    return first_top


def naive_above_threshold_epsilon(k_queries: int, epsilon: float) -> float:
    """What sequential composition charges AboveThreshold for k comparisons ([Gaboardi17]; Dwork & Roth
    2014, Sect. 3.6): given the noisy threshold, which does not depend on the data (T is public), each
    comparison f_i + Lap(4 Delta/eps) >= That is an eps/4-DP release, so basic composition gives
    k eps/4. Valid, and better than the theorem's eps only for k < 4."""
    return check_positive_int(k_queries, "k_queries") * check_epsilon(epsilon) / 4


def above_threshold_worst_case_supremum(k_queries: int, epsilon: float) -> float:
    """The supremum over streams of AboveThreshold's exact privacy loss of halting at query k (general
    neighbours): min(k eps/4, eps), both bounds met (Lyu, Su & Li 2017, Theorem 1; Dwork & Roth 2014,
    Thm 3.23). Above: naive composition (:func:`naive_above_threshold_epsilon`) and the theorem. Met:
    with the k - 1 bottoms at T + M and the top at T - M, the integrand over the noisy threshold t in
    (-M, M) is proportional to exp(-|t| eps/2 + (k - 2) t eps/4). For k < 4 it peaks near t = 0, where
    moving every answer by Delta costs k eps/4; for k > 4 it piles up at t = M, where shifting t by
    Delta (eps/2) and the top twice (eps/2) costs eps. At k = 4 it is flat on (0, M): the loss is
    eps - O(1/M), so eps is a supremum, approached as M grows, not attained by any finite stream
    (:func:`halting_worst_case_losses` at growing ``reach`` approaches it from below)."""
    return min(naive_above_threshold_epsilon(k_queries, epsilon), epsilon)


def above_threshold_accuracy(k_queries: int, beta: float, epsilon: float, *, sensitivity: float = 1.0,
                             exact: bool = False) -> float:
    """alpha for which AboveThreshold is (alpha, beta)-accurate on k queries (Dwork & Roth 2014,
    Theorem 3.24): with probability >= 1 - beta, every bottom has f_i <= T + alpha and the top
    f_k >= T - alpha, for streams whose first k - 1 answers are below T - alpha:

        alpha = 8 Delta (ln k + ln(2/beta)) / epsilon.

    Only ln k: answering the k questions "f_i >= T?" with Laplace noise composed over k queries
    needs (k Delta/eps) ln(k/beta) ([Roth11] Theorem 3; ``dplab.laplace_accuracy_k``). With
    ``exact=True``, the smallest alpha that meets beta: the root of
    :func:`above_threshold_failure_probability` = beta (scipy's brentq)."""
    k = check_positive_int(k_queries, "k_queries")
    beta = check_positive(beta, "beta")
    if beta >= 1:
        raise ValueError(f"beta must be in (0, 1), got beta={beta!r}")
    d, eps = check_sensitivity(sensitivity), check_epsilon(epsilon)
    theorem = 8 * d * (math.log(k) + math.log(2 / beta)) / eps
    if not exact:
        return theorem
    from scipy.optimize import brentq

    return float(brentq(lambda a: above_threshold_failure_probability(k, a, eps, sensitivity=d) - beta,
                        0.0, theorem, xtol=1e-10 * theorem))


def above_threshold_failure_probability(k_queries: int, alpha: float, epsilon: float, *,
                                        sensitivity: float = 1.0) -> float:
    """The largest Pr[AboveThreshold is not alpha-accurate] over streams of k queries whose first
    k - 1 answers are below T - alpha (Dwork & Roth 2014, Theorem 3.24's streams): by monotonicity
    the worst puts them at T - alpha and the k-th at T + alpha, where the only accurate output
    halts at query k: 1 - Pr[bottom^(k-1) top] (:func:`output_log_probability`)."""
    k = check_positive_int(k_queries, "k_queries")
    a = float(alpha)
    if not (math.isfinite(a) and a >= 0):
        raise ValueError(f"alpha must be finite and >= 0, got alpha={alpha!r}")
    stream = np.r_[np.full(k - 1, -a), a]
    return -math.expm1(output_log_probability("above_threshold", stream, 0.0, epsilon,
                                              sensitivity=sensitivity))


def optimal_threshold_share(c: int) -> float:
    """The share eps1/eps of Lyu, Su & Li 2017's Algorithm 1 (threshold Lap(Delta/eps1), queries
    Lap(2c Delta/eps2)) that minimises the variance of the comparison nu - rho,
    2 (Delta/eps1)^2 + 2 (2c Delta/eps2)^2, at eps1 + eps2 = eps: eps1 : eps2 = 1 : (2c)^(2/3)
    (their Section 4.2), so the share is 1 / (1 + (2c)^(2/3)): 0.39 at c = 1, 0.18 at c = 5, against
    the default 1:1 split, ``threshold_share=0.5``."""
    return 1.0 / (1.0 + (2 * check_positive_int(c, "c")) ** (2 / 3))


def comparison_std(variant: str, epsilon: float, *, c: int = 1, threshold_share: float = 0.5,
                   sensitivity: float = 1.0) -> float:
    """Standard deviation of the noise in each comparison f_i + nu_i >= T + rho of ``variant``:
    sqrt(2 b_rho^2 + 2 b_nu^2) for Laplace scales b (a Laplace(b) has variance 2 b^2); the
    smaller, the more accurately a top marks an answer above T."""
    noise = _noise(variant, epsilon, c, threshold_share, sensitivity)
    return math.sqrt(2 * noise.threshold**2 + 2 * noise.query**2)


def loss_limit(variant: str, epsilon: float, *, c: int = 1, neighbours: str = "general", block: int = 30,
               threshold_share: float = 0.5) -> float:
    """The exact privacy loss (:func:`exact_privacy_loss`) of c blocks "``block`` bottoms, then a
    top" on a stream of zeros with T = 0 (Lyu et al.'s worst case). The loss levels off as the
    blocks grow (block = 30 is within 1e-4 of the limit for every variant and c <= 5): general
    neighbours give eps for the private variants, (1 + 6c)/4 eps for lee_clifton and (c + 1/2) eps
    for no_halting (Lyu, Su & Li 2017); monotone ones eps1 + eps2/2 for lyu_alg1 (the bottoms'
    move is free, the top's costs half of eps2's share: Lyu et al.'s monotone case), so 3 eps/4 for
    AboveThreshold; nested ones eps/2 for AboveThreshold (only the threshold's shift is paid)."""
    check_choice(variant, [v for v in VARIANTS if v not in ("noisy_value", "no_query_noise")], "variant")
    c = check_positive_int(c, "c")
    if not (isinstance(block, int | np.integer) and block >= 0):
        raise ValueError(f"block must be an integer >= 0, got block={block!r}")
    o = np.tile(np.r_[np.zeros(block, dtype=bool), True], c)
    return exact_privacy_loss(variant, np.zeros(o.size), 0.0, epsilon, output=o, c=c,
                              threshold_share=threshold_share, neighbours=neighbours)


# ------------------------------------------------------------------ exact output probabilities

_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(24)
_LOG_HALF = math.log(0.5)
_TAIL_SHARE = 1e-12  # mass left outside the integration range, relative to the least likely output
_MAX_REACH = 800.0  # noise scales: exp(-800) underflows a double


def _log_cdf(x: np.ndarray, b: float) -> np.ndarray:
    """log Pr[Lap(b) < x], stable on both sides."""
    z = x / b
    return np.where(z < 0, _LOG_HALF + z, np.log1p(-0.5 * np.exp(-np.abs(z))))


def _log_sf(x: np.ndarray, b: float) -> np.ndarray:
    """log Pr[Lap(b) >= x]."""
    return _log_cdf(-x, b)


def _log_pdf(x: np.ndarray, b: float) -> np.ndarray:
    return -np.abs(x) / b - math.log(2 * b)


def _segment_log_integrand(t: np.ndarray, shifts_below: np.ndarray, shifts_above: np.ndarray,
                           b_rho: float, b_nu: float) -> np.ndarray:
    """log of p_rho(t) prod_bottom F(t - s) prod_top (1 - F(t - s)) at every t, where the
    s = f_i - T: a query is below when nu < T + t - f_i."""
    out = _log_pdf(t, b_rho)
    if b_nu > 0:
        if shifts_below.size:
            out = out + _log_cdf(t[:, None] - shifts_below[None, :], b_nu).sum(axis=1)
        if shifts_above.size:
            out = out + _log_sf(t[:, None] - shifts_above[None, :], b_nu).sum(axis=1)
    return out


def _log_integral(log_f, kinks: np.ndarray, scale: float, rtol: float = 1e-11) -> float:
    """log of the integral over the real line of exp(log_f(t)), log_f concave (a product of
    log-concave factors), smooth between ``kinks``. The region where log_f is within 60 of
    its maximum is located on a coarse grid, split at the kinks, and integrated by
    Gauss-Legendre with the panels halved until the result changes by less than rtol."""
    kinks = np.unique(np.concatenate([np.atleast_1d(kinks), [0.0]]))
    lo, hi = kinks[0] - 80 * scale, kinks[-1] + 80 * scale
    grid = np.unique(np.concatenate([np.linspace(lo, hi, 801), kinks]))
    values = log_f(grid)
    top = np.max(values)
    if not np.isfinite(top):
        return -math.inf
    inside = np.flatnonzero(values >= top - 60)
    a = grid[max(inside[0] - 1, 0)]
    b = grid[min(inside[-1] + 1, grid.size - 1)]
    edges = np.unique(np.concatenate([[a, b], kinks[(kinks > a) & (kinks < b)],
                                      np.arange(a, b, 2 * scale)]))  # panels of at most 2 scales
    previous = None
    for _ in range(12):
        left, right = edges[:-1], edges[1:]
        half = (right - left) / 2
        nodes = ((left + right) / 2)[:, None] + half[:, None] * _GL_NODES[None, :]
        logs = log_f(nodes.ravel()).reshape(nodes.shape) - top
        total = float(np.sum(half[:, None] * _GL_WEIGHTS[None, :] * np.exp(logs)))
        if previous is not None and abs(total - previous) <= rtol * abs(total):
            return top + math.log(total) if total > 0 else -math.inf
        previous = total
        edges = np.sort(np.concatenate([edges, (left + right) / 2]))
    return top + math.log(total) if total > 0 else -math.inf


def _check_output(output: ArrayLike | None, k: int, noise: _Noise, c: int) -> np.ndarray:
    if output is None:
        o = np.zeros(k, dtype=bool)
        o[-1] = True
        return o
    o = np.asarray(output, dtype=bool).ravel()
    if o.size == 0 or o.size > k:
        raise ValueError(f"output must cover 1 to {k} queries of the stream, got {o.size}")
    tops = int(o.sum())
    if noise.halts:
        if tops > c or (tops == c and not o[-1]):
            raise ValueError(f"output must end at the c-th top (c = {c}): the variant halts there")
        if tops < c and o.size != k:
            raise ValueError(f"output with fewer than c = {c} tops must cover all {k} queries")
    elif o.size != k:
        raise ValueError(f"this variant never halts: output must cover all {k} queries")
    return o


def output_log_probability(
    variant: str,
    answers: ArrayLike,
    threshold: float,
    epsilon: float,
    output: ArrayLike | None = None,
    *,
    c: int = 1,
    value: float | None = None,
    threshold_share: float = 0.5,
    sensitivity: float = 1.0,
) -> float:
    """log Pr[the variant outputs ``output``] on the stream ``answers`` (a bool per answered
    query, True = top; default bottom on all but the last, top on the last). For
    "noisy_value" with ``value``, the log density of releasing that value at the (single,
    c = 1) top. The integral over the noisy threshold t of p(t) prod F(T + t - f_i) ...
    is done by :func:`_log_integral` (Gauss-Legendre in log space, relative accuracy
    about 1e-11); no query noise gives a closed form (an interval of t)."""
    f = _check_stream(answers)
    c = check_positive_int(c, "c")
    noise = _noise(variant, epsilon, c, threshold_share, sensitivity)
    o = _check_output(output, f.size, noise, c)
    shifts = f[: o.size] - float(threshold)
    if variant == "no_query_noise":  # bottom iff t > f_i - T; top iff t <= f_i - T
        low = np.max(shifts[~o]) if (~o).any() else -math.inf
        high = np.min(shifts[o]) if o.any() else math.inf
        if low >= high:
            return -math.inf
        b = noise.threshold
        if not math.isfinite(low):
            return float(_log_cdf(np.array(high), b)) if math.isfinite(high) else 0.0
        if not math.isfinite(high):
            return float(_log_sf(np.array(low), b))
        return float(special.logsumexp([_log_cdf(np.array(high), b), _log_cdf(np.array(low), b)],
                                       b=[1.0, -1.0]))
    if noise.after_top is not None:  # dwork_roth: independent segments, each with its own threshold
        total, start = 0.0, 0
        for j, end in enumerate(list(np.flatnonzero(o)) + ([o.size - 1] if not o[-1] else [])):
            seg = shifts[start:end + 1]
            seg_top = o[start:end + 1]
            b_rho = noise.threshold if j == 0 else noise.after_top
            total += _log_integral(
                lambda t, s=seg, m=seg_top, br=b_rho: _segment_log_integrand(t, s[~m], s[m], br, noise.query),
                seg, max(b_rho, noise.query))
            start = end + 1
        return total
    if variant == "noisy_value" and value is not None:
        if int(o.sum()) != 1 or not o[-1]:
            raise ValueError("a released value needs exactly one top, the last answered query (c = 1)")
        v = float(value)
        cut = v - float(threshold)  # released above: v >= T + t, i.e. t <= v - T

        def log_f(t):
            inner = _segment_log_integrand(t, shifts[:-1], np.empty(0), noise.threshold, noise.query)
            return np.where(t <= cut, inner, -np.inf)

        return float(_log_pdf(np.array(v - f[o.size - 1]), noise.query)) + _log_integral(
            log_f, np.append(shifts, cut), max(noise.threshold, noise.query))
    return _log_integral(
        lambda t: _segment_log_integrand(t, shifts[~o], shifts[o], noise.threshold, noise.query),
        shifts, max(noise.threshold, noise.query))


def exact_privacy_loss(
    variant: str,
    answers: ArrayLike,
    threshold: float,
    epsilon: float,
    *,
    output: ArrayLike | None = None,
    c: int = 1,
    value: float | None = None,
    threshold_share: float = 0.5,
    sensitivity: float = 1.0,
    neighbours: str = "general",
) -> float:
    """The largest |ln P_D[o] / P_D'[o]| of the output o (default: bottom on all but the
    last answer, top on the last) over every neighbour D' whose answers each move by at
    most Delta: in any directions (``neighbours="general"``), all the same way by possibly
    different amounts ("monotone": Lyu, Su & Li 2017's monotonic queries, e.g. counts under
    add/remove), or all of them from some query on by Delta the same way ("nested": the
    queries "# rows with x >= h" for decreasing h, where one row moves every count from its own
    x on; the top always moves with the last moved bottom).

    Worst neighbours: each query's factor in the output probability is monotone in its
    answer (a bottom is likelier when the answer is lower, a top when higher), and only
    the threshold integral couples them; so the smallest P_D' puts every bottom answer at
    +Delta and every top answer at -Delta, the largest the reverse (a test searches a grid
    of neighbours on short streams). For "noisy_value" at a released value the top's
    factor is a density, not monotone: both of its shifts are tried with both directions
    of the bottoms, and ``value=None`` takes the sup over released values (on a grid of
    2,001 values and a local refinement). Monotone neighbours: the same monotonicity puts the
    extremes at the corners where the bottoms move by Delta and the tops stay, or the reverse,
    in either direction; "monotone" and "nested" exclude "noisy_value".
    """
    f = _check_stream(answers)
    c = check_positive_int(c, "c")
    d = check_sensitivity(sensitivity)
    noise = _noise(variant, epsilon, c, threshold_share, d)
    o = _check_output(output, f.size, noise, c)
    check_choice(neighbours, ("general", "monotone", "nested"), "neighbours")
    if neighbours != "general" and variant == "noisy_value":
        raise ValueError(f"neighbours={neighbours!r} needs a variant without released values, got "
                         f"variant={variant!r}")
    kwargs = {"c": c, "threshold_share": threshold_share, "sensitivity": d}
    base = f.copy()
    bottoms, tops = np.where(~o, d, 0.0), np.where(o, d, 0.0)
    if neighbours == "general":  # (sign of the bottoms' move, sign of the tops' move against it)
        moves = [s * (bottoms - tops) for s in (1.0, -1.0)]
    elif neighbours == "monotone":
        moves = [s * m for s in (1.0, -1.0) for m in (bottoms, tops)]
    else:
        moves = [s * np.where(np.arange(o.size) >= j, d, 0.0) for s in (1.0, -1.0) for j in range(o.size)]

    def loss_at(val: float | None) -> float:
        p = output_log_probability(variant, base, threshold, epsilon, o, value=val, **kwargs)
        worst = 0.0
        for move in moves if val is None else [sb * bottoms - st * tops for sb in (1, -1) for st in (1, -1)]:
            moved = base.copy()
            moved[: o.size] += move
            q = output_log_probability(variant, moved, threshold, epsilon, o, value=val, **kwargs)
            if math.isinf(p) and math.isinf(q):
                continue
            worst = max(worst, abs(p - q))
        return worst

    if variant != "noisy_value" or value is not None:
        return loss_at(value)
    top = f[o.size - 1]
    scale = noise.query + noise.threshold
    grid = np.linspace(top - 30 * scale, top + 30 * scale, 401)
    losses = np.array([loss_at(float(v)) for v in grid])
    best = int(np.argmax(losses))
    fine = np.linspace(grid[max(best - 1, 0)], grid[min(best + 1, grid.size - 1)], 41)
    return float(max(losses.max(), max(loss_at(float(v)) for v in fine)))


def _halting_outputs(n: int) -> list[np.ndarray]:
    """A halting variant's outputs with c = 1 on n queries: top at query k = 1..n, then none."""
    return [np.r_[np.zeros(i, dtype=bool), True] for i in range(n)] + [np.zeros(n, dtype=bool)]


def halting_probabilities(variant: str, answers: ArrayLike, threshold: float, epsilon: float) -> np.ndarray:
    """Exact Pr[a halting ``variant`` (c = 1) halts at query i] for i = 1..n, and Pr[it never
    halts] (last entry): exp of :func:`output_log_probability` of each output. They sum to 1."""
    f = _check_stream(answers)
    return np.array([math.exp(output_log_probability(variant, f, threshold, epsilon, o))
                     for o in _halting_outputs(f.size)])


def pair_privacy_loss(variant: str, answers: ArrayLike, answers_prime: ArrayLike, threshold: float,
                      epsilon: float) -> float:
    """The privacy loss of a halting ``variant`` (c = 1) on one pair of streams (D, D'): the largest
    |ln P_D[o] / P_D'[o]| over its n + 1 outputs o (top at query k, or none). At most
    :func:`exact_privacy_loss` over all neighbours; an audit's lower bound on this pair cannot
    exceed it."""
    f, g = _check_stream(answers), _check_stream(answers_prime)
    if variant not in _HALTING or f.shape != g.shape:
        raise ValueError(f"need a halting variant and two streams of one length, got variant={variant!r}, "
                         f"lengths {f.size} and {g.size}")
    return max(abs(output_log_probability(variant, f, threshold, epsilon, o)
                   - output_log_probability(variant, g, threshold, epsilon, o))
               for o in _halting_outputs(f.size))


# ------------------------------------------------------------------ the proof, step by step


def above_threshold_conditional_probability(
    g: float, f_k: float, threshold: float, epsilon: float, *, sensitivity: float = 1.0, shift: float = 0.0,
    threshold_shift: float = 0.0,
) -> float:
    """Pr over (That, nu_k) of AboveThreshold's output a = (bottom^(k-1), top), with nu_1..nu_(k-1)
    fixed so that g = max_(i<k) (f_i + nu_i) ([Gaboardi17]'s proof):

        Pr[That in (g, f_k + nu_k]] = integral integral p_nu(v) p_That(t) 1[t in (g, f_k + v]] dv dt
                                    = integral over t > g of p_That(t) Pr[nu_k >= t - f_k] dt.

    ``shift`` and ``threshold_shift`` evaluate the proof's integral after the change of
    variables instead, with the densities taken at v + shift and t + threshold_shift
    (p_nu(v_hat) p_That(t_hat)); both 0 give the probability itself.
    """
    noise = _noise("above_threshold", epsilon, 1, 0.5, sensitivity)
    b_rho, b_nu = noise.threshold, noise.query
    g, f_k, t0 = float(g), float(f_k), float(threshold)

    def log_f(t):  # t is That itself
        inner = _log_pdf(t + threshold_shift - t0, b_rho) + _log_sf(t - f_k + shift, b_nu)
        return np.where(t > g, inner, -np.inf)

    return math.exp(_log_integral(log_f, np.array([g, f_k - shift, t0 - threshold_shift]),
                                  max(b_rho, b_nu)))


def above_threshold_proof(
    g: float, g_prime: float, f_k: float, f_k_prime: float, threshold: float, epsilon: float, *,
    sensitivity: float = 1.0,
) -> dict[str, float]:
    """Each line of [Gaboardi17]'s proof that AboveThreshold is epsilon-DP, as numbers, for fixed
    nu_1..nu_(k-1) with g = g(D), g' = g(D') and the k-th answers f_k(D), f_k(D'):

    * ``p``, ``p_prime``: Pr[A = a] on D and D' (:func:`above_threshold_conditional_probability`);
    * ``changed``: the integral after the change of variables v_hat = v + g - g' + f_k' - f_k,
      t_hat = t + g - g', with the indicator now 1[t in (g', f_k' + v]] (equals ``p``);
    * ``v_shift`` = |v_hat - v| (<= 2 Delta), ``t_shift`` = |t_hat - t| (<= Delta);
    * ``nu_ratio`` = max_v p_nu(v_hat)/p_nu(v) = exp(v_shift / (4 Delta/eps)) (<= e^(eps/2)),
      ``threshold_ratio`` = exp(t_shift / (2 Delta/eps)) (<= e^(eps/2));
    * ``bound`` = nu_ratio * threshold_ratio * p_prime (>= ``p``, and <= e^eps p_prime);
    * ``bottom``, ``bottom_prime``: Pr[all k answers bottom] = Pr[That > g] on D and D'; their
      ratio is at most e^(eps/2) (only the threshold's shift counts).
    Neighbours need |g - g'| <= Delta and |f_k - f_k'| <= Delta, which every neighbour gives.
    """
    noise = _noise("above_threshold", epsilon, 1, 0.5, sensitivity)
    d = check_sensitivity(sensitivity)
    if abs(g - g_prime) > d * (1 + 1e-12) or abs(f_k - f_k_prime) > d * (1 + 1e-12):
        raise ValueError(f"neighbours move g and f_k by at most sensitivity={d}, got g - g'={g - g_prime}, "
                         f"f_k - f_k'={f_k - f_k_prime}")
    kwargs = {"sensitivity": d}
    v_shift = g - g_prime + f_k_prime - f_k
    t_shift = g - g_prime
    p = above_threshold_conditional_probability(g, f_k, threshold, epsilon, **kwargs)
    p_prime = above_threshold_conditional_probability(g_prime, f_k_prime, threshold, epsilon, **kwargs)
    changed = above_threshold_conditional_probability(g_prime, f_k_prime, threshold, epsilon, shift=v_shift,
                                                      threshold_shift=t_shift, **kwargs)
    # the density ratios, measured on a grid of v and t (not taken from the formula)
    grid = np.linspace(-60.0, 60.0, 24_001)
    nu_ratio = float(np.max(np.exp(_log_pdf(grid * noise.query + v_shift, noise.query)
                                   - _log_pdf(grid * noise.query, noise.query))))
    threshold_ratio = float(np.max(np.exp(_log_pdf(grid * noise.threshold + t_shift, noise.threshold)
                                          - _log_pdf(grid * noise.threshold, noise.threshold))))
    bottom = float(np.exp(_log_sf(np.array(g - threshold), noise.threshold)))
    bottom_prime = float(np.exp(_log_sf(np.array(g_prime - threshold), noise.threshold)))
    return {"p": p, "p_prime": p_prime, "changed": changed, "v_shift": abs(v_shift),
            "t_shift": abs(t_shift), "nu_ratio": nu_ratio, "threshold_ratio": threshold_ratio,
            "bound": nu_ratio * threshold_ratio * p_prime, "bottom": bottom, "bottom_prime": bottom_prime}


#: base points (g, f_k, T) of :func:`above_threshold_proof_grid`: below, at and above the threshold
PROOF_BASES = ((0.3, 0.8, 0.1), (-2.0, 1.5, 0.0), (4.0, -3.0, 1.0))


def above_threshold_proof_grid(
    epsilon: float, *, bases: Sequence[tuple[float, float, float]] = PROOF_BASES, points: int = 5
) -> dict[str, float]:
    """The lines of :func:`above_threshold_proof` over a grid of neighbours, (g - g', f_k - f_k') on a
    ``points`` x ``points`` grid of [-1, 1]^2 (Delta = 1) at each base point (g, f_k, T), leaving out
    D' = D (where every ratio is 1 trivially): the largest value of each ratio. The proof says every one
    is <= 1: ``p / (e^eps p')`` is the theorem, Pr[A = a] <= e^eps Pr[A' = a] (attained, = 1, where
    g > T puts That's density on its exponential tail); ``p / bound`` its step Pr[A = a] <= (the two
    density ratios at this shift) Pr[A' = a]; the density ratios <= e^(eps/2), reached where
    |v_hat - v| = 2 and |t_hat - t| = 1; ``|changed - p| / p`` is the change of variables' error."""
    worst = {"p / (e^eps p')": 0.0, "p / bound": 0.0, "bound / (e^eps p')": 0.0, "nu ratio / e^(eps/2)": 0.0,
             "threshold ratio / e^(eps/2)": 0.0, "bottom / (e^(eps/2) bottom')": 0.0,
             "|changed - p| / p": 0.0}
    grid = np.linspace(-1.0, 1.0, check_positive_int(points, "points"))
    for (g, f_k, t0), dg, df in itertools.product(bases, grid, grid):
        if dg == 0 and df == 0:
            continue
        r = above_threshold_proof(g, g - dg, f_k, f_k - df, t0, epsilon)
        half = math.exp(epsilon / 2)
        for key, value in (("p / (e^eps p')", r["p"] / (math.exp(epsilon) * r["p_prime"])),
                           ("p / bound", r["p"] / r["bound"]),
                           ("bound / (e^eps p')", r["bound"] / (math.exp(epsilon) * r["p_prime"])),
                           ("nu ratio / e^(eps/2)", r["nu_ratio"] / half),
                           ("threshold ratio / e^(eps/2)", r["threshold_ratio"] / half),
                           ("bottom / (e^(eps/2) bottom')", r["bottom"] / (half * r["bottom_prime"])),
                           ("|changed - p| / p", abs(r["changed"] - r["p"]) / r["p"])):
            worst[key] = max(worst[key], value)
    return worst


def above_threshold_proof_integrated(
    answers: ArrayLike, threshold: float, epsilon: float, *, sensitivity: float = 1.0
) -> dict[str, float]:
    """The proof's last line ([Gaboardi17]): Pr[A = a] = E over nu_1..nu_(k-1) of Pr[A = a | nu_<k], for
    a = (bottom^(k-1), top) on the stream ``answers`` (its last answer is f_k), against the worst
    neighbour D' (every bottom up by Delta, the top down by Delta). With the same nu_<k,
    g(D') = g(D) + Delta exactly, so with g's density p_g(x) = d/dx prod_(i<k) F_nu(x - f_i):

        Pr[A = a]  = integral p_g(x) P(x, f_k) dx  (P: :func:`above_threshold_conditional_probability`)
        Pr[A' = a] = integral p_g(x) P(x + Delta, f_k - Delta) dx,

    and P(x, f_k) <= e^eps P(x + Delta, f_k - Delta) at every x (the lines before) integrates to
    Pr[A = a] <= e^eps Pr[A' = a]. Returns ``p``, ``p_prime`` (both integrals, scipy's quad),
    ``p_direct``, ``p_prime_direct`` (:func:`output_log_probability`, an integral over the threshold
    instead), ``pointwise`` (max over x of P(x, f_k) / (e^eps P(x + Delta, f_k - Delta))) and
    ``ratio`` = p / p_prime."""
    from scipy import integrate

    f = _check_stream(answers)
    if f.size < 2:
        raise ValueError(f"answers must hold at least one bottom and the top, got {f.size} answer")
    d = check_sensitivity(sensitivity)
    b_nu = _noise("above_threshold", epsilon, 1, 0.5, d).query
    below, f_k = f[:-1], float(f[-1])

    def density_of_g(x: float) -> float:  # sum over the query that is the max of the others' CDFs
        log_cdf = _log_cdf(x - below, b_nu)
        return float(np.exp(special.logsumexp(log_cdf.sum() - log_cdf + _log_pdf(x - below, b_nu))))

    def cond(x: float, shift: float) -> float:
        return above_threshold_conditional_probability(x + shift, f_k - shift, threshold, epsilon,
                                                       sensitivity=d)

    lo, hi = below.min() - 60 * b_nu, below.max() + 60 * b_nu
    kinks = sorted({*below.tolist(), float(threshold), f_k})
    p, p_prime = (integrate.quad(lambda x, s=s: density_of_g(x) * cond(x, s), lo, hi, points=kinks,
                                 epsabs=0, epsrel=1e-10, limit=400)[0] for s in (0.0, d))
    prime = np.r_[below + d, f_k - d]
    xs = np.linspace(below.min() - 10 * b_nu, below.max() + 10 * b_nu, 81)
    pointwise = max(cond(x, 0.0) / (math.exp(epsilon) * cond(x, d)) for x in xs)
    return {"p": p, "p_prime": p_prime,
            "p_direct": math.exp(output_log_probability("above_threshold", f, threshold, epsilon,
                                                        sensitivity=d)),
            "p_prime_direct": math.exp(output_log_probability("above_threshold", prime, threshold, epsilon,
                                                              sensitivity=d)),
            "pointwise": pointwise, "ratio": p / p_prime}


# ------------------------------------------------------------------ every output of a stream at once


def _halting_log_probabilities(f: np.ndarray, shift_below: np.ndarray, shift_top: np.ndarray,
                               threshold: float, b_rho: float, b_nu: float, chunk: int = 4096,
                               reach: float = 40.0) -> np.ndarray:
    """log Pr[halt at query k] for k = 1..n and log Pr[all n bottom] (last entry), for a
    single-threshold variant with c = 1, when the k-th query's answer is f_k + shift_top_k
    and the earlier (bottom) answers are f_i + shift_below_i. One set of Gauss-Legendre nodes
    serves every k: the bottoms' log CDFs are summed along the stream (prefix sums), and the
    node chunks are combined by a running log-sum-exp.

    The nodes span the kinks and ``reach`` noise scales beyond (scale = max(b_rho, b_nu)).
    Every factor but the threshold noise's density is at most 1, so the mass left out is at
    most Pr[|rho| > reach scale] <= exp(-reach scale / b_rho); the range widens until that is
    below ``_TAIL_SHARE`` of the least likely output."""
    below = f + shift_below - threshold
    top = f + shift_top - threshold
    kinks = np.unique(np.concatenate([below, top, [0.0]]))
    scale = max(b_rho, b_nu)
    lo, hi = kinks[0] - reach * scale, kinks[-1] + reach * scale
    edges = np.unique(np.concatenate([kinks, np.arange(lo, hi, 2 * scale), [hi]]))
    left, right = edges[:-1], edges[1:]
    half = (right - left) / 2
    nodes = (((left + right) / 2)[:, None] + half[:, None] * _GL_NODES[None, :]).ravel()
    log_w = np.log((half[:, None] * _GL_WEIGHTS[None, :]).ravel())
    n = f.size
    below_values, below_index = np.unique(below, return_inverse=True)
    top_values, top_index = np.unique(top, return_inverse=True)
    result = np.full(n + 1, -np.inf)
    for start in range(0, nodes.size, chunk):
        t, lw = nodes[start:start + chunk], log_w[start:start + chunk]
        base = lw + _log_pdf(t, b_rho)
        logs = np.empty((n + 1, t.size))  # row k: the output halting at query k (last row: none)
        # each distinct answer's log CDF once, gathered and summed down the stream (for a constant
        # stream, as in the lessons' streams of 0s, the sum of i equal terms is i times one)
        log_cdf = _log_cdf(t[None, :] - below_values[:, None], b_nu)
        if below_values.size == 1:
            np.multiply(np.arange(1, n + 1)[:, None], log_cdf, out=logs[1:])
        else:
            np.cumsum(log_cdf[below_index], axis=0, out=logs[1:])
        logs[0] = 0.0
        logs[:-1] += _log_sf(t[None, :] - top_values[:, None], b_nu)[top_index]  # bottoms 1..k-1, top k
        logs += base
        peak = logs.max(axis=1, keepdims=True)  # log-sum-exp over the nodes, row by row, in place
        peak[~np.isfinite(peak)] = 0.0
        np.exp(np.subtract(logs, peak, out=logs), out=logs)
        with np.errstate(divide="ignore"):
            result = np.logaddexp(result, np.log(logs.sum(axis=1)) + peak[:, 0])
    # Pr[rho < lo] + Pr[rho > hi] <= exp(-reach scale / b_rho) must be <= share * min Pr[output]
    needed = (math.log(1 / _TAIL_SHARE) - result.min()) * b_rho / scale
    if needed > reach and reach < _MAX_REACH:
        return _halting_log_probabilities(f, shift_below, shift_top, threshold, b_rho, b_nu, chunk,
                                          min(needed + 1.0, _MAX_REACH))
    return result


def halting_privacy_losses(
    variant: str, answers: ArrayLike, threshold: float, epsilon: float, *, sensitivity: float = 1.0,
    threshold_share: float = 0.5,
) -> np.ndarray:
    """The exact privacy loss (as :func:`exact_privacy_loss`) of every output with c = 1 on
    the stream: bottom on queries 1..k-1 and top on query k, for k = 1..n, and all n bottom
    (last entry), computed together from shared prefix sums (streams of thousands of
    queries). For a halting variant these are its outputs; for "no_halting", the same
    patterns observed on the first k queries. dwork_roth with c = 1 never resamples its
    threshold. Worst neighbours as in :func:`exact_privacy_loss`: bottoms +Delta and the
    top -Delta, or the reverse."""
    f = _check_stream(answers)
    d = check_sensitivity(sensitivity)
    noise = _noise(variant, epsilon, 1, threshold_share, d)
    if variant in ("noisy_value", "no_query_noise"):
        raise ValueError("halting_privacy_losses covers the variants that output tops and bottoms "
                         f"through query noise, got variant={variant!r}")
    t0 = float(threshold)
    zero = np.zeros_like(f)
    base = _halting_log_probabilities(f, zero, zero, t0, noise.threshold, noise.query)
    harder = _halting_log_probabilities(f, zero + d, zero - d, t0, noise.threshold, noise.query)
    easier = _halting_log_probabilities(f, zero - d, zero + d, t0, noise.threshold, noise.query)
    return np.maximum(np.abs(base - harder), np.abs(base - easier))


def halting_loss_curves(variants: Sequence[str], epsilon: float, k_max: int) -> dict[str, np.ndarray]:
    """Exact privacy loss of "bottom on queries 1..k-1, top on query k" for k = 1..k_max, on a stream
    of zeros with threshold 0 (c = 1; Lyu, Su & Li 2017's worst case), for each variant: every k at
    once by :func:`halting_privacy_losses` (the loss of halting at k does not depend on later queries),
    without its all-bottom entry."""
    zeros = np.zeros(check_positive_int(k_max, "k_max"))
    return {v: halting_privacy_losses(v, zeros, 0.0, epsilon)[:-1] for v in variants}


def halting_worst_case_losses(variant: str, epsilon: float, k_max: int, *, reach: float = 15.0,
                              sensitivity: float = 1.0, threshold_share: float = 0.5) -> np.ndarray:
    """The largest exact privacy loss of halting at query k (c = 1; as :func:`halting_privacy_losses`),
    k = 1..k_max, over the streams whose answers sit at the corners +-M around the threshold,
    M = ``reach`` x (the query's + the threshold's noise scale). The loss of halting at k depends on
    the bottoms only through how many sit at each corner; the worst puts them all at one corner (a
    test compares every one of the 2^k corner streams for small k, and a full grid of streams for
    k <= 3), so four streams serve every k: bottoms at +M or -M, the top at +M or -M (shifted apart
    through the separate bottom and top answers of the prefix sums). For AboveThreshold the loss
    tends to min(k eps/4, eps) as M grows: the naive k eps/4 of
    :func:`naive_above_threshold_epsilon` is tight up to k = 4, the theorem's eps from there on
    (Lyu, Su & Li 2017, Theorem 1)."""
    k_max = check_positive_int(k_max, "k_max")
    d = check_sensitivity(sensitivity)
    noise = _noise(variant, epsilon, 1, threshold_share, d)
    if variant in ("noisy_value", "no_query_noise"):
        raise ValueError("halting_worst_case_losses covers the variants that output tops and bottoms "
                         f"through query noise, got variant={variant!r}")
    m = check_positive(reach, "reach") * (noise.query + noise.threshold)
    zero, worst = np.zeros(k_max), np.zeros(k_max)
    for below in (m, -m):
        for top in (m, -m):
            shift_below, shift_top = zero + below, zero + top
            base, harder, easier = (_halting_log_probabilities(zero, shift_below + s, shift_top - s, 0.0,
                                                               noise.threshold, noise.query)
                                    for s in (0.0, d, -d))
            worst = np.maximum(worst, np.maximum(np.abs(base - harder), np.abs(base - easier))[:-1])
    return worst
