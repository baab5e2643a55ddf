"""Synthetic binary records of a stated design, for DualQuery where MWEM cannot go (|X| = 2^30).

SYNTHETIC, not survey data. The d = (number of blocks) x ``block_size`` attributes fall in blocks;
block b has a hidden coin Z_b ~ Bernoulli(pi_b), independent across blocks, and each attribute of
the block is Z_b flipped with probability ``flip`` (independently). So attributes of one block are
correlated, attributes of different blocks independent, and every conjunction has a closed-form
expected answer: the product over blocks of

    pi_b prod_{literals in b} P(literal | Z_b = 1) + (1 - pi_b) prod_{literals in b} P(literal | Z_b = 0),

with P(x_a = 1 | Z = 1) = 1 - flip and P(x_a = 1 | Z = 0) = flip (:func:`block_binary_answers`).
The default, six blocks of five with pi = (0.1, 0.2, 0.35, 0.5, 0.65, 0.8) and flip = 0.1, gives
d = 30 attributes, |X| = 2^30, 1-way marginals P(x_a = 1) = 0.1 + 0.8 pi_b.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from dplab._checks import check_positive_int, check_rng
from dplab.query_release.best_response import Conjunctions, as_conjunctions

__all__ = ["BLOCK_PROBABILITIES", "block_binary_answers", "block_binary_records"]

#: the default blocks' Pr[Z_b = 1]
BLOCK_PROBABILITIES = (0.1, 0.2, 0.35, 0.5, 0.65, 0.8)
_ROWS = 1 << 16  # records drawn at once


def _check_design(block_probabilities: Sequence[float], block_size: int,
                  flip: float) -> tuple[np.ndarray, int, float]:
    pi = np.asarray(block_probabilities, dtype=float).reshape(-1)
    if pi.size == 0 or np.any(~((pi >= 0) & (pi <= 1))):
        raise ValueError(f"block_probabilities must be probabilities in [0, 1], got {block_probabilities!r}")
    size = check_positive_int(block_size, "block_size")
    if not 0 <= flip <= 0.5:
        raise ValueError(f"flip must be in [0, 0.5], got flip={flip!r}")
    return pi, size, float(flip)


def block_binary_records(n: int, *, block_probabilities: Sequence[float] = BLOCK_PROBABILITIES,
                         block_size: int = 5, flip: float = 0.1,
                         rng: np.random.Generator | int | None = None) -> np.ndarray:
    """n synthetic records (n x d uint8, d = len(block_probabilities) x block_size) of the module's
    block design: attribute j of block b is Z_b XOR (a Bernoulli(flip) coin)."""
    n = check_positive_int(n, "n")
    pi, size, flip = _check_design(block_probabilities, block_size, flip)
    rng = check_rng(rng)
    out = np.empty((n, pi.size * size), dtype=np.uint8)
    for start in range(0, n, _ROWS):  # blocks of rows: no n x d float array
        m = min(_ROWS, n - start)
        z = rng.random((m, pi.size)) < pi  # hidden coins, one per block
        out[start:start + m] = np.repeat(z, size, axis=1) ^ (rng.random((m, pi.size * size)) < flip)
    return out


def block_binary_answers(queries: Conjunctions | Iterable, *,
                         block_probabilities: Sequence[float] = BLOCK_PROBABILITIES,
                         block_size: int = 5, flip: float = 0.1) -> np.ndarray:
    """The expected answer E q(x) of each conjunction under the block design (closed form in the
    module docstring): what :func:`block_binary_records`' answers estimate."""
    pi, size, flip = _check_design(block_probabilities, block_size, flip)
    conj = as_conjunctions(queries, pi.size * size)
    out = np.ones(conj.size)
    for i in range(conj.size):
        attributes, values = conj.terms(i)
        for b in np.unique(attributes // size):
            v = values[attributes // size == b]
            ones = int(v.sum())
            zeros = v.size - ones
            given_one = (1 - flip) ** ones * flip ** zeros
            given_zero = flip ** ones * (1 - flip) ** zeros
            out[i] *= pi[b] * given_one + (1 - pi[b]) * given_zero
    return out
