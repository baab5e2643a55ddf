"""Privacy loss distributions as an accountant: exact composition by FFT, and the Gaussian limit.

Each mechanism builds its own PLD (``Laplace(1, 0.1).pld(step=1e-4)``; the type is
``dplab._pld.PrivacyLossDistribution``); this accountant convolves them. Rounded up (the
default), its epsilon(delta) is never below the truth and at most (number of steps) * step
above it (Koskela, Jalko & Honkela 2020; Sommer, Meiser & Mohammadi 2019).
"""

from __future__ import annotations

import math

from dplab._checks import check_delta, check_nonnegative, check_positive, check_positive_int
from dplab._pld import PrivacyLossDistribution, convolve_all
from dplab.accounting.base import Accountant
from dplab.mechanisms.base import Mechanism

__all__ = ["PLDAccountant", "PrivacyLossDistribution", "gdp_limit_mu"]


class PLDAccountant(Accountant):
    """Exact accounting with privacy loss distributions on a grid of ``step`` (rounded up when
    ``pessimistic``, down otherwise). Composes every mechanism with a ``pld`` method: k runs of
    one mechanism by one FFT power, the different mechanisms together by one more FFT."""

    name = "PLD (exact)"

    def __init__(self, *, step: float = 1e-4, pessimistic: bool = True) -> None:
        super().__init__()
        self.step = check_positive(step, "step")
        self.pessimistic = bool(pessimistic)
        self._pld: PrivacyLossDistribution | None = None

    def supports(self, mechanism: object) -> bool:
        return isinstance(mechanism, Mechanism) and callable(getattr(mechanism, "pld", None))

    def _why_not(self, mechanism: Mechanism) -> str:
        return "it has no privacy loss distribution (a pld method)"

    def _changed(self) -> None:
        self._pld = None

    def pld(self) -> PrivacyLossDistribution:
        """The composed PLD (computed once per composition)."""
        if not self._steps:
            raise ValueError("nothing composed yet: call compose(mechanism, k) first")
        if self._pld is None:
            self._pld = convolve_all([m.pld(step=self.step, pessimistic=self.pessimistic).compose(k)
                                      for m, k in self._steps.items()])
        return self._pld

    def epsilon(self, delta: float) -> float:
        delta = check_delta(delta)
        return self.pld().epsilon(delta) if self._steps else 0.0

    def delta(self, epsilon: float) -> float:
        epsilon = check_nonnegative(epsilon, "epsilon")
        return float(self.pld().delta(epsilon)) if self._steps else 0.0


def gdp_limit_mu(pld: PrivacyLossDistribution, k: int) -> float:
    """A mu-GDP approximation of k compositions of ``pld``: the mu whose Gaussian privacy loss
    N(mu^2/2, mu^2) has the same mean, mu = sqrt(2 k KL), KL = E[L] of one step (exact where
    known, else from the grid). Composition approaches a Gaussian (the central limit theorem of
    Dong, Roth & Su 2022, Theorem 3.5; Sommer, Meiser & Mohammadi 2019), but this is not their
    Theorem 3.6 mu, 2 k KL / sqrt(k kappa_2 - k KL^2) (kappa_2 = E[L^2]), which matches the
    variance too: the two meet as eps0 -> 0 with k eps0^2 fixed (0.1% apart for Laplace steps of
    eps0 = 0.1, 5.8% at eps0 = 1), and the mean-matching mu is the closer fit to the exact curve
    where measured. Exact for a Gaussian step (sqrt(k) mu); about sqrt(k) eps for Laplace steps."""
    if not isinstance(pld, PrivacyLossDistribution):
        raise TypeError(f"pld must be a PrivacyLossDistribution, got pld={pld!r}")
    k = check_positive_int(k, "k")
    kl = pld.kl if pld.kl is not None else pld.mean()
    return math.sqrt(2 * k * max(kl, 0.0))
