"""Privacy filters: adaptive budgets that answer each request with yes or no.

A filter holds a privacy budget. Every query declares its cost before it runs; the
filter answers True (and spends the cost) when the cost still fits, False (and spends
nothing) otherwise. Once it has refused, a filter stays halted: every later request is
refused, even a tiny one. A filter never spends past its budget, however the costs were
chosen from the answers so far.

Costs are accounted exactly in rationals: the cost ``c`` is the number the user typed, a ``Fraction``
or ``int`` as it is, a float as its decimal ``Fraction(repr(float(c)))``, so a budget of 0.3 accepts 0.1
and then 0.2 (``math.fsum([0.1, 0.2])`` is 0.30000000000000004, which would refuse the second: the safe
failure), and a budget of 0.8 refuses 1e-16 after 0.1 and 0.7 (0.1 + 0.7 is 0.7999999999999999
in floats, which would accept it and end past the budget: the unsafe failure).

Sources:
- Rogers, Roth, Ullman & Vadhan, "Privacy Odometers and Filters: Pay-as-you-Go
  Composition" (NeurIPS 2016): filters; basic composition holds for adaptively chosen
  (epsilon_i, delta_i) (:class:`BasicFilter`).
- Whitehouse, Ramdas, Rogers & Wu, "Fully-Adaptive Composition in Differential Privacy"
  (ICML 2023, arXiv 2203.05481): the zCDP filter, sum of adaptively chosen rho_i <= rho,
  is (rho + 2 sqrt(rho ln(1/delta)), delta)-DP (:class:`ZCDPFilter`).
- Rogers, Samorodnitsky, Wu & Ramdas, "Adaptive Privacy Composition for Accuracy-first
  Mechanisms" (NeurIPS 2023, arXiv 2306.13824): one zCDP filter over zCDP mechanisms and
  Brownian noise reductions (:meth:`ZCDPFilter.reserve_brownian`); ex-post composition (its
  Lemmas 5.1 and 5.2: :meth:`BasicFilter.reserve`); approximate zCDP steps (its Theorem 2).
- Whitehouse, Ramdas, Wu & Rogers, "Brownian Noise Reduction: Maximizing Privacy Subject
  to Accuracy Constraints" (NeurIPS 2022, arXiv 2206.07234): stopped at time T, the
  privacy loss is Delta^2/(2T) - Delta W_T/T (against the neighbour with f + Delta; + for
  f - Delta), that of a Gaussian of variance T (:func:`dplab.mechanisms.brownian_privacy_loss`).
- Bun & Steinke, "Concentrated Differential Privacy: Simplifications, Extensions, and
  Lower Bounds" (TCC 2016): Prop. 1.6, the Gaussian is Delta^2/(2 sigma^2)-zCDP;
  Prop. 1.3, the conversion to (epsilon, delta)-DP (:func:`dplab.accounting.zcdp_to_approx_dp`).

Ex-post private mechanisms (a noise reduction, whose loss bound depends on where it stopped) are
charged through a reservation: before the run its largest possible charge is held
(:meth:`BasicFilter.reserve`, :meth:`ZCDPFilter.reserve_brownian`: [Rogers23]'s Lemma 5.2 condition,
each mechanism's largest ex-post epsilon fits the remaining budget), after it the charge for where it
stopped is made and the rest returned (``settle``). An odometer (:class:`ZCDPOdometer`) has no budget:
it reports, after every step, a bound valid at that step.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import (
    as_result,
    check_delta,
    check_epsilon,
    check_nonnegative,
    check_positive,
    check_rho,
    check_sensitivity,
)
from dplab.accounting.zcdp import approx_dp_to_zcdp, zcdp_to_approx_dp
from dplab.mechanisms.base import Mechanism
from dplab.mechanisms.gaussian import Gaussian

__all__ = ["BasicFilter", "BrownianReservation", "ExPostReservation", "ZCDPFilter", "ZCDPOdometer",
           "filter_trace", "zcdp_odometer_epsilon"]


def _exact(value: float | Fraction) -> Fraction:
    """The number the user typed, as a rational: a Fraction or an integer exactly (never rounded
    to a float on the way), a float as the decimal it prints as, Fraction(repr(float(value)))."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return Fraction(int(value))
    if isinstance(value, Fraction):
        return Fraction(value)
    return Fraction(repr(float(value)))


def _checked(value: object, check: Callable[..., object], *args: object, **kwargs: object) -> Fraction:
    """``check(value, ...)`` (a ValueError naming the parameter if it fails), then ``_exact(value)``."""
    check(value, *args, **kwargs)
    return _exact(value)


def _float_down(q: Fraction) -> float:
    """The largest float x with _exact(x) <= q (q >= 0): a float one can request back."""
    x = float(q)
    while _exact(x) > q:
        x = math.nextafter(x, -math.inf)
    return x


def _smallest_float(ok: Callable[[float], bool], guess: float) -> float:
    """The smallest float x >= 0 with ok(x), for ok monotone (False, then True), searched from
    ``guess`` (a float within a few ulps of the answer), or inf when no finite float is ok."""
    x = guess
    while math.isfinite(x) and not ok(x):
        x = math.nextafter(x, math.inf)
    while x > 0 and math.isfinite(x) and ok(math.nextafter(x, 0.0)):
        x = math.nextafter(x, 0.0)
    return x


def _to_float(q: Fraction) -> float:
    """float(q), or inf when q is too large for a float."""
    try:
        return float(q)
    except OverflowError:
        return math.inf


def _sqrt_to_float(q: Fraction) -> float:
    """sqrt(q) to within an ulp, for any q > 0 (no overflow or underflow on the way)."""
    n, d = q.numerator, q.denominator
    k = max(0, 64 - (n.bit_length() - d.bit_length()) // 2)
    return _to_float(Fraction(math.isqrt((n << (2 * k)) // d), 1 << k))


def _guarantee(mechanism: Mechanism, delta: float) -> tuple[float, float]:
    """The (epsilon, delta) a mechanism description is charged by a basic filter."""
    if delta:
        raise ValueError("delta must not be given with a mechanism (its own delta is charged), "
                         f"got delta={delta!r}")
    pair = mechanism.epsilon_delta()
    if pair is None:
        raise TypeError(f"epsilon must be a number or a mechanism with one (epsilon, delta), got "
                        f"{mechanism!r}; a Gaussian's guarantee is a curve: charge "
                        "EpsilonDelta(epsilon, delta) for the pair you choose")
    return pair


def _gaussian_rho(sensitivity: float, sigma: float) -> Fraction:
    """rho = Delta^2 / (2 sigma^2) of a Gaussian N(0, sigma^2) (Bun & Steinke 2016, Prop. 1.6), exactly."""
    delta_2 = _checked(sensitivity, check_sensitivity)
    s = _checked(sigma, check_positive, "sigma")
    return delta_2**2 / (2 * s**2)


class BasicFilter:
    """A privacy filter by basic (sequential) composition.

    Accepts (epsilon_i, delta_i) while sum epsilon_i <= epsilon and sum delta_i <= delta;
    the whole adaptive interaction is then (epsilon, delta)-DP (Rogers, Roth, Ullman &
    Vadhan 2016). ``delta=0`` is a pure epsilon-DP filter: it refuses any delta_i > 0.
    """

    def __init__(self, epsilon: float, delta: float = 0) -> None:
        self._epsilon = _checked(epsilon, check_epsilon)
        self._delta = _checked(delta, check_delta)
        self._spent_epsilon = Fraction(0)
        self._spent_delta = Fraction(0)
        self._reserved = Fraction(0)  # the caps of ex-post runs under way (reserve)
        self._refused = False

    def request(self, epsilon: float | Mechanism, delta: float = 0) -> bool:
        """Spend (epsilon, delta) and return True if both still fit, else return False for good.

        A cost exactly equal to what remains is accepted. epsilon must be finite and > 0,
        delta in [0, 1); or give a mechanism description (``Laplace(1, 0.1)``,
        ``EpsilonDelta(0.5, 1e-6)``), whose (epsilon, delta) is charged.
        """
        if isinstance(epsilon, Mechanism):
            epsilon, delta = _guarantee(epsilon, delta)
        eps, dlt = _checked(epsilon, check_epsilon), _checked(delta, check_delta)
        if self._refused or self._spent_epsilon + self._reserved + eps > self._epsilon \
                or self._spent_delta + dlt > self._delta:
            self._refused = True
            return False
        self._spent_epsilon += eps
        self._spent_delta += dlt
        return True

    def reserve(self, epsilon: float) -> ExPostReservation | None:
        """Before an ex-post private mechanism runs (a Laplace noise reduction up to level epsilon_m):
        hold its largest ex-post epsilon. Rogers, Samorodnitsky, Wu & Ramdas (2023), Lemma 5.2: ex-post
        private mechanisms whose largest epsilon fits the remaining budget, each chosen from the
        outcomes so far, are together (epsilon, delta)-DP with delta from the steps' failure
        probabilities, epsilon-DP when every step is pure ex-post private as Laplace noise reduction
        is (Lemma 5.1: their ex-post epsilons add up). Returns the
        reservation, whose :meth:`ExPostReservation.settle` charges the epsilon of where the run
        stopped and returns the rest; or None, refusing for good as :meth:`request` does. ``epsilon`` must
        be a number (checked before anything is spent): charge a mechanism description by :meth:`request`."""
        if isinstance(epsilon, Mechanism):
            raise ValueError("epsilon must be a number, the run's largest ex-post epsilon, got "
                             f"epsilon={epsilon!r}; charge a mechanism description with request()")
        cap = _checked(epsilon, check_epsilon)
        if not self.request(epsilon):
            return None
        self._spent_epsilon -= cap  # held aside, not spent, until the run settles
        self._reserved += cap
        return ExPostReservation(self, float(cap), cap)

    def _settle(self, cap: Fraction, charge: Fraction) -> None:
        self._reserved -= cap
        self._spent_epsilon += charge

    @property
    def reserved(self) -> float:
        """Epsilon held for ex-post runs under way (:meth:`reserve`), not yet settled."""
        return float(self._reserved)

    @property
    def epsilon(self) -> float:
        """The epsilon budget."""
        return float(self._epsilon)

    @property
    def delta(self) -> float:
        """The delta budget."""
        return float(self._delta)

    @property
    def spent(self) -> float:
        """Epsilon spent so far (the sum of accepted epsilon_i)."""
        return float(self._spent_epsilon)

    @property
    def remaining(self) -> float:
        """Epsilon left, rounded down: ``request(remaining)`` is accepted unless halted."""
        return _float_down(self.remaining_exact)

    @property
    def spent_delta(self) -> float:
        """Delta spent so far (the sum of accepted delta_i)."""
        return float(self._spent_delta)

    @property
    def remaining_delta(self) -> float:
        """Delta left, rounded down."""
        return _float_down(self.remaining_delta_exact)

    @property
    def spent_exact(self) -> Fraction:
        """Epsilon spent, exactly."""
        return self._spent_epsilon

    @property
    def remaining_exact(self) -> Fraction:
        """Epsilon left, exactly: remaining_exact + reserved + spent_exact is the budget."""
        return self._epsilon - self._spent_epsilon - self._reserved

    @property
    def spent_delta_exact(self) -> Fraction:
        """Delta spent, exactly."""
        return self._spent_delta

    @property
    def remaining_delta_exact(self) -> Fraction:
        """Delta left, exactly."""
        return self._delta - self._spent_delta

    @property
    def halted(self) -> bool:
        """True once a request was refused or no epsilon is left: every later request is refused."""
        return self._refused or self._spent_epsilon == self._epsilon

    def __repr__(self) -> str:
        return (f"BasicFilter(epsilon={self.epsilon!r}, delta={self.delta!r}, spent=({self.spent!r}, "
                f"{self.spent_delta!r}), remaining=({self.remaining!r}, {self.remaining_delta!r}), "
                f"halted={self.halted})")


class ZCDPFilter:
    """The zCDP privacy filter, also over Brownian noise reductions.

    Accepts adaptively chosen rho_i while sum rho_i <= rho; the interaction is then
    (rho + 2 sqrt(rho ln(1/delta)), delta)-DP for every delta in (0, 1) (Whitehouse,
    Ramdas, Rogers & Wu 2023). Rogers, Samorodnitsky, Wu & Ramdas (2023) let the same
    filter also run Brownian noise reductions, each charged Delta^2/(2T) at its stopping
    time T (:meth:`reserve_brownian`). ``delta`` (optional) is remembered for
    :meth:`guarantee`; :meth:`from_approx_dp` sets it.

    Approximate zCDP ([Rogers23]'s Theorem 2, after Whitehouse et al. 2023): a step may be
    delta_i-approximate rho_i-zCDP (``request(rho, delta=delta_i)``); the filter then also keeps
    sum delta_i <= ``step_delta`` and the interaction is (rho + 2 sqrt(rho ln(1/delta)),
    delta + step_delta)-DP. With step_delta = 0 (the default) every step must be plain zCDP.
    """

    def __init__(self, rho: float, *, delta: float | None = None, step_delta: float = 0) -> None:
        self._rho = _checked(rho, check_rho)
        self._delta = None if delta is None else check_delta(delta, allow_zero=False)
        self._step_delta = _checked(step_delta, check_delta, "step_delta")
        self._spent_delta = Fraction(0)
        self._spent = Fraction(0)
        self._reserved = Fraction(0)  # the caps of Brownian runs under way (reserve_brownian)
        self._refused = False

    @classmethod
    def from_approx_dp(cls, epsilon: float, delta: float) -> ZCDPFilter:
        """The filter whose guarantee is (epsilon, delta)-DP: rho = approx_dp_to_zcdp(epsilon, delta).

        The simple conversion of Bun & Steinke (2016, Prop. 1.3), inverted; delta in (0, 1).
        """
        epsilon = check_epsilon(epsilon)
        delta = check_delta(delta, allow_zero=False)
        return cls(approx_dp_to_zcdp(epsilon, delta), delta=delta)

    def _charge(self, cost: Fraction, delta: Fraction = Fraction(0)) -> bool:
        if self._refused or self._spent + self._reserved + cost > self._rho \
                or self._spent_delta + delta > self._step_delta:
            self._refused = True
            return False
        self._spent += cost
        self._spent_delta += delta
        return True

    def request(self, rho: float | Mechanism, delta: float = 0) -> bool:
        """Spend rho and return True if sum rho_i <= rho still holds, else return False for good.

        A cost exactly equal to what remains is accepted. rho must be finite and > 0; or give a
        mechanism description with a rho (a Gaussian is charged exactly, as by
        :meth:`request_gaussian`; an eps-DP step eps^2/2). ``delta`` in [0, 1): the step is
        delta-approximate rho-zCDP, accepted only while the deltas also fit ``step_delta`` (with a
        mechanism too: a rho-zCDP step is delta-approximate rho-zCDP for every delta).
        """
        step_delta = _checked(delta, check_delta)
        if isinstance(rho, Gaussian):
            return self._charge(_gaussian_rho(rho.sensitivity, rho.sigma), step_delta)
        if isinstance(rho, Mechanism):
            if rho.zcdp_rho() is None:
                raise TypeError(f"rho must be a number or a rho-zCDP mechanism, got {rho!r}, "
                                "which has no rho")
            pure = rho.epsilon_delta()
            if pure is not None and pure[1] == 0:  # eps-DP: eps^2/2 in exact arithmetic, not in floats
                return self._charge(_checked(pure[0], check_epsilon) ** 2 / 2, step_delta)
            rho = rho.zcdp_rho()
        return self._charge(_checked(rho, check_rho), step_delta)

    def request_gaussian(self, sensitivity: float, sigma: float) -> bool:
        """Request a Gaussian mechanism N(0, sigma^2) of L2 sensitivity Delta: charge
        rho = Delta^2 / (2 sigma^2) (Bun & Steinke 2016, Prop. 1.6), computed exactly."""
        return self._charge(_gaussian_rho(sensitivity, sigma))

    def request_brownian(self, sensitivity: float, time: float) -> bool:
        """Request a Brownian release at a time T fixed *before* it runs: rho = Delta^2 / (2 T), exactly
        (then it is a Gaussian of variance T; a refusal means: do not run it).

        Its privacy loss at T is Delta^2/(2T) -+ Delta W_T/T (the sign depends on the
        neighbour), that of a Gaussian of variance T (Whitehouse, Ramdas, Wu & Rogers 2022).
        A run that stops adaptively must not be charged this way after it ran (a refusal would
        then refuse a spend that already happened): hold its cap with :meth:`reserve_brownian`
        before it starts and settle where it stopped (Rogers, Samorodnitsky, Wu & Ramdas 2023).
        """
        delta_2 = _checked(sensitivity, check_sensitivity)
        t = _checked(time, check_positive, "time")
        return self._charge(delta_2**2 / (2 * t))

    def reserve_brownian(self, sensitivity: float, min_time: float) -> BrownianReservation | None:
        """Before a Brownian noise reduction starts: reserve its largest charge, Delta^2 / (2 T_min),
        for a run that will stop at a time T >= ``min_time`` (Rogers, Samorodnitsky, Wu & Ramdas 2023,
        Lemma 5.2: a run's ex-post privacy may not exceed the remaining budget). Returns the
        reservation, whose :meth:`BrownianReservation.settle` charges Delta^2 / (2 T) once the run
        stopped and returns the rest to the budget; or None, refusing for good as :meth:`request`
        does, when the cap does not fit."""
        check_sensitivity(sensitivity)
        cap = _exact(sensitivity) ** 2 / (2 * _checked(min_time, check_positive, "min_time"))
        if not self._charge(cap):
            return None
        self._spent -= cap  # held aside, not spent, until the run settles
        self._reserved += cap
        return BrownianReservation(self, sensitivity, min_time, cap)

    def _settle(self, cap: Fraction, charge: Fraction) -> None:
        self._reserved -= cap
        self._spent += charge

    def min_brownian_time(self, sensitivity: float) -> float:
        """The smallest time T that :meth:`request_brownian` (and :meth:`reserve_brownian` as min_time)
        still accepts: Delta^2 / (2 remaining).

        Rounded up to a float, so ``request_brownian(sensitivity, min_brownian_time(sensitivity))``
        is accepted and any smaller T refused; inf once the filter is halted.
        """
        delta_2 = _checked(sensitivity, check_sensitivity)
        if self.halted:
            return math.inf
        target = delta_2**2 / (2 * self.remaining_exact)
        return _smallest_float(lambda t: _exact(t) >= target, _to_float(target))

    def min_gaussian_sigma(self, sensitivity: float) -> float:
        """The smallest sigma that :meth:`request_gaussian` still accepts: Delta / sqrt(2 remaining).

        Rounded up to a float, so ``request_gaussian(sensitivity, min_gaussian_sigma(sensitivity))``
        is accepted (a sigma calibrated in floating point may be an ulp too small); inf once halted.
        """
        delta_2 = _checked(sensitivity, check_sensitivity)
        if self.halted:
            return math.inf
        target = delta_2**2 / (2 * self.remaining_exact)
        return _smallest_float(lambda s: _exact(s) ** 2 >= target, _sqrt_to_float(target))

    def epsilon(self, delta: float | None = None) -> float:
        """epsilon = rho + 2 sqrt(rho ln(1/delta)) for the budget rho (Whitehouse et al. 2023).

        ``delta`` in (0, 1); by default the one given to :meth:`from_approx_dp`.
        """
        if delta is None:
            if self._delta is None:
                raise ValueError("delta must be given for a filter built from rho alone, got delta=None")
            delta = self._delta
        return zcdp_to_approx_dp(self.rho, check_delta(delta, allow_zero=False))

    def guarantee(self, delta: float | None = None) -> tuple[float, float]:
        """The (epsilon, delta + step_delta)-DP guarantee of the whole interaction: see :meth:`epsilon`."""
        epsilon = self.epsilon(delta)
        return epsilon, (self._delta if delta is None else float(delta)) + self.step_delta

    @property
    def rho(self) -> float:
        """The rho budget."""
        return float(self._rho)

    @property
    def delta(self) -> float | None:
        """The delta remembered for :meth:`guarantee` (None if built from rho alone)."""
        return self._delta

    @property
    def spent(self) -> float:
        """rho spent so far (the sum of accepted charges)."""
        return float(self._spent)

    @property
    def remaining(self) -> float:
        """rho left, rounded down: ``request(remaining)`` is accepted unless halted."""
        return _float_down(self.remaining_exact)

    @property
    def spent_exact(self) -> Fraction:
        """rho spent, exactly."""
        return self._spent

    @property
    def reserved(self) -> float:
        """rho held for Brownian runs under way (:meth:`reserve_brownian`), not yet settled."""
        return float(self._reserved)

    @property
    def remaining_exact(self) -> Fraction:
        """rho left, exactly: remaining + reserved + spent is the budget."""
        return self._rho - self._spent - self._reserved

    @property
    def step_delta(self) -> float:
        """The budget for the steps' deltas (approximate zCDP), 0 unless given."""
        return float(self._step_delta)

    @property
    def spent_delta(self) -> float:
        """The steps' deltas spent so far (sum of accepted delta_i)."""
        return float(self._spent_delta)

    @property
    def halted(self) -> bool:
        """True once a request was refused or the budget is spent: every later request is refused."""
        return self._refused or self._spent == self._rho

    def __repr__(self) -> str:
        budget = f"rho={self.rho!r}"
        if self._delta is not None:
            budget += f", delta={self._delta!r}, epsilon={self.epsilon()!r}"
        return (f"ZCDPFilter({budget}, spent={self.spent!r}, remaining={self.remaining!r}, "
                f"halted={self.halted})")


class BrownianReservation:
    """A Brownian noise reduction's place in a :class:`ZCDPFilter`: its cap Delta^2 / (2 T_min) is held
    from :meth:`ZCDPFilter.reserve_brownian` until :meth:`settle` charges what the run cost."""

    def __init__(self, filt: ZCDPFilter, sensitivity: float, min_time: float, cap: Fraction) -> None:
        self._filter, self.sensitivity, self.min_time, self._cap = filt, sensitivity, min_time, cap
        self.charged: float | None = None

    @property
    def cap(self) -> float:
        """The rho held: Delta^2 / (2 T_min), the most the run can cost."""
        return float(self._cap)

    def settle(self, time: float) -> float:
        """The run stopped at ``time`` (>= min_time): charge rho = Delta^2 / (2 T) exactly, its ex-post
        privacy loss bound (Whitehouse, Ramdas, Wu & Rogers 2022), return the rest of the cap to the
        filter, and return the charge. A reservation settles once."""
        if self.charged is not None:
            raise ValueError(f"this reservation was settled already (charged rho={self.charged!r})")
        if _checked(time, check_positive, "time") < _exact(self.min_time):
            raise ValueError(f"time must be at least the reserved min_time={self.min_time!r}, "
                             f"got time={time!r}")
        charge = _exact(self.sensitivity) ** 2 / (2 * _exact(time))
        self._filter._settle(self._cap, charge)
        self.charged = float(charge)
        return self.charged

    def __repr__(self) -> str:
        return (f"BrownianReservation(sensitivity={self.sensitivity!r}, min_time={self.min_time!r}, "
                f"cap={self.cap!r}, charged={self.charged!r})")


class ExPostReservation:
    """An ex-post private run's place in a :class:`BasicFilter`: its largest epsilon is held from
    :meth:`BasicFilter.reserve` until :meth:`settle` charges the epsilon of where it stopped."""

    def __init__(self, filt: BasicFilter, cap_float: float, cap: Fraction) -> None:
        self._filter, self.cap, self._cap = filt, cap_float, cap
        self.charged: float | None = None

    def settle(self, epsilon: float) -> float:
        """The run stopped at the level of ex-post ``epsilon`` (<= the cap): charge it, return the rest
        of the cap to the filter, and return the charge. A reservation settles once."""
        if self.charged is not None:
            raise ValueError(f"this reservation was settled already (charged epsilon={self.charged!r})")
        charge = _checked(epsilon, check_epsilon)
        if charge > self._cap:
            raise ValueError(f"epsilon must be at most the reserved cap={self.cap!r}, "
                             f"got epsilon={epsilon!r}")
        self._filter._settle(self._cap, charge)  # the rest of the cap returns to the budget
        self.charged = float(charge)
        return self.charged

    def __repr__(self) -> str:
        return f"ExPostReservation(cap={self.cap!r}, charged={self.charged!r})"


def zcdp_odometer_epsilon(spent: ArrayLike, delta: float, rho_min: float = 1e-6) -> float | np.ndarray:
    """A zCDP odometer's reading: an epsilon valid at *every* step of an adaptive sequence of zCDP
    mechanisms that has spent sum rho_i = ``spent`` so far, with no budget fixed in advance.

    Filters with budgets rho_j = rho_min 2^j and deltas delta_j = delta / ((j + 1)(j + 2)) (which add
    up to delta), j = 0, 1, ...; the reading at ``spent`` is rho_j + 2 sqrt(rho_j ln(1/delta_j)) for the
    smallest rho_j >= spent. Valid: each filter's bound holds at all steps at once with probability
    1 - delta_j (Ville's inequality on exp(lam L_n - lam (lam + 1) sum rho_i), the proof of the zCDP
    filter, Whitehouse, Ramdas, Rogers & Wu 2023), and a union bound over j costs sum delta_j = delta:
    Pr[the realised loss ever exceeds the reading] <= delta. Odometers: Rogers, Roth, Ullman & Vadhan
    (2016); this doubling construction is the lab's, in their spirit (it pays a factor of at most 2 in
    rho and ln((j + 1)(j + 2)) in ln(1/delta) over a filter whose budget were fixed at ``spent``)."""
    spent = np.asarray(check_nonnegative(spent, "spent", array_ok=True), dtype=float)
    delta, rho_min = check_delta(delta, allow_zero=False), check_positive(rho_min, "rho_min")
    with np.errstate(divide="ignore"):
        j = np.maximum(0.0, np.ceil(np.log2(spent / rho_min)))
    j = np.where((j > 0) & (rho_min * 2.0 ** (j - 1) >= spent), j - 1, j)  # log2's rounding, either way
    j = np.where(rho_min * 2.0**j < spent, j + 1, j)
    rho_j = rho_min * 2.0**j
    delta_j = delta / ((j + 1) * (j + 2))
    return as_result(rho_j + 2 * np.sqrt(rho_j * np.log(1 / delta_j)))


class ZCDPOdometer:
    """A privacy odometer for zCDP mechanisms (Rogers, Roth, Ullman & Vadhan 2016): no budget, every
    request accepted; after each one, :attr:`spent` (sum rho_i) and :attr:`epsilon`, an (epsilon,
    delta) bound valid at that step and at every later one (:func:`zcdp_odometer_epsilon`)."""

    def __init__(self, delta: float, rho_min: float = 1e-6) -> None:
        self.delta = check_delta(delta, allow_zero=False)
        self.rho_min = check_positive(rho_min, "rho_min")
        self._spent = Fraction(0)

    def request(self, rho: float) -> float:
        """Record a rho-zCDP step (chosen from the outcomes so far) and return the reading after it."""
        self._spent += _checked(rho, check_rho)
        return self.epsilon

    @property
    def spent(self) -> float:
        """rho spent so far."""
        return float(self._spent)

    @property
    def epsilon(self) -> float:
        """The reading: (epsilon, delta)-DP holds for the interaction so far, whenever one stops."""
        return float(zcdp_odometer_epsilon(self.spent, self.delta, self.rho_min))

    def __repr__(self) -> str:
        return f"ZCDPOdometer(delta={self.delta!r}, spent={self.spent!r}, epsilon={self.epsilon!r})"


def filter_trace(filt: BasicFilter | ZCDPFilter, requests: Iterable[float | Mechanism]
                 ) -> list[tuple[bool, float]]:
    """Send ``requests`` (costs or mechanism descriptions) to ``filt`` in order and return, for each,
    (its answer, the total spent after it): the record of an adaptive sequence. Rogers, Roth, Ullman &
    Vadhan (2016): True while sum of the accepted costs + the request <= the budget, then False for good."""
    return [(filt.request(r), filt.spent) for r in requests]
