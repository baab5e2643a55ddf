"""Where things are: the one place that knows the repository layout.

The library reads its data through ``importlib.resources``; the lab also writes
(figures, the optimised strategy, stored notebooks), which needs the checkout.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["data_dir", "figures_dir", "notebook_path", "notebooks_dir", "package_dir", "repo_root"]


def data_dir() -> Path:
    """The folder of the data shipped with the package (``dplab/data``)."""
    return Path(str(resources.files("dplab.data")))


def repo_root() -> Path:
    """The checkout that holds ``notebooks/`` beside the ``dplab`` package.

    Raises a clear error when dplab was installed without its notebooks (e.g. from a
    wheel): figures, notebooks and benchmarks need a clone of the repository.
    """
    root = data_dir().parents[1]
    if not (root / "notebooks").is_dir() or not (root / "pyproject.toml").is_file():
        raise FileNotFoundError(
            f"dplab is installed at {root} without its notebooks/: the lab's commands need a "
            "clone of the repository installed with `pip install -e .` (or `make lab`)"
        )
    return root


def notebooks_dir() -> Path:
    return repo_root() / "notebooks"


def figures_dir() -> Path:
    return repo_root() / "figures"


def notebook_path(name: str) -> Path:
    """``notebooks/<name>``, which must exist."""
    path = notebooks_dir() / name
    if not path.is_file():
        raise FileNotFoundError(f"no notebook {name!r} in {notebooks_dir()}")
    return path


def package_dir() -> Path:
    """The ``dplab`` package folder (its source files)."""
    return Path(str(resources.files("dplab")))
