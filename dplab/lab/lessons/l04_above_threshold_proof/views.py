"""Lesson 4, AboveThreshold and the sparse vector technique: figures and the loss panel.

Notebook ``notebooks/04_above_threshold_proof.ipynb`` and ``python -m dplab figures`` both
call these functions.
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import FuncFormatter, NullFormatter

from dplab.lab.cache import cached
from dplab.lab.lessons.l04_above_threshold_proof.report import (
    CURVE_VARIANTS,
    LOSS_K,
    SEED,
    STREAM_HEIGHTS_M,
    THRESHOLD,
    height_stream,
    loss_curves,
)
from dplab.lab.plots import COLORS, TheoryVsEmpirical, new_figure
from dplab.lab.widgets import (
    BENCH_EPSILONS,
    EPSILON_STEP,
    BrowserStep,
    PanelCase,
    SliderPanel,
    epsilon_slider,
    k_slider,
    promise,
    view_figure,
    view_panel,
)
from dplab.simulate import proportion_ci
from dplab.sparse_vector import (
    PRIVATE_VARIANTS,
    above_threshold,
    halting_loss_curves,
    halting_probabilities,
    naive_above_threshold_epsilon,
)

VARIANT_COLORS = {"above_threshold": "k", "lyu_alg1": COLORS["analytic"], "dwork_roth": COLORS["classical"],
                  "lee_clifton": COLORS["zcdp"], "no_halting": COLORS["bound"]}
PANEL_K_MAX = 200


def figure_stream(epsilon: float = 1.0, seed: int = SEED, runs: int = 200_000):
    """Left: the stream of answers and the threshold. Right: where AboveThreshold halts,
    exactly (bars) and in a simulation (dots with 95% intervals)."""
    f = height_stream()
    fig, (ax, ax_halt) = new_figure(2, width=5.2, height=3.6)
    ax.plot(STREAM_HEIGHTS_M, f, "o-", ms=3, color=COLORS["laplace"], label="answer: # at least h tall")
    ax.axhline(THRESHOLD, color="k", ls="--", lw=1, label=f"threshold T = {THRESHOLD:g}")
    ax.set(xlabel="h (m), queried from 2.10 m down", ylabel="students", yscale="log",
           title="the stream of queries (YRBSS)")
    ax.invert_xaxis()
    ax.legend(fontsize=7)
    probs = halting_probabilities("above_threshold", f, THRESHOLD, epsilon)
    first = above_threshold(f, THRESHOLD, epsilon, size=runs, rng=seed)
    counts = np.array([np.sum(first == i) for i in range(f.size)])
    idx = np.arange(f.size)
    ax_halt.bar(idx + 1, probs[:-1], color=COLORS["analytic"], alpha=0.6, label="exact Pr[halt at query i]")
    line = TheoryVsEmpirical(ax_halt, color="k", label=f"{runs:,} runs", show_theory=False)
    line.update([], [], idx + 1, proportion_ci(counts, runs))
    ax_halt.set(xlabel="query i (1 = 2.10 m, 31 = 1.50 m)", ylabel="probability", xlim=(0.5, f.size + 0.5),
                title=f"where AboveThreshold halts, ε = {epsilon:g}")
    ax_halt.legend(fontsize=7, title="the intervals are narrower than the dots", title_fontsize=7)
    fig.tight_layout()
    return fig


def figure_naive(epsilon: float = 1.0):
    """Naive accounting n eps/4 against the theorem's eps and the exact worst loss."""
    fig, (ax,) = new_figure(1, width=6.5, height=3.6)
    n = LOSS_K
    exact = loss_curves(epsilon)["above_threshold"][n - 1]
    ax.plot(n, [naive_above_threshold_epsilon(int(k), epsilon) for k in n], "o-", color=COLORS["zcdp"],
            ms=3, label="naive: k ε/4 (sequential composition of the comparisons; valid, better for k < 4)")
    ax.axhline(epsilon, color="k", ls="--", lw=1, label="the theorem: ε, whatever k")
    ax.plot(n, exact, "s-", color=COLORS["analytic"], ms=3,
            label="exact loss of halting at query k (0s, T = 0)")
    ax.set(xscale="log", yscale="log", xlabel="number of queries k", ylabel="privacy loss",
           title=f"AboveThreshold: naive accounting against the theorem, ε = {epsilon:g}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def figure_losses(epsilon: float = 1.0):
    """Exact loss / eps of halting at query k against k, for every variant with a curve."""
    fig, (ax,) = new_figure(1, width=7.0, height=3.8)
    curves = loss_curves(epsilon)
    order = [v for v in CURVE_VARIANTS if v != "above_threshold"] + ["above_threshold"]
    styles = {"above_threshold": ("-", 5, 0.35), "dwork_roth": ("--", 1.5, 1.0)}
    for variant in order:  # the correct algorithm wide and pale, the two variants equal to it on top
        ls, lw, alpha = styles.get(variant, ("-", 1.5, 1.0))
        ax.plot(LOSS_K, curves[variant][LOSS_K - 1] / epsilon, ls, lw=lw, alpha=alpha, marker="o", ms=3,
                color=VARIANT_COLORS[variant], label=variant, zorder=1 if variant == "above_threshold" else 2)
    for level, text in ((1.0, "claimed: ε"), (1.5, "1.5 ε"), (1.75, "(1 + 6c)/4 ε, c = 1")):
        ax.axhline(level, color="0.6", lw=0.8, ls=":")
        ax.text(1.05, level + 0.02, text, fontsize=7, color="0.3")
    ax.set(xscale="log", ylim=(0, 2.0), xlabel="stream length k (bottom on 1..k-1, top on k)",
           ylabel="exact privacy loss / ε", title=f"exact privacy loss of each variant, ε = {epsilon:g}")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


@cached(maxsize=256)
def _panel_curve(variant: str, epsilon: float) -> np.ndarray:
    """The loss of halting at j = 1..PANEL_K_MAX for one variant and eps (cached: the queries
    slider only truncates it)."""
    return halting_loss_curves((variant,), epsilon, PANEL_K_MAX)[variant]


class LossView:
    """The exact loss / eps of halting at each query j = 1..k for the chosen variant at the
    chosen eps, against AboveThreshold's and the claimed eps (1 on this axis, at every eps)."""

    def __init__(self):
        self.fig, (ax,) = new_figure(1, width=7.0, height=3.6)
        j = np.arange(1, PANEL_K_MAX + 1)
        (self.chosen,) = ax.plot(j, np.zeros_like(j, dtype=float), "-", color=COLORS["zcdp"], lw=1.8,
                                 label="chosen variant")
        (self.reference,) = ax.plot(j, np.zeros_like(j, dtype=float), "k-", lw=1, label="above_threshold")
        ax.plot([1, PANEL_K_MAX], [1, 1], "k:", lw=1, label="claimed ε")
        self.here = ax.axvline(PANEL_K_MAX, color="k", lw=0.8, ls="--", label="chosen k")
        ax.set(xscale="log", yscale="log", xlim=(1, PANEL_K_MAX), ylim=(0.1, 2.5),
               xlabel="query j of the halt", ylabel="exact privacy loss / ε",
               title="exact loss of halting at query j (stream of 0s, T = 0)")
        ax.set_yticks([0.1, 0.2, 0.5, 1, 1.5, 2])
        ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())
        self.eps_text = ax.text(0.02, 0.96, "", transform=ax.transAxes, va="top", fontsize=9)
        ax.legend(fontsize=7, loc="lower right")
        self.fig.tight_layout()
        self.dynamic = [self.chosen, self.reference, self.here, self.eps_text]

    def update(self, values: dict, seed: int) -> str:
        eps, k, variant = float(values["epsilon"]), int(values["k"]), values["variant"]
        j = np.arange(1, k + 1)
        curve = _panel_curve(variant, eps)
        self.chosen.set_data(j, curve[:k] / eps)
        self.chosen.set_label(variant)
        self.reference.set_data(j, _panel_curve("above_threshold", eps)[:k] / eps)
        self.here.set_xdata([k, k])
        self.eps_text.set_text(f"ε = {eps:.3g}")
        loss = curve[k - 1]
        verdict = "within" if loss <= eps * (1 + 1e-9) else "beyond"
        promised = promise(epsilon=eps) if variant in PRIVATE_VARIANTS else promise(
            reason=f"{variant} is not ε-DP (Lyu, Su & Li 2017), so its ε is only a label")
        return (f"<b>{variant}</b>, ε = {eps:.3g}: halting at query k = {k} loses {loss:.4g}, "
                f"{verdict} the claimed ε ({loss / eps:.3g} ε)" + promised)


def figure_loss_panel(epsilon: float = 1.0, k: int = 100, variant: str = "lee_clifton", seed: int = SEED):
    fig = view_figure(LossView, {"epsilon": epsilon, "k": k, "variant": variant}, seed)
    fig.axes[0].legend(fontsize=7, loc="lower right")  # names the variant shown
    return fig


def loss_panel(seed: int = SEED) -> SliderPanel:
    import ipywidgets as widgets

    controls = {"epsilon": epsilon_slider(1.0), "k": k_slider(100, high=PANEL_K_MAX, description="queries"),
                "variant": widgets.Dropdown(options=list(CURVE_VARIANTS), value="lee_clifton",
                                            description="variant")}
    return view_panel(LossView, controls, seed)


def figures() -> dict[str, object]:
    return {"04_stream": figure_stream(), "04_naive": figure_naive(), "04_losses": figure_losses(),
            "04_loss_panel": figure_loss_panel()}


PANELS = (PanelCase("04 loss panel (epsilon, queries, variant)", loss_panel,
                    {"epsilon": list(BENCH_EPSILONS[:6]), "k": [10, 50, 200],
                     "variant": ["above_threshold", "no_halting"]},
                    BrowserStep(0, "epsilon", EPSILON_STEP, f"ε = {EPSILON_STEP}")),)
