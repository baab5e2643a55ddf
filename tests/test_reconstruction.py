"""Reconstruction attacks and the bounds on them (dplab/py).

Statistical checks use fixed seeds and intervals at 99.9% (mean_ci / proportion_ci); the
approximate least-squares formula is held to a stated approximation tolerance.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize, stats

import dplab
from dplab.accounting import approx_dp_to_zcdp
from dplab.mechanisms import randomized_response_guess
from dplab.reconstruction import (
    adversarial_answers,
    all_subset_queries,
    answer_noise_sd,
    answer_queries,
    answer_queries_dp,
    argmax_guess_success,
    bmi_bits,
    dp_answer_noise,
    dp_guessing_bound,
    exhaustive_attack,
    gdp_guessing_bound,
    grade_reconstruction,
    least_squares_attack,
    lp_attack,
    ls_queries_needed,
    ls_recovery_exact,
    ls_recovery_theory,
    reconstruction_challenge,
    reconstruction_robustness_bound,
    subset_queries,
)

LEVEL = 0.999


def _secret(n, seed=0):
    return np.random.default_rng(seed).integers(0, 2, n).astype(np.uint8)


# --- queries, answers, attacks ---------------------------------------------------------------------


def test_queries_are_random_halves_and_all_subsets_are_all_of_them():
    a = subset_queries(400, 300, rng=1)
    assert a.shape == (400, 300) and a.dtype == np.uint8
    assert dplab.proportion_ci(int(a.sum()), a.size, LEVEL).contains(0.5)
    q = all_subset_queries(5)
    assert q.shape == (32, 5) and len({tuple(r) for r in q}) == 32


def test_answers_have_the_noise_they_claim():
    a = subset_queries(20_000, 10, rng=1)
    x = _secret(10)
    truth = a @ x
    for noise, scale in (("uniform", 3.0), ("gaussian", 2.0), ("laplace", 1.5)):
        e = answer_queries(a, x, noise=noise, scale=scale, rng=2) - truth
        sd = answer_noise_sd(noise, scale)
        # the variance's interval from the squared errors (finite fourth moments)
        assert dplab.mean_ci(e**2, LEVEL).contains(sd**2), noise
    e = answer_queries(a, x, noise="uniform", scale=3.0, rng=3) - truth
    assert np.max(np.abs(e)) <= 3.0


@pytest.mark.catches("reconstruction.ls_round_at_zero")
def test_noiseless_answers_give_the_secret_to_every_attack():
    """catches: reconstruction.ls_round_at_zero (least squares' estimate rounded at 0, not 1/2)."""
    x = _secret(40)
    a = subset_queries(80, 40, rng=4)
    y = a @ x.astype(float)
    assert np.array_equal(least_squares_attack(a, y), x)
    assert np.array_equal(lp_attack(a, y), x)
    assert least_squares_attack(a, y).dtype == np.uint8


@pytest.mark.statistical
def test_least_squares_recovery_matches_the_exact_conditional_value():
    # Gaussian noise: given A, bit i is right with probability Phi(1/(2 sigma sqrt(v_i))) exactly;
    # the mean share over 300 independent noise draws must contain its mean over i.
    n, m, sigma = 200, 400, 0.6 * math.sqrt(200) / math.sqrt(3)
    a = subset_queries(m, n, rng=5)
    x = _secret(n, 5)
    shares = [np.mean(least_squares_attack(a, answer_queries(a, x, noise="gaussian", scale=sigma,
                                                                          rng=r)) == x) for r in range(300)]
    exact = ls_recovery_exact(a, sigma)
    assert 0.7 < exact < 0.9
    assert dplab.mean_ci(shares, LEVEL).contains(exact), (np.mean(shares), exact)
    # an independent computation of the same formula
    v = np.diag(np.linalg.pinv(a.astype(float)) @ np.linalg.pinv(a.astype(float)).T)
    assert exact == pytest.approx(np.mean(stats.norm.cdf(0.5 / (sigma * np.sqrt(v)))), rel=1e-10)


@pytest.mark.parametrize("ratio", [0.25, 0.5, 1.0])
def test_the_least_squares_formula_approximates_the_exact_value(ratio):
    # Phi(sqrt(m - n)/(4 sigma)) replaces each v_i by 4/(m - n); at n = 300, m = 600 the two
    # differ by about 3e-4 (measured): the stated approximation tolerance is 0.005.
    n, m = 300, 600
    sd = answer_noise_sd("uniform", ratio * math.sqrt(n))
    a = subset_queries(m, n, rng=6)
    theory = ls_recovery_theory(n, m, sd)
    assert abs(theory - ls_recovery_exact(a, sd)) <= 0.005
    assert theory == pytest.approx(stats.norm.cdf(math.sqrt(3) / (4 * ratio)), rel=1e-12)


def test_queries_needed_inverts_the_formula():
    m = ls_queries_needed(400, 5.0, 0.95)
    assert ls_recovery_theory(400, round(m), 5.0) == pytest.approx(0.95, abs=1e-3)
    with pytest.raises(ValueError, match="share must lie in"):
        ls_queries_needed(400, 5.0, 0.4)


def test_uniform_noise_follows_the_formula_too():
    # uniform noise: the estimate's error is a weighted sum of 600 uniforms (Gaussian in the limit);
    # the mean share over 100 draws, within its 99.9% interval widened by the 0.005 tolerance.
    n, m = 300, 600
    a = subset_queries(m, n, rng=7)
    x = _secret(n, 7)
    e = 0.5 * math.sqrt(n)
    shares = [np.mean(least_squares_attack(a, answer_queries(a, x, scale=e, rng=r)) == x)
              for r in range(100)]
    ci = dplab.mean_ci(shares, LEVEL)
    theory = ls_recovery_theory(n, m, answer_noise_sd("uniform", e))
    assert ci.low - 0.005 <= theory <= ci.high + 0.005, (ci, theory)


@pytest.mark.catches("reconstruction.l1_one_sided")
def test_l1_decoding_survives_gross_errors_that_break_least_squares():
    """catches: reconstruction.l1_one_sided (L1 decoding penalising only answers above y)."""
    # Dwork, McSherry & Talwar 2007: with m = 4n queries, 10% of the answers replaced by garbage
    n, m = 60, 240
    x = _secret(n, 8)
    a = subset_queries(m, n, rng=8)
    y = a @ x.astype(float)
    bad = np.random.default_rng(8).choice(m, m // 10, replace=False)
    y[bad] += 100.0
    assert np.mean(lp_attack(a, y) == x) >= 0.99
    assert np.mean(least_squares_attack(a, y) == x) < 0.9


@pytest.mark.statistical
def test_feasibility_decoding_satisfies_the_bound_and_is_weaker_than_l1():
    n, m = 200, 400
    x = _secret(n, 9)
    a = subset_queries(m, n, rng=9)
    e = 0.25 * math.sqrt(n)
    l1, feasible = [], []
    for r in range(3):
        y = answer_queries(a, x, scale=e, rng=r)
        l1.append(np.mean(lp_attack(a, y) == x))
        feasible.append(np.mean(lp_attack(a, y, objective="feasible", bound=e) == x))
    assert min(feasible) > 0.6 and np.mean(feasible) < np.mean(l1)
    with pytest.raises(ValueError, match="bound"):
        lp_attack(a, answer_queries(a, x, scale=e, rng=0), objective="feasible", bound=0.01)


def test_the_exhaustive_attack_is_within_4e_bits_even_against_an_adversary():
    n = 10
    q = all_subset_queries(n)
    for seed in range(5):
        x = _secret(n, seed)
        for e in (0.5, 1.0, 2.0):
            for y in (answer_queries(q, x, scale=e, rng=seed),
                      adversarial_answers(q, x, e, rng=seed)[0]):
                c = exhaustive_attack(y, n, e)
                assert np.max(np.abs(q @ c - y)) <= e
                assert np.sum(c != x) <= 4 * e
    x = _secret(n)
    assert np.array_equal(exhaustive_attack(q @ x.astype(float), n, 0.0), x)


def test_the_adversary_answers_within_its_bound_and_fools_every_attack():
    n, m = 100, 200
    x = _secret(n, 10)
    a = subset_queries(m, n, rng=10)
    for e in (0.5 * math.sqrt(n), math.sqrt(n)):
        y, decoy = adversarial_answers(a, x, e, rng=1)
        assert np.max(np.abs(y - a @ x)) <= e
        assert np.array_equal(y, a @ decoy.astype(float))
        assert np.sum(decoy != x) > 0
        assert np.array_equal(least_squares_attack(a, y), decoy)  # A has full column rank
    one = np.sum(adversarial_answers(a, x, math.sqrt(n), rng=2)[1] != x)
    best = np.sum(adversarial_answers(a, x, math.sqrt(n), tries=10, rng=2)[1] != x)
    assert best >= one  # the first of the ten tries is the single try's decoy
    more = np.sum(adversarial_answers(a, x, math.sqrt(n), rng=1)[1] != x)
    fewer = np.sum(adversarial_answers(a, x, 0.5 * math.sqrt(n), rng=1)[1] != x)
    assert more > fewer


# --- DP answers ------------------------------------------------------------------------------------


def test_dp_noise_spends_exactly_the_budget():
    m, eps, delta = 500, 2.0, 1e-6
    assert dp_answer_noise(m, eps) == ("laplace", m / eps)
    kind, b = dp_answer_noise(m, eps, delta=delta, split="advanced")
    assert kind == "laplace"
    assert dplab.advanced_composition(1 / b, m, delta)[0] == pytest.approx(eps, rel=1e-9)
    kind, sigma = dp_answer_noise(m, eps, delta=delta, split="zcdp")
    rho = m * 1 / (2 * sigma**2)  # m queries of sensitivity 1, each rho_j = 1/(2 sigma^2)
    assert kind == "gaussian" and dplab.zcdp_to_approx_dp(rho, delta) == pytest.approx(eps, rel=1e-9)


def test_dp_answers_have_the_split_noise():
    a = subset_queries(4000, 5, rng=11)
    x = _secret(5)
    y = answer_queries_dp(a, x, 50.0, delta=1e-6, split="zcdp", rng=1)
    sigma = dp_answer_noise(4000, 50.0, delta=1e-6, split="zcdp")[1]
    assert dplab.mean_ci((y - a @ x) ** 2, LEVEL).contains(sigma**2)


# --- bounds on any attacker ------------------------------------------------------------------------


def _best_test_over_the_dp_region(eps, delta, kappa):
    """max kappa TPR + (1 - kappa)(1 - FPR) over the (eps, delta)-DP region, by linear programming."""
    # variables (FPR, TPR); minimise the negative success
    c = [(1 - kappa), -kappa]
    a_ub = [[-math.exp(eps), 1], [-1, math.exp(eps)]]  # TPR <= e^eps FPR + delta; 1-FPR <= e^eps(1-TPR)+delta
    b_ub = [delta, math.exp(eps) - 1 + delta]
    res = optimize.linprog(c, A_ub=a_ub, b_ub=b_ub, bounds=[(0, 1), (0, 1)], method="highs")
    return 1 - kappa - res.fun


@pytest.mark.parametrize("eps,delta,kappa", [(1.0, 0.0, 0.5), (0.5, 0.0, 0.3), (2.0, 1e-3, 0.3),
                                             (0.1, 0.05, 0.9), (3.0, 0.0, 0.05)])
def test_the_guessing_bound_is_the_best_test_dp_allows(eps, delta, kappa):
    assert dp_guessing_bound(eps, delta, prior=kappa) == pytest.approx(
        _best_test_over_the_dp_region(eps, delta, kappa), abs=1e-9)


def test_randomized_response_attains_the_guessing_bound():
    # randomized response reports the bit with probability e^eps/(1 + e^eps): its Bayes attacker
    # believes the report (kappa = 1/2), and the simulated success must match the bound
    rng = np.random.default_rng(12)
    eps, draws = 1.0, 200_000
    bits = rng.integers(0, 2, draws)
    keep = rng.random(draws) < math.exp(eps) / (1 + math.exp(eps))
    report = np.where(keep, bits, 1 - bits)
    success = dplab.proportion_ci(int(np.sum(report == bits)), draws, LEVEL)
    assert success.contains(dp_guessing_bound(eps))
    assert dp_guessing_bound(1.0) == pytest.approx(0.7310585786, abs=1e-9)


@pytest.mark.parametrize("mu,kappa", [(1.0, 0.5), (1.0, 0.3), (2.5, 0.1)])
def test_the_gaussian_guessing_bound_is_the_bayes_attackers_success(mu, kappa):
    rng = np.random.default_rng(13)
    draws = 200_000
    bits = (rng.random(draws) < kappa).astype(int)
    y = mu * bits + rng.standard_normal(draws)
    # the Bayes attacker: guess 1 where kappa phi(y - mu) > (1 - kappa) phi(y)
    guess = (np.log(kappa) + stats.norm.logpdf(y - mu) > np.log(1 - kappa) + stats.norm.logpdf(y)).astype(int)
    bound = gdp_guessing_bound(mu, prior=kappa)
    assert dplab.proportion_ci(int(np.sum(guess == bits)), draws, LEVEL).contains(bound)
    # and no threshold does better (a grid search over thresholds of the exact success)
    t = np.linspace(-10, 10, 200_001)
    best = np.max((1 - kappa) * stats.norm.cdf(t) + kappa * stats.norm.sf(t - mu))
    assert bound == pytest.approx(best, abs=1e-8)
    assert gdp_guessing_bound(math.sqrt(2 * 0.5)) == pytest.approx(stats.norm.cdf(math.sqrt(0.5 / 2)))


@pytest.mark.parametrize("k", [2, 4, 10, 100])
def test_reconstruction_robustness_holds_for_k_ary_attacks(k):
    rng = np.random.default_rng(14 + k)
    draws = 100_000
    secret = rng.integers(0, k, draws)
    # k-ary randomized response, eps-DP: success e^eps / (e^eps + k - 1), simulated
    eps = 1.5
    keep = rng.random(draws) < math.exp(eps) / (math.exp(eps) + k - 1)
    other = (secret + rng.integers(1, k, draws)) % k
    report = np.where(keep, secret, other)
    rr = dplab.proportion_ci(int(np.sum(report == secret)), draws, LEVEL)
    bound = reconstruction_robustness_bound(1 / k, epsilon=eps)
    assert rr.contains(math.exp(eps) / (math.exp(eps) + k - 1))
    assert rr.consistent_with_upper_bound(bound)
    assert math.exp(eps) / (math.exp(eps) + k - 1) <= bound
    # a mu-GDP release of the secret: s e_z + N(0, I), s = mu / sqrt(2); the attacker takes the argmax
    mu = 1.5
    y = rng.standard_normal((draws, k))
    y[np.arange(draws), secret] += mu / math.sqrt(2)
    gdp = dplab.proportion_ci(int(np.sum(np.argmax(y, axis=1) == secret)), draws, LEVEL)
    assert gdp.consistent_with_upper_bound(reconstruction_robustness_bound(1 / k, mu=mu))


def test_robustness_is_looser_than_the_bit_bound_and_exact_at_its_formulas():
    assert reconstruction_robustness_bound(0.5, epsilon=1.0) == pytest.approx(1 - math.exp(-1) / 2)
    assert reconstruction_robustness_bound(0.01, epsilon=1.0, delta=1e-3) == pytest.approx(
        math.e * 0.01 + 1e-3)
    assert reconstruction_robustness_bound(0.1, mu=1.0) == pytest.approx(
        stats.norm.cdf(stats.norm.ppf(0.1) + 1.0))
    for eps in (0.1, 1.0, 3.0):
        assert reconstruction_robustness_bound(0.5, epsilon=eps) >= dp_guessing_bound(eps)
    assert reconstruction_robustness_bound(0.5, mu=1.0) >= gdp_guessing_bound(1.0)


def test_least_squares_on_dp_answers_stays_under_the_bound():
    n, m = 200, 400
    x = _secret(n, 15)
    a = subset_queries(m, n, rng=15)
    for eps in (1.0, 30.0):
        shares = [np.mean(least_squares_attack(a, answer_queries_dp(
            a, x, eps, delta=1e-6, split="zcdp", rng=r)) == x) for r in range(30)]
        rho = approx_dp_to_zcdp(eps, 1e-6)
        bound = gdp_guessing_bound(math.sqrt(2 * rho))
        assert dplab.mean_ci(shares, LEVEL).consistent_with_upper_bound(bound)


# --- the challenge ---------------------------------------------------------------------------------


@pytest.mark.catches("reconstruction.challenge_used_up_unchecked")
def test_the_challenge_says_when_its_allowance_is_used_up():
    """catches: reconstruction.challenge_used_up_unchecked (a re-run challenge cell asked subset_queries
    for 0 queries and failed with an error about n_queries)."""
    challenge = reconstruction_challenge("warm-up", seed=77)
    queries = challenge.random_queries(rng=0)
    assert queries.shape == (256, 64) and challenge.remaining == 256  # drawn, not yet asked
    challenge.ask(queries)
    for again in (challenge, reconstruction_challenge("warm-up", seed=77)):  # the re-run cell, a new oracle
        with pytest.raises(ValueError, match="'warm-up', seed 77: the allowance of 256 queries is used up"):
            again.random_queries(rng=0)


def test_the_challenge_shares_its_allowance_never_replays_noise_and_grades():
    one = reconstruction_challenge("threshold", seed=3)
    two = reconstruction_challenge("threshold", seed=3)  # the same secret, not a new budget
    a = subset_queries(512, 256, rng=0)
    first = one.ask(a[:10])
    again = two.ask(a[:10])
    assert not np.allclose(first, again)  # two oracles' noise would cancel if it were replayed
    assert one.asked == two.asked == 20
    assert one.remaining == 492
    with pytest.raises(ValueError, match="allows 512 queries: 20 asked, 600 more"):
        one.ask(subset_queries(600, 256, rng=0))
    assert one.asked == 20
    y = np.concatenate([first, one.ask(a[10:100]), one.ask(a[100:502])])
    assert one.remaining == 0 and reconstruction_challenge("threshold", seed=3).remaining == 0
    assert reconstruction_challenge("threshold", seed=30).remaining == 512
    secret = one._bits  # the honour system: a test may look
    assert np.array_equal(secret, two._bits)
    attempt = grade_reconstruction("threshold", least_squares_attack(a[:502], y), seed=3)
    assert 0.65 < attempt.correct < 0.95  # theory about 0.80 at m = 502; sd of 256 bits about 0.025
    grade = grade_reconstruction("threshold", secret, seed=3)
    assert grade.correct == 1.0 and grade.bound is None
    assert grade.theory == pytest.approx(stats.norm.cdf(math.sqrt(256) * math.sqrt(3) / (4 * 8)))
    wrong = grade_reconstruction("threshold", 1 - secret, seed=3)
    assert wrong.correct == 0.0 and "0.0% of 256 bits" in str(wrong)
    dp = grade_reconstruction("dp, eps = 1", np.zeros(256, dtype=int), seed=3)
    assert dp.bound is not None and dp.bound < 0.55 and "no attacker can expect more" in str(dp)
    assert not np.array_equal(reconstruction_challenge("threshold", seed=4)._bits, secret)


def test_the_success_formulas_of_the_k_ary_attacks_match_simulation():
    rng = np.random.default_rng(16)
    draws = 100_000
    for k in (2, 10):
        z = rng.integers(0, k, draws)
        y = rng.standard_normal((draws, k))
        y[np.arange(draws), z] += 1.5 / math.sqrt(2)
        hits = int(np.sum(np.argmax(y, axis=1) == z))
        assert dplab.proportion_ci(hits, draws, LEVEL).contains(argmax_guess_success(1.5, k))
    assert argmax_guess_success(1.5, 2) == pytest.approx(stats.norm.cdf(1.5 / 2), abs=1e-9)
    assert randomized_response_guess(1.0, 2) == pytest.approx(dp_guessing_bound(1.0))


def test_bmi_bits_are_the_real_column():
    bits = bmi_bits(12_579, rng=0)
    assert int(bits.sum()) == int(np.sum(dplab.body_mass_index(dplab.load_yrbss()) >= 25))


# --- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize("call,match", [
    (lambda: subset_queries(0, 10), "n_queries must be a positive integer, got n_queries=0"),
    (lambda: subset_queries(10, 0), "n_bits must be a positive integer, got n_bits=0"),
    (lambda: bmi_bits(20_000), "n_bits must be at most the table's 12579 rows, got n_bits=20000"),
    (lambda: answer_queries(np.ones((3, 4)), np.ones(5), scale=1.0), "width 4"),
    (lambda: answer_queries(np.ones((3, 5)), np.ones(5), scale=-1.0), "scale must be .*scale=-1.0"),
    (lambda: answer_queries(np.ones((3, 5)), np.ones(5), noise="cauchy", scale=1.0),
     "noise must be one of"),
    (lambda: answer_queries(np.ones((3, 5)), np.full(5, 2), scale=1.0), "bits must be .* 0s and 1s"),
    (lambda: least_squares_attack(np.ones((3, 5)), np.ones(4)), "answers must be 3 finite numbers"),
    (lambda: lp_attack(np.ones((3, 5)), np.ones(3), objective="feasible"), "bound=None"),
    (lambda: lp_attack(np.ones((3, 5)), np.ones(3), objective="l2"), "objective must be one of"),
    (lambda: exhaustive_attack(np.ones(4), 2, -1.0), "bound must be .*bound=-1.0"),
    (lambda: all_subset_queries(20), "n_bits must be <= 14"),
    (lambda: dp_answer_noise(10, 1.0, delta=1e-6), "split='basic' is pure"),
    (lambda: dp_answer_noise(10, 1.0, split="zcdp"), "needs a delta"),
    (lambda: dp_answer_noise(10, 0.0), "epsilon must be .*epsilon=0.0"),
    (lambda: ls_recovery_theory(100, 100, 1.0), "n_queries must exceed n_bits"),
    (lambda: ls_recovery_exact(np.ones((3, 5)), 1.0), "at least as many queries as bits"),
    (lambda: dp_guessing_bound(1.0, prior=1.0), "prior must be in \\(0, 1\\), got prior=1.0"),
    (lambda: reconstruction_robustness_bound(0.5), "exactly one of epsilon and mu"),
    (lambda: reconstruction_robustness_bound(0.0, mu=1.0), "kappa must be in"),
    (lambda: reconstruction_challenge("expert", seed=1), "level must be one of"),
    (lambda: reconstruction_challenge("warm-up", seed=-1), "seed must be an int >= 0, got seed=-1"),
    (lambda: grade_reconstruction("warm-up", np.zeros(10), seed=1), "guess must have 64 bits"),
    (lambda: reconstruction_challenge("warm-up", seed=1).ask(np.ones(10)), "width 10"),
])
def test_bad_input_names_the_parameter(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


def test_the_split_bound_is_the_smaller_of_its_two_bounds():
    """catches: the zCDP split's Gaussian bound taken from rho instead of mu = sqrt(2 rho), or the
    basic split given a delta. Closed forms here: e^eps/(1 + e^eps); (e^eps + delta)/(1 + e^eps);
    Phi(sqrt(rho/2)) with rho = (sqrt(L + eps) - sqrt(L))^2, L = ln(1/delta)."""
    eps, delta = 2.0, 1e-6
    basic = dplab.reconstruction.split_guessing_bound(eps, "basic")
    assert basic == pytest.approx(math.e**2 / (1 + math.e**2))
    advanced = dplab.reconstruction.split_guessing_bound(eps, "advanced", delta)
    assert advanced == pytest.approx((math.e**2 + delta) / (1 + math.e**2))
    log_inv = math.log(1 / delta)
    rho = (math.sqrt(log_inv + eps) - math.sqrt(log_inv)) ** 2
    assert dplab.reconstruction.zcdp_split_guessing_bound(eps, delta) == pytest.approx(
        stats.norm.cdf(math.sqrt(rho / 2)))
    assert dplab.reconstruction.split_guessing_bound(eps, "zcdp", delta) == pytest.approx(
        min(advanced, stats.norm.cdf(math.sqrt(rho / 2))))
    many = dplab.reconstruction.split_guessing_bound(np.array([0.5, 8.0]), "zcdp", delta)
    assert many.shape == (2,) and many[0] < many[1]
    with pytest.raises(ValueError, match="leave delta=None"):
        dplab.reconstruction.split_guessing_bound(eps, "basic", delta)
    with pytest.raises(ValueError, match="needs a delta"):
        dplab.reconstruction.split_guessing_bound(eps, "zcdp")


def test_the_least_squares_design_is_the_attack_at_every_noise_level():
    """catches: a shortcut that rounds the error the wrong way (x + s w against 1/2) or scales the
    wrong noise: the design's per-bit verdicts equal least_squares_attack run on the same answers."""
    rng = np.random.default_rng(13)
    n, m = 40, 90
    a = dplab.reconstruction.subset_queries(m, n, rng=rng)
    x = rng.integers(0, 2, n).astype(np.uint8)
    noise = {"uniform": rng.uniform(-1, 1, (m, 5)), "gaussian": rng.standard_normal((m, 5))}
    design = dplab.reconstruction.least_squares_design(a, x, noise)
    assert design.n == n and design.m == m
    for kind in noise:
        for scale in (0.5, 3.0, 9.0):
            for j in range(5):
                guess = dplab.reconstruction.least_squares_attack(a, a @ x + scale * noise[kind][:, j])
                assert np.array_equal(design.correct(kind, scale)[:, j], guess == x), (kind, scale, j)
            assert design.shares(kind, scale).shape == (5,)
    with pytest.raises(ValueError, match="one row per query"):
        dplab.reconstruction.least_squares_design(a, x, {"uniform": np.zeros((m - 1, 2))})


def test_least_squares_on_dp_answers_is_the_formula_at_each_splits_noise():
    """catches: the split's noise scale taken for its sd (Laplace's sqrt 2 dropped), or the zCDP split's
    rho spread over the queries the wrong way. Closed forms here, derived without dp_answer_noise:
    basic sd = sqrt(2) m / eps; advanced sd = sqrt(2) / eps0 with eps0 the root (brentq) of DRV's
    sqrt(2 m L) eps0 + m eps0 (e^eps0 - 1) = eps; zCDP sigma = sqrt(m / (2 rho)), rho = (sqrt(L + eps) -
    sqrt(L))^2, L = ln(1/delta); each into Phi(sqrt(m - n) / (4 sd))."""
    n, m, delta = 256, 512, 1e-6
    log_inv = math.log(1 / delta)

    def share(sd):
        return stats.norm.cdf(math.sqrt(m - n) / (4 * sd))

    for eps in (0.5, 30.0, 400.0):
        def drv(e, eps=eps):  # Dwork, Rothblum & Vadhan's total epsilon of m steps of e, minus the target
            return math.sqrt(2 * m * log_inv) * e + m * e * math.expm1(e) - eps

        eps0 = optimize.brentq(drv, 0, 10, xtol=1e-15)
        rho = (math.sqrt(log_inv + eps) - math.sqrt(log_inv)) ** 2
        expected = {"basic": share(math.sqrt(2) * m / eps), "advanced": share(math.sqrt(2) / eps0),
                    "zcdp": share(math.sqrt(m / (2 * rho)))}
        for split, value in expected.items():
            got = dplab.reconstruction.ls_recovery_theory_dp(n, m, eps, split=split,
                                                             delta=None if split == "basic" else delta)
            assert isinstance(got, float) and got == pytest.approx(value, rel=1e-9), (eps, split)
    many = dplab.reconstruction.ls_recovery_theory_dp(n, m, np.array([0.5, 30.0, 400.0]), split="zcdp",
                                                      delta=delta)
    assert many.shape == (3,) and np.all(np.diff(many) > 0)
    with pytest.raises(ValueError, match="leave delta=None"):
        dplab.reconstruction.ls_recovery_theory_dp(n, m, 1.0, split="basic", delta=delta)


def test_the_k_ary_attacks_succeed_as_their_closed_forms_say():
    """catches: the Gaussian release shifted by mu instead of mu/sqrt(2) (two secrets mu apart), or
    randomized response's output compared with another secret than the one it released. Closed forms
    here: K = 2, the argmax is right when N(s, 1) - N(0, 1) > 0: Phi(s / sqrt 2) = Phi(mu / 2);
    randomized response keeps the secret with e^eps / (e^eps + K - 1)."""
    draws, eps, mu = 200_000, 1.5, 1.5
    for k, argmax in ((2, stats.norm.cdf(mu / 2)), (10, argmax_guess_success(mu, 10))):
        rr, gdp = dplab.reconstruction.k_ary_attack_successes(k, draws, epsilon=eps, mu=mu, rng=17 + k)
        keep = math.exp(eps) / (math.exp(eps) + k - 1)
        assert dplab.proportion_ci(rr, draws, LEVEL).contains(keep), (k, rr)
        assert dplab.proportion_ci(gdp, draws, LEVEL).contains(argmax), (k, gdp)
    assert dplab.reconstruction.k_ary_attack_successes(4, 50, epsilon=1.0, mu=0.0, rng=3) == \
        dplab.reconstruction.k_ary_attack_successes(4, 50, epsilon=1.0, mu=0.0, rng=3)
    with pytest.raises(ValueError, match="n_values"):
        dplab.reconstruction.k_ary_attack_successes(0, 10, epsilon=1.0, mu=1.0)


def test_the_exhaustive_experiment_is_a_brute_force_search_within_4e():
    """catches: the random-noise and adversarial columns swapped, or the wrong bits counted against
    another database than the secret. Independent here: a pure-Python search over every database c in
    the order j = sum c_i 2^i for the first with every subset sum within E of its answer."""
    n, secrets, seed = 6, 4, 5
    subsets = [[i for i in range(n) if (j >> i) & 1] for j in range(2**n)]

    def consistent(j, answers, bound):  # database j's every subset sum within E of its answer
        return all(abs(sum((j >> i) & 1 for i in subset) - y) <= bound
                   for subset, y in zip(subsets, answers, strict=True))

    q = all_subset_queries(n)
    for bound in (1.0, 2.0):
        wrong = dplab.reconstruction.exhaustive_attack_errors(n, bound, secrets=secrets, seed=seed)
        assert wrong.shape == (secrets, 2) and np.all(wrong <= 4 * bound)
        for s in range(secrets):
            x = np.random.default_rng([seed, s]).integers(0, 2, n)
            random = answer_queries(q, x, scale=bound, rng=np.random.default_rng([seed, s, 1]))
            adversarial = adversarial_answers(q, x, bound, rng=np.random.default_rng([seed, s, 2]))[0]
            for column, y in enumerate((random, adversarial)):
                first = next(j for j in range(2**n) if consistent(j, y, bound))
                missed = sum(((first >> i) & 1) != x[i] for i in range(n))
                assert wrong[s, column] == missed, (bound, s, column)
    assert dplab.reconstruction.exhaustive_attack_errors(6, 2.0, secrets=4, seed=5)[:, 1].sum() > 0


def test_least_squares_shares_are_the_attack_run_on_each_release():
    """One share per release, each the mean agreement of least_squares_attack's bits with the secret
    (computed here bit by bit); noiseless answers give every bit."""
    rng = np.random.default_rng(11)
    a, x = subset_queries(120, 60, rng=rng), rng.integers(0, 2, 60)
    releases = [answer_queries(a, x, scale=3.0, rng=r) for r in range(4)] + [a @ x.astype(float)]
    shares = dplab.reconstruction.least_squares_shares(a, x, releases)
    by_hand = [sum(int(b == c) for b, c in zip(least_squares_attack(a, y), x, strict=True)) / 60
               for y in releases]
    assert shares.shape == (5,) and np.allclose(shares, by_hand) and shares[-1] == 1.0
