"""zCDP conversions: the LAB_SPEC reference numbers, the CKS conversion and the inverse."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import dplab
from dplab import accounting


def test_reference_conversion():
    assert dplab.zcdp_to_approx_dp(0.5, 1e-6) == pytest.approx(5.756522, abs=1e-6)


@pytest.mark.parametrize("eps", [0.1, 1.0, 5.0])
@pytest.mark.parametrize("delta", [1e-3, 1e-6, 1e-10])
def test_approx_dp_to_zcdp_inverts_the_conversion(eps, delta):
    assert dplab.zcdp_to_approx_dp(accounting.approx_dp_to_zcdp(eps, delta), delta) == pytest.approx(eps)


def test_against_dp_accounting(optional_module):
    """Cross-check: dp-accounting's RDP accountant for a Gaussian of rho = 0.5."""
    dp_accounting = optional_module("dp_accounting")
    from dp_accounting.rdp import rdp_privacy_accountant as rdp

    acc = rdp.RdpAccountant(orders=[1 + x / 100 for x in range(1, 2000)] + list(range(21, 200)))
    acc.compose(dp_accounting.GaussianDpEvent(1.0))  # sigma = 1: rho = 1/2
    # the RDP accountant's conversion is at least as tight as the simple one
    assert acc.get_epsilon(1e-6) <= dplab.zcdp_to_approx_dp(0.5, 1e-6) + 1e-9
    assert acc.get_epsilon(1e-6) >= 0.8 * dplab.zcdp_to_approx_dp(0.5, 1e-6)


# LAB_SPEC.md, "Reference numbers": k-fold Laplace with eps0 = 0.1 at delta = 1e-6
LAPLACE_K = (10, 100, 1000)
SIMPLE = (1.7123, 5.7565, 21.6226)
CKS = (1.4716, 5.2215, 20.5519)
DRV = (1.7674, 6.3082, 27.1397)
BASIC = (1.0, 10.0, 100.0)


def test_reference_conversions_by_method():
    assert dplab.zcdp_to_approx_dp(0.5, 1e-6, method="simple") == pytest.approx(5.756522, abs=1e-6)
    assert dplab.zcdp_to_approx_dp(0.5, 1e-6, method="cks") == pytest.approx(5.221534, abs=1e-6)


def test_pure_to_zcdp():
    assert accounting.pure_to_zcdp(0.1) == pytest.approx(0.005)
    assert accounting.pure_to_zcdp(2.0) == 2.0


def test_k_fold_laplace_reference_numbers():
    for k, simple, cks, drv, basic in zip(LAPLACE_K, SIMPLE, CKS, DRV, BASIC, strict=True):
        rho = math.fsum([accounting.pure_to_zcdp(0.1)] * k)  # zCDP composes by adding rho
        assert dplab.zcdp_to_approx_dp(rho, 1e-6) == pytest.approx(simple, abs=1e-4)
        assert dplab.zcdp_to_approx_dp(rho, 1e-6, method="cks") == pytest.approx(cks, abs=1e-4)
        assert dplab.advanced_composition(0.1, k, 1e-6)[0] == pytest.approx(drv, abs=1e-4)
        assert accounting.basic_composition(0.1, k)[0] == pytest.approx(basic)


def proposition_12_epsilon(rho: float, delta: float, alpha: np.ndarray) -> np.ndarray:
    """Canonne, Kamath & Steinke 2020, Proposition 12: rho-zCDP is (eps, delta)-DP for
    delta = e^((alpha - 1)(alpha rho - eps)) / (alpha - 1) (1 - 1/alpha)^alpha, solved for eps."""
    return alpha * rho - (math.log(delta) + np.log(alpha - 1) - alpha * np.log1p(-1 / alpha)) / (alpha - 1)


# a dense grid of alpha - 1 from 1e-5 to 1e5, geometric
ALPHA = 1 + np.logspace(-5, 5, 400_001)


@pytest.mark.parametrize("rho", [1e-4, 1e-2, 0.3, 5.0, 100.0])
def test_cks_is_the_infimum_over_alpha_and_beats_simple(rho):
    for delta in (1e-12, 1e-9, 1e-6, 1e-3, 0.1):
        cks = dplab.zcdp_to_approx_dp(rho, delta, method="cks")
        on_grid = max(0.0, float(np.min(proposition_12_epsilon(rho, delta, ALPHA))))  # 0: (0, delta)-DP
        assert on_grid - 1e-6 <= cks <= on_grid + 1e-12
        assert cks < dplab.zcdp_to_approx_dp(rho, delta)


@pytest.mark.parametrize("eps", [0.1, 1.0, 5.0])
def test_cks_of_the_inverse_stays_within_the_budget(eps):
    for delta in (1e-3, 1e-6, 1e-10):
        assert dplab.zcdp_to_approx_dp(accounting.approx_dp_to_zcdp(eps, delta), delta, method="cks") < eps


def test_cks_against_dp_accounting(optional_module):
    """dp-accounting's RDP accountant converts with the same Proposition 12, on its grid of orders."""
    dp_accounting = optional_module("dp_accounting")
    from dp_accounting.rdp import rdp_privacy_accountant as rdp

    orders = list(1 + np.logspace(-2, 4, 3001))  # alpha > 1.01: where dp-accounting applies it
    for rho, delta in itertools.product((0.01, 0.5, 5.0, 100.0), (1e-12, 1e-6, 1e-3)):
        accountant = rdp.RdpAccountant(orders=orders)
        accountant.compose(dp_accounting.ZCDpEvent(rho))
        theirs = accountant.get_epsilon(delta)
        cks = dplab.zcdp_to_approx_dp(rho, delta, method="cks")
        assert theirs * (1 - 1e-5) <= cks <= theirs + 1e-12


NAN, INF = math.nan, math.inf


@pytest.mark.parametrize("function, args, kwargs, message", [
    *[(accounting.pure_to_zcdp, (e,), {}, f"epsilon must be finite and > 0, got epsilon={e!r}")
      for e in (0, -1.0, NAN, INF)],
    *[(dplab.zcdp_to_approx_dp, (r, 1e-6), {"method": m}, f"rho must be finite and > 0, got rho={r!r}")
      for r in (0, -1.0, NAN, INF) for m in ("simple", "cks")],
    *[(dplab.zcdp_to_approx_dp, (0.5, d), {"method": m}, rf"delta must be in \(0, 1\), got delta={d!r}")
      for d in (0.0, 1.0, -1e-3, 1.5, NAN) for m in ("simple", "cks")],
    (dplab.zcdp_to_approx_dp, (0.5, 1e-6), {"method": "CKS"},
     r"method must be one of \('simple', 'cks'\), got method='CKS'"),
    (dplab.zcdp_to_approx_dp, (0.5, 1e-6), {"method": "rdp"},
     r"method must be one of \('simple', 'cks'\), got method='rdp'"),
])
def test_bad_input(function, args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        function(*args, **kwargs)


def test_method_is_keyword_only_and_rho_a_number():
    with pytest.raises(TypeError):
        dplab.zcdp_to_approx_dp(0.5, 1e-6, "cks")
    with pytest.raises(TypeError, match="rho must be a real number, got rho='0.5'"):
        dplab.zcdp_to_approx_dp("0.5", 1e-6, method="cks")
