"""Counting queries over a small universe and the net mechanism ([Roth11], Lecture 5).

A database is a histogram D over a finite universe X (``D[x]`` = how many rows equal x);
a counting query is a predicate phi: X -> {0, 1}, stored as its truth table, and a
class C of them as a |C| x |X| 0/1 matrix. Its answer is the fraction of rows that
satisfy it, Q(D) = <Q, D> / n (Definition 7).

Neighbours: the sensitivity 1/n of a normalised counting query (Observation 8) assumes
that n is public and that neighbours *replace* one row. The lab's default elsewhere is
add/remove, under which n itself is private: every function here states which it uses.

The net mechanism (Algorithm 1; Blum, Ligett & Roth 2008) samples a database D' from
an alpha-net N with the exponential mechanism, scoring q(D, D') = -max_Q |Q(D) - Q(D')|
(sensitivity 1/n). The net of Theorem 11 is every database of size m (a multiset of m
rows: C(|X| + m - 1, m) of them), an alpha-net when m = ln|C| / alpha^2 (Lemma 12).
Its guarantees: Proposition 6 / Corollary 9 ((2 alpha, beta)-usefulness), Theorem 11
(|N| <= |X|^m), Lemma 12 (a random subsample of size m fails with probability at most
2 |C| e^{-2 m alpha^2}).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize, stats

from dplab._calibrate import calibrate
from dplab._checks import (
    as_result,
    check_beta,
    check_choice,
    check_epsilon,
    check_nonnegative,
    check_positive,
    check_positive_int,
    check_rng,
)
from dplab.datasets import load_yrbss
from dplab.mechanisms.exponential import (
    exponential_mechanism,
    exponential_mechanism_stream,
    exponential_probabilities,
)
from dplab.mechanisms.laplace import laplace_accuracy_k, laplace_accuracy_k_exact, laplace_mechanism

__all__ = [
    "NetRelease",
    "ScoredNet",
    "YRBSS_ATTRIBUTES",
    "all_predicates",
    "counting_queries_l1_sensitivity",
    "counting_query_answers",
    "counting_query_sensitivity",
    "histogram_from_rows",
    "laplace_answers_max_error_quantile",
    "laplace_answers_max_errors",
    "laplace_crossover_queries",
    "largest_net_m",
    "lemma12_failure_bound",
    "log_net_size",
    "net_alpha",
    "net_covering_distance",
    "net_covering_radius",
    "net_error_bound",
    "net_histograms",
    "net_mechanism",
    "net_mechanism_accuracy",
    "net_mechanism_accuracy_stated",
    "net_mechanism_alpha",
    "net_opt",
    "net_opt_over_samples",
    "net_sample_size",
    "net_scores",
    "net_scoring_log10_seconds",
    "net_size",
    "net_size_bound",
    "noisy_histogram_max_error_bound",
    "noisy_histogram_max_error_cdf",
    "noisy_histogram_max_error_quantile",
    "noisy_histogram_max_errors",
    "random_predicates",
    "score_net",
    "subsample_failure_probability",
    "subsample_max_errors",
    "subsample_query_failure_probability",
    "yrbss_cell_labels",
    "yrbss_universe_histogram",
]

#: The binary attributes of the YRBSS universe, in bit order (attribute 0 is the highest bit).
YRBSS_ATTRIBUTES = ("male", "height >= 1.70 m", "BMI >= 25")
RULES = ("theorem11", "chernoff")
#: Elements of a (chunk, |C|) float32 block of answers scored at once (16 MiB).
_BLOCK = 1 << 22


# --- counting queries -------------------------------------------------------------------

def _universe_size(universe_size: object) -> int:
    return check_positive_int(universe_size, "universe_size")


def _check_queries(queries: ArrayLike, universe_size: int | None = None) -> np.ndarray:
    """A non-empty |C| x |X| matrix of 0s and 1s (one row per predicate), as float32."""
    q = np.asarray(queries)
    if q.ndim != 2 or q.size == 0:
        raise ValueError(f"queries must be a non-empty 2-d array (one row of 0/1 per predicate), "
                         f"got shape {q.shape}")
    if q.dtype == bool:
        q = q.astype(np.uint8)
    if not (np.issubdtype(q.dtype, np.integer) or np.issubdtype(q.dtype, np.floating)):
        raise TypeError(f"queries must be an array of 0s and 1s, got dtype {q.dtype}")
    bad = np.argwhere((q != 0) & (q != 1))
    if bad.size:
        i, j = bad[0]
        raise ValueError(f"queries must hold only 0 and 1 (truth tables), "
                         f"got queries[{i}, {j}]={q[i, j].item()!r}")
    if universe_size is not None and q.shape[1] != universe_size:
        raise ValueError(f"queries must have one column per universe element ({universe_size}), "
                         f"got {q.shape[1]} columns")
    return q.astype(np.float32)


def _check_histogram(histogram: ArrayLike) -> np.ndarray:
    """A database as a histogram over X: non-empty 1-d, counts that are whole numbers >= 0,
    and at least one row."""
    h = np.asarray(histogram)
    if h.ndim != 1 or h.size == 0:
        raise ValueError(f"histogram must be a non-empty 1-d array of counts, got shape {h.shape}")
    h = h.astype(float)
    if not np.all(np.isfinite(h) & (h >= 0) & (np.mod(h, 1) == 0)):
        i = int(np.flatnonzero(~(np.isfinite(h) & (h >= 0) & (np.mod(h, 1) == 0)))[0])
        raise ValueError(f"histogram must hold whole counts >= 0, got histogram[{i}]={h[i].item():g}")
    if h.sum() < 1:
        raise ValueError("histogram must hold at least one row, got an empty database")
    return h


def all_predicates(universe_size: int) -> np.ndarray:
    """Every predicate on X, as the (2^|X|, |X|) uint8 matrix of truth tables (row j is the
    binary expansion of j, element 0 the lowest bit). Each element of X lies in half of them."""
    k = _universe_size(universe_size)
    if k > 16:
        raise ValueError(f"universe_size must be <= 16 for every predicate (2^|X| rows), "
                         f"got universe_size={k}")
    return ((np.arange(2**k)[:, None] >> np.arange(k)) & 1).astype(np.uint8)


def random_predicates(n_queries: int, universe_size: int, *, rng: np.random.Generator | int | None = None
                      ) -> np.ndarray:
    """``n_queries`` predicates on X with independent fair-coin truth tables, (|C|, |X|) uint8."""
    c, k = check_positive_int(n_queries, "n_queries"), _universe_size(universe_size)
    return check_rng(rng).integers(0, 2, size=(c, k), dtype=np.uint8)


def histogram_from_rows(rows: ArrayLike, universe_size: int) -> np.ndarray:
    """The histogram (counts per element of X = {0, ..., |X|-1}) of a database given as rows."""
    k = _universe_size(universe_size)
    r = np.asarray(rows)
    if r.ndim != 1 or r.size == 0 or not np.issubdtype(r.dtype, np.integer) or r.min() < 0 or r.max() >= k:
        raise ValueError(f"rows must be a non-empty 1-d array of integers in [0, {k}), got {r!r}")
    return np.bincount(r, minlength=k).astype(np.int64)


def yrbss_universe_histogram(n: int | None = None, *, attributes: int = 3,
                             rng: np.random.Generator | int | None = None) -> np.ndarray:
    """The YRBSS students as a histogram over X = {0, 1}^3 (|X| = 8): element 4 male + 2 tall
    + overweight (:data:`YRBSS_ATTRIBUTES`; BMI >= 25 is the adult cutoff, a teaching device
    for these teenagers). With ``n``, a simple random sample of n of the 12,579 students
    (without replacement, from ``rng``). With ``attributes`` = 1 or 2, only the first one or two
    attributes (|X| = 2 or 4; the same sample, its counts summed over the attributes dropped)."""
    if attributes not in (1, 2, 3):
        raise ValueError(f"attributes must be 1, 2 or 3, got attributes={attributes!r}")
    table = load_yrbss()
    h, w = table["height_m"], table["weight_kg"]
    x = 4 * (table["sex"] == "M") + 2 * (h >= 1.70) + (w / h**2 >= 25.0)
    if n is not None:
        n = check_positive_int(n, "n")
        if n > x.size:
            raise ValueError(f"n must be at most the {x.size} students, got n={n}")
        x = check_rng(rng).choice(x, size=n, replace=False)
    return histogram_from_rows(x.astype(np.int64), 8).reshape(2**attributes, -1).sum(axis=1)


def yrbss_cell_labels(attributes: int = 3) -> list[str]:
    """Short names of the cells of :func:`yrbss_universe_histogram`'s X, in its order: sex (F/M), then
    tall (T, at least 1.70 m) or not (s), then BMI >= 25 (+) or not (−); the first ``attributes`` letters."""
    if attributes not in (1, 2, 3):
        raise ValueError(f"attributes must be 1, 2 or 3, got attributes={attributes!r}")
    codes = ("FM", "sT", "−+")[:attributes]
    return ["".join(c[(j >> (attributes - 1 - i)) & 1] for i, c in enumerate(codes))
            for j in range(2**attributes)]


def counting_query_answers(queries: ArrayLike, histogram: ArrayLike) -> np.ndarray:
    """Q(D) = <Q, D> / n for every query (Definition 7): answers in [0, 1]. ``histogram`` may
    also be a stack of databases (N, |X|), each normalised by its own size."""
    h = np.asarray(histogram, dtype=float)
    if h.ndim == 1:
        h = _check_histogram(h)
    q = _check_queries(queries, h.shape[-1]).astype(float)
    return (h @ q.T) / h.sum(axis=-1, keepdims=True)


def counting_query_sensitivity(n: int) -> float:
    """GS(Q) <= 1/n for one normalised counting query (Observation 8), for neighbours that
    replace one row of a database whose size n is public. (Under add/remove n is not public;
    |a/n - (a + phi(x))/(n + 1)| <= 1/(n + 1) then, but a mechanism cannot use its own n.)"""
    return 1.0 / check_positive_int(n, "n")


def counting_queries_l1_sensitivity(queries: ArrayLike, n: int) -> float:
    """The L1 sensitivity of the whole vector of answers, by brute force over every pair of
    elements (x, y) of X: replacing a row x by y moves each answer whose predicate separates
    x and y by 1/n, so Delta_1 = max_{x != y} sum_Q |Q[x] - Q[y]| / n (replace-one, public n).
    For every predicate on X that is 2^{|X|-1} / n: 128/n at |X| = 8."""
    q = _check_queries(queries).astype(np.int64)
    n = check_positive_int(n, "n")
    if q.shape[1] == 1:
        return 0.0
    diffs = q.T @ (1 - q) + (1 - q).T @ q  # (|X|, |X|): how many predicates separate x and y
    return float(diffs.max()) / n


# --- the net -----------------------------------------------------------------------------

def net_size(universe_size: int, m: int) -> int:
    """|N| = C(|X| + m - 1, m): the number of databases of size m over X (multisets), exact."""
    return math.comb(_universe_size(universe_size) + check_positive_int(m, "m") - 1, m)


def log_net_size(universe_size: float, m: ArrayLike) -> float | np.ndarray:
    """ln |N| = ln C(|X| + m - 1, m) as a float, for universes far too large to enumerate
    (|X| = 2^40 is fine): the sum over i = 1..m of ln((|X| + i - 1) / i), no cancellation."""
    k = check_positive(universe_size, "universe_size")
    m = check_positive_int(m, "m", array_ok=True)
    terms = np.log1p((k - 1) / np.arange(1, int(np.max(m)) + 1))
    return as_result(np.cumsum(terms)[np.asarray(m) - 1])


def largest_net_m(universe_size: int, max_size: int, *, m_max: int = 200) -> int:
    """The largest m <= ``m_max`` whose net over X (every database of size m) holds at most
    ``max_size`` databases (1 if even m = 2 is too many): |N| = C(|X| + m - 1, m) grows with m."""
    k, max_size = _universe_size(universe_size), check_positive_int(max_size, "max_size")
    m_max = check_positive_int(m_max, "m_max")
    m = 1
    while m < m_max and net_size(k, m + 1) <= max_size:
        m += 1
    return m


def net_scoring_log10_seconds(universe_size: float, m: ArrayLike, n_queries: ArrayLike, rate: float
                              ) -> float | np.ndarray:
    """log10 of the seconds it takes to score every database of the net against |C| queries at
    ``rate`` (database, query) pairs per second: log10 |N| + log10 |C| - log10 rate, with ln |N|
    from :func:`log_net_size` (a lower bound on the net mechanism's running time)."""
    n_queries = check_positive(n_queries, "n_queries", array_ok=True)
    return as_result(log_net_size(universe_size, m) / math.log(10) + np.log10(n_queries)
                     - math.log10(check_positive(rate, "rate")))


def net_size_bound(universe_size: int, n_queries: int, alpha: float) -> float:
    """Theorem 11's bound |N_alpha(C)| <= |X|^{ln|C| / alpha^2} (inf when it overflows a float)."""
    k, c, alpha = _universe_size(universe_size), check_positive_int(n_queries, "n_queries"), _alpha(alpha)
    exponent = math.log(c) / alpha**2 * math.log(k)
    return math.exp(exponent) if exponent < 709 else math.inf


def net_histograms(universe_size: int, m: int, *, max_size: int = 2_000_000) -> np.ndarray:
    """Every database of size m over X, as an int16 array (N, |X|) of histograms, N =
    :func:`net_size`. Built one coordinate at a time with ``np.repeat`` (no loop over the
    candidates). Refuses with a ValueError stating N when N > ``max_size``."""
    k, m = _universe_size(universe_size), check_positive_int(m, "m")
    max_size = check_positive_int(max_size, "max_size")
    if m > np.iinfo(np.int16).max:
        raise ValueError(f"m must be at most {np.iinfo(np.int16).max} for int16 counts, got m={m}")
    size = net_size(k, m)
    if size > max_size:
        raise ValueError(f"the net over |X| = {k} with m = {m} has N = {size:,} databases, more than "
                         f"max_size={max_size:,}: lower m or |X| (or raise max_size if memory allows)")
    rows = np.arange(m + 1, dtype=np.int16)[:, None]  # first coordinate: 0..m
    for _ in range(k - 2):
        counts = m - rows.sum(axis=1) + 1  # the next coordinate takes 0..(m - sum)
        starts = np.repeat(np.cumsum(counts) - counts, counts)
        nxt = (np.arange(int(counts.sum())) - starts).astype(np.int16)
        rows = np.column_stack([np.repeat(rows, counts, axis=0), nxt])
    last = (m - rows.sum(axis=1)).astype(np.int16)[:, None]
    return np.column_stack([rows, last]).astype(np.int16) if k > 1 else np.full((1, 1), m, np.int16)


def _alpha(alpha: object) -> float:
    a = check_positive(alpha, "alpha")
    if a >= 1:
        raise ValueError(f"alpha must be in (0, 1) (answers lie in [0, 1]), got alpha={alpha!r}")
    return a


def net_sample_size(n_queries: int, alpha: float, rule: str = "theorem11") -> int:
    """The size m of the databases in the net, so that it is an alpha-net (Lemma 12):

    ``"theorem11"``: m = ceil(ln|C| / alpha^2), Theorem 11 (needs |C| >= 3: then the union bound
    2|C| e^{-2 m alpha^2} = 2/|C| < 1); ``"chernoff"``: the smallest m with
    2|C| e^{-2 m alpha^2} < 1, i.e. m > ln(2|C|) / (2 alpha^2), which is all the proof
    needs (|X| = 8, |C| = 256, alpha = 0.5: 13 instead of 23)."""
    c, alpha = check_positive_int(n_queries, "n_queries"), _alpha(alpha)
    check_choice(rule, RULES, "rule")
    if rule == "theorem11":
        if c < 3:
            raise ValueError(f"[Roth11]'s m = ln|C|/alpha^2 needs n_queries >= 3, got n_queries={c}")
        return max(1, math.ceil(math.log(c) / alpha**2))
    return math.floor(math.log(2 * c) / (2 * alpha**2)) + 1


def net_alpha(n_queries: int, m: int, rule: str = "theorem11") -> float:
    """The alpha for which the databases of size m form an alpha-net (the inverse of
    :func:`net_sample_size`): ``"theorem11"`` sqrt(ln|C| / m) (m = 20, |C| = 256: 0.527);
    ``"chernoff"`` sqrt(ln(2|C|) / (2m)), the infimum of the alphas Lemma 12's proof covers."""
    c, m = check_positive_int(n_queries, "n_queries"), check_positive_int(m, "m")
    check_choice(rule, RULES, "rule")
    if rule == "theorem11":
        return math.sqrt(math.log(c) / m)
    return math.sqrt(math.log(2 * c) / (2 * m))


def net_covering_radius(universe_size: int, m: int) -> float:
    """The smallest alpha for which the databases of size m form an alpha-net for *every* class
    of counting queries over X: max_D min_{D'} ||D/n - D'/m||_TV = K (|X| - K) / (|X| m) with
    K = min(floor(|X|/2), m) (|X| = 8, m = 20: |X|/(4m) = 0.1).

    Why: max_Q |Q(D) - Q(D')| <= TV(D/n, D'/m), with equality for the class of every predicate.
    Round m D/n to whole counts, rounding up the K cells with the largest fractional parts f_i
    (sum f_i = K, an integer with K <= m and K <= |X| - 1): the L1 error is
    2 (sum of the |X| - K smallest f_i) / m <= 2 K (|X| - K) / (|X| m), attained when every
    f_i = K/|X|; the worst K is the one closest to |X|/2 that is at most m. A bound that uses
    the universe's size, where Lemma 12 uses only |C|."""
    k, m = _universe_size(universe_size), check_positive_int(m, "m")
    worst = min(k // 2, m)
    return worst * (k - worst) / (k * m)


def net_opt(histograms: ArrayLike, m: int) -> float | np.ndarray:
    """OPT for the class of *every* predicate: the smallest max error min_{D'} TV(D/n, D'/m) over
    the databases D' of size m, without enumerating them. Round m D/n down, then give the
    K = m - sum(floor) missing rows to the K cells with the largest fractional parts f_i (largest
    remainders, Hamilton's apportionment, which minimises the L1 distance: Balinski & Young,
    "Fair Representation", 1982): OPT = (sum of the f_i rounded down + sum of (1 - f_i) rounded
    up) / (2m). ``histograms`` is one database or a stack of them (one per row); replace-one,
    public n."""
    h = np.asarray(histograms, dtype=float)
    rows = np.atleast_2d(h)
    for row in rows:
        _check_histogram(row)
    m = check_positive_int(m, "m")
    target = m * rows / rows.sum(axis=1, keepdims=True)
    frac = target - np.floor(target)
    missing = np.rint(frac.sum(axis=1)).astype(int)  # K: the rows the floors leave out
    up = np.argsort(-frac, axis=1, kind="stable").argsort(axis=1, kind="stable") < missing[:, None]
    opt = np.where(up, 1 - frac, frac).sum(axis=1) / (2 * m)
    return float(opt[0]) if h.ndim == 1 else opt


def net_opt_over_samples(population: ArrayLike, n: int, m: int, *, samples: int,
                         rng: np.random.Generator | int | None = None) -> np.ndarray:
    """How much OPT moves with the sample: :func:`net_opt` of ``samples`` simple random samples
    of n rows (without replacement: multivariate hypergeometric counts) from a population
    given as its histogram over X, for the databases of size m and every predicate."""
    pop = _check_histogram(population).astype(np.int64)
    n = check_positive_int(n, "n")
    if n > pop.sum():
        raise ValueError(f"n must be at most the population's {pop.sum()} rows, got n={n}")
    draws = check_rng(rng).multivariate_hypergeometric(pop, n, size=check_positive_int(samples, "samples"))
    return net_opt(draws, m)


def lemma12_failure_bound(n_queries: int, m: int, alpha: ArrayLike) -> float | np.ndarray:
    """Lemma 12's union bound 2|C| e^{-2 m alpha^2} on Pr[a random subsample of size m misses
    some query by more than alpha] (Chernoff per query, union over C; may exceed 1)."""
    c, m = check_positive_int(n_queries, "n_queries"), check_positive_int(m, "m")
    alpha = check_positive(alpha, "alpha", array_ok=True)
    return as_result(2 * c * np.exp(-2 * m * np.asarray(alpha) ** 2))


def subsample_max_errors(histogram: ArrayLike, queries: ArrayLike, m: int, *, trials: int,
                         rng: np.random.Generator | int | None = None) -> np.ndarray:
    """Lemma 12's experiment: draw m rows of D independently and uniformly (with replacement),
    and return max_Q |Q(D) - Q(D')| for each of ``trials`` subsamples D'."""
    h = _check_histogram(histogram)
    q = _check_queries(queries, h.size).astype(float)
    m, trials = check_positive_int(m, "m"), check_positive_int(trials, "trials")
    rng = check_rng(rng)
    truth = q @ h / h.sum()
    out = np.empty(trials)
    step = max(1, _BLOCK // q.shape[0])
    for start in range(0, trials, step):
        sub = rng.multinomial(m, h / h.sum(), size=min(step, trials - start))
        out[start:start + sub.shape[0]] = np.abs(sub @ q.T / m - truth).max(axis=1)
    return out


def subsample_query_failure_probability(histogram: ArrayLike, queries: ArrayLike, m: int, alpha: float
                                        ) -> np.ndarray:
    """The exact Pr[|Q(D') - Q(D)| > alpha] for each query, D' a subsample of m rows drawn with
    replacement: m Q(D') is Binomial(m, Q(D)). Each is at most 2 e^{-2 m alpha^2} (Chernoff),
    and Lemma 12's failure probability is at least their maximum."""
    h = _check_histogram(histogram)
    q = _check_queries(queries, h.size).astype(float)
    m, alpha = check_positive_int(m, "m"), _alpha(alpha)
    p = np.clip(q @ h / h.sum(), 0.0, 1.0)
    # |k/m - p| > alpha  <=>  k > m (p + alpha)  or  k < m (p - alpha)
    upper = stats.binom.sf(np.floor(m * (p + alpha) + 1e-9), m, p)
    lower = stats.binom.cdf(np.ceil(m * (p - alpha) - 1e-9) - 1, m, p)
    return upper + lower


def subsample_failure_probability(histogram: ArrayLike, m: int, alpha: float) -> float:
    """Lemma 12's failure probability, exactly, for the class of *every* predicate over X:
    Pr[max_Q |Q(D') - Q(D)| > alpha] for D' a subsample of m rows drawn with replacement. Its max
    error is the total variation distance TV(D'/m, D/n) and its counts are Multinomial(m, D/n), so
    the probability is the multinomial mass of the databases of size m (:func:`net_histograms`) that
    lie farther than alpha. Lemma 12 bounds it by 2|C| e^{-2 m alpha^2} (:func:`lemma12_failure_bound`)."""
    h = _check_histogram(histogram)
    m, alpha = check_positive_int(m, "m"), _alpha(alpha)
    net = net_histograms(h.size, m)
    tv = 0.5 * np.abs(net / m - h / h.sum()).sum(axis=1)
    return float(np.exp(stats.multinomial.logpmf(net, m, h / h.sum()))[tv > alpha].sum())


def net_covering_distance(universe_size: int, m: int, n: int) -> float:
    """By brute force, the farthest any database of size n over X lies from the databases of size
    m: max over D of min over D' of TV(D/n, D'/m), every database of both sizes enumerated. It is at
    most :func:`net_covering_radius`'s closed form, and equal to it when some database of size n
    meets the closed form's worst case (|X| = 6, m = 2, n = 12; |X| = 5, m = 3, n = 15)."""
    k = _universe_size(universe_size)
    m, n = check_positive_int(m, "m"), check_positive_int(n, "n")
    net = net_histograms(k, m) / m
    return max(float(0.5 * np.abs(net - d).sum(axis=1).min()) for d in net_histograms(k, n) / n)


def _score_chunks(histogram: np.ndarray, queries: np.ndarray, net: np.ndarray) -> Iterator[np.ndarray]:
    truth = (queries @ histogram / histogram.sum()).astype(np.float32)
    qt = np.ascontiguousarray(queries.T)
    m = np.float32(net[0].sum())
    step = max(1, _BLOCK // queries.shape[0])
    for start in range(0, net.shape[0], step):
        answers = net[start:start + step].astype(np.float32) @ qt
        answers /= m
        answers -= truth
        np.abs(answers, out=answers)
        yield -answers.max(axis=1)


def net_scores(histogram: ArrayLike, queries: ArrayLike, net: ArrayLike) -> np.ndarray:
    """The score q(D, D') = -max_Q |Q(D) - Q(D')| of every database D' of the net (rows of
    ``net``, all of one size m), in float32, computed in blocks so memory stays bounded."""
    h = _check_histogram(histogram)
    q = _check_queries(queries, h.size)
    net = np.asarray(net)
    if net.ndim != 2 or net.shape[1] != h.size or net.shape[0] == 0:
        raise ValueError(f"net must be a non-empty (N, {h.size}) array of histograms, got shape {net.shape}")
    sizes = net.sum(axis=1)
    if np.any(sizes != sizes[0]) or sizes[0] < 1:
        raise ValueError("net must hold databases of one size m >= 1")
    return np.concatenate(list(_score_chunks(h, q, net)))


class NetRelease(NamedTuple):
    """What the net mechanism releases (``histogram``, a database of size ``m``) and what the
    lab measures about it: the net's size and the release's true max error."""

    histogram: np.ndarray
    m: int
    net_size: int
    max_error: float


def net_mechanism(histogram: ArrayLike, queries: ArrayLike, epsilon: float, *, alpha: float | None = None,
                  m: int | None = None, rule: str = "theorem11", max_size: int = 2_000_000,
                  rng: np.random.Generator | int | None = None) -> NetRelease:
    """Algorithm 1 ([Roth11]) with the net of Theorem 11: every database of size m, with m from
    ``alpha`` by :func:`net_sample_size` (``rule``) or given; D' is drawn by the exponential
    mechanism with score -max_Q |Q(D) - Q(D')| and Delta = 1/n (replace-one neighbours,
    public n = |D|), by a running Gumbel maximum over blocks of scores. epsilon-DP
    (Proposition 5). Give exactly one of ``alpha`` and ``m``."""
    h = _check_histogram(histogram)
    q = _check_queries(queries, h.size)
    epsilon = check_epsilon(epsilon)
    if (alpha is None) == (m is None):
        raise ValueError(f"give exactly one of alpha and m, got alpha={alpha!r}, m={m!r}")
    m = net_sample_size(q.shape[0], alpha, rule) if m is None else check_positive_int(m, "m")
    net = net_histograms(h.size, m, max_size=max_size)
    n = int(h.sum())
    index = exponential_mechanism_stream(_score_chunks(h, q, net), counting_query_sensitivity(n), epsilon,
                                         rng=rng)
    chosen = net[index].astype(np.int64)
    error = float(np.abs(counting_query_answers(q, chosen) - counting_query_answers(q, h)).max())
    return NetRelease(chosen, m, net.shape[0], error)


class ScoredNet(NamedTuple):
    """A net scored against one database D (:func:`score_net`): every database of size m over X
    and its exact max error on D, which the net mechanism's exact law is built from."""

    histogram: np.ndarray
    queries: np.ndarray
    net: np.ndarray
    errors: np.ndarray  # max_Q |Q(D) - Q(D')| of each database of the net, exact (float64)
    levels: np.ndarray  # the distinct errors, ascending
    level_of: np.ndarray  # errors == levels[level_of]

    @property
    def opt(self) -> float:
        """OPT: the smallest max error in the net."""
        return float(self.levels[0])

    @property
    def sensitivity(self) -> float:
        """Delta = 1/n of the score (replace-one, public n; Observation 8)."""
        return counting_query_sensitivity(int(self.histogram.sum()))

    def error_distribution(self, epsilon: float) -> tuple[np.ndarray, np.ndarray]:
        """The exact law of the net mechanism's max error: the distinct errors x, ascending, and
        Pr[error <= x] at each (the exponential mechanism's probabilities over the net, score
        -error and Delta = 1/n, summed per error and accumulated)."""
        p = exponential_probabilities(-self.errors, self.sensitivity, epsilon)
        return self.levels, np.cumsum(np.bincount(self.level_of, weights=p, minlength=self.levels.size))

    def error_tail(self, epsilon: float, bound: float) -> float:
        """The exact Pr[max error > ``bound``] of the net mechanism (1 below OPT)."""
        levels, cdf = self.error_distribution(epsilon)
        below = np.searchsorted(levels, bound, side="right") - 1
        return 1.0 if below < 0 else float(1 - cdf[below])

    def sample(self, epsilon: float, *, size: int | None = None, rng: np.random.Generator | int | None = None
               ) -> int | np.ndarray:
        """Indices into ``net`` of net mechanism releases (exponential mechanism draws over the
        scored net: the same law as :func:`net_mechanism`, without rescoring)."""
        return exponential_mechanism(-self.errors, self.sensitivity, epsilon, size=size, rng=rng)


def score_net(histogram: ArrayLike, queries: ArrayLike, m: int, *, max_size: int = 2_000_000) -> ScoredNet:
    """Every database of size m over X (:func:`net_histograms`), scored against D by
    :func:`net_scores`. Every error is a multiple of 1/(n m) (|m <Q, D> - n <Q, D'>| / (n m)),
    so the float32 scores are rounded back to that grid: their rounding error (< 1e-7 relative)
    is far below 1/(2 n m) for n m <= 2.4e6, and equal errors become equal floats."""
    h = _check_histogram(histogram)
    q = _check_queries(queries, h.size)
    m = check_positive_int(m, "m")
    net = net_histograms(h.size, m, max_size=max_size)
    grid = float(h.sum() * m)
    if grid > 2.4e6:
        raise ValueError(f"n m must be at most 2.4e6 for exact errors from float32 scores, got n m={grid:g}")
    errors = np.round(-net_scores(h, q, net).astype(float) * grid) / grid
    levels, level_of = np.unique(errors, return_inverse=True)
    return ScoredNet(h, q, net, errors, levels, level_of)


# --- the alternatives: Laplace on the answers, the noisy histogram ------------------------

def laplace_answers_max_errors(histogram: ArrayLike, queries: ArrayLike, epsilon: float, *, draws: int,
                               rng: np.random.Generator | int | None = None) -> np.ndarray:
    """Max error over the queries of the Laplace mechanism on their answers, Lap(Delta_1/eps) each,
    at their joint L1 sensitivity Delta_1 (:func:`counting_queries_l1_sensitivity`: replace-one,
    public n; Dwork & Roth, Thm 3.6): ``draws`` releases."""
    h = _check_histogram(histogram)
    q = _check_queries(queries, h.size)
    delta1 = counting_queries_l1_sensitivity(q, int(h.sum()))
    noise = laplace_mechanism(np.zeros(q.shape[0]), delta1, epsilon, size=check_positive_int(draws, "draws"),
                              rng=rng)
    return np.abs(noise).max(axis=1)


def laplace_answers_max_error_quantile(q: float, n_queries: int, l1_sensitivity: float, epsilon: float
                                       ) -> float:
    """The q-quantile of max_i |Z_i| over k = ``n_queries`` iid Lap(b), b = Delta_1/eps: the t with
    (1 - e^{-t/b})^k = q, t = -b ln(1 - q^{1/k}) (:func:`dplab.mechanisms.laplace_accuracy_k_exact`
    at beta = 1 - q). The exact law of :func:`laplace_answers_max_errors`."""
    k = check_positive_int(n_queries, "n_queries")
    return laplace_accuracy_k_exact(check_positive(l1_sensitivity, "l1_sensitivity") / k, k, epsilon,
                                    1 - check_beta(q, "q"))


def noisy_histogram_max_errors(histogram: ArrayLike, queries: ArrayLike, epsilon: float, *, draws: int,
                               rng: np.random.Generator | int | None = None) -> np.ndarray:
    """Max error over the queries of answers computed from the noisy histogram, Lap(2/(n eps)) per
    cell of X (sensitivity 2/n under replace-one with public n): ``draws`` releases. Its exact law
    over every predicate: :func:`noisy_histogram_max_error_cdf`."""
    h = _check_histogram(histogram)
    q = _check_queries(queries, h.size)
    n = int(h.sum())
    draws = check_positive_int(draws, "draws")
    noise = laplace_mechanism(np.zeros(h.size), 2 / n, epsilon, size=draws, rng=rng)
    return np.abs(noise @ q.T.astype(float)).max(axis=1)


# --- the bounds ---------------------------------------------------------------------------

def net_mechanism_alpha(net_size: ArrayLike, sensitivity: float, epsilon: ArrayLike, beta: float
                        ) -> float | np.ndarray:
    """Proposition 6's alpha = (2 Delta / eps) ln(|N| / beta): when the net is an alpha-net as
    well, the net mechanism is (2 alpha, beta)-useful (Corollary 9: Delta = 1/n)."""
    size = check_positive(net_size, "net_size", array_ok=True)
    scale = 2 * check_positive(sensitivity, "sensitivity") / check_epsilon(epsilon, array_ok=True)
    return as_result(scale * (np.log(size) - math.log(check_beta(beta))))


def net_error_bound(opt_error: ArrayLike, net_size: ArrayLike, sensitivity: float, epsilon: ArrayLike,
                    beta: float) -> float | np.ndarray:
    """The bound that is not vacuous at sizes one can enumerate: with probability >= 1 - beta
    the release's max error is at most OPT + (2 Delta/eps)(ln|N| + ln(1/beta)), where OPT is
    the smallest max error in the net: the exponential mechanism's utility theorem with
    t = ln(1/beta) (:func:`dplab.exponential_utility_threshold`), before Proposition 6
    bounds OPT by alpha."""
    opt = check_nonnegative(opt_error, "opt_error", array_ok=True)
    size = check_positive(net_size, "net_size", array_ok=True)
    scale = 2 * check_positive(sensitivity, "sensitivity") / check_epsilon(epsilon, array_ok=True)
    return as_result(opt + scale * (np.log(size) - math.log(check_beta(beta))))


def net_mechanism_accuracy(universe_size: float, n_queries: int, n: int, epsilon: float, beta: float,
                           *, m_max: int = 100_000) -> tuple[float, int]:
    """The net mechanism's best guarantee and its m: with probability >= 1 - beta its max error
    is at most alpha_m + (2/(n eps))(ln|N_m| + ln(1/beta)), where the databases of size m are
    an alpha_m-net with alpha_m = sqrt(ln(2|C|) / (2m)) (Lemma 12, Chernoff rule) and
    |N_m| = C(|X| + m - 1, m); minimised over m = 1..``m_max``. Replace-one, public n."""
    c, n = check_positive_int(n_queries, "n_queries"), check_positive_int(n, "n")
    m = np.arange(1, check_positive_int(m_max, "m_max") + 1)
    alpha = np.sqrt(math.log(2 * c) / (2 * m))
    log_size = log_net_size(universe_size, m)
    total = alpha + 2 / (n * check_epsilon(epsilon)) * (log_size - math.log(check_beta(beta)))
    best = int(np.argmin(total))
    return float(total[best]), int(m[best])


def net_mechanism_accuracy_stated(universe_size: float, n_queries: int, n: int, epsilon: float,
                                  beta: float) -> float:
    """The net mechanism's guarantee with Corollary 9, Theorem 11 and Lemma 12 exactly as the
    lecture states them: the net has |N| = |X|^{ln|C| / alpha^2} databases and the mechanism is
    (2 alpha, beta)-useful for the alpha with alpha = (2/(n eps))(ln|N| + ln(1/beta)), i.e.
    alpha = (2/(n eps))(ln|X| ln|C| / alpha^2 + ln(1/beta)); returns 2 alpha. That fixed point is
    the root of an increasing function, bracketed by [0, 2(c ln(1/beta) + (c ln|X| ln|C|)^{1/3})],
    c = 2/(n eps). Needs |C| >= 3, as :func:`net_sample_size`'s ``"theorem11"`` rule does. Looser than
    :func:`net_mechanism_accuracy` (Chernoff alpha_m, exact |N_m|)."""
    c = 2 / (check_positive_int(n, "n") * check_epsilon(epsilon))
    log_b = -math.log(check_beta(beta))
    if check_positive_int(n_queries, "n_queries") < 3:
        raise ValueError(f"the lecture's m = ln|C|/alpha^2 needs n_queries >= 3, got n_queries={n_queries}")
    spread = math.log(check_positive(universe_size, "universe_size")) * math.log(n_queries)
    top = 2 * (c * log_b + (c * spread) ** (1 / 3)) + 1e-300
    alpha = optimize.brentq(lambda a: a - c * (spread / a**2 + log_b), top * 1e-12, top, xtol=1e-15,
                            rtol=1e-13)
    return 2 * alpha


def _laplace_sum_log_tail(s: float, k: float) -> float:
    """ln of the Chernoff bound on Pr[Z_1 + ... + Z_k > s b] for iid Z_i ~ Lap(b): the minimum
    over u = b lambda in (0, 1) of -u s - k ln(1 - u^2) (E e^{lambda Z} = 1/(1 - b^2 lambda^2)),
    attained at u = (sqrt(k^2 + s^2) - k) / s."""
    u = (math.sqrt(k * k + s * s) - k) / s
    return -u * s - k * math.log1p(-u * u)


def noisy_histogram_max_error_bound(universe_size: int, n: int, epsilon: float, beta: float, *,
                                    n_queries: int | None = None) -> float:
    """A (1 - beta) bound on the max error over a class of counting queries answered from the
    noisy histogram (Z_x ~ Lap(b), b = 2/(n eps), per cell of X: sensitivity 2 under
    replace-one, normalised by the public n).

    Any class (``n_queries=None``): max_Q |<Q, Z>| <= ||Z||_1, which is Gamma(|X|, b); exact
    for the class of every predicate up to the max(sum of Z+, sum of Z-) it bounds. A class of
    |C| queries: each error is a sum of at most |X| Laplace variables, so by Chernoff
    (:func:`_laplace_sum_log_tail`) and a union bound over the |C| queries and both signs,
    the t with 2 |C| Pr-bound(t) = beta (about 2 b sqrt(|X| ln(2|C|/beta)) for large |X|: a sum of
    |X| Laplace variables has variance 2 |X| b^2)."""
    k, n = _universe_size(universe_size), check_positive_int(n, "n")
    b = 2.0 / (n * check_epsilon(epsilon))
    beta = check_beta(beta)
    if n_queries is None:
        return float(stats.gamma.ppf(1 - beta, a=k, scale=b))
    log_target = math.log(beta / (2 * check_positive_int(n_queries, "n_queries")))
    # the log tail decreases in s: from [1e-12, 1], the top grows until it is below the target
    return b * calibrate(lambda s: _laplace_sum_log_tail(s, k), log_target, 1e-12, 1.0, grow="high")


def noisy_histogram_max_error_cdf(t: ArrayLike, universe_size: int, n: int, epsilon: float
                                  ) -> float | np.ndarray:
    """Exact Pr[max error <= t] of the noisy histogram (Lap(b), b = 2/(n eps), per cell) over the
    class of *every* predicate on X. That max is max(S+, S-), the sums of the positive and of
    the negative noises; given that j of the |X| noises are positive (Binomial(|X|, 1/2)),
    S+ ~ Gamma(j, b) and S- ~ Gamma(|X| - j, b) independently (|Lap(b)| is Exponential(b)):
    Pr = sum_j C(|X|, j) 2^{-|X|} G_j(t) G_{|X|-j}(t), G_0 = 1."""
    k, n = _universe_size(universe_size), check_positive_int(n, "n")
    b = 2.0 / (n * check_epsilon(epsilon))
    t = check_nonnegative(t, "t", array_ok=True)
    j = np.arange(k + 1)
    weights = stats.binom.pmf(j, k, 0.5)

    def gamma_cdf(shape: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore"):
            return np.where(shape == 0, 1.0, stats.gamma.cdf(np.asarray(t)[..., None], a=np.maximum(shape, 1),
                                                              scale=b))

    return as_result(np.sum(weights * gamma_cdf(j) * gamma_cdf(k - j), axis=-1))


def noisy_histogram_max_error_quantile(q: float, universe_size: int, n: int, epsilon: float) -> float:
    """The q-quantile of the noisy histogram's max error over every predicate on X: the t with
    :func:`noisy_histogram_max_error_cdf` (t) = q, by :func:`dplab.accounting.calibrate` (the CDF
    increases from 0 at t = 0). q = 1/2: the median error the lesson compares with Laplace's."""
    q = check_beta(q, "q")
    b = 2.0 / (check_positive_int(n, "n") * check_epsilon(epsilon))
    return calibrate(lambda t: float(noisy_histogram_max_error_cdf(t, universe_size, n, epsilon)), q,
                     0.0, b, grow="high", xtol=1e-14)


RIVALS = ("net", "histogram", "net_stated")


def laplace_crossover_queries(universe_size: float, n: int, epsilon: float, beta: float, *,
                              rival: str = "net", delta: float | None = None, m_max: int = 20_000,
                              k_max: int = 10**15) -> int:
    """The number of counting queries k from which ``rival``'s (1 - beta) guarantee on the max
    error is smaller than the Laplace mechanism's on the k answers (replace-one, public n, so
    Delta = 1/n): the smallest k with rival(k) < laplace(k).

    Laplace: Theorem 3 of the net-mechanism lecture (:func:`dplab.laplace_accuracy_k`),
    pure epsilon-DP (``delta=None``, Lap(k/(n eps)) per answer) or its (epsilon, delta) branch
    through advanced composition (Lap(sqrt(8 k ln(1/delta))/(n eps)), epsilon <= 1). Rivals,
    both pure epsilon-DP: ``"net"`` (:func:`net_mechanism_accuracy`, best m up to ``m_max``) or
    ``"histogram"`` (:func:`noisy_histogram_max_error_bound` with |C| = k), or ``"net_stated"``
    (:func:`net_mechanism_accuracy_stated`, the lecture's statements verbatim; |C| = 3's bound for
    k < 3). Laplace's bound grows
    like k or sqrt(k) times ln k, the rivals' like powers of ln k, so their ratio increases in k
    and the crossing is unique: the bracket doubles from k = 1 until the rival wins, then integer
    bisection. Raises ValueError if the rival does not win by ``k_max``."""
    u, n = check_positive(universe_size, "universe_size"), check_positive_int(n, "n")
    epsilon, beta = check_epsilon(epsilon), check_beta(beta)
    rival = check_choice(rival, RIVALS, "rival")
    if rival == "histogram":
        _universe_size(u)  # the histogram has one noisy cell per element of X

    def rival_wins(k: int) -> bool:
        if rival == "net":
            theirs = net_mechanism_accuracy(u, k, n, epsilon, beta, m_max=m_max)[0]
        elif rival == "net_stated":
            theirs = net_mechanism_accuracy_stated(u, max(k, 3), n, epsilon, beta)  # k < 3: 3's bound holds
        else:
            theirs = noisy_histogram_max_error_bound(int(u), n, epsilon, beta, n_queries=k)
        return theirs < laplace_accuracy_k(1 / n, k, epsilon, beta, delta)

    low, high = 1, 2  # rival_wins(low) is False (checked), rival_wins(high) is what the loop looks for
    if rival_wins(low):
        return 1
    while not rival_wins(high):
        low, high = high, 2 * high
        if high > check_positive_int(k_max, "k_max"):
            raise ValueError(f"the {rival} does not beat Laplace up to k_max={k_max}")
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if rival_wins(middle) else (middle, high)
    return high
