"""`make voila`: Ctrl-C stops the server and leaves no kernel behind (issue 12).

The test fails if the server ignores SIGINT or asks for a confirmation (``make`` would not
return), or if a kernel it started outlives it. Voila is started with ``exec`` so that it, not
a shell, is the process ``make`` waits for."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from dplab.lab.browser import free_port
from dplab.lab.paths import repo_root


def _processes() -> dict[int, tuple[int, int, str]]:
    """pid -> (parent pid, session id, command line) of every process."""
    out = subprocess.run(["ps", "-e", "-o", "pid=,ppid=,sid=,args="], capture_output=True, text=True).stdout
    table = {}
    for line in out.splitlines():
        pid, ppid, sid, *args = line.split(None, 3)
        table[int(pid)] = (int(ppid), int(sid), args[0] if args else "")
    return table


def _tree(root: int) -> set[int]:
    """``root`` and all its descendants (a kernel may run in a session of its own)."""
    table, found = _processes(), {root}
    while True:
        more = {pid for pid, (ppid, _, _) in table.items() if ppid in found} - found
        if not more:
            return found
        found |= more


def _session_processes(sid: int) -> list[str]:
    """The command lines of the processes still in session ``sid``."""
    return [cmd for pid, (_, s, cmd) in _processes().items() if s == sid]


@pytest.mark.slow
def test_ctrl_c_on_make_voila_leaves_no_kernel_behind():
    port = free_port()
    env = dict(os.environ, DPLAB_PROGRESS="0")
    make = subprocess.Popen(["make", "--no-print-directory", "voila", "NB=04", f"VOILA_ARGS=--port={port}"],
                            cwd=repo_root(), start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api", timeout=2)
                break
            except urllib.error.HTTPError:
                break
            except OSError:
                assert time.monotonic() < deadline, "make voila did not start a server"
                time.sleep(0.3)
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=180).read()  # renders: a kernel runs
        table = _processes()
        started = {pid for pid in _tree(make.pid) if "ipykernel" in table[pid][2]}
        assert started, "rendering the notebook started no kernel"
        os.killpg(make.pid, signal.SIGINT)  # what Ctrl-C in the terminal sends to the foreground group
        make.wait(timeout=30)
        deadline = time.monotonic() + 15
        while (started & set(_processes()) or _session_processes(make.pid)) and time.monotonic() < deadline:
            time.sleep(0.3)
        assert not started & set(_processes()), "a kernel outlived the server"
        assert _session_processes(make.pid) == []
    finally:
        if make.poll() is None or _session_processes(make.pid):
            try:
                os.killpg(make.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
