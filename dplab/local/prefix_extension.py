"""Heavy hitters in the local model: find the ids held by at least a share ``threshold`` of the
users when the ids come from a domain far too large to enumerate (2^32), so a frequency oracle
cannot simply estimate every id.

The protocol built here is the prefix extension method (PEM) of Wang, Li & Jha,
"Locally Differentially Private Heavy Hitter Identification" (IEEE TDSC 2019; arXiv:1708.06674):
the users are split at random into G groups; group j reports, by OLH
(:class:`~dplab.local.frequency_oracles.OptimizedLocalHashing`) at the full eps (each user reports
once), the first L_j = s + j eta bits of their id (L_{G-1} = domain_bits). The server estimates every
prefix of length s (2^s <= 2^(8 + eta) candidates), keeps the heavy ones, extends each kept prefix by
all 2^eta next bits and estimates those with the next group, and so on: it evaluates at most
2^s + (G - 1) keep 2^eta candidates, never 2^32.

Which prefixes survive (this lab's rule, with its reason): a prefix is at least as frequent as any id
it starts, so a stage keeps the candidates whose estimate is >= threshold - z_(1 - beta/G) sigma_j
(sigma_j: the standard deviation of the estimate of a value of share threshold from group j: OLH's
variance plus the group's sampling variance), at most
``keep`` of them (the largest). Then an id of frequency >= threshold survives each stage with
probability >= 1 - beta/G (normal approximation), so all G stages with probability >= 1 - beta
(union bound), unless more than ``keep`` candidates pass a cut. The last stage uses the same cut:
it reports the ids whose estimate is >= threshold - z_(1 - beta/G) sigma (a last cut at the threshold
itself would find an id of share exactly T only half the time).

:func:`heavy_hitter_threshold` is the threshold this theory gives: z_(1 - alpha/C) sigma(0) +
z_(1 - beta/G) sigma(T), C the most candidates of a stage. At or above it the cut is >= z_(1 - alpha/C)
sigma(0), the
significance threshold of Wang, Blocki, Li & Jha (USENIX Security 2017: Bonferroni over C values,
normal approximation), so a stage keeps no value of frequency 0 with probability >= 1 - alpha, and an id of
frequency >= the threshold is found with probability >= 1 - beta.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from dplab._calibrate import calibrate
from dplab._checks import check_beta, check_epsilon, check_positive_int, check_rng
from dplab.local.frequency_oracles import OptimizedLocalHashing

__all__ = [
    "HeavyHitters",
    "heavy_hitter_precision_recall",
    "heavy_hitter_stages",
    "heavy_hitter_threshold",
    "heavy_hitters",
    "true_heavy_hitters",
    "zipf_items",
]

#: the first stage estimates at most 2^(FIRST_BITS + step_bits - 1) prefixes (all of them)
FIRST_BITS = 8
#: the longest prefix extension per stage: a stage then estimates at most 2^(8 + 10) candidates
MAX_STEP_BITS = 10


class HeavyHitters(NamedTuple):
    """The ids found (largest estimate first) and their estimated frequencies (shares)."""

    ids: np.ndarray
    frequencies: np.ndarray


def _domain_bits(domain_bits: object) -> int:
    m = check_positive_int(domain_bits, "domain_bits")
    if m > 32:
        raise ValueError(f"domain_bits must be an integer in [1, 32], got domain_bits={domain_bits!r}")
    return m


def heavy_hitter_stages(domain_bits: int = 32, step_bits: int = 4) -> tuple[int, ...]:
    """The prefix lengths L_0 < ... < L_{G-1} = domain_bits, one per group: L_{j+1} = L_j + step_bits,
    L_0 in [8, 8 + step_bits) (a single stage, the whole domain, when domain_bits < 8 + step_bits)."""
    m = _domain_bits(domain_bits)
    eta = check_positive_int(step_bits, "step_bits")
    if eta > MAX_STEP_BITS:
        raise ValueError(f"step_bits must be at most {MAX_STEP_BITS} (a stage estimates up to 2^(8 + "
                         f"step_bits) candidates), got step_bits={step_bits!r}")
    if m < FIRST_BITS + eta:
        return (m,)
    first = m - eta * ((m - FIRST_BITS) // eta)
    return tuple(range(first, m + 1, eta))


def _sigma(epsilon: float, group_size: int, f: float = 0.0, users: int | None = None) -> float:
    """The standard deviation of an OLH estimate of a value of share f among ``users`` (all of them) from
    a random group of ``group_size``: OLH's variance at f plus the group's sampling variance
    f (1 - f) (users - m)/((users - 1) m) (hypergeometric: the value's share within the group varies)."""
    f = min(f, 1.0)
    sampling = 0.0 if users is None or users < 2 else (
        f * (1 - f) * (users - group_size) / ((users - 1) * group_size))
    return math.sqrt(OptimizedLocalHashing(epsilon, 2).variance(group_size, f) + sampling)


def _max_candidates(stages: tuple[int, ...], step_bits: int, keep: int) -> int:
    return max(2 ** stages[0], keep * 2**step_bits if len(stages) > 1 else 0)


def heavy_hitter_threshold(epsilon: float, n: int, *, domain_bits: int = 32, step_bits: int = 4,
                           keep: int = 64, alpha: float = 0.05, beta: float = 0.05) -> float:
    """The threshold the prefix extension theory gives (module docstring):
    T = z_(1 - alpha/C) sigma(0) + z_(1 - beta/G) sigma(T), sigma(f) the standard deviation of the
    estimate of a value of share f from a random group of n // G users (Wang, Blocki, Li & Jha's OLH
    variance, its f-term included: at eps = 8 it about triples the variance at f = T; plus the group's
    sampling variance), and
    C = max(2^L_0, keep 2^step_bits) candidates per stage.
    At or above it no value of frequency 0 survives a stage's cut with probability >= 1 - alpha
    (Wang, Blocki, Li & Jha 2017's significance threshold), and an id of frequency >= T is found
    with probability >= 1 - beta (while no more than ``keep`` candidates pass a cut)."""
    eps = check_epsilon(epsilon)
    n = check_positive_int(n, "n")
    keep = check_positive_int(keep, "keep")
    alpha, beta = check_beta(alpha, "alpha"), check_beta(beta, "beta")
    stages = heavy_hitter_stages(domain_bits, step_bits)
    groups = len(stages)
    if n < groups:
        raise ValueError(f"n must be >= the {groups} groups of the prefix extension, got n={n}")
    c = _max_candidates(stages, step_bits, keep)
    z_alpha, z_beta = stats.norm.isf(alpha / c), stats.norm.isf(beta / groups)
    sigma0 = _sigma(eps, n // groups)
    # T = z_alpha sigma(0) + z_beta sigma(T): sigma grows with the share (OLH's f-term), so T is the root
    # of an increasing gap (calibrate: Brent's method)
    return float(calibrate(lambda t: t - z_beta * _sigma(eps, n // groups, t, n), z_alpha * sigma0,
                           z_alpha * sigma0, 1.0, grow=None))


def _items(items: ArrayLike, m: int) -> np.ndarray:
    x = np.asarray(items)
    if x.ndim != 1 or x.size == 0 or not np.issubdtype(x.dtype, np.integer):
        raise ValueError(f"items must be a non-empty 1-d array of integer ids, got items with shape "
                         f"{x.shape} and dtype {x.dtype}")
    bad = (x < 0) | (x >= 2**m)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"items must be ids in [0, 2^{m}) (domain_bits={m}), got items[{i}]={x[i].item()!r}")
    return x.astype(np.int64, copy=False)


def _threshold(threshold: object) -> float:
    """A share in (0, 1]: a real number, not a string, a boolean or None."""
    real = isinstance(threshold, (int, float, np.integer, np.floating))
    if not real or isinstance(threshold, (bool, np.bool_)):
        raise ValueError(f"threshold must be a share in (0, 1], got threshold={threshold!r}")
    t = float(threshold)
    if not (0 < t <= 1):
        raise ValueError(f"threshold must be a share in (0, 1], got threshold={threshold!r}")
    return t


def heavy_hitters(items: ArrayLike, epsilon: float, *, domain_bits: int = 32, threshold: float,
                  rng: np.random.Generator | int | None = None, step_bits: int = 4, keep: int = 64,
                  beta: float = 0.05) -> HeavyHitters:
    """The ids of ``items`` (one per user, in [0, 2^domain_bits)) whose share is estimated >= ``threshold``,
    found by the prefix extension method (Wang, Li & Jha, IEEE TDSC 2019) with OLH at eps:
    each user reports once (one group, one prefix), so the protocol is eps-LDP. Candidates per stage:
    at most max(2^L_0, keep 2^step_bits); a stage keeps those with estimate >= threshold -
    z_(1 - beta/G) sigma_j, at most ``keep``; see the module docstring and :func:`heavy_hitter_threshold`.
    Below that threshold the cuts let noise through (``keep`` candidates a stage, mostly of frequency
    0): the run stays as fast, and precision collapses."""
    eps = check_epsilon(epsilon)
    m = _domain_bits(domain_bits)
    x = _items(items, m)
    t = _threshold(threshold)
    keep = check_positive_int(keep, "keep")
    beta = check_beta(beta, "beta")
    rng = check_rng(rng)
    stages = heavy_hitter_stages(m, step_bits)
    groups = len(stages)
    if x.size < groups:
        raise ValueError(f"items must hold at least the {groups} groups' worth of users, got {x.size} items")
    members = np.array_split(rng.permutation(x.size), groups)
    z = stats.norm.isf(beta / groups)
    candidates = np.arange(2 ** stages[0], dtype=np.int64)
    for j, length in enumerate(stages):
        prefixes = x[members[j]] >> (m - length)
        oracle = OptimizedLocalHashing(eps, 2**length)
        estimates = oracle.frequencies(prefixes, rng, candidates=candidates)
        last = j == groups - 1
        cut = t - z * _sigma(eps, members[j].size, t, x.size)
        order = np.argsort(-estimates, kind="stable")
        order = order[estimates[order] >= cut][: None if last else keep]
        if last or order.size == 0:
            return HeavyHitters(candidates[order], estimates[order])
        step = stages[j + 1] - length
        candidates = ((candidates[order][:, None] << step) | np.arange(2**step)[None, :]).ravel()
    raise AssertionError("unreachable")  # pragma: no cover


def zipf_items(n: int, *, exponent: float, domain_bits: int = 32,
               rng: np.random.Generator | int | None = None) -> np.ndarray:
    """n synthetic ids: ranks r ~ Zipf(exponent) (P(r) = r^-exponent / zeta(exponent), numpy's
    ``Generator.zipf``), rank r mapped to the id (r - 1) * 0x9E3779B1 + (a seeded offset) mod
    2^domain_bits, a bijection (odd multiplier) that scatters the heavy ids over the domain.
    Ranks beyond 2^domain_bits wrap. Synthetic: for the lab, not data about anyone."""
    n = check_positive_int(n, "n")
    m = _domain_bits(domain_bits)
    a = float(exponent)
    if not (a > 1 and math.isfinite(a)):
        raise ValueError(f"exponent must be finite and > 1 (Zipf), got exponent={exponent!r}")
    rng = check_rng(rng)
    offset = np.uint64(rng.integers(0, 2**m))
    ranks = rng.zipf(a, size=n).astype(np.uint64) - np.uint64(1)
    with np.errstate(over="ignore"):
        ids = (ranks * np.uint64(0x9E3779B1) + offset) & np.uint64(2**m - 1)
    return ids.astype(np.int64)


def true_heavy_hitters(items: ArrayLike, threshold: float) -> HeavyHitters:
    """The ids whose share of ``items`` is >= ``threshold``, with their shares (no privacy: the truth
    the protocol is scored against), largest first."""
    x = np.asarray(items)
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"items must be a non-empty 1-d array of ids, got shape {x.shape}")
    t = _threshold(threshold)
    ids, counts = np.unique(x, return_counts=True)
    share = counts / x.size
    order = np.argsort(-share, kind="stable")
    order = order[share[order] >= t]
    return HeavyHitters(ids[order], share[order])


def heavy_hitter_precision_recall(found: ArrayLike, items: ArrayLike,
                                  threshold: float) -> tuple[float, float]:
    """(precision, recall): the share of the ``found`` ids whose true share of ``items`` is >= threshold
    (1 when nothing is found), and the share of those true heavy hitters that were found (1 when
    there are none)."""
    truth = set(true_heavy_hitters(items, threshold).ids.tolist())
    got = set(np.asarray(found).tolist())
    precision = len(got & truth) / len(got) if got else 1.0
    recall = len(got & truth) / len(truth) if truth else 1.0
    return precision, recall
