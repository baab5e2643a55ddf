"""Lesson 6's mutants: plausible slips in the composition theorems, the filters, the two noise reductions,
their privacy loss and martingale, and the accuracy-first release; each killed by the report rows (or
notebook cells) that name it (``make mutants NB=06``)."""

from __future__ import annotations

from dplab.lab.report import Mutant

ADVANCED = "dplab/accounting/advanced.py"
ZCDP = "dplab/accounting/zcdp.py"
OPTIMAL = "dplab/accounting/optimal.py"
FILTERS = "dplab/accounting/filters.py"
NR = "dplab/mechanisms/noise_reduction.py"
FIRST = "dplab/accuracy_first.py"

MUTANTS = (
    Mutant("advanced.drv_no_2", ADVANCED,
           "total = math.sqrt(2 * k * math.log(1 / delta_prime)) * epsilon",
           "total = math.sqrt(k * math.log(1 / delta_prime)) * epsilon",
           "advanced composition with sqrt(k ln(1/delta')) for sqrt(2k ln(1/delta'))"),
    Mutant("zcdp.cks_no_log_term", ZCDP,
           "eps = rho * (1 + x) + log_inv / x + math.log(x) - math.log1p(x) - math.log1p(x) / x",
           "eps = rho * (1 + x) + log_inv / x - math.log1p(x) / x",
           "the CKS conversion without its ln(1 - 1/alpha) term"),
    Mutant("optimal.rr_loss_k_minus_l", OPTIMAL,
           "return log_binom + (k - flips) * log_p + flips * log_q, (k - 2 * flips) * epsilon",
           "return log_binom + (k - flips) * log_p + flips * log_q, (k - flips) * epsilon",
           "k-fold randomized response's privacy loss (k - l) eps for (k - 2l) eps (l flipped answers)"),
    Mutant("filters.float_accounting", FILTERS,
           "return Fraction(repr(float(value)))",
           "return Fraction(float(value))",
           "the filters add binary floats exactly (0.1 + 0.2 > 0.3) instead of the decimals typed"),
    Mutant("filters.basic_no_exact_fit", FILTERS,
           "if self._refused or self._spent_epsilon + eps > self._epsilon",
           "if self._refused or self._spent_epsilon + eps >= self._epsilon",
           "the basic filter refuses a cost equal to what remains"),
    Mutant("filters.brownian_charged_twice", FILTERS,
           "return self._charge(delta_2**2 / (2 * t))",
           "return self._charge(delta_2**2 / t)",
           "a stopped Brownian run charged Delta^2/T, twice its rho"),
    Mutant("noise_reduction.laplace_keep_not_squared", NR,
           "keep = (epsilons[:-1] / epsilons[1:]) ** 2",
           "keep = epsilons[:-1] / epsilons[1:]",
           "Laplace noise reduction keeps the noise with probability eps_i/eps_i+1, not squared"),
    Mutant("noise_reduction.laplace_fresh_scale", NR,
           "fresh = scales[i] * rng.laplace(0.0, 1.0, size=shape)",
           "fresh = scales[i + 1] * rng.laplace(0.0, 1.0, size=shape)",
           "Laplace noise reduction adds Lap(b_i+1), the level above's scale, for Lap(b_i)"),
    Mutant("noise_reduction.brownian_uncoupled", NR,
           "return times * np.cumsum(np.sqrt(ds) * z, axis=-1)",
           "return np.sqrt(times) * z",
           "Brownian noise reduction with independent levels, each N(0, t) alone (the coupling dropped)"),
    Mutant("noise_reduction.brownian_bridge_variance", NR,
           "ds[1:] = (times[:-1] - times[1:]) / (times[:-1] * times[1:])",
           "ds[1:] = (times[:-1] - times[1:]) / times[:-1]",
           "the bridge steps' variance in s = 1/t as (t_i - t_i+1)/t_i, for 1/t_i+1 - 1/t_i"),
    Mutant("noise_reduction.brownian_time_no_2", NR,
           "return as_result(sensitivity**2 / (2 * check_rho(rho, array_ok=True)))",
           "return as_result(sensitivity**2 / check_rho(rho, array_ok=True))",
           "T = Delta^2/rho for Delta^2/(2 rho): the run noisier than its rho grid says, and charged half"),
    Mutant("noise_reduction.loss_no_rho", NR,
           "return as_result((sensitivity**2 / 2 - sensitivity * noise) / time)",
           "return as_result(-sensitivity * noise / time)",
           "the Brownian privacy loss without its Delta^2/(2T) term"),
    Mutant("noise_reduction.compensator_lam_squared", NR,
           "return as_result(np.exp(lam * np.asarray(loss, dtype=float) - lam * (lam + 1) * rho))",
           "return as_result(np.exp(lam * np.asarray(loss, dtype=float) - lam * lam * rho))",
           "the martingale's compensator lambda^2 rho (a Gaussian's) for lambda (lambda + 1) rho"),
    Mutant("noise_reduction.stop_rule_peeks", NR,
           "hit = running & np.broadcast_to(np.asarray(rule(released[..., i], float(times[i]))",
           "hit = running & np.broadcast_to(np.asarray(rule(released[..., i + 1], float(times[i]))",
           "the stopping rule shown the next, less noisy output before it decides (not a stopping time)"),
    Mutant("noise_reduction.lookahead_stops_after", NR,
           "level = np.where(ahead.any(axis=-1), ahead.argmax(axis=-1), times.size - 1)",
           "level = np.where(ahead.any(axis=-1), ahead.argmax(axis=-1) + 1, times.size - 1)",
           "the peeking negative control stops after the rise it saw (a legal stopping time: no control)"),
    Mutant("accuracy_first.brownian_charged_cap", FIRST,
           "ok = budget.filter.request_brownian(1.0, float(brownian_time(1.0, cost)))",
           "ok = budget.filter.request_brownian(1.0, float(brownian_time(1.0, cap)))",
           "a Brownian noise reduction charged its cap, not the rho at which it stopped"),
)
