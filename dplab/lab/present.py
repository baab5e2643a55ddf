"""``make present``: every lesson as a Voila app, from an index in teaching order.

One Voila server on 127.0.0.1 with a token serves ``notebooks/``:

- the index (``/``) lists the lessons in teaching order with their titles and times (the
  template ``dplab`` in ``dplab/lab/jupyter/voila/templates/``; Voila's own tree lists file
  names);
- every lesson has a preheated kernel (Voila's ``preheat_kernel``, a pool of one per notebook)
  that has already run the notebook, so a lesson opened after warm-up shows its plots at once;
- the warm-ups are staggered: Voila 0.5 starts every notebook's warm-up at once (every notebook
  run at the same time on two cores), and no setting changes that, so its kernel-manager factory
  is wrapped: at most ``slots`` warm-ups run at a time, in teaching order, and a lesson a page is
  waiting for starts at once instead of queueing (it gets the pool's kernel, not a cold one). The
  refill Voila starts a second after a page takes its kernel queues the same way. The server logs
  ``dplab: <notebook> warming``, then ``dplab: <notebook> warm after N s`` (or ``failed ...``, or
  ``opened by a page while warming ...``), and ``dplab: warm-up done: ...`` after the first round;
- nothing is fetched from another host: the template drops the two CDN stylesheets Voila's
  page links (their Font Awesome is bundled in Voila's own script) and MathJax is Voila's
  bundled copy;
- Ctrl-C stops the server, which shuts every kernel down (``make present`` execs this process),
  and no queued warm-up starts a kernel meanwhile;
- the projector style (``--projector`` or ``DPLAB_PROJECTOR=1``) reaches the kernels through
  the environment (:mod:`dplab.lab.plots` scales the figures) and the pages through the template.

``python -m dplab present NOTEBOOK`` serves one notebook the same way (``make voila NB=...``).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from collections import Counter
from pathlib import Path

__all__ = ["WarmTurns", "lessons", "main", "notebook_target", "template_root", "use_templates", "voila_argv",
           "warm_counts", "warm_up_done"]

TEMPLATE = "dplab"
#: seconds after which a warm-up that has not finished gives its turn to the next
WARM_TIMEOUT = 300.0


def template_root() -> Path:
    """The folder of dplab's Jupyter templates: ``voila/templates/dplab`` (make present) and
    ``nbconvert/templates/dplab_static`` (make html)."""
    return Path(__file__).with_name("jupyter")


def use_templates() -> None:
    """Put :func:`template_root` first on ``JUPYTER_PATH`` (Voila and nbconvert look there)."""
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        p for p in (str(template_root()), os.environ.get("JUPYTER_PATH", "")) if p)


def lessons(folder: str | Path) -> list[dict]:
    """The notebooks ``NN_*.ipynb`` of ``folder`` in teaching order (their number), one line of the
    index each: ``number``, ``title`` (its first heading), ``time`` (what its intro states,
    ``**Time:** about 40 minutes``, up to a breakdown after a comma, colon or bracket), ``path``
    (its file name) and ``link`` (from the server's root).
    Plain dicts: they go into the page config as JSON."""
    found = []
    for path in sorted(Path(folder).glob("[0-9][0-9]_*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        text = "".join(cells[0]["source"]) if cells and cells[0]["cell_type"] == "markdown" else ""
        heading = re.search(r"^#\s+(?:\d+\.\s*)?(.+)$", text, re.MULTILINE)
        spent = re.search(r"\*\*Time:\*\*\s*([^\n,:;(]+?)\.?\s*(?:[,:;(]|$)", text, re.MULTILINE)
        found.append({"number": int(path.name[:2]), "path": path.name, "link": f"voila/render/{path.name}",
                      "title": heading.group(1).strip() if heading else path.stem,
                      "time": spent.group(1).strip() if spent else ""})
    return found


class WarmTurns:
    """At most ``slots`` warm-ups at a time, the first in teaching order (the smallest name) among
    those waiting first: the warm-ups queued together at start run 01, 02, 03, ... A warm-up a
    page is waiting for (``hurry``) does not queue: it starts at once, beside the others (a page
    is foreground work); the queue then waits until fewer than ``slots`` run."""

    def __init__(self, slots: int = 1):
        if slots < 1:
            raise ValueError(f"slots must be >= 1, got slots={slots}")
        self.slots = slots
        self.holding: Counter[str] = Counter()  # warm-ups holding a turn, by notebook
        self._queue: list[tuple[str, asyncio.Future]] = []
        self._urgent: set[str] = set()  # hurried before they queued (a refill in its delay)
        self._closed = False

    async def acquire(self, name: str) -> None:
        """Wait for a turn; raises RuntimeError once the turns are closed (the server stops)."""
        if self._closed:
            raise RuntimeError(f"no warm-up of {name}: the server is stopping")
        if name in self._urgent:
            self._urgent.discard(name)
            self.holding[name] += 1
            return
        loop = asyncio.get_running_loop()
        turn = loop.create_future()
        self._queue.append((name, turn))
        loop.call_soon(self._dispatch)  # after the others queued in this round of the loop
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.release(name)  # granted, then cancelled: pass the turn on
            else:
                self._queue = [(n, t) for n, t in self._queue if t is not turn]
            raise

    @property
    def running(self) -> int:
        return self.holding.total()

    def release(self, name: str) -> None:
        """``name``'s warm-up has finished (or failed, or was cut short): the next may start."""
        if self.holding[name] <= 0:
            raise ValueError(f"name must hold a turn, got name={name!r}")
        self.holding[name] -= 1
        if not self.holding[name]:
            del self.holding[name]
        self._dispatch()

    def close(self) -> None:
        """No more turns: every waiting warm-up fails with RuntimeError (an Exception, which
        Voila's ``shutdown_all`` expects of a pool task, where a cancellation would escape it)."""
        self._closed = True
        queue, self._queue = self._queue, []
        for name, turn in queue:
            if not turn.done():
                turn.set_exception(RuntimeError(f"no warm-up of {name}: the server is stopping"))

    def hurry(self, name: str) -> None:
        """A page waits for ``name``'s warm-up: it starts now, whether queued or about to queue
        (nothing to do if it runs already)."""
        if self.holding[name]:
            return
        for i, (queued, turn) in enumerate(self._queue):
            if queued == name and not turn.done():
                del self._queue[i]
                self.holding[name] += 1
                turn.set_result(None)
                return
        self._urgent.add(name)

    def _dispatch(self) -> None:
        while self.running < self.slots and self._queue:
            name, turn = self._queue.pop(min(range(len(self._queue)), key=lambda i: self._queue[i][0]))
            if not turn.done():
                self.holding[name] += 1
                turn.set_result(None)


def warm_counts(log: str) -> tuple[int, int]:
    """(warm-ups started, warm-ups ended, however) in the server's log."""
    return (len(re.findall(r"dplab: \S+ warming$", log, re.M)),
            len(re.findall(r"dplab: \S+ .* after [\d.]+ s$", log, re.M)))


def warm_up_done(log: str) -> tuple[int, float] | None:
    """(notebooks, seconds) once the server's log says the first round of warm-ups is done."""
    done = re.search(r"dplab: warm-up done: (\d+) notebooks in ([\d.]+) s", log)
    return (int(done.group(1)), float(done.group(2))) if done else None


def notebook_target(notebook: str | None) -> Path:
    """What to serve: every lesson (``None`` or a folder), or one notebook by number (``"03"``) or path."""
    from dplab.lab.paths import notebooks_dir

    if not notebook:
        return notebooks_dir()
    if Path(notebook).exists():
        return Path(notebook)
    matches = sorted(notebooks_dir().glob(f"{notebook}*.ipynb"))
    if len(matches) != 1:
        names = ", ".join(p.name for p in sorted(notebooks_dir().glob("[0-9][0-9]_*.ipynb")))
        raise ValueError(f"notebook must be a notebook's number or path, got notebook={notebook!r} "
                         f"({len(matches)} matches; the lessons: {names})")
    return matches[0]


def _staggered(factory, slots: int):
    """Wrap Voila's kernel-manager factory so that warm-ups take turns (see :class:`WarmTurns`)."""

    def make(base, preheat_kernel, default_pool_size, **kwargs):
        manager = factory(base, preheat_kernel, default_pool_size, **kwargs)
        if not preheat_kernel:
            return manager

        class StaggeredKernelManager(manager):
            def __init__(self, **kw):
                self._turns = WarmTurns(slots)
                self._started = time.monotonic()
                self._first_round: set[str] | None = None
                super().__init__(**kw)
                self._first_round = set(self._pools)
                for name in self._pools:  # a page opened before its warm-up started takes the pool's
                    self.notebook_data.setdefault(name, {"kernel_ids": set()})  # kernel, not a cold one

            async def _initialize(self, notebook_path, kernel_id=None, **kw):
                if kernel_id is not None:  # a restart of a kernel in use, not a warm-up
                    return await super()._initialize(notebook_path, kernel_id, **kw)
                await self._turns.acquire(notebook_path)
                start = time.monotonic()
                released = False

                def done(outcome: str) -> None:
                    nonlocal released
                    if released:
                        return
                    released = True
                    self._turns.release(notebook_path)
                    seconds = time.monotonic() - start
                    self.log.info("dplab: %s %s after %.1f s", notebook_path, outcome, seconds)
                    if self._first_round is not None and notebook_path in self._first_round:
                        self._first_round.discard(notebook_path)
                        if not self._first_round:
                            self.log.info("dplab: warm-up done: %d notebooks in %.1f s", len(self._pools),
                                          time.monotonic() - self._started)

                self.log.info("dplab: %s warming", notebook_path)
                # a cell that never ends must not stop every later warm-up: its turn passes on
                handle = asyncio.get_running_loop().call_later(WARM_TIMEOUT, done,
                                                               "still warming: turn passed on")
                try:
                    content = await super()._initialize(notebook_path, kernel_id, **kw)
                except BaseException as error:
                    handle.cancel()
                    done(f"failed to start ({error!r})")
                    raise
                renderer = content["renderer"]
                data = self.notebook_data[notebook_path]
                for key, value in (("notebook", renderer.notebook), ("template", renderer.template_name),
                                   ("theme", renderer.theme),
                                   ("kernel_name", renderer.notebook.metadata.kernelspec.name)):
                    data.setdefault(key, value)

                def finished(task: asyncio.Task) -> None:
                    handle.cancel()
                    if task.cancelled() or task.exception() is not None:
                        done(f"failed ({'cancelled' if task.cancelled() else repr(task.exception())})")
                    elif renderer.stop_generator:
                        done("opened by a page while warming, handed over")
                    else:
                        done("warm")

                content["task"].add_done_callback(finished)
                return content

            async def shutdown_all(self, *args, **kw):
                self._turns.close()  # no queued warm-up starts a kernel while the server stops
                await super().shutdown_all(*args, **kw)

            async def get_rendered_notebook(self, notebook_name, *args, **kw):
                pool = self._pools.get(notebook_name, [])
                if pool and not pool[0].done():  # a page waits for its warm-up
                    self._turns.hurry(notebook_name)
                return await super().get_rendered_notebook(notebook_name, *args, **kw)

        return StaggeredKernelManager

    return make


def _page_config_hook(folder: Path, projector: bool):
    index = lessons(folder)

    def hook(page_config, **kwargs):
        if not str(kwargs.get("notebook_path") or "").endswith(".ipynb"):  # the index, not a lesson
            page_config["dplabLessons"] = index
        page_config["dplabProjector"] = projector
        return page_config  # a lesson's renderer uses what the hook returns

    return hook


def voila_argv(target: str | Path, *, preheat: bool = True) -> list[str]:
    """Voila's command line for ``target`` (a folder: the index and every lesson; or one
    notebook): 127.0.0.1, the dplab template, a token Voila makes and prints in the URL (a later
    ``--Voila.token=...`` sets one), one preheated kernel per notebook."""
    argv = [str(target), "--no-browser", "--Voila.ip=127.0.0.1", f"--template={TEMPLATE}",
            "--VoilaConfiguration.classic_tree=True", "--Voila.auto_token=True"]
    if preheat:
        argv += ["--preheat_kernel=True", "--pool_size=1"]
    return argv


def main(target: str | Path | None = None, extra: list[str] | None = None, *, slots: int = 1,
         preheat: bool = True, projector: bool | None = None) -> int:
    """Serve ``target`` (default: the checkout's ``notebooks/``) in this process until Ctrl-C.
    ``projector=None``: as ``DPLAB_PROJECTOR`` says (:func:`dplab.lab.plots.projector_mode`)."""
    from traitlets.config import Config
    from voila import app

    from dplab.lab.paths import notebooks_dir
    from dplab.lab.plots import projector_mode

    if projector is None:
        projector = projector_mode()
    target = Path(target) if target else notebooks_dir()
    folder = target if target.is_dir() else target.parent
    use_templates()
    os.environ["DPLAB_PROGRESS"] = "0"  # no progress bars in a lesson's page
    os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"  # the kernels' plots
    if projector:
        os.environ["DPLAB_PROJECTOR"] = "1"
    app.voila_kernel_manager_factory = _staggered(app.voila_kernel_manager_factory, slots)
    config = Config()
    config.VoilaConfiguration.page_config_hook = _page_config_hook(folder, projector)
    if projector:  # the lesson pages' larger text (the template reads it)
        config.VoilaConfiguration.resources = {"dplab_projector": True}
    argv = voila_argv(target, preheat=preheat) + list(extra or [])
    app.Voila.launch_instance(argv=argv, config=config)
    return 0
