"""One calibration routine: the parameter at which a monotone quantity meets a target.

"Which sigma gives delta = 1e-6?", "which per-step epsilon spends a total of 1?", "which rho
converts to epsilon = 1?": each is the root of f(x) = target for an f that is monotone on a
bracket. :func:`calibrate` finds it by Brent's method (``scipy.optimize.brentq``, Brent 1973),
after growing the bracket where the caller allows it, as dp-accounting's
``mechanism_calibration`` does. Every library and lesson call site uses it, so a student reads
one routine, not seven variations on brentq.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from scipy import optimize

__all__ = ["calibrate"]

_GROW = ("high", "low", "both")
_MAX_DOUBLINGS = 2000


def calibrate(
    f: Callable[[float], float],
    target: float,
    low: float,
    high: float,
    *,
    grow: str | None = None,
    increasing: bool | None = None,
    log: bool = False,
    xtol: float = 2e-12,
    rtol: float = 8.9e-16,
) -> float:
    """The x with f(x) = ``target``, for f continuous and monotone (either way) where it is searched.

    Starts from the bracket [``low``, ``high``]. If f - target has the same sign at both ends,
    ``grow`` says which end may move: ``"high"`` doubles ``high``, ``"low"`` halves ``low``
    (both stay positive), ``"both"`` moves the end beyond which the root lies, which needs
    the direction of f (``increasing``); ``None`` refuses. ``log=True`` runs Brent's method on
    ln x (a scale parameter such as sigma; ``low`` > 0), where ``xtol`` applies to ln x.
    Raises ValueError naming the target when no bracket is found.
    """
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise ValueError(f"low and high must be finite with low < high, got low={low!r}, high={high!r}")
    if grow is not None and grow not in _GROW:
        raise ValueError(f"grow must be one of {_GROW} or None, got grow={grow!r}")
    if grow == "both" and increasing is None:
        raise ValueError("grow='both' needs increasing=True or False (the direction of f)")
    if (log or grow in ("low", "both")) and low <= 0:
        raise ValueError(f"low must be > 0 to search on a log scale or to halve it, got low={low!r}")

    def g(x: float) -> float:
        return f(x) - target

    g_low, g_high = g(low), g(high)
    for _ in range(_MAX_DOUBLINGS):
        if g_low == 0:
            return low
        if g_high == 0:
            return high
        if (g_low < 0) != (g_high < 0):
            break
        side = grow if grow != "both" else ("high" if (g_high < 0) == increasing else "low")
        if side == "high":
            low, g_low, high = high, g_high, 2 * high
            g_high = g(high)
        elif side == "low":
            high, g_high, low = low, g_low, low / 2
            g_low = g(low)
        else:
            raise ValueError(f"f does not reach target={target!r} on [{low!r}, {high!r}] "
                             f"(f = {g_low + target!r} and {g_high + target!r} there)")
    else:
        raise ValueError(f"f does not reach target={target!r}: no bracket found up to [{low!r}, {high!r}]")
    if log:
        root = optimize.brentq(lambda u: g(math.exp(u)), math.log(low), math.log(high), xtol=xtol, rtol=rtol)
        return math.exp(root)
    return optimize.brentq(g, low, high, xtol=xtol, rtol=rtol)
