"""Lesson 3's exercises: ``dplab.check("03.N", answer)`` checks an answer (and names the mistake it
suspects), ``dplab.solution("03.N")`` prints a worked solution, ``python -m dplab answers 03`` prints
the key. Every number in a key, a mistake or a worked solution is computed by dplab.

The parameters differ from the ones the notebook prints, so each answer must be worked out. Lesson 3
has no "implement it" exercise (notebooks/TEACHING.md says why)."""

from __future__ import annotations

from dplab.lab.exercises import Exercise, Mistake
from dplab.mechanisms.laplace import laplace_mse
from dplab.range_queries.errors import n_ranges
from dplab.range_queries.strategies import range_strategy, tree_height
from dplab.range_queries.theory import (
    best_branching,
    expected_error_per_query,
    expected_total_error,
    hierarchy_crossover_any_k,
    hierarchy_crossover_k,
    hierarchy_max_range_error,
    hierarchy_max_range_nodes,
    hierarchy_node_variance,
)

K_ALL = 9                  # 03.1
K_TREE, B_TREE = 100, 4    # 03.2: not a power of 4, root measured
K_ID, EPS_ID = 100, 0.5    # 03.3
B_CROSS = 5                # 03.4: section 6 prints B = 2, 3, 4, 8, 16
K_BEST = 512               # 03.5: section 6 prints k = 256 and 4096
K_INF, B_INF, EPS_INF = 512, 8, 0.5   # 03.7
K_MAX = 1024               # 03.8


def _middle_bin(k: int) -> int:
    """The (first) bin in the most ranges: i(k − i + 1) is largest at i = ⌈k/2⌉."""
    return (k + 1) // 2


EXERCISES = [
    Exercise(
        "03.1", "All ranges are measured directly over k = 9 bins (strategy 1). What is the L1 "
        "sensitivity?",
        lambda: range_strategy("all_ranges", K_ALL).sensitivity,
        "Adding a row to bin i changes every range that contains bin i: count the ranges [a, b] with "
        "a ≤ i ≤ b, and take the bin where that count is largest.",
        "Bin i lies in i(k − i + 1) ranges (i choices of start, k − i + 1 of end). For k = 9 this is "
        "largest for the middle bin i = {i}: {i} · {j} = {s:g} (= ⌊(k + 1)²/4⌋).",
        mistakes=(Mistake(lambda: n_ranges(K_ALL),
                          "that is the number of ranges, k(k + 1)/2; one row is in only the ranges that "
                          "contain its bin."),
                  Mistake(lambda: range_strategy("all_ranges", K_ALL - 1).sensitivity,
                          "off by one: a range that contains bin i can end at bin i itself, so it has "
                          "k − i + 1 possible ends, not k − i.")),
        values=lambda: {"i": _middle_bin(K_ALL), "j": K_ALL - _middle_bin(K_ALL) + 1,
                        "s": range_strategy("all_ranges", K_ALL).sensitivity}),
    Exercise(
        "03.2", "A 4-ary hierarchy over k = 100 bins, the root measured: what is its L1 sensitivity "
        "(the number of measured levels ℓ)?",
        lambda: range_strategy("hierarchy", K_TREE, B_TREE, include_root=True).sensitivity,
        "The bins are padded up to a power of B: which one, how tall is the tree, and does the count of "
        "measured levels include the root?",
        "The bins are padded to 4^H ≥ 100 leaves: {leaves} = 4^{h}, so H = {h}. A row lies in one node "
        "of each level; without the root ℓ = H = {h}, with it ℓ = H + 1 = {s:g}.",
        mistakes=(Mistake(lambda: range_strategy("hierarchy", K_TREE, B_TREE, include_root=False).sensitivity,
                          "that is the tree without its root: the question measures the root, one more "
                          "level, and one more node per row."),
                  Mistake(lambda: range_strategy("hierarchy", K_TREE, 2, include_root=True).sensitivity,
                          "that is the binary tree's count (B = 2): with B = 4 each level has 4 times "
                          "more nodes, so fewer levels."),
                  Mistake(lambda: tree_height(K_TREE, B_TREE) - 1,
                          "4³ = 64 is fewer than 100 bins: the tree must cover them all, so the bins are "
                          "padded up to the next power of 4.")),
        values=lambda: {"leaves": range_strategy("hierarchy", K_TREE, B_TREE, include_root=True).n_leaves,
                        "h": tree_height(K_TREE, B_TREE),
                        "s": range_strategy("hierarchy", K_TREE, B_TREE, include_root=True).sensitivity}),
    Exercise(
        "03.3", "Identity (every bin with Lap(1/ε), ranges added up) over k = 100 bins at ε = 0.5: what "
        "is the expected squared error per range query, averaged over all ranges?",
        lambda: expected_error_per_query("identity", K_ID, EPS_ID),
        "A range of length r sums r independent bin noises; how many ranges have length r? Average "
        "the variance over every range, and mind ε.",
        "A range of length r has variance r · 2/ε² = {var:g} r; there are k − r + 1 of them. Summed: "
        "(2/ε²) k(k + 1)(k + 2)/6 = {total:,.0f} over {n:,} ranges (mean length (k + 2)/3 = {mean_r:.0f}): "
        "{total:,.0f}/{n:,} = {per:g} per range query.",
        mistakes=(Mistake(lambda: expected_error_per_query("identity", K_ID, 1.0),
                          "that is the error at ε = 1: each bin's variance is 2/ε², so halving ε "
                          "multiplies it by 4."),
                  Mistake(lambda: expected_total_error("identity", K_ID, EPS_ID),
                          "that is the total over all ranges; the question asks for the mean per range."),
                  Mistake(lambda: laplace_mse(1, EPS_ID),
                          "that is the variance of one bin; a range adds up the noises of all its bins.")),
        values=lambda: {"var": laplace_mse(1, EPS_ID),
                        "total": expected_total_error("identity", K_ID, EPS_ID),
                        "n": n_ranges(K_ID), "mean_r": (K_ID + 2) / 3,
                        "per": expected_error_per_query("identity", K_ID, EPS_ID)}),
    Exercise(
        "03.4", "With branching factor B = 5, the root not measured: from which power of 5 on does "
        "hierarchy + inference beat identity (a lower total error over all ranges)?",
        lambda: hierarchy_crossover_k(B_CROSS, include_root=False),
        "Only powers of 5 are candidates (no padding): compare the two strategies' exact total errors "
        "at each in turn; the 1/ε² cancels, so any ε will do.",
        "Both errors scale as 1/ε², so compare at ε = 1, per range query, at k = 5, 5², 5³, ...: at "
        "k = {before} identity {id_before:.1f} against the tree {tree_before:.1f} (identity wins); at "
        "k = {k} identity {id_k:.1f} against {tree_k:.1f}: the tree wins from k = {k}.",
        rel_tol=0.0, sig_figs=3,  # 120, the key rounded to two figures, is not a power of 5
        mistakes=(Mistake(lambda: hierarchy_crossover_any_k(B_CROSS, include_root=False)[0],
                          "that is the first win among all k, padding included (as section 6 lists for "
                          "other B): the question asks among powers of 5."),
                  Mistake(lambda: hierarchy_crossover_k(B_CROSS, include_root=True),
                          "that is the crossover with the root measured (one more level, a larger "
                          "sensitivity); here the root is not measured.")),
        values=lambda: (lambda k: {
            "k": k, "before": k // B_CROSS,
            "id_before": expected_error_per_query("identity", k // B_CROSS, 1.0),
            "tree_before": expected_error_per_query("hierarchy", k // B_CROSS, 1.0, B_CROSS, True,
                                                    include_root=False),
            "id_k": expected_error_per_query("identity", k, 1.0),
            "tree_k": expected_error_per_query("hierarchy", k, 1.0, B_CROSS, True, include_root=False)})(
            hierarchy_crossover_k(B_CROSS, include_root=False))),
    Exercise(
        "03.5", "k = 512 bins, the root not measured: which branching factor B (2 to 32) minimises the "
        "error of hierarchy + inference?",
        lambda: best_branching(K_BEST, range(2, 33), include_root=False)[0],
        "B need not divide k (the bins are padded). A wider tree has fewer levels but more nodes per "
        "range: evaluate the exact error for every B, since the best one depends on k.",
        "Evaluating the exact error per range query (ε = 1) for B = 2 ... 32: B = {best} is lowest with "
        "{err:.1f} (B = {second} is next with {err2:.1f}). With the root measured B = {root} would win.",
        rel_tol=0.0,
        mistakes=(Mistake(lambda: best_branching(4096, range(2, 33), include_root=False)[0],
                          "that is the best B at k = 4096 (section 6): the best B depends on k."),
                  Mistake(lambda: best_branching(K_BEST, range(2, 33), include_root=True)[0],
                          "that is the best B with the root measured, and the best among the B that "
                          "divide 512 exactly; B need not divide k (the bins are padded), and the root "
                          "is not measured here.")),
        values=lambda: (lambda errs: {
            "best": errs[0][0], "err": errs[0][1], "second": errs[1][0], "err2": errs[1][1],
            "root": best_branching(K_BEST, range(2, 33), include_root=True)[0]})(
            sorted(((b, expected_error_per_query("hierarchy", K_BEST, 1.0, b, True, include_root=False))
                    for b in range(2, 33)), key=lambda t: t[1]))),
    Exercise(
        "03.6", "Constrained inference on the noisy tree removes 72% of the error at k = 256, B = 2. How "
        "much privacy does it cost?",
        lambda: "nothing",
        "What does the inference read: the data, or only the released noisy tree?",
        "nothing: least squares on the noisy tree is post-processing of an ε-DP release; it never "
        "reads the data, so the release stays ε-DP (Hay et al. 2010; [Duke18], constrained inference).",
        choices=("nothing", "one_level", "twice", "delta"),
        explanations={
            "nothing": "It is post-processing: a function of the released noisy counts alone, which "
                       "cannot make them less private.",
            "one_level": "Measuring the root costs one more level (ℓ + 1); inference measures nothing, "
                         "it only combines what was released.",
            "twice": "The upward and downward passes read each noisy count twice, but reading a "
                     "released value again touches no data: post-processing costs nothing.",
            "delta": "Inference is exact least squares, not a randomised step: nothing fails with "
                     "probability δ, and the release stays pure ε-DP."}),
    Exercise(
        "03.7", "An 8-ary hierarchy over k = 512 bins, the root not measured, at ε = 0.5, answered with "
        "constrained inference: what is the expected squared error per range query?",
        lambda: expected_error_per_query("hierarchy", K_INF, EPS_INF, B_INF, True, include_root=False),
        "Work at ε = 1 (dplab's exact error with least squares), then ask how the error scales with ε.",
        "k = 512 = 8^{h}: ℓ = {h} levels. With inference the error is 2(ℓ/ε)² ‖W A⁺‖²_F over the "
        "ranges: {one:.2f} per range query at ε = 1, times 1/ε² = {scale:g}: {per:.1f}.",
        mistakes=(Mistake(lambda: expected_error_per_query("hierarchy", K_INF, EPS_INF, B_INF, False,
                                                           include_root=False),
                          "that sums nodes without inference; the question answers with constrained "
                          "inference (least squares), which removes part of the error."),
                  Mistake(lambda: expected_error_per_query("hierarchy", K_INF, 1.0, B_INF, True,
                                                           include_root=False),
                          "that is the error at ε = 1: the noise variance is 2(ℓ/ε)², so at ε = 0.5 it "
                          "is 4 times larger.")),
        values=lambda: {"h": tree_height(K_INF, B_INF),
                        "one": expected_error_per_query("hierarchy", K_INF, 1.0, B_INF, True,
                                                        include_root=False),
                        "scale": 1 / EPS_INF**2,
                        "per": expected_error_per_query("hierarchy", K_INF, EPS_INF, B_INF, True,
                                                        include_root=False)}),
    Exercise(
        "03.8", "The binary hierarchy over k = 1024 bins (root not measured), answered by summing nodes "
        "at ε = 1: what is the largest expected squared error of a single range query?",
        lambda: hierarchy_max_range_error(K_MAX, 1.0),
        "What is one node's variance (how many levels share the sensitivity)? Which range needs the "
        "most nodes, and how many?",
        "ℓ = log₂ k = {l} levels, so each node has Lap(ℓ/ε) noise, variance 2ℓ² = {node:g}. The worst "
        "range uses 2(ℓ − 1) = {nodes} nodes (one on each side, on each level below the top): "
        "{nodes} · {node:g} = {worst:g}.",
        mistakes=(Mistake(lambda: 2 * tree_height(K_MAX) * hierarchy_node_variance(K_MAX, 1.0),
                          "that counts 2 nodes on every level, the top one included: a range that needs "
                          "nodes on both sides uses at most one node per side on each level below the "
                          "top, 2(ℓ − 1) in all."),
                  Mistake(lambda: hierarchy_node_variance(K_MAX, 1.0),
                          "that is one node's variance; a range sums several nodes."),
                  Mistake(lambda: float(tree_height(K_MAX)) ** 3,
                          "that is [Duke18]'s order log³ k with constant 1: the exact value has the "
                          "constants.")),
        values=lambda: {"l": tree_height(K_MAX), "node": hierarchy_node_variance(K_MAX, 1.0),
                        "nodes": hierarchy_max_range_nodes(K_MAX),
                        "worst": hierarchy_max_range_error(K_MAX, 1.0)}),
]
