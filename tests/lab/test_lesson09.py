"""Lesson 9's words in code: every who-wins sentence of the notebook and its exercise key is
checked against the simulation it describes (fixed seeds), and the panel's readout."""

from __future__ import annotations

import numpy as np
import pytest

from dplab import range_queries
from dplab.lab.lessons.l09_data_dependent_noise import report


def test_the_who_wins_sentences():
    eps = report.EPSILONS
    p_id, idn = report.P_IDENTITY, "identity"
    verdict = {(s, e): report.verdict(s, e) for s in report.SHAPES for e in eps}
    part = {(s, e): report.larger_part(s, e) for s in report.SHAPES for e in eps}
    vs_identity = {(s, e): report.compare(s, e, idn) for s in report.SHAPES for e in eps}
    # small scale: about 30 buckets whatever the shape
    assert all(28 <= report.dawa_error(s, 0.01).buckets <= 32 for s in report.SHAPES)
    # uniform: DAWA beats every strategy up to 0.3 (n eps up to about 3,800), mostly noise
    assert all(verdict["uniform", e] == "DAWA" for e in (0.01, 0.03, 0.1, 0.3))
    assert round(report.n_heights() * 0.3, -2) == 3800
    assert all(part["uniform", e] == "noise" for e in (0.01, 0.03, 0.1))
    uniform_share = [report.dawa_error("uniform", e).merging.mean() / report.dawa_error("uniform", e).mean
                     for e in (0.01, 0.03, 0.1, 0.3)]
    assert max(uniform_share[:3]) < 0.085 and f"{uniform_share[3]:.0%}" == "43%"  # "at most 8%", "43% at 0.3"
    # Zipf wins at 0.01 and 0.03 (and not at 0.1), mostly noise there
    assert verdict["zipf", 0.01] == verdict["zipf", 0.03] == "DAWA" != verdict["zipf", 0.1]
    assert part["zipf", 0.01] == part["zipf", 0.03] == "noise"
    # spiky: a penalty of 3,333 rows a bucket at 0.01; merging more than half, p-Identity wins at 0.01
    # and 0.03; DAWA at 0.1 and 0.3, mostly noise again
    penalty = report.partition_penalty(report.SHARE * 0.01, (1 - report.SHARE) * 0.01)
    assert f"{penalty:,.0f}" == "3,333"
    spiky = report.histogram("spiky")
    for e in (0.01, 0.03):  # "it would even without the cost noise": the noiseless partition is one bucket
        noiseless = report.best_partition(report.interval_costs(spiky),
                                          report.partition_penalty(report.SHARE * e, (1 - report.SHARE) * e))
        assert noiseless == [(0, report.K - 1)], e
    assert verdict["spiky", 0.01] == verdict["spiky", 0.03] == p_id
    assert part["spiky", 0.01] == part["spiky", 0.03] == "merging"
    assert verdict["spiky", 0.1] == verdict["spiky", 0.3] == "DAWA"
    assert part["spiky", 0.1] == part["spiky", 0.3] == "noise"
    # large scale: p-Identity beats DAWA everywhere at 1 and 3; identity too, but for spiky at 1 (0.79)
    for s in report.SHAPES:
        for e in (1.0, 3.0):
            assert verdict[s, e] == p_id, (s, e)
            assert vs_identity[s, e] == ("DAWA" if (s, e) == ("spiky", 1.0) else idn), (s, e)
    assert f"{report.relative_errors('spiky')[eps.index(1.0)]:.2f}" == "0.79"
    # the synthetic shapes' loss is mostly merging: 63% to 87% of DAWA's error
    shares = []
    for s in ("uniform", "spiky", "zipf"):
        for e in (1.0, 3.0):
            err = report.dawa_error(s, e)
            assert part[s, e] == "merging", (s, e)
            shares.append(err.merging.mean() / err.mean)
    assert (f"{min(shares):.0%}", f"{max(shares):.0%}") == ("63%", "87%")
    # the uniform shape's sampling noise, about +-7 rows a bin; identity's +-0.5 at eps = 3;
    # the partition's b = 5.3 and penalty 11.1 at eps = 3
    assert round(float(np.std(report.histogram("uniform")))) == 7
    assert round(float(np.mean(report.histogram("uniform")))) == 49
    assert f"{np.sqrt(2) / 3:.1f}" == "0.5"
    assert f"{range_queries.partition_noise_scale(0.75):.1f}" == "5.3"
    assert f"{report.partition_penalty(0.75, 2.25):.1f}" == "11.1"
    # 4.2 times identity's on uniform at 3; with one noise scale b per bucket 2.0, still losing to
    # p-Identity at 1 and 3 on every shape
    assert f"{report.relative_errors('uniform')[eps.index(3.0)]:.1f}" == "4.2"
    one = report.dawa_error("uniform", 3.0, penalty=report.penalty_one_scale(3.0))
    assert f"{one.mean / report.data_independent_error(idn, 3.0):.1f}" == "2.0"
    for s in report.SHAPES:
        for e in (1.0, 3.0):
            low = report.dawa_error(s, e, penalty=report.penalty_one_scale(e)).interval().low
            assert low > report.data_independent_error(p_id, e), (s, e)
    # the heights: merging the larger part at 0.03 and 0.1, the totals' noise from 0.3 on (70 to 90
    # buckets); level with p-Identity only at 0.01, which wins from 0.03; identity beats DAWA at
    # 0.1, 1 and 3, not resolved at 0.03 and 0.3
    assert part["heights", 0.03] == part["heights", 0.1] == "merging"
    assert all(part["heights", e] == "noise" for e in (0.3, 1.0, 3.0))
    assert all(70 <= report.dawa_error("heights", e).buckets <= 90 for e in (0.3, 1.0, 3.0))
    assert verdict["heights", 0.01] == "unresolved"
    assert all(verdict["heights", e] == p_id for e in eps[1:])
    assert [vs_identity["heights", e] for e in eps[1:]] == ["unresolved", idn, "unresolved", idn, idn]


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


def test_the_partition_sentences_and_exercise_09_3():
    assert round(report.dawa_error("heights", 1.0).buckets) == 81  # "81 on average"
    assert round(report.dawa_error("heights", 0.1).buckets) == 62  # "the 1,000-run average is 62"
    ratio = report.relative_errors("uniform")[report.EPSILONS.index(0.1)]
    exercise = next(e for e in report.EXERCISES if e.id == "09.3")
    assert f"{ratio:.3f}" in exercise.solution and f"{ratio:.2f}" in exercise.solution
    assert f"{ratio * 17200:,.0f}"[:3] == "3,5" and "3,540" in exercise.solution


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


def test_section_4s_pairs_move_the_median_by_hi_minus_lo_for_every_n():
    """The words of section 4 (the construction behind the report's global-sensitivity rows);
    one value too few at lo would leave the lower median at hi on both sides."""
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
