"""Lesson 1, Laplace vs Gaussian (``notebooks/01_laplace_vs_gaussian.ipynb``): constants, small tables and
report rows. [Hu] (Laplace slides), [Roth11] (Theorem 3), [Duke18] (Laplace error), [Rogers23] (Gaussian,
zCDP). The figures and panels are in ``views.py``."""

from __future__ import annotations

import math

import numpy as np
from scipy import integrate, stats

from dplab.accounting import advanced_composition, approx_dp_to_zcdp, zcdp_to_approx_dp
from dplab.attacks import privacy_loss_samples
from dplab.datasets import load_yrbss, table_size
from dplab.lab.report import ReportRow
from dplab.mechanisms import gaussian, laplace
from dplab.sensitivity import clipped_mean_sensitivity
from dplab.simulate import mean_ci, proportion_ci, standard_errors

NOTEBOOK = "01_laplace_vs_gaussian.ipynb"
PREFIX = "01"
SEED = 2026
TRIALS = 200_000
HEIGHT_CLIP = (1.2, 2.1)  # metres: data-independent clipping bounds for the mean
TALL = 1.80  # metres: the count query counts students at least this tall
BETA = 0.05
ACC_K = np.array([1, 3, 10, 30, 100, 300, 1000])
ACC_TRIALS = 20_000
#: the first three rows draw Lap(b) with the b their theory uses: they test the formulas in b, not b itself
SHARED_B = "; b = laplace_scale(Δ, ε) on both sides (b itself: tests/mechanisms/test_laplace.py)"
#: the zCDP calibration's Renyi check: at rho = 1/2 (and Delta = 1) sigma = 1 hides a dropped square root
RENYI_RHO, RENYI_ALPHAS = 0.125, (2, 4, 8)


def tail_probabilities(t: float) -> tuple[float, float]:
    """Pr[|Y| >= t] for Y ~ Lap(0, 1/sqrt 2) and Y ~ N(0, 1): both have variance 1."""
    return laplace.laplace_tail_probability(t, math.sqrt(0.5)), gaussian.gaussian_tail_probability(t, 1.0)


def real_data_queries(table: dict[str, np.ndarray] | None = None) -> dict[str, float]:
    """The notebook's count (# students >= 1.80 m tall; sensitivity 1) and mean (height clipped to
    [1.2, 2.1] m, n public: sensitivity (hi - lo)/n under replace-one neighbours) with their sensitivities."""
    table = load_yrbss() if table is None else table
    n, (lo, hi) = table_size(table), HEIGHT_CLIP
    return {"n": n, "count": float(np.sum(table["height_m"] >= TALL)), "count_sensitivity": 1.0,
            "mean": float(np.clip(table["height_m"], lo, hi).mean()),
            "mean_sensitivity": clipped_mean_sensitivity(lo, hi, n)}


def release_real_data(epsilon: float, trials: int, seed: int = SEED) -> dict[str, np.ndarray]:
    """``trials`` independent Laplace releases of the count and the mean (epsilon each)."""
    q, rng = real_data_queries(), np.random.default_rng(seed)
    return {name: laplace.laplace_mechanism(q[name], q[f"{name}_sensitivity"], epsilon, size=trials, rng=rng)
            for name in ("count", "mean")}


def k_query_sigmas(epsilon: float, delta: float) -> dict[str, float | None]:
    """Gaussian noise std for one query of sensitivity 1 under each calibration (k queries: sqrt(k) times
    these, L2 sensitivity sqrt(k)). zCDP: rho from (epsilon, delta) by the simple conversion, sigma =
    1/sqrt(2 rho); the classical calibration exists only for epsilon < 1 (None otherwise)."""
    return {"analytic": gaussian.gaussian_sigma(1.0, epsilon, delta),
            "classical": gaussian.gaussian_sigma(1.0, epsilon, delta, "classical") if epsilon < 1 else None,
            "zcdp": gaussian.gaussian_sigma_zcdp(1.0, approx_dp_to_zcdp(epsilon, delta))}


def max_error_samples(k: int, trials: int = ACC_TRIALS, seed: int = SEED) -> np.ndarray:
    """max_i |Z_i| over k standard Laplace draws, ``trials`` times."""
    return standard_errors("laplace", trials, k=k, reduce="max", seed=seed).standard_abs


def _crossover_brute_force(epsilon: float, delta: float) -> int:
    """The definition, tried k = 1, 2, ...: the smallest k at which the analytic Gaussian
    for L2 sensitivity sqrt(k) has a smaller variance than Laplace for L1 sensitivity k."""
    k = 1
    while gaussian.gaussian_sigma(math.sqrt(k), epsilon, delta) ** 2 >= laplace.laplace_mse(k, epsilon):
        k += 1
    return k


def _classical_delta_scipy(epsilon: float, delta: float) -> float:
    """δ(σ) of Balle & Wang (2018, Thm 8) written out with scipy at the classical σ of Dwork & Roth (Thm A.1)
    for Δ = 1, independent of dplab: Φ(1/(2σ) - εσ) - e^ε Φ(-1/(2σ) - εσ) (about 3.2e-6 ≤ δ = 1e-3)."""
    sigma = math.sqrt(2 * math.log(1.25 / delta)) / epsilon
    norm = stats.norm(0, 1)
    a, b = 1 / (2 * sigma), epsilon * sigma
    return norm.cdf(a - b) - math.exp(epsilon) * norm.cdf(-a - b)


def _renyi_by_quadrature(sigma: float, alpha: float) -> float:
    """D_alpha(N(0, sigma^2) || N(1, sigma^2)) = ln(integral of p^alpha q^(1 - alpha)) / (alpha - 1), by
    scipy's quadrature, independent of dplab (Mironov 2017, Prop. 7: alpha / (2 sigma^2))."""
    def tilted(y: float) -> float:
        return math.exp(alpha * stats.norm.logpdf(y, 0, sigma) + (1 - alpha) * stats.norm.logpdf(y, 1, sigma))

    mass, _ = integrate.quad(tilted, -80 * sigma, 80 * sigma, points=[1 - alpha], limit=200)
    return math.log(mass) / (alpha - 1)


def report_rows(seed: int = SEED) -> list[ReportRow]:
    """This lesson's rows of figures/REPORT.md (intervals computed by report.evaluate_rows)."""
    n, eps = 400_000, 0.5
    lap = standard_errors("laplace", n, seed=seed)
    b, t = laplace.laplace_scale(1, eps), laplace.laplace_tail_bound(1, eps, BETA)
    # the real-data releases at ε = 0.5, not 1: at Δ/ε = 1 a scale mistaken for its inverse is invisible
    eps_real = 0.5
    q, rel = real_data_queries(), release_real_data(eps_real, n, seed)
    mean_sensitivity = (HEIGHT_CLIP[1] - HEIGHT_CLIP[0]) / q["n"]  # written out: (hi - lo)/n
    count_sq, mean_sq = (rel["count"] - q["count"]) ** 2, (rel["mean"] - q["mean"]) ** 2

    def failure(k: int, delta: float | None, trials: int):
        alpha = laplace.laplace_accuracy_k(1, k, 1.0, BETA, delta)
        scale = laplace.laplace_scale_k(1, k, 1.0, delta)
        fails = int(np.sum(scale * max_error_samples(k, trials, seed) > alpha))
        return lambda c: proportion_ci(fails, trials, c)

    eps_g, delta_g = 1.0, 1e-3
    sig_a = gaussian.gaussian_sigma(1, eps_g, delta_g)
    sig_c = gaussian.gaussian_sigma(1, 0.5, delta_g, "classical")
    losses = privacy_loss_samples(gaussian.Gaussian(1, sig_a), [0], [1], 2_000_000, seed)
    hs_a = gaussian.hockey_stick_samples(losses, eps_g)
    rho, delta_z = 0.5, 1e-6
    sig_z, eps_z = gaussian.gaussian_sigma_zcdp(1, rho), zcdp_to_approx_dp(rho, delta_z)
    sig_renyi = gaussian.gaussian_sigma_zcdp(1, RENYI_RHO)
    return [
        ReportRow("01.laplace_mse", "E[err²] = 2(Δ/ε)²", "Hu", f"Δ=1, ε={eps}, n={n}{SHARED_B}",
                  laplace.laplace_mse(1, eps), "=", interval=lambda c: lap.mse(b, c),
                  catches="laplace.mse_no_factor_2: the Laplace variance b² for 2b²"),
        ReportRow("01.laplace_mae", "E|err| = Δ/ε", "Roth11", f"Δ=1, ε={eps}, n={n}{SHARED_B}",
                  laplace.laplace_mae(1, eps), "=", interval=lambda c: lap.mae(b, c),
                  catches="laplace.mae_is_std: E|err| as the standard deviation √2 Δ/ε"),
        ReportRow("01.laplace_tail", "Pr[|err| ≥ (Δ/ε) ln(1/β)] = β", "Roth11",
                  f"Δ=1, ε={eps}, β={BETA}, n={n}{SHARED_B}",
                  BETA, "=", interval=lambda c: lap.exceed(b, t, c),
                  catches="laplace.tail_one_sided: t from the one-sided tail, (Δ/ε) ln(1/(2β))"),
        ReportRow("01.count_mse", "count query: E[err²] = 2(1/ε)²", "Hu",
                  f"YRBSS # height ≥ {TALL} m, ε={eps_real}, n={n}", laplace.laplace_mse(1, eps_real), "=",
                  interval=lambda c: mean_ci(count_sq, c),
                  catches="laplace.sample_rate_as_scale: noise drawn with the rate ε/Δ as its scale"),
        ReportRow("01.mean_mse", "clipped mean: E[err²] = 2((hi-lo)/(n ε))²", "Hu",
                  f"YRBSS height in {list(HEIGHT_CLIP)} m, ε={eps_real}, n={n} (Δ = (hi-lo)/n written out)",
                  laplace.laplace_mse(mean_sensitivity, eps_real), "=",
                  interval=lambda c: mean_ci(mean_sq, c),
                  catches="sensitivity.clipped_mean_add_remove, laplace.sample_rate_as_scale: the mean's "
                  "sensitivity halved, or the rate taken for the scale"),
        ReportRow("01.accuracy_pure", "Pr[max_i |err_i| > Δ(k/ε) ln(k/β)] ≤ β", "Roth11",
                  f"Δ=1, k=10, ε=1, β={BETA}, n=100000", BETA, "<=", interval=failure(10, None, 100_000),
                  catches="laplace.accuracy_no_union_bound: one answer's tail for k answers"),
        ReportRow("01.accuracy_approx", "Pr[max_i |err_i| > Δ(√(8k ln(1/δ))/ε) ln(k/β)] ≤ β", "Roth11",
                  f"Δ=1, k=200, ε=1, δ=1e-6, β={BETA}, n=20000", BETA, "<=",
                  interval=failure(200, 1e-6, 20_000),
                  catches="laplace.accuracy_no_union_bound: one answer's tail for k answers"),
        ReportRow("01.accuracy_approx_private", "Theorem 3's scale b = Δ√(8k ln(1/δ))/ε is (ε, δ)-DP: "
                  "advanced composition (DRV) of k answers at ε' = Δ/b ≤ ε", "Roth11",
                  "Δ=1, k=200, ε=1, δ=1e-6 (the row above checks α for that b, not that b is private)", 1.0,
                  "<=",
                  value=advanced_composition(1 / laplace.laplace_scale_k(1, 200, 1.0, 1e-6), 200, 1e-6)[0],
                  catches="laplace.advanced_scale_8_to_2: b = Δ√(2k ln(1/δ))/ε, too little noise"),
        ReportRow("01.gauss_analytic_delta", "analytic σ: E[(1 - e^(ε-L))+] = δ", "Rogers23",
                  f"Δ=1, ε={eps_g}, δ={delta_g}, σ={sig_a:.4f}, n=2000000", delta_g, "=",
                  interval=lambda c: mean_ci(hs_a, c),
                  catches="gaussian.delta_no_e_eps: σ calibrated on a wrong δ(σ)"),
        ReportRow("01.gauss_classical_delta", "exact δ of the classical σ: dplab's δ(σ) at dplab's σ = Balle-"
                  "Wang Thm 8 in scipy at Dwork & Roth's σ = √(2 ln(1.25/δ))/ε (3.2e-6 ≤ δ)", "Rogers23",
                  f"Δ=1, ε=0.5, δ={delta_g}, σ={sig_c:.4f}", _classical_delta_scipy(0.5, delta_g), "exact",
                  value=gaussian.gaussian_delta(sig_c, 1, 0.5), rel_tol=1e-12,  # absolute: 3e-7 of the value
                  catches="gaussian.classical_no_2, gaussian.delta_no_e_eps: σ without the 2, δ(σ) "
                  "without e^ε"),
        ReportRow("01.gauss_classical_sigma", "classical σ = cΔ/ε, c² = 2 ln(1.25/δ) (Dwork & Roth Thm A.1)",
                  "Rogers23", f"Δ=1, ε=0.5, δ={delta_g}: c = √(2 ln 1250) from the theorem's statement",
                  math.sqrt(2 * math.log(1.25 / delta_g)) / 0.5, "exact", value=sig_c,
                  catches="gaussian.classical_no_2: the 2 under the square root dropped (σ 0.71× too small, "
                  "which the row above does not see)"),
        ReportRow("01.gauss_zcdp_calibration", "zCDP σ = Δ/√(2ρ) is (ρ + 2√(ρ ln(1/δ)), δ)-DP: "
                  "exact δ(σ) at that ε ≤ δ", "Rogers23",
                  f"Δ=1, ρ={rho}, δ={delta_z:g}, ε={eps_z:.4f}, Balle-Wang Thm 8", delta_z, "<=",
                  value=gaussian.gaussian_delta(sig_z, 1, eps_z),
                  catches="zcdp.simple_conversion_no_2, gaussian.zcdp_sigma_too_small: ε or σ too small"),
        ReportRow("01.gauss_zcdp_renyi", "zCDP σ = Δ/√(2ρ) makes the Gaussian ρ-zCDP: D_α(N(0, σ²) ‖ "
                  "N(Δ, σ²)) = αρ, the divergence by quadrature (scipy): max relative error", "Rogers23",
                  f"Δ=1, ρ={RENYI_RHO}, α = {', '.join(map(str, RENYI_ALPHAS))}", 1e-7, "<=",
                  value=max(abs(_renyi_by_quadrature(sig_renyi, a) / (a * RENYI_RHO) - 1)
                            for a in RENYI_ALPHAS),
                  catches="gaussian.zcdp_sigma_too_small, gaussian.zcdp_sigma_no_sqrt: Δ/(2√ρ) or Δ/(2ρ)"),
        ReportRow("01.gauss_delta_reference", "δ(σ=1, Δ=1, ε=1), Balle-Wang Thm 8", "Rogers23",
                  "dp-accounting 0.6.0 reference", 0.1269367375, "exact",
                  value=gaussian.gaussian_delta(1.0, 1.0, 1.0), rel_tol=1e-8,
                  catches="gaussian.delta_no_e_eps: Balle & Wang's δ without its e^ε"),
        ReportRow("01.zcdp_reference", "ρ=0.5 zCDP → ε = ρ + 2√(ρ ln(1/δ))", "Rogers23",
                  "δ=1e-6, dp-accounting 0.6.0 reference", 5.756522, "exact",
                  value=zcdp_to_approx_dp(0.5, 1e-6), rel_tol=1e-6,
                  catches="zcdp.simple_conversion_no_2: the 2 of 2√(ρ ln(1/δ)) dropped"),
        ReportRow("01.crossover_k", "smallest k with k σ₁² < 2(k/ε)² (closed form vs search)",
                  "Rogers23, Roth11", "ε=1, δ=1e-6", _crossover_brute_force(1.0, 1e-6), "exact",
                  value=gaussian.gaussian_laplace_crossover_k(1.0, 1e-6),
                  catches="gaussian.crossover_off_by_one: the largest k where Laplace still wins"),
    ]
