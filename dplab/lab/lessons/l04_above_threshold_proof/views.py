"""Lesson 4, AboveThreshold: figures and the loss panel (notebook 04 and ``python -m dplab figures``)."""

from __future__ import annotations

import numpy as np

from dplab import sparse_vector as sv
from dplab.lab import widgets as w
from dplab.lab.cache import cached
from dplab.lab.lessons.l04_above_threshold_proof import report as lesson
from dplab.lab.plots import COLORS, new_figure, simulated_points, value_ticks
from dplab.simulate import proportion_ci

VARIANT_COLORS = {"above_threshold": "k", "lyu_alg1": COLORS["analytic"], "dwork_roth": COLORS["classical"],
                  "lee_clifton": COLORS["zcdp"], "no_halting": COLORS["bound"]}
PANEL_K_MAX = 50


def figure_stream(epsilon: float = 1.0, seed: int = lesson.SEED, runs: int = 200_000):
    """Left: the stream of answers and the threshold. Right: where AboveThreshold halts,
    exactly (bars) and in a simulation (dots with 95% intervals)."""
    f = lesson.height_stream()
    fig, (ax, ax_halt) = new_figure(2, width=5.2, height=3.6)
    ax.plot(lesson.STREAM_HEIGHTS_M, f, "o-", ms=3, color=COLORS["laplace"],
            label="answer: # at least h tall")
    ax.axhline(lesson.THRESHOLD, color="k", ls="--", lw=1, label=f"threshold T = {lesson.THRESHOLD:g}")
    ax.set(xlabel="h (m), queried from 2.10 m down", ylabel="students", yscale="log",
           title="the stream of queries (YRBSS)")
    ax.invert_xaxis()
    ax.legend(fontsize=7)
    probs = sv.halting_probabilities("above_threshold", f, lesson.THRESHOLD, epsilon)
    first = sv.above_threshold(f, lesson.THRESHOLD, epsilon, size=runs, rng=seed)
    counts = np.array([np.sum(first == i) for i in range(f.size)])
    idx = np.arange(f.size)
    ax_halt.bar(idx + 1, probs[:-1], color=COLORS["analytic"], alpha=0.6, label="exact Pr[halt at query i]")
    simulated_points(ax_halt, idx + 1, proportion_ci(counts, runs), color="k", label=f"{runs:,} runs")
    ax_halt.set(xlabel="query i (1 = 2.10 m, 31 = 1.50 m)", ylabel="probability", xlim=(0.5, f.size + 0.5),
                title=f"where AboveThreshold halts, ε = {epsilon:g}")
    ax_halt.legend(fontsize=7, title="the intervals are narrower than the dots", title_fontsize=7)
    fig.tight_layout()
    return fig


def figure_naive(epsilon: float = 1.0):
    """Naive accounting k eps/4 against the theorem's eps, the exact loss of halting at k on the
    stream of zeros, and its supremum over streams (min(k eps/4, eps): the two bounds meet at k = 4)."""
    fig, (ax,) = new_figure(1, width=6.5, height=3.6)
    n = lesson.LOSS_K
    ax.plot(n, [sv.naive_above_threshold_epsilon(int(k), epsilon) for k in n], "o--", color=COLORS["zcdp"],
            ms=3, zorder=4, label="naive: k ε/4 (sequential composition of the comparisons)")
    ax.plot(n, [sv.above_threshold_worst_case_supremum(int(k), epsilon) for k in n], "D-", ms=7, lw=2.5,
            color=COLORS["laplace"], alpha=0.6, label="exact loss at k, sup over streams: min(kε/4, ε)")
    ax.annotate("the two bounds meet at k = 4", (4, epsilon), (12, 0.3 * epsilon), fontsize=8,
                arrowprops={"arrowstyle": "->"})
    zeros = sv.halting_loss_curves(("above_threshold",), epsilon, int(n[-1]))["above_threshold"][n - 1]
    ax.plot(n, zeros, "s:", color="0.35", ms=3, label="exact loss of halting at k, on one stream (0s, T = 0)")
    ax.axhline(epsilon, color="k", ls="--", lw=1.2, zorder=5, label="the theorem: ε, whatever k")
    ax.set(xscale="log", yscale="log", xlabel="number of queries k", ylabel="privacy loss",
           title=f"AboveThreshold: naive accounting against the theorem, ε = {epsilon:g}")
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def figure_losses(epsilon: float = 1.0):
    """Exact loss / eps of halting at query k against k, for every variant with a curve."""
    fig, (ax,) = new_figure(1, width=7.0, height=3.8)
    variants, k = lesson.CURVE_VARIANTS, lesson.LOSS_K
    curves = sv.halting_loss_curves(variants, epsilon, int(k[-1]))
    order = [v for v in variants if v != "above_threshold"] + ["above_threshold"]
    styles = {"above_threshold": ("-", 5, 0.35), "dwork_roth": ("--", 1.5, 1.0)}
    for variant in order:  # the correct algorithm wide and pale, the two variants equal to it on top
        ls, lw, alpha = styles.get(variant, ("-", 1.5, 1.0))
        ax.plot(k, curves[variant][k - 1] / epsilon, ls, lw=lw, alpha=alpha, marker="o", ms=3,
                color=VARIANT_COLORS[variant], label=variant, zorder=1 if variant == "above_threshold" else 2)
    for level, text in ((1.0, "claimed: ε"), (1.5, "1.5 ε"), (1.75, "(1 + 6c)/4 ε, c = 1")):
        ax.axhline(level, color="0.6", lw=0.8, ls=":")
        ax.text(1.05, level + 0.02, text, fontsize=7, color="0.3")
    ax.set(xscale="log", ylim=(0, 2.0), xlabel="stream length k (bottom on 1..k-1, top on k)",
           ylabel="exact privacy loss / ε", title=f"exact privacy loss of each variant, ε = {epsilon:g}")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


PANEL_J = (1, 2, 3, 5, 8, 13, 21, 31, PANEL_K_MAX)  # queries per top; the next to last is loss_limit's limit


@cached(maxsize=256)
def _panel_curve(variant: str, epsilon: float, c: int, neighbours: str) -> np.ndarray:
    """loss_limit's loss at blocks of j - 1 bottoms, j in PANEL_J (its limit at j = 31)."""
    return np.array([sv.loss_limit(variant, epsilon, c=c, neighbours=neighbours, block=j - 1)
                     for j in PANEL_J])


class LossView:
    """The exact loss / eps of c blocks "j - 1 bottoms, then a top" for the chosen variant, c, eps
    and neighbours, against AboveThreshold's (c = 1) and the claimed eps (1 on this axis)."""

    def __init__(self):
        self.fig, (ax,) = new_figure(1, width=7.0, height=3.6)
        zero = np.zeros(len(PANEL_J))
        (self.chosen,) = ax.plot(PANEL_J, zero, "o-", ms=3, color=COLORS["zcdp"], lw=1.8, label="chosen")
        (self.reference,) = ax.plot(PANEL_J, zero, "k-", lw=1, label="above_threshold (c = 1)")
        ax.plot([1, PANEL_K_MAX], [1, 1], "k:", lw=1, label="claimed ε")
        (self.here,) = ax.plot([PANEL_K_MAX], [1.0], "kD", ms=6, label="chosen j")
        ax.set(xscale="log", yscale="log", xlim=(1, PANEL_K_MAX * 1.1), ylim=(0.1, 10),
               xlabel="queries per ⊤, j (⊥ on j − 1 queries, then ⊤; c times)", ylabel="exact loss / ε",
               title="exact loss of (⊥^(j−1) ⊤)^c (stream of 0s, T = 0)")
        value_ticks(ax.yaxis, [0.1, 0.2, 0.5, 0.75, 1, 2, 5, 10])
        self.eps_text = ax.text(0.02, 0.96, "", transform=ax.transAxes, va="top", fontsize=9)
        ax.legend(fontsize=7, loc="lower right")
        self.fig.tight_layout()
        self.dynamic = [self.chosen, self.reference, self.here, self.eps_text]

    def update(self, values: dict, seed: int) -> str:
        eps, j, variant = float(values["epsilon"]), int(values["k"]), values["variant"]
        neighbours = values.get("neighbours", "general")
        c = 1 if variant == "above_threshold" else int(values.get("c", 1))
        curve = _panel_curve(variant, eps, c, neighbours)
        self.chosen.set_data(PANEL_J, curve / eps)
        self.chosen.set_label(variant)
        self.reference.set_data(PANEL_J, _panel_curve("above_threshold", eps, 1, neighbours) / eps)
        loss = sv.loss_limit(variant, eps, c=c, neighbours=neighbours, block=j - 1)
        limit = curve[-2]  # j = 31
        self.here.set_data([j], [loss / eps])
        c_text = "c ignored (halts at the first ⊤)" if variant == "above_threshold" else f"c = {c}"
        self.eps_text.set_text(f"ε = {eps:.3g}, {c_text}, {neighbours} neighbours")
        verdict = "within" if limit <= eps * (1 + 1e-9) else "beyond"
        private = variant in sv.PRIVATE_VARIANTS
        promised = w.promise(epsilon=eps) if private else w.promise(reason=f"{variant} is "
            "not ε-DP under general neighbours (Lyu, Su & Li 2017)" + ("" if neighbours == "general" else
            f"; under monotone ones its limit on 0s is {limit / eps:.3g} ε, {verdict} ε"))
        return (f"<b>{variant}</b>, {c_text}, {neighbours} neighbours, ε = {eps:.3g}: j = {j} loses "
                f"{loss:.4g} ({loss / eps:.3g} ε); its limit as j grows: {limit:.4g} = {limit / eps:.3g} ε, "
                f"{verdict} the claimed ε" + promised)


def figure_loss_panel(epsilon: float = 1.0, k: int = 50, variant: str = "lee_clifton",
                      seed: int = lesson.SEED):
    values = {"epsilon": epsilon, "k": k, "variant": variant, "c": 1, "neighbours": "general"}
    fig = w.view_figure(LossView, values, seed)
    fig.axes[0].legend(fontsize=7, loc="lower right")  # names the variant shown
    return fig


def loss_panel(seed: int = lesson.SEED) -> w.SliderPanel:
    import ipywidgets as widgets

    menu = widgets.Dropdown(options=lesson.CURVE_VARIANTS, value="lee_clifton", description="variant")
    toggle = widgets.ToggleButtons(options=("general", "monotone"), description="neighbours")
    queries = w.k_slider(50, high=PANEL_K_MAX, description="queries")
    controls = {"epsilon": w.epsilon_slider(1.0), "k": queries, "variant": menu,
                "c": w.k_slider(1, high=5, description="c"), "neighbours": toggle}
    return w.view_panel(LossView, controls, seed)


def figures() -> dict[str, object]:
    return {"04_stream": figure_stream(), "04_naive": figure_naive(), "04_losses": figure_losses(),
            "04_loss_panel": figure_loss_panel()}


PANELS = (w.PanelCase("04 loss panel (epsilon, queries, variant, c, neighbours)", loss_panel,
                    {"epsilon": list(w.BENCH_EPSILONS[:6]), "k": [10, 30, 50], "variant": ["above_threshold",
                     "no_halting"], "c": [1, 3], "neighbours": ["general", "monotone"]},
                    w.BrowserStep(0, "epsilon", w.EPSILON_STEP, f"ε = {w.EPSILON_STEP}")),)
