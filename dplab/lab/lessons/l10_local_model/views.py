"""Lesson 10, the local model: figures and the oracle panel (notebook 10 and ``python -m dplab figures``)."""

from __future__ import annotations

import math

import ipywidgets as widgets
import numpy as np
from scipy import stats

from dplab import local
from dplab.lab import widgets as w
from dplab.lab.lessons.l10_local_model import report as lesson
from dplab.lab.plots import PALETTE, errorbar_ci, here_marker, new_figure
from dplab.simulate import mean_ci

ORACLE_COLORS = dict(zip(lesson.ORACLES, (PALETTE[0], PALETTE[1], PALETTE[2], PALETTE[3], PALETTE[4]),
                         strict=True))
#: OUE dashed: OLH at its optimal g matches OUE's variance, and its line would hide OUE's
ORACLE_STYLES = {name: "--" if name == "oue" else "-" for name in lesson.ORACLES}
#: the d axis of the oracle plots, and the n axis of the gap plot
DS, NS = np.unique(np.geomspace(2, 2**16, 120).round().astype(int)), np.geomspace(50, 1e7, 200)


def figure_randomized_response():
    """The server's estimates of the share with BMI >= 25 (left); local against central error as n grows."""
    fig, (ax, ax_n) = new_figure(2, width=4.6, height=3.8)
    share, n, level = float(lesson.overweight().mean()), lesson.overweight().size, lesson.LEVEL
    for eps, color in zip(lesson.RR_EPSILONS, (PALETTE[5], PALETTE[0], PALETTE[2]), strict=True):
        est, sd = lesson.rr_estimates(eps), math.sqrt(local.rr_variance(share, eps, n))
        grid = np.linspace(share - 4 * sd, share + 4 * sd, 200)
        ax.hist(est, bins=30, density=True, alpha=0.35, color=color)
        ax.plot(grid, stats.norm.pdf(grid, share, sd), color=color, lw=1.5,
                label=f"ε = {eps:.3g}: N(share, Var), sd {sd:.4f}")
    ax.axvline(share, color="k", ls=":", lw=1, label=f"true share {share:.4f}")
    ax.set(xlabel="estimated share with BMI ≥ 25", ylabel="density",
           title=f"{lesson.RR_TRIALS} runs of randomized response, n = {n}")
    ax.legend(fontsize=7, loc="upper right")
    eps = lesson.RR_EPSILON
    ax_n.plot(NS, [local.local_count_rmse(eps, round(m)) for m in NS], color=PALETTE[0], lw=1.5,
              label="local: √(n p(1 − p))/(2p − 1) = √(n e^ε)/(e^ε − 1)")
    ax_n.axhline(local.central_count_rmse(eps), color=PALETTE[3], lw=1.5, label="central Laplace: √2/ε")
    bits = lesson.overweight()
    cis = [mean_ci((m * (lesson.rr_estimates(eps, m, lesson.GAP_TRIALS) - bits[:m].mean())) ** 2, level)
           for m in lesson.GAP_NS]
    errorbar_ci(ax_n, lesson.GAP_NS, [_root(c) for c in cis], fmt="o", ms=4, color=PALETTE[0],
                label=f"simulated on the first n students ({level:.2%} CI)")
    central = mean_ci(lesson.central_errors(eps) ** 2, level)
    errorbar_ci(ax_n, [lesson.GAP_NS[-1]], [_root(central)], fmt="s", ms=4, color=PALETTE[3],
                label="simulated central count")
    ax_n.set(xscale="log", yscale="log", xlabel="n users", ylabel="root-mean-square error of the count",
             title="the count at ε = ln 3: local against central")
    ax_n.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


class _Root:
    """An interval on the root scale (an RMSE from an MSE's interval)."""

    def __init__(self, est):
        self.estimate, self.low, self.high = (math.sqrt(max(float(x), 0.0)) for x in (est.estimate, est.low,
                                                                                       est.high))


def _root(est) -> _Root:
    return _Root(est)


def figure_oracles():
    """Each oracle's standard deviation of one estimated frequency (f = 0) against d, at two epsilons; the
    section's simulated total error at the heights' d."""
    fig, axes = new_figure(2, width=4.6, height=3.8)
    values, heights = lesson.height_values()
    n, d0 = values.size, heights.size
    for ax, eps in zip(axes, (lesson.ORACLE_EPSILON, 4.0), strict=True):
        for name in lesson.ORACLES:
            sd = [math.sqrt(local.frequency_oracle_variance(name, eps, int(d), n)) for d in DS]
            ax.plot(DS, sd, color=ORACLE_COLORS[name], lw=1.5, ls=ORACLE_STYLES[name],
                    zorder=3 if name == "oue" else 2, label=lesson.ORACLE_NAMES[name])
        cross = 3 * math.exp(eps) + 2
        ax.axvline(cross, color="0.5", ls=":", lw=1, label=f"3e^ε + 2 = {cross:.1f}")
        ax.set(xscale="log", yscale="log", xlabel="d values", ylabel="sd of an estimated frequency (f = 0)",
               title=f"ε = {eps:.3g}, n = {n}")
        ax.legend(fontsize=7, loc="upper left")
    ax = axes[0]
    for name in lesson.ORACLES:  # the simulated per-value sd at the heights' d: sqrt(total / d)
        ci = mean_ci(lesson.oracle_squared_errors(name) / d0, lesson.LEVEL)
        errorbar_ci(ax, [d0], [_root(ci)], fmt="o", ms=4, color=ORACLE_COLORS[name])
    ax.plot([], [], "o", ms=4, color="0.3",
            label=f"simulated, {d0} heights at their true shares (root mean over values)")
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def figure_shuffle():
    """The shuffled epsilon against the local eps0 for several n (left); the count's error (right)."""
    fig, (ax, ax_e) = new_figure(2, width=4.6, height=3.8)
    delta = lesson.SHUFFLE_DELTA
    for n, color in zip(lesson.SHUFFLE_NS, (PALETTE[0], PALETTE[2], PALETTE[4]), strict=True):
        top = local.shuffle_max_epsilon0(n, delta)
        e0 = np.linspace(0.05, top, 100)
        ax.plot(e0, [local.shuffle_epsilon(e, n, delta) for e in e0], color=color, lw=1.5, label=f"n = {n:,}")
    ax.plot([0, 10], [0, 10], ":", color="0.5", lw=1, label="no shuffling: ε = ε₀")
    ax.set(xlim=(0, 8), ylim=(0, 4), xlabel="ε₀ of each local report",
           ylabel=f"ε of the shuffled set (δ = {delta:g})",
           title="amplification by shuffling (Feldman et al. 2021)")
    ax.legend(fontsize=7, loc="upper left")
    n, eps = lesson.overweight().size, np.linspace(0.2, 2.0, 40)
    e0 = [lesson.shuffled_epsilon0(e, n) for e in eps]
    ax_e.plot(eps, [local.local_count_rmse(e, n) for e in eps], color=PALETTE[0], lw=1.5,
              label="local reports at ε₀ = ε")
    ax_e.plot(eps, [local.local_count_rmse(e, n) for e in e0], color=PALETTE[2], lw=1.5,
              label="shuffled: local ε₀ chosen so the set is (ε, δ)-DP")
    ax_e.plot(eps, [local.central_count_rmse(e) for e in eps], color=PALETTE[3], lw=1.5,
              label="central Laplace")
    ax_e.set(yscale="log", xlabel="ε the analyst's view must satisfy", ylabel="RMSE of the count",
             title=f"the count of BMI ≥ 25, n = {n}")
    ax_e.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    return fig


def figure_heavy_hitters():
    """The synthetic ids' true shares and the theory's threshold at each eps (left); precision and recall
    of dplab.local.heavy_hitters at that threshold against eps (right)."""
    fig, (ax, ax_r) = new_figure(2, width=4.6, height=3.8)
    items = lesson.hh_items()
    top = local.true_heavy_hitters(items, 1 / lesson.HH_N).frequencies[:60]
    ax.bar(np.arange(1, top.size + 1), top, color="0.6", label="true share of the k-th commonest id")
    for eps, color in zip(lesson.HH_EPSILONS, (PALETTE[5], PALETTE[0], PALETTE[2], PALETTE[4]), strict=True):
        t = local.heavy_hitter_threshold(eps, lesson.HH_N, alpha=lesson.HH_ALPHA, beta=lesson.HH_BETA)
        ax.axhline(t, color=color, lw=1.2, label=f"threshold at ε = {eps:g}: {t:.4f}")
    ax.set(yscale="log", xlabel="rank k", ylabel="share of the users",
           title=f"{lesson.HH_N:,} synthetic users, Zipf {lesson.HH_EXPONENT:g}, 2³² ids")
    ax.legend(fontsize=7, loc="upper right")
    for column, name, color, shift in ((0, "precision", PALETTE[3], -0.03), (1, "recall", PALETTE[0], 0.03)):
        cis = [mean_ci(lesson.hh_runs(eps)[:, column], lesson.LEVEL) for eps in lesson.HH_EPSILONS]
        errorbar_ci(ax_r, np.log2(lesson.HH_EPSILONS) + shift, cis, fmt="o-", ms=4, color=color,
                    label=f"{name}, mean of {lesson.HH_RUNS} runs ({lesson.LEVEL:.2%} CI)")
    ax_r.axhline(1 - lesson.HH_BETA, color="0.5", ls=":", lw=1, label="1 − β: the recall the theory promises")
    ax_r.set(xticks=np.log2(lesson.HH_EPSILONS), xticklabels=[f"{e:g}" for e in lesson.HH_EPSILONS],
             ylim=(0.3, 1.05), xlabel="ε", ylabel="share", title="prefix extension at the theory's threshold")
    ax_r.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    return fig


# --- the oracle panel: eps, d, n, oracle --------------------------------------------------------------
PANEL_NS = (1_000, 10_000, 100_000, 1_000_000)
PANEL_DS = (2, 4, 8, 16, 32, 64, 128, 256, 1024, 4096, 2**16)
PANEL_TRIALS, PANEL_F = 400, 0.05
#: the panel's d axis: 31 points, 2 to 2^16 (each point is one oracle object per oracle: a drag stays fast)
PANEL_GRID = np.round(2 ** np.arange(1, 16.01, 0.5)).astype(int)


class OracleView:
    """Each oracle's sd of one estimated frequency against d (theory, dplab.local), and the chosen one's
    estimate simulated at the chosen d: the server's support count of a value held by a share PANEL_F is
    Binomial(nF, p) + Binomial(n(1 − F), q), drawn from fixed uniforms (common random numbers)."""

    def __init__(self):
        self.fig, (ax,) = new_figure(1, width=6.4, height=4.0)
        self.ax, self.lines = ax, {}
        for name in lesson.ORACLES:
            (self.lines[name],) = ax.plot(PANEL_GRID, PANEL_GRID * 0.0 + 1, color=ORACLE_COLORS[name], lw=1.2,
                                          ls=ORACLE_STYLES[name], zorder=3 if name == "oue" else 2,
                                          label=lesson.ORACLE_NAMES[name])
        self.cross = ax.axvline(10, color="0.5", ls=":", lw=1, label="3e^ε + 2: k-RR wins left of it")
        self.here = here_marker(ax, 10, 0.1, f"simulated ({PANEL_TRIALS} runs)")
        self.text = ax.text(0.98, 0.03, "", transform=ax.transAxes, fontsize=8, ha="right")
        ax.set(xscale="log", yscale="log", xlim=(2, 2**16), ylim=(0.01, 5e3), xlabel="d values",
               ylabel=f"√n × sd of an estimated frequency (f = {PANEL_F:g})",
               title="frequency oracles: error against the domain size")
        ax.legend(fontsize=7, loc="upper left")
        self.fig.tight_layout()
        self.dynamic = [*self.lines.values(), self.cross, self.here, self.text]

    def update(self, values: dict, seed: int) -> str:
        eps, d, n, name = float(values["epsilon"]), int(values["d"]), int(values["n"]), str(values["oracle"])
        for k, line in self.lines.items():  # n sd^2 does not depend on n
            line.set(ydata=np.sqrt([local.ORACLES[k](eps, int(x)).variance(1, PANEL_F) for x in PANEL_GRID]),
                     lw=2.6 if k == name else 1.0)
        cross = 3 * math.exp(eps) + 2
        self.cross.set_xdata([cross, cross])
        oracle = local.ORACLES[name](eps, d)
        u = np.random.default_rng([lesson.SEED, 71, seed]).random((2, PANEL_TRIALS))  # the common draws
        held = round(n * PANEL_F)
        support = stats.binom.ppf(u[0], held, oracle.p) + stats.binom.ppf(u[1], n - held, oracle.q)
        est = (support / n - oracle.q) / (oracle.p - oracle.q)
        simulated, theory = float(np.sqrt(np.mean((est - held / n) ** 2))), math.sqrt(
            local.frequency_oracle_variance(name, eps, d, n, held / n))
        self.here.set_data([d], [simulated * math.sqrt(n)])
        self.text.set_text(f"ε = {eps:.3g}, n = {n:,}: {lesson.ORACLE_NAMES[name]} at d = {d}")
        best = min(lesson.ORACLES, key=lambda k: local.frequency_oracle_variance(k, eps, d, n, PANEL_F))
        return (f"{lesson.ORACLE_NAMES[name]} at ε = {eps:.3g}, d = {d}, n = {n:,}: p = {oracle.p:.4g}, "
                f"q = {oracle.q:.4g}; sd of a frequency {theory:.4g} (theory), {simulated:.4g} simulated; "
                f"each user sends {oracle.communication_bits:g} bits. Smallest variance here: "
                f"{lesson.ORACLE_NAMES[best]}." + w.promise(epsilon=eps))


ORACLE_PANEL = w.ViewPanel(OracleView, lambda: {
    "epsilon": w.epsilon_slider(1.0, 0.1, 8.0),
    "d": w.value_slider(PANEL_DS, 32, "d values"),
    "n": w.value_slider(PANEL_NS, 10_000, "n users", fmt="{:,}"),
    "oracle": widgets.ToggleButtons(options=list(lesson.ORACLES), value="olh", description="oracle")})


def figures() -> dict[str, object]:
    return {"10_randomized_response": figure_randomized_response(), "10_oracles": figure_oracles(),
            "10_heavy_hitters": figure_heavy_hitters(),
            "10_shuffle": figure_shuffle(), "10_oracle_panel": ORACLE_PANEL.figure()}


PANELS = (
    w.PanelCase("10 oracle panel (epsilon, d, n, oracle)", ORACLE_PANEL.panel,
                {"epsilon": list(w.BENCH_EPSILONS), "d": [2, 32, 2**16], "n": [1_000, 1_000_000],
                 "oracle": list(lesson.ORACLES)},
                w.BrowserStep(0, "epsilon", w.EPSILON_STEP, f"ε = {w.EPSILON_STEP}")),
)
