"""``python -m dplab bench``: the performance table (medians and ratios, never timed tests).

Rows: Monte Carlo sweep throughput as a ratio to the raw numpy generator rate
measured in the same run (goal >= 0.5); widget callback medians without a browser
(recompute <= 20 ms, recompute + redraw <= 40 ms, the frame budget); the browser slider-to-new-plot
median (goal <= 300 ms); each lesson's report rows (goal <= 15 s) and nbval time per notebook
(goal <= 30 s: the budgets that keep ``make test`` within 8 minutes at twelve notebooks);
``make present``: the warm-up time, each lesson's first plot after warm-up (goal <= 3 s) and a
slider step while its refill runs.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from dplab.lab.paths import notebook_path
from dplab.lab.registry import lesson_bench, lesson_panels, lesson_reports
from dplab.lab.timing import median_time
from dplab.simulate import ScaledErrors

TRIALS = 1_000_000


def sweep_throughput(noise: str, grid_points: int) -> tuple[float, float]:
    """(sweep noise samples per second, raw generator samples per second).

    The sweep draws TRIALS standard errors once and evaluates MSE, MAE and a tail
    probability with intervals at ``grid_points`` epsilons: TRIALS * grid_points
    noise samples' worth of estimates.
    """
    rng = np.random.default_rng(0)
    raw = rng.laplace if noise == "laplace" else rng.standard_normal
    raw_time = median_time(lambda: raw(size=TRIALS) if noise != "laplace" else raw(0, 1, TRIALS))
    scales = 1 / np.geomspace(0.05, 5, grid_points)

    def sweep():
        errs = ScaledErrors.draw(noise, TRIALS, rng=1)
        errs.mse(scales)
        errs.mae(scales)
        errs.exceed(scales, 3 * scales)

    return TRIALS * grid_points / median_time(sweep), TRIALS / raw_time


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


def bench_slider(page, prefix: str) -> tuple[str, int]:
    """(description, panel) of the slider the browser rows move: the first panel's epsilon slider, or in a
    lesson without one (12: its panel moves the noise σ) the slider its browser test steps."""
    from dplab.lab.browser import slider_panel

    for name in ("epsilon", *(case.browser.slider for case in lesson_panels()[prefix] if case.browser)):
        try:
            return name, slider_panel(page, name)
        except LookupError:
            continue
    raise LookupError(f"lesson {prefix}: no epsilon slider and no browser step in views.PANELS")


def browser_latency(notebook: Path, prefix: str, steps: int = 10) -> float | None:
    """Median seconds from a slider key press to a new plot image in Chromium (None: no browser)."""
    from dplab.lab.browser import CHROMIUM, chromium_page, slider_step, voila_server

    if not Path(CHROMIUM).exists():
        return None
    times = []
    with voila_server(notebook) as url, chromium_page(url) as page:
        name, panel = bench_slider(page, prefix)
        for i in range(steps):
            key = "ArrowRight" if i % 2 == 0 else "ArrowLeft"
            elapsed, _, _ = slider_step(page, name, panel, key=key)
            times.append(elapsed)
    return statistics.median(times)


def browser_drag(notebook: Path, prefix: str):
    """(slider, result) of a 2 s mouse drag of that slider in Chromium (None: no browser)."""
    from dplab.lab.browser import CHROMIUM, chromium_page, slider_drag, voila_server

    if not Path(CHROMIUM).exists():
        return None
    with voila_server(notebook) as url, chromium_page(url) as page:
        name, panel = bench_slider(page, prefix)
        return name, slider_drag(page, name, panel)


def present_rows(only: str | None = None, steps: int = 10) -> list[tuple[str, str, str]]:
    """``make present`` in Chromium: the warm-up (every lesson run once, one at a time); then, per
    lesson, from a click on the index to its first plot, and the median slider step (key press to
    new plot) while that lesson's refill runs (Voila re-runs the notebook to refill the pool a
    second after a page takes its kernel). Before each lesson, every warm-up has finished."""
    from dplab.lab.browser import CHROMIUM, chromium, open_lesson, slider_step, voila_server
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
            name, panel = bench_slider(page, lesson["path"][:2])
            times = [slider_step(page, name, panel, key="ArrowRight" if i % 2 == 0 else "ArrowLeft")[0]
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
    panels, bench = lesson_panels(), lesson_bench()
    drag_rates: list[float] = []
    for report in reports:
        if notebook is not None and report.PREFIX != notebook:
            continue
        for rows_of in bench.get(report.PREFIX, ()):
            rows += rows_of()
        for case in panels[report.PREFIX]:
            recompute, full = widget_latency(case.make, case.sweep)
            rows.append((f"widget {case.label}: recompute median", f"{recompute * 1e3:.1f} ms", "<= 20 ms"))
            rows.append((f"widget {case.label}: recompute + redraw median", f"{full * 1e3:.1f} ms",
                         "<= 40 ms (the frame budget)"))
        nb = notebook_path(report.NOTEBOOK)
        if browser:
            latency = browser_latency(nb, report.PREFIX)
            rows.append((f"browser {report.PREFIX}: slider to new plot median",
                         "no /usr/bin/chromium" if latency is None else f"{latency * 1e3:.0f} ms",
                         "<= 300 ms"))
            if (dragged := browser_drag(nb, report.PREFIX)) is not None:
                slider, drag = dragged
                drag_rates.append(drag.frames_per_second)
                rows.append((f"browser {report.PREFIX}: 2 s mouse drag of {slider}: frames per second, "
                             "release to final frame, final frame = released value",
                             f"{drag.frames_per_second:.1f} fps, {drag.release_to_final_ms:.0f} ms, "
                             f"{'yes' if drag.final_matches else 'NO'}", ">= 12 fps (median), <= 150 ms"))
        rows.append((f"report rows {report.PREFIX} (evaluated once, fresh caches)",
                     f"{median_time(report.report_rows, repeat=1):.1f} s", "<= 15 s"))
        rows.append((f"nbval {report.NOTEBOOK}", f"{nbval_time(nb):.1f} s", "<= 30 s"))
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
