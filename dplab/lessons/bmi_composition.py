"""Lesson 2, BMI and parallel composition: figures, widget panel, report rows, exercises.

Notebook ``notebooks/02_bmi_parallel_composition.ipynb`` and ``python -m dplab figures``
both call these functions. Seed 000 (Problem / Algorithm 1 / Algorithm 2 /
Generalized sensitivity / Constrained inference / Transformations & stability) and
seed 003 (parallel composition, contingency tables).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from dplab.bmi import (
    ANSWERS_FROM_CELLS,
    bmi_algorithm_1,
    bmi_algorithm_2,
    bmi_cells,
    bmi_expected_total_error,
    bmi_slides_table,
    bmi_true_answers,
    body_mass_index,
    histogram_sensitivity,
)
from dplab.composition import (
    subsampling_epsilon,
    subsampling_slide_claim_fails_above,
)
from dplab.contingency import (
    CONTINGENCY_METHODS,
    contingency_expected_total_error,
    contingency_release,
)
from dplab.datasets import load_yrbss
from dplab.exercises import Exercise
from dplab.inference import isotonic_fit, project_onto_constraints
from dplab.mechanisms import laplace_mechanism, laplace_mse, laplace_scale
from dplab.plots import COLORS, TheoryVsEmpirical, new_figure
from dplab.report import ReportRow
from dplab.sensitivity import l1_sensitivity, stability
from dplab.simulate import Estimate, ScaledErrors, mean_ci, proportion_ci, standard_noise
from dplab.widgets import SliderPanel, epsilon_slider

NOTEBOOK = "02_bmi_parallel_composition.ipynb"
PREFIX = "02"
SEED = 2027
TRIALS = 100_000
EPS_LINE = np.geomspace(0.05, 5.0, 200)
EPS_POINTS = np.geomspace(0.08, 4.0, 9)
ANSWER_NAMES = ["# M, BMI < 25", "# M", "# F, BMI < 25", "# F"]

#: Four row types that reach every cell: (M, BMI < 25), (M, >= 25), (F, < 25), (F, >= 25).
BMI_UNIVERSE = [
    {"sex": "M", "height_m": 1.80, "weight_kg": 65.0},
    {"sex": "M", "height_m": 1.80, "weight_kg": 90.0},
    {"sex": "F", "height_m": 1.65, "weight_kg": 55.0},
    {"sex": "F", "height_m": 1.65, "weight_kg": 80.0},
]
#: Inequalities that the true answers obey: 0 <= a1 <= a2 and 0 <= a3 <= a4 (A_ub a <= 0).
ORDER_A_UB = np.array([[-1, 0, 0, 0], [1, -1, 0, 0], [0, 0, -1, 0], [0, 0, 1, -1]], dtype=float)
ORDER_B_UB = np.zeros(4)


# ------------------------------------------------------------ queries for the brute-force sensitivity


def f1(table: dict[str, np.ndarray]) -> np.ndarray:
    """f1 = (q1, q2) = (# M with BMI < 25, # M with BMI >= 25) (seed 000)."""
    return bmi_cells(table)[:2]


def f2(table: dict[str, np.ndarray]) -> np.ndarray:
    """f2 = (q1, q1 + q2) = (# M with BMI < 25, # M) (seed 000)."""
    return bmi_true_answers(table)[:2]


def bmi_transform(table: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """(sex, height, weight) -> (sex, bmi), row by row: stability 1."""
    return {"sex": table["sex"], "bmi": np.round(body_mass_index(table), 9)}


TWEET_UNIVERSE = [{"text": "privacy is hard to get right"}, {"text": "noise makes data safe"}]


def first_k_words(k: int):
    """The seed's V2: each tweet becomes k rows, one per word among its first k (stability k)."""

    def transform(table: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        words = [w for text in table["text"] for w in str(text).split()[:k]]
        return {"word": np.array(words)}

    return transform


def derived_sensitivities(max_rows: int = 3) -> dict[str, float]:
    """Every sensitivity and stability of the notebook, derived by brute force."""
    out = {}
    for neighbours in ("add_remove", "replace"):
        out[f"f1 {neighbours}"] = l1_sensitivity(f1, BMI_UNIVERSE, max_rows, neighbours)
        out[f"f2 {neighbours}"] = l1_sensitivity(f2, BMI_UNIVERSE, max_rows, neighbours)
        out[f"cells {neighbours}"] = l1_sensitivity(bmi_cells, BMI_UNIVERSE, max_rows, neighbours)
        out[f"answers {neighbours}"] = l1_sensitivity(bmi_true_answers, BMI_UNIVERSE, max_rows,
                                                      neighbours)
    out["bmi stability"] = stability(bmi_transform, BMI_UNIVERSE, max_rows)
    out["3-words stability"] = stability(first_k_words(3), TWEET_UNIVERSE, max_rows)
    return out


# ------------------------------------------------------------ panel: Algorithm 1 vs Algorithm 2


@lru_cache(maxsize=8)
def _standard_answer_errors(seed: int, trials: int = TRIALS) -> dict[str, np.ndarray]:
    """Standard errors of the four answers: Algorithm 1 is Lap(1) per answer (times 4/eps),
    Algorithm 2 is A @ Lap(1) cells (times Delta/eps). One draw serves both algorithms and
    every epsilon; with the same seed and size it is exactly the algorithms' own noise."""
    z = standard_noise("laplace", (trials, 4), np.random.default_rng(seed))
    return {"1": z, "2": z @ ANSWERS_FROM_CELLS.T}


def _algorithm_scale(algorithm: int, epsilon: float, neighbours: str) -> float:
    if algorithm == 1:
        return laplace_scale(1.0, epsilon / 4)
    return laplace_scale(histogram_sensitivity(neighbours), epsilon)


@lru_cache(maxsize=16)
def _scaled_errors(seed: int, algorithm: int) -> tuple[ScaledErrors, list[ScaledErrors]]:
    e = _standard_answer_errors(seed)[str(algorithm)]
    total = ScaledErrors(np.sqrt(np.sum(e**2, axis=1)))
    return total, [ScaledErrors(np.abs(e[:, j])) for j in range(4)]


class BMIErrorView:
    """Left: total squared error against epsilon, both algorithms. Right: each answer's error."""

    def __init__(self):
        self.fig, (ax, ax_ans) = new_figure(2, width=5.2, height=3.6)
        self.alg1 = TheoryVsEmpirical(ax, color=COLORS["laplace"], label="Algorithm 1")
        self.alg2 = TheoryVsEmpirical(ax, color=COLORS["analytic"], label="Algorithm 2", marker="s")
        self.here = ax.axvline(1.0, color="k", lw=0.8, ls=":")
        ax.set(xscale="log", yscale="log", xlim=(0.05, 5), ylim=(0.1, 1e6), xlabel="ε",
               ylabel="total squared error of the 4 answers", title="total error against ε")
        ax.legend(fontsize=7, loc="upper right")
        self.answers = {
            1: TheoryVsEmpirical(ax_ans, color=COLORS["laplace"], label="Algorithm 1",
                                 theory_style="_"),
            2: TheoryVsEmpirical(ax_ans, color=COLORS["analytic"], label="Algorithm 2",
                                 theory_style="_", marker="s"),
        }
        for line in self.answers.values():
            line.theory.set_markersize(22)
            line.theory.set_markeredgewidth(2)
        ax_ans.set(yscale="log", ylim=(1e-2, 1e5), xlim=(-0.5, 3.5), ylabel="squared error",
                   title="each answer at the chosen ε")
        ax_ans.set_xticks(range(4), ANSWER_NAMES, fontsize=8)
        ax_ans.legend(fontsize=7, loc="upper right")
        self.fig.tight_layout()
        self.dynamic = [*self.alg1.artists, *self.alg2.artists, self.here,
                        *self.answers[1].artists, *self.answers[2].artists]

    def update(self, values: dict, seed: int) -> str:
        eps = values["epsilon"]
        neighbours = values["neighbours"]
        shown = {"both": (1, 2), "Algorithm 1": (1,), "Algorithm 2": (2,)}[values["algorithm"]]
        for alg, line in ((1, self.alg1), (2, self.alg2)):
            total, per_answer = _scaled_errors(seed, alg)
            theory = [bmi_expected_total_error(alg, e, neighbours) for e in EPS_LINE]
            scales = [_algorithm_scale(alg, e, neighbours) for e in EPS_POINTS]
            line.update(EPS_LINE, theory, EPS_POINTS, total.mse(scales))
            line.set_visible(alg in shown)
            b = _algorithm_scale(alg, eps, neighbours)
            row_var = np.sum(ANSWERS_FROM_CELLS**2, axis=1) if alg == 2 else np.ones(4)
            self.answers[alg].update(np.arange(4), 2 * b**2 * row_var, np.arange(4),
                                     Estimate.stack([pa.mse(b) for pa in per_answer]))
            self.answers[alg].set_visible(alg in shown)
        self.here.set_xdata([eps, eps])
        t1 = bmi_expected_total_error(1, eps, neighbours)
        t2 = bmi_expected_total_error(2, eps, neighbours)
        s1 = float(_scaled_errors(seed, 1)[0].mse(_algorithm_scale(1, eps, neighbours)).estimate)
        s2 = float(_scaled_errors(seed, 2)[0].mse(_algorithm_scale(2, eps, neighbours)).estimate)
        return (
            f"<b>ε = {eps:.3g}</b>, {neighbours} neighbours: total squared error "
            f"Algorithm 1 theory {t1:.4g} (simulated {s1:.4g}), Algorithm 2 theory {t2:.4g} "
            f"(simulated {s2:.4g}); Algorithm 2 is {t1 / t2:.3g}× more accurate"
        )


def figure_bmi_error(epsilon: float = 1.0, neighbours: str = "add_remove", seed: int = SEED):
    view = BMIErrorView()
    view.update({"epsilon": epsilon, "algorithm": "both", "neighbours": neighbours}, seed)
    view.fig.axes[1].set_title(f"each answer at ε = {epsilon:g} ({neighbours})")
    return view.fig


def bmi_panel(seed: int = SEED) -> SliderPanel:
    import ipywidgets as widgets

    view = BMIErrorView()
    controls = {
        "epsilon": epsilon_slider(1.0),
        "algorithm": widgets.Dropdown(options=["both", "Algorithm 1", "Algorithm 2"],
                                      value="both", description="algorithm"),
        "neighbours": widgets.Dropdown(options=["add_remove", "replace"], value="add_remove",
                                       description="neighbours"),
    }
    return SliderPanel(view.fig, view.update, controls, seed=seed, dynamic=view.dynamic)


# ------------------------------------------------------------ constrained inference


def order_violation_probability(algorithm: int, males_high: float, epsilon: float) -> float:
    """Pr[noisy (# M with BMI < 25) > noisy (# M)] when c2 = # M with BMI >= 25.

    Algorithm 2: the noisy # M minus noisy q1 is c2 + Lap(1/eps): Pr = 1/2 e^{-c2 eps}.
    Algorithm 1: the difference of two independent Lap(b), b = 4/eps, exceeds c2 with
    Pr = 1/2 e^{-c2/b} (1 + c2/(2b)) (the difference has density (1 + |x|/b) e^{-|x|/b}/(4b)).
    """
    if algorithm == 2:
        return 0.5 * math.exp(-males_high * epsilon)
    b = laplace_scale(1.0, epsilon / 4)
    return 0.5 * math.exp(-males_high / b) * (1 + males_high / (2 * b))


def inference_trials(table, algorithm: int, epsilon: float, trials: int, seed: int,
                     neighbours: str = "add_remove") -> dict[str, np.ndarray]:
    """Noisy answers, their projection onto the order constraints, and the squared errors."""
    truth = bmi_true_answers(table)
    if algorithm == 1:
        noisy = bmi_algorithm_1(table, epsilon, rng=seed, size=trials)
    else:
        noisy = bmi_algorithm_2(table, epsilon, rng=seed, size=trials, neighbours=neighbours)
    projected = project_onto_constraints(noisy, A_ub=ORDER_A_UB, b_ub=ORDER_B_UB)
    return {
        "noisy": noisy,
        "projected": projected,
        "before": np.sum((noisy - truth) ** 2, axis=1),
        "after": np.sum((projected - truth) ** 2, axis=1),
        "violated": noisy[:, 0] > noisy[:, 1],
    }


def figure_inference(seed: int = SEED, trials: int = 40_000):
    """Slides table: how often the noisy answers break q1 <= q1 + q2, and what projection removes."""
    table = bmi_slides_table()
    c2 = bmi_cells(table)[1]
    fig, (ax, ax_err) = new_figure(2, width=5.2, height=3.6)
    eps_points = np.geomspace(0.1, 2.0, 7)
    for alg, color, marker in ((1, COLORS["laplace"], "o"), (2, COLORS["analytic"], "s")):
        line = TheoryVsEmpirical(ax, color=color, label=f"Algorithm {alg}", marker=marker)
        results = [inference_trials(table, alg, e, trials, seed + i) for i, e in enumerate(eps_points)]
        freq = proportion_ci(np.array([r["violated"].sum() for r in results]), trials)
        line.update(EPS_LINE, [order_violation_probability(alg, c2, e) for e in EPS_LINE],
                    eps_points, freq)
        before = TheoryVsEmpirical(ax_err, color=color, label=f"Alg. {alg} as released",
                                   marker=marker)
        before.update(EPS_LINE, [bmi_expected_total_error(alg, e) for e in EPS_LINE], eps_points,
                      Estimate.stack([mean_ci(r["before"]) for r in results]))
        after = TheoryVsEmpirical(ax_err, color=color, label=f"Alg. {alg} after projection",
                                  marker="x", show_theory=False)
        after.update([], [], eps_points, Estimate.stack([mean_ci(r["after"]) for r in results]))
    for a in (ax, ax_err):  # set_data does not grow the data limits: recompute them
        a.relim()
        a.autoscale_view()
    ax.set(xscale="log", yscale="log", ylim=(1e-5, 1), xlabel="ε",
           ylabel="Pr[noisy q1 > noisy (q1 + q2)]",
           title=f"slides table (q2 = {c2:.0f}): order broken")
    ax.legend(fontsize=7)
    ax_err.set(xscale="log", yscale="log", xlabel="ε", ylabel="total squared error",
               title="least-squares projection removes error")
    ax_err.legend(fontsize=7)
    fig.tight_layout()
    return fig


#: q1 + q2 - total = 0: the released total must equal the sum of its two cells.
TOTAL_A_EQ = np.array([[1.0, 1.0, -1.0]])


def totals_expected_error(epsilon: float, projected: bool) -> float:
    """(# M < 25, # M >= 25, # M) released with Lap(3/epsilon) each (3 queries, epsilon/3 each).

    As released: 3 v with v = laplace_mse(1, epsilon/3). Least-squares projection onto the
    plane q1 + q2 = total is an orthogonal projection onto a 2-dimensional subspace through
    the truth, so it keeps exactly 2 of the 3 independent noise dimensions: 2 v.
    """
    v = laplace_mse(1.0, epsilon / 3)
    return (2 if projected else 3) * v


def totals_trials(epsilon: float, trials: int, seed: int) -> dict[str, np.ndarray]:
    """Squared errors of the three male counts before and after projecting onto the total."""
    cells = bmi_cells(load_yrbss())
    truth = np.array([cells[0], cells[1], cells[0] + cells[1]])
    noisy = laplace_mechanism(truth, 1.0, epsilon / 3, size=trials, rng=seed)
    projected = project_onto_constraints(noisy, A_eq=TOTAL_A_EQ, b_eq=[0.0])
    return {"before": np.sum((noisy - truth) ** 2, axis=1),
            "after": np.sum((projected - truth) ** 2, axis=1)}


ISOTONIC_HEIGHTS = np.round(np.arange(1.50, 1.951, 0.05), 2)


def tall_counts(table: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """# students at least h tall for h = 1.50, 1.55, ..., 1.95 m: a non-increasing vector.
    One student counts in several: the vector has L1 sensitivity len(ISOTONIC_HEIGHTS)."""
    table = load_yrbss() if table is None else table
    return np.array([np.sum(table["height_m"] >= h) for h in ISOTONIC_HEIGHTS], dtype=float)


def isotonic_trials(epsilon: float, trials: int, seed: int) -> dict[str, np.ndarray]:
    truth = tall_counts()
    noisy = laplace_mechanism(truth, float(truth.size), epsilon, size=trials, rng=seed)
    fitted = isotonic_fit(noisy, increasing=False)
    return {"truth": truth, "noisy": noisy, "fitted": fitted,
            "before": np.sum((noisy - truth) ** 2, axis=1),
            "after": np.sum((fitted - truth) ** 2, axis=1)}


def figure_isotonic(epsilon: float = 0.01, seed: int = SEED):
    r = isotonic_trials(epsilon, 2000, seed)
    fig, (ax,) = new_figure(1, width=6.5, height=3.6)
    ax.plot(ISOTONIC_HEIGHTS, r["truth"], "k-", label="true # at least h tall")
    ax.plot(ISOTONIC_HEIGHTS, r["noisy"][0], "o", color=COLORS["laplace"], ms=4,
            label=f"noisy, Lap({r['truth'].size}/ε) each")
    ax.plot(ISOTONIC_HEIGHTS, r["fitted"][0], "s-", color=COLORS["analytic"], ms=4,
            label="isotonic fit (non-increasing)")
    ax.set(xlabel="height h (m)", ylabel="count",
           title=f"ordering constraint: one release at ε = {epsilon:g}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


# ------------------------------------------------------------ contingency tables and subsampling

CONTINGENCY_C = np.arange(2, 13)


def figure_contingency(epsilon: float = 1.0, seed: int = SEED, trials: int = 20_000):
    """Seed 003's epsilon/(c - 1) against parallel composition, total error over the c cells."""
    fig, (ax,) = new_figure(1, width=6.5, height=3.6)
    styles = {"seed003": ("laplace", "o"), "parallel_add_remove": ("analytic", "s"),
              "parallel_replace": ("zcdp", "^")}
    for method, neighbours in CONTINGENCY_METHODS.items():
        color, marker = styles[method]
        line = TheoryVsEmpirical(ax, color=COLORS[color], marker=marker,
                                 label=f"{method} ({neighbours})")
        est = []
        for c in CONTINGENCY_C:
            counts = np.full(c, 50.0)
            noisy = contingency_release(counts, epsilon, method, rng=seed + c, size=trials)
            est.append(mean_ci(np.sum((noisy - counts) ** 2, axis=1)))
        line.update(CONTINGENCY_C, [contingency_expected_total_error(c, epsilon, method)
                                    for c in CONTINGENCY_C], CONTINGENCY_C, Estimate.stack(est))
    ax.relim()
    ax.autoscale_view()
    ax.set(yscale="log", xlabel="number of cells c", ylabel="total squared error",
           title=f"contingency table with c cells, ε = {epsilon:g}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def figure_subsampling(ps=(0.1, 0.3)):
    """The slide's 2 p eps against the exact ln(1 + p (e^eps - 1))."""
    fig, (ax,) = new_figure(1, width=6.5, height=3.6)
    eps = np.linspace(0.01, 4, 300)
    for p, color in zip(ps, ("laplace", "analytic"), strict=True):
        ax.plot(eps, [subsampling_epsilon(e, p) for e in eps], color=COLORS[color],
                label=f"exact, p = {p}")
        ax.plot(eps, 2 * p * eps, "--", color=COLORS[color], label=f"slide: 2pε, p = {p}")
        cross = subsampling_slide_claim_fails_above(p)
        ax.axvline(cross, color=COLORS[color], ls=":", lw=1)
        ax.annotate(f"fails beyond ε ≈ {cross:.2f}", (cross, 2 * p * cross), fontsize=7,
                    xytext=(5, -15), textcoords="offset points")
    ax.set(xlabel="ε of the mechanism", ylabel="ε after subsampling",
           title="subsampling: slide's 2pε against the exact ε")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


# ------------------------------------------------------------ figures and report rows


def figures() -> dict[str, object]:
    return {
        "02_bmi_error": figure_bmi_error(),
        "02_bmi_error_replace": figure_bmi_error(neighbours="replace"),
        "02_inference": figure_inference(),
        "02_isotonic": figure_isotonic(),
        "02_contingency": figure_contingency(),
        "02_subsampling": figure_subsampling(),
    }


def report_rows(seed: int = SEED) -> list[ReportRow]:
    n = 200_000
    yrbss = load_yrbss()
    truth = bmi_true_answers(yrbss)

    def total_error(noisy):
        sq = np.sum((noisy - truth) ** 2, axis=1)
        return lambda c: mean_ci(sq, c)

    a1 = total_error(bmi_algorithm_1(yrbss, 1.0, rng=seed, size=n))
    a2 = total_error(bmi_algorithm_2(yrbss, 1.0, rng=seed + 1, size=n))
    a2r = total_error(bmi_algorithm_2(yrbss, 1.0, rng=seed + 2, size=n, neighbours="replace"))
    sens = derived_sensitivities()
    slides = bmi_slides_table()
    c2 = bmi_cells(slides)[1]
    inf_rows = []
    for alg, eps in ((1, 1.0), (2, 0.5)):
        r = inference_trials(slides, alg, eps, n, seed + 10 + alg)
        viol = int(r["violated"].sum())
        inf_rows += [
            ReportRow(f"02.order_violation_alg{alg}", "Pr[noisy q1 > noisy (q1+q2)]: "
                      + ("½e^(-q2 ε)" if alg == 2 else "½e^(-q2/b)(1 + q2/2b), b = 4/ε"),
                      "000", f"slides table (q2={c2:.0f}), ε={eps}, n={n}",
                      order_violation_probability(alg, c2, eps), "=",
                      interval=lambda c, v=viol: proportion_ci(v, n, c)),
            ReportRow(f"02.inference_never_worse_alg{alg}",
                      "share of draws with ‖q - q̄‖ ≤ ‖q - q̃‖ (projection on a convex set)", "000",
                      f"slides table, ε={eps}, n={n}", 1.0, "exact",
                      value=float(np.mean(r["after"] <= r["before"] + 1e-9))),
            ReportRow(f"02.inference_error_alg{alg}", "total error after projection ≤ before",
                      "000", f"slides table, ε={eps}, n={n}",
                      bmi_expected_total_error(alg, eps), "<=",
                      interval=lambda c, a=r["after"]: mean_ci(a, c)),
        ]
    iso = isotonic_trials(0.01, 20_000, seed + 20)
    tot = totals_trials(1.0, n, seed + 25)
    cont = {}
    for method in ("seed003", "parallel_replace"):
        counts = np.full(6, 100.0)
        noisy = contingency_release(counts, 1.0, method, rng=seed + 30, size=n)
        cont[method] = np.sum((noisy - counts) ** 2, axis=1)
    gap = subsampling_epsilon(subsampling_slide_claim_fails_above(0.1), 0.1) - 2 * 0.1 * \
        subsampling_slide_claim_fails_above(0.1)
    holds = all(2 * p * e >= subsampling_epsilon(e, p) for p in (0.01, 0.1, 0.3, 0.5, 0.9)
                for e in np.linspace(0.01, 1.0, 100))
    return [
        ReportRow("02.alg1_total", "Algorithm 1: total error 4·2(4/ε)² = 128/ε²", "000",
                  f"YRBSS, ε=1, n={n}", bmi_expected_total_error(1, 1.0), "=", interval=a1),
        ReportRow("02.alg2_total", "Algorithm 2: total error 12/ε² (add/remove)", "000",
                  f"YRBSS, ε=1, n={n}", bmi_expected_total_error(2, 1.0), "=", interval=a2),
        ReportRow("02.alg2_total_replace", "Algorithm 2 with Lap(2/ε): 48/ε² (replace-one)", "000",
                  f"YRBSS, ε=1, n={n}", bmi_expected_total_error(2, 1.0, "replace"), "=",
                  interval=a2r),
        ReportRow("02.sensitivity_f1", "S(f1), f1 = (q1, q2), add/remove (slide: 1)", "000",
                  "brute force, ≤ 3 rows of 4 types", 1, "exact", value=sens["f1 add_remove"]),
        ReportRow("02.sensitivity_f2", "S(f2), f2 = (q1, q1+q2), add/remove (slide: 2)", "000",
                  "brute force, ≤ 3 rows of 4 types", 2, "exact", value=sens["f2 add_remove"]),
        ReportRow("02.sensitivity_f1_replace", "S(f1) under replace-one", "000",
                  "brute force, ≤ 3 rows of 4 types", 2, "exact", value=sens["f1 replace"]),
        ReportRow("02.sensitivity_cells_replace", "histogram of 4 cells under replace-one", "003",
                  "brute force, ≤ 3 rows of 4 types", histogram_sensitivity("replace"), "exact",
                  value=sens["cells replace"]),
        ReportRow("02.stability_bmi", "stability of (s, h, w) → (s, bmi)", "000",
                  "brute force, ≤ 3 rows", 1, "exact", value=sens["bmi stability"]),
        ReportRow("02.stability_k_words", "stability of tweet → first k words", "000",
                  "k=3, brute force, ≤ 3 tweets", 3, "exact", value=sens["3-words stability"]),
        *inf_rows,
        ReportRow("02.inference_total_equals_cells",
                  "q1, q2, total at Lap(3/ε), projected on total = q1 + q2: error 3v → 2v",
                  "000", f"YRBSS males, ε=1, n={n}", totals_expected_error(1.0, True), "=",
                  interval=lambda c: mean_ci(tot["after"], c)),
        ReportRow("02.isotonic_never_worse", "share of draws where the isotonic fit is no worse",
                  "000", "YRBSS # ≥ h, 10 thresholds, ε=0.01, n=20000", 1.0, "exact",
                  value=float(np.mean(iso["after"] <= iso["before"] + 1e-9))),
        ReportRow("02.contingency_seed003", "c-1 cells at ε/(c-1), last = n - sum: 4(c-1)³/ε²",
                  "003", f"c=6, ε=1, n={n}", contingency_expected_total_error(6, 1.0, "seed003"),
                  "=", interval=lambda c: mean_ci(cont["seed003"], c)),
        ReportRow("02.contingency_parallel", "all c cells at Lap(2/ε) (replace-one): 8c/ε²", "003",
                  f"c=6, ε=1, n={n}", contingency_expected_total_error(6, 1.0, "parallel_replace"),
                  "=", interval=lambda c: mean_ci(cont["parallel_replace"], c)),
        ReportRow("02.subsampling_small_eps", "2pε ≥ ln(1 + p(e^ε - 1)) for all ε ≤ 1 (1 = holds)",
                  "000", "p ∈ {0.01, 0.1, 0.3, 0.5, 0.9}, 100 ε each", 1.0, "exact",
                  value=float(holds)),
        ReportRow("02.subsampling_crossing", "at ε* = 1.509 (p = 0.1): exact - 2pε* = 0", "000",
                  "p=0.1", 0.0, "exact", value=gap, rel_tol=1e-9),
    ]


# ------------------------------------------------------------ exercises

EXERCISES = [
    Exercise("02.1", "Total expected squared error of Algorithm 1 at epsilon = 0.5?",
             lambda: bmi_expected_total_error(1, 0.5),
             "Four answers, each with Lap(4/ε): 4 × 2(4/ε)²."),
    Exercise("02.2", "Total expected squared error of Algorithm 2 at epsilon = 0.5 (add/remove)?",
             lambda: bmi_expected_total_error(2, 0.5),
             "q1 and q3 carry one Lap(1/ε) each, the totals two: (2 + 4 + 2 + 4)/ε²."),
    Exercise("02.3", "The same under replace-one neighbours (the cells need Lap(2/ε))?",
             lambda: bmi_expected_total_error(2, 0.5, "replace"),
             "Replacing a row moves it between two cells: sensitivity 2, variance 2(2/ε)²."),
    Exercise("02.4", "Seed 003's method for a table of c = 6 cells at epsilon = 1: total "
             "expected squared error over the 6 cells?",
             lambda: contingency_expected_total_error(6, 1.0, "seed003"),
             "5 cells with Lap(5/ε), and the 6th carries the sum of their 5 noises."),
    Exercise("02.5", "An epsilon = 1 mechanism on a Poisson sample with p = 0.1: what is the exact "
             "amplified epsilon?", lambda: subsampling_epsilon(1.0, 0.1),
             "ln(1 + p(e^ε - 1))."),
]
