"""Lesson 12's "implement it" exercise: DP-SGD's private core, one clipped and noised sum of per-example
gradients, written by the student and checked by ``dplab.check("12.impl", fn)`` the way the lab checks its
own (dplab/lab/implement.py)."""

from __future__ import annotations

import numpy as np
from scipy import stats

from dplab import learning
from dplab.lab import implement
from dplab.lab.exercises import Exercise
from dplab.mechanisms import Gaussian
from dplab.simulate import bonferroni_confidence, mean_ci

#: the exercise's clipping norm and noise multiplier; its per-example gradients: ROWS rows of a fixed
#: pattern (norms 0.2 to 1.2, so some are clipped and some not), and the neighbour's extra row (norm 10, off
#: every axis: each coordinate sees it)
CLIP, SIGMA, ROWS, EXTRA = 0.5, 1.0, 12, np.array([6.0, -4.8, 6.4])
N = implement.PER_SIDE  # releases on each of the two neighbours (20,000 in all with the rng check's calls)
DELTA = 1e-5


def gradients() -> np.ndarray:
    """The exercise's batch: ROWS per-example gradients in 3 dimensions, norms from 0.2 to 1.2."""
    angles = np.linspace(0.3, 5.9, ROWS)
    norms = np.linspace(0.2, 1.2, ROWS)
    return np.column_stack([norms * np.cos(angles), norms * np.sin(angles), 0.1 * norms])


def neighbour() -> np.ndarray:
    """The batch with one more student whose gradient is huge (EXTRA: norm 10, off every axis)."""
    return np.vstack([gradients(), EXTRA])


def noisy_sum(gradients, clip, noise_multiplier, rng):
    """One private step's release: each row clipped to norm clip, summed, plus N(0, (noise_multiplier clip)^2)
    in every coordinate."""
    if not clip > 0 or not noise_multiplier > 0:
        raise ValueError(
            f"clip and noise_multiplier must be > 0, got clip={clip}, noise_multiplier={noise_multiplier}"
        )
    g = np.asarray(gradients, dtype=float)
    norms = np.linalg.norm(g, axis=1)
    clipped = g * np.minimum(1.0, clip / np.maximum(norms, 1e-300))[:, None]
    return clipped.sum(axis=0) + noise_multiplier * clip * rng.standard_normal(g.shape[1])


def _clipping_mistakes(x: np.ndarray, batch: np.ndarray, centre: np.ndarray, name: str,
                       confidence: float) -> None:
    """Wrong, naming the mistake, when a coordinate carries no noise, or when the releases' centre (every
    coordinate at once) is not the clipped sum's but another clipping's: none, the batch clipped as one
    vector, each coordinate clipped to [-C, C], every row scaled to norm C, or the clipped sum clipped
    again."""
    for j in range(x.shape[1]):
        if np.ptp(x[:, j]) == 0:
            raise implement.Wrong(f"your releases' coordinate {j} on the {name} do not vary: add noise σC "
                                  "to every coordinate, not to some")
    cis = [mean_ci(x[:, j], confidence) for j in range(x.shape[1])]
    if all(ci.contains(c) for ci, c in zip(cis, centre, strict=True)):
        return
    norms = np.linalg.norm(batch, axis=1)[:, None]
    for sum_, mistake in (
        (batch.sum(axis=0), "the rows were not clipped"),
        ((batch * min(1.0, CLIP / np.linalg.norm(batch))).sum(axis=0),
         "the batch was clipped as one vector: clip each row by its own norm"),
        (np.clip(batch, -CLIP, CLIP).sum(axis=0),
         "each coordinate was clipped to [−C, C]: clip each row's norm, g · min(1, C/‖g‖)"),
        ((batch * CLIP / norms).sum(axis=0),
         "every row was scaled to norm C: a row shorter than C stays as it is (min(1, C/‖g‖))"),
        (centre * min(1.0, CLIP / np.linalg.norm(centre)),
         "the sum was clipped again: clip the rows, sum them, then add the noise"),
    ):
        if all(ci.contains(s) for ci, s in zip(cis, sum_, strict=True)):
            raise implement.Wrong(f"your releases on the {name} are centred at "
                                  f"{np.round([float(ci.estimate) for ci in cis], 4)}, where the clipped sum "
                                  f"is {np.round(centre, 4)}: {mistake}")


def _independent(x: np.ndarray, centre: np.ndarray, name: str, confidence: float) -> None:
    """Wrong when two coordinates' noises are not independent: the difference of coordinates j and k must
    have variance 2 (σC)² (a noise shared by both gives 0, opposite noises 4 (σC)²)."""
    for j, k in ((0, 1), (0, 2), (1, 2)):
        gap = x[:, j] - x[:, k] - (centre[j] - centre[k])
        if not mean_ci(gap**2, confidence).contains(2 * (SIGMA * CLIP) ** 2):
            raise implement.Wrong(
                f"on the {name}, coordinate {j} minus coordinate {k} has standard deviation "
                f"{gap.std():.3g} where {np.sqrt(2) * SIGMA * CLIP:.3g} was expected: the coordinates' "
                "noises are not independent (one noise shared by every coordinate?): draw d standard normals"
            )


def check_noisy_sum(fn) -> tuple[bool, str]:
    """The student's ``fn(gradients, clip, noise_multiplier, rng)``: refuses clip <= 0, draws from its rng,
    releases N(sum of clipped rows, (sigma C)^2 I) on the batch and on its neighbour (every coordinate: noise,
    centre, shape, sd, law, dplab.learning.clip_gradients giving the centre; every pair's difference: variance
    2 (sigma C)^2, so the noises are independent), and an audit of the releases along the extra row certifies
    no more than the Gaussian's epsilon at delta = 1e-5; 37 checks at a family error 0.001."""
    confidence = bonferroni_confidence(37, implement.FAMILY_ERROR)
    hints = dict(
        scale_hint="is the noise's standard deviation σC, added once to the sum (not σ, not divided by "
        "the batch size)?",
        shape_hint="is the noise Gaussian (rng.standard_normal or rng.normal)?",
        confidence=confidence,
    )
    drawn = {}

    def law(fn):
        said = []
        for name, batch in (("batch", gradients()), ("neighbour", neighbour())):
            x = implement.releases(fn, (batch, CLIP, SIGMA), N, kind=batch.shape[1])
            centre = learning.clip_gradients(batch, CLIP).sum(axis=0)
            _clipping_mistakes(x, batch, centre, name, confidence)
            for j in range(x.shape[1]):
                what = f"your releases' coordinate {j} on the {name}"
                law = stats.norm(centre[j], SIGMA * CLIP)
                said.append(implement.continuous_law(x[:, j], law, what, **hints))
            _independent(x, centre, name, confidence)
            drawn[name] = x @ (EXTRA / np.linalg.norm(EXTRA))  # the audit's: along the extra row
        return said[0] + "; every coordinate, their noises independent"

    def privacy(fn):
        epsilon = float(f"{Gaussian(CLIP, SIGMA * CLIP).epsilon_at(DELTA):.3g}")  # rounded: 4.38
        return implement.audit(
            drawn["batch"],
            drawn["neighbour"],
            epsilon,
            "the batch and the batch with one more student (releases along its gradient)",
            confidence=confidence,
        )

    return implement.run(
        fn,
        implement.refuses(
            (gradients(), 0.0, SIGMA, np.random.default_rng(0)),
            (gradients(), -1.0, SIGMA, np.random.default_rng(0)),
            what="clip <= 0",
        ),
        implement.uses_rng((gradients(), CLIP, SIGMA), kind=3),
        law,
        privacy,
    )


EXERCISES = [
    Exercise(
        "12.impl",
        "Implement DP-SGD's private core: noisy_sum(gradients, clip, noise_multiplier, rng) takes "
        "an (n, d) array of per-example gradients (one row per student), clips each row to norm at most "
        "clip, sums the rows and adds Gaussian noise of standard deviation noise_multiplier * clip to each "
        "of the d coordinates, drawn from the numpy Generator rng; clip <= 0 raises ValueError. The check "
        f"calls it 20,000 times (C = {CLIP:g}, sigma = {SIGMA:g}, a batch of {ROWS} rows and the same batch "
        "with one more student), tests the law of the releases and audits their privacy.",
        lambda: noisy_sum,
        "Clip each row by its own norm: g * min(1, C/||g||); one noise vector per call, of d standard "
        "normals times σC.",
        "Check clip first, then norms = np.linalg.norm(g, axis=1), clipped = g * np.minimum(1, C / norms)"
        "[:, None], and return clipped.sum(axis=0) + σ C rng.standard_normal(d). One student moves the sum "
        "by at most C, so the noise σC makes the release a Gaussian mechanism with μ = 1/σ = {mu:g}: "
        "(ε, δ)-DP with ε = {epsilon:.3g} at δ = {delta:g}; the audit checks that no more shows.",
        implement=check_noisy_sum,
        values=lambda: {
            "mu": 1 / SIGMA,
            "delta": DELTA,
            "epsilon": Gaussian(CLIP, SIGMA * CLIP).epsilon_at(DELTA),
        },
    )
]
