"""Drive a notebook's sliders in a real browser: Voila serves it, Chromium shows it.

Used by the browser test and by ``make bench`` (slider-to-new-plot latency), so
both measure the same thing. Needs the test extras (voila, playwright) and Debian's
``/usr/bin/chromium``; Playwright never downloads a browser of its own here.
"""

from __future__ import annotations

import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
    "--disable-quic",
]

#: no request leaves the machine: every host but 127.0.0.1 fails to resolve (a page that asks a CDN
#: would stay unstyled in a classroom without internet, so the tests must see that request fail)
OFFLINE_ARGS = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
_LOCAL = re.compile(r"^(https?|wss?)://127\.0\.0\.1[:/]|^(data|blob|about|file):")

#: what in a page's HTML would fetch from another host: a link, script, image or frame, or a module import
EXTERNAL_RESOURCE = re.compile(
    r"""<(?:link|script|img|iframe)\b[^>]*\b(?:href|src)=["']?(?:https?:)?//(?!127\.0\.0\.1[:/])"""
    r"""|import\(\s*["'](?:https?:)?//(?!127\.0\.0\.1[:/])""")

__all__ = ["CHROMIUM", "EXTERNAL_RESOURCE", "DragResult", "Server", "chromium", "chromium_page",
           "external_resources", "external_requests", "free_port", "new_context", "open_lesson",
           "open_panels", "slider_drag", "slider_step", "voila_server", "wait_until_serving"]


def external_resources(html: str) -> list[str]:
    """The places in ``html`` that would fetch from another host (:data:`EXTERNAL_RESOURCE`)."""
    return [m.group(0) for m in EXTERNAL_RESOURCE.finditer(html)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_serving(root: str, proc: subprocess.Popen, timeout: float = 120.0,
                       log: Path | None = None) -> None:
    """Wait until the server ``proc`` started answers HTTP on ``root`` (any answer, a login
    redirect included); raise if it exits first (with the end of ``log``) or after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            tail = log.read_text(errors="replace")[-3000:] if log else ""
            raise RuntimeError(f"the server exited with {proc.returncode}:\n{tail}")
        try:
            urllib.request.urlopen(root + "api", timeout=2)
            return
        except urllib.error.HTTPError:  # any HTTP answer: the server is up
            return
        except OSError:
            if time.monotonic() > deadline:
                raise TimeoutError(f"no server answered on {root} within {timeout} s") from None
            time.sleep(0.3)


@dataclass
class Server:
    """A running ``python -m dplab present``: its root URL with the token, and its log."""

    url: str
    log: Path

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def voila_server(target: str | Path, timeout: float = 120.0, *, preheat: bool = False,
                 server: bool = False, extra: tuple[str, ...] = ()):
    """Serve ``target`` (a notebook, or a folder: the index and every lesson) the way ``make present``
    does (127.0.0.1, a free port, a token, the offline template); yield the URL to open (with the
    token), or the :class:`Server` when ``server=True``. Stops the server and its kernels by pid."""
    port, token = free_port(), secrets.token_hex(16)
    with tempfile.TemporaryDirectory() as folder:
        log_path = Path(folder) / "voila.log"
        log = open(log_path, "wb")  # noqa: SIM115 -- closed in finally
        env = dict(os.environ, DPLAB_PROGRESS="0")
        cmd = [sys.executable, "-m", "dplab", "present", str(target), f"--Voila.port={port}",
               f"--Voila.token={token}", *extra]
        if not preheat:
            cmd.append("--no-preheat")
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env)
        root = f"http://127.0.0.1:{port}/"
        try:
            wait_until_serving(root, proc, timeout, log_path)
            found = Server(f"{root}?token={token}", log_path)
            yield found if server else found.url
        finally:
            try:
                os.killpg(proc.pid, signal.SIGTERM)  # the server and the kernels it started
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            except ProcessLookupError:  # it had stopped already
                proc.wait()
            log.close()


@contextmanager
def chromium():
    """Headless Debian Chromium through Playwright (one browser context); yields the context.
    Offline: other hosts do not resolve, and every request to one is recorded
    (:func:`external_requests`)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS + OFFLINE_ARGS,
                                    headless=True)
        try:
            yield new_context(browser)
        finally:
            browser.close()


_EXTERNAL: dict[int, list[str]] = {}


def new_context(browser):
    """A fresh browser context (its own cookies) of ``browser`` that records requests to other hosts."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    _EXTERNAL[id(context)] = external = []
    context.on("request", lambda request: _LOCAL.match(request.url) or external.append(request.url))
    context.on("close", lambda _: _EXTERNAL.pop(id(context), None))
    return context


def external_requests(context) -> list[str]:
    """The URLs of other hosts that pages of ``context`` asked for (none reached them)."""
    return list(_EXTERNAL[id(context)])


def _panels_drawn(page) -> None:
    page.wait_for_selector(".dplab-panel .noUi-handle")
    page.wait_for_selector(".dplab-panel img")


def open_panels(context, url: str, timeout_ms: float = 180_000):
    """A new page on ``url``, returned once its first slider panel has drawn its plot."""
    page = context.new_page()
    page.set_default_timeout(timeout_ms)
    page.goto(url)
    _panels_drawn(page)
    return page


def open_lesson(context, index_url: str, notebook: str, timeout_ms: float = 180_000):
    """Open the ``make present`` index at ``index_url`` (with its token: the server answers with a
    cookie), click the lesson ``notebook``'s link; return (page, seconds from the click until its
    first panel has drawn its plot)."""
    page = context.new_page()
    page.set_default_timeout(timeout_ms)
    page.goto(index_url)
    start = time.perf_counter()
    page.locator(f"a[href$='/{notebook}']").click()
    _panels_drawn(page)
    return page, time.perf_counter() - start


@contextmanager
def chromium_page(url: str, timeout_ms: float = 180_000):
    """Open ``url`` in a fresh headless Chromium; yield the page once its panels are up."""
    with chromium() as context:
        yield open_panels(context, url, timeout_ms)


def slider_panel(page, description: str) -> int:
    """The number of the first panel with a slider labelled ``description`` (a lesson's first panel
    may have no epsilon slider: notebook 7's first panel moves the noise)."""
    panels = page.locator(".dplab-panel")
    panels.first.wait_for()
    for i in range(panels.count()):
        if panels.nth(i).locator(f"label:text-is('{description}')").count():
            return i
    raise LookupError(f"no panel has a slider labelled {description!r}")


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


@dataclass
class DragResult:
    """What a mouse drag of a slider showed: plot frames per second during the drag, the delay
    from release to the last frame, whether the last frame is the released value's."""

    frames: int
    seconds: float
    release_to_final_ms: float
    final_matches: bool

    @property
    def frames_per_second(self) -> float:
        return self.frames / self.seconds


def _slider(page, description: str, panel: int):
    box = page.locator(".dplab-panel").nth(panel)
    return box, box.locator(".widget-slider", has=page.locator(f"label:text-is('{description}')"))


def slider_drag(page, description: str, panel: int = 0, seconds: float = 2.0, moves: int = 80,
                settle_ms: float = 1500.0) -> DragResult:
    """Drag the slider labelled ``description`` with the mouse for ``seconds``, sweeping back and
    forth between 5% and 95% of its track (so the hand always offers new values faster than a
    plot can follow), counting the new plot images shown meanwhile (a MutationObserver on the
    image's src); release at 90% and wait ``settle_ms``: the delay from release to the last new
    image, and whether the readout then names the slider's released value."""
    box, slider = _slider(page, description, panel)
    image = box.locator("img").first
    page.evaluate(
        "(img) => { window.__dplabFrames = []; new MutationObserver(() => "
        "window.__dplabFrames.push(performance.now())).observe(img, {attributes: true, "
        "attributeFilter: ['src']}); }",
        image.element_handle(),
    )
    slider.scroll_into_view_if_needed()
    page.wait_for_timeout(200)
    handle = slider.locator(".noUi-handle").first.bounding_box()
    track = slider.locator(".noUi-target").first.bounding_box()
    y = handle["y"] + handle["height"] / 2
    low, high = track["x"] + 0.05 * track["width"], track["x"] + 0.95 * track["width"]
    page.mouse.move(handle["x"] + handle["width"] / 2, y)
    page.mouse.down()
    start = page.evaluate("performance.now()")
    for i in range(moves):
        phase = (i % 20) / 20  # a full sweep there and back every 20 moves
        x = low + (high - low) * (1 - abs(2 * phase - 1))
        page.mouse.move(x, y)
        page.wait_for_timeout(1000 * seconds / moves)
    page.mouse.move(track["x"] + 0.9 * track["width"], y)
    released = page.evaluate("performance.now()")
    page.mouse.up()
    page.wait_for_timeout(settle_ms)
    frames = page.evaluate("window.__dplabFrames")
    during = [f for f in frames if start <= f <= released]
    after = [f for f in frames if f > released]
    value = slider.locator(".widget-readout").first.inner_text().strip()
    text = box.locator(".widget-html").first.inner_text()
    return DragResult(len(during), (released - start) / 1000, (max(after) - released) if after else 0.0,
                      value in text or f"{float(value):.3g}" in text)
