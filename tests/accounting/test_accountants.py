"""The accountant protocol: every accountant against LAB_SPEC's reference numbers (computed with
dp-accounting, autodp and OpenDP), against each other where one bounds another, delta(epsilon)
against epsilon(delta), mixed steps, refusals, and the filters charging mechanism descriptions."""

from __future__ import annotations

import math

import numpy as np
import pytest

import dplab
from dplab.accounting import (
    AdvancedAccountant,
    BasicAccountant,
    BasicFilter,
    Neighbours,
    OptimalAccountant,
    PLDAccountant,
    RDPAccountant,
    ZCDPAccountant,
    ZCDPFilter,
    all_accountants,
    approx_dp_to_zcdp,
    epsilons,
    optimal_composition,
    zcdp_to_approx_dp,
)
from dplab.mechanisms import EpsilonDelta, Gaussian, Laplace, RandomizedResponse

#: LAB_SPEC.md, "Reference numbers": k-fold Laplace with eps0 = 0.1 at delta = 1e-6
REFERENCE = {
    "basic": (1.0, 10.0, 100.0),
    "advanced (DRV)": (1.7674, 6.3082, 27.1397),
    "zCDP (simple)": (1.7123, 5.7565, 21.6226),
    "zCDP (CKS)": (1.4716, 5.2215, 20.5519),
}


@pytest.mark.parametrize("step", [Laplace(1.0, 0.1), EpsilonDelta(0.1), RandomizedResponse(0.1)])
def test_the_reference_numbers_for_any_step_of_epsilon_0_1(step):
    """catches: a wrong theorem or conversion in any of the four accountants (each column is an
    independent library's number), and an accountant that reads a mechanism's scale as its epsilon."""
    for i, k in enumerate((10, 100, 1000)):
        table = epsilons(step, k, 1e-6, all_accountants()[:4])
        for name, values in REFERENCE.items():
            assert table[name] == pytest.approx(values[i], abs=0.6e-4), (name, k)


def test_zcdp_reference_and_the_pld_laplace_reference():
    """LAB_SPEC: rho = 0.5 at delta = 1e-6 is 5.756522 (simple), 5.221534 (CKS); 1000 Laplace of 0.1
    by PLD 18.95 (dp-accounting), below KOV's bound for every 0.1-DP step."""
    gauss = Gaussian.from_zcdp(1.0, 0.5)
    assert ZCDPAccountant("simple").compose(gauss).epsilon(1e-6) == pytest.approx(5.756522, abs=1e-6)
    assert ZCDPAccountant("cks").compose(gauss).epsilon(1e-6) == pytest.approx(5.221534, abs=1e-6)
    pld = PLDAccountant().compose(Laplace(1.0, 0.1), 1000).epsilon(1e-6)
    assert pld == pytest.approx(18.95, rel=0.005)
    assert pld < OptimalAccountant().compose(Laplace(1.0, 0.1), 1000).epsilon(1e-6)


@pytest.mark.parametrize("step, k", [(Laplace(1.0, 0.3), 40), (Gaussian(1.0, 2.0), 30),
                                     (RandomizedResponse(0.5, 3), 20), (EpsilonDelta(0.2), 60)])
def test_upper_bounds_stay_above_the_pld_lower_bound(step, k):
    """The optimistic PLD is below the truth; every accountant is an upper bound on it. catches: an
    RDP conversion with the wrong sign of its correction, a CKS conversion below the truth."""
    truth_below = PLDAccountant(step=1e-4, pessimistic=False).compose(step, k).epsilon(1e-6)
    for accountant in all_accountants():
        if accountant.supports(step):
            # (1e-7 relative: the FFT's rounding when the PLD is exact, as for randomized response)
            assert accountant.compose(step, k).epsilon(1e-6) >= truth_below * (1 - 1e-7), accountant.name


@pytest.mark.parametrize("accountant", all_accountants(), ids=lambda a: a.name)
@pytest.mark.parametrize("step, k", [(Laplace(1.0, 0.2), 50), (Laplace(1.0, 0.1), 10),
                                     (Gaussian(1.0, 3.0), 20)])
def test_delta_of_epsilon_inverts_epsilon_of_delta(accountant, step, k):
    """catches: a closed-form delta(epsilon) that does not match the accountant's own epsilon(delta)
    (advanced composition's exponent without the factor 2, zCDP's without the 4), and a delta(0)
    found anywhere on the stretch where epsilon(delta) is 0 (CKS once answered 1 - 1e-12)."""
    if not accountant.supports(step):
        return
    accountant.compose(step, k)
    for delta in (1e-3, 1e-7, 1e-12):
        eps = accountant.epsilon(delta)
        if isinstance(accountant, BasicAccountant):  # one point: (k eps, 0)
            assert accountant.delta(eps) == 0.0 and accountant.delta(eps - 1e-9) == 1.0
            continue
        if eps > 0:
            assert accountant.delta(eps) == pytest.approx(delta, rel=1e-5), accountant.name
    at_zero = accountant.delta(0.0)
    if 0 < at_zero < 1:  # the smallest delta at which epsilon is 0: just above it, 0; just below, not
        assert accountant.epsilon(at_zero * 1.001) == 0.0 < accountant.epsilon(at_zero * 0.999)


def test_rdp_of_gaussians_is_just_above_the_continuous_cks_conversion():
    """For a Gaussian the Renyi curve is alpha rho, so RDP on a grid of orders converts to at least the
    CKS epsilon (the best order of all) and barely more. catches: an RDP curve summed wrong."""
    for sigma, k in ((1.0, 10), (5.0, 1000)):
        rdp = RDPAccountant().compose(Gaussian(1.0, sigma), k).epsilon(1e-6)
        cks = ZCDPAccountant("cks").compose(Gaussian(1.0, sigma), k).epsilon(1e-6)
        assert cks - 1e-9 <= rdp <= cks * 1.01


def test_rdp_against_dp_accounting(optional_module):
    """dp-accounting's RDP accountant on the same orders, for Gaussian and Laplace steps."""
    optional_module("dp_accounting")
    import dp_accounting
    from dp_accounting.rdp import rdp_privacy_accountant as rdp

    from dplab.accounting.rdp import ORDERS

    for ours, event, k in ((Gaussian(1.0, 2.0), dp_accounting.GaussianDpEvent(2.0), 100),
                           (Laplace(1.0, 0.5), dp_accounting.LaplaceDpEvent(2.0), 100)):
        theirs = rdp.RdpAccountant(list(ORDERS)).compose(event, k).get_epsilon(1e-6)
        assert RDPAccountant().compose(ours, k).epsilon(1e-6) == pytest.approx(theirs, rel=1e-6)


def test_mixed_steps_compose_like_equal_ones():
    """Two groups of steps with the same epsilon are one group. catches: a convolution that misplaces
    the grid offset, an advanced composition of mixed steps that drops a group."""
    one = Laplace(1.0, 0.1)
    twin = Laplace(2.0, 0.1)  # another mechanism with the same privacy
    for make in (PLDAccountant, AdvancedAccountant, ZCDPAccountant, RDPAccountant, BasicAccountant):
        mixed = make().compose(one, 300).compose(twin, 200).epsilon(1e-6)
        single = make().compose(one, 500).epsilon(1e-6)
        assert mixed == pytest.approx(single, rel=1e-9), make.name
    rho = ZCDPAccountant().compose(Gaussian(1.0, 2.0), 3).compose(Laplace(1.0, 0.5), 2).rho
    assert rho == pytest.approx(3 / 8 + 2 * 0.125)
    squares = AdvancedAccountant().compose(Laplace(1.0, 0.2), 10).compose(Laplace(1.0, 0.1), 40)
    eps = squares.epsilon(1e-6)  # sqrt(2 ln(1e6) (10 * 0.04 + 40 * 0.01)) + the drift, by hand
    drift = 10 * 0.2 * math.expm1(0.2) + 40 * 0.1 * math.expm1(0.1)
    assert eps == pytest.approx(math.sqrt(2 * math.log(1e6) * 0.8) + drift, rel=1e-12)
    assert squares.delta(eps) == pytest.approx(1e-6, rel=1e-9)


@pytest.mark.statistical
def test_mixed_steps_by_pld_against_sampled_privacy_losses():
    """catches: a convolution of different mechanisms that misplaces the grid or drops a part: the
    composed PLD's delta(eps) against the mean of (1 - e^(eps - L))_+ over privacy losses L
    sampled from the mechanisms themselves (Gaussian: N(mu^2/2, mu^2); Laplace: its loss at a
    drawn output), within the rounding bracket and a 99.9% interval."""
    rng = np.random.default_rng(21)
    gauss, lap, draws = Gaussian(1.0, 2.0), Laplace(1.0, 0.5), 400_000
    losses = gauss.privacy_loss(gauss.sample(np.zeros(4), rng, size=draws), np.zeros(4), np.ones(4))  # on D
    losses += lap.privacy_loss(lap.sample(np.zeros(3), rng, size=draws), np.zeros(3), np.ones(3))
    eps = 1.0
    high = PLDAccountant(step=1e-3).compose(gauss, 4).compose(lap, 3).delta(eps)
    low = PLDAccountant(step=1e-3, pessimistic=False).compose(gauss, 4).compose(lap, 3).delta(eps)
    ci = dplab.mean_ci(np.clip(-np.expm1(eps - losses), 0.0, None), 0.999)
    assert low <= high and ci.low <= high and low <= ci.high


def test_advanced_composition_counts_each_steps_delta_in_the_target():
    """delta is the target for the whole run (the steps' k delta plus the theorem's delta'), the
    trap of the old function signature. catches: delta' taken as the whole target."""
    step = EpsilonDelta(0.1, 1e-9)
    advanced = AdvancedAccountant().compose(step, 100)
    eps = advanced.epsilon(1e-6)
    assert eps > AdvancedAccountant().compose(EpsilonDelta(0.1), 100).epsilon(1e-6)  # less room for delta'
    assert advanced.delta(eps) == pytest.approx(1e-6, rel=1e-9)  # the steps' 1e-7 counted in
    assert advanced.epsilon(100 * 1e-9) == math.inf
    optimal = OptimalAccountant().compose(step, 100)
    assert optimal.epsilon(1e-6) > OptimalAccountant().compose(EpsilonDelta(0.1), 100).epsilon(1e-6)
    assert optimal.delta(optimal.epsilon(1e-6)) == pytest.approx(1e-6, rel=1e-6)
    assert optimal.epsilon(0.5e-7) == math.inf  # below 1 - (1 - 1e-9)^100


def test_refusals_name_the_mechanism():
    """A theorem that does not apply refuses with a TypeError naming the mechanism."""
    with pytest.raises(TypeError, match=r"BasicAccountant cannot compose Gaussian\(sensitivity=1.0, sig"):
        BasicAccountant().compose(Gaussian(1.0, 1.0))
    kov = OptimalAccountant().compose(Laplace(1.0, 0.1), 10)
    with pytest.raises(TypeError, match=r"cannot compose Laplace\(sensitivity=1.0, epsilon=0.2\).*identical"):
        kov.compose(Laplace(1.0, 0.2))
    kov.compose(RandomizedResponse(0.1), 5)  # the same (epsilon, delta): accepted
    assert kov.epsilon(1e-6) == pytest.approx(optimal_composition(0.1, 15, 1e-6))
    for accountant in (ZCDPAccountant(), RDPAccountant()):
        with pytest.raises(TypeError, match="EpsilonDelta"):
            accountant.compose(EpsilonDelta(1.0, 1e-6))
    with pytest.raises(TypeError, match="mechanism must be a mechanism description"):
        PLDAccountant().compose(0.1, 10)
    with pytest.raises(ValueError, match="k must be a positive integer, got k=0"):
        PLDAccountant().compose(Laplace(1.0, 0.1), 0)
    with pytest.raises(ValueError, match="delta must be in"):
        AdvancedAccountant().compose(Laplace(1.0, 0.1)).epsilon(1.5)
    with pytest.raises(ValueError, match="conversion must be one of"):
        ZCDPAccountant("tight")


def test_rdp_on_custom_orders_and_its_curve():
    """The curve is the sum of the steps' Renyi curves on the orders given; fewer orders can only
    raise epsilon (the best order is looked for among them)."""
    few = RDPAccountant(orders=[2.0, 8.0]).compose(Gaussian(1.0, 2.0), 3).compose(Laplace(1.0, 0.5))
    expected = 3 * Gaussian(1.0, 2.0).rdp([2.0, 8.0]) + Laplace(1.0, 0.5).rdp([2.0, 8.0])
    assert few.curve() == pytest.approx(expected)
    many = RDPAccountant().compose(Gaussian(1.0, 2.0), 3).compose(Laplace(1.0, 0.5))
    assert many.epsilon(1e-6) <= few.epsilon(1e-6)
    with pytest.raises(ValueError, match="alpha must be finite and > 1"):
        RDPAccountant(orders=[1.0, 2.0])


def test_an_empty_accountant_costs_nothing_and_fresh_ones_stay_empty():
    for accountant in all_accountants():
        assert accountant.epsilon(1e-6) == 0.0 and accountant.delta(1.0) == 0.0
    kept = AdvancedAccountant()
    epsilons(Laplace(1.0, 0.1), 10, 1e-6, [kept])
    assert kept.steps == ()
    used = ZCDPAccountant("simple").compose(Laplace(1.0, 0.1), 3)
    fresh = used.fresh()
    assert fresh.steps == () and fresh.conversion == "simple" and used.steps == ((Laplace(1.0, 0.1), 3),)


def test_approx_dp_to_zcdp_with_the_cks_conversion_round_trips():
    """catches: a CKS budget that converts back above the target (the filter would overspend)."""
    for eps, delta in ((1.0, 1e-6), (0.3, 1e-9), (8.0, 1e-3)):
        rho = approx_dp_to_zcdp(eps, delta, method="cks")
        assert zcdp_to_approx_dp(rho, delta, method="cks") == pytest.approx(eps, rel=1e-9)
        assert rho > approx_dp_to_zcdp(eps, delta)


def test_filters_charge_mechanism_descriptions_and_never_overspend():
    basic = BasicFilter(1.0, 1e-6)
    assert basic.request(Laplace(1.0, 0.5)) and basic.request(EpsilonDelta(0.5, 1e-6))
    assert not basic.request(RandomizedResponse(1e-9)) and basic.halted
    with pytest.raises(TypeError, match="a Gaussian's guarantee is a curve"):
        BasicFilter(1.0).request(Gaussian(1.0, 1.0))
    with pytest.raises(ValueError, match="delta must not be given with a mechanism"):
        BasicFilter(1.0, 0.1).request(Laplace(1.0, 0.5), 1e-3)
    zf = ZCDPFilter(0.5)
    sigma = zf.min_gaussian_sigma(1.0) * 2  # a quarter of the budget
    assert zf.request(Gaussian(1.0, sigma)) and zf.spent == pytest.approx(0.125)
    assert zf.request(Laplace(1.0, math.sqrt(0.5)))  # eps^2/2 = 0.25
    exact = ZCDPFilter(0.5)
    exact.request_gaussian(1.0, sigma)
    assert zf.spent_exact - exact.spent_exact == pytest.approx(0.25)
    assert not zf.request(Gaussian(1.0, 1.0)) and zf.spent == pytest.approx(0.375)  # 0.5 does not fit
    with pytest.raises(TypeError, match="has no rho"):
        ZCDPFilter(1.0).request(EpsilonDelta(1.0, 1e-6))


def test_the_neighbour_relation_is_one_enum_equal_to_its_strings():
    from dplab._checks import check_neighbours

    assert Neighbours.ADD_REMOVE == "add_remove" and Neighbours("replace") is Neighbours.REPLACE
    assert check_neighbours("replace") is Neighbours.REPLACE
    with pytest.raises(ValueError, match=r"neighbours must be one of \('add_remove', 'replace'\), got "
                                         r"neighbours='replace-one'"):
        check_neighbours("replace-one")
