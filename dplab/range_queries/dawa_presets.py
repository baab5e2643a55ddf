"""DAWA's partition rules compared: each preset's error per range query relative to identity's, over
a grid of histograms and epsilons (notebook 9's who-wins figure: 4 shapes x 6 epsilons), and the
best preset among those proven eps-DP (dawa's module docstring: LAB_2B and LAB_1B; PUBLISHED and
DPCOMP are not eps1-DP, dawa_privacy).

DAWA's error per range query is estimated as in ``dawa_errors``: ``size`` partitions drawn, each
one's second-stage error exact given it (identity on the totals), their mean; identity's error is
exact, 2 (k + 2)/(3 eps^2) per range query (theory.expected_error_per_query).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from dplab._checks import check_epsilon, check_positive_int, check_prior, check_probability
from dplab.range_queries.dawa import PRESETS, DawaPartition, _check_bins, dawa_errors
from dplab.range_queries.theory import expected_error_per_query
from dplab.simulate import mean_ci

__all__ = ["PROVEN", "PresetErrors", "best_proven_preset", "preset_error_ratios"]

#: the presets whose partition step dawa's module docstring proves eps1-DP
PROVEN = ("LAB_2B", "LAB_1B")


@dataclass(frozen=True)
class PresetErrors:
    """``ratios[p, s, e]``: preset p's mean error per range query on histogram s at epsilon e over
    identity's exact error; ``low``/``high``: its ``confidence`` interval (over the partitions)."""

    presets: tuple[str, ...]
    shapes: tuple[str, ...]
    epsilons: tuple[float, ...]
    shares: tuple[float, ...]
    ratios: np.ndarray
    low: np.ndarray
    high: np.ndarray
    confidence: float

    def ratio(self, preset: str, shape: str, epsilon: float) -> float:
        """One point: preset's error over identity's on ``shape`` at ``epsilon``."""
        return float(self.ratios[self.presets.index(preset), self.shapes.index(shape),
                                 self.epsilons.index(epsilon)])

    def mean_ratios(self) -> dict[str, float]:
        """Each preset's error over identity's, averaged over every (shape, epsilon) point."""
        return {p: float(self.ratios[i].mean()) for i, p in enumerate(self.presets)}


def preset_error_ratios(histograms: Mapping[str, ArrayLike], epsilons: Sequence[float],
                        presets: Mapping[str, DawaPartition] | None = None, *,
                        shares: Sequence[float] | None = None, size: int = 1000, confidence: float = 0.999,
                        seed: int = 0) -> PresetErrors:
    """Each preset's DAWA error per range query over identity's, on every histogram and epsilon.

    ``presets``: name -> DawaPartition (default: dawa.PRESETS); ``shares``: the partition's share
    of epsilon for each preset (default 0.25 each); ``size`` partitions per point, drawn with the
    generator seeded by ``seed`` at every point (common random numbers across presets)."""
    presets = dict(PRESETS if presets is None else presets)
    shares = (0.25,) * len(presets) if shares is None else tuple(check_prior(s, "share") for s in shares)
    if len(shares) != len(presets):
        raise ValueError(f"shares must give one share per preset ({len(presets)}), got shares={shares}")
    epsilons = tuple(float(check_epsilon(e)) for e in epsilons)
    size, confidence = check_positive_int(size, "size"), check_probability(confidence, "confidence")
    data = {name: _check_bins(x) for name, x in histograms.items()}
    shape = (len(presets), len(data), len(epsilons))
    ratios, low, high = np.empty(shape), np.empty(shape), np.empty(shape)
    for i, (partition, share) in enumerate(zip(presets.values(), shares, strict=True)):
        for j, x in enumerate(data.values()):
            for m, eps in enumerate(epsilons):
                identity = expected_error_per_query("identity", x.size, eps)
                err = dawa_errors(x, eps, size=size, partition=partition, share=share, rng=seed)
                ci = mean_ci(err.per_run, confidence)
                ratios[i, j, m], low[i, j, m], high[i, j, m] = (
                    err.mean / identity, ci.low / identity, ci.high / identity)
    return PresetErrors(tuple(presets), tuple(data), epsilons, shares, ratios, low, high, confidence)


def best_proven_preset(errors: PresetErrors, proven: Sequence[str] = PROVEN) -> str:
    """The preset among ``proven`` with the least mean error ratio over every point of ``errors``."""
    means = errors.mean_ratios()
    missing = [p for p in proven if p not in means]
    if missing:
        raise ValueError(f"proven must name presets of errors ({errors.presets}), got proven={tuple(proven)}")
    return min(proven, key=means.__getitem__)
