"""dplab.local.shuffle_epsilon against Feldman, McMillan & Talwar 2021's closed form recomputed here,
and its refusal outside the theorem's condition."""

from __future__ import annotations

import numpy as np
import pytest

import dplab.local as L


def _closed_form(eps0: float, n: int, delta: float) -> float:
    """Theorem 3.1 of arXiv:2012.12803, written with tanh(eps0/2) = (e^eps0 - 1)/(e^eps0 + 1)."""
    return float(np.log(1 + np.tanh(eps0 / 2) * (8 * np.sqrt(np.exp(eps0) * np.log(4 / delta)) / np.sqrt(n)
                                                 + 8 * np.exp(eps0) / n)))


@pytest.mark.catches("local.shuffle_no_tanh", "local.shuffle_sqrt_missing")
def test_against_the_closed_form():
    for eps0, n, delta in ((0.5, 10**4, 1e-6), (1.0, 12_579, 1e-6), (3.0, 10**6, 1e-8), (0.01, 10**5, 1e-5)):
        assert L.shuffle_epsilon(eps0, n, delta) == pytest.approx(_closed_form(eps0, n, delta), rel=1e-12)
    assert L.shuffle_epsilon(1.0, 10**6, 1e-6) < 0.05  # amplification: far below eps0 = 1


@pytest.mark.catches("local.shuffle_condition_log4")
def test_refuses_outside_the_condition():
    n, delta = 12_579, 1e-6
    top = float(np.log(n / (16 * np.log(2 / delta))))
    assert L.shuffle_max_epsilon0(n, delta) == pytest.approx(top, rel=1e-12)
    L.shuffle_epsilon(top * (1 - 1e-9), n, delta)
    with pytest.raises(ValueError, match=r"epsilon0 must be <= ln\(n / \(16 ln\(2/delta\)\)\) = 3\.99.*"
                                         r"got epsilon0=3\.995, n=12579, delta=1e-06"):
        L.shuffle_epsilon(3.995, n, delta)
    with pytest.raises(ValueError, match="epsilon0 must be <="):
        L.shuffle_epsilon(0.1, 100, 1e-6)  # n <= 16 ln(2/delta): no eps0 is covered


@pytest.mark.parametrize(("call", "match"), [
    (lambda: L.shuffle_epsilon(0.0, 1000, 1e-6), "epsilon0 must be finite and > 0, got epsilon0=0.0"),
    (lambda: L.shuffle_epsilon(1.0, 0, 1e-6), "n must be a positive integer, got n=0"),
    (lambda: L.shuffle_epsilon(1.0, 1000, 0.0), r"delta must be in \(0, 1\), got delta=0.0"),
    (lambda: L.shuffle_epsilon(1.0, 1000, 1.0), r"delta must be in \(0, 1\), got delta=1.0"),
    (lambda: L.shuffle_max_epsilon0(-5, 1e-6), "n must be a positive integer, got n=-5"),
])
def test_bad_input_names_the_parameter_and_value(call, match):
    with pytest.raises(ValueError, match=match):
        call()
