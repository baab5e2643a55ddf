"""dplab.learning's DP-SGD: clipping row by row, the noise's law on the sum, Poisson batches (read off
exactly through a design where each example moves its own weight), the reduction to plain SGD written
out here, a model that beats chance, and bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dplab.learning as L

# the family of interval checks in this file: two-sided z and chi-square quantiles at 1e-3 / 12 each
_LEVEL = 1e-3 / 12
_Z = float(stats.norm.isf(_LEVEL / 2))


@pytest.mark.catches("learning.clip_by_batch_norm")
def test_clipping_is_per_row():
    g = np.array([[3.0, 4.0], [0.3, 0.4], [0.0, -2.0], [0.0, 0.0]])
    clipped = L.clip_gradients(g, 1.0)
    assert clipped == pytest.approx(np.array([[0.6, 0.8], [0.3, 0.4], [0.0, -1.0], [0.0, 0.0]]), abs=1e-15)
    assert np.all(np.linalg.norm(clipped, axis=1) <= 1.0 + 1e-12)
    assert np.array_equal(L.clip_gradients(g, math.inf), g)
    rng = np.random.default_rng(0)
    many = rng.normal(size=(200, 5)) * rng.exponential(size=(200, 1))
    c = L.clip_gradients(many, 1.3)
    norms = np.linalg.norm(many, axis=1)
    assert np.all(np.linalg.norm(c, axis=1) <= 1.3 + 1e-12)
    assert np.array_equal(c[norms <= 1.3], many[norms <= 1.3])  # inside the ball: unchanged
    big = norms > 1.3
    assert np.linalg.norm(c[big], axis=1) == pytest.approx(np.full(big.sum(), 1.3))
    assert np.einsum("ij,ij->i", c[big], many[big]) == pytest.approx(1.3 * norms[big])  # same direction


def test_clipping_bias_by_hand():
    g = np.array([[3.0, 4.0], [0.3, 0.4]])
    assert L.clipping_bias(g, 1.0) == pytest.approx([0.45 - 1.65, 0.6 - 2.2])
    assert L.clipping_bias(g, 5.0) == pytest.approx([0.0, 0.0], abs=1e-15)


@pytest.mark.catches("learning.noise_on_mean")
def test_noise_law_on_the_sum():
    """(clipped sum + sigma C Z) / (q n): mean and sd of 4,000 draws against their values worked by
    hand, by z and chi-square intervals at the file's family level."""
    g = np.array([[3.0, 4.0], [0.3, 0.4], [0.0, -2.0]])
    clip, sigma, size, draws = 1.0, 2.0, 5.0, 4000
    rng = np.random.default_rng(11)
    out = np.array([L.noisy_gradient(g, clip=clip, noise_multiplier=sigma, expected_batch_size=size, rng=rng)
                    for _ in range(draws)])
    mean, sd = np.array([0.9, 0.2]) / size, sigma * clip / size  # clipped sum (0.6+0.3, 0.8+0.4-1)
    assert np.all(np.abs(out.mean(axis=0) - mean) < _Z * sd / math.sqrt(draws))
    lo, hi = stats.chi2.ppf([_LEVEL / 2, 1 - _LEVEL / 2], draws - 1) / (draws - 1)
    ratio = out.var(axis=0, ddof=1) / sd**2
    assert np.all((lo < ratio) & (ratio < hi)), ratio
    assert L.noisy_gradient(g, clip=clip, noise_multiplier=0.0, expected_batch_size=size, rng=1) == \
        pytest.approx(mean)


def _identity_steps(n: int, q: float, calls: int, seed: int) -> np.ndarray:
    """One dpsgd_step from w = 0 on X = I (n examples, n features), y = 0, sigma = 0, C = inf, lr = 1:
    example i's gradient is (1/2) e_i, so the new weights are -(1/2) 1[i in B] / (q n): the batch,
    read off exactly. Returns the (calls, n) weights."""
    X, y, rng = np.eye(n), np.zeros(n), np.random.default_rng(seed)
    return np.array([L.dpsgd_step(np.zeros(n), X, y, noise_multiplier=0.0, clip=math.inf, sampling_rate=q,
                                  learning_rate=1.0, rng=rng) for _ in range(calls)])


@pytest.mark.catches("learning.fixed_batch", "learning.divide_by_batch_size",
                      "learning.poisson_skip_off_by_one")
def test_batches_are_poisson():
    """Batch sizes Binomial(n, q) (mean and variance), each example in at rate q (a z interval per
    example, Bonferroni over the n), for dpsgd_step's batches and for poisson_batch."""
    n, q, calls = 50, 0.2, 2000
    w = _identity_steps(n, q, calls, seed=4)
    inside = w < 0
    assert np.all(w[inside] == pytest.approx(-0.5 / (q * n)))  # over the expected size q n, not |B|
    z_each = float(stats.norm.isf(_LEVEL / (2 * n)))
    assert np.all(np.abs(inside.mean(axis=0) - q) < z_each * math.sqrt(q * (1 - q) / calls))
    sizes = inside.sum(axis=1)
    mean, var = n * q, n * q * (1 - q)  # Binomial(n, q)
    assert abs(sizes.mean() - mean) < _Z * math.sqrt(var / calls)
    lo, hi = stats.chi2.ppf([_LEVEL / 2, 1 - _LEVEL / 2], calls - 1) / (calls - 1)
    assert lo < sizes.var(ddof=1) / var < hi
    # poisson_batch itself: the same law
    rng = np.random.default_rng(5)
    batches = [L.poisson_batch(n, q, rng) for _ in range(calls)]
    direct = np.array([b.size for b in batches])
    assert abs(direct.mean() - mean) < _Z * math.sqrt(var / calls)
    assert lo < direct.var(ddof=1) / var < hi
    rates = np.bincount(np.concatenate(batches), minlength=n) / calls
    assert np.all(np.abs(rates - q) < z_each * math.sqrt(q * (1 - q) / calls))
    assert all(np.all(np.diff(b) > 0) for b in batches)  # sorted, no repeats
    assert np.array_equal(L.poisson_batch(7, 1.0, rng), np.arange(7))


@pytest.mark.catches("learning.divide_by_batch_size", "learning.gradient_sign")
def test_no_noise_no_clipping_is_plain_sgd():
    """Minibatch SGD written out here, drawing as the docstring says (the batch by poisson_batch, whose
    law the test above checks, then d normals, unused), against dpsgd with sigma = 0 and C = inf."""
    X, y = L.sex_task(300, degree=2, rng=3)
    n, d = X.shape
    q, lr, l2, steps = 0.1, 0.5, 1e-3, 60
    rng, w = np.random.default_rng(9), np.zeros(d)
    for _ in range(steps):
        batch = L.poisson_batch(n, q, rng)
        rng.standard_normal(d)
        total = np.zeros(d)
        for i in batch:
            total += (1 / (1 + math.exp(-X[i] @ w)) - y[i]) * X[i]
        w = w - lr * (total / (q * n) + l2 * w)
    model, ledger = L.dpsgd(X, y, noise_multiplier=0.0, clip=math.inf, sampling_rate=q, steps=steps, rng=9,
                            learning_rate=lr, l2=l2)
    assert model.weights == pytest.approx(w, rel=1e-10, abs=1e-13)
    assert (ledger.noise_multiplier, ledger.sampling_rate, ledger.steps) == (0.0, q, steps)
    assert ledger.epsilon(1e-5) == math.inf


@pytest.mark.catches("learning.noise_on_mean", "learning.gradient_sign")
def test_dpsgd_beats_chance():
    """sigma = 1, C = 1, batches of 256 expected, 500 steps on all 12,579 students: accuracy above 0.75,
    where the majority class is 51% and the non-private model 80%."""
    X, y = L.sex_task(degree=1)
    model, ledger = L.dpsgd(X, y, noise_multiplier=1.0, clip=1.0, sampling_rate=256 / len(y), steps=500,
                            rng=2, learning_rate=2.0)
    assert model.accuracy(X, y) > 0.75
    again, _ = L.dpsgd(X, y, noise_multiplier=1.0, clip=1.0, sampling_rate=256 / len(y), steps=500, rng=2,
                       learning_rate=2.0)
    assert np.array_equal(model.weights, again.weights)  # same seed, same model


def test_ledger_epsilon_is_the_accountants():
    acc = pytest.importorskip("dplab.learning.accounting")
    ledger = L.DpsgdLedger(1.1, 0.01, 1000)
    for accountant in ("pld", "rdp"):
        expected = acc.dpsgd_epsilon(1.1, 0.01, 1000, 1e-5, accountant=accountant)
        assert ledger.epsilon(1e-5, accountant) == expected


@pytest.mark.parametrize(("call", "match"), [
    (lambda: L.clip_gradients([[1.0, 2.0]], 0.0), "clip must be finite and > 0, got clip=0.0"),
    (lambda: L.clip_gradients([[1.0, 2.0]], math.nan), "clip must be finite and > 0, got clip=nan"),
    (lambda: L.clip_gradients([1.0, 2.0], 1.0), "gradients must be a 2-d array"),
    (lambda: L.poisson_batch(10, 0.0),
     r"sampling_rate must be a probability in \(0, 1\], got sampling_rate=0.0"),
    (lambda: L.poisson_batch(0, 0.5), "n must be a positive integer, got n=0"),
    (lambda: L.noisy_gradient([[1.0]], clip=math.inf, noise_multiplier=1.0, expected_batch_size=1.0),
     "clip must be finite when noise_multiplier > 0"),
    (lambda: L.noisy_gradient([[1.0]], clip=1.0, noise_multiplier=-1.0, expected_batch_size=1.0),
     "noise_multiplier must be finite and >= 0, got noise_multiplier=-1.0"),
    (lambda: L.noisy_gradient([[1.0]], clip=1.0, noise_multiplier=1.0, expected_batch_size=0.0),
     "expected_batch_size must be finite and > 0"),
    (lambda: L.dpsgd([[1.0]], [1.0], noise_multiplier=1.0, clip=1.0, sampling_rate=1.5, steps=1, rng=0),
     r"sampling_rate must be a probability in \(0, 1\], got sampling_rate=1.5"),
    (lambda: L.dpsgd([[1.0]], [1.0], noise_multiplier=1.0, clip=1.0, sampling_rate=0.5, steps=0, rng=0),
     "steps must be a positive integer, got steps=0"),
    (lambda: L.dpsgd([[1.0]], [1.0], noise_multiplier=1.0, clip=1.0, sampling_rate=0.5, steps=1, rng=0,
                     learning_rate=0.0), "learning_rate must be finite and > 0, got learning_rate=0.0"),
    (lambda: L.dpsgd_step([0.0, 0.0], [[1.0]], [1.0], noise_multiplier=1.0, clip=1.0, sampling_rate=0.5,
                          learning_rate=1.0), "weights must be 1 finite numbers"),
    (lambda: L.DpsgdLedger(1.0, 0.1, 10).epsilon(0.0), r"delta must be in \(0, 1\), got delta=0.0"),
])
def test_bad_input_names_the_parameter_and_value(call, match):
    with pytest.raises(ValueError, match=match):
        call()
