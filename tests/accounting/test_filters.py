"""Privacy filters: exact accounting, halting, the zCDP guarantee, Brownian charges, bad input."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dplab
from dplab import accounting


def exact(x: float) -> Fraction:
    return Fraction(repr(float(x)))


# costs with up to three decimals, some too large for any budget below
costs = st.integers(1, 3000).map(lambda k: k / 1000)
budgets = st.integers(1, 2000).map(lambda k: k / 1000)


def test_point_one_plus_point_two_is_point_three_for_both_filters():
    assert math.fsum([0.1, 0.2]) > 0.3  # why floats are not enough
    for f in (accounting.BasicFilter(0.3), accounting.ZCDPFilter(0.3)):
        assert f.request(0.1) and f.request(0.2)
        assert f.spent_exact == Fraction(3, 10) and f.remaining_exact == 0
        assert f.spent == 0.3 and f.remaining == 0.0
        assert f.halted
        assert not f.request(1e-12)
        assert f.spent_exact == Fraction(3, 10)


def test_basic_filter_with_delta_point_one_plus_point_two():
    f = accounting.BasicFilter(1.0, 0.3)
    assert f.request(0.5, 0.1) and f.request(0.5, 0.2)
    assert f.spent_delta_exact == Fraction(3, 10) and f.remaining_delta == 0.0
    assert not f.request(1e-9)


def test_a_cost_equal_to_the_remaining_budget_is_accepted():
    f = accounting.BasicFilter(1.0, 1e-5)
    assert f.request(0.25, 1e-6)
    assert f.remaining == 0.75 and f.remaining_delta == 9e-6
    assert f.request(f.remaining, f.remaining_delta)
    assert f.spent == 1.0 and f.spent_delta == 1e-5
    g = accounting.ZCDPFilter(0.7)
    assert g.request(0.3) and g.request(0.4)
    assert g.halted


def test_refuses_and_stays_refused():
    f = accounting.BasicFilter(1.0)
    assert f.request(0.4)
    assert not f.halted
    assert not f.request(0.7)  # does not fit: nothing spent
    assert f.halted and f.spent == 0.4 and f.remaining == 0.6
    assert not f.request(0.01)  # would fit, but the filter has halted
    assert f.spent == 0.4
    z = accounting.ZCDPFilter(0.5)
    assert not z.request(0.6)
    assert z.halted and z.spent == 0.0 and not z.request(0.1)
    assert z.min_brownian_time(1.0) == math.inf


def test_pure_filter_refuses_any_delta():
    f = accounting.BasicFilter(1.0)
    assert f.delta == 0.0
    assert not f.request(0.1, 1e-9)
    assert f.halted and f.spent == 0.0


@settings(deadline=None, max_examples=200)
@given(budget=budgets, delta_budget=st.sampled_from([0.0, 1e-6, 0.01, 0.3]), data=st.data())
def test_basic_filter_adaptive_sequences(budget, delta_budget, data):
    f = accounting.BasicFilter(budget, delta_budget)
    accepted_eps, accepted_delta, refused = Fraction(0), Fraction(0), False
    for _ in range(data.draw(st.integers(1, 25))):
        # adaptive: sometimes ask for exactly what remains, else a random cost
        if f.remaining > 0 and data.draw(st.booleans()):
            eps = f.remaining
        else:
            eps = data.draw(costs)
        dlt = data.draw(st.sampled_from([0.0, 1e-7, 1e-6, 0.1, 0.2]))
        fits = (accepted_eps + exact(eps) <= exact(budget)
                and accepted_delta + exact(dlt) <= exact(delta_budget))
        answer = f.request(eps, dlt)
        assert answer == (fits and not refused)  # exactly the rule, exact arithmetic
        if answer:
            accepted_eps += exact(eps)
            accepted_delta += exact(dlt)
        refused = refused or not answer
        assert accepted_eps <= exact(budget) and accepted_delta <= exact(delta_budget)
        assert f.spent_exact == accepted_eps and f.spent_delta_exact == accepted_delta
        assert f.spent_exact + f.remaining_exact == exact(budget)
        assert f.spent_delta_exact + f.remaining_delta_exact == exact(delta_budget)
        assert f.spent + f.remaining == pytest.approx(budget)
        assert f.halted == (refused or accepted_eps == exact(budget))


@settings(deadline=None, max_examples=200)
@given(budget=st.one_of(budgets, st.floats(1e-4, 5.0)), data=st.data())
def test_zcdp_filter_adaptive_sequences(budget, data):
    f = accounting.ZCDPFilter(budget)
    accepted, refused = Fraction(0), False
    for _ in range(data.draw(st.integers(1, 25))):
        kind = data.draw(st.sampled_from(["rho", "remaining", "gaussian", "gaussian_min", "brownian",
                                          "brownian_min"]))
        sens = data.draw(st.sampled_from([0.5, 1.0, 2.0, 3.7]))
        must_fit = kind in ("remaining", "gaussian_min", "brownian_min") and not f.halted
        if kind == "rho":
            method, args = f.request, (data.draw(costs),)
        elif kind == "remaining" and not f.halted:
            method, args = f.request, (f.remaining,)
        elif kind == "gaussian":
            method, args = f.request_gaussian, (sens, data.draw(st.integers(1, 500).map(lambda k: k / 100)))
        elif kind == "gaussian_min" and not f.halted:
            method, args = f.request_gaussian, (sens, f.min_gaussian_sigma(sens))
        elif kind == "brownian_min" and not f.halted:
            method, args = f.request_brownian, (sens, f.min_brownian_time(sens))
        else:
            method, args = f.request_brownian, (sens, data.draw(st.integers(1, 5000).map(lambda k: k / 100)))
        if method == f.request:
            answer_cost = exact(args[0])
        elif method == f.request_gaussian:
            answer_cost = exact(sens) ** 2 / (2 * exact(args[1]) ** 2)
        else:
            answer_cost = exact(sens) ** 2 / (2 * exact(args[1]))
        fits = accepted + answer_cost <= exact(budget)
        if must_fit:
            assert fits  # what remains, the smallest allowed sigma or time: always fits
        answer = method(*args)
        assert answer == (fits and not refused)
        if answer:
            accepted += answer_cost
        refused = refused or not answer
        assert accepted <= exact(budget)
        assert f.spent_exact == accepted
        assert f.spent_exact + f.remaining_exact == exact(budget)
        assert exact(f.remaining) <= f.remaining_exact  # rounded down, never overstated
        assert f.halted == (refused or accepted == exact(budget))


@settings(deadline=None, max_examples=200)
@given(eps=st.floats(0.01, 10), delta=st.floats(1e-12, 0.5))
def test_from_approx_dp_converts_back(eps, delta):
    f = accounting.ZCDPFilter.from_approx_dp(eps, delta)
    assert f.delta == delta
    assert f.rho == accounting.approx_dp_to_zcdp(eps, delta)
    assert f.epsilon() == pytest.approx(eps, rel=1e-9)
    assert f.guarantee() == (f.epsilon(), delta)
    assert dplab.zcdp_to_approx_dp(f.rho, delta) == pytest.approx(eps, rel=1e-9)
    # the guarantee is that of the budget, whatever has been spent
    assert f.request(f.rho / 2) and f.epsilon() == pytest.approx(eps, rel=1e-9)


def test_guarantee_is_the_simple_conversion():
    f = accounting.ZCDPFilter(0.5)
    assert f.delta is None
    assert f.epsilon(1e-6) == pytest.approx(5.756522, abs=1e-6)  # the zcdp.py reference number
    assert f.guarantee(1e-6) == (dplab.zcdp_to_approx_dp(0.5, 1e-6), 1e-6)
    with pytest.raises(ValueError, match="delta=None"):
        f.guarantee()


@pytest.mark.catches("filters.brownian_charged_twice")
def test_brownian_charge_and_min_time():
    """catches: filters.brownian_charged_twice (a Brownian run charged Delta^2/T): the exact charges."""
    f = accounting.ZCDPFilter(0.5)
    assert f.min_brownian_time(1.0) == 1.0  # Delta^2 / (2 * 0.5)
    assert f.request_brownian(2.0, 10.0)  # charges 4 / 20 = 0.2
    assert f.spent_exact == Fraction(1, 5)
    assert f.min_brownian_time(3.0) == 15.0  # 9 / (2 * 0.3)
    assert not f.request_brownian(3.0, math.nextafter(15.0, 0))  # below the smallest time: refused
    assert f.halted and f.spent_exact == Fraction(1, 5)
    g = accounting.ZCDPFilter(0.5)
    assert g.request_brownian(3.0, 15.0) and g.request_brownian(1.0, 2.5)  # 0.3 + 0.2: exactly full
    assert g.halted and g.spent_exact == Fraction(1, 2)


def test_gaussian_charge_matches_brownian_of_variance_sigma_squared():
    f, g = accounting.ZCDPFilter(1.0), accounting.ZCDPFilter(1.0)
    assert f.request_gaussian(1.0, 2.0) and g.request_brownian(1.0, 4.0)
    assert f.spent_exact == g.spent_exact == Fraction(1, 8)
    sigma = f.min_gaussian_sigma(1.0)  # sigma for the rest of the budget
    assert sigma == pytest.approx(dplab.gaussian_sigma_zcdp(1.0, 0.875), rel=1e-15)
    assert not accounting.ZCDPFilter(0.875).request_gaussian(1.0, math.nextafter(sigma, 0))
    assert f.request_gaussian(1.0, sigma)
    assert f.spent == pytest.approx(1.0) and f.spent_exact <= 1


@settings(deadline=None, max_examples=200)
@given(budget=st.floats(1e-6, 10), spent=st.floats(0.01, 0.99), sens=st.floats(1e-3, 1e3),
       gaussian=st.booleans())
def test_min_time_and_min_sigma_are_the_exact_thresholds(budget, spent, sens, gaussian):
    def fresh():
        f = accounting.ZCDPFilter(budget)
        assert f.request(budget * spent)
        return f

    f = fresh()
    rest = float(f.remaining_exact)
    if gaussian:
        threshold, request = f.min_gaussian_sigma(sens), "request_gaussian"
        assert threshold == pytest.approx(sens / math.sqrt(2 * rest), rel=1e-12)
    else:
        threshold, request = f.min_brownian_time(sens), "request_brownian"
        assert threshold == pytest.approx(sens**2 / (2 * rest), rel=1e-12)
    assert not getattr(fresh(), request)(sens, math.nextafter(threshold, 0))  # one float below: refused
    assert getattr(f, request)(sens, threshold)  # the threshold itself: accepted
    assert f.spent_exact <= exact(budget)


@pytest.mark.parametrize("bad", [0, -0.1, math.nan, math.inf, -math.inf])
def test_bad_costs_name_the_parameter_and_change_nothing(bad):
    f, z = accounting.BasicFilter(1.0, 1e-6), accounting.ZCDPFilter(1.0)
    calls = [
        ("epsilon", lambda: f.request(bad)),
        ("rho", lambda: z.request(bad)),
        ("sensitivity", lambda: z.request_brownian(bad, 1.0)),
        ("time", lambda: z.request_brownian(1.0, bad)),
        ("sensitivity", lambda: z.request_gaussian(bad, 1.0)),
        ("sigma", lambda: z.request_gaussian(1.0, bad)),
        ("sensitivity", lambda: z.min_brownian_time(bad)),
        ("epsilon", lambda: accounting.BasicFilter(bad)),
        ("rho", lambda: accounting.ZCDPFilter(bad)),
        ("epsilon", lambda: accounting.ZCDPFilter.from_approx_dp(bad, 1e-6)),
    ]
    for name, call in calls:
        with pytest.raises(ValueError, match=f"{name} must be finite and > 0, got {name}={bad!r}"):
            call()
    assert not f.halted and not z.halted and f.spent == 0 and z.spent == 0
    assert f.request(0.5) and z.request(0.5)


@pytest.mark.parametrize("bad", [-0.1, 1.0, 1.5, math.nan, math.inf])
def test_bad_deltas(bad):
    with pytest.raises(ValueError, match=rf"delta must be in \[0, 1\), got delta={bad!r}"):
        accounting.BasicFilter(1.0, bad)
    with pytest.raises(ValueError, match=rf"delta must be in \[0, 1\), got delta={bad!r}"):
        accounting.BasicFilter(1.0, 0.5).request(0.1, bad)
    z = accounting.ZCDPFilter(1.0)
    for call in (lambda: accounting.ZCDPFilter.from_approx_dp(1.0, bad), lambda: z.guarantee(bad),
                 lambda: z.epsilon(bad), lambda: accounting.ZCDPFilter(1.0, delta=bad)):
        with pytest.raises(ValueError, match=rf"delta must be in \(0, 1\), got delta={bad!r}"):
            call()


def test_delta_zero_is_a_budget_for_basic_but_not_for_zcdp():
    assert accounting.BasicFilter(1.0, 0).delta == 0.0
    assert accounting.BasicFilter(1.0, 0.5).request(0.1, 0)
    with pytest.raises(ValueError, match=r"delta must be in \(0, 1\), got delta=0"):
        accounting.ZCDPFilter.from_approx_dp(1.0, 0)
    with pytest.raises(ValueError, match=r"delta must be in \(0, 1\), got delta=0"):
        accounting.ZCDPFilter(1.0).guarantee(0)


def test_non_numbers_are_type_errors():
    with pytest.raises(TypeError, match="epsilon must be a real number, got epsilon='0.1'"):
        accounting.BasicFilter(1.0).request("0.1")
    with pytest.raises(TypeError, match="rho must be a real number, got rho=None"):
        accounting.ZCDPFilter(None)
    with pytest.raises(TypeError, match="rho must be a real number, got rho=True"):
        accounting.ZCDPFilter(1.0).request(True)


def test_repr_is_readable():
    f = accounting.BasicFilter(1.0, 1e-6)
    f.request(0.25, 1e-7)
    assert repr(f) == ("BasicFilter(epsilon=1.0, delta=1e-06, spent=(0.25, 1e-07), "
                       "remaining=(0.75, 9e-07), halted=False)")
    z = accounting.ZCDPFilter(0.5)
    z.request(0.2)
    assert repr(z) == "ZCDPFilter(rho=0.5, spent=0.2, remaining=0.3, halted=False)"
    assert "delta=1e-06, epsilon=" in repr(accounting.ZCDPFilter.from_approx_dp(1.0, 1e-6))


def test_filter_trace_records_each_answer_and_the_total_after_it():
    """catches: a trace that reads ``spent`` before the request (one step behind) or keeps answering
    after a refusal. Independent: exact rational sums, halting at the first cost that does not fit."""
    costs = (0.1, 0.2, 0.15, 0.25, 0.4, 0.2, 0.05)
    for make, budget in ((accounting.BasicFilter, 1.0), (accounting.ZCDPFilter, 0.7)):
        spent, halted, expected = Fraction(0), False, []
        for c in costs:
            ok = not halted and spent + exact(c) <= exact(budget)
            halted |= not ok
            spent += exact(c) if ok else 0
            expected.append((ok, float(spent)))
        assert accounting.filter_trace(make(budget), costs) == expected
    sigma = 1 / math.sqrt(2 * 0.25)
    trace = accounting.filter_trace(accounting.ZCDPFilter(0.6), [dplab.mechanisms.Gaussian(1.0, sigma)] * 3)
    assert [ok for ok, _ in trace] == [True, True, False] and trace[-1][1] == pytest.approx(0.5)


@settings(deadline=None, max_examples=200)
@given(budget=st.floats(0.05, 3.0), data=st.data())
@pytest.mark.catches("filters.brownian_settles_cap")
def test_brownian_reservations_hold_their_cap_and_settle_what_the_run_cost(budget, data):
    """catches: a reservation that is not held while the run is under way (other requests could then
    spend what the run may still cost: the filter would end past its budget), a settlement that charges
    the cap instead of Delta^2/(2T) or forgets to return the rest, and a stop before the reserved time.

    Independent: the accepted charges and open caps added up in exact rationals beside the filter."""
    f = accounting.ZCDPFilter(budget)
    spent, open_runs, refused = Fraction(0), [], False
    for _ in range(data.draw(st.integers(1, 20))):
        if open_runs and data.draw(st.booleans()):
            run = open_runs.pop(data.draw(st.integers(0, len(open_runs) - 1)))
            time = run.min_time * data.draw(st.sampled_from([1.0, 1.5, 4.0]))
            assert run.settle(time) == pytest.approx(run.sensitivity**2 / (2 * time))
            spent += exact(run.sensitivity) ** 2 / (2 * exact(time))
            with pytest.raises(ValueError, match="settled already"):
                run.settle(time)
        else:
            sens = data.draw(st.sampled_from([0.5, 1.0, 2.0]))
            t_min = data.draw(st.integers(1, 400).map(lambda k: k / 100))
            held = sum((exact(r.sensitivity) ** 2 / (2 * exact(r.min_time)) for r in open_runs), Fraction(0))
            fits = not refused and spent + held + exact(sens) ** 2 / (2 * exact(t_min)) <= exact(budget)
            run = f.reserve_brownian(sens, t_min)
            assert (run is not None) == fits
            refused = refused or not fits
            open_runs += [run] if run is not None else []
        held = sum((exact(r.sensitivity) ** 2 / (2 * exact(r.min_time)) for r in open_runs), Fraction(0))
        assert f.spent_exact == spent and f.remaining_exact == exact(budget) - spent - held >= 0


def test_a_reservation_refuses_a_stop_before_its_time():
    f = accounting.ZCDPFilter(1.0)
    r = f.reserve_brownian(1.0, 2.0)  # cap 1/4
    assert r.cap == 0.25 and f.remaining == 0.75
    with pytest.raises(ValueError, match="min_time=2.0, got time=1.0"):
        r.settle(1.0)
    assert r.settle(4.0) == 0.125 and f.spent == 0.125 and f.reserved == 0 and f.remaining == 0.875
    assert f.reserve_brownian(1.0, 0.5) is None and f.halted  # cap 1 > 0.875: refused for good


@settings(deadline=None, max_examples=200)
@given(budget=budgets, data=st.data())
@pytest.mark.catches("filters.expost_settles_cap")
def test_ex_post_reservations_never_let_the_filter_spend_past_its_budget(budget, data):
    """Lemma 5.2's condition (each ex-post run's largest epsilon fits what is left) with requests mixed in:
    independent: the accepted charges and open caps added up in exact rationals beside the filter."""
    f = accounting.BasicFilter(budget)
    spent, open_runs, refused = Fraction(0), [], False
    for _ in range(data.draw(st.integers(1, 20))):
        action = data.draw(st.sampled_from(["reserve", "settle", "request"]))
        held = sum((exact(r.cap) for r in open_runs), Fraction(0))
        if action == "settle" and open_runs:
            run = open_runs.pop(0)
            eps = run.cap * data.draw(st.sampled_from([0.25, 0.5, 1.0]))
            assert run.settle(eps) == eps
            spent += exact(eps)
            with pytest.raises(ValueError, match="settled already"):
                run.settle(eps)
        else:
            cost = data.draw(costs)
            fits = not refused and spent + held + exact(cost) <= exact(budget)
            if action == "reserve":
                run = f.reserve(cost)
                assert (run is not None) == fits
                open_runs += [run] if run is not None else []
            else:
                assert f.request(cost) == fits
                spent += exact(cost) if fits else 0
            refused = refused or not fits
        held = sum((exact(r.cap) for r in open_runs), Fraction(0))
        assert f.spent_exact == spent and f.remaining_exact == exact(budget) - spent - held >= 0
        assert f.spent_exact + held <= exact(budget)


def test_an_ex_post_reservation_refuses_a_charge_above_its_cap():
    f = accounting.BasicFilter(1.0)
    r = f.reserve(0.4)
    assert f.remaining == 0.6 and f.reserved == 0.4 and f.spent == 0
    with pytest.raises(ValueError, match="cap=0.4, got epsilon=0.5"):
        r.settle(0.5)
    assert r.settle(0.1) == 0.1 and f.spent == 0.1 and f.reserved == 0 and f.remaining == 0.9
    assert f.reserve(0.95) is None and f.halted


def test_floats_would_accept_past_the_budget_the_filter_does_not():
    """The unsafe side of floating point: 0.1 + 0.7 = 0.7999999999999999, and 1e-16 more still 'fits' 0.8."""
    assert 0.1 + 0.7 < 0.8 and 0.1 + 0.7 + 1e-16 <= 0.8
    f = accounting.BasicFilter(0.8)
    assert f.request(0.1) and f.request(0.7) and not f.request(1e-16)
    assert f.spent_exact == Fraction(8, 10)


@pytest.mark.catches("filters.step_delta_per_step")
def test_approximate_zcdp_steps_add_their_deltas():
    """Theorem 2 of the seed paper: sum rho_i <= rho and sum delta_i <= step_delta; the guarantee's delta is
    delta + step_delta. Independent: the sums in rationals."""
    f = accounting.ZCDPFilter(1.0, delta=1e-6, step_delta=1e-6)
    assert f.request(0.2, delta=4e-7) and f.request(0.2, delta=4e-7) and f.request(0.1)
    assert f.spent_delta == pytest.approx(8e-7) and f.spent == pytest.approx(0.5)
    assert not f.request(0.1, delta=4e-7) and f.halted  # 1.2e-6 > 1e-6 although rho fits
    eps, delta = f.guarantee()
    assert delta == pytest.approx(2e-6) and eps == pytest.approx(1 + 2 * math.sqrt(math.log(1e6)))
    g = accounting.ZCDPFilter(1.0)
    assert not g.request(0.1, delta=1e-9)  # no step_delta: every step must be plain zCDP
    with pytest.raises(ValueError, match="step_delta"):
        accounting.ZCDPFilter(1.0, step_delta=1.5)


@pytest.mark.catches("filters.odometer_no_union_bound")
@pytest.mark.parametrize("spent", [0.0, 1e-7, 1e-6, 1.5e-6, 3e-4, 0.01, 2.0])
def test_odometer_reading_is_the_doubling_filter_bound(spent):
    """Independent: the smallest rho_min 2^j >= spent by search over j, delta_j = delta/((j+1)(j+2))."""
    j = next(j for j in range(100) if 1e-6 * 2**j >= spent)
    rho_j, delta_j = 1e-6 * 2**j, 1e-6 / ((j + 1) * (j + 2))
    expected = rho_j + 2 * math.sqrt(rho_j * math.log(1 / delta_j))
    assert accounting.zcdp_odometer_epsilon(spent, 1e-6) == pytest.approx(expected, rel=1e-12)
    # never below the bound of a filter whose budget were fixed at what was spent
    assert accounting.zcdp_odometer_epsilon(spent, 1e-6) >= dplab.zcdp_to_approx_dp(max(spent, 1e-300), 1e-6)
    assert sum(1 / ((j + 1) * (j + 2)) for j in range(10_000)) <= 1


def test_odometer_holds_at_every_step_of_adaptive_gaussians():
    """Monte Carlo: Gaussians (Delta = 1) whose rho doubles after an output above the truth and halves
    otherwise; the realised loss L_n = sum (rho_i - z_i sqrt(2 rho_i)) ever above the odometer's reading in
    at most delta of the runs (delta = 0.2; 99.9% intervals), while the filter bound at the rho spent, read
    at every step as if fixed in advance, is crossed in more than delta (the odometer is needed)."""
    rng = np.random.default_rng(7)
    runs, delta = 20_000, 0.2
    rho = np.full(runs, 0.01)
    loss, spent = np.zeros(runs), np.zeros(runs)
    crossed, naive = np.zeros(runs, dtype=bool), np.zeros(runs, dtype=bool)
    for _ in range(60):
        z = rng.standard_normal(runs)
        loss += rho - z * np.sqrt(2 * rho)
        spent += rho
        crossed |= loss > accounting.zcdp_odometer_epsilon(spent, delta, rho_min=0.01)
        naive |= loss > spent + 2 * np.sqrt(spent * math.log(1 / delta))
        rho = np.where(z > 0, np.minimum(rho * 2, 1.0), np.maximum(rho / 2, 0.01 / 8))
    assert dplab.proportion_ci(int(crossed.sum()), runs, 0.999).high <= delta
    assert dplab.proportion_ci(int(naive.sum()), runs, 0.999).low > delta
    odometer = accounting.ZCDPOdometer(1e-6)
    assert odometer.request(0.25) == accounting.zcdp_odometer_epsilon(0.25, 1e-6) and odometer.spent == 0.25


@pytest.mark.parametrize("kwargs, match", [({"spent": -1.0}, "spent"), ({"delta": 0.0}, "delta"),
                                           ({"rho_min": 0.0}, "rho_min")])
def test_odometer_bad_input(kwargs, match):
    args = {"spent": 0.1, "delta": 1e-6, "rho_min": 1e-6} | kwargs
    with pytest.raises(ValueError, match=match):
        accounting.zcdp_odometer_epsilon(**args)


@pytest.mark.catches("filters.fraction_rounded")
def test_a_fraction_cost_is_charged_exactly_not_rounded_to_a_float():
    """The module promises the number the user typed: Fraction(2, 3) is 2/3, not the float 0.6666666666666666
    (which is below 2/3, so that 0.3333333333333334 would fit and the exact total end past the budget).
    Independent: 2/3 + the decimal 0.3333333333333334 > 1 in rationals."""
    third = exact(0.3333333333333334)
    assert Fraction(2, 3) + third > 1 >= exact(float(Fraction(2, 3))) + third
    f = accounting.BasicFilter(1.0)
    assert f.request(Fraction(2, 3)) and f.spent_exact == Fraction(2, 3)
    assert not f.request(0.3333333333333334) and f.spent_exact == Fraction(2, 3)
    g = accounting.BasicFilter(Fraction(1, 3))  # a Fraction budget is exact too
    assert g.request(Fraction(1, 9)) and g.request(Fraction(2, 9)) and g.halted and g.remaining_exact == 0
    z = accounting.ZCDPFilter(1.0)
    assert z.request(Fraction(2, 3)) and not z.request(0.3333333333333334) and z.spent_exact == Fraction(2, 3)
    held = accounting.ZCDPFilter(1.0).reserve_brownian(1, Fraction(2, 3))  # cap exactly 3/4
    with pytest.raises(ValueError, match="min_time"):
        held.settle(0.6666666666666666)  # the float is below 2/3: it would charge more than the cap
    odometer = accounting.ZCDPOdometer(1e-6)
    odometer.request(Fraction(1, 3))
    odometer.request(Fraction(2, 3))
    assert odometer.spent == 1.0


@settings(deadline=None, max_examples=200)
@given(budget=st.fractions(Fraction(1, 50), 2, max_denominator=50),
       requests=st.lists(st.one_of(st.fractions(Fraction(1, 50), 1, max_denominator=50), costs), max_size=12))
def test_fractions_and_floats_mixed_never_spend_past_the_budget(budget, requests):
    """Independent: the accepted costs added in rationals (a Fraction as itself, a float as its decimal)."""
    for f in (accounting.BasicFilter(budget), accounting.ZCDPFilter(budget)):
        spent, refused = Fraction(0), False
        for c in requests:
            cost = c if isinstance(c, Fraction) else exact(c)
            fits = not refused and spent + cost <= budget
            assert f.request(c) == fits
            spent, refused = spent + (cost if fits else 0), refused or not fits
            assert f.spent_exact == spent <= budget


def test_a_refused_reserve_spends_nothing():
    """A mechanism description is not a cap: refused (ValueError naming epsilon) before anything is spent;
    a cap that does not fit is refused and spends nothing either."""
    f = accounting.BasicFilter(1.0)
    with pytest.raises(ValueError, match="epsilon must be a number.*got epsilon=Laplace"):
        f.reserve(dplab.mechanisms.Laplace(1.0, 0.3))
    assert f.spent_exact == 0 and f.reserved == 0 and not f.halted
    for bad in (0.0, -0.1, math.nan, math.inf):
        with pytest.raises(ValueError, match="epsilon"):
            f.reserve(bad)
        assert f.spent_exact == 0 and f.reserved == 0 and not f.halted
    assert f.reserve(1.5) is None and f.spent_exact == 0 and f.reserved == 0 and f.halted


def test_a_zcdp_mechanism_request_takes_a_step_delta():
    """A Gaussian is rho-zCDP, so also delta-approximate rho-zCDP: charged rho = Delta^2/(2 sigma^2) exactly
    and delta against step_delta. Independent: 1/(2 * 2^2) = 1/8."""
    f = accounting.ZCDPFilter(1.0, step_delta=1e-6)
    assert f.request(dplab.mechanisms.Gaussian(1.0, 2.0), delta=4e-7)
    assert f.spent_exact == Fraction(1, 8) and f.spent_delta == 4e-7
    assert not f.request(dplab.mechanisms.Gaussian(1.0, 2.0), delta=8e-7) and f.spent_exact == Fraction(1, 8)
    with pytest.raises(ValueError, match="delta must be in"):
        accounting.ZCDPFilter(1.0).request(dplab.mechanisms.Gaussian(1.0, 1.0), delta=1.5)


@pytest.mark.catches("filters.pure_rho_in_floats")
def test_an_eps_dp_mechanism_is_charged_eps_squared_over_2_exactly():
    """catches: an eps-DP step charged eps^2/2 worked out in floats: a budget of 3.32928 took ten
    Laplace(1, 0.816) steps and then a 4e-16 request, ending 4e-16 past its budget."""
    step = dplab.mechanisms.Laplace(1, 0.816)
    budget = 3.32928
    accountant = accounting.ZCDPFilter(budget, delta=1e-6)
    charged = [Fraction(step.epsilon) ** 2 / 2 for _ in range(10) if accountant.request(step)]
    charged += [Fraction(4e-16)] if accountant.request(4e-16) else []
    assert len(charged) >= 10 and sum(charged) <= Fraction(budget)  # rationals: the true total
    assert accountant.spent >= float(sum(charged))  # what it reports is never below what it spent
