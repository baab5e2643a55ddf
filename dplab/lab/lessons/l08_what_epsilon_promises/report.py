"""Lesson 8, what epsilon promises: the computations, report rows and exercises (no plotting;
the figures and the panels are in ``views.py``).

Notebook ``notebooks/08_what_epsilon_promises.ipynb``. The attacker's side of the budgets of
notebooks 1-7: posterior odds (Wasserman & Zhou 2010), trade-off functions (Kairouz, Oh &
Viswanath 2015; Dong, Roth & Su 2022), membership inference on a released statistic, and
exact accounting with privacy loss distributions (Sommer, Meiser & Mohammadi 2019; Koskela,
Jalko & Honkela 2020).

Throughout: D is the data without Alice's record, D' the data with it (or, for the mean,
with Alice in place of another student); an attacker's test says "D'" (Alice is in) or "D";
alpha is its false-alarm rate Pr_D[says D'], beta its miss rate Pr_D'[says D].
"""

from __future__ import annotations

import math

import numpy as np

from dplab.accounting import (
    AdvancedAccountant,
    BasicAccountant,
    OptimalAccountant,
    PLDAccountant,
    PrivacyLossDistribution,
    ZCDPAccountant,
    epsilons,
    gdp_limit_mu,
)
from dplab.attacks import EmpiricalRoc, likelihood_ratio_roc, roc_violations
from dplab.audit import audit_epsilon
from dplab.datasets import load_yrbss
from dplab.lab.cache import cached
from dplab.lab.report import ReportRow
from dplab.mechanisms import EpsilonDelta, Gaussian, Laplace, Mechanism, RandomizedResponse, gaussian_sigma
from dplab.promises import posterior, posterior_bound, tradeoff_dp
from dplab.simulate import mean_ci, proportion_ci

NOTEBOOK = "08_what_epsilon_promises.ipynb"
PREFIX = "08"
SEED = 2034
#: the confidence of every simulated ROC's boxes, simultaneous over the curve (Bonferroni inside)
ROC_CONFIDENCE = 0.999

# --- 1. prior to posterior -----------------------------------------------------------------------

POSTERIOR_EPSILONS = (0.5, 1.0, 2.0, 4.0)
POSTERIOR_PRIORS = (0.01, 0.05, 0.1, 0.25, 0.5)
BAYES_DRAWS = 400_000


@cached(maxsize=64)
def bayes_attack(epsilon: float, prior: float, draws: int = BAYES_DRAWS, seed: int = SEED):
    """A simulated Bayesian attacker. Alice's record is in the data with probability ``prior``;
    the curator releases the count with Laplace noise (sensitivity 1, scale 1/epsilon): the
    count is c = 0 without her, 1 with her. Returns (membership, outputs), ``draws`` of each."""
    rng = np.random.default_rng([seed, round(epsilon * 1000), round(prior * 10_000)])
    member = rng.random(draws) < prior
    return member, member + rng.laplace(0.0, 1.0 / epsilon, draws)


def bayes_posterior(y, epsilon: float, prior: float):
    """The attacker's posterior Pr[in | y] (dplab.promises.posterior): its likelihood ratio is the
    Laplace count's privacy loss e^(eps (|y| - |y - 1|)), e^eps for every y >= 1."""
    loss = Laplace(1.0, epsilon).privacy_loss(np.asarray(y, dtype=float)[..., None], [1.0], [0.0])
    return posterior(prior, loss)


def attacker_at_the_bound(epsilon: float, prior: float, seed: int = SEED) -> tuple[int, int]:
    """(members, runs) among the simulated releases with y >= 1, where the likelihood ratio is
    e^eps and the attacker's posterior is exactly the bound: the share of members there is
    the posterior the bound states."""
    member, y = bayes_attack(epsilon, prior, seed=seed)
    region = y >= 1
    return int(np.sum(member[region])), int(np.sum(region))


# --- 2. trade-off curves ------------------------------------------------------------------------

TRADEOFF_EPSILON = 1.0
#: the small delta of the left panel, and the large one that makes delta visible on the right
SMALL_DELTA, LARGE_DELTA = 1e-5, 0.05
ROC_DRAWS = 200_000


def section_mechanism(name: str, epsilon: float = TRADEOFF_EPSILON, delta: float = SMALL_DELTA) -> Mechanism:
    """Section 2's mechanisms at (epsilon, delta), by their display name: the Laplace count
    (sensitivity 1), the analytic Gaussian (mu-GDP: drawn as N(0, 1) against N(mu, 1)),
    randomized response, and "the truth with probability delta, else randomized response"
    (Kairouz, Oh & Viswanath's extreme pair, whose curve is f_{eps, delta})."""
    mechanisms = {
        "laplace": lambda: Laplace(1.0, epsilon),
        "gaussian": lambda: Gaussian(Gaussian.calibrated(1.0, epsilon, delta).mu, 1.0),
        "randomized response": lambda: RandomizedResponse(epsilon),
        "truth or rr": lambda: EpsilonDelta(epsilon, delta),
    }
    if name not in mechanisms:
        raise ValueError(f"name must be one of {tuple(mechanisms)}, got name={name!r}")
    return mechanisms[name]()


SIMULATED = ("laplace", "gaussian", "randomized response", "truth or rr")


@cached(maxsize=16)
def simulated_roc(name: str, epsilon: float = TRADEOFF_EPSILON, delta: float = SMALL_DELTA,
                  draws: int = ROC_DRAWS, seed: int = SEED) -> EmpiricalRoc:
    """The Neyman-Pearson attacker's ROC from ``draws`` outputs of M(D) and of M(D'): the
    output itself is its score (the likelihood ratio grows with it)."""
    rng = np.random.default_rng([seed, SIMULATED.index(name)])
    mechanism = section_mechanism(name, epsilon, delta)
    if isinstance(mechanism, Gaussian):
        on_d, on_d_prime = 0.0, mechanism.sensitivity
    else:
        on_d, on_d_prime = 0, 1
    a, b = mechanism.sample(on_d, rng, size=draws), mechanism.sample(on_d_prime, rng, size=draws)
    if isinstance(mechanism, RandomizedResponse):
        return likelihood_ratio_roc(a, b, thresholds=[0.5], confidence=ROC_CONFIDENCE)
    if isinstance(mechanism, EpsilonDelta):
        return likelihood_ratio_roc(a, b, thresholds=[0.5, 1.5, 2.5], confidence=ROC_CONFIDENCE)
    return likelihood_ratio_roc(a, b, confidence=ROC_CONFIDENCE)


# --- 3. membership inference ----------------------------------------------------------------------

MI_EPSILON, MI_DELTA = 1.0, 1e-5
MI_DRAWS = 1_000_000
#: heights clipped to [1.4, 2.0] m; n public (replace-one neighbours)
HEIGHT_LOW, HEIGHT_HIGH = 1.4, 2.0


@cached(maxsize=2)
def heights() -> np.ndarray:
    """The shipped survey's heights (m), the data of the DP mean."""
    return np.asarray(load_yrbss()["height_m"], dtype=float)


def mean_pair() -> tuple[float, float, float]:
    """(clipped mean on D, on D', noise sigma). D' is the survey with its first student
    replaced by Alice at the upper clip bound, D with a student at the lower bound: the
    worst pair for the clipped mean, moved by its sensitivity (high - low)/n. sigma is the
    analytic Gaussian's for (MI_EPSILON, MI_DELTA)."""
    h = np.clip(heights(), HEIGHT_LOW, HEIGHT_HIGH)
    n = h.size
    rest = float(np.sum(h[1:]))
    sensitivity = (HEIGHT_HIGH - HEIGHT_LOW) / n
    sigma = gaussian_sigma(sensitivity, MI_EPSILON, MI_DELTA)
    return (rest + HEIGHT_LOW) / n, (rest + HEIGHT_HIGH) / n, sigma


def count_sampler(data: float, size: int, rng: np.random.Generator) -> np.ndarray:
    """The DP count: the true count (without Alice 0, with her 1, shifted) + Lap(1/MI_EPSILON)."""
    return data + rng.laplace(0.0, 1.0 / MI_EPSILON, size)


def mean_sampler(data: float, size: int, rng: np.random.Generator) -> np.ndarray:
    """The DP mean: the clipped mean + N(0, sigma^2), sigma from mean_pair."""
    return data + mean_pair()[2] * rng.standard_normal(size)


@cached(maxsize=4)
def membership_roc(release: str, seed: int = SEED) -> EmpiricalRoc:
    """The attacker's ROC on MI_DRAWS releases with and without Alice (its score: the release)."""
    sampler, (d, d_prime) = _release(release)
    rng = np.random.default_rng([seed, 31, ("count", "mean").index(release)])
    return likelihood_ratio_roc(sampler(d, MI_DRAWS, rng), sampler(d_prime, MI_DRAWS, rng), n_points=30,
                                confidence=ROC_CONFIDENCE)


def _release(release: str):
    if release == "count":
        return count_sampler, (0.0, 1.0)
    if release == "mean":
        low, high, _ = mean_pair()
        return mean_sampler, (low, high)
    raise ValueError(f"release must be 'count' or 'mean', got release={release!r}")


def release_delta(release: str) -> float:
    """The count is pure eps-DP; the Gaussian mean is (eps, delta)-DP."""
    return 0.0 if release == "count" else MI_DELTA


@cached(maxsize=4)
def membership_audit(release: str, seed: int = SEED):
    """dplab.audit.audit_epsilon on the release: a 99.9% lower bound on its epsilon (delta counted)."""
    sampler, (d, d_prime) = _release(release)
    return audit_epsilon(sampler, d, d_prime, n_runs=MI_DRAWS, n_pilot=200_000, delta=release_delta(release),
                         confidence=ROC_CONFIDENCE,
                         rng=np.random.default_rng([seed, 37, ("count", "mean").index(release)]))


# --- 4. composition --------------------------------------------------------------------------------

#: the CLT figure: k Laplace steps of eps0 = 1/sqrt(k) each
CLT_KS = (1, 4, 16, 64)
#: the accounting figure: k Laplace steps of eps0 = 0.1 at delta = 1e-6
ACCOUNT_EPSILON, ACCOUNT_DELTA = 0.1, 1e-6
ACCOUNT_KS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
#: the accountants of the table and the figure; the PLD's grid is 2000 points per step's loss range
ACCOUNTANTS = (BasicAccountant(), AdvancedAccountant(), OptimalAccountant(), ZCDPAccountant("cks"),
               PLDAccountant(step=2 * ACCOUNT_EPSILON / 2000))


def accounting(k: int) -> dict[str, float]:
    """eps(ACCOUNT_DELTA) of k Laplace releases of ACCOUNT_EPSILON, by each of ACCOUNTANTS."""
    return epsilons(Laplace(1.0, ACCOUNT_EPSILON), k, ACCOUNT_DELTA, ACCOUNTANTS)


@cached(maxsize=32)
def composed_laplace(epsilon0: float, k: int, pessimistic: bool = True, per_step: int = 2000
                     ) -> PrivacyLossDistribution:
    """The PLD of k Laplace mechanisms of epsilon0 each, ``per_step`` grid points per step's loss
    range [-eps0, eps0] (rounding bound k * eps0 / (per_step/2))."""
    accountant = PLDAccountant(step=2 * epsilon0 / per_step, pessimistic=pessimistic)
    return accountant.compose(Laplace(1.0, epsilon0), k).pld()


def clt_mu(k: int) -> float:
    """The Gaussian limit of k Laplace steps of 1/sqrt(k): sqrt(2 k KL) (dplab.accounting.gdp_limit_mu)."""
    return gdp_limit_mu(Laplace(1.0, 1 / math.sqrt(k)).pld(step=1e-3), k)


def composed_losses(epsilon0: float, k: int, draws: int, rng: np.random.Generator, member: bool = False):
    """Sampled total privacy losses of k Laplace releases (the count 0 on D, 1 on D') drawn on D
    (or on D' with ``member``): Laplace.privacy_loss summed over the k steps. Each step's loss is
    also the Neyman-Pearson attacker's score."""
    laplace = Laplace(1.0, epsilon0)
    return laplace.privacy_loss(laplace.sample(np.full(k, 1.0 if member else 0.0), rng, size=draws), 0.0, 1.0)


#: the Monte Carlo check of the PLD: k steps of eps0, delta at MC_EPSILON
MC_K, MC_EPSILON0, MC_EPSILON, MC_DRAWS = 50, 0.1, 1.0, 400_000


@cached(maxsize=2)
def monte_carlo_delta(seed: int = SEED) -> np.ndarray:
    """(1 - e^(eps - L))_+ for MC_DRAWS sampled total losses L: their mean is delta(eps)."""
    losses = composed_losses(MC_EPSILON0, MC_K, MC_DRAWS, np.random.default_rng([seed, 41]))
    return np.clip(-np.expm1(MC_EPSILON - losses), 0.0, None)


# --- 5. choosing epsilon from both sides ----------------------------------------------------------

CHOOSE_RMSE, CHOOSE_PRIOR = 5.0, 0.1


# --- the report -----------------------------------------------------------------------------------


def report_rows(seed: int = SEED) -> list[ReportRow]:
    """This lesson's rows of figures/REPORT.md."""
    rows = []
    for eps in (0.5, 2.0):
        for prior in (0.01, 0.25):
            members, runs = attacker_at_the_bound(eps, prior, seed)
            rows.append(ReportRow(
                f"08.posterior_{eps:g}_{prior:g}",
                "a Bayesian attacker's posterior reaches e^ε p / (1 − p + e^ε p) where the likelihood "
                "ratio is e^ε",
                "—",
                f"ε = {eps:g}, prior {prior:g}; Laplace count, the {runs} of {BAYES_DRAWS} releases "
                "with y ≥ 1",
                float(posterior_bound(prior, eps)),
                "=",
                interval=lambda c, members=members, runs=runs: proportion_ci(members, runs, c),
            ))
    curves = (("laplace", 0.0), ("gaussian", SMALL_DELTA), ("randomized response", 0.0),
              ("gaussian", LARGE_DELTA), ("truth or rr", LARGE_DELTA))
    alpha = np.linspace(0, 1, 201)
    for name, delta in curves:
        roc = simulated_roc(name, delta=delta or SMALL_DELTA, seed=seed)

        def f(a, name=name, delta=delta):
            return section_mechanism(name, delta=delta or SMALL_DELTA).tradeoff(a)

        below = int(np.sum(f(alpha) < tradeoff_dp(alpha, 1.0, delta) - 1e-12))
        rows.append(ReportRow(
            f"08.tradeoff_{name.replace(' ', '_')}_{delta:g}",
            "the attacker's ROC meets the exact trade-off curve (boxes off it, two-sided), and the curve "
            "lies above f_ε,δ (grid points below it): their sum",
            "—",
            f"ε = 1{f', δ = {delta:g}' if delta else ''}; {ROC_DRAWS} outputs a side, {roc.thresholds.size} "
            f"boxes at {ROC_CONFIDENCE:.1%} simultaneous; 201 grid points of α",
            0.0,
            "<=",
            value=float(roc_violations(roc, f, two_sided=True).size + below),
        ))
    for release in ("count", "mean"):
        roc = membership_roc(release, seed)
        delta = release_delta(release)
        rows.append(ReportRow(
            f"08.membership_{release}",
            "membership inference: TPR ≤ e^ε FPR + δ (boxes wholly above the bound, one-sided)",
            "—",
            f"{'Laplace count' if release == 'count' else 'Gaussian clipped mean (replace-one)'}, ε = "
            f"{MI_EPSILON:g}, δ = {delta:g}; {MI_DRAWS} releases a side, {roc.thresholds.size} boxes",
            0.0,
            "<=",
            value=float(roc_violations(roc, lambda a, d=delta: tradeoff_dp(a, MI_EPSILON, d)).size),
        ))
        audit = membership_audit(release, seed)
        rows.append(ReportRow(
            f"08.audit_{release}",
            "the empirical ε an attack certifies (99.9% lower bound) ≤ the claimed ε",
            "—",
            f"{release}, claimed ε = {MI_EPSILON:g}, δ = {delta:g}; {MI_DRAWS} runs a side, event "
            f"{audit.event[0]} {audit.event[1]:.3g}",
            MI_EPSILON,
            "<=",
            value=audit.epsilon_lower,
        ))
    pld = composed_laplace(0.1, 1000, per_step=2000)
    low = composed_laplace(0.1, 1000, pessimistic=False)
    rows.append(ReportRow(
        "08.pld_bracket",
        "rounding up and rounding down bracket the truth within k × step: ε_up(δ) − ε_down(δ) ≤ k × step",
        "—",
        f"k = 1000 Laplace steps of ε₀ = 0.1, δ = 10⁻⁶, step {pld.step:g}: {low.epsilon(1e-6):.4f} ≤ ε ≤ "
        f"{pld.epsilon(1e-6):.4f}",
        pld.rounding_bound,
        "<=",
        value=pld.epsilon(1e-6) - low.epsilon(1e-6),
    ))
    rows.append(ReportRow(
        "08.pld_reference",
        "PLD accounting of 1,000 Laplace mechanisms of ε₀ = 0.1: ε(10⁻⁶) = 18.95 (pessimistic, within 0.5%)",
        "—",
        f"grid step {pld.step:g}, rounding bound {pld.rounding_bound:.2g}; KOV gives "
        f"{accounting(1000)['optimal (KOV)']:.2f}, advanced {accounting(1000)['advanced (DRV)']:.2f}",
        18.95,
        "exact",
        value=pld.epsilon(1e-6),
        rel_tol=0.005,
    ))
    samples = monte_carlo_delta(seed)
    mc_pld = composed_laplace(MC_EPSILON0, MC_K)
    rows.append(ReportRow(
        "08.pld_monte_carlo",
        "δ(ε) of the composed PLD = the mean of (1 − e^(ε − L))₊ over sampled privacy losses L",
        "—",
        f"k = {MC_K} Laplace steps of ε₀ = {MC_EPSILON0:g}, ε = {MC_EPSILON:g}; {MC_DRAWS} sampled losses",
        float(mc_pld.delta(MC_EPSILON)),
        "=",
        interval=lambda c: mean_ci(samples, c),
    ))
    k = 16
    rng = np.random.default_rng([seed, 43])
    eps0 = 1 / math.sqrt(k)
    roc = likelihood_ratio_roc(-composed_losses(eps0, k, ROC_DRAWS, rng),
                               -composed_losses(eps0, k, ROC_DRAWS, rng, member=True),
                               confidence=ROC_CONFIDENCE)
    exact = composed_laplace(eps0, k)
    rows.append(ReportRow(
        "08.composed_tradeoff",
        "the attacker's ROC on k composed Laplace releases meets the PLD's trade-off curve (two-sided)",
        "—",
        f"k = {k} steps of ε₀ = 1/√k; score = the summed loss; {ROC_DRAWS} runs a side, "
        f"{roc.thresholds.size} boxes",
        0.0,
        "<=",
        value=float(roc_violations(roc, exact.tradeoff, two_sided=True).size),
    ))
    target = Laplace.for_rmse(1.0, CHOOSE_RMSE)
    eps_target = target.epsilon
    errors = target.sample(np.zeros(200_000), np.random.default_rng([seed, 47]))
    rows.append(ReportRow(
        "08.rmse_target",
        "the count released at ε = √2 / RMSE has mean squared error RMSE² (2/ε², notebook 1)",
        "—",
        f"RMSE = {CHOOSE_RMSE:g}: ε = {eps_target:.4f}; 2·10⁵ releases",
        CHOOSE_RMSE**2,
        "=",
        interval=lambda c: mean_ci(errors**2, c),
    ))
    return rows
