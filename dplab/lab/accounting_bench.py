"""DP-SGD's accounting bench rows (issue 32's goals), for notebook 12's lesson to register
(``dplab/lab/lessons/l12_*/bench.py``: ``from dplab.lab.accounting_bench import ROWS``).

10^4 steps of the Poisson-subsampled Gaussian at sigma = 1, q = 0.01, delta = 1e-5: by PLD (both
orders of the pair, step 1e-4, the window from the composed PLD's Chernoff tails) <= 1 s, by RDP
(dp-accounting's orders) <= 10 ms. Each time is the median of ``RUNS`` runs (one accounting is
short, so several are cheap); the rows also print epsilon, the truncation's delta and the rounding
bound. ``python -m dplab.lab.accounting_bench`` prints them.
"""

from __future__ import annotations

from collections.abc import Callable

from dplab.lab.timing import median_time

__all__ = ["ROWS", "dpsgd_accounting_rows", "median_seconds", "pld_workload", "rdp_workload"]

SIGMA, RATE, STEPS, DELTA = 1.0, 0.01, 10_000, 1e-5
#: runs whose median time a row reports
RUNS = 5


def pld_workload(sigma: float = SIGMA, q: float = RATE, steps: int = STEPS,
                 delta: float = DELTA) -> tuple[float, float, float]:
    """(epsilon, truncation's delta, rounding bound) of ``steps`` steps by a fresh PLDAccountant."""
    from dplab.accounting import PLDAccountant
    from dplab.mechanisms import SubsampledGaussian

    acc = PLDAccountant(step=1e-4).compose(SubsampledGaussian(sigma, q), steps)
    return acc.epsilon(delta), acc.truncation(), acc.rounding_bound()


def rdp_workload(sigma: float = SIGMA, q: float = RATE, steps: int = STEPS, delta: float = DELTA) -> float:
    """epsilon of ``steps`` steps by a fresh RDPAccountant (the Renyi curve computed anew)."""
    from dplab.learning import dpsgd_epsilon

    return dpsgd_epsilon(sigma, q, steps, delta, accountant="rdp")


def median_seconds(fn: Callable[[], object], runs: int = RUNS) -> tuple[float, object]:
    """The median wall-clock time of ``runs`` calls of ``fn`` (the bench's one timer), and its result."""
    return median_time(fn, runs), fn()


def dpsgd_accounting_rows() -> list[tuple[str, str, str]]:
    """(measure, value, goal) rows: 10^4 steps by PLD and by RDP."""
    t_pld, (eps, truncation, rounding) = median_seconds(pld_workload)
    t_rdp, eps_rdp = median_seconds(rdp_workload)
    head = f"10^4 DP-SGD steps, sigma = {SIGMA:g}, q = {RATE:g}, delta = {DELTA:g}"
    return [
        (f"{head}, by PLD (step 1e-4): eps = {eps:.3f}, truncation {truncation:.1e} in delta, "
         f"rounding bound {rounding:.2g} (median of {RUNS})", f"{t_pld:.2f} s", "<= 1 s"),
        (f"{head}, by RDP: eps = {eps_rdp:.3f} (median of {RUNS})", f"{t_rdp * 1e3:.1f} ms", "<= 10 ms"),
    ]


#: the rows ``make bench`` prints for notebook 12 (each function returns (measure, value, goal) rows)
ROWS = (dpsgd_accounting_rows,)


if __name__ == "__main__":
    for row in dpsgd_accounting_rows():
        print(" | ".join(row))
