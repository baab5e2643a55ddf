"""Lesson 12, learning with DP: figures and the utility panel (notebook 12 and ``python -m dplab figures``)."""

from __future__ import annotations

import numpy as np

from dplab import learning
from dplab.lab.lessons.l12_learning import report as lesson
from dplab.lab.plots import PALETTE, errorbar_ci, new_figure, roc_boxes, value_ticks
from dplab.simulate import mean_ci


def figure_leak():
    """Members' against non-members' losses (left); the loss-threshold attack's ROC, log-log (middle); the
    generalisation gap against n for two degrees (right)."""
    fig, (ax, ax_roc, ax_n) = new_figure(3, width=4.2, height=3.8)
    degree, n = lesson.LEAK_DEGREES[1], lesson.LEAK_NS[0]
    inside, outside = lesson.leak_losses(degree, n)
    bins = np.linspace(-6, 1, 50)
    ax.hist(np.log10(np.maximum(outside.ravel(), 1e-12)), bins=bins, density=True, alpha=0.5, color=PALETTE[0], label="non-members")
    ax.hist(np.log10(np.maximum(inside.ravel(), 1e-12)), bins=bins, density=True, alpha=0.5, color=PALETTE[3], label="members")
    ax.set(xlabel="log₁₀ of the per-example loss", ylabel="density",
           title=f"degree {degree}, n = {n}: {lesson.LEAK_FITS} models pooled")
    ax.legend(fontsize=7)
    for n, color in zip(lesson.ROC_NS, (PALETTE[3], PALETTE[1], PALETTE[2]), strict=True):
        roc = lesson.leak_roc(degree, n)
        roc_boxes(ax_roc, roc, color, f"n = {n}: advantage {learning.membership_advantage(roc):.3f}", tpr=True)
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
    """Per-example gradient norms at w = 0 and at the non-private fit (left); what clipping to C costs
    against the noise it calls for (right)."""
    fig, (ax, ax_c) = new_figure(2, width=4.8, height=3.6)
    X, y, _, _ = lesson.task()
    fitted = lesson.nonprivate_model().weights
    clips = np.array(lesson.CLIPS)
    size = lesson.STEP_RATE * lesson.TRAIN
    for w, name, color in ((np.zeros(X.shape[1]), "w = 0", PALETTE[0]), (fitted, "w = the non-private fit",
                                                                         PALETTE[3])):
        g = learning.logistic_gradients(w, X, y)
        ax.hist(np.linalg.norm(g, axis=1), bins=40, alpha=0.5, color=color, label=name)
        bias = [np.linalg.norm(learning.clipping_bias(g, c)) for c in clips]
        ax_c.plot(clips, bias, color=color, lw=1.5, label=f"‖clipping bias‖ at {name}")
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


def figures() -> dict[str, object]:
    return {"12_leak": figure_leak(), "12_clipping": figure_clipping()}


PANELS: tuple = ()
