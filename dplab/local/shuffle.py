"""Privacy amplification by shuffling: the same eps0-LDP reports, handed to the server in a
uniformly random order (a shuffler strips who sent what), are (eps, delta)-DP for the whole data
set with an eps much smaller than eps0 when n is large.

The bound is the closed form of Feldman, McMillan & Talwar, "Hiding Among the Clones: A Simple and
Nearly Optimal Analysis of Privacy Amplification by Shuffling" (FOCS 2021, arXiv:2012.12803,
Theorem 3.1): for eps0-DP local randomizers, n users and delta in (0, 1) with
eps0 <= ln(n / (16 ln(2/delta))), the shuffled output is (eps, delta)-DP with

    eps = ln(1 + (e^eps0 - 1)/(e^eps0 + 1) * (8 sqrt(e^eps0 ln(4/delta)) / sqrt(n) + 8 e^eps0 / n)),

of order sqrt(e^eps0 ln(1/delta) / n) (times 1 - e^-eps0 for small eps0).
"""

from __future__ import annotations

import math

from dplab._checks import check_delta, check_epsilon, check_positive_int

__all__ = ["shuffle_epsilon", "shuffle_max_epsilon0"]


def shuffle_max_epsilon0(n: int, delta: float) -> float:
    """The largest eps0 the closed form covers: ln(n / (16 ln(2/delta))) (Feldman, McMillan & Talwar
    2021, Theorem 3.1's condition; negative, so no eps0 is covered, when n <= 16 ln(2/delta))."""
    n = check_positive_int(n, "n")
    delta = check_delta(delta, allow_zero=False)
    return math.log(n / (16 * math.log(2 / delta)))


def shuffle_epsilon(epsilon0: float, n: int, delta: float) -> float:
    """The eps of (eps, delta)-DP for n shuffled eps0-LDP reports (Feldman, McMillan & Talwar 2021,
    Theorem 3.1): ln(1 + (e^eps0 - 1)/(e^eps0 + 1) (8 sqrt(e^eps0 ln(4/delta)/n) + 8 e^eps0/n)).
    Refuses (ValueError naming the values) eps0 > ln(n / (16 ln(2/delta))), outside the theorem. Near that
    edge with a small eps0 the bound can exceed eps0 (e.g. eps0 = 0.01, n = 235, delta = 1e-6): the
    shuffled reports are eps0-DP anyway, so this returns min(eps0, bound). OpenDP and Canonne's
    differentialprivacy.org summary state the theorem in this form; the authors' code
    (apple/ml-shuffling-amplification) uses a slightly more cautious variant (up to about 11% larger,
    refusing at ln(4/delta)), so this is the published closed form, not the tightest bound known."""
    eps0 = check_epsilon(epsilon0, "epsilon0")
    n = check_positive_int(n, "n")
    delta = check_delta(delta, allow_zero=False)
    top = shuffle_max_epsilon0(n, delta)
    if eps0 > top:
        raise ValueError(f"epsilon0 must be <= ln(n / (16 ln(2/delta))) = {top:.4g} for the closed form "
                         f"(Feldman, McMillan & Talwar 2021, Theorem 3.1), got epsilon0={epsilon0!r}, "
                         f"n={n}, delta={delta!r}")
    e0 = math.exp(eps0)
    amplified = 8 * math.sqrt(e0 * math.log(4 / delta) / n) + 8 * e0 / n
    return min(eps0, math.log1p((e0 - 1) / (e0 + 1) * amplified))
