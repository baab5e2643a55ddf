"""Basic composition and the rules of notebook 2: sequential and parallel composition,
stability of transformations, amplification by subsampling; the basic accountant.

Advanced composition: ``advanced.py``; optimal (KOV): ``optimal.py``; zCDP: ``zcdp.py``;
privacy loss distributions: ``pld.py``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from dplab._calibrate import calibrate
from dplab._checks import (
    as_result,
    check_delta,
    check_epsilon,
    check_nonnegative,
    check_positive_int,
    check_probability,
)
from dplab.accounting.base import _NEEDS_A_PAIR, Accountant
from dplab.mechanisms.base import Mechanism

__all__ = [
    "BasicAccountant",
    "basic_composition",
    "parallel_composition",
    "sequential_composition",
    "subsampling_epsilon",
    "subsampling_slide_claim_fails_above",
    "subsampling_slide_claim_holds_up_to",
    "transformation_epsilon",
]


def sequential_composition(
    epsilons: Sequence[float], deltas: Sequence[float] | None = None
) -> tuple[float, float]:
    """Basic sequential composition: (sum of epsilons, sum of deltas).

    Mechanisms M_1..M_k on the same data, each (epsilon_i, delta_i)-DP, together are
    (sum epsilon_i, sum delta_i)-DP (Dwork & Roth, Theorem 3.16; [Duke18], "Sequential
    composition"). Without ``deltas`` every mechanism is pure and delta is 0. Equal
    mechanisms are grouped and each group composed by :func:`basic_composition`.
    """
    eps = [check_epsilon(e, f"epsilons[{i}]") for i, e in enumerate(epsilons)]
    if not eps:
        raise ValueError("epsilons must name at least one mechanism, got epsilons=[]")
    if deltas is None:
        dels = [0.0] * len(eps)
    elif len(deltas) != len(eps):
        raise ValueError(f"deltas must have one entry per epsilon, got {len(deltas)} deltas "
                         f"for {len(eps)} epsilons")
    else:
        dels = [check_delta(d, f"deltas[{i}]") for i, d in enumerate(deltas)]
    groups = [basic_composition(e, k, d) for (e, d), k in Counter(zip(eps, dels, strict=True)).items()]
    return math.fsum(e for e, _ in groups), min(1.0, math.fsum(d for _, d in groups))


def basic_composition(epsilon: float, k: int, delta: float = 0.0) -> tuple[float, float]:
    """k-fold composition of one (epsilon, delta)-DP mechanism: (k epsilon, k delta).

    Dwork & Roth, Theorem 3.16 with k equal mechanisms (delta capped at 1);
    :func:`sequential_composition` for unequal ones.
    """
    epsilon = check_epsilon(epsilon)
    k = check_positive_int(k, "k")
    delta = check_delta(delta)
    return k * epsilon, min(1.0, k * delta)


def parallel_composition(epsilons: Sequence[float]) -> float:
    """Parallel composition: max epsilon over mechanisms run on disjoint parts of the data.

    Holds under add/remove-one neighbours, where one row lives in exactly one part
    (McSherry 2009, Theorem 4; [Duke18]). Under replace-one, a changed row may leave one
    part and join another: then two parts change and the cost is the sum of the two
    largest epsilons (e.g. a histogram has sensitivity 2).
    """
    eps = [check_epsilon(e, f"epsilons[{i}]") for i, e in enumerate(epsilons)]
    if not eps:
        raise ValueError("epsilons must name at least one mechanism, got epsilons=[]")
    return max(eps)


def transformation_epsilon(epsilon: float, stability: int) -> float:
    """An epsilon-DP mechanism run on V(D), V of stability sigma, is (epsilon * sigma)-DP.

    McSherry 2009, Theorem 2; [Duke18], "Transformations & Stability".
    """
    return check_epsilon(epsilon) * check_positive_int(stability, "stability")


def subsampling_epsilon(epsilon: ArrayLike, p: float) -> float | np.ndarray:
    """Exact amplification by Poisson subsampling with rate p: ln(1 + p (e^epsilon - 1)).

    An epsilon-DP mechanism run on a sample that keeps each row independently with
    probability p is this DP under add/remove neighbours (Balle, Barthe & Gaboardi 2018,
    Theorem 8; the [Duke18] slide cites Smith's "2 p epsilon", valid only for small eps).
    """
    epsilon = check_epsilon(epsilon, array_ok=True)
    p = check_probability(p)
    return as_result(np.log1p(p * np.expm1(epsilon)))


def subsampling_slide_claim_fails_above(p: float) -> float:
    """The epsilon beyond which the slide's 2 p epsilon is below the exact amplified epsilon.

    For p >= 1/2, 2 p epsilon >= epsilon >= the exact value: never fails (returns inf).
    Otherwise g(eps) = ln(1 + p (e^eps - 1)) - 2 p eps starts negative (g'(0) = -p) and
    has one positive root, found with :func:`dplab.accounting.calibrate`.
    """
    p = check_probability(p)
    if p >= 0.5:
        return math.inf

    def gap(eps: float) -> float:
        return math.log1p(p * math.expm1(eps)) - 2 * p * eps

    return calibrate(gap, 0.0, 1e-9, 1.0, grow="high", xtol=1e-12)


def subsampling_slide_claim_holds_up_to() -> float:
    """The largest epsilon at which 2 p epsilon >= ln(1 + p (e^epsilon - 1)) for every p.

    As p -> 0 the exact value is p (e^epsilon - 1) + O(p^2), so the claim needs
    e^epsilon - 1 <= 2 epsilon: the root of e^eps - 1 - 2 eps, about 1.2564. For a given
    p < 1/2 it holds further, up to :func:`subsampling_slide_claim_fails_above` (p); for
    p >= 1/2 it holds for every epsilon.
    """
    return calibrate(lambda e: math.expm1(e) - 2 * e, 0.0, 0.5, 2.0, xtol=1e-14)


class BasicAccountant(Accountant):
    """Basic composition (Dwork & Roth, Theorem 3.16): steps of (epsilon_i, delta_i) compose to
    (sum epsilon_i, sum delta_i), one point. ``epsilon(delta)`` is the sum of the epsilons when
    ``delta`` covers the sum of the deltas (inf otherwise); ``delta(epsilon)`` is the sum of
    the deltas when ``epsilon`` covers the sum of the epsilons (1 otherwise). Composes any step
    with one (epsilon, delta) guarantee (not the Gaussian, whose guarantee is a curve)."""

    name = "basic"

    def supports(self, mechanism: object) -> bool:
        return isinstance(mechanism, Mechanism) and mechanism.epsilon_delta() is not None

    def _why_not(self, mechanism: Mechanism) -> str:
        return _NEEDS_A_PAIR.format("basic")

    def _totals(self) -> tuple[float, float]:
        pairs = [(m.epsilon_delta(), k) for m, k in self._steps.items()]
        return (math.fsum(k * e for (e, _), k in pairs),
                min(1.0, math.fsum(k * d for (_, d), k in pairs)))

    def epsilon(self, delta: float) -> float:
        delta = check_delta(delta)
        total_epsilon, total_delta = self._totals()
        return total_epsilon if total_delta <= delta else math.inf

    def delta(self, epsilon: float) -> float:
        epsilon = check_nonnegative(epsilon, "epsilon")
        total_epsilon, total_delta = self._totals()
        return total_delta if total_epsilon <= epsilon else 1.0
