"""Accounting: what a run of mechanisms costs in privacy.

One protocol (``base.Accountant``): ``compose(mechanism, k)``, then ``epsilon(delta)`` and
``delta(epsilon)`` for the whole run, and ``supports(mechanism)``. Six accountants, one module
each: basic composition (``BasicAccountant``, with notebook 2's rules in ``composition``),
advanced composition (``AdvancedAccountant``), optimal composition (``OptimalAccountant``,
Kairouz-Oh-Viswanath), zCDP (``ZCDPAccountant``, simple or Canonne-Kamath-Steinke
conversion), Renyi DP (``RDPAccountant``) and privacy loss distributions (``PLDAccountant``);
the privacy filters charge the same mechanism descriptions (``filters``). Also here: the one
neighbour relation (``Neighbours``) and the one calibration routine (``calibrate``).

    from dplab.mechanisms import Laplace
    from dplab.accounting import all_accountants, epsilons
    print(epsilons(Laplace(1, 0.1), 1000, 1e-6, all_accountants()))
"""

from importlib import import_module

from dplab._calibrate import calibrate  # noqa: F401 (re-exported)
from dplab._checks import Neighbours  # noqa: F401 (re-exported)
from dplab._namespace import reexport
from dplab.accounting.advanced import AdvancedAccountant
from dplab.accounting.base import Accountant
from dplab.accounting.composition import BasicAccountant
from dplab.accounting.optimal import OptimalAccountant
from dplab.accounting.pld import PLDAccountant
from dplab.accounting.rdp import RDPAccountant
from dplab.accounting.zcdp import ZCDPAccountant

#: the accounting modules, foundation first; ``dplab.accounting.NAME`` re-exports their ``__all__``
MODULES = ("base", "composition", "advanced", "optimal", "zcdp", "rdp", "pld", "filters")


def all_accountants() -> list[Accountant]:
    """A fresh accountant of each kind, from the loosest to the exact one: basic, advanced, zCDP
    (simple), zCDP (CKS), RDP, optimal (KOV), PLD."""
    return [BasicAccountant(), AdvancedAccountant(), ZCDPAccountant("simple"), ZCDPAccountant("cks"),
            RDPAccountant(), OptimalAccountant(), PLDAccountant()]


__all__ = reexport(globals(), [import_module(f"dplab.accounting.{name}") for name in MODULES]) + [
    "Neighbours", "all_accountants", "calibrate"]
__all__.sort()
