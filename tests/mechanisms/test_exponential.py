"""Private selection: the exponential mechanism, report noisy max, permute-and-flip.

Exact probabilities against formulas and independent integrals written here; samplers
against the exact probabilities (fixed seeds, per-outcome Clopper-Pearson intervals at a
Bonferroni level, family error 1e-3); the theorems (utility, privacy, PF >= EM) exactly on
random score vectors.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate

import dplab
from dplab.mechanisms import (
    RNM_NOISES,
    exponential_mechanism,
    exponential_mechanism_stream,
    exponential_probabilities,
    exponential_utility_failure_probability,
    exponential_utility_threshold,
    max_privacy_loss,
    permute_and_flip,
    permute_and_flip_probabilities,
    report_noisy_max,
    report_noisy_max_probabilities,
    report_noisy_max_scale,
)

FAMILY_ERROR = 1e-3  # for each frequency check: Pr[some true interval misses] <= 1e-3


def assert_frequencies(draws: np.ndarray, probabilities: np.ndarray) -> None:
    """Every outcome's Clopper-Pearson interval (Bonferroni over the outcomes) contains p_r."""
    p = np.asarray(probabilities)
    counts = np.bincount(np.ravel(draws), minlength=p.size)
    assert counts.size == p.size
    ci = dplab.proportion_ci(counts, np.size(draws), dplab.bonferroni_confidence(p.size, FAMILY_ERROR))
    assert ci.contains(p).all(), (counts / np.size(draws), p)


# Standard noises written out here (density, CDF), independently of the module under test.
NOISES = {
    "laplace": (lambda z: np.exp(-np.abs(z)) / 2,
                lambda z: np.where(z < 0, np.exp(np.minimum(z, 0)) / 2, 1 - np.exp(-np.abs(z)) / 2)),
    "exponential": (lambda z: np.where(z >= 0, np.exp(-np.abs(z)), 0.0),
                    lambda z: np.where(z >= 0, -np.expm1(-np.abs(z)), 0.0)),
    "gumbel": (lambda z: np.exp(-z - np.exp(-z)), lambda z: np.exp(-np.exp(-z))),
}


def rnm_integral(scores, scale: float, noise: str) -> np.ndarray:
    """Pr[argmax_r (s_r + b Z_r) = r] = int f_b(x - s_r) prod_{j != r} F_b(x - s_j) dx by scipy
    quad, on [min s - 40b, max s + 40b] (outside it every tail is below e^{-40}), split at
    the scores."""
    s = np.asarray(scores, dtype=float)
    pdf, cdf = NOISES[noise]

    def integrand(x, r):
        z = (x - s) / scale
        return pdf(z[r]) / scale * np.prod(cdf(np.delete(z, r)))

    lo, hi = s.min() - 40 * scale, s.max() + 40 * scale
    return np.array([integrate.quad(integrand, lo, hi, args=(r,), points=np.unique(s), limit=200,
                                    epsabs=1e-13, epsrel=1e-12)[0] for r in range(s.size)])


# ---------------------------------------------------------------------------------------
# The exponential mechanism
# ---------------------------------------------------------------------------------------


def test_exponential_probabilities_direct_formula():
    scores, sens, eps = [0.0, 1.0, 2.0, -1.5], 2.0, 0.8
    weights = [math.exp(eps * s / (2 * sens)) for s in scores]
    expected = [w / sum(weights) for w in weights]
    np.testing.assert_allclose(exponential_probabilities(scores, sens, eps), expected, rtol=1e-13)
    # ties give equal probabilities, integers are accepted, a single candidate is certain
    p = exponential_probabilities([3, 1, 3], 1, 1.0)
    assert p[0] == p[2]
    assert exponential_probabilities([7.0], 1, 1.0).tolist() == [1.0]


def test_exponential_probabilities_stable_at_large_scores():
    s = np.array([0.0, -1.0, -3.0, 2.0])
    with np.errstate(over="raise", invalid="raise"):  # exp is never taken of a raw score
        big = exponential_probabilities(s + 1e6, 1.0, 2.0)
        far = exponential_probabilities([1e6, -1e6], 1.0, 1.0)
    np.testing.assert_allclose(big, exponential_probabilities(s, 1.0, 2.0), rtol=1e-12)
    assert far.tolist() == [1.0, 0.0]
    # eps/(2 Delta) = 1: Pr[best of two scores 1 apart] = 1 / (1 + e^{-1})
    two = exponential_probabilities([1e6, 1e6 - 1], 1.0, 2.0)
    assert two[0] == pytest.approx(1 / (1 + math.exp(-1)), rel=1e-12)


def test_exponential_mechanism_frequencies():
    scores, sens, eps = np.array([0.0, 1.0, 1.0, 3.0, -2.0, 0.5]), 1.0, 1.2
    draws = exponential_mechanism(scores, sens, eps, size=200_000, rng=11)
    assert_frequencies(draws, exponential_probabilities(scores, sens, eps))


def test_exponential_mechanism_never_returns_an_outcome_of_probability_zero():
    # the last candidate's probability underflows to 0: the round-off guard must not pick it
    draws = exponential_mechanism([0.0, 0.0, -1e4], 1.0, 1.0, size=100_000, rng=1)
    assert draws.max() <= 1


def test_exponential_mechanism_stream_frequencies():
    chunks = [[0.5, 2.0], [], np.array([1.0, -1.0, 3.0]), [2.5]]
    sens, eps, trials = 1.0, 1.0, 4000
    rng = np.random.default_rng(5)
    draws = np.array([exponential_mechanism_stream(iter(chunks), sens, eps, rng=rng)
                      for _ in range(trials)])
    assert_frequencies(draws, exponential_probabilities(np.concatenate(chunks), sens, eps))
    # a generator is read once; the answer is the global index
    chunks = (np.full(3, -1e9) if k else [0.0] for k in range(4))
    assert exponential_mechanism_stream(chunks, 1, 1, rng=0) == 0
    assert exponential_mechanism_stream([[-1e9] * 5, [5.0]], 1, 1, rng=0) == 5


def test_utility_threshold_formula():
    assert exponential_utility_threshold(10, 100, 1, 1.0, math.log(20)) == pytest.approx(
        10 - 2 * math.log(2000))
    t = np.array([0.0, 1.0, 3.0])
    np.testing.assert_allclose(exponential_utility_threshold(5.0, 8, 2.0, 0.5, t),
                               [5 - 8 * (math.log(8) + x) for x in t])
    eps = np.array([0.5, 1.0])
    np.testing.assert_allclose(exponential_utility_threshold(0, 8, 1, eps, 1.0),
                               [-2 / e * (math.log(8) + 1) for e in eps])
    assert isinstance(exponential_utility_threshold(0, 8, 1, 1.0, 1.0), float)


def test_utility_failure_probability_is_at_most_exp_minus_t():
    rng = np.random.default_rng(3)
    t = np.array([0.0, 0.25, 1.0, 2.0, 5.0])
    worst = 0.0
    for _ in range(200):
        n = int(rng.integers(1, 60))
        scores = rng.normal(0, rng.choice([0.5, 5.0, 50.0]), size=n)
        sens, eps = float(rng.uniform(0.5, 3)), float(rng.choice([0.1, 1.0, 3.0]))
        fail = exponential_utility_failure_probability(scores, sens, eps, t)
        assert np.all(fail <= np.exp(-t) + 1e-12)
        worst = max(worst, float(np.max(fail * np.exp(t))))
        # the sum of Pr[r] over the candidates at or below the threshold, computed directly
        thr = scores.max() - 2 * sens / eps * (math.log(n) + 1.0)
        p = exponential_probabilities(scores, sens, eps)
        assert exponential_utility_failure_probability(scores, sens, eps, 1.0) == pytest.approx(
            p[scores <= thr].sum(), abs=1e-15)
    assert worst > 0.1  # not vacuous: some examples come within a factor of 10 of the bound
    # arrays of epsilon broadcast as well
    s = np.array([0.0, -1.0, -4.0, -9.0])
    eps = np.array([0.5, 2.0])
    np.testing.assert_allclose(exponential_utility_failure_probability(s, 1, eps, 0.5),
                               [exponential_utility_failure_probability(s, 1, e, 0.5) for e in eps])


def test_exponential_mechanism_privacy_on_neighbours():
    rng = np.random.default_rng(8)
    for _ in range(200):
        n, sens, eps = int(rng.integers(2, 30)), float(rng.uniform(0.1, 5)), float(rng.uniform(0.05, 4))
        s = rng.normal(0, 3 * sens, size=n)
        s2 = s + rng.uniform(-sens, sens, size=n)  # |s - s'|_inf <= Delta
        loss = max_privacy_loss(exponential_probabilities(s, sens, eps),
                                      exponential_probabilities(s2, sens, eps))
        assert loss <= eps + 1e-9
    # adversarial: the worst candidate gains Delta and every other loses Delta. Its ratio is
    # e^{eps/2} Z/Z', which tends to e^{eps} as its probability tends to 0: loss ~ eps
    sens, eps = 1.0, 0.7
    s = np.array([0.0, -1.0, 0.5, -200.0])
    s2 = s - sens
    s2[3] += 2 * sens
    loss = max_privacy_loss(exponential_probabilities(s, sens, eps),
                                  exponential_probabilities(s2, sens, eps))
    assert eps - 1e-6 < loss <= eps + 1e-12


# ---------------------------------------------------------------------------------------
# Report noisy max
# ---------------------------------------------------------------------------------------


def test_report_noisy_max_scale():
    assert report_noisy_max_scale(1.0, 0.5) == 4.0
    assert report_noisy_max_scale(1.0, 0.5, monotone=True) == 2.0
    np.testing.assert_allclose(report_noisy_max_scale(2.0, np.array([1.0, 4.0])), [4.0, 1.0])


def test_gumbel_probabilities_are_softmax_and_match_an_independent_integral():
    scores, b = [0.0, 1.0, 1.0, 3.0, -2.0], 1.3
    p = report_noisy_max_probabilities(scores, b, "gumbel")
    np.testing.assert_allclose(p, rnm_integral(scores, b, "gumbel"), atol=1e-9)
    # Gumbel noise of scale 2 Delta/eps is the exponential mechanism
    np.testing.assert_allclose(report_noisy_max_probabilities(scores, 2 * 0.5 / 0.8, "gumbel"),
                               exponential_probabilities(scores, 0.5, 0.8), rtol=1e-12)


@pytest.mark.parametrize("noise", ["laplace", "exponential"])
@pytest.mark.parametrize("scores, b", [([0.0, 1.0, 1.0, 3.0, -2.0], 1.3), ([4.0, -1.0, 0.0], 0.4),
                                       ([2.0, 2.0], 5.0), ([0.0, -30.0, 0.2, 0.1], 2.0)])
def test_noisy_max_probabilities_match_an_independent_integral(noise, scores, b):
    p = report_noisy_max_probabilities(scores, b, noise)
    np.testing.assert_allclose(p, rnm_integral(scores, b, noise), atol=1e-9)


@pytest.mark.parametrize("noise", RNM_NOISES)
def test_noisy_max_probabilities_sum_to_one_and_respect_ties(noise):
    rng = np.random.default_rng(2)
    for n in (1, 2, 7, 40, 100):
        scores = np.round(rng.normal(0, 4, size=n), 1)
        scores[: n // 3] = scores[0]  # ties
        for b in (0.05, 1.0, 20.0):
            p = report_noisy_max_probabilities(scores, b, noise)
            assert p.min() >= 0 and abs(p.sum() - 1) < 1e-9
            assert np.all(p[: n // 3] == p[0])
    # shift invariance, also at large scores
    s = np.array([0.0, 0.5, -1.0])
    np.testing.assert_allclose(report_noisy_max_probabilities(s + 1e6, 1.0, noise),
                               report_noisy_max_probabilities(s, 1.0, noise), atol=1e-12)


@pytest.mark.parametrize("noise", RNM_NOISES)
@pytest.mark.parametrize("monotone", [False, True])
def test_report_noisy_max_frequencies(noise, monotone):
    scores, sens, eps = np.array([0.0, 1.0, 1.0, 3.0, -2.0]), 1.0, 1.0
    draws = report_noisy_max(scores, sens, eps, noise=noise, monotone=monotone, size=100_000,
                                   rng=21)
    b = report_noisy_max_scale(sens, eps, monotone)
    assert_frequencies(draws, report_noisy_max_probabilities(scores, b, noise))


def test_laplace_noisy_max_needs_twice_the_scale_on_non_monotone_scores():
    # s = (0, 0), s' = (Delta, -Delta): |s - s'|_inf = Delta, eps = 1. Under s each candidate
    # wins w.p. 1/2; under s' candidate 1 wins iff Z_1 - Z_0 > 2 Delta, and the difference D of
    # two Lap(b) has Pr[D > d] = (1 + d/(2b)) e^{-d/b} / 2.
    #   b = Delta:   Pr = e^{-2}, loss = ln(0.5 / e^{-2}) = 2 - ln 2 = 1.307 > eps;
    #   b = 2 Delta: Pr = 0.75 e^{-1}, loss = max(ln(0.5 e / 0.75), ln((1 - 0.75/e) / 0.5)) = 1 - ln 1.5.
    eps = 1.0

    def loss(sens, b):
        s, s2 = np.array([0.0, 0.0]), np.array([sens, -sens])
        return max_privacy_loss(report_noisy_max_probabilities(s, b, "laplace"),
                                      report_noisy_max_probabilities(s2, b, "laplace"))

    for sens in (1.0, 2.5):
        assert loss(sens, sens / eps) == pytest.approx(2 - math.log(2), rel=1e-9)
        assert loss(sens, sens / eps) > eps
        assert loss(sens, 2 * sens / eps) == pytest.approx(1 - math.log(1.5), rel=1e-9)
        assert loss(sens, report_noisy_max_scale(sens, eps)) <= eps + 1e-9


@pytest.mark.parametrize("noise", RNM_NOISES)
def test_noisy_max_privacy_on_random_neighbours(noise):
    rng = np.random.default_rng(13)
    for _ in range(25):
        n, sens, eps = int(rng.integers(2, 7)), float(rng.uniform(0.5, 2)), float(rng.uniform(0.2, 2))
        s = rng.normal(0, 2 * sens, size=n)
        shift = rng.uniform(0, sens, size=n)
        general = s + rng.uniform(-sens, sens, size=n)
        monotone = s + rng.choice([-1.0, 1.0]) * shift  # every score moves the same way
        p = report_noisy_max_probabilities(s, report_noisy_max_scale(sens, eps), noise)
        q = report_noisy_max_probabilities(general, report_noisy_max_scale(sens, eps), noise)
        assert max_privacy_loss(p, q) <= eps + 1e-9
        b = report_noisy_max_scale(sens, eps, monotone=True)
        p = report_noisy_max_probabilities(s, b, noise)
        q = report_noisy_max_probabilities(monotone, b, noise)
        assert max_privacy_loss(p, q) <= eps + 1e-9


# ---------------------------------------------------------------------------------------
# Permute-and-flip
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("monotone", [False, True])
def test_literal_permute_and_flip_matches_exponential_noise_max(monotone):
    # the sampler is McKenna & Sheldon's Algorithm 1; the probabilities are report noisy max
    # with exponential noise: agreement is Ding et al.'s identity
    scores, sens, eps = np.array([0.0, 1.0, 1.0, 3.0, -2.0, 2.5]), 1.0, 0.9
    draws = permute_and_flip(scores, sens, eps, monotone=monotone, size=150_000, rng=17)
    p = permute_and_flip_probabilities(scores, sens, eps, monotone=monotone)
    assert_frequencies(draws, p)
    b = report_noisy_max_scale(sens, eps, monotone)
    np.testing.assert_allclose(p, rnm_integral(scores, b, "exponential"), atol=1e-9)


def test_permute_and_flip_expected_score_at_least_the_exponential_mechanism():
    rng = np.random.default_rng(4)
    gains = []
    for _ in range(300):
        n, sens, eps = int(rng.integers(2, 40)), float(rng.uniform(0.2, 3)), float(rng.uniform(0.05, 5))
        s = rng.normal(0, rng.choice([0.1, 1.0, 10.0]) * sens, size=n)
        pf = permute_and_flip_probabilities(s, sens, eps) @ s
        em = exponential_probabilities(s, sens, eps) @ s
        assert pf >= em - 1e-9 * (1 + np.abs(s).max())
        gains.append((pf - em) / (s.max() - em))
    assert max(gains) > 0.1  # PF strictly better somewhere, by at least 10% of EM's expected error


def test_permute_and_flip_probabilities_closed_form_two_candidates():
    # two candidates, gap g, a = e^{-g/b}: PF returns the worse one iff it comes first (1/2)
    # and accepts (a): Pr = a/2
    g, sens, eps = 1.5, 1.0, 1.0
    a = math.exp(-g * eps / (2 * sens))
    np.testing.assert_allclose(permute_and_flip_probabilities([0.0, -g], sens, eps),
                               [1 - a / 2, a / 2], rtol=1e-13)


# ---------------------------------------------------------------------------------------
# Shapes, seeds, privacy loss, bad input
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("sample", [
    lambda **kw: exponential_mechanism([0.0, 1.0, 2.0], 1, 1.0, **kw),
    lambda **kw: report_noisy_max([0.0, 1.0, 2.0], 1, 1.0, noise="gumbel", **kw),
    lambda **kw: permute_and_flip([0.0, 1.0, 2.0], 1, 1.0, **kw),
])
def test_shapes_and_seeds(sample):
    one = sample(rng=0)
    assert type(one) is int and 0 <= one < 3
    many = sample(size=7, rng=0)
    assert many.shape == (7,) and np.issubdtype(many.dtype, np.integer)
    assert sample(size=(2, 3), rng=0).shape == (2, 3)
    np.testing.assert_array_equal(many, sample(size=7, rng=0))
    np.testing.assert_array_equal(many, sample(size=7, rng=np.random.default_rng(0)))
    with pytest.raises(ValueError, match="size=0"):
        sample(size=0, rng=0)


def test_max_privacy_loss():
    assert max_privacy_loss([0.5, 0.5], [0.25, 0.75]) == pytest.approx(math.log(2))
    assert max_privacy_loss([0.5, 0.5, 0.0], [0.5, 0.5, 0.0]) == 0.0  # 0/0 ignored
    assert max_privacy_loss([1.0, 0.0], [0.9, 0.1]) == math.inf
    with pytest.raises(ValueError, match="same shape"):
        max_privacy_loss([0.5, 0.5], [1.0])
    with pytest.raises(ValueError, match="neighbour_probabilities=-0.1"):
        max_privacy_loss([0.5, 0.5], [1.1, -0.1])


@pytest.mark.parametrize("call, error, match", [
    (lambda: exponential_probabilities([], 1, 1.0), ValueError, "scores must be non-empty"),
    (lambda: exponential_probabilities([0.0, np.inf], 1, 1.0), ValueError, r"scores\[1\]=inf"),
    (lambda: exponential_mechanism([0.0, np.nan], 1, 1.0), ValueError, r"scores\[1\]=nan"),
    (lambda: exponential_probabilities([[0.0, 1.0]], 1, 1.0), ValueError, "scores must be a 1-d"),
    (lambda: exponential_probabilities(["a", "b"], 1, 1.0), TypeError, "scores"),
    (lambda: exponential_probabilities([0.0, 1.0], 1, 0), ValueError, "epsilon=0"),
    (lambda: exponential_mechanism([0.0, 1.0], -1, 1.0), ValueError, "sensitivity=-1"),
    (lambda: report_noisy_max([0.0, 1.0], 1, 1.0, noise="normal"), ValueError, "noise='normal'"),
    (lambda: report_noisy_max_probabilities([0.0, 1.0], 1, "cauchy"), ValueError, "noise='cauchy'"),
    (lambda: report_noisy_max_probabilities([0.0, 1.0], 0, "laplace"), ValueError, "scale=0"),
    (lambda: report_noisy_max([0.0], 1, 1.0, monotone="yes"), TypeError, "monotone='yes'"),
    (lambda: permute_and_flip([0.0, 1.0], 1, -2.0), ValueError, "epsilon=-2"),
    (lambda: permute_and_flip_probabilities([], 1, 1.0), ValueError, "scores"),
    (lambda: exponential_utility_threshold(0, 5, 1, 1.0, -1), ValueError, "t=-1"),
    (lambda: exponential_utility_threshold(0, 0, 1, 1.0, 1), ValueError, "n_outcomes=0"),
    (lambda: exponential_utility_threshold(np.inf, 3, 1, 1.0, 1), ValueError, "opt=inf"),
    (lambda: exponential_utility_failure_probability([0.0, 1.0], 1, 1.0, [1.0, -0.5]),
     ValueError, "t=-0.5 at index 1"),
    (lambda: exponential_mechanism([0.0, 1.0], 1, 1.0, rng="seed"), TypeError, "rng='seed'"),
    (lambda: exponential_mechanism_stream([], 1, 1.0), ValueError, "score_chunks"),
    (lambda: exponential_mechanism_stream([[], []], 1, 1.0), ValueError, "score_chunks"),
    (lambda: exponential_mechanism_stream([[0.0], [1.0, np.inf]], 1, 1.0), ValueError,
     r"score_chunks\[1\]\[1\]=inf"),
    (lambda: exponential_mechanism_stream([[0.0], [[1.0]]], 1, 1.0), ValueError,
     r"score_chunks\[1\] must be a 1-d"),
    (lambda: exponential_mechanism_stream([[0.0]], 1, 0.0), ValueError, "epsilon=0"),
])
def test_bad_input_names_the_parameter(call, error, match):
    with pytest.raises(error, match=match):
        call()


# ---------------------------------------------------------------------------------------
# The description objects: ReportNoisyMax, ExponentialMechanism, PermuteAndFlip
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("monotone", [False, True])
def test_selection_objects_probabilities_against_weights_and_integrals(monotone):
    """catches: a monotone flag that scales the wrong way (the exponential mechanism at 4 Delta/eps
    or 2 Delta/eps instead of Delta/eps for monotone scores), or an object that ignores its noise."""
    scores, delta, eps = np.array([3.0, 2.0, 0.0, 2.5]), 2.0, 1.5
    b = (1 if monotone else 2) * delta / eps
    weights = np.array([math.exp(s / b) for s in scores])  # exp(eps s / (2 Delta)), or / Delta if monotone
    em = dplab.mechanisms.ExponentialMechanism(delta, eps, monotone)
    np.testing.assert_allclose(em.probabilities(scores), weights / weights.sum(), rtol=1e-12)
    assert em.scale == pytest.approx(b) and em.noise == "gumbel"
    np.testing.assert_allclose(dplab.mechanisms.PermuteAndFlip(delta, eps, monotone).probabilities(scores),
                               rnm_integral(scores, b, "exponential"), atol=1e-10)
    for noise in RNM_NOISES:
        rnm = dplab.mechanisms.ReportNoisyMax(delta, eps, noise, monotone)
        np.testing.assert_allclose(rnm.probabilities(scores), rnm_integral(scores, b, noise), atol=1e-10)
        assert rnm.epsilon_delta() == (eps, 0.0)


@pytest.mark.parametrize("eps", [0.3, 1.0, 2.0])
def test_rnm_laplace_pair_loss_is_the_difference_of_laplace_closed_form(eps):
    """catches: a pair loss computed at the general scale 2 Delta/eps when ``monotone`` asks for
    Delta/eps (the non-monotone counterexample then loses at most eps and hides the failure).

    Independent closed form: on s = (0, 0) each candidate wins w.p. 1/2; on s' = (1, -1) the second
    wins iff W = Z_1 - Z_2 > 2 with Z iid Lap(b), and Pr[W > t] = e^{-t/b} (1 + t/(2b)) / 2, so at
    b = 1/eps the loss is ln((1/2) / Pr[W > 2]) = 2 eps - ln(1 + eps)."""
    s, s_prime = [0.0, 0.0], [1.0, -1.0]
    loss = dplab.mechanisms.ReportNoisyMax(1.0, eps, monotone=True).max_privacy_loss(s, s_prime)
    assert loss == pytest.approx(2 * eps - math.log1p(eps), rel=1e-9)
    assert loss > eps
    for cls in (dplab.mechanisms.ReportNoisyMax, dplab.mechanisms.ExponentialMechanism,
                dplab.mechanisms.PermuteAndFlip):
        assert cls(1.0, eps).max_privacy_loss(s, s_prime) <= eps + 1e-12  # 2 Delta/eps: private


def test_expected_shortfall_against_a_direct_sum():
    """catches: the shortfall's sign flipped (E[s] - OPT) or OPT taken as the mean or min score;
    and permute-and-flip's shortfall above the exponential mechanism's (McKenna & Sheldon, Thm 2)."""
    scores = [3.0, 2.0, 0.0, 2.5, -1.0]
    for eps in (0.1, 1.0, 4.0):
        w = [math.exp(eps * s / 2) for s in scores]
        direct = max(scores) - sum(wi * s for wi, s in zip(w, scores, strict=True)) / sum(w)
        em = dplab.mechanisms.ExponentialMechanism(1.0, eps).expected_shortfall(scores)
        assert em == pytest.approx(direct, rel=1e-12) and em > 0
        assert dplab.mechanisms.PermuteAndFlip(1.0, eps).expected_shortfall(scores) <= em + 1e-12


@pytest.mark.parametrize("cls", ["ExponentialMechanism", "PermuteAndFlip", "ReportNoisyMax"])
def test_selection_object_samples_follow_its_probabilities(cls):
    """catches: a sampler that ignores ``monotone`` (draws at 2 Delta/eps while the probabilities
    are at Delta/eps) or that forgets the object's noise."""
    mechanism = getattr(dplab.mechanisms, cls)(1.0, 1.0, monotone=True)
    scores = np.array([3.0, 2.0, 0.0, 1.0])
    assert_frequencies(mechanism.sample(scores, 5, size=20_000), mechanism.probabilities(scores))
    assert isinstance(mechanism.sample(scores, 5), int)


def test_selection_objects_check_their_parameters():
    """catches: a description that accepts a noise it cannot compute or a non-boolean monotone,
    or that can be changed after it is built (it is a frozen value)."""
    with pytest.raises(ValueError, match="noise='cauchy'"):
        dplab.mechanisms.ReportNoisyMax(1.0, 1.0, "cauchy")
    with pytest.raises(TypeError, match="monotone='yes'"):
        dplab.mechanisms.PermuteAndFlip(1.0, 1.0, "yes")
    with pytest.raises(ValueError, match="epsilon=0"):
        dplab.mechanisms.ExponentialMechanism(1.0, 0.0)
    with pytest.raises(AttributeError):
        dplab.mechanisms.ExponentialMechanism(1.0, 1.0).epsilon = 2.0  # type: ignore[misc]
