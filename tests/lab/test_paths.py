"""The one helper that knows the repository layout."""

from __future__ import annotations

import pytest

from dplab.lab import paths


def test_paths_of_this_checkout():
    root = paths.repo_root()
    assert (root / "pyproject.toml").is_file() and paths.notebooks_dir() == root / "notebooks"
    assert (paths.data_dir() / "yrbss_sex_height_weight.csv").is_file()
    assert paths.notebook_path("01_laplace_vs_gaussian.ipynb").is_file()
    with pytest.raises(FileNotFoundError, match="no notebook"):
        paths.notebook_path("99_missing.ipynb")


def test_installed_without_notebooks_gives_a_clear_error(monkeypatch, tmp_path):
    site = tmp_path / "site-packages" / "dplab" / "data"
    site.mkdir(parents=True)
    monkeypatch.setattr(paths, "data_dir", lambda: site)
    with pytest.raises(FileNotFoundError, match="without its notebooks/.*clone of the repository"):
        paths.repo_root()
