"""dplab: a teaching lab for differential privacy.

The public API is flat: ``dplab.laplace_mechanism``, ``dplab.gaussian_sigma``,
``dplab.check``, ... Notebooks live in ``notebooks/``; see README.md.
"""

from dplab.composition import approx_dp_to_zcdp, zcdp_to_approx_dp
from dplab.datasets import load_yrbss
from dplab.exercises import check
from dplab.mechanisms import (
    gaussian_delta,
    gaussian_laplace_crossover_k,
    gaussian_mae,
    gaussian_mechanism,
    gaussian_mse,
    gaussian_sigma,
    gaussian_sigma_zcdp,
    gaussian_tail_bound,
    laplace_accuracy_k,
    laplace_mae,
    laplace_mechanism,
    laplace_mse,
    laplace_scale,
    laplace_scale_k,
    laplace_tail_bound,
)
from dplab.simulate import Estimate, ScaledErrors, mean_ci, proportion_ci, quantile_ci

__version__ = "0.1.0"

__all__ = [
    "Estimate",
    "ScaledErrors",
    "approx_dp_to_zcdp",
    "check",
    "gaussian_delta",
    "gaussian_laplace_crossover_k",
    "gaussian_mae",
    "gaussian_mechanism",
    "gaussian_mse",
    "gaussian_sigma",
    "gaussian_sigma_zcdp",
    "gaussian_tail_bound",
    "laplace_accuracy_k",
    "laplace_mae",
    "laplace_mechanism",
    "laplace_mse",
    "laplace_scale",
    "laplace_scale_k",
    "laplace_tail_bound",
    "load_yrbss",
    "mean_ci",
    "proportion_ci",
    "quantile_ci",
    "zcdp_to_approx_dp",
]
