"""Lesson 2's mutants: plausible slips in the BMI algorithms, the sensitivities derived by brute force,
constrained inference, contingency tables and subsampling, each caught by a report row that names it
(``make mutants NB=02``)."""

from __future__ import annotations

from dplab.lab.report import Mutant

BMI = "dplab/bmi.py"
SENSITIVITY = "dplab/sensitivity.py"
INFERENCE = "dplab/inference.py"
CONTINGENCY = "dplab/contingency.py"
COMPOSITION = "dplab/accounting/composition.py"
MEANS = "dplab/means.py"

MUTANTS = (
    Mutant("bmi.alg1_no_budget_split", BMI,
           "return laplace_scale(1.0, np.asarray(check_epsilon(epsilon, array_ok=True)) / 4)",
           "return laplace_scale(1.0, np.asarray(check_epsilon(epsilon, array_ok=True)))",
           "Algorithm 1 gives each of its four counts Lap(1/eps), not Lap(4/eps): the budget is not split"),
    Mutant("bmi.joint_sensitivity_one_count", BMI,
           "return float(np.abs(a).sum(axis=0).max())",
           "return float(np.abs(a).max())",
           "the four answers' joint L1 sensitivity taken as one count's, 1 for 2 (a male with BMI < 25 "
           "is in q1 and in # M)"),
    Mutant("bmi.alg2_error_one_noise_per_answer", BMI,
           "trace = float(np.trace(ANSWERS_FROM_CELLS @ ANSWERS_FROM_CELLS.T))",
           "trace = float(len(ANSWERS_FROM_CELLS))",
           "Algorithm 2's total error with one cell noise per answer, 8/eps^2 for 12/eps^2 (the totals "
           "# M and # F carry two)"),
    Mutant("sensitivity.histogram_replace_1", SENSITIVITY,
           "return 1.0 if check_neighbours(neighbours) == \"add_remove\" else 2.0",
           "return 1.0 if check_neighbours(neighbours) == \"add_remove\" else 1.0",
           "the histogram's sensitivity 1 under replace-one too (a moved row changes two cells)"),
    Mutant("sensitivity.l1_as_linf", SENSITIVITY,
           "float(np.sum(np.abs(answer(a) - answer(b))))",
           "float(np.max(np.abs(answer(a) - answer(b))))",
           "the brute-force sensitivity measures the largest change of one entry (L-infinity), not L1"),
    Mutant("sensitivity.neighbours_swapped", SENSITIVITY,
           "            if neighbours == \"add_remove\":\n                if size < max_rows:",
           "            if neighbours != \"add_remove\":\n                if size < max_rows:",
           "the brute force pairs tables by the other neighbour relation (replace-one for add/remove)"),
    Mutant("bmi.order_alg1_no_difference_term", BMI,
           "return as_result(0.5 * np.exp(-males_high / b) * (1 + males_high / (2 * b)))",
           "return as_result(0.5 * np.exp(-males_high / b))",
           "Algorithm 1's order violation as one Laplace tail, without the (1 + q2/2b) of the difference "
           "of two Laplace draws"),
    Mutant("bmi.order_alg2_no_half", BMI,
           "if algorithm == 2:\n        return as_result(0.5 * np.exp(-males_high / b))",
           "if algorithm == 2:\n        return as_result(np.exp(-males_high / b))",
           "Pr[Lap(b) < -q2] as e^(-q2/b): the one-sided tail's 1/2 dropped"),
    Mutant("inference.negative_multiplier_accepted", INFERENCE,
           "ok = np.all(lam[:, len(eq):] >= -tol, axis=1)",
           "ok = np.ones(len(lam), dtype=bool)",
           "the active-set search accepts a KKT point with a negative multiplier: a feasible point on "
           "the boundary that is not the projection"),
    Mutant("inference.isotonic_direction_ignored", INFERENCE,
           "increasing=increasing).x",
           "increasing=True).x",
           "the isotonic fit ignores its direction and fits non-increasing counts increasingly"),
    Mutant("bmi.tall_direct_sensitivity_1", BMI,
           "noisy = laplace_mechanism(truth, float(truth.size), epsilon, size=trials, rng=seed)",
           "noisy = laplace_mechanism(truth, 1.0, epsilon, size=trials, rng=seed)",
           "the ten tall counts released directly with Lap(1/eps): one count's sensitivity, not the "
           "vector's 10"),
    Mutant("bmi.totals_no_budget_split", BMI,
           "noisy = laplace_mechanism(truth, 1.0, epsilon / 3, size=trials, rng=seed)",
           "noisy = laplace_mechanism(truth, 1.0, epsilon, size=trials, rng=seed)",
           "q1, q2 and # M each released at eps, not eps/3 (3 eps in total)"),
    Mutant("contingency.derived_cell_one_noise", CONTINGENCY,
           "return as_result(2 * (d - 1) * np.asarray(laplace_mse(1.0, epsilon / (d - 1))))",
           "return as_result(d * np.asarray(laplace_mse(1.0, epsilon / (d - 1))))",
           "[Hu]'s derived last cell counted with one noise, not the d - 1 of the cells it subtracts"),
    Mutant("contingency.parallel_replace_as_add_remove", CONTINGENCY,
           "\"parallel_replace\": \"replace\",",
           "\"parallel_replace\": \"add_remove\",",
           "the parallel release under replace-one uses add/remove's Lap(1/eps), not Lap(2/eps)"),
    Mutant("composition.subsampling_exp_not_expm1", COMPOSITION,
           "return as_result(np.log1p(p * np.expm1(epsilon)))",
           "return as_result(np.log1p(p * np.exp(epsilon)))",
           "amplification by subsampling as ln(1 + p e^eps), not ln(1 + p (e^eps - 1))"),
    Mutant("composition.subsampling_crossing_log10", COMPOSITION,
           "return math.log1p(p * math.expm1(eps)) - 2 * p * eps",
           "return math.log10(1 + p * math.expm1(eps)) - 2 * p * eps",
           "the slide's crossing takes the exact amplification in log base 10, not the natural log"),
    Mutant("inference.empty_active_set_skipped", INFERENCE,
           "for size in range(m + 1):",
           "for size in range(1, m + 1):",
           "the active-set search starts at one active constraint (off by one): a feasible point is "
           "never returned as its own projection"),
    Mutant("means.sum_count_full_eps", MEANS,
           "bound, (1 - share) * epsilon, size=size, rng=rng)",
           "bound, epsilon, size=size, rng=rng)",
           "the noisy sum of a sum / count mean gets the whole eps, not eps minus the count's share"),
)
