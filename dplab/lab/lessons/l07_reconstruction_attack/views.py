"""Lesson 7, reconstruction attacks: figures and the panels (notebook 7 and ``python -m dplab figures``)."""

from __future__ import annotations

import math

import ipywidgets as widgets
import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.ticker import NullFormatter

import dplab.hadamard_attack as rec_h
import dplab.reconstruction as rec
from dplab.lab import widgets as lab_widgets
from dplab.lab.lessons.l07_reconstruction_attack import report as lesson
from dplab.lab.lessons.l07_reconstruction_attack.report import DELTA, DELTAS, DP_EPSILONS, DP_M, DP_N, design
from dplab.lab.plots import COLORS, PALETTE, errorbar_ci, here_marker, new_figure
from dplab.simulate import mean_ci

SPLIT_COLORS = {"basic": COLORS["normal"], "advanced": COLORS["classical"], "zcdp": COLORS["zcdp"]}
SIZE_COLORS = dict(zip(lesson.SIZES, (PALETTE[0], PALETTE[1], PALETTE[2]), strict=True))
#: bits grid: right 0, right 1, wrong
BIT_COLORS = ListedColormap(["#dcdcdc", "#4d4d4d", PALETTE[3]])
SHARE = {"ylabel": "share of bits recovered", "ylim": (0.45, 1.01)}


def figure_transition():
    """Least squares' share of bits recovered against the noise E / sqrt(n) (m = 2n) for three n,
    with the formula; and against m / n at E = 0.5 sqrt(n)."""
    fig, (ax, ax_m) = new_figure(2, width=5.2, height=3.7)
    grid = np.linspace(0.02, 1.5, 150)
    sd = rec.answer_noise_sd("uniform", grid * math.sqrt(300))
    ax.plot(grid, rec.ls_recovery_theory(300, 600, sd), "k-", lw=1.5,
            label="formula Φ(√(m − n)/(4σ)), σ = E/√3", zorder=1)
    for n in lesson.SIZES:
        d = design(n, 2 * n)
        ci = [mean_ci(d.shares("uniform", r * math.sqrt(n)), 0.95) for r in lesson.RATIOS]
        errorbar_ci(ax, lesson.RATIOS, ci, fmt="o", ms=3, color=SIZE_COLORS[n],
                    label=f"n = {n} (simulated, 95% CI)")
    ax.axvline(0.25, color="0.5", ls=":", lw=1)
    ax.text(0.27, 0.47, "E = √n / 4", fontsize=7, color="0.4")
    ax.axhline(0.5, color="0.5", lw=0.8)
    ax.text(1.2, 0.51, "a coin toss", fontsize=7, color="0.4")
    ax.set(xlabel="noise bound E / √n (uniform noise on [−E, E])", **SHARE,
           title="least squares, m = 2n random subset sums")
    ax.legend(fontsize=7, loc="upper right")
    n, ratio = 300, 0.5
    d_m = np.arange(1.05, 8.01, 0.05)
    sd = rec.answer_noise_sd("uniform", ratio * math.sqrt(n))
    ax_m.plot(d_m, rec.ls_recovery_theory(n, np.round(d_m * n).astype(int), sd), "k-", lw=1.5,
              label="formula")
    for mult in (1.5, 2, 3, 4, 6, 8):
        c = mean_ci(design(n, int(mult * n)).shares("uniform", ratio * math.sqrt(n)), 0.95)
        errorbar_ci(ax_m, [mult], [c], fmt="o", ms=4, color=SIZE_COLORS[300],
                    label="simulated, 95% CI" if mult == 1.5 else None)
    ax_m.set(xlabel="queries per secret bit m / n", **SHARE, title=f"more queries beat more noise (n = {n}, "
             f"E = {ratio:g}√n)")
    ax_m.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def figure_adversary():
    """Bits wrong when the answers are within E of the truth: random noise against the adversary
    whose answers are those of another database."""
    table, n = lesson.adversary_table(), lesson.ADVERSARY_N
    fig, (ax,) = new_figure(1, width=6.4, height=3.6)
    ratios = np.array(lesson.ADVERSARY_RATIOS)
    ax.plot(ratios, [table[r][1] for r in lesson.ADVERSARY_RATIOS], "o-", color=PALETTE[0],
            label=f"uniform noise on [−E, E]: least squares (mean of {lesson.DRAWS} draws)")
    ax.plot(ratios, [table[r][0] for r in lesson.ADVERSARY_RATIOS], "s-", color=PALETTE[3],
            label="answers of a decoy database, all within E: least squares finds the decoy")
    ax.axhline(n / 2, color="0.5", ls=":", lw=1)
    ax.text(0.26, n / 2 + 4, "half the bits (a coin toss)", fontsize=7, color="0.4")
    ax.set(xlabel="noise bound E / √n", ylabel=f"bits wrong (of {n})", ylim=(0, n),
           title=f"the same bound E, two kinds of noise (n = {n}, m = {2 * n})")
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def figure_hadamard():
    """The Fourier attack at n = 2^16: the share recovered against the noise sd per answer for the three
    noise models, on its theory curve (least squares' formula with m = 2n random queries)."""
    n, bits = lesson.HADAMARD_N, np.random.default_rng(lesson.SEED).integers(0, 2, lesson.HADAMARD_N)
    fig, (ax,) = new_figure(1, width=6.4, height=3.6)
    grid = np.linspace(0.02, 1.5, 150)
    ax.plot(grid, rec_h.hadamard_recovery_theory(n, grid * math.sqrt(n)), "k-", lw=1.5,
            label="theory Φ(√n/(4σ)): least squares' formula with m = 2n random queries")
    for i, kind in enumerate(lesson.KINDS):  # the scales of noise sd ratio * sqrt(n)
        scales = lesson.RATIOS * math.sqrt(n) / rec.answer_noise_sd(kind, 1)
        ax.plot(lesson.RATIOS, rec_h.hadamard_shares(bits, scales, noise=kind, rng=i)[:, 0], "os^"[i], ms=4,
                mfc="none", color=PALETTE[i], label=f"{kind} noise")
    ax.set(xlabel="noise sd per answer σ / √n", **SHARE, title="the Fourier attack: n = 2¹⁶ bits and queries")
    ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    return fig


def _bound_lines(ax):
    """The two bounds on any attacker against epsilon; returns the zCDP split's (Gaussian) line."""
    ax.plot(DP_EPSILONS, rec.dp_guessing_bound(DP_EPSILONS, DELTA), "--", color=COLORS["bound"], lw=1.6,
            label="any attacker: (ε, δ)-DP bound")
    return ax.plot(DP_EPSILONS, rec.zcdp_split_guessing_bound(DP_EPSILONS, DELTA), ":", color=COLORS["zcdp"],
                   lw=1.8, label="any attacker: zCDP split's Φ(√(ρ/2))")[0]


def figure_dp():
    """Least squares on DP answers against the budget, per composition split, under the bounds on
    any attacker; and the noise per answer against the number of queries."""
    fig, (ax, ax_sd) = new_figure(2, width=5.2, height=4.6)
    for split in lesson.SPLITS:
        ax.plot(DP_EPSILONS, lesson.dp_theory_curve(split), color=SPLIT_COLORS[split], lw=1.6,
                label=f"least squares, {split} split (formula)")
    d = design(DP_N, DP_M)
    for split in lesson.SPLITS:
        eps = DP_EPSILONS[::5]
        sims = [d.shares(*rec.dp_answer_noise(DP_M, float(e), delta=DELTAS[split], split=split)).mean()
                for e in eps]
        ax.plot(eps, sims, "o", ms=3.5, color=SPLIT_COLORS[split])
    ax.plot([], [], "ko", ms=3.5, label=f"simulated (mean of {lesson.DRAWS} releases)")
    _bound_lines(ax)
    ax.set(xscale="log", xlabel="total budget ε (δ = 10⁻⁶ except basic)", **SHARE,
           title=f"DP answers: n = {DP_N}, m = {DP_M}")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2)
    ms = np.unique(np.round(np.geomspace(10, 10_000, 40)).astype(int))
    for split in lesson.SPLITS:
        sds = [rec.answer_noise_sd(*rec.dp_answer_noise(int(m), 1.0, delta=DELTAS[split], split=split))
               for m in ms]
        ax_sd.plot(ms, sds, color=SPLIT_COLORS[split], lw=1.6, label=f"{split} split, ε = 1")
    need = [math.sqrt(m - DP_N) / (4 * 1.2816) if m > DP_N else np.nan for m in ms]
    ax_sd.plot(ms, need, "k--", lw=1.2, label=f"least squares gets 90% of n = {DP_N} bits below this")
    ax_sd.set(xscale="log", yscale="log", xlabel="number of queries m", ylabel="noise sd per answer",
              title="noise per answer for a total ε = 1")
    ax_sd.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def figure_robustness():
    """The bound on reconstructing a secret of prior success kappa, for eps-DP and mu-GDP, with the
    best attacks on a secret uniform over K values."""
    attacks, ks, draws = lesson.robustness_attacks(), lesson.ROBUST_K, lesson.ROBUST_DRAWS
    eps, mu = lesson.ROBUST_EPSILON, lesson.ROBUST_MU
    kappa = np.geomspace(1e-3, 0.999, 200)
    fig, (ax_e, ax_g) = new_figure(2, width=5.2, height=3.7)
    for ax, key, label, bound, attack_label, bit in (
        (ax_e, "rr", f"ε = {eps:g}", rec.reconstruction_robustness_bound(kappa, epsilon=eps),
         "K-ary randomized response", rec.dp_guessing_bound(eps)),
        (ax_g, "gdp", f"μ = {mu:g}", rec.reconstruction_robustness_bound(kappa, mu=mu),
         "Gaussian release, argmax attack", rec.gdp_guessing_bound(mu)),
    ):
        ax.plot(kappa, kappa, color="0.5", lw=1, label="prior success κ (no release)")
        ax.plot(kappa, bound, color=COLORS["bound"], lw=1.8, label=f"bound 1 − f(κ), {label}")
        ax.plot(1 / np.array(ks), [attacks[key][k] / draws for k in ks], "o", color=PALETTE[0], ms=5,
                label=f"{attack_label}, K = {', '.join(map(str, ks))}")
        ax.plot([0.5], [bit], "_", color="k", ms=16, mew=2.5, zorder=1,
                label=f"a bit: the exact bound {bit:.3f}")
        ax.set(xscale="log", yscale="log", xlabel="κ, the attacker's success without the release",
               ylabel="success of the best attack", xlim=(1e-3, 1), ylim=(1e-3, 1.05),
               title=f"reconstruction robustness, {'ε-DP' if key == 'rr' else 'μ-GDP'}")
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


# --- the panels ------------------------------------------------------------------------------------

PANEL_SIZES = (64, 144, 256, 400, 576, 1024)
PANEL_QUERY_RATIOS = (1.25, 1.5, 2.0, 3.0, 4.0)


class _BitsView:
    """A panel's figure: the secret's bits as a square image on the left (wrong ones orange), the
    share recovered on the right, where the marker ``here`` (starting at ``here``) shows that release."""

    def __init__(self, height: float, here: tuple[float, float], here_label: str):
        self.fig, (ax_bits, self.ax) = new_figure(2, width=4.4, height=height)
        self.ax.get_gridspec().set_width_ratios([1, 1.8])
        ax_bits.set(xticks=[], yticks=[])
        ax_bits.set_title("bits: 0 light grey, 1 dark grey,\nmissed by least squares orange", fontsize=8)
        self.image = ax_bits.imshow(np.zeros((16, 16)), cmap=BIT_COLORS, vmin=0, vmax=2, extent=(0, 1, 0, 1),
                                    interpolation="nearest")
        self.curves()
        self.here = here_marker(self.ax, *here, here_label, ms=9)

    def curves(self):
        """Draw the right-hand axes' curves (before the marker, so the marker is drawn over them)."""

    def show(self, d, right: np.ndarray, x: float) -> float:
        """Show the release whose per-bit verdicts are ``right`` at x; returns the share recovered."""
        side = math.isqrt(d.bits.size)  # a square image: 0 = a 0 recovered, 1 = a 1 recovered, 2 = wrong
        self.image.set_data(np.where(right, d.bits, 2).astype(float)[: side * side].reshape(side, side))
        share = float(right.mean())
        self.here.set_data([x], [share])
        return share


class AttackView(_BitsView):
    """Least squares against bounded noise: the bits and the share recovered on the formula's curve.
    The noise slider only rescales the cached estimation errors."""

    def __init__(self):
        super().__init__(3.6, (0.5, 0.8), "the draw on the left")
        self.ax.axhline(0.5, color="0.5", lw=0.8)
        self.text = self.ax.text(0.03, 0.05, "", transform=self.ax.transAxes, fontsize=8)
        self.ax.set(xlim=(0, 1.52), ylim=(0.45, 1.01), xlabel="noise bound E / √n",
                    ylabel="share of bits recovered", title="least squares on m random subset sums")
        self.ax.legend(fontsize=7, loc="upper right")
        self.fig.tight_layout()
        self.dynamic = [self.image, self.theory, self.sim, self.here, self.text]

    def curves(self):
        self.grid = np.linspace(0.02, 1.5, 120)
        (self.theory,) = self.ax.plot(self.grid, np.zeros_like(self.grid), "k-", lw=1.5, label="formula")
        (self.sim,) = self.ax.plot(lesson.RATIOS, np.zeros_like(lesson.RATIOS), "o", ms=3, color=PALETTE[0],
                                   label=f"simulated ({lesson.DRAWS} draws, the same rescaled)")

    def update(self, values: dict, seed: int) -> str:
        ratio, n = float(values["noise"]), int(values["n"])
        m = int(round(float(values["queries"]) * n))
        d, e = design(n, m), ratio * math.sqrt(n)
        right = d.correct("uniform", e)[:, seed % d.errors["uniform"].shape[1]]
        share = self.show(d, right, ratio)
        sd = rec.answer_noise_sd("uniform", self.grid * math.sqrt(n))
        self.theory.set_ydata(rec.ls_recovery_theory(n, m, sd))
        self.sim.set_ydata(lesson.simulated_curve(n, m))
        expected = float(rec.ls_recovery_theory(n, m, rec.answer_noise_sd("uniform", e)))
        self.text.set_text(f"n = {n}, m = {m}: {int(np.sum(~right))} of {n} wrong")
        return (f"E/√n = {ratio:.2f} (E = {e:.1f}), n = {n}, m = {m}: this draw recovers {share:.1%} "
                f"({int(np.sum(~right))} bits wrong); the formula expects {expected:.1%}. "
                "<i>The noise slider follows the drag; n and m refactor and update on release.</i>")


ATTACK_PANEL = lab_widgets.ViewPanel(AttackView, lambda: {
    "noise": widgets.FloatSlider(value=0.5, min=0.0, max=1.5, step=0.05, description="noise E/√n",
                                 readout_format=".2f", continuous_update=True),
    "n": widgets.SelectionSlider(options=PANEL_SIZES, value=256, description="n bits",
                                 continuous_update=False),
    "queries": widgets.SelectionSlider(options=[(f"{q:g} n", q) for q in PANEL_QUERY_RATIOS], value=2.0,
                                       description="queries m", continuous_update=False),
}, lesson.SEED)


class DPView(_BitsView):
    """Least squares against DP answers (n = 256, m = 512): the bits, and the share recovered
    against the budget for the chosen split, under the bounds on any attacker."""

    def __init__(self):
        super().__init__(4.1, (1.0, 0.5), "the release on the left")
        self.text = self.ax.text(0.97, 0.05, "", transform=self.ax.transAxes, fontsize=8, ha="right")
        self.ax.set(xscale="log", xlim=(0.09, 1100), ylim=(0.35, 1.01), xlabel="total budget ε",
                    ylabel="share of bits recovered", title=f"DP answers, n = {DP_N}, m = {DP_M}")
        self.ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2)
        self.fig.tight_layout()
        self.dynamic = [self.image, self.theory, self.gauss, self.here, self.text]

    def curves(self):
        label = "least squares (formula), colour of the split"
        (self.theory,) = self.ax.plot(DP_EPSILONS, np.zeros_like(DP_EPSILONS), "-", lw=1.6,
                                      color=COLORS["zcdp"], label=label)
        self.gauss = _bound_lines(self.ax)

    def update(self, values: dict, seed: int) -> str:
        eps, split = float(values["epsilon"]), str(values["split"])
        d = design(DP_N, DP_M)
        kind, scale = rec.dp_answer_noise(DP_M, eps, delta=DELTAS[split], split=split)
        share = self.show(d, d.correct(kind, scale)[:, seed % d.errors[kind].shape[1]], eps)
        self.theory.set_ydata(lesson.dp_theory_curve(split))
        self.theory.set_color(SPLIT_COLORS[split])
        self.gauss.set_visible(split == "zcdp")
        bound = float(rec.split_guessing_bound(eps, split, DELTAS[split]))
        formula = rec.ls_recovery_theory_dp(DP_N, DP_M, eps, split=split, delta=DELTAS[split])
        self.text.set_text(f"ε = {eps:.3g}, {split}: {share:.1%}")
        return (f"ε = {eps:.3g}, {split} split ({kind} noise, scale {scale:.3g} per answer): this release "
                f"lets least squares recover {share:.1%} of {DP_N} bits (formula {formula:.1%}); no attacker "
                f"can expect more than {bound:.1%} per bit, on average over secrets (one release of 256 bits "
                f"scatters about 3 points around its expected share; a guess that asks no query beats the "
                f"bound on {rec.blind_guess_tail(DP_N, bound):.0%} of the secrets)."
                # the basic split is eps-DP; the advanced and zCDP splits are (eps, DELTA)-DP
                + lab_widgets.promise(epsilon=eps, delta=0.0 if split == "basic" else DELTA))


DP_PANEL = lab_widgets.ViewPanel(DPView, lambda: {
    "epsilon": lab_widgets.epsilon_slider(1.0, 0.1, 1000.0),
    "split": widgets.ToggleButtons(options=list(lesson.SPLITS), value="zcdp", description="split"),
}, lesson.SEED + 32)  # the still: draw 0 (seed % DRAWS), near its expectation, not above the bound


def figures() -> dict[str, object]:
    return {"07_transition": figure_transition(), "07_hadamard": figure_hadamard(),
            "07_adversary": figure_adversary(), "07_dp": figure_dp(), "07_robustness": figure_robustness(),
            "07_attack_panel": ATTACK_PANEL.figure(), "07_dp_panel": DP_PANEL.figure()}


PANELS = (
    lab_widgets.PanelCase("07 attack panel (noise)", ATTACK_PANEL.panel,
                          {"noise": [round(0.1 + 0.1 * i, 2) for i in range(14)]},
                          lab_widgets.BrowserStep(0, "noise E/√n", "0.55", "E/√n = 0.55")),
    lab_widgets.PanelCase("07 DP panel (epsilon, split)", DP_PANEL.panel,
                          {"epsilon": list(lab_widgets.BENCH_EPSILONS), "split": list(lesson.SPLITS)},
                          lab_widgets.BrowserStep(1, "epsilon", lab_widgets.EPSILON_STEP,
                                                  f"ε = {lab_widgets.EPSILON_STEP}")),
)
