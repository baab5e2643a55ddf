"""DP-SGD's privacy: T steps of the Poisson-subsampled Gaussian, by PLD or by RDP.

One step of DP-SGD (Abadi et al., CCS 2016) releases a noised sum of clipped per-example
gradients over a Poisson sample: ``dplab.mechanisms.SubsampledGaussian(noise_multiplier,
sampling_rate)``. Its T-fold composition under add/remove neighbours is accounted by one of
``dplab.accounting``'s accountants: the PLD (both orders of the pair, the larger epsilon;
Koskela, Jalko & Honkela 2020, as dp-accounting's ``PLDAccountant``) or RDP (Mironov, Talwar &
Zhang 2019, converted at the best of dp-accounting's orders as its ``RdpAccountant`` does).
"""

from __future__ import annotations

import math

from dplab._calibrate import calibrate
from dplab._checks import check_delta, check_epsilon, check_positive, check_positive_int, check_probability
from dplab.accounting import Accountant, PLDAccountant, RDPAccountant
from dplab.mechanisms import SubsampledGaussian

__all__ = ["ACCOUNTANTS", "dpsgd_epsilon", "dpsgd_noise_multiplier"]

#: the accountants a string selects (each name gives a fresh one with its defaults: PLD on a grid of 1e-4)
ACCOUNTANTS: dict[str, type[Accountant]] = {"pld": PLDAccountant, "rdp": RDPAccountant}


def _accountant(accountant: str | Accountant) -> Accountant:
    if isinstance(accountant, Accountant):
        return accountant.fresh()
    if isinstance(accountant, str) and accountant in ACCOUNTANTS:
        return ACCOUNTANTS[accountant]()
    raise ValueError(f"accountant must be one of {tuple(ACCOUNTANTS)} or an accountant from "
                     f"dplab.accounting, got accountant={accountant!r}")


def dpsgd_epsilon(noise_multiplier: float, sampling_rate: float, steps: int, delta: float,
                  accountant: str | Accountant = "pld") -> float:
    """The epsilon at ``delta`` of ``steps`` steps of DP-SGD: T-fold composition of
    ``SubsampledGaussian(noise_multiplier, sampling_rate)`` (noise multiplier sigma, Poisson rate q,
    add/remove neighbours) by ``accountant``: "pld" (``PLDAccountant()``: both orders of the pair,
    the larger epsilon, never below the truth), "rdp" (``RDPAccountant()``: eps = min over alpha of
    T R(alpha) + ln((alpha - 1)/alpha) - (ln delta + ln alpha)/(alpha - 1)) or an accountant object
    (used fresh: its settings, none of its steps)."""
    mechanism = SubsampledGaussian(noise_multiplier, sampling_rate)
    steps = check_positive_int(steps, "steps")
    delta = check_delta(delta, allow_zero=False)
    return _accountant(accountant).compose(mechanism, steps).epsilon(delta)


def dpsgd_noise_multiplier(epsilon: float, delta: float, sampling_rate: float, steps: int,
                           accountant: str | Accountant = "pld") -> float:
    """The smallest noise multiplier whose ``steps`` steps at ``sampling_rate`` are accounted at
    epsilon <= ``epsilon`` (at ``delta``) by ``accountant`` (as in :func:`dpsgd_epsilon`):
    :func:`dplab.accounting.calibrate` on ln sigma from the bracket [0.5, 1], grown either way
    (epsilon decreases in sigma), then moved up by 1e-6 relative steps until the accounted
    epsilon meets the target, so the answer is on the private side of the root."""
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta, allow_zero=False)
    q = check_probability(sampling_rate, "sampling_rate")
    steps = check_positive_int(steps, "steps")

    def eps_of(sigma: float) -> float:
        return dpsgd_epsilon(sigma, q, steps, delta, accountant)

    sigma = calibrate(lambda x: math.log(eps_of(x)), math.log(epsilon), 0.5, 1.0, grow="both",
                      increasing=False, log=True, xtol=1e-6)
    while eps_of(sigma) > epsilon:  # Brent stops on either side of the root: step to the private one
        sigma *= 1 + 1e-6
    return check_positive(sigma, "noise_multiplier")
