"""Parameter validation: one place, one message style.

Every public function of dplab checks its privacy parameters here first, so a
student who passes ``epsilon=0`` gets ``ValueError: epsilon must be finite and
> 0, got epsilon=0`` instead of a silent ``inf`` or ``nan`` further down.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = [
    "check_beta",
    "check_delta",
    "check_epsilon",
    "check_positive",
    "check_positive_int",
    "check_rho",
    "check_rng",
    "check_sensitivity",
]


def _as_real(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {name}={value!r}")
    return float(value)


def check_positive(name: str, value: object) -> float:
    """Return ``value`` as a float if it is finite and > 0, else raise naming ``name``."""
    x = _as_real(name, value)
    if not (math.isfinite(x) and x > 0):
        raise ValueError(f"{name} must be finite and > 0, got {name}={value!r}")
    return x


def check_epsilon(epsilon: object, name: str = "epsilon") -> float:
    """epsilon must be finite and > 0."""
    return check_positive(name, epsilon)


def check_sensitivity(sensitivity: object, name: str = "sensitivity") -> float:
    """A sensitivity must be finite and > 0 (a query with sensitivity 0 needs no noise)."""
    return check_positive(name, sensitivity)


def check_rho(rho: object, name: str = "rho") -> float:
    """A zCDP parameter rho must be finite and > 0."""
    return check_positive(name, rho)


def check_delta(delta: object, name: str = "delta", *, allow_zero: bool = True) -> float:
    """delta must lie in [0, 1), or in (0, 1) when ``allow_zero`` is False."""
    x = _as_real(name, delta)
    low_ok = x >= 0 if allow_zero else x > 0
    if not (math.isfinite(x) and low_ok and x < 1):
        interval = "[0, 1)" if allow_zero else "(0, 1)"
        raise ValueError(f"{name} must be in {interval}, got {name}={delta!r}")
    return x


def check_beta(beta: object, name: str = "beta") -> float:
    """A failure probability beta must lie in (0, 1)."""
    x = _as_real(name, beta)
    if not (math.isfinite(x) and 0 < x < 1):
        raise ValueError(f"{name} must be in (0, 1), got {name}={beta!r}")
    return x


def check_positive_int(value: object, name: str = "k") -> int:
    """A count such as the number of queries k must be an integer >= 1."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and float(value).is_integer():
            value = int(value)
        else:
            raise TypeError(f"{name} must be a positive integer, got {name}={value!r}")
    if value < 1:
        raise ValueError(f"{name} must be a positive integer, got {name}={value!r}")
    return int(value)


def check_rng(rng: object) -> np.random.Generator:
    """Turn ``rng`` (a Generator, an int seed or None) into a Generator; never global state."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or (isinstance(rng, numbers.Integral) and not isinstance(rng, bool)):
        return np.random.default_rng(rng)
    raise TypeError(f"rng must be a numpy.random.Generator, an int seed or None, got rng={rng!r}")
