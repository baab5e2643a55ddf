"""Lesson 4's mutants: plausible slips in AboveThreshold, its proof and its variants
(``dplab/sparse_vector.py``), each caught by a report row or a unit test that names it
(``make mutants NB=04``)."""

from __future__ import annotations

from dplab.lab.report import Mutant

SV = "dplab/sparse_vector.py"

MUTANTS = (
    Mutant("sparse_vector.query_noise_2", SV,
           "return _Noise(2 * d / eps, 4 * d / eps, None, True)",
           "return _Noise(2 * d / eps, 2 * d / eps, None, True)",
           "AboveThreshold's query noise Lap(2Δ/ε) for Lap(4Δ/ε) (v̂ moves by 2Δ, not Δ)"),
    Mutant("sparse_vector.threshold_noise_1", SV,
           "return _Noise(2 * d / eps, 4 * d / eps, None, True)",
           "return _Noise(d / eps, 4 * d / eps, None, True)",
           "AboveThreshold's threshold noise Lap(Δ/ε) for Lap(2Δ/ε)"),
    Mutant("sparse_vector.lee_clifton_inverted", SV,
           "return _Noise(d / (eps / 4), d / (3 * eps / 4), None, True)",
           "return _Noise(d / (eps / 4), 3 * d / (4 * eps), None, True)",
           "Lee-Clifton's query noise 3Δ/(4ε) for 4Δ/(3ε) (the fraction inverted)"),
    Mutant("sparse_vector.alg1_no_c", SV,
           "return _Noise(d / eps1, 2 * c * d / eps2, None, True)",
           "return _Noise(d / eps1, 2 * d / eps2, None, True)",
           "SparseVector's query noise Lap(2Δ/ε₂) not scaled by c"),
    Mutant("sparse_vector.noisy_value_2c", SV,
           "return _Noise(d / eps1, c * d / eps2, None, True)",
           "return _Noise(d / eps1, 2 * c * d / eps2, None, True)",
           "noisy_value (Lyu Alg. 3) given Alg. 1's query noise 2cΔ/ε₂ for cΔ/ε₂"),
    Mutant("sparse_vector.no_halting_noise_2", SV,
           "return _Noise(d / eps1, d / eps2, None, False)  # no_halting",
           "return _Noise(d / eps1, 2 * d / eps2, None, False)  # no_halting",
           "no_halting (Lyu Alg. 6) given query noise 2Δ/ε₂ for Δ/ε₂"),
    Mutant("sparse_vector.prefix_off_by_one", SV,
           "np.multiply(np.arange(1, n + 1)[:, None], log_cdf, out=logs[1:])",
           "np.multiply(np.arange(0, n)[:, None], log_cdf, out=logs[1:])",
           "on a constant stream, halting at query k counted with k - 2 bottoms before it, not k - 1"),
    Mutant("sparse_vector.proof_shift_sign", SV,
           "v_shift = g - g_prime + f_k_prime - f_k",
           "v_shift = g - g_prime + f_k - f_k_prime",
           "the proof's change of variables v̂ with the k-th answer's shift the wrong way round"),
    Mutant("sparse_vector.fresh_threshold", SV,
           "    that = t + noise.threshold * rng.laplace(0.0, 1.0, size=(runs, 1))\n    above = f",
           "    that = t + noise.threshold * rng.laplace(0.0, 1.0, size=(runs, f.size))\n    above = f",
           "AboveThreshold's sampler draws a fresh noisy threshold for every query (the coupling dropped)"),
    Mutant("sparse_vector.sampler_scale_swap", SV,
           "noisy = f + noise.query * rng.laplace(0.0, 1.0, size=(runs, f.size))",
           "noisy = f + noise.threshold * rng.laplace(0.0, 1.0, size=(runs, f.size))",
           "the sparse vector sampler draws the query noise at the threshold's scale"),
    Mutant("sparse_vector.sampler_query_noise_2", SV,
           "above = f + noise.query * rng.laplace(0.0, 1.0, size=(runs, f.size)) >= that",
           "above = f + noise.threshold * rng.laplace(0.0, 1.0, size=(runs, f.size)) >= that",
           "AboveThreshold's sampler draws the query noise at Lap(2Δ/ε), the exact code keeps Lap(4Δ/ε)"),
    Mutant("sparse_vector.noise_ignores_sensitivity", SV,
           "return _Noise(2 * d / eps, 4 * d / eps, None, True)",
           "return _Noise(2 / eps, 4 / eps, None, True)",
           "AboveThreshold's noise for sensitivity 1 whatever Delta (every check at Delta = 1 passes)"),
)
