"""Learning with differential privacy (notebook 12): DP-SGD (Abadi et al., CCS 2016) in numpy,
its accounting (the Poisson-subsampled Gaussian by RDP and by PLD), and simpler private learners.
``dplab.learning.NAME`` re-exports these modules' public names.
"""

from importlib import import_module

from dplab._namespace import reexport

#: the re-exported modules, foundation first
MODULES: tuple = ("accounting",)

__all__ = reexport(globals(), [import_module(f"dplab.learning.{name}") for name in MODULES])
