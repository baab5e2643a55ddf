"""The formula report: verdict logic, Markdown, and the committed figures/REPORT.md."""

from __future__ import annotations

import numpy as np
import pytest

from dplab.lab.paths import figures_dir
from dplab.lab.report import ReportRow, evaluate_rows, percent, report_markdown
from dplab.simulate import Estimate


def _fixed(est, low, high):
    return lambda c: Estimate(np.float64(est), np.float64(low), np.float64(high), c)


def test_verdicts():
    rows = evaluate_rows([
        ReportRow("a", "f", "Hu", "p", 1.0, "=", interval=_fixed(1.1, 0.9, 1.2)),
        ReportRow("b", "f", "Hu", "p", 1.0, "=", interval=_fixed(1.3, 1.2, 1.4)),
        ReportRow("c", "f", "Hu", "p", 1.0, "<=", interval=_fixed(0.5, 0.4, 0.6)),
        ReportRow("d", "f", "Hu", "p", 1.0, "<=", interval=_fixed(1.5, 1.1, 1.9)),
        ReportRow("e", "f", "Hu", "p", 1.0, ">=", interval=_fixed(0.95, 0.9, 1.01)),
        ReportRow("f", "f", "Hu", "p", 2.0, "exact", value=2.0),
        ReportRow("g", "f", "Hu", "p", 2.0, "exact", value=2.1),
    ])
    assert [r.verdict for r in rows] == ["PASS", "FAIL", "PASS", "FAIL", "PASS", "PASS", "FAIL"]


def test_computed_bound_rows():
    rows = evaluate_rows([
        ReportRow("a", "f", "Hu", "p", 66.0, "<=", value=64.9),
        ReportRow("b", "f", "Hu", "p", 66.0, "<=", value=66.1),
        ReportRow("c", "f", "Hu", "p", 1.0, ">=", value=1.2),
    ])
    assert [r.verdict for r in rows] == ["PASS", "FAIL", "PASS"]
    with pytest.raises(ValueError, match="not both"):
        ReportRow("d", "f", "Hu", "p", 1.0, "<=", value=1.0, interval=lambda c: None)


def test_bonferroni_level_each_row_labelled_and_pipes_escaped():
    seen = []
    rows = [ReportRow(str(i), "E|X|", "Hu", "p", 0.0, "=",
                      interval=lambda c: seen.append(c) or Estimate(0.0, -1.0, 1.0, c))
            for i in range(4)]
    rows.append(ReportRow("x", "f", "Hu", "p", 1.0, "exact", value=1.0))
    text = report_markdown(evaluate_rows(rows))
    assert seen == [pytest.approx(1 - 0.05 / 4)] * 4
    assert "E\\|X\\|" in text
    assert text.count("(98.75%)") == 4  # each statistical row states its own level
    with pytest.raises(ValueError, match="relation"):
        ReportRow("x", "f", "Hu", "p", 0.0, "~", value=0.0)


@pytest.mark.slow
def test_every_formula_row_passes(report_rows):
    failed = [r.id for r in report_rows if not r.passed]
    assert not failed, failed
    assert len({r.id for r in report_rows}) == len(report_rows)


@pytest.mark.slow
def test_committed_report_is_current(report_rows):
    committed = (figures_dir() / "REPORT.md").read_text(encoding="utf-8")
    from dplab.lab.mutants import all_mutants

    expected = report_markdown(report_rows, len(all_mutants()))
    assert committed == expected, "figures/REPORT.md is stale: run make figures"
    for line in committed.splitlines():
        if line.startswith("| 0"):
            assert line.rstrip().endswith("| PASS |"), line


def test_the_catches_column_and_the_summary_line():
    """catches: a report that drops the catches column or miscounts the rows that name a mutant"""
    rows = evaluate_rows([ReportRow("a", "f", "Hu", "p", 1.0, "exact", value=1.0,
                                    catches="m.one: E|X| for E X"),
                          ReportRow("b", "f", "Hu", "p", 1.0, "exact", value=1.0)])
    text = report_markdown(rows, mutants=7)
    assert "2 rows, 1 of them naming the bugs they catch" in text and "7 mutants declared" in text
    assert "| m.one: E\\|X\\| for E X | PASS |" in text and "| — | PASS |" in text


def test_a_level_close_to_one_is_printed_with_its_digits():
    """catches: a 1 - 1e-6 interval printed as '(100%)', a confidence no interval has (the report once
    rounded every level to four significant digits)."""
    assert percent(1 - 1e-6) == "99.9999%"
    assert percent(0.95) == "95%" and percent(0.9975) == "99.75%"
    assert all(percent(1 - 10.0 ** -k) != "100%" for k in range(1, 12))
