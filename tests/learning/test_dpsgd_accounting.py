"""DP-SGD's accounting against dp-accounting: T steps of the Poisson-subsampled Gaussian by PLD
(within 1% of its pessimistic PLD, never below its optimistic one) and by RDP (its RdpAccountant,
same orders), the composition window from the composed PLD's own tails, and the calibration of
the noise multiplier."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dplab._pld import TAIL, chernoff_window
from dplab.accounting import ORDERS, PLDAccountant, RDPAccountant
from dplab.learning import ACCOUNTANTS, dpsgd_epsilon, dpsgd_noise_multiplier
from dplab.mechanisms import Gaussian, SubsampledGaussian

DELTA = 1e-5
FAST = [(1.0, 0.01, 1000), (2.0, 0.01, 100)]
GRID = [(s, q, t) for s in (0.6, 1.0, 2.0) for q in (0.001, 0.01, 0.1) for t in (100, 1000, 10_000)]


def _dp_accounting_pld(sigma: float, q: float, steps: int, pessimistic: bool) -> float:
    from dp_accounting.pld import privacy_loss_distribution as pld

    one = pld.from_gaussian_mechanism(sigma, sampling_prob=q, pessimistic_estimate=pessimistic,
                                      use_connect_dots=pessimistic, value_discretization_interval=1e-4)
    return one.self_compose(steps).get_epsilon_for_delta(DELTA)


def _dp_accounting_rdp(sigma: float, q: float, steps: int, orders=None) -> float:
    import dp_accounting
    from dp_accounting.rdp import rdp_privacy_accountant

    accountant = rdp_privacy_accountant.RdpAccountant() if orders is None else \
        rdp_privacy_accountant.RdpAccountant(list(orders))
    accountant.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), steps)
    return accountant.get_epsilon(DELTA)


def _check_pld(sigma, q, steps):
    ours = dpsgd_epsilon(sigma, q, steps, DELTA)
    assert ours == pytest.approx(_dp_accounting_pld(sigma, q, steps, True), rel=0.01)
    assert ours >= _dp_accounting_pld(sigma, q, steps, False)
    # our optimistic grid is below our pessimistic one, by at most the rounding bound T * step
    low = dpsgd_epsilon(sigma, q, steps, DELTA, PLDAccountant(pessimistic=False))
    assert low <= ours <= low + steps * 1e-4


def _check_rdp(sigma, q, steps):
    """Same orders: never above RdpAccountant (its fractional-order series adds the sizes of its
    terms), within 10% of it where eps < 20; beyond, its series overstate the low orders that then
    decide (by 25-50% at sigma = 0.6, q = 0.1) or do not converge and are dropped, so only the
    first holds (ours match quadrature there: tests/mechanisms/test_subsampled_gaussian.py)."""
    ours = dpsgd_epsilon(sigma, q, steps, DELTA, accountant="rdp")
    theirs = _dp_accounting_rdp(sigma, q, steps)
    assert ours <= theirs * (1 + 1e-9)
    if theirs < 20:
        assert ours >= theirs * 0.9


@pytest.mark.catches("acct.sgauss_one_direction", "acct.sgauss_ctd_rounds_down")
@pytest.mark.parametrize(("sigma", "q", "steps"), FAST)
def test_pld_within_one_percent_of_dp_accounting(sigma, q, steps, optional_module):
    optional_module("dp_accounting")
    _check_pld(sigma, q, steps)


@pytest.mark.catches("learning.rdp_selects_pld")
@pytest.mark.parametrize(("sigma", "q", "steps"), FAST)
def test_rdp_within_ten_percent_of_rdp_accountant(sigma, q, steps, optional_module):
    optional_module("dp_accounting")
    _check_rdp(sigma, q, steps)


@pytest.mark.catches("acct.rdp_conversion_no_log_alpha")
@pytest.mark.parametrize(("sigma", "q", "steps"), FAST)
def test_rdp_equals_rdp_accountant_on_integer_orders(sigma, q, steps, optional_module):
    """On integer orders both curves are exact and both convert by Canonne, Kamath & Steinke's
    Proposition 12: the epsilons agree to 1e-6."""
    optional_module("dp_accounting")
    orders = ORDERS[ORDERS == np.round(ORDERS)]
    ours = dpsgd_epsilon(sigma, q, steps, DELTA, accountant=RDPAccountant(orders))
    assert ours == pytest.approx(_dp_accounting_rdp(sigma, q, steps, orders), rel=1e-6)


@pytest.mark.slow
@pytest.mark.parametrize(("sigma", "q", "steps"), GRID)
def test_grid_against_dp_accounting(sigma, q, steps, optional_module):
    """The issue's grid: sigma in {0.6, 1, 2}, q in {0.001, 0.01, 0.1}, T in {100, 1000, 10^4}."""
    optional_module("dp_accounting")
    _check_pld(sigma, q, steps)
    _check_rdp(sigma, q, steps)
    # RDP's conversion is a bound: never below the (nearly tight) PLD
    assert dpsgd_epsilon(sigma, q, steps, DELTA, "rdp") >= dpsgd_epsilon(sigma, q, steps, DELTA)


@pytest.mark.catches("acct.sgauss_one_direction")
def test_accountant_reports_the_larger_direction():
    """The PLD accountant composes each order of the pair and reports the larger epsilon; a
    symmetric mechanism composed alongside joins both."""
    m = SubsampledGaussian(1.0, 0.05)
    acc = PLDAccountant(step=1e-3).compose(m, 200)
    assert acc.directions == ("add", "remove")
    each = {d: m.pld(step=1e-3, direction=d).compose(200).epsilon(DELTA) for d in ("add", "remove")}
    assert each["add"] != each["remove"]
    assert acc.epsilon(DELTA) == max(each.values())
    mixed = PLDAccountant(step=1e-3).compose(m, 200).compose(Gaussian(1.0, 5.0), 3)
    assert mixed.epsilon(DELTA) > acc.epsilon(DELTA)
    with pytest.raises(ValueError, match="direction=None"):
        acc.pld()


@pytest.mark.catches("acct.window_single_step_range")
def test_ten_thousand_steps_compose_on_a_narrow_window():
    """10^4 steps at step 1e-4 (sigma = 1, q = 0.01): Hoeffding over one step's range would need
    about 10^4 * 7.4 / 1e-4 * sqrt(ln(1e30) / (2 10^4)) = 4.4e7 points (more than MAX_GRID_POINTS);
    the Chernoff window holds a few 10^5. The truncation adds at most 2 TAIL to delta, reported."""
    acc = PLDAccountant().compose(SubsampledGaussian(1.0, 0.01), 10_000)
    for d in acc.directions:
        assert len(acc.pld(d).pmf) < 10**6
    assert 0 < acc.truncation() <= 2 * TAIL
    assert acc.rounding_bound() == pytest.approx(10_000 * 1e-4)


@pytest.mark.catches("acct.chernoff_tail_dropped")
@pytest.mark.parametrize("k", [40, 200])
def test_chernoff_window_holds_all_but_its_tails(k):
    """Against the full convolution by repeated numpy.convolve: the mass outside the window is at
    most the bounds it reports (at a tail of 1e-6, so that the check has teeth), and those are at
    most the tail."""
    pmf = np.array([0.5, 0.2, 0.0, 0.1, 0.15, 0.04])  # a sub-probability: 0.01 at L = inf
    full = np.array([1.0])
    for _ in range(k):
        full = np.convolve(full, pmf)
    low, high, tail_low, tail_high = chernoff_window(pmf, k, 1e-6)
    assert full[:low].sum() <= tail_low + 1e-15 and tail_low <= 1e-6
    assert full[high + 1:].sum() <= tail_high + 1e-15 and tail_high <= 1e-6
    assert high - low + 1 < len(full)


@pytest.mark.catches("learning.calibration_not_private_side")
@pytest.mark.parametrize("target", [0.5, 1.0, 2.0, 4.0, 8.0])
def test_noise_multiplier_meets_the_target_on_the_private_side(target):
    """The returned multiplier meets the target; 1e-5 less does not (RDP, 1000 steps)."""
    sigma = dpsgd_noise_multiplier(target, DELTA, 0.01, 1000, accountant="rdp")
    assert dpsgd_epsilon(sigma, 0.01, 1000, DELTA, accountant="rdp") <= target
    assert dpsgd_epsilon(sigma * (1 - 1e-5), 0.01, 1000, DELTA, accountant="rdp") > target


@pytest.mark.catches("learning.calibration_not_private_side")
def test_noise_multiplier_by_pld():
    pld = PLDAccountant(step=1e-3)
    sigma = dpsgd_noise_multiplier(1.0, DELTA, 0.05, 100, pld)
    assert dpsgd_epsilon(sigma, 0.05, 100, DELTA, pld) <= 1.0
    assert dpsgd_epsilon(sigma * (1 - 1e-5), 0.05, 100, DELTA, pld) > 1.0


@pytest.mark.catches("learning.rdp_selects_pld")
def test_a_string_selects_one_accountant():
    assert ACCOUNTANTS == {"pld": PLDAccountant, "rdp": RDPAccountant}
    m = SubsampledGaussian(1.0, 0.01)
    assert dpsgd_epsilon(1.0, 0.01, 500, DELTA, "rdp") == RDPAccountant().compose(m, 500).epsilon(DELTA)
    assert dpsgd_epsilon(1.0, 0.01, 500, DELTA, "pld") == PLDAccountant().compose(m, 500).epsilon(DELTA)
    used = PLDAccountant(step=1e-3).compose(m, 7)  # an object: its settings, none of its steps
    fresh = PLDAccountant(step=1e-3).compose(m, 500)
    assert dpsgd_epsilon(1.0, 0.01, 500, DELTA, used) == fresh.epsilon(DELTA)


@pytest.mark.catches("learning.dpsgd_unchecked")
@pytest.mark.parametrize(("call", "name"), [
    (lambda: dpsgd_epsilon(1.0, 0.01, 0, DELTA), "steps=0"),
    (lambda: dpsgd_epsilon(1.0, 0.01, 10, 0.0), "delta=0.0"),
    (lambda: dpsgd_epsilon(0.0, 0.01, 10, DELTA), "noise_multiplier=0.0"),
    (lambda: dpsgd_epsilon(1.0, 2.0, 10, DELTA), "sampling_rate=2.0"),
    (lambda: dpsgd_epsilon(1.0, 0.01, 10, DELTA, "moments"), "accountant='moments'"),
    (lambda: dpsgd_noise_multiplier(-1.0, DELTA, 0.01, 10), "epsilon=-1.0"),
    (lambda: dpsgd_noise_multiplier(1.0, DELTA, 0.0, 10), "sampling_rate=0.0"),
])
def test_bad_input_is_named(call, name):
    with pytest.raises(ValueError, match=name):
        call()


@pytest.mark.catches("acct.window_single_step_range")
def test_rdp_is_fast_and_pld_reaches_ten_thousand_steps():
    """The issue's goal at sigma = 1, q = 0.01, T = 10^4 (timed in the bench; here: it runs, and
    the two accountants order as they must: RDP above PLD)."""
    pld = dpsgd_epsilon(1.0, 0.01, 10_000, DELTA)
    rdp = dpsgd_epsilon(1.0, 0.01, 10_000, DELTA, "rdp")
    assert math.isfinite(pld) and pld < rdp
