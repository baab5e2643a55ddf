"""dplab.learning's membership attack: the loss-threshold ROC's sides, the flipped-label canary against a
search written here, and the audit over many models: a deterministic learner is caught at the most its
runs can certify (Clopper-Pearson worked out here), a DP-SGD run without subsampling stays below its
exact Gaussian epsilon."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dplab.learning as L
from dplab.mechanisms import Gaussian


@pytest.mark.catches("learning.roc_sides_swapped")
def test_roc_members_found_when_losses_separate():
    """Members fit (labels agree with the model), non-members contradict it: every member's loss is below
    every non-member's, so some threshold finds nearly every member and nearly no non-member."""
    rng = np.random.default_rng(1)
    X = np.column_stack([np.ones(400), rng.uniform(0.5, 1.0, 400)])
    model = L.LogisticModel(np.array([0.0, 4.0]))
    roc = L.loss_threshold_roc(model, X[:200], np.ones(200), X[200:], np.zeros(200))
    assert L.membership_advantage(roc) > 0.9
    assert np.all(roc.tpr >= roc.alpha - 1e-12)
    assert L.membership_scores(model, X[:2], [1.0, 0.0]) == pytest.approx(-model.losses(X[:2], [1.0, 0.0]))


def test_an_overfit_model_leaks():
    """Twenty non-private models of degree 6, each on its own 100 students: their members' mean loss,
    pooled, is below as many non-members' (the generalisation gap; one-sided Welch test at 1e-3). The
    leak per model is small here (two measurements per person: an AUC near 0.53, the gap in the tail of
    the non-members' losses), so one model's ROC boxes alone do not show it."""
    X, y = L.sex_task(4000, degree=6, rng=3)
    members, others = [], []
    for k in range(20):
        inside, outside = slice(200 * k, 200 * k + 100), slice(200 * k + 100, 200 * k + 200)
        model = L.fit_logistic(X[inside], y[inside], l2=1e-4)
        members.append(model.losses(X[inside], y[inside]))
        others.append(model.losses(X[outside], y[outside]))
    members, others = np.concatenate(members), np.concatenate(others)
    assert stats.ttest_ind(members, others, equal_var=False, alternative="less").pvalue < 1e-3
    roc = L.loss_threshold_roc(model, X[inside], y[inside], X[outside], y[outside])
    assert L.membership_advantage(roc) > 0


@pytest.mark.catches("learning.canary_not_flipped")
def test_flipped_label_canary():
    X, y = L.sex_task(200, degree=2, rng=4)
    model = L.fit_logistic(X, y, l2=1e-3)
    x, label = L.flipped_label_canary(model, X, y)
    losses = [L.logistic_loss(model.weights, X[[i]], [1.0 - y[i]])[0] for i in range(len(y))]
    i = int(np.argmax(losses))
    assert np.array_equal(x, X[i]) and label == 1.0 - y[i]
    assert model.predict(x[None, :])[0] != label


def _deterministic_bound(n_runs: int, confidence: float) -> float:
    """All runs on one side hit the event and none on the other: ln(p_low / q_high), each
    Clopper-Pearson bound one-sided at (1 - confidence)/2: p_low = a^(1/n), q_high = 1 - a^(1/n)."""
    a = (1 - confidence) / 2
    return math.log(a ** (1 / n_runs) / (1 - a ** (1 / n_runs)))


@pytest.mark.catches("learning.audit_target_missing")
def test_audit_catches_a_deterministic_learner():
    X, y = L.sex_task(20, degree=1, rng=5)
    train = L.dpsgd_trainer(noise_multiplier=0.0, clip=math.inf, sampling_rate=1.0, steps=5,
                            learning_rate=1.0)
    result = L.membership_audit(X[1:], y[1:], X[0], y[0], train=train, n_runs=100, n_pilot=20, rng=6)
    assert result.epsilon_lower == pytest.approx(_deterministic_bound(100, 0.95), rel=1e-9)
    low = stats.binomtest(100, 100).proportion_ci(0.95, "exact").low  # scipy's Clopper-Pearson
    high = stats.binomtest(0, 100).proportion_ci(0.95, "exact").high
    assert _deterministic_bound(100, 0.95) == pytest.approx(math.log(low / high), rel=1e-9)


@pytest.mark.statistical
def test_audit_of_dpsgd_stays_below_its_gaussian_epsilon():
    """q = 1 (no subsampling), T steps: the learner is T adaptive Gaussian mechanisms with sensitivity C
    and noise sigma C, at most as revealing as one Gaussian with noise sigma C / sqrt(T) (Dong, Roth & Su
    2022, Cor. 3.3). Its exact epsilon(delta) bounds what the audit may certify (at 95%); with q = 1/2,
    the ledger's accounted epsilon does."""
    X, y = L.sex_task(30, degree=1, rng=7)
    model = L.fit_logistic(X, y, l2=1e-3)
    cx, cy = L.flipped_label_canary(model, X, y)
    sigma, steps, delta = 2.0, 4, 1e-5
    train = L.dpsgd_trainer(noise_multiplier=sigma, clip=1.0, sampling_rate=1.0, steps=steps,
                            learning_rate=1.0)
    result = L.membership_audit(X, y, cx, cy, train=train, n_runs=400, n_pilot=100, rng=8, delta=delta)
    bound = Gaussian(1.0, sigma / math.sqrt(steps)).epsilon_at(delta)
    assert result.epsilon_lower <= bound
    assert result.epsilon_lower > 0  # the canary is seen at all
    # with Poisson subsampling (q = 1/2): below the ledger's accounted epsilon
    train = L.dpsgd_trainer(noise_multiplier=1.0, clip=1.0, sampling_rate=0.5, steps=steps, learning_rate=1.0)
    result = L.membership_audit(X, y, cx, cy, train=train, n_runs=400, n_pilot=100, rng=9, delta=delta)
    assert result.epsilon_lower <= L.DpsgdLedger(1.0, 0.5, steps).epsilon(delta)


@pytest.mark.parametrize(("call", "match"), [
    (lambda: L.dpsgd_trainer(noise_multiplier=1.0, rng=3), "parameters must not fix rng"),
    (lambda: L.membership_audit([[1.0, 2.0]], [1.0], [1.0], 0.0, train=None, n_runs=1, n_pilot=1),
     "target_x must be one finite row of 2 features"),
    (lambda: L.membership_audit([[1.0, 2.0]], [1.0], [1.0, 2.0], 0.5, train=None, n_runs=1, n_pilot=1),
     "target_y must hold labels 0 or 1"),
    (lambda: L.membership_audit([[1.0, 2.0]], [1.0], [1.0, 2.0], 0.0, train=None, n_runs=0, n_pilot=1),
     "n_runs must be a positive integer, got n_runs=0"),
])
def test_bad_input_names_the_parameter_and_value(call, match):
    with pytest.raises(ValueError, match=match):
        call()
