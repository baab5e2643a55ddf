"""Lesson 6, composition theorems, privacy filters and noise reduction: figures and the panel.

Notebook ``notebooks/06_adaptive_filters.ipynb`` and ``python -m dplab figures`` both call these
functions.
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import NullFormatter

from dplab.accounting import ZCDPFilter
from dplab.lab.cache import cached
from dplab.lab.lessons.l06_adaptive_filters.report import (
    ACCOUNTANTS,
    BROWNIAN_TIMES,
    DELTA,
    EPS0,
    EPSILONS,
    LAPLACE_EPSILONS,
    LAPLACE_PLD_1000,
    METHODS,
    REFERENCE,
    REFERENCE_K,
    REPEATS,
    SEED,
    TARGET,
    composition_epsilons,
    experiment,
    lookahead_terms,
    martingale_terms,
    released_table,
    run_filter,
)
from dplab.lab.plots import ACCOUNTANT_STYLES, COLORS, PALETTE, TheoryVsEmpirical, new_figure
from dplab.lab.widgets import BrowserStep, PanelCase, SliderPanel, promise
from dplab.mechanisms.noise_reduction import brownian_noise_reduction, laplace_noise_reduction
from dplab.simulate import Estimate, mean_ci

METHOD_COLORS = {
    "oracle": "0.55",
    "brownian": COLORS["zcdp"],
    "gaussian_doubling": COLORS["analytic"],
    "gaussian_halving": PALETTE[5],
    "fixed": COLORS["classical"],
    "laplace_noise_reduction": COLORS["laplace"],
    "laplace_doubling": COLORS["bound"],
}
PANEL_METHODS = ("oracle", "brownian", "gaussian_doubling", "fixed", "laplace_noise_reduction")
PANEL_EPSILONS = tuple(float(e) for e in np.round(np.geomspace(0.25, 4.0, 7), 3))


def figure_composition():
    """Total epsilon of k eps0-DP mechanisms at delta = 1e-6 by each accountant, with the
    external reference values and Laplace's own privacy loss distribution at k = 1000."""
    ks = np.unique(np.round(np.geomspace(1, 10_000, 40)).astype(int))
    curves = [composition_epsilons(int(k)) for k in ks]
    fig, (ax,) = new_figure(1, width=7.5, height=4.2)
    for accountant in ACCOUNTANTS:
        name = accountant.name
        color, ls = ACCOUNTANT_STYLES[name]
        ax.plot(
            ks,
            [c[name] for c in curves],
            ls,
            color=color,
            lw=2.4 if name in ("optimal (KOV)", "basic") else 1.6,
            label=name,
            zorder=3 if name == "basic" else 2,
        )
    for name, values in REFERENCE.items():
        ax.plot(REFERENCE_K, values, "x", color=ACCOUNTANT_STYLES[name][0], ms=8, mew=2)
    ax.plot([], [], "kx", ms=8, mew=2, label="reference values (dp-accounting, autodp; KOV: exact sum)")
    ax.plot(
        [1000],
        [LAPLACE_PLD_1000],
        "*",
        color=COLORS["laplace"],
        ms=12,
        label=f"Laplace's own privacy loss distribution, k = 1000: {LAPLACE_PLD_1000}",
        zorder=4,
    )
    optimal = composition_epsilons(1000)["optimal (KOV)"]
    ax.annotate(
        f"k = 1000: optimal {optimal:.2f},\nLaplace's own {LAPLACE_PLD_1000}",
        xy=(1000, LAPLACE_PLD_1000),
        xytext=(1500, 3.0),
        fontsize=7,
        arrowprops={"arrowstyle": "->", "lw": 0.8},
    )
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="number of mechanisms k",
        ylabel="total ε at δ = 10⁻⁶",
        title=f"composing k mechanisms of ε₀ = {EPS0:g} each",
    )
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def _filter_panel(ax, steps, budget: float, unit: str, title: str) -> None:
    idx = np.arange(1, len(steps) + 1)
    costs = np.array([s[0] for s in steps])
    accepted = np.array([s[1] for s in steps])
    spent = np.array([s[2] for s in steps])
    ax.bar(idx[accepted], costs[accepted], color=COLORS["classical"], label="request accepted")
    ax.bar(
        idx[~accepted],
        costs[~accepted],
        color=COLORS["zcdp"],
        alpha=0.6,
        hatch="//",
        label="request refused (and every one after)",
    )
    ax.step(idx, spent, where="mid", color="k", lw=1.5, label=f"{unit} spent")
    ax.axhline(budget, color="k", ls="--", lw=1, label=f"budget {budget:g}")
    ax.set(
        xticks=idx,
        xlabel="request, in order",
        ylabel=unit,
        title=title,
        ylim=(0, budget * 1.75),
    )
    ax.legend(fontsize=7, loc="upper left")


def figure_filters(seed: int = SEED):
    """Left: a basic filter answering an adaptive sequence. Right: a zCDP filter answering Gaussian
    releases whose noise is chosen from the earlier answers."""
    fig, (ax_basic, ax_zcdp) = new_figure(2, width=5.2, height=3.7)
    _filter_panel(ax_basic, run_filter(1.0), 1.0, "ε", "basic filter, budget ε = 1")
    zf = ZCDPFilter.from_approx_dp(1.0, DELTA)
    steps = []
    # the analyst doubles rho (sigma / sqrt 2) while the answer is too noisy, then asks for less
    for fraction in (1 / 16, 1 / 8, 1 / 4, 1 / 2, 1 / 4, 1 / 32):
        cost = zf.rho * fraction
        ok = zf.request_gaussian(1.0, 1 / np.sqrt(2 * cost))
        steps.append((cost, ok, zf.spent))
    _filter_panel(ax_zcdp, steps, zf.rho, "ρ", f"zCDP filter, ρ = {zf.rho:.4f} (ε = 1, δ = 10⁻⁶)")
    fig.tight_layout()
    return fig


def figure_noise_reduction(seed: int = SEED, paths: int = 6):
    """Left: Laplace noise reduction, released values level by level (flat steps: the same noise
    kept). Right: Brownian noise reduction, the noise W_t as t decreases, with its 95% band."""
    fig, (ax_lap, ax_bm) = new_figure(2, width=5.2, height=3.7)
    lap = laplace_noise_reduction(100.0, 1.0, LAPLACE_EPSILONS, size=paths, rng=seed)
    for i in range(paths):
        ax_lap.plot(
            LAPLACE_EPSILONS,
            lap[i],
            "o-",
            ms=4,
            lw=1.2,
        )
    ax_lap.plot(
        [], [], "o-", color="0.4", ms=4, lw=1.2, label="a run, one colour each (flat: the same noise kept)"
    )
    ax_lap.axhline(100.0, color="k", ls="--", lw=1, label="true value 100")
    ax_lap.set(
        xscale="log",
        xticks=LAPLACE_EPSILONS,
        xticklabels=[f"{e:g}" for e in LAPLACE_EPSILONS],
        xlabel="ε of the release (increasing: less noise)",
        ylabel="released value",
        title=f"Laplace noise reduction, {paths} runs",
    )
    ax_lap.xaxis.set_minor_formatter(NullFormatter())
    ax_lap.legend(fontsize=7)
    times = np.geomspace(BROWNIAN_TIMES[0], BROWNIAN_TIMES[-1] / 8, 200)
    bm = brownian_noise_reduction(0.0, 1.0, times, size=paths, rng=seed + 1)
    for i in range(paths):
        ax_bm.plot(times, bm[i], "-", lw=1.0)
    ax_bm.fill_between(times, -1.96 * np.sqrt(times), 1.96 * np.sqrt(times), color="0.85", label="±1.96 √t")
    ax_bm.set(
        xscale="log",
        xlim=(times[0], times[-1]),
        xlabel="time t = variance (decreasing: less noise)",
        ylabel="released noise W_t",
        title="Brownian noise reduction, sampled backwards",
    )
    ax_bm.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def figure_martingale(seed: int = SEED):
    """E[exp(lambda L - lambda(lambda+1) rho_T)] for the correct loss and stopping rule (left,
    close up), and for a wrong loss and an illegal, peeking stopping rule (right)."""
    lams = np.array([0.25, 0.5, 0.75, 1.0])
    fig, (ax, ax_wrong) = new_figure(2, width=5.2, height=3.7)
    cases = (
        (ax, martingale_terms, COLORS["classical"], "L = Δ²/(2T) − Δ W_T/T, stop at output ≥ 1"),
        (
            ax_wrong,
            lambda lam, seed: martingale_terms(lam, wrong=True, seed=seed),
            COLORS["zcdp"],
            "L without its Δ²/(2T) term",
        ),
        (ax_wrong, lookahead_terms, COLORS["bound"], "stop when the next output is larger (peeks)"),
    )
    for axis, terms, color, label in cases:
        line = TheoryVsEmpirical(axis, color=color, label=label, show_theory=False)
        line.update([], [], lams, Estimate.stack([mean_ci(terms(float(lam), seed=seed)) for lam in lams]))
    for axis, ylim, title in (
        (ax, (0.97, 1.03), "the identity holds (2·10⁵ stopped paths)"),
        (ax_wrong, (0.4, 1.3), "and fails when the loss or the rule is wrong"),
    ):
        axis.axhline(1.0, color="k", ls="--", lw=1, label="the identity: 1")
        axis.set(xlabel="λ", ylabel="E[exp(λL − λ(λ+1)ρ_T)]", xlim=(0.1, 1.1), ylim=ylim, title=title)
        axis.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    return fig


def figure_experiment():
    """Seed 002's experiment: counts released per method at three budgets, and at eps = 1 the share
    released within the target and the share of the budget spent."""
    table = released_table()
    fig, (ax, ax_quality) = new_figure(2, width=5.4, height=4.6)
    width = 0.8 / len(METHODS)
    x = np.arange(len(EPSILONS))
    for i, method in enumerate(METHODS):
        ax.bar(
            x + (i - (len(METHODS) - 1) / 2) * width,
            table[method],
            width=width,
            color=METHOD_COLORS[method],
            label=method.replace("_", " "),
        )
    ax.set(
        xticks=x,
        xticklabels=[f"ε = {e:g}" for e in EPSILONS],
        xlabel="budget (δ = 10⁻⁶)",
        ylabel=f"counts released (of 1000, mean of {REPEATS})",
        title=f"counts released (release rule met), τ = {TARGET:g}",
    )
    ax.legend(fontsize=7, loc="upper left")
    runs = {m: [experiment(1.0, repeat=r, method=m) for r in range(REPEATS)] for m in METHODS}
    within = [np.mean([r.within_target for r in runs[m]]) for m in METHODS]
    spent = [np.mean([r.spent for r in runs[m]]) for m in METHODS]
    y = np.arange(len(METHODS))
    ax_quality.barh(y - 0.2, within, height=0.4, color=COLORS["classical"], label="share released within τ")
    ax_quality.barh(y + 0.2, spent, height=0.4, color="0.6", label="share of the budget spent")
    ax_quality.axvline(0.9, color="k", ls=":", lw=1, label="0.9: the check's threshold")
    ax_quality.set(
        yticks=y,
        yticklabels=[m.replace("_", " ") for m in METHODS],
        xlim=(0, 1.05),
        xlabel="share",
        title="at ε = 1: accurate, and what it spent",
    )
    ax_quality.invert_yaxis()
    ax_quality.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.4, -0.12), ncol=2)
    fig.tight_layout()
    return fig


@cached(maxsize=16)
def released_sweep(delta: float = DELTA, target: float = TARGET) -> dict[str, np.ndarray]:
    """Counts released per method of PANEL_METHODS over PANEL_EPSILONS (one run each; cached)."""
    return {
        m: np.array([experiment(e, delta, target, 0, m).released for e in PANEL_EPSILONS])
        for m in PANEL_METHODS
    }


class SweepView:
    """Counts released against the budget epsilon, one line per method (a sweep computed once per
    delta and target); the epsilon slider moves a marker along the precomputed lines."""

    def __init__(self):
        self.fig, (ax,) = new_figure(1, width=7.5, height=4.0)
        self.lines = {}
        for method in PANEL_METHODS:
            (self.lines[method],) = ax.plot(
                PANEL_EPSILONS,
                np.zeros(len(PANEL_EPSILONS)),
                "o-",
                ms=3,
                color=METHOD_COLORS[method],
                label=method.replace("_", " "),
            )
        self.here = ax.axvline(1.0, color="k", lw=0.8, ls="--")
        self.text = ax.text(0.02, 0.96, "", transform=ax.transAxes, va="top", fontsize=9)
        ax.set(
            xscale="log",
            xlim=(0.22, 4.5),
            ylim=(0, 1050),
            xlabel="budget ε (δ fixed)",
            ylabel="counts released (of 1000)",
            title="seed 002's experiment: counts released (release rule met)",
        )
        ax.set_xticks(PANEL_EPSILONS, [f"{e:g}" for e in PANEL_EPSILONS])
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(0.0, 0.9))
        self.ax = ax
        self.fig.tight_layout()
        self.dynamic = [*self.lines.values(), self.here, self.text]

    def update(self, values: dict, seed: int) -> str:
        eps, delta, target = float(values["epsilon"]), float(values["delta"]), float(values["target"])
        sweep = released_sweep(delta, target)
        for method, line in self.lines.items():
            line.set_ydata(sweep[method])
        self.here.set_xdata([eps, eps])
        self.text.set_text(f"ε = {eps:.3g}, δ = {delta:.0e}, τ = {target:g}")
        j = PANEL_EPSILONS.index(eps)
        counts = ", ".join(f"{m.replace('_', ' ')} {int(sweep[m][j])}" for m in PANEL_METHODS)
        return (
            f"ε = {eps:.3g}, δ = {delta:.0e}, τ = {target:g}: counts released: {counts}. "
            "<i>ε follows the drag along the precomputed sweep; δ and τ rerun the experiment "
            "(about 3 s) and update on release.</i>"
            + promise(epsilon=eps, delta=delta)  # the filters guarantee (eps, delta)-DP
        )


def figure_sweep_panel(epsilon: float = 1.0, delta: float = DELTA, target: float = TARGET):
    view = SweepView()
    view.update({"epsilon": epsilon, "delta": delta, "target": target}, SEED)
    return view.fig


def sweep_panel(seed: int = SEED) -> SliderPanel:
    import ipywidgets as widgets

    view = SweepView()
    controls = {
        "epsilon": widgets.SelectionSlider(
            options=[(f"{e:g}", e) for e in PANEL_EPSILONS],
            value=1.0,
            description="epsilon",
            continuous_update=True,
        ),
        "delta": widgets.SelectionSlider(
            options=[("1e-08", 1e-8), ("1e-06", 1e-6), ("1e-04", 1e-4)],
            value=DELTA,
            description="delta",
            continuous_update=False,
        ),
        "target": widgets.SelectionSlider(
            options=[("0.05", 0.05), ("0.1", 0.1), ("0.2", 0.2)],
            value=TARGET,
            description="target τ",
            continuous_update=False,
        ),
    }
    return SliderPanel(view.fig, view.update, controls, seed=seed, dynamic=view.dynamic)


def figures() -> dict[str, object]:
    return {
        "06_composition": figure_composition(),
        "06_filters": figure_filters(),
        "06_noise_reduction": figure_noise_reduction(),
        "06_martingale": figure_martingale(),
        "06_experiment": figure_experiment(),
        "06_sweep_panel": figure_sweep_panel(),
    }


PANELS = (
    PanelCase("06 sweep panel (epsilon, along the precomputed sweep)", sweep_panel,
              {"epsilon": list(PANEL_EPSILONS) * 2}, BrowserStep(0, "epsilon", "1.587", "ε = 1.59")),
)
