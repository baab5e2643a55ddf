"""Parameter validation: one place, one message style, one argument order.

Every public function of dplab checks its parameters here first, so a student who
passes ``epsilon=0`` gets ``ValueError: epsilon must be finite and > 0, got
epsilon=0`` instead of a silent ``inf`` or ``nan`` further down. Every check takes
``(value, name)`` and returns the value converted (float, int or array).

Theory functions that draw a curve pass ``array_ok=True``: the check then also
accepts a non-empty array of real numbers (a grid of epsilons, of k, ...), checks
every entry, names the first bad one with its index, and returns a float (or int)
array. Everywhere else an array is refused with the parameter's name.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from enum import StrEnum

import numpy as np

__all__ = [
    "Neighbours",
    "as_result",
    "check_alpha",
    "check_beta",
    "check_bounds",
    "check_branching",
    "check_choice",
    "check_delta",
    "check_epsilon",
    "check_neighbours",
    "check_nonnegative",
    "check_positive",
    "check_positive_int",
    "check_prior",
    "check_probability",
    "check_renyi_order",
    "check_rho",
    "check_rng",
    "check_sensitivity",
]

class Neighbours(StrEnum):
    """The neighbour relations (notebooks/00_glossary.md, "Neighbour relations"): D and D' differ by
    adding or removing one row (the default everywhere: unbounded DP), or by replacing one row
    (bounded DP, n public).
    A member equals its string, so ``"replace"`` is accepted wherever ``Neighbours.REPLACE`` is."""

    ADD_REMOVE = "add_remove"
    REPLACE = "replace"


def _is_array(value: object) -> bool:
    return isinstance(value, (np.ndarray, list, tuple)) and np.ndim(value) > 0


def _real_array(value: object, name: str, kind: str) -> np.ndarray:
    """A non-empty array of real numbers (no bools, strings, None or complex), else TypeError."""
    x = np.asarray(value)
    if x.size == 0 or x.dtype == bool or not (np.issubdtype(x.dtype, np.integer)
                                              or np.issubdtype(x.dtype, np.floating)):
        raise TypeError(f"{name} must be {kind} or a non-empty array of them, got {name}={value!r}")
    return x


def _as_real(value: object, name: str) -> float:
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {name}={value!r}")
    return float(value)


def _check_real(value: object, name: str, ok: Callable, requirement: str, array_ok: bool):
    """Scalar: return a float if ``ok``; array (with ``array_ok``): a float array if ``ok`` holds
    everywhere. Otherwise raise ``ValueError("<name> must be <requirement>, got <name>=<value>")``."""
    if array_ok and _is_array(value):
        x = _real_array(value, name, "a real number").astype(float)
        with np.errstate(invalid="ignore"):
            bad = np.flatnonzero(~ok(x))
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"{name} must be {requirement}, got {name}={x.flat[i].item()!r} at index {i}")
        return x
    x = _as_real(value, name)
    if not ok(x):
        raise ValueError(f"{name} must be {requirement}, got {name}={value!r}")
    return x


def check_positive(value: object, name: str, *, array_ok: bool = False) -> float | np.ndarray:
    """``value`` as a float if it is finite and > 0, else raise naming ``name``."""
    return _check_real(value, name, lambda x: np.isfinite(x) & (x > 0), "finite and > 0", array_ok)


def check_nonnegative(value: object, name: str, *, array_ok: bool = False) -> float | np.ndarray:
    """``value`` as a float if it is finite and >= 0 (a threshold, a count), else raise."""
    return _check_real(value, name, lambda x: np.isfinite(x) & (x >= 0), "finite and >= 0", array_ok)


def check_epsilon(epsilon: object, name: str = "epsilon", *, array_ok: bool = False) -> float | np.ndarray:
    """epsilon must be finite and > 0."""
    return check_positive(epsilon, name, array_ok=array_ok)


def check_sensitivity(
    sensitivity: object, name: str = "sensitivity", *, array_ok: bool = False
) -> float | np.ndarray:
    """A sensitivity must be finite and > 0 (a query with sensitivity 0 needs no noise)."""
    return check_positive(sensitivity, name, array_ok=array_ok)


def check_rho(rho: object, name: str = "rho", *, array_ok: bool = False) -> float | np.ndarray:
    """A zCDP parameter rho must be finite and > 0."""
    return check_positive(rho, name, array_ok=array_ok)


def check_delta(
    delta: object, name: str = "delta", *, allow_zero: bool = True, array_ok: bool = False
) -> float | np.ndarray:
    """delta must lie in [0, 1), or in (0, 1) when ``allow_zero`` is False."""
    if allow_zero:
        return _check_real(delta, name, lambda x: (x >= 0) & (x < 1), "in [0, 1)", array_ok)
    return _check_real(delta, name, lambda x: (x > 0) & (x < 1), "in (0, 1)", array_ok)


def check_beta(beta: object, name: str = "beta", *, array_ok: bool = False) -> float | np.ndarray:
    """A failure probability beta must lie in (0, 1)."""
    return _check_real(beta, name, lambda x: (x > 0) & (x < 1), "in (0, 1)", array_ok)


def check_probability(p: object, name: str = "p", *, array_ok: bool = False) -> float | np.ndarray:
    """A probability that may be 1 but not 0, such as a sampling rate: p in (0, 1]."""
    return _check_real(p, name, lambda x: (x > 0) & (x <= 1), "a probability in (0, 1]", array_ok)


def check_alpha(alpha: object) -> np.ndarray:
    """A type I error rate or an array of them: alpha in [0, 1] (returned as a float array)."""
    a = np.asarray(alpha, dtype=float)
    if a.size == 0 or np.any(~((a >= 0) & (a <= 1))):
        bad = a[~((a >= 0) & (a <= 1))].ravel()
        raise ValueError(f"alpha must lie in [0, 1], got alpha={float(bad[0]) if bad.size else alpha!r}")
    return a


def check_bounds(low: object, high: object) -> tuple[float, float]:
    """A clipping interval [low, high]: finite, low < high."""
    if not (np.isfinite(low) and np.isfinite(high) and low < high):
        raise ValueError(f"low and high must be finite with low < high, got low={low!r}, high={high!r}")
    return float(low), float(high)


def check_renyi_order(alpha: object, name: str = "alpha", *, array_ok: bool = True) -> float | np.ndarray:
    """A Renyi order alpha must be finite and > 1 (a grid of orders is accepted)."""
    return _check_real(alpha, name, lambda x: np.isfinite(x) & (x > 1), "finite and > 1", array_ok)


def check_prior(p: object, name: str = "prior", *, array_ok: bool = False) -> float | np.ndarray:
    """A prior belief, or any probability that may be neither 0 nor 1: p in (0, 1)."""
    return _check_real(p, name, lambda x: (x > 0) & (x < 1), "in (0, 1)", array_ok)


def check_positive_int(value: object, name: str, *, array_ok: bool = False) -> int | np.ndarray:
    """A count such as the number of queries k must be an integer >= 1 (2.0 is accepted as 2).

    A number that is not a whole number is a TypeError, a whole number < 1 a ValueError;
    with ``array_ok`` an array of counts is checked entry by entry (an int array back).
    """
    if array_ok and _is_array(value):
        x = _real_array(value, name, "a positive integer")
        with np.errstate(invalid="ignore"):
            whole = np.isfinite(x) & (np.mod(x, 1) == 0)
        for error, bad in ((TypeError, ~whole), (ValueError, x < 1)):
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                raise error(f"{name} must be a positive integer, got {name}={x.flat[i].item()!r} "
                            f"at index {i}")
        return x.astype(np.int64)
    return _whole(value, name, low=1, requirement="a positive integer")


def _whole(value: object, name: str, low: int, requirement: str) -> int:
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and not isinstance(value, bool) and float(value).is_integer():
            value = int(value)
        else:
            raise TypeError(f"{name} must be {requirement}, got {name}={value!r}")
    if value < low:
        raise ValueError(f"{name} must be {requirement}, got {name}={value!r}")
    return int(value)


def check_branching(branching: object, name: str = "branching") -> int:
    """A tree's branching factor must be an integer >= 2 (2.0 is accepted as 2)."""
    return _whole(branching, name, low=2, requirement="an integer >= 2")


def check_choice(value: object, options: Sequence, name: str):
    """``value`` must be one of ``options`` (a method name, a variant, ...)."""
    if value not in options:
        raise ValueError(f"{name} must be one of {tuple(options)}, got {name}={value!r}")
    return value


def check_neighbours(neighbours: object, name: str = "neighbours") -> Neighbours:
    """neighbours must be a :class:`Neighbours` or its string, "add_remove" or "replace"."""
    if isinstance(neighbours, str) and neighbours in tuple(Neighbours):
        return Neighbours(neighbours)
    raise ValueError(f"{name} must be one of {tuple(n.value for n in Neighbours)}, got {name}={neighbours!r}")


def check_rng(rng: object, name: str = "rng") -> np.random.Generator:
    """Turn ``rng`` (a Generator, an int seed or None) into a Generator; never global state."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or (isinstance(rng, numbers.Integral) and not isinstance(rng, bool)):
        if rng is not None and rng < 0:
            raise ValueError(f"{name} must be a seed >= 0, got {name}={rng!r}")
        return np.random.default_rng(rng)
    raise TypeError(f"{name} must be a numpy.random.Generator, an int seed or None, got {name}={rng!r}")


def as_result(value: np.ndarray | float) -> np.ndarray | float:
    """A 0-d result as a Python float, anything else unchanged (theory over grids)."""
    arr = np.asarray(value)
    return float(arr) if arr.ndim == 0 else arr
