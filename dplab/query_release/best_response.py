"""Conjunctions over binary records, and DualQuery's best response: the record that satisfies as
many of a multiset of (possibly negated) conjunctions as possible, found exactly.

A record is x in {0, 1}^d (d binary attributes; the universe X = {0, 1}^d has 2^d records). A
conjunction q = (attributes, values) is the counting query q(x) = 1 when x[a] = v for every
attribute a with its value v, else 0; its negation is 1 - q(x). Its answer on a database D
(n records) is the fraction q(D) = (1/n) sum_{x in D} q(x). DualQuery (Gaboardi, Gallego Arias,
Hsu, Roth & Wu, "Dual Query: Practical Private Query Release for High Dimensional Data", ICML
2014) runs over the signed list Q u not-Q: index i < k is the conjunction q_i, index k + i its
negation.

The best response to sampled signed queries i_1, ..., i_s is argmax_x sum_j q_{i_j}(x): a record
that the analyst's sampled queries count. Two exact solvers (``BEST_RESPONSES``):

- ``"enumerate"``: every one of the 2^d records scored, in blocks (d <= 24): the brute force;
- ``"milp"``: an integer program (``scipy.optimize.milp``, HiGHS), as the authors solve it with
  CPLEX: binary x_a, and one auxiliary y_j in [0, 1] per distinct sampled query with weight c_j
  (how often it was sampled); maximise sum_j c_j y_j subject to, for a conjunction with literals
  l_1..l_w (l = x_a for value 1, 1 - x_a for value 0), y_j <= l_i for every i (so y_j <= q(x)),
  and for a negated one y_j <= sum_i (1 - l_i) (y_j can be 1 only if some literal fails). At the
  optimum y_j = q_j(x), so the objective is the best response's value; X is never enumerated.

Attributes that no sampled query mentions do not change the value: the milp solver draws them as
fair coins (data-independent, so privacy is unchanged) rather than leaving them all 0.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize, sparse

from dplab._checks import check_choice, check_positive_int, check_rng

__all__ = [
    "BEST_RESPONSES",
    "Conjunctions",
    "answers_on_records",
    "as_conjunctions",
    "best_response",
    "best_response_value",
    "check_records",
    "enumerate_best_response",
    "milp_best_response",
    "signed_answers",
]

_BLOCK = 1 << 22  # entries of a records x queries block evaluated at once
_MAX_ENUMERATE = 24  # "enumerate" refuses d above this (2^24 records, a few seconds)


@dataclass(frozen=True, eq=False)
class Conjunctions:
    """k conjunctions over d binary attributes, as a sparse k x 2d literal matrix: column a means
    x[a] = 1, column d + a means x[a] = 0; ``widths[i]`` is the number of literals of query i.
    q_i(x) = 1 exactly when all ``widths[i]`` of its literals hold."""

    literals: sparse.csr_matrix
    widths: np.ndarray
    n_attributes: int

    @property
    def size(self) -> int:
        """k, the number of conjunctions (the signed list has 2k)."""
        return int(self.widths.size)

    def terms(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """(attributes, values) of conjunction i, attributes increasing."""
        cols = np.sort(self.literals.indices[self.literals.indptr[i]:self.literals.indptr[i + 1]])
        d = self.n_attributes
        return np.where(cols < d, cols, cols - d), (cols < d).astype(np.int8)

    def evaluate(self, records: np.ndarray) -> np.ndarray:
        """q_i(x) for every record (rows of a 0/1 array m x d) and query: an m x k bool array."""
        x = np.asarray(records, dtype=np.float32)
        both = np.concatenate([x, 1.0 - x], axis=1)
        hits = sparse.csr_matrix.dot(self.literals, both.T).T  # m x k: literals that hold
        return np.asarray(hits) == self.widths[None, :]


def as_conjunctions(queries: Conjunctions | Iterable, n_attributes: int) -> Conjunctions:
    """``queries`` as :class:`Conjunctions`: a sequence of pairs (attributes, values), each a
    sequence of attribute indices in [0, d) and their values in {0, 1} (a 1-way marginal cell is
    ((a,), (v,)), a 2-way one ((a, b), (v, w))); an attribute may appear once per query."""
    d = check_positive_int(n_attributes, "n_attributes")
    if isinstance(queries, Conjunctions):
        if queries.n_attributes != d:
            raise ValueError(f"queries are over {queries.n_attributes} attributes, got n_attributes={d}")
        return queries
    rows, cols, widths = [], [], []
    for i, query in enumerate(queries):
        try:
            attributes, values = query
            a = np.asarray(attributes).reshape(-1)
            v = np.asarray(values).reshape(-1)
        except (TypeError, ValueError):
            raise ValueError(f"queries[{i}] must be a pair (attributes, values), "
                             f"got queries[{i}]={query!r}") from None
        if a.size != v.size or (a.size and not (np.issubdtype(a.dtype, np.integer)
                                                and np.issubdtype(v.dtype, np.integer))):
            raise ValueError(f"queries[{i}] must pair integer attributes with as many 0/1 values, "
                             f"got queries[{i}]={query!r}")
        if np.any((a < 0) | (a >= d)) or np.any((v != 0) & (v != 1)) or np.unique(a).size != a.size:
            raise ValueError(f"queries[{i}] must name distinct attributes in [0, {d}) with values 0 or 1, "
                             f"got queries[{i}]={query!r}")
        rows.extend([i] * a.size)
        cols.extend(np.where(v == 1, a, a + d).tolist())
        widths.append(a.size)
    if not widths:
        raise ValueError(f"queries must hold at least one conjunction, got queries={queries!r}")
    literals = sparse.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)),
                                 shape=(len(widths), 2 * d))
    return Conjunctions(literals, np.asarray(widths, dtype=np.float32), d)


def check_records(records: ArrayLike, name: str = "records") -> np.ndarray:
    """A non-empty n x d array of 0/1 values (bool or integer), as uint8; else ValueError naming it."""
    x = np.asarray(records)
    if x.ndim != 2 or x.shape[0] == 0 or x.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty 2-d 0/1 array (records x attributes), "
                         f"got {name} with shape {x.shape}")
    if not (x.dtype == bool or np.issubdtype(x.dtype, np.integer) or np.issubdtype(x.dtype, np.floating)):
        raise ValueError(f"{name} must hold 0/1 values, got dtype {x.dtype}")
    bad = np.flatnonzero((x != 0) & (x != 1))
    if bad.size:
        i, j = np.unravel_index(int(bad[0]), x.shape)
        raise ValueError(f"{name} must hold 0/1 values, got {name}[{i}, {j}]={x[i, j].item()!r}")
    return x.astype(np.uint8)


def answers_on_records(records: ArrayLike, queries: Conjunctions | Iterable) -> np.ndarray:
    """q(D) = (1/n) sum_{x in D} q(x) for each conjunction: the fraction of the n records
    (an n x d 0/1 array) that satisfy it, evaluated in blocks (never an n x k matrix at once)."""
    x = check_records(records)
    conj = as_conjunctions(queries, x.shape[1])
    counts = np.zeros(conj.size)
    step = max(1, _BLOCK // conj.size)
    for start in range(0, x.shape[0], step):
        counts += conj.evaluate(x[start:start + step]).sum(axis=0)
    return counts / x.shape[0]


def signed_answers(answers: ArrayLike) -> np.ndarray:
    """The answers of Q u not-Q from those of Q: (q_1, ..., q_k, 1 - q_1, ..., 1 - q_k), along the
    last axis."""
    a = np.asarray(answers, dtype=float)
    return np.concatenate([a, 1.0 - a], axis=-1)


def _weights(conj: Conjunctions, sampled: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """The distinct signed queries among ``sampled`` and how often each was drawn."""
    s = np.asarray(sampled)
    if s.ndim != 1 or s.size == 0 or not np.issubdtype(s.dtype, np.integer):
        raise ValueError(f"sampled must be a non-empty 1-d array of signed query indices, "
                         f"got sampled={sampled!r}")
    if np.any((s < 0) | (s >= 2 * conj.size)):
        bad = s[(s < 0) | (s >= 2 * conj.size)][0]
        raise ValueError(f"sampled must index Q u not-Q, in [0, {2 * conj.size}), got sampled entry {bad}")
    return np.unique(s, return_counts=True)


def best_response_value(record: ArrayLike, queries: Conjunctions, sampled: ArrayLike) -> float:
    """sum_j q_{i_j}(x): how many of the sampled signed queries (with repetition) the record x satisfies."""
    x = check_records(np.asarray(record).reshape(1, -1), "record")
    signed = signed_answers(queries.evaluate(x)[0].astype(float))
    idx, counts = _weights(queries, sampled)
    return float(signed[idx] @ counts)


def enumerate_best_response(queries: Conjunctions, sampled: ArrayLike,
                            rng: np.random.Generator | int | None = None) -> np.ndarray:
    """The best response by brute force: every record of {0, 1}^d scored (blocks of records, the
    smallest integer code x = sum_a x[a] 2^a among the maximisers). Refuses d > 24. ``rng`` unused."""
    d = queries.n_attributes
    if d > _MAX_ENUMERATE:
        raise ValueError(f"enumeration scores all 2^d records: d must be <= {_MAX_ENUMERATE}, "
                         f"got n_attributes={d}")
    idx, counts = _weights(queries, sampled)
    k = queries.size
    positive, negative = idx < k, idx >= k
    sub = Conjunctions(queries.literals[np.where(positive, idx, idx - k)], queries.widths[np.where(
        positive, idx, idx - k)], d)
    best_value, best_code = -1.0, 0
    step = max(1, min(1 << d, _BLOCK // max(1, idx.size)))
    for start in range(0, 1 << d, step):
        codes = np.arange(start, min(start + step, 1 << d), dtype=np.int64)
        block = ((codes[:, None] >> np.arange(d)) & 1).astype(np.uint8)
        sat = sub.evaluate(block).astype(float)
        value = sat[:, positive] @ counts[positive] + (1.0 - sat[:, negative]) @ counts[negative]
        j = int(np.argmax(value))
        if value[j] > best_value:
            best_value, best_code = float(value[j]), int(codes[j])
    return ((best_code >> np.arange(d)) & 1).astype(np.uint8)


def milp_best_response(queries: Conjunctions, sampled: ArrayLike,
                       rng: np.random.Generator | int | None = None) -> np.ndarray:
    """The best response as an integer program (``scipy.optimize.milp``): binary x (d), one
    y_j in [0, 1] per distinct sampled signed query, maximise sum_j c_j y_j subject to
    y_j <= l for each literal l of a conjunction, y_j <= sum_i (1 - l_i) for a negated one
    (module docstring). Attributes no sampled query mentions are fair coins from ``rng``."""
    d = queries.n_attributes
    idx, counts = _weights(queries, sampled)
    k, u = queries.size, idx.size
    rows, cols, vals, upper = [], [], [], []
    mentioned = np.zeros(d, dtype=bool)
    for j, i in enumerate(idx):
        attributes, values = queries.terms(int(i % k))
        mentioned[attributes] = True
        if i < k:  # y_j <= x_a (value 1): y_j - x_a <= 0;  y_j <= 1 - x_a (value 0): y_j + x_a <= 1
            for a, v in zip(attributes, values, strict=True):
                r = len(upper)
                rows += [r, r]
                cols += [d + j, int(a)]
                vals += [1.0, -1.0 if v else 1.0]
                upper.append(0.0 if v else 1.0)
        else:  # y_j <= sum (1 - l_i): y_j + sum_{v=1} x_a - sum_{v=0} x_a <= #(v = 1)
            r = len(upper)
            rows.append(r)
            cols.append(d + j)
            vals.append(1.0)
            for a, v in zip(attributes, values, strict=True):
                rows.append(r)
                cols.append(int(a))
                vals.append(1.0 if v else -1.0)
            upper.append(float(np.sum(values)))
    cost = np.concatenate([np.zeros(d), -counts.astype(float)])
    integrality = np.concatenate([np.ones(d), np.zeros(u)])
    constraints = ()
    if upper:
        a = sparse.csr_matrix((vals, (rows, cols)), shape=(len(upper), d + u))
        constraints = (optimize.LinearConstraint(a, -np.inf, np.asarray(upper)),)
    res = optimize.milp(cost, constraints=constraints, integrality=integrality,
                        bounds=optimize.Bounds(0.0, 1.0))
    if res.status != 0 or res.x is None:
        raise RuntimeError(f"milp found no optimal best response: {res.message}")
    x = np.round(res.x[:d]).astype(np.uint8)
    free = ~mentioned
    if free.any():
        x[free] = check_rng(rng).integers(0, 2, size=int(free.sum()), dtype=np.uint8)
    return x


#: the exact best-response solvers, by name (module docstring)
BEST_RESPONSES: dict[str, Callable[..., np.ndarray]] = {
    "enumerate": enumerate_best_response,
    "milp": milp_best_response,
}


def best_response(queries: Conjunctions | Sequence, sampled: ArrayLike, n_attributes: int, *,
                  method: str = "milp", rng: np.random.Generator | int | None = None) -> np.ndarray:
    """argmax over x in {0, 1}^d of sum_j q_{i_j}(x), the sampled signed queries (index i < k:
    conjunction i; k + i: its negation), by ``method`` (a key of ``BEST_RESPONSES``)."""
    solver = BEST_RESPONSES[check_choice(method, tuple(BEST_RESPONSES), "method")]
    return solver(as_conjunctions(queries, n_attributes), sampled, rng)
