"""Mechanisms, one module each: a frozen description object with its sampler and all its theory.

``Laplace(sensitivity, epsilon)``, ``Gaussian(sensitivity, sigma)`` (``.mu``),
``RandomizedResponse(epsilon, k=2)`` and ``EpsilonDelta(epsilon, delta)`` (any (epsilon,
delta)-DP step, by its worst case) each know their ``sample``, ``privacy_loss``, privacy profile
``delta(epsilon)``, ``pld(step=...)``, ``tradeoff(alpha)``, error where defined, ``zcdp_rho()``
and ``rdp(alpha)``; ``dplab.accounting`` composes them. Private selection (the exponential
mechanism, report noisy max, permute-and-flip) and noise reduction (Laplace and Brownian) are
modules of functions. The closed forms over grids of epsilon that notebooks draw
(``laplace_mse``, ``gaussian_sigma``, ...) are functions in each mechanism's module.
"""

from importlib import import_module

#: the mechanism modules, foundation first; ``dplab.mechanisms.NAME`` re-exports their ``__all__``
MODULES = ("laplace", "gaussian", "randomized_response", "epsilon_delta", "exponential", "noise_reduction")

_modules = [import_module(f"dplab.mechanisms.{name}") for name in MODULES]
for _module in _modules:
    for _name in _module.__all__:
        globals()[_name] = getattr(_module, _name)
del _module, _name

from dplab.mechanisms.base import Mechanism  # noqa: E402, F401 (re-exported)

__all__ = sorted({name for module in _modules for name in module.__all__} | {"Mechanism"})
