"""Lesson 8's exercises: ``dplab.check("08.N", answer)`` checks an answer (and names the mistake it
suspects), ``dplab.solution("08.N")`` prints the worked solution, ``python -m dplab answers 08`` the key.
Every number of a key, a mistake or a worked solution is computed by dplab."""

from __future__ import annotations

import math

from dplab.accounting import PLDAccountant, epsilons
from dplab.lab.exercises import Exercise, Mistake
from dplab.lab.lessons.l08_what_epsilon_promises.report import ACCOUNT_DELTA, ACCOUNT_EPSILON, ACCOUNTANTS
from dplab.mechanisms import Laplace
from dplab.promises import epsilon_for_posterior, posterior_bound, tradeoff_dp


def _tpr_bound(fpr: float, eps: float, delta: float = 0.0) -> float:
    """The largest TPR at this FPR: 1 - f_eps,delta(FPR)."""
    return 1 - tradeoff_dp(fpr, eps, delta)


def _eps_for_rmse() -> float:
    return Laplace.for_rmse(1.0, 10.0).epsilon


def _accounted(k: int = 300) -> dict[str, float]:
    """eps at delta = 1e-6 of k Laplace releases of eps0 = 0.1, by each of section 4's accountants."""
    return epsilons(Laplace(1.0, ACCOUNT_EPSILON), k, ACCOUNT_DELTA, ACCOUNTANTS)


EXERCISES = [
    Exercise(
        "08.1",
        "A release is 0.5-DP. An attacker is 20% sure (p = 0.2) that Alice's record is in the data. At "
        "most how sure "
        "(as a share, e.g. 0.3) can it be after seeing the release?",
        lambda: posterior_bound(0.2, 0.5),
        "eps bounds the growth of the odds p/(1 - p), not of the probability; and the answer is asked as a "
        "probability.",
        "Prior odds 0.2/(1 - 0.2) = {odds:.2f}; times e^0.5 = {growth:.4f}: posterior odds {post_odds:.4f}; "
        "back to a probability: {post_odds:.4f}/(1 + {post_odds:.4f}) = {answer:.4f}.",
        mistakes=(
            Mistake(lambda: 0.2 * math.exp(0.5),
                    "you multiplied the probability by e^eps; eps bounds the growth of the odds."),
            Mistake(lambda: 0.2 / (1 - 0.2) * math.exp(0.5),
                    "those are the posterior odds; turn them back into a probability."),
        ),
        values=lambda: {"odds": 0.2 / 0.8, "growth": math.exp(0.5), "post_odds": 0.25 * math.exp(0.5),
                        "answer": posterior_bound(0.2, 0.5)},
    ),
    Exercise(
        "08.2",
        "A hospital wants no attacker who is 1% sure that a patient is in its data to become more than 50% "
        "sure. What is the largest epsilon it may use (pure DP)?",
        lambda: epsilon_for_posterior(0.01, 0.5),
        "Write both beliefs as odds; e^eps may be at most their ratio.",
        "Prior odds: 1 to {inv:.0f}; posterior odds: 1 to 1 (50% each way). e^eps <= 1/(1/{inv:.0f}) = "
        "{inv:.0f}, "
        "so eps <= ln {inv:.0f} = {eps:.3f}.",
        mistakes=(
            Mistake(lambda: math.log(0.5 / 0.01),
                    "you took the ratio of the probabilities (50); eps bounds the ratio of the odds."),
            Mistake(lambda: math.exp(epsilon_for_posterior(0.01, 0.5)),
                    "that is the largest odds ratio e^eps; eps is its logarithm."),
        ),
        values=lambda: {"inv": 0.99 / 0.01, "eps": epsilon_for_posterior(0.01, 0.5)},
    ),
    Exercise(
        "08.3",
        "A count is released with Laplace noise of scale 1 (sensitivity 1, eps = 1): 0 + noise without "
        "Alice, 1 + noise with her. An attacker's test about Alice may say 'in' when she is out with "
        "probability at most alpha = 0.25. What is the smallest probability beta that it says 'out' when "
        "she is in?",
        lambda: Laplace(1.0, 1.0).tradeoff(0.25),
        "By Neyman-Pearson the best test says 'in' when the output is above a threshold t; choose t so "
        "that the false-alarm rate is alpha, then compute the miss rate under 1 + noise.",
        "Pr[Lap(1) >= t] = e^-t/2 = 0.25 gives t = ln 2 = {t:.4f}. Then beta = Pr[1 + Lap(1) < t] = "
        "e^(t - 1)/2 = {beta:.4f}, above f_eps(0.25) = 1 - e^1 · 0.25 = {f_eps:.4f}: between alpha = "
        "{kink:.3f} and 1/2 the Laplace mechanism is safer than the eps-DP bound.",
        mistakes=(
            Mistake(lambda: tradeoff_dp(0.25, 1.0),
                    "that is f_eps, the bound for every 1-DP mechanism (randomized response sits on it); "
                    "the Laplace mechanism's own curve lies above it here."),
            Mistake(lambda: math.exp(-1.0) * (1 - 0.25),
                    "that is f_eps's lower piece e^-eps (1 - alpha); work out the Laplace test itself."),
            Mistake(lambda: 1 - 0.25,
                    "that is a test that ignores the output (a coin); the output does tell something."),
        ),
        values=lambda: {"t": math.log(2), "beta": Laplace(1.0, 1.0).tradeoff(0.25),
                        "f_eps": tradeoff_dp(0.25, 1.0), "kink": math.exp(-1.0) / 2},
    ),
    Exercise(
        "08.4",
        "A release is (0.5, 1e-4)-DP. At a false-positive rate of 1e-4, what is the largest true-positive "
        "rate any membership attack can have?",
        lambda: _tpr_bound(1e-4, 0.5, 1e-4),
        "Of the two inequalities that (eps, delta)-DP puts on a test, which binds at so small an FPR? "
        "delta is part of it.",
        "TPR <= e^eps FPR + delta = e^0.5 · 1e-4 + 1e-4 = {main:.6f} + 1e-4 = {bound:.6f}. At this FPR "
        "delta is {share:.0%} of the bound, e^eps FPR the larger part; at FPR {fpr3:g} delta would be only "
        "{share3:.0%}.",
        mistakes=(
            Mistake(lambda: _tpr_bound(1e-4, 0.5),
                    "that is e^eps FPR, the pure-DP bound: delta adds to it."),
            Mistake(lambda: math.exp(0.5) * (1e-4 + 1e-4),
                    "you multiplied delta by e^eps too; delta is added after the product."),
        ),
        values=lambda: {"main": math.exp(0.5) * 1e-4, "bound": _tpr_bound(1e-4, 0.5, 1e-4),
                        "share": 1e-4 / _tpr_bound(1e-4, 0.5, 1e-4),
                        "share3": 1e-4 / _tpr_bound(1e-3, 0.5, 1e-4),
                        "fpr3": 1e-3},
    ),
    Exercise(
        "08.5",
        "A count is to be released with root-mean-square error 10 (Laplace, sensitivity 1). Which epsilon?",
        lambda: _eps_for_rmse(),
        "What is the variance of Laplace noise of scale b, and which b does epsilon give?",
        "Laplace of scale b = 1/eps has variance 2b² = 2/eps². 2/eps² = 10² gives eps = √2/10 = {eps:.4f}.",
        mistakes=(
            Mistake(lambda: Laplace.for_rmse(1.0, 10.0 * math.sqrt(2)).epsilon,
                    "you set the scale b equal to the RMSE; Laplace noise's standard deviation is √2 b."),
            Mistake(lambda: Laplace.for_rmse(1.0, 10.0 ** 2).epsilon,
                    "you matched the standard deviation to 100, the target mean squared error."),
        ),
        values=lambda: {"eps": _eps_for_rmse()},
    ),
    Exercise(
        "08.6",
        "At the epsilon of 08.5, how sure can an attacker who was 10% sure (p = 0.1) become (as a share, to "
        "three significant figures)?",
        lambda: posterior_bound(0.1, _eps_for_rmse()),
        "Odds again: the prior's odds times e^eps, then back to a probability.",
        "e^{eps:.4f} = {growth:.4f}; odds 0.1/(1 - 0.1) · {growth:.4f} = {odds:.4f}; posterior "
        "{odds:.4f}/(1 + "
        "{odds:.4f}) = {answer:.4f}: barely above the prior.",
        mistakes=(
            Mistake(lambda: 0.1 * math.exp(_eps_for_rmse()),
                    "you multiplied the probability by e^eps; eps bounds the growth of the odds."),
            Mistake(lambda: posterior_bound(0.1, Laplace.for_rmse(1.0, 10.0 * math.sqrt(2)).epsilon),
                    "the epsilon you used is 1/RMSE, missing the √2 of 08.5."),
        ),
        sig_figs=3,
        values=lambda: {"eps": _eps_for_rmse(), "growth": math.exp(_eps_for_rmse()),
                        "odds": math.exp(_eps_for_rmse()) / 9,
                        "answer": posterior_bound(0.1, _eps_for_rmse())},
    ),
    Exercise(
        "08.7",
        "300 Laplace releases of eps0 = 0.1 each, delta = 1e-6. What epsilon does exact accounting of "
        "their privacy loss distribution give? Compare with basic and advanced composition.",
        lambda: PLDAccountant().compose(Laplace(1.0, 0.1), 300).epsilon(1e-6),
        "Compose the 300 steps on a new accountant and read epsilon at delta. A composition theorem "
        "of notebook 6 gives a larger value: the exact PLD uses what the Laplace mechanism is.",
        "{pld:.2f}: the exact value for these Laplace steps, against {kov:.2f} by KOV's optimal bound "
        "(which must "
        "hold for every eps0-DP step, randomized response included), {zcdp:.2f} by zCDP (CKS), {adv:.2f} by "
        "advanced and {basic:.0f} by basic composition.",
        mistakes=(
            Mistake(lambda: _accounted()["basic"], "that is basic composition, k eps0."),
            Mistake(lambda: _accounted()["advanced (DRV)"], "that is advanced composition (notebook 6)."),
            Mistake(lambda: _accounted()["optimal (KOV)"],
                    "that is KOV's optimal composition, the best for every eps0-DP step; the PLD uses the "
                    "Laplace mechanism itself."),
            Mistake(lambda: _accounted(600)["PLD (exact)"],
                    "that is 600 releases: compose adds to the accountant it is called on, so running the "
                    "line twice counts the steps twice. Start from a new accountant."),
        ),
        values=lambda: {"pld": _accounted()["PLD (exact)"], "kov": _accounted()["optimal (KOV)"],
                        "zcdp": _accounted()["zCDP (CKS)"], "adv": _accounted()["advanced (DRV)"],
                        "basic": _accounted()["basic"]},
    ),
    Exercise(
        "08.8",
        "A 0.1-DP release shows that 90% of a class are taller than 1.6 m. Alice is in the class, and an "
        "attacker who reads it now thinks she is very probably taller than 1.6 m. What does the 0.1-DP "
        "promise say? violated: the release broke it; not_covered: it does not cover this inference; "
        "delta: this is the rare failure that delta allows.",
        lambda: "not_covered",
        "Which two worlds does the posterior bound of section 1 compare?",
        "not_covered: DP bounds the difference Alice's own record makes. The 90% comes from everyone's "
        "records and would be (almost) the same without hers, so the attacker learns it either way.",
        choices=("violated", "not_covered", "delta"),
        explanations={
            "violated": "Tempting, because the belief grew far more than e^0.1-fold. But the bound compares "
                        "the release with Alice's record and without it; both show about 90%, so the "
                        "likelihood ratio stays within e^0.1 and no promise is broken.",
            "not_covered": "DP bounds what Alice's own record adds; what the data as a whole say about "
                           "people like her is learned whether or not she takes part.",
            "delta": "Tempting if one reads delta as 'the chance that privacy fails'. But this release is "
                     "pure (delta = 0), and the inference happens on every output, not on a rare one.",
        },
    ),
]
