"""Notebook 8's bench rows: the library targets its lesson depends on, timed (``make bench NB=08``)."""

from __future__ import annotations

import numpy as np

from dplab.lab.timing import median_time


def what_epsilon_rows() -> list[tuple[str, str, str]]:
    """Issue 14's targets: PLD accounting of 1,000 Laplace mechanisms (against dp-accounting's
    when it is installed) and the simulated attacker's ROC from 10^6 samples a side."""
    from dplab.attacks import likelihood_ratio_roc
    from dplab.mechanisms import Laplace

    def ours():
        return Laplace(1.0, 0.1).pld(step=1e-4).compose(1000, accuracy=0.1).epsilon(1e-6)

    t = median_time(ours, repeat=5)
    eps = ours()
    rows = [("PLD by FFT: 1,000 Laplace mechanisms, eps0 = 0.1, step 1e-4: eps(1e-6), off 18.95 by",
             f"{t:.2f} s: {eps:.4f}, {abs(eps / 18.95 - 1):.2%}", "<= 1 s, <= 0.5%")]
    try:
        from dp_accounting.pld import privacy_loss_distribution as dp_pld
    except ImportError:
        rows.append(("the same by dp-accounting's PLD", "not installed", "ratio <= 1"))
    else:
        def theirs():
            return dp_pld.from_laplace_mechanism(10.0, value_discretization_interval=1e-4).self_compose(
                1000).get_epsilon_for_delta(1e-6)

        t_theirs = median_time(theirs, repeat=5)
        low = dp_pld.from_laplace_mechanism(
            10.0, value_discretization_interval=1e-4, pessimistic_estimate=False, use_connect_dots=False
        ).self_compose(1000).get_epsilon_for_delta(1e-6)
        rows.append(("the same by dp-accounting's PLD: time ratio ours / theirs; theirs (pessimistic), "
                     "ours >= their optimistic",
                     f"{t / t_theirs:.2f} ({t_theirs:.2f} s; {theirs():.4f}; "
                     f"{'yes' if eps >= low else 'NO'})", "<= 1, yes"))
    rng = np.random.default_rng(0)

    def roc():
        return likelihood_ratio_roc(rng.laplace(0.0, 1.0, 10**6), rng.laplace(1.0, 1.0, 10**6))

    rows.append(("simulated attacker: draw 10^6 Laplace outputs a side and build the ROC (40 boxes)",
                 f"{median_time(roc, repeat=5):.2f} s", "<= 1 s"))
    return rows


#: the rows ``make bench`` prints for this notebook (each function returns (measure, value, goal) rows)
ROWS = (what_epsilon_rows,)
