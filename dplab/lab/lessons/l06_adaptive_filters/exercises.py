"""Lesson 6's exercises: ``dplab.check("06.N", answer)`` checks an answer, ``dplab.solution("06.N")``
prints its worked solution, ``python -m dplab answers 06`` prints the key. Every number of a key, a
mistake or a worked solution is computed by ``dplab.accounting`` and ``dplab.mechanisms.noise_reduction``
(the "implement it" exercise, 06.impl, is in ``implement.py``)."""

from __future__ import annotations

import math

from dplab.accounting import (
    BasicFilter,
    ZCDPFilter,
    advanced_composition,
    approx_dp_to_zcdp,
    filter_trace,
    pure_to_zcdp,
    zcdp_to_approx_dp,
)
from dplab.accounting.advanced import advanced_composition_per_step
from dplab.lab.exercises import Exercise, Mistake
from dplab.mechanisms.noise_reduction import brownian_rho, brownian_time, laplace_noise_reduction_cost

REQUESTS = (0.25, 0.35, 0.3, 0.2, 0.1)  # 06.1's requests, in order
LEVELS = (0.05, 0.1, 0.2, 0.4)  # 06.5's Laplace noise reduction


def _remaining_after_noise_reduction(stopped_after: int | None) -> float:
    """What BasicFilter(1) has left after a Laplace noise reduction over LEVELS: reserved and settled
    where it stopped (``stopped_after`` releases), or, with None, its cap charged like a request."""
    filt = BasicFilter(1.0)
    if stopped_after is None:
        filt.request(LEVELS[-1])
    else:
        filt.reserve(LEVELS[-1]).settle(float(laplace_noise_reduction_cost(LEVELS, stopped_after)))
    return filt.remaining


def _composed_remaining() -> float:
    filt = BasicFilter(1.0)
    filter_trace(filt, LEVELS[:3])
    return filt.remaining


def _filter_values() -> dict[str, object]:
    trace = filter_trace(BasicFilter(1.0), REQUESTS)
    return {"steps": "; ".join(f"{r:g} {'accepted' if ok else 'refused'} (spent {s:g})"
                               for r, (ok, s) in zip(REQUESTS, trace, strict=True)), "spent": trace[-1][1]}


def _per_step_values() -> dict[str, float]:
    eps0 = advanced_composition_per_step(1.0, 200, 1e-5)
    return {"eps0": eps0, "first": math.sqrt(2 * 200 * math.log(1 / 1e-5)) * eps0,
            "second": 200 * eps0 * math.expm1(eps0), "total": advanced_composition(eps0, 200, 1e-5)[0],
            "seed": advanced_composition_per_step(1.0, 200, 1e-5, method="simplified"), "basic": 1 / 200}


def _zcdp_values() -> dict[str, float]:
    rho = 50 * pure_to_zcdp(0.2)
    return {"rho": rho, "log": math.log(1 / 1e-5), "eps": zcdp_to_approx_dp(rho, 1e-5),
            "advanced": advanced_composition(0.2, 50, 1e-5)[0],
            "cks": zcdp_to_approx_dp(rho, 1e-5, method="cks")}


def _brownian_values() -> dict[str, float]:
    return {"cap": brownian_rho(2.0, 10.0), "rho": brownian_rho(2.0, 40.0)}


def _reduction_values() -> dict[str, float]:
    return {"cap": LEVELS[-1], "charge": float(laplace_noise_reduction_cost(LEVELS, 3)),
            "left": _remaining_after_noise_reduction(3), "composed": _composed_remaining()}


def _time_values() -> dict[str, float]:
    rho = approx_dp_to_zcdp(2.0, 1e-6)
    return {"log": math.log(1 / 1e-6), "rho": rho,
            "time": ZCDPFilter.from_approx_dp(2.0, 1e-6).min_brownian_time(1.0)}


EXERCISES = [
    Exercise(
        "06.1", "dplab's BasicFilter with budget eps = 1 receives the requests 0.25, 0.35, 0.3, 0.2, 0.1 "
        "in that order. How much has it spent at the end?",
        lambda: filter_trace(BasicFilter(1.0), REQUESTS)[-1][1],
        "Go through the requests one by one: when does the total first fail to fit, and what does "
        "dplab's filter do after a refusal?",
        "{steps}. It has spent {spent:g}: the last request would fit, but dplab's filters stay halted "
        "after their first refusal.",
        mistakes=(
            Mistake(lambda: filter_trace(BasicFilter(1.0), REQUESTS[:3] + REQUESTS[4:])[-1][1],
                    "the last request would fit, but dplab's filters stay halted once they refused one."),
            Mistake(lambda: filter_trace(BasicFilter(10.0), REQUESTS)[-1][1],
                    "that is the sum of every request: a filter never spends past its budget."),
        ),
        values=_filter_values),
    Exercise(
        "06.2", "A total budget eps = 1 at delta' = 1e-5 for k = 200 eps0-DP steps: what is the largest "
        "per-step eps0 that advanced composition allows (solve its formula, not the lecture's "
        "closed form)?",
        lambda: advanced_composition_per_step(1.0, 200, 1e-5),
        "Advanced composition's total is increasing in eps0: solve total(eps0) = 1 numerically "
        "(bisection is enough).",
        "Solve sqrt(2k ln(1/delta')) eps0 + k eps0 (e^eps0 - 1) = 1: eps0 = {eps0:.5f}, where the two "
        "terms are {first:.4f} + {second:.4f} = {total:.4f}. [Roth11]'s closed form "
        "eps/sqrt(8k ln(1/delta')) gives {seed:.5f} (it assumes eps <= 1 and is "
        "loose), basic composition eps/k = {basic:g}.",
        mistakes=(
            Mistake(lambda: advanced_composition_per_step(1.0, 200, 1e-5, method="simplified"),
                    "that is the lecture's closed form eps/sqrt(8k ln(1/delta')), a safe but loose "
                    "root; solve the formula itself."),
            Mistake(lambda: 1 / 200,
                    "that is basic composition's eps/k; advanced composition allows more per step here."),
        ),
        values=_per_step_values),
    Exercise(
        "06.3", "k = 50 mechanisms, each 0.2-DP, composed through zCDP: what total epsilon does the "
        "simple conversion give at delta = 1e-5?",
        lambda: zcdp_to_approx_dp(50 * pure_to_zcdp(0.2), 1e-5),
        "Convert each step to zCDP, add the rhos, then convert back with the simple conversion of "
        "section 1.",
        "Each step is eps0²/2-zCDP, so rho = k eps0²/2 = {rho:g}; the simple conversion gives "
        "rho + 2 sqrt(rho ln(1/delta)) = {rho:g} + 2 sqrt({rho:g} · {log:.3f}) = {eps:.4f} "
        "(advanced composition: {advanced:.4f}; CKS: {cks:.4f}).",
        mistakes=(
            Mistake(lambda: zcdp_to_approx_dp(50 * 2 * pure_to_zcdp(0.2), 1e-5),
                    "an eps0-DP step is eps0²/2-zCDP, not eps0²."),
            Mistake(lambda: zcdp_to_approx_dp(50 * pure_to_zcdp(0.2), 1e-5, method="cks"),
                    "that is the tighter CKS conversion; the question asks the simple one."),
            Mistake(lambda: advanced_composition(0.2, 50, 1e-5)[0],
                    "that is advanced composition; the question goes through zCDP."),
        ),
        values=_zcdp_values),
    Exercise(
        "06.4", "A unified zCDP filter reserves a Brownian noise reduction on a query of sensitivity 2 "
        "with T_min = 10; the run stops at T = 40. What rho does settling it charge?",
        lambda: brownian_rho(2.0, 40.0),
        "The run stopped at time T is charged like a Gaussian of variance T; the reservation only "
        "held its largest possible charge.",
        "The reservation held Δ²/(2 T_min) = {cap:g}; settling charges where the run stopped, "
        "Δ²/(2T) = 2²/(2 · 40) = {rho:g}, and returns the rest.",
        mistakes=(
            Mistake(lambda: brownian_rho(2.0, 10.0),
                    "that is the cap held by the reservation; settling charges the time it stopped at."),
            Mistake(lambda: brownian_rho(math.sqrt(2.0), 40.0),
                    "the sensitivity enters squared, as in a Gaussian's rho = Δ²/(2 sigma²)."),
        ),
        values=_brownian_values),
    Exercise(
        "06.5", "BasicFilter(1) reserves ([Rogers23], Lemma 5.2) a Laplace noise reduction with levels "
        "eps = 0.05, 0.1, 0.2, 0.4; the analyst stops after the 3rd release and settles. How much budget "
        "is left?",
        lambda: _remaining_after_noise_reduction(3),
        "What is a Laplace noise reduction's ex-post cost when it stops after release i, and what "
        "happens to the rest of the reservation?",
        "The reservation holds the largest level, {cap:g}; stopping after the 3rd release costs only "
        "that level's eps, {charge:g} (ex-post: the earlier, noisier releases are functions of it), so "
        "settling charges {charge:g} and returns the rest: {left:g} left (composing the three levels "
        "would leave {composed:g}).",
        mistakes=(
            Mistake(_composed_remaining,
                    "the three releases are not composed: the earlier ones are post-processing of the "
                    "last one, which alone is paid for."),
            Mistake(lambda: _remaining_after_noise_reduction(None),
                    "that keeps the whole cap; settle charges only the level where the run stopped and "
                    "returns the rest."),
        ),
        values=_reduction_values),
    Exercise(
        "06.6", "ZCDPFilter.from_approx_dp(2, 1e-6) holds nothing else yet. A Brownian noise reduction on a "
        "count (sensitivity 1) runs its time T down from a large value: what is the smallest T at which "
        "it may stop within the filter's budget?",
        lambda: ZCDPFilter.from_approx_dp(2.0, 1e-6).min_brownian_time(1.0),
        "Find the filter's rho from its (eps, delta) by the simple conversion, then the time whose "
        "charge uses it all.",
        "The filter's rho solves rho + 2 sqrt(rho ln(1/delta)) = eps with ln(1/delta) = {log:.3f}: "
        "rho = {rho:.5f}. A run stopped at T costs Δ²/(2T), so T >= 1/(2 rho) = {time:.3f}.",
        mistakes=(
            Mistake(lambda: brownian_time(1.0, approx_dp_to_zcdp(2.0, 1e-6, method="cks")),
                    "that uses the CKS conversion; from_approx_dp uses the simple one."),
            Mistake(lambda: brownian_time(1.0, pure_to_zcdp(2.0)),
                    "rho = eps²/2 converts a pure eps-DP mechanism to zCDP; the filter's rho comes from "
                    "the (eps, delta) guarantee it must give."),
        ),
        values=_time_values),
    Exercise(
        "06.7", "An analyst with no budget fixed in advance asks Gaussian queries and stops when she "
        "likes. After spending rho she reports the filter bound rho + 2 sqrt(rho ln(1/delta)) as her "
        "eps. Is that a valid eps, and if not, what gives one?",
        lambda: "needs_odometer",
        "The filter's bound holds for a budget fixed before the first query; here the stopping point "
        "is chosen on the way.",
        "needs_odometer: she may stop when her loss happens to be high, so the bound read at the rho spent "
        "can fail more often than delta (section 2's simulation); an odometer pays a union bound over "
        "a ladder of budgets.",
        choices=("valid", "needs_odometer", "pure_only", "never"),
        explanations={
            "valid": "Tempting, since each reading looks like a filter's. But the filter's guarantee needs "
                     "its budget before the first query; an analyst who stops when the loss is high "
                     "exceeds the bound read at the rho spent in more than delta of the runs.",
            "needs_odometer": "An odometer (ZCDPOdometer) reads the bound of the smallest budget of a "
                        "doubling ladder at or above the rho spent, at a share of delta, and holds "
                        "whenever she stops.",
            "pure_only": "Pure eps has an odometer for free (the running sum), but the question is about "
                         "zCDP's square-root bound, which is not one.",
            "never": "Too pessimistic: an odometer gives a valid eps at every stopping point, at the price "
                     "of a union bound.",
        }),
    Exercise(
        "06.8", "Which stopping rule keeps a Brownian noise reduction's charge Delta²/(2T) valid, T being "
        "where it stopped?",
        lambda: "own_outputs",
        "The proof rests on a martingale stopped at a stopping time (section 4): what may the rule see?",
        "own_outputs: a rule that sees only the outputs released so far is a stopping time, and the "
        "stopped martingale keeps its mean 1.",
        choices=("own_outputs", "peek_next", "true_value", "any_rule"),
        explanations={
            "own_outputs": "A stopping time (e.g. the first output at or above a target) keeps "
                           "E[exp(lambda L - lambda(lambda+1) rho_T)] = 1, the identity the charge rests on.",
            "peek_next": "Peeking at the next, less noisy output is not a stopping time: section 4's check "
                         "shows the martingale's mean above 1 for that rule.",
            "true_value": "A rule that sees the true value uses the data itself, outside any privacy "
                          "accounting.",
            "any_rule": "Not any: the charge holds for stopping times only; a rule that looks ahead "
                        "breaks the martingale identity.",
        }),
]
