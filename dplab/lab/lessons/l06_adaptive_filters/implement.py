"""Lesson 6's "implement it" exercise: a basic privacy filter, written by the student and checked by
``dplab.check("06.impl", fn)`` against dplab.accounting.BasicFilter (dplab/lab/implement.py)."""

from __future__ import annotations

import numpy as np

from dplab.accounting.filters import BasicFilter
from dplab.lab import implement
from dplab.lab.exercises import Exercise
from dplab.lab.lessons.l06_adaptive_filters.report import ADAPTIVE_COSTS

#: random sequences of requests, multiples of 1/8 (exact in binary, so float sums are exact too)
N_SEQUENCES, LENGTH = 40, 8


def basic_filter(budget, requests):
    """A basic filter: accept each request while the accepted epsilons sum to at most the budget; the
    first request that does not fit is refused, and so is every later one (the filter halts)."""
    if not budget > 0:
        raise ValueError(f"budget must be > 0, got budget={budget}")
    spent, halted, decisions = 0.0, False, []
    for epsilon in requests:
        halted = halted or spent + epsilon > budget
        if not halted:
            spent += epsilon
        decisions.append(not halted)
    return decisions


def _cases() -> list[tuple[float, tuple[float, ...]]]:
    """The lesson's adaptive sequence at budget 1, an exact fit, and random sequences."""
    rng = np.random.default_rng(implement.SEED)
    cases = [(1.0, ADAPTIVE_COSTS), (1.0, (0.25, 0.25, 0.5, 0.125)), (1.0, (0.5, 0.75, 0.25, 0.25))]
    return cases + [(float(rng.integers(1, 3)), tuple(rng.integers(1, 7, LENGTH) / 8))
                    for _ in range(N_SEQUENCES)]


def _diagnose(budget: float, requests: tuple[float, ...], given: list[bool]) -> str | None:
    """The first decision that differs from dplab's BasicFilter, said with the budget spent so far."""
    reference, spent, refused = BasicFilter(budget), 0.0, None
    for i, (epsilon, said) in enumerate(zip(requests, given, strict=True)):
        right = reference.request(epsilon)
        where = f"budget {budget:g}, requests {list(requests)}: request {i + 1} (epsilon {epsilon:g})"
        if said and not right and refused is not None:
            return (f"{where} was accepted after request {refused + 1} was refused: a filter halts at its "
                    "first refusal (its guarantee covers the interaction up to there)")
        if said and not right:
            return (f"{where} was accepted with {spent:g} spent: {spent + epsilon:g} > {budget:g}, your "
                    "filter spends past its budget")
        if right and not said:
            return f"{where} was refused with {spent:g} spent, though {spent + epsilon:g} <= {budget:g} fits"
        spent += epsilon * right
        refused = i if not right and refused is None else refused
    return None


def check_filter(fn) -> tuple[bool, str]:
    """The student's ``fn(budget, requests)``: refuses a budget <= 0 and decides as BasicFilter on
    every case (the spent total never exceeds the budget: the whole interaction is budget-DP)."""
    def decisions(fn):
        for budget, requests in _cases():
            given = implement.call(fn, budget, list(requests))
            if not hasattr(given, "__len__") or len(given) != len(requests) or \
                    any(not isinstance(g, (bool, np.bool_)) for g in given):
                raise implement.Wrong(f"fn({budget:g}, {list(requests)}) returned {given!r}: expected a list "
                                      f"of {len(requests)} booleans, one per request")
            if problem := _diagnose(budget, requests, [bool(g) for g in given]):
                raise implement.Wrong(problem)
        return f"decides as dplab's BasicFilter on {len(_cases())} sequences of requests"

    return implement.run(fn, implement.refuses((0.0, [0.1]), (-1.0, [0.1]), what="a budget <= 0"), decisions)


EXERCISES = [
    Exercise("06.impl", "Implement a basic filter: basic_filter(budget, requests) returns one boolean per "
             "request (its epsilon), True when accepted: a request is accepted while the accepted epsilons "
             "sum to at most the budget, and after the first refusal every request is refused. It raises "
             "ValueError when budget <= 0. The check compares it with dplab's BasicFilter on 43 sequences.",
             lambda: basic_filter,
             "Keep the sum of what was accepted; a request that would push it past the budget is refused, "
             "and the filter stays halted.",
             "Walk the requests with the spent total: accept ε_i when spent + ε_i ≤ budget (an exact fit "
             "is accepted) and add it; at the first ε_i that does not fit, halt and refuse it and every "
             "later request. Basic composition then makes the whole adaptive interaction budget-DP "
             "(Rogers, Roth, Ullman & Vadhan 2016).",
             implement=check_filter),
]
