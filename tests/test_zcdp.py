"""zCDP conversions: the LAB_SPEC reference numbers and the inverse."""

from __future__ import annotations

import pytest

import dplab


def test_reference_conversion():
    assert dplab.zcdp_to_approx_dp(0.5, 1e-6) == pytest.approx(5.756522, abs=1e-6)


@pytest.mark.parametrize("eps", [0.1, 1.0, 5.0])
@pytest.mark.parametrize("delta", [1e-3, 1e-6, 1e-10])
def test_approx_dp_to_zcdp_inverts_the_conversion(eps, delta):
    assert dplab.zcdp_to_approx_dp(dplab.approx_dp_to_zcdp(eps, delta), delta) == pytest.approx(eps)


def test_against_dp_accounting(optional_module):
    """Cross-check: dp-accounting's RDP accountant for a Gaussian of rho = 0.5."""
    dp_accounting = optional_module("dp_accounting")
    from dp_accounting.rdp import rdp_privacy_accountant as rdp

    acc = rdp.RdpAccountant(orders=[1 + x / 100 for x in range(1, 2000)] + list(range(21, 200)))
    acc.compose(dp_accounting.GaussianDpEvent(1.0))  # sigma = 1: rho = 1/2
    # the RDP accountant's conversion is at least as tight as the simple one
    assert acc.get_epsilon(1e-6) <= dplab.zcdp_to_approx_dp(0.5, 1e-6) + 1e-9
    assert acc.get_epsilon(1e-6) >= 0.8 * dplab.zcdp_to_approx_dp(0.5, 1e-6)
