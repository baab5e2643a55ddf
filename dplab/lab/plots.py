"""One visual language for every notebook: theory as a line, simulation as dots with CI bars.

The artists are created once and updated in place (``TheoryVsEmpirical.update``),
so a slider only moves data and re-renders: no new axes, no new figure.
"""

from __future__ import annotations

import io

import matplotlib.pyplot as plt
import numpy as np
from matplotlib import cycler
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection
from numpy.typing import ArrayLike
from PIL import Image

from dplab.simulate import Estimate

__all__ = ["COLORS", "PALETTE", "FastPNG", "TheoryVsEmpirical", "figure_png", "new_figure"]

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


def new_figure(ncols: int = 1, width: float = 5.0, height: float = 3.4, dpi: int = 90):
    """A figure with ``ncols`` axes side by side, closed to pyplot so only explicit
    ``display`` shows it (no double plot under ``%matplotlib inline``)."""
    with plt.rc_context({"axes.prop_cycle": cycler(color=PALETTE)}):
        fig, axes = plt.subplots(1, ncols, figsize=(width * ncols, height), dpi=dpi, squeeze=False)
    plt.close(fig)
    return fig, list(axes[0])


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
    rendered again for that frame: slower, but never stale.
    """

    def __init__(self, fig, dynamic):
        self.fig = fig
        self.canvas = FigureCanvasAgg(fig)
        self.dynamic = list(dynamic)
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
            self._layout = layout
        else:
            self.canvas.restore_region(self._background)
        for artist in self.dynamic:
            if artist.get_visible():
                artist.axes.draw_artist(artist)
        buf = io.BytesIO()
        # the figures are opaque: RGB carries the same pixels as RGBA and encodes faster
        Image.fromarray(np.asarray(self.canvas.buffer_rgba())).convert("RGB").save(buf, format="png",
                                                                                  compress_level=1)
        return buf.getvalue()


class TheoryVsEmpirical:
    """A theory curve with empirical points and their confidence bars on one axes."""

    def __init__(
        self,
        ax,
        *,
        color: str,
        label: str,
        theory_style: str = "-",
        marker: str = "o",
        show_theory: bool = True,
    ):
        self.ax = ax
        (self.theory,) = ax.plot(
            [], [], theory_style, color=color, lw=1.8, label=f"{label}: theory" if show_theory
            else None, visible=show_theory
        )
        (self.points,) = ax.plot(
            [], [], marker, color=color, ms=4.5, ls="none", label=f"{label}: simulated (95% CI)"
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
