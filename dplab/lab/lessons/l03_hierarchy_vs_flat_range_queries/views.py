"""Lesson 3, hierarchical vs flat range queries: figures and the widget panel (one View per panel).

Notebook ``notebooks/03_hierarchy_vs_flat_range_queries.ipynb`` and ``python -m dplab
figures`` both call these functions.
"""

from __future__ import annotations

import numpy as np

from dplab.lab.cache import cached
from dplab.lab.lessons.l03_hierarchy_vs_flat_range_queries.report import MCKENNA_K256, SEED
from dplab.lab.plots import COLORS, TheoryVsEmpirical, new_figure
from dplab.lab.widgets import BENCH_EPSILONS, BrowserStep, PanelCase, SliderPanel, epsilon_slider, promise
from dplab.mechanisms.laplace import laplace_mse
from dplab.range_queries.errors import n_ranges, range_error_by_length
from dplab.range_queries.histograms import height_histogram
from dplab.range_queries.optimization import P_IDENTITY_K, PIdentityStrategy, load_p_identity
from dplab.range_queries.strategies import range_strategy
from dplab.range_queries.theory import (
    best_branching,
    expected_error_per_query,
    expected_total_error,
    seed_error_orders,
)
from dplab.simulate import Estimate, mean_ci, standard_noise

K_VALUES = [2**j for j in range(2, 13)]  # 4 .. 4096

#: (label, strategy name, inference) of the panel's strategy menu
PANEL_STRATEGIES = {
    "identity": ("identity", False),
    "hierarchy": ("hierarchy", False),
    "hierarchy + inference": ("hierarchy", True),
    "all ranges": ("all_ranges", False),
    "wavelet (Privelet)": ("wavelet", True),
}
#: strategies whose every range is enumerated are simulated only up to these k
SIMULATE_MAX_K = {"all ranges": 256, "hierarchy": 1024}


# ------------------------------------------------------------------ simulation with common random numbers


@cached(maxsize=64)
def _standard_errors(label: str, k: int, branching: int, seed: int, trials: int):
    """Total error over all ranges, and mean error by range length, of ``trials`` runs at
    sensitivity/epsilon = 1 (scale them by (Delta/eps)^2). One draw per configuration."""
    name, inference = PANEL_STRATEGIES[label]
    s = range_strategy(name, k, branching)
    noise = standard_noise("laplace", (trials, s.n_measurements), seed)
    zero = np.zeros(k)
    y = s.apply(zero) + noise
    totals = s.total_error(y, zero, inference=inference)
    if name == "all_ranges" or (name == "hierarchy" and not inference):
        by_length = None
    else:
        by_length = range_error_by_length(s.reconstruct(y)).mean(axis=0)
        by_length.flags.writeable = False
    totals.flags.writeable = False  # cached: shared by every later call
    return totals, by_length


def _trials_for(k: int, label: str = "identity") -> int:
    if label in SIMULATE_MAX_K:  # O(k^2) per trial
        return max(4, min(200, 50_000 // k))
    return max(8, min(400, 40_000 // k))


# ------------------------------------------------------------------ the panel


class RangeErrorView:
    """Left: per-query error against k for every strategy (theory) and the chosen one
    (simulation). Right: mean squared error by range length r at the chosen k."""

    def __init__(self):
        self.fig, (ax, ax_len) = new_figure(2, width=5.4, height=3.9)
        styles = {"identity": ("laplace", "o"), "hierarchy": ("classical", "^"),
                  "hierarchy + inference": ("analytic", "s"), "all ranges": ("zcdp", "v"),
                  "wavelet (Privelet)": ("bound", "D")}
        self.lines = {label: TheoryVsEmpirical(ax, color=COLORS[c], marker=m, label=label)
                      for label, (c, m) in styles.items()}
        self.here = ax.axvline(K_VALUES[-1], color="k", lw=0.8, ls=":")
        # all ranges (about k^4/8 per query) leaves this scale above k = 16: the others stay readable
        ax.set(xscale="log", yscale="log", xlim=(3, 6000), ylim=(1, 3e4), xlabel="k (bins)",
               ylabel="mean squared error per range query", title="strategies against k")
        ax.set_xscale("log", base=2)
        # the legend lists what is drawn: five theory curves, and the dots of the chosen strategy
        handles = [line.theory for line in self.lines.values()]
        labels = [f"{label}: theory" for label in self.lines]
        handles.append(ax.plot([], [], "o", color="0.3", ms=4.5)[0])
        labels.append("chosen strategy at the chosen k: simulated (95% CI)")
        ax.legend(handles, labels, fontsize=6.5, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2)
        self.by_length = {label: ax_len.plot([], [], color=COLORS[c], lw=1.2, label=label)[0]
                          for label, (c, _) in styles.items()
                          if label in ("identity", "hierarchy + inference", "wavelet (Privelet)")}
        (self.identity_theory,) = ax_len.plot([], [], "k--", lw=1, label="identity theory 2r/ε²")
        ax_len.set(xscale="log", yscale="log", xlim=(1, 4096), ylim=(0.5, 2e4),
                   xlabel="range length r", ylabel="mean squared error",
                   title="error by range length at the chosen k")
        ax_len.set_xscale("log", base=2)
        ax_len.legend(fontsize=7, loc="upper left")
        self.ax_len = ax_len
        self.fig.tight_layout()
        self.fig.subplots_adjust(bottom=0.34)  # room for the legend below the left axes
        self.dynamic = [a for line in self.lines.values() for a in line.artists]
        self.dynamic += [self.here, *self.by_length.values(), self.identity_theory]

    def update(self, values: dict, seed: int) -> str:
        eps, k, b = values["epsilon"], int(values["k"]), int(values["branching"])
        chosen = values["strategy"]
        ks = np.array(K_VALUES)
        for label, line in self.lines.items():
            name, inference = PANEL_STRATEGIES[label]
            kmax = 2**10 if name == "all_ranges" else K_VALUES[-1]
            kk = ks[ks <= kmax]
            theory = [expected_error_per_query(name, int(j), eps, b, inference) for j in kk]
            simulate = label == chosen and k <= SIMULATE_MAX_K.get(label, k)
            if simulate:
                totals, _ = _standard_errors(label, k, b, seed, _trials_for(k, label))
                scale = range_strategy(name, k, b).sensitivity ** 2 / eps**2
                est = mean_ci(totals).scaled(scale / n_ranges(k))
                line.update(kk, theory, [k], est)
            else:
                line.update(kk, theory, [], Estimate(np.array([]), np.array([]), np.array([]), 0.95))
        self.here.set_xdata([k, k])
        lengths = np.arange(1, k + 1)
        for label, artist in self.by_length.items():
            name, _ = PANEL_STRATEGIES[label]
            _, by_length = _standard_errors(label, k, b, seed, _trials_for(k))
            scale = range_strategy(name, k, b).sensitivity ** 2 / eps**2
            artist.set_data(lengths, scale * by_length)
        self.identity_theory.set_data(lengths, 2 * lengths / eps**2)
        if self.ax_len.get_xlim()[1] != k:  # the lengths of this k only (the panel redraws its axes)
            self.ax_len.set_xlim(1, k)
            self.ax_len.set_title(f"error by range length at k = {k}")
        limit = SIMULATE_MAX_K.get(chosen, k)
        shown = "" if k <= limit else f" (simulated only up to k = {limit}: every range is enumerated)"
        return (
            f"<b>k = {k}</b>, branching {b}, ε = {eps:.3g}: expected error per range query: "
            f"identity {expected_error_per_query('identity', k, eps):.4g}, "
            f"hierarchy {expected_error_per_query('hierarchy', k, eps, b):.4g}, "
            f"hierarchy + inference {expected_error_per_query('hierarchy', k, eps, b, True):.4g}, "
            f"wavelet {expected_error_per_query('wavelet', k, eps):.4g}; "
            f"simulated: {chosen}{shown}. "
            "<i>ε follows the drag; k and the branching factor rebuild the strategy and update on "
            "release.</i>"
            + promise(epsilon=eps)  # every strategy is eps-DP (Laplace noise)
        )


def figure_range_error(epsilon: float = 1.0, k: int = 256, branching: int = 2,
                       strategy: str = "hierarchy + inference", seed: int = SEED):
    view = RangeErrorView()
    view.update({"epsilon": epsilon, "k": k, "branching": branching, "strategy": strategy}, seed)
    return view.fig


def range_panel(seed: int = SEED) -> SliderPanel:
    import ipywidgets as widgets

    view = RangeErrorView()
    controls = {
        "epsilon": epsilon_slider(1.0),
        "k": widgets.SelectionSlider(options=K_VALUES, value=256, description="k",
                                     continuous_update=False),
        "branching": widgets.IntSlider(value=2, min=2, max=64, description="branching",
                                       continuous_update=False),
        "strategy": widgets.Dropdown(options=list(PANEL_STRATEGIES), value="hierarchy + inference",
                                     description="strategy"),
    }
    return SliderPanel(view.fig, view.update, controls, seed=seed, dynamic=view.dynamic)


# ------------------------------------------------------------------ static figures


def figure_orders(epsilon: float = 1.0):
    """Left: exact totals of identity, hierarchy (direct and with inference) and wavelet, with the
    seed's orders, all divided by k^2 so that the crossover at 512 shows. Right: all ranges,
    total against k^6/16 and per query against the seed's O(k^4)."""
    fig, (ax, ax_all) = new_figure(2, width=5.2, height=3.8)
    ks = np.array(K_VALUES, dtype=float)
    exact = {
        "identity": [expected_total_error("identity", int(k), epsilon) for k in ks],
        "hierarchy": [expected_total_error("hierarchy", int(k), epsilon) for k in ks],
        "hierarchy + inference": [expected_total_error("hierarchy", int(k), epsilon, 2, True) for k in ks],
        "wavelet (Privelet)": [expected_total_error("wavelet", int(k), epsilon) for k in ks],
    }
    colors = {"identity": "laplace", "hierarchy": "classical", "hierarchy + inference": "analytic",
              "wavelet (Privelet)": "bound"}
    for label, values in exact.items():
        style = "--D" if label.startswith("wavelet") else "-o"  # it lies on hierarchy + inference
        ax.plot(ks, np.array(values) / ks**2, style, ms=3, color=COLORS[colors[label]],
                label=f"{label}: exact")
    orders = seed_error_orders(ks, epsilon)
    ax.plot(ks, orders["identity"] / ks**2, ":", color=COLORS["laplace"],
            label="seed: O(k³/ε²), constant 1")
    ax.plot(ks, orders["hierarchy"] / ks**2, ":", color=COLORS["classical"],
            label="seed: O(k² log³k/ε²), constant 1")
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
    ax_all.plot(small, orders["all ranges (per query)"][ks <= 512], "k:",
                label="seed: O(k⁴/ε²), constant 1")
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
        errors = [expected_error_per_query("hierarchy", k, epsilon, int(b), True, root) for b in bs]
        ax.plot(bs, errors, style, ms=3,
                label=f"hierarchy + inference, root {'measured' if root else 'not measured'}")
    ax.axhline(expected_error_per_query("identity", k, epsilon), color=COLORS["laplace"], ls=":",
               label="identity")
    best, err = best_branching(k, range(2, 33))
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
    for label, color in (("identity", "laplace"), ("hierarchy + inference", "analytic")):
        name, inference = PANEL_STRATEGIES[label]
        s = range_strategy(name, k, 2)
        estimate = s.reconstruct(s.measure(x, epsilon, rng=seed))
        ax.stairs(estimate, edges, color=COLORS[color], alpha=0.7, label=label)
        ax_cum.plot(edges[1:], np.cumsum(estimate) - np.cumsum(x), color=COLORS[color],
                    label=f"{label}: one draw")
        band = np.sqrt(laplace_mse(s.sensitivity, epsilon) * s.prefix_error_units())
        rms[label] = np.mean(band**2)
        ax_cum.fill_between(edges[1:], -band, band, color=COLORS[color], alpha=0.15, lw=0,
                            label=f"{label}: ±1 RMS (theory)")
    ax.set(xlabel="height (m)", ylabel="students", xlim=(1.4, 2.0),
           title=f"YRBSS heights, k = {k} bins, ε = {epsilon:g}")
    ax.legend(fontsize=7)
    ax_cum.axhline(0, color="k", lw=0.8)
    ax_cum.set(xlabel="height h (m)", ylabel="error of # students below h",
               title="prefix ranges [1.20 m, h): noise adds up for identity")
    ax_cum.legend(fontsize=6.5, loc="lower left")
    ratio = rms["identity"] / rms["hierarchy + inference"]
    ax_cum.text(0.02, 0.97, f"prefixes only: the tree wins here ({ratio:.2f}× less MSE);\n"
                f"over all ranges, mostly short, identity wins at k = {k}", transform=ax_cum.transAxes,
                fontsize=6.5, va="top")
    fig.tight_layout()
    return fig


# ------------------------------------------------------------------ can we beat the hierarchy?


def figure_beat_hierarchy(epsilon: float = 1.0):
    """Per-query error at k = 256: identity, hierarchies, the optimised p-Identity."""
    k = P_IDENTITY_K
    bars = {
        "identity": expected_error_per_query("identity", k, epsilon),
        "binary + root\n+ inference": expected_error_per_query("hierarchy", k, epsilon, 2, True, True),
        "binary\n+ inference": expected_error_per_query("hierarchy", k, epsilon, 2, True),
        "16-ary\n+ inference": expected_error_per_query("hierarchy", k, epsilon, 16, True),
        "p-Identity\n(ours, L-BFGS)": PIdentityStrategy(load_p_identity()).expected_total_error(epsilon)
        / n_ranges(k),
    }
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


# ------------------------------------------------------------------ figures and report rows


def figures() -> dict[str, object]:
    return {
        "03_range_error": figure_range_error(),
        "03_orders": figure_orders(),
        "03_branching": figure_branching(),
        "03_data": figure_data(),
        "03_beat_hierarchy": figure_beat_hierarchy(),
    }


def _range_panel_at_4096():
    panel = range_panel()
    panel.controls["k"].value = 4096  # the first visit draws; the timed steps only rescale
    return panel


PANELS = (
    PanelCase("03 range panel at k = 4096 (epsilon)", _range_panel_at_4096, {"epsilon": list(BENCH_EPSILONS)},
              BrowserStep(0, "k", "512", "k = 512")),
)
