"""Noise mechanisms, one module each, sampler and theory together.

``laplace``: the Laplace mechanism; ``gaussian``: the Gaussian mechanism, its
calibrations and privacy loss. Later notebooks add ``exponential`` and
``noise_reduction``. Every public name is also reachable flat as ``dplab.NAME``.
"""
