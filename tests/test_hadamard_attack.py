"""The Fourier (Hadamard) reconstruction attack (dplab/hadamard_attack.py).

Independent references: scipy.linalg.hadamard and dense linear algebra (scipy.linalg.lstsq, the
inverse in ls_recovery_exact), brute force over every sign pattern of the noise. The Monte Carlo
check uses a fixed seed and a 99.9% t interval, widened by a stated approximation tolerance where
the formula is only asymptotic (non-Gaussian noise).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import linalg

from dplab.hadamard_attack import (
    fwht,
    hadamard_answers,
    hadamard_attack,
    hadamard_estimate,
    hadamard_max_wrong,
    hadamard_queries,
    hadamard_recovery_theory,
    hadamard_shares,
)
from dplab.reconstruction import answer_noise_sd, answer_queries, least_squares_attack, ls_recovery_exact
from dplab.simulate import mean_ci

NOISES = ("uniform", "gaussian", "laplace")


def _dense(n: int) -> np.ndarray:
    """The queries (J + H)/2 from scipy's Hadamard matrix, as floats."""
    return (1 + linalg.hadamard(n)) / 2


@pytest.mark.catches("hadamard.butterfly_b_minus_a")
def test_the_fast_transform_is_scipys_hadamard_matrix():
    """catches: hadamard.butterfly_b_minus_a (the butterfly's (a, b) -> (a + b, b - a): another
    orthogonal +-1 matrix, not Sylvester's). Every n = 2^k up to 512, 1-d and 2-d inputs."""
    rng = np.random.default_rng(0)
    for k in range(10):
        n = 2**k
        v = rng.normal(size=(n, 3))
        h = linalg.hadamard(n)
        np.testing.assert_allclose(fwht(v), h @ v, atol=1e-9)
        np.testing.assert_allclose(fwht(v[:, 0]), h @ v[:, 0], atol=1e-9)
    v = rng.normal(size=8)
    before = v.copy()
    np.testing.assert_allclose(fwht(fwht(v)), 8 * v)  # H H = n I
    assert np.array_equal(v, before)  # the input is not transformed in place


@pytest.mark.catches("hadamard.answers_pm1")
def test_the_answers_are_the_dense_subset_sums_with_the_lab_noise():
    """catches: hadamard.answers_pm1 (the answers of H/2 without the count J x/2: not 0/1 subset sums).
    Exact answers equal the dense (J + H)/2 x; noisy ones carry answer_queries' noise draw for draw."""
    rng = np.random.default_rng(1)
    for n in (1, 2, 8, 64):
        a = _dense(n)
        assert np.array_equal(hadamard_queries(n), a.astype(np.uint8))
        x = rng.integers(0, 2, n)
        np.testing.assert_allclose(hadamard_answers(x, scale=0.0), a @ x, atol=1e-12)
        for noise in NOISES:
            ours = hadamard_answers(x, noise=noise, scale=2.5, rng=7) - a @ x
            lab = answer_queries(a.astype(np.uint8), x, noise=noise, scale=2.5, rng=7) - a @ x
            np.testing.assert_allclose(ours, lab, atol=1e-9)


@pytest.mark.catches("hadamard.bit0_no_half", "hadamard.decode_over_n")
def test_the_decoder_is_the_dense_least_squares_solution():
    """catches: hadamard.bit0_no_half (bit 0's estimate without the /2), hadamard.decode_over_n
    (H y / n for 2 H y / n). On the Hadamard queries least squares is A^-1 y: the fast estimate
    equals scipy's dense lstsq to rounding, and the rounded bits equal least_squares_attack's."""
    rng = np.random.default_rng(2)
    for n in (2, 4, 16, 256):
        a = _dense(n)
        x = rng.integers(0, 2, n)
        for noise in NOISES:
            y = hadamard_answers(x, noise=noise, scale=0.3 * math.sqrt(n), rng=rng)
            dense = linalg.lstsq(a, y)[0]
            np.testing.assert_allclose(hadamard_estimate(y), dense, atol=1e-8)
            assert np.array_equal(hadamard_attack(y), least_squares_attack(a.astype(np.uint8), y))
        many = a @ x[:, None] + rng.normal(0, 3.0, (n, 5))  # one column per release
        np.testing.assert_allclose(hadamard_estimate(many), linalg.lstsq(a, many)[0], atol=1e-8)


@pytest.mark.catches("hadamard.theory_2sigma", "hadamard.theory_bit0_like_the_rest")
def test_the_recovery_formula_is_the_dense_exact_share():
    """catches: hadamard.theory_2sigma (Phi(sqrt(n)/(2 sigma)): the error variance sigma^2/n for
    4 sigma^2/n), hadamard.theory_bit0_like_the_rest (bit 0 given the other bits' accuracy).
    For Gaussian noise the formula is exact: it equals ls_recovery_exact's mean of
    Phi(1/(2 sigma sqrt(((A^T A)^-1)_ii))) from the dense inverse."""
    for n in (2, 8, 64, 256):
        for sd in (0.05, 0.5, 0.25 * math.sqrt(n), 2 * math.sqrt(n)):
            exact = ls_recovery_exact(_dense(n), sd)
            assert hadamard_recovery_theory(n, sd) == pytest.approx(exact, abs=1e-12), (n, sd)
    assert hadamard_recovery_theory(16, 0.0) == 1.0
    np.testing.assert_allclose(hadamard_recovery_theory(16, [0.1, 1.0]),
                               [hadamard_recovery_theory(16, 0.1), hadamard_recovery_theory(16, 1.0)])


def test_the_simulated_share_matches_the_formula_for_every_noise():
    """n = 4096 bits, 200 releases per noise at E / sqrt(n) in {0.25, 0.5} (uniform scale E, the
    Gaussian and Laplace scales of the same standard deviation). Gaussian: the formula is exact and
    must lie in the 99.9% t interval of the mean share; uniform and Laplace: the error u_i is a sum
    of n terms, Gaussian only in the limit, so the interval is widened by 0.003."""
    n, draws = 4096, 200
    rng = np.random.default_rng(3)
    x = rng.integers(0, 2, n)
    truth = hadamard_answers(x, scale=0.0)
    for ratio in (0.25, 0.5):
        sd = float(answer_noise_sd("uniform", ratio * math.sqrt(n)))
        for noise in NOISES:
            scale = sd / float(answer_noise_sd(noise, 1.0))
            noise_draws = [hadamard_answers(np.zeros(n), noise=noise, scale=scale, rng=rng)
                           for _ in range(draws)]
            noisy = truth[:, None] + np.stack(noise_draws, axis=1)
            shares = ((hadamard_estimate(noisy) >= 0.5) == x[:, None]).mean(axis=0)
            ci = mean_ci(shares, 0.999)
            slack = 0.0 if noise == "gaussian" else 0.003
            theory = hadamard_recovery_theory(n, sd)
            assert ci.low - slack <= theory <= ci.high + slack, (ratio, noise, ci, theory)


@pytest.mark.catches("hadamard.shares_round_at_zero")
def test_the_shares_at_every_scale_are_the_attacks_own():
    """catches: hadamard.shares_round_at_zero (a 1 counted right when its estimate is >= 0, not
    >= 1/2). One release per noise: the sweep's share at scale s is the attack's on the answers
    with noise s z, z the same standard draw (seed 7 both ways)."""
    x = np.random.default_rng(8).integers(0, 2, 1024)
    scales = [0.0, 2.0, 8.0, 16.0, 40.0]
    for noise in NOISES:
        sweep = hadamard_shares(x, scales, noise=noise, draws=1, rng=7)
        assert sweep.shape == (5, 1)
        for s, share in zip(scales, sweep[:, 0], strict=True):
            direct = np.mean(hadamard_attack(hadamard_answers(x, noise=noise, scale=s, rng=7)) == x)
            assert share == pytest.approx(direct, abs=2 / 1024), (noise, s)  # ties at 1/2 may round apart
    assert hadamard_shares(x, 8.0, draws=3, rng=1).shape == (1, 3)


@pytest.mark.catches("hadamard.max_wrong_4e2")
def test_the_worst_case_bound_holds_over_every_sign_pattern_and_is_attained():
    """catches: hadamard.max_wrong_4e2 (4 E^2 bits: the rounding margin 1/2 forgotten). Brute force:
    every noise vector e in {-E, E}^n and random ones inside the box, each with the secret that the
    noise hurts most (x_i = 0 where u_i >= 0, else 1), decoded by hadamard_attack. The bound is
    reached at n = 16, E = 0.51 (5 bits) and E = 1.01 (all 16)."""
    rng = np.random.default_rng(4)
    for n in (4, 8, 16):
        a = _dense(n)
        signs = (((np.arange(2**n)[:, None] >> np.arange(n)) & 1) * 2 - 1.0).T  # n x 2^n
        for bound in (0.1, 0.2, 0.25, 0.3, 0.51, 0.75, 1.01, 1.5):
            e = np.hstack([bound * signs, rng.uniform(-bound, bound, (n, 2000))])
            x = (hadamard_estimate(e) < 0).astype(float)  # the secret the noise hurts most
            wrong = int((hadamard_attack(a @ x + e) != x).sum(axis=0).max())
            assert wrong <= hadamard_max_wrong(n, bound), (n, bound, wrong)
            if n == 16 and bound in (0.51, 1.01):
                assert wrong == hadamard_max_wrong(n, bound) == {0.51: 5, 1.01: 16}[bound]
    assert [hadamard_max_wrong(2**20, e) for e in (0.16, 0.17, 0.25, 0.5)] == [0, 1, 2, 5]


def test_fast_at_a_million_bits():
    """n = 2^20: answers and attack without an n x n matrix (a dense one would take 8 TB)."""
    n = 2**20
    x = np.random.default_rng(5).integers(0, 2, n)
    y = hadamard_answers(x, scale=0.25 * math.sqrt(n), rng=6)
    share = float(np.mean(hadamard_attack(y) == x))
    assert abs(share - hadamard_recovery_theory(n, answer_noise_sd("uniform", 0.25 * math.sqrt(n)))) < 0.002


@pytest.mark.parametrize(("call", "message"), [
    (lambda: fwht(np.ones(6)), r"len\(values\) must be a power of 2 .*=6"),
    (lambda: fwht(np.ones((2, 2, 2))), "values must be a 1-d or 2-d"),
    (lambda: fwht([1.0, np.nan]), "finite"),
    (lambda: hadamard_queries(12), "n_bits must be a power of 2 .*n_bits=12"),
    (lambda: hadamard_queries(8192), "n_bits must be <= 4096"),
    (lambda: hadamard_answers(np.ones(3), scale=1.0), r"len\(bits\) must be a power of 2"),
    (lambda: hadamard_answers(np.full(4, 2), scale=1.0), "bits must be .* 0s and 1s"),
    (lambda: hadamard_answers(np.ones(4), scale=-1.0), "scale must be .*scale=-1.0"),
    (lambda: hadamard_answers(np.ones(4), noise="cauchy", scale=1.0), "noise"),
    (lambda: hadamard_estimate(np.ones(5)), r"len\(values\) must be a power of 2"),
    (lambda: hadamard_recovery_theory(8, -1.0), "noise_sd"),
    (lambda: hadamard_max_wrong(8, -0.5), "bound must be .*bound=-0.5"),
    (lambda: hadamard_max_wrong(0, 1.0), "n_bits"),
])
def test_bad_input_names_the_parameter(call, message):
    with pytest.raises(ValueError, match=message):
        call()
