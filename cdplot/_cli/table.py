"""``cdplot table``: the data table (scores with ranks, best in bold) for a paper."""

from __future__ import annotations

import sys

from .common import add_analysis_options, add_input_options, run_analyses


def register(sub) -> None:
    p = sub.add_parser(
        "table",
        help="the data table with ranks in LaTeX, Markdown or HTML",
        description=(
            "Print the scores with each method's rank in parentheses, the best score of each data "
            "set "
            "in bold and the average ranks as the last row, as Demsar (2006) prints them."
        ),
        epilog="Example: cdplot table --example demsar2006 --format latex",
    )
    add_input_options(p)
    add_analysis_options(p)
    g = p.add_argument_group("table")
    g.add_argument(
        "--format",
        choices=("latex", "markdown", "html"),
        default="latex",
        help="latex (booktabs), markdown or html (default: latex)",
    )
    g.add_argument(
        "--decimals", type=int, metavar="N", help="decimals of the scores (default: as typed)"
    )
    p.set_defaults(func=run)


def run(args) -> int:
    from ..reporting import data_table

    results = run_analyses(args)
    for i, r in enumerate(results):
        if len(results) > 1:
            sys.stdout.write(("\n" if i else "") + _heading(r, args.format))
        sys.stdout.write(data_table(r, format=args.format, decimals=args.decimals))
    return 0


def _heading(result, fmt: str) -> str:
    name = result.metric or result.scores.source or "scores"
    if fmt == "latex":
        from ..reporting._format import latex_escape

        return f"% metric: {latex_escape(name)}\n"
    if fmt == "markdown":
        from ..reporting._format import markdown_escape

        return f"**{markdown_escape(name)}**\n\n"
    import html

    return f"<h3>{html.escape(name)}</h3>\n"
