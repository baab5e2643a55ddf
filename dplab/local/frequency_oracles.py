"""Frequency oracles: each of n users holds one value in {0, ..., d-1}, randomizes it on their own
device with an eps-LDP randomizer, and the server estimates the d frequencies (shares) from the reports.

Every oracle here is a *pure* protocol in the sense of Wang, Blocki, Li & Jha, "Locally
Differentially Private Protocols for Frequency Estimation" (USENIX Security 2017, their pure protocols): a
report y *supports* a set of values, with

    p = Pr[y supports v | the user holds v],   q = Pr[y supports v | the user holds some v' != v],

so the number C(v) of reports supporting v has mean n q + n f_v (p - q), and the estimate
f_hat(v) = (C(v) / n - q) / (p - q) is unbiased with (their Theorem 2, divided by n^2)

    Var[f_hat(v)] = [q (1 - q) / (p - q)^2 + f_v (1 - p - q) / (p - q)] / n.

Each oracle is a frozen mechanism object (epsilon, d) that knows its p and q, samples reports
(vectorised), aggregates them into the d estimates, states its exact variance and what a user sends
(bits), and enumerates its output probabilities for a small d, from which :meth:`exact_epsilon`
computes the privacy loss ln max_y max_{v, v'} P(y | v) / P(y | v') (tests check it equals eps):

=========  ==========================================  ===============================  ==========
name       randomizer                                  p, q                             bits sent
=========  ==========================================  ===============================  ==========
"grr"      k-RR (:class:`RandomizedResponse`, k = d)   e^eps/(e^eps+d-1), 1/(e^eps+d-1) ceil(log2 d)
"sue"      basic RAPPOR: one-hot, each bit RR(eps/2)   e^(eps/2)/(e^(eps/2)+1), 1 - p   d
"oue"      optimised unary encoding                    1/2, 1/(e^eps+1)                 d
"olh"      optimised local hashing, g buckets          e^eps/(e^eps+g-1), 1/g           128 + ceil(log2 g)
"hadamard" Hadamard response (Acharya-Sun-Zhang)       e^eps/(e^eps+1), 1/2             log2 K
=========  ==========================================  ===============================  ==========

:func:`frequency_oracle` and :func:`frequency_oracle_variance` look the name up in :data:`ORACLES`
(one object per name, no formula outside its object). :func:`best_frequency_oracle` picks the smallest
variance: k-RR while d < 3 e^eps + 2, OUE (or OLH, equal when e^eps + 1 is an integer) beyond
(Wang et al. 2017, comparing the protocols).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import as_result, check_choice, check_epsilon, check_positive_int, check_rng
from dplab.hadamard_attack import fwht
from dplab.mechanisms.base import Mechanism
from dplab.mechanisms.randomized_response import RandomizedResponse

__all__ = [
    "CHUNK_ELEMENTS",
    "MAX_ENUMERATED_OUTPUTS",
    "ORACLES",
    "FrequencyOracle",
    "GeneralizedRR",
    "HadamardResponse",
    "HashedReports",
    "OptimizedLocalHashing",
    "OptimizedUnaryEncoding",
    "SymmetricUnaryEncoding",
    "best_frequency_oracle",
    "check_values",
    "frequency_oracle",
    "frequency_oracle_variance",
    "grr_wins_below",
    "olh_buckets",
    "pure_protocol_variance",
]

#: users x values handled at once by :meth:`FrequencyOracle.frequencies` (2^21 entries: 16 MiB of uint64
#: per temporary array, so n = 10^6 users over d = 1,024 values stay far below 1 GiB)
CHUNK_ELEMENTS = 2**21
#: the most outputs :meth:`FrequencyOracle.output_probabilities` enumerates (a small d only)
MAX_ENUMERATED_OUTPUTS = 2**16
_MAX_DOMAIN = 2**32  # local hashing hashes 32-bit keys


def check_values(values: ArrayLike, d: int, name: str = "values") -> np.ndarray:
    """``values`` as a 1-d int64 array of integers in [0, d), else ValueError naming it."""
    v = np.asarray(values)
    if v.ndim != 1 or v.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-d array of integers in [0, {d}), got shape {v.shape}")
    if not np.issubdtype(v.dtype, np.integer):
        raise ValueError(f"{name} must hold integers in [0, {d}), got dtype {v.dtype} "
                         f"({name}[0]={v[0].item()!r})")
    bad = (v < 0) | (v >= d)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name} must hold integers in [0, {d}), got {name}[{i}]={v[i].item()!r}")
    return v.astype(np.int64, copy=False)


def pure_protocol_variance(p: ArrayLike, q: ArrayLike, n: int, f: ArrayLike = 0.0) -> float | np.ndarray:
    """Var[f_hat(v)] = [q (1 - q) / (p - q)^2 + f (1 - p - q) / (p - q)] / n of a pure protocol
    (Wang, Blocki, Li & Jha, USENIX Security 2017, Theorem 2, for a frequency instead of a count)."""
    p, q, f = (np.asarray(x, dtype=float) for x in (p, q, f))
    wrong = ~((q >= 0) & (q < p) & (p <= 1))
    if np.any(wrong):
        i = np.flatnonzero(wrong.ravel())[0]
        p_i, q_i = (np.broadcast_to(x, wrong.shape).ravel()[i].item() for x in (p, q))
        raise ValueError(f"p and q must satisfy 0 <= q < p <= 1, got p={p_i!r}, q={q_i!r}")
    bad = ~((f >= 0) & (f <= 1))
    if np.any(bad):
        raise ValueError(f"f must lie in [0, 1], got f={f.ravel()[bad.ravel()][0].item()!r}")
    n = check_positive_int(n, "n")
    return as_result((q * (1 - q) / (p - q) ** 2 + f * (1 - p - q) / (p - q)) / n)


@dataclass(frozen=True)
class FrequencyOracle(Mechanism):
    """An eps-LDP frequency oracle over d values (pure protocol): its p and q, sampler, aggregation,
    exact variance, communication and exact privacy loss. Subclasses define the randomizer."""

    epsilon: float
    d: int

    name: ClassVar[str] = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon))
        d = check_positive_int(self.d, "d")
        if d < 2 or d > _MAX_DOMAIN:
            raise ValueError(f"d must be an integer in [2, 2^32] (values to report), got d={self.d!r}")
        object.__setattr__(self, "d", d)

    # --- what the subclasses define -------------------------------------------------------------
    @property
    def p(self) -> float:
        """Pr[a report supports v | the user holds v]."""
        raise NotImplementedError

    @property
    def q(self) -> float:
        """Pr[a report supports v | the user holds another value]."""
        raise NotImplementedError

    @property
    def communication_bits(self) -> int:
        """The bits one user sends."""
        raise NotImplementedError

    def sample(self, values: ArrayLike, rng: np.random.Generator | int | None = None):
        """The reports of users holding ``values`` (a 1-d array of integers in [0, d))."""
        raise NotImplementedError

    def supports(self, reports, v: int) -> np.ndarray:
        """For each report, whether it supports the value ``v`` (a bool array)."""
        raise NotImplementedError

    def support_counts(self, reports) -> np.ndarray:
        """C(v) for every v in [0, d): how many reports support each value (float array)."""
        raise NotImplementedError

    def output_probabilities(self) -> np.ndarray:
        """P(y | v) as a (d, outputs) array, every output enumerated (a small d only)."""
        raise NotImplementedError

    def _chunk(self) -> int:
        """Users per chunk in :meth:`frequencies`."""
        return max(1, CHUNK_ELEMENTS // self.d)

    # --- what follows from p and q ---------------------------------------------------------------
    def variance(self, n: int, f: ArrayLike = 0.0) -> float | np.ndarray:
        """The exact variance of one estimated frequency f_hat(v), n users of whom a share f hold v:
        [q (1 - q) / (p - q)^2 + f (1 - p - q) / (p - q)] / n (Wang et al. 2017, Theorem 2)."""
        return pure_protocol_variance(self.p, self.q, n, f)

    def estimate(self, counts: ArrayLike, n: int) -> np.ndarray:
        """The unbiased frequencies f_hat(v) = (C(v)/n - q) / (p - q) from the support counts C."""
        n = check_positive_int(n, "n")
        return (np.asarray(counts, dtype=float) / n - self.q) / (self.p - self.q)

    def frequencies(self, values: ArrayLike, rng: np.random.Generator | int | None = None) -> np.ndarray:
        """Every user's report sampled and aggregated, chunk by chunk (:data:`CHUNK_ELEMENTS` users x
        values at a time: memory stays bounded whatever n): the d estimated frequencies."""
        v = check_values(values, self.d)
        rng = check_rng(rng)
        counts = np.zeros(self.d)
        step = self._chunk()
        for start in range(0, v.size, step):
            counts += self.support_counts(self.sample(v[start:start + step], rng))
        return self.estimate(counts, v.size)

    def frequencies_from_uniforms(self, values: ArrayLike, uniforms: ArrayLike) -> np.ndarray:
        """The d estimates from shared uniform draws (common random numbers for a panel: one (n, d)
        draw serves every eps and every oracle): C(v) = #{i : U[i, v] < p if values[i] = v, else q}.
        Each C(v) has its exact law, Binomial(n f_v, p) + Binomial(n (1 - f_v), q), so each estimate
        has the exact mean and variance of :meth:`variance`; the joint law is the protocol's for unary
        encoding (independent bits, as its sampler draws them), while in k-RR, OLH and Hadamard
        response the counts of different values are correlated (here they are independent).
        ``uniforms``: shape (n, d) at least (the first n rows and d columns are used)."""
        v = check_values(values, self.d)
        u = np.asarray(uniforms, dtype=float)
        if u.ndim != 2 or u.shape[0] < v.size or u.shape[1] < self.d:
            raise ValueError(f"uniforms must be an array of shape at least ({v.size}, {self.d}), "
                             f"got shape {u.shape}")
        u = u[:v.size, :self.d]
        counts = np.count_nonzero(u < self.q, axis=0).astype(float)
        own = u[np.arange(v.size), v]
        np.add.at(counts, v, (own < self.p).astype(float) - (own < self.q))
        return self.estimate(counts, v.size)

    def exact_epsilon(self) -> float:
        """The privacy loss computed from the enumerated output probabilities:
        ln max over outputs y and pairs of inputs v, v' of P(y | v) / P(y | v') (inf if an output
        has probability 0 under one input only)."""
        probs = self.output_probabilities()
        with np.errstate(divide="ignore"):
            logs = np.log(probs)
        spread = logs.max(axis=0) - logs.min(axis=0)
        return float(np.max(np.where(np.isneginf(logs).all(axis=0), 0.0, spread)))

    def epsilon_delta(self) -> tuple[float, float]:
        """(epsilon, 0): pure eps-LDP for one user's report."""
        return self.epsilon, 0.0

    def _check_enumerable(self, outputs: int) -> None:
        if outputs > MAX_ENUMERATED_OUTPUTS:
            raise ValueError(f"{type(self).__name__} at d={self.d} has {outputs} outputs, more than "
                             f"MAX_ENUMERATED_OUTPUTS={MAX_ENUMERATED_OUTPUTS}: enumerate a smaller d")


@dataclass(frozen=True)
class GeneralizedRR(FrequencyOracle):
    """k-RR (generalised or direct randomized response; Kairouz, Oh & Viswanath 2016; Wang et al.
    2017's "direct encoding"): :class:`RandomizedResponse` with k = d. The report is a value, it
    supports itself: p = e^eps / (e^eps + d - 1), q = 1 / (e^eps + d - 1); Var = (d - 2 + e^eps) /
    (n (e^eps - 1)^2) at f = 0."""

    name: ClassVar[str] = "grr"

    @property
    def mechanism(self) -> RandomizedResponse:
        """The randomizer: the lab's one randomized response."""
        return RandomizedResponse(self.epsilon, k=self.d)

    @property
    def p(self) -> float:
        return self.mechanism.keep

    @property
    def q(self) -> float:
        return self.mechanism.flip

    @property
    def communication_bits(self) -> int:
        """ceil(log2 d): one value."""
        return math.ceil(math.log2(self.d))

    def _chunk(self) -> int:
        return CHUNK_ELEMENTS

    def sample(self, values, rng=None) -> np.ndarray:
        """k-RR reports: ``RandomizedResponse(epsilon, k=d).sample(values, rng)``."""
        return np.asarray(self.mechanism.sample(check_values(values, self.d), rng))

    def supports(self, reports, v: int) -> np.ndarray:
        return np.asarray(reports) == v

    def support_counts(self, reports) -> np.ndarray:
        return np.bincount(np.asarray(reports), minlength=self.d).astype(float)

    def output_probabilities(self) -> np.ndarray:
        """P(y | v): p on the diagonal, q elsewhere (d outputs)."""
        self._check_enumerable(self.d)
        return np.stack([self.mechanism.probabilities(v) for v in range(self.d)])


@dataclass(frozen=True)
class _UnaryEncoding(FrequencyOracle):
    """Unary encoding: the user's value one-hot in d bits, bit v reported 1 with probability p,
    every other bit 1 with probability q, independently (Wang et al. 2017, unary encoding).
    The report (d bits) supports v when its bit v is 1. Privacy: an output's ratio under v and v'
    is at most p (1 - q) / ((1 - p) q), which equals e^eps for SUE and OUE."""

    @property
    def communication_bits(self) -> int:
        """d: one bit per value."""
        return self.d

    def sample(self, values, rng=None) -> np.ndarray:
        """Reports as an (n, d) bool array: entry [i, j] is 1 with probability p where j = values[i],
        q elsewhere (one uniform draw per bit)."""
        v = check_values(values, self.d)
        u = check_rng(rng).random((v.size, self.d))
        rows = np.arange(v.size)
        hot = u[rows, v] < self.p
        bits = u < self.q
        bits[rows, v] = hot
        return bits

    def supports(self, reports, v: int) -> np.ndarray:
        return np.asarray(reports)[:, v].astype(bool)

    def support_counts(self, reports) -> np.ndarray:
        return np.asarray(reports).sum(axis=0, dtype=float)

    def output_probabilities(self) -> np.ndarray:
        """P(B | v) for every bit pattern B in {0, 1}^d (column j: the bits of j, bit k = value k)."""
        self._check_enumerable(2**self.d)
        patterns = (np.arange(2**self.d)[:, None] >> np.arange(self.d)) & 1  # (2^d, d)
        onehot = np.eye(self.d, dtype=bool)
        p_one = np.where(onehot, self.p, self.q)  # (d values, d bits): Pr[bit = 1 | v]
        per_bit = np.where(patterns[None, :, :] == 1, p_one[:, None, :], 1 - p_one[:, None, :])
        return per_bit.prod(axis=2)


@dataclass(frozen=True)
class SymmetricUnaryEncoding(_UnaryEncoding):
    """Symmetric unary encoding (SUE), i.e. basic RAPPOR (Erlingsson, Pihur & Korolova, CCS 2014: the
    one-hot encoding instead of a Bloom filter, its permanent randomized response only, as Wang et al.
    2017 describe it): every bit of the one-hot
    vector through binary randomized response at eps/2 (two bits differ between neighbours):
    p = e^(eps/2) / (e^(eps/2) + 1), q = 1 - p (Wang et al. 2017, unary encoding)."""

    name: ClassVar[str] = "sue"

    @property
    def p(self) -> float:
        return RandomizedResponse(self.epsilon / 2).keep

    @property
    def q(self) -> float:
        return RandomizedResponse(self.epsilon / 2).flip

    def sample(self, values, rng=None) -> np.ndarray:
        """Every bit of the one-hot (n, d) matrix through ``RandomizedResponse(epsilon / 2).sample``."""
        v = check_values(values, self.d)
        onehot = np.zeros((v.size, self.d), dtype=np.int64)
        onehot[np.arange(v.size), v] = 1
        return np.asarray(RandomizedResponse(self.epsilon / 2).sample(onehot, rng)).astype(bool)


@dataclass(frozen=True)
class OptimizedUnaryEncoding(_UnaryEncoding):
    """Optimised unary encoding (OUE; Wang et al. 2017, unary encoding): the 1 bit kept with probability
    p = 1/2, each 0 bit turned to 1 with probability q = 1/(e^eps + 1), the q that minimises the
    variance: Var = 4 e^eps / (n (e^eps - 1)^2) at f = 0."""

    name: ClassVar[str] = "oue"

    @property
    def p(self) -> float:
        return 0.5

    @property
    def q(self) -> float:
        return RandomizedResponse(self.epsilon).flip


def olh_buckets(epsilon: float) -> int:
    """g = max(2, round(e^eps + 1)), OLH's number of hash buckets (Wang et al. 2017, local hashing: the
    g that minimises the variance is e^eps + 1; rounded half up). At eps = ln 3, g = 4."""
    eps = check_epsilon(epsilon)
    return max(2, math.floor(math.exp(eps) + 1.5)) if eps < 40 else 2**32


class HashedReports(NamedTuple):
    """Local-hashing reports: user i's hash function (a_i, b_i) and the bucket y_i it reports."""

    a: np.ndarray  # uint64
    b: np.ndarray  # uint64
    y: np.ndarray  # int64 in [0, g)


def _hash(a: np.ndarray, b: np.ndarray, x: np.ndarray, g: int) -> np.ndarray:
    """h_{a,b}(x) = floor(g * (((a x + b) mod 2^64) div 2^32) / 2^32) for 32-bit keys x.
    The inner hash is Dietzfelbinger's multiply-add-shift ("Universal hashing and k-wise independent
    random variables via integer arithmetic without primes", STACS 1996): for a, b uniform in
    [0, 2^64) the top 32 bits of a x + b are uniform and pairwise independent over distinct keys;
    the outer step maps them to [0, g) (each bucket's probability within 2^-32 of 1/g)."""
    with np.errstate(over="ignore"):
        h = a * x
        h += b
    h >>= np.uint64(32)
    h *= np.uint64(g)
    h >>= np.uint64(32)
    return h


@dataclass(frozen=True)
class OptimizedLocalHashing(FrequencyOracle):
    """Optimised local hashing (OLH; Wang et al. 2017, local hashing): each user draws a hash function
    H: [d] -> [g] from a pairwise independent family (:func:`_hash`), and reports (H, y) where y is
    k-RR over g buckets of H(value) (:class:`RandomizedResponse` with k = g), g = max(2, round(e^eps +
    1)). A report supports v when H(v) = y: p = e^eps / (e^eps + g - 1), q = 1/g (H(v) is uniform
    and independent of H(v') for v != v'). Var = 4 e^eps / (n (e^eps - 1)^2) at f = 0 when
    g = e^eps + 1 exactly. Aggregation evaluates every user's hash at every value: n d hashes."""

    name: ClassVar[str] = "olh"

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.g > 2**32 - 1:
            raise ValueError(f"epsilon is too large for local hashing (g = round(e^eps + 1) must stay "
                             f"below 2^32), got epsilon={self.epsilon!r}")

    @property
    def g(self) -> int:
        """The number of hash buckets."""
        return olh_buckets(self.epsilon)

    @property
    def mechanism(self) -> RandomizedResponse:
        """The randomizer of the hashed value: k-RR over g buckets."""
        return RandomizedResponse(self.epsilon, k=self.g)

    @property
    def p(self) -> float:
        return self.mechanism.keep

    @property
    def q(self) -> float:
        return 1 / self.g

    @property
    def communication_bits(self) -> int:
        """128 + ceil(log2 g): the hash function's seed (a, b: two 64-bit words) and the bucket."""
        return 128 + math.ceil(math.log2(self.g))

    def sample(self, values, rng=None) -> HashedReports:
        """(a, b, y): a uniform hash per user and y = k-RR_g(H(value))."""
        v = check_values(values, self.d)
        rng = check_rng(rng)
        a = rng.integers(0, 2**64, size=v.size, dtype=np.uint64)
        b = rng.integers(0, 2**64, size=v.size, dtype=np.uint64)
        hashed = _hash(a, b, v.astype(np.uint64), self.g).astype(np.int64)
        return HashedReports(a, b, np.asarray(self.mechanism.sample(hashed, rng)))

    def supports(self, reports: HashedReports, v: int) -> np.ndarray:
        x = np.full(reports.a.size, v, dtype=np.uint64)
        return _hash(reports.a, reports.b, x, self.g).astype(np.int64) == reports.y

    def support_counts(self, reports: HashedReports, candidates: ArrayLike | None = None) -> np.ndarray:
        """C(v) for every v in [0, d) (or every v of ``candidates``): each user's hash evaluated at
        every value, compared with their bucket, (users x values) at a time."""
        values = (np.arange(self.d, dtype=np.uint64) if candidates is None
                  else np.asarray(candidates).astype(np.uint64))
        h = _hash(reports.a[:, None], reports.b[:, None], values[None, :], self.g)
        return np.count_nonzero(h == reports.y.astype(np.uint64)[:, None], axis=0).astype(float)

    def frequencies(self, values: ArrayLike, rng: np.random.Generator | int | None = None,
                    candidates: ArrayLike | None = None) -> np.ndarray:
        """As :meth:`FrequencyOracle.frequencies`; with ``candidates`` (values in [0, d)), only their
        estimated frequencies, in their order: n |candidates| hashes, never the whole domain (what
        the heavy hitters' prefix extension needs when d = 2^32)."""
        if candidates is None:
            return super().frequencies(values, rng)
        v = check_values(values, self.d)
        cand = check_values(candidates, self.d, "candidates")
        rng = check_rng(rng)
        counts = np.zeros(cand.size)
        step = max(1, CHUNK_ELEMENTS // cand.size)
        for start in range(0, v.size, step):
            counts += self.support_counts(self.sample(v[start:start + step], rng), cand)
        return self.estimate(counts, v.size)

    def output_probabilities(self) -> np.ndarray:
        """P((H, y) | v) for every function H: [d] -> [g] (a truly random hash: weight g^-d; the ratio
        of two inputs' probabilities does not depend on the weight, since H is drawn independently of
        the value) and every bucket y: g^-d (p' if H(v) = y else q'), p', q' of k-RR over g."""
        g, d = self.g, self.d
        self._check_enumerable(g ** (d + 1) if g**d <= MAX_ENUMERATED_OUTPUTS else MAX_ENUMERATED_OUTPUTS + 1)
        functions = (np.arange(g**d)[:, None] // g ** np.arange(d)) % g  # (g^d, d): H(v)
        y = np.arange(g)
        hit = functions.T[:, :, None] == y[None, None, :]  # (d, g^d, g)
        rr = self.mechanism
        return (np.where(hit, rr.keep, rr.flip) / g**d).reshape(d, -1)


@dataclass(frozen=True)
class HadamardResponse(FrequencyOracle):
    """Hadamard response of Acharya, Sun & Zhang ("Hadamard Response: Estimating Distributions
    Privately, Efficiently, and with Little Communication", AISTATS 2019), the variant whose sets are
    half of the outputs (one block; their general scheme uses smaller sets, in blocks, for large eps):
    K is the smallest power of 2 above d, value v owns the set C_v = {y : H_K[v + 1, y] = +1} of K/2
    outputs (row v + 1 of the Sylvester-Hadamard matrix; row 0, all ones, is skipped), and the user
    reports y uniform on C_v with probability e^eps / (e^eps + 1), uniform on its complement
    otherwise: P(y | v) = 2 e^eps / (K (e^eps + 1)) on C_v, 2 / (K (e^eps + 1)) off it, eps-LDP.
    A report supports v when y is in C_v: p = e^eps / (e^eps + 1), q = 1/2 (two rows agree on half
    the columns), Var = (e^eps + 1)^2 / (n (e^eps - 1)^2) at f = 0; the server aggregates all d
    counts with one fast Walsh-Hadamard transform of the histogram of y (O(K log K))."""

    name: ClassVar[str] = "hadamard"

    @property
    def size(self) -> int:
        """K = 2^ceil(log2(d + 1)): the outputs."""
        return 1 << self.d.bit_length()

    @property
    def p(self) -> float:
        return RandomizedResponse(self.epsilon).keep

    @property
    def q(self) -> float:
        return 0.5

    @property
    def communication_bits(self) -> int:
        """log2 K: one output index."""
        return self.size.bit_length() - 1

    def _chunk(self) -> int:
        return CHUNK_ELEMENTS

    def sample(self, values, rng=None) -> np.ndarray:
        """y uniform on [0, K); where the parity of popcount((v + 1) & y) is not the one wanted (even: in
        C_v, with probability p), the lowest set bit of v + 1 is toggled in y, a bijection between
        C_v and its complement, so y is uniform on the half it should be in."""
        v = check_values(values, self.d)
        rng = check_rng(rng)
        inside = rng.random(v.size) < self.p
        y = rng.integers(0, self.size, size=v.size, dtype=np.int64)
        row = v + 1
        odd = (np.bitwise_count(row & y) & 1).astype(bool)
        return np.where(odd == inside, y ^ (row & -row), y)

    def supports(self, reports, v: int) -> np.ndarray:
        return (np.bitwise_count((v + 1) & np.asarray(reports, dtype=np.int64)) & 1) == 0

    def support_counts(self, reports) -> np.ndarray:
        """C(v) = (n + (H_K c)[v + 1]) / 2, c the histogram of the reports: one transform."""
        y = np.asarray(reports, dtype=np.int64)
        transform = fwht(np.bincount(y, minlength=self.size).astype(float))
        return (y.size + transform[1:self.d + 1]) / 2

    def output_probabilities(self) -> np.ndarray:
        """P(y | v) for every y in [0, K): 2p/K on C_v, 2(1 - p)/K off it."""
        self._check_enumerable(self.size)
        y = np.arange(self.size)
        rows = np.arange(1, self.d + 1)[:, None]
        inside = (np.bitwise_count(rows & y[None, :]) & 1) == 0
        return np.where(inside, 2 * self.p / self.size, 2 * (1 - self.p) / self.size)


#: one randomizer class per name: the only place a name selects anything
ORACLES: dict[str, type[FrequencyOracle]] = {
    cls.name: cls for cls in (GeneralizedRR, SymmetricUnaryEncoding, OptimizedUnaryEncoding,
                              OptimizedLocalHashing, HadamardResponse)
}


def _oracle(name: str, epsilon: float, d: int) -> FrequencyOracle:
    return ORACLES[check_choice(name, tuple(ORACLES), "name")](epsilon, d)


def frequency_oracle(name: str, values: ArrayLike, d: int, epsilon: float,
                     rng: np.random.Generator | int | None = None) -> np.ndarray:
    """The d estimated frequencies (shares, unbiased; they may leave [0, 1]) of ``values`` (integers
    in [0, d)) through the oracle ``name`` ("grr", "sue", "oue", "olh", "hadamard") at eps:
    ``ORACLES[name](epsilon, d).frequencies(values, rng)``."""
    return _oracle(name, epsilon, d).frequencies(values, rng)


def frequency_oracle_variance(name: str, epsilon: ArrayLike, d: int, n: int,
                              f: ArrayLike = 0.0) -> float | np.ndarray:
    """The exact variance of one estimated frequency, n users of whom a share f hold the value:
    ``ORACLES[name](epsilon, d).variance(n, f)`` (Wang et al. 2017, Theorem 2). ``epsilon`` may be a
    grid (one object per entry; with a grid of f too, the shape is epsilon's then f's)."""
    check_choice(name, tuple(ORACLES), "name")
    eps = check_epsilon(epsilon, array_ok=True)
    if np.ndim(eps) == 0:
        return _oracle(name, eps, d).variance(n, f)
    out = np.array([_oracle(name, e, d).variance(n, f) for e in np.ravel(eps)])
    return out.reshape(np.shape(eps) + np.shape(f))


def best_frequency_oracle(epsilon: float, d: int) -> str:
    """The name of the oracle with the smallest variance at f = 0 (a rare value), ties (within 1e-12,
    relative) broken by fewer bits sent: "grr" for d < 3 e^eps + 2, else "oue" (Wang et al. 2017,
    comparing the protocols), or "olh" where it ties with OUE (e^eps + 1 an integer) and sends fewer bits."""
    oracles = [_oracle(name, epsilon, d) for name in ORACLES]
    var = np.array([o.variance(1) for o in oracles])
    tied = [o for o, v in zip(oracles, var, strict=True) if v <= var.min() * (1 + 1e-12)]
    return min(tied, key=lambda o: o.communication_bits).name


def grr_wins_below(epsilon: ArrayLike) -> float | np.ndarray:
    """d* = 3 e^eps + 2: k-RR's variance (d - 2 + e^eps)/(e^eps - 1)^2 is below OUE's 4 e^eps/(e^eps - 1)^2
    exactly when d < d* (Wang et al. 2017, comparing the protocols)."""
    return as_result(3 * np.exp(check_epsilon(epsilon, array_ok=True)) + 2)
