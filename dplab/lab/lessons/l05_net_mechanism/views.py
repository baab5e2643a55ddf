"""Lesson 5, the exponential mechanism and the net mechanism: figures and the net panel.

Notebook ``notebooks/05_net_mechanism.ipynb`` and ``python -m dplab figures`` both call
these functions.
"""

from __future__ import annotations

import math

import numpy as np

from dplab.lab.cache import cached
from dplab.lab.lessons.l05_net_mechanism.report import (
    BETA,
    EPSILON,
    INCHES,
    LIVE_MAX,
    M_LIVE,
    M_STATIC,
    N_DEFAULT,
    SEED,
    expected_shortfall,
    height_scores,
    laplace_answers_max_errors,
    net_release_errors,
    net_state,
    noisy_histogram_max_errors,
    padded_scores,
    release_error_distribution,
    selection_probabilities,
)
from dplab.lab.plots import COLORS, TheoryVsEmpirical, new_figure
from dplab.lab.widgets import (
    BENCH_EPSILONS,
    EPSILON_STEP,
    BrowserStep,
    PanelCase,
    SliderPanel,
    epsilon_slider,
    promise,
)
from dplab.mechanisms.exponential import (
    exponential_mechanism,
    exponential_probabilities,
    exponential_utility_failure_probability,
    exponential_utility_threshold,
)
from dplab.mechanisms.laplace import laplace_accuracy_k
from dplab.net_mechanism import (
    counting_query_sensitivity,
    lemma12_failure_bound,
    log_net_size,
    net_alpha,
    net_covering_radius,
    net_error_bound,
    net_mechanism_accuracy,
    net_size,
    noisy_histogram_max_error_bound,
    subsample_max_errors,
)
from dplab.simulate import proportion_ci

EM_EPSILONS = (0.02, 0.1, 0.5)
#: candidate-query pairs scored per second, the order measured here by ``make bench``
#: (888,030 databases x 256 predicates in about 0.5 s)
SCORING_RATE = 5e8


def _shown() -> slice:
    """The candidate heights worth drawing: 57..77 inches (the rest have almost no students)."""
    return slice(int(np.searchsorted(INCHES, 57)), int(np.searchsorted(INCHES, 78)))


def figure_exponential():
    """Left: the scores and the exponential mechanism's output distribution for three eps.
    Right: four selection mechanisms on the same scores at one eps, exact probabilities."""
    scores = height_scores()
    shown = _shown()
    x = INCHES[shown]
    fig, (ax, ax_mech) = new_figure(2, width=5.4, height=3.7)
    ax.bar(x, scores[shown] / scores.sum(), color="0.85", label="share of students (scores / n)")
    for eps, color in zip(EM_EPSILONS, (COLORS["laplace"], COLORS["analytic"], COLORS["zcdp"]), strict=True):
        p = exponential_probabilities(scores, 1.0, eps)
        ax.plot(x, p[shown], "o-", ms=3, color=color, label=f"Pr[output], ε = {eps:g}")
    ax.set(xlabel="candidate height (inches)", ylabel="probability",
           title="exponential mechanism: the most common height")
    ax.legend(fontsize=7, loc="upper left")
    eps = 0.05
    mechanisms = selection_probabilities(scores, eps)
    centre = (INCHES >= 61) & (INCHES <= 71)
    colors = (COLORS["laplace"], COLORS["zcdp"], COLORS["classical"])
    for i, ((name, p), color) in enumerate(zip(mechanisms.items(), colors, strict=True)):
        ax_mech.bar(INCHES[centre] + (i - 1) * 0.27, p[centre], width=0.27, color=color,
                    label=f"{name}: OPT − E[s] = {expected_shortfall(scores, p):.1f}")
    ax_mech.set(xlabel="candidate height (inches)", ylabel="exact Pr[output]",
                title=f"three private selections at scale 2Δ/ε, ε = {eps:g}, Δ = 1")
    ax_mech.legend(fontsize=7, loc="upper left")
    ax_mech.set_ylim(0, 0.95)
    fig.tight_layout()
    return fig


def figure_utility(seed: int = SEED, draws: int = 100_000):
    """Left: the utility theorem, Pr[s <= OPT - (2Δ/ε)(ln|R| + t)] against its bound e^{-t},
    exact and simulated. Right: OPT - E[s] as useless candidates join the output space."""
    scores = height_scores()
    eps = 0.1
    t = np.linspace(0, 5, 21)
    thresholds = exponential_utility_threshold(scores.max(), scores.size, 1.0, eps, t)
    out = scores[exponential_mechanism(scores, 1.0, eps, size=draws, rng=seed)]
    fails = np.array([np.sum(out <= th) for th in thresholds])
    fig, (ax, ax_grow) = new_figure(2, width=5.4, height=3.7)
    ax.plot(t, np.exp(-t), "k--", lw=1.2, label="the theorem's bound e^−t")
    fine_t = np.linspace(0, 5, 501)
    ax.step(fine_t, exponential_utility_failure_probability(scores, 1.0, eps, fine_t), where="post",
            color=COLORS["laplace"], lw=1.5, label="exact probability")
    line = TheoryVsEmpirical(ax, color=COLORS["laplace"], label=f"{draws:,} draws", show_theory=False)
    seen = fails > 0
    line.update([], [], t[seen], proportion_ci(fails[seen], draws))
    ax.set(yscale="log", ylim=(1e-5, 1.5), xlabel="t", ylabel="Pr[s(output) ≤ OPT − (2Δ/ε)(ln|R| + t)]",
           title=f"utility theorem, most common height, ε = {eps:g}")
    ax.legend(fontsize=7, loc="upper right")
    extra = np.unique(np.round(np.geomspace(1, 1e6, 25)).astype(int))
    sizes = scores.size + extra
    for eps_g, color in zip((0.005, 0.01, 0.02), (COLORS["laplace"], COLORS["analytic"], COLORS["zcdp"]),
                            strict=True):
        gaps = [expected_shortfall(padded_scores(k), exponential_probabilities(padded_scores(k), 1.0, eps_g))
                for k in extra]
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


CELL_NAMES = ("F", "M")


def cell_labels(bits: int) -> list[str]:
    """Short names of the cells of X: sex (F/M), then tall (T) or not (s), then BMI >= 25 (+/-)."""
    names = []
    for j in range(2**bits):
        code = [CELL_NAMES[(j >> (bits - 1)) & 1]]
        if bits >= 2:
            code.append("T" if (j >> (bits - 2)) & 1 else "s")
        if bits >= 3:
            code.append("+" if j & 1 else "−")
        names.append("".join(code))
    return names


def figure_net(seed: int = SEED, draws: int = 20_000):
    """The net mechanism on the YRBSS universe (n = 1000, |X| = 8, all 256 predicates, m = 20):
    the exact distribution of its max error, draws, OPT, the non-vacuous bound and the seed's."""
    state = net_state(N_DEFAULT, 3, M_STATIC)
    n = N_DEFAULT
    values, cdf = release_error_distribution(state, EPSILON)
    errs = np.sort(net_release_errors(state, EPSILON, draws, seed))
    bound = net_error_bound(state.opt, state.net.shape[0], 1 / n, EPSILON, BETA)
    two_alpha = 2 * net_alpha(256, M_STATIC)
    worst_case = 2 * net_covering_radius(8, M_STATIC)
    fig, (ax,) = new_figure(1, width=7.5, height=3.8)
    ax.step(values, cdf, where="post", color=COLORS["laplace"], lw=1.8, label="exact Pr[max error ≤ x]")
    ax.plot(errs[::200], (np.arange(errs.size)[::200] + 1) / errs.size, "o", ms=3, color="k",
            label=f"{draws:,} releases (every 200th)")
    ax.axvline(state.opt, color="0.4", ls=":", lw=1.2,
               label=f"OPT, best database in the net: {state.opt:.3f}")
    ax.axvline(bound, color=COLORS["bound"], ls="--", lw=1.5,
               label=f"OPT + (2Δ/ε)(ln|N| + ln 1/β) = {bound:.3f} (β = {BETA:g})")
    ax.axvline(worst_case, color=COLORS["zcdp"], ls="-.", lw=1.5,
               label=f"Prop. 6 with the covering radius α = |X|/(4m): 2α = {worst_case:.2f}, for every D")
    ax.text(0.02, 0.95, f"Prop. 6 with Lemma 12's α = √(ln|C|/m):\n2α = {two_alpha:.2f}, "
            "beyond the axis (vacuous)",
            transform=ax.transAxes, ha="left", va="top", fontsize=8, color="0.25")
    ax.set(xlim=(0, 0.25), ylim=(0, 1.02), xlabel="max error over the 256 predicates",
           ylabel="cumulative probability",
           title=f"net mechanism: n = {n}, |X| = 8, m = {M_STATIC}, |N| = {state.net.shape[0]:,}, "
                 f"ε = {EPSILON:g}")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def figure_lemma12(seed: int = SEED, trials: int = 4000):
    """Lemma 12: how often a random subsample of size m misses some predicate by more than alpha,
    against the union bound 2|C| e^{-2 m alpha^2}."""
    state = net_state(N_DEFAULT, 3, M_STATIC)
    ms = np.array([5, 10, 20, 40, 80, 160, 320])
    fig, (ax,) = new_figure(1, width=7.0, height=3.6)
    colors = (COLORS["laplace"], COLORS["analytic"], COLORS["zcdp"])
    for alpha, color in zip((0.05, 0.1, 0.2), colors, strict=True):
        fails = np.array([np.sum(subsample_max_errors(state.histogram, state.queries, int(m), trials=trials,
                                                      rng=seed + int(m)) > alpha) for m in ms])
        fine = np.arange(ms[0], ms[-1] + 1)
        bound = np.array([lemma12_failure_bound(256, int(m), alpha) for m in fine])
        if np.any(bound < 1):
            ax.plot(fine, np.minimum(bound, 1.0), "--", color=color, lw=1.2,
                    label=f"2|C| e^(−2mα²), α = {alpha:g} (capped at 1)")
        else:
            ax.plot([], [], " ", label=f"2|C| e^(−2mα²) ≥ 1 for α = {alpha:g} at every m shown")
        seen = fails > 0
        line = TheoryVsEmpirical(ax, color=color, label=f"α = {alpha:g}, {trials:,} subsamples",
                                 show_theory=False)
        line.update([], [], ms[seen], proportion_ci(fails[seen], trials))
        if not seen.all():  # no failure at all: the interval's upper end, as a downward triangle
            ax.plot(ms[~seen], proportion_ci(fails[~seen], trials).high, "v", color=color, ms=6, mfc="none",
                    label=f"α = {alpha:g}: 0 of {trials:,} (95% upper bound)")
    ax.set(xscale="log", yscale="log", ylim=(1e-4, 1.5), xlabel="subsample size m",
           ylabel="Pr[some query misses by > α]",
           title="Lemma 12: a small random subsample answers every query")
    ax.legend(fontsize=6.5, loc="lower left")
    fig.tight_layout()
    return fig


def figure_compare(seed: int = SEED, draws: int = 20_000):
    """Max error over the 256 predicates of three epsilon-DP releases (n = 1000, eps = 1),
    with each one's (1 - beta) bound."""
    state = net_state(N_DEFAULT, 3, M_STATIC)
    n, h, q = N_DEFAULT, state.histogram, state.queries
    runs = {
        "Laplace on the 256 answers, Lap(128/(nε))": (laplace_answers_max_errors(h, q, EPSILON, draws, seed),
                                                      COLORS["laplace"]),
        "noisy histogram, Lap(2/(nε)) per cell": (noisy_histogram_max_errors(h, q, EPSILON, draws, seed + 1),
                                                  COLORS["classical"]),
        f"net mechanism, m = {M_STATIC}": (net_release_errors(state, EPSILON, draws, seed + 2),
                                           COLORS["zcdp"]),
    }
    bounds = {
        # the union bound b ln(k/beta) of Theorem 3, at the scale b = 128/(n eps) actually used
        "union bound, Lap(128/(nε))": (laplace_accuracy_k(0.5 / n, 256, EPSILON, BETA), COLORS["laplace"]),
        "‖Z‖₁ quantile (Gamma)": (noisy_histogram_max_error_bound(8, n, EPSILON, BETA), COLORS["classical"]),
        "OPT + (2Δ/ε)(ln|N| + ln 1/β)": (net_error_bound(state.opt, state.net.shape[0], 1 / n, EPSILON, BETA),
                                         COLORS["zcdp"]),
    }
    fig, (ax,) = new_figure(1, width=7.5, height=4.8)
    for name, (errs, color) in runs.items():
        e = np.sort(errs)
        ax.plot(e, (np.arange(e.size) + 1) / e.size, "-", color=color, lw=1.8,
                label=f"{name}: median {np.median(e):.3f}")
    for name, (b, color) in bounds.items():
        ax.axvline(b, color=color, ls="--", lw=1, label=f"bound at β = {BETA:g}: {name} = {b:.3g}")
    ax.set(xscale="log", xlim=(2e-3, 5), ylim=(0, 1.02), xlabel="max error over the 256 predicates",
           ylabel="cumulative fraction of releases",
           title=f"the same 256 queries, n = {n}, ε = {EPSILON:g} (replace-one, public n)")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.17), ncol=2)
    fig.tight_layout()
    return fig


def figure_scaling(n: int = 10**6, log2_universe: int = 40):
    """Where the net mechanism wins: the (1 - beta) guarantees against the number of queries
    for a huge universe (|X| = 2^40), and what enumerating its net would cost."""
    universe = 2.0**log2_universe
    n_queries = np.unique(np.round(np.geomspace(10, 1e9, 30)).astype(np.int64))
    laplace = laplace_accuracy_k(1 / n, n_queries, EPSILON, BETA)
    best = [net_mechanism_accuracy(universe, int(c), n, EPSILON, BETA, m_max=20_000) for c in n_queries]
    net = np.array([b[0] for b in best])
    ms = np.array([b[1] for b in best])
    hist = {bits: [noisy_histogram_max_error_bound(2**bits, n, EPSILON, BETA, n_queries=int(c))
                   for c in n_queries] for bits in (log2_universe, 20)}
    fig, (ax, ax_time) = new_figure(2, width=5.4, height=4.4)
    ax.plot(n_queries, laplace, "-", color=COLORS["laplace"], lw=1.8, label="Laplace on the answers (Thm 3)")
    ax.plot(n_queries, net, "-", color=COLORS["zcdp"], lw=1.8, label="net mechanism (best m)")
    ax.plot(n_queries, hist[log2_universe], "-", color=COLORS["classical"], lw=1.8, label="noisy histogram")
    ax.plot(n_queries, hist[20], "--", color=COLORS["classical"], lw=1.2,
            label="noisy histogram if |X| were 2^20")
    ax.axhline(1, color="0.5", lw=0.8, ls=":")
    ax.set(xscale="log", yscale="log", ylim=(1e-5, 1e2), xlabel="number of counting queries |C|",
           ylabel=f"max error guaranteed w.p. {1 - BETA:g}",
           title=f"|X| = 2^{log2_universe}, n = 10^{round(math.log10(n))}, ε = {EPSILON:g}")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)
    log10_candidates = np.array([log_net_size(universe, int(m)) for m in ms]) / math.log(10)
    log10_seconds = log10_candidates + np.log10(n_queries) - math.log10(SCORING_RATE)
    ax_time.plot(n_queries, log10_seconds, "-", color=COLORS["zcdp"], lw=1.8,
                 label="scoring every database of the net (at least)")
    universe_age = math.log10(3.15e7 * 1.38e10)
    ax_time.axhline(universe_age, color="k", ls=":", lw=1)
    ax_time.text(n_queries[0], universe_age + 200, f"the age of the universe: 10^{universe_age:.1f} s",
                 fontsize=7)
    ax_time.set(xscale="log", xlabel="number of counting queries |C|", ylabel="log10(seconds)",
                title=f"its running time at {SCORING_RATE:.0e} scores/s")
    ax_time.legend(fontsize=7, loc="center right")
    fig.tight_layout()
    return fig


# --- the live panel -------------------------------------------------------------------------

PANEL_X_MIN = 2e-3

@cached(maxsize=16)
def m_limit(bits: int, high: int = 200) -> int:
    """The largest m (<= high) whose net over |X| = 2^bits stays within LIVE_MAX databases."""
    m = 1
    while m < high and net_size(2**bits, m + 1) <= LIVE_MAX:
        m += 1
    return m


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
        positions = np.arange(8)
        self.true_bars = ax_bars.bar(positions - 0.2, np.zeros(8), width=0.4, color="0.6", label="D / n")
        self.release_bars = ax_bars.bar(positions + 0.2, np.zeros(8), width=0.4, color=COLORS["zcdp"],
                                        label="released D' / m")
        ax_bars.set(ylim=(0, 0.6), ylabel="share of rows", title="the data and one release")
        ax_bars.legend(fontsize=7, loc="upper right")
        self.ax_bars = ax_bars
        self.fig.tight_layout()
        self.dynamic = [self.cdf, self.opt, self.bound, self.drawn, self.eps_text,
                        *self.true_bars, *self.release_bars]

    def update(self, values: dict, seed: int) -> str:
        eps, n = float(values["epsilon"]), int(values["n"])
        bits, m = int(values["universe"]), int(values["m"])
        m = min(m, m_limit(bits))
        state = net_state(n, bits, m)
        x, cdf = release_error_distribution(state, eps)
        shown = np.maximum(x, PANEL_X_MIN)  # an error of 0 (OPT = 0) at the left edge of the log axis
        self.cdf.set_data(np.r_[shown[0], shown], np.r_[0.0, cdf])
        bound = net_error_bound(state.opt, state.net.shape[0], counting_query_sensitivity(n), eps, BETA)
        index = exponential_mechanism(-state.errors, counting_query_sensitivity(n), eps, rng=seed)
        released = state.net[index]
        for line, at in ((self.opt, state.opt), (self.bound, bound), (self.drawn, state.errors[index])):
            line.set_xdata([max(at, PANEL_X_MIN)] * 2)
        self.eps_text.set_text(f"ε = {eps:.3g}, n = {n}, m = {m}")
        k = 2**bits
        shares = (state.histogram / n, released / m)
        for bars, share in zip((self.true_bars, self.release_bars), shares, strict=True):
            for j, bar in enumerate(bars):
                bar.set_visible(j < k)
                bar.set_height(share[j] if j < k else 0.0)
        self.ax_bars.set_xticks(np.arange(k), cell_labels(bits), fontsize=7)
        self.ax_bars.set_xlim(-0.6, k - 0.4)
        self.ax_bars.set_ylim(0, max(0.6, 1.1 * max(s.max() for s in shares)))
        beyond = 1.0 - float(cdf[np.searchsorted(x, bound, side="right") - 1])
        beyond = 0.0 if beyond < 1e-12 else beyond  # below the round-off of a cumulative sum
        verdict = " (above 1: it says nothing)" if bound >= 1 else ""
        return (f"ε = {eps:.3g}, n = {n}, |X| = {k}: the net holds |N| = {state.net.shape[0]:,} databases "
                f"of size m = {m}; OPT = {state.opt:.4f}; bound at β = {BETA:g}: {bound:.4f}{verdict} "
                f"(exactly Pr[error > bound] = {beyond:.2g}); "
                f"this release: error {state.errors[index]:.4f}. "
                f"<i>ε follows the drag; n, |X| and m rebuild the net and update on release.</i>"
                + promise(epsilon=eps))  # the net mechanism is an exponential mechanism: eps-DP


def figure_net_panel(epsilon: float = EPSILON, n: int = N_DEFAULT, bits: int = 3, m: int = M_LIVE,
                     seed: int = SEED):
    view = NetView()
    view.update({"epsilon": epsilon, "n": n, "universe": bits, "m": m}, seed)
    return view.fig


def net_panel(seed: int = SEED) -> SliderPanel:
    import ipywidgets as widgets

    view = NetView()
    controls = {
        "epsilon": epsilon_slider(EPSILON, low=0.02, high=5.0, continuous_update=True),
        "n": widgets.IntSlider(value=N_DEFAULT, min=100, max=12_000, step=100, description="n",
                               continuous_update=False),
        "universe": widgets.Dropdown(options=[("|X| = 2", 1), ("|X| = 4", 2), ("|X| = 8", 3)], value=3,
                                     description="universe"),
        "m": widgets.IntSlider(value=M_LIVE, min=1, max=m_limit(3), description="m", continuous_update=False),
    }

    def cap_m(change) -> None:  # a smaller universe allows a larger m
        controls["m"].max = m_limit(change["new"])

    controls["universe"].observe(cap_m, names="value")
    return SliderPanel(view.fig, view.update, controls, seed=seed, dynamic=view.dynamic)


def figures() -> dict[str, object]:
    return {
        "05_exponential": figure_exponential(),
        "05_utility": figure_utility(),
        "05_net": figure_net(),
        "05_lemma12": figure_lemma12(),
        "05_compare": figure_compare(),
        "05_scaling": figure_scaling(),
        "05_net_panel": figure_net_panel(),
    }


PANELS = (
    PanelCase("05 net panel, default net of 77,520 (epsilon)", net_panel, {"epsilon": list(BENCH_EPSILONS)},
              BrowserStep(0, "epsilon", EPSILON_STEP, f"ε = {EPSILON_STEP}")),
)
