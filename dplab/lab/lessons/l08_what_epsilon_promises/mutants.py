"""Lesson 8's mutants: plausible slips in what epsilon promises an attacker (the posterior bound, the
trade-off curves, membership audits, PLD accounting), each caught by a report row that names it
(``make mutants NB=08``). Lesson 1's sensitivity.clipped_mean_add_remove is named by this lesson's rows
too."""

from __future__ import annotations

from dplab.lab.report import Mutant

LAPLACE = "dplab/mechanisms/laplace.py"
PLD = "dplab/_pld.py"

MUTANTS = (
    Mutant("promises.posterior_prior_as_odds", "dplab/promises.py",
           "return as_result(1 / (1 + np.exp(-np.asarray(eps)) * (1 - p) / p))",
           "return as_result(1 / (1 + np.exp(-np.asarray(eps)) / p))",
           "the posterior bound with the prior p used as its odds, e^ε p / (1 + e^ε p)"),
    Mutant("attacks.bayes_swapped_worlds", "dplab/attacks.py",
           "np.where(member, neighbour_value, value)", "np.where(member, value, neighbour_value)",
           "the Bayesian attacker's simulation releases D's statistic when the record is in"),
    Mutant("laplace.tradeoff_middle_2a", LAPLACE,
           "middle = math.exp(-eps) / (4 * a)", "middle = math.exp(-eps) / (2 * a)",
           "the Laplace trade-off curve's middle piece e^-ε/(2α) for e^-ε/(4α)"),
    Mutant("laplace.sample_sd_as_scale", LAPLACE,
           "self.scale * rng.laplace(0.0, 1.0, size=noise_shape(value, size))",
           "self.scale * rng.laplace(0.0, 1 / math.sqrt(2), size=noise_shape(value, size))",
           "Laplace noise drawn with standard deviation b (numpy scale b/√2): ε √2 spent, not ε"),
    Mutant("laplace.privacy_loss_sign", LAPLACE,
           "np.sum(np.abs(fy - z) - np.abs(fx - z), axis=-1) / b",
           "np.sum(np.abs(fx - z) - np.abs(fy - z), axis=-1) / b",
           "the Laplace privacy loss ln p_D'(y)/p_D(y) for ln p_D(y)/p_D'(y) (its sign)"),
    Mutant("laplace.pld_slope_no_half", LAPLACE,
           "return np.where(x < -eps, 0.0, np.where(x >= eps, 1.0, np.exp(-(eps - x) / 2) / 2))",
           "return np.where(x < -eps, 0.0, np.where(x >= eps, 1.0, np.exp(-(eps - x)) / 2))",
           "the Laplace PLD's CDF e^-(ε − l) / 2 for e^(-(ε − l)/2) / 2 (rounded up: slope halved)"),
    Mutant("laplace.for_rmse_no_sqrt2", LAPLACE,
           "return cls(sensitivity, math.sqrt(2) * check_sensitivity(sensitivity) / check_positive(rmse",
           "return cls(sensitivity, check_sensitivity(sensitivity) / check_positive(rmse",
           "ε for an RMSE target Δ/RMSE for √2 Δ/RMSE (the Laplace variance b², not 2b², inverted)"),
    Mutant("randomized_response.keep_flip_swapped", "dplab/mechanisms/randomized_response.py",
           "keep = rng.random(shape) < self.keep", "keep = rng.random(shape) < self.flip",
           "randomized response reports the truth with the flip probability q, not p"),
    Mutant("epsilon_delta.extreme_pair_unscaled", "dplab/mechanisms/epsilon_delta.py",
           "p = np.array([d, (1 - d) * keep, (1 - d) * (1 - keep), 0.0])",
           "p = np.array([d, keep, 1 - keep - d, 0.0])",
           "the extreme (ε, δ) pair's randomized response not scaled by 1 − δ (δ taken from one output)"),
    Mutant("tradeoff.dp_second_branch_no_delta", "dplab/_tradeoff.py",
           "math.exp(-eps) * (1 - delta - a)", "math.exp(-eps) * (1 - a)",
           "f_ε,δ's second piece e^-ε (1 − α) for e^-ε (1 − δ − α)"),
    Mutant("tradeoff.gdp_alpha_not_complemented", "dplab/_tradeoff.py",
           "special.ndtr(special.ndtri(1 - a) - mu)", "special.ndtr(special.ndtri(a) - mu)",
           "the μ-GDP curve Φ(Φ⁻¹(α) − μ) for Φ(Φ⁻¹(1 − α) − μ)"),
    Mutant("audit.direction_swapped", "dplab/audit.py",
           "top, bottom = (counts[0], counts[1]) if direction == 0 else (counts[1], counts[0])",
           "top, bottom = (counts[1], counts[0]) if direction == 0 else (counts[0], counts[1])",
           "the audit bounds the pilot's ratio upside down and certifies nothing (ε ≥ 0)"),
    Mutant("pld.compose_window_offset", PLD,
           "np.clip(pmf, 0.0, None), k * self.offset + low, self.step",
           "np.clip(pmf, 0.0, None), k * self.offset, self.step",
           "composition by FFT forgets where its window starts (every loss shifted down)"),
    Mutant("pld.delta_tail_mass", PLD,
           "out[i] = np.dot(pmf[above], -np.expm1(e - losses[above]))",
           "out[i] = np.sum(pmf[above])",
           "δ(ε) as Pr[L > ε], the hockey stick's weight 1 − e^(ε − L) dropped"),
    Mutant("pld.accountant_ignores_optimistic", "dplab/accounting/pld.py",
           "m.pld(step=self.step, pessimistic=self.pessimistic)", "m.pld(step=self.step)",
           "PLDAccountant(pessimistic=False) rounds up anyway (its lower end is the upper one)"),
)
