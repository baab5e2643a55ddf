"""The formula report: verdict logic, Markdown, and the committed figures/REPORT.md."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dplab.figures import all_report_rows, write_figures
from dplab.report import ReportRow, evaluate_rows, report_markdown
from dplab.simulate import Estimate

ROOT = Path(__file__).resolve().parents[1]


def _fixed(est, low, high):
    return lambda c: Estimate(np.float64(est), np.float64(low), np.float64(high), c)


def test_verdicts():
    rows = evaluate_rows([
        ReportRow("a", "f", "s", "p", 1.0, "=", interval=_fixed(1.1, 0.9, 1.2)),
        ReportRow("b", "f", "s", "p", 1.0, "=", interval=_fixed(1.3, 1.2, 1.4)),
        ReportRow("c", "f", "s", "p", 1.0, "<=", interval=_fixed(0.5, 0.4, 0.6)),
        ReportRow("d", "f", "s", "p", 1.0, "<=", interval=_fixed(1.5, 1.1, 1.9)),
        ReportRow("e", "f", "s", "p", 1.0, ">=", interval=_fixed(0.95, 0.9, 1.01)),
        ReportRow("f", "f", "s", "p", 2.0, "exact", value=2.0),
        ReportRow("g", "f", "s", "p", 2.0, "exact", value=2.1),
    ])
    assert [r.verdict for r in rows] == ["PASS", "FAIL", "PASS", "FAIL", "PASS", "PASS", "FAIL"]


def test_computed_bound_rows():
    rows = evaluate_rows([
        ReportRow("a", "f", "s", "p", 66.0, "<=", value=64.9),
        ReportRow("b", "f", "s", "p", 66.0, "<=", value=66.1),
        ReportRow("c", "f", "s", "p", 1.0, ">=", value=1.2),
    ])
    assert [r.verdict for r in rows] == ["PASS", "FAIL", "PASS"]
    with pytest.raises(ValueError, match="not both"):
        ReportRow("d", "f", "s", "p", 1.0, "<=", value=1.0, interval=lambda c: None)


def test_bonferroni_level_and_pipes_escaped():
    seen = []
    rows = [ReportRow(str(i), "E|X|", "s", "p", 0.0, "=",
                      interval=lambda c: seen.append(c) or Estimate(0.0, -1.0, 1.0, c))
            for i in range(4)]
    text = report_markdown(evaluate_rows(rows))
    assert seen == [pytest.approx(1 - 0.05 / 4)] * 4
    assert "E\\|X\\|" in text
    with pytest.raises(ValueError, match="relation"):
        ReportRow("x", "f", "s", "p", 0.0, "~", value=0.0)


def test_every_formula_row_passes_and_report_is_current():
    rows = all_report_rows()
    failed = [r.id for r in rows if not r.passed]
    assert not failed, failed
    committed = (ROOT / "figures" / "REPORT.md").read_text(encoding="utf-8")
    assert committed == report_markdown(rows), "figures/REPORT.md is stale: run make figures"
    for line in committed.splitlines():
        if line.startswith("| 0"):
            assert line.rstrip().endswith("| PASS |"), line


def test_write_figures_is_deterministic(tmp_path):
    write_figures(tmp_path / "a", prepare=False)
    write_figures(tmp_path / "b", prepare=False)
    names = sorted(p.name for p in (tmp_path / "a").glob("*.png"))
    assert names == sorted(p.name for p in (ROOT / "figures").glob("*.png"))
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
