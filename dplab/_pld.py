"""Privacy loss distributions (PLD): tight accounting of composition, by FFT on a grid.

The privacy loss of an output y is L(y) = ln p(y)/q(y), p and q the output densities on
neighbours D and D'. With y drawn from p, L has a distribution omega, the PLD. A mechanism
is (epsilon, delta)-DP for this pair exactly when

    delta >= delta(epsilon) = E[(1 - e^(epsilon - L))_+ ; L finite] + Pr[L = inf]

(the hockey-stick divergence; Sommer, Meiser & Mohammadi 2019): the expectation runs over the
finite losses only, since an infinite loss, an output impossible on D', counts in full once.
Running k mechanisms on the same data adds their independent losses, so the PLD of the
composition is the k-fold convolution of omega, and delta(epsilon) computed from it is
exact: tighter than every composition theorem (Koskela, Jalko & Honkela 2020 compute it by
FFT, as here). Most mechanisms here are symmetric (the pair (D', D) has the same PLD as
(D, D')), so one order suffices; the Poisson-subsampled Gaussian is not, and builds one PLD
per order (``pld(direction=...)``), which ``PLDAccountant`` composes apart.

The grid. Losses are rounded to multiples of ``step``: up (pessimistic) or down
(optimistic). The integrand (1 - e^(eps - L))_+ grows with L, so rounding up can only raise
delta(epsilon) and epsilon(delta): the pessimistic answer is never below the truth, the
optimistic one never above, and since after k steps a loss moved by at most k * step,
the pessimistic epsilon exceeds the truth by at most k * step (``rounding_bound``). That
bound is linear in k, and so is the error of rounding up: about k * step / 2 (0.5 in epsilon
after 10^4 steps at step 1e-4). Connect the dots (``pld_from_intervals``; Doroshenko et al.
2022) is pessimistic too, yet its error is of second order in the step; ``rounding_bound``
still bounds it (it is never above rounding up), loosely. The FFT's own floating-point error
(about 1e-16 of the largest mass per point) is not rounded. Gaussian tails beyond ``tail``
probability are sent to L = inf (pessimistic) or cut.

Composition. The FFT is circular, so k-fold composition runs on a window of the sum's
support: where a Chernoff bound from the grid pmf's own moment generating function leaves at
most TAIL = 1e-30 outside on each side (``chernoff_window``; it follows the sum's spread,
sqrt(k) standard deviations, where Hoeffding's bound over one step's range grew with sqrt(k)
ranges and refused 10^4 steps at step 1e-4). The pessimistic PLD adds the bound on the mass
cut to Pr[L = inf] and records it (``truncation``).

This module holds the type and the three ways to build one (from a CDF, from a discrete pair,
from the masses of loss intervals by connect the dots);
each mechanism builds its own PLD (``dplab.mechanisms.Laplace(...).pld()``), and
``dplab.accounting.PLDAccountant`` composes them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import fft, optimize, special

from dplab._checks import (
    as_result,
    check_alpha,
    check_delta,
    check_nonnegative,
    check_positive,
    check_positive_int,
)

__all__ = ["MAX_GRID_POINTS", "TAIL", "PrivacyLossDistribution", "chernoff_window", "convolve_all",
           "discrete_pld", "pld_from_cdf", "pld_from_intervals"]

#: The most grid points a composed PLD may hold (2^25 doubles: 256 MiB).
MAX_GRID_POINTS = 2**25
#: The mass that composition may leave outside its window on each side (Chernoff).
TAIL = 1e-30


@dataclass(frozen=True)
class PrivacyLossDistribution:
    """A PLD on the grid ``losses = (offset + arange(len(pmf))) * step`` with ``pmf`` on it,
    ``infinity_mass`` = Pr[L = inf], rounded up (``pessimistic``) or down, made of
    ``compositions`` mechanisms; ``kl`` = E[L] before rounding, KL(p || q), when known;
    ``truncation`` = the delta that composition added to Pr[L = inf] for the mass it cut
    outside its windows (a bound: at most 2 TAIL per composition)."""

    pmf: np.ndarray
    offset: int
    step: float
    infinity_mass: float = 0.0
    pessimistic: bool = True
    compositions: int = 1
    kl: float | None = None
    truncation: float = 0.0

    @property
    def losses(self) -> np.ndarray:
        return (self.offset + np.arange(len(self.pmf))) * self.step

    @property
    def rounding_bound(self) -> float:
        """How far rounding may have moved epsilon(delta): compositions * step."""
        return self.compositions * self.step

    def mean(self) -> float:
        """E[L] over the finite losses: the KL divergence KL(p || q) up to the rounding."""
        return float(np.dot(self.pmf, self.losses))

    def delta(self, epsilon: ArrayLike) -> float | np.ndarray:
        """delta(eps) = sum over losses L > eps of pmf (1 - e^(eps - L)) + Pr[L = inf]."""
        eps = np.asarray(check_nonnegative(epsilon, "epsilon", array_ok=True), dtype=float)
        losses, pmf = self.losses, self.pmf
        keep = losses > min(float(eps.min()), losses[-1])
        losses, pmf = losses[keep], pmf[keep]
        out = np.empty(eps.shape)
        for i, e in np.ndenumerate(eps):
            above = losses > e
            out[i] = np.dot(pmf[above], -np.expm1(e - losses[above]))
        return as_result(out + self.infinity_mass)

    def epsilon(self, delta: float) -> float:
        """The smallest eps >= 0 with delta(eps) <= ``delta`` (inf if Pr[L = inf] > delta).

        delta(eps) is convex and decreasing; on [L_(j-1), L_j] it is S1_j - e^eps S2_j with
        S1_j, S2_j the sums of pmf and of pmf e^-L over losses >= L_j, so the interval is
        found from the tail sums and eps solved there in closed form. S2 is kept as its
        logarithm: e^L overflows a double above L = 709.78 and e^-L underflows, and an epsilon
        that large must still come out above the truth, not capped there."""
        delta = check_delta(delta)
        if self.infinity_mass > delta:
            return math.inf
        start = max(0, 1 - self.offset)  # the first loss > 0
        pmf = self.pmf[start:]
        if pmf.size == 0:
            return 0.0
        losses = (self.offset + start + np.arange(pmf.size)) * self.step
        s1 = np.cumsum(pmf[::-1])[::-1]
        with np.errstate(divide="ignore"):
            log_s2 = np.logaddexp.accumulate((np.log(pmf) - losses)[::-1])[::-1]  # ln S2_j
        target = delta - self.infinity_mass
        if s1[0] - math.exp(log_s2[0]) <= target:  # delta(0)
            return 0.0
        # delta at eps = L_j is the sum over i > j: S1_(j+1) - e^(L_j + ln S2_(j+1)) (exponent <= ln S1)
        at_grid = np.append(s1[1:] - np.exp(losses[:-1] + log_s2[1:]), 0.0)
        j = int(np.searchsorted(-at_grid, -target, side="left"))  # first grid loss with delta <= target
        low = losses[j - 1] if j > 0 else 0.0
        eps = math.log(s1[j] - target) - log_s2[j] if s1[j] > target else losses[j]
        return float(min(max(eps, low), losses[j]))

    def tradeoff(self, alpha: ArrayLike) -> float | np.ndarray:
        """The trade-off function beta(alpha) of the pair, from its privacy profile:
        f(alpha) = max(0, sup over eps of 1 - delta(eps) - e^eps alpha), eps over all reals
        (Dong, Roth & Su 2022, the primal-dual view of f-DP). For a PLD on a grid the sup is
        attained at the losses: f is piecewise linear with vertices
        (sum over L_i > L_j of pmf_i e^-L_i, 1 - Pr[L = inf] - sum over L_i > L_j of pmf_i),
        the errors of the test that rejects D' where the loss exceeds L_j (valid for the
        symmetric mechanisms here). The pessimistic PLD overstates every delta(eps), so its
        curve lies below the true one: a lower bound on any attacker's errors."""
        alpha = check_alpha(alpha)
        p = self.pmf[::-1]
        q = p * np.exp(-self.losses[::-1])
        a = np.concatenate([[0.0], np.cumsum(q)])
        b = np.concatenate([[1.0], 1.0 - np.cumsum(p)]) - self.infinity_mass
        return as_result(np.interp(alpha, a, np.clip(b, 0.0, None), right=0.0))

    def compose(self, k: int, *, accuracy: float | None = None) -> PrivacyLossDistribution:
        """The PLD of k independent runs: the k-fold convolution of ``pmf``, by one FFT.

        The FFT is circular, so it runs on a window of the sum's support k (n - 1) + 1, taken
        from the composed PLD's own tails (:func:`chernoff_window`): at most TAIL = 1e-30 of
        the mass lies beyond each side. That mass is dropped and may wrap around into the
        window; the pessimistic PLD adds its bound to Pr[L = inf] (and records it as
        ``truncation``), so delta(eps) is never below the truth. With ``accuracy`` given,
        refuses a grid whose rounding bound (k * compositions * step) could exceed it."""
        k = check_positive_int(k, "k")
        total = k * self.compositions
        if accuracy is not None:
            accuracy = check_positive(accuracy, "accuracy")
            if total * self.step > accuracy:
                raise ValueError(
                    f"step={self.step!r} is too coarse for accuracy={accuracy!r} with k={k}: rounding may "
                    f"move epsilon by up to {total} * step = {total * self.step:.3g}; use step <= "
                    f"{accuracy / total:.3g}")
        if k == 1:
            return self
        n = len(self.pmf)
        full = k * (n - 1) + 1
        low, high, tail_low, tail_high = chernoff_window(self.pmf, k, TAIL)
        size = high - low + 1
        if size > MAX_GRID_POINTS:
            raise ValueError(f"k={k} with step={self.step!r} needs {size} grid points, more than "
                             f"{MAX_GRID_POINTS}; use a coarser step")
        length = fft.next_fast_len(size, real=True)
        cyclic = fft.irfft(fft.rfft(self.pmf, length) ** k, length)
        pmf = np.roll(cyclic, -low)[:size]  # sum index s sits at s mod length
        infinity = -math.expm1(k * math.log1p(-self.infinity_mass))
        truncation = k * self.truncation
        if self.pessimistic and size < full:
            truncation += tail_low + tail_high
            infinity = min(1.0, infinity + tail_low + tail_high)
        kl = None if self.kl is None else k * self.kl
        return PrivacyLossDistribution(np.clip(pmf, 0.0, None), k * self.offset + low, self.step, infinity,
                                       self.pessimistic, total, kl, truncation)

    def convolve(self, other: PrivacyLossDistribution) -> PrivacyLossDistribution:
        """The PLD of this mechanism and ``other`` run one after the other (independent losses
        add): :func:`convolve_all` of the two."""
        return convolve_all([self, other])


def chernoff_window(pmf: np.ndarray, k: int, tail: float) -> tuple[int, int, float, float]:
    """Where the k-fold convolution of ``pmf`` (a sub-probability on 0, 1, ..., n - 1) keeps all
    but ``tail`` of its mass on each side: (low, high, mass bound below low, mass bound above
    high), low and high indices into the sum's support 0 .. k (n - 1).

    Chernoff's bound on the sum S of k independent copies of X (Chernoff 1952; for a PLD,
    E[e^(lambda L)] = e^(lambda R(lambda + 1)), the Renyi curve, so this is the RDP tail bound
    P(L_k > t) <= exp((alpha - 1)(k R(alpha) - t)) of Mironov 2017 with alpha = lambda + 1):

        P(S >= t) <= exp(k K(lambda) - lambda t),   P(S <= t) <= exp(k K(-lambda) + lambda t),

    for every lambda > 0, K(lambda) = ln E[e^(lambda X)] the cumulant generating function of the
    grid pmf itself (the bound holds for the discretised sum the FFT computes, a sub-probability
    included). Each side's t is the best over lambda of the t where the bound meets ``tail``
    (any lambda gives a valid t, so an approximate minimiser is enough: Brent's method on
    ln lambda). Unlike Hoeffding's bound over one step's range, the window follows the sum's
    own spread: sqrt(k) standard deviations, not sqrt(k) ranges."""
    n = len(pmf)
    full = k * (n - 1)
    positive = pmf > 0
    if not positive.any():
        return 0, 0, 0.0, 0.0
    x = np.flatnonzero(positive).astype(float)
    logp = np.log(pmf[positive])
    width = max(float(x[-1] - x[0]), 1.0)
    log_tail = math.log(tail)

    def cgf(lam: float) -> float:
        return float(special.logsumexp(logp + lam * x))

    def edge(sign: int) -> tuple[float, float]:
        # the smallest sign * t, over lambda, at which the bound on the upper (sign 1) or lower
        # (sign -1) tail meets ``tail``: (k K(sign lambda) - ln tail) / lambda; returns it and lambda
        def bound(u: float) -> float:
            lam = math.exp(u)
            return (k * cgf(sign * lam) - log_tail) / lam

        found = optimize.minimize_scalar(bound, bounds=(math.log(1e-4 / width), math.log(1e8 / width)),
                                         method="bounded", options={"xatol": 0.02})
        return float(found.fun), math.exp(float(found.x))

    t_high, lam_high = edge(1)
    minus_t_low, lam_low = edge(-1)
    high = max(0, min(full, math.ceil(t_high)))
    low = max(0, min(math.floor(-minus_t_low), high))
    tail_high = 0.0 if high == full else min(tail, math.exp(k * cgf(lam_high) - lam_high * high))
    tail_low = 0.0 if low == 0 else min(tail, math.exp(k * cgf(-lam_low) + lam_low * low))
    return low, high, tail_low, tail_high


def convolve_all(plds: list[PrivacyLossDistribution]) -> PrivacyLossDistribution:
    """The PLD of mechanisms run one after the other (independent losses add): the convolution
    of their pmfs by one FFT of the whole support, on the same grid and rounded the same way."""
    if not plds or not all(isinstance(p, PrivacyLossDistribution) for p in plds):
        raise TypeError(f"plds must be a non-empty list of PrivacyLossDistribution, got plds={plds!r}")
    first = plds[0]
    for other in plds[1:]:
        if other.step != first.step or other.pessimistic != first.pessimistic:
            raise ValueError("every PLD must share step and rounding, got "
                             f"step={first.step!r}, pessimistic={first.pessimistic} and "
                             f"step={other.step!r}, pessimistic={other.pessimistic}")
    if len(plds) == 1:
        return first
    size = sum(len(p.pmf) - 1 for p in plds) + 1
    if size > MAX_GRID_POINTS:
        raise ValueError(f"the convolution needs {size} grid points, more than {MAX_GRID_POINTS}; "
                         "use a coarser step")
    length = fft.next_fast_len(size, real=True)
    spectrum = np.ones(length // 2 + 1, dtype=complex)
    for p in plds:
        spectrum *= fft.rfft(p.pmf, length)
    pmf = fft.irfft(spectrum, length)[:size]
    infinity = -math.expm1(math.fsum(math.log1p(-p.infinity_mass) for p in plds))
    kl = None if any(p.kl is None for p in plds) else math.fsum(p.kl for p in plds)
    return PrivacyLossDistribution(np.clip(pmf, 0.0, None), sum(p.offset for p in plds), first.step, infinity,
                                   first.pessimistic, sum(p.compositions for p in plds), kl,
                                   math.fsum(p.truncation for p in plds))


def discrete_pld(p: ArrayLike, q: ArrayLike, *, step: float, pessimistic: bool = True
                 ) -> PrivacyLossDistribution:
    """The PLD of two distributions over the same finitely many outputs, p on D and q on D':
    the loss ln(p_i / q_i) with probability p_i, rounded up (or down) to a multiple of ``step``;
    outputs impossible on D' (q_i = 0) carry an infinite loss, kept exactly as Pr[L = inf] (so does
    a q_i that underflowed to 0: a loss beyond about 745 counts as infinite, never below the truth)."""
    p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
    step = check_positive(step, "step")
    if p.shape != q.shape or p.ndim != 1 or np.any(p < 0) or np.any(q < 0):
        raise ValueError(f"p and q must be probability vectors of one length, got p={p!r}, q={q!r}")
    finite = (p > 0) & (q > 0)
    losses = np.log(p[finite] / q[finite])
    index = np.ceil(losses / step - 1e-9) if pessimistic else np.floor(losses / step + 1e-9)
    index = index.astype(np.int64)
    first = int(index.min()) if index.size else 0
    pmf = np.bincount(index - first, weights=p[finite]) if index.size else np.zeros(1)
    infinity = float(np.sum(p[(p > 0) & (q == 0)]))
    kl = math.inf if infinity > 0 else float(np.dot(p[finite], losses))
    return PrivacyLossDistribution(pmf, first, step, infinity, pessimistic, 1, kl)


def pld_from_cdf(cdf, cdf_left, low: float, high: float, step: float, pessimistic: bool, kl: float,
                 below: float = 0.0, above: float = 0.0) -> PrivacyLossDistribution:
    """Round a loss with CDF ``cdf`` (P(L <= l)) and left limit ``cdf_left`` (P(L < l)),
    supported on [low, high] (plus masses ``below`` and ``above`` outside it), to the grid:
    the mass of (g_(i-1), g_i] to g_i (up) or of [g_i, g_(i+1)) to g_i (down)."""
    first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
    grid = np.arange(first, last + 1) * step
    if pessimistic:
        f = np.minimum(cdf(grid), 1.0)
        f[-1] = 1.0 - above
        pmf = np.diff(f, prepend=0.0)
        return PrivacyLossDistribution(np.clip(pmf, 0, None), first, step, above, True, 1, kl)
    f = cdf_left(grid)
    f[0] = below
    pmf = np.diff(np.append(f, 1.0 - above))
    pmf[-1] += above  # rounded down, the tail above stays finite
    return PrivacyLossDistribution(np.clip(pmf, 0, None), first, step, 0.0, False, 1, kl)




def pld_from_intervals(first: int, step: float, p_mass: ArrayLike, q_mass: ArrayLike, *, pessimistic: bool,
                       below: float = 0.0, above: float = 0.0, kl: float | None = None
                       ) -> PrivacyLossDistribution:
    """The PLD on the grid l_j = (first + j) step, j = 0 .. m, of a pair given by the masses
    ``p_mass[j]``, ``q_mass[j]`` that p and q put on the outputs whose loss lies in
    [l_j, l_(j+1)] (m intervals), with p-masses ``below`` l_0 and ``above`` l_m.

    Pessimistic: connect the dots (Doroshenko, Ghazi, Kamath, Kumar & Manurangsi, "Connect the
    Dots: Tighter Discrete Approximations of Privacy Loss Distributions", PETS 2022). Each
    interval's p-mass P is split between its two ends, b at l_(j+1) and P - b at l_j, so that
    the q-mass Q is kept as well: (P - b) e^(-l_j) + b e^(-l_(j+1)) = Q, i.e.

        b = (P - e^(l_j) Q) / (1 - e^(-step)),   0 <= b <= P since e^(l_j) Q <= P <= e^(l_(j+1)) Q.

    The discrete pair then has the true delta(eps) at every grid eps and is linear in e^eps
    between them, where the true one (convex in e^eps) lies below: a dominating pair, so every
    composition of it stays pessimistic, with an error of second order in the step instead of the
    k * step / 2 that rounding every loss up adds after k steps. Mass below l_0 goes up to l_0,
    mass above l_m to L = inf. Optimistic: each interval's mass rounded down to l_j (the mass
    above to l_m, the mass below dropped), never above the truth."""
    p_mass = np.clip(np.asarray(p_mass, dtype=float), 0.0, None)
    q_mass = np.clip(np.asarray(q_mass, dtype=float), 0.0, None)
    step = check_positive(step, "step")
    if p_mass.ndim != 1 or p_mass.shape != q_mass.shape or p_mass.size == 0:
        raise ValueError(f"p_mass and q_mass must be non-empty 1-d arrays of one length, got shapes "
                         f"p_mass={p_mass.shape}, q_mass={q_mass.shape}")
    pmf = np.zeros(p_mass.size + 1)
    if not pessimistic:
        pmf[:-1] = p_mass
        pmf[-1] += above
        return PrivacyLossDistribution(pmf, first, step, 0.0, False, 1, kl)
    left = (first + np.arange(p_mass.size)) * step
    with np.errstate(divide="ignore"):
        q_scaled = np.exp(left + np.log(q_mass))  # e^(l_j) Q without overflow where Q underflows
    upper = np.clip((p_mass - q_scaled) / -math.expm1(-step), 0.0, p_mass)
    pmf[1:] += upper
    pmf[:-1] += p_mass - upper
    pmf[0] += below
    return PrivacyLossDistribution(pmf, first, step, float(above), True, 1, kl)
