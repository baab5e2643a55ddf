"""Notebook 12's bench rows (``make bench NB=12``): the issue's targets, timed (medians of several runs):
DP-SGD's accounting of 10^4 steps by PLD (<= 1 s, within 1% of dp-accounting's and never below its optimistic
value) and by RDP (<= 10 ms, within 10% of its RdpAccountant), and the notebook's own precomputations."""

from __future__ import annotations

from dplab.lab.timing import median_time

#: the accounting target: sigma ~ 1, q ~ 0.01, 10^4 steps, delta 1e-5
SIGMA, RATE, STEPS, DELTA = 1.0, 0.01, 10_000, 1e-5


def accounting_rows() -> list[tuple[str, str, str]]:
    """PLD and RDP accounting of 10^4 DP-SGD steps (dplab.learning.dpsgd_epsilon), against dp-accounting's."""
    from dplab.lab.lessons.l12_learning.report import DP_ACCOUNTING
    from dplab.learning import dpsgd_epsilon

    rdp_theirs, pld_theirs, pld_low = DP_ACCOUNTING[(SIGMA, RATE, STEPS)]
    pld = dpsgd_epsilon(SIGMA, RATE, STEPS, DELTA)
    rdp = dpsgd_epsilon(SIGMA, RATE, STEPS, DELTA, accountant="rdp")
    t_pld = median_time(lambda: dpsgd_epsilon(SIGMA, RATE, STEPS, DELTA), repeat=5)
    t_rdp = median_time(lambda: dpsgd_epsilon(SIGMA, RATE, STEPS, DELTA, accountant="rdp"), repeat=7)
    where = f"σ = {SIGMA:g}, q = {RATE:g}, T = 10^4, δ = {DELTA:g}"
    return [
        (
            f"DP-SGD accounting by PLD, {where}: time; ε against dp-accounting's {pld_theirs:.4f} "
            f"(optimistic {pld_low:.4f})",
            f"{t_pld:.2f} s; {pld:.4f}, {pld / pld_theirs - 1:+.2%}, "
            f"{'not below' if pld >= pld_low else 'BELOW'}",
            "<= 1 s, within 1%, not below",
        ),
        (
            f"DP-SGD accounting by RDP, {where}: time; ε against RdpAccountant's {rdp_theirs:.4f}",
            f"{t_rdp * 1e3:.1f} ms; {rdp:.4f}, {rdp / rdp_theirs - 1:+.2%}",
            "<= 10 ms, within 10%",
        ),
    ]


def lesson_rows() -> list[tuple[str, str, str]]:
    """The notebook's precomputations: the panel's grid of DP-SGD runs and its accounting, the audits."""
    from dplab.lab.lessons.l12_learning import report

    rows = []
    for name, fn in (
        (
            "the panel's grid: 72 DP-SGD runs of 300 steps on 500 students",
            lambda: report.grid_accuracy.__wrapped__(),
        ),
        (
            "the panel's accounting: 36 (σ, q, T) by PLD on a grid of 1e-3",
            lambda: report.grid_epsilon.__wrapped__(),
        ),
        (
            "one audit: 160 DP-SGD models of 100 steps on 100 students",
            lambda: report.audit.__wrapped__("canary", 2.0),
        ),
    ):
        rows.append((name, f"{median_time(fn, repeat=1):.2f} s", "the notebook <= 30 s in all"))
    return rows


#: the rows ``make bench`` prints for this notebook (each function returns (measure, value, goal) rows)
ROWS = (accounting_rows, lesson_rows)
