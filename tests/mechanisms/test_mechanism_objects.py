"""The mechanism objects: each representation of a mechanism's privacy checked against an
independent computation (numerical integration of the two output densities, a brute-force sum
over outputs), its sampler against its law, and its bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, stats

import dplab
from dplab.mechanisms import EpsilonDelta, Gaussian, Laplace, RandomizedResponse, laplace_mechanism
from dplab.promises import tradeoff_discrete, tradeoff_dp

LEVEL = 0.999


def _hockey_stick(p, q, e: float, lo: float, hi: float, kinks=()) -> float:
    """delta(e) = integral of (p - e^e q)_+, by quadrature on [lo, hi] (independent of dplab)."""
    value, _ = integrate.quad(lambda y: max(0.0, p(y) - math.exp(e) * q(y)), lo, hi, points=list(kinks),
                              limit=400, epsabs=1e-13)
    return value


def _renyi(log_p, log_q, alpha: float, lo: float, hi: float, kinks=()) -> float:
    """D_alpha(p || q) = ln(integral of p^alpha q^(1 - alpha)) / (alpha - 1), by quadrature (the
    integrand from the log densities, so the tails do not overflow)."""
    value, _ = integrate.quad(lambda y: math.exp(alpha * log_p(y) + (1 - alpha) * log_q(y)), lo, hi,
                              points=list(kinks), limit=400, epsabs=1e-14)
    return math.log(value) / (alpha - 1)


@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0])
def test_laplace_profile_and_renyi_curve_are_the_integrals(eps):
    """catches: a wrong closed form of Laplace's privacy profile (e.g. 1 - e^(e - eps) without the
    halving) or of Mironov's Renyi divergence (a swapped weight)."""
    lap = Laplace(2.0, eps)  # scale 2/eps, neighbours 0 and 2
    d, d_prime = stats.laplace(0, lap.scale), stats.laplace(2.0, lap.scale)
    width = 60 * lap.scale
    for e in (0.0, eps / 3, eps / 2, 0.9 * eps, eps, 2 * eps):
        exact = _hockey_stick(d.pdf, d_prime.pdf, e, -width, width, (0.0, 2.0))
        assert lap.delta(e) == pytest.approx(exact, abs=1e-9), e
    for alpha in (1.5, 2.0, 5.0, 20.0):
        exact = _renyi(d.logpdf, d_prime.logpdf, alpha, -width, width, (0.0, 2.0))
        assert lap.rdp(alpha) == pytest.approx(exact, rel=1e-7), alpha
    assert np.allclose(lap.rdp([1.5, 2.0]), [lap.rdp(1.5), lap.rdp(2.0)])
    assert lap.epsilon_delta() == (eps, 0.0) and lap.zcdp_rho() == pytest.approx(eps**2 / 2)


@pytest.mark.parametrize("mu", [0.5, 1.0, 3.0])
def test_gaussian_profile_and_renyi_curve_are_the_integrals(mu):
    """catches: a profile off the hockey-stick integral (at eps = 0 the total variation), a Renyi
    curve without alpha, mu computed as sigma / Delta."""
    g = Gaussian(mu * 1.5, 1.5)
    assert g.mu == pytest.approx(mu)
    d, d_prime = stats.norm(0, 1.5), stats.norm(g.sensitivity, 1.5)
    for e in (0.0, 0.5, 2.0):
        kink = g.sensitivity / 2 - e * 1.5**2 / g.sensitivity  # where p = e^e q
        exact = _hockey_stick(d.pdf, d_prime.pdf, e, -30, 30 + g.sensitivity, (kink,))
        assert g.delta(e) == pytest.approx(exact, abs=1e-9), e
    for alpha in (1.5, 3.0, 10.0):
        exact = _renyi(d.logpdf, d_prime.logpdf, alpha, -60, 60 + alpha * g.sensitivity)
        assert g.rdp(alpha) == pytest.approx(exact, rel=1e-7), alpha
    assert g.zcdp_rho() == pytest.approx(mu**2 / 2) and g.epsilon_delta() is None


def test_gaussian_reference_and_its_inverse():
    """LAB_SPEC's reference: sigma = 1, Delta = 1 has delta = 0.1269367375 at eps = 1; epsilon_at
    inverts the profile (catches a calibration that stops on the wrong side or in the wrong place)."""
    g = Gaussian(1.0, 1.0)
    assert g.delta(1.0) == pytest.approx(0.1269367375, abs=1e-10)
    assert g.epsilon_at(0.1269367375) == pytest.approx(1.0, abs=1e-8)
    # eps = 20: delta is equal at both ends of the first bracket (a tie that once sent it astray)
    for eps, delta in ((0.5, 1e-5), (2.0, 1e-9), (20.0, 1e-3)):
        calibrated = Gaussian.calibrated(1.0, eps, delta)
        assert calibrated.delta(eps) <= delta
        assert calibrated.epsilon_at(delta) == pytest.approx(eps, rel=1e-7)
    assert Gaussian.from_zcdp(2.0, 0.5).zcdp_rho() == pytest.approx(0.5)
    assert Gaussian.from_mu(0.7).mu == pytest.approx(0.7)


@pytest.mark.parametrize("k", [2, 3, 5])
def test_randomized_response_by_brute_force_over_its_outputs(k):
    """catches: the K-ary truth probability e^eps/(e^eps + 1) (binary's) used for K > 2, a Renyi
    sum without the K - 2 outputs both secrets share, a PLD that drops the zero losses."""
    eps = 1.2
    rr = RandomizedResponse(eps, k)
    p, q = rr.probabilities(0), rr.probabilities(1)
    assert p.sum() == pytest.approx(1) and p[0] / p[1] == pytest.approx(math.exp(eps))
    for e in (0.0, 0.4, eps, 2.0):
        assert rr.delta(e) == pytest.approx(np.sum(np.maximum(0, p - math.exp(e) * q)), abs=1e-15)
    for alpha in (1.5, 4.0):
        assert rr.rdp(alpha) == pytest.approx(math.log(np.sum(p**alpha * q ** (1 - alpha))) / (alpha - 1))
    pld = rr.pld(step=eps / 40)  # the losses +-eps and 0 sit on the grid: exact
    assert pld.delta(0.3) == pytest.approx(rr.delta(0.3), abs=1e-12)
    losses = rr.privacy_loss(np.array([0, 1, k - 1]), 0, 1)
    assert losses == pytest.approx([eps, -eps, 0.0 if k > 2 else -eps])
    alpha = np.linspace(0, 1, 51)
    assert np.allclose(rr.tradeoff(alpha), tradeoff_discrete(alpha, p, q))
    if k == 2:  # binary randomized response is f_eps itself
        assert np.allclose(rr.tradeoff(alpha), tradeoff_dp(alpha, eps), atol=1e-12)


@pytest.mark.catches("randomized_response.privacy_loss_sign")
def test_randomized_responses_loss_of_k_reports_is_the_sum_of_their_log_ratios():
    """catches: randomized_response.privacy_loss_sign (ln q/p for ln p/q), or k reports' losses not
    added. Brute force: ln P(o_i | v_i) / P(o_i | w_i) from the output distributions, summed over i."""
    rr = RandomizedResponse(0.7, 3)
    reports, v, w = np.array([[0, 1, 2], [2, 2, 0]]), np.array([0, 1, 2]), np.array([1, 1, 0])
    brute = [sum(math.log(rr.probabilities(a)[o] / rr.probabilities(b)[o])
                 for o, a, b in zip(row, v, w, strict=True)) for row in reports]
    assert rr.privacy_loss(reports, v, w) == pytest.approx(brute)
    assert rr.privacy_loss(1, 1, 0) == pytest.approx(0.7) and rr.privacy_loss(2, 1, 1) == 0.0


@pytest.mark.parametrize("k", [2, 4])
def test_randomized_response_samples_its_law(k):
    """catches: reporting the other value with probability keep, or never one of the K - 1 others."""
    rr = RandomizedResponse(0.8, k)
    draws = rr.sample(1, np.random.default_rng(5), size=100_000)
    expected = rr.probabilities(1)
    for value in range(k):
        hits = int(np.sum(draws == value))
        assert dplab.proportion_ci(hits, draws.size, LEVEL).contains(expected[value]), value
    assert rr.sample(np.array([0, 1]), 3).shape == (2,) and isinstance(rr.sample(0, 3), int)


def test_binary_randomized_response_draws_as_the_lessons_did():
    """One uniform per report: RR(eps).sample(0, rng, size) is (u >= keep) as the inline simulation
    of notebook 8 drew it, so moving that lesson onto the object kept its stored numbers."""
    rr = RandomizedResponse(1.0)
    ours = rr.sample(0, np.random.default_rng(9), size=1000)
    inline = np.random.default_rng(9).random(1000) >= rr.keep
    assert np.array_equal(ours.astype(bool), inline)


def test_epsilon_delta_is_the_worst_pair():
    """catches: a truth-or-randomized-response pair whose delta mass is on the wrong side (its curve
    is then not f_eps,delta), an infinite loss lost from the PLD."""
    step = EpsilonDelta(1.0, 0.05)
    p, q = step.extreme_pair()
    alpha = np.linspace(0, 1, 101)
    assert np.allclose(tradeoff_discrete(alpha, p, q), tradeoff_dp(alpha, 1.0, 0.05), atol=1e-12)
    assert np.allclose(step.tradeoff(alpha), tradeoff_dp(alpha, 1.0, 0.05))
    for e in (0.0, 0.5, 1.0, 3.0):
        with np.errstate(divide="ignore"):
            assert step.delta(e) == pytest.approx(np.sum(np.maximum(0, p - math.exp(e) * q)), abs=1e-15)
    pld = step.pld(step=1e-2)
    assert pld.infinity_mass == pytest.approx(0.05) and pld.delta(1.0) == pytest.approx(0.05)
    assert step.zcdp_rho() is None and step.rdp(2.0) is None
    for alpha in (1.5, 2.0, 10.0):  # the worst eps-DP pair: no eps-DP mechanism's curve is above it
        worst = EpsilonDelta(1.0).rdp(alpha)
        assert worst >= Laplace(1.0, 1.0).rdp(alpha) and worst >= RandomizedResponse(1.0, 5).rdp(alpha)
        assert worst >= Laplace(3.0, 1.0).rdp(alpha) - 1e-15
    assert EpsilonDelta(1.0, 1e-3).epsilon_at(1e-6) == math.inf  # below the step's own delta
    assert EpsilonDelta(1.0, 1e-3).epsilon_at(1e-3) == pytest.approx(1.0, rel=1e-9)
    draws = step.sample(1, 4, size=50_000)
    assert dplab.proportion_ci(int(np.sum(draws == 3)), draws.size, LEVEL).contains(0.05)


def test_samplers_share_one_standard_draw_and_the_flat_functions_are_thin():
    """catches: a flat function that stops calling its object (two samplers to keep in step)."""
    assert np.array_equal(Laplace(1.0, 0.5).sample(np.zeros(3), 4, size=10),
                          laplace_mechanism(np.zeros(3), 1.0, 0.5, size=10, rng=4))
    unit = Laplace(1.0, 1.0).sample(0.0, 4, size=10)
    assert np.array_equal(2.0 * unit, Laplace(1.0, 0.5).sample(0.0, 4, size=10))
    gauss = Gaussian(1.0, 2.0).sample(1.0, 4, size=5)
    assert np.array_equal(gauss, dplab.gaussian_mechanism(1.0, 2.0, size=5, rng=4))


def test_laplace_for_an_rmse_target_meets_it():
    """catches: eps = Delta / rmse (the mean absolute error's formula) instead of sqrt(2) Delta / rmse."""
    lap = Laplace.for_rmse(1.0, 5.0)
    assert lap.epsilon == pytest.approx(math.sqrt(2) / 5)
    errors = lap.sample(np.zeros(200_000), 11)
    assert dplab.mean_ci(errors**2, LEVEL).contains(25.0)


def test_the_closed_form_epsilon_of_the_laplace_profile():
    """epsilon_at inverts delta(e) = 1 - e^((e - eps)/2): e = eps + 2 ln(1 - delta)."""
    lap = Laplace(1.0, 2.0)
    for delta in (1e-6, 0.1, 0.5):
        assert lap.epsilon_at(delta) == pytest.approx(2.0 + 2 * math.log1p(-delta), abs=1e-9)
    assert lap.epsilon_at(0.9) == 0.0  # the total variation, 1 - e^-1, is below 0.9


@pytest.mark.parametrize("call, error, match", [
    (lambda: Laplace(0.0, 1.0), ValueError, "sensitivity must be finite and > 0, got sensitivity=0.0"),
    (lambda: Laplace(1.0, -1.0), ValueError, "epsilon must be finite and > 0, got epsilon=-1.0"),
    (lambda: Laplace(1.0, 1.0).rdp(1.0), ValueError, "alpha must be finite and > 1, got alpha=1.0"),
    (lambda: Laplace(1.0, 1.0).delta(-0.5), ValueError, "epsilon must be finite and >= 0"),
    (lambda: Gaussian(1.0, 0.0), ValueError, "sigma must be finite and > 0, got sigma=0.0"),
    (lambda: Gaussian.from_mu(0.0), ValueError, "mu must be finite and > 0, got mu=0.0"),
    (lambda: Gaussian(1.0, 1.0).epsilon_at(0.0), ValueError, "delta must be in \\(0, 1\\), got delta=0.0"),
    (lambda: RandomizedResponse(1.0, 1), ValueError, "k must be an integer >= 2"),
    (lambda: RandomizedResponse(1.0, 3).sample(3), ValueError,
     r"value must be an integer in \[0, 3\), got value=3"),
    (lambda: RandomizedResponse(1.0).probabilities(0.5), ValueError, "value must be an integer"),
    (lambda: EpsilonDelta(1.0, 1.0), ValueError, "delta must be in \\[0, 1\\), got delta=1.0"),
    (lambda: EpsilonDelta(1.0).sample(2), ValueError, "secret must be 0 .* got secret=2"),
])
def test_bad_input_names_the_parameter_and_value(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_the_objects_error_and_loss_methods():
    """The objects' own error, tail and loss methods, against the law of their samples and the
    densities (scipy), not against the flat functions they call."""
    lap, gauss = Laplace(2.0, 0.5), Gaussian(1.0, 3.0)
    assert lap.tail_probability(lap.tail_bound(0.05)) == pytest.approx(0.05)
    assert gauss.tail_probability(gauss.tail_bound(0.05)) == pytest.approx(0.05)
    assert lap.mae() == pytest.approx(stats.laplace(0, 4.0).expect(abs))
    assert gauss.mae() == pytest.approx(stats.norm(0, 3.0).expect(abs))
    errors = lap.sample(np.zeros(100_000), 8)
    assert dplab.mean_ci(errors**2, LEVEL).contains(lap.mse())
    assert dplab.mean_ci(gauss.sample(np.zeros(100_000), 8) ** 2, LEVEL).contains(gauss.mse())
    z = np.array([-1.0, 0.5, 3.0])
    assert lap.privacy_loss(z[:, None], [0.0], [2.0]) == pytest.approx(
        stats.laplace(0, 4.0).logpdf(z) - stats.laplace(2, 4.0).logpdf(z))
    assert gauss.privacy_loss(z[:, None], [0.0], [1.0]) == pytest.approx(
        stats.norm(0, 3.0).logpdf(z) - stats.norm(1, 3.0).logpdf(z))
    two = np.array([[0.3, -2.0]])  # two coordinates: the losses add
    assert gauss.privacy_loss(two, [1.0, 0.0], [0.0, 2.0]) == pytest.approx(float(
        np.sum(stats.norm([1.0, 0.0], 3.0).logpdf(two) - stats.norm([0.0, 2.0], 3.0).logpdf(two))))
    assert Laplace.from_scale(10.0).epsilon == pytest.approx(0.1)
    assert Laplace.from_scale(4.0, 2.0).scale == 4.0


def test_huge_epsilon_gives_numbers_not_overflows():
    """catches: e^eps evaluated where eps = 800 overflows (the profile, the Renyi curve, the
    trade-off curve of mechanisms that are all but not private)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert RandomizedResponse(800.0).rdp(2.0) == pytest.approx(800.0)
        assert EpsilonDelta(800.0).delta(0.0) == pytest.approx(1.0)
        assert Laplace(1.0, 800.0).tradeoff(0.1) == 0.0
        assert RandomizedResponse(800.0).pld().epsilon(0.5) == math.inf  # pessimistic: never below the truth
