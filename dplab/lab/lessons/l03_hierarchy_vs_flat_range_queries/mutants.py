"""Lesson 3's mutants: plausible slips in the range-query strategies (sensitivities, Hay et al.'s
consistent estimate, the exact error formulas, p-Identity), each caught by a report row or a unit test
that names it (``make mutants NB=03``)."""

from __future__ import annotations

from dplab.lab.report import Mutant

STRATEGIES = "dplab/range_queries/strategies.py"
THEORY = "dplab/range_queries/theory.py"
OPTIMIZATION = "dplab/range_queries/optimization.py"

MUTANTS = (
    Mutant("strategies.levels_as_height", STRATEGIES,
           "        return float(len(self.level_sizes))",
           "        return float(self.height)",
           "a tree's sensitivity as its height: the measured root (and Privelet's total) not counted"),
    Mutant("strategies.all_ranges_sensitivity_k2_4", STRATEGIES,
           "return float((self.k + 1) ** 2 // 4)",
           "return float(self.k**2 // 4)",
           "all ranges' sensitivity floor(k^2/4), not floor((k+1)^2/4) (bin i lies in i (k - i + 1) ranges)"),
    Mutant("strategies.identity_units_sum_of_squares", STRATEGIES,
           "return k * (k + 1) * (k + 2) / 6",
           "return k * (k + 1) * (2 * k + 1) / 6",
           "identity's error as sum_L L^2 (each length once, weighted by itself), not sum_L L (k - L + 1)"),
    Mutant("strategies.tree_bottom_up_unweighted", STRATEGIES,
           "z[depth] = ((bl - bl1) * levels[depth] + (bl1 - 1) * child_sum) / (bl - 1)",
           "z[depth] = (levels[depth] + child_sum) / 2",
           "Hay et al.'s bottom-up pass averages a node and its children's sum equally, not by their "
           "variances"),
    Mutant("strategies.tree_top_down_sign", STRATEGIES,
           "h = (zc + ((h - zc.sum(axis=-1)) / b)[..., None])",
           "h = (zc - ((h - zc.sum(axis=-1)) / b)[..., None])",
           "the top-down pass shares the parent's disagreement with the wrong sign"),
    Mutant("strategies.node_usage_all_inside", STRATEGIES,
           "usage += int(np.sum(inside - parent))",
           "usage += int(np.sum(inside))",
           "summing nodes: every node inside a range counted, not only the maximal ones"),
    Mutant("strategies.spectral_lambda_levels", STRATEGIES,
           "lam = sum(s for s in measured if s <= t)",
           "lam = sum(1 for s in measured if s <= t)",
           "the eigenvalues of A^T A count the measured levels at or below t, not the sum of their node "
           "sizes"),
    Mutant("strategies.wavelet_total_norm", STRATEGIES,
           "total = all_range_total_error(np.ones(k)) / n**2",
           "total = all_range_total_error(np.ones(k)) / n",
           "Privelet's error: the total's row taken with ||r||^4 = n, not n^2"),
    Mutant("strategies.by_length_mean_over_measurements", STRATEGIES,
           "return range_error_by_length(per_measurement).sum(axis=0)",
           "return range_error_by_length(per_measurement).mean(axis=0)",
           "the error by range length averaged over the measurements, not summed (independent noises add "
           "their variances)"),
    Mutant("theory.crossover_without_inference", THEORY,
           "        if expected_total_error(\"hierarchy\", k, 1.0, b, True, include_root=include_root) < \\",
           "        if expected_total_error(\"hierarchy\", k, 1.0, b, False, include_root=include_root) < \\",
           "the crossover found for the hierarchy's direct answers, not with inference"),
    Mutant("theory.max_range_nodes_top_level", THEORY,
           "return b if height == 1 else 2 * (b - 1) * (height - 1) + (b - 2)",
           "return b if height == 1 else 2 * (b - 1) * height + (b - 2)",
           "the worst range's node count with two runs on the top level too (off by one level)"),
    Mutant("optimization.p_identity_no_d", OPTIMIZATION,
           "return np.vstack([np.eye(theta.shape[1]), theta]) * d",
           "return np.vstack([np.eye(theta.shape[1]), theta])",
           "A(Theta) = [I; Theta] without D: columns of L1 norm 1 + column sum while the sensitivity "
           "is taken as 1"),
    Mutant("optimization.p_identity_x_no_theta", OPTIMIZATION,
           "x = np.eye(k) + theta.T @ theta",
           "x = np.eye(k)",
           "p-Identity's error with (A^T A) = D^-1 (I + Theta^T Theta) D^-1 missing Theta^T Theta: "
           "the extra measurements ignored"),
    Mutant("strategies.root_left_out_silently", "dplab/range_queries/strategies.py",
           "        if include_root is None:\n            raise TypeError(",
           "        if include_root is None:\n            include_root = False\n        if False:\n"
           "            raise TypeError(",
           "a hierarchy built without a word about its root leaves it out (Hay et al.'s H measures it)"),
)
