"""The empirical privacy audit: honest lower bounds, and enough power to catch a broken variant."""

from __future__ import annotations

import numpy as np
import pytest

import dplab
from dplab import audit, sparse_vector

D, D_PRIME = np.zeros(6), np.array([1.0, 1.0, 1.0, 1.0, 1.0, -1.0])


def _first_top(result):
    return np.where(result.above.any(axis=1), result.above.argmax(axis=1), -1)


def _above_threshold(data, size, rng):
    return sparse_vector.above_threshold(data, 0.0, 0.7, size=size, rng=rng)


def _lee_clifton(data, size, rng):
    released = sparse_vector.sparse_vector(data, 0.0, 0.7, c=1, variant="lee_clifton", size=size, rng=rng)
    return _first_top(released)


def test_the_correct_algorithm_is_never_accused():
    """AboveThreshold is 0.7-DP: a 95% lower bound may exceed 0.7 with probability <= 5% only;
    on this pair its best event's true log ratio is about 0.55, so exceeding 0.7 would take an
    estimation error far outside any interval: none of 10 seeds may do it."""
    bounds = [audit.audit_epsilon(_above_threshold, D, D_PRIME, n_runs=50_000, n_pilot=20_000,
                                  rng=seed).epsilon_lower for seed in range(10)]
    assert max(bounds) <= 0.7 and min(bounds) > 0.3


def test_lee_clifton_is_caught_with_2e5_runs():
    result = audit.audit_epsilon(_lee_clifton, D, D_PRIME, n_runs=200_000, n_pilot=50_000, rng=1)
    assert result.epsilon_lower > 0.7  # its claimed epsilon; the true loss of "halt at 6" is 1.2173
    assert result.epsilon_lower < sparse_vector.exact_privacy_loss("lee_clifton", D, 0.0, 0.7)
    assert result.confidence == 0.95 and result.direction in ("D/D'", "D'/D")


def test_continuous_outputs_use_a_threshold_event():
    def laplace(data, size, rng):
        return dplab.laplace_mechanism(data, 1.0, 1.0, size=size, rng=rng)

    result = audit.audit_epsilon(laplace, 0.0, 1.0, n_runs=200_000, n_pilot=50_000, rng=2)
    assert result.event[0] in (">=", "<=") and 0.6 < result.epsilon_lower <= 1.0
    # a mechanism description is sampled by its own sample(): the same draws, the same audit
    same = audit.audit_epsilon(dplab.Laplace(1.0, 1.0), 0.0, 1.0, n_runs=200_000, n_pilot=50_000, rng=2)
    assert same == result


def test_discrete_rows_are_outputs_too():
    def patterns(data, size, rng):
        return sparse_vector.sparse_vector(data, 0.0, 1.0, c=2, variant="lyu_alg1", size=size, rng=rng).above

    result = audit.audit_epsilon(patterns, np.zeros(3), np.ones(3), n_runs=20_000, n_pilot=5_000, rng=3)
    assert isinstance(result.event, tuple) and len(result.event) == 3
    assert 0.0 <= result.epsilon_lower <= 1.0


def test_bad_input():
    with pytest.raises(ValueError, match="n_runs must be a positive integer"):
        audit.audit_epsilon(_above_threshold, D, D_PRIME, n_runs=0, n_pilot=10)
    with pytest.raises(ValueError, match=r"confidence must be in \(0, 1\)"):
        audit.audit_epsilon(_above_threshold, D, D_PRIME, n_runs=10, n_pilot=10, confidence=1.0)


def test_audit_reach_is_what_the_best_event_certifies_at_its_expected_counts():
    """The Laplace count at eps = 1 (f touches f_eps for alpha <= e^-1/2, where the ratio is e): the best
    event has P = 1/2, Q = e^-1/2; 10^6 runs a side certify a little below 1, more runs more, and an
    audit's own result stays below the reach it cannot exceed by much."""
    count = dplab.Laplace(1.0, 1.0)
    reach = audit.audit_reach(count.tradeoff, 10**6, confidence=0.999)
    assert 0.98 < reach < 1.0 and audit.audit_reach(count.tradeoff, 10**4, confidence=0.999) < reach
    assert audit.audit_reach(dplab.Laplace(1.0, 0.5).tradeoff, 10**6, confidence=0.999) < 0.5
