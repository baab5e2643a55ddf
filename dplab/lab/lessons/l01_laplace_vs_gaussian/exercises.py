"""Lesson 1's exercises: ``dplab.check("01.N", answer)`` checks an answer, ``python -m
dplab answers 01`` prints the key (questions, computed answers, worked solutions)."""

from __future__ import annotations

from dplab.lab.exercises import Exercise
from dplab.lab.lessons.l01_laplace_vs_gaussian.report import real_data_queries
from dplab.mechanisms.gaussian import gaussian_laplace_crossover_k
from dplab.mechanisms.laplace import laplace_accuracy_k, laplace_mse, laplace_scale, laplace_tail_bound

EXERCISES = [
    Exercise("01.1", "A count (sensitivity 1) is released with the Laplace mechanism at "
             "epsilon = 0.5. What is the mean squared error of the release?",
             lambda: laplace_mse(1, 0.5), "MSE of Lap(b) is 2 b², with b = Δ/ε.",
             "b = Δ/ε = 1/0.5 = 2, and Var Lap(b) = 2b² = 2 · 4 = 8."),
    Exercise("01.2", "At epsilon = 1, a noisy count is off by at least t with probability 5%. "
             "What is t?", lambda: laplace_tail_bound(1, 1.0, 0.05),
             "Pr[|Lap(b)| ≥ t] = exp(-t/b); solve exp(-t/b) = β.",
             "b = 1; exp(-t) = 0.05 gives t = ln(1/0.05) = ln 20 ≈ 3.00."),
    Exercise("01.3", "The mean height of the n = 12,579 YRBSS students, clipped to [1.2, 2.1] m "
             "with n public, is released at epsilon = 0.1. What is the Laplace scale b (in m)?",
             lambda: laplace_scale(real_data_queries()["mean_sensitivity"], 0.1),
             "Replacing one student moves the clipped mean by at most (hi - lo)/n; divide by ε.",
             "Δ = (2.1 - 1.2)/12579 ≈ 7.155e-5 m, so b = Δ/ε ≈ 7.155e-4 m (under a millimetre)."),
    Exercise("01.4", "k counts (sensitivity 1 each) at epsilon = 1, delta = 1e-6: from which k "
             "on does the analytic Gaussian have a lower MSE per count than Laplace?",
             lambda: gaussian_laplace_crossover_k(1.0, 1e-6),
             "Laplace pays L1 sensitivity k, the Gaussian L2 sensitivity √k; use the k panel.",
             "Per count, Laplace has MSE 2(k/ε)² and the Gaussian k σ₁² with σ₁ = the analytic σ "
             "for Δ₂ = 1 (≈ 4.22 here); the Gaussian wins once k > σ₁² ε²/2 ≈ 8.92, i.e. from k = 9.",
             rel_tol=0.0),
    Exercise("01.5", "k = 100 counts under pure epsilon = 1: what alpha does seed 004 "
             "Theorem 3 guarantee with beta = 0.05?", lambda: laplace_accuracy_k(1, 100, 1.0, 0.05),
             "α = Δ (k/ε) ln(k/β): a union bound over k Laplace tails.",
             "Each count gets ε/k, so b = k/ε = 100; a union bound over the k tails at β/k each "
             "gives α = b ln(k/β) = 100 ln 2000 ≈ 760."),
]
