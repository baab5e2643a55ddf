"""A real browser: one ``make present`` server (index, preheated lessons) serves every notebook,
Debian Chromium opens each from the index (a click on its link, the token in a cookie) and moves
its sliders, offline: any request to another host fails, and the module's teardown fails if a
page asked for one.

Skipped with a reason when /usr/bin/chromium is missing on a developer's machine;
fails instead under CI=true, where .ci/run installs it.
"""

from __future__ import annotations

import os
from contextlib import ExitStack
from dataclasses import astuple
from pathlib import Path

import pytest
from playwright.sync_api import expect

from dplab.lab.browser import (
    CHROMIUM,
    chromium,
    external_requests,
    new_context,
    open_lesson,
    slider_step,
    voila_server,
)
from dplab.lab.paths import notebooks_dir
from dplab.lab.present import lessons

NOTEBOOKS = notebooks_dir()
STEP = f"{10**0.05:.3g}"  # one ArrowRight on a log epsilon slider at 1: 10^0.05


@pytest.fixture(scope="module")
def lab():
    """(browser context, server): one ``make present`` server for the module, preheated."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {CHROMIUM} is missing: .ci/run should have installed chromium")
        pytest.skip(f"{CHROMIUM} not installed (apt-get install chromium)")
    with ExitStack() as stack:
        # no refill after a page takes its kernel: it would run each notebook a second time
        server = stack.enter_context(voila_server(NOTEBOOKS, preheat=True, server=True,
                                                  extra=("--VoilaKernelManager.fill_delay=3600",)))
        context = stack.enter_context(chromium())
        yield context, server
        assert external_requests(context) == [], "a page asked another host"


@pytest.mark.browser
def test_a_request_to_another_host_is_seen_and_fails(lab):
    """The teardown's check can fail: a page that asks another host is recorded, and gets nothing."""
    context = new_context(lab[0].browser)
    page = context.new_page()
    page.set_content('<img src="https://cdn.jsdelivr.net/npm/x/logo.png">')
    page.wait_for_timeout(500)
    assert external_requests(context) == ["https://cdn.jsdelivr.net/npm/x/logo.png"]
    assert page.evaluate("document.images[0].naturalWidth") == 0
    context.close()


@pytest.fixture(scope="module")
def pages(lab):
    """open(name) -> that lesson's page, opened from the index (kept for the module)."""
    context, server = lab
    opened = {}

    def open_page(name: str):
        if name not in opened:
            opened[name], _ = open_lesson(context, server.url, name)
        return opened[name]

    return open_page


@pytest.mark.browser
def test_index_lists_every_lesson_in_teaching_order_with_its_title(lab):
    context, server = lab
    page = context.new_page()
    page.goto(server.url)
    expected = lessons(NOTEBOOKS)
    assert len(expected) == len(list(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))) >= 6
    links = page.locator("li a")
    assert links.count() == len(expected)
    for i, lesson in enumerate(expected):
        assert links.nth(i).locator(".title").inner_text() == lesson["title"]
        assert links.nth(i).get_attribute("href").endswith("/voila/render/" + lesson["path"])
    assert [int(links.nth(i).locator(".number").inner_text()) for i in range(links.count())] == sorted(
        lesson["number"] for lesson in expected)
    assert "Laplace vs Gaussian" in links.first.inner_text()
    page.close()


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
    expect(box.locator(".widget-html").first).to_contain_text(f"ε = {STEP}", timeout=10_000)
    _, back, _ = slider_step(page, "epsilon", key="ArrowLeft")
    assert float(back) == pytest.approx(1.0, rel=0.01)


def _browser_steps() -> list:
    """(notebook, panel, slider, readout, text) of every panel step the lessons declare (views.PANELS)."""
    from dplab.lab.registry import lesson_panels, lesson_reports

    notebooks = {report.PREFIX: report.NOTEBOOK for report in lesson_reports()}
    return [pytest.param(notebooks[prefix], *astuple(case.browser), id=case.label)
            for prefix, cases in lesson_panels().items() for case in cases if case.browser is not None]


@pytest.mark.browser
@pytest.mark.parametrize("notebook, panel, slider, readout, text", _browser_steps())
def test_slider_redraws_panel(pages, notebook, panel, slider, readout, text):
    page = pages(notebook)
    box = page.locator(".dplab-panel").nth(panel)
    before = box.locator("img").first.get_attribute("src")
    _, shown, src = slider_step(page, slider, panel=panel)
    assert src != before
    assert shown == readout or float(shown) == pytest.approx(float(readout), rel=0.01)
    # the readout is a widget message of its own, sent after the image's: wait for it too
    expect(box.locator(".widget-html").first).to_contain_text(text, timeout=10_000)

