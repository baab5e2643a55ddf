"""Lesson 12's exercises: ``dplab.check("12.N", answer)`` checks an answer (and names the mistake it
suspects), ``dplab.solution("12.N")`` prints the worked solution, ``python -m dplab answers 12`` the key.
Every number of a key, a mistake or a worked solution is computed by dplab."""

from __future__ import annotations

import math

import numpy as np

from dplab import learning
from dplab.accounting import RDPAccountant
from dplab.audit import audit_reach
from dplab.lab.exercises import Exercise, Mistake
from dplab.mechanisms import SubsampledGaussian
from dplab.promises import posterior_bound, tradeoff_dp

#: 12.1: DP-SGD's noise on the averaged gradient
N1, Q1, C1, SIGMA1 = 2000, 0.01, 0.5, 1.2
#: 12.2: one gradient clipped
G2, C2 = (1.2, -1.6), 0.5
#: 12.3: T Gaussian steps of sigma (q = 1) converted at one order
T3, SIGMA3, ALPHA3, DELTA = 100, 10.0, 8.0, 1e-5
#: 12.4: a DP-SGD run accounted by the PLD
SIGMA4, Q4, T4 = 1.1, 0.02, 2000
#: 12.5: a membership attacker's best TPR at a given FPR
EPS5, FPR5 = 2.0, 0.01
#: 12.6: an audit's ceiling with this many models a side, at this confidence
MODELS6, CONFIDENCE6 = 200, 0.999


def _noise_sd(sigma: float, clip: float, batch: float) -> float:
    """The standard deviation of one coordinate of DP-SGD's gradient estimate: the noise on the sum over the
    expected batch size (by dplab.learning.noisy_gradient with no gradients: the noise alone, its scale read
    off one unit draw)."""
    unit = np.random.default_rng(0).standard_normal(1)[0]
    one = learning.noisy_gradient(
        np.zeros((0, 1)),
        clip=clip,
        noise_multiplier=sigma,
        expected_batch_size=batch,
        rng=np.random.default_rng(0),
    )[0]
    return float(one / unit)


def _one_order(sigma: float, steps: int, alpha: float, delta: float = DELTA) -> float:
    """epsilon at ``delta`` of ``steps`` Gaussian steps (the subsampled Gaussian at q = 1), at one order."""
    return RDPAccountant(orders=[alpha]).compose(SubsampledGaussian(sigma, 1.0), steps).epsilon(delta)


def _mironov(sigma: float, steps: int, alpha: float, delta: float = DELTA) -> float:
    """Mironov's conversion R + ln(1/delta)/(alpha - 1), the curve by dplab's subsampled Gaussian at q = 1."""
    return steps * float(SubsampledGaussian(sigma, 1.0).rdp(alpha)) + math.log(1 / delta) / (alpha - 1)


EXERCISES = [
    Exercise(
        "12.1",
        f"DP-SGD on n = {N1:,} students with Poisson rate q = {Q1:g}, clipping norm C = {C1:g} and noise "
        f"multiplier sigma = {SIGMA1:g}. The noised sum is divided by the expected batch size. What is the "
        "standard deviation of the noise in one coordinate of the gradient estimate?",
        lambda: _noise_sd(SIGMA1, C1, Q1 * N1),
        "The noise is added to the sum, with the sum's sensitivity in it; then the sum is divided.",
        "The sum's sensitivity is C = {clip:g}, so its noise has standard deviation σC = {sum_sd:.3g}; the "
        "expected batch size is q n = {batch:g}, and dividing gives σC/(q n) = {answer:.3g}.",
        mistakes=(
            Mistake(
                lambda: SIGMA1 * C1, "that is the noise on the sum; the estimate divides the sum by q n."
            ),
            Mistake(
                lambda: _noise_sd(SIGMA1, 1.0, Q1 * N1),
                "the noise is σ times the sum's sensitivity C, not σ.",
            ),
        ),
        values=lambda: {
            "clip": C1,
            "sum_sd": SIGMA1 * C1,
            "batch": Q1 * N1,
            "answer": _noise_sd(SIGMA1, C1, Q1 * N1),
        },
    ),
    Exercise(
        "12.2",
        f"A student's gradient is g = {G2} and DP-SGD clips at C = {C2:g}. What is the first coordinate of "
        "the clipped gradient?",
        lambda: float(learning.clip_gradients(np.array([G2]), C2)[0, 0]),
        "Clipping keeps the direction and shrinks the length to C when it is longer.",
        "‖g‖ = {norm:g} > C, so g is scaled by C/‖g‖ = {factor:g}: the first coordinate becomes {answer:g}.",
        mistakes=(
            Mistake(
                lambda: min(G2[0], C2),
                "clipping each coordinate to [−C, C] changes the direction; clip the vector's norm.",
            ),
            Mistake(lambda: G2[0] * C2 / float(np.dot(G2, G2)), "scale by C/‖g‖, not C/‖g‖²."),
        ),
        values=lambda: {
            "norm": float(np.hypot(*G2)),
            "factor": C2 / float(np.hypot(*G2)),
            "answer": float(learning.clip_gradients(np.array([G2]), C2)[0, 0]),
        },
    ),
    Exercise(
        "12.3",
        f"T = {T3} steps of the Gaussian mechanism with sigma = {SIGMA3:g} (sensitivity 1, no subsampling) "
        "have Renyi "
        f"divergence T alpha/(2 sigma^2) at order alpha. Convert at the single order alpha = {ALPHA3:g} to "
        "epsilon at "
        f"delta = {DELTA:g}, as dp-accounting's RdpAccountant does: eps = R + ln((alpha - 1)/alpha) - (ln "
        "delta + ln alpha)/(alpha - 1).",
        lambda: _one_order(SIGMA3, T3, ALPHA3),
        "Compute R first, then the two correction terms; ln δ is negative.",
        "R = T α/(2σ²) = {rdp:g}; ln((α − 1)/α) = {log_ratio:.4f}; −(ln δ + ln α)/(α − 1) = {tail:.4f}; "
        "ε = {answer:.4f}.",
        mistakes=(
            Mistake(
                lambda: _mironov(SIGMA3, T3, ALPHA3),
                "that is Mironov's original conversion R + ln(1/δ)/(α − 1); "
                "the one asked for is tighter by its two ln α terms.",
            ),
            Mistake(
                lambda: _one_order(SIGMA3, 1, ALPHA3), "R is the divergence of all T steps: divergences add."
            ),
        ),
        values=lambda: {
            "rdp": T3 * ALPHA3 / (2 * SIGMA3**2),
            "log_ratio": math.log((ALPHA3 - 1) / ALPHA3),
            "tail": -(math.log(DELTA) + math.log(ALPHA3)) / (ALPHA3 - 1),
            "answer": _one_order(SIGMA3, T3, ALPHA3),
        },
    ),
    Exercise(
        "12.4",
        f"DP-SGD runs T = {T4:,} steps with sigma = {SIGMA4:g} and Poisson rate q = {Q4:g}. What is its "
        "epsilon at "
        f"delta = {DELTA:g} by the PLD accountant (both orders of the add/remove pair)? Use dplab.learning.",
        lambda: learning.dpsgd_epsilon(SIGMA4, Q4, T4, DELTA),
        "learning.dpsgd_epsilon(sigma, q, T, delta) accounts by the PLD unless told otherwise.",
        "learning.dpsgd_epsilon({sigma:g}, {q:g}, {steps}, {delta:g}) = {answer:.3f}; by RDP it would be "
        "{rdp:.3f}, "
        "and the 'remove' order alone (dp-accounting's ADD) gives {remove:.3f}: the accountant reports the "
        "larger order, ours 'add' (dp-accounting's REMOVE).",
        mistakes=(
            Mistake(
                lambda: learning.dpsgd_epsilon(SIGMA4, Q4, T4, DELTA, accountant="rdp"),
                "that is the RDP bound; the question asks for the PLD (accountant='pld').",
            ),
            Mistake(
                lambda: SubsampledGaussian(SIGMA4, Q4).pld(direction="remove").compose(T4).epsilon(DELTA),
                "that is our order 'remove a row' alone (dp-accounting calls it ADD: it names an order by "
                "the dataset of the inequality's second distribution). The other order, the data with the "
                "student on the left (our 'add', its REMOVE), costs more under subsampling; both must hold.",
            ),
        ),
        values=lambda: {
            "sigma": SIGMA4,
            "q": Q4,
            "steps": T4,
            "delta": DELTA,
            "answer": learning.dpsgd_epsilon(SIGMA4, Q4, T4, DELTA),
            "rdp": learning.dpsgd_epsilon(SIGMA4, Q4, T4, DELTA, accountant="rdp"),
            "remove": SubsampledGaussian(SIGMA4, Q4).pld(direction="remove").compose(T4).epsilon(DELTA),
        },
    ),
    Exercise(
        "12.5",
        f"A model is trained ({EPS5:g}, {DELTA:g})-DP. A membership attacker may accuse a share {FPR5:g} of "
        "the "
        "students who were not in the training set. At most what share of the members can it find (its TPR)?",
        lambda: 1 - float(tradeoff_dp(FPR5, EPS5, DELTA)),
        "Any (ε, δ)-DP release keeps TPR ≤ e^ε FPR + δ (notebook 8).",
        "TPR ≤ e^ε FPR + δ = {factor:.3f} × {fpr:g} + {delta:g} = {answer:.4f}: the attacker finds at most "
        "about {percent:.1f}% of the members.",
        mistakes=(
            Mistake(lambda: EPS5 * FPR5, "ε is not a factor: the bound grows as e^ε."),
            Mistake(
                lambda: float(posterior_bound(FPR5, EPS5)),
                "that is the posterior bound for a prior of FPR; the question asks for a rate, e^ε FPR + δ.",
            ),
        ),
        values=lambda: {
            "factor": math.exp(EPS5),
            "fpr": FPR5,
            "delta": DELTA,
            "answer": 1 - float(tradeoff_dp(FPR5, EPS5, DELTA)),
            "percent": 100 * (1 - float(tradeoff_dp(FPR5, EPS5, DELTA))),
        },
    ),
    Exercise(
        "12.6",
        f"An audit trains {MODELS6} models without a canary and {MODELS6} with it, and the canary's scores "
        "separate "
        f"perfectly. At {CONFIDENCE6:.1%} confidence (Clopper-Pearson, delta = {DELTA:g}), what is the "
        "largest "
        "epsilon it can certify? Use dplab.audit.audit_reach with a trade-off curve that is 0 everywhere.",
        lambda: audit_reach(np.zeros_like, MODELS6, confidence=CONFIDENCE6, delta=DELTA),
        "With all models on the right side, the bounds are those of 0 and all successes in n trials.",
        "audit_reach(np.zeros_like, {models}, confidence={confidence:g}, delta={delta:g}) = {answer:.3f}: "
        "the Clopper-Pearson bounds of {models} of {models} and 0 of {models} (each at half the error) give "
        "ln(p_low/q_high). Certifying ε = 8 would take many thousands of models a side.",
        mistakes=(
            Mistake(
                lambda: math.log(MODELS6),
                "ln(n) treats the counts as exact probabilities; the audit needs their confidence bounds.",
            ),
            Mistake(
                lambda: audit_reach(np.zeros_like, MODELS6, confidence=0.95, delta=DELTA),
                "that is the ceiling at 95% confidence; the question asks for 99.9%.",
            ),
        ),
        values=lambda: {
            "models": MODELS6,
            "confidence": CONFIDENCE6,
            "delta": DELTA,
            "answer": audit_reach(np.zeros_like, MODELS6, confidence=CONFIDENCE6, delta=DELTA),
        },
    ),
    Exercise(
        "12.7",
        "A DP-SGD model accounted at epsilon = 8 is audited on an average student with 1,000 models a side, "
        "and the audit certifies only epsilon >= 0.3. What does that show?",
        lambda: "worst_case",
        "Which student, and which view of the training, does the accounted ε cover?",
        "The answer is worst_case: ε bounds the worst student against an attacker who sees every step's "
        "noised "
        "gradient; an average student seen through the final model leaks far less, and an audit's lower "
        "bound cannot show more than its models allow.",
        choices=("accounting_wrong", "worst_case", "no_privacy_needed", "audit_broken"),
        explanations={
            "accounting_wrong": "no: an audit gives a lower bound on ε; a low one says this attack found "
                                "little, "
            "not that the model is 0.3-DP for every student (a canary does better).",
            "worst_case": "right: the accounted ε covers the worst row and every intermediate step; the gap "
                          "is the "
            "average student and the final-model view (section 5).",
            "no_privacy_needed": "no: without noise the same audit separates a canary (section 5, σ = 0.05), "
                                 "and "
            "the model leaks its small training set (section 1).",
            "audit_broken": "no: an audit need not reach ε; it fails only if it certifies more than ε.",
        },
    ),
]
