"""Lesson 2's exercises: ``dplab.check("02.N", answer)`` checks an answer (and names the mistake it
suspects), ``dplab.solution("02.N")`` prints a worked solution, ``python -m dplab answers 02`` prints
the key. Every number in a key, a mistake or a worked solution is computed by dplab.

The parameters differ from the ones the notebook prints, so each answer must be worked out."""

from __future__ import annotations

import math

from dplab.accounting import subsampling_epsilon, subsampling_slide_claim_fails_above
from dplab.bmi import (
    bmi_cells,
    bmi_expected_total_error,
    bmi_order_violation_probability,
    bmi_slides_table,
    bmi_totals_expected_error,
)
from dplab.contingency import contingency_expected_total_error
from dplab.lab.exercises import Exercise, Mistake
from dplab.mechanisms.laplace import laplace_mse, laplace_scale

EPS_ALG = 0.4             # 02.1, 02.2: an ε the notebook's table does not print
D, EPS_TABLE = 5, 0.5     # 02.4
P, EPS_SUB = 0.05, 2.0    # 02.5: beyond the crossing ε*(0.05) = 1.371
EPS_TOTALS = 2.0          # 02.6
EPS_ORDER = 0.25          # 02.7


def _q2() -> float:
    """The slide table's # males with BMI ≥ 25 (cell 2)."""
    return float(bmi_cells(bmi_slides_table())[1])


EXERCISES = [
    Exercise(
        "02.1", "Algorithm 1 (each of the four answers with its own share of ε) at ε = 0.4: what is the "
        "total expected squared error of the four answers?",
        lambda: bmi_expected_total_error(1, EPS_ALG),
        "Which share of ε does each answer get (sequential composition), which Laplace scale does "
        "that give a count, and what is the variance of that noise? Add the four.",
        "Each of the four counts gets ε/4 = {eps_each:g} (sequential composition adds the shares back "
        "to ε), so b = 4/ε = {b:g} and each answer has variance 2b² = {var:g}; four of them: {total:g} "
        "(= {c:g}/ε²).",
        mistakes=(Mistake(lambda: 4 * laplace_mse(1, EPS_ALG),
                          "that gives every answer the whole ε: four releases on the same rows cost "
                          "their budgets added up, so each may use only a quarter."),
                  Mistake(lambda: laplace_mse(4, EPS_ALG),
                          "that is the error of one answer (or section 3's joint release, which is a "
                          "different algorithm): the question asks for the total of Algorithm 1's four.")),
        values=lambda: {"eps_each": EPS_ALG / 4, "b": laplace_scale(4, EPS_ALG),
                        "var": laplace_mse(4, EPS_ALG), "total": bmi_expected_total_error(1, EPS_ALG),
                        "c": bmi_expected_total_error(1, 1.0)}),
    Exercise(
        "02.2", "Algorithm 2 (four disjoint cells with Lap(1/ε), the totals added up from them) at "
        "ε = 0.4, add/remove neighbours: what is the total expected squared error of the four answers "
        "(# M<25, # M, # F<25, # F)?",
        lambda: bmi_expected_total_error(2, EPS_ALG),
        "Which answers are one noisy cell and which are a sum of two? Independent noises add their "
        "variances.",
        "Each cell gets Lap(1/ε) = Lap({b:g}), variance {var:g}. q1 and q3 are one cell ({var:g} each); "
        "# M and # F are sums of two cells ({var2:g} each): {var:g} + {var2:g} + {var:g} + {var2:g} = "
        "{total:g} (= 12/ε²).",
        mistakes=(Mistake(lambda: 4 * laplace_mse(1, EPS_ALG),
                          "that gives each answer one cell's noise: the totals # M and # F add two noisy "
                          "cells, so they carry two noises."),
                  Mistake(lambda: bmi_expected_total_error(2, EPS_ALG, "replace"),
                          "that is the replace-one error (cells with Lap(2/ε)); the question uses "
                          "add/remove, where one row changes one cell by 1.")),
        values=lambda: {"b": laplace_scale(1, EPS_ALG), "var": laplace_mse(1, EPS_ALG),
                        "var2": 2 * laplace_mse(1, EPS_ALG), "total": bmi_expected_total_error(2, EPS_ALG)}),
    Exercise(
        "02.3", "Under replace-one neighbours Algorithm 2's four cells need Lap(2/ε) instead of Lap(1/ε). "
        "Why?",
        lambda: "moves",
        "Replace one student by another: which cells can change, and by how much each?",
        "moves: a replaced row can leave one cell and enter another, so two cells change by 1 each: "
        "the histogram's L1 sensitivity is 2 ([Duke18], generalized sensitivity; section 2's brute "
        "force finds it).",
        choices=("moves", "totals", "plus_two", "n_public"),
        explanations={
            "moves": "A replaced row leaves one cell and enters another: two cells change by 1, the L1 "
                     "sensitivity of the histogram is 2, and Lap(2/ε) is due.",
            "totals": "The totals # M and # F are sums of released cells: post-processing, which costs "
                      "no privacy under either relation. They explain why the totals carry two noises, "
                      "not the scale of the cells.",
            "plus_two": "A count changes by at most 1 whichever relation is used (one row enters or "
                        "leaves it); what doubles is the number of cells a replacement can change.",
            "n_public": "Replace-one keeps n fixed, which is public then, but Algorithm 2 never uses n; "
                        "the scale follows from how many cells one replacement can change."}),
    Exercise(
        "02.4", "[Hu]'s method for a contingency table of d = 5 cells at ε = 0.5 (n public): release 4 "
        "cells with ε/4 each and derive the last one as n minus their sum. What is the total expected "
        "squared error over the 5 cells?",
        lambda: contingency_expected_total_error(D, EPS_TABLE, "derived_last"),
        "Which scale does each of the released cells get? The derived cell is n minus their sum: "
        "which noise does it carry, and what is its variance?",
        "Each of the d − 1 = 4 released cells gets ε/4, scale 4/ε = {b:g}, variance {var:g}: "
        "{released:g} in all. The derived cell carries minus the sum of the 4 independent noises, "
        "variance 4 · {var:g} = {last:g}. Total {released:g} + {last:g} = {total:g} (= 4(d − 1)³/ε²).",
        mistakes=(Mistake(lambda: (D - 1) * laplace_mse(D - 1, EPS_TABLE),
                          "that counts the 4 released cells only: the derived last cell carries the "
                          "sum of their noises, and it is one of the 5 cells."),
                  Mistake(lambda: D * laplace_mse(D - 1, EPS_TABLE),
                          "that gives the derived cell one noise: it is n minus the sum of 4 noisy "
                          "cells, so it carries 4 independent noises.")),
        values=lambda: {"b": laplace_scale(D - 1, EPS_TABLE), "var": laplace_mse(D - 1, EPS_TABLE),
                        "released": (D - 1) * laplace_mse(D - 1, EPS_TABLE),
                        "last": (D - 1) * laplace_mse(D - 1, EPS_TABLE),
                        "total": contingency_expected_total_error(D, EPS_TABLE, "derived_last")}),
    Exercise(
        "02.5", "An ε = 2 mechanism is run on a Poisson sample that keeps each row with probability "
        "p = 0.05. What is the exact amplified ε (add/remove)? (Then compare it with the slide's 2pε.)",
        lambda: subsampling_epsilon(EPS_SUB, P),
        "Section 6 states the exact amplification; evaluate it (keep the logarithm) and compare with 2pε.",
        "ln(1 + p(e^ε − 1)) = ln(1 + 0.05 · {expm1:.4f}) = ln({inside:.4f}) = {exact:.4f}, above "
        "2pε = {slide:g}: ε = 2 is beyond the crossing ε*(0.05) = {cross:.3f}, where the slide's claim "
        "fails.",
        mistakes=(Mistake(lambda: 2 * P * EPS_SUB,
                          "that is the slide's 2pε, a claim that fails for p = 0.05 beyond ε ≈ 1.37 "
                          "(section 6); the question asks for the exact value."),
                  Mistake(lambda: P * math.expm1(EPS_SUB),
                          "that is p(e^ε − 1), the first-order value for tiny p: keep the logarithm, "
                          "ln(1 + p(e^ε − 1))."),
                  Mistake(lambda: P * EPS_SUB,
                          "that is pε, a common rule of thumb but not the exact amplification.")),
        values=lambda: {"expm1": math.expm1(EPS_SUB), "inside": 1 + P * math.expm1(EPS_SUB),
                        "exact": subsampling_epsilon(EPS_SUB, P), "slide": 2 * P * EPS_SUB,
                        "cross": subsampling_slide_claim_fails_above(P)}),
    Exercise(
        "02.6", "# M<25, # M≥25 and # M are released with Lap(3/ε) each at ε = 2, then projected "
        "(least squares) onto the plane total = q1 + q2. What is the expected total squared error of "
        "the three projected answers?",
        lambda: bmi_totals_expected_error(EPS_TOTALS, projected=True),
        "Projection onto a plane through the truth keeps some of the three independent noise "
        "dimensions: how many, and what is each one's variance at this ε?",
        "Each count has variance 2(3/ε)² = {var:g}, {before:g} in all as released. The plane has "
        "dimension 2 and contains the truth, so the orthogonal projection keeps 2 of the 3 noise "
        "dimensions: 2 · {var:g} = {after:g}.",
        mistakes=(Mistake(lambda: bmi_totals_expected_error(EPS_TOTALS, projected=False),
                          "that is the error as released: projecting onto total = q1 + q2 removes one "
                          "of the three noise dimensions."),
                  Mistake(lambda: bmi_totals_expected_error(EPS_TOTALS, projected=False) / 3,
                          "that keeps one dimension of three: the plane total = q1 + q2 has dimension 2."),
                  Mistake(lambda: bmi_totals_expected_error(1.0, projected=True),
                          "that is the error at ε = 1 (section 4 prints it): the variance scales as 1/ε².")),
        values=lambda: {"var": laplace_mse(3, EPS_TOTALS),
                        "before": bmi_totals_expected_error(EPS_TOTALS, projected=False),
                        "after": bmi_totals_expected_error(EPS_TOTALS, projected=True)}),
    Exercise(
        "02.7", "On the slide's table (q2 = 3 males with BMI ≥ 25), Algorithm 2 at ε = 0.25: with which "
        "probability is the noisy q1 larger than the noisy # M = q1 + q2 (the order broken)?",
        lambda: bmi_order_violation_probability(2, _q2(), EPS_ORDER),
        "# M minus q1 is the noisy cell q2 alone: for which values of that cell's Laplace noise is the "
        "order broken, and what is the probability of one tail of Lap(b)?",
        "The noisy # M − noisy q1 = q2 + Y with Y ~ Lap(1/ε) = Lap({b:g}). The order breaks when "
        "Y < −q2 = −3, one tail: ½ exp(−q2 ε) = ½ exp(−{x:g}) = {p:.4f}.",
        mistakes=(Mistake(lambda: 2 * bmi_order_violation_probability(2, _q2(), EPS_ORDER),
                          "that is exp(−q2 ε), both tails: only a noise below −q2 breaks the order, one "
                          "tail, with probability half of that."),
                  Mistake(lambda: bmi_order_violation_probability(1, _q2(), EPS_ORDER),
                          "that is Algorithm 1's probability, where q1 and # M have independent noises "
                          "Lap(4/ε); in Algorithm 2 both share the noise of cell q1.")),
        values=lambda: {"b": laplace_scale(1, EPS_ORDER), "x": _q2() * EPS_ORDER,
                        "p": bmi_order_violation_probability(2, _q2(), EPS_ORDER)}),
]
