"""Lesson 5, the exponential mechanism and the net mechanism: figures and the net panel.

Notebook ``notebooks/05_net_mechanism.ipynb`` and ``python -m dplab figures`` both call
these functions.
"""

from __future__ import annotations

import math

import numpy as np

from dplab import mechanisms as mech
from dplab import net_mechanism as nm
from dplab.lab import widgets as w
from dplab.lab.lessons.l05_net_mechanism import report as lesson
from dplab.lab.lessons.l05_net_mechanism.report import BETA, EPSILON, M_STATIC, N_DEFAULT, SEED
from dplab.lab.plots import COLORS, ecdf, grouped_bars, new_figure, simulated_points
from dplab.simulate import proportion_ci

EM_EPSILONS = (0.02, 0.1, 0.5)
SCORING_RATE = 5e8  #: candidate-query pairs scored per second, the order ``make bench`` measures here
THREE = (COLORS["laplace"], COLORS["analytic"], COLORS["zcdp"])  # the colours of three parameter values
PANEL_X_MIN = 2e-3  # the panel's log axis starts here (an error of 0 is drawn at this left edge)


def figure_exponential():
    """Left: the scores and the exponential mechanism's output distribution for three eps.
    Right: three selection mechanisms on the same scores at one eps, exact probabilities."""
    scores, eps, inches = lesson.height_scores(), 0.05, lesson.INCHES
    shown = (inches >= 57) & (inches <= 77)  # the heights worth drawing: the rest have almost no students
    fig, (ax, ax_mech) = new_figure(2, width=5.4, height=3.7)
    ax.bar(inches[shown], scores[shown] / scores.sum(), color="0.85", label="share of students (scores / n)")
    for e, color in zip(EM_EPSILONS, THREE, strict=True):
        ax.plot(inches[shown], mech.exponential_probabilities(scores, 1.0, e)[shown], "o-", ms=3, color=color,
                label=f"Pr[output], ε = {e:g}")
    ax.set(xlabel="candidate height (inches)", ylabel="probability",
           title="exponential mechanism: the most common height")
    ax.legend(fontsize=7, loc="upper left")
    centre, chosen = (inches >= 61) & (inches <= 71), lesson.selections(eps)
    labels = [f"{name}: OPT − E[s] = {m.expected_shortfall(scores):.1f}" for name, m in chosen.items()]
    grouped_bars(ax_mech, inches[centre], [m.probabilities(scores)[centre] for m in chosen.values()], 0.27,
                 colors=(COLORS["laplace"], COLORS["zcdp"], COLORS["classical"]), labels=labels)
    ax_mech.set(xlabel="candidate height (inches)", ylabel="exact Pr[output]", ylim=(0, 0.95),
                title=f"three private selections at scale 2Δ/ε, ε = {eps:g}, Δ = 1")
    ax_mech.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def figure_utility(seed: int = SEED, draws: int = 100_000):
    """Left: the utility theorem, Pr[s <= OPT - (2Δ/ε)(ln|R| + t)] against its bound e^{-t},
    exact and simulated (intervals at the notebook's level). Right: OPT - E[s] as the output space grows."""
    scores, eps, t = lesson.height_scores(), 0.1, np.linspace(0, 5, 21)
    level = 1 - 0.01 / 16  # the notebook's 16 intervals, family-wise 99%
    thresholds = mech.exponential_utility_threshold(scores.max(), scores.size, 1.0, eps, t)
    out = scores[mech.exponential_mechanism(scores, 1.0, eps, size=draws, rng=seed)]
    fails = np.array([np.sum(out <= th) for th in thresholds])
    fig, (ax, ax_grow) = new_figure(2, width=5.4, height=3.7)
    ax.plot(t, np.exp(-t), "k--", lw=1.2, label="the theorem's bound e^−t")
    fine_t = np.linspace(0, 5, 501)
    ax.step(fine_t, mech.exponential_utility_failure_probability(scores, 1.0, eps, fine_t), where="post",
            color=COLORS["laplace"], lw=1.5, label="exact probability")
    seen = fails > 0
    simulated = simulated_points(ax, t[seen], proportion_ci(fails[seen], draws, level),
                                 color=COLORS["laplace"], label=f"{draws:,} draws")
    simulated.points.set_label(f"{draws:,} draws: simulated ({level:.2%} CI, the notebook's level)")
    ax.set(yscale="log", ylim=(1e-5, 1e2), xlabel="t", ylabel="Pr[s(output) ≤ OPT − (2Δ/ε)(ln|R| + t)]",
           title=f"utility theorem, most common height, ε = {eps:g}")
    ax.legend(fontsize=7, loc="upper right")
    extra = np.unique(np.round(np.geomspace(1, 1e6, 25)).astype(int))
    sizes = scores.size + extra
    for eps_g, color in zip((0.005, 0.01, 0.02), THREE, strict=True):
        em = mech.ExponentialMechanism(1.0, eps_g)
        gaps = [em.expected_shortfall(lesson.padded_scores(k)) for k in extra]
        ax_grow.plot(sizes, gaps, "-", color=color, lw=1.8, label=f"ε = {eps_g:g}")
        ax_grow.plot(sizes, (2 / eps_g) * (np.log(sizes) + 1), ":", color=color, lw=1.2)
    ax_grow.plot([], [], "k-", lw=1.5, label="exact OPT − E[s]")
    ax_grow.plot([], [], "k:", lw=1.2, label="bound on the mean, (2Δ/ε)(ln|R| + 1)")
    ax_grow.axhline(scores.max(), color="0.5", lw=0.8)
    ax_grow.text(sizes[0], scores.max() * 1.05, "OPT: a useless output", fontsize=7, color="0.3")
    ax_grow.set(xscale="log", ylim=(0, 3000), xlabel="|R| (37 heights + candidates of score 0)",
                ylabel="OPT − E[score] (students)", title="a larger output space costs accuracy")
    ax_grow.legend(fontsize=7, loc="upper left", ncol=2)
    fig.tight_layout()
    return fig


def figure_net(seed: int = SEED, draws: int = 20_000):
    """The net mechanism on the YRBSS universe (n = 1000, |X| = 8, all 256 predicates, m = 20):
    the exact distribution of its max error, draws, OPT, the non-vacuous bound and [Roth11]'s."""
    state, n = lesson.net_state(N_DEFAULT, 3, M_STATIC), N_DEFAULT
    values, cdf = state.error_distribution(EPSILON)
    bound = nm.net_error_bound(state.opt, state.net.shape[0], 1 / n, EPSILON, BETA)
    two_alpha, worst_case = 2 * nm.net_alpha(256, M_STATIC), 2 * nm.net_covering_radius(8, M_STATIC)
    fig, (ax,) = new_figure(1, width=7.5, height=3.8)
    ax.step(values, cdf, where="post", color=COLORS["laplace"], lw=1.8, label="exact Pr[max error ≤ x]")
    ecdf(ax, state.errors[state.sample(EPSILON, size=draws, rng=seed)], step=True, color="k", lw=1, ls="--",
         label=f"{draws:,} releases: their share with error ≤ x")
    ax.axvline(state.opt, color="0.4", ls=":", lw=1.2,
               label=f"OPT, best database in the net: {state.opt:.3f}")
    ax.axvline(bound, color=COLORS["bound"], ls="--", lw=1.5,
               label=f"OPT + (2Δ/ε)(ln|N| + ln 1/β) = {bound:.3f} (β = {BETA:g})")
    ax.axvline(worst_case, color=COLORS["zcdp"], ls="-.", lw=1.5,
               label=f"Prop. 6 with the covering radius α = |X|/(4m): 2α = {worst_case:.2f}, for every D")
    ax.plot([], [], " ", label=f"Prop. 6 with Lemma 12's α = √(ln|C|/m): 2α = {two_alpha:.2f}, off the axis "
            "(vacuous)")
    ax.set(xlim=(0, 0.25), ylim=(0, 1.02), xlabel="max error over the 256 predicates",
           ylabel="cumulative probability", title=f"net mechanism: n = {n}, |X| = 8, m = {M_STATIC}, "
           f"|N| = {state.net.shape[0]:,}, ε = {EPSILON:g}")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def figure_lemma12(seed: int = SEED, trials: int = 4000):
    """Lemma 12: how often a random subsample of size m misses some predicate by more than alpha,
    against the union bound 2|C| e^{-2 m alpha^2}."""
    state, ms = lesson.net_state(N_DEFAULT, 3, M_STATIC), np.array([5, 10, 20, 40, 80, 160, 320])
    h, q = state.histogram, state.queries
    fig, (ax,) = new_figure(1, width=7.0, height=3.6)
    for alpha, color in zip((0.05, 0.1, 0.2), THREE, strict=True):
        fails = np.array([np.sum(nm.subsample_max_errors(h, q, int(m), trials=trials, rng=seed + int(m))
                                 > alpha) for m in ms])
        fine = np.arange(ms[0], ms[-1] + 1)
        bound = np.array([nm.lemma12_failure_bound(256, int(m), alpha) for m in fine])
        if np.any(bound < 1):
            ax.plot(fine, np.minimum(bound, 1.0), "--", color=color, lw=1.2,
                    label=f"2|C| e^(−2mα²), α = {alpha:g} (capped at 1)")
        else:
            ax.plot([], [], " ", label=f"2|C| e^(−2mα²) ≥ 1 for α = {alpha:g} at every m shown")
        seen = fails > 0
        simulated_points(ax, ms[seen], proportion_ci(fails[seen], trials), color=color,
                         label=f"α = {alpha:g}, {trials:,} subsamples")
        if not seen.all():  # no failure at all: the interval's upper end, as a downward triangle
            ax.plot(ms[~seen], proportion_ci(fails[~seen], trials).high, "v", color=color, ms=6, mfc="none",
                    label=f"α = {alpha:g}: 0 of {trials:,}: ▽ = 95% CI top, not a rate (can top the bound)")
    ax.set(xscale="log", yscale="log", ylim=(1e-4, 1.5), xlabel="subsample size m",
           ylabel="Pr[some query misses by > α]",
           title="Lemma 12: a small random subsample answers every query")
    ax.legend(fontsize=6.5, loc="lower left")
    fig.tight_layout()
    return fig


def figure_compare(seed: int = SEED, draws: int = 20_000):
    """Max error over the 256 predicates of three epsilon-DP releases (n = 1000, eps = 1),
    with each one's (1 - beta) bound."""
    state, n = lesson.net_state(N_DEFAULT, 3, M_STATIC), N_DEFAULT
    h, q, size = state.histogram, state.queries, state.net.shape[0]
    laplace = nm.laplace_answers_max_errors(h, q, EPSILON, draws=draws, rng=seed)
    noisy_histogram = nm.noisy_histogram_max_errors(h, q, EPSILON, draws=draws, rng=seed + 1)
    runs = {"Laplace on the 256 answers, Lap(128/(nε))": laplace,
            "noisy histogram, Lap(2/(nε)) per cell": noisy_histogram,
            f"net mechanism, m = {M_STATIC}": state.errors[state.sample(EPSILON, size=draws, rng=seed + 2)]}
    colors = (COLORS["laplace"], COLORS["classical"], COLORS["zcdp"], COLORS["laplace"])
    bounds = {  # Theorem 3's union bound b ln(k/beta), at the b = 128/(n eps) used and its own 256/(n eps)
        "union bound, Lap(128/(nε))": mech.laplace_accuracy_k(0.5 / n, 256, EPSILON, BETA),
        "‖Z‖₁ quantile (Gamma)": nm.noisy_histogram_max_error_bound(8, n, EPSILON, BETA),
        "OPT + (2Δ/ε)(ln|N| + ln 1/β)": nm.net_error_bound(state.opt, size, 1 / n, EPSILON, BETA),
        "Theorem 3's, Lap(256/(nε)), basic composition": mech.laplace_accuracy_k(1 / n, 256, EPSILON, BETA)}
    fig, (ax,) = new_figure(1, width=7.5, height=6.0)
    for (name, errs), color in zip(runs.items(), colors, strict=False):
        ecdf(ax, errs, "-", color=color, lw=1.8, label=f"{name}: median {np.median(errs):.3f}")
    for (name, b), color, style in zip(bounds.items(), colors, ("--", "--", "--", ":"), strict=True):
        ax.axvline(b, color=color, ls=style, lw=1.2, label=f"bound at β = {BETA:g}: {name} = {b:.3g}")
    ax.set(xscale="log", xlim=(2e-3, 5), ylim=(0, 1.02), xlabel="max error over the 256 predicates",
           ylabel="cumulative fraction of releases",
           title=f"the same 256 queries, n = {n}, ε = {EPSILON:g} (replace-one, public n)")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=1)
    fig.tight_layout()
    return fig


def figure_scaling(n: int = 10**6, log2_universe: int = 40):
    """Where the net mechanism wins: the (1 - beta) guarantees against the number of queries
    for a huge universe (|X| = 2^40), and what enumerating its net would cost."""
    universe = 2.0**log2_universe
    n_queries = np.unique(np.round(np.geomspace(10, 1e9, 30)).astype(np.int64))
    best = [nm.net_mechanism_accuracy(universe, int(c), n, EPSILON, BETA, m_max=20_000) for c in n_queries]
    hist = {bits: [nm.noisy_histogram_max_error_bound(2**bits, n, EPSILON, BETA, n_queries=int(c))
                   for c in n_queries] for bits in (log2_universe, 20)}
    fig, (ax, ax_time) = new_figure(2, width=5.4, height=4.4)
    ax.plot(n_queries, mech.laplace_accuracy_k(1 / n, n_queries, EPSILON, BETA), "-", color=COLORS["laplace"],
            lw=1.8, label="Laplace on the answers, ε-DP (Thm 3)")
    delta = lesson.DELTA
    ax.plot(n_queries, mech.laplace_accuracy_k(1 / n, n_queries, EPSILON, BETA, delta), "--", lw=1.2,
            color=COLORS["laplace"], label=f"Laplace, (ε, δ = 10^{math.log10(delta):.0f})-DP (Thm 3, Thm 2)")
    ax.plot(n_queries, [b[0] for b in best], "-", color=COLORS["zcdp"], lw=1.8,
            label="net mechanism (best m)")
    ax.plot(n_queries, hist[log2_universe], "-", color=COLORS["classical"], lw=1.8, label="noisy histogram")
    ax.plot(n_queries, hist[20], "--", color=COLORS["classical"], lw=1.2,
            label="noisy histogram if |X| were 2^20")
    ax.axhline(1, color="0.5", lw=0.8, ls=":")
    ax.set(xscale="log", yscale="log", ylim=(1e-5, 1e2), xlabel="number of counting queries |C|",
           ylabel=f"max error guaranteed w.p. {1 - BETA:g}",
           title=f"|X| = 2^{log2_universe}, n = 10^{round(math.log10(n))}, ε = {EPSILON:g}")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)
    seconds = nm.net_scoring_log10_seconds(universe, np.array([b[1] for b in best]), n_queries, SCORING_RATE)
    ax_time.plot(n_queries, seconds, "-", color=COLORS["zcdp"], lw=1.8,
                 label="scoring every database of the net (at least)")
    universe_age = math.log10(3.15e7 * 1.38e10)
    ax_time.axhline(universe_age, color="k", ls=":", lw=1)
    ax_time.text(n_queries[0], universe_age + 200, f"the age of the universe: 10^{universe_age:.1f} s",
                 fontsize=7)
    ax_time.set(xscale="log", xlabel="number of counting queries |C|", ylabel="log10(seconds)",
                title=f"its running time at an assumed {SCORING_RATE:.0e} scores/s")
    ax_time.legend(fontsize=7, loc="center right")
    fig.tight_layout()
    return fig


# --- the live panel -------------------------------------------------------------------------

class NetView:
    """The exact distribution of the net mechanism's max error at the chosen eps (the eps
    slider reweights the cached scores), with OPT and the bound; beside it D and one release."""

    def __init__(self):
        self.fig, (ax, ax_bars) = new_figure(2, width=5.0, height=4.1)
        (self.cdf,) = ax.step([], [], where="post", color=COLORS["laplace"], lw=1.8,
                              label="exact Pr[max error ≤ x]")
        self.opt = ax.axvline(0.01, color="0.4", ls=":", lw=1.2, label="OPT (best in the net)")
        self.bound = ax.axvline(0.1, color=COLORS["bound"], ls="--", lw=1.5,
                                label="OPT + (2Δ/ε)(ln|N| + ln 20)")
        self.drawn = ax.axvline(0.1, color="k", lw=1, label="this release")
        ax.set(xscale="log", xlim=(PANEL_X_MIN, 1.0), ylim=(0, 1.02),
               xlabel="max error over all 2^|X| predicates (0 drawn at the left edge)",
               ylabel="cumulative probability", title="what the net mechanism releases")
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.17), ncol=2)
        self.eps_text = ax.text(0.02, 0.96, "", transform=ax.transAxes, ha="left", va="top", fontsize=9)
        self.true_bars = ax_bars.bar(np.arange(8) - 0.2, np.zeros(8), width=0.4, color="0.6", label="D / n")
        self.release_bars = ax_bars.bar(np.arange(8) + 0.2, np.zeros(8), width=0.4, color=COLORS["zcdp"],
                                        label="released D' / m")
        ax_bars.set(ylim=(0, 0.6), ylabel="share of rows", title="the data and one release")
        ax_bars.legend(fontsize=7, loc="upper right")
        self.ax_bars = ax_bars
        self.fig.tight_layout()
        self.dynamic = [self.cdf, self.opt, self.bound, self.drawn, self.eps_text, *self.true_bars,
                        *self.release_bars]

    def update(self, values: dict, seed: int) -> str:
        eps, n, bits = float(values["epsilon"]), int(values["n"]), int(values["universe"])
        m, k = min(int(values["m"]), nm.largest_net_m(2**bits, lesson.LIVE_MAX)), 2**bits
        state = lesson.net_state(n, bits, m)
        x, cdf = state.error_distribution(eps)
        shown = np.maximum(x, PANEL_X_MIN)  # an error of 0 (OPT = 0) at the left edge of the log axis
        self.cdf.set_data(np.r_[shown[0], shown], np.r_[0.0, cdf])
        bound = nm.net_error_bound(state.opt, state.net.shape[0], state.sensitivity, eps, BETA)
        index = state.sample(eps, rng=seed)
        for line, at in ((self.opt, state.opt), (self.bound, bound), (self.drawn, state.errors[index])):
            line.set_xdata([max(at, PANEL_X_MIN)] * 2)
        self.eps_text.set_text(f"ε = {eps:.3g}, n = {n}, m = {m}")
        shares = (state.histogram / n, state.net[index] / m)
        for bars, share in zip((self.true_bars, self.release_bars), shares, strict=True):
            for j, bar in enumerate(bars):
                bar.set_visible(j < k)
                bar.set_height(share[j] if j < k else 0.0)
        self.ax_bars.set_xticks(np.arange(k), nm.yrbss_cell_labels(bits), fontsize=7)
        self.ax_bars.set_xlim(-0.6, k - 0.4)
        self.ax_bars.set_ylim(0, max(0.6, 1.1 * max(s.max() for s in shares)))
        beyond = state.error_tail(eps, bound)
        beyond = 0.0 if beyond < 1e-12 else beyond  # below the round-off of a cumulative sum
        verdict = " (above 1: it says nothing)" if bound >= 1 else ""
        return (f"ε = {eps:.3g}, n = {n}, |X| = {k}: the net holds |N| = {state.net.shape[0]:,} databases "
                f"of size m = {m}; OPT = {state.opt:.4f}; bound at β = {BETA:g}: {bound:.4f}{verdict} "
                f"(exactly Pr[error > bound] = {beyond:.2g}); this release: error {state.errors[index]:.4f}. "
                f"<i>ε follows the drag; n, |X| and m rebuild the net and update on release.</i>"
                + w.promise(epsilon=eps))  # the net mechanism is an exponential mechanism: eps-DP


def figure_net_panel(seed: int = SEED):
    values = {"epsilon": EPSILON, "n": N_DEFAULT, "universe": 3, "m": lesson.M_LIVE}
    return w.view_figure(NetView, values, seed)


def net_panel(seed: int = SEED) -> w.SliderPanel:
    import ipywidgets as widgets

    def m_slider(bits: int) -> int:  # the net over 2^bits cells stays within lesson.LIVE_MAX databases
        return nm.largest_net_m(2**bits, lesson.LIVE_MAX)

    controls = {"epsilon": w.epsilon_slider(EPSILON, low=0.02, high=5.0, continuous_update=True),
                "n": widgets.IntSlider(value=N_DEFAULT, min=100, max=12_000, step=100, description="n",
                                       continuous_update=False),
                "universe": widgets.Dropdown(options=[(f"|X| = {2**b}", b) for b in (1, 2, 3)], value=3,
                                             description="universe"),
                "m": widgets.IntSlider(value=lesson.M_LIVE, min=1, max=m_slider(3), description="m",
                                       continuous_update=False)}
    controls["universe"].observe(lambda change: setattr(controls["m"], "max", m_slider(change["new"])),
                                 names="value")  # a smaller universe allows a larger m
    return w.view_panel(NetView, controls, seed)


def figures() -> dict[str, object]:
    return {"05_exponential": figure_exponential(), "05_utility": figure_utility(), "05_net": figure_net(),
            "05_lemma12": figure_lemma12(), "05_compare": figure_compare(), "05_scaling": figure_scaling(),
            "05_net_panel": figure_net_panel()}


PANELS = (w.PanelCase("05 net panel, default net of 77,520 (epsilon)", net_panel,
                      {"epsilon": list(w.BENCH_EPSILONS)}, w.BrowserStep(0, "epsilon", w.EPSILON_STEP,
                                                                         f"ε = {w.EPSILON_STEP}")),)
