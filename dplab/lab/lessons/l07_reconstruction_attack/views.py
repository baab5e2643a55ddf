"""Lesson 7, reconstruction attacks: figures and the panels.

Notebook ``notebooks/07_reconstruction_attack.ipynb`` and ``python -m dplab figures`` both call
these functions.
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.ticker import NullFormatter

from dplab.lab.lessons.l07_reconstruction_attack.report import (
    ADVERSARY_N,
    ADVERSARY_RATIOS,
    DELTA,
    DP_EPSILONS,
    DP_M,
    DP_N,
    DRAWS,
    RATIOS,
    ROBUST_DRAWS,
    ROBUST_EPSILON,
    ROBUST_K,
    ROBUST_MU,
    SEED,
    SIZES,
    SPLITS,
    adversary_table,
    attacker_bound,
    design,
    dp_noise,
    dp_theory,
    dp_theory_curve,
    noise_bound,
    robustness_attacks,
    simulated_curve,
    zcdp_bound,
)
from dplab.lab.plots import COLORS, PALETTE, new_figure
from dplab.lab.widgets import (
    BENCH_EPSILONS,
    EPSILON_STEP,
    BrowserStep,
    PanelCase,
    SliderPanel,
    epsilon_slider,
    promise,
)
from dplab.reconstruction import (
    answer_noise_sd,
    dp_guessing_bound,
    gdp_guessing_bound,
    ls_recovery_theory,
    reconstruction_robustness_bound,
)
from dplab.simulate import mean_ci

SPLIT_COLORS = {"basic": COLORS["normal"], "advanced": COLORS["classical"], "zcdp": COLORS["zcdp"]}
SIZE_COLORS = dict(zip(SIZES, (PALETTE[0], PALETTE[1], PALETTE[2]), strict=True))
#: bits grid: right 0, right 1, wrong
BIT_COLORS = ListedColormap(["#dcdcdc", "#4d4d4d", PALETTE[3]])


def bit_grid(bits: np.ndarray, right: np.ndarray) -> np.ndarray:
    """A square image of the bits: 0 = a 0 recovered, 1 = a 1 recovered, 2 = a wrong bit."""
    side = math.isqrt(bits.size)
    code = np.where(right, bits, 2).astype(float)
    return code[: side * side].reshape(side, side)


def _bits_image(ax):
    """The panels' left axes: the secret's bits as a square image (updated with set_data)."""
    ax.set(xticks=[], yticks=[])
    ax.set_title("bits: 0 light grey, 1 dark grey,\nmissed by least squares orange", fontsize=8)
    return ax.imshow(
        np.zeros((16, 16)), cmap=BIT_COLORS, vmin=0, vmax=2, extent=(0, 1, 0, 1), interpolation="nearest"
    )


def figure_transition():
    """Least squares' share of bits recovered against the noise E / sqrt(n) (m = 2n) for three n,
    with the formula; and against m / n at E = 0.5 sqrt(n)."""
    fig, (ax, ax_m) = new_figure(2, width=5.2, height=3.7)
    grid = np.linspace(0.02, 1.5, 150)
    ax.plot(
        grid,
        ls_recovery_theory(300, 600, answer_noise_sd("uniform", grid * math.sqrt(300))),
        "k-",
        lw=1.5,
        label="formula Φ(√(m − n)/(4σ)), σ = E/√3",
        zorder=1,
    )
    for n in SIZES:
        d = design(n, 2 * n)
        ci = [mean_ci(d.shares("uniform", noise_bound(r, n)), 0.95) for r in RATIOS]
        ax.errorbar(
            RATIOS,
            [float(c.estimate) for c in ci],
            yerr=[[float(c.estimate - c.low) for c in ci], [float(c.high - c.estimate) for c in ci]],
            fmt="o",
            ms=3,
            color=SIZE_COLORS[n],
            label=f"n = {n} (simulated, 95% CI)",
        )
    ax.axvline(0.25, color="0.5", ls=":", lw=1)
    ax.text(0.27, 0.47, "E = √n / 4", fontsize=7, color="0.4")
    ax.axhline(0.5, color="0.5", lw=0.8)
    ax.text(1.2, 0.51, "a coin toss", fontsize=7, color="0.4")
    ax.set(
        xlabel="noise bound E / √n (uniform noise on [−E, E])",
        ylabel="share of bits recovered",
        ylim=(0.45, 1.01),
        title="least squares, m = 2n random subset sums",
    )
    ax.legend(fontsize=7, loc="upper right")
    n, ratio = 300, 0.5
    d_m = np.arange(1.05, 8.01, 0.05)
    sd = answer_noise_sd("uniform", noise_bound(ratio, n))
    ax_m.plot(d_m, ls_recovery_theory(n, np.round(d_m * n).astype(int), sd), "k-", lw=1.5, label="formula")
    for mult in (1.5, 2, 3, 4, 6, 8):
        dd = design(n, int(mult * n))
        c = mean_ci(dd.shares("uniform", noise_bound(ratio, n)), 0.95)
        ax_m.errorbar(
            [mult],
            [float(c.estimate)],
            yerr=[[float(c.estimate - c.low)], [float(c.high - c.estimate)]],
            fmt="o",
            ms=4,
            color=SIZE_COLORS[300],
            label="simulated, 95% CI" if mult == 1.5 else None,
        )
    ax_m.set(
        xlabel="queries per secret bit m / n",
        ylabel="share of bits recovered",
        ylim=(0.45, 1.01),
        title=f"more queries beat more noise (n = {n}, E = {ratio:g}√n)",
    )
    ax_m.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def figure_adversary():
    """Bits wrong when the answers are within E of the truth: random noise against the adversary
    whose answers are those of another database."""
    table = adversary_table()
    fig, (ax,) = new_figure(1, width=6.4, height=3.6)
    ratios = np.array(ADVERSARY_RATIOS)
    ax.plot(
        ratios,
        [table[r][1] for r in ADVERSARY_RATIOS],
        "o-",
        color=PALETTE[0],
        label=f"uniform noise on [−E, E]: least squares (mean of {DRAWS} draws)",
    )
    ax.plot(
        ratios,
        [table[r][0] for r in ADVERSARY_RATIOS],
        "s-",
        color=PALETTE[3],
        label="answers of a decoy database, all within E: least squares finds the decoy",
    )
    ax.axhline(ADVERSARY_N / 2, color="0.5", ls=":", lw=1)
    ax.text(0.26, ADVERSARY_N / 2 + 4, "half the bits (a coin toss)", fontsize=7, color="0.4")
    ax.set(
        xlabel="noise bound E / √n",
        ylabel=f"bits wrong (of {ADVERSARY_N})",
        ylim=(0, ADVERSARY_N),
        title=f"the same bound E, two kinds of noise (n = {ADVERSARY_N}, m = {2 * ADVERSARY_N})",
    )
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def _bound_lines(ax):
    """The two bounds on any attacker against epsilon; returns the zCDP split's (Gaussian) line."""
    ax.plot(
        DP_EPSILONS,
        dp_guessing_bound(DP_EPSILONS, DELTA),
        "--",
        color=COLORS["bound"],
        lw=1.6,
        label="any attacker: (ε, δ)-DP bound",
    )
    (gauss,) = ax.plot(
        DP_EPSILONS,
        zcdp_bound(DP_M, DP_EPSILONS),
        ":",
        color=COLORS["zcdp"],
        lw=1.8,
        label="any attacker: zCDP split's Φ(√(ρ/2))",
    )
    return gauss


def figure_dp():
    """Least squares on DP answers against the budget, per composition split, under the bounds on
    any attacker; and the noise per answer against the number of queries."""
    fig, (ax, ax_sd) = new_figure(2, width=5.2, height=4.6)
    for split in SPLITS:
        ax.plot(
            DP_EPSILONS,
            dp_theory_curve(split),
            color=SPLIT_COLORS[split],
            lw=1.6,
            label=f"least squares, {split} split (formula)",
        )
    d = design(DP_N, DP_M)
    for split in SPLITS:
        eps = DP_EPSILONS[::5]
        sims = []
        for e in eps:
            kind, scale = dp_noise(DP_M, float(e), split)
            sims.append(d.shares(kind, scale).mean())
        ax.plot(eps, sims, "o", ms=3.5, color=SPLIT_COLORS[split])
    ax.plot([], [], "ko", ms=3.5, label=f"simulated (mean of {DRAWS} releases)")
    _bound_lines(ax)
    ax.set(
        xscale="log",
        xlabel="total budget ε (δ = 10⁻⁶ except basic)",
        ylabel="share of bits recovered",
        ylim=(0.45, 1.01),
        title=f"DP answers: n = {DP_N}, m = {DP_M}",
    )
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2)
    ms = np.unique(np.round(np.geomspace(10, 10_000, 40)).astype(int))
    for split in SPLITS:
        ax_sd.plot(
            ms,
            [answer_noise_sd(*dp_noise(int(m), 1.0, split)) for m in ms],
            color=SPLIT_COLORS[split],
            lw=1.6,
            label=f"{split} split, ε = 1",
        )
    need = [math.sqrt(m - DP_N) / (4 * 1.2816) if m > DP_N else np.nan for m in ms]
    ax_sd.plot(ms, need, "k--", lw=1.2, label=f"least squares gets 90% of n = {DP_N} bits below this")
    ax_sd.set(
        xscale="log",
        yscale="log",
        xlabel="number of queries m",
        ylabel="noise sd per answer",
        title="noise per answer for a total ε = 1",
    )
    ax_sd.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def figure_robustness():
    """The bound on reconstructing a secret of prior success kappa, for eps-DP and mu-GDP, with the
    best attacks on a secret uniform over K values."""
    attacks = robustness_attacks()
    kappa = np.geomspace(1e-3, 0.999, 200)
    fig, (ax_e, ax_g) = new_figure(2, width=5.2, height=3.7)
    for ax, key, label, bound, attack_label in (
        (
            ax_e,
            "rr",
            f"ε = {ROBUST_EPSILON:g}",
            lambda k: reconstruction_robustness_bound(k, epsilon=ROBUST_EPSILON),
            "K-ary randomized response",
        ),
        (
            ax_g,
            "gdp",
            f"μ = {ROBUST_MU:g}",
            lambda k: reconstruction_robustness_bound(k, mu=ROBUST_MU),
            "Gaussian release, argmax attack",
        ),
    ):
        ax.plot(kappa, kappa, color="0.5", lw=1, label="prior success κ (no release)")
        ax.plot(kappa, bound(kappa), color=COLORS["bound"], lw=1.8, label=f"bound 1 − f(κ), {label}")
        ks = np.array(ROBUST_K)
        ax.plot(
            1 / ks,
            [attacks[key][k] / ROBUST_DRAWS for k in ROBUST_K],
            "o",
            color=PALETTE[0],
            ms=5,
            label=f"{attack_label}, K = {', '.join(map(str, ROBUST_K))}",
        )
        bit = dp_guessing_bound(ROBUST_EPSILON) if key == "rr" else gdp_guessing_bound(ROBUST_MU)
        ax.plot(
            [0.5], [bit], "_", color="k", ms=16, mew=2.5, zorder=1, label=f"a bit: the exact bound {bit:.3f}"
        )
        ax.set(
            xscale="log",
            yscale="log",
            xlabel="κ, the attacker's success without the release",
            ylabel="success of the best attack",
            xlim=(1e-3, 1),
            ylim=(1e-3, 1.05),
            title=f"reconstruction robustness, {'ε-DP' if key == 'rr' else 'μ-GDP'}",
        )
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


# --- the panels ------------------------------------------------------------------------------------

PANEL_SIZES = (64, 144, 256, 400, 576, 1024)
PANEL_QUERY_RATIOS = (1.25, 1.5, 2.0, 3.0, 4.0)


class AttackView:
    """Least squares against bounded noise: the secret's bits (wrong ones in red) and the share
    recovered on the formula's curve. The noise slider only rescales the cached estimation errors."""

    def __init__(self):
        self.fig, (self.ax_bits, self.ax) = new_figure(2, width=4.4, height=3.6)
        self.ax.get_gridspec().set_width_ratios([1, 1.8])
        self.image = _bits_image(self.ax_bits)
        grid = np.linspace(0.02, 1.5, 120)
        self.grid = grid
        (self.theory,) = self.ax.plot(grid, np.zeros_like(grid), "k-", lw=1.5, label="formula")
        (self.sim,) = self.ax.plot(
            RATIOS,
            np.zeros_like(RATIOS),
            "o",
            ms=3,
            color=PALETTE[0],
            label=f"simulated ({DRAWS} draws, the same rescaled)",
        )
        (self.here,) = self.ax.plot(
            [0.5], [0.8], "o", ms=9, mfc="none", mec=PALETTE[3], mew=2, label="the draw on the left"
        )
        self.ax.axhline(0.5, color="0.5", lw=0.8)
        self.text = self.ax.text(0.03, 0.05, "", transform=self.ax.transAxes, fontsize=8)
        self.ax.set(
            xlim=(0, 1.52),
            ylim=(0.45, 1.01),
            xlabel="noise bound E / √n",
            ylabel="share of bits recovered",
            title="least squares on m random subset sums",
        )
        self.ax.legend(fontsize=7, loc="upper right")
        self.fig.tight_layout()
        self.dynamic = [self.image, self.theory, self.sim, self.here, self.text]

    def update(self, values: dict, seed: int) -> str:
        ratio, n = float(values["noise"]), int(values["n"])
        m = int(round(float(values["queries"]) * n))
        d = design(n, m)
        e = noise_bound(ratio, n)
        draw = seed % d.errors["uniform"].shape[1]
        right = d.correct("uniform", e)[:, draw]
        self.image.set_data(bit_grid(d.bits, right))
        sd = answer_noise_sd("uniform", self.grid * math.sqrt(n))
        theory = ls_recovery_theory(n, m, sd)
        self.theory.set_ydata(theory)
        self.sim.set_ydata(simulated_curve(n, m))
        share = float(right.mean())
        self.here.set_data([ratio], [share])
        expected = float(ls_recovery_theory(n, m, answer_noise_sd("uniform", e)))
        self.text.set_text(f"n = {n}, m = {m}: {int(np.sum(~right))} of {n} wrong")
        return (
            f"E/√n = {ratio:.2f} (E = {e:.1f}), n = {n}, m = {m}: this draw recovers {share:.1%} "
            f"({int(np.sum(~right))} bits wrong); the formula expects {expected:.1%}. "
            "<i>The noise slider follows the drag; n and m refactor and update on release.</i>"
        )


def figure_attack_panel(noise: float = 0.5, n: int = 256, queries: float = 2.0):
    view = AttackView()
    view.update({"noise": noise, "n": n, "queries": queries}, SEED)
    return view.fig


def attack_panel(seed: int = 0) -> SliderPanel:
    import ipywidgets as widgets

    view = AttackView()
    controls = {
        "noise": widgets.FloatSlider(
            value=0.5,
            min=0.0,
            max=1.5,
            step=0.05,
            description="noise E/√n",
            readout_format=".2f",
            continuous_update=True,
        ),
        "n": widgets.SelectionSlider(
            options=PANEL_SIZES, value=256, description="n bits", continuous_update=False
        ),
        "queries": widgets.SelectionSlider(
            options=[(f"{q:g} n", q) for q in PANEL_QUERY_RATIOS],
            value=2.0,
            description="queries m",
            continuous_update=False,
        ),
    }
    return SliderPanel(view.fig, view.update, controls, seed=seed, dynamic=view.dynamic)


class DPView:
    """Least squares against DP answers (n = 256, m = 512): the bits, and the share recovered
    against the budget for the chosen split, under the bounds on any attacker."""

    def __init__(self):
        self.fig, (self.ax_bits, self.ax) = new_figure(2, width=4.4, height=4.1)
        self.ax.get_gridspec().set_width_ratios([1, 1.8])
        self.image = _bits_image(self.ax_bits)
        (self.theory,) = self.ax.plot(
            DP_EPSILONS,
            np.zeros_like(DP_EPSILONS),
            "-",
            lw=1.6,
            color=COLORS["zcdp"],
            label="least squares (formula), colour of the split",
        )
        self.gauss = _bound_lines(self.ax)
        (self.here,) = self.ax.plot(
            [1.0], [0.5], "o", ms=9, mfc="none", mec=PALETTE[3], mew=2, label="the release on the left"
        )
        self.text = self.ax.text(0.97, 0.05, "", transform=self.ax.transAxes, fontsize=8, ha="right")
        self.ax.set(
            xscale="log",
            xlim=(0.09, 1100),
            ylim=(0.35, 1.01),
            xlabel="total budget ε",
            ylabel="share of bits recovered",
            title=f"DP answers, n = {DP_N}, m = {DP_M}",
        )
        self.ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2)
        self.fig.tight_layout()
        self.dynamic = [self.image, self.theory, self.gauss, self.here, self.text]

    def update(self, values: dict, seed: int) -> str:
        eps, split = float(values["epsilon"]), str(values["split"])
        d = design(DP_N, DP_M)
        kind, scale = dp_noise(DP_M, eps, split)
        draw = seed % d.errors[kind].shape[1]
        right = d.correct(kind, scale)[:, draw]
        self.image.set_data(bit_grid(d.bits, right))
        self.theory.set_ydata(dp_theory_curve(split))
        self.theory.set_color(SPLIT_COLORS[split])
        self.gauss.set_visible(split == "zcdp")
        share = float(right.mean())
        self.here.set_data([eps], [share])
        bound = attacker_bound(eps, split)
        self.text.set_text(f"ε = {eps:.3g}, {split}: {share:.1%}")
        return (
            f"ε = {eps:.3g}, {split} split ({kind} noise, scale {scale:.3g} per answer): this release "
            f"lets least squares recover {share:.1%} of {DP_N} bits (formula "
            f"{dp_theory(DP_N, DP_M, eps, split):.1%}); no attacker can expect more than {bound:.1%} per bit "
            "(a bound on the expected share: one release of 256 bits scatters about 3 points around it)."
            # the basic split is eps-DP; the advanced and zCDP splits are (eps, DELTA)-DP
            + promise(epsilon=eps, delta=0.0 if split == "basic" else DELTA)
        )


def figure_dp_panel(epsilon: float = 1.0, split: str = "zcdp"):
    view = DPView()
    view.update({"epsilon": epsilon, "split": split}, SEED)
    return view.fig


def dp_panel(seed: int = 0) -> SliderPanel:
    import ipywidgets as widgets

    view = DPView()
    controls = {
        "epsilon": epsilon_slider(1.0, 0.1, 1000.0),
        "split": widgets.ToggleButtons(options=list(SPLITS), value="zcdp", description="split"),
    }
    return SliderPanel(view.fig, view.update, controls, seed=seed, dynamic=view.dynamic)


def figures() -> dict[str, object]:
    return {
        "07_transition": figure_transition(),
        "07_adversary": figure_adversary(),
        "07_dp": figure_dp(),
        "07_robustness": figure_robustness(),
        "07_attack_panel": figure_attack_panel(),
        "07_dp_panel": figure_dp_panel(),
    }


PANELS = (
    PanelCase("07 attack panel (noise)", attack_panel,
              {"noise": [round(0.1 + 0.1 * i, 2) for i in range(14)]},
              BrowserStep(0, "noise E/√n", "0.55", "E/√n = 0.55")),
    PanelCase("07 DP panel (epsilon, split)", dp_panel,
              {"epsilon": list(BENCH_EPSILONS), "split": ["basic", "advanced", "zcdp"]},
              BrowserStep(1, "epsilon", EPSILON_STEP, f"ε = {EPSILON_STEP}")),
)
