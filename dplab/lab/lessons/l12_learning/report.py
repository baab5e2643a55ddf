"""Lesson 12, learning with DP (notebook 12): constants, seeded trainings, report rows (figures in views.py;
theory in dplab.learning: Abadi et al., CCS 2016, for DP-SGD; Mironov, Talwar & Zhang 2019 for the subsampled
Gaussian's RDP; Chaudhuri, Monteleoni & Sarwate, JMLR 2011, for output and objective perturbation). The task:
a student's sex from height and weight (dplab.learning.sex_task); D and D' differ by one student
(add/remove, DP-SGD's relation)."""

from __future__ import annotations

import numpy as np

from dplab import attacks, learning
from dplab.lab.cache import cached
from dplab.lab.report import ReportRow
from dplab.simulate import bonferroni_confidence, mean_ci

NOTEBOOK = "12_learning.ipynb"
PREFIX = "12"
SEED = 2050
#: the notebook's confidence intervals: 3 in section 1 (the loss gap at three n), 3 in section 2 (the noise's
#: mean and variance, the batch sizes' variance)
N_INTERVALS = 6
LEVEL = bonferroni_confidence(N_INTERVALS, family_error=0.01)  #: each interval's level (1% for all)

# --- 1. why a model leaks: the non-private fit on n students, members against non-members ---------------
#: polynomial degrees: 1 (3 features) and 6 (28 features: capacity to remember a small training set)
LEAK_DEGREES = (1, 6)
LEAK_L2 = 1e-4
LEAK_NS = (50, 100, 200, 400, 800)
#: training sets drawn per n (each a fresh uniform subset), and non-members scored per training set
LEAK_FITS, LEAK_OUTSIDE = 20, 2000
#: the training-set sizes asserted in section 1 (the gap must be > 0: one-sided)
LEAK_CHECKED = (50, 100, 200)
#: the training-set sizes of the ROC figure
ROC_NS = (50, 200, 800)


@cached(maxsize=16)
def leak_losses(degree: int, n: int, fits: int = LEAK_FITS, seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """(member losses (fits, n), non-member losses (fits, LEAK_OUTSIDE)): ``fits`` non-private models
    (dplab.learning.fit_logistic, l2 = LEAK_L2), each on a fresh uniform subset of n students, scored by
    their per-example loss on their own students and on LEAK_OUTSIDE others."""
    X, y = learning.sex_task(None, degree=degree, rng=seed)
    inside, outside = [], []
    for r in range(fits):
        order = np.random.default_rng([seed, degree, n, r]).permutation(y.size)
        members, others = order[:n], order[n:n + LEAK_OUTSIDE]
        model = learning.fit_logistic(X[members], y[members], l2=LEAK_L2)
        inside.append(model.losses(X[members], y[members]))
        outside.append(model.losses(X[others], y[others]))
    return np.array(inside), np.array(outside)


def loss_gap(degree: int, n: int) -> np.ndarray:
    """Per training set, the mean non-member loss minus the mean member loss (the generalisation gap)."""
    inside, outside = leak_losses(degree, n)
    return outside.mean(axis=1) - inside.mean(axis=1)


def leak_roc(degree: int, n: int, confidence: float = 0.999) -> attacks.EmpiricalRoc:
    """The loss-threshold attack ("member when the loss is small", score = -loss) pooled over the fits:
    notebook 8's dplab.attacks.likelihood_ratio_roc, D' the members."""
    inside, outside = leak_losses(degree, n)
    return attacks.likelihood_ratio_roc(-outside.ravel(), -inside.ravel(), n_points=30, confidence=confidence)


# --- 2. one DP-SGD step ----------------------------------------------------------------------------------
#: the training set of sections 2-4: the first TRAIN students of sex_task(None, degree=DEGREE, rng=SEED),
#: tested on the last TEST students
DEGREE, TRAIN, TEST = 3, 500, 4000
#: the step of section 2: noise multiplier, clipping norm, sampling rate; the noise check's draws
STEP_SIGMA, STEP_CLIP, STEP_RATE, NOISE_DRAWS = 1.0, 0.5, 0.05, 4000
#: the clipping figure's norms
CLIPS = tuple(float(c) for c in np.geomspace(0.01, 3.0, 40))


@cached(maxsize=1)
def task() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(X, y, X_test, y_test): the training students and the held-out ones (degree-DEGREE features)."""
    X, y = learning.sex_task(None, degree=DEGREE, rng=SEED)
    return X[:TRAIN], y[:TRAIN], X[-TEST:], y[-TEST:]


@cached(maxsize=1)
def nonprivate_model() -> learning.LogisticModel:
    """The non-private fit on the training students (l2 = LEAK_L2)."""
    X, y, _, _ = task()
    return learning.fit_logistic(X, y, l2=LEAK_L2)


@cached(maxsize=1)
def step_batch(seed: int = SEED) -> np.ndarray:
    """Section 2's batch: the per-example gradients at w = 0 of one Poisson batch of rate STEP_RATE."""
    X, y, _, _ = task()
    batch = learning.poisson_batch(TRAIN, STEP_RATE, np.random.default_rng([seed, 21]))
    return learning.logistic_gradients(np.zeros(X.shape[1]), X[batch], y[batch])


@cached(maxsize=1)
def noisy_gradients(draws: int = NOISE_DRAWS, seed: int = SEED) -> np.ndarray:
    """``draws`` calls of dplab.learning.noisy_gradient on section 2's batch (one seeded Generator)."""
    g, rng = step_batch(seed), np.random.default_rng([seed, 24])
    return np.array([learning.noisy_gradient(g, clip=STEP_CLIP, noise_multiplier=STEP_SIGMA,
                                             expected_batch_size=STEP_RATE * TRAIN, rng=rng)
                     for _ in range(draws)])


@cached(maxsize=1)
def batch_sizes(steps: int = NOISE_DRAWS, seed: int = SEED) -> np.ndarray:
    """The sizes of ``steps`` Poisson batches of rate STEP_RATE over the TRAIN students."""
    rng = np.random.default_rng([seed, 25])
    return np.array([learning.poisson_batch(TRAIN, STEP_RATE, rng).size for _ in range(steps)])


def noise_theory() -> tuple[np.ndarray, float]:
    """(mean, variance per coordinate) of DP-SGD's gradient estimate on section 2's batch: the clipped sum
    over q n (dplab.learning.clip_gradients), and (sigma C / (q n))^2."""
    size = STEP_RATE * TRAIN
    return (learning.clip_gradients(step_batch(), STEP_CLIP).sum(axis=0) / size,
            (STEP_SIGMA * STEP_CLIP / size) ** 2)


def report_rows(seed: int = SEED) -> list[ReportRow]:
    """This lesson's rows of figures/REPORT.md."""
    rows = []
    for n in LEAK_CHECKED:
        gap = loss_gap(LEAK_DEGREES[1], n)
        rows.append(ReportRow(
            f"12.loss_gap_{n}", "a non-private model's loss is lower on its own students than on others "
            "(the gap a loss-threshold attack reads; one-sided)", "Gaboardi17",
            f"degree {LEAK_DEGREES[1]}, l2 = {LEAK_L2:g}, n = {n}; {LEAK_FITS} training sets", 0.0, ">=",
            interval=lambda c, gap=gap: mean_ci(gap, c),
            catches="learning.loss_sign_flipped: the per-example loss with +y z"))
    mean, var = noise_theory()
    noisy = noisy_gradients(seed=seed)
    sizes = batch_sizes(seed=seed)
    where = f"σ = {STEP_SIGMA:g}, C = {STEP_CLIP:g}, q = {STEP_RATE:g}, n = {TRAIN}; {NOISE_DRAWS} draws"
    rows += [
        ReportRow("12.noisy_gradient_mean", "DP-SGD's gradient estimate is centred at the clipped sum over q n "
                  "(first coordinate)", "Gaboardi17", where, float(mean[0]), "=",
                  interval=lambda c: mean_ci(noisy[:, 0], c),
                  catches="learning.clip_by_batch_norm: clipping by the batch's norm, not each row's"),
        ReportRow("12.noisy_gradient_variance", "its noise has variance (σ C/(q n))² per coordinate (noise σ C on "
                  "the sum)", "Gaboardi17", where, var, "=",
                  interval=lambda c: mean_ci(np.mean((noisy - mean) ** 2, axis=1), c),
                  catches="learning.noise_sigma_not_sigma_c: noise σ, not σ C"),
        ReportRow("12.poisson_batch_variance", "Poisson subsampling: the batch size has variance n q (1 − q)",
                  "—", f"q = {STEP_RATE:g}, n = {TRAIN}; {NOISE_DRAWS} batches", TRAIN * STEP_RATE * (1 - STEP_RATE),
                  "=", interval=lambda c: mean_ci((sizes - TRAIN * STEP_RATE) ** 2, c),
                  catches="learning.fixed_batch: a batch of q n rows drawn without replacement")]
    return rows
