"""Drive a notebook's sliders in a real browser: Voila serves it, Chromium shows it.

Used by the browser test and by ``make bench`` (slider-to-new-plot latency), so
both measure the same thing. Needs the test extras (voila, playwright) and Debian's
``/usr/bin/chromium``; Playwright never downloads a browser of its own here.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
    "--disable-quic",
]

__all__ = ["CHROMIUM", "chromium", "chromium_page", "free_port", "open_panels", "slider_step",
           "voila_server"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def voila_server(notebook: str | Path, timeout: float = 120.0):
    """Start Voila on ``notebook`` (127.0.0.1, a free port); yield its URL; stop it by pid."""
    port = free_port()
    log = tempfile.TemporaryFile()
    env = dict(os.environ, DPLAB_PROGRESS="0", MPLBACKEND="module://matplotlib_inline.backend_inline")
    proc = subprocess.Popen(
        [sys.executable, "-m", "voila", str(notebook), "--no-browser", f"--port={port}",
         "--Voila.ip=127.0.0.1"],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"voila exited with {proc.returncode}:\n{log.read().decode()[-3000:]}")
            try:
                urllib.request.urlopen(url + "api", timeout=2)
                break
            except urllib.error.HTTPError:  # any HTTP answer: the server is up
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"voila did not answer on {url} within {timeout} s") from None
                time.sleep(0.3)
        yield url
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)  # the server and the kernels it started
            proc.wait(timeout=15)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()


@contextmanager
def chromium():
    """Headless Debian Chromium through Playwright (one browser context); yields the context."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
            viewport={"width": 1400, "height": 1000},
        )
        try:
            yield context
        finally:
            context.close()


def open_panels(context, url: str, timeout_ms: float = 180_000):
    """A new page on ``url``, returned once its first slider panel has drawn its plot."""
    page = context.new_page()
    page.set_default_timeout(timeout_ms)
    page.goto(url)
    page.wait_for_selector(".dplab-panel .noUi-handle")
    page.wait_for_selector(".dplab-panel img")
    return page


@contextmanager
def chromium_page(url: str, timeout_ms: float = 180_000):
    """Open ``url`` in a fresh headless Chromium; yield the page once its panels are up."""
    with chromium() as context:
        yield open_panels(context, url, timeout_ms)


def slider_step(page, description: str, panel: int = 0, key: str = "ArrowRight") -> tuple[float, str, str]:
    """Press ``key`` on the slider labelled ``description`` in panel number ``panel``;
    wait for the panel's plot image to change. Returns (seconds, readout, image src)."""
    box = page.locator(".dplab-panel").nth(panel)
    slider = box.locator(".widget-slider", has=page.locator(f"label:text-is('{description}')"))
    image = box.locator("img").first
    before = image.get_attribute("src")
    handle = slider.locator(".noUi-handle").first
    handle.focus()
    start = time.perf_counter()
    handle.press(key)
    page.wait_for_function(
        "([el, old]) => el.getAttribute('src') !== old", arg=[image.element_handle(), before]
    )
    elapsed = time.perf_counter() - start
    readout = slider.locator(".widget-readout").first.inner_text()
    return elapsed, readout, image.get_attribute("src")
