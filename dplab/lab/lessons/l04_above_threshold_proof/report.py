"""Lesson 4, AboveThreshold and the sparse vector technique: the stream, constants and report rows
(no plotting; the figures and the panel are in ``views.py``, the DP quantities in
``dplab.sparse_vector``).

Notebook ``notebooks/04_above_threshold_proof.ipynb``. [Gaboardi17] ("SparseVector", "An example: above
threshold", "Theorem: AboveThreshold is eps-differentially private"); Lyu, Su & Li, PVLDB 2017, for
the variants.
"""

from __future__ import annotations

import math

import numpy as np

from dplab import sparse_vector as sv
from dplab.audit import audit_epsilon
from dplab.datasets import load_yrbss
from dplab.lab.report import ReportRow
from dplab.simulate import Estimate

NOTEBOOK = "04_above_threshold_proof.ipynb"
PREFIX = "04"
SEED = 2029
#: Heights h (m) of the stream's queries "# students at least h tall", tallest first.
STREAM_HEIGHTS_M = np.round(np.arange(2.10, 1.495, -0.02), 2)
THRESHOLD = 1000.0
#: The variants whose every halting output is computed at once (no released values).
CURVE_VARIANTS = ("above_threshold", "lyu_alg1", "dwork_roth", "lee_clifton", "no_halting")
LOSS_K = np.array([1, 2, 3, 4, 5, 10, 20, 50, 100, 200, 500, 1000])
AUDIT_D = np.zeros(6)
AUDIT_D_PRIME = np.array([1.0, 1.0, 1.0, 1.0, 1.0, -1.0])


def height_stream() -> np.ndarray:
    """# YRBSS students at least h tall, for h = 2.10, 2.08, ..., 1.50 m: each query has
    sensitivity 1 under add/remove; the answers grow along the stream."""
    heights = load_yrbss()["height_m"]
    return np.array([np.sum(heights >= h) for h in STREAM_HEIGHTS_M], dtype=float)


def report_rows(seed: int = SEED) -> list[ReportRow]:
    """This lesson's rows of figures/REPORT.md (all computed: exact losses and audit bounds)."""
    eps = 1.0
    curves = sv.halting_loss_curves(CURVE_VARIANTS, eps, int(LOSS_K[-1]))
    lee = audit_epsilon(sv.output_sampler("lee_clifton", 0.7), AUDIT_D, AUDIT_D_PRIME, n_runs=200_000,
                        n_pilot=50_000, rng=seed)

    def at_bound(confidence: float) -> Estimate:
        """AboveThreshold's audit bound as a one-sided interval [bound, inf) at the report's level."""
        at = audit_epsilon(sv.output_sampler("above_threshold", 0.7), AUDIT_D, AUDIT_D_PRIME, n_runs=200_000,
                           n_pilot=50_000, rng=seed, confidence=confidence)
        return Estimate(at.epsilon_lower, at.epsilon_lower, math.inf, confidence)

    proof = sv.above_threshold_proof_grid(0.7)
    tight = np.r_[np.zeros(27, dtype=bool), np.ones(3, dtype=bool)]  # 27 bottoms, then 3 tops
    return [
        ReportRow("04.above_threshold_max_loss", "AboveThreshold: the largest exact loss of halting at a "
                  "query k ≤ 1000, over the worst streams (answers ±15 noise scales from T), is ε: attained",
                  "Gaboardi17", "ε=1, T=0, halting_worst_case_losses", eps, "exact", rel_tol=1e-6,
                  value=float(sv.halting_worst_case_losses("above_threshold", eps, int(LOSS_K[-1])).max()),
                  catches="sparse_vector.query_noise_2, sparse_vector.threshold_noise_1: noise too small"),
        ReportRow("04.lee_clifton_level", "Lee-Clifton (c = 1): loss levels off at (1 + 6c)/4 ε",
                  "Gaboardi17", "ε=1, stream of 0s, T=0, halting at query 1000", 1.75 * eps, "exact",
                  value=float(curves["lee_clifton"][-1]), rel_tol=1e-6,
                  catches="sparse_vector.lee_clifton_inverted: Lee-Clifton's query noise 3Δ/(4ε)"),
        ReportRow("04.lee_clifton_reference", "Lee-Clifton, halting at query 6 (issue reference 1.2173)",
                  "Gaboardi17", "ε=0.7, D = 0⁶, T=0", 1.2173, "exact",
                  value=sv.exact_privacy_loss("lee_clifton", AUDIT_D, 0.0, 0.7), rel_tol=0.5e-4 / 1.2173,
                  catches="sparse_vector.lee_clifton_inverted: Lee-Clifton's query noise 3Δ/(4ε)"),
        ReportRow("04.no_halting_limit", "no halting, bottom^(k-1) top: loss tends to 1.5 ε", "Gaboardi17",
                  "ε=1, stream of 0s, T=0, k=1000", 1.5 * eps, "exact", value=float(curves["no_halting"][-1]),
                  rel_tol=1e-6,
                  catches="sparse_vector.no_halting_noise_2: no_halting's query noise 2Δ/ε₂ for Δ/ε₂"),
        ReportRow("04.noisy_value_k", "releasing the noisy value: loss k ε/2 at the k-th query", "Gaboardi17",
                  "ε=1, k=4, sup over the released value", 2.0 * eps, "exact",
                  value=sv.exact_privacy_loss("noisy_value", np.zeros(4), 0.0, eps), rel_tol=1e-6,
                  catches="sparse_vector.noisy_value_2c: the query noise 2cΔ/ε₂ for cΔ/ε₂"),
        ReportRow("04.sparse_vector_c3", "SparseVector (Lyu Alg. 1, c = 3): exact loss of 27 bottoms then "
                  "3 tops ≤ ε", "Gaboardi17", "ε=1, stream of 0s, T=0", eps * (1 + 1e-9), "<=",
                  value=sv.exact_privacy_loss("lyu_alg1", np.zeros(30), 0.0, eps, output=tight, c=3),
                  catches="sparse_vector.alg1_no_c: the query noise not scaled by c"),
        ReportRow("04.proof_theorem", "proof: max of Pr[A = a] / (e^ε Pr[A' = a]) over a grid of neighbours "
                  "D' ≠ D is 1: the bound holds and is attained (T̂'s density on its tail)", "Gaboardi17",
                  "ε=0.7, 3 base points, (g - g', f_k - f_k') on a 5×5 grid of [-1, 1]² but 0", 1.0, "exact",
                  value=proof["p / (e^eps p')"], rel_tol=1e-9,
                  catches="sparse_vector.query_noise_2, sparse_vector.threshold_noise_1: noise too small"),
        ReportRow("04.proof_bound", "proof's step: Pr[A = a] ≤ (the two density ratios at this shift) "
                  "Pr[A' = a], max over the same grid, D' ≠ D", "Gaboardi17",
                  "ε=0.7, same grid (measured density ratios)", 1.0 * (1 + 1e-9), "<=",
                  value=proof["p / bound"], catches="sparse_vector.proof_shift_sign: v̂ moved the wrong way"),
        ReportRow("04.audit_lee_clifton", "audit catches Lee-Clifton: "
                  "95% lower bound on ε ≥ claimed 0.7 (a power check)", "Gaboardi17",
                  "D = 0⁶, D' = (1,1,1,1,1,-1), 2·10⁵ runs each", 0.7, ">=", value=lee.epsilon_lower,
                  catches="sparse_vector.sampler_scale_swap: the sampler's query noise at T's scale"),
        ReportRow("04.audit_above_threshold",
                  "audit of AboveThreshold: one-sided lower bound ≤ the pair's true loss", "Gaboardi17",
                  "same pair (true loss 0.632 < ε = 0.7), 2·10⁵ runs each",
                  sv.pair_privacy_loss("above_threshold", AUDIT_D, AUDIT_D_PRIME, 0.0, 0.7), "<=",
                  interval=at_bound, catches="sparse_vector.sampler_query_noise_2: the sampler's ν at 2Δ/ε"),
    ]
