"""Lesson 7's exercises: ``dplab.check("07.N", answer)`` checks an answer, ``python -m
dplab answers 07`` prints the key (questions, computed answers, worked solutions)."""

from __future__ import annotations

import math

from dplab.accounting import approx_dp_to_zcdp
from dplab.lab.exercises import Exercise
from dplab.lab.lessons.l07_reconstruction_attack.report import DELTA, column_max
from dplab.reconstruction import (
    answer_noise_sd,
    dp_answer_noise,
    dp_guessing_bound,
    ls_queries_needed,
    ls_recovery_theory,
)

EXERCISES = [
    Exercise(
        "07.1",
        "n = 400 secret bits, m = 800 random subset queries, uniform noise on [-E, E] with E = 10. "
        "What share of the bits does least squares recover (the formula)?",
        lambda: ls_recovery_theory(400, 800, answer_noise_sd("uniform", 10.0)),
        "Phi(sqrt(m - n) / (4 sigma)) with sigma = E / sqrt(3).",
        "sigma = 10/sqrt(3) = 5.77; sqrt(400)/(4 * 5.77) = 0.866; Phi(0.866) = 0.807.",
    ),
    Exercise(
        "07.2",
        "Keep n = 400 and E = 10. How many queries m make the formula give 95%?",
        lambda: ls_queries_needed(400, answer_noise_sd("uniform", 10.0), 0.95),
        "Solve sqrt(m - n) / (4 sigma) = Phi^-1(0.95) = 1.645 for m.",
        "m = n + (4 sigma 1.645)^2 = 400 + (4 * 5.774 * 1.645)^2 = 400 + 1443 = 1843.",
    ),
    Exercise(
        "07.3",
        "All 2^n subsets are answered, each within E = 3 of the truth. At most how many bits can the "
        "exhaustive attack get wrong?",
        lambda: 12.0,
        "Each of the two kinds of wrong bits forms a query on which the answers differ by their number.",
        "4E = 12: at most 2E = 6 bits with x_i = 1, c_i = 0, and at most 6 the other way.",
    ),
    Exercise(
        "07.4",
        "Each bit is 0 or 1 with probability 1/2 and the answers are released with eps = 2 (pure DP). "
        "What is the most often any attacker can guess a bit right?",
        lambda: dp_guessing_bound(2.0),
        "e^eps / (1 + e^eps): the corner of the region of tests DP allows.",
        "e^2 / (1 + e^2) = 7.389 / 8.389 = 0.881, whatever the attack and however many queries.",
    ),
    Exercise(
        "07.5",
        "The real column (BMI >= 25) is 1 for 30% of the students. Released with eps = 0.5, what is "
        "the most often an attacker who knows the 30% can guess a student's bit right?",
        lambda: dp_guessing_bound(0.5, prior=0.3),
        "Compare the majority guess with e^eps / (1 + e^eps).",
        "max(0.7, e^0.5/(1 + e^0.5) = 0.622) = 0.7: the bound is the majority guess, so this release "
        "lets no attacker do better than 'everyone is below 25'.",
    ),
    Exercise(
        "07.6",
        "The zCDP split answers m = 512 queries with total (eps = 1, delta = 1e-6). What is each "
        "answer's noise sigma?",
        lambda: dp_answer_noise(512, 1.0, delta=DELTA, split="zcdp")[1],
        "rho from (eps, delta) by rho + 2 sqrt(rho ln(1/delta)) = eps; then sigma = sqrt(m / (2 rho)).",
        "rho = (sqrt(ln 1e6 + 1) - sqrt(ln 1e6))^2 = 0.0175; sigma = sqrt(512 / 0.0350) = 121.1: far above "
        "sqrt(n) = 16 for n = 256, so least squares is near a coin toss.",
    ),
    Exercise(
        "07.7",
        "The 512 queries of section 6 are fixed in advance, and no person is in more than 282 of them (the "
        "largest column sum of A, printed there). Answer the whole vector with one Gaussian mechanism of "
        "L2 sensitivity sqrt(282) and the same rho as the zCDP split at eps = 1, delta = 1e-6. What sigma?",
        lambda: math.sqrt(column_max() / (2 * approx_dp_to_zcdp(1.0, DELTA))),
        "Bun & Steinke: sigma = Delta_2 / sqrt(2 rho); a flipped bit moves 282 answers by 1 at most.",
        "rho = 0.01747: sigma = sqrt(282 / 0.034938) = 89.84, against 121.1 for the split (sqrt(512/282) = "
        "1.35 times less, 26% less noise) for the same guarantee: composition assumed a person could be in "
        "all 512.",
    ),
]
