"""Lesson 11, query release in practice: figures and panels (notebook 11 and ``python -m dplab figures``)."""

from __future__ import annotations

import numpy as np

from dplab.lab import widgets as w
from dplab.lab.lessons.l11_query_release import report as lesson
from dplab.lab.plots import PALETTE, new_figure

COLORS = dict(zip(lesson.BASELINES, (PALETTE[0], PALETTE[5], PALETTE[2], PALETTE[4]), strict=True))
STYLES = {"Laplace, basic": "-", "Laplace, advanced": "--", "noisy histogram": "-", "net mechanism": ":"}


def bounds_over_k(bits: int, epsilon: float = lesson.EPSILON) -> dict[str, np.ndarray]:
    """Each baseline's bound at every k of lesson.KS (arrays in the order of lesson.BASELINES)."""
    rows = [lesson.baseline_bounds(int(k), bits, epsilon) for k in lesson.KS]
    return {name: np.array([r[name] for r in rows]) for name in lesson.BASELINES}


def figure_baselines():
    """The baselines' (1 - beta) bounds on the max error against the number of queries k, at two |X|."""
    fig, axes = new_figure(2, width=4.6, height=3.8)
    for ax, bits in zip(axes, (8, 16), strict=True):
        for name, bound in bounds_over_k(bits).items():
            ax.plot(lesson.KS, bound, STYLES[name], color=COLORS[name], lw=1.5, label=name)
        ax.axhline(1.0, color="0.5", lw=0.8, ls=":")
        ax.set(xscale="log", yscale="log", ylim=(1e-3, 30), xlabel="k counting queries",
               ylabel=f"max error bound (share of n), β = {lesson.BETA:g}",
               title=f"|X| = 2^{bits}, n = {lesson.N_STUDENTS:,}, ε = {lesson.EPSILON:g}")
        ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


class WinnerView:
    """Every method's bound on the max error against k at the chosen epsilon and |X|; the readout names
    the best at each decade of k."""

    def __init__(self):
        self.fig, (ax,) = new_figure(1, width=6.4, height=4.0)
        self.ax, self.lines = ax, {}
        for name in lesson.BASELINES:
            (self.lines[name],) = ax.plot(lesson.KS, lesson.KS * 0.0 + 1, STYLES[name], color=COLORS[name],
                                          lw=1.5, label=name)
        ax.axhline(1.0, color="0.5", lw=0.8, ls=":")
        ax.set(xscale="log", yscale="log", ylim=(1e-3, 30), xlabel="k counting queries",
               ylabel=f"max error bound (share of n), β = {lesson.BETA:g}")
        ax.legend(fontsize=7, loc="upper left")
        self.fig.tight_layout()
        self.dynamic = list(self.lines.values())

    def update(self, values: dict, seed: int) -> str:
        eps, bits = float(values["epsilon"]), int(values["bits"])
        bounds = bounds_over_k(bits, eps)
        for name, line in self.lines.items():
            line.set_ydata(bounds[name])
        self.ax.set_title(f"|X| = 2^{bits}, n = {lesson.N_STUDENTS:,}, ε = {eps:.3g}")
        best = [f"k = {k:,}: {min(bounds, key=lambda m, i=i: np.nan_to_num(bounds[m][i], nan=np.inf))}"
                for i, k in enumerate(lesson.KS) if k in (10, 1000, 10**6)]
        return f"Smallest bound at ε = {eps:.3g}, |X| = 2^{bits}: " + "; ".join(best) + "." + w.promise(
            epsilon=eps)


WINNER_PANEL = w.ViewPanel(WinnerView, lambda: {
    "epsilon": w.epsilon_slider(1.0, 0.1, 4.0),
    "bits": w.value_slider(lesson.BITS, 8, "log2 |X|")})


def figures() -> dict[str, object]:
    return {"11_baselines": figure_baselines(), "11_winner_panel": WINNER_PANEL.figure()}


PANELS = (
    w.PanelCase("11 who-wins panel (epsilon, |X|)", WINNER_PANEL.panel,
                {"epsilon": list(w.BENCH_EPSILONS), "bits": list(lesson.BITS)},
                w.BrowserStep(0, "epsilon", w.EPSILON_STEP, f"ε = {w.EPSILON_STEP}")),
)
