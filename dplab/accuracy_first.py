"""Accuracy-first release of many counts: the lab's reconstruction of the experiment in Rogers, Samorodnitsky,
Wu & Ramdas, "Adaptive Privacy Composition for Accuracy-first Mechanisms" (NeurIPS 2023).

An analyst wants as many counts as possible, each within a relative error tau of the truth,
under one overall (epsilon, delta) budget: at one noise level the release rule below gives
Pr[released and |yhat - y| > tau y] <= beta = 5% (not a 95% guarantee given that a count was
released). The rules (cap per count, rho0, the give-up rule) are the lab's reconstruction of the
paper's experiment, whose text in the lab's copy stops before the paper's section 7. Without looking at the
data she cannot know how much noise each count can bear: a count of 10^5 is fine with noise
that would drown a count of 50. So each count is released by a process that adds noise,
looks at the noisy value, and either releases (the 95% half-width h is small enough:
h <= tau (yhat - h)), gives up (even the upper limit yhat + h is below what the largest
allowed spend could ever release), or asks for less noise. The methods differ in what
asking for less noise costs:

- ``"brownian"``: Brownian noise reduction (Whitehouse et al. 2022) under the unified zCDP
  filter of [Rogers23]: stopped at time T, a count is charged only rho = 1/(2T), the
  cost of its last (least noisy) answer.
- ``"gaussian_doubling"``: a fresh Gaussian each time, rho doubling; every attempt charged.
  ``"gaussian_halving"`` halves sigma instead (rho x 4), which overshoots more.
- ``"laplace_noise_reduction"``: Laplace noise reduction (Koufogiannis et al. 2017) under a
  pure basic filter (charged its last epsilon); ``"laplace_doubling"``: fresh Laplace, epsilon
  doubling, every attempt charged.
- ``"fixed"``: one Gaussian per count at rho_B / N, released if the rule holds.
- ``"oracle"``: knows each true count y and pays, once, the smallest rho of the grid at which
  the release rule would hold with yhat = y: a benchmark (its schedule depends on y), not a bound.

Every count has the same sensitivity 1 (add/remove one person). The Gaussian methods spend a
zCDP budget rho_B = approx_dp_to_zcdp(epsilon, delta) through ``dplab.accounting.ZCDPFilter``;
the Laplace ones a pure epsilon through ``dplab.accounting.BasicFilter`` (delta unused). No count
may spend more than cap_share times its fair share (rho_B/N or epsilon/N). One function per
method (``release_brownian``, ...), sharing the release rule and the budget (``_Budget``), each
returning a :class:`Release`; ``release_counts(counts, method, ...)`` picks one by name.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from dplab._checks import (
    check_beta,
    check_choice,
    check_delta,
    check_epsilon,
    check_positive,
    check_rng,
)
from dplab.accounting.filters import BasicFilter, ZCDPFilter
from dplab.mechanisms.noise_reduction import brownian_noise_reduction, brownian_time, laplace_noise_reduction

__all__ = [
    "RELEASE_METHODS",
    "Release",
    "heavy_tailed_counts",
    "release_brownian",
    "release_counts",
    "release_fixed",
    "release_gaussian_doubling",
    "release_gaussian_halving",
    "release_half_width",
    "release_laplace_doubling",
    "release_laplace_noise_reduction",
    "release_oracle",
]


def heavy_tailed_counts(n_counts: int = 1000, *, rng: np.random.Generator | int | None = None) -> np.ndarray:
    """The experiment's counts: y = floor(1000 / U), U uniform on (0, 1], in random order: a heavy
    tail (median about 2000, Pr[y >= 10^5] = 1%). The lab's choice: its copy of the paper stops before the
    paper's experiment (its section 7)."""
    rng = check_rng(rng)
    u = 1.0 - rng.random(int(n_counts))  # in (0, 1]
    return np.floor(1000.0 / u)


def release_half_width(scale: ArrayLike, noise: str, beta: float = 0.05) -> np.ndarray | float:
    """The (1 - beta) half-width h of a noisy count: z_{1-beta/2} sigma for Gaussian noise of
    standard deviation sigma (1.96 sigma at beta = 0.05), b ln(1/beta) for Laplace noise of scale b
    (Pr[|Lap(b)| > b ln(1/beta)] = beta: b ln 20)."""
    check_choice(noise, ("gaussian", "laplace"), "noise")
    beta = check_beta(beta)
    factor = stats.norm.ppf(1 - beta / 2) if noise == "gaussian" else math.log(1 / beta)
    return factor * np.asarray(scale, dtype=float) if np.ndim(scale) else factor * float(scale)


def _first(events: np.ndarray) -> np.ndarray:
    """Index of the first True along the last axis (its length where there is none)."""
    return np.where(events.any(axis=-1), events.argmax(axis=-1), events.shape[-1])


@dataclass(frozen=True)
class Release:
    """The outcome of one run: ``released`` (number of counts), ``within_target`` (share of the
    released counts with |yhat - y| <= tau y), ``spent`` (share of the budget), ``attempted``
    (counts reached), and per count ``released_mask``, ``gave_up_mask``, ``estimate``, ``charge``."""

    method: str
    released: int
    within_target: float
    spent: float
    attempted: int
    released_mask: np.ndarray
    gave_up_mask: np.ndarray
    estimate: np.ndarray
    charge: np.ndarray


class _Budget:
    """What every method shares: the checked parameters, the filter that holds the budget (zCDP for
    the Gaussian methods, pure epsilon for the Laplace ones), the half-width of a spend, the cap per
    count, the release rule (:meth:`decide`) and the room left for the next count (:meth:`room`)."""

    def __init__(self, counts: ArrayLike, gaussian: bool, epsilon: float, delta: float, target: float,
                 beta: float, cap_share: float, grid_ratio: float, rho0: float, give_up: str) -> None:
        y = np.asarray(counts, dtype=float)
        if y.ndim != 1 or y.size == 0 or not np.all(np.isfinite(y)):
            raise ValueError(f"counts must be a non-empty 1-d array of finite numbers, got shape {y.shape}")
        epsilon, delta = check_epsilon(epsilon), check_delta(delta, allow_zero=False)
        self.tau = check_positive(target, "target")
        if self.tau >= 1:
            raise ValueError(f"target must be a relative error in (0, 1), got target={target!r}")
        self.beta, cap_share = check_beta(beta), check_positive(cap_share, "cap_share")
        self.grid_ratio, rho0 = check_positive(grid_ratio, "grid_ratio"), check_positive(rho0, "rho0")
        if self.grid_ratio <= 1:
            raise ValueError(f"grid_ratio must be > 1, got grid_ratio={grid_ratio!r}")
        self.give_up = check_choice(give_up, ("pointwise", "uniform"), "give_up")
        self.y, self.n, self.gaussian = y, y.size, gaussian
        if gaussian:
            self.filter = ZCDPFilter.from_approx_dp(epsilon, delta)
            self.total = self.filter.rho
            self.rho0 = rho0
        else:
            self.filter = BasicFilter(epsilon)
            self.total = epsilon
            z = release_half_width(1.0, "gaussian", self.beta)
            # Laplace epsilons with the half-widths of the Gaussian rhos: ln(1/beta)/eps = z/sqrt(2 rho)
            self.rho0 = math.log(1 / self.beta) / z * math.sqrt(2) * math.sqrt(rho0)  # the first epsilon
        self.cap = cap_share * self.total / self.n
        self.charge = np.zeros(self.n)

    def width(self, cost: ArrayLike) -> np.ndarray | float:
        """The (1 - beta) half-width of a release that spends ``cost`` (rho, or epsilon)."""
        if self.gaussian:  # sigma = 1/sqrt(2 rho)
            return release_half_width(1 / np.sqrt(2 * np.asarray(cost)), "gaussian", self.beta)
        return release_half_width(1 / np.asarray(cost), "laplace", self.beta)

    def decide(self, estimates: np.ndarray, widths: np.ndarray, largest: float) -> np.ndarray:
        """+1 release, -1 give up, 0 continue, for noisy values, their half-widths and the largest
        affordable spend of the method, over the L looks on the last axis."""
        looks = widths.shape[-1] if np.ndim(widths) else 1
        if self.give_up == "uniform" and self.gaussian:
            widen = stats.norm.ppf(1 - self.beta / (2 * looks)) / stats.norm.ppf(1 - self.beta / 2)
        elif self.give_up == "uniform":
            widen = math.log(looks / self.beta) / math.log(1 / self.beta)
        else:
            widen = 1.0
        release = widths <= self.tau * (estimates - widths)
        hopeless = estimates + widen * widths < self.width(largest) * (1 + 1 / self.tau)
        return np.where(release, 1, np.where(hopeless, -1, 0))

    def room(self) -> float:
        """The most one count may spend now: the cap, or what is left when that is less (the
        filter's exact remainder is only asked for near the end of the budget)."""
        if self.charge.sum() + self.cap < self.total * (1 - 1e-9):
            return self.cap
        return min(self.cap, self.filter.remaining)

    def result(self, method: str, released: np.ndarray, gave_up: np.ndarray, estimate: np.ndarray,
               attempted: int) -> Release:
        y = self.y
        within = np.abs(estimate[released] - y[released]) <= self.tau * y[released]
        share_within = float(within.mean()) if released.any() else math.nan
        return Release(method, int(released.sum()), share_within, float(self.filter.spent / self.total),
                       attempted, released, gave_up, estimate, self.charge)


_DEFAULTS = {"beta": 0.05, "cap_share": 3.0, "grid_ratio": 1.05, "rho0": 1e-8, "give_up": "pointwise"}


def _on_a_grid(method: str, budget: _Budget, rng: np.random.Generator) -> Release:
    """Brownian or Laplace noise reduction, or the oracle: spends on the grid rho0 * ratio^j up to
    the cap (the cap itself the last point); a reduction is charged its stopping point only."""
    y, n, cap = budget.y, budget.n, budget.cap
    grid = budget.rho0 * budget.grid_ratio ** np.arange(int(math.log(cap / budget.rho0)
                                                             / math.log(budget.grid_ratio)) + 1)
    grid = np.r_[grid[grid < cap], cap]
    widths = budget.width(grid)
    if method == "brownian":
        paths = brownian_noise_reduction(y, 1.0, brownian_time(1.0, grid), rng=rng)
    elif method == "laplace_noise_reduction":
        paths = laplace_noise_reduction(y, 1.0, grid, rng=rng)
    else:
        paths = None
    if paths is not None:
        decisions = budget.decide(paths, widths, cap)
        stop = _first(decisions != 0)
    else:  # the oracle: the first grid point where the rule holds at yhat = y
        stop = _first(widths <= budget.tau * (y[:, None] - widths))
    released, gave_up, estimate = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool), np.full(n, np.nan)
    attempted = 0
    for i in range(n):
        allowed = int(np.searchsorted(grid, budget.room(), side="right"))
        if allowed == 0:
            break
        attempted += 1
        j = int(stop[i])
        # a noise reduction's largest charge is held before it runs and settled where it stopped
        # ([Rogers23]'s Lemma 5.2 condition); the oracle pays one Gaussian
        top = float(grid[allowed - 1])
        if method == "brownian":
            held = budget.filter.reserve_brownian(1.0, float(brownian_time(1.0, top)))
        elif paths is not None:
            held = budget.filter.reserve(top)
        if paths is not None and held is None:  # the cap rounds above what is left: the budget is spent
            attempted -= 1
            break
        if paths is None:
            if j >= allowed:
                continue
            cost = grid[j]
            estimate[i] = y[i] + rng.normal(0.0, 1 / math.sqrt(2 * cost))
            released[i] = True
        else:
            if j >= allowed:
                j = allowed - 1
            else:
                released[i] = decisions[i, j] == 1
                gave_up[i] = decisions[i, j] == -1
            cost = grid[j]
            estimate[i] = paths[i, j]
        if paths is None and not budget.filter.request(float(cost)):  # the budget is spent
            released[i], estimate[i] = False, np.nan
            attempted -= 1
            break
        if method == "brownian":
            held.settle(float(brownian_time(1.0, cost)))
        elif paths is not None:
            held.settle(float(cost))
        budget.charge[i] = cost
    return budget.result(method, released, gave_up, estimate, attempted)


def _by_fresh_releases(method: str, budget: _Budget, factor: float, rng: np.random.Generator) -> Release:
    """Fresh releases with the spend multiplied by ``factor`` each time, every attempt charged."""
    y, n, cap, gaussian = budget.y, budget.n, budget.cap, budget.gaussian
    attempts = budget.rho0 * factor ** np.arange(int(math.log(cap / budget.rho0) / math.log(factor)) + 1)
    widths = budget.width(attempts)
    scales = 1 / np.sqrt(2 * attempts) if gaussian else 1 / attempts
    shape = (n, attempts.size)
    draws = rng.standard_normal(shape) if gaussian else rng.laplace(0.0, 1.0, shape)
    spent_before = np.r_[0.0, np.cumsum(attempts)]
    largest = attempts[int(np.searchsorted(spent_before[1:], cap, side="right")) - 1]
    decisions = budget.decide(y[:, None] + scales * draws, widths, largest)
    stop = _first(decisions != 0)
    released, gave_up, estimate = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool), np.full(n, np.nan)
    attempted = 0
    for i in range(n):
        allowed = int(np.searchsorted(spent_before[1:], budget.room(), side="right"))
        if allowed == 0:
            break
        attempted += 1
        last = min(int(stop[i]), allowed - 1)
        for a in range(last + 1):
            budget.filter.request(float(attempts[a]))
        budget.charge[i] = spent_before[last + 1]
        estimate[i] = y[i] + scales[last] * draws[i, last]
        released[i] = decisions[i, last] == 1
        gave_up[i] = decisions[i, last] == -1
    return budget.result(method, released, gave_up, estimate, attempted)


def release_brownian(counts: ArrayLike, epsilon: float, delta: float, target: float, *,
                     rng: np.random.Generator | int | None = None, **options) -> Release:
    """Brownian noise reduction under the unified zCDP filter: each count charged 1/(2T) at its
    stopping time T (Whitehouse et al. 2022; Rogers et al. 2023)."""
    budget = _Budget(counts, True, epsilon, delta, target, **(_DEFAULTS | options))
    return _on_a_grid("brownian", budget, check_rng(rng))


def release_laplace_noise_reduction(counts: ArrayLike, epsilon: float, delta: float, target: float, *,
                                    rng: np.random.Generator | int | None = None, **options) -> Release:
    """Laplace noise reduction under a pure basic filter, charged its last epsilon (Koufogiannis et
    al. 2017)."""
    budget = _Budget(counts, False, epsilon, delta, target, **(_DEFAULTS | options))
    return _on_a_grid("laplace_noise_reduction", budget, check_rng(rng))


def release_oracle(counts: ArrayLike, epsilon: float, delta: float, target: float, *,
                   rng: np.random.Generator | int | None = None, **options) -> Release:
    """The benchmark that knows each count and pays once the smallest grid rho at which the rule
    would hold with yhat = y (its schedule depends on y: not private, a bound on the others)."""
    budget = _Budget(counts, True, epsilon, delta, target, **(_DEFAULTS | options))
    return _on_a_grid("oracle", budget, check_rng(rng))


def release_gaussian_doubling(counts: ArrayLike, epsilon: float, delta: float, target: float, *,
                              rng: np.random.Generator | int | None = None, **options) -> Release:
    """A fresh Gaussian each time, rho doubling; every attempt charged."""
    budget = _Budget(counts, True, epsilon, delta, target, **(_DEFAULTS | options))
    return _by_fresh_releases("gaussian_doubling", budget, 2.0, check_rng(rng))


def release_gaussian_halving(counts: ArrayLike, epsilon: float, delta: float, target: float, *,
                             rng: np.random.Generator | int | None = None, **options) -> Release:
    """A fresh Gaussian each time, sigma halving (rho x 4); every attempt charged."""
    budget = _Budget(counts, True, epsilon, delta, target, **(_DEFAULTS | options))
    return _by_fresh_releases("gaussian_halving", budget, 4.0, check_rng(rng))


def release_laplace_doubling(counts: ArrayLike, epsilon: float, delta: float, target: float, *,
                             rng: np.random.Generator | int | None = None, **options) -> Release:
    """A fresh Laplace each time, epsilon doubling; every attempt charged."""
    budget = _Budget(counts, False, epsilon, delta, target, **(_DEFAULTS | options))
    return _by_fresh_releases("laplace_doubling", budget, 2.0, check_rng(rng))


def release_fixed(counts: ArrayLike, epsilon: float, delta: float, target: float, *,
                  rng: np.random.Generator | int | None = None, **options) -> Release:
    """One Gaussian per count at rho_B / N, released if the rule holds."""
    budget = _Budget(counts, True, epsilon, delta, target, **(_DEFAULTS | options))
    rng = check_rng(rng)
    y, n = budget.y, budget.n
    share = budget.total / n
    attempted = 0
    for _ in range(n):
        cost = min(share, budget.room())
        if cost < share * (1 - 1e-9) or not budget.filter.request(cost):
            break
        budget.charge[attempted] = cost
        attempted += 1
    released, estimate = np.zeros(n, dtype=bool), np.full(n, np.nan)
    noisy = y[:attempted] + rng.standard_normal(attempted) / np.sqrt(2 * budget.charge[:attempted])
    estimate[:attempted] = noisy
    released[:attempted] = budget.decide(noisy, budget.width(budget.charge[:attempted]), share) == 1
    return budget.result("fixed", released, np.zeros(n, dtype=bool), estimate, attempted)


#: the methods by name, in the order the lessons draw them
RELEASE_METHODS: dict[str, Callable[..., Release]] = {
    "brownian": release_brownian,
    "gaussian_doubling": release_gaussian_doubling,
    "gaussian_halving": release_gaussian_halving,
    "laplace_noise_reduction": release_laplace_noise_reduction,
    "laplace_doubling": release_laplace_doubling,
    "fixed": release_fixed,
    "oracle": release_oracle,
}


def release_counts(counts: ArrayLike, method: str, epsilon: float, delta: float, target: float, *,
                   beta: float = 0.05, cap_share: float = 3.0, grid_ratio: float = 1.05,
                   rho0: float = 1e-8, give_up: str = "pointwise",
                   rng: np.random.Generator | int | None = None) -> Release:
    """Release as many of ``counts`` (in their order) as possible, each within relative error
    ``target`` (tau) at confidence 1 - beta, under an (epsilon, delta) budget, by ``method`` (a name
    of :data:`RELEASE_METHODS`); see the module.

    Rules for each count (h: the current half-width, yhat: the current noisy value; h_max: the
    half-width at the largest spend the method can afford for one count, the cap itself for the
    noise reductions and the oracle, the largest attempt within the cap for doubling): release
    when h <= tau (yhat - h); give up when yhat + h' < h_max (1 + 1/tau); stop at the cap
    otherwise. ``give_up="pointwise"`` takes h' = h, a 1 - beta/2 upper limit at each look (the
    project's reading of the rule of [Rogers23]'s experiment: over many looks along one path it gives up on
    releasable counts by chance); ``"uniform"`` widens h' so that the upper limits hold at all L
    looks at once (a union bound: one-sided beta/(2L) each). Grids: rho0 * grid_ratio^j up to
    the cap for the noise reductions and the oracle (the cap itself the last point), rho0 * 2^j
    (or 4^j) for doubling. The Laplace grid starts at the epsilon whose half-width is that of rho0
    and then multiplies epsilon by grid_ratio (the half-width falls by grid_ratio a step, the
    Gaussian one by its square root): the two grids share only their first half-width. A count whose
    cap is below the first grid point is not attempted (the budget is spent).
    """
    check_choice(method, tuple(RELEASE_METHODS), "method")
    return RELEASE_METHODS[method](counts, epsilon, delta, target, beta=beta, cap_share=cap_share,
                                   grid_ratio=grid_ratio, rho0=rho0, give_up=give_up, rng=rng)
