"""Progress bars for long jobs (figures, the strategy optimisation): on the terminal and
in a live notebook, never in stored outputs (``make notebooks`` sets DPLAB_PROGRESS=0)."""

from __future__ import annotations

import os
from collections.abc import Iterable


def progress(iterable: Iterable, desc: str, total: int | None = None) -> Iterable:
    """Wrap ``iterable`` in a tqdm bar unless DPLAB_PROGRESS=0 (tqdm imported only then)."""
    if os.environ.get("DPLAB_PROGRESS", "1") == "0":
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, desc=desc, total=total, leave=False)
