"""Lesson 11's mutants: plausible slips in dplab/query_release/ that its report rows and assert cells catch
(``make mutants NB=11``); the library helpers' own (qr.*) are declared in dplab/lab/mutants.py."""

from __future__ import annotations

from dplab.lab.report import Mutant

_BASE = "dplab/query_release/baselines.py"
_MWEM = "dplab/query_release/mwem.py"
MUTANTS = (
    Mutant("qr.l11_laplace_eps_per_answer", _BASE, "    return epsilon / k\n", "    return epsilon\n",
           "Laplace on every answer gives each of the k answers the whole epsilon (no composition)"),
    Mutant("qr.l11_mwem_select_monotone", _MWEM,
           "select, measure = ExponentialMechanism(1.0, step), Laplace(1.0, step)",
           "select, measure = ExponentialMechanism(1.0, step, True), Laplace(1.0, step)",
           "MWEM's score taken as monotone: the exponential mechanism at eps s/Delta, not eps s/(2 Delta)"),
)
