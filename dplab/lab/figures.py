"""``python -m dplab figures``: every lesson's figures into figures/, and figures/REPORT.md.

Deterministic: fixed seeds, same machine and versions, same PNG bytes; it only reads
the shipped data (the optimised strategy is made by ``make optimise``), so on a clean
checkout it leaves ``git status`` clean. Exits non-zero (cli) when a report row fails.
"""

from __future__ import annotations

from pathlib import Path

from dplab.lab.mutants import all_mutants
from dplab.lab.progress import progress
from dplab.lab.registry import all_report_rows, lesson_views
from dplab.lab.report import ReportRow, report_markdown

__all__ = ["render_figures", "write_figures", "write_report"]


def render_figures(outdir: str | Path) -> list[Path]:
    """Write every lesson's figures as ``<outdir>/<name>.png``; return the paths."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    for views in progress(lesson_views(), desc="figures"):
        for name, fig in views.figures().items():
            path = outdir / f"{name}.png"
            fig.savefig(path, metadata={"Software": None})
            written.append(path)
    return written


def write_report(outdir: str | Path, rows: list[ReportRow] | None = None) -> list[ReportRow]:
    """Evaluate every report row (unless given) and write ``<outdir>/REPORT.md``."""
    rows = all_report_rows(lambda xs: progress(xs, desc="report rows")) if rows is None else rows
    Path(outdir).mkdir(parents=True, exist_ok=True)
    (Path(outdir) / "REPORT.md").write_text(report_markdown(rows, len(all_mutants())), encoding="utf-8")
    return rows


def write_figures(outdir: str | Path) -> list[ReportRow]:
    """Write ``<outdir>/*.png`` and ``<outdir>/REPORT.md``; return the evaluated rows."""
    render_figures(outdir)
    return write_report(outdir)
