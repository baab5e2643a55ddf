"""Learning with differential privacy (notebook 12): DP-SGD (Abadi et al., CCS 2016) in numpy,
its accounting (the Poisson-subsampled Gaussian by RDP and by PLD), and simpler private learners.

``accounting``: epsilon of T DP-SGD steps by PLD or RDP, the noise multiplier for a target;
``logistic``: the task (sex from height and weight, polynomial features), the logistic loss, its
per-example gradients and the non-private fit;
``dpsgd``: DP-SGD with Poisson subsampling, clipping and its ledger;
``perturbation``: output and objective perturbation;
``membership``: the loss-threshold attack, a canary and an audit over many models.
``dplab.learning.NAME`` re-exports these modules' public names.
"""

from importlib import import_module

from dplab._namespace import reexport

#: the re-exported modules, foundation first
MODULES: tuple = ("accounting", "logistic", "dpsgd", "perturbation", "membership")

__all__ = reexport(globals(), [import_module(f"dplab.learning.{name}") for name in MODULES])
