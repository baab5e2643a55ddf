"""Shared fixtures: the formula report's rows are computed once per test session."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def report_rows():
    """Every lesson's report rows, evaluated (Bonferroni over all of them): about a minute."""
    from dplab.lab.registry import all_report_rows

    return all_report_rows()
