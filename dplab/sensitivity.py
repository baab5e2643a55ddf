"""Global sensitivity and stability by brute force over every small table.

Instead of typing "f2 has sensitivity 2", a student lists the possible row types
(the ``universe``) and lets dplab try every table of at most ``max_rows`` rows and
every neighbour of it. This gives the true global value over those tables, and on
small universes it is exactly the quantity of the definition ([Duke18],
"Generalized Sensitivity": S(f) = max over neighbours ||f(D) - f(D')||_1).

A table is a ``dict[str, numpy.ndarray]``; a row of the universe is a dict of scalars.
Neighbours: ``"add_remove"`` (add or remove one row, the default) or ``"replace"``
(change one row into another of the universe).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence

import numpy as np

from dplab._checks import check_bounds, check_neighbours, check_positive_int

__all__ = [
    "clipped_mean_sensitivity",
    "histogram_sensitivity",
    "l1_sensitivity",
    "neighbouring_tables",
    "stability",
]

Row = Mapping[str, object]
Table = dict[str, np.ndarray]


def clipped_mean_sensitivity(low: float, high: float, n: int) -> float:
    """(high - low) / n: the L1 sensitivity of the mean of n values clipped to [low, high],
    with n public and the bounds chosen without looking at the data (replace-one
    neighbours: one value moves by at most high - low). Under add/remove the count n
    itself changes and would have to be released too (notebooks/00_glossary.md, "Neighbour relations")."""
    low, high = check_bounds(low, high)
    return (high - low) / check_positive_int(n, "n")


def histogram_sensitivity(neighbours: str = "add_remove") -> float:
    """L1 sensitivity of a histogram of disjoint cells: 1 under add/remove (one cell
    changes by one), 2 under replace-one (one cell loses a row, another gains it).
    [Hu], parallel composition; :func:`l1_sensitivity` derives both by brute force."""
    return 1.0 if check_neighbours(neighbours) == "add_remove" else 2.0


def _check_universe(universe: Sequence[Row]) -> list[str]:
    if len(universe) == 0:
        raise ValueError("universe must list at least one row type, got an empty universe")
    columns = list(universe[0])
    for i, row in enumerate(universe):
        if list(row) != columns:
            raise ValueError(f"universe rows must have the same columns {columns}, "
                             f"got universe[{i}] with {list(row)}")
    return columns


def _table(universe: Sequence[Row], columns: list[str], counts: tuple[int, ...]) -> Table:
    rows = [universe[i] for i, c in enumerate(counts) for _ in range(c)]
    return {col: np.array([row[col] for row in rows]) for col in columns}


def neighbouring_tables(
    universe: Sequence[Row], max_rows: int, neighbours: str = "add_remove"
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every neighbouring pair of tables of at most ``max_rows`` rows, as count vectors
    over the universe (each unordered pair once)."""
    check_neighbours(neighbours)
    max_rows = check_positive_int(max_rows, "max_rows")
    u = len(universe)
    for size in range(max_rows + 1):
        for combo in itertools.combinations_with_replacement(range(u), size):
            counts = [0] * u
            for i in combo:
                counts[i] += 1
            base = tuple(counts)
            if neighbours == "add_remove":
                if size < max_rows:
                    for i in range(u):
                        yield base, base[:i] + (base[i] + 1,) + base[i + 1:]
            else:
                for i, j in itertools.combinations(range(u), 2):
                    if base[i] > 0:  # move one row from type i to type j (and back: same pair)
                        moved = list(base)
                        moved[i] -= 1
                        moved[j] += 1
                        yield base, tuple(moved)


def l1_sensitivity(
    query: Callable[[Table], object],
    universe: Sequence[Row],
    max_rows: int,
    neighbours: str = "add_remove",
) -> float:
    """max ||query(D) - query(D')||_1 over neighbouring tables of at most ``max_rows`` rows.

    Brute force: the query is evaluated once on every table (C(|universe| + max_rows,
    max_rows) of them) and compared across every neighbouring pair.
    """
    columns = _check_universe(universe)
    cache: dict[tuple[int, ...], np.ndarray] = {}

    def answer(counts: tuple[int, ...]) -> np.ndarray:
        if counts not in cache:
            cache[counts] = np.atleast_1d(np.asarray(query(_table(universe, columns, counts)), float))
        return cache[counts]

    return max(
        float(np.sum(np.abs(answer(a) - answer(b))))
        for a, b in neighbouring_tables(universe, max_rows, neighbours)
    )


def stability(
    transform: Callable[[Table], Table],
    universe: Sequence[Row],
    max_rows: int,
    neighbours: str = "add_remove",
) -> int:
    """max |V(D) symmetric-difference V(D')| over neighbouring tables (rows as multisets).

    The stability of the transformation V ([Duke18]): how many rows of V(D) can change
    when one row of D changes. Under replace-one, a replaced row counts as one change.
    """
    columns = _check_universe(universe)

    def rows(counts: tuple[int, ...]) -> Counter:
        out = transform(_table(universe, columns, counts))
        names = list(out)
        n = len(out[names[0]]) if names else 0
        return Counter(tuple(out[c][i].item() for c in names) for i in range(n))

    worst = 0
    for a, b in neighbouring_tables(universe, max_rows, neighbours):
        ra, rb = rows(a), rows(b)
        removed, added = sum((ra - rb).values()), sum((rb - ra).values())
        # replace-one counts a changed row once: pair removals with additions
        changes = max(removed, added) if neighbours == "replace" else removed + added
        worst = max(worst, changes)
    return worst
