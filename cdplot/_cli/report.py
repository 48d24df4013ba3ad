"""``cdplot report``: every statistic, figure and conclusion in one HTML or PDF file."""

from __future__ import annotations

import argparse
from pathlib import Path

from .._options import REPORT_FORMATS
from ..errors import CdplotError
from . import progress
from .common import (
    add_analysis_options,
    add_input_options,
    analyse,
    analyse_ranks,
    analysis_kwargs,
    load_tables,
    output_format,
    say_written,
)

# what the extension of -o OUT says
EXTENSIONS = {".html": "html", ".htm": "html", ".pdf": "pdf"}


def register(sub) -> None:
    p = sub.add_parser(
        "report",
        help="a self-contained HTML or PDF report of the whole analysis",
        description=(
            "Write a report with the conclusion in words, the data table with ranks, the Friedman "
            "and "
            "Iman-Davenport tests, the post-hoc test with its critical difference, the CD diagram, "
            "rank intervals and significance heatmap, the pairwise p-values and groups, a methods "
            "paragraph with references and BibTeX, and a reproducibility footer. Several metrics "
            "give one section each and a section on how far the metrics agree."
        ),
        epilog="Example: cdplot report --example demsar2006 -o report.pdf",
    )
    add_input_options(p, many=True)
    add_analysis_options(p, auto=True)
    g = p.add_argument_group("report")
    g.add_argument(
        "-o", "--output", required=True, metavar="OUT", help="output file: .html or .pdf"
    )
    g.add_argument(
        "--format",
        choices=REPORT_FORMATS,
        help="output format (default: from the extension of OUT)",
    )
    g.add_argument("--title", help="title (default: a description of the comparison)")
    g.add_argument("--subtitle", help="subtitle under the title")
    g.add_argument("--author", help="author shown under the title")
    g.add_argument(
        "--date", help="date printed on the report (default: today, or SOURCE_DATE_EPOCH)"
    )
    g.add_argument(
        "--paper", choices=("a4", "letter"), default="a4", help="page size (default: a4)"
    )
    g.add_argument(
        "--template",
        metavar="DIR",
        help=(
            "folder of templates replacing bundled ones of the same name (run in Jinja2's sandbox)"
        ),
    )
    g.add_argument(
        "--decimals",
        type=int,
        metavar="N",
        help="decimals of the scores in the data table (default: as typed)",
    )
    g.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="tell on stderr how far the report got: what it is doing once it has run 2 s, "
        "and each metric's step for 3 or more metrics (default: on a terminal, unless --quiet)",
    )
    g.add_argument(
        "--pair",
        nargs=2,
        action="append",
        metavar=("A", "B"),
        help=(
            "also compare methods A and B head to head (Wilcoxon, sign test, paired t); repeatable"
        ),
    )
    g.add_argument(
        "--stability",
        action="store_true",
        help="add a section on the stability of the ranking over data sets: a bootstrap "
        "(1000 samples, seed 0) and leave-one-data-set-out (cdplot stability)",
    )
    p.set_defaults(func=run)


def run(args) -> int:
    from ..reporting import report
    from ..stats._analysis import analyse_pairs
    from ..stats._compare import compare_table

    fmt = output_format(args, EXTENSIONS)
    tables = [] if args.ranks_input else load_tables(args)
    report_kws = {
        "title": args.title,
        "subtitle": args.subtitle,
        "author": args.author,
        "date": args.date,
        "paper": args.paper,
        "format": fmt,
        "template_dir": args.template,
        "decimals": args.decimals,
        # --quiet also silences the progress lines, unless --progress asks for them
        "progress": False if args.quiet and args.progress is None else args.progress,
        "stability": True if args.stability else None,
    }
    if args.ranks_input:
        data = analyse_ranks(args)
    elif len(tables) == 1:
        data = analyse(args, tables[0])
    elif args.test == "auto":
        raise CdplotError(
            f"option --test auto analyses one metric; the data hold {len(tables)}: "
            "choose one with --metric"
        )
    else:
        # analysed by the report, so that the metrics' consistency is computed there too
        data = [compare_table(t, **analysis_kwargs(args, t)) for t in tables]
    if args.pair:
        # each --pair compared in every metric, with that analysis' scores and options; the
        # report shows the comparisons and computes none
        analyses = data if isinstance(data, list) else [data]
        report_kws["pairs"] = [pr for r in analyses for pr in analyse_pairs(r, args.pair)]
    progress.step(f"drawing the figures and writing {args.output}")
    report(data, args.output, **report_kws)
    say_written(args, args.output, fmt or EXTENSIONS[Path(args.output).suffix.lower()])
    return 0
