"""Composition theorems, stability and subsampling (notebooks 2 and 6)."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest

import dplab
from dplab import accounting


def test_sequential_and_parallel():
    assert dplab.sequential_composition([0.25] * 4) == (1.0, 0.0)
    assert dplab.sequential_composition([0.5, 0.2], [1e-6, 1e-7]) == pytest.approx((0.7, 1.1e-6))
    assert dplab.parallel_composition([0.5, 1.0, 0.2]) == 1.0
    assert dplab.transformation_epsilon(0.5, 3) == 1.5


@pytest.mark.parametrize("call, message", [
    (lambda: dplab.sequential_composition([]), "epsilons must name at least one"),
    (lambda: dplab.sequential_composition([0.1, -1.0]), r"epsilons\[1\] must be finite and > 0"),
    (lambda: dplab.sequential_composition([0.1], [1e-5, 1e-5]), "one entry per epsilon"),
    (lambda: dplab.sequential_composition([0.1], [1.5]), r"deltas\[0\] must be in \[0, 1\)"),
    (lambda: dplab.parallel_composition([math.nan]), r"epsilons\[0\]"),
    (lambda: dplab.transformation_epsilon(1.0, 0), "stability must be a positive integer"),
    (lambda: dplab.subsampling_epsilon(1.0, 0.0), r"p must be a probability in \(0, 1\], got p=0.0"),
    (lambda: dplab.subsampling_epsilon(1.0, 1.5), "p must be a probability"),
    (lambda: dplab.subsampling_epsilon(-1.0, 0.5), "epsilon must be finite"),
])
def test_bad_input(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_subsampling_exact_formula_and_slide_claim():
    assert dplab.subsampling_epsilon(1.0, 0.1) == pytest.approx(math.log(1 + 0.1 * (math.e - 1)))
    assert dplab.subsampling_epsilon(2.0, 1.0) == pytest.approx(2.0)  # p = 1: no amplification
    # the reference points: the slide's 2 p eps fails beyond about 1.5 (p = 0.1), 2.6 (p = 0.3)
    assert dplab.subsampling_slide_claim_fails_above(0.1) == pytest.approx(1.51, abs=0.01)
    assert dplab.subsampling_slide_claim_fails_above(0.3) == pytest.approx(2.62, abs=0.01)
    assert dplab.subsampling_slide_claim_fails_above(0.5) == math.inf
    for p in (0.01, 0.2, 0.45):
        cross = dplab.subsampling_slide_claim_fails_above(p)
        assert cross > 1.0
        assert dplab.subsampling_epsilon(cross * 0.99, p) < 2 * p * cross * 0.99
        assert dplab.subsampling_epsilon(cross * 1.01, p) > 2 * p * cross * 1.01


def test_subsampling_accepts_an_array_of_epsilon():
    eps = np.array([0.1, 1.0, 3.0])
    np.testing.assert_allclose(dplab.subsampling_epsilon(eps, 0.2), np.log(1 + 0.2 * np.expm1(eps)))


def test_advanced_composition_reference_numbers():
    # LAB_SPEC.md references (dp-accounting 0.6.0): k-fold eps0 = 0.1, delta' = 1e-6
    for k, expected in ((10, 1.7674), (100, 6.3082), (1000, 27.1397)):
        eps, delta = dplab.advanced_composition(0.1, k, 1e-6)
        assert eps == pytest.approx(expected, abs=1e-4) and delta == 1e-6
    assert dplab.advanced_composition(0.1, 10, 1e-6, delta=1e-7)[1] == pytest.approx(1e-6 + 10 * 1e-7)


@pytest.mark.parametrize("k", [1, 10, 300])
def test_per_step_epsilon_inverts_advanced_composition(k):
    for total in (2.0, 1000.0):  # a large total once overflowed e^eps while bracketing the root
        step = dplab.advanced_composition_per_step(total, k, 1e-6)
        assert dplab.advanced_composition(step, k, 1e-6)[0] == pytest.approx(total, rel=1e-12)
    seed = dplab.advanced_composition_per_step(0.5, k, 1e-6, method="simplified")
    assert seed == pytest.approx(0.5 / math.sqrt(8 * k * math.log(1e6)))
    with pytest.raises(ValueError, match="epsilon_total <= 1|epsilon_total=2.0"):
        dplab.advanced_composition_per_step(2.0, k, 1e-6, method="simplified")


def test_seed_split_holds_up_to_its_max_epsilon():
    log_inv = math.log(1e6)
    for k, approx in ((1, 19.28), (10, 32.55)):
        top = dplab.advanced_composition_simplified_max_epsilon(k, 1e-6)
        assert top == pytest.approx(approx, abs=0.01)
        for eps, within in ((top * 0.999, True), (top * 1.001, False)):
            step = eps / math.sqrt(8 * k * log_inv)
            assert (dplab.advanced_composition(step, k, 1e-6)[0] <= eps) == within
    limit = dplab.advanced_composition_simplified_max_epsilon(10**8, 1e-6)
    assert limit == pytest.approx(4 * log_inv, rel=1e-3)


def test_exact_advanced_composition_beats_basic_from_k_30():
    k = dplab.advanced_beats_basic_from_k(1.0, 1e-6)
    assert k == 30  # the "about 30" at delta = 1e-6
    for j, wins in ((k, True), (k - 1, False)):
        assert (dplab.advanced_composition(1.0 / j, j, 1e-6)[0] < 1.0) == wins  # eps/k composes below 1


def test_subsampling_claim_holds_for_every_p_up_to_1_256():
    top = dplab.subsampling_slide_claim_holds_up_to()
    assert math.expm1(top) == pytest.approx(2 * top) and top == pytest.approx(1.2564, abs=1e-4)
    for p in (1e-6, 0.01, 0.1, 0.3, 0.49, 0.5, 0.9):
        assert 2 * p * top * 0.999 >= dplab.subsampling_epsilon(top * 0.999, p)
    assert dplab.subsampling_epsilon(top * 1.01, 1e-6) > 2e-6 * top * 1.01  # tiny p fails just above


def test_seed_max_epsilon_rises_towards_4_ln_inverse_delta():
    values = [dplab.advanced_composition_simplified_max_epsilon(k, 1e-6) for k in (1, 10, 100, 10**4, 10**8)]
    assert values == sorted(values) and values[-1] < 4 * math.log(1e6)


# LAB_SPEC.md, "Reference numbers": k-fold eps0 = 0.1 at delta = 1e-6, for k = 10 / 100 / 1000
REFERENCE_K = (10, 100, 1000)
DRV = (1.7674, 6.3082, 27.1397)
BASIC = (1.0, 10.0, 100.0)
ZCDP_CKS = (1.4716, 5.2215, 20.5519)


def test_basic_composition():
    for k, expected in zip(REFERENCE_K, BASIC, strict=True):
        assert accounting.basic_composition(0.1, k) == pytest.approx((expected, 0.0))
    assert accounting.basic_composition(0.5, 4, 1e-6) == pytest.approx((2.0, 4e-6))
    assert accounting.basic_composition(0.5, 3, 0.4) == (1.5, 1.0)  # delta capped at 1
    assert accounting.basic_composition(0.3, 7, 1e-7) == dplab.sequential_composition([0.3] * 7, [1e-7] * 7)
    assert accounting.basic_composition(0.1, 10**9) == pytest.approx((1e8, 0.0))  # no list of 10^9 entries


def test_sequential_composition_of_mixed_mechanisms():
    assert dplab.sequential_composition([0.1, 0.2, 0.1], [1e-6, 0.0, 1e-6]) == pytest.approx((0.4, 2e-6))
    assert dplab.sequential_composition([0.1] * 1000) == (math.fsum([0.1] * 1000), 0.0)
    assert dplab.sequential_composition([0.5, 0.5], [0.6, 0.7])[1] == 1.0


def kov_delta(eps: float, k: int, i: int, delta_step: float = 0.0) -> float:
    """Kairouz, Oh & Viswanath 2015, Theorem 3.3, written out term by term: the delta of
    k-fold composition at eps_i = (k - 2i) eps."""
    tilde = sum(math.comb(k, j) * (math.exp((k - j) * eps) - math.exp((k - 2 * i + j) * eps))
                for j in range(i)) / (1 + math.exp(eps)) ** k
    return 1 - (1 - delta_step) ** k * (1 - tilde)


@pytest.mark.parametrize("delta_step", [0.0, 1e-4])
def test_optimal_composition_on_the_theorem_grid(delta_step):
    for k, eps in itertools.product([1, 2, 3, 7, 12, 25], [0.05, 0.5, 1.5]):
        for i in range(k // 2 + 1):
            expected = kov_delta(eps, k, i, delta_step)
            got = accounting.optimal_composition_delta(eps, k, (k - 2 * i) * eps, delta_step=delta_step)
            assert got == pytest.approx(expected, rel=1e-10, abs=1e-15)
            if i > 0 or delta_step == 0:  # at i = 0 the budget left for the pure part is 0
                eps_i = accounting.optimal_composition(eps, k, expected, delta_step=delta_step)
                assert eps_i == pytest.approx((k - 2 * i) * eps, abs=1e-8)


def hockey_stick(pairs, k: int, eps_total: float) -> float:
    """sum over all outcomes of the k-fold product of [P(x) - e^eps' Q(x)]_+, by enumeration."""
    total = 0.0
    for outcome in itertools.product(pairs, repeat=k):
        p = math.prod(pq[0] for pq in outcome)
        q = math.prod(pq[1] for pq in outcome)
        total += max(0.0, p - math.exp(eps_total) * q)
    return total


@pytest.mark.parametrize("k, eps, delta_step", [(8, 0.3, 0.0), (5, 0.7, 0.0), (5, 0.4, 0.01)])
def test_optimal_delta_between_grid_points_is_the_worst_pair_hockey_stick(k, eps, delta_step):
    # one step of the worst (eps, delta)-DP pair (Kairouz, Oh & Viswanath's P~, Q~): outcomes with
    # (P, Q) = (d, 0), ((1 - d) p, (1 - d) q), ((1 - d) q, (1 - d) p), (0, d), d = delta_step
    p, q = math.exp(eps) / (1 + math.exp(eps)), 1 / (1 + math.exp(eps))
    ds = delta_step
    pairs = [(ds, 0.0), ((1 - ds) * p, (1 - ds) * q), ((1 - ds) * q, (1 - ds) * p), (0.0, ds)]
    pairs = [pq for pq in pairs if pq != (0.0, 0.0)]
    for eps_total in np.linspace(0, k * eps * 1.1, 23):
        expected = hockey_stick(pairs, k, eps_total)
        got = accounting.optimal_composition_delta(eps, k, eps_total, delta_step=delta_step)
        assert got == pytest.approx(expected, rel=1e-10, abs=1e-15)


@pytest.mark.parametrize("delta", [1e-10, 1e-6, 1e-2])
def test_optimal_beats_advanced_and_basic(delta):
    for eps, k in itertools.product([0.01, 0.1, 0.5, 1.0, 2.0], [1, 5, 30, 200, 2000]):
        optimal = accounting.optimal_composition(eps, k, delta)
        assert 0 <= optimal <= k * eps
        assert optimal <= dplab.advanced_composition(eps, k, delta)[0]
        if optimal > 0:  # solves delta(eps') = delta
            assert accounting.optimal_composition_delta(eps, k, optimal) == pytest.approx(delta, rel=1e-6)
        else:  # the total variation distance is already below delta
            assert accounting.optimal_composition_delta(eps, k, 0.0) <= delta
        assert accounting.optimal_composition(eps, k, delta / 10) >= optimal
        # with (eps, delta_step) steps: DRV gives (eps_total, k delta_step + delta')
        step = 1e-7
        with_step = accounting.optimal_composition(eps, k, k * step + delta, delta_step=step)
        assert with_step <= dplab.advanced_composition(eps, k, delta, delta=step)[0]
        assert accounting.optimal_composition(eps, k, k * step, delta_step=step) <= k * eps


def test_optimal_composition_pure_and_total_variation_ends():
    assert accounting.optimal_composition(0.3, 20, 0.0) == pytest.approx(6.0)  # delta = 0: basic
    assert accounting.optimal_composition(0.1, 4, 0.9) == 0.0  # the TV distance is below 0.9
    # k = 1: p (1 - e^(eps' - eps)) = delta with p = 1 / (1 + e^-eps)
    expected = 0.2 + math.log1p(-1e-3 * (1 + math.exp(-0.2)))
    assert accounting.optimal_composition(0.2, 1, 1e-3) == pytest.approx(expected)


def test_optimal_composition_below_the_lab_spec_bounds():
    for k, drv, basic, cks in zip(REFERENCE_K, DRV, BASIC, ZCDP_CKS, strict=True):
        optimal = accounting.optimal_composition(0.1, k, 1e-6)
        assert optimal <= min(drv, basic, cks)  # optimal for every eps0-DP mechanism


def kov_log_delta_large_k(eps: float, k: int, i: int) -> float:
    """ln of Theorem 3.3's delta_i (delta_step = 0) for large k, with math.lgamma and math.fsum."""
    logs = [math.lgamma(k + 1) - math.lgamma(j + 1) - math.lgamma(k - j + 1) + (k - j) * eps
            + math.log1p(-math.exp((2 * j - 2 * i) * eps)) for j in range(i)]
    top = max(logs)
    return top + math.log(math.fsum(math.exp(x - top) for x in logs)) - k * math.log1p(math.exp(eps))


def test_optimal_composition_at_k_10000():
    k, eps = 10_000, 0.1
    optimal = accounting.optimal_composition(eps, k, 1e-6)
    assert optimal < dplab.advanced_composition(eps, k, 1e-6)[0]
    i = math.ceil((k - optimal / eps) / 2)  # the theorem's grid point just below the answer
    assert (k - 2 * i) * eps <= optimal < (k - 2 * i + 2) * eps
    for j in (i, i - 1):
        got = accounting.optimal_composition_delta(eps, k, (k - 2 * j) * eps)
        assert math.log(got) == pytest.approx(kov_log_delta_large_k(eps, k, j), abs=1e-8)
    assert kov_delta(eps, 10, 3) == pytest.approx(math.exp(kov_log_delta_large_k(eps, 10, 3)))


def test_laplace_pld_beats_the_generic_optimal_bound(optional_module):
    """dp-accounting's PLD of 1000 Laplace mechanisms (scale 1/0.1) is below the optimal bound for
    every 0.1-DP mechanism: a specific mechanism's privacy loss can do better than the worst case."""
    dp_accounting = optional_module("dp_accounting")
    from dp_accounting.pld import pld_privacy_accountant

    accountant = pld_privacy_accountant.PLDAccountant()
    accountant.compose(dp_accounting.SelfComposedDpEvent(dp_accounting.LaplaceDpEvent(1 / 0.1), 1000))
    laplace = accountant.get_epsilon(1e-6)
    optimal = accounting.optimal_composition(0.1, 1000, 1e-6)
    assert laplace == pytest.approx(18.95, abs=0.01)
    assert optimal == pytest.approx(19.34, abs=0.01)
    assert laplace < optimal


def test_optimal_composition_is_the_randomized_response_pld(optional_module):
    """The worst pair is randomized response: dp-accounting's pessimistic PLD of k-fold binary
    randomized response (keep with probability e^eps / (1 + e^eps)) is at most k * 1e-4 above.
    (PLD.self_compose directly: PLDAccountant 0.6.0 ignores the count of a RandomizedResponseDpEvent.)"""
    optional_module("dp_accounting")
    from dp_accounting.pld import privacy_loss_distribution

    noise = 2 / (1 + math.exp(0.1))  # a random answer w.p. noise: keeps w.p. 1 - noise / 2
    for k in REFERENCE_K:
        rr = privacy_loss_distribution.from_randomized_response(noise_parameter=noise, num_buckets=2)
        pld = rr.self_compose(k).get_epsilon_for_delta(1e-6)
        optimal = accounting.optimal_composition(0.1, k, 1e-6)
        assert optimal - 1e-9 <= pld <= optimal + k * 1e-4 + 1e-9


NAN, INF = math.nan, math.inf
BAD_EPS = (0, -0.5, NAN, INF)
DELTA_01 = r"delta must be in \[0, 1\), got delta="
DELTA_STEP_01 = r"delta_step must be in \[0, 1\), got delta_step="
DELTA_PRIME = r"delta_prime must be in \(0, 1\), got delta_prime="
K_INT = "k must be a positive integer, got k="


@pytest.mark.parametrize("function, args, kwargs, message", [
    *[(function, (e, *rest), {}, f"epsilon must be finite and > 0, got epsilon={e!r}") for e in BAD_EPS
      for function, rest in ((accounting.basic_composition, (10,)), (dplab.advanced_composition, (10, 1e-6)),
                             (accounting.optimal_composition, (10, 1e-6)),
                             (accounting.optimal_composition_delta, (10, 1.0)))],
    (accounting.basic_composition, (0.1, 0), {}, K_INT + "0"),
    (dplab.advanced_composition, (0.1, -2, 1e-6), {}, K_INT + "-2"),
    (accounting.optimal_composition, (0.1, 0, 1e-6), {}, K_INT + "0"),
    (accounting.optimal_composition_delta, (0.1, -1, 1.0), {}, K_INT + "-1"),
    (accounting.basic_composition, (0.1, 3, 1.0), {}, DELTA_01 + "1.0"),
    (accounting.basic_composition, (0.1, 3, -1e-9), {}, DELTA_01 + "-1e-09"),
    (dplab.advanced_composition, (0.1, 3, 1e-6), {"delta": 1.5}, DELTA_01 + "1.5"),
    (accounting.optimal_composition, (0.1, 10, 1.0), {}, DELTA_01 + "1.0"),
    (accounting.optimal_composition, (0.1, 10, NAN), {}, DELTA_01 + "nan"),
    (accounting.optimal_composition, (0.1, 10, -0.5), {}, DELTA_01 + "-0.5"),
    (dplab.advanced_composition, (0.1, 3, 0.0), {}, DELTA_PRIME + "0.0"),
    (dplab.advanced_composition_per_step, (1.0, 3, 1.0), {}, DELTA_PRIME + "1.0"),
    (accounting.optimal_composition, (0.1, 10, 1e-6), {"delta_step": 1.0}, DELTA_STEP_01 + "1.0"),
    (accounting.optimal_composition, (0.1, 10, 1e-6), {"delta_step": -0.1}, DELTA_STEP_01 + "-0.1"),
    (accounting.optimal_composition_delta, (0.1, 10, 1.0), {"delta_step": 2.0}, DELTA_STEP_01 + "2.0"),
    (accounting.optimal_composition, (0.1, 10, 1e-6), {"delta_step": 1e-6},
     r"delta must be >= 1 - \(1 - delta_step\)\^k = .*got delta=1e-06, delta_step=1e-06"),
    (accounting.optimal_composition_delta, (0.1, 10, -1.0), {},
     "epsilon_total must be finite and >= 0, got epsilon_total=-1.0"),
    (accounting.optimal_composition_delta, (0.1, 10, INF), {},
     "epsilon_total must be finite and >= 0, got epsilon_total=inf"),
    (dplab.advanced_composition_per_step, (1.0, 3, 1e-6), {"method": "drv"},
     r"method must be one of \('exact', 'simplified'\), got method='drv'"),
])
def test_bad_input_of_k_fold_composition(function, args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        function(*args, **kwargs)


@pytest.mark.parametrize("function, args", [
    (accounting.basic_composition, (0.1, 2.5)),
    (dplab.advanced_composition, (0.1, 2.5, 1e-6)),
    (accounting.optimal_composition, (0.1, 1.5, 1e-6)),
    (accounting.optimal_composition_delta, (0.1, "3", 1.0)),
])
def test_k_must_be_a_whole_number(function, args):
    with pytest.raises(TypeError, match=K_INT + re.escape(repr(args[1]))):
        function(*args)
