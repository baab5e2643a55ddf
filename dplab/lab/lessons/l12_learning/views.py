"""Lesson 12, learning with DP: figures and the utility panel (notebook 12, ``python -m dplab figures``)."""

from __future__ import annotations

import numpy as np

from dplab import learning
from dplab.lab import widgets as w
from dplab.lab.lessons.l12_learning import report as lesson
from dplab.lab.plots import PALETTE, errorbar_ci, new_figure, roc_boxes, tradeoff_axes, value_ticks
from dplab.promises import tradeoff_dp
from dplab.simulate import mean_ci

#: the accounting figure: one (sigma, q) over T; the perturbation learners' colours
ACCOUNT_SIGMA, ACCOUNT_RATE, ACCOUNT_TS = 1.0, 0.01, (10, 30, 100, 300, 1000, 3000, 10_000)
METHOD_COLORS = {"output": PALETTE[1], "objective": PALETTE[4]}


def figure_leak():
    """Members' and non-members' losses (left), the loss-threshold attack's ROC (middle), the gap (right)."""
    fig, (ax, ax_roc, ax_n) = new_figure(3, width=4.2, height=3.8)
    degree, n = lesson.LEAK_DEGREES[1], lesson.LEAK_NS[0]
    inside, outside = lesson.leak_losses(degree, n)
    for losses, color, label in ((outside, PALETTE[0], "non-members"), (inside, PALETTE[3], "members")):
        ax.hist(np.log10(np.maximum(losses.ravel(), 1e-12)), bins=np.linspace(-6, 1, 50), density=True,
                alpha=0.5, color=color, label=label)
    ax.set(xlabel="log₁₀ of the per-example loss", ylabel="density",
           title=f"degree {degree}, n = {n}: {lesson.LEAK_FITS} models pooled")
    ax.legend(fontsize=7)
    for n, color in zip(lesson.ROC_NS, (PALETTE[3], PALETTE[1], PALETTE[2]), strict=True):
        roc = lesson.leak_roc(degree, n)
        label = f"n = {n}: advantage {learning.membership_advantage(roc):.3f}"
        roc_boxes(ax_roc, roc, color, label, tpr=True)
    ax_roc.plot([0, 1], [0, 1], ":", color="0.5", lw=1, label="TPR = FPR (no leak)")
    ax_roc.set(xlim=(0, 1), ylim=(0, 1), aspect="equal", xlabel="FPR (non-members said in)",
               ylabel="TPR (members said in)", title=f"loss-threshold attack, degree {degree} (99.9% boxes)")
    ax_roc.legend(fontsize=7, loc="lower right")
    for degree, color in zip(lesson.LEAK_DEGREES, (PALETTE[0], PALETTE[3]), strict=True):
        cis = [mean_ci(lesson.loss_gap(degree, n), lesson.LEVEL) for n in lesson.LEAK_NS]
        errorbar_ci(ax_n, lesson.LEAK_NS, cis, fmt="o-", ms=4, color=color,
                    label=f"degree {degree} ({learning.n_features(degree)} features)")
    ax_n.axhline(0, color="0.5", ls=":", lw=1)
    ax_n.set(xscale="log", xlabel="n training students", ylabel="mean loss: non-members − members",
             title=f"the generalisation gap ({lesson.LEVEL:.2%} CI)")
    value_ticks(ax_n.xaxis, lesson.LEAK_NS)
    ax_n.legend(fontsize=7)
    fig.tight_layout()
    return fig


def figure_clipping():
    """Per-example gradient norms at w = 0 and at the non-private fit (left); the clipping bias against the
    noise a clipping norm calls for (right)."""
    fig, (ax, ax_c) = new_figure(2, width=4.8, height=3.6)
    X, y, _, _ = lesson.task()
    clips, size = np.array(lesson.CLIPS), lesson.STEP_RATE * lesson.TRAIN
    for weights, name, color in ((np.zeros(X.shape[1]), "w = 0", PALETTE[0]),
                                 (lesson.nonprivate_model().weights, "w = the non-private fit", PALETTE[3])):
        g = learning.logistic_gradients(weights, X, y)
        ax.hist(np.linalg.norm(g, axis=1), bins=40, alpha=0.5, color=color, label=name)
        ax_c.plot(clips, [np.linalg.norm(learning.clipping_bias(g, c)) for c in clips], color=color, lw=1.5,
                  label=f"‖clipping bias‖ at {name}")
    ax.axvline(lesson.STEP_CLIP, color="k", ls=":", lw=1, label=f"C = {lesson.STEP_CLIP:g}")
    ax.set(xlabel="‖g_i‖ per-example gradient norm", ylabel="students",
           title=f"{lesson.TRAIN} students, degree {lesson.DEGREE}")
    ax.legend(fontsize=7)
    ax_c.plot(clips, lesson.STEP_SIGMA * clips * np.sqrt(X.shape[1]) / size, color="0.4", ls="--", lw=1.2,
              label=f"noise σ C √d/(q n) (σ = {lesson.STEP_SIGMA:g}, q = {lesson.STEP_RATE:g})")
    ax_c.set(xscale="log", yscale="log", xlabel="clipping norm C", ylabel="norm",
             title="clipping bias against the noise")
    ax_c.legend(fontsize=7)
    fig.tight_layout()
    return fig


def figure_accounting():
    """epsilon(DELTA) against T for each order of the pair (PLD) and by RDP (left); the trade-off curve of
    the run that spends epsilon = 8 against f_{8, delta} (right)."""
    fig, (ax, ax_t) = new_figure(2, width=4.8, height=3.8)
    sigma, q, delta = ACCOUNT_SIGMA, ACCOUNT_RATE, lesson.DELTA
    for d, color, label in (("add", PALETTE[3], "PLD, adding a row (dp-acc.: REMOVE; the larger)"),
                            ("remove", PALETTE[0], "PLD, removing a row (dp-acc.: ADD)")):
        eps = [lesson.composed_pld(sigma, q, t, d, step=1e-3).epsilon(delta) for t in ACCOUNT_TS]
        ax.plot(ACCOUNT_TS, eps, "o-", ms=3, color=color, lw=1.5, label=label)
    rdp = [learning.dpsgd_epsilon(sigma, q, t, delta, accountant="rdp") for t in ACCOUNT_TS]
    ax.plot(ACCOUNT_TS, rdp, "s--", ms=3, color=PALETTE[2], lw=1.2, label="RDP, converted at the best order")
    ax.set(xscale="log", yscale="log", xlabel="T steps", ylabel=f"ε at δ = {delta:g}",
           title=f"σ = {sigma:g}, q = {q:g}: T steps of DP-SGD")
    ax.legend(fontsize=7)
    alpha, eps8 = np.linspace(0, 1, 401), lesson.PROMISE_EPSILON
    pld = lesson.composed_pld(lesson.promise_sigma(), lesson.PROMISE_RATE, lesson.PROMISE_STEPS, "add")
    tradeoff_axes(ax_t, f"what ε = {eps8:g} promises ({lesson.PROMISE_STEPS} steps, q = "
                        f"{lesson.PROMISE_RATE:g})")
    ax_t.plot(alpha, pld.tradeoff(alpha), color=PALETTE[3], lw=1.8,
              label=f"DP-SGD, σ = {lesson.promise_sigma():.3f} (its PLD)")
    corner = float(tradeoff_dp(1e-3, eps8, delta))  # drawn thick: it lies on the axes
    ax_t.plot(alpha, tradeoff_dp(alpha, eps8, delta), color=PALETTE[4], lw=4, clip_on=False, zorder=5,
              label=f"f_ε,δ: any ({eps8:g}, {delta:g})-DP release (on the axes)")
    ax_t.annotate(f"f_{eps8:g},δ lies on the axes:\nβ ≤ {corner:.1e} once α ≥ 0.001", xy=(0.01, 0.01),
                  xytext=(0.48, 0.58), fontsize=7, color=PALETTE[4], arrowprops={"arrowstyle": "->"})
    ax_t.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    return fig


class UtilityView:
    """Held-out accuracy against epsilon: every grid point (grey; lesson.grid_accuracy, grid_epsilon), output
    and objective perturbation, the non-private model; the chosen point and its sigma-curve move, and "new
    draw" shows the grid's other replicate run."""

    def __init__(self):
        self.fig, (ax,) = new_figure(1, width=6.4, height=4.2)
        acc, eps = lesson.grid_accuracy().mean(axis=-1), lesson.grid_epsilon()
        ax.scatter(np.broadcast_to(eps[..., None], acc.shape).ravel(), acc.ravel(), s=6, color="0.75",
                   label=f"DP-SGD, every point of the grid ({acc.size})")
        for method, color in METHOD_COLORS.items():
            ax.plot(lesson.PERTURB_EPSILONS, lesson.perturbation_accuracy(method).mean(axis=1), "s-", ms=3,
                    lw=1.2, color=color, label=f"{method} perturbation (replace-one, pure ε)")
        _, _, X_test, y_test = lesson.task()
        ax.axhline(lesson.nonprivate_model().accuracy(X_test, y_test), color="k", ls=":", label="non-private")
        (self.curve,) = ax.plot([], [], "o-", ms=4, lw=1.5, color=PALETTE[0], label="DP-SGD over σ")
        (self.here,) = ax.plot([], [], "o", ms=10, mfc="none", mew=2, color=PALETTE[3], label="this point")
        ax.set(xscale="log", xlim=(0.01, 100), ylim=(0.3, 0.85), xlabel=f"ε (δ = {lesson.DELTA:g}, DP-SGD)",
               ylabel="held-out accuracy", title=f"{lesson.TRAIN} training students, degree {lesson.DEGREE}")
        ax.legend(fontsize=7, loc="lower right")
        self.fig.tight_layout()
        self.dynamic = [self.curve, self.here]

    def update(self, values: dict, seed: int) -> str:
        i, j = lesson.SIGMAS.index(values["sigma"]), lesson.RATES.index(values["q"])
        t, k = lesson.STEPS.index(values["steps"]), lesson.CLIPS_GRID.index(values["clip"])
        r = seed % lesson.REPLICATES
        acc, eps = lesson.grid_accuracy()[:, j, t, k, r], lesson.grid_epsilon()[:, j, t]
        self.curve.set_data(eps, acc)
        self.here.set_data([eps[i]], [acc[i]])
        q, steps = values["q"], values["steps"]
        return (f"σ = {values['sigma']:g}, q = {q:g}, T = {steps}, C = {values['clip']:g} ({q * steps:g} "
                f"epochs, expected batch {q * lesson.TRAIN:g}; run {r + 1} of {lesson.REPLICATES}): held-out "
                f"accuracy {acc[i]:.3f}; ε = {eps[i]:.3g} at δ = {lesson.DELTA:g} (PLD)."
                + w.promise(epsilon=float(f"{eps[i]:.3g}"), delta=lesson.DELTA))


UTILITY_PANEL = w.ViewPanel(UtilityView, lambda: {
    "sigma": w.value_slider(lesson.SIGMAS, 1.0, "noise σ"), "q": w.value_slider(lesson.RATES, 0.1, "rate q"),
    "steps": w.value_slider(lesson.STEPS, 100, "steps T"),
    "clip": w.value_slider(lesson.CLIPS_GRID, 0.5, "clip C")})


def figure_audit():
    """The target's score (minus its loss) over the audit's models, without and with it: an average student
    and the canary at one epsilon, and the canary in an almost noiseless run."""
    fig, axes = new_figure(3, width=4.0, height=3.5)
    for ax, (target, epsilon) in zip(axes, [lesson.AUDITS[i] for i in (0, 2, 3)], strict=True):
        result, without, with_target = lesson.audit(target, epsilon)
        bins = np.linspace(min(without.min(), with_target.min()), max(without.max(), with_target.max()), 30)
        ax.hist(without, bins=bins, alpha=0.5, color=PALETTE[0], label="models without it")
        ax.hist(with_target, bins=bins, alpha=0.5, color=PALETTE[3], label="models with it")
        said = f"ε = {epsilon:g}" if epsilon is not None else f"σ = {lesson.AUDIT_TINY_SIGMA:g}"
        ax.set(xlabel="score: −loss of the target", ylabel="models",
               title=f"{target}, {said}: audit ε ≥ {result.epsilon_lower:.2f}")
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def figures() -> dict[str, object]:
    return {"12_leak": figure_leak(), "12_clipping": figure_clipping(), "12_accounting": figure_accounting(),
            "12_audit": figure_audit(), "12_utility_panel": UTILITY_PANEL.figure()}


PANELS = (w.PanelCase("12 utility panel (sigma, q, steps, clip)", UTILITY_PANEL.panel,
                      {"sigma": list(lesson.SIGMAS), "q": list(lesson.RATES), "steps": list(lesson.STEPS),
                       "clip": list(lesson.CLIPS_GRID)}, w.BrowserStep(0, "noise σ", "1.5", "σ = 1.5")),)
