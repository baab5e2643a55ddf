"""``python -m dplab bench``: the performance table (medians and ratios, never timed tests).

Rows: Monte Carlo sweep throughput as a ratio to the raw numpy generator rate
measured in the same run (goal >= 0.5); widget callback medians without a browser
(recompute <= 20 ms, recompute + redraw <= 40 ms, the frame budget); the browser slider-to-new-plot
median (goal <= 300 ms); nbval time per notebook (goal <= 20 s); ``make present``: the warm-up time,
each lesson's first plot after warm-up (goal <= 3 s) and a slider step while its refill runs.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from dplab.lab.paths import notebook_path
from dplab.lab.registry import lesson_reports
from dplab.simulate import ScaledErrors

TRIALS = 1_000_000


def _median_time(fn, repeat: int = 7) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def sweep_throughput(noise: str, grid_points: int) -> tuple[float, float]:
    """(sweep noise samples per second, raw generator samples per second).

    The sweep draws TRIALS standard errors once and evaluates MSE, MAE and a tail
    probability with intervals at ``grid_points`` epsilons: TRIALS * grid_points
    noise samples' worth of estimates.
    """
    rng = np.random.default_rng(0)
    raw = rng.laplace if noise == "laplace" else rng.standard_normal
    raw_time = _median_time(lambda: raw(size=TRIALS) if noise != "laplace" else raw(0, 1, TRIALS))
    scales = 1 / np.geomspace(0.05, 5, grid_points)

    def sweep():
        errs = ScaledErrors.draw(noise, TRIALS, rng=1)
        errs.mse(scales)
        errs.mae(scales)
        errs.exceed(scales, 3 * scales)

    return TRIALS * grid_points / _median_time(sweep), TRIALS / raw_time


def widget_latency(make_panel, steps: dict[str, list]) -> tuple[float, float]:
    """Median seconds of (recompute only, recompute + redraw) over slider values."""
    panel = make_panel()
    panel.timings.clear()
    for name, values in steps.items():
        for value in values:
            panel.controls[name].value = value
    recompute = statistics.median(t[0] for t in panel.timings)
    full = statistics.median(t[1] for t in panel.timings)
    return recompute, full


def browser_latency(notebook: Path, steps: int = 10) -> float | None:
    """Median seconds from a slider key press to a new plot image in Chromium (None: no browser)."""
    from dplab.lab.browser import CHROMIUM, chromium_page, slider_panel, slider_step, voila_server

    if not Path(CHROMIUM).exists():
        return None
    times = []
    with voila_server(notebook) as url, chromium_page(url) as page:
        panel = slider_panel(page, "epsilon")
        for i in range(steps):
            key = "ArrowRight" if i % 2 == 0 else "ArrowLeft"
            elapsed, _, _ = slider_step(page, "epsilon", panel, key=key)
            times.append(elapsed)
    return statistics.median(times)


def browser_drag(notebook: Path):
    """A 2 s mouse drag of the first panel's epsilon slider in Chromium (None: no browser)."""
    from dplab.lab.browser import CHROMIUM, chromium_page, slider_drag, slider_panel, voila_server

    if not Path(CHROMIUM).exists():
        return None
    with voila_server(notebook) as url, chromium_page(url) as page:
        return slider_drag(page, "epsilon", slider_panel(page, "epsilon"))


def present_rows(only: str | None = None, steps: int = 10) -> list[tuple[str, str, str]]:
    """``make present`` in Chromium: the warm-up (every lesson run once, one at a time); then, per
    lesson, from a click on the index to its first plot, and the median slider step (key press to
    new plot) while that lesson's refill runs (Voila re-runs the notebook to refill the pool a
    second after a page takes its kernel). Before each lesson, every warm-up has finished."""
    from dplab.lab.browser import CHROMIUM, chromium, open_lesson, slider_panel, slider_step, voila_server
    from dplab.lab.paths import notebooks_dir
    from dplab.lab.present import lessons, warm_counts, warm_up_done

    if not Path(CHROMIUM).exists():
        return [("present: warm-up and first plot", "no /usr/bin/chromium", "")]
    rows = []
    with voila_server(notebooks_dir(), preheat=True, server=True) as server, chromium() as context:
        deadline = time.monotonic() + 900
        while not (done := warm_up_done(server.log_text())):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no warm-up after 900 s:\n{server.log_text()[-3000:]}")
            time.sleep(0.5)
        rows.append(("present: warm-up, every lesson run once, one at a time",
                     f"{done[1]:.1f} s for {done[0]} lessons", "printed"))
        firsts = []
        for lesson in lessons(notebooks_dir()):
            if only is not None and lesson["path"][:2] != only:
                continue
            while (counts := warm_counts(server.log_text()))[0] != counts[1]:  # after warm-up
                if time.monotonic() > deadline + 900:
                    raise TimeoutError(f"a warm-up never ended:\n{server.log_text()[-3000:]}")
                time.sleep(0.5)
            page, first = open_lesson(context, server.url, lesson["path"])
            firsts.append(first)
            page.wait_for_timeout(1500)  # the refill starts fill_delay (1 s) after the page took its kernel
            before = warm_counts(server.log_text())
            panel = slider_panel(page, "epsilon")
            times = [slider_step(page, "epsilon", panel, key="ArrowRight" if i % 2 == 0 else "ArrowLeft")[0]
                     for i in range(steps)]
            after = warm_counts(server.log_text())
            refilling = before[0] > before[1] and after[1] == before[1]  # one ran through every step
            rows.append((f"present {lesson['path'][:2]}: index click to first plot (after warm-up)",
                         f"{first:.2f} s", "<= 3 s"))
            rows.append((f"present {lesson['path'][:2]}: slider step median while its refill runs",
                         f"{statistics.median(times) * 1e3:.0f} ms"
                         + ("" if refilling else " (NO refill ran throughout)"), "<= 300 ms"))
            page.close()
        if len(firsts) > 1:
            rows.append(("present: first plot after warm-up, worst lesson", f"{max(firsts):.2f} s", "<= 3 s"))
    return rows


def nbval_time(notebook: Path) -> float:
    """Seconds to run the notebook's nbval test (a failure raises with pytest's output)."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "--nbval-lax", "--nbval-current-env",
                           "-p", "no:cacheprovider", str(notebook)], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"nbval failed on {notebook.name}:\n{done.stdout[-4000:]}{done.stderr[-2000:]}")
    return time.perf_counter() - start


def range_query_rows() -> list[tuple[str, str, str]]:
    """Notebook 3's scale targets: O(k) inference, O(k) all-range error, vs dense least squares."""
    import tracemalloc

    from dplab.range_queries.errors import all_range_total_error
    from dplab.range_queries.strategies import consistent_tree_estimate, range_strategy

    rows = []
    rng = np.random.default_rng(0)
    for b in (2, 16):
        peaks = {}
        for k in (2**16, 2**20):  # both powers of 2 and of 16: no padding
            s = range_strategy("hierarchy", k, b)
            x = np.zeros(k)
            tracemalloc.start()
            s.reconstruct(s.measure(x, 1.0, rng=rng))
            peaks[k] = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        t = _median_time(lambda s=s, x=x: s.reconstruct(s.measure(x, 1.0, rng=rng)), repeat=5)
        rows.append((f"hierarchy b={b} + inference, k = 2^20: measure + reconstruct", f"{t:.3f} s",
                     "<= 1 s"))
        rows.append(("  peak memory / bin at k = 2^16, 2^20 (linear: equal)",
                     f"{peaks[2**16] / 2**16:.0f} B, {peaks[2**20] / 2**20:.0f} B", "linear"))
    errors = rng.normal(size=(100, 2**16))
    t = _median_time(lambda: all_range_total_error(errors), repeat=5)
    rows.append(("all-range total error, k = 2^16, 100 trials", f"{t:.3f} s", "<= 2 s"))
    s = range_strategy("hierarchy", 2**10, 2)
    a = s.apply(np.eye(2**10)).T  # dense strategy matrix, measurements x bins
    y = s.measure(np.zeros(2**10), 1.0, rng=rng)
    fast = _median_time(lambda: consistent_tree_estimate(y, 2), repeat=7)
    dense = _median_time(lambda: np.linalg.lstsq(a, y, rcond=None), repeat=3)
    diff = np.max(np.abs(consistent_tree_estimate(y, 2) - np.linalg.lstsq(a, y, rcond=None)[0]))
    rows.append(("O(k) inference vs dense lstsq, k = 2^10: speed-up", f"{dense / fast:.0f}x "
                 f"(max diff {diff:.1e})", ">= 100x, <= 1e-8"))
    return rows


def _range_panel_at(k: int):
    from dplab.lab.lessons.l03_hierarchy_vs_flat_range_queries.views import range_panel

    panel = range_panel()
    panel.controls["k"].value = k  # the first visit draws; the timed steps only rescale
    return panel


def panel_cases() -> dict[str, list]:
    """Per notebook: (label, make panel, {control: values}) of the widget latency rows."""
    from dplab.lab.lessons.l01_laplace_vs_gaussian import views as l01
    from dplab.lab.lessons.l02_bmi_parallel_composition import views as l02
    from dplab.lab.lessons.l04_above_threshold_proof import views as l04
    from dplab.lab.lessons.l05_net_mechanism import views as l05
    from dplab.lab.lessons.l06_adaptive_filters import views as l06
    from dplab.lab.lessons.l07_reconstruction_attack import views as l07
    from dplab.lab.lessons.l08_what_epsilon_promises import views as l08
    from dplab.lab.lessons.l09_data_dependent_noise import views as l09

    eps_values = list(np.geomspace(0.1, 4, 12))
    return {
        "01": [("01 error panel (epsilon)", l01.laplace_error_panel, {"epsilon": eps_values}),
               ("01 k panel (epsilon, delta, k)", l01.k_query_panel,
                {"epsilon": eps_values[:6], "delta": [1e-3, 1e-9, 1e-6], "k": [5, 50, 150]})],
        "02": [("02 BMI panel (epsilon, algorithm, neighbours)", l02.bmi_panel,
                {"epsilon": eps_values[:8], "algorithm": ["Algorithm 1", "Algorithm 2", "both"],
                 "neighbours": ["replace", "add_remove"]})],
        "03": [("03 range panel at k = 4096 (epsilon)", lambda: _range_panel_at(4096),
                {"epsilon": eps_values})],
        "04": [("04 loss panel (epsilon, queries, variant)", l04.loss_panel,
                {"epsilon": eps_values[:6], "k": [10, 50, 200],
                 "variant": ["above_threshold", "no_halting"]})],
        "05": [("05 net panel, default net of 77,520 (epsilon)", l05.net_panel, {"epsilon": eps_values})],
        "06": [("06 sweep panel (epsilon, along the precomputed sweep)", l06.sweep_panel,
                {"epsilon": list(l06.PANEL_EPSILONS) * 2})],
        "07": [("07 attack panel (noise)", l07.attack_panel,
                {"noise": [float(v) for v in np.round(np.linspace(0.1, 1.4, 14), 2)]}),
               ("07 DP panel (epsilon, split)", l07.dp_panel,
                {"epsilon": eps_values, "split": ["basic", "advanced", "zcdp"]})],
        "08": [("08 promise panel (epsilon, mechanism, k, delta, prior)", l08.promise_panel,
                {"epsilon": eps_values[:6], "mechanism": ["gaussian", "randomized response", "laplace"],
                 "k": [1, 8, 64], "delta": [1e-3, 1e-9], "prior": [0.01, 0.5]}),
               ("08 choose panel (target RMSE, prior)", l08.choose_panel,
                {"rmse": [float(v) for v in np.geomspace(0.5, 80, 12)], "prior": [0.01, 0.3]})],
        "09": [("09 DAWA panel (epsilon, n, shape, partition share)", l09.dawa_panel,
                {"epsilon": [float(v) for v in np.geomspace(0.01, 3, 8)], "n": [500, 12579, 200_000],
                 "shape": ["uniform", "zipf", "heights"], "share": [0.5, 0.25]})],
    }


def sparse_vector_rows(seeds: int = 20) -> list[tuple[str, str, str]]:
    """Issue 9's library targets: exact losses, the audit's cost, and its power on Lee-Clifton."""
    import tracemalloc

    from dplab.audit import audit_epsilon
    from dplab.sparse_vector import above_threshold, halting_privacy_losses, sparse_vector

    rows = []
    for n in (50, 1000):
        stream = np.linspace(-1.0, 1.0, n)
        t = _median_time(lambda s=stream: halting_privacy_losses("above_threshold", s, 0.0, 1.0), repeat=3)
        rows.append((f"exact privacy loss of every output of a {n}-query stream ({n + 1} outputs)",
                     f"{t:.2f} s", "<= 1 s" if n == 50 else "report"))
    d, d_prime = np.zeros(6), np.array([1.0, 1.0, 1.0, 1.0, 1.0, -1.0])

    def at(data, size, rng):
        return above_threshold(data, 0.0, 0.7, size=size, rng=rng)

    tracemalloc.start()
    start = time.perf_counter()
    audit_epsilon(at, d, d_prime, n_runs=1_000_000, n_pilot=100_000, rng=0)
    elapsed, peak = time.perf_counter() - start, tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rows.append(("audit, 10^6 runs of AboveThreshold on D and D' (6 queries): time, peak memory",
                 f"{elapsed:.2f} s, {peak / 2**20:.0f} MiB", "<= 10 s, <= 1 GiB"))

    def lee_clifton(data, size, rng):
        above = sparse_vector(data, 0.0, 0.7, c=1, variant="lee_clifton", size=size, rng=rng).above
        return np.where(above.any(axis=1), above.argmax(axis=1), -1)

    bounds = [audit_epsilon(lee_clifton, d, d_prime, n_runs=2_000_000, n_pilot=200_000, rng=s).epsilon_lower
              for s in range(seeds)]
    rows.append((f"audit power, Lee-Clifton (true 1.2173, claimed 0.7), 2x10^6 runs: bound, share of "
                 f"{seeds} seeds >= 1.15", f"{bounds[0]:.3f}, {np.mean(np.array(bounds) >= 1.15):.0%}",
                 ">= 1.15"))
    return rows


def net_mechanism_rows() -> list[tuple[str, str, str]]:
    """Issue 10's library targets: the net of 888,030 databases scored against 256 predicates,
    and the exponential mechanism's sampler."""
    import tracemalloc

    from dplab.mechanisms.exponential import exponential_mechanism
    from dplab.net_mechanism import all_predicates, net_histograms, net_scores, yrbss_universe_histogram

    data, queries = yrbss_universe_histogram(1000, rng=0), all_predicates(8)

    def enumerate_and_score():
        return net_scores(data, queries, net_histograms(8, 20))

    t = _median_time(enumerate_and_score, repeat=3)
    tracemalloc.start()
    enumerate_and_score()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    scores = np.random.default_rng(0).normal(size=1000)
    draws = _median_time(lambda: exponential_mechanism(scores, 1.0, 1.0, size=10**6, rng=1))
    return [("net: enumerate and score |X| = 8, m = 20 (888,030 databases) x 256 predicates: time, peak",
             f"{t:.2f} s, {peak / 2**20:.0f} MiB", "<= 2.5 s, <= 256 MiB"),
            ("exponential mechanism: 10^6 draws over 10^3 outcomes", f"{draws:.3f} s", "<= 0.2 s")]


def accuracy_first_rows() -> list[tuple[str, str, str]]:
    """Issue 11's target: seed 002's experiment, 1,000 counts, every method, one (eps, delta)."""
    from dplab.accuracy_first import RELEASE_METHODS, heavy_tailed_counts, release_counts

    counts = heavy_tailed_counts(1000, rng=0)

    def all_methods():
        for method in RELEASE_METHODS:
            release_counts(counts, method, 1.0, 1e-6, 0.1, rng=1)

    t = _median_time(all_methods, repeat=3)
    return [(f"seed 002's experiment: 1,000 counts, all {len(RELEASE_METHODS)} methods, eps = 1",
             f"{t:.2f} s", "<= 5 s")]


def reconstruction_rows() -> list[tuple[str, str, str]]:
    """Issue 13's targets: least squares at n = 1,000 bits, L1 decoding at n = 300."""
    from dplab.reconstruction import answer_queries, least_squares_attack, lp_attack, subset_queries

    rng = np.random.default_rng(0)
    rows = []
    cases = (((1000, 2000), least_squares_attack, "<= 1 s"), ((300, 600), lp_attack, "<= 5 s"))
    for (n, m), attack, goal in cases:
        a = subset_queries(m, n, rng=rng)
        x = rng.integers(0, 2, n)
        y = answer_queries(a, x, scale=0.25 * np.sqrt(n), rng=rng)
        t = _median_time(lambda a=a, y=y, attack=attack: attack(a, y), repeat=3)
        share = np.mean(attack(a, y) == x)
        rows.append((f"{attack.__name__}, n = {n} bits, m = {m} queries (E = sqrt(n)/4: {share:.1%} right)",
                     f"{t:.2f} s", goal))
    return rows


def what_epsilon_rows() -> list[tuple[str, str, str]]:
    """Issue 14's targets: PLD accounting of 1,000 Laplace mechanisms (against dp-accounting's
    when it is installed) and the simulated attacker's ROC from 10^6 samples a side."""
    from dplab.attacks import likelihood_ratio_roc
    from dplab.mechanisms import Laplace

    def ours():
        return Laplace(1.0, 0.1).pld(step=1e-4).compose(1000, accuracy=0.1).epsilon(1e-6)

    t = _median_time(ours, repeat=5)
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

        t_theirs = _median_time(theirs, repeat=5)
        low = dp_pld.from_laplace_mechanism(
            10.0, value_discretization_interval=1e-4, pessimistic_estimate=False, use_connect_dots=False
        ).self_compose(1000).get_epsilon_for_delta(1e-6)
        rows.append(("the same by dp-accounting's PLD: time ratio ours / theirs; theirs (pessimistic), "
                     "ours >= their optimistic",
                     f"{t / t_theirs:.2f} ({t_theirs:.2f} s; {theirs():.4f}; "
                     f"{'yes' if eps >= low else 'NO'})", "<= 1, yes"))
    rng = np.random.default_rng(0)

    def roc():
        return likelihood_ratio_roc(rng.laplace(0.0, 1.0, TRIALS), rng.laplace(1.0, 1.0, TRIALS))

    rows.append(("simulated attacker: draw 10^6 Laplace outputs a side and build the ROC (40 boxes)",
                 f"{_median_time(roc, repeat=5):.2f} s", "<= 1 s"))
    return rows


def data_dependent_rows() -> list[tuple[str, str, str]]:
    """Notebook 9's library targets: DAWA's partition + measurement and the median's smooth
    sensitivity."""
    from dplab.datasets import load_yrbss
    from dplab.range_queries.dawa import dawa
    from dplab.range_queries.histograms import synthetic_histogram
    from dplab.smooth_sensitivity import median_smooth_sensitivity, smooth_beta

    heights = load_yrbss()["height_m"]
    rows = []
    for k in (4096, 65536):
        x = synthetic_histogram("zipf", k, rng=1)
        t = _median_time(lambda x=x: dawa(x, 1.0, rng=2), repeat=3 if k == 4096 else 1)
        rows.append((f"DAWA partition + identity measurement, k = {k} (zipf shape)", f"{t:.2f} s",
                     "<= 1 s" if k == 4096 else "<= 10 s (printed)"))
    for eps in (1.0, 0.01):
        beta = smooth_beta(eps, 1e-6)
        t = _median_time(lambda b=beta: median_smooth_sensitivity(heights, 1.0, 2.2, b), repeat=5)
        rows.append((f"smooth sensitivity of the median, n = {heights.size:,} heights in [1.0, 2.2] m, "
                     f"eps = {eps:g}, delta = 1e-6", f"{t * 1e3:.0f} ms", "<= 0.5 s"))
    return rows


def run_bench(browser: bool = True, notebook: str | None = None) -> int:
    """Print the table; ``notebook`` ("03") limits it to that notebook's rows."""
    rows: list[tuple[str, str, str]] = []
    reports = lesson_reports()
    prefixes = [r.PREFIX for r in reports]
    if notebook is not None and notebook not in prefixes:
        raise ValueError(f"notebook must be one of {prefixes}, got notebook={notebook!r}")
    if notebook is None:
        for noise in ("laplace", "gaussian"):
            for grid in (1, 20):
                rate, raw = sweep_throughput(noise, grid)
                rows.append((f"sweep {noise}, {grid} eps, 1e6 trials: rate / raw numpy rate",
                             f"{rate / raw:.2f} ({rate / 1e6:.0f} M/s vs {raw / 1e6:.0f} M/s)", ">= 0.5"))
    if notebook in (None, "04"):
        rows += sparse_vector_rows()
    if notebook in (None, "05"):
        rows += net_mechanism_rows()
    if notebook in (None, "06"):
        rows += accuracy_first_rows()
    if notebook in (None, "07"):
        rows += reconstruction_rows()
    if notebook in (None, "08"):
        rows += what_epsilon_rows()
    if notebook in (None, "09"):
        rows += data_dependent_rows()
    cases = panel_cases()
    drag_rates: list[float] = []
    for report in reports:
        if notebook is not None and report.PREFIX != notebook:
            continue
        for label, make, steps in cases.get(report.PREFIX, []):
            recompute, full = widget_latency(make, steps)
            rows.append((f"widget {label}: recompute median", f"{recompute * 1e3:.1f} ms", "<= 20 ms"))
            rows.append((f"widget {label}: recompute + redraw median", f"{full * 1e3:.1f} ms",
                         "<= 40 ms (the frame budget)"))
        if report.PREFIX == "03":
            rows += range_query_rows()
        nb = notebook_path(report.NOTEBOOK)
        if browser:
            latency = browser_latency(nb)
            rows.append((f"browser {report.PREFIX}: slider to new plot median",
                         "no /usr/bin/chromium" if latency is None else f"{latency * 1e3:.0f} ms",
                         "<= 300 ms"))
            drag = browser_drag(nb)
            if drag is not None:
                drag_rates.append(drag.frames_per_second)
                rows.append((f"browser {report.PREFIX}: 2 s mouse drag of epsilon: frames per second, "
                             "release to final frame, final frame = released value",
                             f"{drag.frames_per_second:.1f} fps, {drag.release_to_final_ms:.0f} ms, "
                             f"{'yes' if drag.final_matches else 'NO'}", ">= 12 fps (median), <= 150 ms"))
        rows.append((f"nbval {report.NOTEBOOK}", f"{nbval_time(nb):.1f} s", "<= 20 s"))
    if browser:
        rows += present_rows(notebook)
    if len(drag_rates) > 1:
        rows.append(("browser: mouse-drag frames per second, median over the notebooks",
                     f"{statistics.median(drag_rates):.1f} fps", ">= 12 fps"))
    width = max(len(r[0]) for r in rows)
    print(f"{'measure'.ljust(width)} | {'median / ratio':<34} | goal")
    print(f"{'-' * width}-|-{'-' * 34}-|-------")
    for name, value, goal in rows:
        print(f"{name.ljust(width)} | {value:<34} | {goal}")
    return 0
