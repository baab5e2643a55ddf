"""Command line: ``python -m dplab figures | answers | bench``."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dplab", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    fig = sub.add_parser("figures", help="regenerate figures/ and figures/REPORT.md")
    fig.add_argument("--out", default="figures", help="output folder (default: figures)")
    sub.add_parser("answers", help="print the teacher's key to every exercise")
    bench = sub.add_parser("bench", help="print the performance table")
    bench.add_argument("--no-browser", action="store_true", help="skip the Chromium measurement")
    args = parser.parse_args(argv)

    if args.command == "figures":
        import matplotlib

        matplotlib.use("Agg")
        from dplab.figures import write_figures

        rows = write_figures(args.out)
        failed = [row.id for row in rows if not row.passed]
        print(f"wrote {args.out}/REPORT.md: {len(rows) - len(failed)} PASS, {len(failed)} FAIL")
        if failed:
            print("FAIL: " + ", ".join(failed), file=sys.stderr)
            return 1
        return 0
    if args.command == "answers":
        from dplab.exercises import answer_key

        print(answer_key())
        return 0
    if args.command == "bench":
        import matplotlib

        matplotlib.use("Agg")
        from dplab.bench import run_bench

        return run_bench(browser=not args.no_browser)
    return 2  # pragma: no cover


if __name__ == "__main__":
    sys.exit(main())
