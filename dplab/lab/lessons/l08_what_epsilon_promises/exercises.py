"""Lesson 8's exercises: ``dplab.check("08.N", answer)`` checks an answer, ``python -m
dplab answers 08`` prints the key (questions, computed answers, worked solutions)."""

from __future__ import annotations

import math

from dplab.accounting import PLDAccountant
from dplab.lab.exercises import Exercise
from dplab.mechanisms import Laplace
from dplab.promises import epsilon_for_posterior, posterior_bound, tradeoff_dp

_BOUND_08_4 = 1 - tradeoff_dp(1e-4, 0.5, 1e-4)  # TPR <= e^eps FPR + delta at FPR 1e-4

EXERCISES = [
    Exercise(
        "08.1",
        "A release is 0.5-DP. An attacker is 20% sure that Alice's record is in the data. At most how sure "
        "(as a share, e.g. 0.3) can it be after seeing the release?",
        lambda: posterior_bound(0.2, 0.5),
        "Multiply the prior odds 0.2/0.8 by e^eps, then turn the odds back into a probability.",
        "odds 0.25 * e^0.5 = 0.412; 0.412 / 1.412 = 0.292.",
    ),
    Exercise(
        "08.2",
        "A hospital wants no attacker who is 1% sure that a patient is in its data to become more than 50% "
        "sure. What is the largest epsilon it may use (pure DP)?",
        lambda: epsilon_for_posterior(0.01, 0.5),
        "Posterior odds 1 over prior odds 1/99: e^eps may be at most their ratio.",
        "e^eps <= 1 / (1/99) = 99, so eps <= ln 99 = 4.60.",
    ),
    Exercise(
        "08.3",
        "A count is released with Laplace noise of scale 1 (sensitivity 1, eps = 1): 0 + noise without "
        "Alice, 1 + noise with her. An attacker's test about Alice may say 'in' when she is out with "
        "probability at "
        "most alpha = 0.3. What is the smallest probability beta that it says 'out' when she is in?",
        lambda: Laplace(1.0, 1.0).tradeoff(0.3),
        "The best test says 'in' when the count exceeds a threshold t with Pr[Lap(1) >= t] = 0.3.",
        "t = -ln(2 * 0.3) = 0.511 (Pr = e^-t / 2 = 0.3); beta = Pr[1 + Lap(1) < t] = e^(t - 1) / 2 = "
        "0.613 / 2 = 0.307, above f_eps(0.3) = e^-1 * 0.7 = 0.258: here Laplace is safer than randomized "
        "response.",
    ),
    Exercise(
        "08.4",
        "A release is (0.5, 1e-4)-DP. At a false-positive rate of 1e-4, what is the largest true-positive "
        "rate any membership attack can have?",
        lambda: _BOUND_08_4,
        "TPR <= e^eps FPR + delta (the other inequality of f_eps,delta does not bind at so small an FPR).",
        f"e^0.5 * 0.0001 + 0.0001 = {math.exp(0.5) * 1e-4:.6f} + 0.0001 = {_BOUND_08_4:.6f}: at this FPR "
        f"delta is {1e-4 / _BOUND_08_4:.0%} of the bound, e^eps FPR the larger part; at FPR 1e-3 delta "
        f"would be {1e-4 / (1 - tradeoff_dp(1e-3, 0.5, 1e-4)):.0%}.",
    ),
    Exercise(
        "08.5",
        "A count is to be released with root-mean-square error 10 (Laplace, sensitivity 1). Which epsilon?",
        lambda: Laplace.for_rmse(1.0, 10.0).epsilon,
        "Laplace's variance is 2 b^2 with b = 1/eps.",
        "2 / eps^2 = 100, so eps = sqrt(2)/10 = 0.141.",
    ),
    Exercise(
        "08.6",
        "At that epsilon, how sure can an attacker who was 10% sure become (as a share)?",
        lambda: posterior_bound(0.1, Laplace.for_rmse(1.0, 10.0).epsilon),
        "The odds 1/9 times e^0.141.",
        "e^0.1414 = 1.152; odds 0.128; posterior 0.128 / 1.128 = 0.113: barely above the prior.",
    ),
    Exercise(
        "08.7",
        "300 Laplace releases of eps0 = 0.1 each, delta = 1e-6. What epsilon does exact accounting give "
        "(dplab.accounting.PLDAccountant())? Compare with basic and advanced composition.",
        lambda: PLDAccountant().compose(Laplace(1.0, 0.1), 300).epsilon(1e-6),
        "From a fresh accountant: dplab.accounting.PLDAccountant().compose(dplab.Laplace(1, 0.1), 300)"
        ".epsilon(1e-6) in one line (compose adds to the accountant it is called on, so running "
        "acc.compose(..., 300) twice counts 600 releases).",
        "9.00: the exact value for these Laplace steps, against 9.17 by KOV's optimal bound (which must hold "
        "for every eps0-DP step, randomized response included), 9.85 by zCDP (CKS), 12.26 by advanced and 30 "
        "by basic composition.",
    ),
]
