"""Lesson 12's mutants: slips in dplab.learning and the subsampled Gaussian that notebook 12's report rows and
assert cells name and the library's own tests do not already declare (the rest are in dplab/lab/mutants.py:
learning.* and acct.*), a slip in the lesson's report rows and one in its "implement it" reference
(``make mutants NB=12``)."""

from __future__ import annotations

from dplab.lab.report import Mutant

_LOGISTIC = "dplab/learning/logistic.py"
_DPSGD = "dplab/learning/dpsgd.py"
_SGAUSS = "dplab/mechanisms/subsampled_gaussian.py"
_IMPLEMENT = "dplab/lab/lessons/l12_learning/implement.py"
MUTANTS = (
    Mutant(
        "learning.loss_sign_flipped",
        _LOGISTIC,
        "    return np.logaddexp(0.0, z) - y * z\n",
        "    return np.logaddexp(0.0, z) + y * z\n",
        "the per-example loss ln(1 + e^z) + y z: a member's loss grows as the model fits it",
    ),
    Mutant(
        "learning.noise_sigma_not_sigma_c",
        _DPSGD,
        "    return mean + (sigma * clip / size) * z",
        "    return mean + (sigma / size) * z",
        "DP-SGD's noise sigma on the sum, not sigma C",
    ),
    Mutant(
        "acct.sgauss_loss_direction_swapped",
        _SGAUSS,
        '        return as_result(loss if direction == "add" else -loss)',
        '        return as_result(-loss if direction == "add" else loss)',
        "the subsampled Gaussian's privacy loss of one order given as the other's",
    ),
    Mutant(
        "learning.report_seed_ignored",
        "dplab/lab/lessons/l12_learning/report.py",
        "    g, size = step_batch(seed), STEP_RATE * TRAIN",
        "    g, size = step_batch(), STEP_RATE * TRAIN",
        "the noise mean's theory from the batch of the default seed, whatever report_rows' seed (z = 454)",
    ),
    Mutant(
        "implement.noisy_sum_noise_sigma",
        _IMPLEMENT,
        "    return clipped.sum(axis=0) + noise_multiplier * clip * rng.standard_normal(g.shape[1])",
        "    return clipped.sum(axis=0) + noise_multiplier * rng.standard_normal(g.shape[1])",
        "the reference noisy sum with noise sigma, not sigma C (the check must refuse it)",
    ),
)
