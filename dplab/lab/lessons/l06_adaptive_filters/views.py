"""Lesson 6, composition theorems, privacy filters and noise reduction: figures and the panel (notebook
``notebooks/06_adaptive_filters.ipynb`` and ``python -m dplab figures`` both call these functions)."""

from __future__ import annotations

import numpy as np

from dplab.accounting import BasicFilter, ZCDPFilter, epsilons, filter_trace
from dplab.lab import plots
from dplab.lab import widgets as w
from dplab.lab.lessons.l06_adaptive_filters import report as lesson
from dplab.lab.plots import ACCOUNTANT_STYLES, COLORS, PALETTE, new_figure, value_ticks
from dplab.mechanisms import Gaussian
from dplab.mechanisms import noise_reduction as nr
from dplab.simulate import Estimate, mean_ci

METHOD_COLORS = {"oracle": "0.55", "brownian": COLORS["zcdp"], "gaussian_doubling": COLORS["analytic"],
                 "gaussian_halving": PALETTE[5], "fixed": COLORS["classical"],
                 "laplace_noise_reduction": COLORS["laplace"], "laplace_doubling": COLORS["bound"]}
PANEL_METHODS = ("oracle", "brownian", "gaussian_doubling", "fixed", "laplace_noise_reduction")
PANEL_EPSILONS = tuple(float(e) for e in np.round(np.geomspace(0.25, 4.0, 7), 3))


def figure_composition():
    """Total epsilon of k eps0-DP mechanisms at delta = 1e-6 by each accountant, with the external
    reference values and Laplace's own privacy loss distribution at k = 1000."""
    ks = np.unique(np.round(np.geomspace(1, 10_000, 40)).astype(int))
    curves = [epsilons(lesson.STEP, int(k), lesson.DELTA, lesson.ACCOUNTANTS) for k in ks]
    fig, (ax,) = new_figure(1, width=7.5, height=4.2)
    for name in (accountant.name for accountant in lesson.ACCOUNTANTS):
        color, ls = ACCOUNTANT_STYLES[name]
        ax.plot(ks, [c[name] for c in curves], ls, color=color, label=name,
                lw=2.4 if name in ("optimal (KOV)", "basic") else 1.6, zorder=3 if name == "basic" else 2)
    for name, values in lesson.REFERENCE.items():
        ax.plot(lesson.REFERENCE_K, values, "x", color=ACCOUNTANT_STYLES[name][0], ms=8, mew=2)
    ax.plot([], [], "kx", ms=8, mew=2, label="reference values (dp-accounting, autodp; KOV: exact sum)")
    ax.plot([1000], [lesson.LAPLACE_PLD_1000], "*", color=COLORS["laplace"], ms=12, zorder=4,
            label=f"Laplace's own privacy loss distribution, k = 1000: {lesson.LAPLACE_PLD_1000}")
    optimal = epsilons(lesson.STEP, 1000, lesson.DELTA, lesson.ACCOUNTANTS)["optimal (KOV)"]
    ax.annotate(f"k = 1000: optimal {optimal:.2f},\nLaplace's own {lesson.LAPLACE_PLD_1000}",
                xy=(1000, lesson.LAPLACE_PLD_1000), xytext=(1500, 3.0), fontsize=7,
                arrowprops={"arrowstyle": "->", "lw": 0.8})
    ax.set(xscale="log", yscale="log", xlabel="number of mechanisms k", ylabel="total ε at δ = 10⁻⁶",
           title=f"composing k mechanisms of ε₀ = {lesson.EPS0:g} each")
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def _filter_panel(ax, costs, trace, budget: float, unit: str, title: str) -> None:
    idx, costs, accepted = np.arange(1, len(costs) + 1), np.array(costs), np.array([ok for ok, _ in trace])
    ax.bar(idx[accepted], costs[accepted], color=COLORS["classical"], label="request accepted")
    ax.bar(idx[~accepted], costs[~accepted], color=COLORS["zcdp"], alpha=0.6, hatch="//",
           label="request refused (and every one after)")
    ax.step(idx, [spent for _, spent in trace], where="mid", color="k", lw=1.5, label=f"{unit} spent")
    ax.axhline(budget, color="k", ls="--", lw=1, label=f"budget {budget:g}")
    ax.set(xticks=idx, xlabel="request, in order", ylabel=unit, title=title, ylim=(0, budget * 1.75))
    ax.legend(fontsize=7, loc="upper left")


def figure_filters(seed: int = lesson.SEED):
    """Left: a basic filter on an adaptive sequence. Right: a zCDP filter on adaptively chosen Gaussians."""
    fig, (ax_basic, ax_zcdp) = new_figure(2, width=5.2, height=3.7)
    trace = filter_trace(BasicFilter(1.0), lesson.ADAPTIVE_COSTS)
    _filter_panel(ax_basic, lesson.ADAPTIVE_COSTS, trace, 1.0, "ε", "basic filter, budget ε = 1")
    zf = ZCDPFilter.from_approx_dp(1.0, lesson.DELTA)
    # the analyst doubles rho (sigma / sqrt 2) while the answer is too noisy, then asks for less
    costs = [zf.rho * fraction for fraction in (1 / 16, 1 / 8, 1 / 4, 1 / 2, 1 / 4, 1 / 32)]
    trace = filter_trace(zf, [Gaussian(1.0, 1 / np.sqrt(2 * cost)) for cost in costs])
    _filter_panel(ax_zcdp, costs, trace, zf.rho, "ρ", f"zCDP filter, ρ = {zf.rho:.4f} (ε = 1, δ = 10⁻⁶)")
    fig.tight_layout()
    return fig


def figure_noise_reduction(seed: int = lesson.SEED, paths: int = 6):
    """Left: Laplace noise reduction, released values level by level (flat steps: the same noise
    kept). Right: Brownian noise reduction, the noise W_t as t decreases, with its 95% band."""
    fig, (ax_lap, ax_bm) = new_figure(2, width=5.2, height=3.7)
    eps = lesson.LAPLACE_EPSILONS
    ax_lap.plot(eps, nr.laplace_noise_reduction(100.0, 1.0, eps, size=paths, rng=seed).T, "o-", ms=4, lw=1.2)
    ax_lap.plot([], [], "o-", color="0.4", ms=4, lw=1.2, label="a run, one colour each (flat: noise kept)")
    ax_lap.axhline(100.0, color="k", ls="--", lw=1, label="true value 100")
    ax_lap.set(xscale="log", ylabel="released value", xlabel="ε of the release (rising: less noise)",
               title=f"Laplace noise reduction, {paths} runs")
    value_ticks(ax_lap.xaxis, eps)
    ax_lap.legend(fontsize=7)
    times = np.geomspace(lesson.BROWNIAN_TIMES[0], lesson.BROWNIAN_TIMES[-1] / 8, 200)
    ax_bm.plot(times, nr.brownian_noise_reduction(0.0, 1.0, times, size=paths, rng=seed + 1).T, "-", lw=1.0)
    ax_bm.fill_between(times, -1.96 * np.sqrt(times), 1.96 * np.sqrt(times), color="0.85", label="±1.96 √t")
    ax_bm.set(xscale="log", xlim=(times[0], times[-1]), xlabel="time t = variance (decreasing: less noise)",
              ylabel="released noise W_t", title="Brownian noise reduction, sampled backwards")
    value_ticks(ax_bm.xaxis, times[0] / 2.0 ** np.arange(8))  # every time from 8 down to 1/16 labelled
    ax_bm.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def figure_martingale(seed: int = lesson.SEED):
    """E[exp(λL − λ(λ+1)ρ_T)]: 1 for the right loss and stopping rule (left), not for wrong ones (right); the
    bars at the level of the notebook's asserts (lesson.LEVEL)."""
    lams = np.array([0.25, 0.5, 0.75, 1.0])
    fig, (ax, ax_wrong) = new_figure(2, width=5.2, height=3.7)
    peek = lesson.martingale_draws(seed, peek=True)
    cases = ((ax, lambda lam: lesson.martingale_terms(lam, seed=seed), COLORS["classical"],
              "L = Δ²/(2T) − Δ W_T/T, stop at output ≥ 1"),
             (ax_wrong, lambda lam: lesson.martingale_terms(lam, wrong=True, seed=seed), COLORS["zcdp"],
              "L without its Δ²/(2T) term"),
             (ax_wrong, lambda lam: nr.brownian_martingale_terms(*peek, 1.0, lam), COLORS["bound"],
              "stop when the next output is larger (peeks)"))
    for axis, terms, color, label in cases:
        estimates = Estimate.stack([mean_ci(terms(float(lam)), lesson.LEVEL) for lam in lams])
        plots.simulated_points(axis, lams, estimates, color=color, label=label, confidence=lesson.LEVEL)
    for axis, ylim, title, loc in ((ax, (0.97, 1.03), "the identity holds (2·10⁵ stopped paths)", 3),
                                   (ax_wrong, (0.4, 1.55), "and fails when the loss or rule is wrong", 2)):
        axis.axhline(1.0, color="k", ls="--", lw=1, label="the identity: 1")
        axis.set(xlabel="λ", ylabel="E[exp(λL − λ(λ+1)ρ_T)]", xlim=(0.1, 1.1), ylim=ylim, title=title)
        axis.legend(fontsize=7, loc=loc)
    fig.tight_layout()
    return fig


def figure_experiment():
    """The lab's version of the paper's experiment: counts per method and budget; at eps = 1, quality."""
    table = lesson.released_table()
    fig, (ax, ax_quality) = new_figure(2, width=5.4, height=4.6)
    methods, x = lesson.METHODS, np.arange(len(lesson.EPSILONS))
    labels = [m.replace("_", " ") for m in methods]
    plots.grouped_bars(ax, x, [table[m] for m in methods], 0.8 / len(methods),
                       colors=[METHOD_COLORS[m] for m in methods], labels=labels)
    ax.set(xticks=x, xticklabels=[f"ε = {e:g}" for e in lesson.EPSILONS], xlabel="budget (δ = 10⁻⁶)",
           ylabel=f"counts released (of 1000, mean of {lesson.REPEATS})",
           title=f"counts released (release rule met), τ = {lesson.TARGET:g}")
    ax.legend(fontsize=7, loc="upper left")
    runs = {m: [lesson.experiment(1.0, repeat=r, method=m) for r in range(lesson.REPEATS)] for m in methods}
    y = np.arange(len(methods))
    for dy, field, color, label in ((-0.2, "within_target", COLORS["classical"], "share released within τ"),
                                    (0.2, "spent", "0.6", "share of the budget spent")):
        share = [np.mean([getattr(r, field) for r in runs[m]]) for m in methods]
        ax_quality.barh(y + dy, share, height=0.4, color=color, label=label)
    ax_quality.vlines(0.9, y[1] - 0.45, y[1] + 0.05, "k", ":", label="0.9: brownian's check")  # y[1]: its row
    ax_quality.set(yticks=y, yticklabels=[m.replace("_", " ") for m in methods], xlim=(0, 1.05),
                   xlabel="share", title="at ε = 1: accurate, and what it spent")
    ax_quality.invert_yaxis()
    ax_quality.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.4, -0.12), ncol=2)
    fig.tight_layout()
    return fig


class SweepView:
    """Counts released against epsilon per method (one sweep per delta and target); epsilon moves a marker."""

    def __init__(self):
        self.fig, (ax,) = new_figure(1, width=7.5, height=4.0)
        self.lines = {m: ax.plot(PANEL_EPSILONS, np.zeros(len(PANEL_EPSILONS)), "o-", ms=3,
                                 color=METHOD_COLORS[m], label=m.replace("_", " "))[0] for m in PANEL_METHODS}
        self.here = ax.axvline(1.0, color="k", lw=0.8, ls="--")
        self.text = ax.text(0.02, 0.96, "", transform=ax.transAxes, va="top", fontsize=9)
        ax.set(xscale="log", xlim=(0.22, 4.5), ylim=(0, 1050), xlabel="budget ε (δ fixed)",
               ylabel="counts released (of 1000)",
               title="the lab's reconstruction of the experiment: counts released (rule met)")
        value_ticks(ax.xaxis, PANEL_EPSILONS)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(0.0, 0.9))
        self.fig.tight_layout()
        self.dynamic = [*self.lines.values(), self.here, self.text]

    def update(self, values: dict, seed: int) -> str:
        eps, delta, target = float(values["epsilon"]), float(values["delta"]), float(values["target"])
        sweep = lesson.released_table(PANEL_EPSILONS, 1, delta, target, PANEL_METHODS)  # one run each
        for method, line in self.lines.items():
            line.set_ydata(sweep[method])
        self.here.set_xdata([eps, eps])
        self.text.set_text(here := f"ε = {eps:.3g}, δ = {delta:.0e}, τ = {target:g}")
        j = PANEL_EPSILONS.index(eps)
        counts = ", ".join(f"{m.replace('_', ' ')} {int(sweep[m][j])}" for m in PANEL_METHODS)
        return (f"{here}: counts released: {counts}. "
                "<i>ε follows the drag along the precomputed sweep; δ and τ rerun the experiment "
                "(5 to 10 s) and update on release.</i>"
                + w.promise(epsilon=eps, delta=delta))  # the filters guarantee (eps, delta)-DP


def figure_sweep_panel(epsilon: float = 1.0, delta: float = lesson.DELTA, target: float = lesson.TARGET):
    return w.view_figure(SweepView, {"epsilon": epsilon, "delta": delta, "target": target}, lesson.SEED)


def sweep_panel(seed: int = lesson.SEED) -> w.SliderPanel:
    return w.view_panel(SweepView, {
        "epsilon": w.value_slider(PANEL_EPSILONS, 1.0, "epsilon"),
        "delta": w.value_slider((1e-8, 1e-6, 1e-4), lesson.DELTA, "delta", fmt="{:.0e}",
                                continuous_update=False),
        "target": w.value_slider((0.05, 0.1, 0.2), lesson.TARGET, "target τ", continuous_update=False)}, seed)


def figures() -> dict[str, object]:
    return {"06_composition": figure_composition(), "06_filters": figure_filters(),
            "06_noise_reduction": figure_noise_reduction(), "06_martingale": figure_martingale(),
            "06_experiment": figure_experiment(), "06_sweep_panel": figure_sweep_panel()}


PANELS = (w.PanelCase("06 sweep panel (epsilon, along the precomputed sweep)", sweep_panel,
                    {"epsilon": list(PANEL_EPSILONS) * 2}, w.BrowserStep(0, "epsilon", "1.587", "ε = 1.59")),)
