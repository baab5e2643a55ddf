"""The lab's command line: ``python -m dplab figures | answers | assignment | grade | bench | mutants |
optimise | stamp | present | html``."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dplab", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    fig = sub.add_parser("figures", help="regenerate figures/ and figures/REPORT.md")
    fig.add_argument("--out", default=None, help="output folder (default: the checkout's figures/)")
    answers = sub.add_parser("answers", help="print the teacher's key to every exercise")
    answers.add_argument("notebook", nargs="?", default=None,
                         help="one notebook's exercises only, by its number (e.g. 08)")
    assignment = sub.add_parser("assignment", help="write notebook NN as an assignment: outputs stripped, "
                                "answers reset to None, solution cells removed (dplab/lab/course.py)")
    assignment.add_argument("notebook", help="the notebook's number (e.g. 04)")
    assignment.add_argument("--out", default=".", help="output folder (default: the current directory)")
    grade = sub.add_parser("grade", help="run handed-in notebooks and write what dplab.check said to a CSV")
    grade.add_argument("paths", nargs="+", help="the notebooks to grade")
    grade.add_argument("--out", default="grades.csv", help="the CSV to write (default: ./grades.csv)")
    bench = sub.add_parser("bench", help="print the performance table")
    bench.add_argument("--no-browser", action="store_true", help="skip the Chromium measurements")
    bench.add_argument("--notebook", default=None,
                       help="measure one notebook's rows only, by its number (e.g. 03)")
    sub.add_parser("optimise", help="re-optimise the shipped k = 256 p-Identity strategy (dplab/data)")
    stamp = sub.add_parser("stamp", help="write each notebook's source fingerprint into its metadata")
    stamp.add_argument("notebooks", nargs="+")
    present = sub.add_parser("present", help="serve the lessons as Voila apps from an index (Ctrl-C "
                             "stops it); other options go to Voila, e.g. --Voila.port=8866")
    present.add_argument("notebook", nargs="?", default=None,
                         help="one notebook (number, e.g. 03, or path) instead of every lesson")
    present.add_argument("--slots", type=int, default=1, help="warm-ups running at once (default 1)")
    present.add_argument("--no-preheat", action="store_true", help="run a lesson only when it is opened")
    present.add_argument("--projector", action="store_true",
                         help="projector style: larger text, thicker lines (also DPLAB_PROJECTOR=1)")
    html = sub.add_parser("html", help="every notebook with its stored outputs as static HTML, with an index "
                          "(offline)")
    html.add_argument("--out", default=None, help="output folder (default: the checkout's html/)")
    mutants = sub.add_parser("mutants", help="the mutation run: apply each declared mutant to a copy and "
                             "run the checks that name it; fails on a survivor")
    mutants.add_argument("--only", default=None, help="comma-separated mutant ids")
    mutants.add_argument("--notebook", default=None, help="one notebook's mutants, by its number (e.g. 07)")
    mutants.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    mutants.add_argument("--no-notebooks", action="store_true",
                         help="only the report rows and unit tests that name a mutant, not notebook cells")
    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "present":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")

    if args.command == "figures":
        import matplotlib

        matplotlib.use("Agg")
        from dplab.lab.figures import write_figures
        from dplab.lab.paths import figures_dir

        out = args.out or figures_dir()
        rows = write_figures(out)
        failed = [row.id for row in rows if not row.passed]
        from dplab.lab.mutants import all_mutants

        naming = sum(bool(row.catches) for row in rows)
        print(f"wrote {out}/REPORT.md: {len(rows)} rows, {len(rows) - len(failed)} PASS, {len(failed)} FAIL; "
              f"{naming} name the bugs they catch; {len(all_mutants())} mutants declared (make mutants)")
        if failed:
            print("FAIL: " + ", ".join(failed), file=sys.stderr)
            return 1
        return 0
    if args.command == "answers":
        from dplab.lab.registry import answer_key

        try:
            print(answer_key(args.notebook))
        except ValueError as error:
            parser.error(str(error))
        return 0
    if args.command in ("assignment", "grade"):
        from dplab.lab import course

        if args.command == "grade":
            rows = course.grade(args.paths, args.out)
            print(f"wrote {args.out}: {len(rows)} rows")
            return 0
        try:
            print(f"wrote {course.write_assignment(args.notebook, args.out)}")
        except ValueError as error:
            parser.error(str(error))
        return 0
    if args.command == "bench":
        import matplotlib

        matplotlib.use("Agg")
        from dplab.lab.bench import run_bench

        return run_bench(browser=not args.no_browser, notebook=args.notebook)
    if args.command == "mutants":
        from dplab.lab.mutants import run_mutants

        try:
            return run_mutants(only=args.only.split(",") if args.only else None, notebook=args.notebook,
                               jobs=args.jobs, notebooks=not args.no_notebooks)
        except ValueError as error:
            parser.error(str(error))
    if args.command == "optimise":
        from dplab.lab.paths import data_dir
        from dplab.lab.progress import progress
        from dplab.range_queries.optimization import P_IDENTITY_FILE, write_p_identity

        path = data_dir() / P_IDENTITY_FILE
        bar = progress(range(3000), desc="p-Identity L-BFGS (k = 256)", total=3000)
        steps = iter(bar)
        theta = write_p_identity(path, maxiter=3000, step=lambda: next(steps, None))
        if hasattr(bar, "close"):
            bar.close()
        print(f"wrote {path} ({theta.shape[0]} x {theta.shape[1]}); run make figures notebooks next")
        return 0
    if args.command == "stamp":
        from dplab.lab.sources import stamp_notebook

        for path in args.notebooks:
            stamp_notebook(path)
            print(f"stamped {path}")
        return 0
    if args.command == "html":
        from dplab.lab.paths import notebooks_dir, repo_root
        from dplab.lab.static_html import write_html

        pages = write_html(notebooks_dir(), args.out or repo_root() / "html")
        print(f"wrote {len(pages)} pages; open {pages[0]} in a browser")
        return 0
    if args.command == "present":
        from dplab.lab.present import main as present
        from dplab.lab.present import notebook_target

        try:
            target = notebook_target(args.notebook)
        except ValueError as error:  # e.g. VOILA_ARGS="--port 8866": 8866 read as the notebook
            parser.error(f"{error}; options for Voila take the form --Voila.port=8866")
        return present(target, extra, slots=args.slots, preheat=not args.no_preheat,
                       projector=True if args.projector else None)
    return 2  # pragma: no cover
