"""Lesson 2, BMI and parallel composition: constants, derived sensitivities, report rows, exercises.

Notebook ``notebooks/02_bmi_parallel_composition.ipynb``. [Duke18] (Problem / Algorithm 1 / Algorithm 2 /
Generalized sensitivity / Constrained inference / Transformations & stability) and [Hu] (parallel
composition, contingency tables). No plotting here: the figures and the panel are in ``views.py``.
"""

from __future__ import annotations

import math

import numpy as np

from dplab import bmi
from dplab.accounting import subsampling_epsilon, subsampling_slide_claim_fails_above
from dplab.contingency import contingency_expected_total_error, contingency_squared_errors
from dplab.datasets import load_yrbss
from dplab.lab.report import ReportRow
from dplab.sensitivity import histogram_sensitivity
from dplab.simulate import mean_ci, proportion_ci

NOTEBOOK = "02_bmi_parallel_composition.ipynb"
PREFIX = "02"
SEED = 2027
#: every sensitivity and stability of the notebook, by brute force (the notebook's name for it)
derived_sensitivities = bmi.bmi_derived_sensitivities


def _bisect_crossing(p: float) -> float:
    """The slide's crossing by plain bisection on math only, independent of dplab's brentq:
    g(eps) = ln(1 + p (e^eps - 1)) - 2 p eps is < 0 at eps = 1 and > 0 at eps = 10 (p < 1/2)."""
    lo, hi = 1.0, 10.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if math.log1p(p * math.expm1(mid)) - 2 * p * mid < 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _cone_projection(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least-squares projection of (x, y) onto the cone 0 <= x <= y, by its geometry (not dplab's solver):
    inside, the point itself; outside, the nearer of its projections on the rays (0, 1) and (1, 1)."""
    up, diag = np.maximum(y, 0), np.maximum((x + y) / 2, 0)
    on_up = x**2 + (y - up) ** 2 <= (x - diag) ** 2 + (y - diag) ** 2
    out = np.where(on_up[:, None], np.stack([0 * x, up], axis=1), np.stack([diag, diag], axis=1))
    return np.where(((0 <= x) & (x <= y))[:, None], np.stack([x, y], axis=1), out)


def report_rows(seed: int = SEED) -> list[ReportRow]:
    n = 200_000
    yrbss = load_yrbss()
    truth = bmi.bmi_true_answers(yrbss)

    def total_error(noisy):
        sq = np.sum((noisy - truth) ** 2, axis=1)
        return lambda c: mean_ci(sq, c)

    a1 = total_error(bmi.bmi_algorithm_1(yrbss, 1.0, rng=seed, size=n))
    a2 = total_error(bmi.bmi_algorithm_2(yrbss, 1.0, rng=seed + 1, size=n))
    a2r = total_error(bmi.bmi_algorithm_2(yrbss, 1.0, rng=seed + 2, size=n, neighbours="replace"))
    a1j = total_error(bmi.bmi_algorithm_1(yrbss, 1.0, rng=seed + 3, size=n, accounting="joint"))
    sens, brute = derived_sensitivities(), "brute force, ≤ 3 rows of 4 types"
    slides = bmi.bmi_slides_table()
    c2 = bmi.bmi_cells(slides)[1]
    inf_rows = []
    for alg, eps, order in (
            (1, 1.0, dict(catches="bmi.order_alg1_no_difference_term: one tail for a difference of two")),
            (2, 0.5, dict(catches="bmi.order_alg2_no_half: a one-sided tail without its ½"))):
        r = bmi.bmi_inference_trials(slides, alg, eps, n, seed + 10 + alg)
        viol = int(r["violated"].sum())
        inf_rows += [
            ReportRow(f"02.order_violation_alg{alg}", "Pr[noisy q1 > noisy (q1+q2)]: "
                      + ("½e^(-q2 ε)" if alg == 2 else "½e^(-q2/b)(1 + q2/2b), b = 4/ε"), "Duke18",
                      f"slides table (q2={c2:.0f}), ε={eps}, n={n}",
                      bmi.bmi_order_violation_probability(alg, c2, eps), "=",
                      interval=lambda c, v=viol: proportion_ci(v, n, c),
                      **order),
            ReportRow(f"02.inference_never_worse_alg{alg}",
                      "share of draws with ‖q - q̄‖ ≤ ‖q - q̃‖ (projection on a convex set)", "Duke18",
                      f"slides table, ε={eps}, n={n}", 1.0, "exact",
                      value=float(np.mean(r["after"] <= r["before"] + 1e-9)),
                      catches="inference.negative_multiplier_accepted: a boundary point, not the projection"),
            ReportRow(f"02.projection_closed_form_alg{alg}", "projection on 0 ≤ q1 ≤ q1+q2, 0 ≤ q3 ≤ q3+q4 = "
                      "the nearer ray of each 2-d cone: max |difference| = 0", "Duke18",
                      f"slides table, ε={eps}, every one of n={n} draws", 0.0, "exact", rel_tol=1e-8,
                      value=float(np.max(np.abs(r["projected"] - np.hstack(
                          [_cone_projection(*r["noisy"][:, i:i + 2].T) for i in (0, 2)])))),
                      catches="inference.negative_multiplier_accepted: a boundary point, not the projection"),
        ]
    iso = bmi.tall_counts_isotonic_trials(0.01, 20_000, seed + 20)
    closed = {(1, "p"): 4 * 2 * 4**2, (1, "j"): 4 * 2 * 2**2, (2, "r"): 6 * 2 * 2**2}  # ε = 1, [Duke18]
    tot = bmi.bmi_totals_trials(1.0, n, seed + 25)
    cont = {m: contingency_squared_errors(np.full(6, 100.0), 1.0, m, n, rng=seed + 30)
            for m in ("derived_last", "parallel_replace")}
    holds = all(2 * p * e >= subsampling_epsilon(e, p) for p in (0.01, 0.1, 0.3, 0.5, 0.9)
                for e in np.linspace(0.01, 1.0, 100))
    return [
        ReportRow("02.alg1_total", "Algorithm 1's simulated total error = 4·2(4/ε)² = 128/ε²",
                  "Duke18", f"YRBSS, ε=1, n={n}", closed[1, "p"], "=", interval=a1,
                  catches="bmi.alg1_no_budget_split: Lap(1/ε) per count, the budget not split"),
        ReportRow("02.alg2_total", "Algorithm 2: simulated total error = bmi_expected_total_error, 12/ε² "
                  "(add/remove)", "Duke18", f"YRBSS, ε=1, n={n}", bmi.bmi_expected_total_error(2, 1.0), "=",
                  interval=a2,
                  catches="bmi.alg2_error_one_noise_per_answer: the totals' second cell noise forgotten"),
        ReportRow("02.alg2_total_replace", "Algorithm 2 under replace-one: simulated total error = "
                  "6·2(2/ε)² = 48/ε²", "Duke18", f"YRBSS, ε=1, n={n}", closed[2, "r"], "=", interval=a2r,
                  catches="sensitivity.histogram_replace_1: the cells at Lap(1/ε) under replace-one"),
        ReportRow("02.alg1_joint_total", "Algorithm 1, the 4 answers as one query (Δ₁ = 2): simulated = "
                  "4·2(2/ε)² = 32/ε²", "Duke18", f"YRBSS, ε=1, add/remove, n={n}", closed[1, "j"], "=",
                  interval=a1j,
                  catches="bmi.joint_sensitivity_one_count: the joint sensitivity 1 for 2"),
        ReportRow("02.sensitivity_f1", "S(f1), f1 = (q1, q2), add/remove (slide: 1)", "Duke18", brute, 1,
                  "exact", value=sens["f1 add_remove"],
                  catches="sensitivity.neighbours_swapped: the pairs of the other neighbour relation"),
        ReportRow("02.sensitivity_f2", "S(f2), f2 = (q1, q1+q2), add/remove (slide: 2)", "Duke18", brute, 2,
                  "exact", value=sens["f2 add_remove"], catches="sensitivity.l1_as_linf: L∞ for L1"),
        ReportRow("02.sensitivity_f1_replace", "S(f1) under replace-one", "Duke18", brute, 2, "exact",
                  value=sens["f1 replace"], catches="sensitivity.l1_as_linf, sensitivity.neighbours_swapped: "
                  "L∞ for L1, add/remove pairs for replace-one"),
        ReportRow("02.sensitivity_cells_replace", "histogram of 4 cells under replace-one", "Hu", brute,
                  histogram_sensitivity("replace"), "exact", value=sens["cells replace"],
                  catches="sensitivity.histogram_replace_1, sensitivity.l1_as_linf: 1 for 2"),
        ReportRow("02.stability_bmi", "stability of the BMI map", "Duke18", "brute force, ≤ 3 rows", 1,
                  "exact", value=sens["bmi stability"],
                  catches="sensitivity.neighbours_swapped: the pairs of the other neighbour relation"),
        ReportRow("02.stability_k_words", "stability of tweet → first 3 words", "Duke18",
                  "k=3, brute force, ≤ 3 tweets", 3, "exact", value=sens["3-words stability"],
                  catches="sensitivity.neighbours_swapped: replace-one pairs counted as add/remove"),
        *inf_rows,
        ReportRow("02.inference_total_equals_cells",
                  "q1, q2, total at Lap(3/ε), projected on total = q1 + q2: error 3v → 2v", "Duke18",
                  f"YRBSS males, ε=1, n={n}", bmi.bmi_totals_expected_error(1.0, True), "=",
                  interval=lambda c: mean_ci(tot["after"], c),
                  catches="bmi.totals_no_budget_split: three counts at ε each"),
        ReportRow("02.isotonic_never_worse", "share of draws where the isotonic fit is no worse", "Duke18",
                  "YRBSS # ≥ h, 10 thresholds, ε=0.01, n=20000", 1.0, "exact",
                  value=float(np.mean(iso["after"] <= iso["before"] + 1e-9)),
                  catches="inference.isotonic_direction_ignored: an increasing fit to decreasing counts"),
        ReportRow("02.tall_counts_direct", "10 counts # ≥ h at Lap(10/ε): total error 10·2(10/ε)²", "Duke18",
                  "YRBSS, ε=0.01, n=20000", bmi.tall_counts_expected_error(0.01), "=",
                  interval=lambda c: mean_ci(iso["before"], c),
                  catches="bmi.tall_direct_sensitivity_1: Lap(1/ε), one count's sensitivity"),
        ReportRow("02.contingency_derived_last", "d-1 cells at ε/(d-1), last = n - sum: 4(d-1)³/ε²", "Hu",
                  f"d=6, ε=1, n={n}", contingency_expected_total_error(6, 1.0, "derived_last"), "=",
                  interval=lambda c: mean_ci(cont["derived_last"], c),
                  catches="contingency.derived_cell_one_noise: the derived cell with one noise"),
        ReportRow("02.contingency_parallel", "all d cells at Lap(2/ε) (replace-one): simulated = 8d/ε²",
                  "Hu", f"d=6, ε=1, n={n}", 6 * 2 * 2**2, "=",
                  interval=lambda c: mean_ci(cont["parallel_replace"], c),
                  catches="contingency.parallel_replace_as_add_remove, sensitivity.histogram_replace_1: "
                  "Lap(1/ε)"),
        ReportRow("02.subsampling_small_eps", "2pε ≥ ln(1 + p(e^ε - 1)) for all ε ≤ 1 (1 = holds)", "Duke18",
                  "p ∈ {0.01, 0.1, 0.3, 0.5, 0.9}, 100 ε each", 1.0, "exact", value=float(holds),
                  catches="composition.subsampling_exp_not_expm1: ln(1 + p e^ε)"),
        ReportRow("02.subsampling_crossing",
                  "ε* where ln(1 + p(e^ε - 1)) = 2pε (p = 0.1): brentq vs bisection", "Duke18",
                  "p=0.1, 200 bisection steps in plain Python", _bisect_crossing(0.1), "exact",
                  value=subsampling_slide_claim_fails_above(0.1), rel_tol=1e-9,
                  catches="composition.subsampling_crossing_log10: log₁₀ for ln"),
    ]
