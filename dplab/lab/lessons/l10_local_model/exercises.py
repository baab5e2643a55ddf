"""Lesson 10's exercises: ``dplab.check("10.N", answer)`` checks an answer (and names the mistake it
suspects), ``dplab.solution("10.N")`` prints the worked solution, ``python -m dplab answers 10`` the key.
Every number of a key, a mistake or a worked solution is computed by dplab."""

from __future__ import annotations

import math

import numpy as np

from dplab import local
from dplab.lab.exercises import Exercise, Mistake
from dplab.mechanisms import RandomizedResponse

#: 10.6's users (not a size the notebook prints)
SHUFFLE_N = 500_000


def _reports(yes: int, n: int) -> np.ndarray:
    return np.r_[np.ones(yes, dtype=np.int64), np.zeros(n - yes, dtype=np.int64)]


def _sd(name: str, epsilon: float, d: int, n: int) -> float:
    return math.sqrt(local.frequency_oracle_variance(name, epsilon, d, n))


def _last_win(rival: str, epsilon: float) -> int:
    """The largest d at which k-RR's variance (f = 0) is below ``rival``'s, by dplab.local's variances."""
    return next(d for d in range(2, 10**6) if local.frequency_oracle_variance(rival, epsilon, d + 1, 1)
                < local.frequency_oracle_variance("grr", epsilon, d + 1, 1))


def _g(epsilon: float) -> int:
    """OLH's number of hash buckets, max(2, round(e^eps + 1)) (Wang et al. 2017)."""
    return max(2, round(math.exp(epsilon) + 1))


def _rr_values(epsilon: float) -> dict[str, float]:
    rr = RandomizedResponse(epsilon)
    return {"p": rr.keep, "q": rr.flip}


EXERCISES = [
    Exercise(
        "10.1",
        "1,000 students answer a yes/no question by randomized response at epsilon = ln 4 (the truth with "
        "probability e^eps/(1 + e^eps)). The server receives 440 'yes' reports. What is its unbiased "
        "estimate of the share of students whose true answer is yes?",
        lambda: local.rr_estimate(_reports(440, 1000), math.log(4)),
        "Write the expected share of 'yes' reports in terms of the true share, p and q, and solve for it.",
        "p = e^ε/(1 + e^ε) = {p:.2f}, q = 1 − p = {q:.2f}. A 'yes' report comes from a yes told truly or "
        "a no flipped: E[share of yes] = q + (p − q) π. Solving, π̂ = ({y:g} − {q:.2f})/({p:.2f} − {q:.2f}) = "
        "{answer:.2f}.",
        mistakes=(
            Mistake(lambda: 0.44,
                    "that is the share of 'yes' reports; a fifth of the no-sayers said yes too."),
            Mistake(lambda: (0.44 - 0.2) / 0.8,
                    "you removed the flipped no's but divided by p; the estimate divides by p − q."),
        ),
        values=lambda: {**_rr_values(math.log(4)), "y": 440 / 1000,
                        "answer": local.rr_estimate(_reports(440, 1000), math.log(4))},
    ),
    Exercise(
        "10.2",
        "Randomized response at epsilon = 1 among n = 10,000 people: what is the standard deviation of the "
        "server's estimated share (over the randomization, the people fixed)?",
        lambda: math.sqrt(local.rr_variance(0.3, 1.0, 10_000)),
        "Each report has variance pq; the estimate divides the mean of n reports by p − q.",
        "p = {p:.4f}, q = {q:.4f}; Var = pq/(n (p − q)²) = {var:.3g}; the standard deviation is its root, "
        "{answer:.4f}: about twice √(pq/n) = {naive:.4f}.",
        mistakes=(
            Mistake(lambda: local.rr_variance(0.3, 1.0, 10_000),
                    "that is the variance; take its square root."),
            Mistake(lambda: math.sqrt(RandomizedResponse(1.0).keep * RandomizedResponse(1.0).flip / 10_000),
                    "that is the standard deviation of the share of 'yes' reports; the estimate divides it "
                    "by p − q."),
        ),
        values=lambda: {**_rr_values(1.0), "var": local.rr_variance(0.3, 1.0, 10_000),
                        "answer": math.sqrt(local.rr_variance(0.3, 1.0, 10_000)),
                        "naive": math.sqrt(_rr_values(1.0)["p"] * _rr_values(1.0)["q"] / 1e4)},
    ),
    Exercise(
        "10.3",
        "A count over n = 1,000,000 people at epsilon = 1: how many times larger is the root-mean-square "
        "error of the count estimated from randomized-response reports than that of the central count "
        "released with Laplace noise of scale 1/epsilon?",
        lambda: local.local_central_gap(1.0, 10**6),
        "Compute both errors of the count: the local one grows with n, the central one does not.",
        "Local: √(n e^ε)/(e^ε − 1) = {local:.1f}; central: √2/ε = {central:.4f}; ratio {answer:.1f}.",
        mistakes=(
            Mistake(lambda: 1000.0, "√n is only the order of the gap; compute both errors at ε = 1."),
            Mistake(lambda: local.local_count_rmse(1.0, 10**6),
                    "Laplace noise of scale b has standard deviation √2 b, not b: the central error is "
                    "√2/ε."),
            Mistake(lambda: local.local_central_gap(1.0, 10**6) ** 2,
                    "that is the ratio of the mean squared errors; the question asks for the errors' ratio."),
        ),
        values=lambda: {"local": local.local_count_rmse(1.0, 10**6), "central": local.central_count_rmse(1.0),
                        "answer": local.local_central_gap(1.0, 10**6)},
    ),
    Exercise(
        "10.4",
        "Optimised local hashing (OLH) at epsilon = 2 over d = 1,000 values with n = 100,000 users: what is "
        "the standard deviation of the estimated frequency of a value nobody holds (f = 0)?",
        lambda: _sd("olh", 2.0, 1000, 10**5),
        "OLH hashes into g = max(2, round(e^ε + 1)) buckets and runs k-RR there; for the variance, q is the "
        "chance that another user's report supports the value.",
        "g = round(e² + 1) = {g}; p = e^ε/(e^ε + g − 1) = {p:.4f}, q = 1/g = {q:.4f}; Var = q(1 − q)/((p − "
        "q)² n) and the standard deviation {answer:.5f}, whatever d.",
        mistakes=(
            Mistake(lambda: _sd("grr", 2.0, 1000, 10**5),
                    "that is k-RR over all 1,000 values; OLH runs it over g buckets."),
            Mistake(lambda: local.frequency_oracle_variance("olh", 2.0, 1000, 10**5),
                    "that is the variance; take its square root."),
        ),
        values=lambda: {"g": _g(2.0), "p": math.exp(2) / (math.exp(2) + _g(2.0) - 1), "q": 1 / _g(2.0),
                        "answer": _sd("olh", 2.0, 1000, 10**5)},
    ),
    Exercise(
        "10.5",
        "At epsilon = 3, what is the largest domain size d at which k-RR (generalised randomized response) "
        "has a smaller variance than OUE (optimised unary encoding)?",
        lambda: _last_win("oue", 3.0),
        "Compare the two variances at f = 0: k-RR's grows with d, OUE's does not.",
        "k-RR: (e^ε + d − 2)/(e^ε − 1)²; OUE: 4e^ε/(e^ε − 1)². k-RR is smaller while d < 3e^ε + 2 = "
        "{cross:.2f}, so up to d = {answer}.",
        rel_tol=0.0,
        mistakes=(
            Mistake(lambda: _last_win("oue", 3.0) + 1, "that is the first d at which OUE wins."),
            Mistake(lambda: _last_win("sue", 3.0),
                    "that is the comparison with SUE (basic RAPPOR), not OUE."),
        ),
        values=lambda: {"cross": 3 * math.exp(3) + 2, "answer": _last_win("oue", 3.0)},
    ),
    Exercise(
        "10.6",
        "n = 500,000 users each send a report of randomized response at epsilon0 = 2 through a shuffler. "
        "By the closed-form bound of Feldman, McMillan & Talwar (2021), what epsilon at delta = 1e-6 does "
        "the shuffled set of reports satisfy?",
        lambda: local.shuffle_epsilon(2.0, SHUFFLE_N, 1e-6),
        "The bound is ln(1 + (e^ε₀ − 1)/(e^ε₀ + 1) · (8 √(e^ε₀ ln(4/δ)/n) + 8 e^ε₀/n)).",
        "e^ε₀ = {e0:.4f}; (e^ε₀ − 1)/(e^ε₀ + 1) = {ratio:.4f}; the bracket is {bracket:.5f}; ε = ln(1 + "
        "{ratio:.4f} · {bracket:.5f}) = {answer:.4f}, from ε₀ = 2.",
        mistakes=(
            Mistake(lambda: 2.0, "that is each report's ε₀; shuffling amplifies it."),
            Mistake(lambda: math.expm1(local.shuffle_epsilon(2.0, SHUFFLE_N, 1e-6)),
                    "that is the quantity inside ln(1 + ·); take the logarithm."),
        ),
        sig_figs=3,
        values=lambda: {"e0": math.exp(2), "ratio": math.tanh(1.0),
                        "bracket": 8 * math.sqrt(math.exp(2) * math.log(4e6) / SHUFFLE_N)
                        + 8 * math.exp(2) / SHUFFLE_N,
                        "answer": local.shuffle_epsilon(2.0, SHUFFLE_N, 1e-6)},
    ),
    Exercise(
        "10.7",
        "Users send randomized-response reports at epsilon0 = 2 to a shuffler, which forwards them to the "
        "analyst in random order; by amplification the analyst's view is (eps, 1e-6)-DP with an eps far "
        "below 2. Against whom does a user have that small eps?",
        lambda: "analyst",
        "Who sees which report next to which user?",
        "The analyst sees the reports without names, shuffled: for it the set is (ε, 10⁻⁶)-DP with ε far "
        "below ε₀ (answer: analyst). The shuffler sees each report with its sender: against it only ε₀ "
        "holds.",
        choices=("analyst", "shuffler", "everyone", "no one"),
        explanations={
            "analyst": "the analyst sees only the shuffled reports, whose set is (ε, δ)-DP.",
            "shuffler": "the shuffler sees each report with its sender: against it a user has only ε₀ = 2.",
            "everyone": "the shuffler (or anyone who watches the network) sees who sent which report: ε₀ "
                        "only against them.",
            "no one": "the analyst's view is (ε, 10⁻⁶)-DP by the amplification theorem, if the shuffler "
                      "is honest and the reports are independent.",
        },
    ),
]
