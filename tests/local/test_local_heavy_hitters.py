"""dplab.local.heavy_hitters (the prefix extension method): it finds the planted heavy ids of a
synthetic Zipf at n = 10^5 without enumerating the 2^32 ids, its threshold is the formula, bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dplab.local as L
from dplab.local import frequency_oracles as fo

#: the synthetic data of these tests: Zipf ranks with exponent 1.5 (P(rank 1) = 1/zeta(1.5) = 0.38)
#: scattered over 2^32 ids, n = 100,000 users, seed 3; the protocol at eps = 4 with seed 4
EXPONENT, N, DATA_SEED, EPSILON, RUN_SEED = 1.5, 100_000, 3, 4.0, 4


@pytest.mark.statistical
@pytest.mark.catches("local.pem_keeps_the_smallest", "local.pem_cut_above_threshold")
def test_finds_the_planted_heavy_hitters(monkeypatch):
    """At the theory's threshold T (about 1.5%: 8 true heavy ids), precision >= 0.8 and recall >= 0.8
    (over 20 protocol seeds both averaged 0.94 and 0.99, never below 0.88), every id of share >= 2T is
    found with an estimate within 5 sigma of its share, and no stage estimates more than
    max(2^8, 64 * 2^4) = 1,024 candidates (never the 2^32 ids)."""
    seen = []
    original = fo.OptimizedLocalHashing.frequencies

    def spy(self, values, rng=None, candidates=None):
        seen.append(None if candidates is None else len(candidates))
        return original(self, values, rng, candidates)

    monkeypatch.setattr(fo.OptimizedLocalHashing, "frequencies", spy)
    items = L.zipf_items(N, exponent=EXPONENT, rng=DATA_SEED)
    t = L.heavy_hitter_threshold(EPSILON, N)
    found = L.heavy_hitters(items, EPSILON, threshold=t, rng=RUN_SEED)
    assert found.ids.size > 0
    precision, recall = L.heavy_hitter_precision_recall(found.ids, items, t)
    assert precision >= 0.8 and recall >= 0.8, (precision, recall)
    assert len(seen) == 7 and None not in seen and max(seen) <= 1024
    truth = L.true_heavy_hitters(items, 2 * t)
    sigma = math.sqrt(L.frequency_oracle_variance("olh", EPSILON, 2, N // 7))
    estimated = dict(zip(found.ids.tolist(), found.frequencies.tolist(), strict=True))
    for i, share in zip(truth.ids.tolist(), truth.frequencies.tolist(), strict=True):
        assert abs(estimated[i] - share) <= 5 * sigma
    assert np.all(np.diff(found.frequencies) <= 0)  # largest first


@pytest.mark.catches("local.pem_keeps_the_smallest")
def test_keep_caps_the_candidates_by_their_estimates():
    """With keep = 2 only the two largest prefixes go on: the two heaviest ids (shares 0.38 and 0.13,
    far above the rest) are what is found."""
    items = L.zipf_items(N, exponent=EXPONENT, rng=DATA_SEED)
    found = L.heavy_hitters(items, EPSILON, threshold=0.01, rng=RUN_SEED, keep=2)
    assert found.ids.tolist() == L.true_heavy_hitters(items, 0.1).ids.tolist()


@pytest.mark.catches("local.pem_threshold_all_users")
def test_threshold_formula():
    """T = z_(1 - alpha/C) sigma(0) + z_(1 - beta/G) sigma(T), recomputed here by fixed-point iteration
    with OLH's p = e^eps/(e^eps + g - 1), q = 1/g, the pure-protocol variance [q(1 - q)/(p - q)^2 +
    f(1 - p - q)/(p - q)]/m and the group's sampling variance f(1 - f)(n - m)/((n - 1) m), m = n // G:
    G = 7 groups for 32 bits in steps of 4 (prefixes of 8, 12, ..., 32 bits), C = max(2^8, 64 * 16)."""
    assert L.heavy_hitter_stages(32, 4) == (8, 12, 16, 20, 24, 28, 32)
    assert L.heavy_hitter_stages(13, 4) == (9, 13)
    assert L.heavy_hitter_stages(10, 4) == (10,)
    for eps, n in ((1.0, 10**6), (4.0, 10**5)):
        e, g, m = math.exp(eps), L.olh_buckets(eps), n // 7
        p, q = e / (e + g - 1), 1 / g

        def sd(f, p=p, q=q, m=m, n=n):
            olh = (q * (1 - q) / (p - q) ** 2 + f * (1 - p - q) / (p - q)) / m
            return math.sqrt(olh + f * (1 - f) * (n - m) / ((n - 1) * m))
        z_alpha, z_beta = stats.norm.ppf(1 - 0.05 / 1024), stats.norm.ppf(1 - 0.05 / 7)
        t = (z_alpha + z_beta) * sd(0.0)
        for _ in range(100):
            t = z_alpha * sd(0.0) + z_beta * sd(t)
        assert L.heavy_hitter_threshold(eps, n) == pytest.approx(t, rel=1e-7)


def test_small_domain_and_truth_helpers():
    items = np.array([5] * 60 + [9] * 30 + list(range(10)))
    truth = L.true_heavy_hitters(items, 0.2)
    assert truth.ids.tolist() == [5, 9] and truth.frequencies.tolist() == [0.61, 0.31]
    assert L.heavy_hitter_precision_recall([5, 1], items, 0.2) == (0.5, 0.5)
    assert L.heavy_hitter_precision_recall([], items, 0.2) == (1.0, 0.0)
    found = L.heavy_hitters(np.tile(items, 200), 3.0, domain_bits=4, threshold=0.2, rng=1)
    assert set(found.ids.tolist()) == {5, 9}
    z = L.zipf_items(1000, exponent=2.0, domain_bits=20, rng=1)
    assert z.min() >= 0 and z.max() < 2**20 and np.array_equal(z, L.zipf_items(1000, exponent=2.0,
                                                                              domain_bits=20, rng=1))


@pytest.mark.parametrize(("call", "match"), [
    (lambda: L.heavy_hitters([1, 2], 1.0, threshold=0.1, rng=0), "items must hold at least the 7 groups"),
    (lambda: L.heavy_hitters([-1] * 10, 1.0, threshold=0.1, rng=0), r"items must be ids in \[0, 2\^32\)"),
    (lambda: L.heavy_hitters([16] * 10, 1.0, domain_bits=4, threshold=0.1), r"got items\[0\]=16"),
    (lambda: L.heavy_hitters([1.5] * 10, 1.0, threshold=0.1), "items must be a non-empty 1-d array"),
    (lambda: L.heavy_hitters([1] * 10, 0.0, threshold=0.1), "epsilon must be finite and > 0, got epsilon=0"),
    (lambda: L.heavy_hitters([1] * 10, 1.0, threshold=0.0), "threshold must be a share in"),
    (lambda: L.heavy_hitters([1] * 10, 1.0, domain_bits=33, threshold=0.1), "domain_bits must be an integer"),
    (lambda: L.heavy_hitters([1] * 10, 1.0, threshold=0.1, keep=0), "keep must be a positive integer"),
    (lambda: L.heavy_hitters([1] * 10, 1.0, threshold=0.1, beta=1.0), r"beta must be in \(0, 1\)"),
    (lambda: L.heavy_hitter_threshold(1.0, 3), "n must be >= the 7 groups"),
    (lambda: L.heavy_hitter_threshold(1.0, 10**5, alpha=0), r"alpha must be in \(0, 1\), got alpha=0"),
    (lambda: L.heavy_hitter_stages(0), "domain_bits must be a positive integer, got domain_bits=0"),
    (lambda: L.zipf_items(10, exponent=1.0), "exponent must be finite and > 1"),
    (lambda: L.zipf_items(0, exponent=2.0), "n must be a positive integer"),
    (lambda: L.true_heavy_hitters([1, 2], 2.0), "threshold must be a share in"),
    (lambda: L.true_heavy_hitters([], 0.1), "items must be a non-empty 1-d array"),
    (lambda: L.heavy_hitter_precision_recall([1], [1, 2], -0.5), "threshold must be a share in"),
])
def test_bad_input_names_the_parameter_and_value(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def _planted_recall(epsilon: float, seed: int, n: int = 10**5, planted: int = 20) -> float:
    """The share of ``planted`` ids held each by ceil(T n) users (T: the theory's threshold), the rest
    of the users holding fresh uniform ids, that heavy_hitters finds at threshold T."""
    threshold = L.heavy_hitter_threshold(epsilon, n)
    rng = np.random.default_rng(seed)
    count = math.ceil(threshold * n)
    ids = rng.choice(2**32, size=planted, replace=False)
    rest = rng.integers(0, 2**32, size=n - planted * count)
    items = np.concatenate([np.repeat(ids, count), rest]).astype(np.int64)
    found = L.heavy_hitters(items, epsilon, threshold=threshold, rng=np.random.default_rng([seed, 1]))
    return float(np.isin(ids, found.ids).mean())


@pytest.mark.statistical
@pytest.mark.catches("local.pem_last_cut_at_threshold", "local.pem_sigma_at_zero")
def test_ids_at_the_threshold_are_found_as_promised():
    """catches: the last stage cutting at the threshold itself (an id of share exactly T found half
    the time: the reviewer's 0.49) and a margin from the variance at f = 0 (OLH's f-term more than
    doubles sigma at f = T at eps = 8). 160 planted ids at share T over eps 4 and 8, 4 seeds each;
    each is found with probability >= 1 - beta = 0.95 by the theory, so >= 90% of them (the binomial
    tail below that is 0.1% at 0.95; fixed seeds). Measured: 0.97; the two mutants 0.71 and 0.46."""
    found = [_planted_recall(eps, seed) for eps in (4.0, 8.0) for seed in range(4)]
    assert np.mean(found) >= 0.9, found


def test_bad_input_found_by_the_review():
    """The independent read: step_bits >= 25 allocated 2^32 candidates, threshold '0.1' was accepted and
    None raised a TypeError without the parameter's name, p = q gave nan."""
    items = np.arange(100)
    with pytest.raises(ValueError, match=r"step_bits must be at most 10 .*got step_bits=25"):
        L.heavy_hitters(items, 1.0, threshold=0.1, step_bits=25)
    for bad in ("0.1", None, True):
        with pytest.raises(ValueError, match=r"threshold must be a share in \(0, 1\], got threshold="):
            L.heavy_hitters(items, 1.0, threshold=bad)
    with pytest.raises(ValueError, match=r"p and q must satisfy 0 <= q < p <= 1, got p=0.5, q=0.5"):
        fo.pure_protocol_variance(0.5, 0.5, 100)


def test_shuffling_never_reports_more_than_eps0():
    """At the edge of the theorem's condition with a small eps0 the closed form exceeds eps0 (0.01034
    at eps0 = 0.01, n = 235, delta = 1e-6): the shuffled reports are eps0-DP anyway."""
    assert L.shuffle_epsilon(0.01, 235, 1e-6) == 0.01
