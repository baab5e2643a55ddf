"""Lesson 11, query release in practice (notebook 11): constants, seeded runs, report rows (figures in
views.py; theory in dplab.query_release: Hardt, Ligett & McSherry 2012 for MWEM; Gaboardi, Arias, Hsu, Roth &
Wu 2014 for DualQuery; the baselines of notebook 5 in dplab.net_mechanism and dplab.mechanisms.laplace).
Many counting queries over the YRBSS students as binary records, answered by a synthetic distribution."""

from __future__ import annotations

import numpy as np

from dplab import net_mechanism as nm
from dplab.lab.report import ReportRow
from dplab.mechanisms.laplace import laplace_accuracy_k
from dplab.simulate import bonferroni_confidence

NOTEBOOK = "11_query_release.ipynb"
PREFIX = "11"
SEED = 2041
#: the notebook's confidence intervals (Bonferroni over all of them: a correct lab fails any with <= 1%)
N_INTERVALS = 1
LEVEL = bonferroni_confidence(N_INTERVALS, family_error=0.01)  #: each interval's level

# --- 1. the baselines of notebook 5, as the number of queries grows -----------------------------------
EPSILON, BETA, DELTA = 1.0, 0.05, 1e-6
#: the query counts of the baselines' figure, and the universes' bits (|X| = 2^bits; 3 is notebook 5's)
KS = np.unique(np.geomspace(10, 10**6, 41).round().astype(int))
BITS = (3, 8, 12, 16)
N_STUDENTS = 12_579
#: the methods of the "who wins where" comparison, in the order of their legend
BASELINES = ("Laplace, basic", "Laplace, advanced", "noisy histogram", "net mechanism")


def baseline_bounds(k: int, bits: int, epsilon: float = EPSILON, n: int = N_STUDENTS, beta: float = BETA,
                    delta: float = DELTA) -> dict[str, float]:
    """Each baseline's (1 - beta) bound on the max error over k counting queries (fractions of n; replace-one,
    public n, Delta = 1/n): Laplace on every answer ([Roth11] Theorem 3, pure and through advanced
    composition), the noisy histogram over |X| = 2^bits cells (a Chernoff and union bound,
    dplab.net_mechanism.noisy_histogram_max_error_bound) and the net mechanism's best m
    (dplab.net_mechanism.net_mechanism_accuracy)."""
    return {"Laplace, basic": float(laplace_accuracy_k(1 / n, k, epsilon, beta)),
            "Laplace, advanced": float(laplace_accuracy_k(1 / n, k, epsilon, beta, delta)) if epsilon <= 1
            else float("nan"),  # the (eps, delta) form of Theorem 3 holds for eps <= 1 only
            "noisy histogram": nm.noisy_histogram_max_error_bound(2**bits, n, epsilon, beta, n_queries=k),
            "net mechanism": nm.net_mechanism_accuracy(2.0**bits, k, n, epsilon, beta, m_max=2_000)[0]}


def report_rows(seed: int = SEED) -> list[ReportRow]:
    """This lesson's rows of figures/REPORT.md."""
    return []
