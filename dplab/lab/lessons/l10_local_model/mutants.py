"""Lesson 10's mutants: plausible slips in the local model (randomized response's estimate and variance,
the frequency oracles' p and q, their samplers), each caught by a report row and an assert cell of
notebook 10 that name it (``make mutants NB=10``)."""

from __future__ import annotations

from dplab.lab.report import Mutant

RR = "dplab/local/randomized_response.py"
ORACLES = "dplab/local/frequency_oracles.py"

MUTANTS = (
    Mutant("local.rr_estimate_no_debias", RR,
           "return float((r.mean() - q) / (p - q))", "return float(r.mean())",
           "randomized response's estimate is the share of yes reports, not debiased by (mean − q)/(p − q)"),
    Mutant("local.rr_variance_no_square", RR,
           "return as_result(q * (1 - q) / (p - q) ** 2 / n + f * (1 - p - q) / (p - q) / n)",
           "return as_result(q * (1 - q) / (p - q) / n + f * (1 - p - q) / (p - q) / n)",
           "randomized response's variance with p − q not squared"),
    Mutant("local.grr_q_uniform", ORACLES,
           "return self.mechanism.flip", "return 1 / self.d",
           "k-RR's q taken as 1/d (a uniform report) instead of 1/(e^ε + d − 1)"),
    Mutant("local.sue_sample_full_epsilon", ORACLES,
           "RandomizedResponse(self.epsilon / 2).sample(onehot, rng)",
           "RandomizedResponse(self.epsilon).sample(onehot, rng)",
           "SUE (basic RAPPOR) flips each bit at ε, not ε/2 (two bits differ between neighbours)"),
    Mutant("local.sue_p_full_epsilon", ORACLES,
           "return RandomizedResponse(self.epsilon / 2).keep", "return RandomizedResponse(self.epsilon).keep",
           "SUE's p at ε while its q stays at ε/2: the report is 1.5ε-LDP and the estimate biased"),
    Mutant("local.oue_q_half_epsilon", ORACLES,
           "return RandomizedResponse(self.epsilon).flip", "return RandomizedResponse(self.epsilon / 2).flip",
           "OUE's q = 1/(e^(ε/2) + 1): the report is only ε/2-LDP (accuracy thrown away)"),
    Mutant("local.ue_hot_bit_q", ORACLES,
           "hot = u[rows, v] < self.p", "hot = u[rows, v] < self.q",
           "unary encoding keeps the user's own bit with probability q, not p"),
    Mutant("local.olh_q_as_rr", ORACLES,
           "return 1 / self.g", "return self.mechanism.flip",
           "OLH's q taken as k-RR's 1/(e^ε + g − 1), forgetting that other values hash to the bucket"),
    Mutant("local.pem_prefix_shift", "dplab/local/prefix_extension.py",
           "prefixes = x[members[j]] >> (m - length)", "prefixes = x[members[j]] & (2**length - 1)",
           "the prefix extension reports an id's last bits, not its first: the prefixes do not extend"),
    Mutant("local.pem_threshold_all_users", "dplab/local/prefix_extension.py",
           "return float(z * _sigma(eps, n // groups))", "return float(z * _sigma(eps, n))",
           "the heavy-hitter threshold with the σ of all n users, not of the n/G of one group"),
    Mutant("local.hadamard_q_one_over_k", ORACLES,
           "    def q(self) -> float:\n        return 0.5",
           "    def q(self) -> float:\n        return 1 / self.size",
           "Hadamard response's q = 1/K, as if a report named one value, not a half of the outputs"),
)
