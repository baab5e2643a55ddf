"""Lesson 9, data-dependent noise: figures and the panel (notebook 9 and ``python -m dplab figures``)."""

from __future__ import annotations

import math

import ipywidgets as widgets
import numpy as np
from matplotlib.ticker import NullFormatter, StrMethodFormatter
from scipy import stats

import dplab.smooth_sensitivity as ss
from dplab.lab.lessons.l09_data_dependent_noise import report as lesson
from dplab.lab.lessons.l09_data_dependent_noise.report import DELTA, HIGH, LOW, SEED, SHARE, STRATEGIES, K
from dplab.lab.plots import PALETTE, errorbar_ci, new_figure
from dplab.lab.widgets import BrowserStep, PanelCase, ViewPanel, epsilon_slider, promise
from dplab.range_queries.dawa import dawa, dawa_errors, partition_noise_scale
from dplab.simulate import Estimate

STRATEGY_COLORS = dict(zip(STRATEGIES, (PALETTE[1], PALETTE[2], PALETTE[4]), strict=True))
DAWA_COLOR, MERGING_COLOR = PALETTE[0], PALETTE[3]  # blue: apart from identity's orange; vermillion


def figure_who_wins():
    """The default DAWA's error per range query (its interval, and its merging part) against the
    data-independent strategies' and the comparison presets', each relative to identity's, per shape."""
    fig, axes = new_figure(4, width=3.0, height=3.6)
    eps, others = np.array(lesson.EPSILONS), lesson.comparisons()
    identity = np.array([lesson.data_independent_error("identity", e) for e in lesson.EPSILONS])
    for i, (ax, shape) in enumerate(zip(axes, lesson.SHAPES, strict=True)):
        label = i == 0
        for name in STRATEGIES:
            ratio = lesson.data_independent_error(name, 1.0) / lesson.data_independent_error("identity", 1.0)
            ax.axhline(ratio, color=STRATEGY_COLORS[name], lw=1.4, ls="-" if name == "identity" else "--",
                       label=f"{name} (exact)" if label else None)
        for j, (name, style, note) in enumerate(zip(others.presets, ("s--", "x:", "D-."), (
                ": the lab's earlier rules", ", not ε₁-DP", ", not ε₁-DP"), strict=True)):
            ax.plot(eps, others.ratios[j, i], style, color="0.45", lw=1, ms=4, mfc="none",
                    label=f"{name}{note} ({lesson.COMPARISON_TRIALS} partitions)" if label else None)
        merging = np.array([lesson.dawa_error(shape, e).merging.mean() for e in lesson.EPSILONS]) / identity
        ax.plot(eps, np.maximum(merging, 1.2e-3), "v:", color=MERGING_COLOR, ms=5,
                label="LAB_1B's merging error (bias²; ▾ at the floor: below 10⁻³)" if label else None)
        ci = [lesson.dawa_interval(shape, e) for e in lesson.EPSILONS]  # as shares of identity's error:
        ci = [Estimate(c.estimate / r, c.low / r, c.high / r, c.confidence)
              for c, r in zip(ci, identity, strict=True)]
        errorbar_ci(ax, eps, ci, fmt="o-", color=DAWA_COLOR, lw=1.8, ms=4, capsize=3,
                    label=f"DAWA, default LAB_1B ({lesson.TRIALS:,} partitions, 99.9%)" if label else None)
        ax.set(xscale="log", yscale="log", ylim=(1e-3, 10), title=f"{shape}", xlabel="ε (n = 12,579 rows)")
        ax.set_ylabel("error per range query / identity's" if label else "")
    fig.legend(loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.17, 1, 1))
    return fig


def figure_partitions():
    x = lesson.histogram("heights")
    fig, axes = new_figure(3, width=4.0, height=3.4)
    for ax, eps in zip(axes, (0.01, 0.1, 1.0), strict=True):
        release = dawa(x, eps, share=SHARE, rng=SEED)
        ax.bar(np.arange(x.size), x, width=1.0, color="0.75", label="true counts")
        ax.set(xlim=(-0.5, x.size - 0.5), title=f"ε = {eps:g}: {len(release.buckets)} buckets",
               xlabel="bin (256 bins of 1/256 m from 1.20 m)", ylabel="rows")
        ax.step(np.arange(K + 1) - 0.5, np.append(release.estimate, release.estimate[-1]), where="post",
                color=DAWA_COLOR, lw=1.2, label="DAWA's estimate (one run)")
        ax.vlines([b[0] - 0.5 for b in release.buckets[1:]], 0, 0.04, transform=ax.get_xaxis_transform(),
                  color="k", lw=0.8)
        # the true counts' tops on top: where the estimate matches (eps = 1) it hides the bars
        full = np.flatnonzero(x)
        ax.plot(full, x[full], "_", color="k", ms=5, mew=1.2, label="true count's top")
    # above the panels: inside, any corner covers counts of some panel
    fig.legend(*axes[0].get_legend_handles_labels(), loc="upper center", ncol=3, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    return fig


def figure_median():
    eps = np.geomspace(0.01, 3, 13)
    h, median = lesson.heights(), lesson.median()
    fig, (ax, ax_r) = new_figure(2, width=4.2, height=3.5)
    ax.axhline(ss.median_global_sensitivity(LOW, HIGH), color=PALETTE[1], lw=1.6,
               label=f"global: hi − lo = {HIGH - LOW:.1f} m")
    ax.plot(eps, [ss.median_smooth_sensitivity(h, LOW, HIGH, ss.smooth_beta(float(e), DELTA)) for e in eps],
            color=PALETTE[4], lw=1.6, label="smooth S* (δ = 1e-6)")
    ax.text(0.03, 0.05, "local sensitivity: 0 (1,103 students\nat the median 1.68 m)", fontsize=8,
            transform=ax.transAxes)
    # headroom above the global line for the legend
    ax.set(xscale="log", yscale="log", ylim=(1e-5, 300), xlabel="ε", ylabel="sensitivity (m)",
           title="the heights' median")
    ax.legend(fontsize=7, loc="upper right")
    ax_r.plot(eps, [ss.median_global_release_rmse(LOW, HIGH, float(e)) for e in eps], color=PALETTE[1],
              lw=1.6, label="global, ε-DP: √2 (hi − lo)/ε")
    ax_r.plot(eps, [ss.median_smooth_release_rmse(h, LOW, HIGH, float(e), DELTA) for e in eps],
              color=PALETTE[4], lw=1.6, label="smooth, (ε, 1e-6)-DP: √2 · 2S*/ε")
    rng = np.random.default_rng(SEED)
    sim = [math.sqrt(np.mean((ss.median_release_smooth(h, LOW, HIGH, e, DELTA, size=4000, rng=rng) - median)
                             ** 2)) for e in lesson.MEDIAN_EPSILONS]
    ax_r.plot(lesson.MEDIAN_EPSILONS, sim, "o", color=PALETTE[4], ms=5, mfc="none",
              label="smooth, simulated (4,000 runs)")
    ax_r.axhline(0.0254, color="0.5", ls=":", lw=1, label="one inch")
    ax_r.set(xscale="log", yscale="log", xlabel="ε", ylabel="root-mean-square error (m)",
             title="error of the released median")
    ax_r.legend(fontsize=7, loc="lower left")  # the curves start high on the left
    fig.tight_layout()
    return fig


def figure_local_leak(epsilon: float = 1.0):
    (x, x_prime), m = lesson.PAIR, float(np.sort(lesson.PAIR[0])[2])
    grid = np.linspace(1.3, 2.1, 801)
    fig, (ax, ax_s) = new_figure(2, width=4.2, height=3.4)
    ls_prime = ss.median_local_sensitivity(x_prime, LOW, HIGH)
    ax.annotate("", (m, 1.0), (m, 0.0), arrowprops=dict(arrowstyle="-|>", color=PALETTE[0], lw=3))
    ax.plot([], [], color=PALETTE[0], lw=3, label="x: LS = 0, no noise:\na point mass at 1.68")
    scale = ls_prime / epsilon
    ax.plot(grid, stats.laplace.pdf(grid, m, scale) * 2 * scale, color=PALETTE[3], lw=1.6,  # peak 1
            label=f"x′: LS = {ls_prime:.2f}, Lap(LS/ε)")
    # headroom above the curves for the legend
    ax.set(ylim=(0, 1.5), xlabel="released median (m)", ylabel="x′: density, scaled to peak 1 (x: arrow)",
           title="noise from local sensitivity: not private")
    ax.legend(fontsize=7, loc="upper center")
    beta, grid = ss.smooth_beta(epsilon, DELTA), np.linspace(m - 8, m + 8, 801)  # the smooth noise's tails
    global_scale = ss.median_global_sensitivity(LOW, HIGH) / epsilon
    ax_s.plot(grid, stats.laplace.pdf(grid, m, global_scale), color=PALETTE[1], lw=1.4,
              label=f"global: Lap((hi − lo)/ε) = Lap({global_scale:.2f})")
    top = 1 / (2 * global_scale)  # the global density's peak
    # x solid and wide, x′ dashed on top: the two curves coincide when S* does
    for data, color, name, style, width in ((x, PALETTE[0], "x", "-", 3.0),
                                            (x_prime, PALETTE[3], "x′", "--", 1.6)):
        s = ss.median_smooth_sensitivity(data, LOW, HIGH, beta)
        density = stats.laplace.pdf(grid, m, 2 * s / epsilon)
        top = max(top, float(density.max()))
        ax_s.plot(grid, density, color=color, ls=style, lw=width, label=f"{name}: Lap(2S*/ε), S* = {s:.3f} m")
    ax_s.set(ylim=(0, 1.6 * top), xlabel="released median (m)", ylabel="density",
             title=f"smooth sensitivity (ε = {epsilon:g})")
    ax_s.text(0.02, 0.45, "x and x′: one S*,\none curve, wider\nthan the global", transform=ax_s.transAxes,
              fontsize=7)
    ax_s.legend(fontsize=7, loc="upper center")
    fig.tight_layout()
    return fig


# --- the panel ---------------------------------------------------------------------------------------

PANEL_RUNS = 20
PANEL_NS = (200, 500, 1000, 2000, 5000, 12579, 50_000, 200_000)


class DawaView:
    """One run of the default DAWA over the histogram of (shape, n), as shares of the n rows, and the
    error per range query of DAWA (mean over PANEL_RUNS partitions), its merging error and the
    data-independent strategies' (exact) over identity's; the right axis widens when a bar would leave it."""

    def __init__(self):
        self.fig, (self.ax, self.ax_e) = new_figure(2, width=4.4, height=3.5)
        # one StepPatch, not 256 bars: a single artist to redraw
        self.hist = self.ax.stairs(np.zeros(K), np.arange(K + 1) - 0.5, fill=True, color="0.75",
                                   label="true counts")
        (self.step,) = self.ax.step(np.arange(K + 1) - 0.5, np.zeros(K + 1), where="post", color=DAWA_COLOR,
                                    lw=1.2, label="DAWA (one run)")
        # the estimate's bins beyond the axis (small n, small eps), marked at its edges
        (self.above,) = self.ax.plot([], [], "^", color=DAWA_COLOR, ms=3, label="DAWA, off the axis")
        (self.below,) = self.ax.plot([], [], "v", color=DAWA_COLOR, ms=3)
        self.ax.set(xlim=(-0.5, K - 0.5), xlabel="bin", ylabel="share of the n rows")
        # titles as text artists: FastPNG redraws everything when an axes title changes
        self.title = self.ax.text(0.5, 1.02, "heights, n = 12,579: 100 buckets", fontsize=9, ha="center",
                                  transform=self.ax.transAxes)
        self.ax.legend(fontsize=7, loc="upper right")
        self.labels = ["DAWA", "identity", "16-ary\nhierarchy", "p-Identity"]
        # bars from identity's 1, up (worse) or down (better); DAWA's merging error is a marker at its
        # own value, not a bar: on a log axis a bar's length from an arbitrary floor means nothing
        colors = [DAWA_COLOR] + [STRATEGY_COLORS[s] for s in STRATEGIES]
        self.err_bars = self.ax_e.bar([0, 2, 3, 4], np.zeros(4), bottom=1.0, color=colors)
        (self.bias_mark,) = self.ax_e.plot([1], [1], "D", color=MERGING_COLOR, mfc="white", mew=1.5, ms=7)
        self.ax_e.axhline(1.0, color=STRATEGY_COLORS["identity"], lw=1.5)
        self.bias_text = self.ax_e.text(1, 0.3, "", ha="center", va="bottom", fontsize=8, color=MERGING_COLOR)
        self.ax_e.set(xticks=range(5), yscale="log", yticks=np.outer(10.0**np.arange(-2, 4), (1, 3)).ravel(),
                      ylim=(0.2, 3.0), xlim=(-0.6, 4.6), ylabel="error per range query / identity's")
        self.title_e = self.ax_e.text(0.5, 1.02, "ε = 0.1: lowest is p-Identity", fontsize=9, ha="center",
                                      transform=self.ax_e.transAxes)
        self.ax_e.yaxis.set(major_formatter=StrMethodFormatter("{x:g}"), minor_formatter=NullFormatter())
        self.ax_e.set_xticklabels([self.labels[0], "DAWA's\nmerging", *self.labels[1:]], fontsize=7)
        self.fig.tight_layout()
        self.scale = None
        self.dynamic = [self.hist, self.step, self.above, self.below, *self.err_bars, self.bias_mark,
                        self.bias_text, self.title, self.title_e]

    def update(self, values: dict, seed: int) -> str:
        eps, n = float(values["epsilon"]), int(values["n"])
        shape, share = str(values["shape"]), float(values["share"])
        x = lesson.histogram(shape, n)
        err = dawa_errors(x, eps, size=PANEL_RUNS, share=share, rng=seed)
        self.hist.set_data(values=x / n)
        estimate = err.example.estimate / n
        self.step.set_ydata(np.append(estimate, estimate[-1]))
        if (shape, n) != self.scale:  # the only changes that rescale an axis
            self.ax.set_ylim(-0.15 * 1.3 * float(x.max()) / n, 1.3 * float(x.max()) / n)
            self.scale = (shape, n)
        low, high = self.ax.get_ylim()
        inset = 0.03 * (high - low)
        for marks, off, y in ((self.above, estimate > high, high - inset),
                              (self.below, estimate < low, low + inset)):
            marks.set_data(np.flatnonzero(off), np.full(np.count_nonzero(off), y))
        self.title.set_text(f"{shape}, n = {n:,}: {len(err.example.buckets)} buckets")
        errors = [err.mean] + [lesson.data_independent_error(s, eps) for s in STRATEGIES]
        ratios, (low, high) = np.array(errors) / errors[1], self.ax_e.get_ylim()
        if ratios.min() < 1.2 * low or ratios.max() > high / 1.2:  # widen when a bar would leave it
            low, high = min(0.2, ratios.min() / 2), max(3.0, 2 * ratios.max())
            self.ax_e.set_ylim(low, high)
        for bar, r in zip(self.err_bars, ratios, strict=True):
            bar.set_height(r - 1.0)
        merging, b = float(err.merging.mean()), partition_noise_scale(share * eps)
        self.bias_mark.set_ydata([max(merging / errors[1], 1.3 * low)])  # below the axis: at its floor
        self.bias_text.set_position((1, 1.6 * low))
        self.bias_text.set_text("" if merging / errors[1] > 1.3 * low else "below" if merging > 0 else "0")
        best = min(range(4), key=lambda i: errors[i])
        self.title_e.set_text(f"ε = {eps:.3g}: lowest here is {self.labels[best].replace(chr(10), ' ')}")
        return (f"DAWA spends {share:.0%} of ε = {eps:.3g} on the partition (noise Lap({b:.3g}) "
                f"on every candidate's cost) and {1 - share:.0%} on the bucket totals. Its error per range "
                f"query, mean over {PANEL_RUNS} partitions (no interval: section 3 has them): {err.mean:.4g} "
                f"(merging {merging:.3g} + totals' noise {float(err.noise.mean()):.3g}); identity "
                f"{errors[1]:.4g}, 16-ary hierarchy {errors[2]:.4g}, p-Identity {errors[3]:.4g} (exact). "
                "DAWA's error depends on the data; the others' do not." + promise(epsilon=eps))


DAWA_PANEL = ViewPanel(DawaView, lambda: {
    "epsilon": epsilon_slider(0.1, 0.01, 3.0),
    "n": widgets.SelectionSlider(options=PANEL_NS, value=12579, description="n rows"),
    "shape": widgets.ToggleButtons(options=list(lesson.SHAPES), value="heights", description="shape"),
    "share": widgets.FloatSlider(value=SHARE, min=0.05, max=0.95, step=0.05, description="partition share"),
})


def figures() -> dict[str, object]:
    return {"09_who_wins": figure_who_wins(), "09_partitions": figure_partitions(),
            "09_median": figure_median(), "09_local_leak": figure_local_leak(),
            "09_dawa_panel": DAWA_PANEL.figure()}


PANELS = (
    PanelCase("09 DAWA panel (epsilon, n, shape, partition share)", DAWA_PANEL.panel,
              {"epsilon": [0.01 * 300 ** (i / 7) for i in range(8)], "n": [500, 12579, 200_000],
               "shape": ["uniform", "zipf", "heights"], "share": [0.5, 0.25]},
              BrowserStep(0, "epsilon", "0.1122", "ε = 0.112")),
)
