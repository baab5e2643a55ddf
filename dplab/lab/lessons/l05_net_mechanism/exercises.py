"""Lesson 5's exercises: ``dplab.check("05.N", answer)`` checks an answer, ``python -m
dplab answers 05`` prints the key (questions, computed answers, worked solutions)."""

from __future__ import annotations

import numpy as np

from dplab.lab.exercises import Exercise
from dplab.mechanisms.exponential import exponential_probabilities
from dplab.net_mechanism import (
    all_predicates,
    counting_queries_l1_sensitivity,
    lemma12_failure_bound,
    net_sample_size,
    net_size,
)

EXERCISES = [
    Exercise("05.1", "How many databases of size m = 13 are there over a universe of |X| = 8 elements "
             "(the live panel's net)?", lambda: net_size(8, 13),
             "Multisets of 13 elements of an 8-element set: stars and bars.",
             "C(8 + 13 - 1, 13) = C(20, 13) = 77,520 (Theorem 11's |X|^m = 8^13 = 5.5·10^11 counts "
             "ordered samples).", rel_tol=1e-12),
    Exercise("05.2", "Lemma 12 needs 2|C| e^{-2 m alpha^2} < 1. For |C| = 256 and alpha = 0.5, what is the "
             "smallest such m?", lambda: net_sample_size(256, 0.5, rule="chernoff"),
             "Solve m > ln(2|C|) / (2 alpha^2) and round up to the next whole number.",
             "ln 512 / 0.5 = 12.48, so m = 13; the seed's m = ln|C|/alpha^2 asks for 23.", rel_tol=1e-12),
    Exercise("05.3", "Scores (3, 2, 0), sensitivity 1, eps = 2: with what probability does the exponential "
             "mechanism return the first candidate?",
             lambda: float(exponential_probabilities(np.array([3.0, 2.0, 0.0]), 1.0, 2.0)[0]),
             "Weights exp(eps s / (2 Delta)) = e^s here; normalise.",
             "e^3 / (e^3 + e^2 + 1) = 0.705."),
    Exercise("05.4", "Lemma 12's bound for |C| = 256 predicates, m = 100 and alpha = 0.2?",
             lambda: lemma12_failure_bound(256, 100, 0.2), "2 |C| e^{-2 m alpha^2}.",
             "512 e^{-8} = 0.172; the simulated failure rate is far lower (a union bound over "
             "correlated queries)."),
    Exercise("05.5", "Report noisy max with which noise of scale 2 Delta/eps is exactly the exponential "
             "mechanism?", lambda: "gumbel",
             "Compare report_noisy_max_probabilities for each noise with exponential_probabilities.",
             "gumbel (the Gumbel-max trick); exponential noise gives permute-and-flip, Laplace noise "
             "a third mechanism.",
             choices=("laplace", "exponential", "gumbel")),
    Exercise("05.6", "Every predicate on a universe of |X| = 16 elements, answers normalised by n = 1000: "
             "what is the joint L1 sensitivity under replace-one?",
             lambda: counting_queries_l1_sensitivity(all_predicates(16), 1000),
             "Replacing x by y moves the answers of the predicates that contain exactly one of them.",
             "2^15 / 1000 = 32.768: half of the 65,536 predicates separate any two elements."),
]
