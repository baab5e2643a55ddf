"""Lesson 8, what epsilon promises (notebook 08): constants, the simulations' seeds and caches, report
rows; figures and panels are in ``views.py``. The attacker's side of notebooks 1-7's budgets: posterior
odds (Wasserman & Zhou 2010), trade-off functions (Kairouz, Oh & Viswanath 2015; Dong, Roth & Su 2022),
membership inference and PLD accounting (Sommer, Meiser & Mohammadi 2019); simulations: ``dplab.attacks``.

Throughout: D is the data without Alice's record, D' the data with it (or, for the mean, with Alice in
place of another student); an attacker's test says "D'" (Alice is in) or "D"; alpha is its false-alarm
rate Pr_D[says D'], beta its miss rate Pr_D'[says D].
"""

from __future__ import annotations

import math

import numpy as np

from dplab import accounting as acc
from dplab import attacks
from dplab.audit import audit_epsilon
from dplab.datasets import load_yrbss
from dplab.lab.cache import cached
from dplab.lab.report import ReportRow
from dplab.mechanisms import EpsilonDelta, Gaussian, Laplace, Mechanism, RandomizedResponse
from dplab.mechanisms.gaussian import hockey_stick_samples
from dplab.promises import posterior_bound, tradeoff_dp
from dplab.simulate import mean_ci, proportion_ci

NOTEBOOK = "08_what_epsilon_promises.ipynb"
PREFIX = "08"
SEED = 2034
#: the confidence of every simulated ROC's boxes, simultaneous over the curve (Bonferroni inside)
ROC_CONFIDENCE = 0.999

# --- 1. prior to posterior: a Bayesian attacker on the Laplace count (0 without Alice, 1 with her) ---
POSTERIOR_EPSILONS = (0.5, 1.0, 2.0, 4.0)
POSTERIOR_PRIORS = (0.01, 0.05, 0.1, 0.25, 0.5)
BAYES_DRAWS = 400_000


@cached(maxsize=64)
def bayes_attack(epsilon: float, prior: float, draws: int = BAYES_DRAWS, seed: int = SEED):
    """(membership, outputs) of dplab.attacks.bayes_attack on Laplace(1, epsilon) at ``prior``."""
    rng = np.random.default_rng([seed, round(epsilon * 1000), round(prior * 10_000)])
    return attacks.bayes_attack(Laplace(1.0, epsilon), prior, draws, rng)


def attacker_at_the_bound(epsilon: float, prior: float, seed: int = SEED) -> tuple[int, int]:
    """(members, runs) among the releases y >= 1, where the likelihood ratio is e^eps: the share of
    members there is the posterior the bound states."""
    member, y = bayes_attack(epsilon, prior, seed=seed)
    return int(np.sum(member[y >= 1])), int(np.sum(y >= 1))


# --- 2. trade-off curves ------------------------------------------------------------------------
TRADEOFF_EPSILON = 1.0
#: the small delta of the left panel, and the large one that makes delta visible on the right
SMALL_DELTA, LARGE_DELTA = 1e-5, 0.05
ROC_DRAWS = 200_000
SIMULATED = ("laplace", "gaussian", "randomized response", "truth or rr")


def section_mechanism(name: str, epsilon: float = TRADEOFF_EPSILON, delta: float = SMALL_DELTA) -> Mechanism:
    """Section 2's mechanisms at (epsilon, delta) by display name: the Laplace count (sensitivity 1),
    the analytic Gaussian (mu-GDP: drawn as N(0, 1) against N(mu, 1)), randomized response, and "the
    truth with probability delta, else randomized response" (Kairouz, Oh & Viswanath's extreme pair)."""
    if name not in SIMULATED:
        raise ValueError(f"name must be one of {SIMULATED}, got name={name!r}")
    if name == "gaussian":
        return Gaussian(Gaussian.calibrated(1.0, epsilon, delta).mu, 1.0)
    return {"laplace": Laplace(1.0, epsilon), "randomized response": RandomizedResponse(epsilon),
            "truth or rr": EpsilonDelta(epsilon, delta)}[name]


@cached(maxsize=16)
def simulated_roc(name: str, epsilon: float = TRADEOFF_EPSILON, delta: float = SMALL_DELTA,
                  draws: int = ROC_DRAWS, seed: int = SEED) -> attacks.EmpiricalRoc:
    """dplab.attacks.mechanism_roc of a section mechanism on D (0) and D' (1, the Gaussian's mu)."""
    mechanism = section_mechanism(name, epsilon, delta)
    return attacks.mechanism_roc(mechanism, 0, getattr(mechanism, "sensitivity", 1), draws,
                         np.random.default_rng([seed, SIMULATED.index(name)]), confidence=ROC_CONFIDENCE)


# --- 3. membership inference --------------------------------------------------------------------
MI_EPSILON, MI_DELTA = 1.0, 1e-5
MI_DRAWS = 1_000_000
#: heights clipped to [1.4, 2.0] m; n public (replace-one neighbours)
HEIGHT_LOW, HEIGHT_HIGH = 1.4, 2.0


def release(name: str) -> tuple[Mechanism, float, float]:
    """(mechanism, statistic on D, on D'): the Laplace count (0, 1), or the analytic Gaussian clipped mean
    with D' the survey's first student replaced by Alice at the upper clip bound, D by one at the lower
    bound: the worst pair for the clipped mean, moved by its sensitivity (high - low)/n."""
    if name == "count":
        return Laplace(1.0, MI_EPSILON), 0.0, 1.0
    if name != "mean":
        raise ValueError(f"release must be 'count' or 'mean', got release={name!r}")
    h = np.clip(load_yrbss()["height_m"], HEIGHT_LOW, HEIGHT_HIGH)
    rest, n = float(np.sum(h[1:])), h.size
    gaussian = Gaussian.calibrated((HEIGHT_HIGH - HEIGHT_LOW) / n, MI_EPSILON, MI_DELTA)
    return gaussian, (rest + HEIGHT_LOW) / n, (rest + HEIGHT_HIGH) / n


#: the count is pure eps-DP; the Gaussian mean is (eps, delta)-DP
RELEASE_DELTA = {"count": 0.0, "mean": MI_DELTA}


@cached(maxsize=4)
def membership_roc(name: str, seed: int = SEED) -> attacks.EmpiricalRoc:
    """The attacker's ROC on MI_DRAWS releases with and without Alice (its score: the release)."""
    rng = np.random.default_rng([seed, 31, ("count", "mean").index(name)])
    return attacks.mechanism_roc(*release(name), MI_DRAWS, rng, n_points=30, confidence=ROC_CONFIDENCE)


@cached(maxsize=4)
def membership_audit(name: str, seed: int = SEED):
    """dplab.audit.audit_epsilon on the release: a 99.9% lower bound on its epsilon (delta counted)."""
    mechanism, d, d_prime = release(name)
    rng = np.random.default_rng([seed, 37, ("count", "mean").index(name)])
    return audit_epsilon(lambda x, size, r: mechanism.sample(x, r, size=size), d, d_prime, n_runs=MI_DRAWS,
                         n_pilot=200_000, delta=RELEASE_DELTA[name], confidence=ROC_CONFIDENCE, rng=rng)


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


def accounting(k: int) -> dict[str, float]:
    """eps(ACCOUNT_DELTA) of k Laplace releases of ACCOUNT_EPSILON, by each of ACCOUNTANTS."""
    return acc.epsilons(Laplace(1.0, ACCOUNT_EPSILON), k, ACCOUNT_DELTA, ACCOUNTANTS)


@cached(maxsize=32)
def composed_laplace(epsilon0: float, k: int, pessimistic: bool = True, per_step: int = 2000
                     ) -> acc.PrivacyLossDistribution:
    """The PLD of k Laplace mechanisms of epsilon0 each, ``per_step`` grid points per step's loss
    range [-eps0, eps0] (rounding bound k * eps0 / (per_step/2))."""
    return acc.PLDAccountant(step=2 * epsilon0 / per_step, pessimistic=pessimistic).compose(
        Laplace(1.0, epsilon0), k).pld()


def composed_losses(epsilon0: float, k: int, draws: int, rng: np.random.Generator, member: bool = False):
    """dplab.attacks.privacy_loss_samples of k Laplace releases of the count (0 on D, 1 on D')."""
    return attacks.privacy_loss_samples(Laplace(1.0, epsilon0), np.zeros(k), np.ones(k), draws, rng,
                                        on_neighbour=member)


@cached(maxsize=2)
def monte_carlo_delta(seed: int = SEED) -> np.ndarray:
    """(1 - e^(eps - L))_+ for MC_DRAWS sampled total losses L: their mean is delta(eps)."""
    losses = composed_losses(MC_EPSILON0, MC_K, MC_DRAWS, np.random.default_rng([seed, 41]))
    return hockey_stick_samples(losses, MC_EPSILON)


# --- 5. choosing epsilon from both sides ----------------------------------------------------------
CHOOSE_RMSE, CHOOSE_PRIOR = 5.0, 0.1


def report_rows(seed: int = SEED) -> list[ReportRow]:
    """This lesson's rows of figures/REPORT.md."""
    rows, alpha, violations = [], np.linspace(0, 1, 201), attacks.roc_violations
    for eps in (0.5, 2.0):
        for prior in (0.01, 0.25):
            members, runs = attacker_at_the_bound(eps, prior, seed)
            rows.append(ReportRow(
                f"08.posterior_{eps:g}_{prior:g}", "a Bayesian attacker's posterior reaches e^ε p / (1 − p + "
                "e^ε p) where the likelihood ratio is e^ε", "—", f"ε = {eps:g}, prior {prior:g}; Laplace "
                f"count, the {runs} of {BAYES_DRAWS} releases with y ≥ 1", float(posterior_bound(prior, eps)),
                "=", interval=lambda c, members=members, runs=runs: proportion_ci(members, runs, c)))
    for name, delta in (("laplace", 0.0), ("gaussian", SMALL_DELTA), ("randomized response", 0.0),
                        ("gaussian", LARGE_DELTA), ("truth or rr", LARGE_DELTA)):
        roc = simulated_roc(name, delta=delta or SMALL_DELTA, seed=seed)
        mechanism = section_mechanism(name, delta=delta or SMALL_DELTA)
        below = int(np.sum(mechanism.tradeoff(alpha) < tradeoff_dp(alpha, 1.0, delta) - 1e-12))
        rows.append(ReportRow(
            f"08.tradeoff_{name.replace(' ', '_')}_{delta:g}", "the attacker's ROC meets the exact trade-off "
            "curve (boxes off it, two-sided), and the curve lies above f_ε,δ (grid points below it): their "
            "sum", "—", f"ε = 1{f', δ = {delta:g}' if delta else ''}; {ROC_DRAWS} outputs a side, "
            f"{roc.thresholds.size} boxes at {ROC_CONFIDENCE:.1%} simultaneous; 201 grid points of α", 0.0,
            "<=", value=float(violations(roc, mechanism.tradeoff, two_sided=True).size + below)))
    for name in ("count", "mean"):
        roc, audit, delta = membership_roc(name, seed), membership_audit(name, seed), RELEASE_DELTA[name]
        what = "Laplace count" if name == "count" else "Gaussian clipped mean (replace-one)"
        rows += [
            ReportRow(f"08.membership_{name}", "membership inference: TPR ≤ e^ε FPR + δ (boxes wholly above "
                      "the bound, one-sided)", "—", f"{what}, ε = {MI_EPSILON:g}, δ = {delta:g}; {MI_DRAWS} "
                      f"releases a side, {roc.thresholds.size} boxes", 0.0, "<=",
                      value=float(violations(roc, lambda a, d=delta: tradeoff_dp(a, MI_EPSILON, d)).size)),
            ReportRow(f"08.audit_{name}", "the empirical ε an attack certifies (99.9% lower bound) ≤ the "
                      "claimed ε", "—", f"{name}, claimed ε = {MI_EPSILON:g}, δ = {delta:g}; {MI_DRAWS} runs "
                      f"a side, event {audit.event[0]} {audit.event[1]:.3g}", MI_EPSILON, "<=",
                      value=audit.epsilon_lower)]
    pld, low = composed_laplace(0.1, 1000, per_step=2000), composed_laplace(0.1, 1000, pessimistic=False)
    samples, mc_pld, k = monte_carlo_delta(seed), composed_laplace(MC_EPSILON0, MC_K), 16
    rng, eps0 = np.random.default_rng([seed, 43]), 1 / math.sqrt(k)
    roc = attacks.likelihood_ratio_roc(-composed_losses(eps0, k, ROC_DRAWS, rng),
                                       -composed_losses(eps0, k, ROC_DRAWS, rng, member=True),
                                       confidence=ROC_CONFIDENCE)
    target = Laplace.for_rmse(1.0, CHOOSE_RMSE)
    errors = target.sample(np.zeros(200_000), np.random.default_rng([seed, 47]))
    return rows + [
        ReportRow("08.pld_bracket", "rounding up and rounding down bracket the truth within k × step: "
                  "ε_up(δ) − ε_down(δ) ≤ k × step", "—", f"k = 1000 Laplace steps of ε₀ = 0.1, δ = 10⁻⁶, "
                  f"step {pld.step:g}: {low.epsilon(1e-6):.4f} ≤ ε ≤ {pld.epsilon(1e-6):.4f}",
                  pld.rounding_bound, "<=", value=pld.epsilon(1e-6) - low.epsilon(1e-6)),
        ReportRow("08.pld_reference", "PLD accounting of 1,000 Laplace mechanisms of ε₀ = 0.1: ε(10⁻⁶) = "
                  "18.95 (pessimistic, within 0.5%)", "—", f"grid step {pld.step:g}, rounding bound "
                  f"{pld.rounding_bound:.2g}; KOV gives {accounting(1000)['optimal (KOV)']:.2f}, advanced "
                  f"{accounting(1000)['advanced (DRV)']:.2f}", 18.95, "exact", value=pld.epsilon(1e-6),
                  rel_tol=0.005),
        ReportRow("08.pld_monte_carlo", "δ(ε) of the composed PLD = the mean of (1 − e^(ε − L))₊ over "
                  "sampled privacy losses L", "—", f"k = {MC_K} Laplace steps of ε₀ = {MC_EPSILON0:g}, "
                  f"ε = {MC_EPSILON:g}; {MC_DRAWS} sampled losses", float(mc_pld.delta(MC_EPSILON)), "=",
                  interval=lambda c: mean_ci(samples, c)),
        ReportRow("08.composed_tradeoff", "the attacker's ROC on k composed Laplace releases meets the PLD's "
                  "trade-off curve (two-sided)", "—", f"k = {k} steps of ε₀ = 1/√k; score = the summed loss; "
                  f"{ROC_DRAWS} runs a side, {roc.thresholds.size} boxes", 0.0, "<=",
                  value=float(violations(roc, composed_laplace(eps0, k).tradeoff, two_sided=True).size)),
        ReportRow("08.rmse_target", "the count released at ε = √2 / RMSE has mean squared error RMSE² "
                  "(2/ε², notebook 1)", "—", f"RMSE = {CHOOSE_RMSE:g}: ε = {target.epsilon:.4f}; 2·10⁵ "
                  "releases", CHOOSE_RMSE**2, "=", interval=lambda c: mean_ci(errors**2, c)),
    ]
