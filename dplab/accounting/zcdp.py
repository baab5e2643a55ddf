"""Zero-concentrated differential privacy (zCDP): rho and its conversions.

rho-zCDP composes by adding rho; it converts to (epsilon, delta)-DP at the end.
Notebook 1 calibrates a Gaussian through it; notebook 6 adds the tighter
Canonne-Kamath-Steinke conversion, the zCDP accountant and the zCDP filter.
"""

from __future__ import annotations

import math

from scipy import optimize

from dplab._calibrate import calibrate
from dplab._checks import check_choice, check_delta, check_epsilon, check_nonnegative, check_rho
from dplab.accounting.base import Accountant
from dplab.mechanisms.base import Mechanism

__all__ = ["CONVERSIONS", "ZCDPAccountant", "approx_dp_to_zcdp", "pure_to_zcdp", "zcdp_delta_cks",
           "zcdp_to_approx_dp"]

#: the conversions from rho-zCDP to (epsilon, delta)-DP: Bun & Steinke's and Canonne, Kamath & Steinke's
CONVERSIONS = ("simple", "cks")


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
    check_choice(method, CONVERSIONS, "method")
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
    x = calibrate(lambda x: rho * x * x + math.log1p(x), log_inv, 0.0, top, xtol=1e-15, rtol=4 * 2.0**-52)
    # alpha rho + L / x + ln(1 - 1/alpha) - ln(alpha) / x with alpha = 1 + x
    eps = rho * (1 + x) + log_inv / x + math.log(x) - math.log1p(x) - math.log1p(x) / x
    return max(0.0, eps)


def zcdp_delta_cks(rho: float, epsilon: float) -> float:
    """The smallest delta with rho-zCDP => (epsilon, delta)-DP by Canonne, Kamath & Steinke 2020,
    Proposition 12: the minimum over alpha > 1 of
    exp((alpha - 1)(alpha rho - epsilon)) (1 - 1/alpha)^alpha / (alpha - 1), found on
    u = ln(alpha - 1) by a bounded scalar minimisation of its logarithm (capped at 1)."""
    rho = check_rho(rho)
    epsilon = check_nonnegative(epsilon, "epsilon")

    def log_delta(u: float) -> float:
        x = math.exp(u)  # alpha - 1
        return x * ((1 + x) * rho - epsilon) + (1 + x) * (math.log(x) - math.log1p(x)) - math.log(x)

    best = optimize.minimize_scalar(log_delta, bounds=(-30.0, 30.0), method="bounded",
                                    options={"xatol": 1e-12})
    return float(min(1.0, math.exp(min(0.0, best.fun))))


def approx_dp_to_zcdp(epsilon: float, delta: float, *, method: str = "simple") -> float:
    """The largest rho whose conversion (``method``, as in :func:`zcdp_to_approx_dp`) gives at
    most (epsilon, delta): the zCDP budget that buys an (epsilon, delta) guarantee.

    ``"simple"`` in closed form: with L = ln(1/delta), rho + 2 sqrt(rho L) = epsilon <=>
    sqrt(rho) = sqrt(L + epsilon) - sqrt(L). ``"cks"`` by :func:`dplab.accounting.calibrate`
    (the CKS epsilon increases in rho), from a bracket around the simple rho, which it exceeds.
    """
    epsilon = check_epsilon(epsilon)
    log_inv = math.log(1 / check_delta(delta, allow_zero=False))
    check_choice(method, CONVERSIONS, "method")
    # sqrt(L + eps) - sqrt(L), written without cancellation
    simple = (epsilon / (math.sqrt(log_inv + epsilon) + math.sqrt(log_inv))) ** 2
    if method == "simple":
        return simple
    return calibrate(lambda r: _cks_epsilon(r, log_inv), epsilon, simple, 2 * simple, grow="high", log=True)


class ZCDPAccountant(Accountant):
    """zCDP accounting: rho adds over the steps (Bun & Steinke 2016, Lemma 2.3), then converts to
    (epsilon, delta)-DP by ``conversion``: "cks" (Canonne, Kamath & Steinke 2020, the tighter,
    the default) or "simple" (Bun & Steinke, Proposition 1.3). Composes every mechanism with a
    rho (Gaussian: Delta^2/(2 sigma^2); an eps-DP step: eps^2/2), not an (epsilon, delta) step
    with delta > 0. Mind the default: ``zcdp_to_approx_dp`` and ``ZCDPFilter`` convert by the
    simple formula, so for the same rho they state a larger epsilon than this accountant."""

    def __init__(self, conversion: str = "cks") -> None:
        super().__init__()
        self.conversion = check_choice(conversion, CONVERSIONS, "conversion")
        self.name = "zCDP (CKS)" if conversion == "cks" else "zCDP (simple)"

    def supports(self, mechanism: object) -> bool:
        return isinstance(mechanism, Mechanism) and mechanism.zcdp_rho() is not None

    def _why_not(self, mechanism: Mechanism) -> str:
        return "it is not rho-zCDP (an (epsilon, delta) step with delta > 0 has no rho)"

    @property
    def rho(self) -> float:
        """The composed rho: sum k_i rho_i."""
        return math.fsum(k * m.zcdp_rho() for m, k in self._steps.items())

    def epsilon(self, delta: float) -> float:
        delta = check_delta(delta)
        if not self._steps:
            return 0.0
        return zcdp_to_approx_dp(self.rho, delta, method=self.conversion) if delta > 0 else math.inf

    def delta(self, epsilon: float) -> float:
        """Simple: delta = exp(-(epsilon - rho)^2 / (4 rho)) for epsilon >= rho (Proposition 1.3
        solved for delta); CKS: :func:`zcdp_delta_cks`."""
        epsilon = check_nonnegative(epsilon, "epsilon")
        if not self._steps:
            return 0.0
        rho = self.rho
        if self.conversion == "cks":
            return zcdp_delta_cks(rho, epsilon)
        return 1.0 if epsilon <= rho else min(1.0, math.exp(-((epsilon - rho) ** 2) / (4 * rho)))

    def __repr__(self) -> str:
        return f"ZCDPAccountant(conversion={self.conversion!r}, rho={self.rho!r})"
