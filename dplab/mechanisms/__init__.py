"""Mechanisms, one module each: a frozen description object with its sampler and all its theory.

``Laplace(sensitivity, epsilon)``, ``Gaussian(sensitivity, sigma)`` (``.mu``),
``RandomizedResponse(epsilon, k=2)``, ``EpsilonDelta(epsilon, delta)`` (any (epsilon,
delta)-DP step, by its worst case) and ``SubsampledGaussian(noise_multiplier, sampling_rate)``
(one step of DP-SGD, whose PLD has two directions) each know their ``sample``,
``privacy_loss``, privacy profile ``delta(epsilon)``, ``pld(step=...)``, ``tradeoff(alpha)``,
error where defined, ``zcdp_rho()`` and ``rdp(alpha)``; ``dplab.accounting`` composes them.
Private selection (the exponential mechanism, report noisy max, permute-and-flip) and noise
reduction (Laplace and Brownian) are modules of functions. The closed forms over grids of
epsilon that notebooks draw (``laplace_mse``, ``gaussian_sigma``, ...) are functions in each
mechanism's module.
"""

from importlib import import_module

from dplab._namespace import reexport

#: the mechanism modules, foundation first; ``dplab.mechanisms.NAME`` re-exports their ``__all__``
MODULES = ("base", "laplace", "gaussian", "randomized_response", "epsilon_delta", "exponential",
           "noise_reduction", "subsampled_gaussian")

__all__ = reexport(globals(), [import_module(f"dplab.mechanisms.{name}") for name in MODULES])
