"""Lesson 9's words in code: every who-wins sentence of the notebook and its exercise key is
checked against the simulation it describes (fixed seeds), and the panel's readout."""

from __future__ import annotations

import numpy as np
import pytest

from dplab.lab.lessons.l09_data_dependent_noise import exercises, report
from dplab.simulate import mean_ci


def _share_between(err, low: float, high: float) -> bool:
    """Whether the merging error's share of DAWA's error lies in [low, high], each end by a one-sided
    test of the paired runs: share > a exactly when E[merging - a (merging + noise)] > 0."""
    above = mean_ci(err.merging - low * err.per_run, report.WIN_CONFIDENCE).low > 0
    below = mean_ci(err.merging - high * err.per_run, report.WIN_CONFIDENCE).high < 0
    return above and below


@pytest.mark.statistical
def test_the_who_wins_sentences():
    """Each sentence of the notebook about the default DAWA (LAB_1B) checked as the claim it makes,
    with the runs' own intervals (99.9%, two-sided, each end on its own): no simulated number is
    pinned, so a new random stream passes as long as the claims hold."""
    eps, idn, hierarchy = report.EPSILONS, "identity", report.STRATEGIES[1]
    vs = {(s, e, t): report.compare(s, e, t) for s in report.SHAPES for e in eps for t in report.STRATEGIES}
    # small scale: about 80 buckets on every shape at 0.01, the totals' noise the larger part everywhere
    for s in report.SHAPES:
        ci = mean_ci(report.dawa_error(s, 0.01).bucket_counts, report.WIN_CONFIDENCE)
        assert 78 < ci.low and ci.high < 86, (s, ci)
        assert all(report.larger_part(s, e) == "noise" for e in eps), s
        # DAWA beats identity up to 0.3 on every shape, loses to it at 3
        assert [vs[s, e, idn] for e in (0.01, 0.03, 0.1, 0.3)] == ["DAWA"] * 4, s
        assert vs[s, 3.0, idn] == idn, s
        # never better than the hierarchy or p-Identity at n = 12,579
        assert all(vs[s, e, t] != "DAWA" for e in eps for t in (hierarchy, report.P_IDENTITY)), s
    # the heights: DAWA beats identity up to eps = 1, p-Identity wins at every eps
    assert [vs["heights", e, idn] for e in eps] == ["DAWA"] * 5 + [idn]
    assert all(vs["heights", e, report.P_IDENTITY] == report.P_IDENTITY for e in eps)
    # large scale: merging 40% to 50% of the error on the synthetic shapes at eps = 3, by one-sided ends
    for s in ("uniform", "spiky", "zipf"):
        assert _share_between(report.dawa_error(s, 3.0), 0.4, 0.5), s
    for claim in report.CLAIMS:
        assert report.compare(*claim[:3]) == claim[3], claim


@pytest.mark.statistical
def test_the_comparison_sentences():
    """The comparisons' sentences (100 partitions a point, their 99.9% ends): LAB_2B beats p-Identity
    on uniform and Zipf at 0.01 and is over 2 times identity's error on uniform at 3; DPCOMP is under a
    tenth of LAB_1B's error on uniform at 0.01; LAB_1B's mean ratio over the 24 points is below
    LAB_2B's (the default's choice)."""
    others, error = report.comparisons(), report.data_independent_error
    pid = error(report.P_IDENTITY, 1.0) / error("identity", 1.0)

    def end(which, preset, shape, e):
        return getattr(others, which)[others.presets.index(preset), others.shapes.index(shape),
                                      others.epsilons.index(e)]

    assert end("high", "LAB_2B", "uniform", 0.01) < pid and end("high", "LAB_2B", "zipf", 0.01) < pid
    assert end("low", "LAB_2B", "uniform", 3.0) > 2
    lab = mean_ci(report.dawa_error("uniform", 0.01).per_run, report.WIN_CONFIDENCE).low
    assert end("high", "DPCOMP", "uniform", 0.01) < 0.1 * lab / error("identity", 0.01)
    lab_mean = np.mean([report.relative_errors(s) for s in report.SHAPES])
    assert lab_mean < 0.9 < 0.95 < others.mean_ratios()["LAB_2B"]


@pytest.mark.statistical
def test_dawa_error_given_the_partition_agrees_with_the_drawn_second_stage():
    """Each point integrates the totals' noise exactly (spread_error); the runs' actual errors, with
    the noise drawn, must agree: the paired difference's mean within its interval, Bonferroni over
    the 24 points at 99%."""
    from dplab.simulate import bonferroni_confidence, mean_ci

    level = bonferroni_confidence(len(report.SHAPES) * len(report.EPSILONS), 0.01)
    for s in report.SHAPES:
        for e in report.EPSILONS:
            err = report.dawa_error(s, e)
            ci = mean_ci(err.simulated - err.per_run, level)
            assert ci.low <= 0 <= ci.high, (s, e, ci)


@pytest.mark.statistical
def test_the_partition_sentences_and_exercise_09_3():
    """The heights' buckets "between 80 and 90" at eps = 0.01, "100 to 112" at 0.1 and "112 to 125" at 1,
    by the runs' intervals; exercise 09.3's key quotes the simulated ratio and error, which must stay
    within its own 20% tolerance."""
    import re

    for eps, low, high in ((0.01, 80, 90), (0.1, 100, 112), (1.0, 112, 125)):
        ci = mean_ci(report.dawa_error("heights", eps).bucket_counts, report.WIN_CONFIDENCE)
        assert low < ci.low and ci.high < high, (eps, ci)
    ratio = report.relative_errors("uniform")[report.EPSILONS.index(0.1)]
    exercise = next(e for e in exercises.EXERCISES if e.id == "09.3")
    quoted_ratio = float(re.search(r"simulated ratio, (0\.\d+)", exercise.worked_solution()).group(1))
    quoted = re.search(r"about ([\d,]+) rows", exercise.worked_solution()).group(1)
    quoted_error = float(quoted.replace(",", ""))
    assert quoted_ratio == pytest.approx(ratio, rel=0.2)
    assert quoted_error == pytest.approx(exercise.answer(), rel=0.2)


def test_the_data_independent_errors_scale_as_one_over_eps_squared():
    from dplab.range_queries.theory import expected_error_per_query

    for e in (0.01, 0.3, 3.0):
        assert report.data_independent_error("16-ary hierarchy + inference", e) == pytest.approx(
            expected_error_per_query("hierarchy", 256, e, 16, True, include_root=False), rel=1e-12)


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


def test_smooth_sensitivity_of_the_heights_equals_its_definition():
    from dplab import smooth_sensitivity as ss

    betas = [ss.smooth_beta(eps, report.DELTA) for eps in (0.01, 1.0, 3.0)]
    h, low, high = report.heights(), report.LOW, report.HIGH
    definition = ss.median_smooth_sensitivity_by_definition(h, low, high, betas)
    divide_and_conquer = [ss.median_smooth_sensitivity(h, low, high, b) for b in betas]
    assert definition == pytest.approx(divide_and_conquer, rel=1e-12)


def _drawn_y(ax) -> list[float]:
    ys = []
    for line in ax.get_lines():
        ys += [float(y) for y in np.atleast_1d(line.get_ydata()) if np.isfinite(y)]
    return ys


@pytest.mark.slow
def test_every_point_of_the_who_wins_figure_and_every_panel_bar_is_inside_its_axes():
    """The lecturer's read found bias² points below the axis: nothing drawn may be clipped (the merging
    error is marked at the floor when below it)."""
    import matplotlib

    matplotlib.use("Agg")
    from dplab.lab.lessons.l09_data_dependent_noise import views

    fig = views.figure_who_wins()
    for ax in fig.axes:
        low, high = ax.get_ylim()
        ys = _drawn_y(ax)
        assert ys and low < min(ys) and max(ys) < high, (ax.get_title(), min(ys), max(ys))
    view = views.DawaView()
    for shape in report.SHAPES:
        corners = ((200, 3.0, 0.95), (200_000, 3.0, 0.95), (200_000, 3.0, 0.05), (12579, 0.01, 0.25))
        for n, eps, share in corners:
            view.update({"epsilon": eps, "n": n, "shape": shape, "share": share}, 0)
            low, high = view.ax_e.get_ylim()  # the axis widens when a bar would leave it
            tops = [bar.get_y() + bar.get_height() for bar in view.err_bars]  # bars start at identity's 1
            marks = [float(y) for y in view.bias_mark.get_ydata() if np.isfinite(y)]
            assert low < min(tops + marks) and max(tops + marks) < high, (shape, n, eps, share, tops, marks)
            # the left plot: the data always inside (it rescales with n), the estimate marked where not
            top = view.ax.get_ylim()[1]
            assert report.histogram(shape, n).max() / n < top
            estimate = view.step.get_ydata()[:-1]
            assert np.count_nonzero(estimate > top) == view.above.get_xdata().size
