"""Lesson 8, what epsilon promises: figures and the panels (notebook 8 and ``python -m dplab figures``)."""

from __future__ import annotations

import math

import ipywidgets as widgets
import numpy as np
from scipy import stats

from dplab.accounting import gdp_limit_mu
from dplab.attacks import likelihood_ratio_roc, mechanism_roc, membership_by_bin
from dplab.lab import plots
from dplab.lab import widgets as w
from dplab.lab.cache import cached
from dplab.lab.lessons.l08_what_epsilon_promises import report as lesson
from dplab.lab.plots import ACCOUNTANT_STYLES, COLORS, PALETTE, errorbar_ci, new_figure
from dplab.mechanisms import Gaussian, Laplace, RandomizedResponse, laplace_mse
from dplab.promises import posterior, posterior_bound, tradeoff_dp, tradeoff_gdp
from dplab.simulate import proportion_ci

#: the α axis of every trade-off plot, and the ε axis of section 5's panel
ALPHA, CHOOSE_EPSILONS = np.linspace(0, 1, 401), np.geomspace(0.01, 10, 300)
MECHANISM_COLORS = {"laplace": COLORS["laplace"], "gaussian": COLORS["gaussian"],
                    "randomized response": PALETTE[2], "truth or rr": PALETTE[3]}
#: bounds are drawn thick, light and under the curves, so a curve on its bound leaves it visible
BOUND_COLOR = "#c8c8c8"
EPSILON_COLORS = dict(zip(lesson.POSTERIOR_EPSILONS, (PALETTE[i] for i in (5, 0, 3, 4)), strict=True))


def figure_posterior():
    """Left: the most a prior can grow after an eps-DP release, with the simulated Bayesian attacker
    where the likelihood ratio is e^eps. Right: its posterior at each output of the Laplace count."""
    (fig, (ax, ax_y)), prior = new_figure(2, width=4.6, height=3.9), np.linspace(0.001, 0.999, 400)
    ax.plot(prior, prior, ":", color="0.5", lw=1, label="no release: posterior = prior")
    for eps in lesson.POSTERIOR_EPSILONS:  # the intervals at the level of the notebook's asserts
        color, level = EPSILON_COLORS[eps], lesson.LEVEL
        ax.plot(prior, posterior_bound(prior, eps), color=color, lw=1.5, label=f"bound at ε = {eps:g}")
        cis = [proportion_ci(*lesson.attacker_at_the_bound(eps, p), level) for p in lesson.POSTERIOR_PRIORS]
        errorbar_ci(ax, lesson.POSTERIOR_PRIORS, cis, fmt="o", ms=3.5, color=color)
    ax.plot([], [], "o", ms=3.5, color="0.3", label=f"simulated attacker, outputs y ≥ 1 ({level:.2%} CI)")
    ax.set(xlim=(0, 1), ylim=(0, 1), xlabel="prior: Pr[Alice is in] before the release",
           ylabel="posterior: Pr[Alice is in | release]", title="how far one ε-DP release can move a belief")
    ax.legend(fontsize=7, loc="lower right")
    eps, p, edges, grid = 1.0, 0.1, np.arange(-4.0, 5.01, 0.5), np.linspace(-4, 5, 400)
    loss = Laplace(1.0, eps).privacy_loss(grid[:, None], [1.0], [0.0])  # Bayes' rule: the ratio is e^loss
    ax_y.plot(grid, posterior(p, loss), "k-", lw=1.5, label="Bayes' rule")
    cis = membership_by_bin(*lesson.bayes_attack(eps, p), edges, level)
    errorbar_ci(ax_y, (edges[:-1] + edges[1:]) / 2, cis, fmt="o", ms=3.5, color=PALETTE[0],
                label=f"simulated: share of 'in' per bin ({level:.2%} CI)")
    ax_y.axhline(float(posterior_bound(p, eps)), color=EPSILON_COLORS[1.0], ls="--", lw=1,
                 label=f"the bound: {posterior_bound(p, eps):.3f}")
    ax_y.axhline(p, color="0.5", ls=":", lw=1, label=f"the prior: {p:g}")
    ax_y.set(xlim=(-4, 5), ylim=(0, 0.3), xlabel="released count y (0 without Alice, 1 with her)",
             ylabel="posterior Pr[in | y]", title=f"one release at ε = {eps:g}, prior {p:g}")
    ax_y.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def figure_tradeoff():
    """The trade-off curves of Laplace, randomized response and the Gaussian at eps = 1 (left), and
    two (1, 0.05)-DP mechanisms (right), with the simulated attacker's ROC over each."""
    fig, (ax, ax_d) = new_figure(2, width=4.6, height=4.6)
    eps, large, mechanism = lesson.TRADEOFF_EPSILON, lesson.LARGE_DELTA, lesson.section_mechanism
    plots.tradeoff_axes(ax, f"ε = {eps:g}: three mechanisms")
    ax.plot(ALPHA, tradeoff_dp(ALPHA, eps), "-", color=BOUND_COLOR, lw=5, zorder=1,
            label=f"f_ε: any {eps:g}-DP mechanism is above")
    gaussian = f"Gaussian at (ε, {lesson.SMALL_DELTA:g}), μ = {mechanism('gaussian', eps).mu:.2f}"
    for name, label in (("randomized response", "randomized response (on f_ε)"),
                        ("laplace", "Laplace, b = 1/ε"), ("gaussian", gaussian)):
        ax.plot(ALPHA, mechanism(name).tradeoff(ALPHA), color=MECHANISM_COLORS[name], lw=1.4, label=label)
        plots.roc_boxes(ax, lesson.simulated_roc(name), MECHANISM_COLORS[name])
    ax.plot([], [], "o", ms=2.5, color="0.3", label="simulated attacker (99.9% boxes)")
    ax.legend(fontsize=7, loc="upper right")
    plots.tradeoff_axes(ax_d, f"(ε, δ) = ({eps:g}, {large:g}): two mechanisms")
    ax_d.plot(ALPHA, tradeoff_dp(ALPHA, eps), ":", color="k", lw=1, label="f_ε (δ = 0)")
    ax_d.plot(ALPHA, tradeoff_dp(ALPHA, eps, large), "-", color=BOUND_COLOR, lw=5, zorder=1,
              label="f_ε,δ (under the first curve)")
    for name, label in (("truth or rr", "with prob. δ tell the truth, else RR"),
                        ("gaussian", f"Gaussian, μ = {mechanism('gaussian', eps, large).mu:.2f}")):
        ax_d.plot(ALPHA, mechanism(name, delta=large).tradeoff(ALPHA), color=MECHANISM_COLORS[name], lw=1.4,
                  label=label)
        plots.roc_boxes(ax_d, lesson.simulated_roc(name, delta=large), MECHANISM_COLORS[name])
    ax_d.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    return fig


def figure_membership():
    """Membership inference on log-log axes: the attacker's ROC on the Laplace count and on the
    Gaussian clipped mean, against TPR <= e^eps FPR + delta."""
    fig, axes = new_figure(2, width=4.6, height=4.0)
    fpr, eps = np.geomspace(1e-6, 1, 300), lesson.MI_EPSILON
    for ax, release in zip(axes, ("count", "mean"), strict=True):
        delta, roc = lesson.RELEASE_DELTA[release], lesson.membership_roc(release)
        exact = 1 - lesson.release(release)[0].tradeoff(fpr)  # the Gaussian's: G_mu, mu = Delta/sigma
        title = (f"DP count, Laplace, ε = {eps:g}" if release == "count"
                 else f"DP mean (replace-one), Gaussian at ({eps:g}, {lesson.MI_DELTA:g})")
        ax.plot(fpr, np.minimum(1, math.exp(eps) * fpr + delta), "-", color=BOUND_COLOR, lw=5, zorder=1,
                label=f"bound: TPR ≤ e^ε FPR{' + δ' if delta else ''}")
        ax.plot(fpr, exact, color=MECHANISM_COLORS["laplace" if release == "count" else "gaussian"], lw=1.4,
                label="the best attack (exact)")
        ax.plot(fpr, fpr, ":", color="0.5", lw=1, label="guessing: TPR = FPR")
        plots.roc_boxes(ax, roc, PALETTE[3], "simulated attack, 10⁶ a side (99.9% boxes)", tpr=True,
                  keep=roc.alpha > 0)
        ax.set(xscale="log", yscale="log", xlim=(1e-6, 1), ylim=(1e-6, 1.2), title=title,
               xlabel="false positive rate (Alice out, said in)", ylabel="true positive rate")
        ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def figure_composition():
    """Left: k composed Laplace releases of eps0 = 1/sqrt(k) in the trade-off plane, approaching the
    Gaussian limit. Middle: the PLD of k = 64 (exact, sampled, Gaussian). Right: eps(delta) of k
    releases of eps0 = 0.1 by every accounting."""
    fig, (ax, ax_h, ax_e) = new_figure(3, width=3.9, height=4.0)
    plots.tradeoff_axes(ax, "k Laplace steps of ε₀ = 1/√k")
    ax.set(xlabel="α", ylabel="β")
    for k, color in zip(lesson.CLT_KS, (PALETTE[5], PALETTE[0], PALETTE[2], PALETTE[4]), strict=True):
        ax.plot(ALPHA, lesson.composed_laplace(1 / math.sqrt(k), k).tradeoff(ALPHA), color=color, lw=1.4,
                label=f"k = {k} (exact, PLD)")
    k, eps0 = max(lesson.CLT_KS), 1 / math.sqrt(max(lesson.CLT_KS))
    mu, pld = gdp_limit_mu(Laplace(1.0, eps0).pld(step=1e-3), k), lesson.composed_laplace(eps0, k)
    ax.plot(ALPHA, tradeoff_gdp(ALPHA, mu), "k--", lw=1.2,
            label=f"Gaussian, same mean loss as k = 64: μ = {mu:.2f}")
    ax.legend(fontsize=7, loc="upper right")
    # each step's loss has atoms at +-eps0 (outputs beyond the two counts), so the sum has atoms on a
    # lattice of spacing 2 eps0: bins of that width, centred on it, hold one atom each
    edges, width, grid = np.arange(-3.0, 4.0 + eps0, 2 * eps0) - eps0, 2 * eps0, np.linspace(-3, 4, 300)
    sampled = lesson.composed_losses(eps0, k, 200_000, np.random.default_rng([lesson.SEED, 53]))
    ax_h.stairs(np.histogram(pld.losses, bins=edges, weights=pld.pmf)[0] / width, edges, color=PALETTE[0],
                lw=1.5, label="exact PLD (FFT)")
    ax_h.hist(sampled, bins=edges, density=True, color=PALETTE[1], alpha=0.45, label="sampled losses (2·10⁵)")
    ax_h.plot(grid, stats.norm.pdf(grid, mu**2 / 2, mu), "k--", lw=1.2, label=f"N(μ²/2, μ²), μ = {mu:.3f}")
    ax_h.set(xlim=(-3, 4), ylim=(0, 0.62), xlabel="total privacy loss L", ylabel="density",
             title=f"the PLD of k = {k} steps of ε₀ = {eps0:g}")
    ax_h.legend(fontsize=7, loc="upper left")
    table = [lesson.accounting(k) for k in lesson.ACCOUNT_KS]
    for name in (accountant.name for accountant in lesson.ACCOUNTANTS):
        color, ls = ACCOUNTANT_STYLES[name]
        kov = name.startswith("optimal")  # open squares on top: it lies between zCDP and the PLD
        ax_e.plot(lesson.ACCOUNT_KS, [row[name] for row in table], ls, color=color, lw=1.5,
                  marker="s" if kov else "o", ms=5 if kov else 3, mfc="none" if kov else color, label=name,
                  zorder=3 if kov else 2)
    ax_e.set(xscale="log", yscale="log", xlabel="k releases", ylabel=f"ε at δ = {lesson.ACCOUNT_DELTA:g}",
             title=f"k Laplace releases of ε₀ = {lesson.ACCOUNT_EPSILON:g}")
    ax_e.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


# --- the promise panel ----------------------------------------------------------------------------
PANEL_MECHANISMS = ("laplace", "gaussian", "randomized response")
PANEL_KS = (1, 2, 4, 8, 16, 32, 64)
PANEL_PRIORS = (0.001, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5)
PANEL_DRAWS, PANEL_DELTA = 4000, 1e-6
#: grid points per step of the panel's PLDs: its rounding moves the total loss by at most eps / 200
PANEL_PER_STEP = 400


@cached(maxsize=64)
def panel_curve(mechanism: str, epsilon: float, delta: float, k: int) -> tuple[np.ndarray, float, float]:
    """(trade-off curve on ALPHA, eps' at PANEL_DELTA by exact accounting or mu, the Gaussian limit's
    mu) of k releases of epsilon / k each ((epsilon/k, delta/k) for the Gaussian)."""
    eps0 = epsilon / k
    if mechanism == "gaussian":
        mu = math.sqrt(k) * Gaussian.calibrated(1.0, eps0, delta / k).mu
        return tradeoff_gdp(ALPHA, mu), mu, mu
    # randomized response's losses +-eps0 sit on its grid, so its PLD is exact
    one = (Laplace(1.0, eps0).pld(step=2 * eps0 / PANEL_PER_STEP) if mechanism == "laplace"
           else RandomizedResponse(eps0).pld(step=eps0 / 50))
    pld = one.compose(k)
    return pld.tradeoff(ALPHA), pld.epsilon(PANEL_DELTA), gdp_limit_mu(one, k)


@cached(maxsize=4)
def _standard_draws(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Standard Laplace draws (max k x PANEL_DRAWS) for D and D', per panel seed."""
    rng = np.random.default_rng([lesson.SEED, 61, seed])
    return (rng.laplace(0, 1, (PANEL_DRAWS, max(PANEL_KS))), rng.laplace(0, 1, (PANEL_DRAWS, max(PANEL_KS))))


def panel_roc(mechanism: str, epsilon: float, delta: float, k: int, seed: int):
    """The simulated attacker's ROC on PANEL_DRAWS runs a side of the k releases (its score: the
    summed privacy loss, or a monotone function of it)."""
    eps0 = epsilon / k
    rng = np.random.default_rng([lesson.SEED, 67, seed, k, round(epsilon * 1e4)])
    if mechanism == "laplace":
        z, z_prime = _standard_draws(seed)  # rescaled, not redrawn, as eps and k move
        loss = Laplace(1.0, eps0).privacy_loss
        return likelihood_ratio_roc(-loss(z[:, :k] / eps0, 0.0, 1.0),
                                    -loss(1 + z_prime[:, :k] / eps0, 0.0, 1.0), n_points=24)
    if mechanism == "gaussian":
        mu = math.sqrt(k) * Gaussian.calibrated(1.0, eps0, delta / k).mu  # N(0, 1) against N(mu, 1)
        return mechanism_roc(Gaussian(mu, 1.0), 0.0, mu, PANEL_DRAWS, rng, n_points=24)
    keep = RandomizedResponse(eps0).keep  # the number of 1s among k reports: binomial on each side
    return likelihood_ratio_roc(rng.binomial(k, 1 - keep, PANEL_DRAWS), rng.binomial(k, keep, PANEL_DRAWS),
                                thresholds=np.arange(k) + 0.5)


class PromiseView:
    """What k releases sharing a total epsilon promise: their exact trade-off curve under
    f_{eps, delta} of the total, with a simulated attacker's ROC; and the posterior bound."""

    def __init__(self):
        self.fig, (self.ax, self.ax_p) = new_figure(2, width=4.2, height=4.3)
        ax, ax_p, self.prior = self.ax, self.ax_p, np.linspace(0.001, 0.999, 300)
        plots.tradeoff_axes(ax, "the attacker's errors")
        ax.set(xlabel="α: false alarms", ylabel="β: misses")
        (self.bound,) = ax.plot(ALPHA, ALPHA, "k--", lw=1.2, label="f_ε,δ of the total (any such release)")
        (self.curve,) = ax.plot(ALPHA, ALPHA, lw=1.6, color=PALETTE[0], label="these k releases (exact)")
        (self.limit,) = ax.plot(ALPHA, ALPHA, ":", lw=1.2, color=PALETTE[4], label="Gaussian limit")
        (self.roc,) = ax.plot([], [], "o", ms=3, color=PALETTE[3], label="simulated attacker")
        ax.legend(fontsize=7, loc="upper right")
        ax_p.plot(self.prior, self.prior, ":", color="0.5", lw=1, label="no release")
        (self.post,) = ax_p.plot(self.prior, self.prior, lw=1.6, color=PALETTE[0], label="posterior bound")
        (self.here,) = ax_p.plot([0.1], [0.1], "o", ms=8, mfc="none", mec=PALETTE[3], mew=2,
                                 label="your prior's bound")
        self.text = ax_p.text(0.97, 0.05, "", transform=ax_p.transAxes, fontsize=8, ha="right")
        ax_p.set(xlim=(0, 1), ylim=(0, 1), aspect="equal", xlabel="prior", ylabel="posterior at most",
                 title="the attacker's belief")
        ax_p.legend(fontsize=7, loc="upper left")
        self.fig.tight_layout()
        self.dynamic = [self.bound, self.curve, self.limit, self.roc, self.post, self.here, self.text]

    def update(self, values: dict, seed: int) -> str:
        eps, prior = float(values["epsilon"]), float(values["prior"])
        mechanism, delta, k = str(values["mechanism"]), float(values["delta"]), int(values["k"])
        gaussian, (curve, at_delta, mu) = mechanism == "gaussian", panel_curve(mechanism, eps, delta, k)
        self.bound.set_ydata(tradeoff_dp(ALPHA, eps, delta if gaussian else 0.0))
        self.curve.set(ydata=curve, color=MECHANISM_COLORS[mechanism])
        self.limit.set(ydata=tradeoff_gdp(ALPHA, mu), visible=k > 1 and not gaussian)
        roc = panel_roc(mechanism, eps, delta, k, seed)
        self.roc.set_data(roc.alpha, roc.beta)
        bound = float(posterior_bound(prior, eps))
        self.post.set(ydata=posterior_bound(self.prior, eps), linestyle="--" if gaussian else "-")
        self.here.set_data([prior], [bound])
        self.text.set_text("the Gaussian is not ε-DP:\nthis curve is not its bound" if gaussian
                           else f"{prior:g} → at most {bound:.3f}")
        each = f"{k} release{'s' if k > 1 else ''} of " + (
            f"(ε/k, δ/k) = ({eps / k:.3g}, {delta / k:.2g})" if gaussian else f"ε/k = {eps / k:.3g}")
        exact = (f"{'together they are' if k > 1 else 'it is'} exactly μ-GDP with μ = {mu:.3f}" if gaussian
                 else f"at δ = {PANEL_DELTA:g} its exact ε (PLD) is {at_delta:.3f}: nothing to compose"
                 if k == 1 else f"exact accounting (PLD) puts them at ε = {at_delta:.3f} for δ = "
                 f"{PANEL_DELTA:g}, {'below' if at_delta < eps - 5e-4 else 'at'} the ε = {eps:.3g} that "
                 "basic composition charges")
        return (f"ε = {eps:.3g}, {mechanism}: {each}; {exact}. The simulated attacker ({PANEL_DRAWS} runs a "
                "side) stays on or above the exact curve, up to sampling noise."
                + (w.promise(mu=mu) if gaussian else w.promise(epsilon=eps, prior=prior)))


def figure_promise_panel(epsilon: float = 1.0, prior: float = 0.1, mechanism: str = "laplace",
                         delta: float = 1e-6, k: int = 16):
    values = {"epsilon": epsilon, "prior": prior, "mechanism": mechanism, "delta": delta, "k": k}
    return w.view_figure(PromiseView, values, 0)


def promise_panel(seed: int = 0) -> w.SliderPanel:
    return w.view_panel(PromiseView, {
        "epsilon": w.epsilon_slider(1.0, 0.1, 5.0),
        "prior": widgets.SelectionSlider(options=PANEL_PRIORS, value=0.1, description="prior"),
        "mechanism": widgets.ToggleButtons(options=list(PANEL_MECHANISMS), value="laplace",
                                           description="mechanism"),
        "delta": w.delta_slider(1e-6, 1e-9, 1e-2),
        "k": widgets.SelectionSlider(options=PANEL_KS, value=16, description="k releases")}, seed)


# --- the panel of section 5: choosing epsilon from both sides -------------------------------------
class ChooseView:
    """A count's error target fixes epsilon (notebook 1's formula); epsilon fixes the most an
    attacker's belief can grow (the posterior bound): both curves against epsilon, linked."""

    def __init__(self):
        self.fig, (ax, ax_p) = new_figure(2, width=4.2, height=3.6)
        ax.plot(CHOOSE_EPSILONS, np.sqrt(laplace_mse(1.0, CHOOSE_EPSILONS)), color=COLORS["laplace"], lw=1.6,
                label="RMSE = √2/ε")
        self.target = ax.axhline(lesson.CHOOSE_RMSE, color="0.4", ls=":", lw=1, label="your target")
        self.line = ax.axvline(1.0, color=PALETTE[3], lw=1.2, label="the ε it needs")
        ax.set(xscale="log", yscale="log", xlim=(0.01, 10), ylim=(0.1, 200), xlabel="ε",
               ylabel="root-mean-square error of the count", title="the analyst's side")
        ax.legend(fontsize=7, loc="upper right")
        (self.post,) = ax_p.plot(CHOOSE_EPSILONS, CHOOSE_EPSILONS, lw=1.6, color=PALETTE[4],
                                 label="posterior bound at your prior")
        self.prior_line = ax_p.axhline(lesson.CHOOSE_PRIOR, color="0.4", ls=":", lw=1, label="the prior")
        self.line_p = ax_p.axvline(1.0, color=PALETTE[3], lw=1.2, label="the same ε")
        (self.here,) = ax_p.plot([1.0], [0.2], "o", ms=8, mfc="none", mec=PALETTE[3], mew=2)
        ax_p.set(xscale="log", xlim=(0.01, 10), ylim=(0, 1), xlabel="ε", ylabel="Pr[Alice is in] at most",
                 title="the person's side")
        ax_p.legend(fontsize=7, loc="upper left")
        self.fig.tight_layout()
        self.dynamic = [self.target, self.line, self.post, self.prior_line, self.line_p, self.here]

    def update(self, values: dict, seed: int) -> str:
        rmse, prior = float(values["rmse"]), float(values["prior"])
        eps = Laplace.for_rmse(1.0, rmse).epsilon
        bound = float(posterior_bound(prior, eps))
        self.target.set_ydata([rmse, rmse])
        for line in (self.line, self.line_p):
            line.set_xdata([eps, eps])
        self.post.set_ydata(posterior_bound(prior, CHOOSE_EPSILONS))
        self.prior_line.set_ydata([prior, prior])
        self.here.set_data([eps], [bound])
        return (f"A count with root-mean-square error {rmse:.3g} needs ε = √2/{rmse:.3g} = {eps:.3g}; "
                f"then an attacker {prior:.0%} sure that Alice is in can become at most {bound:.1%} sure."
                + w.promise(epsilon=eps, prior=prior))


def figure_choose_panel(rmse: float = lesson.CHOOSE_RMSE, prior: float = lesson.CHOOSE_PRIOR):
    return w.view_figure(ChooseView, {"rmse": rmse, "prior": prior}, 0)


def choose_panel(seed: int = 0) -> w.SliderPanel:
    return w.view_panel(ChooseView, {
        "rmse": widgets.FloatLogSlider(value=lesson.CHOOSE_RMSE, base=10, min=-0.5, max=2, step=0.05,
                                       description="target RMSE", readout_format=".3g"),
        "prior": widgets.SelectionSlider(options=PANEL_PRIORS, value=lesson.CHOOSE_PRIOR,
                                         description="prior")}, seed)


def figures() -> dict[str, object]:
    return {"08_posterior": figure_posterior(), "08_tradeoff": figure_tradeoff(),
            "08_membership": figure_membership(), "08_composition": figure_composition(),
            "08_promise_panel": figure_promise_panel(), "08_choose_panel": figure_choose_panel()}


PANELS = (
    w.PanelCase("08 promise panel (epsilon, mechanism, k, delta, prior)", promise_panel,
                {"epsilon": list(w.BENCH_EPSILONS[:6]), "k": [1, 8, 64], "delta": [1e-3, 1e-9],
                 "mechanism": ["gaussian", "randomized response", "laplace"], "prior": [0.01, 0.5]},
                # the step starts at panel 1 (panel 0 is the RMSE target)
                w.BrowserStep(1, "epsilon", w.EPSILON_STEP, f"ε = {w.EPSILON_STEP}")),
    w.PanelCase("08 choose panel (target RMSE, prior)", choose_panel,
                {"rmse": [0.5 * 160 ** (i / 11) for i in range(12)], "prior": [0.01, 0.3]}),
)
