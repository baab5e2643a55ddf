"""Lesson 1's mutants: plausible slips in the Laplace and Gaussian formulas, each caught by a report row
or a unit test that names it (``make mutants NB=01``)."""

from __future__ import annotations

from dplab.lab.report import Mutant

LAPLACE = "dplab/mechanisms/laplace.py"
GAUSSIAN = "dplab/mechanisms/gaussian.py"
ZCDP = "dplab/accounting/zcdp.py"
SENSITIVITY = "dplab/sensitivity.py"

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
    Mutant("laplace.accuracy_no_union_bound", LAPLACE,
           "return as_result(b * np.log(check_positive_int(k, \"k\", array_ok=True) / beta))",
           "return as_result(b * np.log(1 / beta))",
           "k answers' accuracy with one answer's tail, ln(1/beta) for ln(k/beta)"),
    Mutant("zcdp.simple_conversion_no_2", ZCDP,
           "return rho + 2 * math.sqrt(rho * math.log(1 / delta))",
           "return rho + math.sqrt(rho * math.log(1 / delta))",
           "zCDP to (eps, delta): rho + sqrt(rho ln(1/delta)), the 2 dropped"),
    Mutant("gaussian.zcdp_sigma_too_small", GAUSSIAN,
           "check_sensitivity(sensitivity) / math.sqrt(2 * check_rho(rho))",
           "check_sensitivity(sensitivity) / (2 * math.sqrt(check_rho(rho)))",
           "sigma = Delta/(2 sqrt(rho)) for Delta/sqrt(2 rho)"),
    Mutant("gaussian.delta_no_e_eps", GAUSSIAN,
           "second = math.exp(epsilon + special.log_ndtr(-a - b))",
           "second = math.exp(special.log_ndtr(-a - b))",
           "Balle & Wang's delta without the e^eps on its second term"),
    Mutant("sensitivity.clipped_mean_add_remove", SENSITIVITY,
           "return (high - low) / check_positive_int(n, \"n\")",
           "return (high - low) / (2 * check_positive_int(n, \"n\"))",
           "the clipped mean's sensitivity halved, (b - a)/(2n) for (b - a)/n under replace-one"),
)
