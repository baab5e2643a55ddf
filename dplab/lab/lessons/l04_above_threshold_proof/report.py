"""Lesson 4, AboveThreshold and the sparse vector technique: the stream, the tables, report
rows and exercises (no plotting; the figures and the panel are in ``views.py``).

Notebook ``notebooks/04_above_threshold_proof.ipynb``. Seed 001 ("SparseVector", "An
example: above threshold", "Theorem: AboveThreshold is eps-differentially private"); Lyu,
Su & Li, PVLDB 2017, for the variants.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from dplab.audit import audit_epsilon
from dplab.datasets import load_yrbss
from dplab.lab.report import ReportRow
from dplab.simulate import Estimate
from dplab.sparse_vector import (
    above_threshold,
    above_threshold_proof,
    exact_privacy_loss,
    halting_privacy_losses,
    output_log_probability,
    sparse_vector,
)

NOTEBOOK = "04_above_threshold_proof.ipynb"
PREFIX = "04"
SEED = 2029
#: Heights h (m) of the stream's queries "# students at least h tall", tallest first.
STREAM_HEIGHTS_M = np.round(np.arange(2.10, 1.495, -0.02), 2)
THRESHOLD = 1000.0
#: The variants whose every halting output is computed at once (no released values).
CURVE_VARIANTS = ("above_threshold", "lyu_alg1", "dwork_roth", "lee_clifton", "no_halting")
LOSS_K = np.array([1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000])
AUDIT_D = np.zeros(6)
AUDIT_D_PRIME = np.array([1.0, 1.0, 1.0, 1.0, 1.0, -1.0])


def height_stream() -> np.ndarray:
    """# YRBSS students at least h tall, for h = 2.10, 2.08, ..., 1.50 m: each query has
    sensitivity 1 under add/remove; the answers grow along the stream."""
    heights = load_yrbss()["height_m"]
    return np.array([np.sum(heights >= h) for h in STREAM_HEIGHTS_M], dtype=float)


def naive_epsilon(k_queries: int, epsilon: float) -> float:
    """What sequential composition charges for k comparisons, each through Lap(4/eps) noise:
    given the noisy threshold (which does not depend on the data: T is public), each is an
    eps/4-DP release, so k eps/4 is a valid bound, better than the theorem's eps for k < 4."""
    return k_queries * epsilon / 4


def loss_curves(epsilon: float, k_max: int = int(LOSS_K[-1])) -> dict[str, np.ndarray]:
    """Exact privacy loss of "bottom on queries 1..k-1, top on query k" on a stream of zeros
    with threshold 0, for k = 1..k_max, for each variant of CURVE_VARIANTS (c = 1): every k
    at once from prefix sums (the loss of halting at k does not depend on later queries)."""
    zeros = np.zeros(k_max)
    return {v: halting_privacy_losses(v, zeros, 0.0, epsilon)[:-1] for v in CURVE_VARIANTS}


#: base points (g, f_k, T) of the proof's checks: below, at and above the threshold
PROOF_BASES = ((0.3, 0.8, 0.1), (-2.0, 1.5, 0.0), (4.0, -3.0, 1.0))


def proof_grid(epsilon: float, points: int = 5) -> dict[str, float]:
    """The proof's inequalities over a grid of neighbours (g - g', f_k - f_k') in [-1, 1]^2 at
    each base point of PROOF_BASES: the largest value of each ratio (all must be <= 1)."""
    worst = {"p / bound": 0.0, "bound / (e^eps p')": 0.0, "nu ratio / e^(eps/2)": 0.0,
             "threshold ratio / e^(eps/2)": 0.0, "bottom / (e^(eps/2) bottom')": 0.0,
             "|changed - p| / p": 0.0}
    grid = np.linspace(-1.0, 1.0, points)
    for (g, f_k, t0), dg, df in itertools.product(PROOF_BASES, grid, grid):
        r = above_threshold_proof(g, g - dg, f_k, f_k - df, t0, epsilon)
        half = math.exp(epsilon / 2)
        for key, value in (("p / bound", r["p"] / r["bound"]),
                           ("bound / (e^eps p')", r["bound"] / (math.exp(epsilon) * r["p_prime"])),
                           ("nu ratio / e^(eps/2)", r["nu_ratio"] / half),
                           ("threshold ratio / e^(eps/2)", r["threshold_ratio"] / half),
                           ("bottom / (e^(eps/2) bottom')", r["bottom"] / (half * r["bottom_prime"])),
                           ("|changed - p| / p", abs(r["changed"] - r["p"]) / r["p"])):
            worst[key] = max(worst[key], value)
    return worst


def first_top(result) -> np.ndarray:
    """The index of the first top of each run of a sparse vector result (-1 if none)."""
    return np.where(result.above.any(axis=1), result.above.argmax(axis=1), -1)


def audit_sampler(variant: str, epsilon: float = 0.7):
    """A vectorized sampler of ``variant``'s output (c = 1, threshold 0) for
    :func:`dplab.audit.audit_epsilon`: the halting position of a halting variant, the whole pattern of
    tops and bottoms (one row per run) of one that never halts."""
    if variant == "above_threshold":
        return lambda data, size, rng: above_threshold(data, 0.0, epsilon, size=size, rng=rng)
    if variant in ("no_halting", "no_query_noise"):
        return lambda data, size, rng: sparse_vector(data, 0.0, epsilon, c=1, variant=variant,
                                                     size=size, rng=rng).above
    return lambda data, size, rng: first_top(sparse_vector(data, 0.0, epsilon, c=1, variant=variant,
                                                           size=size, rng=rng))


def pair_loss(variant: str, epsilon: float = 0.7) -> float:
    """The true privacy loss of ``variant`` on the audit's pair (D, D'): the largest
    |ln P_D[o] / P_D'[o]| over its outputs (a halting variant's 7 outputs)."""
    outputs = [np.r_[np.zeros(i, dtype=bool), True] for i in range(AUDIT_D.size)]
    outputs.append(np.zeros(AUDIT_D.size, dtype=bool))
    return max(abs(output_log_probability(variant, AUDIT_D, 0.0, epsilon, o)
                   - output_log_probability(variant, AUDIT_D_PRIME, 0.0, epsilon, o)) for o in outputs)


def report_rows(seed: int = SEED) -> list[ReportRow]:
    """This lesson's rows of figures/REPORT.md (all computed: exact losses and audit bounds)."""
    eps = 1.0
    curves = loss_curves(eps)
    lee = audit_epsilon(audit_sampler("lee_clifton"), AUDIT_D, AUDIT_D_PRIME, n_runs=200_000,
                        n_pilot=50_000, rng=seed)

    def at_bound(confidence: float) -> Estimate:
        """AboveThreshold's audit bound as a one-sided interval [bound, inf) at the report's level."""
        at = audit_epsilon(audit_sampler("above_threshold"), AUDIT_D, AUDIT_D_PRIME, n_runs=200_000,
                           n_pilot=50_000, rng=seed, confidence=confidence)
        return Estimate(at.epsilon_lower, at.epsilon_lower, math.inf, confidence)

    proof = proof_grid(0.7)
    return [
        ReportRow("04.above_threshold_max_loss", "AboveThreshold: max exact loss over halting outputs ≤ ε",
                  "001", "ε=1, streams of 0s up to 1000 queries, T=0", eps * (1 + 1e-12), "<=",
                  value=float(curves["above_threshold"].max())),
        ReportRow("04.lee_clifton_level", "Lee-Clifton (c = 1): loss levels off at (1 + 6c)/4 ε", "001",
                  "ε=1, halting at query 1000", 1.75 * eps, "exact",
                  value=float(curves["lee_clifton"][-1]), rel_tol=1e-6),
        ReportRow("04.lee_clifton_reference", "Lee-Clifton, halting at query 6 (issue reference 1.2173)",
                  "001", "ε=0.7, D = 0⁶, T=0", 1.2173, "exact",
                  value=exact_privacy_loss("lee_clifton", AUDIT_D, 0.0, 0.7), rel_tol=0.5e-4 / 1.2173),
        ReportRow("04.no_halting_limit", "no halting, bottom^(k-1) top: loss tends to 1.5 ε", "001",
                  "ε=1, k=1000", 1.5 * eps, "exact", value=float(curves["no_halting"][-1]), rel_tol=1e-6),
        ReportRow("04.noisy_value_k", "releasing the noisy value: loss k ε/2 at the k-th query", "001",
                  "ε=1, k=4, sup over the released value", 2.0 * eps, "exact",
                  value=exact_privacy_loss("noisy_value", np.zeros(4), 0.0, eps), rel_tol=1e-6),
        ReportRow("04.proof_bound", "proof: Pr[A = a] ≤ e^ε Pr[A' = a] (max of the ratio over a grid)", "001",
                  "ε=0.7, 5×5 grid of (g - g', f_k - f_k') in [-1, 1]²", 1.0 * (1 + 1e-9), "<=",
                  value=max(proof["p / bound"], proof["bound / (e^eps p')"])),
        ReportRow("04.audit_lee_clifton",
                  "audit catches Lee-Clifton: 95% lower bound on ε ≥ claimed 0.7 (a power check)",
                  "001", "D = 0⁶, D' = (1,1,1,1,1,-1), 2·10⁵ runs each", 0.7, ">=",
                  value=lee.epsilon_lower),
        ReportRow("04.audit_above_threshold",
                  "audit of AboveThreshold: one-sided lower bound ≤ the pair's true loss", "001",
                  "same pair (true loss 0.632 < ε = 0.7), 2·10⁵ runs each",
                  pair_loss("above_threshold"), "<=", interval=at_bound),
    ]
