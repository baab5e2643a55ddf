"""Lesson 1's exercises: ``dplab.check("01.N", answer)`` checks an answer (and names the mistake it
suspects), ``dplab.solution("01.N")`` prints a worked solution, ``python -m dplab answers 01`` prints
the key. Every number in a key, a mistake or a worked solution is computed by dplab.

The parameters differ from the ones the notebook prints, so each answer must be worked out."""

from __future__ import annotations

import math

from dplab.lab.exercises import Exercise, Mistake
from dplab.lab.lessons.l01_laplace_vs_gaussian.report import real_data_queries
from dplab.mechanisms.gaussian import gaussian_laplace_crossover_k, gaussian_sigma
from dplab.mechanisms.laplace import laplace_accuracy_k, laplace_mse, laplace_scale, laplace_tail_bound
from dplab.sensitivity import clipped_mean_sensitivity

LO, HI, EPS_MEAN = 1.4, 2.0, 0.5          # 01.3: other clipping bounds than the notebook's [1.2, 2.1]
EPS_CROSS, DELTA_CROSS = 0.5, 1e-5         # 01.4: a (ε, δ) the notebook's table does not print
K_ACC, EPS_ACC, BETA_ACC = 50, 0.5, 0.1    # 01.5
K_GAUSS, DELTA_GAUSS = 16, 1e-6            # 01.7


def _crossover_real(epsilon: float, delta: float, method: str = "analytic") -> float:
    """σ₁² ε² / 2: Laplace and the Gaussian tie per count at this (unrounded) k."""
    return gaussian_sigma(1.0, epsilon, delta, method=method) ** 2 * epsilon**2 / 2


EXERCISES = [
    Exercise(
        "01.1", "A query of sensitivity Δ = 3 (a sum of values clipped to [0, 3]) is released with "
        "the Laplace mechanism at ε = 1. What is "
        "the mean squared error of the release?",
        lambda: laplace_mse(3, 1.0),
        "The noise is Lap(b) with b set by Δ and ε; the MSE of an unbiased release is the variance of "
        "its noise (section 1 gives the variance of Lap(b)).",
        "The scale is b = Δ/ε = 3/1 = {b:g}. The release is unbiased, so its MSE is the variance of "
        "Lap(b), 2b² = 2 · {b2:g} = {mse:g}.",
        mistakes=(Mistake(lambda: laplace_scale(3, 1.0) ** 2,
                          "that is b², the square of the scale: the variance of Lap(b) is twice that."),
                  Mistake(lambda: laplace_mse(1, 1.0),
                          "that is the MSE of a count (Δ = 1): here one row moves the query by up to 3, "
                          "and the scale grows with Δ.")),
        values=lambda: {"b": laplace_scale(3, 1.0), "b2": laplace_scale(3, 1.0) ** 2,
                        "mse": laplace_mse(3, 1.0)}),
    Exercise(
        "01.2", "A count is released with the Laplace mechanism at ε = 0.5. Which t is the noisy count "
        "off by at least t with probability 0.01?",
        lambda: laplace_tail_bound(1, 0.5, 0.01),
        "Write Pr[|noise| ≥ t] for Lap(b), both tails together (section 3), set it equal to the "
        "probability asked, and solve for t; mind which b this ε gives.",
        "The count has Δ = 1, so b = 1/ε = {b:g}. Both tails together: Pr[|Y| ≥ t] = exp(−t/b). "
        "exp(−t/{b:g}) = 0.01 gives t = {b:g} · ln(1/0.01) = {b:g} · {log:.4f} = {t:.3f}.",
        mistakes=(Mistake(lambda: laplace_tail_bound(1, 1.0, 0.01),
                          "that is t for b = 1, i.e. ε = 1: at ε = 0.5 the scale is 1/ε."),
                  Mistake(lambda: laplace_tail_bound(1, 0.5, 2 * 0.01),
                          "that solves ½ exp(−t/b) = 0.01, the probability of ONE tail; |error| ≥ t "
                          "counts both tails, exp(−t/b).")),
        values=lambda: {"b": laplace_scale(1, 0.5), "log": math.log(1 / 0.01),
                        "t": laplace_tail_bound(1, 0.5, 0.01)}),
    Exercise(
        "01.3", "The mean height of the n = 12,579 YRBSS students is released with n public, each height "
        "clipped to [1.4, 2.0] m (not section 2's bounds), at ε = 0.5. What is the Laplace scale, in "
        "metres? (Two significant figures.)",
        lambda: laplace_scale(clipped_mean_sensitivity(LO, HI, real_data_queries()["n"]), EPS_MEAN),
        "How far can replacing one student move a mean of n heights that all lie in the clipping "
        "interval? The scale is that sensitivity divided by ε.",
        "Replacing one student changes one clipped height by at most hi − lo = {width:.1f} m, so the "
        "mean by at most Δ = {width:.1f}/{n} = {delta:.3e} m. The scale is Δ/ε = {delta:.3e}/0.5 = "
        "{scale:.3e} m, a tenth of a millimetre.",
        mistakes=(Mistake(lambda: clipped_mean_sensitivity(LO, HI, real_data_queries()["n"]),
                          "that is the sensitivity Δ itself; the scale divides it by ε."),
                  Mistake(lambda: laplace_scale(HI / real_data_queries()["n"], EPS_MEAN),
                          "that uses hi/n: a replaced height moves by at most hi − lo, because both "
                          "heights lie in the clipping interval."),
                  Mistake(lambda: laplace_scale(real_data_queries()["mean_sensitivity"], EPS_MEAN),
                          "that uses section 2's interval [1.2, 2.1] m; this question clips to [1.4, 2.0].")),
        values=lambda: {"width": HI - LO, "n": f"{real_data_queries()['n']:,}",
                        "delta": clipped_mean_sensitivity(LO, HI, real_data_queries()["n"]),
                        "scale": laplace_scale(clipped_mean_sensitivity(LO, HI, real_data_queries()["n"]),
                                               EPS_MEAN)}),
    Exercise(
        "01.4", "k counts (sensitivity 1 each) are released at ε = 0.5, δ = 10⁻⁵. From which k on does "
        "the analytic Gaussian have a lower MSE per count than Laplace? (An integer.)",
        lambda: gaussian_laplace_crossover_k(EPS_CROSS, DELTA_CROSS),
        "Write both per-count MSEs as functions of k (Laplace pays the L1 sensitivity of the k counts, "
        "the Gaussian their L2 sensitivity), find where they tie, and take the first whole k past it.",
        "Laplace: scale k/ε, per-count MSE 2k²/ε². Gaussian: σ = √k σ₁ with σ₁ = the analytic σ for "
        "sensitivity 1 at ε = 0.5, δ = 10⁻⁵, {sigma:.4f} (the analytic σ is linear in the sensitivity), "
        "per-count MSE k σ₁². "
        "k σ₁² < 2k²/ε² ⇔ k > σ₁² ε²/2 = {tie:.3f}: the Gaussian wins from k = {k}.",
        rel_tol=0.0,
        mistakes=(Mistake(lambda: math.floor(_crossover_real(EPS_CROSS, DELTA_CROSS)),
                          "at that k Laplace still wins (k is below the tie σ₁²ε²/2): the question asks "
                          "for the first k at which the Gaussian is lower."),
                  Mistake(lambda: _crossover_real(EPS_CROSS, DELTA_CROSS),
                          "that is the tie itself, not a number of counts: take the first whole k past it."),
                  Mistake(lambda: math.floor(_crossover_real(EPS_CROSS, DELTA_CROSS, "classical")) + 1,
                          "that uses the classical σ (Dwork & Roth): the question is about the analytic "
                          "σ, which is smaller.")),
        values=lambda: {"sigma": gaussian_sigma(1.0, EPS_CROSS, DELTA_CROSS),
                        "tie": _crossover_real(EPS_CROSS, DELTA_CROSS),
                        "k": gaussian_laplace_crossover_k(EPS_CROSS, DELTA_CROSS)}),
    Exercise(
        "01.5", "k = 50 counts are released under pure ε = 0.5 in total. Which α does [Roth11] "
        "Theorem 3 guarantee, with probability 1 − β = 0.9, for every one of the 50 answers at once?",
        lambda: laplace_accuracy_k(1, K_ACC, EPS_ACC, BETA_ACC),
        "Each count gets a share of ε, which sets its scale; then ask that each of the 50 tails fails "
        "with a share of β (a union bound).",
        "Each count gets ε/k = 0.5/50 = {eps_each:g}, so b = k/ε = {b:g}. A union bound over the k "
        "tails, each at β/k = {beta_each:g}: α = b ln(k/β) = {b:g} · ln({ratio:g}) = {alpha:.1f}.",
        mistakes=(Mistake(lambda: laplace_tail_bound(K_ACC, EPS_ACC, BETA_ACC),
                          "that is one answer's tail, b ln(1/β): every one of the k answers must be "
                          "within α, so each may fail only with β/k (the union bound)."),
                  Mistake(lambda: laplace_tail_bound(1, EPS_ACC, BETA_ACC / K_ACC),
                          "that uses the scale 1/ε of one count: the k counts share ε, so each gets "
                          "Lap(k/ε).")),
        values=lambda: {"eps_each": EPS_ACC / K_ACC, "b": laplace_scale(K_ACC, EPS_ACC),
                        "beta_each": BETA_ACC / K_ACC, "ratio": K_ACC / BETA_ACC,
                        "alpha": laplace_accuracy_k(1, K_ACC, EPS_ACC, BETA_ACC)}),
    Exercise(
        "01.6", "The proof that Lap(Δ/ε) noise on each of k coordinates is ε-DP reaches ln p_x(z)/p_y(z) = "
        "(ε/Δ) Σ_i (|f(y)_i − z_i| − |f(x)_i − z_i|). Which step bounds this by ε?",
        lambda: "triangle",
        "Look at one term of the sum: how far apart can |f(y)_i − z_i| and |f(x)_i − z_i| be?",
        "triangle: |f(y)_i − z_i| ≤ |f(y)_i − f(x)_i| + |f(x)_i − z_i| bounds the sum by "
        "‖f(x) − f(y)‖₁ ≤ Δ, so the log-ratio is at most (ε/Δ) Δ = ε ([Hu]).",
        choices=("triangle", "cauchy_schwarz", "budget_split", "tail_bound"),
        explanations={
            "triangle": "The triangle inequality bounds each term by |f(x)_i − f(y)_i|; summed, that is "
                        "the L1 distance ‖f(x) − f(y)‖₁ ≤ Δ, and (ε/Δ) Δ = ε.",
            "cauchy_schwarz": "Tempting because the Gaussian mechanism uses the L2 norm, but the Laplace "
                              "density has |·|, so the sum is an L1 distance; bounding it by the (smaller) "
                              "L2 sensitivity would calibrate too little noise (√k where k is due).",
            "budget_split": "Splitting ε into k shares is how Algorithm 1 of notebook 2 composes separate "
                            "releases; this proof bounds the whole sum at once, with Δ the L1 sensitivity "
                            "of the vector, and splits nothing.",
            "tail_bound": "The tail Pr[|Y| ≥ t] = exp(−t/b) is about accuracy; privacy compares the two "
                          "densities at every single output z, not the probability of large errors."}),
    Exercise(
        "01.7", "16 counts (sensitivity 1 each) are released together with the analytic Gaussian "
        "mechanism at ε = 1, δ = 10⁻⁶. Which σ does the noise on each count have?",
        lambda: gaussian_sigma(math.sqrt(K_GAUSS), 1.0, DELTA_GAUSS),
        "What is the L2 norm of the change one row makes to the vector of 16 counts? The analytic σ "
        "is linear in the sensitivity (section 4 prints σ for sensitivity 1).",
        "One row changes each of the 16 counts by at most 1: L2 sensitivity √16 = {l2:g}. The analytic "
        "σ is linear in Δ₂: σ = {l2:g} · σ₁ = {l2:g} · {sigma1:.3f} = {sigma:.2f}.",
        mistakes=(Mistake(lambda: gaussian_sigma(float(K_GAUSS), 1.0, DELTA_GAUSS),
                          "that calibrates to the L1 sensitivity 16; the Gaussian pays the L2 "
                          "sensitivity, the square root of the sum of the squared changes."),
                  Mistake(lambda: gaussian_sigma(1.0, 1.0, DELTA_GAUSS),
                          "that is σ for one count: the 16 counts are one release of a vector, whose "
                          "sensitivity is larger.")),
        values=lambda: {"l2": math.sqrt(K_GAUSS), "sigma1": gaussian_sigma(1.0, 1.0, DELTA_GAUSS),
                        "sigma": gaussian_sigma(math.sqrt(K_GAUSS), 1.0, DELTA_GAUSS)}),
]
