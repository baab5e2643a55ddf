"""The mutation run (``python -m dplab mutants``, ``make mutants``): plausible bugs, and proof that
the checks which claim to catch them do.

A mutant is one exact text edit of one file of the repository (:class:`Mutant`): a missing factor,
a wrong noise scale, a sign, a dropped coupling, the wrong neighbour relation, an off-by-one. Each
lesson lists its mutants in ``dplab/lab/lessons/lNN_*/mutants.py`` (``MUTANTS``). A check names the
mutants it is there to catch: a report row by ``catches="<id>[, <id>]: <the bug>"``, a unit test by
``@pytest.mark.catches("<id>", ...)``, a notebook's assert cell by its first line ``# catches: <id>, ...``.

For every mutant the run copies ``dplab/`` and ``tests/`` into a temporary folder, applies the
edit there, and runs the checks that name it: the report rows of the lessons whose rows name it
(a row that fails, or cannot be computed, kills it) and the unit tests marked with it
(``pytest --mutant=<id>``), and the notebook cells whose first line is ``# catches: <id>[, <id>]``
(the notebook executed in the copy up to its last such cell: a naming cell that raises, or any earlier
cell that raises, kills it). It fails when a mutant survives, when a mutant's old text is not
found exactly once, when a mutant names no check, or when a report row names an unknown mutant
or kills none of those it names. Nothing it finds is written to a file.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path

from dplab.lab.paths import repo_root
from dplab.lab.report import Mutant, evaluate_rows

__all__ = ["Mutant", "MutantResult", "all_mutants", "applicable", "catches_ids", "cell_catches",
           "cell_killers", "run_mutants"]

#: ``catches="id1, id2: the bug"`` in a lesson's report.py (read without running it)
_ROW_CATCHES = re.compile(r"catches\s*=\s*f?\"([^\"]*)\"")


@dataclass
class MutantResult:
    mutant: Mutant
    killers: list[str] = field(default_factory=list)
    survivors: list[str] = field(default_factory=list)  # the named checks that passed
    problem: str | None = None  # inapplicable, names no check, the run itself broke
    seconds: float = 0.0

    @property
    def killed(self) -> bool:
        return self.problem is None and bool(self.killers)


def catches_ids(text: str) -> list[str]:
    """The mutant ids of a ``catches`` declaration: ``"a.b, c.d: the bug"`` -> ["a.b", "c.d"]."""
    head = text.split(":", 1)[0]
    return [part.strip() for part in head.split(",") if part.strip()]


def all_mutants() -> tuple[Mutant, ...]:
    """Every lesson's ``MUTANTS`` in teaching order (dplab.lab.registry.lesson_mutants); ids are unique."""
    from dplab.lab.registry import lesson_mutants

    out = [m for mutants in lesson_mutants().values() for m in mutants] + list(LAB_MUTANTS)
    seen: set[str] = set()
    for m in out:
        if m.id in seen:
            raise ValueError(f"mutant id {m.id!r} is declared twice")
        seen.add(m.id)
    return tuple(out)


_EXERCISES = "dplab/lab/exercises.py"
_COURSE = "dplab/lab/course.py"
_IMPLEMENT = "dplab/lab/implement.py"
_MWEM = "dplab/query_release/mwem.py"
_WORKLOAD = "dplab/query_release/workload.py"
_QR_BASELINES = "dplab/query_release/baselines.py"
_DQ = "dplab/query_release/dual_query.py"
_BR = "dplab/query_release/best_response.py"
_BIN = "dplab/query_release/binary_data.py"
_PLD = "dplab/_pld.py"
_SGAUSS = "dplab/mechanisms/subsampled_gaussian.py"
_LEARNING_ACCOUNTING = "dplab/learning/accounting.py"
_LOGISTIC = "dplab/learning/logistic.py"
_DPSGD = "dplab/learning/dpsgd.py"
_PERTURBATION = "dplab/learning/perturbation.py"
_MEMBERSHIP = "dplab/learning/membership.py"
#: slips in the lab's own machinery (the exercise checker, tests/lab/test_exercises.py; the harness of
#: the "implement it" exercises, tests/lab/test_implement.py; the course commands, tests/lab/test_course.py)
LAB_MUTANTS = (
    Mutant("exercises.bool_as_number", _EXERCISES, "    if isinstance(value, (bool, np.bool_)):\n",
           "    if isinstance(value, bool):\n", "numpy's True taken as the number 1"),
    Mutant("exercises.nan_accepted", _EXERCISES, "    if not math.isfinite(number):\n",
           "    if number is None:\n", "NaN and inf judged as wrong numbers instead of malformed answers"),
    Mutant("exercises.long_sequence_first", _EXERCISES, "        if size != 1:\n", "        if size < 1:\n",
           "a list of several values judged by its first"),
    Mutant("exercises.no_rounded_key", _EXERCISES,
           "            or math.isclose(given, round_sig(expected, figures), rel_tol=1e-9, abs_tol=1e-15))",
           "            or False)", "the key rounded to two significant figures rejected"),
    Mutant("exercises.mistakes_ignored", _EXERCISES, "        for mistake in self.mistakes:\n",
           "        for mistake in ():\n", "every wrong answer gets the generic hint"),
    Mutant("exercises.no_close_feedback", _EXERCISES, "CLOSE = 0.05\n", "CLOSE = 0.0\n",
           "an answer rounded down (0.37 for 0.375) told a hint about the concept"),
    Mutant("exercises.percent_as_wrong", _EXERCISES, "        if 0 < key <= 1 and _matches(number / 100,",
           "        if key > 1 and _matches(number / 100,",
           "a share given as a percentage told a hint about the concept"),
    Mutant("exercises.student_error_raises", _EXERCISES,
           "            except Exception as error:  # noqa: BLE001",
           "            except ValueError as error:  # noqa: BLE001",
           "an exception inside a student's function stops the answer loop"),
    # the course commands (assignment, grade), caught by tests/lab/test_course.py
    Mutant("course.solution_cells_kept", _COURSE,
           '        if "solution" in cell.get("metadata", {}).get("tags", []):',
           '        if "solution" in ():', "cells tagged solution handed to the students"),
    Mutant("course.outputs_kept", _COURSE, '            cell["outputs"] = []\n',
           '            cell["outputs"] = cell["outputs"]\n', "stored outputs (printed answers) left in"),
    Mutant("course.answers_kept", _COURSE, '            if source.lstrip().startswith("answers = {"):',
           "            if False:", "the answer cell handed out with the teacher's answers"),
    Mutant("course.stub_none_dropped", _COURSE,
           '    if not any(re.match(rf"{name}\\s*=\\s*None\\b", line) for line in lines):', "    if False:",
           "an implement-it cell handed out without its line fn = None"),
    Mutant("course.stub_body_kept", _COURSE, "            if body and not (len(body) == 1",
           "            if False and not (len(body) == 1",
           "an implement-it cell handed out with its function"),
    Mutant("course.missing_dropped", _COURSE,
           '    for exercise_id in (i for i in exercises if i.startswith(number + ".")):',
           '    for exercise_id in (i for i in recorded if i.startswith(number + ".")):',
           "exercises never checked left out of grades.csv"),
    Mutant("course.cwd_not_the_notebooks", _COURSE,
           'resources={"metadata": {"path": str(path.parent.resolve())}}',
           'resources={"metadata": {"path": "."}}', "a notebook run outside its own folder"),
    Mutant("course.errors_stop_the_run", _COURSE, "allow_errors=True", "allow_errors=False",
           "the first cell that raises ends the run: every answer is lost"),
    Mutant("course.timeout_stops_the_run", _COURSE, "interrupt_on_timeout=True", "interrupt_on_timeout=False",
           "the first cell over the time limit ends the run: every answer is lost"),
    Mutant("course.error_not_reported", _COURSE, 'f"the notebook could not run: {problem}"',
           '"the notebook could not run"', "a notebook that cannot run graded without its error"),
    Mutant("implement.student_error_unnamed", _IMPLEMENT,
           "    except Exception as error:  # noqa: BLE001 - a student's code is reported, never propagated",
           "    except ZeroDivisionError as error:  # noqa: BLE001",
           "an exception inside a student's function reported without the call that raised it"),
    Mutant("implement.refusal_unchecked", _IMPLEMENT,
           '            raise Wrong(f"fn({shown}) returned {_show(out)}: it must raise ValueError',
           '            continue\n'
           '            raise Wrong(f"fn({shown}) returned {_show(out)}: it must raise ValueError',
           "a function that accepts epsilon <= 0 passes"),
    Mutant("implement.rng_unchecked", _IMPLEMENT, "        if not np.array_equal(a, b):\n",
           "        if False:\n",
           "noise from numpy's global generator (not the rng given) passes the rng check"),
    Mutant("implement.rng_one_call", _IMPLEMENT, "RNG_CHECK_CALLS = 10\n", "RNG_CHECK_CALLS = 1\n",
           "the rng check compares one release a Generator: a discrete choice repeats by chance"),
    Mutant("implement.no_shape_check", _IMPLEMENT, "    if shape < alpha:\n", "    if False:\n",
           "Gaussian noise for Laplace told only that the law differs, not that the shape does"),
    Mutant("implement.no_scale_check", _IMPLEMENT,
           "    if not mean_ci((x - mean) ** 2, confidence).contains(sd ** 2):", "    if False:",
           "a wrong noise scale told only that the law differs, not its standard deviation"),
    Mutant("implement.mistakes_unnamed", _IMPLEMENT, "    for law, mistake in mistakes:\n",
           "    for law, mistake in ():\n",
           "a discrete law that fits an anticipated mistake gets the generic hint"),
    Mutant("implement.audit_ignored", _IMPLEMENT, "    if result.epsilon_lower > epsilon:\n",
           "    if False:\n", "releases an audit proves not epsilon-DP pass the privacy check"),
    Mutant("implement.too_many_releases", _IMPLEMENT, "    if n > MAX_RELEASES:\n",
           "    if n > 10 * MAX_RELEASES:\n",
           "a check that draws more than 20,000 releases (over 10 s on a slow function)"),
    # the query-release library (notebook 11), caught by tests/query_release/
    Mutant("qr.mw_sign", _MWEM, 'np.exp(row * (measurement - np.einsum("i,i->", row, a))',
           'np.exp(row * (np.einsum("i,i->", row, a) - measurement)',
           "the multiplicative-weights update moves the synthetic data away from the measurement"),
    Mutant("qr.mw_scale", _MWEM, 'row, a)) / (2 * n))', 'row, a)) / n)',
           "the update's learning rate 1/(2n) of HLM12 doubled"),
    Mutant("qr.average_iterate", _MWEM, "    return iterates_sum / rounds\n", "    return last\n",
           "the last iterate released where Theorem 2.2 is about the average"),
    Mutant("qr.round_epsilon", _MWEM,
           'return check_epsilon(epsilon) / (2 * check_positive_int(rounds, "rounds"))',
           'return check_epsilon(epsilon) / check_positive_int(rounds, "rounds")',
           "eps/T for each step instead of eps/(2T): 2 eps spent over the 2T steps"),
    Mutant("qr.laplace_sensitivity", _MWEM, "Laplace(1.0, step)", "Laplace(2.0, step)",
           "the measurement's noise at sensitivity 2 (a histogram's under replace-one) for a count"),
    Mutant("qr.score_abs", _MWEM, "scores = np.abs(q.answers(a) - truth)", "scores = q.answers(a) - truth",
           "the selection scores the signed error: queries the synthetic data undercounts are never picked"),
    Mutant("qr.bound_constant", _MWEM, "2 * n * np.sqrt(log_x / t)", "n * np.sqrt(log_x / t)",
           "Theorem 2.2's regret term 2n sqrt(ln|X|/T) without its 2"),
    Mutant("qr.optimal_rounds_power", _MWEM, "(10 * log_q)) ** (2 / 3)", "(10 * log_q)) ** (1 / 2)",
           "T* solved with the wrong power: T^(3/2) = n eps sqrt(ln|X|)/(10 ln|Q|) inverted wrongly"),
    Mutant("qr.conjunction_bit_order", _WORKLOAD, "ones = sum(1 << (b - 1 - a) for a, v in",
           "ones = sum(1 << a for a, v in",
           "a marginal read on the wrong axis: attribute 0 taken as the lowest bit of the index"),
    Mutant("qr.row_bit_order", _WORKLOAD, "mask &= ((index >> (b - 1 - a)) & 1) == v",
           "mask &= ((index >> a) & 1) == v", "a query's row over X built on the wrong axes"),
    Mutant("qr.range_prefix", _WORKLOAD, "out[rows] = prefix[high] - prefix[low]",
           "out[rows] = prefix[high - 1] - prefix[low]", "a range [low, high) counted without its last bin"),
    Mutant("qr.yrbss_bit_order", _WORKLOAD, "(values[:, None] >> np.arange(width - 1, -1, -1)) & 1",
           "(values[:, None] >> np.arange(width)) & 1",
           "the height and weight bins coded least significant bit first"),
    Mutant("qr.harmonic_number", _QR_BASELINES, "special.digamma(ks + 1.0) + np.euler_gamma",
           "np.log(ks + 1.0)", "E[max of k Laplace errors] with ln(k + 1) for the harmonic number H_k"),
    Mutant("qr.simplex_threshold", _QR_BASELINES, "np.take_along_axis(cumulative, rho - 1, axis=-1) / rho",
           "np.take_along_axis(cumulative, rho - 1, axis=-1) / (rho + 1)",
           "the projection's threshold divided by one entry too many: the total is not n"),
    Mutant("qr.histogram_sensitivity", _QR_BASELINES, 'project: bool = True, neighbours: str = "replace"',
           'project: bool = True, neighbours: str = "add_remove"',
           "the noisy histogram at sensitivity 1 although its projection makes n public (replace-one: 2)"),
    Mutant("qr.laplace_bound_union", _QR_BASELINES, "b * np.log(ks / beta)", "b * np.log(1 / beta)",
           "Laplace on every answer's max-error bound without the union bound over the k answers"),
    # DualQuery (dplab/query_release/dual_query.py, best_response.py, binary_data.py), caught by
    # tests/query_release/test_dualq_*.py
    Mutant("qr.dq_mw_sign", _DQ, "    return rounds_done * signed_truth - synthetic_sum\n",
           "    return synthetic_sum - rounds_done * signed_truth\n",
           "MW moves weight to the queries the records over-count"),
    Mutant("qr.dq_eps_rounds", _DQ, "    eps0 = 2 * eta * (t - 1) / n\n    k = s * (t - 1)\n",
           "    eps0 = 2 * eta * t / n\n    k = s * (t - 1)\n",
           "the privacy formula's eps_0 from T rounds, not the T - 1 that sample from the data"),
    Mutant("qr.dq_pure_epsilon", _DQ, "    return eta * s * t * (t - 1) / n\n",
           "    return eta * s * t * t / n\n",
           "the pure eps summed with T for T - 1"),
    Mutant("qr.dq_round_epsilon", _DQ,
           "epsilon=2 * eta * (t - 1) / n)\n", "epsilon=eta * (t - 1) / n)\n",
           "a round's exponential mechanism at half its eps: draws from exp(eta u / 2)"),
    Mutant("qr.dq_rounds_ceil", _DQ, "    m = max(low, int(math.floor(root)))\n",
           "    m = max(low, int(math.ceil(root)))\n",
           "T rounded up from the real root: more than the target"),
    Mutant("qr.dq_default_enumerates", _DQ, '    best_response: str = "milp",\n',
           '    best_response: str = "enumerate",\n', "the default best response enumerates X"),
    Mutant("qr.dq_pld_grid", _DQ, "PLDAccountant(step=2 * eta / n)", "PLDAccountant()",
           "DualQuery's PLD on the generic 1e-4 grid: every eps_t rounded up, above the zCDP bound"),
    Mutant("qr.dq_milp_negation", _BR, "        if i < k:  # y_j <= x_a", "        if True:  # y_j <= x_a",
           "a negated conjunction given the conjunction's inequality in the integer program"),
    Mutant("qr.dq_records_check", _BR, "    bad = np.flatnonzero((x != 0) & (x != 1))\n",
           "    bad = np.flatnonzero(x > 1)\n", "records with negative entries accepted"),
    Mutant("qr.dq_block_design", _BIN, "            given_zero = flip ** ones * (1 - flip) ** zeros\n",
           "            given_zero = (1 - flip) ** ones * flip ** zeros\n",
           "the block design's answer given Z = 0 with the flip's roles swapped"),
    # the subsampled Gaussian and DP-SGD's accounting (issue 32), caught by
    # tests/mechanisms/test_subsampled_gaussian.py and tests/learning/test_dpsgd_accounting.py
    Mutant("acct.sgauss_one_direction", _SGAUSS,
           "    pld_directions: ClassVar[tuple[str, ...]] = DIRECTIONS\n",
           '    pld_directions: ClassVar[tuple[str, ...]] = ("remove",)\n',
           "the PLD accountant composes only the remove order of the subsampled pair (add is the larger)"),
    Mutant("acct.sgauss_ctd_rounds_down", _PLD, "    if not pessimistic:\n        pmf[:-1] = p_mass",
           "    if True:\n        pmf[:-1] = p_mass",
           "the pessimistic PLD rounds each interval's mass down to its lower loss (below the truth)"),
    Mutant("acct.sgauss_ctd_split_linearised", _PLD,
           "upper = np.clip((p_mass - q_scaled) / -math.expm1(-step), 0.0, p_mass)",
           "upper = np.clip((p_mass - q_scaled) / step, 0.0, p_mass)",
           "connect the dots splits with 1 - e^-step taken as step: the second distribution's mass not kept"),
    Mutant("acct.window_single_step_range", _PLD,
           "        low, high, tail_low, tail_high = chernoff_window(self.pmf, k, TAIL)\n",
           "        mean_index = k * float(np.dot(self.pmf, np.arange(n))) / float(self.pmf.sum())\n"
           "        half = (n - 1) * math.sqrt(k * math.log(1 / TAIL) / 2)\n"
           "        low = max(0, math.floor(mean_index - half))\n"
           "        high = min(full - 1, math.ceil(mean_index + half))\n"
           "        tail_low = tail_high = TAIL\n",
           "composition's window from Hoeffding over one step's range: 10^4 steps at step 1e-4 refused"),
    Mutant("acct.chernoff_tail_dropped", _PLD, "            return (k * cgf(sign * lam) - log_tail) / lam",
           "            return (k * cgf(sign * lam)) / lam",
           "the Chernoff window cut where the bound is 1, not the tail: mass it does not report is lost"),
    Mutant("acct.rdp_conversion_no_log_alpha", "dplab/accounting/rdp.py",
           "        return np.log1p(-1 / a) - np.log(a) / (a - 1)", "        return np.log1p(-1 / a)",
           "RDP's conversion without the - ln(alpha) / (alpha - 1) of Canonne, Kamath & Steinke"),
    Mutant("acct.sgauss_rdp_unsigned_series", _SGAUSS, "    return first, second, special.gammasgn(j + 1)",
           "    return first, second, np.ones_like(j)",
           "the fractional-order series summed by the sizes of its terms (7% above the truth at alpha 1.1)"),
    Mutant("acct.sgauss_rdp_exponent_sign", _SGAUSS,
           "+ (a - i) * math.log1p(-q) + (i * i - i) / (2 * sigma**2))",
           "+ (a - i) * math.log1p(-q) + (i * i + i) / (2 * sigma**2))",
           "the binomial expansion's e^((i^2 - i)/(2 sigma^2)) as e^((i^2 + i)/(2 sigma^2))"),
    Mutant("acct.sgauss_q1_rdp_double", _SGAUSS, "        return as_result(orders / (2 * sigma**2))",
           "        return as_result(orders / sigma**2)",
           "the Gaussian's Renyi curve at q = 1 without its 1/2"),
    Mutant("acct.sgauss_remove_crossing_sign", _SGAUSS,
           "            y = s**2 * (_log_excess(-epsilon, log_1q) - log_q) + 0.5",
           "            y = s**2 * (_log_excess(epsilon, log_1q) - log_q) + 0.5",
           "the remove order's crossing point found for loss +eps instead of -eps"),
    Mutant("acct.sgauss_sampler_complement", _SGAUSS,
           "joined = rng.random(shape + x.shape) < self.sampling_rate",
           "joined = rng.random(shape + x.shape) > self.sampling_rate",
           "rows join the sample with probability 1 - q"),
    Mutant("acct.sgauss_rate_unchecked", _SGAUSS,
           'check_probability(self.sampling_rate, "sampling_rate"))',
           'float(self.sampling_rate))',
           "a sampling rate of 0 or above 1 accepted"),
    Mutant("learning.calibration_not_private_side", _LEARNING_ACCOUNTING,
           "    while eps_of(sigma) > epsilon:", "    while False:",
           "the noise multiplier is Brent's root, on either side of the target"),
    Mutant("learning.rdp_selects_pld", _LEARNING_ACCOUNTING,
           '{"pld": PLDAccountant, "rdp": RDPAccountant}', '{"pld": PLDAccountant, "rdp": PLDAccountant}',
           'accountant="rdp" accounts by PLD'),
    Mutant("learning.dpsgd_unchecked", _LEARNING_ACCOUNTING,
           '    steps = check_positive_int(steps, "steps")\n'
           "    delta = check_delta(delta, allow_zero=False)\n    return _accountant(accountant)",
           "    return _accountant(accountant)",
           "dpsgd_epsilon passes steps and delta on unchecked: delta = 0 gives inf, steps = 0 is named k"),
    # the learner of notebook 12 (dplab/learning/: logistic.py, dpsgd.py, perturbation.py, membership.py),
    # caught by tests/learning/
    Mutant("learning.task_labels_female", _LOGISTIC, '(table["sex"][order] == "M")',
           '(table["sex"][order] == "F")', "the task's label 1 given to the girls"),
    Mutant("learning.gradient_sign", _LOGISTIC, "    return (special.expit(X @ w) - y)[:, None] * X",
           "    return (y - special.expit(X @ w))[:, None] * X", "the per-example gradient's sign flipped"),
    Mutant("learning.fit_gradient_no_mean", _LOGISTIC,
           "        return X.T @ (special.expit(X @ w) - y) / n + l2 * w + linear",
           "        return X.T @ (special.expit(X @ w) - y) + l2 * w + linear",
           "the fit's gradient summed where the objective averages"),
    Mutant("learning.clip_by_batch_norm", _DPSGD, '    norms = np.sqrt(np.einsum("ij,ij->i", g, g))',
           "    norms = np.full(len(g), np.linalg.norm(g))", "every gradient clipped by the batch's norm"),
    Mutant("learning.noise_on_mean", _DPSGD, "    return mean + (sigma * clip / size) * z",
           "    return mean + (sigma * clip) * z", "noise of sd sigma C added to the mean, not to the sum"),
    Mutant("learning.fixed_batch", _DPSGD, "    return positions[positions < n]\n",
           "    return np.sort(rng.permutation(n)[: round(q * n)])\n",
           "a fixed batch of q n examples instead of Poisson subsampling"),
    Mutant("learning.poisson_skip_off_by_one", _DPSGD,
           "    positions = np.cumsum(rng.geometric(q, size=block)) - 1\n",
           "    positions = np.cumsum(rng.geometric(q, size=block))\n",
           "skip sampling's first position at G, not G - 1: the first example never sampled"),
    Mutant("learning.divide_by_batch_size", _DPSGD, "_noisy_gradient(g, clip, sigma, q * X.shape[0], rng)",
           "_noisy_gradient(g, clip, sigma, max(len(batch), 1), rng)",
           "the noised sum divided by the batch's own size, not the expected q n"),
    Mutant("learning.noise_norm_exponential", _PERTURBATION,
           "    radius = rng.gamma(dim, 1.0 / beta, size=count)",
           "    radius = rng.gamma(1.0, 1.0 / beta, size=count)",
           "the noise's norm drawn Exponential(beta), not Gamma(d, 1/beta)"),
    Mutant("learning.output_beta_no_half", _PERTURBATION,
           '    return n * check_positive(l2, "l2") * check_epsilon(epsilon) / 2\n',
           '    return n * check_positive(l2, "l2") * check_epsilon(epsilon)\n',
           "output perturbation's beta = n Lambda eps (the argmin's sensitivity taken as 1/(n Lambda))"),
    Mutant("learning.objective_no_extra_regulariser", _PERTURBATION,
           "_minimise(X, y, float(l2) + extra, b / n)", "_minimise(X, y, float(l2), b / n)",
           "objective perturbation without its extra regulariser Delta ||w||^2 / 2"),
    Mutant("learning.objective_delta_dropped", _PERTURBATION,
           "    return epsilon / 2, c / (n * math.expm1(epsilon / 4)) - lam",
           "    return epsilon / 2, 0.0", "objective perturbation's Delta set to 0 when n Lambda is small"),
    Mutant("learning.roc_sides_swapped", _MEMBERSHIP,
           "    return likelihood_ratio_roc(membership_scores(model, X_nonmembers, y_nonmembers),",
           "    return likelihood_ratio_roc(membership_scores(model, X_members, y_members),",
           "the attack's ROC with the members' scores on the non-members' side too"),
    Mutant("learning.canary_not_flipped", _MEMBERSHIP, "    flipped = 1.0 - y\n", "    flipped = y\n",
           "the canary keeps its label: the row the model already fits best"),
    Mutant("learning.audit_target_missing", _MEMBERSHIP,
           "    with_target = (np.vstack([X, target_x]), np.append(y, target_y))",
           "    with_target = (X, y)", "the audit's D' without the target row"),
)


def applicable(mutant: Mutant, root: Path) -> str | None:
    """None when ``mutant.old`` occurs exactly once in its file under ``root``; else why not."""
    path = root / mutant.path
    if not path.exists():
        return f"{mutant.path} does not exist"
    count = path.read_text(encoding="utf-8").count(mutant.old)
    return None if count == 1 else f"its old text occurs {count} times in {mutant.path}"


def row_killers(root: Path) -> dict[str, set[str]]:
    """mutant id -> the lesson names whose report.py declares a row catching it (a static read)."""
    out: dict[str, set[str]] = {}
    for report in sorted((root / "dplab" / "lab" / "lessons").glob("l*/report.py")):
        for text in _ROW_CATCHES.findall(report.read_text(encoding="utf-8")):
            for mid in catches_ids(text):
                out.setdefault(mid, set()).add(report.parent.name)
    return out


def test_killers(root: Path) -> dict[str, set[str]]:
    """mutant id -> the test files (relative to root) with ``pytest.mark.catches`` naming it."""
    out: dict[str, set[str]] = {}
    marker = re.compile(r"mark\.catches\(([^)]*)\)")
    for path in sorted((root / "tests").rglob("test_*.py")):
        for args in marker.findall(path.read_text(encoding="utf-8")):
            for mid in re.findall(r"[\"']([^\"']+)[\"']", args):
                out.setdefault(mid, set()).add(str(path.relative_to(root)))
    return out


def cell_catches(source: str) -> list[str]:
    """The mutant ids a notebook cell names on its first line, ``# catches: <id>[, <id>]`` ([] if none)."""
    first = source.lstrip().split("\n", 1)[0].strip()
    if not first.startswith("# catches:"):
        return []
    return [part.strip() for part in first[len("# catches:"):].split(",") if part.strip()]


def cell_killers(root: Path) -> dict[str, set[str]]:
    """mutant id -> the notebooks (file names) with a code cell whose first line names it."""
    out: dict[str, set[str]] = {}
    for path in sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                for mid in cell_catches("".join(cell["source"])):
                    out.setdefault(mid, set()).add(path.name)
    return out


def _copy_tree(root: Path, target: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
    for part in ("dplab", "tests"):
        shutil.copytree(root / part, target / part, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(root / name, target / name)
    shutil.copytree(root / "notebooks", target / "notebooks",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))


def _rows_verdicts(lessons: Sequence[str], mutant_id: str) -> dict[str, bool]:
    """In a child process: the rows of ``lessons`` that name ``mutant_id`` -> passed. The rows are
    evaluated at the whole report's Bonferroni level or wider (never narrower: a row that fails
    here fails in the report too)."""
    rows = []
    for name in lessons:
        rows += import_module(f"dplab.lab.lessons.{name}.report").report_rows()
    mine = [r for r in rows if mutant_id in catches_ids(getattr(r, "catches", None) or "")]
    # pad the family to REPORT_FAMILY statistical rows: the level of a report that large
    padding = max(0, REPORT_FAMILY - sum(r.statistical for r in mine))
    evaluate_rows(mine, family_size=sum(r.statistical for r in mine) + padding)
    return {r.id: bool(r.passed) for r in mine}


#: every child computes on one thread: two workers whose OpenBLAS each spins a thread per core fight over
#: the two cores (measured: two lesson-7 mutants side by side took 224 s each, 20 s with these)
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}

#: the size of the Bonferroni family the mutation run evaluates rows in (at least the report's)
REPORT_FAMILY = 400


def _cells_verdicts(notebooks: Sequence[str], mutant_id: str) -> dict[str, bool]:
    """In a child process (cwd: the copy): each notebook run in a kernel up to its last cell naming
    ``mutant_id``; "cell <nb>:<index>" -> passed for the naming cells (an earlier cell that raises
    fails them all: the notebook cannot reach its checks)."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    verdicts: dict[str, bool] = {}
    for name in notebooks:
        nb = nbformat.read(Path("notebooks") / name, as_version=4)
        naming = [i for i, c in enumerate(nb.cells)
                  if c.cell_type == "code" and mutant_id in cell_catches(c.source)]
        nb.cells = nb.cells[:naming[-1] + 1]
        client = NotebookClient(nb, timeout=600, kernel_name="python3",
                                resources={"metadata": {"path": "notebooks"}})
        with client.setup_kernel():
            for i, cell in enumerate(nb.cells):
                if cell.cell_type != "code":
                    continue
                try:
                    client.execute_cell(cell, i)
                except CellExecutionError:
                    for j in (k for k in naming if k >= i):
                        verdicts[f"cell {name}:{j}"] = False
                    break
                if i in naming:
                    verdicts[f"cell {name}:{i}"] = True
    return verdicts


def _child(argv: list[str]) -> int:
    """``python -m dplab.lab.mutants rows|cells <id> <lesson or notebook>...``: print the verdicts
    as JSON."""
    import matplotlib

    matplotlib.use("Agg")
    kind, mutant_id, names = argv[0], argv[1], argv[2:]
    try:
        verdicts = (_rows_verdicts if kind == "rows" else _cells_verdicts)(names, mutant_id)
    except Exception as error:  # a mutant that breaks a row's computation is caught by it
        verdicts = {"error": f"{type(error).__name__}: {error}"}
    print("VERDICTS " + json.dumps(verdicts))
    return 0


def _verdicts(kind: str, mutant: Mutant, names: set[str], target: Path, env: dict, result: MutantResult
              ) -> None:
    """Run a child for ``kind`` ("rows" of lessons, "cells" of notebooks) and file its verdicts."""
    out = subprocess.run([sys.executable, "-m", "dplab.lab.mutants", kind, mutant.id, *sorted(names)],
                         cwd=target, env=env, capture_output=True, text=True)
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("VERDICTS ")), None)
    if line is None:
        result.killers.append(f"{kind} of {', '.join(sorted(names))}: crashed "
                              f"({out.stderr.strip().splitlines()[-1:] or ['no output']})")
        return
    for check, passed in json.loads(line[9:]).items():
        label = {"rows": "row", "cells": ""}[kind]
        (result.survivors if passed is True else result.killers).append(
            f"{label} {check}".strip() if check != "error" else f"{kind}: {passed}")


def _run_one(mutant: Mutant, root: Path, rows: dict[str, set[str]], tests: dict[str, set[str]],
             cells: dict[str, set[str]] | None = None) -> MutantResult:
    start = time.perf_counter()
    result = MutantResult(mutant)
    cells = cells or {}
    problem = applicable(mutant, root)
    if problem is None and mutant.id not in rows and mutant.id not in tests:
        problem = "no report row or unit test names it"
    if problem is not None:
        result.problem = problem
        return result
    with tempfile.TemporaryDirectory(prefix=f"dplab-mutant-{mutant.id}-") as tmp:
        target = Path(tmp)
        _copy_tree(root, target)
        path = target / mutant.path
        path.write_text(path.read_text(encoding="utf-8").replace(mutant.old, mutant.new), encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": str(target), "DPLAB_PROGRESS": "0", "DPLAB_PROJECTOR": "0",
               "MPLBACKEND": "Agg", **ONE_THREAD}
        if mutant.id in rows:
            _verdicts("rows", mutant, rows[mutant.id], target, env, result)
        if mutant.id in cells:
            _verdicts("cells", mutant, cells[mutant.id], target, env, result)
        if mutant.id in tests:
            out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
                                  f"--mutant={mutant.id}", *sorted(tests[mutant.id])], cwd=target, env=env,
                                 capture_output=True, text=True)
            label = f"tests in {', '.join(sorted(tests[mutant.id]))}"
            if out.returncode == 5:
                result.survivors.append(f"{label}: none selected")
            else:
                (result.killers if out.returncode != 0 else result.survivors).append(label)
    result.seconds = time.perf_counter() - start
    return result


def run_mutants(only: Iterable[str] | None = None, notebook: str | None = None, jobs: int = 2,
                root: Path | None = None, echo=print, notebooks: bool = True) -> int:
    """Run the mutants (all, the ids in ``only``, or those of one notebook's lesson, by number) on
    ``jobs`` workers, with the notebook cells that name them unless ``notebooks`` is False; print one
    line per mutant and a summary. Returns the exit status: 1 when a mutant survives or cannot run,
    or when a row or a cell names a mutant no lesson declares."""
    root = root or repo_root()
    mutants = all_mutants()
    known = {m.id for m in mutants}
    if only:
        wanted = set(only)
        if unknown := wanted - known:
            raise ValueError(f"only names unknown mutants: {sorted(unknown)}")
        mutants = tuple(m for m in mutants if m.id in wanted)
    if notebook is not None:
        from dplab.lab.registry import lesson_mutants, lesson_names

        lesson = next((n for n in lesson_names() if n[1:3] == f"{int(notebook):02d}"), None)
        if lesson is None:
            raise ValueError(f"notebook must be the number of a lesson, got notebook={notebook!r}")
        own = {m.id for m in lesson_mutants().get(lesson[1:3], ())}
        mutants = tuple(m for m in mutants if m.id in own)
    rows, tests = row_killers(root), test_killers(root)
    cells = cell_killers(root) if notebooks else {}
    status = 0
    if stray := sorted((set(rows) | set(tests) | set(cell_killers(root))) - known):
        echo(f"UNKNOWN: checks name mutants no lesson declares: {', '.join(stray)}")
        status = 1
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda m: _run_one(m, root, rows, tests, cells), mutants))
    for r in results:
        if r.problem:
            echo(f"BROKEN   {r.mutant.id}: {r.problem}")
        elif r.killed:
            echo(f"killed   {r.mutant.id} ({r.seconds:.0f} s) by {'; '.join(r.killers)}")
        else:
            echo(f"SURVIVED {r.mutant.id} ({r.seconds:.0f} s): {r.mutant.bug}; "
                 f"passed: {'; '.join(r.survivors)}")
        if r.killed and r.survivors:
            echo(f"         (named it but passed: {'; '.join(r.survivors)})")
    bad = [r for r in results if not r.killed]
    if not only and notebook is None:  # a row that names mutants must kill one of them
        named = {c for r in results for c in r.killers + r.survivors if c.startswith("row ")}
        killing = {c for r in results for c in r.killers if c.startswith("row ")}
        for row in sorted(named - killing):
            echo(f"POWERLESS {row}: passed under every mutant it names")
            status = 1
    echo(f"{len(results) - len(bad)} of {len(results)} mutants killed in {time.perf_counter() - start:.0f} s "
         f"on {jobs} workers")
    return 1 if bad or status else 0


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1:]))
