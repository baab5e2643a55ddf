"""The lab's one cache hands out read-only results: writing into a cached lesson result raises."""

from __future__ import annotations

import dataclasses
import inspect
from typing import NamedTuple

import numpy as np
import pytest

from dplab.lab.cache import CACHED, cached, freeze
from dplab.lab.registry import lesson_reports, lesson_views
from dplab.lab.sources import module_files


class _Pair(NamedTuple):
    a: np.ndarray
    b: list


@dataclasses.dataclass(frozen=True)
class _Result:
    values: np.ndarray
    table: dict


def _writes_fail(value) -> int:
    """Try to write into every array of ``value``; return how many refused (ValueError)."""
    refused = 0
    if isinstance(value, np.ndarray):
        with pytest.raises(ValueError, match="read-only"):
            value.flat[0] = 99
        return 1
    if isinstance(value, tuple):
        return sum(_writes_fail(v) for v in value)
    if hasattr(value, "items"):
        with pytest.raises(TypeError):
            value["new"] = 1  # a read-only mapping
        return sum(_writes_fail(v) for v in value.values())
    if dataclasses.is_dataclass(value):
        return sum(_writes_fail(getattr(value, f.name)) for f in dataclasses.fields(value))
    assert not isinstance(value, (list, dict, set)), f"a mutable {type(value).__name__} in a cached result"
    return refused


def test_freeze_reaches_inside_containers_and_dataclasses():
    """catches: a cache that freezes the top-level array only (lesson 8's bayes_attack returned a
    tuple whose arrays stayed writeable)."""
    value = freeze((np.zeros(3), [np.ones(2), {"x": np.arange(4)}], _Pair(np.zeros(2), [np.ones(1)]),
                    _Result(np.zeros(2), {"y": np.ones(3)})))
    assert _writes_fail(value) == 7
    assert isinstance(value[2], _Pair) and isinstance(value[2].b, tuple)


def test_cached_computes_once_and_shares_one_read_only_result():
    calls = []

    @cached(maxsize=4)
    def draw(seed: int = 0) -> np.ndarray:
        calls.append(seed)
        return np.random.default_rng(seed).random(5)

    a = draw(1)
    assert draw(1) is a and calls == [1]
    with pytest.raises(ValueError, match="read-only"):
        a -= a.mean()
    assert f"{__name__}.test_cached_computes_once_and_shares_one_read_only_result.<locals>.draw" in CACHED


def test_no_lesson_caches_with_lru_cache():
    """catches: a lesson cache that hands out writeable arrays again (lru_cache instead of cached)."""
    offenders = [name for name, path in module_files().items()
                 if name.startswith("dplab.lab.lessons.") and "lru_cache" in path.read_text(encoding="utf-8")]
    assert not offenders


def test_the_demonstrated_corruptions_are_refused():
    """The architecture review's two demonstrations: a = heights(); a[:] = 0 made lesson 9's
    median 0.0, and bayes_attack(...)[1][:] = 99 leaked into later calls."""
    from dplab.lab.lessons.l08_what_epsilon_promises import report as l08
    from dplab.lab.lessons.l09_data_dependent_noise import report as l09

    with pytest.raises(ValueError, match="read-only"):
        l09.heights()[:] = 0
    with pytest.raises(ValueError, match="read-only"):
        l08.bayes_attack(1.0, 0.1, draws=1000)[1][:] = 99


@pytest.mark.slow
def test_every_cached_lesson_result_callable_without_arguments_is_read_only():
    """Every cached lesson function that needs no argument: each array in its result refuses a write."""
    lesson_reports(), lesson_views()  # import every lesson, so each cached function is registered
    checked = 0
    for name, function in sorted(CACHED.items()):
        if not name.startswith("dplab.lab.lessons."):
            continue
        params = inspect.signature(function).parameters.values()
        if all(p.default is not p.empty for p in params):
            _writes_fail(function())
            checked += 1
    assert checked >= 8


def test_positional_and_keyword_calls_share_one_entry():
    """catches: lru_cache keying f(1, repeat=2) and f(1, 0.5, 2) apart, so a figure that names its
    arguments re-runs the simulations a table ran positionally (notebook 6's experiment ran 21 twice)."""
    calls = []

    @cached(maxsize=8)
    def run(epsilon, delta=0.5, repeat=0):
        calls.append((epsilon, delta, repeat))
        return np.array([epsilon, delta, repeat])

    first = run(1.0, 0.5, 2)
    assert run(1.0, repeat=2) is first and run(epsilon=1.0, delta=0.5, repeat=2) is first
    assert run(1.0) is not first
    assert calls == [(1.0, 0.5, 2), (1.0, 0.5, 0)]
