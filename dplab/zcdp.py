"""Zero-concentrated differential privacy (zCDP): rho and its conversions.

rho-zCDP composes by adding rho; it converts to (epsilon, delta)-DP at the end.
Notebook 1 calibrates a Gaussian through it; notebook 6 adds the tighter
Canonne-Kamath-Steinke conversion and the zCDP filter.
"""

from __future__ import annotations

import math

from dplab._checks import check_delta, check_epsilon, check_rho

__all__ = ["approx_dp_to_zcdp", "zcdp_to_approx_dp"]


def zcdp_to_approx_dp(rho: float, delta: float) -> float:
    """epsilon = rho + 2 sqrt(rho ln(1/delta)): rho-zCDP implies (epsilon, delta)-DP.

    Bun & Steinke 2016, Proposition 1.3 (the simple conversion).
    """
    rho = check_rho(rho)
    delta = check_delta(delta, allow_zero=False)
    return rho + 2 * math.sqrt(rho * math.log(1 / delta))


def approx_dp_to_zcdp(epsilon: float, delta: float) -> float:
    """The largest rho whose simple conversion gives at most (epsilon, delta).

    Inverts :func:`zcdp_to_approx_dp`: with L = ln(1/delta),
    rho + 2 sqrt(rho L) = epsilon  <=>  sqrt(rho) = sqrt(L + epsilon) - sqrt(L).
    """
    epsilon = check_epsilon(epsilon)
    log_inv = math.log(1 / check_delta(delta, allow_zero=False))
    # sqrt(L + eps) - sqrt(L), written without cancellation
    root = epsilon / (math.sqrt(log_inv + epsilon) + math.sqrt(log_inv))
    return root**2
