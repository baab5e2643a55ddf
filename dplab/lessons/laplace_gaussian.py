"""Lesson 1, Laplace vs Gaussian: its figures, widget panels, report rows and exercises.

Notebook ``notebooks/01_laplace_vs_gaussian.ipynb`` and ``python -m dplab figures``
both call these functions, so the stored figures and the notebook show the same thing.
Seeds 003 (Laplace slides), 004 (Theorem 3), 000 (Laplace error) and 002 (Gaussian, zCDP).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import special, stats

from dplab._checks import check_epsilon
from dplab.composition import approx_dp_to_zcdp, zcdp_to_approx_dp
from dplab.datasets import load_yrbss, table_size
from dplab.exercises import Exercise
from dplab.mechanisms import (
    gaussian_delta,
    gaussian_laplace_crossover_k,
    gaussian_mechanism,
    gaussian_mse,
    gaussian_sigma,
    gaussian_sigma_zcdp,
    laplace_accuracy_k,
    laplace_mae,
    laplace_mechanism,
    laplace_mse,
    laplace_scale,
    laplace_scale_k,
    laplace_tail_bound,
)
from dplab.plots import COLORS, TheoryVsEmpirical, new_figure
from dplab.report import ReportRow
from dplab.simulate import Estimate, mean_ci, proportion_ci, standard_errors, standard_noise
from dplab.widgets import SliderPanel, delta_slider, epsilon_slider, k_slider

NOTEBOOK = "01_laplace_vs_gaussian.ipynb"
PREFIX = "01"
SEED = 2026
TRIALS = 200_000
EPS_LINE = np.geomspace(0.05, 5.0, 200)
EPS_POINTS = np.geomspace(0.08, 4.0, 10)
K_MAX = 200
K_LINE = np.arange(1, K_MAX + 1)
K_POINTS = np.array([1, 2, 5, 10, 20, 50, 100, 200])
HEIGHT_CLIP = (1.2, 2.1)  # metres: data-independent clipping bounds for the mean
TALL = 1.80  # metres: the count query counts students at least this tall
BETA = 0.05


# ------------------------------------------------------------ static figures


def figure_laplace_densities(scales=(0.5, 1.0, 2.0, 4.0)):
    """Lap(0, b) densities for several b = Delta/epsilon (seed 003)."""
    fig, (ax,) = new_figure(1, width=6.0)
    x = np.linspace(-10, 10, 801)
    for b in scales:
        ax.plot(x, stats.laplace.pdf(x, scale=b), label=f"b = {b:g}  (e.g. Δ = 1, ε = {1 / b:g})")
    ax.set(xlabel="noise x", ylabel="density", title="Laplace densities  p(x) = exp(-|x|/b) / (2b)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def tail_probabilities(t: float) -> tuple[float, float]:
    """Pr[|X| >= t] for X ~ Lap(0, 1/sqrt 2) and X ~ N(0, 1): both have variance 1."""
    return math.exp(-t * math.sqrt(2)), float(2 * special.ndtr(-t))


def figure_laplace_vs_normal():
    """Laplace(0, sqrt(1/2)) and N(0, 1): equal variance, different tails (seed 003)."""
    fig, (ax, ax_tail) = new_figure(2)
    x = np.linspace(-4, 4, 801)
    b = math.sqrt(0.5)
    ax.plot(x, stats.laplace.pdf(x, scale=b), color=COLORS["laplace"], label="Laplace(0, √(1/2))")
    ax.plot(x, stats.norm.pdf(x), color=COLORS["normal"], label="N(0, 1)")
    ax.set(xlabel="x", ylabel="density", title="same variance 1")
    ax.legend(fontsize=8)
    t = np.linspace(0, 5, 201)
    lap, norm = np.vectorize(tail_probabilities)(t)
    ax_tail.semilogy(t, lap, color=COLORS["laplace"], label="Laplace: exp(-√2 t)")
    ax_tail.semilogy(t, norm, color=COLORS["normal"], label="normal: 2Φ(-t)")
    ax_tail.set(xlabel="t", ylabel="Pr[|X| ≥ t]", title="tails (log scale)", ylim=(1e-7, 1.5))
    ax_tail.legend(fontsize=8)
    fig.tight_layout()
    return fig


# ------------------------------------------------------------ real data


def real_data_queries(table: dict[str, np.ndarray] | None = None) -> dict[str, float]:
    """The count and mean queries of the notebook with their sensitivities.

    count: # students at least 1.80 m tall; sensitivity 1 (add/remove or replace-one).
    mean: mean height clipped to [1.2, 2.1] m with n public; sensitivity (b - a)/n
    under replace-one neighbours (n is public, so add/remove does not apply).
    """
    table = load_yrbss() if table is None else table
    n = table_size(table)
    a, b = HEIGHT_CLIP
    heights = np.clip(table["height_m"], a, b)
    return {
        "n": n,
        "count": float(np.sum(table["height_m"] >= TALL)),
        "count_sensitivity": 1.0,
        "mean": float(heights.mean()),
        "mean_sensitivity": (b - a) / n,
    }


def release_real_data(epsilon: float, trials: int, seed: int = SEED) -> dict[str, np.ndarray]:
    """``trials`` independent Laplace releases of the count and the mean (epsilon each)."""
    q = real_data_queries()
    rng = np.random.default_rng(seed)
    return {
        "count": laplace_mechanism(q["count"], q["count_sensitivity"], epsilon, size=trials, rng=rng),
        "mean": laplace_mechanism(q["mean"], q["mean_sensitivity"], epsilon, size=trials, rng=rng),
    }


# ------------------------------------------------------------ panel 1: Laplace error vs epsilon


@lru_cache(maxsize=8)
def _signed_laplace(seed: int, trials: int = TRIALS) -> np.ndarray:
    return standard_noise("laplace", trials, np.random.default_rng(seed + 1))


class LaplaceErrorView:
    """MSE and MAE of Lap(1/epsilon) against epsilon, and the noise histogram at one epsilon."""

    BINS = np.linspace(-8, 8, 161)

    def __init__(self):
        self.fig, (ax, ax_hist) = new_figure(2, width=5.2, height=3.6)
        self.mse = TheoryVsEmpirical(ax, color=COLORS["laplace"], label="MSE 2/ε²")
        self.mae = TheoryVsEmpirical(ax, color=COLORS["bound"], label="MAE 1/ε", marker="s")
        self.here = ax.axvline(1.0, color="k", lw=0.8, ls=":")
        ax.set(xscale="log", yscale="log", xlim=(0.05, 5), ylim=(0.05, 2000),
               xlabel="ε", ylabel="error (count, Δ = 1)", title="Laplace error against ε")
        ax.legend(fontsize=7, loc="upper right")
        self.hist = ax_hist.stairs(np.full(len(self.BINS) - 1, 1e-9), self.BINS,
                                   color=COLORS["laplace"], baseline=1e-9, label="simulated noise")
        (self.density,) = ax_hist.plot([], [], color="k", lw=1.2, label="Lap(0, 1/ε) density")
        self.tails = [ax_hist.axvline(0, color=COLORS["bound"], ls="--", lw=1) for _ in range(2)]
        self.tails[0].set_label(f"±(1/ε) ln(1/β), β = {BETA}")
        ax_hist.set(xlim=(-8, 8), yscale="log", ylim=(1e-4, 5), xlabel="noise",
                    ylabel="density (log scale)", title="noise of one release at the chosen ε")
        ax_hist.legend(fontsize=7, loc="upper left")
        self.ax_hist = ax_hist
        self.fig.tight_layout()
        self.dynamic = [*self.mse.artists, *self.mae.artists, self.here, self.hist, self.density,
                        *self.tails]

    def update(self, values: dict, seed: int) -> str:
        eps = check_epsilon(values["epsilon"])
        errs = standard_errors("laplace", TRIALS, seed=seed)
        scales = 1 / EPS_POINTS
        self.mse.update(EPS_LINE, 2 / EPS_LINE**2, EPS_POINTS, errs.mse(scales))
        self.mae.update(EPS_LINE, 1 / EPS_LINE, EPS_POINTS, errs.mae(scales))
        self.here.set_xdata([eps, eps])
        b = laplace_scale(1, eps)
        counts, _ = np.histogram(b * _signed_laplace(seed), self.BINS)
        width = self.BINS[1] - self.BINS[0]
        dens = counts / (TRIALS * width)
        self.hist.set_data(np.maximum(dens, 1e-9), self.BINS)
        x = np.linspace(-8, 8, 401)
        pdf = stats.laplace.pdf(x, scale=b)
        self.density.set_data(x, pdf)
        t = laplace_tail_bound(1, eps, BETA)
        for line, sign in zip(self.tails, (1, -1), strict=True):
            line.set_xdata([sign * t, sign * t])
        mse, mae = errs.mse(b), errs.mae(b)
        tail = errs.exceed(b, t)
        return (
            f"<b>ε = {eps:.3g}</b> (scale b = {b:.3g}) &nbsp; "
            f"MSE: theory {laplace_mse(1, eps):.4g}, simulated {float(mse.estimate):.4g} &nbsp; "
            f"MAE: theory {laplace_mae(1, eps):.4g}, simulated {float(mae.estimate):.4g} &nbsp; "
            f"Pr[|err| ≥ {t:.3g}]: theory {BETA}, simulated {float(tail.estimate):.4f}"
        )


def figure_laplace_error(epsilon: float = 1.0, seed: int = SEED):
    view = LaplaceErrorView()
    view.update({"epsilon": epsilon}, seed)
    view.ax_hist.set_title(f"noise of one release at ε = {epsilon:g}")
    return view.fig


def laplace_error_panel(seed: int = SEED) -> SliderPanel:
    view = LaplaceErrorView()
    return SliderPanel(view.fig, view.update, {"epsilon": epsilon_slider(1.0)}, seed=seed,
                       dynamic=view.dynamic)


# ------------------------------------------------------------ panel 2: k queries


def k_query_sigmas(epsilon: float, delta: float) -> dict[str, float | None]:
    """Per-query noise std for k = 1 query of sensitivity 1 under each calibration.

    For k queries the Gaussian's L2 sensitivity is sqrt(k), so its std is
    sqrt(k) times these; Laplace's L1 sensitivity is k, so its scale is k / epsilon.
    zCDP: rho from (epsilon, delta) by the simple conversion, sigma = 1/sqrt(2 rho).
    The classical calibration exists only for epsilon < 1 (None otherwise).
    """
    return {
        "analytic": gaussian_sigma(1.0, epsilon, delta),
        "classical": gaussian_sigma(1.0, epsilon, delta, "classical") if epsilon < 1 else None,
        "zcdp": gaussian_sigma_zcdp(1.0, approx_dp_to_zcdp(epsilon, delta)),
    }


class KQueryView:
    """Per-coordinate MSE of k queries: Laplace (L1, k/ε) against three Gaussian calibrations."""

    def __init__(self):
        self.fig, (ax,) = new_figure(1, width=8.6, height=3.8)
        self.lines = {
            "laplace": TheoryVsEmpirical(ax, color=COLORS["laplace"], label="Laplace 2(k/ε)²"),
            "analytic": TheoryVsEmpirical(ax, color=COLORS["analytic"], label="Gaussian, analytic"),
            "classical": TheoryVsEmpirical(ax, color=COLORS["classical"], theory_style="--",
                                           label="Gaussian, classical (ε < 1 only)", marker="^"),
            "zcdp": TheoryVsEmpirical(ax, color=COLORS["zcdp"], label="Gaussian, zCDP", marker="s"),
        }
        self.cross = ax.axvline(1, color="k", lw=1, ls="--", label="crossover k")
        self.here = ax.axvline(1, color="k", lw=0.8, ls=":")
        ax.set(xscale="log", yscale="log", xlim=(0.9, K_MAX * 1.1), ylim=(1e-2, 1e8),
               xlabel="number of queries k",
               ylabel="MSE per query (Δ = 1)")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        ax.set_title("per-query MSE of k counts at the chosen ε, δ")
        self.ax = ax
        self.fig.tight_layout()
        self.dynamic = [a for line in self.lines.values() for a in line.artists]
        self.dynamic += [self.cross, self.here]

    def update(self, values: dict, seed: int) -> str:
        eps, delta, k = values["epsilon"], values["delta"], int(values["k"])
        sigmas = k_query_sigmas(eps, delta)
        lap = standard_errors("laplace", TRIALS, seed=seed)
        gauss = standard_errors("gaussian", TRIALS, seed=seed + 1)
        self.lines["laplace"].update(K_LINE, 2 * (K_LINE / eps) ** 2, K_POINTS,
                                     lap.mse(K_POINTS / eps))
        for name in ("analytic", "classical", "zcdp"):
            s = sigmas[name]
            self.lines[name].set_visible(s is not None)
            if s is not None:
                self.lines[name].update(K_LINE, K_LINE * s**2, K_POINTS,
                                        gauss.mse(np.sqrt(K_POINTS) * s))
        cross = gaussian_laplace_crossover_k(eps, delta)
        self.cross.set_xdata([cross, cross])
        self.here.set_xdata([k, k])
        lap_k, gauss_k = 2 * (k / eps) ** 2, k * sigmas["analytic"] ** 2
        winner = "Gaussian (analytic)" if gauss_k < lap_k else "Laplace"
        return (
            f"<b>k = {k}</b>, ε = {eps:.3g}, δ = {delta:.0e}: per-query MSE Laplace {lap_k:.4g}, "
            f"analytic Gaussian {gauss_k:.4g} → {winner} wins; crossover k = {cross}"
        )


def figure_k_queries(epsilon: float = 0.5, delta: float = 1e-6, k: int = 10, seed: int = SEED):
    view = KQueryView()
    view.update({"epsilon": epsilon, "delta": delta, "k": k}, seed)
    view.ax.set_title(f"per-query MSE of k counts, ε = {epsilon:g}, δ = {delta:g}")
    return view.fig


def k_query_panel(seed: int = SEED) -> SliderPanel:
    view = KQueryView()
    controls = {"epsilon": epsilon_slider(0.5), "delta": delta_slider(1e-6), "k": k_slider(10)}
    return SliderPanel(view.fig, view.update, controls, seed=seed, dynamic=view.dynamic)


# ------------------------------------------------------------ (alpha, beta)-accuracy for k queries

ACC_K = np.array([1, 3, 10, 30, 100, 300, 1000])
ACC_TRIALS = 20_000


def exact_alpha_k(scale: float, k: int, beta: float) -> float:
    """The exact alpha with Pr[max_i |Lap_i(b)| > alpha] = beta for k independent draws:
    1 - (1 - e^{-alpha/b})^k = beta  =>  alpha = -b ln(1 - (1 - beta)^{1/k})."""
    return -scale * math.log(-math.expm1(math.log1p(-beta) / k))


def max_error_samples(k: int, trials: int = ACC_TRIALS, seed: int = SEED) -> np.ndarray:
    """max_i |Z_i| over k standard Laplace draws, ``trials`` times."""
    return standard_errors("laplace", trials, k=k, reduce="max", seed=seed).standard_abs


def figure_accuracy_k(epsilon: float = 1.0, delta: float = 1e-6, beta: float = BETA,
                      seed: int = SEED):
    """alpha against k: seed 004's bounds (pure and (ε, δ)), the exact alpha, simulation."""
    fig, (ax,) = new_figure(1, width=7.0, height=3.8)
    ks = np.unique(np.geomspace(1, 1000, 60).astype(int))
    ax.plot(ks, [laplace_accuracy_k(1, k, epsilon, beta) for k in ks], color=COLORS["laplace"],
            label="bound, pure: (k/ε) ln(k/β)")
    if epsilon <= 1:
        ax.plot(ks, [laplace_accuracy_k(1, k, epsilon, beta, delta) for k in ks],
                color=COLORS["bound"], label="bound, (ε, δ): (√(8k ln(1/δ))/ε) ln(k/β)")
        ax.axvline(8 * math.log(1 / delta), color=COLORS["bound"], ls=":", lw=1,
                   label="k = 8 ln(1/δ)")
    exact = TheoryVsEmpirical(ax, color="k", label="exact α, pure", theory_style="--")
    quantiles = [
        standard_errors("laplace", ACC_TRIALS, k=int(k), reduce="max", seed=seed)
        .quantile(laplace_scale_k(1, int(k), epsilon), 1 - beta)
        for k in ACC_K
    ]
    exact.update(ks, [exact_alpha_k(laplace_scale_k(1, k, epsilon), k, beta) for k in ks],
                 ACC_K, Estimate.stack(quantiles))
    ax.set(xscale="log", yscale="log", xlabel="number of queries k",
           ylabel=f"α: all k errors ≤ α w.p. ≥ 1 - β (β = {beta})",
           title=f"(α, β)-accuracy of Laplace on k queries, ε = {epsilon:g}, δ = {delta:.0e}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


# ------------------------------------------------------------ figures and report rows


def figures() -> dict[str, object]:
    """The figures ``make figures`` writes, by file stem."""
    return {
        "01_laplace_densities": figure_laplace_densities(),
        "01_laplace_vs_normal": figure_laplace_vs_normal(),
        "01_laplace_error": figure_laplace_error(),
        "01_k_queries": figure_k_queries(),
        "01_accuracy_k": figure_accuracy_k(),
    }


def gaussian_privacy_loss(sigma: float, sensitivity: float, trials: int, seed: int) -> np.ndarray:
    """Samples of the privacy loss L = ln p_D(Y)/p_D'(Y) of the Gaussian mechanism,
    Y = gaussian_mechanism(0, sigma) on D (f(D) = 0) against D' (f(D') = Delta)."""
    y = gaussian_mechanism(0.0, sigma, size=trials, rng=seed)
    return (sensitivity**2 - 2 * sensitivity * y) / (2 * sigma**2)


def hockey_stick_samples(loss: np.ndarray, epsilon: float) -> np.ndarray:
    """(1 - e^{epsilon - L})_+ : its mean over Y ~ P is delta(epsilon) (the hockey-stick
    divergence; Balle & Wang 2018, Theorem 5)."""
    return np.maximum(0.0, -np.expm1(epsilon - loss))


def _crossover_brute_force(epsilon: float, delta: float) -> int:
    """The definition, tried k = 1, 2, ...: the smallest k at which the analytic Gaussian
    for L2 sensitivity sqrt(k) has a smaller variance than Laplace for L1 sensitivity k."""
    k = 1
    while gaussian_sigma(math.sqrt(k), epsilon, delta) ** 2 >= laplace_mse(k, epsilon):
        k += 1
    return k


def report_rows(seed: int = SEED) -> list[ReportRow]:
    """This lesson's rows of figures/REPORT.md (intervals computed by report.evaluate_rows)."""
    n = 400_000
    lap = standard_errors("laplace", n, seed=seed)
    eps = 0.5
    b = laplace_scale(1, eps)
    t = laplace_tail_bound(1, eps, BETA)
    q = real_data_queries()
    rel = release_real_data(1.0, n, seed)
    count_sq = (rel["count"] - q["count"]) ** 2
    mean_sq = (rel["mean"] - q["mean"]) ** 2

    def failure(k: int, delta: float | None, trials: int):
        alpha = laplace_accuracy_k(1, k, 1.0, BETA, delta)
        scale = laplace_scale_k(1, k, 1.0, delta)
        m = standard_errors("laplace", trials, k=k, reduce="max", seed=seed).standard_abs
        fails = int(np.sum(scale * m > alpha))
        return lambda c: proportion_ci(fails, trials, c)

    eps_g, delta_g = 1.0, 1e-3
    sig_a = gaussian_sigma(1, eps_g, delta_g)
    sig_c = gaussian_sigma(1, 0.5, delta_g, "classical")
    hs_a = hockey_stick_samples(gaussian_privacy_loss(sig_a, 1, 2_000_000, seed), eps_g)
    hs_c = hockey_stick_samples(gaussian_privacy_loss(sig_c, 1, 2_000_000, seed), 0.5)
    rho = 0.5
    sig_z = gaussian_sigma_zcdp(1, rho)
    z_sq = (gaussian_mechanism(0.0, sig_z, size=n, rng=seed + 7)) ** 2

    return [
        ReportRow("01.laplace_mse", "E[err²] = 2(Δ/ε)²", "003", f"Δ=1, ε={eps}, n={n}",
                  laplace_mse(1, eps), "=", interval=lambda c: lap.mse(b, c)),
        ReportRow("01.laplace_mae", "E|err| = Δ/ε", "004", f"Δ=1, ε={eps}, n={n}",
                  laplace_mae(1, eps), "=", interval=lambda c: lap.mae(b, c)),
        ReportRow("01.laplace_tail", "Pr[|err| ≥ (Δ/ε) ln(1/β)] = β", "004",
                  f"Δ=1, ε={eps}, β={BETA}, n={n}", BETA, "=",
                  interval=lambda c: lap.exceed(b, t, c)),
        ReportRow("01.count_mse", "count query: E[err²] = 2(1/ε)²", "003",
                  f"YRBSS # height ≥ {TALL} m, ε=1, n={n}", laplace_mse(1, 1.0), "=",
                  interval=lambda c: mean_ci(count_sq, c)),
        ReportRow("01.mean_mse", "clipped mean: E[err²] = 2((b-a)/(n ε))²", "003",
                  f"YRBSS height in {list(HEIGHT_CLIP)} m, ε=1, n={n}",
                  laplace_mse(q["mean_sensitivity"], 1.0), "=",
                  interval=lambda c: mean_ci(mean_sq, c)),
        ReportRow("01.accuracy_pure", "Pr[max_i |err_i| > Δ(k/ε) ln(k/β)] ≤ β", "004",
                  f"Δ=1, k=10, ε=1, β={BETA}, n=100000", BETA, "<=",
                  interval=failure(10, None, 100_000)),
        ReportRow("01.accuracy_approx", "Pr[max_i |err_i| > Δ(√(8k ln(1/δ))/ε) ln(k/β)] ≤ β", "004",
                  f"Δ=1, k=200, ε=1, δ=1e-6, β={BETA}, n=20000", BETA, "<=",
                  interval=failure(200, 1e-6, 20_000)),
        ReportRow("01.gauss_analytic_delta", "analytic σ: E[(1 - e^(ε-L))+] = δ", "002",
                  f"Δ=1, ε={eps_g}, δ={delta_g}, σ={sig_a:.4f}, n=2000000", delta_g, "=",
                  interval=lambda c: mean_ci(hs_a, c)),
        ReportRow("01.gauss_classical_delta", "classical σ = Δ√(2 ln(1.25/δ))/ε: δ(σ) ≤ δ", "002",
                  f"Δ=1, ε=0.5, δ={delta_g}, σ={sig_c:.4f}, n=2000000", delta_g, "<=",
                  interval=lambda c: mean_ci(hs_c, c)),
        ReportRow("01.gauss_zcdp_mse", "zCDP σ = Δ/√(2ρ): E[err²] = σ²", "002",
                  f"Δ=1, ρ={rho}, n={n}", gaussian_mse(sig_z), "=",
                  interval=lambda c: mean_ci(z_sq, c)),
        ReportRow("01.gauss_delta_reference", "δ(σ=1, Δ=1, ε=1), Balle-Wang Thm 8", "002",
                  "dp-accounting 0.6.0 reference", 0.1269367375, "exact",
                  value=gaussian_delta(1.0, 1.0, 1.0), rel_tol=1e-8),
        ReportRow("01.zcdp_reference", "ρ=0.5 zCDP → ε = ρ + 2√(ρ ln(1/δ))", "002",
                  "δ=1e-6, dp-accounting 0.6.0 reference", 5.756522, "exact",
                  value=zcdp_to_approx_dp(0.5, 1e-6), rel_tol=1e-6),
        ReportRow("01.crossover_k", "smallest k with k σ₁² < 2(k/ε)² (closed form vs search)",
                  "002/004", "ε=1, δ=1e-6", _crossover_brute_force(1.0, 1e-6), "exact",
                  value=gaussian_laplace_crossover_k(1.0, 1e-6)),
    ]


# ------------------------------------------------------------ exercises

EXERCISES = [
    Exercise("01.1", "A count (sensitivity 1) is released with the Laplace mechanism at "
             "epsilon = 0.5. What is the mean squared error of the release?",
             lambda: laplace_mse(1, 0.5), "MSE of Lap(b) is 2 b², with b = Δ/ε."),
    Exercise("01.2", "At epsilon = 1, a noisy count is off by at least t with probability 5%. "
             "What is t?", lambda: laplace_tail_bound(1, 1.0, 0.05),
             "Pr[|Lap(b)| ≥ t] = exp(-t/b); solve exp(-t/b) = β."),
    Exercise("01.3", "The mean height of the n = 12,579 YRBSS students, clipped to [1.2, 2.1] m "
             "with n public, is released at epsilon = 0.1. What is the Laplace scale b (in m)?",
             lambda: laplace_scale(real_data_queries()["mean_sensitivity"], 0.1),
             "Replacing one student moves the clipped mean by at most (b - a)/n; divide by ε."),
    Exercise("01.4", "k counts (sensitivity 1 each) at epsilon = 1, delta = 1e-6: from which k "
             "on does the analytic Gaussian have a lower MSE per count than Laplace?",
             lambda: gaussian_laplace_crossover_k(1.0, 1e-6),
             "Laplace pays L1 sensitivity k, the Gaussian L2 sensitivity √k; use the k panel.",
             rel_tol=0.0),
    Exercise("01.5", "k = 100 counts under pure epsilon = 1: what alpha does seed 004 "
             "Theorem 3 guarantee with beta = 0.05?", lambda: laplace_accuracy_k(1, 100, 1.0, 0.05),
             "α = Δ (k/ε) ln(k/β): a union bound over k Laplace tails."),
]
