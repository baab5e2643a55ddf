"""Shared fixtures: the formula report's rows are computed once per test session."""

from __future__ import annotations

import pytest


def pytest_addoption(parser):
    parser.addoption("--mutant", default=None,
                     help="run only the tests marked @pytest.mark.catches(<this mutant id>) (make mutants)")


def pytest_collection_modifyitems(config, items):
    """Under --mutant=ID keep only the tests that declare they catch ID."""
    wanted = config.getoption("--mutant")
    if wanted is None:
        return
    keep, drop = [], []
    for item in items:
        names = {a for mark in item.iter_markers("catches") for a in mark.args}
        (keep if wanted in names else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
    items[:] = keep


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
