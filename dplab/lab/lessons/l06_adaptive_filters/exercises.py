"""Lesson 6's exercises: ``dplab.check("06.N", answer)`` checks an answer, ``python -m
dplab answers 06`` prints the key (questions, computed answers, worked solutions)."""

from __future__ import annotations

from dplab.accounting import BasicFilter, advanced_composition, filter_trace, pure_to_zcdp, zcdp_to_approx_dp
from dplab.lab.exercises import Exercise
from dplab.mechanisms.noise_reduction import brownian_rho

EXERCISES = [
    Exercise(
        "06.1",
        "dplab's BasicFilter (it halts at its first refusal) with budget eps = 1 receives requests 0.3, "
        "0.5, 0.4, 0.2 in that order. How much has it spent at the end?",
        lambda: filter_trace(BasicFilter(1.0), (0.3, 0.5, 0.4, 0.2))[-1][1],
        "It accepts while the total stays within 1; once it refuses, it refuses everything after.",
        "0.8: it accepts 0.3 and 0.5, refuses 0.4 (1.2 > 1) and then stays halted, so the final 0.2 "
        "is refused too although it would fit (dplab's filters halt after a refusal).",
    ),
    Exercise(
        "06.2",
        "k = 100 mechanisms, each 0.1-DP: what total epsilon does advanced composition (DRV) give "
        "at delta' = 1e-6?",
        lambda: advanced_composition(0.1, 100, 1e-6)[0],
        "sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1).",
        "sqrt(200 ln 10^6) 0.1 + 100 · 0.1 (e^0.1 - 1) = 5.257 + 1.052 = 6.308.",
    ),
    Exercise(
        "06.3",
        "The same 100 mechanisms through zCDP: rho = 100 · 0.1²/2. What epsilon does the simple "
        "conversion give at delta = 1e-6?",
        lambda: zcdp_to_approx_dp(100 * pure_to_zcdp(0.1), 1e-6),
        "rho + 2 sqrt(rho ln(1/delta)) with rho = 0.5.",
        "0.5 + 2 sqrt(0.5 ln 10^6) = 5.757: better than advanced composition (6.308); CKS gives 5.222.",
    ),
    Exercise(
        "06.4",
        "A Brownian noise reduction with sensitivity 1 stops at time T = 50. What rho does the "
        "unified filter charge?",
        lambda: brownian_rho(1.0, 50.0),
        "A Brownian noise reduction stopped at T is charged like a Gaussian of variance T.",
        "Delta²/(2T) = 1/100 = 0.01, whatever the noisier values released before it.",
    ),
    Exercise(
        "06.5",
        "Laplace noise reduction with epsilons 0.1 then 0.3: with what probability is the second "
        "release's noise exactly the first one's?",
        lambda: (0.1 / 0.3) ** 2,
        "eta_1 = eta_2 with probability (eps_1/eps_2)^2.",
        "(0.1/0.3)² = 1/9 = 0.111.",
    ),
    Exercise(
        "06.6",
        "Which method releases the most counts at eps = 1 in the experiment (apart from the oracle)?",
        lambda: "brownian",
        "Compare the table of counts released per method.",
        "brownian: it pays only for the last, least noisy answer of each count, while doubling pays for "
        "every attempt and fixed noise spends the same on every count.",
        choices=("brownian", "gaussian_doubling", "fixed", "laplace_noise_reduction"),
    ),
]
