"""Accuracy-first release of many counts: seed 002's experiment (Rogers, Samorodnitsky, Wu &
Ramdas, "Adaptive Privacy Composition for Accuracy-first Mechanisms", NeurIPS 2023).

An analyst wants as many counts as possible, each within a relative error tau of the truth
(with 95% confidence), under one overall (epsilon, delta) budget. Without looking at the
data she cannot know how much noise each count can bear: a count of 10^5 is fine with noise
that would drown a count of 50. So each count is released by a process that adds noise,
looks at the noisy value, and either releases (the 95% half-width h is small enough:
h <= tau (yhat - h)), gives up (even the upper limit yhat + h is below what the largest
allowed spend could ever release), or asks for less noise. The methods differ in what
asking for less noise costs:

- ``"brownian"``: Brownian noise reduction (Whitehouse et al. 2022) under the unified zCDP
  filter of the seed paper: stopped at time T, a count is charged only rho = 1/(2T), the
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
zCDP budget rho_B = approx_dp_to_zcdp(epsilon, delta) through :class:`dplab.ZCDPFilter`; the
Laplace ones a pure epsilon through :class:`dplab.BasicFilter` (delta unused). No count may
spend more than cap_share times its fair share (rho_B/N or epsilon/N).
"""

from __future__ import annotations

import math

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

__all__ = ["RELEASE_METHODS", "heavy_tailed_counts", "release_counts", "release_half_width"]

RELEASE_METHODS = ("brownian", "gaussian_doubling", "gaussian_halving", "laplace_noise_reduction",
                   "laplace_doubling", "fixed", "oracle")
_GAUSSIAN = ("brownian", "gaussian_doubling", "gaussian_halving", "fixed", "oracle")


def heavy_tailed_counts(n_counts: int = 1000, *, rng: np.random.Generator | int | None = None) -> np.ndarray:
    """The seed paper's counts: y = floor(1000 / U), U uniform on (0, 1], in random order: a heavy
    tail (median about 2000, Pr[y >= 10^5] = 1%)."""
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


def release_counts(counts: ArrayLike, method: str, epsilon: float, delta: float, target: float, *,
                   beta: float = 0.05, cap_share: float = 3.0, grid_ratio: float = 1.05,
                   rho0: float = 1e-8, give_up: str = "pointwise",
                   rng: np.random.Generator | int | None = None) -> dict:
    """Release as many of ``counts`` (in their order) as possible, each within relative error
    ``target`` (tau) at confidence 1 - beta, under an (epsilon, delta) budget; see the module.

    Rules for each count (h: the current half-width, yhat: the current noisy value; h_max: the
    half-width at the largest spend the method can afford for one count, the cap itself for the
    noise reductions and the oracle, the largest attempt within the cap for doubling): release
    when h <= tau (yhat - h); give up when yhat + h' < h_max (1 + 1/tau); stop at the cap
    otherwise. ``give_up="pointwise"`` takes h' = h, a 1 - beta/2 upper limit at each look (the
    project's reading of the seed experiment's rule: over many looks along one path it gives up on
    releasable counts by chance); ``"uniform"`` widens h' so that the upper limits hold at all L
    looks at once (a union bound: one-sided beta/(2L) each). Grids: rho0 * grid_ratio^j up to
    the cap for the noise reductions and the oracle (the cap itself the last point), rho0 * 2^j
    (or 4^j) for doubling; the Laplace methods use the epsilons with the same half-widths as
    those rhos. A count whose cap is below the first grid point is not attempted (the budget
    is spent).

    Returns a dict: ``released`` (number), ``within_target`` (share of the released counts
    whose |yhat - y| <= tau y), ``spent`` (share of the budget), ``attempted`` (counts reached),
    and per count ``released_mask``, ``gave_up_mask``, ``estimate``, ``charge``.
    """
    y = np.asarray(counts, dtype=float)
    if y.ndim != 1 or y.size == 0 or not np.all(np.isfinite(y)):
        raise ValueError(f"counts must be a non-empty 1-d array of finite numbers, got shape {y.shape}")
    check_choice(method, RELEASE_METHODS, "method")
    epsilon, delta = check_epsilon(epsilon), check_delta(delta, allow_zero=False)
    tau = check_positive(target, "target")
    if tau >= 1:
        raise ValueError(f"target must be a relative error in (0, 1), got target={target!r}")
    beta, cap_share = check_beta(beta), check_positive(cap_share, "cap_share")
    grid_ratio, rho0 = check_positive(grid_ratio, "grid_ratio"), check_positive(rho0, "rho0")
    if grid_ratio <= 1:
        raise ValueError(f"grid_ratio must be > 1, got grid_ratio={grid_ratio!r}")
    check_choice(give_up, ("pointwise", "uniform"), "give_up")
    rng = check_rng(rng)
    n = y.size
    gaussian = method in _GAUSSIAN
    if gaussian:
        budget = ZCDPFilter.from_approx_dp(epsilon, delta)
        total = budget.rho
        # the half-width of a Gaussian with rho: sigma = 1/sqrt(2 rho)
        width = lambda cost: release_half_width(1 / np.sqrt(2 * np.asarray(cost)), "gaussian", beta)  # noqa: E731
    else:
        budget = BasicFilter(epsilon)
        total = epsilon
        z = release_half_width(1.0, "gaussian", beta)
        # Laplace epsilons with the half-widths of the Gaussian rhos: ln(1/beta)/eps = z/sqrt(2 rho)
        to_eps = math.log(1 / beta) / z * math.sqrt(2)
        rho0 = to_eps * math.sqrt(rho0)  # the first epsilon
        width = lambda cost: release_half_width(1 / np.asarray(cost), "laplace", beta)  # noqa: E731
    cap = cap_share * total / n

    def decide(estimates: np.ndarray, widths: np.ndarray, largest: float) -> np.ndarray:
        """+1 release, -1 give up, 0 continue, for noisy values, their half-widths and the largest
        affordable spend of the method, over the L looks on the last axis."""
        looks = widths.shape[-1] if np.ndim(widths) else 1
        if give_up == "uniform" and gaussian:
            widen = stats.norm.ppf(1 - beta / (2 * looks)) / stats.norm.ppf(1 - beta / 2)
        elif give_up == "uniform":
            widen = math.log(looks / beta) / math.log(1 / beta)
        else:
            widen = 1.0
        release = widths <= tau * (estimates - widths)
        hopeless = estimates + widen * widths < width(largest) * (1 + 1 / tau)
        return np.where(release, 1, np.where(hopeless, -1, 0))

    def room() -> float:
        """The most one count may spend now: the cap, or what is left when that is less (the
        filter's exact remainder is only asked for near the end of the budget)."""
        if charge.sum() + cap < total * (1 - 1e-9):
            return cap
        return min(cap, budget.remaining)

    released = np.zeros(n, dtype=bool)
    gave_up = np.zeros(n, dtype=bool)
    estimate = np.full(n, np.nan)
    charge = np.zeros(n)
    attempted = 0

    if method in ("brownian", "laplace_noise_reduction", "oracle"):
        grid = rho0 * grid_ratio ** np.arange(int(math.log(cap / rho0) / math.log(grid_ratio)) + 1)
        grid = grid[grid < cap]
        grid = np.r_[grid, cap]
        widths = width(grid)
        if method == "brownian":
            paths = brownian_noise_reduction(y, 1.0, brownian_time(1.0, grid), rng=rng)
        elif method == "laplace_noise_reduction":
            paths = laplace_noise_reduction(y, 1.0, grid, rng=rng)
        else:
            paths = None
        if paths is not None:
            decisions = decide(paths, widths, cap)
            stop = _first(decisions != 0)
        else:  # the oracle: the first grid point where the rule holds at yhat = y
            stop = _first(widths <= tau * (y[:, None] - widths))
        for i in range(n):
            allowed = int(np.searchsorted(grid, room(), side="right"))
            if allowed == 0:
                break
            attempted += 1
            j = int(stop[i])
            if method == "oracle":
                if j >= allowed:
                    continue
                cost = grid[j]
                estimate[i] = y[i] + rng.normal(0.0, 1 / math.sqrt(2 * cost))
                released[i] = True
            else:
                if j >= allowed:
                    j = allowed - 1
                    released[i] = False
                else:
                    released[i] = decisions[i, j] == 1
                    gave_up[i] = decisions[i, j] == -1
                cost = grid[j]
                estimate[i] = paths[i, j]
            ok = budget.request_brownian(1.0, float(brownian_time(1.0, cost))) if method == "brownian" \
                else budget.request(float(cost))
            if not ok:  # the cost rounds above what is left: the budget is spent
                released[i], estimate[i] = False, np.nan
                attempted -= 1
                break
            charge[i] = cost
    elif method in ("gaussian_doubling", "gaussian_halving", "laplace_doubling"):
        factor = 4.0 if method == "gaussian_halving" else 2.0
        attempts = rho0 * factor ** np.arange(int(math.log(cap / rho0) / math.log(factor)) + 1)
        widths = width(attempts)
        scales = 1 / np.sqrt(2 * attempts) if gaussian else 1 / attempts
        shape = (n, attempts.size)
        draws = rng.standard_normal(shape) if gaussian else rng.laplace(0.0, 1.0, shape)
        spent_before = np.r_[0.0, np.cumsum(attempts)]
        largest = attempts[int(np.searchsorted(spent_before[1:], cap, side="right")) - 1]
        decisions = decide(y[:, None] + scales * draws, widths, largest)
        stop = _first(decisions != 0)
        for i in range(n):
            allowed = int(np.searchsorted(spent_before[1:], room(), side="right"))
            if allowed == 0:
                break
            attempted += 1
            last = min(int(stop[i]), allowed - 1)
            for a in range(last + 1):
                budget.request(float(attempts[a]))
            charge[i] = spent_before[last + 1]
            estimate[i] = y[i] + scales[last] * draws[i, last]
            released[i] = decisions[i, last] == 1
            gave_up[i] = decisions[i, last] == -1
    else:  # fixed
        share = total / n
        for i in range(n):
            cost = min(share, room())
            if cost < share * (1 - 1e-9) or not budget.request(cost):
                break
            attempted += 1
            charge[i] = cost
        noisy = y[:attempted] + rng.standard_normal(attempted) / np.sqrt(2 * charge[:attempted])
        estimate[:attempted] = noisy
        released[:attempted] = decide(noisy, width(charge[:attempted]), share) == 1
    within = np.abs(estimate[released] - y[released]) <= tau * y[released]
    return {
        "method": method,
        "released": int(released.sum()),
        "within_target": float(within.mean()) if released.any() else math.nan,
        "spent": float(budget.spent / total),
        "attempted": attempted,
        "released_mask": released,
        "gave_up_mask": gave_up,
        "estimate": estimate,
        "charge": charge,
    }
