"""The lab's figures: the projector style (one setting, DPLAB_PROJECTOR=1) and blitted frames that
keep legends on top (issue 12)."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from PIL import Image  # noqa: E402

from dplab.lab.plots import PROJECTOR, FastPNG, figure_png, new_figure, projector_mode  # noqa: E402


def _figure():
    """A small lab figure with sizes set explicitly (as the lessons do) and a legend below the axes."""
    fig, (ax,) = new_figure(1, width=4.0, height=3.0)
    (line,) = ax.plot([0, 1], [0, 1], lw=1.5, marker="o", ms=4, label="theory")
    ax.set_title("title", fontsize=9)
    ax.set_xlabel("a long x label")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2))
    fig.tight_layout()
    return fig, ax, line


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def test_projector_mode_is_one_environment_setting(monkeypatch):
    monkeypatch.delenv("DPLAB_PROJECTOR", raising=False)
    assert not projector_mode()
    monkeypatch.setenv("DPLAB_PROJECTOR", "0")
    assert not projector_mode()
    monkeypatch.setenv("DPLAB_PROJECTOR", "1")
    assert projector_mode()


def test_projector_style_scales_text_lines_and_markers_once(monkeypatch):
    monkeypatch.delenv("DPLAB_PROJECTOR", raising=False)
    plain, ax0, _ = _figure()
    tick_size = ax0.xaxis.get_major_ticks()[0].label1.get_fontsize()
    monkeypatch.setenv("DPLAB_PROJECTOR", "1")
    fig, ax, line = _figure()
    assert fig.dpi == round(90 * PROJECTOR["dpi"])
    figure_png(fig)
    figure_png(fig)  # a second draw scales nothing again
    assert ax.title.get_fontsize() == pytest.approx(9 * PROJECTOR["text"])
    assert ax.get_legend().get_texts()[0].get_fontsize() == pytest.approx(7)  # points kept: the legend
    # grows with the dpi only, so it covers no more of the data than in the plain style
    assert ax.xaxis.get_major_ticks()[0].label1.get_fontsize() == pytest.approx(tick_size * PROJECTOR["text"])
    assert line.get_linewidth() == pytest.approx(1.5 * PROJECTOR["line"])
    assert line.get_markersize() == pytest.approx(4 * PROJECTOR["marker"])
    # the legend below the axes moved below the (larger) x label instead of covering it
    renderer = FigureCanvasAgg(fig).get_renderer()
    assert ax.get_legend().get_window_extent(renderer).y1 <= ax.xaxis.get_tightbbox(renderer).y0 + 1
    assert fig.get_size_inches() == pytest.approx(plain.get_size_inches())


def test_without_the_setting_a_lab_figure_draws_like_a_plain_one(monkeypatch):
    monkeypatch.delenv("DPLAB_PROJECTOR", raising=False)
    fig, _, _ = _figure()
    plain = plt.figure(figsize=(4.0, 3.0), dpi=90)
    ax = plain.add_subplot()
    ax.set_prop_cycle(color=[fig.axes[0].lines[0].get_color()])
    ax.plot([0, 1], [0, 1], lw=1.5, marker="o", ms=4, label="theory")
    ax.set_title("title", fontsize=9)
    ax.set_xlabel("a long x label")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2))
    plain.tight_layout()
    plt.close(plain)
    assert np.array_equal(_pixels(figure_png(fig)), _pixels(figure_png(plain)))


def test_a_blitted_frame_keeps_the_legend_over_the_moving_curve(monkeypatch):
    monkeypatch.delenv("DPLAB_PROJECTOR", raising=False)
    fig, (ax,) = new_figure(1, width=4.0, height=3.0)
    ax.plot([0, 1], [0, 0], color="grey", label="a static curve")
    legend = ax.legend(loc="upper left", fontsize=8, framealpha=1.0)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    (moving,) = ax.plot([0, 1], [0.95, 0.95], color="black", lw=6)  # through the legend's box
    fast = FastPNG(fig, [moving])
    frame = _pixels(fast.png())
    box = legend.get_window_extent(fig.canvas.get_renderer())
    height = frame.shape[0]
    rows = slice(int(height - box.y1) + 3, int(height - box.y0) - 3)
    cols = slice(int(box.x0) + 3, int(box.x1) - 3)
    moving.set_visible(False)
    without = _pixels(figure_png(fig))
    assert np.array_equal(frame[rows, cols], without[rows, cols])  # the legend, not the curve
    assert not np.array_equal(frame, without)  # the curve is drawn elsewhere


@pytest.mark.slow
def test_every_lesson_figure_keeps_its_text_inside_in_the_projector_style(monkeypatch):
    """Every title and axis label of every lesson figure lies inside the image once scaled up (a
    title cut at the edge loses its point: lesson 2's "projection helps" did, before titles fit)."""
    monkeypatch.setenv("DPLAB_PROJECTOR", "1")
    from dplab.lab.registry import lesson_views

    outside = []
    for views in lesson_views():
        for name, fig in views.figures().items():
            figure_png(fig)  # the first draw scales and lays out
            renderer = FigureCanvasAgg(fig).get_renderer()
            box = fig.bbox
            for ax in fig.axes:
                for text in (ax.title, ax.xaxis.label, ax.yaxis.label):
                    extent = text.get_window_extent(renderer)
                    if text.get_text() and (extent.x0 < -1 or extent.x1 > box.x1 + 1 or extent.y0 < -1
                                            or extent.y1 > box.y1 + 1):
                        outside.append((name, text.get_text()))
            plt.close(fig)
    assert outside == []


def test_errorbar_ci_draws_each_interval_around_its_estimate():
    """catches: the lower and upper bar lengths swapped (or the bars drawn from 0), which an
    asymmetric interval shows"""
    from dplab.lab.plots import errorbar_ci, new_figure
    from dplab.simulate import Estimate

    fig, (ax,) = new_figure(1)
    intervals = [Estimate(0.5, 0.4, 0.8, 0.95), Estimate(0.2, 0.1, 0.25, 0.95)]
    container = errorbar_ci(ax, [1.0, 2.0], intervals, fmt="o")
    segments = container.lines[2][0].get_segments()
    assert np.allclose([s[:, 1] for s in segments], [[0.4, 0.8], [0.1, 0.25]])
    assert np.allclose(container.lines[0].get_ydata(), [0.5, 0.2])


def test_roc_boxes_span_each_points_box_in_both_directions():
    """catches: the beta box drawn for the true positive rate without flipping it (1 - beta_high to
    1 - beta_low), or the alpha and beta boxes swapped: asymmetric boxes show both"""
    from dplab.attacks import EmpiricalRoc
    from dplab.lab.plots import roc_boxes

    roc = EmpiricalRoc(np.array([0.5, 1.5]), np.array([0.2, 0.6]), np.array([0.7, 0.3]), np.array([0.1, 0.5]),
                       np.array([0.25, 0.8]), np.array([0.6, 0.25]), np.array([0.9, 0.32]), 0.99, (10, 10))
    for tpr, y, y_box in ((False, [0.7, 0.3], [[0.6, 0.9], [0.25, 0.32]]),
                          (True, [0.3, 0.7], [[0.1, 0.4], [0.68, 0.75]])):
        fig, (ax,) = new_figure(1)
        container = roc_boxes(ax, roc, "k", tpr=tpr)
        assert np.allclose(container.lines[0].get_ydata(), y)
        x_bars, y_bars = (c.get_segments() for c in container.lines[2])
        assert np.allclose([s[:, 0] for s in x_bars], [[0.1, 0.25], [0.5, 0.8]])
        assert np.allclose([s[:, 1] for s in y_bars], y_box)
