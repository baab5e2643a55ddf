"""Shared fixtures: the formula report's rows are computed once per test session."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def report_rows():
    """Every lesson's report rows, evaluated (Bonferroni over all of them): about a minute."""
    from dplab.lab.registry import all_report_rows

    return all_report_rows()


@pytest.fixture
def optional_module():
    """load(name): import an optional cross-check package (a test extra). Skipped where it is
    missing on a developer's machine; under CI=true (which installs the extras) a missing
    package fails instead of skipping silently."""
    import importlib
    import os

    def load(name: str):
        if os.environ.get("CI") == "true":
            return importlib.import_module(name)
        return pytest.importorskip(name)

    return load
