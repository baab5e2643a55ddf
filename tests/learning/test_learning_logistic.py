"""dplab.learning's logistic regression: the feature map against values worked by hand, the per-example
loss and gradients against a direct formula and central finite differences, the fit against its own
optimality condition, and the task against the shipped data's counts."""

from __future__ import annotations

import math

import numpy as np
import pytest

import dplab.learning as L
from dplab.datasets import load_yrbss


def test_polynomial_features_by_hand():
    # 1.79 m is one scale (0.10 m) above the centre, 85 kg one scale (17 kg) above: u = v = 1/3
    X = L.polynomial_features([1.79, 1.69, 2.30], [85.0, 68.0, 10.0], degree=2)
    u = v = 1 / 3
    assert X[0] == pytest.approx([1, u, v, u * u, u * v, v * v], rel=1e-12)
    assert X[1] == pytest.approx([1, 0, 0, 0, 0, 0], abs=1e-12)
    assert X[2] == pytest.approx([1, 1, -1, 1, -1, 1], rel=1e-12)  # both clipped at 3 scales
    for degree in (1, 2, 3, 6):
        Xd = L.polynomial_features([1.5, 1.9], [50.0, 90.0], degree)
        assert Xd.shape == (2, L.n_features(degree)) == (2, math.comb(degree + 2, 2))
        assert np.all(np.abs(Xd) <= 1)


@pytest.mark.catches("learning.task_labels_female")
def test_sex_task_against_the_data():
    table = load_yrbss()
    X, y = L.sex_task(degree=1)
    assert X.shape == (12_579, 3) and y.sum() == np.sum(table["sex"] == "M") == 6414
    Xs, ys = L.sex_task(300, degree=3, rng=7)
    X2, y2 = L.sex_task(None, degree=3, rng=7)
    assert Xs.shape == (300, 10) and np.array_equal(Xs, X2[:300]) and np.array_equal(ys, y2[:300])
    # the first row, recomputed from the table: the permutation of rng=7, then the feature map
    i = np.random.default_rng(7).permutation(12_579)[0]
    assert ys[0] == float(table["sex"][i] == "M")
    row = L.polynomial_features(table["height_m"][[i]], table["weight_kg"][[i]], 3)[0]
    assert Xs[0] == pytest.approx(row)


def _loss_by_formula(w, x, y):
    p = 1 / (1 + math.exp(-float(np.dot(w, x))))
    return -(y * math.log(p) + (1 - y) * math.log(1 - p))


@pytest.mark.catches("learning.gradient_sign")
def test_per_example_gradients_against_finite_differences():
    rng = np.random.default_rng(3)
    X, y = L.sex_task(40, degree=2, rng=1)
    w = rng.normal(size=X.shape[1])
    G = L.logistic_gradients(w, X, y)
    assert G.shape == X.shape
    losses = L.logistic_loss(w, X, y)
    h = 1e-6
    for i in range(X.shape[0]):
        assert losses[i] == pytest.approx(_loss_by_formula(w, X[i], y[i]), rel=1e-10)
        fd = [(_loss_by_formula(w + h * e, X[i], y[i]) - _loss_by_formula(w - h * e, X[i], y[i])) / (2 * h)
              for e in np.eye(X.shape[1])]
        assert G[i] == pytest.approx(fd, abs=1e-7)


def test_loss_is_stable_at_large_margins():
    X = np.array([[1.0, 1.0]])
    assert L.logistic_loss([400.0, 400.0], X, [1.0])[0] == pytest.approx(math.exp(-800), rel=1e-6)
    assert L.logistic_loss([400.0, 400.0], X, [0.0])[0] == pytest.approx(800.0, rel=1e-12)


@pytest.mark.catches("learning.fit_gradient_no_mean")
def test_fit_meets_its_optimality_condition():
    X, y = L.sex_task(500, degree=3, rng=2)
    l2 = 1e-3
    model = L.fit_logistic(X, y, l2=l2)
    p = 1 / (1 + np.exp(-(X @ model.weights)))
    grad = X.T @ (p - y) / len(y) + l2 * model.weights  # the objective's gradient, written out here
    assert np.linalg.norm(grad) < 1e-6
    # height and weight tell sex apart about 80% of the time: far above the majority share (51%)
    Xa, ya = L.sex_task(degree=3, rng=2)
    assert model.accuracy(Xa[500:], ya[500:]) > 0.75
    assert model.predict(X) == pytest.approx((X @ model.weights > 0).astype(float))


def test_clip_rows():
    X = np.array([[3.0, 4.0], [0.3, 0.4]])
    assert L.clip_rows(X) == pytest.approx(np.array([[0.6, 0.8], [0.3, 0.4]]))
    assert L.clip_rows(X, 10.0) == pytest.approx(X)


@pytest.mark.parametrize(("call", "match"), [
    (lambda: L.polynomial_features([1.7], [60.0], 0), "degree must be a positive integer, got degree=0"),
    (lambda: L.polynomial_features([1.7, 1.8], [60.0], 1), "height_m and weight_kg must be"),
    (lambda: L.polynomial_features([np.nan], [60.0], 1), "must be finite"),
    (lambda: L.sex_task(20_000), "n must be at most the 12579 students, got n=20000"),
    (lambda: L.logistic_loss([0.0, 0.0], [[1.0, 2.0]], [2.0]), "y must hold labels 0 or 1, got y=2.0"),
    (lambda: L.logistic_loss([0.0], [[1.0, 2.0]], [1.0]), "weights must be 2 finite numbers"),
    (lambda: L.logistic_gradients([0.0, 0.0], [[1.0, 2.0]], [1.0, 0.0]), "y must hold one label per row"),
    (lambda: L.fit_logistic([[1.0, 2.0]], [1.0], l2=-1.0), "l2 must be finite and >= 0, got l2=-1.0"),
    (lambda: L.fit_logistic([[np.inf, 2.0]], [1.0]), "X must be finite"),
    (lambda: L.clip_rows([[1.0]], 0.0), "bound must be finite and > 0, got bound=0.0"),
])
def test_bad_input_names_the_parameter_and_value(call, match):
    with pytest.raises(ValueError, match=match):
        call()
