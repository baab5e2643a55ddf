"""dplab.learning's output and objective perturbation (Chaudhuri, Monteleoni & Sarwate 2011): the noise's
law (Laplace in one dimension, a Gamma norm and a uniform direction in d), the released models against
the paper's formulas recomputed here, Corollary 8's sensitivity on neighbouring data, and objective
perturbation's privacy: the exact log density ratio of its output between neighbours <= epsilon."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special, stats

import dplab.learning as L

_P_MIN = 1e-4  # KS p-values: three tests in this file, each failing a correct sampler with prob. 1e-4
_C = 0.25  # the logistic loss's |l''| bound


@pytest.mark.catches("learning.noise_norm_exponential")
def test_norm_exponential_noise_law():
    beta = 2.5
    one = L.norm_exponential_noise(1, beta, size=5000, rng=1)[:, 0]
    assert stats.kstest(one, stats.laplace(scale=1 / beta).cdf).pvalue > _P_MIN  # exp(-beta |b|) in 1-d
    b = L.norm_exponential_noise(4, beta, size=5000, rng=2)
    norms = np.linalg.norm(b, axis=1)
    assert stats.kstest(norms, stats.gamma(4, scale=1 / beta).cdf).pvalue > _P_MIN  # r^3 e^{-beta r}
    cos2 = (b[:, 0] / norms) ** 2  # a uniform direction's squared coordinate is Beta(1/2, (d - 1)/2)
    assert stats.kstest(cos2, stats.beta(0.5, 1.5).cdf).pvalue > _P_MIN
    assert L.norm_exponential_noise(3, 1.0, rng=0).shape == (3,)


def _data(n: int, d: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    X, y = L.sex_task(n, degree=2, rng=seed)
    return X[:, :d] / math.sqrt(d), y


@pytest.mark.catches("learning.output_beta_no_half")
def test_output_perturbation_adds_the_papers_noise():
    """The only draws are the noise's, so the release minus the minimiser is the noise drawn with the same
    seed at the paper's beta = n Lambda epsilon / 2 (Algorithm 1)."""
    X, y = _data(80, 6, seed=1)
    lam, eps = 0.05, 1.5
    w_star = L.fit_logistic(X, y, l2=lam).weights
    released = L.output_perturbation(X, y, eps, l2=lam, rng=7).weights
    noise = L.norm_exponential_noise(6, 80 * lam * eps / 2, rng=7)
    assert released - w_star == pytest.approx(noise, abs=1e-6)
    assert L.output_perturbation_beta(80, lam, eps) == pytest.approx(80 * lam * eps / 2, rel=1e-15)


def test_minimiser_sensitivity_corollary_8():
    """||w*(D) - w*(D')|| <= 2/(n Lambda) for D, D' differing in one row (||x|| <= 1)."""
    rng = np.random.default_rng(3)
    X, y = _data(30, 4, seed=2)
    lam = 0.1
    w = L.fit_logistic(X, y, l2=lam).weights
    worst = 0.0
    for _ in range(8):
        X2, y2 = X.copy(), y.copy()
        x = rng.normal(size=4)
        X2[-1], y2[-1] = x / np.linalg.norm(x), 1.0 - y[-1]
        worst = max(worst, np.linalg.norm(L.fit_logistic(X2, y2, l2=lam).weights - w))
    assert 0 < worst <= 2 / (30 * lam)


def _paper_parameters(n: int, lam: float, eps: float) -> tuple[float, float]:
    """Algorithm 2's (epsilon', Delta), with 1 + 2r + r^2 written as (1 + r)^2, r = c/(n Lambda)."""
    eps_prime = eps - 2 * math.log(1 + _C / (n * lam))
    if eps_prime > 0:
        return eps_prime, 0.0
    return eps / 2, _C / (n * (math.exp(eps / 4) - 1)) - lam


@pytest.mark.catches("learning.objective_delta_dropped")
def test_objective_perturbation_parameters():
    for n, lam, eps in ((500, 1e-3, 2.0), (500, 1e-3, 0.5), (5, 0.01, 1.0), (12_579, 1e-4, 0.1)):
        expected = _paper_parameters(n, lam, eps)
        assert L.objective_perturbation_parameters(n, lam, eps) == pytest.approx(expected)


@pytest.mark.catches("learning.objective_no_extra_regulariser")
@pytest.mark.parametrize(("n", "lam", "eps"), [(60, 0.05, 2.0), (60, 0.002, 0.5)])
def test_objective_perturbation_solves_the_perturbed_objective(n, lam, eps):
    """The release f meets the first-order condition of J(f) + b.f/n + (Delta/2)||f||^2 for the b drawn
    with the same seed at beta = epsilon'/2: (1/n) sum (p_i - y_i) x_i + (Lambda + Delta) f + b/n = 0.
    The second case has Delta > 0."""
    X, y = _data(n, 5, seed=4)
    eps_prime, extra = _paper_parameters(n, lam, eps)
    f = L.objective_perturbation(X, y, eps, l2=lam, rng=5).weights
    b = L.norm_exponential_noise(5, eps_prime / 2, rng=5)
    grad = X.T @ (special.expit(X @ f) - y) / n + (lam + extra) * f + b / n
    assert np.linalg.norm(grad) < 1e-6


def _log_density(f: np.ndarray, X: np.ndarray, s: np.ndarray, reg: float, beta: float) -> float:
    """ln of the output density of objective perturbation at f, up to a constant shared by neighbours:
    b(f) = -(sum_i l'(s_i f.x_i) s_i x_i + n reg f) is a bijection with Jacobian -(sum_i l''(.) x_i x_i^T +
    n reg I), so p(f) = nu(b(f)) |det| with nu(b) ~ exp(-beta ||b||)."""
    t = s * (X @ f)
    d1 = -special.expit(-t)  # l'(t) for l(t) = ln(1 + e^{-t})
    d2 = special.expit(t) * special.expit(-t)  # l''(t)
    n = X.shape[0]
    b = -((d1 * s) @ X + n * reg * f)
    hessian = (X * d2[:, None]).T @ X + n * reg * np.eye(X.shape[1])
    return -beta * float(np.linalg.norm(b)) + float(np.linalg.slogdet(hessian)[1])


@pytest.mark.catches("learning.objective_delta_dropped")
@pytest.mark.parametrize(("lam", "eps"), [(0.01, 1.0), (0.2, 1.0)])
def test_objective_perturbation_privacy_ratio(lam, eps):
    """Theorem 9, checked: the exact log ratio of the output densities on D and on D' (the last row
    replaced) stays <= epsilon over outputs chosen where the Jacobians differ most (the removed row at
    margin 0, the added one far from it) and at random. With n Lambda small (first case: Delta > 0) the
    extra regulariser is what keeps it there."""
    n, d = 5, 3
    rng = np.random.default_rng(6)
    X = np.zeros((n, d))
    X[:-1, 1:] = rng.normal(size=(n - 1, d - 1))
    X[:-1] /= np.linalg.norm(X[:-1], axis=1, keepdims=True)
    X[-1] = [1.0, 0.0, 0.0]
    s = np.array([1.0, -1.0, 1.0, -1.0, 1.0])
    X2 = X.copy()
    X2[-1] = [0.0, 1.0, 0.0]
    eps_prime, extra = L.objective_perturbation_parameters(n, lam, eps)
    beta, reg = eps_prime / 2, lam + extra
    outputs = [np.array([0.0, t, u]) for t in (-40.0, -10.0, 10.0, 40.0) for u in (-1.0, 0.0, 1.0)]
    outputs += list(rng.normal(scale=5.0, size=(200, d)))
    worst = max(abs(_log_density(f, X, s, reg, beta) - _log_density(f, X2, s, reg, beta)) for f in outputs)
    assert worst <= eps + 1e-9


@pytest.mark.parametrize(("call", "match"), [
    (lambda: L.norm_exponential_noise(0, 1.0), "dim must be a positive integer, got dim=0"),
    (lambda: L.norm_exponential_noise(2, 0.0), "beta must be finite and > 0, got beta=0.0"),
    (lambda: L.output_perturbation([[1.0, 1.0]], [1.0], 1.0, l2=0.1), "X's rows must have norm <= 1"),
    (lambda: L.objective_perturbation([[0.5, 0.5]], [1.0], 0.0, l2=0.1), "epsilon must be finite and > 0"),
    (lambda: L.objective_perturbation([[0.5, 0.5]], [1.0], 1.0, l2=0.0),
     "l2 must be finite and > 0, got l2=0.0"),
    (lambda: L.objective_perturbation_parameters(10, 0.1, 1.0, smoothness=-1.0), "smoothness must be finite"),
])
def test_bad_input_names_the_parameter_and_value(call, match):
    with pytest.raises(ValueError, match=match):
        call()
