"""The accountant protocol: compose mechanisms, then ask what the whole run costs.

An accountant holds what ran (mechanism descriptions from ``dplab.mechanisms``, each with how
many times) and answers two questions about the composition: ``epsilon(delta)``, the smallest
epsilon it can certify at a target delta, and ``delta(epsilon)``, the smallest delta at a
target epsilon. Both targets are for the whole run, whatever each step's own delta. Each
accountant reads the representation its theorem needs (basic, advanced and optimal
composition: a step's (epsilon, delta); zCDP: its rho; RDP: its Renyi curve; PLD: its privacy
loss distribution) and refuses a mechanism without it by a TypeError that names both.
dp-accounting's ``PrivacyAccountant`` (``compose(event, count)``, ``get_epsilon``,
``get_delta``, ``supports``) is the model.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable

from dplab._checks import check_nonnegative, check_positive_int
from dplab.mechanisms.base import Mechanism

__all__ = ["Accountant", "epsilons"]

#: why an accounting of (epsilon, delta) steps refuses a mechanism without one pair (the Gaussian)
_NEEDS_A_PAIR = ("{} composition needs each step's one (epsilon, delta); a Gaussian's is a curve: "
                 "compose EpsilonDelta(epsilon, delta) for the pair you choose")


class Accountant:
    """The base of the accountants: ``compose`` records; subclasses answer ``epsilon(delta)``
    (and ``delta(epsilon)`` where they have it in closed form; else it is inverted here)."""

    #: the label of this accounting in tables and legends
    name = "accountant"

    def __init__(self) -> None:
        self._steps: dict[Mechanism, int] = {}

    def supports(self, mechanism: object) -> bool:
        """Whether this accountant can compose ``mechanism`` after the steps it holds (unlike
        dp-accounting's, it may depend on them: the optimal accountant takes identical steps only)."""
        raise NotImplementedError

    def _why_not(self, mechanism: Mechanism) -> str:
        """Why ``mechanism`` is refused, for the TypeError."""
        return "it lacks the representation this accounting needs"

    def compose(self, mechanism: Mechanism, k: int = 1) -> Accountant:
        """Record k runs of ``mechanism`` (a description from ``dplab.mechanisms``); returns self,
        so calls chain: ``PLDAccountant().compose(Laplace(1, 0.1), 1000).epsilon(1e-6)``."""
        k = check_positive_int(k, "k")
        if not isinstance(mechanism, Mechanism):
            raise TypeError(f"mechanism must be a mechanism description from dplab.mechanisms (Laplace, "
                            f"Gaussian, RandomizedResponse, EpsilonDelta), got mechanism={mechanism!r}")
        if not self.supports(mechanism):
            raise TypeError(f"{type(self).__name__} cannot compose {mechanism!r}: {self._why_not(mechanism)}")
        self._steps[mechanism] = self._steps.get(mechanism, 0) + k
        self._changed()
        return self

    def fresh(self) -> Accountant:
        """A new, empty accountant of the same kind and settings."""
        new = copy.copy(self)
        new._steps = {}
        new._changed()
        return new

    def _changed(self) -> None:
        """Called after each compose (a subclass drops what it cached)."""

    @property
    def steps(self) -> tuple[tuple[Mechanism, int], ...]:
        """What was composed: (mechanism, times), in the order first seen."""
        return tuple(self._steps.items())

    def epsilon(self, delta: float) -> float:
        """The smallest epsilon this accounting certifies for the whole run at ``delta`` (inf if none)."""
        raise NotImplementedError

    def delta(self, epsilon: float) -> float:
        """The smallest delta this accounting certifies for the whole run at ``epsilon`` (1 if none):
        here the smallest delta with epsilon(delta) <= ``epsilon``, by bisection on ln delta
        (epsilon(delta) decreases in delta and may be flat at 0, where a root finder could stop
        anywhere); subclasses with a closed form override it. Down to 1e-300 (0 below that)."""
        epsilon = check_nonnegative(epsilon, "epsilon")
        if not self._steps:
            return 0.0
        low, high = math.log(1e-300), math.log1p(-1e-12)
        if self.epsilon(math.exp(high)) > epsilon:
            return 1.0
        if self.epsilon(1e-300) <= epsilon:
            return 0.0
        for _ in range(100):  # ln delta to within 1e-12 relative: 690 / 2^100
            mid = (low + high) / 2
            low, high = (low, mid) if self.epsilon(math.exp(mid)) <= epsilon else (mid, high)
            if high - low < 1e-13:
                break
        return math.exp(high)

    def __repr__(self) -> str:
        steps = ", ".join(f"{m!r} x {k}" for m, k in self._steps.items())
        return f"{type(self).__name__}([{steps}])"


def epsilons(mechanism: Mechanism, k: int, delta: float,
             accountants: Iterable[Accountant]) -> dict[str, float]:
    """epsilon(delta) of k runs of ``mechanism`` by each of ``accountants`` (each used fresh, so
    the ones passed stay empty), keyed by the accountant's name: one row of a comparison table."""
    return {a.name: a.fresh().compose(mechanism, k).epsilon(delta) for a in accountants}
