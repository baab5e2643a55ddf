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
           "the clipped mean's sensitivity halved, (hi - lo)/(2n) for (hi - lo)/n under replace-one"),
    Mutant("laplace.mae_is_std", LAPLACE,
           "    return laplace_scale(sensitivity, epsilon)\n",
           "    return as_result(np.sqrt(2.0) * np.asarray(laplace_scale(sensitivity, epsilon)))\n",
           "E|Lap(b)| as the standard deviation sqrt(2) b, not b"),
    Mutant("laplace.tail_one_sided", LAPLACE,
           "return as_result(b * -np.log(check_beta(beta, array_ok=True)))",
           "return as_result(b * -np.log(2 * check_beta(beta, array_ok=True)))",
           "the tail bound from the one-sided tail Pr[Lap(b) >= t] = e^(-t/b)/2: t = b ln(1/(2 beta))"),
    Mutant("laplace.sample_rate_as_scale", LAPLACE,
           "self.scale * rng.laplace(0.0, 1.0, size=noise_shape(value, size))",
           "rng.laplace(0.0, 1.0, size=noise_shape(value, size)) / self.scale",
           "noise drawn with the rate eps/Delta as its scale (numpy's laplace takes the scale Delta/eps)"),
    Mutant("laplace.advanced_scale_8_to_2", LAPLACE,
           "return as_result(sensitivity * np.sqrt(8 * k * np.log(1 / delta)) / epsilon)",
           "return as_result(sensitivity * np.sqrt(2 * k * np.log(1 / delta)) / epsilon)",
           "Theorem 3's per-query scale sqrt(2k ln(1/delta)) for sqrt(8k ln(1/delta)): too little noise"),
    Mutant("gaussian.crossover_off_by_one", GAUSSIAN,
           "return math.floor(sigma_1**2 * epsilon**2 / 2) + 1",
           "return math.floor(sigma_1**2 * epsilon**2 / 2)",
           "the crossover k without its + 1: the largest k at which Laplace still wins"),
    Mutant("gaussian.zcdp_sigma_no_sqrt", GAUSSIAN,
           "check_sensitivity(sensitivity) / math.sqrt(2 * check_rho(rho))",
           "check_sensitivity(sensitivity) / (2 * check_rho(rho))",
           "sigma = Delta/(2 rho) for Delta/sqrt(2 rho) (right only at rho = 1/2)"),
    Mutant("laplace.scale_over_eps_squared", LAPLACE,
           "check_sensitivity(sensitivity, array_ok=True) / check_epsilon(epsilon, array_ok=True))",
           "check_sensitivity(sensitivity, array_ok=True) / check_epsilon(epsilon, array_ok=True) ** 2)",
           "the Laplace scale Delta/eps^2 for Delta/eps (MSE, MAE and tail all built on it)"),
)
