"""Lesson 1's mutants: plausible slips in the Laplace and Gaussian formulas, each caught by a report row
or a unit test that names it (``make mutants NB=01``)."""

from __future__ import annotations

from dplab.lab.report import Mutant

LAPLACE = "dplab/mechanisms/laplace.py"
GAUSSIAN = "dplab/mechanisms/gaussian.py"

MUTANTS = (
    Mutant("laplace.scale_times_2", LAPLACE,
           "as_result(check_sensitivity(sensitivity, array_ok=True) / check_epsilon(",
           "as_result(2 * check_sensitivity(sensitivity, array_ok=True) / check_epsilon(",
           "the Laplace scale 2 Delta/eps (report noisy max's) for Delta/eps"),
    Mutant("laplace.mse_no_factor_2", LAPLACE,
           "as_result(2.0 * np.asarray(laplace_scale(sensitivity, epsilon)) ** 2)",
           "as_result(np.asarray(laplace_scale(sensitivity, epsilon)) ** 2)",
           "the Laplace variance b^2 for 2 b^2"),
    Mutant("gaussian.classical_no_2", GAUSSIAN,
           "sensitivity * math.sqrt(2 * math.log(1.25 / delta)) / epsilon",
           "sensitivity * math.sqrt(math.log(1.25 / delta)) / epsilon",
           "the classical sigma without the 2 under the square root"),
)
