"""Reconstruction attacks: too many subset sums answered with too little noise give the data away
([Gaboardi17], "Multiple queries" and "Reconstruction attack with polynomial adversary").

The data are n secret bits x in {0, 1}^n (one per person; n is public). A subset-sum query
is a 0/1 row q and its answer is <q, x> plus noise; m queries form an m x n 0/1 matrix A.
The results the slide runs together, each with its own source:

* Dinur & Nissim 2003: if *all* 2^n subsets are answered within E, any database
  consistent with the answers within E differs from x in at most 4E bits
  (:func:`exhaustive_attack`): error E = o(n) is blatantly non-private, with exponential work;
* Dinur & Nissim 2003: about n log^2 n random subset queries with error
  o(sqrt n) suffice for a polynomial-time (LP) attack;
* Dwork, McSherry & Talwar 2007: m = O(n) random queries and L1 (LP) decoding recover
  almost all of x even when a constant fraction of the answers is arbitrarily wrong
  (:func:`lp_attack`);
* Dwork & Yekhanin 2008: n structured queries with o(sqrt n) error, decoded fast.

Neighbours here *replace* one person's bit (n public), not the lab's add/remove default:
one query's answer then changes by at most 1, the m answers by at most m in L1 norm and
sqrt(m) in L2 norm (a bit that lies in every query).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike
from scipy import integrate, linalg, optimize, sparse, stats

from dplab._checks import (
    as_result,
    check_choice,
    check_delta,
    check_epsilon,
    check_nonnegative,
    check_positive,
    check_positive_int,
    check_prior,
    check_rng,
)
from dplab.accounting.advanced import advanced_composition_per_step
from dplab.accounting.zcdp import approx_dp_to_zcdp
from dplab.bmi import body_mass_index
from dplab.datasets import load_yrbss
from dplab.mechanisms.randomized_response import RandomizedResponse
from dplab.promises import tradeoff_dp, tradeoff_gdp

__all__ = [
    "CHALLENGE_LEVELS",
    "ChallengeLevel",
    "Grade",
    "ReconstructionChallenge",
    "adversarial_answers",
    "all_subset_queries",
    "answer_noise_sd",
    "answer_queries",
    "answer_noise",
    "answer_queries_dp",
    "argmax_guess_success",
    "blind_guess_tail",
    "bmi_bits",
    "consistent_candidates",
    "dp_answer_noise",
    "dp_guessing_bound",
    "exhaustive_attack",
    "exhaustive_attack_errors",
    "fixed_secret_guessing_bound",
    "gdp_guessing_bound",
    "grade_reconstruction",
    "k_ary_attack_successes",
    "least_squares_attack",
    "lp_attack",
    "ls_queries_needed",
    "LeastSquaresDesign",
    "least_squares_design",
    "least_squares_shares",
    "ls_recovery_exact",
    "ls_recovery_theory",
    "ls_recovery_theory_dp",
    "reconstruction_challenge",
    "reconstruction_robustness_bound",
    "split_guessing_bound",
    "subset_queries",
    "zcdp_split_guessing_bound",
]

NOISES = ("uniform", "gaussian", "laplace")
SPLITS = ("basic", "advanced", "zcdp")
#: all 2^n subsets: n is kept small enough for 2^n x 2^n consistency checks
MAX_EXHAUSTIVE_BITS = 14


# --- queries and answers ----------------------------------------------------------------------


def subset_queries(n_queries: int, n_bits: int, *, rng=None) -> np.ndarray:
    """m random subsets of n people as an m x n 0/1 matrix (uint8): each person is in each
    query independently with probability 1/2 (the random queries of Dinur & Nissim)."""
    m = check_positive_int(n_queries, "n_queries")
    n = check_positive_int(n_bits, "n_bits")
    return check_rng(rng).integers(0, 2, size=(m, n), dtype=np.uint8)


def bmi_bits(n_bits: int, *, rng=None) -> np.ndarray:
    """A real secret: "BMI >= 25" (uint8) for n students drawn without replacement from the
    shipped YRBSS table (12,579 rows; 29.6% of them have BMI >= 25)."""
    bmi = body_mass_index(load_yrbss())
    n = check_positive_int(n_bits, "n_bits")
    if n > bmi.size:
        raise ValueError(f"n_bits must be at most the table's {bmi.size} rows, got n_bits={n}")
    return (bmi[check_rng(rng).choice(bmi.size, n, replace=False)] >= 25).astype(np.uint8)


def all_subset_queries(n_bits: int) -> np.ndarray:
    """All 2^n subsets of n people, row j holding the binary digits of j (a 2^n x n uint8
    matrix; n <= 14). It also lists every candidate database of n bits."""
    n = check_positive_int(n_bits, "n_bits")
    if n > MAX_EXHAUSTIVE_BITS:
        raise ValueError(f"n_bits must be <= {MAX_EXHAUSTIVE_BITS} for all 2^n subsets, got n_bits={n}")
    return ((np.arange(2**n)[:, None] >> np.arange(n)) & 1).astype(np.uint8)


def _bits(bits: ArrayLike, name: str = "bits") -> np.ndarray:
    x = np.asarray(bits)
    if x.ndim != 1 or x.size == 0 or not np.all((x == 0) | (x == 1)):
        raise ValueError(f"{name} must be a non-empty 1-d array of 0s and 1s, got {name} of shape "
                         f"{x.shape} with values {np.unique(x)[:5]!r}")
    return x.astype(np.uint8)


def _queries(queries: ArrayLike, n_bits: int | None = None) -> np.ndarray:
    a = np.asarray(queries)
    if a.ndim != 2 or a.size == 0 or not np.all((a == 0) | (a == 1)):
        raise ValueError(f"queries must be a non-empty 2-d array of 0s and 1s (one row per query), "
                         f"got shape {a.shape}")
    if n_bits is not None and a.shape[1] != n_bits:
        raise ValueError(f"queries must have one column per bit ({n_bits}), got queries of width "
                         f"{a.shape[1]}")
    return a


def _answers(answers: ArrayLike, n_queries: int) -> np.ndarray:
    y = np.asarray(answers, dtype=float)
    if y.shape != (n_queries,) or not np.all(np.isfinite(y)):
        raise ValueError(f"answers must be {n_queries} finite numbers (one per query), got shape {y.shape}")
    return y


def answer_noise_sd(noise: str, scale: ArrayLike) -> float | np.ndarray:
    """The standard deviation of one answer's noise: E / sqrt(3) for uniform noise on [-E, E],
    sigma for Gaussian, sqrt(2) b for Laplace with scale b."""
    check_choice(noise, NOISES, "noise")
    scale = check_nonnegative(scale, "scale", array_ok=True)
    return as_result(scale * {"uniform": 1 / math.sqrt(3), "gaussian": 1.0, "laplace": math.sqrt(2)}[noise])


def answer_queries(queries: ArrayLike, bits: ArrayLike, *, noise: str = "uniform", scale: float,
                   rng=None) -> np.ndarray:
    """Noisy subset sums A x + e, independent noise per query: uniform on [-E, E] (scale = E,
    the slide's bounded perturbation), Gaussian (scale = sigma) or Laplace (scale = b)."""
    x = _bits(bits)
    a = _queries(queries, x.size)
    return a @ x.astype(float) + answer_noise(noise, scale, a.shape[0], rng=rng)


def dp_answer_noise(n_queries: int, epsilon: float, *, delta: float | None = None,
                    split: str = "basic") -> tuple[str, float]:
    """(noise, scale) that answers m subset sums with total (epsilon, delta)-DP under
    replace-one neighbours, the budget split over the m queries by a composition theorem
    (each answer has sensitivity 1):

    * ``"basic"`` (Dwork & Roth, Theorem 3.16): Laplace with b = m / epsilon; pure, delta=None;
    * ``"advanced"`` (Dwork, Rothblum & Vadhan 2010): Laplace with b = 1 / eps0, eps0 the
      per-step epsilon whose m-fold advanced composition is (epsilon, delta);
    * ``"zcdp"`` (Bun & Steinke 2016, Propositions 1.3 and 1.6): rho from (epsilon, delta) by the
      simple conversion, split as rho/m per query: Gaussian with sigma = sqrt(m / (2 rho)).

    Composition assumes nothing about the queries. Knowing them all in advance, the answer
    vector's sensitivity is the largest column sum of A (L1) or its square root (L2), about m/2
    for random queries: less noise for the same guarantee.
    """
    m = check_positive_int(n_queries, "n_queries")
    epsilon = check_epsilon(epsilon)
    check_choice(split, SPLITS, "split")
    if split == "basic":
        if delta is not None:
            raise ValueError(f"split='basic' is pure epsilon-DP: leave delta=None, got delta={delta!r}")
        return "laplace", m / epsilon
    if delta is None:
        raise ValueError(f"split={split!r} needs a delta in (0, 1), got delta=None")
    delta = check_delta(delta, allow_zero=False)
    if split == "advanced":
        return "laplace", 1 / advanced_composition_per_step(epsilon, m, delta)
    return "gaussian", math.sqrt(m / (2 * approx_dp_to_zcdp(epsilon, delta)))


def answer_queries_dp(queries: ArrayLike, bits: ArrayLike, epsilon: float, *, delta: float | None = None,
                      split: str = "basic", rng=None) -> np.ndarray:
    """The m subset sums released with total (epsilon, delta)-DP (replace-one neighbours), the
    budget split over the queries as :func:`dp_answer_noise` says."""
    noise, scale = dp_answer_noise(_queries(queries).shape[0], epsilon, delta=delta, split=split)
    return answer_queries(queries, bits, noise=noise, scale=scale, rng=rng)


def adversarial_answers(queries: ArrayLike, bits: ArrayLike, bound: float, *, tries: int = 1,
                        rng=None) -> tuple[np.ndarray, np.ndarray]:
    """(answers, decoy): exact answers of another database x' whose every answer lies within
    ``bound`` of the truth, so the answers are "accurate within E" and yet no attack can tell
    x from x'. The decoy is built greedily: visit the bits in random order and flip one when
    every |<q, x' - x>| stays <= E; of ``tries`` random orders, keep the decoy that differs most.
    A simple adversary, not the worst one. The attack then recovers x' and misses |x - x'| bits."""
    x = _bits(bits)
    a = _queries(queries, x.size)
    bound = check_nonnegative(bound, "bound")
    tries = check_positive_int(tries, "tries")
    gen = check_rng(rng)
    cols = a.astype(np.int64)
    best = x.copy()
    for _ in range(tries):
        diff = np.zeros(a.shape[0], dtype=np.int64)  # A (x' - x)
        decoy = x.copy()
        for i in gen.permutation(x.size):
            step = diff + (1 - 2 * int(x[i])) * cols[:, i]
            if np.max(np.abs(step)) <= bound:
                diff = step
                decoy[i] = 1 - x[i]
        if np.sum(decoy != x) > np.sum(best != x):
            best = decoy
    return a @ best.astype(float), best


# --- attacks ----------------------------------------------------------------------------------------


def least_squares_attack(queries: ArrayLike, answers: ArrayLike) -> np.ndarray:
    """argmin_z ||A z - y||_2 over real z, rounded at 1/2 (uint8 bits). With m >= n random
    queries A has full column rank (almost surely) and the estimate is x + (A^T A)^-1 A^T e."""
    a = _queries(queries)
    y = _answers(answers, a.shape[0])
    z = linalg.lstsq(a.astype(float), y, lapack_driver="gelsy", check_finite=False)[0]
    return (z >= 0.5).astype(np.uint8)


def least_squares_shares(queries: ArrayLike, bits: ArrayLike, releases: Iterable[ArrayLike]) -> np.ndarray:
    """The share of ``bits`` that :func:`least_squares_attack` recovers from each release (a vector
    of answers to ``queries``) in ``releases``: the attack itself, run on each release (for many noise
    levels of one design, :class:`LeastSquaresDesign` is the faster way)."""
    x = _bits(bits)
    return np.array([np.mean(least_squares_attack(queries, y) == x) for y in releases])


@dataclass(frozen=True)
class LeastSquaresDesign:
    """Least squares on m queries of n bits at every noise level from one factorisation: with
    answers A x + s z, the estimate is x + s w with w = (A^T A)^-1 A^T z, linear in the noise scale
    s, so each level costs one comparison, not a new solve. ``errors`` holds w for each kind of
    standard noise z (n x draws); a bit is right when x + s w rounds to it at 1/2."""

    bits: np.ndarray
    queries: np.ndarray
    errors: dict

    @property
    def n(self) -> int:
        return self.bits.size

    @property
    def m(self) -> int:
        return self.queries.shape[0]

    def correct(self, kind: str, scale: float) -> np.ndarray:
        """n x draws: whether least squares gets each bit right at noise ``scale`` (the rounding of
        :func:`least_squares_attack`: z >= 1/2 is a 1)."""
        w = scale * self.errors[kind]
        return np.where(self.bits[:, None] == 1, w >= -0.5, w < 0.5)

    def shares(self, kind: str, scale: float) -> np.ndarray:
        """The share of bits least squares recovers, per draw."""
        return self.correct(kind, scale).mean(axis=0)


def least_squares_design(queries: ArrayLike, bits: ArrayLike, noise: dict) -> LeastSquaresDesign:
    """The :class:`LeastSquaresDesign` of these queries and bits for the standard noise draws
    ``noise`` (kind -> m x draws), all factorised at once."""
    a = _queries(queries)
    x = _bits(bits)
    if a.shape[1] != x.size:
        raise ValueError(f"queries must have one column per bit ({x.size}), got {a.shape[1]}")
    kinds = list(noise)
    z = np.hstack([np.asarray(noise[k], dtype=float) for k in kinds])
    if z.shape[0] != a.shape[0]:
        raise ValueError(f"noise must have one row per query ({a.shape[0]}), got {z.shape[0]}")
    w = linalg.lstsq(a.astype(float), z, lapack_driver="gelsy", check_finite=False)[0]
    edges = np.cumsum([0] + [np.asarray(noise[k]).shape[1] for k in kinds])
    return LeastSquaresDesign(x, a, {k: w[:, edges[i]:edges[i + 1]] for i, k in enumerate(kinds)})


def lp_attack(queries: ArrayLike, answers: ArrayLike, *, objective: str = "l1",
              bound: float | None = None) -> np.ndarray:
    """Linear-programming decoding over z in [0, 1]^n, rounded at 1/2 (uint8 bits), solved by
    scipy.optimize.linprog (HiGHS).

    ``objective="l1"`` (Dwork, McSherry & Talwar 2007): min sum_j |<q_j, z> - y_j|, no bound
    needed. ``objective="feasible"`` (Dinur & Nissim 2003's LP): any z with |<q_j, z> - y_j| <= E
    for every j, E = ``bound`` known to the attacker; the solver returns a vertex of that
    polytope, which carries less information than the L1 optimum.
    """
    a = _queries(queries).astype(float)
    m, n = a.shape
    y = _answers(answers, m)
    check_choice(objective, ("l1", "feasible"), "objective")
    if objective == "feasible":
        if bound is None:
            raise ValueError("objective='feasible' needs the error bound E, got bound=None")
        bound = check_nonnegative(bound, "bound")
        res = optimize.linprog(np.zeros(n), A_ub=np.vstack([a, -a]),
                               b_ub=np.concatenate([y + bound, bound - y]), bounds=(0, 1), method="highs")
    else:
        if bound is not None:
            raise ValueError(f"objective='l1' uses no bound, got bound={bound!r}")
        eye = sparse.identity(m, format="csr")
        a_ub = sparse.vstack([sparse.hstack([a, -eye]), sparse.hstack([-a, -eye])], format="csr")
        cost = np.concatenate([np.zeros(n), np.ones(m)])
        res = optimize.linprog(cost, A_ub=a_ub, b_ub=np.concatenate([y, -y]),
                               bounds=[(0, 1)] * n + [(0, None)] * m, method="highs")
    if res.status != 0:
        raise ValueError(f"the linear program found no solution ({res.message}); for "
                         f"objective='feasible' the bound may be below the answers' real error")
    return (res.x[:n] >= 0.5).astype(np.uint8)


def _worst_errors(qf: np.ndarray, y: np.ndarray, start: int) -> np.ndarray:
    """max_q |<q, c> - y_q| for the (up to) 256 candidates c = qf[start:start + 256] (every subset
    query q a row of qf, in the order of y)."""
    return np.max(np.abs(qf @ qf[start:start + 256].T - y[:, None]), axis=0)


def exhaustive_attack(answers: ArrayLike, n_bits: int, bound: float) -> np.ndarray:
    """Dinur & Nissim 2003: given all 2^n subset sums (in the order of
    :func:`all_subset_queries`) each within E of the truth, return a database c with
    |<q, c> - y_q| <= E for every q (the first in that order). x itself qualifies, and any such c
    differs from x in at most 4E bits: the people with x_i = 1, c_i = 0 form one query on
    which the two answers differ by their number, so there are at most 2E of them, and the same
    for x_i = 0, c_i = 1. Exponential work: n <= 14."""
    q = all_subset_queries(n_bits)
    y = _answers(answers, q.shape[0])
    bound = check_nonnegative(bound, "bound")
    qf = q.astype(float)  # sums of at most 14 ones: exact in floating point, and BLAS-fast
    for start in range(0, q.shape[0], 256):
        worst = _worst_errors(qf, y, start)
        ok = np.flatnonzero(worst <= bound)
        if ok.size:
            return q[start + ok[0]].copy()
    raise ValueError(f"no database is consistent with the answers within bound={bound!r}: the "
                     "answers' error exceeds the bound")


def exhaustive_attack_errors(n_bits: int, bound: float, *, secrets: int, seed: int,
                             candidate: str = "first") -> np.ndarray:
    """Dinur & Nissim 2003's experiment: the bits :func:`exhaustive_attack` gets wrong (a ``secrets``
    x 2 int array) on random secrets of n bits with all 2^n subsets answered within E, column 0 with
    uniform noise on [-E, E] (:func:`answer_queries`), column 1 with the adversary's decoy answers
    (:func:`adversarial_answers`, one order). The theorem: no entry exceeds 4E. Secret s is drawn
    from numpy.random.default_rng([seed, s]), its noise from [seed, s, 1], the adversary's order from
    [seed, s, 2] (reproducible per secret, whatever ``secrets``). ``candidate="worst"`` counts, on
    the same answers, the bits wrong in the farthest of :func:`consistent_candidates` instead of the
    first: what an attack that returns some consistent database can get wrong (4E is attained)."""
    n = check_positive_int(n_bits, "n_bits")
    check_positive_int(secrets, "secrets")
    check_choice(candidate, ("first", "worst"), "candidate")
    q = all_subset_queries(n)
    wrong = np.zeros((secrets, 2), dtype=int)
    for s in range(secrets):
        x = np.random.default_rng([seed, s]).integers(0, 2, n).astype(np.uint8)
        answers = (answer_queries(q, x, scale=bound, rng=np.random.default_rng([seed, s, 1])),
                   adversarial_answers(q, x, bound, rng=np.random.default_rng([seed, s, 2]))[0])
        for j, y in enumerate(answers):
            if candidate == "first":
                wrong[s, j] = np.sum(exhaustive_attack(y, n, bound) != x)
            else:
                wrong[s, j] = np.max(np.sum(consistent_candidates(y, n, bound) != x, axis=1))
    return wrong


# --- theory -------------------------------------------------------------------------------------------


def ls_recovery_theory(n_bits: ArrayLike, n_queries: ArrayLike, noise_sd: ArrayLike) -> float | np.ndarray:
    """The expected share of bits least squares recovers from m random subset sums with
    independent noise of standard deviation sigma: Phi(sqrt(m - n) / (4 sigma)).

    Bit i is right when its estimation error is below 1/2 on the right side, with probability
    Phi(1 / (2 sigma sqrt(v_i))), v_i = ((A^T A)^-1)_ii (:func:`ls_recovery_exact`). For a random
    0/1 design write A = (11^T + B)/2, B a random +-1 matrix: the all-ones part only concerns the
    bits' total, and B^T B / 4 is approximately a Wishart matrix (exactly for Gaussian B; m degrees of
    freedom, n dimensions) whose inverse has mean 4 I / (m - n - 1): v_i is about 4 / (m - n). An
    approximation (the v_i vary; non-Gaussian noise is Gaussian only in the limit): it needs m > n.
    """
    n = check_positive_int(n_bits, "n_bits", array_ok=True)
    m = check_positive_int(n_queries, "n_queries", array_ok=True)
    sd = check_nonnegative(noise_sd, "noise_sd", array_ok=True)
    if np.any(m <= n):
        raise ValueError(f"n_queries must exceed n_bits, got n_queries={n_queries!r}, n_bits={n_bits!r}")
    with np.errstate(divide="ignore"):
        return as_result(stats.norm.cdf(np.sqrt(m - n) / (4 * sd)))


def ls_recovery_theory_dp(n_bits: int, n_queries: int, epsilon: ArrayLike, *, split: str,
                          delta: float | None = None) -> float | np.ndarray:
    """The expected share of bits least squares recovers from m random subset sums released with
    total (epsilon, delta)-DP by :func:`dp_answer_noise`'s ``split``: :func:`ls_recovery_theory`,
    Phi(sqrt(m - n) / (4 sd)), at the split's noise sd per answer: sqrt(2) m / epsilon (basic,
    Laplace b = m / epsilon), sqrt(2) / eps0 (advanced, eps0 the DRV per-step epsilon) or
    sqrt(m / (2 rho)) (zcdp, rho the simple conversion of Bun & Steinke 2016, Proposition 1.3).
    ``delta`` is None for the basic split (pure DP), as in :func:`dp_answer_noise`."""
    eps = np.atleast_1d(np.asarray(epsilon, dtype=float))
    sds = [answer_noise_sd(*dp_answer_noise(n_queries, float(e), delta=delta, split=split)) for e in eps]
    out = ls_recovery_theory(n_bits, n_queries, np.array(sds))
    return out if np.ndim(epsilon) else float(np.atleast_1d(out)[0])


def ls_queries_needed(n_bits: int, noise_sd: float, share: float) -> float:
    """The number of random queries m at which :func:`ls_recovery_theory` reaches ``share``:
    sqrt(m - n) / (4 sigma) = Phi^-1(share), so m = n + (4 sigma Phi^-1(share))^2 (share > 1/2)."""
    n = check_positive_int(n_bits, "n_bits")
    sd = check_nonnegative(noise_sd, "noise_sd")
    if not 0.5 < share < 1:
        raise ValueError(f"share must lie in (0.5, 1), got share={share!r}")
    return n + (4 * sd * stats.norm.ppf(share)) ** 2


def ls_recovery_exact(queries: ArrayLike, noise_sd: float) -> float:
    """For a given design A and Gaussian noise N(0, sigma^2): the expected share of bits least
    squares recovers, mean_i Phi(1 / (2 sigma sqrt(((A^T A)^-1)_ii))) (the estimate of bit i is
    x_i + N(0, sigma^2 ((A^T A)^-1)_ii), rounded at 1/2). Exact for Gaussian noise."""
    a = _queries(queries).astype(float)
    if a.shape[0] < a.shape[1]:
        raise ValueError(f"least squares needs at least as many queries as bits, got {a.shape[0]} "
                         f"queries for {a.shape[1]} bits")
    sd = check_positive(noise_sd, "noise_sd")
    v = np.diag(linalg.inv(a.T @ a))
    return float(np.mean(stats.norm.cdf(1 / (2 * sd * np.sqrt(v)))))


def dp_guessing_bound(epsilon: ArrayLike, delta: float = 0.0, *, prior: float = 0.5) -> float | np.ndarray:
    """The most often any attacker can guess one person's bit from an (epsilon, delta)-DP
    release, when the bit is 1 with probability kappa = ``prior`` (the rest of the data fixed):

        max( (e^eps + delta) / (1 + e^eps),  max(kappa, 1 - kappa) + min(kappa, 1 - kappa) delta ).

    A guess is a test of x_i = 0 against x_i = 1; its success kappa TPR + (1 - kappa)(1 - FPR)
    is linear, so its maximum over the region DP allows (TPR <= e^eps FPR + delta and
    1 - FPR <= e^eps (1 - TPR) + delta; Kairouz, Oh & Viswanath 2015) sits at a vertex: the corner
    FPR = (1 - delta)/(1 + e^eps), TPR = (e^eps + delta)/(1 + e^eps), where the success is the
    first term whatever kappa, or the majority guess (FPR = TPR = 0 or 1) with its delta.
    Randomized response attains it. 0.731 at eps = 1, kappa = 1/2.
    """
    eps = check_nonnegative(epsilon, "epsilon", array_ok=True)
    delta = check_delta(delta)
    kappa = check_prior(prior)
    corner = (1 + delta * np.exp(-eps)) / (1 + np.exp(-eps))  # (e^eps + delta)/(1 + e^eps)
    majority = max(kappa, 1 - kappa) + min(kappa, 1 - kappa) * delta
    return as_result(np.maximum(corner, majority))


def gdp_guessing_bound(mu: ArrayLike, *, prior: float = 0.5) -> float | np.ndarray:
    """The most often any attacker can guess one person's bit (1 with probability kappa) from a
    mu-GDP release (Dong, Roth & Su 2022): the Bayes test of N(0, 1) against N(mu, 1), threshold
    t = mu/2 + ln((1 - kappa)/kappa)/mu, succeeds with (1 - kappa) Phi(t) + kappa Phi(mu - t);
    Phi(mu/2) at kappa = 1/2. A Gaussian mechanism with L2 sensitivity Delta and noise sigma
    is mu-GDP with mu = Delta/sigma; rho-zCDP from the worst case gives mu = sqrt(2 rho),
    so Phi(sqrt(rho/2))."""
    mu = check_nonnegative(mu, "mu", array_ok=True)
    kappa = check_prior(prior)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mu / 2 + math.log((1 - kappa) / kappa) / mu
        value = (1 - kappa) * stats.norm.cdf(t) + kappa * stats.norm.cdf(mu - t)
    return as_result(np.where(mu == 0, max(kappa, 1 - kappa), value))


def zcdp_split_guessing_bound(epsilon: ArrayLike, delta: float, *, prior: float = 0.5) -> float | np.ndarray:
    """The zCDP split's own bound on any attacker's per-bit guess: its Gaussian answers are
    sqrt(2 rho)-GDP (one bit moves the answer vector by at most sqrt(m) in L2, the noise has
    sigma = sqrt(m / (2 rho))), rho = approx_dp_to_zcdp(epsilon, delta), whatever m:
    :func:`gdp_guessing_bound` at mu = sqrt(2 rho), Phi(sqrt(rho / 2)) at prior 1/2."""
    eps = check_positive(epsilon, "epsilon", array_ok=True)
    delta = check_delta(delta, allow_zero=False)
    mus = np.sqrt(2 * np.array([approx_dp_to_zcdp(float(e), delta) for e in np.atleast_1d(eps)]))
    return as_result(np.asarray(gdp_guessing_bound(mus, prior=prior)).reshape(np.shape(eps)))


def split_guessing_bound(epsilon: ArrayLike, split: str, delta: float | None = None, *,
                         prior: float = 0.5) -> float | np.ndarray:
    """The most often any attacker guesses one person's bit from the m answers of
    :func:`dp_answer_noise`'s ``split`` at total (epsilon, delta): the (epsilon, delta) bound of
    :func:`dp_guessing_bound` (delta = 0 for ``"basic"``), and for ``"zcdp"`` the smaller of that
    and the Gaussian release's own, :func:`zcdp_split_guessing_bound`."""
    check_choice(split, SPLITS, "split")
    eps = check_positive(epsilon, "epsilon", array_ok=True)
    if split == "basic":
        if delta is not None:
            raise ValueError(f"split='basic' is pure epsilon-DP: leave delta=None, got delta={delta!r}")
        return dp_guessing_bound(eps, 0.0, prior=prior)
    if delta is None:
        raise ValueError(f"split={split!r} needs a delta in (0, 1), got delta=None")
    bound = np.asarray(dp_guessing_bound(eps, delta, prior=prior))
    if split == "zcdp":
        bound = np.minimum(bound, zcdp_split_guessing_bound(eps, delta, prior=prior))
    return as_result(bound)


def reconstruction_robustness_bound(kappa: ArrayLike, *, epsilon: float | None = None, delta: float = 0.0,
                                    mu: float | None = None) -> float | np.ndarray:
    """The most often any attacker can reconstruct a secret it would guess right with
    probability kappa without the release (kappa = the prior's largest mass, 1/K for one of K
    equally likely values): 1 - f(kappa), f the trade-off function of the release (Kaissis et
    al. 2023; reconstruction robustness of Balle, Cherubin & Hayes 2022).

    Why: compare D with the secret z against D' with an independent z' ~ prior. The test "the
    attack outputs z" has type I error <= kappa under D' and power = the success under D, so
    success <= 1 - f(kappa). For (epsilon, delta)-DP, f(a) = max(0, 1 - delta - e^eps a,
    e^-eps (1 - delta - a)): min(1, e^eps kappa + delta, 1 - e^-eps (1 - delta - kappa)).
    For mu-GDP, f(a) = Phi(Phi^-1(1 - a) - mu): Phi(Phi^-1(kappa) + mu). Give epsilon or mu.
    It holds for any secret; for a bit it is looser than :func:`dp_guessing_bound` (the independent
    z' equals z half the time).
    """
    k = check_prior(kappa, "kappa", array_ok=True)
    if (epsilon is None) == (mu is None):
        raise ValueError(f"give exactly one of epsilon and mu, got epsilon={epsilon!r}, mu={mu!r}")
    if mu is not None:
        return as_result(1 - np.asarray(tradeoff_gdp(k, mu)))
    return as_result(1 - np.asarray(tradeoff_dp(k, epsilon, delta)))


def argmax_guess_success(mu: float, n_values: int) -> float:
    """How often the largest coordinate of s e_z + N(0, I_K), s = mu / sqrt(2) (a mu-GDP release
    of a secret z uniform over K values: two secrets are mu apart), is z:
    integral of phi(t - s) Phi(t)^(K - 1) dt (numerical quadrature)."""
    mu = check_nonnegative(mu, "mu")
    k = check_positive_int(n_values, "n_values")
    shift = mu / math.sqrt(2)
    value, _ = integrate.quad(lambda t: stats.norm.pdf(t - shift) * stats.norm.cdf(t) ** (k - 1),
                              -np.inf, np.inf, epsabs=1e-12)
    return value


def k_ary_attack_successes(n_values: int, draws: int, *, epsilon: float, mu: float,
                           rng=None) -> tuple[int, int]:
    """(randomized response's, the Gaussian release's) successes over ``draws`` secrets z uniform over
    K values (the same secrets for both), each attacked at its best (Kaissis et al. 2023):
    K-ary randomized response at ``epsilon`` guessed by its output, right with probability
    e^eps / (e^eps + K - 1); the mu-GDP release s e_z + N(0, I_K), s = mu / sqrt(2) (two secrets are
    mu apart), guessed by its largest coordinate, right with :func:`argmax_guess_success`."""
    k = check_positive_int(n_values, "n_values")
    n = check_positive_int(draws, "draws")
    mu = check_nonnegative(mu, "mu")
    gen = check_rng(rng)
    z = gen.integers(0, k, n)
    rr = int(np.sum(RandomizedResponse(epsilon, k).sample(z, gen) == z))
    y = gen.standard_normal((n, k))
    y[np.arange(n), z] += mu / math.sqrt(2)
    return rr, int(np.sum(np.argmax(y, axis=1) == z))


# --- the challenge --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChallengeLevel:
    """A level of the reconstruction challenge: n secret bits, how many queries may be asked,
    and how each answer is perturbed (uniform noise on [-E, E], or a DP split of epsilon)."""

    name: str
    n_bits: int
    max_queries: int
    noise: str
    scale: float
    epsilon: float | None = None
    delta: float | None = None
    split: str | None = None

    def describe(self) -> str:
        if self.epsilon is None:
            ratio = self.scale / math.sqrt(self.n_bits)
            noise = f"uniform noise on [-{self.scale:g}, {self.scale:g}] (E/sqrt(n) = {ratio:.3g})"
        else:
            budget = f"epsilon = {self.epsilon:g}" + (f", delta = {self.delta:g}" if self.delta else "")
            noise = (f"DP with total {budget}, split by {self.split} composition ({self.noise} noise, "
                     f"scale {self.scale:.4g})")
        return f"level {self.name!r}: {self.n_bits} secret bits, up to {self.max_queries} queries, {noise}"


def _dp_level(name: str, n: int, m: int, epsilon: float, delta: float | None, split: str) -> ChallengeLevel:
    noise, scale = dp_answer_noise(m, epsilon, delta=delta, split=split)
    return ChallengeLevel(name, n, m, noise, scale, epsilon, delta, split)


#: The challenge's levels, easiest first.
CHALLENGE_LEVELS = {
    "warm-up": ChallengeLevel("warm-up", 64, 256, "uniform", 1.0),
    "threshold": ChallengeLevel("threshold", 256, 512, "uniform", 8.0),
    "few queries": ChallengeLevel("few queries", 256, 300, "uniform", 2.0),
    "dp, eps = 1": _dp_level("dp, eps = 1", 256, 512, 1.0, 1e-6, "zcdp"),
    "dp, eps = 20": _dp_level("dp, eps = 20", 256, 512, 20.0, 1e-6, "zcdp"),
}


def _level(level: str) -> ChallengeLevel:
    return CHALLENGE_LEVELS[check_choice(level, tuple(CHALLENGE_LEVELS), "level")]


def _secret(level: ChallengeLevel, seed: int) -> np.ndarray:
    return np.random.default_rng([seed, 0, level.n_bits]).integers(0, 2, level.n_bits, dtype=np.uint8)


#: queries asked per (level, seed) in this Python session, whichever oracle asked them
_ASKED: dict[tuple[str, int], int] = {}


@dataclass
class ReconstructionChallenge:
    """A query oracle over a hidden secret: ``ask(queries)`` answers 0/1 rows of width n_bits
    with the level's noise until ``max_queries`` have been asked of that level and seed.

    The noise is fresh for every answer and never seeded (two oracles that replayed the same
    noise could be subtracted to cancel it), and the allowance is shared by every oracle of the
    same level and seed in this Python session (a new oracle is not a new budget).

    The rest is the honour system: the secret is derived from the seed with dplab's code, the
    allowance resets when Python restarts, and grading is free (flipping one bit and grading again
    would reveal it). Don't look, and grade once.
    """

    level: ChallengeLevel
    seed: int
    _bits: np.ndarray = field(default=None, repr=False)
    _rng: np.random.Generator = field(default=None, repr=False)

    def __post_init__(self):
        self._bits = _secret(self.level, self.seed)
        self._rng = np.random.default_rng()  # fresh OS entropy

    @property
    def n_bits(self) -> int:
        return self.level.n_bits

    @property
    def asked(self) -> int:
        """Queries asked of this level and seed so far in this session."""
        return _ASKED.get((self.level.name, self.seed), 0)

    @property
    def remaining(self) -> int:
        return self.level.max_queries - self.asked

    def random_queries(self, *, rng=None) -> np.ndarray:
        """The rest of the allowance as random subsets (:func:`subset_queries`); once it is used up (a
        challenge cell run twice, say) a ValueError that says so."""
        if self.remaining <= 0:
            raise ValueError(f"level {self.level.name!r}, seed {self.seed}: the allowance of "
                             f"{self.level.max_queries} queries is used up in this Python session (restart "
                             "the kernel, or take another seed for a new secret)")
        return subset_queries(self.remaining, self.n_bits, rng=rng)

    def ask(self, queries: ArrayLike) -> np.ndarray:
        """Noisy answers to the rows of ``queries`` (one row: one answer)."""
        a = np.asarray(queries)
        a = _queries(a[None, :] if a.ndim == 1 else a, self.n_bits)
        if a.shape[0] > self.remaining:
            raise ValueError(f"level {self.level.name!r} allows {self.level.max_queries} queries: "
                             f"{self.asked} asked, {a.shape[0]} more requested (the allowance is per level "
                             "and seed for this Python session: take another seed for a new secret)")
        _ASKED[(self.level.name, self.seed)] = self.asked + a.shape[0]
        return answer_queries(a, self._bits, noise=self.level.noise, scale=self.level.scale, rng=self._rng)

    def __str__(self) -> str:
        return f"{self.level.describe()}; {self.asked} asked, {self.remaining} left"


def reconstruction_challenge(level: str, *, seed: int) -> ReconstructionChallenge:
    """A fresh query oracle for one of :data:`CHALLENGE_LEVELS` over the secret of ``seed``."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be an int >= 0, got seed={seed!r}")
    return ReconstructionChallenge(_level(level), seed)


@dataclass(frozen=True)
class Grade:
    """A challenge guess scored: the share of bits right, least squares' share on the same level
    (all queries random, one run), the least-squares theory and, for a DP level, the bound on
    any attacker's expected share over random secrets, with how often a guess that asks no query
    beats it on one secret (:func:`blind_guess_tail`)."""

    level: ChallengeLevel
    correct: float
    least_squares: float
    theory: float
    bound: float | None
    blind_tail: float | None = None

    def __str__(self) -> str:
        text = (f"{self.level.name}: {self.correct:.1%} of {self.level.n_bits} bits right; least squares "
                f"on {self.level.max_queries} random queries: {self.least_squares:.1%} "
                f"(theory {self.theory:.1%})")
        if self.bound is not None:
            text += (f"; no attacker can expect more than {self.bound:.1%} per bit at this level's DP, on "
                     f"average over random secrets (on one secret, a guess that asks no query beats it "
                     f"with probability {self.blind_tail:.0%})")
        return text


def grade_reconstruction(level: str, guess: ArrayLike, *, seed: int) -> Grade:
    """Score ``guess`` (n_bits 0/1 values) against the secret of ``level`` and ``seed``."""
    lv = _level(level)
    g = _bits(guess, "guess")
    if g.size != lv.n_bits:
        raise ValueError(f"guess must have {lv.n_bits} bits for level {level!r}, got {g.size}")
    secret = _secret(lv, seed)
    gen = np.random.default_rng([seed, 2, lv.n_bits])
    a = subset_queries(lv.max_queries, lv.n_bits, rng=gen)
    y = answer_queries(a, secret, noise=lv.noise, scale=lv.scale, rng=gen)
    ls = float(np.mean(least_squares_attack(a, y) == secret))
    theory = float(ls_recovery_theory(lv.n_bits, lv.max_queries, answer_noise_sd(lv.noise, lv.scale)))
    bound = None
    if lv.epsilon is not None:
        bound = float(dp_guessing_bound(lv.epsilon, lv.delta or 0.0))
        if lv.noise == "gaussian":  # the Gaussian release's own, tighter bound
            bound = min(bound, float(gdp_guessing_bound(math.sqrt(lv.max_queries) / lv.scale)))
    tail = None if bound is None else blind_guess_tail(lv.n_bits, bound)
    return Grade(lv, float(np.mean(g == secret)), ls, theory, bound, tail)


# --- the answers' noise, shared by every query design ------------------------------------------------


def answer_noise(noise: str, scale: float, n_answers: int, *, rng=None) -> np.ndarray:
    """The noise of :func:`answer_queries`, independent per answer, for any query design (the
    Hadamard attack's answers too): uniform on [-E, E] (scale = E), Gaussian (scale = sigma) or
    Laplace (scale = b); standard deviations in :func:`answer_noise_sd`."""
    check_choice(noise, NOISES, "noise")
    scale = check_nonnegative(scale, "scale")
    m = check_positive_int(n_answers, "n_answers")
    gen = check_rng(rng)
    if noise == "uniform":
        e = gen.uniform(-scale, scale, m)
    elif noise == "gaussian":
        e = gen.normal(0.0, scale, m)
    else:
        e = gen.laplace(0.0, scale, m)
    return e


# --- the per-bit bound: an average over secrets, not a bound on one secret --------------------------


def blind_guess_tail(n_bits: int, share: float) -> float:
    """How often a guess that asks no query (any fixed g in {0, 1}^n, all ones say) gets more than
    ``share`` of a uniformly random secret of n bits right: P[Bin(n, 1/2) > share n].

    The per-bit bounds (:func:`dp_guessing_bound`, :func:`gdp_guessing_bound`, the grader's) are Bayes
    bounds for a bit that is 0 or 1 with probability 1/2: they cap an attacker's *expected* share
    over random secrets, 1/2 for a blind guess. On one fixed secret a blind guess scores its
    agreement with that secret, Bin(n, 1/2)/n over secrets, and beats a bound b with this
    probability (0.117 at n = 256, b = 53.7%). What DP says about one secret is relative to its
    neighbours: :func:`fixed_secret_guessing_bound`."""
    n = check_positive_int(n_bits, "n_bits")
    share = float(check_nonnegative(share, "share"))
    ks = np.arange(n + 1)
    return float(stats.binom.pmf(ks, n, 0.5)[ks / n > share].sum())


def fixed_secret_guessing_bound(neighbour_miss: ArrayLike, epsilon: float,
                                delta: float = 0.0) -> float | np.ndarray:
    """What (epsilon, delta)-DP guarantees on one fixed secret x: an attack's expected share of
    x's bits right, s = mean_i P_x[g_i = x_i], is at most

        min(1, e^eps q + delta, 1 - e^-eps (1 - q - delta)),

    q = ``neighbour_miss`` = mean_i P_{x^(i)}[g_i = x_i], the share the same attack gets *wrong* on
    the neighbours x^(i) (bit i flipped). Both constraints of the DP region (Kairouz, Oh &
    Viswanath 2015) applied to the event g_i = x_i, then averaged over i (they are linear). A
    blind guess has q = s and meets it whatever s; averaged with the neighbours (a uniform bit)
    it gives :func:`dp_guessing_bound`. Randomized response on every bit attains it."""
    q = check_nonnegative(neighbour_miss, "neighbour_miss", array_ok=True)
    if np.any(np.asarray(q) > 1):
        raise ValueError(f"neighbour_miss must lie in [0, 1], got neighbour_miss={neighbour_miss!r}")
    eps = check_nonnegative(epsilon, "epsilon")
    delta = check_delta(delta)
    bound = np.minimum(math.exp(eps) * q + delta, 1 - math.exp(-eps) * (1 - q - delta))
    return as_result(np.minimum(1.0, bound))


# --- the exhaustive attack's every consistent candidate ---------------------------------------------


def consistent_candidates(answers: ArrayLike, n_bits: int, bound: float) -> np.ndarray:
    """Every database c of n bits with |<q, c> - y_q| <= E for all 2^n subsets q (answers in the
    order of :func:`all_subset_queries`), as the rows of a uint8 array in that order: the first row
    is :func:`exhaustive_attack`'s answer. Dinur & Nissim 2003's argument bounds each row's distance
    to the secret by 2 floor(2E) <= 4E (at most floor(2E) bits x_i = 1, c_i = 0 and as many the
    other way); the farthest row shows whether an attack that returns *some* consistent database
    can do that badly. Exponential work: n <= 14."""
    q = all_subset_queries(n_bits)
    y = _answers(answers, q.shape[0])
    bound = check_nonnegative(bound, "bound")
    qf = q.astype(float)  # sums of at most 14 ones: exact in floating point
    ok = np.zeros(q.shape[0], dtype=bool)
    for start in range(0, q.shape[0], 256):
        worst = _worst_errors(qf, y, start)
        ok[start:start + 256] = worst <= bound
    return q[ok]
