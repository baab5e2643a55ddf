"""Progress bars for long jobs (figures, sweeps): on the terminal and in a live notebook,
never in stored outputs (``make notebooks`` sets DPLAB_PROGRESS=0)."""

from __future__ import annotations

import os
from collections.abc import Iterable

from tqdm.auto import tqdm


def progress(iterable: Iterable, desc: str, total: int | None = None) -> Iterable:
    """Wrap ``iterable`` in a tqdm bar unless DPLAB_PROGRESS=0."""
    disabled = os.environ.get("DPLAB_PROGRESS", "1") == "0"
    return tqdm(iterable, desc=desc, total=total, disable=disabled, leave=False)
