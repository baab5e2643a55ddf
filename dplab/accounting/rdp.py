"""Renyi differential privacy (Mironov, "Renyi Differential Privacy", CSF 2017) as an accountant.

A mechanism whose worst neighbouring pair has Renyi divergence R(alpha) at every order alpha
is (alpha, R(alpha))-RDP; Renyi divergences of independent runs add (Mironov, Proposition 1),
so the composition's curve is the sum of the steps' curves on a grid of orders. It converts to
(epsilon, delta)-DP at the best order, by Canonne, Kamath & Steinke 2020, Proposition 12
(tighter than Mironov's Proposition 3, as in dp-accounting's RDP accountant):

    epsilon = min over alpha of
              R(alpha) + (ln(1/delta) + (alpha - 1) ln(1 - 1/alpha) - ln alpha) / (alpha - 1).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import check_delta, check_nonnegative, check_renyi_order
from dplab.accounting.base import Accountant
from dplab.mechanisms.base import Mechanism

__all__ = ["ORDERS", "RDPAccountant"]

#: the default grid of Renyi orders (dp-accounting's default grid)
ORDERS = np.concatenate([1 + np.arange(1, 100) / 10, np.arange(12, 64), [128, 256, 512, 1024]]).astype(float)


class RDPAccountant(Accountant):
    """RDP accounting on a grid of ``orders``: composes every mechanism with a Renyi curve
    (``rdp(alpha)``: Gaussian alpha rho, Laplace, randomized response, pure eps-DP steps)."""

    name = "RDP"

    def __init__(self, orders: ArrayLike = ORDERS) -> None:
        super().__init__()
        self.orders = np.asarray(check_renyi_order(orders), dtype=float).ravel()

    def supports(self, mechanism: object) -> bool:
        return isinstance(mechanism, Mechanism) and mechanism.rdp(2.0) is not None

    def _why_not(self, mechanism: Mechanism) -> str:
        return "its Renyi curve is not known (an (epsilon, delta) step with delta > 0 has none)"

    def curve(self) -> np.ndarray:
        """R(alpha) of the composition at each order: sum k_i R_i(alpha)."""
        total = np.zeros_like(self.orders)
        for m, k in self._steps.items():
            total += k * np.asarray(m.rdp(self.orders), dtype=float)
        return total

    def _correction(self) -> np.ndarray:
        a = self.orders
        # ((alpha - 1) ln(1 - 1/alpha) - ln alpha) / (alpha - 1)
        return np.log1p(-1 / a) - np.log(a) / (a - 1)

    def epsilon(self, delta: float) -> float:
        delta = check_delta(delta)
        if not self._steps:
            return 0.0
        if delta == 0:
            return math.inf
        eps = self.curve() + math.log(1 / delta) / (self.orders - 1) + self._correction()
        return float(max(0.0, np.min(eps)))

    def delta(self, epsilon: float) -> float:
        """min over alpha of exp((alpha - 1)(R(alpha) - epsilon + correction)): the conversion
        solved for delta."""
        epsilon = check_nonnegative(epsilon, "epsilon")
        if not self._steps:
            return 0.0
        log_delta = (self.orders - 1) * (self.curve() - epsilon + self._correction())
        return float(min(1.0, math.exp(min(0.0, float(np.min(log_delta))))))
