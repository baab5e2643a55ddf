"""What every mechanism description knows about itself, and what it may leave out.

A mechanism is a frozen description (``Laplace(sensitivity=1, epsilon=0.5)``): it samples its
release and states its privacy in every representation an accountant may need, all in its
own module. This base class gives the defaults for the representations a mechanism does not
have: ``epsilon_delta()`` is None when its guarantee is a curve rather than one
(epsilon, delta) pair (the Gaussian), ``zcdp_rho()`` when it is not rho-zCDP, ``rdp(alpha)``
when its Renyi curve is not known. ``epsilon_at(delta)`` inverts the privacy profile
``delta(epsilon)`` for every mechanism that has one.

An accountant (``dplab.accounting``) asks for the representation it composes (basic,
advanced and optimal composition: ``epsilon_delta``; zCDP: ``zcdp_rho``; PLD: ``pld``) and
refuses a mechanism that lacks it. The model is dp-accounting's split of what ran
(``DpEvent``) from what it cost (``PrivacyAccountant``).
"""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np
from numpy.typing import ArrayLike

from dplab._calibrate import calibrate
from dplab._checks import check_delta

__all__ = ["Mechanism"]


class Mechanism:
    """The base of the mechanism descriptions (frozen dataclasses in their own modules)."""

    #: the orders of the neighbouring pair whose PLDs differ, each built by ``pld(direction=...)``
    #: and composed apart by a PLD accountant; () for a symmetric pair (one PLD serves both orders)
    pld_directions: ClassVar[tuple[str, ...]] = ()

    def delta(self, epsilon: ArrayLike) -> float | np.ndarray:
        """The privacy profile: the smallest delta with (epsilon, delta)-DP, for each epsilon >= 0."""
        raise NotImplementedError(f"{type(self).__name__} has no privacy profile")

    def epsilon_at(self, delta: float) -> float:
        """The smallest epsilon >= 0 with delta(epsilon) <= ``delta``: the profile inverted by
        :func:`dplab.accounting.calibrate` (delta(epsilon) decreases in epsilon); inf when
        ``delta`` is below the step's own delta (no epsilon reaches it)."""
        delta = check_delta(delta, allow_zero=False)
        if float(self.delta(0.0)) <= delta:
            return 0.0
        pair = self.epsilon_delta()
        if pair is not None and pair[1] > delta:
            return math.inf
        top = pair[0] if pair is not None and pair[1] <= delta else None  # delta(top) <= delta: a bracket
        return calibrate(lambda e: math.log(max(float(self.delta(e)), 1e-300)), math.log(delta),
                         0.0, top or 1.0, grow=None if top else "high")

    def epsilon_delta(self) -> tuple[float, float] | None:
        """The one (epsilon, delta) this mechanism is built to satisfy, or None."""
        return None

    def zcdp_rho(self) -> float | None:
        """The rho of rho-zCDP, or None where the mechanism is not rho-zCDP."""
        return None

    def rdp(self, alpha: ArrayLike) -> float | np.ndarray | None:
        """The Renyi divergence of order alpha > 1 of the worst neighbouring pair, or None."""
        return None
