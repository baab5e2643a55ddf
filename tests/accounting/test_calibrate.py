"""The one calibration routine: roots of monotone functions from a bracket that grows the right way."""

from __future__ import annotations

import math

import pytest

from dplab.accounting import calibrate


def test_roots_of_increasing_and_decreasing_functions():
    assert calibrate(lambda x: x**3, 8.0, 0.0, 5.0) == pytest.approx(2.0, abs=1e-12)
    assert calibrate(lambda x: -x, -3.0, 0.0, 10.0) == pytest.approx(3.0, abs=1e-12)
    assert calibrate(math.exp, 1.0, 0.0, 1.0) == 0.0  # the target at an end of the bracket


def test_the_bracket_grows_the_way_it_is_told():
    """catches: growing the wrong end. A decreasing f equal at both ends of the first bracket (in
    floating point) once sent a bracket towards infinity: the direction must decide, not the values."""
    log = math.log
    assert calibrate(log, log(1e6), 1.0, 2.0, grow="high") == pytest.approx(1e6, rel=1e-12)
    assert calibrate(log, log(1e-6), 1.0, 2.0, grow="low") == pytest.approx(1e-6, rel=1e-9)
    assert calibrate(lambda x: 1 / x, 1 / 300.0, 1.0, 2.0, grow="both", increasing=False,
                     log=True) == pytest.approx(300.0, rel=1e-12)

    def tie_then_jump(x):  # 1e-3 - 1e-25 x above 0.02: equal at 1 and 2 for a float, 1 below 0.02
        return 1.0 if x < 0.02 else 1e-3 - x * 1e-25

    assert calibrate(tie_then_jump, 0.5, 1.0, 2.0, grow="both", increasing=False) == pytest.approx(0.02)


def test_refusals_name_what_is_wrong():
    with pytest.raises(ValueError, match=r"does not reach target=5.0 on \[0.0, 1.0\]"):
        calibrate(lambda x: x, 5.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="grow='both' needs increasing"):
        calibrate(lambda x: x, 5.0, 1.0, 2.0, grow="both")
    with pytest.raises(ValueError, match="low must be > 0"):
        calibrate(lambda x: x, 5.0, 0.0, 2.0, log=True)
    with pytest.raises(ValueError, match="low and high must be finite with low < high"):
        calibrate(lambda x: x, 5.0, 2.0, 1.0)
    with pytest.raises(ValueError, match="grow must be one of"):
        calibrate(lambda x: x, 5.0, 1.0, 2.0, grow="up")
    with pytest.raises(ValueError, match="no bracket found"):
        calibrate(lambda x: math.tanh(x), 2.0, 1.0, 2.0, grow="high")
