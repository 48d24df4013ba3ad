"""``cdplot table``: the data table (scores with ranks, best in bold) for a paper."""

from __future__ import annotations

from .._options import TABLE_FORMATS
from .common import add_analysis_options, add_input_options, output_format, run_analyses, write_text

# what the extension of -o OUT says
EXTENSIONS = {".tex": "latex", ".md": "markdown", ".markdown": "markdown", ".html": "html"}


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
        choices=TABLE_FORMATS,
        help="latex (booktabs), markdown or html (default: from the extension of OUT, else latex)",
    )
    g.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="write to this file instead of standard output (.tex, .md or .html)",
    )
    g.add_argument(
        "--decimals", type=int, metavar="N", help="decimals of the scores (default: as typed)"
    )
    p.set_defaults(func=run)


def run(args) -> int:
    from ..reporting import data_table

    fmt = output_format(args, EXTENSIONS, default="latex")
    results = run_analyses(args)
    parts = []
    for i, r in enumerate(results):
        if len(results) > 1:
            parts.append(("\n" if i else "") + _heading(r, fmt))
        parts.append(data_table(r, format=fmt, decimals=args.decimals))
    write_text(args, "".join(parts), fmt)
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
