"""A real browser: Voila serves each notebook, Debian Chromium moves its sliders.

Skipped with a reason when /usr/bin/chromium is missing on a developer's machine;
fails instead under CI=true, where .ci/run installs it.
"""

from __future__ import annotations

import os
from contextlib import ExitStack
from pathlib import Path

import pytest

from dplab.lab.browser import CHROMIUM, chromium, open_panels, slider_step, voila_server
from dplab.lab.paths import notebooks_dir

NOTEBOOKS = notebooks_dir()
STEP = f"{10**0.05:.3g}"  # one ArrowRight on a log epsilon slider at 1: 10^0.05


@pytest.fixture(scope="module")
def pages():
    """open(name) -> a page of that notebook served by its own Voila (kept for the module)."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {CHROMIUM} is missing: .ci/run should have installed chromium")
        pytest.skip(f"{CHROMIUM} not installed (apt-get install chromium)")
    opened = {}
    with ExitStack() as stack:
        context = stack.enter_context(chromium())

        def open_page(name: str):
            if name not in opened:
                url = stack.enter_context(voila_server(NOTEBOOKS / name))
                opened[name] = open_panels(context, url)
            return opened[name]

        yield open_page


@pytest.mark.browser
def test_epsilon_slider_redraws_plot_and_readout(pages):
    page = pages("01_laplace_vs_gaussian.ipynb")
    box = page.locator(".dplab-panel").first
    readout = box.locator(".widget-slider .widget-readout").first.inner_text()
    assert float(readout) == 1.0
    before = box.locator("img").first.get_attribute("src")
    _, new_readout, src = slider_step(page, "epsilon")  # waits for a new plot image
    assert src != before
    assert float(new_readout) == pytest.approx(10**0.05, rel=0.01)
    assert f"ε = {STEP}" in box.locator(".widget-html").first.inner_text()
    _, back, _ = slider_step(page, "epsilon", key="ArrowLeft")
    assert float(back) == pytest.approx(1.0, rel=0.01)


@pytest.mark.browser
@pytest.mark.parametrize("notebook, panel, slider, readout, text", [
    ("01_laplace_vs_gaussian.ipynb", 1, "k", "11", "k = 11"),
    ("02_bmi_parallel_composition.ipynb", 0, "epsilon", STEP, f"ε = {STEP}"),
    ("03_hierarchy_vs_flat_range_queries.ipynb", 0, "k", "512", "k = 512"),
    ("04_above_threshold_proof.ipynb", 0, "epsilon", STEP, f"ε = {STEP}"),
    ("05_net_mechanism.ipynb", 0, "epsilon", STEP, f"ε = {STEP}"),
    ("06_adaptive_filters.ipynb", 0, "epsilon", "1.587", "ε = 1.59"),
])
def test_slider_redraws_panel(pages, notebook, panel, slider, readout, text):
    page = pages(notebook)
    box = page.locator(".dplab-panel").nth(panel)
    before = box.locator("img").first.get_attribute("src")
    _, shown, src = slider_step(page, slider, panel=panel)
    assert src != before
    assert shown == readout or float(shown) == pytest.approx(float(readout), rel=0.01)
    assert text in box.locator(".widget-html").first.inner_text()
