"""Lesson 11, query release in practice: figures and panels (notebook 11 and ``python -m dplab figures``)."""

from __future__ import annotations

import numpy as np

from dplab import query_release as qr
from dplab.lab import widgets as w
from dplab.lab.lessons.l11_query_release import report as lesson
from dplab.lab.plots import PALETTE, here_marker, new_figure

COLORS = dict(zip(lesson.BASELINES, (PALETTE[0], PALETTE[5], PALETTE[2], PALETTE[4]), strict=True))
COLORS.update({"MWEM": PALETTE[3], "DualQuery": PALETTE[1]})
STYLES = {"Laplace, basic": "-", "Laplace, advanced": "--", "noisy histogram": "-", "net mechanism": ":"}
MARKERS = dict(zip(lesson.METHODS, "ov^sDP", strict=True))


def bounds_over_k(bits: int, epsilon: float = lesson.EPSILON) -> dict[str, np.ndarray]:
    """Each baseline's bound at every k of lesson.KS (arrays in the order of lesson.BASELINES)."""
    rows = [lesson.baseline_bounds(int(k), bits, epsilon) for k in lesson.KS]
    return {name: np.array([r[name] for r in rows]) for name in lesson.BASELINES}


def _bounds_axes(ax, bits: int, epsilon: float) -> dict:
    lines = {}
    for name, bound in bounds_over_k(bits, epsilon).items():
        (lines[name],) = ax.plot(lesson.KS, bound, STYLES[name], color=COLORS[name], lw=1.5, label=name)
    ax.axhline(1.0, color="0.5", lw=0.8, ls=":")
    ax.set(xscale="log", yscale="log", ylim=(1e-3, 30), xlabel="k counting queries",
           ylabel=f"max error bound (share of n), β = {lesson.BETA:g}",
           title=f"|X| = 2^{bits}, n = 12,579, ε = {epsilon:.3g}")
    ax.legend(fontsize=7, loc="upper left")
    return lines


def _epsilon_ticks(ax, epsilons) -> None:
    """Ticks at the epsilons themselves on a log axis (no crowded minor labels)."""
    ax.set_xticks(epsilons, [f"{e:g}" for e in epsilons])
    ax.minorticks_off()


def figure_baselines():
    """The baselines' (1 - beta) bounds on the max error against the number of queries k, at two |X|."""
    fig, axes = new_figure(2, width=4.6, height=3.8)
    for ax, bits in zip(axes, (8, 16), strict=True):
        _bounds_axes(ax, bits, lesson.EPSILON)
    fig.tight_layout()
    return fig


def figure_mwem():
    """MWEM's measured max error against T (three variants) under HLM12's bound (left); max and mean error
    of the average iterate against eps at T = 40 (right); |X| = 2^8, the full workload."""
    fig, (ax, ax_e) = new_figure(2, width=4.6, height=3.8)
    h, wl, _ = lesson.universe(lesson.PANEL_BITS)
    n, k = int(h.sum()), wl.shape[0]
    grid = np.arange(1, 101)
    ax.plot(grid, qr.mwem_error_bound(n, k, h.size, lesson.EPSILON, grid) / n, color="0.3", lw=1.5,
            label="HLM12 Theorem 2.2's bound (max)")
    for variant, color in zip(lesson.VARIANTS, (PALETTE[3], PALETTE[0], PALETTE[2]), strict=True):
        errs = np.array([lesson.mwem_errors(lesson.PANEL_BITS, lesson.EPSILON, t, variant)
                         for t in lesson.ROUNDS])
        ax.plot(lesson.ROUNDS, errs[:, 0], "o-", color=color, ms=4, lw=1.2, label=f"max, {variant}")
        ax.plot(lesson.ROUNDS, errs[:, 1], "o:", color=color, ms=3, lw=1.0)
    ax.plot([], [], "k:", lw=1, label="dotted: mean error")
    ax.axvline(qr.mwem_optimal_rounds(n, k, h.size, lesson.EPSILON), color="0.5", ls="--", lw=1, label="T*")
    ax.set(xscale="log", yscale="log", ylim=(3e-3, 5), xlabel="rounds T", ylabel="error (share of n)",
           title=f"MWEM, |X| = 2^{lesson.PANEL_BITS}, k = {k}, ε = {lesson.EPSILON:g}")
    ax.legend(fontsize=6.5, loc="lower left")
    errs = np.array([lesson.mwem_errors(lesson.PANEL_BITS, e, 40) for e in lesson.EPSILONS])
    ax_e.plot(lesson.EPSILONS, errs[:, 0], "o-", color=PALETTE[3], ms=4, label="max error, average iterate")
    ax_e.plot(lesson.EPSILONS, errs[:, 1], "o:", color=PALETTE[3], ms=4, label="mean error")
    ax_e.plot(lesson.EPSILONS, [qr.mwem_error_bound(n, k, h.size, e, 40) / n for e in lesson.EPSILONS],
              color="0.3", lw=1.5, label="Theorem 2.2's bound at T = 40")
    ax_e.set(xscale="log", yscale="log", ylim=(3e-3, 5), xlabel="ε", ylabel="error (share of n)",
             title="T = 40: the noise is not what limits MWEM here")
    _epsilon_ticks(ax_e, lesson.EPSILONS)
    ax_e.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    return fig


def figure_who_wins():
    """Measured max error of one release by every method on the 1-, 2- and 3-way marginals: against |X| at
    eps = 1 (left), against eps at |X| = 2^12 (middle); the bounds against k at |X| = 2^16 (right)."""
    fig, (ax, ax_e, ax_k) = new_figure(3, width=4.0, height=3.8)
    for method in lesson.METHODS:
        bits = [b for b in lesson.BITS if method != "net mechanism" or b == 3]
        ax.plot([2**b for b in bits], [lesson.who_wins(method, b, lesson.EPSILON)[0] for b in bits],
                MARKERS[method] + "-", color=COLORS[method], ms=5, lw=1, label=method)
        if method != "net mechanism":
            ax_e.plot(lesson.WIN_EPSILONS, [lesson.who_wins(method, lesson.MAIN_BITS, e)[0]
                                            for e in lesson.WIN_EPSILONS],
                      MARKERS[method] + "-", color=COLORS[method], ms=5, lw=1, label=method)
    ax.set(xscale="log", yscale="log", xlabel="|X|", ylabel="max error of one release (share of n)",
           title=f"marginals up to 3-way, ε = {lesson.EPSILON:g}")
    ax.legend(fontsize=7, loc="upper left")
    ax_e.set(xscale="log", yscale="log", xlabel="ε", ylabel="max error of one release (share of n)",
             title=f"|X| = 2^{lesson.MAIN_BITS}")
    _epsilon_ticks(ax_e, lesson.WIN_EPSILONS)
    _bounds_axes(ax_k, 16, lesson.EPSILON)
    ax_k.set_title("bounds against k, |X| = 2^16")
    fig.tight_layout()
    return fig


class MWEMView:
    """HLM12's bound against T at the chosen eps, and one MWEM run at (eps, T) on the 300 queries over
    |X| = 2^8 (its max and mean error, left; its synthetic height distribution over the true one, right).
    The run draws from a Generator seeded by the panel's seed: a drag reuses the same draws."""

    def __init__(self):
        self.fig, (ax, ax_h) = new_figure(2, width=4.6, height=3.8)
        self.h, wl, self.truth = lesson.universe(lesson.PANEL_BITS)
        self.dense = np.array([wl.row(j) for j in range(wl.shape[0])])  # 300 x 256: faster than the operator
        self.n, self.k, self.grid = int(self.h.sum()), wl.shape[0], np.arange(1, 101)
        (self.bound,) = ax.plot(self.grid, self.grid * 0.0 + 1, color="0.3", lw=1.5,
                                label="Theorem 2.2's bound")
        self.star = ax.axvline(10, color="0.5", ls="--", lw=1, label="T*, its minimum")
        self.max = here_marker(ax, 10, 0.1, "max error of this run")
        (self.mean,) = ax.plot([10], [0.1], "s", color=PALETTE[0], ms=6, label="mean error of this run")
        ax.set(xscale="log", yscale="log", xlim=(1, 100), ylim=(3e-3, 5), xlabel="rounds T",
               ylabel="error (share of n)")
        self.title = ax.text(0.5, 1.015, "ε, T", transform=ax.transAxes, ha="center", va="bottom",
                             fontsize=ax.title.get_fontsize())  # the title, drawn each frame (dynamic)
        self.update_title(1.0, 20)
        ax.legend(fontsize=7, loc="lower left")
        heights = self.h.reshape(2, -1, 2 ** qr.yrbss_bits(lesson.PANEL_BITS)[1]).sum(axis=(0, 2)) / self.n
        ax_h.bar(np.arange(heights.size), heights, color="0.75", label="students (truth)")
        (self.synthetic,) = ax_h.plot(np.arange(heights.size), heights, "o-", color=PALETTE[3], ms=4,
                                      label="MWEM's synthetic distribution")
        ax_h.set(xlabel="height bin (6.25 cm each, from 1.20 m)", ylabel="share of the students",
                 title="the synthetic data MWEM ends with", xticks=np.arange(0, heights.size, 2))
        ax_h.legend(fontsize=7, loc="upper right")
        self.fig.tight_layout()
        self.dynamic = [self.bound, self.star, self.max, self.mean, self.synthetic, self.title]

    def update_title(self, eps: float, rounds: int) -> None:
        bits = lesson.PANEL_BITS
        self.title.set_text(f"MWEM at ε = {eps:.3g}, T = {rounds}: {self.k} queries, |X| = 2^{bits}")

    def update(self, values: dict, seed: int) -> str:
        eps, rounds = float(values["epsilon"]), int(values["rounds"])
        bound = qr.mwem_error_bound(self.n, self.k, self.h.size, eps, self.grid) / self.n
        self.bound.set_ydata(bound)
        star = qr.mwem_optimal_rounds(self.n, self.k, self.h.size, eps)
        self.star.set_xdata([star, star])
        run = qr.mwem_run(self.h, self.dense, eps, rounds, np.random.default_rng([lesson.SEED, 10, seed]))
        worst, mean = qr.release_errors(self.truth, self.dense @ run.distribution)
        self.update_title(eps, rounds)
        self.max.set_data([rounds], [worst])
        self.mean.set_data([rounds], [mean])
        self.synthetic.set_ydata(run.distribution.reshape(2, -1, 2 ** qr.yrbss_bits(lesson.PANEL_BITS)[1])
                                 .sum(axis=(0, 2)))
        return (f"MWEM at ε = {eps:.3g}, T = {rounds}: each of the {2 * rounds} steps at ε/(2T) = "
                f"{qr.mwem_round_epsilon(eps, rounds):.4g}, Laplace scale {2 * rounds / eps:.4g} students. "
                f"This run: max error {worst:.3f}, mean {mean:.4f}; the bound {bound[rounds - 1]:.3f} (with "
                f"probability ≥ {max(qr.mwem_bound_confidence(self.k, rounds), 0):.3f}), smallest at "
                f"T* = {star:.0f}." + w.promise(epsilon=eps))


MWEM_PANEL = w.ViewPanel(MWEMView, lambda: {
    "epsilon": w.epsilon_slider(1.0, 0.1, 10.0),
    "rounds": w.value_slider((5, 10, 15, 20, 30, 40, 50), 20, "rounds T")})


class WinnerView:
    """Every baseline's bound on the max error against k at the chosen eps and |X|; the readout names the
    smallest at k = 10, 1,000 and 10^6."""

    def __init__(self):
        self.fig, (ax,) = new_figure(1, width=6.4, height=4.0)
        self.ax, self.lines = ax, _bounds_axes(ax, 8, lesson.EPSILON)
        ax.set_title(" ")  # a moving text instead: a changed axes title re-renders the frame (100 ms)
        self.title = ax.text(0.5, 1.02, "", transform=ax.transAxes, ha="center", va="bottom", fontsize=11)
        self.fig.tight_layout()
        self.dynamic = [*self.lines.values(), self.title]

    def update(self, values: dict, seed: int) -> str:
        eps, bits = float(values["epsilon"]), int(values["bits"])
        bounds = bounds_over_k(bits, eps)
        for name, line in self.lines.items():
            line.set_ydata(bounds[name])
        self.title.set_text(f"|X| = 2^{bits}, n = 12,579, ε = {eps:.3g}")
        best = [f"k = {k:,}: {min(bounds, key=lambda m, i=i: np.nan_to_num(bounds[m][i], nan=np.inf))}"
                for i, k in enumerate(lesson.KS) if k in (10, 1000, 10**6)]
        return (f"Smallest bound at ε = {eps:.3g}, |X| = 2^{bits}: " + "; ".join(best) + "."
                + w.promise(epsilon=eps, label="What the ε-DP methods promise"))


WINNER_PANEL = w.ViewPanel(WinnerView, lambda: {
    "epsilon": w.epsilon_slider(1.0, 0.1, 4.0),
    "bits": w.value_slider(lesson.BITS, 8, "log2 |X|")})


def figures() -> dict[str, object]:
    return {"11_baselines": figure_baselines(), "11_mwem": figure_mwem(), "11_who_wins": figure_who_wins(),
            "11_mwem_panel": MWEM_PANEL.figure(), "11_winner_panel": WINNER_PANEL.figure()}


PANELS = (
    w.PanelCase("11 MWEM panel (epsilon, rounds)", MWEM_PANEL.panel,
                {"epsilon": list(w.BENCH_EPSILONS), "rounds": [5, 20, 50]},
                w.BrowserStep(0, "epsilon", w.EPSILON_STEP, f"ε = {w.EPSILON_STEP}")),
    w.PanelCase("11 who-wins panel (epsilon, |X|)", WINNER_PANEL.panel,
                {"epsilon": list(w.BENCH_EPSILONS), "bits": list(lesson.BITS)},
                w.BrowserStep(1, "epsilon", w.EPSILON_STEP, f"ε = {w.EPSILON_STEP}")),
)
