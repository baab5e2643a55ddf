"""Lesson 7's exercises: ``dplab.check("07.N", answer)`` checks an answer (and names the mistake it
suspects), ``dplab.solution("07.N")`` prints the worked solution, ``python -m dplab answers 07`` the key.
Every number of a key, a mistake or a worked solution is computed by dplab."""

from __future__ import annotations

import math
from statistics import NormalDist

from dplab.accounting import approx_dp_to_zcdp, pure_to_zcdp
from dplab.lab.exercises import Exercise, Mistake
from dplab.lab.lessons.l07_reconstruction_attack.report import DELTA, column_max
from dplab.promises import posterior_bound
from dplab.reconstruction import (
    answer_noise_sd,
    dp_answer_noise,
    dp_guessing_bound,
    ls_queries_needed,
    ls_recovery_theory,
    reconstruction_robustness_bound,
)


def _uniform_sd(bound: float) -> float:
    return float(answer_noise_sd("uniform", bound))


def _zcdp_sigma(m: int, eps: float) -> float:
    return dp_answer_noise(m, eps, delta=DELTA, split="zcdp")[1]


EXERCISES = [
    Exercise(
        "07.1",
        "n = 400 secret bits, m = 1000 random subset queries, each answer with uniform noise on [-E, E], "
        "E = 12. What share of the bits does least squares recover, by section 3's formula?",
        lambda: ls_recovery_theory(400, 1000, _uniform_sd(12.0)),
        "Which sigma does the formula want, the noise's bound or its standard deviation? And how many "
        "queries are left over once the n bits are pinned down?",
        "Uniform noise on [-E, E] has variance E²/3, so sigma = 12/√3 = {sd:.3f} (not E itself). Then "
        "√(m - n)/(4 sigma) = √(1000 - 400)/(4 · {sd:.3f}) = {z:.4f}, and Phi({z:.4f}) = {share:.4f}: "
        "about {pct:.0f}% "
        "of the bits.",
        mistakes=(
            Mistake(lambda: ls_recovery_theory(400, 1000, 12.0),
                    "you used sigma = E. The formula needs the noise's standard deviation: what is the "
                    "variance of a uniform variable on [-E, E]?"),
            Mistake(lambda: ls_recovery_theory(400, 1400, _uniform_sd(12.0)),
                    "you used √m; the formula has √(m - n): n of the m queries go to pinning the bits down."),
            Mistake(lambda: ls_recovery_theory(400, 1000, _uniform_sd(6.0)),
                    "your sigma is E/√12, the standard deviation of a uniform variable of width E; this "
                    "one's width is 2E."),
        ),
        values=lambda: {"sd": _uniform_sd(12.0), "z": math.sqrt(600) / (4 * _uniform_sd(12.0)),
                        "share": ls_recovery_theory(400, 1000, _uniform_sd(12.0)),
                        "pct": 100 * ls_recovery_theory(400, 1000, _uniform_sd(12.0))},
    ),
    Exercise(
        "07.2",
        "n = 400 bits, uniform noise on [-E, E] with E = 8. How many random queries m make section 3's "
        "formula give a share 0.9 of the bits?",
        lambda: ls_queries_needed(400, _uniform_sd(8.0), 0.9),
        "Set the formula equal to 0.9 and solve for m: invert Phi first, then the square root.",
        "Phi(z) = 0.9 at z = {z:.4f}. √(m - n) = 4 sigma z with sigma = 8/√3 = {sd:.3f}: m - n = (4 · "
        "{sd:.3f} · "
        "{z:.4f})² = {extra:.1f}, so m = 400 + {extra:.1f} = {m:.1f}: about {m:.0f} queries, "
        "{per_bit:.1f} per bit.",
        mistakes=(
            Mistake(lambda: ls_queries_needed(400, _uniform_sd(8.0), 0.9) - 400,
                    "that is m - n: the formula's square root holds m - n, so add the n bits back."),
            Mistake(lambda: ls_queries_needed(400, 8.0, 0.9),
                    "you used sigma = E; the uniform noise's standard deviation is smaller."),
            Mistake(lambda: ls_queries_needed(400, _uniform_sd(8.0), 0.95),
                    "that is the m for 95%: Phi(z) = 0.9 needs a smaller z."),
        ),
        values=lambda: {"z": NormalDist().inv_cdf(0.9), "sd": _uniform_sd(8.0),
                        "extra": ls_queries_needed(400, _uniform_sd(8.0), 0.9) - 400,
                        "per_bit": ls_queries_needed(400, _uniform_sd(8.0), 0.9) / 400,
                        "m": ls_queries_needed(400, _uniform_sd(8.0), 0.9)},
    ),
    Exercise(
        "07.3",
        "A curator answers every subset query within E of the truth but picks its errors to mislead (the "
        "decoy of section 5). Which still holds? exhaustive: the exhaustive attack misses at most 4E bits; "
        "least_squares: least squares recovers Phi(√(m - n)/(4 sigma)) of the bits; dp_bound: no attacker "
        "guesses a bit right more often than e^eps/(1 + e^eps).",
        lambda: "exhaustive",
        "Ask of each statement what it assumes about the noise besides its bound.",
        "exhaustive: the 4E proof of section 2 uses only that the true x and the candidate c are both "
        "within E of every released answer, so it holds for any errors within E, chosen or random.",
        choices=("exhaustive", "least_squares", "dp_bound"),
        explanations={
            "exhaustive": "Its proof (section 2) uses only |answer - truth| <= E for x and for the "
                          "candidate: nothing about how the errors were chosen.",
            "least_squares": "Tempting, since least squares is the attack that worked best on random noise; "
                             "but Phi(√(m - n)/(4 sigma)) assumes independent noise of standard deviation "
                             "sigma. Against the decoy, least squares returns the decoy x' itself.",
            "dp_bound": "Tempting, since the answers are accurate and the decoy hides bits; but accuracy is "
                        "not privacy: the decoy is a fixed function of x, with no epsilon at all, so the "
                        "per-bit bound of section 6 does not apply.",
        },
    ),
    Exercise(
        "07.4",
        "Each bit is 0 or 1 with probability 1/2; the answers are (eps, delta)-DP with eps = 0.7 and "
        "delta = 0.05. At most how often can any attacker guess a bit right, on average?",
        lambda: dp_guessing_bound(0.7, 0.05),
        "A guess is a test of x_i = 0 against x_i = 1; the DP region confines TPR and FPR by two "
        "inequalities. Where in the region is the success (TPR + 1 - FPR)/2 largest?",
        "At the corner of the region, where TPR = e^eps FPR + delta and 1 - FPR = e^eps (1 - TPR) + delta "
        "meet: success (e^0.7 + 0.05)/(1 + e^0.7) = ({e:.4f} + 0.05)/{d:.4f} = {bound:.4f}. delta enters "
        "divided by 1 + e^eps, not in full.",
        mistakes=(
            Mistake(lambda: dp_guessing_bound(0.7),
                    "that is the pure eps bound e^eps/(1 + e^eps): delta raises it."),
            Mistake(lambda: dp_guessing_bound(0.7) + 0.05,
                    "you added delta in full; solve the two inequalities at the region's corner and see "
                    "what delta is divided by."),
        ),
        values=lambda: {"e": math.exp(0.7), "d": 1 + math.exp(0.7), "bound": dp_guessing_bound(0.7, 0.05)},
    ),
    Exercise(
        "07.5",
        "A secret column is 1 for 25% of the people, and an attacker knows the 25%. The answers are "
        "0.6-DP (pure). At most how often can the attacker guess one person's bit right?",
        lambda: dp_guessing_bound(0.6, prior=0.25),
        "Two candidates for the best attack: the corner of the DP region, and an attack that ignores the "
        "release altogether. Which does better here?",
        "The DP corner gives e^0.6/(1 + e^0.6) = {corner:.4f}. But guessing 0 for everyone, without "
        "looking, is right for a share {majority:.2f} of the people, which is more: the bound is "
        "max({corner:.4f}, "
        "{majority:.2f}) = {bound:.2f}. At this eps the release lets no attacker beat the majority guess.",
        mistakes=(
            Mistake(lambda: dp_guessing_bound(0.6),
                    "that is the bound for a bit of prior 1/2. With a 25% prior, what does an attacker get "
                    "without looking at the release at all?"),
            Mistake(lambda: posterior_bound(0.25, 0.6),
                    "that is the most the belief that one bit is 1 can grow (section 1 of notebook 8); the "
                    "question asks how often a guess is right, 0s included."),
        ),
        values=lambda: {"corner": dp_guessing_bound(0.6), "majority": max(0.25, 1 - 0.25),
                        "bound": dp_guessing_bound(0.6, prior=0.25)},
    ),
    Exercise(
        "07.6",
        "The zCDP split answers m = 1024 queries with a total of (eps, delta) = (2, 1e-6). What is each "
        "answer's Gaussian noise sigma?",
        lambda: _zcdp_sigma(1024, 2.0),
        "Turn (eps, delta) into rho first (notebook 6), give each answer rho/m, and use the Gaussian's "
        "sigma for a sensitivity-1 answer and its share of rho.",
        "rho from rho + 2√(rho ln(1/delta)) = eps: rho = (√(ln(1/delta) + eps) - √(ln(1/delta)))² = "
        "{rho:.5f}. Each "
        "answer gets rho/m, so sigma = √(m/(2 rho)) = √(1024/{two_rho:.5f}) = {sigma:.2f}.",
        mistakes=(
            Mistake(lambda: _zcdp_sigma(1, 2.0),
                    "that is the sigma of one answer spending all of rho; each of the m answers gets rho/m."),
            Mistake(lambda: dp_answer_noise(1024, 2.0, split="basic")[1],
                    "that is basic composition's Laplace scale m/eps; the zCDP split uses Gaussian noise "
                    "and rho."),
            Mistake(lambda: math.sqrt(1024 / (2 * pure_to_zcdp(2.0))),
                    "you took rho = eps²/2, the zCDP of an eps-DP step; here rho comes from (eps, delta)."),
        ),
        values=lambda: {"rho": approx_dp_to_zcdp(2.0, DELTA), "two_rho": 2 * approx_dp_to_zcdp(2.0, DELTA),
                        "sigma": _zcdp_sigma(1024, 2.0)},
    ),
    Exercise(
        "07.7",
        "The 512 queries of section 6 are fixed in advance, and no person is in more than 282 of them (the "
        "largest column sum of A, printed there). Answer the whole vector with one Gaussian mechanism of "
        "the same rho as the zCDP split at eps = 2, delta = 1e-6. What sigma?",
        lambda: math.sqrt(column_max() / (2 * approx_dp_to_zcdp(2.0, DELTA))),
        "Bun & Steinke: sigma = (L2 sensitivity)/√(2 rho). How far can one person's bit move the vector of "
        "512 answers, in L2 norm?",
        "A flipped bit moves each of the {cmax} answers that hold it by 1: L2 sensitivity √{cmax}. rho = "
        "{rho:.5f}, so sigma = sqrt({cmax} / {two_rho:.6f}) = {sigma:.2f}, against {split:.1f} for the split "
        "({ratio:.2f} times less noise) for the same guarantee: composition assumed a person could be in "
        "all 512.",
        mistakes=(
            Mistake(lambda: _zcdp_sigma(512, 2.0),
                    "that is the split's sigma, which assumes a person may be in every query."),
            Mistake(lambda: column_max() / math.sqrt(2 * approx_dp_to_zcdp(2.0, DELTA)),
                    "you used the L1 sensitivity; the Gaussian mechanism is calibrated to the L2 norm of the "
                    "change."),
        ),
        values=lambda: {"cmax": column_max(), "rho": approx_dp_to_zcdp(2.0, DELTA),
                        "two_rho": 2 * approx_dp_to_zcdp(2.0, DELTA),
                        "sigma": math.sqrt(column_max() / (2 * approx_dp_to_zcdp(2.0, DELTA))),
                        "split": _zcdp_sigma(512, 2.0),
                        "ratio": math.sqrt(512 / column_max())},
    ),
    Exercise(
        "07.8",
        "A secret takes one of K = 20 equally likely values, and the release is 0.5-DP (pure, delta = 0). "
        "By section 7's robustness bound, at most how often can any attack recover it?",
        lambda: reconstruction_robustness_bound(1 / 20, epsilon=0.5),
        "Start from the chance kappa of a guess without the release, and use the trade-off function of "
        "(eps, 0)-DP at alpha = kappa.",
        "kappa = 1/20. Success <= min(1, e^eps kappa, 1 - e^-eps (1 - kappa)) = min(1, {a:.4f}, {b:.4f}) = "
        "{bound:.4f}: the release can raise a 1-in-20 guess to at most {times:.2f} times its chance, e^eps.",
        mistakes=(
            Mistake(lambda: dp_guessing_bound(0.5),
                    "that is the bound for a bit (K = 2); with 20 values a blind guess starts much lower."),
            Mistake(lambda: reconstruction_robustness_bound(1 / 20, epsilon=0.0),
                    "that is the chance without any release; 0.5-DP lets the attacker do somewhat better."),
        ),
        values=lambda: {"a": math.exp(0.5) / 20, "b": 1 - math.exp(-0.5) * (1 - 1 / 20),
                        "bound": reconstruction_robustness_bound(1 / 20, epsilon=0.5),
                        "times": reconstruction_robustness_bound(1 / 20, epsilon=0.5) * 20},
    ),
]
