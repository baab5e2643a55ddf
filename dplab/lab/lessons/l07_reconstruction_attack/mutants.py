"""Lesson 7's mutants: plausible slips in the reconstruction attacks, their theory, the DP answers and the
per-bit and robustness bounds' mechanisms; each killed by the report rows, notebook cells or unit tests that
name it (``make mutants NB=07``)."""

from __future__ import annotations

from dplab.lab.report import Mutant

REC = "dplab/reconstruction.py"
RR = "dplab/mechanisms/randomized_response.py"

MUTANTS = (
    Mutant("reconstruction.uniform_sd_12", REC,
           '"uniform": 1 / math.sqrt(3)',
           '"uniform": 1 / math.sqrt(12)',
           "uniform noise on [-E, E] with sd E/sqrt(12) (a width-E interval's) for E/sqrt(3)"),
    Mutant("reconstruction.ls_theory_2sigma", REC,
           "return as_result(stats.norm.cdf(np.sqrt(m - n) / (4 * sd)))",
           "return as_result(stats.norm.cdf(np.sqrt(m - n) / (2 * sd)))",
           "least squares' share Phi(sqrt(m - n)/(2 sigma)): v_i taken as 1/(m - n), not 4/(m - n)"),
    Mutant("reconstruction.ls_round_at_zero", REC,
           "return (z >= 0.5).astype(np.uint8)",
           "return (z >= 0).astype(np.uint8)",
           "least squares' estimate rounded at 0, not 1/2"),
    Mutant("reconstruction.ls_exact_no_2", REC,
           "return float(np.mean(stats.norm.cdf(1 / (2 * sd * np.sqrt(v)))))",
           "return float(np.mean(stats.norm.cdf(1 / (sd * np.sqrt(v)))))",
           "least squares' exact share Phi(1/(sigma sqrt(v_i))): a bit's margin 1 for 1/2"),
    Mutant("reconstruction.gaussian_scale_as_variance", REC,
           "e = gen.normal(0.0, scale, m)",
           "e = gen.normal(0.0, math.sqrt(scale), m)",
           "Gaussian answers drawn with standard deviation sqrt(sigma): the scale read as a variance"),
    Mutant("reconstruction.exhaustive_one_sided", REC,
           "worst = np.max(np.abs(qf @ qf[start:start + 256].T - y[:, None]), axis=0)",
           "worst = np.max(qf @ qf[start:start + 256].T - y[:, None], axis=0)",
           "the exhaustive attack's consistency test one-sided (|.| dropped): answers far below y pass"),
    Mutant("reconstruction.l1_one_sided", REC,
           "res = optimize.linprog(cost, A_ub=a_ub, b_ub=np.concatenate([y, -y]),",
           "res = optimize.linprog(cost, A_ub=a_ub, b_ub=np.concatenate([y, y]),",
           "L1 decoding's second constraint with +y: only answers above y are penalised"),
    Mutant("reconstruction.zcdp_noise_no_m", REC,
           'return "gaussian", math.sqrt(m / (2 * approx_dp_to_zcdp(epsilon, delta)))',
           'return "gaussian", math.sqrt(1 / (2 * approx_dp_to_zcdp(epsilon, delta)))',
           "the zCDP split's sigma for one answer, sqrt(1/(2 rho)), not the m answers' sqrt(m/(2 rho))"),
    Mutant("reconstruction.argmax_shift_mu", REC,
           "shift = mu / math.sqrt(2)",
           "shift = mu",
           "the mu-GDP release of one of K values shifts the secret's coordinate by mu, not mu/sqrt(2)"),
    Mutant("randomized_response.keep_k", RR,
           "return 1 / (1 + (k - 1) * math.exp(-eps))",
           "return 1 / (1 + k * math.exp(-eps))",
           "K-ary randomized response keeps the truth with e^eps/(e^eps + K), not e^eps/(e^eps + K - 1)"),
    Mutant("randomized_response.other_includes_truth", RR,
           "other = 1 - v if self.k == 2 else (v + 1 + rng.integers(0, self.k - 1, size=shape)) % self.k",
           "other = 1 - v if self.k == 2 else rng.integers(0, self.k, size=shape)",
           "K-ary randomized response draws the other value from all K values, the truth included"),
    Mutant("simulate.mean_ci_normal_quantile", "dplab/simulate.py",
           "half = stats.t.ppf(0.5 + confidence / 2, n - 1) * x.std(axis=axis, ddof=1) / np.sqrt(n)",
           "half = stats.norm.ppf(0.5 + confidence / 2) * x.std(axis=axis, ddof=1) / np.sqrt(n)",
           "the mean's interval with the normal quantile on a handful of releases (too narrow: t_{n-1})"),
)
