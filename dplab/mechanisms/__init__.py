"""Noise mechanisms, one module each, sampler and theory together.

``laplace``: the Laplace mechanism; ``gaussian``: the Gaussian mechanism, its
calibrations and privacy loss; ``exponential``: private selection (the exponential
mechanism, report noisy max, permute-and-flip); ``noise_reduction``: Laplace and Brownian
noise reduction. Every public name is also reachable flat as ``dplab.NAME``.
"""
