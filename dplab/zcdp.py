"""Zero-concentrated differential privacy (zCDP): rho and its conversions.

rho-zCDP composes by adding rho; it converts to (epsilon, delta)-DP at the end.
Notebook 1 calibrates a Gaussian through it; notebook 6 adds the tighter
Canonne-Kamath-Steinke conversion and the zCDP filter.
"""

from __future__ import annotations

import math

from scipy import optimize

from dplab._checks import check_choice, check_delta, check_epsilon, check_rho

__all__ = ["approx_dp_to_zcdp", "pure_to_zcdp", "zcdp_to_approx_dp"]


def pure_to_zcdp(epsilon: float) -> float:
    """rho = epsilon^2 / 2: an epsilon-DP mechanism is rho-zCDP.

    Bun & Steinke 2016, Proposition 1.4. k such mechanisms are (k epsilon^2 / 2)-zCDP.
    """
    return check_epsilon(epsilon) ** 2 / 2


def zcdp_to_approx_dp(rho: float, delta: float, *, method: str = "simple") -> float:
    """An epsilon such that rho-zCDP implies (epsilon, delta)-DP.

    ``method="simple"``: epsilon = rho + 2 sqrt(rho ln(1/delta)) (Bun & Steinke 2016,
    Proposition 1.3). ``method="cks"``: the tighter conversion of Canonne, Kamath & Steinke
    2020, Proposition 12 / Corollary 13, see :func:`_cks_epsilon`; never above "simple".
    """
    rho = check_rho(rho)
    delta = check_delta(delta, allow_zero=False)
    check_choice(method, ("simple", "cks"), "method")
    if method == "cks":
        return _cks_epsilon(rho, math.log(1 / delta))
    return rho + 2 * math.sqrt(rho * math.log(1 / delta))


def _cks_epsilon(rho: float, log_inv: float) -> float:
    """inf over alpha > 1 of eps(alpha) = alpha rho + (L + (alpha - 1) ln(1 - 1/alpha) - ln alpha)
    / (alpha - 1), L = ln(1/delta): CKS 2020, Proposition 12, solved for epsilon.

    With x = alpha - 1, eps'(alpha) = rho - (L - ln alpha) / x^2, so the minimum is the one root
    of rho x^2 + ln(1 + x) = L (increasing in x), in (0, sqrt(L / rho)]. The simple
    conversion is rho alpha + L / x at x = sqrt(L / rho); eps(alpha) adds the negative
    ln(1 - 1/alpha) - ln(alpha) / x, so CKS <= simple. A negative minimum means
    (0, delta)-DP already: 0 is returned.
    """
    top = math.sqrt(log_inv / rho)
    x = optimize.brentq(lambda x: rho * x * x + math.log1p(x) - log_inv, 0.0, top,
                        xtol=1e-15, rtol=4 * 2.0**-52)
    # alpha rho + L / x + ln(1 - 1/alpha) - ln(alpha) / x with alpha = 1 + x
    eps = rho * (1 + x) + log_inv / x + math.log(x) - math.log1p(x) - math.log1p(x) / x
    return max(0.0, eps)


def approx_dp_to_zcdp(epsilon: float, delta: float) -> float:
    """The largest rho whose simple conversion gives at most (epsilon, delta).

    Inverts :func:`zcdp_to_approx_dp` (``method="simple"``): with L = ln(1/delta),
    rho + 2 sqrt(rho L) = epsilon  <=>  sqrt(rho) = sqrt(L + epsilon) - sqrt(L).
    """
    epsilon = check_epsilon(epsilon)
    log_inv = math.log(1 / check_delta(delta, allow_zero=False))
    # sqrt(L + eps) - sqrt(L), written without cancellation
    root = epsilon / (math.sqrt(log_inv + epsilon) + math.sqrt(log_inv))
    return root**2
