"""Range-query strategies: O(k) formulas against dense linear algebra and brute force."""

from __future__ import annotations

import math

import numpy as np
import pytest

import dplab
from dplab import range_queries

RangeStrategy = range_queries.RangeStrategy


def _workload(k: int) -> np.ndarray:
    i, j = np.triu_indices(k)
    w = np.zeros((i.size, k))
    for r, (a, b) in enumerate(zip(i, j, strict=True)):
        w[r, a:b + 1] = 1
    return w


def test_tree_height_is_integer_exact():
    assert dplab.tree_height(125, 5) == 3  # math.log(125, 5) = 3.0000000000000004
    assert dplab.tree_height(126, 5) == 4
    assert dplab.tree_height(1, 2) == 0
    assert [dplab.tree_height(k, 2) for k in (2, 3, 4, 5, 1024, 1025)] == [1, 2, 2, 3, 10, 11]


def test_all_range_errors_against_enumeration():
    rng = np.random.default_rng(0)
    e = rng.normal(size=(3, 17))
    w = _workload(17)
    np.testing.assert_allclose(dplab.all_range_total_error(e), np.sum((e @ w.T) ** 2, axis=1))
    np.testing.assert_allclose(dplab.all_range_max_error(e), np.max(np.abs(e @ w.T), axis=1))


@pytest.mark.parametrize("k, b, root", [(8, 2, True), (8, 2, False), (9, 3, False), (7, 2, False),
                                        (16, 4, True), (20, 3, True)])
def test_consistent_tree_estimate_is_least_squares(k, b, root):
    s = dplab.range_strategy("hierarchy", k, b, include_root=root)
    rng = np.random.default_rng(k)
    y = rng.normal(size=(4, s.n_measurements))
    a = _tree_matrix(s)
    dense = np.linalg.lstsq(a, y.T, rcond=None)[0].T  # least squares over all padded leaves
    np.testing.assert_allclose(range_queries.consistent_tree_estimate(y, b, include_root=root), dense,
                               atol=1e-9)
    np.testing.assert_allclose(s.reconstruct(y), dense[:, :k], atol=1e-9)


def _tree_matrix(s: RangeStrategy) -> np.ndarray:
    """A for the padded tree from the intervals: node idx at a level of L nodes covers
    leaves [idx n/L, (idx + 1) n/L)."""
    rows = []
    for size in s.level_sizes:
        span = s.n_leaves // size
        for idx in range(size):
            row = np.zeros(s.n_leaves)
            row[idx * span:(idx + 1) * span] = 1
            rows.append(row)
    return np.array(rows)


@pytest.mark.parametrize("name, k, b, root", [
    ("identity", 11, 2, False), ("all_ranges", 9, 2, False), ("hierarchy", 8, 2, True),
    ("hierarchy", 8, 2, False), ("hierarchy", 10, 3, False), ("hierarchy", 16, 4, True),
    ("wavelet", 8, 2, False), ("wavelet", 11, 2, False),
])
def test_expected_error_with_inference_is_the_matrix_mechanism(name, k, b, root):
    s = dplab.range_strategy(name, k, b, include_root=root)
    w = _workload(k)
    if name == "hierarchy":
        a = _tree_matrix(s)
        w = np.hstack([w, np.zeros((w.shape[0], s.n_leaves - k))])  # padded bins in no range
    elif name == "wavelet":
        a = _haar_matrix(s.n_leaves)
        w = np.hstack([w, np.zeros((w.shape[0], s.n_leaves - k))])
    elif name == "identity":
        a = np.eye(k)
    else:
        a = _workload(k)
    delta = np.abs(a).sum(axis=0).max()
    assert delta == s.sensitivity
    dense = 2 * (delta / 0.7) ** 2 * np.linalg.norm(w @ np.linalg.pinv(a), "fro") ** 2
    assert dplab.expected_total_error(name, k, 0.7, b, inference=True, include_root=root) == \
        pytest.approx(dense, rel=1e-9)


def _haar_matrix(n: int) -> np.ndarray:
    """Privelet's weighted Haar rows, from the definition: the total, then for every
    dyadic interval of >= 2 leaves, +1 on its left half and -1 on its right half."""
    rows = [np.ones(n)]
    span = n
    while span >= 2:
        for start in range(0, n, span):
            row = np.zeros(n)
            row[start:start + span // 2] = 1
            row[start + span // 2:start + span] = -1
            rows.append(row)
        span //= 2
    return np.array(rows)


def test_wavelet_matches_the_haar_definition():
    for k in (8, 13):
        s = dplab.range_strategy("wavelet", k)
        x = np.random.default_rng(k).integers(0, 9, size=k).astype(float)
        padded = np.concatenate([x, np.zeros(s.n_leaves - k)])
        np.testing.assert_allclose(s.apply(x), _haar_matrix(s.n_leaves) @ padded)
        assert s.sensitivity == np.abs(_haar_matrix(s.n_leaves)).sum(axis=0).max()
        np.testing.assert_allclose(s.reconstruct(s.apply(x)), x, atol=1e-12)  # exact inverse


def _canonical_nodes(s: RangeStrategy, lo: int, hi: int) -> list[int]:
    """Maximal tree nodes inside [lo, hi), by recursion from the top: the slide's strategy 3."""
    out = []
    starts = np.cumsum([0] + s.level_sizes)

    def visit(depth: int, index: int) -> None:
        span = s.n_leaves // s.level_sizes[depth]
        a, c = index * span, (index + 1) * span
        if c <= lo or a >= hi:
            return
        if lo <= a and c <= hi:
            out.append(int(starts[depth] + index))
            return
        for child in range(index * s.branching, (index + 1) * s.branching):
            visit(depth + 1, child)

    for index in range(s.level_sizes[0]):
        visit(0, index)
    return out


@pytest.mark.parametrize("k, b, root", [(8, 2, False), (8, 2, True), (11, 3, False), (16, 4, False)])
def test_direct_hierarchy_error_against_the_canonical_decomposition(k, b, root):
    s = dplab.range_strategy("hierarchy", k, b, include_root=root)
    i, j = np.triu_indices(k)
    r = np.zeros((i.size, s.n_measurements))
    for row, (lo, hi) in enumerate(zip(i, j + 1, strict=True)):
        nodes = _canonical_nodes(s, lo, hi)
        assert len(nodes) <= max(1, 2 * (b - 1) * len(s.level_sizes))
        r[row, nodes] = 1
    unit = 2 * (s.sensitivity / 1.3) ** 2
    assert dplab.expected_total_error("hierarchy", k, 1.3, b, include_root=root) == \
        pytest.approx(unit * r.sum(), rel=1e-12)
    noise = np.random.default_rng(1).normal(size=(3, s.n_measurements))
    x = np.arange(k, dtype=float)
    got = s.total_error(s.apply(x) + noise, x, inference=False)
    np.testing.assert_allclose(got, np.sum((noise @ r.T) ** 2, axis=1))


def test_all_ranges_reconstruction_is_least_squares():
    s = dplab.range_strategy("all_ranges", 7)
    y = np.random.default_rng(2).normal(size=(2, s.n_measurements))
    dense = np.linalg.lstsq(_workload(7), y.T, rcond=None)[0].T
    np.testing.assert_allclose(s.reconstruct(y), dense, atol=1e-9)


@pytest.mark.parametrize("name, b, inference, root", [
    ("identity", 2, False, False), ("all_ranges", 2, False, False), ("all_ranges", 2, True, False),
    ("hierarchy", 2, False, False), ("hierarchy", 2, True, True), ("hierarchy", 4, True, False),
    ("wavelet", 2, True, False),
])
def test_simulated_total_error_matches_theory(name, b, inference, root):
    k, eps, trials = 12, 0.8, 20_000
    s = dplab.range_strategy(name, k, b, include_root=root)
    x = np.random.default_rng(3).integers(0, 50, size=k).astype(float)
    y = s.measure(x, eps, rng=4, size=trials)
    est = dplab.mean_ci(s.total_error(y, x, inference=inference), 0.999)
    assert est.contains(dplab.expected_total_error(name, k, eps, b, inference, include_root=root))


def test_reference_numbers_per_query():
    # ISSUE 4 reference values (matrix-mechanism formula), eps = 1, k = 256
    per_query = 256 * 257 / 2
    assert dplab.expected_total_error("identity", 256, 1.0) / per_query == pytest.approx(172.0, abs=0.05)
    assert dplab.expected_total_error("hierarchy", 256, 1.0, 2, inference=True, include_root=True) \
        / per_query == pytest.approx(264.8, abs=0.05)
    sixteen = dplab.expected_total_error("hierarchy", 256, 1.0, 16, inference=True, include_root=False)
    assert sixteen / per_query == pytest.approx(79.2, abs=0.05)
    k = 40  # strategy 1: the total over all ranges is about k^6 / (16 eps^2)
    assert dplab.expected_total_error("all_ranges", k, 1.0) == pytest.approx(k**6 / 16, rel=0.2)


@pytest.mark.catches("strategies.root_left_out_silently")
def test_a_hierarchy_says_whether_it_measures_its_root():
    """catches: strategies.root_left_out_silently (a hierarchy built without a word about its root leaves it
    out, unlike Hay et al.'s H): the choice is required, and it concerns hierarchies only"""
    for call in (lambda: dplab.range_strategy("hierarchy", 8), lambda: range_queries.HierarchyStrategy(8),
                 lambda: dplab.expected_total_error("hierarchy", 8, 1.0),
                 lambda: range_queries.consistent_tree_estimate(np.zeros(14), 2)):
        with pytest.raises(TypeError, match="include_root"):
            call()
    with pytest.raises(ValueError, match="include_root concerns the hierarchy only, got include_root=True"):
        dplab.range_strategy("identity", 8, include_root=True)
    assert dplab.range_strategy("hierarchy", 8, include_root=True).sensitivity == 4  # levels of 1, 2, 4, 8


def test_bad_input():
    with pytest.raises(ValueError, match="name must be one of"):
        dplab.range_strategy("fourier", 8)
    with pytest.raises(ValueError, match="k must be a positive integer, got k=0"):
        dplab.range_strategy("identity", 0)
    with pytest.raises(TypeError, match="k must be a positive integer"):
        dplab.range_strategy("identity", 2.5)
    with pytest.raises(ValueError, match="branching must be an integer >= 2, got branching=1"):
        dplab.range_strategy("hierarchy", 8, branching=1, include_root=False)
    s = dplab.range_strategy("identity", 4)
    with pytest.raises(ValueError, match="non-empty 1-d histogram"):
        s.measure([], 1.0)
    with pytest.raises(ValueError, match=r"x must be finite and >= 0, got x=-2.0 at index 1"):
        s.measure([1.0, -2.0, 0.0, 0.0], 1.0)
    with pytest.raises(ValueError, match="k = 4 bins"):
        s.measure([1.0, 2.0], 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        s.measure([1.0, 2.0, 3.0, 4.0], 0.0)
    with pytest.raises(ValueError, match="no complete 2-ary tree"):
        range_queries.consistent_tree_estimate(np.zeros(5), 2, include_root=False)
    with pytest.raises(ValueError, match="at least one bin"):
        dplab.all_range_total_error(np.zeros((2, 0)))


@pytest.mark.parametrize("name, k, b, root", [
    ("identity", 9, 2, False), ("all_ranges", 7, 2, False), ("hierarchy", 8, 2, False),
    ("hierarchy", 9, 3, True), ("wavelet", 8, 2, False),
])
def test_fast_strategies_agree_with_the_dense_base_class(name, k, b, root):
    """Without padding (k a power of b): with padding, the tree's least squares treats the
    padded leaves as unknowns (Hay et al.), the dense one knows they are empty."""
    s = dplab.range_strategy(name, k, b, include_root=root)
    dense = range_queries.RangeStrategy(s.matrix())
    assert s.sensitivity == dense.sensitivity and s.n_measurements == dense.n_measurements
    x = np.random.default_rng(k).integers(0, 20, size=k).astype(float)
    np.testing.assert_allclose(s.apply(x), dense.apply(x), atol=1e-12)
    y = s.measure(x, 1.0, rng=1, size=3)
    np.testing.assert_allclose(s.reconstruct(y), dense.reconstruct(y), atol=1e-8)
    assert s.error_units(inference=True) == pytest.approx(dense.error_units(), rel=1e-9)


def test_dense_strategy_of_any_matrix():
    a = np.array([[1.0, 1.0, 0.0], [0.0, 1.0, 1.0], [1.0, 0.0, 1.0]])
    s = range_queries.RangeStrategy(a)
    assert s.sensitivity == 2.0 and s.k == 3 and not s.answers_directly
    w = _workload(3)
    assert s.error_units() == pytest.approx(np.linalg.norm(w @ np.linalg.inv(a), "fro") ** 2)
    with pytest.raises(ValueError, match="matrix must be a finite non-empty 2-d array"):
        range_queries.RangeStrategy(np.zeros(3))
    with pytest.raises(NotImplementedError):
        s.direct_total_error(np.zeros(3))


def test_per_query_crossover_and_orders():
    assert dplab.n_ranges(4) == 10
    assert dplab.expected_error_per_query("identity", 64, 1.0) == pytest.approx(2 * 66 / 3)
    orders = range_queries.seed_error_orders(np.array([4, 16]), 2.0)
    np.testing.assert_allclose(orders["identity"], [16.0, 1024.0])
    np.testing.assert_allclose(orders["hierarchy"], [16 * 8 / 4, 256 * 64 / 4])


def test_crossover_over_every_k_matches_the_issue_references():
    # reference values computed independently by the lecturer (issue 8, M4), k < 1100
    for b, expected in ((2, (447, 542)), (4, (136, 136)), (8, (46, 118)), (16, (67, 67))):
        assert dplab.hierarchy_crossover_any_k(b, include_root=False) == expected


@pytest.mark.catches("theory.max_range_nodes_top_level")
@pytest.mark.parametrize("b, heights", [(2, (1, 2, 3, 4, 5)), (3, (1, 2, 3)), (4, (1, 2, 3))])
def test_max_range_nodes_against_the_canonical_decomposition(b, heights):
    """catches: the worst range's node count off by one level (two runs on the top level too)."""
    for h in heights:
        s = dplab.range_strategy("hierarchy", b**h, b, include_root=False)
        worst = max(len(_canonical_nodes(s, lo, hi)) for lo in range(b**h) for hi in range(lo + 1, b**h + 1))
        assert range_queries.hierarchy_max_range_nodes(b**h, b) == worst


def test_seed_intermediate_orders_stay_in_their_band():
    for h in range(4, 21):
        k = 2**h
        assert dplab.hierarchy_node_variance(k, 1.0) / math.log2(k) ** 2 == pytest.approx(2.0)
        assert 3.0 <= dplab.hierarchy_max_range_error(k, 1.0) / math.log2(k) ** 3 < 4.0
    with pytest.raises(ValueError, match="k must be a power of branching=2"):
        range_queries.hierarchy_max_range_nodes(100, 2)


def test_prefix_error_units():
    np.testing.assert_allclose(dplab.range_strategy("identity", 7).prefix_error_units(), np.arange(1, 8))
    s = dplab.range_strategy("hierarchy", 16, 2, include_root=False)
    y = s.measure(np.zeros(16), 1.0, rng=9, size=40_000)
    prefix = np.cumsum(s.reconstruct(y), axis=1)  # simulated prefix errors (truth 0)
    units = s.prefix_error_units()
    for j in (0, 6, 15):
        est = dplab.mean_ci(prefix[:, j] ** 2 / (2 * s.sensitivity**2), 0.999)
        assert est.contains(units[j]), j


@pytest.mark.catches("strategies.by_length_mean_over_measurements")
@pytest.mark.parametrize("name, k, b, root", [("identity", 9, 2, False), ("hierarchy", 16, 2, False),
                                              ("hierarchy", 9, 3, True), ("wavelet", 12, 2, False),
                                              ("all_ranges", 6, 2, False)])
def test_error_by_length_against_the_ranges_of_each_length(name, k, b, root):
    """||W_r A^+||_F^2 / (k - r + 1) with W_r listed range by range and A^+ from numpy's dense
    pinv of the strategy matrix (of a tree or wavelet over the padded bins, cut to the k real ones)."""
    s = dplab.range_strategy(name, k, b, include_root=root)
    padded = b ** dplab.tree_height(k, b) if name in ("hierarchy", "wavelet") else k  # padded bins: unknowns
    pinv = np.linalg.pinv(dplab.range_strategy(name, padded, b, include_root=root).matrix())[:k]
    expected = []
    for r in range(1, k + 1):
        w_r = np.array([[1.0 if i <= j < i + r else 0.0 for j in range(k)] for i in range(k - r + 1)])
        expected.append(np.sum((w_r @ pinv) ** 2) / (k - r + 1))
    expected = np.array(expected)
    np.testing.assert_allclose(s.error_units_by_length(), expected, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(s.expected_error_by_length(0.5), 8 * s.sensitivity**2 * expected, rtol=1e-9)
    if name == "identity":
        np.testing.assert_allclose(s.expected_error_by_length(0.5), 2 * np.arange(1, k + 1) / 0.25)
    # summed over the k - r + 1 ranges of each length: the total error over all ranges
    counts = k - np.arange(k)
    assert np.sum(counts * expected) == pytest.approx(s.error_units(inference=True), rel=1e-9)


@pytest.mark.parametrize("k", [16, 64, 100, 256, 1000, 4096])
def test_height_histogram_bins_whole_centimetres_exactly(k):
    """The heights are whole centimetres: the bin of h cm is (h - 120) k // 100 in integers.
    1.70 m sits on edge 128 of 256 and must count in bin 128, not 127 (floating point)."""
    heights = np.asarray(dplab.load_yrbss()["height_m"], dtype=float)
    cm = np.rint(heights * 100).astype(int)
    assert np.max(np.abs(cm - heights * 100)) < 1e-9
    expected = np.bincount((cm - 120) * k // 100, minlength=k)
    np.testing.assert_array_equal(dplab.height_histogram(k), expected)
    if k == 256:
        assert dplab.height_histogram(k)[128] == np.sum(cm == 170) > 1000
    with pytest.raises(ValueError, match="high must exceed low"):
        dplab.height_histogram(k, 2.2, 1.2)


def test_expected_error_takes_a_strategy_object_as_well_as_a_name():
    """catches: p-Identity reachable only through its own method (lesson 9 dispatched on display
    strings to mix the two): the object's error equals the name's, and p-Identity's its method's."""
    from dplab.range_queries import PIdentityStrategy, load_p_identity

    for name, b, inference in (("identity", 2, False), ("hierarchy", 16, True), ("wavelet", 2, True)):
        by_name = dplab.expected_total_error(name, 64, 0.5, b, inference, include_root=False)
        strategy = dplab.range_strategy(name, 64, b, include_root=False)
        by_object = dplab.expected_total_error(strategy, epsilon=0.5, inference=inference)
        assert by_object == pytest.approx(by_name)
        assert dplab.expected_error_per_query(strategy, 64, 0.5, inference=inference) == pytest.approx(
            by_name / dplab.n_ranges(64))
    p_identity = PIdentityStrategy(load_p_identity())
    assert dplab.expected_error_per_query(p_identity, epsilon=2.0) == pytest.approx(
        p_identity.expected_total_error(2.0) / dplab.n_ranges(256))
    with pytest.raises(ValueError, match="k must be the strategy's own k=64"):
        dplab.expected_total_error(dplab.range_strategy("identity", 64), 32, 1.0)
    with pytest.raises(ValueError, match="k must be given"):
        dplab.expected_total_error("identity", epsilon=1.0)
