"""Lesson 3, hierarchical vs flat range queries: figures and the widget panel (one View per panel).

Notebook ``notebooks/03_hierarchy_vs_flat_range_queries.ipynb`` and ``python -m dplab figures`` both
call these functions.
"""

from __future__ import annotations

import ipywidgets
import numpy as np

from dplab.lab import widgets
from dplab.lab.cache import cached
from dplab.lab.lessons.l03_hierarchy_vs_flat_range_queries.report import MCKENNA_K256, SEED
from dplab.lab.plots import COLORS, TheoryVsEmpirical, new_figure
from dplab.mechanisms.laplace import laplace_mse
from dplab.range_queries import theory
from dplab.range_queries.errors import n_ranges
from dplab.range_queries.histograms import height_histogram
from dplab.range_queries.optimization import P_IDENTITY_K, PIdentityStrategy, load_p_identity
from dplab.range_queries.strategies import range_strategy, simulated_unit_errors
from dplab.range_queries.theory import expected_error_per_query, expected_total_error
from dplab.simulate import Estimate, bonferroni_confidence, mean_ci

K_VALUES = [2**j for j in range(2, 13)]  # 4 .. 4096
#: the panel's strategy menu: label -> (strategy name, inference, colour, marker)
PANEL_STRATEGIES = {"identity": ("identity", False, "laplace", "o"),
                    "hierarchy": ("hierarchy", False, "classical", "^"),
                    "hierarchy + inference": ("hierarchy", True, "analytic", "s"),
                    "all ranges": ("all_ranges", False, "zcdp", "v"),
                    "wavelet (Privelet)": ("wavelet", True, "bound", "D")}
#: strategies whose every range is enumerated are simulated only up to these k
SIMULATE_MAX_K = {"all ranges": 256, "hierarchy": 1024}
#: the level of the notebook's checks (10 intervals, family-wise 99%): the simulated dot's bar is drawn at it
LEVEL = bonferroni_confidence(10, family_error=0.01)


@cached(maxsize=64)
def _standard_errors(label: str, k: int, branching: int, seed: int, trials: int):
    """simulated_unit_errors of a panel strategy: one draw per configuration, cached (common random
    numbers: epsilon only rescales it by (Delta/eps)^2)."""
    name, inference, *_ = PANEL_STRATEGIES[label]
    return simulated_unit_errors(range_strategy(name, k, branching, include_root=False), trials, seed,
                                 inference=inference)


def _trials_for(k: int, label: str = "identity") -> int:
    if label in SIMULATE_MAX_K:  # O(k^2) per trial
        return max(4, min(200, 50_000 // k))
    return max(8, min(400, 40_000 // k))


class RangeErrorView:
    """Left: per-query error against k for every strategy (theory) and the chosen one
    (simulation). Right: mean squared error by range length r at the chosen k."""

    def __init__(self):
        self.fig, (ax, ax_len) = new_figure(2, width=5.4, height=3.9)
        self.lines = {label: TheoryVsEmpirical(ax, color=COLORS[c], marker=m, label=label, confidence=LEVEL)
                      for label, (_, _, c, m) in PANEL_STRATEGIES.items()}
        self.here = ax.axvline(K_VALUES[-1], color="k", lw=0.8, ls=":")
        # all ranges (about k^4/8 per query) leaves this scale above k = 16: the others stay readable
        ax.set(xscale="log", yscale="log", xlim=(3, 6000), ylim=(1, 3e4), xlabel="k (bins)",
               ylabel="mean squared error per range query", title="strategies against k")
        ax.set_xscale("log", base=2)
        # the legend lists what is drawn: five theory curves, and the dots of the chosen strategy
        handles = [line.theory for line in self.lines.values()]
        labels = [f"{label}: theory" for label in self.lines]
        handles.append(ax.plot([], [], "o", color="0.3", ms=4.5)[0])
        labels.append(f"chosen strategy at the chosen k: simulated ({100 * LEVEL:.4g}% CI)")
        ax.legend(handles, labels, fontsize=6.5, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2)
        self.by_length = {label: ax_len.plot([], [], color=COLORS[PANEL_STRATEGIES[label][2]], lw=1.2,
                                             label=label)[0]
                          for label in ("identity", "hierarchy + inference", "wavelet (Privelet)")}
        (self.identity_theory,) = ax_len.plot([], [], "0.7", lw=5, zorder=1, label="identity theory 2r/ε²")
        ax_len.set(xscale="log", yscale="log", xlim=(1, 4096), ylim=(0.5, 2e4), xlabel="range length r",
                   ylabel="mean squared error", title="error by range length at the chosen k")
        ax_len.set_xscale("log", base=2)
        ax_len.legend(fontsize=7, loc="upper left")
        self.ax_len = ax_len
        self.fig.tight_layout()
        self.fig.subplots_adjust(bottom=0.34)  # room for the legend below the left axes
        self.dynamic = [a for line in self.lines.values() for a in line.artists]
        self.dynamic += [self.here, *self.by_length.values(), self.identity_theory]

    def update(self, values: dict, seed: int) -> str:
        eps, k, b, chosen = values["epsilon"], int(values["k"]), int(values["branching"]), values["strategy"]
        ks = np.array(K_VALUES)
        for label, line in self.lines.items():
            name, inference, *_ = PANEL_STRATEGIES[label]
            kk = ks[ks <= (2**10 if name == "all_ranges" else K_VALUES[-1])]
            theory = [expected_error_per_query(name, int(j), eps, b, inference, include_root=False)
                      for j in kk]
            if label == chosen and k <= SIMULATE_MAX_K.get(label, k):
                totals, _ = _standard_errors(label, k, b, seed, _trials_for(k, label))
                scale = range_strategy(name, k, b, include_root=False).sensitivity ** 2 / eps**2
                line.update(kk, theory, [k], mean_ci(totals, LEVEL).scaled(scale / n_ranges(k)))
            else:
                line.update(kk, theory, [], Estimate(np.array([]), np.array([]), np.array([]), LEVEL))
        self.here.set_xdata([k, k])
        lengths = np.arange(1, k + 1)
        for label, artist in self.by_length.items():
            _, by_length = _standard_errors(label, k, b, seed, _trials_for(k))
            strategy = range_strategy(PANEL_STRATEGIES[label][0], k, b, include_root=False)
            artist.set_data(lengths, strategy.sensitivity ** 2 / eps**2 * by_length)
        self.identity_theory.set_data(lengths, 2 * lengths / eps**2)
        if self.ax_len.get_xlim()[1] != k:  # the lengths of this k only (the panel redraws its axes)
            self.ax_len.set_xlim(1, k)
            self.ax_len.set_title(f"error by range length at k = {k}")
        limit = SIMULATE_MAX_K.get(chosen, k)
        shown = "" if k <= limit else f" (simulated only up to k = {limit}: every range is enumerated)"
        return (f"<b>k = {k}</b>, branching {b}, ε = {eps:.3g}: expected error per range query: "
                f"identity {expected_error_per_query('identity', k, eps):.4g}, "
                f"hierarchy {expected_error_per_query('hierarchy', k, eps, b, include_root=False):.4g}, "
                "hierarchy + inference "
                f"{expected_error_per_query('hierarchy', k, eps, b, True, include_root=False):.4g}, "
                f"wavelet {expected_error_per_query('wavelet', k, eps):.4g}; simulated: {chosen}{shown}. "
                "<i>ε follows the drag; k and the branching factor rebuild the strategy and update on "
                "release.</i>" + widgets.promise(epsilon=eps))  # every strategy is eps-DP (Laplace noise)


def figure_range_error(epsilon: float = 1.0, k: int = 256, branching: int = 2,
                       strategy: str = "hierarchy + inference", seed: int = SEED):
    return widgets.view_figure(RangeErrorView, {"epsilon": epsilon, "k": k, "branching": branching,
                                        "strategy": strategy}, seed)


def range_panel(seed: int = SEED) -> widgets.SliderPanel:
    return widgets.view_panel(RangeErrorView, {
        "epsilon": widgets.epsilon_slider(1.0),
        "k": ipywidgets.SelectionSlider(options=K_VALUES, value=256, description="k",
                                        continuous_update=False),
        "branching": ipywidgets.IntSlider(value=2, min=2, max=64, description="branching",
                                          continuous_update=False),
        "strategy": ipywidgets.Dropdown(options=list(PANEL_STRATEGIES), value="hierarchy + inference",
                                           description="strategy")}, seed)


def figure_orders(epsilon: float = 1.0):
    """Left: exact totals of identity, hierarchy (direct and with inference) and wavelet, with the
    [Duke18]'s orders, all divided by k^2 so that the crossover at 512 shows. Right: all ranges,
    total against k^6/16 and per query against [Duke18]'s O(k^4)."""
    fig, (ax, ax_all) = new_figure(2, width=5.2, height=3.8)
    ks = np.array(K_VALUES, dtype=float)
    for label in ("identity", "hierarchy", "hierarchy + inference", "wavelet (Privelet)"):
        name, inference, color, _ = PANEL_STRATEGIES[label]  # (the wavelet's error is the same either way)
        exact = np.array([expected_total_error(name, int(k), epsilon, 2, inference, include_root=False)
                          for k in ks])
        style = "--D" if label.startswith("wavelet") else "-o"  # it lies on hierarchy + inference
        ax.plot(ks, exact / ks**2, style, ms=3, color=COLORS[color], label=f"{label}: exact")
    orders = theory.seed_error_orders(ks, epsilon)
    for name, color, order in (("identity", "laplace", "k³/ε²"), ("hierarchy", "classical", "k² log³k/ε²")):
        ax.plot(ks, orders[name] / ks**2, ":", color=COLORS[color], label=f"seed: O({order}), constant 1")
    ax.axvline(512, color="k", lw=0.8, ls="--")
    at_512 = expected_total_error("identity", 512, epsilon) / 512**2
    ax.annotate("binary tree + inference\nbeats identity from 512", (512, at_512), xytext=(-20, -75),
                textcoords="offset points", fontsize=7, arrowprops={"arrowstyle": "->"})
    ax.set(xscale="log", yscale="log", xlabel="k (bins)", ylabel="total squared error / k²",
           title=f"total error over all ranges / k², ε = {epsilon:g}")
    ax.set_xscale("log", base=2)
    ax.legend(fontsize=6.5, loc="upper left")
    small = ks[ks <= 512]
    total = np.array([expected_total_error("all_ranges", int(k), epsilon) for k in small])
    ax_all.plot(small, total, "-v", ms=3, color=COLORS["zcdp"], label="all ranges, total: exact")
    ax_all.plot(small, small**6 / 16 / epsilon**2, ":", color=COLORS["zcdp"], label="k⁶/(16ε²)")
    ax_all.plot(small, total / (small * (small + 1) / 2), "-^", ms=3, color="k",
                label="all ranges, per query: exact")
    ax_all.plot(small, orders["all ranges (per query)"][ks <= 512], "k:", label="seed: O(k⁴/ε²), constant 1")
    ax_all.set(xscale="log", yscale="log", xlabel="k (bins)", ylabel="squared error",
               title="answering every range directly")
    ax_all.set_xscale("log", base=2)
    ax_all.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def figure_branching(k: int = 4096, epsilon: float = 1.0):
    """Hierarchy + inference per-query error against the branching factor at one k."""
    fig, (ax,) = new_figure(1, width=6.5, height=3.5)
    bs = np.arange(2, 33)
    for root, style in ((False, "-o"), (True, "--s")):
        errors = [expected_error_per_query("hierarchy", k, epsilon, int(b), True, include_root=root)
                  for b in bs]
        ax.plot(bs, errors, style, ms=3,
                label=f"hierarchy + inference, root {'measured' if root else 'not measured'}")
    ax.axhline(expected_error_per_query("identity", k, epsilon), color=COLORS["laplace"], ls=":",
               label="identity")
    best, err = theory.best_branching(k, range(2, 33), include_root=False)
    ax.annotate(f"best B = {best}", (best, err), xytext=(10, 25), textcoords="offset points",
                arrowprops={"arrowstyle": "->"}, fontsize=8)
    ax.set(yscale="log", xlabel="branching factor B", ylabel="error per range query",
           title=f"k = {k}, ε = {epsilon:g}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def figure_data(k: int = 256, epsilon: float = 0.1, seed: int = SEED):
    """The YRBSS height histogram (k bins) released two ways; right: the error of every prefix
    range in that one draw, with the theory's +-1 RMS band of each strategy."""
    x = height_histogram(k)
    fig, (ax, ax_cum) = new_figure(2, width=5.2, height=3.5)
    edges = np.linspace(1.20, 2.20, k + 1)
    ax.stairs(x, edges, color="k", label="true counts")
    rms = {}
    for label in ("identity", "hierarchy + inference"):
        name, _, color, _ = PANEL_STRATEGIES[label]
        s = range_strategy(name, k, 2, include_root=False)
        estimate = s.reconstruct(s.measure(x, epsilon, rng=seed))
        ax.stairs(estimate, edges, color=COLORS[color], alpha=0.7, label=label)
        ax_cum.plot(edges[1:], np.cumsum(estimate) - np.cumsum(x), color=COLORS[color],
                    label=f"{label}: one draw")
        band = np.sqrt(laplace_mse(s.sensitivity, epsilon) * s.prefix_error_units())
        rms[label] = np.mean(band**2)
        ax_cum.fill_between(edges[1:], -band, band, color=COLORS[color], alpha=0.15, lw=0,
                            label=f"{label}: ±1 RMS (theory)")
    ax.set(xlabel="height (m)", ylabel="students", xlim=edges[np.flatnonzero(x)][[0, -1]] + [-0.03, 0.05],
           title=f"YRBSS heights, k = {k} bins, ε = {epsilon:g}")
    ax.legend(fontsize=7)
    ax_cum.axhline(0, color="k", lw=0.8)
    ax_cum.set(xlabel="height h (m)", ylabel="error of # students below h", ymargin=0.45,
               title="prefix ranges [1.20 m, h): noise adds up for identity")
    ax_cum.legend(fontsize=6.5, loc="lower left")
    ratio = rms["identity"] / rms["hierarchy + inference"]
    ax_cum.text(0.02, 0.97, f"prefixes only: the tree wins here ({ratio:.2f}× less MSE);\n"
                f"over all ranges, mostly short, identity wins at k = {k}", transform=ax_cum.transAxes,
                fontsize=6.5, va="top")
    fig.tight_layout()
    return fig


def figure_beat_hierarchy(epsilon: float = 1.0):
    """Per-query error at k = 256: identity, hierarchies, the optimised p-Identity."""
    k = P_IDENTITY_K
    bars = {"identity": expected_error_per_query("identity", k, epsilon),
            **{label: expected_error_per_query("hierarchy", k, epsilon, b, True, include_root=root)
               for label, b, root in (("binary + root\n+ inference", 2, True),
                                      ("binary\n+ inference", 2, False), ("16-ary\n+ inference", 16, False))},
            "p-Identity\n(ours, L-BFGS)": expected_error_per_query(PIdentityStrategy(load_p_identity()),
                                                                epsilon=epsilon)}
    fig, (ax,) = new_figure(1, width=7.0, height=3.6)
    ax.bar(range(len(bars)), list(bars.values()), color=[COLORS["laplace"], COLORS["classical"],
           COLORS["classical"], COLORS["analytic"], COLORS["zcdp"]])
    for i, v in enumerate(bars.values()):
        ax.text(i, v, f"{v:.1f}", ha="center", va="bottom", fontsize=8)
    ax.axhline(MCKENNA_K256, color="k", ls=":", lw=1, label=f"McKenna et al. 2018: {MCKENNA_K256}")
    ax.set_xticks(range(len(bars)), list(bars), fontsize=8)
    ax.set(ylabel="error per range query", title=f"can we beat the hierarchy? k = {k}, ε = {epsilon:g}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def figures() -> dict[str, object]:
    return {"03_range_error": figure_range_error(), "03_orders": figure_orders(),
            "03_branching": figure_branching(), "03_data": figure_data(),
            "03_beat_hierarchy": figure_beat_hierarchy()}


def _range_panel_at_4096():
    panel = range_panel()
    panel.controls["k"].value = 4096  # the first visit draws; the timed steps only rescale
    return panel


PANELS = (widgets.PanelCase("03 range panel at k = 4096 (epsilon)", _range_panel_at_4096,
                            {"epsilon": list(widgets.BENCH_EPSILONS)},
                            widgets.BrowserStep(0, "k", "512", "k = 512")),)
