"""Lesson 8, what epsilon promises: figures and the panels (notebook 8 and ``python -m dplab figures``)."""

from __future__ import annotations

import math

import ipywidgets as widgets
import numpy as np
from scipy import stats

from dplab.accounting import epsilons, gdp_limit_mu
from dplab.attacks import composed_roc, membership_by_bin, privacy_loss_samples
from dplab.lab import plots
from dplab.lab import widgets as w
from dplab.lab.lessons.l08_what_epsilon_promises import report as lesson
from dplab.lab.plots import ACCOUNTANT_STYLES, COLORS, PALETTE, errorbar_ci, here_marker, new_figure
from dplab.mechanisms import Laplace, laplace_mse
from dplab.promises import posterior, posterior_bound, tradeoff_dp, tradeoff_gdp

#: the α axis of every trade-off plot, and the ε axis of section 5's panel
ALPHA, CHOOSE_EPSILONS = np.linspace(0, 1, 401), np.geomspace(0.01, 10, 300)
MECHANISM_COLORS = {**COLORS, "randomized response": PALETTE[2], "truth or rr": PALETTE[3]}
#: bounds are drawn thick, light and under the curves, so a curve on its bound leaves it visible
BOUND_COLOR = "#c8c8c8"
EPSILON_COLORS = dict(zip(lesson.POSTERIOR_EPSILONS, (PALETTE[i] for i in (5, 0, 3, 4)), strict=True))


def figure_posterior():
    """The posterior bound of an eps-DP release and a Bayesian attacker (left), per output (right)."""
    (fig, (ax, ax_y)), prior = new_figure(2, width=4.6, height=3.9), np.linspace(0.001, 0.999, 400)
    ax.plot(prior, prior, ":", color="0.5", lw=1, label="no release: posterior = prior")
    for eps in lesson.POSTERIOR_EPSILONS:  # the intervals at the level of the notebook's asserts
        color, level = EPSILON_COLORS[eps], lesson.LEVEL
        ax.plot(prior, posterior_bound(prior, eps), color=color, lw=1.5, label=f"bound at ε = {eps:g}")
        cis = [membership_by_bin(*lesson.bayes_attack(eps, p), [1, np.inf], level)[0]  # y >= 1: ratio e^eps
               for p in lesson.POSTERIOR_PRIORS]
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
                label=f"simulated: share of 'in'\nper bin ({level:.2%} CI)")
    ax_y.axhline(float(posterior_bound(p, eps)), color=EPSILON_COLORS[1.0], ls="--", lw=1,
                 label=f"the bound: {posterior_bound(p, eps):.3f}")
    ax_y.axhline(p, color="0.5", ls=":", lw=1, label=f"the prior: {p:g}")
    ax_y.set(xlim=(-4, 5), ylim=(0, 0.3), xlabel="released count y (0 without Alice, 1 with her)",
             ylabel="posterior Pr[in | y]", title=f"one release at ε = {eps:g}, prior {p:g}")
    ax_y.legend(fontsize=7, loc="lower right")  # clear of the bound line and the points that reach it
    fig.tight_layout()
    return fig


def figure_tradeoff():
    """Trade-off curves at eps = 1 (left), of two (1, 0.05)-DP mechanisms (right), and the attacker's ROCs."""
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
    """Membership inference (log-log): the attacks on the count and the mean; TPR <= e^eps FPR + delta."""
    fig, axes = new_figure(2, width=4.6, height=4.0)
    fpr, eps = np.geomspace(1e-6, 1, 300), lesson.MI_EPSILON
    for ax, release in zip(axes, ("count", "mean"), strict=True):
        delta, roc = lesson.RELEASE_DELTA[release], lesson.membership(release)[0]
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
    """k Laplace releases near their Gaussian limit (left), their PLD (middle), eps(delta) by accounting."""
    fig, (ax, ax_h, ax_e) = new_figure(3, width=3.9, height=4.0)
    plots.tradeoff_axes(ax, "k Laplace steps of ε₀ = 1/√k")
    ax.set(xlabel="α", ylabel="β")
    k, eps0, grid = max(lesson.CLT_KS), 1 / math.sqrt(max(lesson.CLT_KS)), np.linspace(-3, 4, 300)
    colors, widths = (PALETTE[5], PALETTE[0], PALETTE[2], PALETTE[4]), (1.4, 1.4, 4, 1.6)  # 64 inside 16
    for kk, color, lw in zip(lesson.CLT_KS, colors, widths, strict=True):
        pld = lesson.composed_laplace(1 / math.sqrt(kk), kk)  # exact by FFT: its CDF drifts to N(μ²/2, μ²)
        ax.plot(ALPHA, pld.tradeoff(ALPHA), color=color, lw=lw, label=f"k = {kk}")
        ax_h.step(np.r_[-3, pld.losses], np.r_[0, np.cumsum(pld.pmf)], where="post", color=color, lw=lw,
                  label=f"k = {kk} (FFT)")
    mu = gdp_limit_mu(Laplace(1.0, eps0).pld(step=1e-3), k)  # the limits: grey bands under the curves
    ax.plot(ALPHA, tradeoff_gdp(ALPHA, mu), color=BOUND_COLOR, lw=6, zorder=1, label=f"Gaussian, μ={mu:.2f}")
    ax.legend(fontsize=7, loc="upper right", title="exact (PLD)", title_fontsize=7)
    quantiles = np.linspace(0.025, 0.975, 20)  # the 200,000 sampled total losses of k = 64 steps
    sampled = privacy_loss_samples(Laplace(1.0, eps0), np.zeros(k), np.ones(k), 200_000,
                                   np.random.default_rng([lesson.SEED, 53]))
    ax_h.plot(np.quantile(sampled, quantiles), quantiles, "o", ms=3, mfc="none", mew=0.8, color=PALETTE[3],
              label=f"k = {k}, sampled (2·10⁵)")
    ax_h.plot(grid, stats.norm.cdf(grid, mu**2 / 2, mu), color=BOUND_COLOR, lw=6, zorder=1,
              label=f"N(μ²/2, μ²), μ = {mu:.2f}")
    ax_h.set(xlim=(-3, 4), ylim=(0, 1), xlabel="total privacy loss L", ylabel="Pr[L ≤ l]",
             title="the PLD's CDF drifts to a Gaussian")
    ax_h.legend(fontsize=7, loc="upper left")
    table = [epsilons(Laplace(1.0, lesson.ACCOUNT_EPSILON), k, lesson.ACCOUNT_DELTA, lesson.ACCOUNTANTS)
             for k in lesson.ACCOUNT_KS]
    for name in (accountant.name for accountant in lesson.ACCOUNTANTS):
        color, ls = ACCOUNTANT_STYLES[name]
        kov = name.startswith("optimal")  # large open squares, the PLD (drawn last) thin through them
        ax_e.plot(lesson.ACCOUNT_KS, [row[name] for row in table], ls, color=color, lw=2.5 if kov else 1.2,
                  marker="s" if kov else "o", ms=7 if kov else 3, mfc="none" if kov else color, label=name)
    ax_e.set(xscale="log", yscale="log", xlabel="k releases", ylabel=f"ε at δ = {lesson.ACCOUNT_DELTA:g}",
             title=f"k Laplace releases of ε₀ = {lesson.ACCOUNT_EPSILON:g}")
    ax_e.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


# --- the promise panel ----------------------------------------------------------------------------
PANEL_KS = (1, 2, 4, 8, 16, 32, 64)
PANEL_PRIORS = (0.001, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5)
PANEL_DRAWS = 4000


class PromiseView:
    """What k releases sharing epsilon promise: their exact trade-off curve, an attacker, the posterior."""

    def __init__(self):
        self.fig, (ax, ax_p) = new_figure(2, width=4.2, height=4.3)
        self.prior, self.ax = np.linspace(0.001, 0.999, 300), ax
        plots.tradeoff_axes(ax, "the attacker's errors")
        ax.set(xlabel="α: false alarms", ylabel="β: misses")
        (self.bound,) = ax.plot(ALPHA, ALPHA, "k--", lw=1.2, label="f_ε,δ of the total (any such release)")
        (self.curve,) = ax.plot(ALPHA, ALPHA, lw=1.6, color=PALETTE[0], label="these k releases (exact)")
        (self.limit,) = ax.plot(ALPHA, ALPHA, lw=5, color=BOUND_COLOR, zorder=1, label="Gaussian limit")
        (self.roc,) = ax.plot([], [], "o", ms=3, color=PALETTE[3], label="simulated attacker")
        ax.legend(fontsize=7, loc="upper right")
        ax_p.plot(self.prior, self.prior, ":", color="0.5", lw=1, label="no release")
        (self.post,) = ax_p.plot(self.prior, self.prior, lw=1.6, color=PALETTE[0], label="posterior bound")
        self.here = here_marker(ax_p, 0.1, 0.1, "your prior's bound")
        self.text = ax_p.text(0.97, 0.05, "", transform=ax_p.transAxes, fontsize=8, ha="right")
        ax_p.set(xlim=(0, 1), ylim=(0, 1), aspect="equal", xlabel="prior", ylabel="posterior at most",
                 title="the attacker's belief")
        ax_p.legend(fontsize=7, loc="upper left")
        self.fig.tight_layout()
        self.dynamic = [self.bound, self.curve, self.limit, self.roc, self.post, self.here, self.text]

    def update(self, values: dict, seed: int) -> str:
        eps, prior = float(values["epsilon"]), float(values["prior"])
        mechanism, delta, k = str(values["mechanism"]), float(values["delta"]), int(values["k"])
        gaussian, step = mechanism == "gaussian", lesson.section_mechanism(mechanism, eps / k, delta / k)
        # the PLD of k steps by FFT, grid eps0/200 (RR's losses +-eps0 on it) or mu0/100 for the Gaussian
        one = step.pld(step=step.mu / 100 if gaussian else step.epsilon / 200)
        pld, mu = one.compose(k), gdp_limit_mu(one, k)  # for the Gaussian exact: sqrt(k) mu0 (DRS 2022)
        curve, at_delta = pld.tradeoff(ALPHA), pld.epsilon(delta)  # at the slider's delta
        name = {"laplace": "Laplace", "gaussian": "Gaussian"}.get(mechanism, mechanism)
        self.ax.set_title(f"k = {k} {name} release{'s' * (k > 1)} of {'(ε, δ)' if gaussian else 'ε'}/{k}")
        self.bound.set_ydata(tradeoff_dp(ALPHA, eps, delta if gaussian else 0.0))
        self.curve.set(ydata=curve, color=MECHANISM_COLORS[mechanism])
        self.limit.set(ydata=tradeoff_gdp(ALPHA, mu), visible=k > 1)
        # the attacker on the k releases: as epsilon moves, the same standard draws rescaled
        roc = composed_roc(step, k, PANEL_DRAWS, np.random.default_rng([lesson.SEED, 61, seed]), n_points=24)
        self.roc.set_data(roc.alpha, roc.beta)
        bound = float(posterior_bound(prior, eps))
        self.post.set(ydata=posterior_bound(self.prior, eps), linestyle="--" if gaussian else "-")
        self.here.set_data([prior], [bound])
        self.text.set_text("the Gaussian is not ε-DP:\nthis curve is not its bound" if gaussian
                           else f"{prior:g} → at most {bound:.3f}")
        each = f"{k} release{'s' if k > 1 else ''} of " + (
            f"(ε/k, δ/k) = ({eps / k:.3g}, {delta / k:.2g})" if gaussian else f"ε/k = {eps / k:.3g}")
        exact = (f"{'together they are' if k > 1 else 'it is'} exactly μ-GDP with μ = {mu:.3f}; by FFT ε = "
                 f"{at_delta:.3f} at δ = {delta:.2g}" if gaussian
                 else f"at δ = {delta:.2g} its exact ε (PLD) is {at_delta:.3f}: nothing to compose"
                 if k == 1 else f"exact accounting (PLD) puts them at ε = {at_delta:.3f} for δ = "
                 f"{delta:.2g}, {'below' if at_delta < eps - 5e-4 else 'at'} the ε = {eps:.3g} that "
                 "basic composition charges at δ = 0")
        return (f"ε = {eps:.3g}, {mechanism}: {each}; {exact}. The simulated attacker ({PANEL_DRAWS} runs a "
                "side) stays on or above the exact curve, up to sampling noise."
                + (w.promise(mu=mu) if gaussian else w.promise(epsilon=eps, prior=prior)))


PROMISE_PANEL = w.ViewPanel(PromiseView, lambda: {
    "epsilon": w.epsilon_slider(1.0, 0.1, 5.0),
    "prior": widgets.SelectionSlider(options=PANEL_PRIORS, value=0.1, description="prior"),
    "mechanism": widgets.ToggleButtons(options=list(lesson.SIMULATED[:3]), value="laplace",
                                       description="mechanism"),
    "delta": w.delta_slider(1e-6, 1e-9, 1e-2),
    "k": widgets.SelectionSlider(options=PANEL_KS, value=16, description="k releases")})


# --- the panel of section 5: choosing epsilon from both sides -------------------------------------
class ChooseView:
    """A count's RMSE target fixes epsilon (notebook 1), epsilon the posterior bound: both against epsilon."""

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
        self.here = here_marker(ax_p, 1.0, 0.2)
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


CHOOSE_PANEL = w.ViewPanel(ChooseView, lambda: {
    "rmse": widgets.FloatLogSlider(value=lesson.CHOOSE_RMSE, base=10, min=-0.5, max=2, step=0.05,
                                   description="target RMSE", readout_format=".3g"),
    "prior": widgets.SelectionSlider(options=PANEL_PRIORS, value=lesson.CHOOSE_PRIOR, description="prior")})


def figures() -> dict[str, object]:
    return {"08_posterior": figure_posterior(), "08_tradeoff": figure_tradeoff(),
            "08_membership": figure_membership(), "08_composition": figure_composition(),
            "08_promise_panel": PROMISE_PANEL.figure(), "08_choose_panel": CHOOSE_PANEL.figure()}


PANELS = (
    w.PanelCase("08 promise panel (epsilon, mechanism, k, delta, prior)", PROMISE_PANEL.panel,
                {"epsilon": list(w.BENCH_EPSILONS[:6]), "k": [1, 8, 64], "delta": [1e-3, 1e-9],
                 "mechanism": ["gaussian", "randomized response", "laplace"], "prior": [0.01, 0.5]},
                # the step starts at panel 1 (panel 0 is the RMSE target)
                w.BrowserStep(1, "epsilon", w.EPSILON_STEP, f"ε = {w.EPSILON_STEP}")),
    w.PanelCase("08 choose panel (target RMSE, prior)", CHOOSE_PANEL.panel,
                {"rmse": [0.5 * 160 ** (i / 11) for i in range(12)], "prior": [0.01, 0.3]}),
)
