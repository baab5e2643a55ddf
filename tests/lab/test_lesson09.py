"""Lesson 9's words in code: every who-wins sentence of the notebook and its exercise key is
checked against the simulation it describes (fixed seeds), and the panel's readout."""

from __future__ import annotations

import numpy as np
import pytest

from dplab.lab.lessons.l09_data_dependent_noise import report


def test_the_who_wins_sentences():
    eps = report.EPSILONS
    verdict = {(s, e): report.verdict(s, e) for s in report.SHAPES for e in eps}
    # small scale: DAWA beats every data-independent strategy on uniform up to 0.1, Zipf at 0.01
    assert all(verdict["uniform", e] == "DAWA" for e in (0.01, 0.03, 0.1))
    assert verdict["zipf", 0.01] == "DAWA"
    assert verdict["spiky", 0.1] == verdict["spiky", 0.3] == "DAWA"
    assert verdict["heights", 0.01] == "tie"
    # large scale: p-Identity wins on every shape at 1 and 3; identity too at 3, up to 4x (uniform)
    assert all(verdict[s, e] == "optimised p-Identity" for s in report.SHAPES for e in (1.0, 3.0))
    at_3 = {s: report.relative_errors(s)[eps.index(3.0)] for s in report.SHAPES}
    assert max(at_3, key=at_3.get) == "uniform" and 4.15 <= at_3["uniform"] <= 4.25  # "4.2"
    for s, e in (("uniform", 1.0), ("zipf", 1.0), ("uniform", 3.0), ("spiky", 3.0), ("zipf", 3.0)):
        assert report.dawa_error(s, e).interval().low > report.data_independent_error("identity", e), (s, e)
    # "on spiky at eps = 1 DAWA still beats identity" (its 99.9% interval wholly below)
    assert report.dawa_error("spiky", 1.0).interval().high < report.data_independent_error("identity", 1.0)
    assert f"{report.relative_errors('spiky')[eps.index(1.0)]:.2f}" == "0.77"
    ci = report.dawa_error("heights", 3.0).interval()  # "on the heights the two are level"
    assert ci.low <= report.data_independent_error("identity", 3.0) <= ci.high
    # "mostly variance", small scale and large
    for s in report.SHAPES:
        for e in eps:
            err = report.dawa_error(s, e)
            assert err.bias2 < err.variance, (s, e)
    # spiky: p-Identity wins at 0.03
    assert verdict["spiky", 0.03] == "optimised p-Identity"
    # the heights: no better than identity from 0.03 on (within the 99.9% interval)
    for e in eps[1:]:
        assert report.dawa_error("heights", e).interval().high >= report.data_independent_error("identity", e)
    for s, e in (("uniform", 0.01), ("zipf", 0.01)):  # small scale: bias^2 a tenth of the variance
        err = report.dawa_error(s, e)
        assert err.bias2 < 0.1 * err.variance


def test_the_partition_sentences_and_exercise_09_3():
    assert 70 <= report.dawa_error("heights", 1.0).buckets <= 85
    ratio = report.relative_errors("uniform")[report.EPSILONS.index(0.1)]
    exercise = next(e for e in report.EXERCISES if e.id == "09.3")
    assert f"{ratio:.2f}" in exercise.solution
    assert f"{ratio * 17200:,.0f}"[:3] == "3,1" and "3,140" in exercise.solution


def test_the_data_independent_errors_scale_as_one_over_eps_squared():
    from dplab.range_queries.theory import expected_error_per_query

    for e in (0.01, 0.3, 3.0):
        assert report.data_independent_error("16-ary hierarchy + inference", e) == pytest.approx(
            expected_error_per_query("hierarchy", 256, e, 16, True), rel=1e-12)
    with pytest.raises(ValueError, match="name must be one of"):
        report.data_independent_error("wavelet", 1.0)


def test_histograms_hold_n_rows_and_the_heights_subsample_stays_inside_the_data():
    full = report.histogram("heights")
    small = report.histogram("heights", 500)
    big = report.histogram("heights", 200_000)
    assert small.sum() == 500 and big.sum() == 200_000
    assert np.all(small <= full) and np.all((big > 0) <= (full > 0))
    assert report.histogram("zipf", 2000).sum() == 2000


def test_the_panel_reads_out_the_split_and_the_promise():
    pytest.importorskip("ipywidgets")
    from dplab.lab.lessons.l09_data_dependent_noise import views

    view = views.DawaView()
    text = view.update({"epsilon": 0.5, "n": 2000, "shape": "spiky", "share": 0.4}, 3)
    assert "DAWA spends 40% of ε = 0.5" in text and "Lap(20)" in text
    assert "can become at most" in text


def test_section_4s_pairs_move_the_median_by_b_minus_a_for_every_n():
    """The words of section 4 (the construction behind the report's global-sensitivity rows);
    one value too few at a would leave the lower median at b on both sides."""
    from dplab.smooth_sensitivity import median_global_sensitivity

    gs = median_global_sensitivity(report.LOW, report.HIGH)
    for relation in ("replace-one", "add/remove"):
        assert report.constructed_move(relation) == pytest.approx(gs, rel=1e-12)
    x, y = report.constructed_pair("replace-one", 7)
    assert list(x) == [report.LOW] * 4 + [report.HIGH] * 3 and np.sum(y == report.HIGH) == 4
    x, y = report.constructed_pair("add/remove", 6)
    assert x.size == 6 and y.size == 7
    with pytest.raises(ValueError, match="n must be even"):
        report.constructed_pair("add/remove", 5)
    with pytest.raises(ValueError, match="relation must be"):
        report.constructed_pair("swap", 4)


def test_smooth_sensitivity_of_the_heights_equals_its_definition():
    for eps in (0.01, 1.0, 3.0):
        assert report.smooth_by_definition(eps) == pytest.approx(report.smooth(eps), rel=1e-12)


def _drawn_y(ax) -> list[float]:
    ys = []
    for line in ax.get_lines():
        ys += [float(y) for y in np.atleast_1d(line.get_ydata()) if np.isfinite(y)]
    return ys


def test_every_point_of_the_who_wins_figure_and_every_panel_bar_is_inside_its_axes():
    """The lecturer's read found bias² points below the axis: nothing drawn may be clipped."""
    import matplotlib

    matplotlib.use("Agg")
    from dplab.lab.lessons.l09_data_dependent_noise import views

    fig = views.figure_who_wins()
    for ax in fig.axes:
        low, high = ax.get_ylim()
        ys = _drawn_y(ax)
        assert ys and low < min(ys) and max(ys) < high, (ax.get_title(), min(ys), max(ys))
    view = views.DawaView()
    low, high = view.ax_e.get_ylim()
    for shape in report.SHAPES:
        corners = ((200, 3.0, 0.95), (200_000, 3.0, 0.95), (200_000, 3.0, 0.05), (12579, 0.01, 0.25))
        for n, eps, share in corners:
            view.update({"epsilon": eps, "n": n, "shape": shape, "share": share}, 0)
            tops = [bar.get_y() + bar.get_height() for bar in view.err_bars]  # bars start at identity's 1
            marks = [float(y) for y in view.bias_mark.get_ydata() if np.isfinite(y)]
            assert low < min(tops + marks) and max(tops + marks) < high, (shape, n, eps, share, tops, marks)
            # the left plot: the data always inside (it rescales with n), the estimate marked where not
            top = view.ax.get_ylim()[1]
            assert report.histogram(shape, n).max() / n < top
            estimate = view.step.get_ydata()[:-1]
            assert np.count_nonzero(estimate > top) == view.above.get_xdata().size
