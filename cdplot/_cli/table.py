"""``cdplot table``: the data table (scores with ranks, best in bold) for a paper."""

from __future__ import annotations

import argparse

from .._options import EFFECT_PAIRS, TABLE_FORMATS, TABLE_MARKS
from ..errors import CdplotError
from .common import add_analysis_options, add_input_options, output_format, run_analyses, write_text

# what the extension of -o OUT says
EXTENSIONS = {".tex": "latex", ".md": "markdown", ".markdown": "markdown", ".html": "html"}


def register(sub) -> None:
    p = sub.add_parser(
        "table",
        help="the data table with ranks in LaTeX, Markdown or HTML",
        description=(
            "Print the scores with each method's rank in parentheses, the best score of each data "
            "set in bold and the average ranks as the last row, as Demsar (2006) prints them; "
            "mean ± sd over the repetitions of a long file, a caption and label, underlines for "
            "what is not significantly worse than the best, a W/T/L row against a control."
        ),
        epilog="Examples: cdplot table --example demsar2006 --format latex; cdplot table "
        "folds.csv --caption Accuracy --label tab:acc --marks wilcoxon (a long file with a "
        "fold column: mean ± sd, underlines by a Wilcoxon test over the folds)",
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
        "--split",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="LaTeX: --no-split keeps one tabular whatever its width; --split sets a table "
        "wider than the text width in parts rather than smaller (default: one tabular while "
        "it fits the line, else parts)",
    )
    g.add_argument(
        "--decimals",
        type=int,
        metavar="N",
        help="decimals of the scores (default: as typed, at most 3)",
    )
    _add_paper_options(g)
    g.add_argument(
        "--effect-sizes",
        nargs="?",
        const="significant",
        choices=EFFECT_PAIRS,
        metavar="PAIRS",
        help="print the effect-size table instead: Cliff's delta and Cohen's d with their "
        "magnitudes for the significant pairs (or 'all' pairs tested), largest first; "
        "positive when the first method is better",
    )
    p.set_defaults(func=run)


# --- paper-ready tables (issue 12): caption, label, spread, marks, W/T/L -------------------


def _add_paper_options(g) -> None:
    g.add_argument(
        "--caption",
        metavar="TEXT",
        help="caption: LaTeX \\caption in a table float, a 'Table:' line in Markdown, an HTML "
        "<caption>",
    )
    g.add_argument(
        "--label",
        metavar="KEY",
        help="cross-reference key (LaTeX \\label, needs --caption; HTML id)",
    )
    g.add_argument(
        "--float",
        dest="latex_float",
        action="store_const",
        const=True,
        help="LaTeX: a table float around the tabular even without --caption",
    )
    g.add_argument(
        "--std",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="mean ± standard deviation over the repetitions (folds, seeds) of a long file "
        "(default: when the file has them)",
    )
    g.add_argument(
        "--marks",
        choices=TABLE_MARKS,
        default="best",
        help="best: the best of each data set in bold (default); wilcoxon, t-test: also "
        "underline what a paired test over the repetitions, Holm-corrected within the data "
        "set, does not find worse than the best; posthoc: underline the average ranks the "
        "post-hoc test does not separate from the best; none. A --control (with a test that "
        "takes one, e.g. --test bonferroni-dunn) adds a W/T/L row",
    )


def _paper_kwargs(args) -> dict:
    return {
        "caption": args.caption,
        "label": args.label,
        "latex_float": args.latex_float,
        "std": args.std,
        "marks": args.marks,
        "control": args.control,
        "split": args.split,
    }


def run(args) -> int:
    from ..reporting import data_table

    fmt = output_format(args, EXTENSIONS, default="latex")
    # the spread and the paired marks need every repetition's score: read them unless
    # --no-std asks for neither
    args.keep_repetitions = args.std is not False or args.marks in ("wilcoxon", "t-test")
    results = run_analyses(args)
    parts = []
    for i, r in enumerate(results):
        if len(results) > 1:
            parts.append(("\n" if i else "") + _heading(r, fmt))
        if args.effect_sizes:
            from ..reporting._effect_table import effect_size_table

            _refuse_data_options(args)
            parts.append(
                effect_size_table(
                    r,
                    format=fmt,
                    pairs=args.effect_sizes,
                    caption=args.caption,
                    label=args.label,
                    latex_float=args.latex_float,
                )
            )
            continue
        parts.append(data_table(r, format=fmt, decimals=args.decimals, **_paper_kwargs(args)))
    write_text(args, "".join(parts), fmt)
    return 0


def _refuse_data_options(args) -> None:
    """Options of the data table that the effect-size table has no use for: say so."""
    for flag, given in (
        ("--decimals", args.decimals is not None),
        ("--std" if args.std else "--no-std", args.std is not None),
        (f"--marks {args.marks}", args.marks != "best"),
        ("--split" if args.split else "--no-split", args.split is not None),
    ):
        if given:
            raise CdplotError(
                f"option {flag} applies to the data table, not to --effect-sizes (the effect "
                "sizes print three decimals and mark nothing); leave one of them out"
            )


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
