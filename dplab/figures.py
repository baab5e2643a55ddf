"""``python -m dplab figures``: every lesson's figures into figures/, and figures/REPORT.md.

Deterministic: fixed seeds, same machine and versions, same PNG bytes. Exits
non-zero (from __main__) when a report row fails.
"""

from __future__ import annotations

from pathlib import Path

from dplab._progress import progress
from dplab.lessons import LESSONS
from dplab.report import ReportRow, evaluate_rows, report_markdown

__all__ = ["all_report_rows", "write_figures"]


def all_report_rows() -> list[ReportRow]:
    """Every lesson's report rows, evaluated with the Bonferroni correction over all of them."""
    rows: list[ReportRow] = []
    for lesson in progress(LESSONS, desc="report rows"):
        rows += lesson.report_rows()
    return evaluate_rows(rows)


def write_figures(outdir: str | Path = "figures", prepare: bool = True) -> list[ReportRow]:
    """Write ``<outdir>/*.png`` and ``<outdir>/REPORT.md``; return the evaluated rows.

    ``prepare`` first runs the lessons' long data jobs (the k = 256 p-Identity
    optimisation) and rewrites their shipped files in dplab/data/.
    """
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    data_dir = Path(__file__).resolve().parent / "data"
    for lesson in LESSONS:  # long data jobs first (e.g. strategy optimisation), shipped in data/
        if prepare and hasattr(lesson, "prepare"):
            lesson.prepare(data_dir)
    for lesson in progress(LESSONS, desc="figures"):
        for name, fig in lesson.figures().items():
            fig.savefig(outdir / f"{name}.png", metadata={"Software": None})
    rows = all_report_rows()
    (outdir / "REPORT.md").write_text(report_markdown(rows), encoding="utf-8")
    return rows
