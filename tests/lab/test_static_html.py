"""`make html`: every notebook as a static page with an index, readable with no server and no
network (issue 12)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from dplab.lab.browser import CHROMIUM, chromium, external_requests, external_resources
from dplab.lab.paths import notebooks_dir
from dplab.lab.present import lessons
from dplab.lab.static_html import EXTRA_PAGES, MATHJAX_URL, PANEL_NOTE, write_html


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("html")
    write_html(notebooks_dir(), out)
    return out


@pytest.mark.slow
def test_every_lesson_and_the_glossary_become_pages_linked_from_the_index(site):
    index = (site / "index.html").read_text()
    links = re.findall(r'<li><a href="([^"]+)"', index)
    assert links == [Path(lesson["path"]).with_suffix(".html").name for lesson in lessons(notebooks_dir())]
    for name in [*links, *(Path(n).with_suffix(".html").name for n in EXTRA_PAGES)]:
        assert (site / name).is_file(), name
        assert f'href="{name}"' in index
    lesson_one = (site / links[0]).read_text()
    assert 'href="00_glossary.html"' in lesson_one and 'href="00_glossary.md"' not in lesson_one
    assert lesson_one.count("<img") >= 3  # the stored figures are in the page
    assert PANEL_NOTE in lesson_one and "VBox(children" not in lesson_one  # a panel's place, explained


@pytest.mark.slow
def test_no_page_asks_another_host_and_mathjax_is_beside_them(site):
    for page in site.glob("*.html"):
        assert not external_resources(page.read_text()), (page.name, external_resources(page.read_text()))
    assert (site / MATHJAX_URL.split("?")[0]).is_file()
    assert MATHJAX_URL in (site / "05_net_mechanism.html").read_text()
    # the pattern sees what nbconvert's own lab template would load from a CDN
    assert external_resources('<script src="https://cdnjs.cloudflare.com/ajax/libs/require.js/2.1/require.js">')
    assert external_resources('const m = (await import("https://cdnjs.cloudflare.com/x.mjs")).default;')
    assert not external_resources('<script src="/voila/static/voila.js"></script><img src="data:,">')


@pytest.mark.browser
def test_a_page_opened_from_disk_typesets_its_formulas_offline(site):
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {CHROMIUM} is missing")
        pytest.skip(f"{CHROMIUM} not installed")
    with chromium() as context:
        page = context.new_page()
        page.goto((site / "05_net_mechanism.html").as_uri())
        page.wait_for_selector(".MathJax_Display", timeout=30_000)  # typeset, not raw LaTeX
        typeset = "window.MathJax && MathJax.Hub.queue.pending === 0 && !MathJax.Hub.queue.running"
        page.wait_for_function(typeset, timeout=30_000)
        source = (notebooks_dir() / "05_net_mechanism.ipynb").read_text()
        assert page.locator(".MathJax_Display").count() == source.count("$$") // 2  # every display formula
        assert page.locator(".MathJax_Error").count() == 0
        assert "Math Processing Error" not in page.locator("body").inner_text()
        assert "\\propto" not in page.locator("body").inner_text()
        page.goto((site / "index.html").as_uri())
        page.locator("li a").first.click()
        page.wait_for_selector("img")
        assert external_requests(context) == []
