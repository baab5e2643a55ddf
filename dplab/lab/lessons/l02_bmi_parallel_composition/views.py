"""Lesson 2, BMI and parallel composition: figures and the widget panel (one View per panel).

Notebook ``notebooks/02_bmi_parallel_composition.ipynb`` and ``python -m dplab figures`` both call these.
"""

from __future__ import annotations

from functools import partial

import ipywidgets
import numpy as np

from dplab import bmi, contingency, simulate
from dplab.accounting import subsampling_epsilon, subsampling_slide_claim_fails_above
from dplab.lab import widgets
from dplab.lab.cache import cached
from dplab.lab.lessons.l02_bmi_parallel_composition.report import SEED
from dplab.lab.plots import COLORS, TheoryVsEmpirical, new_figure
from dplab.simulate import Estimate, ScaledErrors, mean_ci, proportion_ci

TRIALS = 100_000
EPS_LINE = np.geomspace(0.05, 5.0, 200)
EPS_POINTS = np.geomspace(0.08, 4.0, 9)
ANSWER_NAMES = ["# M, BMI < 25", "# M", "# F, BMI < 25", "# F"]
CONTINGENCY_D = np.arange(2, 13)
#: the level of the notebook's asserts (23 intervals, family-wise 99%): the figures' bars are drawn at it
LEVEL = simulate.bonferroni_confidence(23, family_error=0.01)


#: a theory curve with simulated dots whose bars (and legend) are at the notebook's LEVEL
_line = partial(TheoryVsEmpirical, confidence=LEVEL)


def standard_answer_errors(seed: int, trials: int = TRIALS) -> dict[str, np.ndarray]:
    """Standard errors of the four answers: Algorithm 1 is Lap(1) per answer (times 4/eps),
    Algorithm 2 is A @ Lap(1) cells (times Delta/eps). One draw serves both algorithms and
    every epsilon; with the same seed and size it is exactly the algorithms' own noise."""
    z = simulate.standard_draw("laplace", (trials, 4), seed)
    return {"1": z, "2": z @ bmi.ANSWERS_FROM_CELLS.T}


@cached(maxsize=16)
def _scaled_errors(seed: int, algorithm: int) -> tuple[ScaledErrors, list[ScaledErrors]]:
    e = standard_answer_errors(seed)[str(algorithm)]
    total = ScaledErrors(np.sqrt(np.sum(e**2, axis=1)))
    return total, [ScaledErrors(np.abs(e[:, j])) for j in range(4)]


class BMIErrorView:
    """Left: total squared error against epsilon, both algorithms. Right: each answer's error."""

    def __init__(self):
        self.fig, (ax, ax_ans) = new_figure(2, width=5.2, height=3.6)
        self.alg1 = _line(ax, color=COLORS["laplace"], label="Algorithm 1")
        self.alg2 = _line(ax, color=COLORS["analytic"], label="Algorithm 2", marker="s")
        self.here = ax.axvline(1.0, color="k", lw=0.8, ls=":")
        self.joint = _line(ax, color=COLORS["laplace"], theory_style="--", marker="^",
                                       label="Algorithm 1, answers as one query (Δ₁)")
        ax.set(xscale="log", yscale="log", xlim=(0.05, 5), ylim=(1e-4, 1e6), xlabel="ε",
               ylabel="total squared error of the 4 answers", title="total error against ε")
        ax.legend(fontsize=7, loc="lower left")  # the curves fall with ε: the lower left stays empty
        self.answers = {
            1: _line(ax_ans, color=COLORS["laplace"], label="Algorithm 1", theory_style="_"),
            2: _line(ax_ans, color=COLORS["analytic"], label="Algorithm 2", theory_style="_",
                                 marker="s")}
        for line in self.answers.values():
            line.theory.set_markersize(22)
            line.theory.set_markeredgewidth(2)
        ax_ans.set(yscale="log", ylim=(0.03, 5e4), xlim=(-0.5, 3.5), ylabel="squared error",
                   title="each answer at the chosen ε")
        ax_ans.set_xticks(range(4), ANSWER_NAMES, fontsize=8)
        ax_ans.legend(fontsize=7, loc="upper right")
        self.fig.tight_layout()
        self.dynamic = [*self.alg1.artists, *self.alg2.artists, self.here, *self.joint.artists,
                        *self.answers[1].artists, *self.answers[2].artists]

    def update(self, values: dict, seed: int) -> str:
        eps, neighbours = values["epsilon"], values["neighbours"]
        shown = {"both": (1, 2), "Algorithm 1": (1,), "Algorithm 2": (2,)}[values["algorithm"]]
        for alg, line in ((1, self.alg1), (2, self.alg2)):
            total, per_answer = _scaled_errors(seed, alg)
            line.update(EPS_LINE, bmi.bmi_expected_total_error(alg, EPS_LINE, neighbours), EPS_POINTS,
                        total.mse(bmi.bmi_noise_scale(alg, EPS_POINTS, neighbours), LEVEL))
            line.set_visible(alg in shown)
            b = bmi.bmi_noise_scale(alg, eps, neighbours)
            self.answers[alg].update(np.arange(4), bmi.bmi_answer_mse(alg, eps, neighbours), np.arange(4),
                                     Estimate.stack([pa.mse(b, LEVEL) for pa in per_answer]))
            self.answers[alg].set_visible(alg in shown)
        total, _ = _scaled_errors(seed, 1)  # the same independent noise, scale Delta_1/eps
        joint_theory = bmi.bmi_expected_total_error(1, EPS_LINE, neighbours, "joint")
        self.joint.update(EPS_LINE, joint_theory, EPS_POINTS,
                          total.mse(bmi.bmi_noise_scale(1, EPS_POINTS, neighbours, "joint"), LEVEL))
        self.joint.set_visible(1 in shown)
        self.here.set_xdata([eps, eps])
        t1, t2 = (bmi.bmi_expected_total_error(alg, eps, neighbours) for alg in (1, 2))
        s1 = float(_scaled_errors(seed, 1)[0].mse(bmi.bmi_noise_scale(1, eps, neighbours)).estimate)
        s2 = float(_scaled_errors(seed, 2)[0].mse(bmi.bmi_noise_scale(2, eps, neighbours)).estimate)
        return (f"<b>ε = {eps:.3g}</b>, {neighbours} neighbours: total squared error "
                f"Algorithm 1 theory {t1:.4g} (simulated {s1:.4g}), Algorithm 2 theory {t2:.4g} "
                f"(simulated {s2:.4g}); Algorithm 2 is {t1 / t2:.3g}× more accurate"
                + widgets.promise(epsilon=eps))  # both algorithms are eps-DP


def figure_bmi_error(epsilon: float = 1.0, neighbours: str = "add_remove", seed: int = SEED):
    values = {"epsilon": epsilon, "algorithm": "both", "neighbours": neighbours}
    fig = widgets.view_figure(BMIErrorView, values, seed)
    fig.axes[1].set_title(f"each answer at ε = {epsilon:g} ({neighbours})")
    return fig


def bmi_panel(seed: int = SEED) -> widgets.SliderPanel:
    return widgets.view_panel(BMIErrorView, {
        "epsilon": widgets.epsilon_slider(1.0),
        "algorithm": ipywidgets.Dropdown(options=["both", "Algorithm 1", "Algorithm 2"], value="both",
                                        description="algorithm"),
        "neighbours": ipywidgets.Dropdown(options=["add_remove", "replace"], value="add_remove",
                                         description="neighbours")}, seed)


def figure_inference(seed: int = SEED, trials: int = 40_000):
    """Slides table: how often the noisy answers break q1 <= q1 + q2, and what projection removes."""
    table = bmi.bmi_slides_table()
    c2 = bmi.bmi_cells(table)[1]
    fig, (ax, ax_err) = new_figure(2, width=5.2, height=3.6)
    eps_points = np.geomspace(0.1, 2.0, 7)
    for alg, color, marker in ((1, COLORS["laplace"], "o"), (2, COLORS["analytic"], "s")):
        line = _line(ax, color=color, label=f"Algorithm {alg}", marker=marker)
        results = [bmi.bmi_inference_trials(table, alg, e, trials, seed + i)
                   for i, e in enumerate(eps_points)]
        freq = proportion_ci(np.array([r["violated"].sum() for r in results]), trials, LEVEL)
        line.update(EPS_LINE, bmi.bmi_order_violation_probability(alg, c2, EPS_LINE), eps_points, freq)
        before = _line(ax_err, color=color, label=f"Alg. {alg} as released", marker=marker)
        before.update(EPS_LINE, bmi.bmi_expected_total_error(alg, EPS_LINE), eps_points,
                      Estimate.stack([mean_ci(r["before"], LEVEL) for r in results]))
        after = _line(ax_err, color=color, label=f"Alg. {alg} after projection", marker="x",
                                  show_theory=False)
        after.update([], [], eps_points, Estimate.stack([mean_ci(r["after"], LEVEL) for r in results]))
    for a in (ax, ax_err):  # set_data does not grow the data limits: recompute them
        a.relim()
        a.autoscale_view()
    ax.set(xscale="log", yscale="log", ylim=(1e-5, 1), xlabel="ε", ylabel="Pr[noisy q1 > noisy (q1 + q2)]",
           title=f"slides table (q2 = {c2:.0f}): order broken")
    ax.legend(fontsize=7)
    ax_err.set(xscale="log", yscale="log", xlabel="ε", ylabel="total squared error",
               title="slides table (q1 = 0, on the boundary): projection helps")
    ax_err.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    return fig


def figure_isotonic(epsilon: float = 0.01, seed: int = SEED):
    r = bmi.tall_counts_isotonic_trials(epsilon, 2000, seed)
    fig, (ax,) = new_figure(1, width=6.5, height=3.6)
    ax.plot(bmi.TALL_THRESHOLDS_M, r["truth"], "k-", label="true # at least h tall")
    ax.plot(bmi.TALL_THRESHOLDS_M, r["noisy"][0], "o", color=COLORS["laplace"], ms=4,
            label=f"noisy, Lap({r['truth'].size}/ε) each")
    ax.plot(bmi.TALL_THRESHOLDS_M, r["fitted"][0], "s-", color=COLORS["analytic"], ms=4,
            label="isotonic fit (non-increasing)")
    ax.set(xlabel="height h (m)", ylabel="count",
           title=f"ordering constraint: one release at ε = {epsilon:g}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def figure_contingency(epsilon: float = 1.0, seed: int = SEED, trials: int = 20_000):
    """[Hu]'s epsilon/(d - 1) against parallel composition, total error over the d cells."""
    fig, (ax,) = new_figure(1, width=6.5, height=3.6)
    styles = {"derived_last": ("laplace", "o"), "parallel_add_remove": ("analytic", "s"),
              "parallel_replace": ("zcdp", "^")}
    for method, neighbours in contingency.CONTINGENCY_METHODS.items():
        color, marker = styles[method]
        line = _line(ax, color=COLORS[color], marker=marker, label=f"{method} ({neighbours})")
        est = [mean_ci(contingency.contingency_squared_errors(np.full(d, 50.0), epsilon, method, trials,
                                                              rng=seed + d), LEVEL) for d in CONTINGENCY_D]
        theory = contingency.contingency_expected_total_error(CONTINGENCY_D, epsilon, method)
        line.update(CONTINGENCY_D, theory, CONTINGENCY_D, Estimate.stack(est))
    ax.relim()
    ax.autoscale_view()
    ax.set(yscale="log", xlabel="number of cells d", ylabel="total squared error",
           title=f"contingency table with d cells, ε = {epsilon:g}")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    return fig


def figure_subsampling(ps=(0.1, 0.3)):
    """The slide's 2 p eps against the exact ln(1 + p (e^eps - 1))."""
    fig, (ax,) = new_figure(1, width=6.5, height=3.6)
    eps = np.linspace(0.01, 4, 300)
    for p, color in zip(ps, ("laplace", "analytic"), strict=True):
        ax.plot(eps, subsampling_epsilon(eps, p), color=COLORS[color], label=f"exact, p = {p}")
        ax.plot(eps, 2 * p * eps, "--", color=COLORS[color], label=f"slide: 2pε, p = {p}")
        cross = subsampling_slide_claim_fails_above(p)
        ax.axvline(cross, color=COLORS[color], ls=":", lw=1)
        ax.annotate(f"fails beyond ε ≈ {cross:.2f}", (cross, 2 * p * cross), fontsize=7, xytext=(5, -15),
                    textcoords="offset points")
    ax.set(xlabel="ε of the mechanism", ylabel="ε after subsampling",
           title="subsampling: slide's 2pε against the exact ε")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def figures() -> dict[str, object]:
    return {"02_bmi_error": figure_bmi_error(),
            "02_bmi_error_replace": figure_bmi_error(neighbours="replace"),
            "02_inference": figure_inference(), "02_isotonic": figure_isotonic(),
            "02_contingency": figure_contingency(), "02_subsampling": figure_subsampling()}


PANELS = (
    widgets.PanelCase("02 BMI panel (epsilon, algorithm, neighbours)", bmi_panel,
                      {"epsilon": list(widgets.BENCH_EPSILONS[:8]),
                       "algorithm": ["Algorithm 1", "Algorithm 2", "both"],
                       "neighbours": ["replace", "add_remove"]},
                      widgets.BrowserStep(0, "epsilon", widgets.EPSILON_STEP, f"ε = {widgets.EPSILON_STEP}")),
)
