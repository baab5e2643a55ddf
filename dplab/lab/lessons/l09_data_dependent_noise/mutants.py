"""Lesson 9's mutants: plausible slips in DAWA's exact second-stage error and its partition's noise
(``dplab/range_queries/dawa.py``) and in the median's local, smooth and global sensitivity
(``dplab/smooth_sensitivity.py``), each caught by a report row that names it (``make mutants NB=09``)."""

from __future__ import annotations

from dplab.lab.report import Mutant

DAWA = "dplab/range_queries/dawa.py"
SMOOTH = "dplab/smooth_sensitivity.py"
PRIVACY = "dplab/range_queries/dawa_privacy.py"
GREEDY = "dplab/range_queries/greedy_h.py"

MUTANTS = (
    Mutant("dawa.spread_variance_no_2", DAWA,
           "return bias, 2.0 / epsilon2**2 * float(column.sum())",
           "return bias, 1.0 / epsilon2**2 * float(column.sum())",
           "the second stage's noise variance 1/ε₂² per bucket total for 2/ε₂²"),
    Mutant("dawa.cost_noise_sensitivity_1", DAWA,
           "return 4.0 / check_epsilon(epsilon1, \"epsilon1\")",
           "return 2.0 / check_epsilon(epsilon1, \"epsilon1\")",
           "the partition's cost noise Lap(2/ε₁) for Lap(4/ε₁) (the cost's sensitivity 1, not 2)"),
    Mutant("dawa.budgets_swapped", DAWA,
           "return share * epsilon, (1 - share) * epsilon",
           "return (1 - share) * epsilon, share * epsilon",
           "DAWA's budget split the wrong way round: ε₁ = (1 − share) ε for the partition"),
    Mutant("smooth_sensitivity.beta_no_2", SMOOTH,
           "return epsilon / (2 * math.log(2 / delta))", "return epsilon / math.log(2 / delta)",
           "β = ε / ln(2/δ) for ε / (2 ln(2/δ)) (NRS07 Lemma 2.9's 2 dropped)"),
    Mutant("smooth_sensitivity.release_scale_no_2", SMOOTH,
           "scale = 2 * median_smooth_sensitivity(x, low, high, smooth_beta(epsilon, delta)) / epsilon",
           "scale = median_smooth_sensitivity(x, low, high, smooth_beta(epsilon, delta)) / epsilon",
           "the smooth release's Laplace scale S*/ε for 2 S*/ε"),
    Mutant("smooth_sensitivity.dc_off_by_one", SMOOTH,
           "g = (y[j] - y[i]) * np.exp(-beta * (j - i - 1))", "g = (y[j] - y[i]) * np.exp(-beta * (j - i))",
           "S*'s divide and conquer discounts the pair (i, j) by e^-β(j − i), one k too many"),
    Mutant("smooth_sensitivity.dc_decay_2beta", SMOOTH,
           "g = (y[j] - y[i]) * np.exp(-beta * (j - i - 1))",
           "g = (y[j] - y[i]) * np.exp(-2 * beta * (j - i - 1))",
           "S*'s divide and conquer discounts A_k by e^(−2kβ): a 2β-smooth bound, not β-smooth"),
    Mutant("smooth_sensitivity.pad_with_data", SMOOTH,
           "y = np.concatenate([[low], x, [high]])  # x_(0) = low, x_(n+1) = high",
           "y = np.concatenate([[x[0]], x, [x[-1]]])  # x_(0) = low, x_(n+1) = high",
           "S* pads the sorted data with its own extremes, not with lo and hi"),
    Mutant("smooth_sensitivity.local_upper_gap_dropped", SMOOTH,
           "    t = np.arange(k + 2)\n", "    t = np.arange(k + 1)\n",
           "A_k (and LS = A_0) without the last window: the gap above the median x_(m+1) − x_(m) missed"),
    Mutant("smooth_sensitivity.global_half", SMOOTH,
           "    return high - low\n", "    return (high - low) / 2\n",
           "the median's global sensitivity (hi − lo)/2 for hi − lo"),
    Mutant("dawa_privacy.singletons_threshold", PRIVACY,
           "(2**j - 1) * p - cost", "2**j * p - cost",
           "the all-singletons threshold of a length-2^j candidate: 2^j penalties, not 2^j - 1"),
    Mutant("dawa.published_scale_no_2", DAWA,
           "times = 2 * (1 - 1 / lengths) if", "times = (1 - 1 / lengths) if",
           "the published rule's cost noise at the deviation's sensitivity without its 2"),
    Mutant("dawa.dpcomp_scale_no_k", DAWA,
           "else 2 - 1 / lengths - 1 / k", "else 2 - 1 / lengths",
           "dpcomp_core's cost noise without its 1/k term"),
    Mutant("dawa.singleton_noise_dropped", DAWA,
           "if not self.singleton_noise:", "if True:",
           "the lab's presets leave singletons noiseless (their proof needs noise on every candidate)"),
    Mutant("dawa.clamp_ignored", DAWA,
           "return [np.maximum(c, 0.0) for c in noisy] if partition.clamp else noisy", "return noisy",
           "dpcomp_core's preset without its clamp of the noisy costs at 0"),
    Mutant("greedy_h.sherman_morrison_sign", GREEDY,
           "errs = (err_l + err_r - s * quad", "errs = (err_l + err_r + s * quad",
           "GreedyH's rank-one update of the error with the wrong sign"),
    Mutant("greedy_h.subtree_not_scaled", GREEDY,
           "scale[i] *= p", "scale[i] *= 1.0",
           "GreedyH's chosen weight not carried down to the subtree"),
    Mutant("greedy_h.u_not_updated", GREEDY,
           "u / denom, kappa / denom, here", "u, kappa, here",
           "GreedyH's running inverse not renormalised after a node is weighted"),
    Mutant("dawa.bucket_gram_sums", DAWA,
           "return sums / np.outer(length, length)", "return sums",
           "the bucket workload's Gram matrix not averaged over the buckets' lengths (the spread)"),
)
