"""One visual language for every notebook: theory as a line, simulation as dots with CI bars.

The artists are created once and updated in place (``TheoryVsEmpirical.update``),
so a slider only moves data and re-renders: no new axes, no new figure.
"""

from __future__ import annotations

import io
import os

import matplotlib.pyplot as plt
import numpy as np
from matplotlib import cycler
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import Collection, LineCollection, PathCollection
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.text import Text
from matplotlib.ticker import NullFormatter
from numpy.typing import ArrayLike
from PIL import Image

from dplab.simulate import Estimate

__all__ = ["ACCOUNTANT_STYLES", "COLORS", "PALETTE", "PROJECTOR", "FastPNG", "LabFigure", "TheoryVsEmpirical",
           "errorbar_ci", "figure_png", "new_figure", "projector_mode", "roc_boxes", "scale_for_projector",
           "tradeoff_axes"]

#: Okabe & Ito's colour-blind-safe palette ("Color Universal Design", 2008): blue, orange, bluish
#: green, vermillion, reddish purple, sky blue, yellow, black. Every lab figure cycles through it.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")

#: One colour per mechanism, the same in every notebook (from PALETTE; grey for the normal curve).
COLORS = {
    "laplace": PALETTE[0],
    "gaussian": PALETTE[1],
    "analytic": PALETTE[1],
    "classical": PALETTE[2],
    "zcdp": PALETTE[3],
    "normal": "#7f7f7f",
    "bound": PALETTE[4],
}

#: One (colour, line style) per accountant, by its ``name``, the same in every notebook: Laplace's
#: own privacy loss distribution in the Laplace colour, the optimal bound for the class in black.
ACCOUNTANT_STYLES = {
    "basic": (COLORS["normal"], ":"),
    "advanced (DRV)": (COLORS["classical"], "--"),
    "zCDP (simple)": (COLORS["zcdp"], "-"),
    "zCDP (CKS)": (PALETTE[1], "-."),
    "RDP": (PALETTE[5], "--"),
    "optimal (KOV)": ("k", "-"),
    "PLD (exact)": (COLORS["laplace"], "-"),
}


#: The projector style (``DPLAB_PROJECTOR=1``, set by ``make present PROJECTOR=1``): images this
#: much larger in pixels (``dpi``), and within them text, lines and markers this much larger.
PROJECTOR = {"dpi": 1.3, "text": 1.25, "line": 1.6, "marker": 1.4}


def projector_mode() -> bool:
    """Whether the projector style is on: the one setting is ``DPLAB_PROJECTOR=1``."""
    return os.environ.get("DPLAB_PROJECTOR", "0") not in ("", "0")


def scale_for_projector(fig, text: float = PROJECTOR["text"], line: float = PROJECTOR["line"],
                        marker: float = PROJECTOR["marker"]) -> None:
    """Scale every text, line and marker of ``fig`` in place (tick labels through ``tick_params``,
    so ticks made later match); sizes set explicitly by the code are scaled too. Legend text keeps
    its size in points (it still grows with the figure's dpi): a legend that grew with the rest
    would cover the data it names."""
    tick_parts = set()  # scaled through tick_params, or left alone (tick marks, grid lines, legend text)
    for ax in fig.axes:
        for which, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            for kind, ticks in (("major", axis.get_major_ticks()), ("minor", axis.get_minor_ticks())):
                for t in ticks:
                    tick_parts.update((t.label1, t.label2, t.tick1line, t.tick2line, t.gridline))
                if ticks:
                    ax.tick_params(axis=which, which=kind, labelsize=ticks[0].label1.get_fontsize() * text,
                                   width=ticks[0].tick1line.get_markeredgewidth() * line)
    for legend in fig.findobj(Legend):
        tick_parts.update((*legend.get_texts(), legend.get_title()))
    for artist in fig.findobj(Text):
        if artist not in tick_parts and artist.get_text():
            artist._dplab_plain_size = artist.get_fontsize()  # _refit never shrinks it below this
            artist.set_fontsize(artist.get_fontsize() * text)
    for artist in fig.findobj(Line2D):
        if artist not in tick_parts:
            artist.set_linewidth(artist.get_linewidth() * line)
            artist.set_markersize(artist.get_markersize() * marker)
    for artist in fig.findobj(Collection):
        artist.set_linewidths(np.asarray(artist.get_linewidths()) * line)
        if isinstance(artist, PathCollection) and len(artist.get_sizes()):
            artist.set_sizes(np.asarray(artist.get_sizes()) * marker**2)


def _refit(fig, renderer) -> None:
    """After scaling: a legend anchored below its axes moves below the x-axis label (which grew),
    and an axis label longer than its axes shrinks to fit, but never below its plain size."""
    for ax in fig.axes:
        to_axes = ax.transAxes.inverted()
        legend = ax.get_legend()
        if legend is not None:
            x, y = to_axes.transform(legend.get_bbox_to_anchor().p0)
            if y < 0:
                below = to_axes.transform((0, ax.xaxis.get_tightbbox(renderer).y0))[1]
                legend.set_bbox_to_anchor((x, below - 0.03), transform=ax.transAxes)
        for label, room in ((ax.yaxis.label, ax.bbox.height), (ax.xaxis.label, ax.bbox.width)):
            extent = label.get_window_extent(renderer)
            length = max(extent.width, extent.height)
            if label.get_text() and length > room > 0:
                plain = getattr(label, "_dplab_plain_size", 0.0)
                label.set_fontsize(max(label.get_fontsize() * room / length, plain))


def _fit_titles(fig, renderer) -> None:
    """After the last layout: a title wider than the figure allows around its anchor shrinks to
    fit (a cut title is worse than a smaller one; text width is not quite proportional to its
    size, so a few tries)."""
    width = fig.bbox.width
    for ax in fig.axes:
        for title in (ax.title, ax._left_title, ax._right_title):
            for _ in range(4):
                extent = title.get_window_extent(renderer)
                middle = (extent.x0 + extent.x1) / 2
                room = {"left": width - extent.x0, "right": extent.x1}.get(
                    title.get_horizontalalignment(), 2 * min(middle, width - middle)) - 4
                if not title.get_text() or extent.width <= room or room <= 0:
                    break
                title.set_fontsize(title.get_fontsize() * room / extent.width)


class LabFigure(Figure):
    """Every lab figure. In the projector style it scales its text, lines and markers up
    (:func:`scale_for_projector`) once, just before its first draw, when all its artists exist,
    then lays itself out again (:func:`_refit`, then ``tight_layout`` as the code asked for it,
    which accounts for legends below the axes and so replaces a ``subplots_adjust`` made after it).
    Otherwise it is a plain Figure."""

    _projected = False
    _tight: dict | None = None

    def tight_layout(self, *args, **kwargs):
        self._tight = kwargs
        return super().tight_layout(*args, **kwargs)

    def draw(self, renderer):
        if not self._projected and projector_mode():
            self._projected = True
            scale_for_projector(self)
            for _ in range(2):  # the legends' new anchors depend on the layout, and the layout on them
                if self._tight is not None:
                    super().tight_layout(**self._tight)
                _refit(self, renderer)
            if self._tight is not None:
                super().tight_layout(**self._tight)
            _fit_titles(self, renderer)
        return super().draw(renderer)


def new_figure(ncols: int = 1, width: float = 5.0, height: float = 3.4, dpi: int = 90):
    """A figure with ``ncols`` axes side by side, closed to pyplot so only explicit
    ``display`` shows it (no double plot under ``%matplotlib inline``). In the projector style
    it has ``PROJECTOR["dpi"]`` times the pixels and scales its contents before its first draw."""
    if projector_mode():
        dpi = round(dpi * PROJECTOR["dpi"])
    with plt.rc_context({"axes.prop_cycle": cycler(color=PALETTE)}):
        fig, axes = plt.subplots(1, ncols, figsize=(width * ncols, height), dpi=dpi, squeeze=False,
                                 FigureClass=LabFigure)
    plt.close(fig)
    return fig, list(axes[0])


def errorbar_ci(ax, x, intervals, **kwargs):
    """Simulated estimates as dots with their confidence intervals as bars (``intervals``: objects
    with ``estimate``, ``low`` and ``high``, e.g. dplab.simulate.mean_ci's); kwargs go to errorbar."""
    est = np.array([float(c.estimate) for c in intervals])
    low = np.array([float(c.low) for c in intervals])
    high = np.array([float(c.high) for c in intervals])
    return ax.errorbar(x, est, yerr=[est - low, high - est], **kwargs)


def roc_boxes(ax, roc, color, label=None, *, tpr: bool = False, keep=slice(None)):
    """A simulated attacker's ROC points (``keep`` of them; ``roc``: a dplab.attacks.EmpiricalRoc) with
    their simultaneous boxes as error bars: (alpha, beta), or (alpha, 1 - beta) with ``tpr``."""
    y = (roc.tpr if tpr else roc.beta)[keep]
    low, high = (1 - roc.beta_high, 1 - roc.beta_low) if tpr else (roc.beta_low, roc.beta_high)
    x, x_low, x_high = roc.alpha[keep], roc.alpha_low[keep], roc.alpha_high[keep]
    return ax.errorbar(x, y, xerr=[x - x_low, x_high - x], yerr=[y - low[keep], high[keep] - y], fmt="o",
                       ms=2.5, lw=0.8, color=color, label=label)


def tradeoff_axes(ax, title: str) -> None:
    """Axes of a trade-off plane (alpha: false alarms, beta: misses; notebook 8's attacker who tests
    "Alice is in"), with the coin toss beta = 1 - alpha dotted."""
    ax.plot([0, 1], [1, 0], ":", color="0.6", lw=0.8, label="a coin toss (no information)")
    ax.set(xlim=(0, 1), ylim=(0, 1), aspect="equal", title=title, xlabel="α: false alarms (says 'in' when "
           "Alice is out)", ylabel="β: misses (says 'out' when she is in)")


def figure_png(fig) -> bytes:
    """Render a figure to PNG bytes (what a widget Image shows)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


class FastPNG:
    """PNG frames of a figure whose only moving parts are ``dynamic`` artists (blitting).

    The static rest (axes, ticks, labels, legend: most of the cost of a matplotlib
    draw) is rendered once; each frame restores it, draws the dynamic artists and
    encodes the pixels with fast PNG compression. When an axis limit or a title
    changes between frames (a view that rescales to a new k), the static background is
    rendered again for that frame: slower, but never stale. The legends of the axes that hold
    dynamic artists are pasted back over them from the background (a copy of their pixels), so
    the moving curves pass under a legend as in a full draw rather than across its text; pasting
    costs nothing, where drawing a legend every frame took 10-50 ms (measured). A full draw shows
    the curves faintly through a translucent legend (matplotlib's framealpha 0.8); the pasted
    legend hides them within its box (2 px wider), and a frameless legend would hide them too.
    """

    def __init__(self, fig, dynamic):
        self.fig = fig
        self.canvas = FigureCanvasAgg(fig)
        self.dynamic = list(dynamic)
        axes = {artist.axes for artist in self.dynamic if artist.axes is not None}
        self.legends = [ax.get_legend() for ax in fig.axes if ax in axes and ax.get_legend() is not None]
        self._legend_pixels: list = []
        self._background = None
        self._layout = None

    def _current_layout(self) -> tuple:
        return tuple((ax.get_xlim(), ax.get_ylim(), ax.get_title()) for ax in self.fig.axes)

    def png(self) -> bytes:
        layout = self._current_layout()
        if self._background is None or layout != self._layout:
            for artist in self.dynamic:
                artist.set_animated(True)  # left out of canvas.draw(), drawn per frame
            self.canvas.draw()
            self._background = self.canvas.copy_from_bbox(self.fig.bbox)
            renderer = self.canvas.get_renderer()
            self._legend_pixels = [self.canvas.copy_from_bbox(legend.get_window_extent(renderer).padded(2))
                                   for legend in self.legends if legend.get_visible()]
            self._layout = layout
        else:
            self.canvas.restore_region(self._background)
        for artist in self.dynamic:
            if artist.get_visible():
                artist.axes.draw_artist(artist)
        for pixels in self._legend_pixels:
            self.canvas.restore_region(pixels)
        buf = io.BytesIO()
        # the figures are opaque: RGB carries the same pixels as RGBA and encodes faster
        Image.fromarray(np.asarray(self.canvas.buffer_rgba())).convert("RGB").save(buf, format="png",
                                                                                  compress_level=1)
        return buf.getvalue()


class TheoryVsEmpirical:
    """A theory curve with empirical points and their confidence bars on one axes; the legend names
    the bars' ``confidence`` (give the level the notebook's assert uses, and intervals at it)."""

    def __init__(
        self,
        ax,
        *,
        color: str,
        label: str,
        theory_style: str = "-",
        marker: str = "o",
        show_theory: bool = True,
        confidence: float = 0.95,
    ):
        self.ax = ax
        (self.theory,) = ax.plot(
            [], [], theory_style, color=color, lw=1.8, label=f"{label}: theory" if show_theory
            else None, visible=show_theory
        )
        (self.points,) = ax.plot(
            [], [], marker, color=color, ms=4.5, ls="none",
            label=f"{label}: simulated ({100 * confidence:.4g}% CI)"
        )
        self.bars = LineCollection([], colors=color, linewidths=1.4)
        ax.add_collection(self.bars)

    def update(
        self,
        x_theory: ArrayLike,
        theory: ArrayLike,
        x_points: ArrayLike,
        estimate: Estimate,
    ) -> None:
        """Move the curve and the points to new data (no new artists)."""
        self.theory.set_data(np.asarray(x_theory), np.asarray(theory))
        x = np.atleast_1d(np.asarray(x_points, float))
        est = np.atleast_1d(estimate.estimate)
        self.points.set_data(x, est)
        low, high = np.atleast_1d(estimate.low), np.atleast_1d(estimate.high)
        self.bars.set_segments([[(xi, lo), (xi, hi)] for xi, lo, hi in zip(x, low, high, strict=True)])

    @property
    def artists(self) -> list:
        return [self.theory, self.points, self.bars]

    def set_visible(self, visible: bool) -> None:
        for artist in self.artists:
            artist.set_visible(visible)


# --- shared view helpers (issue 25) ---


def here_marker(ax, x: float, y: float, label: str | None = None, ms: float = 8):
    """A panel's "you are here" marker: an open orange ring at (x, y), drawn over the curves it
    sits on; returns the Line2D (move it with ``set_data``)."""
    (line,) = ax.plot([x], [y], "o", ms=ms, mfc="none", mec=PALETTE[3], mew=2, label=label)
    return line


def simulated_points(ax, x: ArrayLike, estimate: Estimate, *, color: str, label: str, confidence: float = 0.95
                     ) -> TheoryVsEmpirical:
    """Simulated estimates alone, as dots with their confidence bars (a :class:`TheoryVsEmpirical`
    without its theory curve, for a figure that draws the exact values its own way); the legend names
    ``confidence``, the level of ``estimate``'s intervals."""
    points = TheoryVsEmpirical(ax, color=color, label=label, show_theory=False, confidence=confidence)
    points.update([], [], x, estimate)
    return points


def ecdf(ax, values: ArrayLike, *args, step: bool = False, **kwargs):
    """The empirical CDF of ``values``: the share of them <= x, as a line through the sorted values
    (or, with ``step``, as a staircase rising at each value); args and kwargs go to ax.plot / ax.step."""
    v = np.sort(np.asarray(values))
    share = (np.arange(v.size) + 1) / v.size
    return ax.step(v, share, *args, where="post", **kwargs) if step else ax.plot(v, share, *args, **kwargs)


def value_ticks(axis, ticks: ArrayLike) -> None:
    """Ticks at ``ticks`` on a log ``axis`` (``ax.xaxis`` or ``ax.yaxis``), each labelled by its value
    ("0.5", "8"), and no minor labels: a log axis spanning less than a decade labels its minor ticks too."""
    axis.set_ticks(ticks, [f"{t:g}" for t in ticks])
    axis.set_minor_formatter(NullFormatter())


def grouped_bars(ax, x: ArrayLike, heights, width: float, *, colors, labels) -> list:
    """One bar per series at each x, side by side, each ``width`` wide and the group centred on x
    (``heights``: one array per series, in the order of ``colors`` and ``labels``); returns each
    series' bars (a panel moves them with ``set_height``)."""
    bars = []
    for i, (h, color, label) in enumerate(zip(heights, colors, labels, strict=True)):
        offset = (i - (len(colors) - 1) / 2) * width
        bars.append(ax.bar(np.asarray(x) + offset, h, width=width, color=color, label=label))
    return bars
