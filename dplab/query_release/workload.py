"""The universe X = {0, 1}^b of notebook 11 and the counting queries over it, as conjunctions and as an
operator over X that never stores a k x |X| matrix.

The universe. A record is a 0/1 vector of b attributes (DualQuery's records); X holds all 2^b of
them and record x is the element whose index reads x as a binary number, attribute 0 the highest
bit, so ``histogram.reshape((2,) * b)[x_0, ..., x_{b-1}]`` is the count of record x. The YRBSS
students are mapped to b bits (b = 8 to 20, |X| = 2^b) as

    attribute 0:                  male (sex == "M")
    attributes 1 .. h:            the height bin j in 0 .. 2^h - 1 in binary, most significant bit first,
    attributes h + 1 .. h + w:    the weight bin likewise,

h = ceil((b - 1)/2), w = floor((b - 1)/2), with 2^h equal bins of :data:`YRBSS_HEIGHT_RANGE` and 2^w of
:data:`YRBSS_WEIGHT_RANGE` (:func:`yrbss_thresholds`: bin j is "t_j <= value < t_{j+1}", the first and
last bins open to the outside). The issue suggested threshold indicators ("height >= t") instead; this
module codes the same thresholds in binary because (1) with h indicators of one ordered value only
h + 1 of the 2^h patterns can occur, so almost all of X would be impossible records (144 of the 2^16
at b = 16), while here every record is a student one could meet; (2) the conjunctions of the leading
bits of the height are exactly its dyadic ranges, so the marginals over bits are range queries too; (3)
every 1-D range of heights is a difference of two prefix sums along one axis of X.

The queries. A conjunction (attributes, values) counts the records with x[a] = v for each pair: the
cells of a marginal over those attributes; :func:`marginal_conjunctions` lists every cell of every
k-way marginal. A :class:`BitRange` counts the records whose bits first .. first + width - 1, read as
an integer, lie in [low, high) (a range of heights when they are the height bits). :class:`Workload`
is both kinds as a ``scipy.sparse.linalg.LinearOperator`` (k x |X|): its matvec takes, once per
histogram, the sums over every superset of attributes (:func:`superset_sums`, b passes over the
(2,) * b reshape) and reads each conjunction from them by inclusion-exclusion, and takes prefix sums
for the ranges: O(b |X| + k 2^m) for conjunctions of at most m literals; :func:`marginal_table` is
one marginal by a reshape and ``numpy.sum``; and :meth:`Workload.row` builds one query as a 0/1 vector over X
on demand.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from itertools import combinations, product
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy.sparse.linalg import LinearOperator

from dplab._checks import check_positive_int
from dplab.datasets import load_yrbss

__all__ = [
    "YRBSS_HEIGHT_RANGE",
    "YRBSS_WEIGHT_RANGE",
    "BitRange",
    "Workload",
    "conjunction_answers",
    "marginal_conjunctions",
    "marginal_table",
    "range_queries",
    "record_indices",
    "superset_sums",
    "universe_records",
    "yrbss_attribute_names",
    "yrbss_bits",
    "yrbss_histogram",
    "yrbss_records",
    "yrbss_thresholds",
    "yrbss_workload",
]

#: heights binned over [1.20 m, 2.20 m): the students' 1.27 m to 2.11 m fall inside
YRBSS_HEIGHT_RANGE = (1.20, 2.20)
#: weights binned over [25 kg, 185 kg): the students' 29.9 kg to 181 kg fall inside
YRBSS_WEIGHT_RANGE = (25.0, 185.0)
_MAX_BITS = 30  # 2^30 records: what an index can name; a histogram stops far earlier (memory)

#: A conjunction: (attribute indices, their required 0/1 values), both tuples of the same length.
Conjunction = tuple[tuple[int, ...], tuple[int, ...]]


class BitRange(NamedTuple):
    """The records whose bits ``first`` .. ``first + width - 1`` (most significant first), read as an
    integer v, have low <= v < high."""

    first: int
    width: int
    low: int
    high: int


# --- checks --------------------------------------------------------------------------------------------

def _check_bits(bits: object, name: str = "bits", low: int = 1) -> int:
    b = check_positive_int(bits, name)
    if not low <= b <= _MAX_BITS:
        raise ValueError(f"{name} must be between {low} and {_MAX_BITS}, got {name}={b}")
    return b


def _check_conjunction(conjunction: object, n_attributes: int, i: int) -> Conjunction:
    try:
        attributes, values = conjunction  # type: ignore[misc]
        attributes = tuple(int(a) for a in attributes)
        values = tuple(int(v) for v in values)
    except (TypeError, ValueError):
        raise ValueError(f"conjunctions[{i}] must be (attribute indices, values), "
                         f"got {conjunction!r}") from None
    if (not attributes or len(attributes) != len(values) or len(set(attributes)) != len(attributes)
            or min(attributes) < 0 or max(attributes) >= n_attributes or set(values) - {0, 1}):
        raise ValueError(f"conjunctions[{i}] must name distinct attributes in [0, {n_attributes}) with "
                         f"values 0 or 1, got conjunctions[{i}]={conjunction!r}")
    return attributes, values


def _check_range(query: object, n_attributes: int, i: int) -> BitRange:
    try:
        r = BitRange(*(int(v) for v in query))  # type: ignore[union-attr]
    except (TypeError, ValueError):
        raise ValueError(f"ranges[{i}] must be (first, width, low, high), got {query!r}") from None
    if not (r.first >= 0 and r.width >= 1 and r.first + r.width <= n_attributes
            and 0 <= r.low < r.high <= 2**r.width):
        raise ValueError(f"ranges[{i}] must have bits inside [0, {n_attributes}) and 0 <= low < high <= "
                         f"2^width, got ranges[{i}]={query!r}")
    return r


def _as_histogram(histogram: ArrayLike, n_attributes: int) -> np.ndarray:
    h = np.asarray(histogram, dtype=float)
    if h.shape != (2**n_attributes,):
        raise ValueError(f"histogram must be a 1-d array of 2^{n_attributes} = {2**n_attributes} counts, "
                         f"got shape {h.shape}")
    return h


# --- the universe --------------------------------------------------------------------------------------

def universe_records(n_attributes: int) -> np.ndarray:
    """Every record of X = {0, 1}^b in index order, as a (2^b, b) uint8 array: row i is i in binary,
    attribute 0 the most significant bit (brute force: for small b)."""
    b = _check_bits(n_attributes, "n_attributes")
    return ((np.arange(2**b)[:, None] >> np.arange(b - 1, -1, -1)) & 1).astype(np.uint8)


def record_indices(records: ArrayLike) -> np.ndarray:
    """The index in X of each record (rows of 0/1, attribute 0 the most significant bit)."""
    r = np.asarray(records)
    if r.ndim != 2 or r.shape[1] < 1 or not np.all((r == 0) | (r == 1)):
        raise ValueError(f"records must be a 2-d array of 0s and 1s (one row per record), "
                         f"got shape {r.shape}")
    b = _check_bits(r.shape[1], "the number of attributes")
    return r.astype(np.int64) @ (np.int64(1) << np.arange(b - 1, -1, -1, dtype=np.int64))


def yrbss_bits(bits: int = 16) -> tuple[int, int]:
    """(height bits h, weight bits w) of the b-bit YRBSS universe: h = ceil((b-1)/2), w = floor((b-1)/2)."""
    b = _check_bits(bits, low=3)
    return b // 2, (b - 1) // 2


def yrbss_thresholds(bits: int = 16) -> tuple[np.ndarray, np.ndarray]:
    """The bin edges t_0 < ... < t_{2^h} of the heights (m) and of the weights (kg): 2^h (2^w) equal
    bins of :data:`YRBSS_HEIGHT_RANGE` (:data:`YRBSS_WEIGHT_RANGE`). At b = 16: 256 height bins of
    3.9 mm and 128 weight bins of 1.25 kg; at b = 8: 16 of 6.25 cm and 8 of 20 kg."""
    h, w = yrbss_bits(bits)
    # rounded to 12 decimals: 1.2 + 128 / 256 is 1.7000000000000002 in floating point, and a student of
    # 1.70 m belongs to the bin that starts at 1.70 m
    return (np.round(np.linspace(*YRBSS_HEIGHT_RANGE, 2**h + 1), 12),
            np.round(np.linspace(*YRBSS_WEIGHT_RANGE, 2**w + 1), 12))


def _bins(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Bin j with edges[j] <= value < edges[j+1]; values outside go to the first or last bin."""
    return np.clip(np.searchsorted(edges, values, side="right") - 1, 0, edges.size - 2)


def _to_bits(values: np.ndarray, width: int) -> np.ndarray:
    return ((values[:, None] >> np.arange(width - 1, -1, -1)) & 1).astype(np.uint8)


def yrbss_records(bits: int = 16) -> np.ndarray:
    """The 12,579 YRBSS students as records of the b-bit universe, a (n, b) uint8 0/1 array: male,
    then the height bin's bits, then the weight bin's (see the module docstring)."""
    table = load_yrbss()
    h, w = yrbss_bits(bits)
    height_edges, weight_edges = yrbss_thresholds(bits)
    male = (table["sex"] == "M").astype(np.uint8)[:, None]
    return np.hstack([male, _to_bits(_bins(table["height_m"], height_edges), h),
                      _to_bits(_bins(table["weight_kg"], weight_edges), w)])


def yrbss_histogram(bits: int = 16) -> np.ndarray:
    """The students' histogram over the b-bit universe: the count of each of the 2^b records (int64)."""
    b = _check_bits(bits, low=3)
    return np.bincount(record_indices(yrbss_records(b)), minlength=2**b).astype(np.int64)


def yrbss_attribute_names(bits: int = 16) -> list[str]:
    """A name for each attribute: "male", "height bit 1" (most significant) .., "weight bit 1" .."""
    h, w = yrbss_bits(bits)
    return ["male"] + [f"height bit {i + 1}" for i in range(h)] + [f"weight bit {i + 1}" for i in range(w)]


# --- queries -------------------------------------------------------------------------------------------

def marginal_conjunctions(n_attributes: int, ways: int | Iterable[int] = (1, 2)) -> list[Conjunction]:
    """Every cell of every k-way marginal over b attributes, for each k in ``ways``, as conjunctions
    (attributes, values): C(b, k) 2^k cells for each k (b = 16: 32 one-way, 480 two-way, 4,480
    three-way). Ordered by k, then attribute set, then values."""
    b = _check_bits(n_attributes, "n_attributes")
    ways = [ways] if isinstance(ways, (int, np.integer)) else list(ways)
    out: list[Conjunction] = []
    for k in ways:
        k = check_positive_int(k, "ways")
        if k > b:
            raise ValueError(f"ways must be at most the {b} attributes, got ways={k}")
        out.extend((attrs, values) for attrs in combinations(range(b), k)
                   for values in product((0, 1), repeat=k))
    return out


def range_queries(first: int, width: int, step: int = 1) -> list[BitRange]:
    """Every range [low, high) of the integer coded by bits ``first`` .. ``first + width - 1`` whose ends
    are multiples of ``step`` (and 2^width): m (m + 1)/2 ranges with m = 2^width / step."""
    first = check_positive_int(first + 1, "first") - 1
    width = check_positive_int(width, "width")
    step = check_positive_int(step, "step")
    if (2**width) % step:
        raise ValueError(f"step must divide 2^width = {2**width}, got step={step}")
    ends = range(0, 2**width + 1, step)
    return [BitRange(first, width, lo, hi) for lo, hi in combinations(ends, 2)]


def yrbss_workload(bits: int = 16, *, ways: int | Iterable[int] = (1, 2), range_step: int = 1) -> Workload:
    """The lesson's workload on the b-bit YRBSS universe: every cell of the 1- and 2-way marginals over
    the b attributes (``ways``), then every range of height bins and every range of weight bins with
    ends on multiples of ``range_step``. b = 16, range_step = 2: 512 + 8,256 + 2,080 = 10,848 queries."""
    h, w = yrbss_bits(bits)
    ranges = range_queries(1, h, range_step) + range_queries(1 + h, w, range_step)
    return Workload(bits, marginal_conjunctions(bits, ways), ranges)


def marginal_table(histogram: ArrayLike, attributes: Sequence[int]) -> np.ndarray:
    """The marginal of a histogram over X = {0, 1}^b on ``attributes`` (increasing): an array of shape
    (2,) * len(attributes) whose entry v is the total count of the records with x[attributes] = v.
    One reshape that keeps each named attribute as an axis of 2 and merges the runs of attributes
    between them, then one ``numpy.sum`` over the merged axes: O(|X|)."""
    h = np.asarray(histogram, dtype=float)
    b = _check_bits(int(round(math.log2(h.size))) if h.size else 0, "log2 of the histogram's size")
    attrs = [int(a) for a in attributes]
    if attrs != sorted(set(attrs)) or not attrs or attrs[0] < 0 or attrs[-1] >= b:
        raise ValueError(f"attributes must be increasing indices in [0, {b}), got attributes={attributes!r}")
    shape, keep, previous = [], [], -1
    for a in attrs:
        shape.append(2 ** (a - previous - 1))
        shape.append(2)
        keep.append(len(shape) - 1)
        previous = a
    shape.append(2 ** (b - previous - 1))
    merged = tuple(i for i in range(len(shape)) if i not in keep)
    return _as_histogram(h, b).reshape(shape).sum(axis=merged)


def superset_sums(histogram: ArrayLike) -> np.ndarray:
    """f(S) = the total count of the records x with x_a = 1 for every attribute a in S, for every set S
    of attributes at once, indexed like X (S's indicator vector read as a binary number): the zeta
    transform over the subset lattice (Yates's algorithm; Bjorklund, Husfeldt, Kaski & Koivisto,
    "Fourier meets Mobius", STOC 2007): for each attribute axis of the (2,) * b reshape, add the
    x_a = 1 half into the x_a = 0 half. b |X| / 2 additions; every conjunction's count follows from
    f by inclusion-exclusion over its 0-valued attributes."""
    h = np.asarray(histogram, dtype=float)
    b = int(round(math.log2(h.size))) if h.size else 0
    f = _as_histogram(h, _check_bits(b, "log2 of the histogram's size")).copy()
    for a in range(b):
        view = f.reshape(2**a, 2, -1)
        view[:, 0, :] += view[:, 1, :]
    return f


def _inclusion_exclusion(attributes: Sequence[int], values: Sequence[int], b: int) -> list[tuple[int, int]]:
    """(index of S in :func:`superset_sums`, sign) terms whose sum is the conjunction's count."""
    ones = sum(1 << (b - 1 - a) for a, v in zip(attributes, values, strict=True) if v == 1)
    zeros = [1 << (b - 1 - a) for a, v in zip(attributes, values, strict=True) if v == 0]
    return [(ones + sum(c), (-1) ** len(c)) for r in range(len(zeros) + 1) for c in combinations(zeros, r)]


def conjunction_answers(histogram: ArrayLike, conjunctions: Sequence[Conjunction]) -> np.ndarray:
    """The count of each conjunction (attributes, values) on a histogram over {0, 1}^b: read from the
    marginal table of its attributes (:func:`marginal_table`, one per distinct attribute set)."""
    h = np.asarray(histogram, dtype=float)
    b = int(round(math.log2(h.size))) if h.size else 0
    return Workload(b, conjunctions).matvec(h)


# --- the operator --------------------------------------------------------------------------------------

class Workload(LinearOperator):
    """k counting queries over X = {0, 1}^b as a k x 2^b linear operator: first the ``conjunctions``
    (attributes, values), then the ``ranges`` (:class:`BitRange`), in the order given.

    ``workload @ histogram`` (matvec) is the k counts, the conjunctions' by inclusion-exclusion over
    :func:`superset_sums`, the ranges' by prefix sums; ``workload.T @ y`` (rmatvec) is
    sum_j y_j q_j as a vector over X; :meth:`row` is query j as a 0/1 vector over X. No k x |X| matrix is
    formed: memory O(k + |X|)."""

    def __init__(self, n_attributes: int, conjunctions: Sequence[Conjunction] = (),
                 ranges: Sequence[BitRange | tuple[int, int, int, int]] = ()) -> None:
        b = _check_bits(n_attributes, "n_attributes")
        self.n_attributes = b
        self.conjunctions = tuple(_check_conjunction(c, b, i) for i, c in enumerate(conjunctions))
        self.ranges = tuple(_check_range(r, b, i) for i, r in enumerate(ranges))
        k = len(self.conjunctions) + len(self.ranges)
        if k == 0:
            raise ValueError("a workload needs at least one query, got no conjunctions and no ranges")
        # conjunctions grouped by attribute set: (attributes, query rows, cell index in the table)
        groups: dict[tuple[int, ...], list[tuple[int, int]]] = {}
        for j, (attrs, values) in enumerate(self.conjunctions):
            order = np.argsort(attrs)
            key = tuple(attrs[i] for i in order)
            cell = int("".join(str(values[i]) for i in order), 2)
            groups.setdefault(key, []).append((j, cell))
        self._groups = [(key, np.array([j for j, _ in m]), np.array([c for _, c in m]))
                        for key, m in groups.items()]
        # each conjunction as inclusion-exclusion over superset sums: count(x_a = v_a for a in S)
        # = sum over T within the 0-valued attributes of (-1)^|T| f(1-valued attributes + T)
        terms = [(j, mask, sign) for j, (attrs, values) in enumerate(self.conjunctions)
                 for mask, sign in _inclusion_exclusion(attrs, values, b)]
        self._term_rows = np.array([t[0] for t in terms], dtype=np.int64)
        self._term_masks = np.array([t[1] for t in terms], dtype=np.int64)
        self._term_signs = np.array([t[2] for t in terms], dtype=float)
        blocks: dict[tuple[int, int], list[int]] = {}
        offset = len(self.conjunctions)
        for j, r in enumerate(self.ranges):
            blocks.setdefault((r.first, r.width), []).append(offset + j)
        self._blocks = [(first, width, np.array(rows), np.array([self.ranges[j - offset].low for j in rows]),
                         np.array([self.ranges[j - offset].high for j in rows]))
                        for (first, width), rows in blocks.items()]
        super().__init__(dtype=np.dtype(float), shape=(k, 2**b))

    def _block_values(self, x: np.ndarray, first: int, width: int) -> np.ndarray:
        """The histogram summed onto the 2^width values of bits first .. first + width - 1."""
        return x.reshape(2**first, 2**width, -1).sum(axis=(0, 2))

    def _matvec(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=float).reshape(-1)
        out = np.empty(self.shape[0])
        if self.conjunctions:
            f = superset_sums(x)[self._term_masks] * self._term_signs
            out[: len(self.conjunctions)] = np.bincount(self._term_rows, weights=f,
                                                        minlength=len(self.conjunctions))
        for first, width, rows, low, high in self._blocks:
            prefix = np.concatenate([[0.0], np.cumsum(self._block_values(x, first, width))])
            out[rows] = prefix[high] - prefix[low]
        return out

    def _rmatvec(self, y: np.ndarray) -> np.ndarray:
        y = np.asarray(y, dtype=float).reshape(-1)
        b = self.n_attributes
        index = np.arange(2**b)
        out = np.zeros(2**b)
        for attrs, rows, cells in self._groups:
            table = np.zeros(2 ** len(attrs))
            np.add.at(table, cells, y[rows])
            code = np.zeros(2**b, dtype=np.int64)
            for a in attrs:
                code = 2 * code + ((index >> (b - 1 - a)) & 1)
            out += table[code]
        for first, width, rows, low, high in self._blocks:
            weights = np.zeros(2**width + 1)
            np.add.at(weights, low, y[rows])
            np.add.at(weights, high, -y[rows])
            out += np.cumsum(weights)[:-1][(index >> (b - first - width)) & (2**width - 1)]
        return out

    def _adjoint(self) -> LinearOperator:
        return LinearOperator(dtype=self.dtype, shape=(self.shape[1], self.shape[0]),
                              matvec=self._rmatvec, rmatvec=self._matvec)

    def row(self, j: int) -> np.ndarray:
        """Query j as a 0/1 float vector over X (its truth table), built from the record indices."""
        k = self.shape[0]
        if isinstance(j, bool) or not isinstance(j, (int, np.integer)) or not 0 <= j < k:
            raise ValueError(f"j must be a query index in [0, {k}), got j={j!r}")
        b, index = self.n_attributes, np.arange(2**self.n_attributes)
        if j < len(self.conjunctions):
            attrs, values = self.conjunctions[j]
            mask = np.ones(2**b, dtype=bool)
            for a, v in zip(attrs, values, strict=True):
                mask &= ((index >> (b - 1 - a)) & 1) == v
        else:
            r = self.ranges[j - len(self.conjunctions)]
            value = (index >> (b - r.first - r.width)) & (2**r.width - 1)
            mask = (value >= r.low) & (value < r.high)
        return mask.astype(float)

    def __repr__(self) -> str:
        return (f"Workload(n_attributes={self.n_attributes}, {len(self.conjunctions)} conjunctions, "
                f"{len(self.ranges)} ranges)")
