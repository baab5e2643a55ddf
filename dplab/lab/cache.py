"""One cache for the lab: lesson results computed once and handed out read-only.

A lesson caches its simulations (``functools.lru_cache``), so every caller gets the same
object back. If that object is a writeable array, one careless ``x -= x.mean()`` in a
notebook changes every later cell and panel that asks for it. :func:`cached` caches like
``lru_cache`` and freezes the result first: numpy arrays become read-only (also inside
tuples, lists, dicts and dataclasses), lists become tuples and dicts read-only mappings,
so writing into a cached result raises instead of corrupting it.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from functools import lru_cache, wraps
from types import MappingProxyType
from typing import Any, TypeVar

import numpy as np

__all__ = ["CACHED", "cached", "freeze"]

F = TypeVar("F", bound=Callable[..., Any])

#: every function wrapped by :func:`cached`, by qualified name (a test writes into their results)
CACHED: dict[str, Callable] = {}


def freeze(value: Any) -> Any:
    """``value`` with every numpy array in it made read-only (in place), lists turned into
    tuples and dicts into read-only mappings, recursively; dataclass fields are frozen in
    place. Anything else is returned as it is."""
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
        return value
    if isinstance(value, (list, tuple)):
        items = tuple(freeze(v) for v in value)
        if isinstance(value, tuple) and hasattr(value, "_fields"):  # a NamedTuple keeps its type
            return type(value)(*items)
        return items
    if isinstance(value, (dict, MappingProxyType)):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            inner = getattr(value, field.name)
            frozen = freeze(inner)
            if frozen is not inner:
                object.__setattr__(value, field.name, frozen)
        return value
    return value


def cached(maxsize: int | None = 128) -> Callable[[F], F]:
    """``functools.lru_cache(maxsize)`` whose results are frozen by :func:`freeze` once, when
    they enter the cache: every caller gets the same read-only object. Arguments are bound to
    the signature (defaults filled in) before the lookup, so ``f(1, repeat=2)`` and ``f(1, 0.5, 2)``
    with the same values share one entry (``lru_cache`` alone keys them apart and computes twice)."""

    def decorate(function: F) -> F:
        signature = inspect.signature(function)

        @lru_cache(maxsize=maxsize)
        def frozen(*args, **kwargs):
            return freeze(function(*args, **kwargs))

        @wraps(function)
        def wrapper(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            return frozen(*bound.args, **bound.kwargs)

        wrapper.cache_clear = frozen.cache_clear  # type: ignore[attr-defined]
        wrapper.cache_info = frozen.cache_info  # type: ignore[attr-defined]
        CACHED[f"{function.__module__}.{function.__qualname__}"] = wrapper
        return wrapper  # type: ignore[return-value]

    return decorate
