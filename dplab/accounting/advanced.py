"""Advanced composition (Dwork, Rothblum & Vadhan 2010) and its accountant.

k steps, each (epsilon, delta)-DP, compose to (sqrt(2 k ln(1/delta')) epsilon + k epsilon
(e^epsilon - 1), k delta + delta')-DP for every delta' > 0, even when each step is chosen
after seeing the previous answers (Dwork & Roth, Theorem 3.20). [Roth11]'s simplification
for epsilon <= 1, the per-step epsilon that spends a total budget, and where advanced beats
basic composition are here too.
"""

from __future__ import annotations

import math

from dplab._calibrate import calibrate
from dplab._checks import check_choice, check_delta, check_epsilon, check_nonnegative, check_positive_int
from dplab.accounting.base import _NEEDS_A_PAIR, Accountant
from dplab.mechanisms.base import Mechanism

__all__ = [
    "AdvancedAccountant",
    "advanced_beats_basic_from_k",
    "advanced_composition",
    "advanced_composition_per_step",
    "advanced_composition_simplified_max_epsilon",
]


def advanced_composition(
    epsilon: float, k: int, delta_prime: float, *, delta: float = 0.0
) -> tuple[float, float]:
    """k-fold adaptive composition of (epsilon, delta)-DP mechanisms (Dwork, Rothblum &
    Vadhan 2010; Dwork & Roth, Theorem 3.20): (eps_total, k delta + delta') with
    eps_total = sqrt(2 k ln(1/delta')) epsilon + k epsilon (e^epsilon - 1)."""
    epsilon = check_epsilon(epsilon)
    k = check_positive_int(k, "k")
    delta_prime = check_delta(delta_prime, "delta_prime", allow_zero=False)
    delta = check_delta(delta)
    total = math.sqrt(2 * k * math.log(1 / delta_prime)) * epsilon + k * epsilon * math.expm1(epsilon)
    return total, min(1.0, k * delta + delta_prime)


def advanced_composition_per_step(
    epsilon_total: float, k: int, delta_prime: float, *, method: str = "exact"
) -> float:
    """The per-step epsilon whose k-fold advanced composition spends ``epsilon_total``.

    ``method="exact"``: the root of advanced_composition(eps, k, delta')[0] = epsilon_total
    (:func:`dplab.accounting.calibrate`; the left side increases in eps). ``method="simplified"``:
    [Roth11]'s simplification eps = epsilon_total / sqrt(8 k ln(1/delta')), stated for epsilon_total <= 1
    (refused above: see :func:`advanced_composition_simplified_max_epsilon` for where it really holds).
    """
    epsilon_total = check_epsilon(epsilon_total, "epsilon_total")
    k = check_positive_int(k, "k")
    delta_prime = check_delta(delta_prime, "delta_prime", allow_zero=False)
    check_choice(method, ("exact", "simplified"), "method")
    log_inv = math.log(1 / delta_prime)
    if method == "simplified":
        if epsilon_total > 1:
            raise ValueError("[Roth11]'s per-step epsilon is stated for a total epsilon <= 1, got "
                             f"epsilon_total={epsilon_total!r}; use method='exact'")
        return epsilon_total / math.sqrt(8 * k * log_inv)

    def excess(eps: float) -> float:
        return math.sqrt(2 * k * log_inv) * eps + k * eps * math.expm1(eps) - epsilon_total

    # excess increases from -epsilon_total at 0; the bracket grows from below, so e^eps never
    # overflows (the root is below 10 for any total up to 10^300)
    return calibrate(excess, 0.0, 0.0, min(epsilon_total / k, 1.0), grow="high", xtol=1e-15, rtol=1e-14)


def advanced_composition_simplified_max_epsilon(k: int, delta_prime: float) -> float:
    """The largest total epsilon for which [Roth11]'s split eps' = epsilon / sqrt(8 k L),
    L = ln(1/delta'), still composes to at most epsilon by advanced composition.

    The first term of advanced composition is then exactly epsilon/2; the second,
    k eps' (e^eps' - 1), stays <= epsilon/2 iff e^eps' <= 1 + sqrt(2 L / k), i.e.
    epsilon <= sqrt(8 k L) ln(1 + sqrt(2 L / k)). It increases with k towards 4 L (about 19
    at k = 1 and 33 at k = 10 for delta' = 1e-6): "epsilon <= 1" is sufficient, not necessary.
    """
    k = check_positive_int(k, "k")
    log_inv = math.log(1 / check_delta(delta_prime, "delta_prime", allow_zero=False))
    return math.sqrt(8 * k * log_inv) * math.log1p(math.sqrt(2 * log_inv / k))


def advanced_beats_basic_from_k(epsilon_total: float, delta_prime: float, k_max: int = 100_000) -> int:
    """The smallest k at which the exact advanced-composition per-step epsilon exceeds the
    basic (pure) epsilon_total / k, so (epsilon, delta') buys less noise per query."""
    epsilon_total = check_epsilon(epsilon_total, "epsilon_total")
    for k in range(1, check_positive_int(k_max, "k_max") + 1):
        if advanced_composition_per_step(epsilon_total, k, delta_prime) > epsilon_total / k:
            return k
    raise ValueError(f"advanced composition does not beat basic composition up to k_max={k_max}")


class AdvancedAccountant(Accountant):
    """Advanced composition (Dwork, Rothblum & Vadhan 2010; Dwork & Roth, Theorem 3.20) of steps
    with one (epsilon_i, delta_i) each: the theorem alone, which exceeds basic composition for few
    steps (1.77 against 1 for ten steps of 0.1 at 1e-6; take the smaller of the two yourself).
    ``delta`` is the target for the whole run: delta' = delta - sum k_i delta_i goes to the
    theorem. For unequal steps the same Azuma argument gives
    sqrt(2 ln(1/delta') sum k_i eps_i^2) + sum k_i eps_i (e^eps_i - 1) (each loss bounded by
    eps_i, mean at most eps_i (e^eps_i - 1); Dwork & Roth, proof of Theorem 3.20)."""

    name = "advanced (DRV)"

    def supports(self, mechanism: object) -> bool:
        return isinstance(mechanism, Mechanism) and mechanism.epsilon_delta() is not None

    def _why_not(self, mechanism: Mechanism) -> str:
        return _NEEDS_A_PAIR.format("advanced")

    def _sums(self) -> tuple[float, float, float]:
        """(sum k eps^2, sum k eps (e^eps - 1), sum k delta) over the steps (inf past e^709)."""
        pairs = [(m.epsilon_delta(), k) for m, k in self._steps.items()]
        if any(e > 700 for (e, _), _ in pairs):
            return math.inf, math.inf, math.fsum(k * d for (_, d), k in pairs)
        return (math.fsum(k * e * e for (e, _), k in pairs),
                math.fsum(k * e * math.expm1(e) for (e, _), k in pairs),
                math.fsum(k * d for (_, d), k in pairs))

    def epsilon(self, delta: float) -> float:
        delta = check_delta(delta)
        if not self._steps:
            return 0.0
        squares, drift, deltas = self._sums()
        delta_prime = delta - deltas
        if delta_prime <= 0:
            return math.inf
        if math.isinf(drift):
            return math.inf
        if len(self._steps) == 1:  # the theorem as stated (and as notebook 1 prints it)
            (mechanism, k), = self._steps.items()
            eps, step_delta = mechanism.epsilon_delta()
            return advanced_composition(eps, k, delta_prime, delta=step_delta)[0]
        return math.sqrt(2 * squares * math.log(1 / delta_prime)) + drift

    def delta(self, epsilon: float) -> float:
        """delta' = exp(-(epsilon - sum k eps (e^eps - 1))^2 / (2 sum k eps^2)), plus the steps' deltas."""
        epsilon = check_nonnegative(epsilon, "epsilon")
        if not self._steps:
            return 0.0
        squares, drift, deltas = self._sums()
        if epsilon <= drift:
            return 1.0
        return min(1.0, deltas + math.exp(-((epsilon - drift) ** 2) / (2 * squares)))
