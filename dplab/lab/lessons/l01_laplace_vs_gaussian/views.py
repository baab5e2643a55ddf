"""Lesson 1, Laplace vs Gaussian: its figures and widget panels (one View per panel). The notebook and
``python -m dplab figures`` both call these functions, so the stored figures and the notebook agree."""

from __future__ import annotations

import math
from functools import partial

import numpy as np
from scipy import stats

from dplab._checks import check_epsilon
from dplab.accounting import advanced_composition_per_step
from dplab.lab import widgets
from dplab.lab.lessons.l01_laplace_vs_gaussian import report as lesson
from dplab.lab.plots import COLORS, TheoryVsEmpirical, new_figure
from dplab.mechanisms import laplace
from dplab.mechanisms.gaussian import gaussian_laplace_crossover_k
from dplab.simulate import Estimate, bonferroni_confidence, standard_draw, standard_errors

EPS_LINE = np.geomspace(0.05, 5.0, 200)
EPS_POINTS = np.geomspace(0.08, 4.0, 10)
K_MAX = 200
K_LINE = np.arange(1, K_MAX + 1)
K_POINTS = np.array([1, 2, 5, 10, 20, 50, 100, 200])
#: the level of the notebook's checks (19 intervals, family-wise 99%): every bar is drawn at it
LEVEL = bonferroni_confidence(19, family_error=0.01)


#: a theory curve with simulated dots whose bars (and legend) are at the notebook's LEVEL
_line = partial(TheoryVsEmpirical, confidence=LEVEL)


def figure_laplace_densities(scales=(0.5, 1.0, 2.0, 4.0), location: float = -5.0):
    """Lap(0, b) densities for several b = Delta/epsilon, and Lap(mu, 1) with mu = -5: the
    location parameter shifts the peak ([Hu]'s Laplace(-5, 1) curve)."""
    fig, (ax,) = new_figure(1, width=6.0)
    x = np.linspace(-10, 10, 801)
    for b in scales:
        ax.plot(x, stats.laplace.pdf(x, scale=b), label=f"μ = 0, b = {b:g}  (e.g. Δ = 1, ε = {1 / b:g})")
    ax.plot(x, stats.laplace.pdf(x, loc=location, scale=1.0), "k--", lw=1.2,
            label=f"μ = {location:g}, b = 1: the location μ moves the peak")
    ax.set(xlabel="x", ylabel="density", title="Laplace densities  p(x) = exp(-|x - μ|/b) / (2b)")
    ax.legend(fontsize=7.5, loc="upper left")
    fig.tight_layout()
    return fig


def figure_laplace_vs_normal():
    """Laplace(0, sqrt(1/2)) and N(0, 1): equal variance, different tails ([Hu])."""
    fig, (ax, ax_tail) = new_figure(2)
    x = np.linspace(-4, 4, 801)
    ax.plot(x, stats.laplace.pdf(x, scale=math.sqrt(0.5)), color=COLORS["laplace"],
            label="Laplace(0, √(1/2))")
    ax.plot(x, stats.norm.pdf(x), color=COLORS["normal"], label="N(0, 1)")
    ax.set(xlabel="x", ylabel="density", title="same variance 1")
    ax.legend(fontsize=8)
    t = np.linspace(0, 5, 201)
    lap, norm = lesson.tail_probabilities(t)
    ax_tail.semilogy(t, lap, color=COLORS["laplace"], label="Laplace: exp(-√2 t)")
    ax_tail.semilogy(t, norm, color=COLORS["normal"], label="normal: 2Φ(-t)")
    ax_tail.set(xlabel="t", ylabel="Pr[|Y| ≥ t]", title="tails (log scale)", ylim=(1e-7, 1.5))
    ax_tail.legend(fontsize=8)
    fig.tight_layout()
    return fig


class LaplaceErrorView:
    """MSE and MAE of Lap(1/epsilon) against epsilon, and the noise histogram at one epsilon."""

    BINS = np.linspace(-8, 8, 161)

    def __init__(self):
        self.fig, (ax, ax_hist) = new_figure(2, width=5.2, height=3.6)
        self.mse = _line(ax, color=COLORS["laplace"], label="MSE 2/ε²")
        self.mae = _line(ax, color=COLORS["bound"], label="MAE 1/ε", marker="s")
        self.here = ax.axvline(1.0, color="k", lw=0.8, ls=":")
        ax.set(xscale="log", yscale="log", xlim=(0.05, 5), ylim=(0.05, 2000),
               xlabel="ε", ylabel="error (count, Δ = 1)", title="Laplace error against ε")
        ax.legend(fontsize=7, loc="upper right")
        self.hist = ax_hist.stairs(np.full(len(self.BINS) - 1, 1e-9), self.BINS,
                                   color=COLORS["laplace"], baseline=1e-9, label="simulated noise")
        (self.density,) = ax_hist.plot([], [], color="k", lw=1.2, label="Lap(0, 1/ε) density")
        self.tails = [ax_hist.axvline(0, color=COLORS["bound"], ls="--", lw=1) for _ in range(2)]
        self.tails[0].set_label(f"±(1/ε) ln(1/β), β = {lesson.BETA}")
        ax_hist.set(xlim=(-8, 8), yscale="log", ylim=(1e-4, 5), xlabel="noise",
                    ylabel="density (log scale)", title="noise of 200,000 releases at the chosen ε")
        ax_hist.legend(fontsize=7, loc="upper left")
        self.fig.tight_layout()
        self.dynamic = [*self.mse.artists, *self.mae.artists, self.here, self.hist, self.density, *self.tails]

    def update(self, values: dict, seed: int) -> str:
        eps = check_epsilon(values["epsilon"])
        errs = standard_errors("laplace", lesson.TRIALS, seed=seed)
        self.mse.update(EPS_LINE, 2 / EPS_LINE**2, EPS_POINTS, errs.mse(1 / EPS_POINTS, LEVEL))
        self.mae.update(EPS_LINE, 1 / EPS_LINE, EPS_POINTS, errs.mae(1 / EPS_POINTS, LEVEL))
        self.here.set_xdata([eps, eps])
        b, t = laplace.laplace_scale(1, eps), laplace.laplace_tail_bound(1, eps, lesson.BETA)
        # the signed standard Laplace draw behind the histogram (cached, read-only)
        counts, _ = np.histogram(b * standard_draw("laplace", lesson.TRIALS, seed + 1), self.BINS)
        density = counts / (lesson.TRIALS * (self.BINS[1] - self.BINS[0]))
        self.hist.set_data(np.maximum(density, 1e-9), self.BINS)
        x = np.linspace(-8, 8, 401)
        self.density.set_data(x, stats.laplace.pdf(x, scale=b))
        for line, sign in zip(self.tails, (1, -1), strict=True):
            line.set_xdata([sign * t, sign * t])
        mse, mae, tail = errs.mse(b, LEVEL), errs.mae(b, LEVEL), errs.exceed(b, t, LEVEL)
        return (f"<b>ε = {eps:.3g}</b> (scale b = {b:.3g}) &nbsp; "
                f"MSE: theory {laplace.laplace_mse(1, eps):.4g}, simulated {float(mse.estimate):.4g} &nbsp; "
                f"MAE: theory {laplace.laplace_mae(1, eps):.4g}, simulated {float(mae.estimate):.4g} &nbsp; "
                f"Pr[|err| ≥ {t:.3g}]: theory {lesson.BETA}, simulated {float(tail.estimate):.4f}"
                + widgets.promise(epsilon=eps))


def figure_laplace_error(epsilon: float = 1.0, seed: int = lesson.SEED):
    fig = widgets.view_figure(LaplaceErrorView, {"epsilon": epsilon}, seed)
    fig.axes[1].set_title(f"noise of 200,000 releases at ε = {epsilon:g}")
    return fig


def laplace_error_panel(seed: int = lesson.SEED) -> widgets.SliderPanel:
    return widgets.view_panel(LaplaceErrorView, {"epsilon": widgets.epsilon_slider(1.0)}, seed)


class KQueryView:
    """Per-coordinate MSE of k queries: Laplace (L1, k/ε) against three Gaussian calibrations."""

    def __init__(self):
        self.fig, (ax,) = new_figure(1, width=8.6, height=3.8)
        self.lines = {
            "laplace": _line(ax, color=COLORS["laplace"], label="Laplace 2(k/ε)²"),
            "analytic": _line(ax, color=COLORS["analytic"], label="Gaussian, analytic"),
            # zCDP first and wide, classical dashed on top: at small delta they nearly coincide
            "zcdp": _line(ax, color=COLORS["zcdp"], label="Gaussian, zCDP", marker="s"),
            "classical": _line(ax, color=COLORS["classical"], theory_style="--", marker="^",
                                           label="Gaussian, classical (ε < 1 only; ≈ zCDP at small δ)"),
        }
        self.lines["zcdp"].theory.set_linewidth(4)
        self.lines["zcdp"].theory.set_alpha(0.45)
        self.lines["zcdp"].points.set_markerfacecolor("none")
        self.cross = ax.axvline(1, color="k", lw=1, ls="--", label="crossover k")
        self.here = ax.axvline(1, color="k", lw=0.8, ls=":", label="chosen k")
        ax.set(xscale="log", yscale="log", xlim=(0.9, K_MAX * 1.1), ylim=(1e-2, 1e8),
               xlabel="number of queries k", ylabel="MSE per query (Δ = 1)")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        ax.set_title("per-query MSE of k counts at the chosen ε, δ")
        self.fig.tight_layout()
        self.dynamic = [a for line in self.lines.values() for a in line.artists] + [self.cross, self.here]

    def update(self, values: dict, seed: int) -> str:
        eps, delta, k = values["epsilon"], values["delta"], int(values["k"])
        sigmas = lesson.k_query_sigmas(eps, delta)
        lap = standard_errors("laplace", lesson.TRIALS, seed=seed)
        gauss = standard_errors("gaussian", lesson.TRIALS, seed=seed + 1)
        self.lines["laplace"].update(K_LINE, 2 * (K_LINE / eps) ** 2, K_POINTS,
                                     lap.mse(K_POINTS / eps, LEVEL))
        for name in ("analytic", "classical", "zcdp"):
            s = sigmas[name]
            self.lines[name].set_visible(s is not None)
            if s is not None:
                self.lines[name].update(K_LINE, K_LINE * s**2, K_POINTS,
                                        gauss.mse(np.sqrt(K_POINTS) * s, LEVEL))
        cross = gaussian_laplace_crossover_k(eps, delta)
        self.cross.set_xdata([cross, cross])
        self.here.set_xdata([k, k])
        lap_k, gauss_k = 2 * (k / eps) ** 2, k * sigmas["analytic"] ** 2
        winner = "Gaussian (analytic)" if gauss_k < lap_k else "Laplace"
        return (f"<b>k = {k}</b>, ε = {eps:.3g}, δ = {delta:.0e}: per-query MSE Laplace {lap_k:.4g}, "
                f"analytic Gaussian {gauss_k:.4g} → {winner} wins; crossover k = {cross}"
                # Laplace is eps-DP: odds. The analytic Gaussian's exact guarantee is mu-GDP with
                # mu = sqrt(k) / (sqrt(k) sigma_1) = 1 / sigma_1 (L2 sensitivity sqrt(k)): a test.
                + widgets.promise(epsilon=eps, label="What the Laplace release promises")
                + widgets.promise(mu=1 / sigmas["analytic"], label="What the analytic Gaussian promises"))


def figure_k_queries(epsilon: float = 0.5, delta: float = 1e-6, k: int = 10, seed: int = lesson.SEED):
    fig = widgets.view_figure(KQueryView, {"epsilon": epsilon, "delta": delta, "k": k}, seed)
    fig.axes[0].set_title(f"per-query MSE of k counts, ε = {epsilon:g}, δ = {delta:g}")
    fig.axes[0].set_ylim(3, 1e6)  # the panel's range covers every slider position; this figure one
    return fig


def k_query_panel(seed: int = lesson.SEED) -> widgets.SliderPanel:
    return widgets.view_panel(KQueryView, {"epsilon": widgets.epsilon_slider(0.5),
                                           "delta": widgets.delta_slider(1e-6), "k": widgets.k_slider(10)},
                              seed)


def figure_accuracy_k(epsilon: float = 1.0, delta: float = 1e-6, beta: float = lesson.BETA,
                      seed: int = lesson.SEED):
    """alpha against k: [Roth11]'s bounds (pure and (ε, δ)), the exact alpha, simulation."""
    fig, (ax,) = new_figure(1, width=7.0, height=3.8)
    ks = np.unique(np.geomspace(1, 1000, 60).astype(int))
    # wide and pale: the exact alpha (dashed) nearly covers it, the union bound being nearly tight
    ax.plot(ks, laplace.laplace_accuracy_k(1, ks, epsilon, beta), color=COLORS["laplace"], lw=5,
            alpha=0.35, label="bound, pure: (k/ε) ln(k/β)")
    if epsilon <= 1:
        ax.plot(ks, laplace.laplace_accuracy_k(1, ks, epsilon, beta, delta),
                color=COLORS["bound"], label="bound, (ε, δ), [Roth11]'s split: (√(8k ln(1/δ))/ε) ln(k/β)")
        ax.axvline(8 * math.log(1 / delta), color=COLORS["bound"], ls=":", lw=1, label="k = 8 ln(1/δ)")
    exact_step = np.array([advanced_composition_per_step(epsilon, int(k), delta) for k in ks])
    ax.plot(ks, np.log(ks / beta) / exact_step, color=COLORS["zcdp"], lw=1.2,
            label="bound, (ε, δ), advanced composition solved exactly")
    exact = _line(ax, color="k", label="exact α, pure", theory_style="--")
    quantiles = [standard_errors("laplace", lesson.ACC_TRIALS, k=int(k), reduce="max", seed=seed)
                 .quantile(laplace.laplace_scale_k(1, int(k), epsilon), 1 - beta, LEVEL)
                 for k in lesson.ACC_K]
    exact_alpha = laplace.laplace_accuracy_k_exact(1, ks, epsilon, beta)
    exact.update(ks, exact_alpha, lesson.ACC_K, Estimate.stack(quantiles))
    ax.set(xscale="log", yscale="log", xlabel="number of queries k",
           ylabel=f"α: all k errors ≤ α w.p. ≥ 1 - β (β = {beta})",
           title=f"(α, β)-accuracy of Laplace on k queries, ε = {epsilon:g}, δ = {delta:.0e}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def figures() -> dict[str, object]:
    """The figures ``make figures`` writes, by file stem."""
    return {"01_laplace_densities": figure_laplace_densities(),
            "01_laplace_vs_normal": figure_laplace_vs_normal(), "01_laplace_error": figure_laplace_error(),
            "01_k_queries": figure_k_queries(), "01_accuracy_k": figure_accuracy_k()}


PANELS = (
    widgets.PanelCase("01 error panel (epsilon)", laplace_error_panel,
                      {"epsilon": list(widgets.BENCH_EPSILONS)}),
    widgets.PanelCase("01 k panel (epsilon, delta, k)", k_query_panel,
                      {"epsilon": list(widgets.BENCH_EPSILONS[:6]), "delta": [1e-3, 1e-9, 1e-6],
                       "k": [5, 50, 150]},
                      widgets.BrowserStep(1, "k", "11", "k = 11")),
)
