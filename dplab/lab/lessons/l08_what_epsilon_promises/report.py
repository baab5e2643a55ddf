"""Lesson 8, what epsilon promises (notebook 08): constants, seeded simulations, report rows (figures in
views.py; theory in dplab.promises, dplab.attacks: Wasserman & Zhou 2010; Dong, Roth & Su 2022). D: the data
without Alice, D' with her (the mean: in a student's place); alpha = Pr_D[says D'], beta = Pr_D'[says D]."""

from __future__ import annotations

import math

import numpy as np

from dplab import accounting as acc
from dplab import attacks
from dplab.audit import AuditResult, audit_epsilon, audit_reach
from dplab.datasets import load_yrbss
from dplab.lab.cache import cached
from dplab.lab.report import ReportRow
from dplab.mechanisms import EpsilonDelta, Gaussian, Laplace, Mechanism, RandomizedResponse
from dplab.mechanisms.gaussian import hockey_stick_samples
from dplab.promises import posterior_bound, tradeoff_dp
from dplab.sensitivity import clipped_mean_sensitivity
from dplab.simulate import bonferroni_confidence, mean_ci

NOTEBOOK = "08_what_epsilon_promises.ipynb"
PREFIX = "08"
SEED = 2034
#: the confidence of every simulated ROC's boxes, simultaneous over the curve (Bonferroni inside)
ROC_CONFIDENCE = 0.999
LEVEL = bonferroni_confidence(22, family_error=0.01)  #: the level of notebook 8's 22 intervals and figures

# --- 1. prior to posterior: a Bayesian attacker on the Laplace count (0 without Alice, 1 with her) ---
POSTERIOR_EPSILONS = (0.5, 1.0, 2.0, 4.0)
POSTERIOR_PRIORS = (0.01, 0.05, 0.1, 0.25, 0.5)
BAYES_DRAWS = 400_000


@cached(maxsize=64)
def bayes_attack(epsilon: float, prior: float, draws: int = BAYES_DRAWS, seed: int = SEED):
    """(membership, outputs) of dplab.attacks.bayes_attack on Laplace(1, epsilon) at ``prior``."""
    rng = np.random.default_rng([seed, round(epsilon * 1000), round(prior * 10_000)])
    return attacks.bayes_attack(Laplace(1.0, epsilon), prior, draws, rng)


# --- 2. trade-off curves ------------------------------------------------------------------------
#: the small delta of the left panel, and the large one that makes delta visible on the right
TRADEOFF_EPSILON, SMALL_DELTA, LARGE_DELTA, ROC_DRAWS = 1.0, 1e-5, 0.05, 200_000
SIMULATED = ("laplace", "gaussian", "randomized response", "truth or rr")


def section_mechanism(name: str, epsilon: float = TRADEOFF_EPSILON, delta: float = SMALL_DELTA) -> Mechanism:
    """Section 2's (and the promise panel's) mechanisms on a statistic of sensitivity 1, by name; "truth or
    rr" tells the truth with probability delta, else randomized response (Kairouz, Oh & Viswanath)."""
    return {"laplace": Laplace(1.0, epsilon), "gaussian": Gaussian.calibrated(1.0, epsilon, delta),
            "randomized response": RandomizedResponse(epsilon),
            "truth or rr": EpsilonDelta(epsilon, delta)}[name]


@cached(maxsize=16)
def simulated_roc(name: str, delta: float = SMALL_DELTA, seed: int = SEED) -> attacks.EmpiricalRoc:
    """dplab.attacks.mechanism_roc of a section mechanism on D (0) and D' (1), randomized if discrete."""
    m, rng = section_mechanism(name, delta=delta), np.random.default_rng([seed, SIMULATED.index(name)])
    return attacks.mechanism_roc(m, 0, 1, ROC_DRAWS, rng, confidence=ROC_CONFIDENCE, randomized=True)


# --- 3. membership inference --------------------------------------------------------------------
MI_EPSILON, MI_DELTA, MI_DRAWS = 1.0, 1e-5, 1_000_000
#: heights clipped to [1.4, 2.0] m; n public (replace-one neighbours)
HEIGHT_LOW, HEIGHT_HIGH = 1.4, 2.0
#: the count is pure eps-DP; the Gaussian mean is (eps, delta)-DP
RELEASE_DELTA = {"count": 0.0, "mean": MI_DELTA}
#: the audit's power floor: at least this share of dplab.audit.audit_reach (its event is chosen on pilot runs)
AUDIT_POWER = 0.5


def release(name: str) -> tuple[Mechanism, float, float]:
    """(mechanism, statistic on D, on D'): the count, or the clipped mean, first student at each bound."""
    if name == "count":
        return Laplace(1.0, MI_EPSILON), 0.0, 1.0
    if name != "mean":
        raise ValueError(f"release must be 'count' or 'mean', got release={name!r}")
    h = np.clip(load_yrbss()["height_m"], HEIGHT_LOW, HEIGHT_HIGH)
    rest, n = float(np.sum(h[1:])), h.size
    gaussian = Gaussian.calibrated(clipped_mean_sensitivity(HEIGHT_LOW, HEIGHT_HIGH, n), MI_EPSILON, MI_DELTA)
    return gaussian, (rest + HEIGHT_LOW) / n, (rest + HEIGHT_HIGH) / n


@cached(maxsize=4)
def membership(name: str, seed: int = SEED) -> tuple[attacks.EmpiricalRoc, AuditResult]:
    """The attacker's ROC (its score: the release) and the audit's 99.9% lower bound on epsilon."""
    (mechanism, d, d_prime), i = release(name), ("count", "mean").index(name)
    roc = attacks.mechanism_roc(mechanism, d, d_prime, MI_DRAWS, np.random.default_rng([seed, 31, i]),
                                n_points=30, confidence=ROC_CONFIDENCE)
    audit = audit_epsilon(mechanism, d, d_prime, n_runs=MI_DRAWS, n_pilot=200_000, delta=RELEASE_DELTA[name],
                          confidence=ROC_CONFIDENCE, rng=np.random.default_rng([seed, 37, i]))
    return roc, audit


# --- 4. composition -------------------------------------------------------------------------------
#: the CLT figure: k Laplace steps of eps0 = 1/sqrt(k)
CLT_KS = (1, 4, 16, 64)
#: the accounting figure: k Laplace steps of eps0 = 0.1 at delta = 1e-6
ACCOUNT_EPSILON, ACCOUNT_DELTA = 0.1, 1e-6
ACCOUNT_KS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
#: the accountants of the table and the figure; the PLD's grid is 2000 points per step's loss range
ACCOUNTANTS = (acc.BasicAccountant(), acc.AdvancedAccountant(), acc.OptimalAccountant(),
               acc.ZCDPAccountant("cks"), acc.PLDAccountant(step=2 * ACCOUNT_EPSILON / 2000))
#: the Monte Carlo check of the PLD: k steps of eps0, delta at MC_EPSILON
MC_K, MC_EPSILON0, MC_EPSILON, MC_DRAWS = 50, 0.1, 1.0, 400_000
#: eps(1e-6) of 1000 Laplace steps of 0.1 by Google's dp_accounting, optimistic (grid 5e-5) and pessimistic
#: (connect-the-dots, 1e-4), rounded outwards: a bracket by independent code (tests/lab/test_lesson08.py)
DP_ACCOUNTING_BRACKET = (18.9491, 18.9503)


@cached(maxsize=32)
def composed_laplace(epsilon0: float, k: int, pessimistic: bool = True) -> acc.PrivacyLossDistribution:
    """The PLD of k Laplace steps of epsilon0, 2000 grid points per step's loss range [-eps0, eps0]."""
    return acc.PLDAccountant(step=2 * epsilon0 / 2000, pessimistic=pessimistic).compose(
        Laplace(1.0, epsilon0), k).pld()


# --- 5. choosing epsilon from both sides ----------------------------------------------------------
CHOOSE_RMSE, CHOOSE_PRIOR = 5.0, 0.1


def report_rows(seed: int = SEED) -> list[ReportRow]:
    """This lesson's rows of figures/REPORT.md."""
    rows, alpha, violations = [], np.linspace(0, 1, 201), attacks.roc_violations
    for eps, prior in ((0.5, 0.01), (0.5, 0.25), (2.0, 0.01), (2.0, 0.25)):
        member, y = bayes_attack(eps, prior, seed=seed)  # y >= 1: where the likelihood ratio is e^eps
        rows.append(ReportRow(
            f"08.posterior_{eps:g}_{prior:g}", "a Bayesian attacker's posterior reaches e^ε p / (1 − p + e^ε "
            "p) where the likelihood ratio is e^ε", "—", f"ε = {eps:g}, prior {prior:g}; Laplace count, the "
            f"{np.sum(y >= 1)} of {BAYES_DRAWS} releases with y ≥ 1", float(posterior_bound(prior, eps)), "=",
            interval=lambda c, member=member, y=y: attacks.membership_by_bin(member, y, [1, np.inf], c)[0],
            catches="promises.posterior_prior_as_odds, attacks.bayes_swapped_worlds: wrong bound or world"))
    gaussian = dict(catches="tradeoff.gdp_alpha_not_complemented: G_μ(α) = Φ(Φ⁻¹(α) − μ)")
    for name, delta, named in (
            ("laplace", 0.0, dict(catches="laplace.tradeoff_middle_2a: the curve's middle piece off by 2")),
            ("gaussian", SMALL_DELTA, gaussian), ("gaussian", LARGE_DELTA, gaussian),
            ("randomized response", 0.0, dict(catches="randomized_response.keep_flip_swapped: p and q")),
            ("truth or rr", LARGE_DELTA, dict(
                catches="epsilon_delta.extreme_pair_unscaled, tradeoff.dp_second_branch_no_delta: 1 − δ"))):
        roc = simulated_roc(name, delta=delta or SMALL_DELTA, seed=seed)
        mechanism = section_mechanism(name, delta=delta or SMALL_DELTA)
        below = int(np.sum(mechanism.tradeoff(alpha) < tradeoff_dp(alpha, 1.0, delta) - 1e-12))
        rows.append(ReportRow(
            f"08.tradeoff_{name.replace(' ', '_')}_{delta:g}", "the attacker's ROC meets the exact trade-off "
            "curve (boxes off it, two-sided), and the curve lies above f_ε,δ (grid points below it): their "
            "sum", "—", f"ε = 1{f', δ = {delta:g}' if delta else ''}; {ROC_DRAWS} outputs a side, "
            f"{roc.thresholds.size} boxes at {ROC_CONFIDENCE:.1%} simultaneous; 201 grid points of α", 0.0,
            "<=", value=float(violations(roc, mechanism.tradeoff, two_sided=True).size + below), **named))
    for name, named, audit_named in (
            ("count", dict(catches="laplace.sample_sd_as_scale: noise for ε √2"),
             dict(catches="audit.direction_swapped, laplace.sample_sd_as_scale: no power, or ε √2 spent")),
            ("mean", dict(catches="sensitivity.clipped_mean_add_remove: noise for half the sensitivity"),
             dict(catches="audit.direction_swapped, sensitivity.clipped_mean_add_remove: no power, 2Δ/σ"))):
        (roc, audit), delta = membership(name, seed), RELEASE_DELTA[name]
        what = "Laplace count" if name == "count" else "Gaussian clipped mean (replace-one)"
        certified, floor = audit.epsilon_lower, AUDIT_POWER * audit_reach(
            release(name)[0].tradeoff, MI_DRAWS, confidence=ROC_CONFIDENCE, delta=delta)
        rows += [
            ReportRow(f"08.membership_{name}", "membership inference: TPR ≤ e^ε FPR + δ (boxes wholly above "
                      "the bound, one-sided)", "—", f"{what}, ε = {MI_EPSILON:g}, δ = {delta:g}; {MI_DRAWS} "
                      f"releases a side, {roc.thresholds.size} boxes", 0.0, "<=",
                      value=float(violations(roc, lambda a, d=delta: tradeoff_dp(a, MI_EPSILON, d)).size),
                      **named),
            ReportRow(f"08.audit_{name}", f"an attack's empirical ε (99.9% lower bound) in [{AUDIT_POWER:g}"
                      " × what its runs can certify on the exact curve, the claimed ε]: how far outside", "—",
                      f"{name}, claimed ε = {MI_EPSILON:g}, δ = {delta:g}; {MI_DRAWS} runs a side, event "
                      f"{audit.event[0]} {audit.event[1]:.3g}: ε ≥ {certified:.3f}, floor {floor:.3f}", 0.0,
                      "<=", value=max(floor - certified, certified - MI_EPSILON), **audit_named)]
    pld, low = composed_laplace(0.1, 1000), composed_laplace(0.1, 1000, pessimistic=False)
    mc_pld, k = composed_laplace(MC_EPSILON0, MC_K), 16
    eps0 = 1 / math.sqrt(k)
    losses = attacks.privacy_loss_samples(Laplace(1.0, MC_EPSILON0), np.zeros(MC_K), np.ones(MC_K), MC_DRAWS,
                                          np.random.default_rng([seed, 41]))
    roc = attacks.composed_roc(Laplace(1.0, eps0), k, ROC_DRAWS, np.random.default_rng([seed, 43]),
                               confidence=ROC_CONFIDENCE)
    target = Laplace.for_rmse(1.0, CHOOSE_RMSE)
    errors = target.sample(np.zeros(200_000), np.random.default_rng([seed, 47]))
    where = f"k = 1000 Laplace steps of ε₀ = 0.1, δ = 10⁻⁶, grid step {pld.step:g}"
    kov = acc.OptimalAccountant().compose(Laplace(1.0, ACCOUNT_EPSILON), 1000).epsilon(ACCOUNT_DELTA)
    return rows + [
        ReportRow("08.pld_reference", "PLD accounting rounded up is never below the truth: ε(10⁻⁶) ≥ "
                  "dp_accounting's optimistic lower bound", "—", f"{where}; KOV gives {kov:.2f}",
                  DP_ACCOUNTING_BRACKET[0], ">=", value=pld.epsilon(1e-6),
                  catches="pld.compose_window_offset: the composed losses shifted"),
        ReportRow("08.pld_bracket", "PLD accounting rounded down is never above the truth: ε(10⁻⁶) ≤ "
                  "dp_accounting's pessimistic upper bound", "—", f"{where}: {low.epsilon(1e-6):.4f} ≤ ε ≤ "
                  f"{pld.epsilon(1e-6):.4f}", DP_ACCOUNTING_BRACKET[1], "<=", value=low.epsilon(1e-6),
                  catches="pld.accountant_ignores_optimistic: the optimistic accountant rounds up"),
        ReportRow("08.pld_monte_carlo", "δ(ε) of the composed PLD = the mean of (1 − e^(ε − L))₊ over "
                  "sampled privacy losses L", "—", f"k = {MC_K} Laplace steps of ε₀ = {MC_EPSILON0:g}, "
                  f"ε = {MC_EPSILON:g}; {MC_DRAWS} sampled losses", float(mc_pld.delta(MC_EPSILON)), "=",
                  interval=lambda c: mean_ci(hockey_stick_samples(losses, MC_EPSILON), c),
                  catches="pld.delta_tail_mass, laplace.pld_slope_no_half, laplace.privacy_loss_sign: "
                  "δ(ε) as Pr[L > ε], a wrong PLD, or the loss's sign flipped"),
        ReportRow("08.composed_tradeoff", "the attacker's ROC on k composed Laplace releases meets the PLD's "
                  "trade-off curve (two-sided)", "—", f"k = {k} steps of ε₀ = 1/√k; score = the summed loss; "
                  f"{ROC_DRAWS} runs a side, {roc.thresholds.size} boxes", 0.0, "<=",
                  value=float(violations(roc, composed_laplace(eps0, k).tradeoff, two_sided=True).size),
                  catches="laplace.privacy_loss_sign, laplace.pld_slope_no_half: a flipped loss, wrong PLD"),
        ReportRow("08.rmse_target", "Laplace.for_rmse: the count released at the ε chosen for an RMSE "
                  "target has mean squared error RMSE²", "—", f"RMSE = {CHOOSE_RMSE:g}: ε = "
                  f"{target.epsilon:.4f}; 2·10⁵ releases", CHOOSE_RMSE**2, "=",
                  interval=lambda c: mean_ci(errors**2, c), catches="laplace.for_rmse_no_sqrt2: ε = Δ/RMSE"),
    ]
