"""Parameter checks: every public function rejects bad input with a message naming the
parameter and its value; the checks take (value, name) and also check arrays entry by entry."""

from __future__ import annotations

import math

import numpy as np
import pytest

import dplab
from dplab import _checks, accounting, mechanisms

NAN, INF = math.nan, math.inf
BAD_EPS = [0, -1.0, NAN, INF]
BAD_DELTA = [-0.1, 1.0, 1.5, NAN]
BAD_SENS = [0, -2, NAN, INF]

CALLS = {
    "epsilon": [
        lambda e: dplab.laplace_mechanism(1.0, 1, e),
        lambda e: dplab.laplace_mse(1, e),
        lambda e: dplab.laplace_mae(1, e),
        lambda e: dplab.laplace_tail_bound(1, e, 0.1),
        lambda e: dplab.laplace_accuracy_k(1, 5, e, 0.1),
        lambda e: dplab.laplace_accuracy_k(1, 5, e, 0.1, delta=1e-6),
        lambda e: dplab.gaussian_sigma(1, e, 1e-6),
        lambda e: dplab.gaussian_sigma(1, e, 1e-6, method="classical"),
        lambda e: dplab.gaussian_delta(1.0, 1, e),
        lambda e: dplab.gaussian_laplace_crossover_k(e, 1e-6),
        lambda e: accounting.approx_dp_to_zcdp(e, 1e-6),
    ],
    "delta": [
        lambda d: dplab.gaussian_sigma(1, 0.5, d),
        lambda d: dplab.gaussian_sigma(1, 0.5, d, method="classical"),
        lambda d: dplab.laplace_accuracy_k(1, 5, 0.5, 0.1, delta=d),
        lambda d: dplab.gaussian_laplace_crossover_k(1.0, d),
        lambda d: dplab.zcdp_to_approx_dp(0.5, d),
        lambda d: accounting.approx_dp_to_zcdp(1.0, d),
    ],
    "sensitivity": [
        lambda s: dplab.laplace_mechanism(1.0, s, 1.0),
        lambda s: dplab.laplace_mse(s, 1.0),
        lambda s: dplab.laplace_mae(s, 1.0),
        lambda s: dplab.laplace_tail_bound(s, 1.0, 0.1),
        lambda s: dplab.laplace_accuracy_k(s, 5, 1.0, 0.1),
        lambda s: dplab.gaussian_sigma(s, 0.5, 1e-6),
        lambda s: dplab.gaussian_sigma_zcdp(s, 0.5),
        lambda s: dplab.gaussian_delta(1.0, s, 1.0),
    ],
}


@pytest.mark.parametrize("bad", BAD_EPS)
@pytest.mark.parametrize("call", CALLS["epsilon"])
def test_bad_epsilon(call, bad):
    with pytest.raises(ValueError, match=r"epsilon .*epsilon="):
        call(bad)


@pytest.mark.parametrize("bad", BAD_DELTA + [0.0])
@pytest.mark.parametrize("call", CALLS["delta"])
def test_bad_delta(call, bad):
    with pytest.raises(ValueError, match=r"delta must be in \(0, 1\), got delta="):
        call(bad)


@pytest.mark.parametrize("bad", BAD_SENS)
@pytest.mark.parametrize("call", CALLS["sensitivity"])
def test_bad_sensitivity(call, bad):
    with pytest.raises(ValueError, match=r"sensitivity must be finite and > 0, got sensitivity="):
        call(bad)


@pytest.mark.parametrize("bad", [0, -1, NAN, INF])
def test_bad_sigma_and_rho(bad):
    for call in (lambda: dplab.gaussian_mechanism(0.0, bad), lambda: mechanisms.gaussian_mse(bad),
                 lambda: mechanisms.gaussian_mae(bad), lambda: mechanisms.gaussian_tail_bound(bad, 0.1),
                 lambda: dplab.gaussian_delta(bad, 1, 1)):
        with pytest.raises(ValueError, match="sigma must be finite and > 0, got sigma="):
            call()
    for call in (lambda: dplab.gaussian_sigma_zcdp(1, bad), lambda: dplab.zcdp_to_approx_dp(bad, 1e-6)):
        with pytest.raises(ValueError, match="rho must be finite and > 0, got rho="):
            call()


@pytest.mark.parametrize("bad", [0, 1, -0.5, 1.5, NAN])
def test_bad_beta(bad):
    for call in (lambda: dplab.laplace_tail_bound(1, 1, bad),
                 lambda: dplab.laplace_accuracy_k(1, 3, 1, bad),
                 lambda: mechanisms.gaussian_tail_bound(1.0, bad)):
        with pytest.raises(ValueError, match="beta must be in \\(0, 1\\), got beta="):
            call()


@pytest.mark.parametrize("bad", [0, -3])
def test_bad_k_and_size(bad):
    with pytest.raises(ValueError, match=f"k must be a positive integer, got k={bad}"):
        dplab.laplace_accuracy_k(1, bad, 1.0, 0.1)
    with pytest.raises(ValueError, match=f"size must be a positive integer, got size={bad}"):
        dplab.laplace_mechanism(1.0, 1, 1.0, size=bad)


def test_wrong_types():
    with pytest.raises(TypeError, match="k must be a positive integer, got k=2.5"):
        dplab.laplace_accuracy_k(1, 2.5, 1.0, 0.1)
    with pytest.raises(TypeError, match="epsilon must be a real number, got epsilon='1'"):
        dplab.laplace_mse(1, "1")
    with pytest.raises(TypeError, match="rng must be"):
        dplab.laplace_mechanism(1.0, 1, 1.0, rng="seed")
    with pytest.raises(TypeError, match="epsilon must be a real number"):
        dplab.laplace_mse(1, True)


def test_valid_edge_values_pass():
    assert dplab.laplace_accuracy_k(1, 5, 1.0, 0.1, delta=1e-6) > 0  # epsilon = 1 allowed
    assert dplab.gaussian_sigma(1, 0.999, 0.5, method="classical") > 0
    assert np.isfinite(dplab.gaussian_sigma(1, 50.0, 1e-12))


def test_array_checks_name_the_first_bad_entry():
    with pytest.raises(ValueError, match=r"epsilon must be finite and > 0, got epsilon=0.0 at index 2"):
        dplab.laplace_mse(1, [0.5, 1.0, 0.0, -1.0])
    with pytest.raises(ValueError, match=r"epsilon must be finite and > 0, got epsilon=nan at index 0"):
        dplab.bmi_expected_total_error(1, np.array([np.nan, 1.0]))
    with pytest.raises(TypeError, match=r"k must be a positive integer, got k=2.5 at index 1"):
        dplab.laplace_accuracy_k(1, [1, 2.5], 1.0, 0.1)
    with pytest.raises(ValueError, match=r"k must be a positive integer, got k=0 at index 2"):
        dplab.laplace_accuracy_k(1, [1, 2, 0], 1.0, 0.1)
    for bad in (["1", "2"], [1.0, None], [1 + 2j], [], [True, False]):
        with pytest.raises(TypeError, match="epsilon must be a real number or a non-empty array"):
            dplab.laplace_mse(1, bad)


def test_scalar_only_functions_refuse_arrays_by_name():
    for call in (lambda: dplab.gaussian_sigma(1, [0.5, 0.6], 1e-6),
                 lambda: dplab.zcdp_to_approx_dp([0.5, 1.0], 1e-6),
                 lambda: dplab.laplace_mechanism(0.0, 1.0, [0.5, 1.0])):
        with pytest.raises(TypeError, match=r"(epsilon|rho) must be a real number, got"):
            call()
    assert _checks.check_branching(2.0) == 2
    with pytest.raises(TypeError, match="branching must be an integer >= 2, got branching=2.5"):
        _checks.check_branching(2.5)
    counts = _checks.check_positive_int(np.array([1.0, 3.0]), "k", array_ok=True)
    np.testing.assert_array_equal(counts, [1, 3])


def test_every_check_takes_value_then_name():
    for check in (_checks.check_positive, _checks.check_positive_int):
        with pytest.raises(ValueError, match="width must be"):
            check(0, "width")
    assert _checks.check_probability(1.0) == 1.0
    with pytest.raises(ValueError, match=r"p must be a probability in \(0, 1\], got p=0"):
        _checks.check_probability(0)
    with pytest.raises(ValueError, match="branching must be an integer >= 2, got branching=1"):
        _checks.check_branching(1)
    with pytest.raises(ValueError, match="neighbours must be one of"):
        _checks.check_neighbours("swap")
    with pytest.raises(ValueError, match=r"method must be one of \('a', 'b'\), got method='c'"):
        _checks.check_choice("c", ("a", "b"), "method")
