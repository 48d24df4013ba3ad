"""``cdplot plot``: draw a CD diagram, rank-interval chart or heatmap to PNG, SVG or PDF."""

from __future__ import annotations

import argparse

from .._options import FIGURE_FORMATS, KINDS, STYLES
from ..errors import CdplotError
from . import progress
from .common import (
    add_analysis_options,
    add_figure_file_options,
    add_input_options,
    add_posthoc_options,
    analyse,
    analysis_kwargs,
    load_tables,
    output_format,
    posthoc_or_ranks,
    say_written,
)

# what -o OUT can be, and what its extension says: a figure, a TikZ picture, or the
# interactive explorer (an HTML page)
FORMATS = (*FIGURE_FORMATS, "tex", "html")
EXTENSIONS = {f".{f}": f for f in FORMATS}


def _highlight(text: str):
    """``--highlight``: a name, names separated by commas, or NAME=GROUP (or colour) pairs."""
    if "," not in text and "=" not in text:
        return text
    parts = [p.strip() for p in text.split(",")]
    if "=" not in text:
        return parts
    pairs = [p.partition("=") for p in parts]
    if any(not sep or not k.strip() or not v.strip() for k, sep, v in pairs):
        raise argparse.ArgumentTypeError(
            f"{text!r} mixes names and NAME=GROUP pairs; give A,B or A=GROUP,B=GROUP"
        )
    return {k.strip(): v.strip() for k, _, v in pairs}


def _points(text: str) -> float:
    """``--font-size``: a number of points (the library checks the style's range)."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of points") from None


def _width(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--width {text!r} is not a number") from None
    if not 1.0 <= value <= 50.0:
        raise argparse.ArgumentTypeError(f"--width {text!r} must be a number of inches in [1, 50]")
    return value


def register(sub) -> None:
    # Long: one add_argument per figure option, read top to bottom like --help
    p = sub.add_parser(
        "plot",
        help="draw a critical-difference diagram, rank-interval chart, p-value heatmap or "
        "the interactive explorer (-o view.html)",
        description=(
            "Analyse a score table as 'cdplot stats' does and draw the result: a Demsar-style "
            "critical-difference diagram (default), a rank-interval chart (a dot at each average "
            "rank with a segment of length CD) or a heatmap of the adjusted pairwise p-values. "
            "The format follows the extension of OUT (.png, .svg, .pdf); the file is written "
            "atomically. With several metrics, --kind cd draws one panel per metric and "
            "--kind profile each method's average rank across them; --metric picks one. "
            "An OUT ending in .tex gets a TikZ picture of the CD diagram or rank-interval chart "
            "(add --standalone for a complete document); an OUT ending in .html gets an "
            "interactive page for many methods (pointing at a method shows which methods differ "
            "from it, with the adjusted p-values; search, zoom and a table by rank)."
        ),
        epilog=(
            "Examples: cdplot plot --example demsar2006 -o cd.pdf; "
            "cdplot plot scores.csv -o cd.svg --test bonferroni-dunn --control C4.5 --font serif; "
            "cdplot plot scores.csv --pvalues conover.csv --test-name Conover -o cd.pdf"
        ),
    )
    add_input_options(p)
    g = p.add_argument_group("figure")
    g.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="output file: .png, .svg or .pdf; .tex for a TikZ picture (--kind cd or "
        "intervals) whose text LaTeX sets in the paper's own font; or .html for the interactive "
        "explorer (--kind cd), a self-contained page for many methods",
    )
    g.add_argument(
        "--format",
        choices=FORMATS,
        help="output format (default: from the extension of OUT)",
    )
    g.add_argument(
        "--kind",
        choices=KINDS,
        default="cd",
        help="cd: critical-difference diagram (with several metrics: one panel per metric); "
        "intervals: rank-interval chart; heatmap: p-values; profile: each method's average rank "
        "across several metrics (default: cd)",
    )
    g.add_argument(
        "--style",
        choices=STYLES,
        default="paper",
        help="paper: exactly 3.5 in wide; paper-wide: exactly 7 in; slides: exactly 16:9 with "
        "large type (default: paper)",
    )
    g.add_argument(
        "--font",
        default="sans",
        metavar="FONT",
        help="bundled font: sans (Lato) or serif (CMU Serif, the LaTeX look); or a .ttf/.otf "
        "file, or the family name of an installed font (default: sans)",
    )
    g.add_argument(
        "--reverse", action="store_true", help="best ranks on the left instead of the right"
    )
    g.add_argument(
        "--highlight",
        type=_highlight,
        metavar="NAME",
        help="emphasise this method; --kind cd also takes several (A,B) or groups with a "
        "legend (A=ours,B=ours,C=baselines) or colours (A=red,B=#0072B2)",
    )
    g.add_argument(
        "--title",
        metavar="TEXT",
        help="a title above the figure (matplotlib's Axes title; the figure grows to hold it)",
    )
    g.add_argument(
        "--font-size",
        type=_points,
        metavar="PT",
        help="size of the method names in points, instead of the style's; they shrink only "
        "when they do not fit the width",
    )
    add_figure_file_options(g)
    g.add_argument(
        "--width",
        type=_width,
        metavar="INCHES",
        help="figure width in inches instead of the style's (same type sizes and fitting rules)",
    )
    g.add_argument(
        "--full-axis",
        dest="full_axis",
        action="store_const",
        const=True,
        default=None,
        help="cd and intervals: run the rank axis from 1 to k (default: from 10 methods on, "
        "only the occupied ranks, with a break mark)",
    )
    g.add_argument(
        "--no-ranks",
        dest="ranks",
        action="store_false",
        help="cd: do not print average ranks beside the names",
    )
    g.add_argument(
        "--no-caption",
        dest="caption",
        action="store_false",
        help="leave out the caption line (test, alpha, N, CD)",
    )
    g.add_argument(
        "--no-note",
        dest="note",
        action="store_false",
        help="cd: leave out the note on relations the bars cannot show",
    )
    g.add_argument(
        "--standalone",
        action="store_true",
        help=".tex output: a complete LaTeX document (compiles on its own) instead of a "
        "tikzpicture to \\input",
    )
    g.add_argument(
        "--no-annotate",
        dest="annotate",
        action="store_const",
        const=False,
        default=None,
        help="heatmap: never print p-values in the cells (default: when they fit)",
    )
    add_analysis_options(p, auto=True)
    add_posthoc_options(p)
    p.set_defaults(func=run)


def run(args) -> int:
    # an unusable output name fails before any reading or drawing
    if output_format(args, EXTENSIONS) == "html":
        return _explorer(args)
    fmt, tikz = _output(args)
    _check_kind_options(args, tikz)
    if args.kind == "profile" and args.pvalues is not None:
        raise CdplotError(
            "option --kind profile needs several metrics; --pvalues holds the p-values of one"
        )
    if args.kind == "profile" and args.ranks_input:
        raise CdplotError(
            "option --kind profile needs several metrics; --ranks gives one set of average ranks"
        )
    result = posthoc_or_ranks(args)
    if result is None:
        tables = load_tables(args)
        if len(tables) > 1 and not tikz and args.kind in ("cd", "profile"):
            if args.title is not None or args.font_size is not None:
                flag = "--title" if args.title is not None else "--font-size"
                raise CdplotError(
                    f"option {flag} applies to the figure of one metric; the data hold "
                    f"{len(tables)}: choose one with --metric"
                )
            return _several_metrics(args, tables, fmt)
        result = analyse(args, _one_table(args, tables))
    if tikz:
        _write_tikz(args, result)
    else:
        _draw_and_save(args, result, fmt)
    say_written(args, args.output, fmt)
    return 0


def _output(args) -> tuple[str, bool]:
    """The output's format, and whether it is TikZ; options that do not apply to it refused."""
    from ..plot._save import format_of

    fmt = output_format(args, EXTENSIONS)
    tikz = fmt == "tex"
    if tikz:
        if args.title is not None or args.font_size is not None:
            flag = "--title" if args.title is not None else "--font-size"
            raise CdplotError(
                f"option {flag} does not apply to .tex output: give the LaTeX figure a "
                "\\caption, and LaTeX sets the names in the document's type size"
            )
        if args.kind not in ("cd", "intervals"):
            raise CdplotError(
                f"output {args.output!r}: .tex (TikZ) is written for --kind cd and intervals, "
                f"not --kind {args.kind}"
            )
        if args.font != "sans":
            raise CdplotError(
                f"option --font {args.font!r} does not apply to .tex output: LaTeX sets the "
                "text in the document's own font"
            )
    else:
        fmt = format_of(args.output, fmt)
        if args.standalone:
            raise CdplotError("option --standalone applies only to .tex output")
    return fmt, tikz


def _check_kind_options(args, tikz: bool) -> None:
    """Refuse options that the chart asked for (--kind) does not draw."""
    if not isinstance(args.highlight, (str, type(None))) and (args.kind != "cd" or tikz):
        raise CdplotError(
            f"option --highlight {args.highlight!r} names several methods, which --kind cd "
            "draws as PNG, SVG or PDF; other charts and .tex highlight one"
        )
    if args.kind != "cd" and (not args.ranks or not args.note):
        flag = "--no-ranks" if not args.ranks else "--no-note"
        raise CdplotError(f"option {flag} applies only to --kind cd, not --kind {args.kind}")
    if args.kind not in ("cd", "intervals") and args.full_axis is not None:
        raise CdplotError(
            f"option --full-axis applies only to --kind cd and intervals, not --kind {args.kind}"
        )
    if args.kind != "heatmap" and args.annotate is not None:
        raise CdplotError(
            f"option --no-annotate applies only to --kind heatmap, not --kind {args.kind}"
        )


def _one_table(args, tables):
    """The one metric's table a single chart draws."""
    if args.kind == "profile":
        raise CdplotError(
            "option --kind profile needs data with several metrics; these hold one"
            + (f" (--metric {args.metric})" if args.metric else "")
        )
    if len(tables) != 1:
        names = ", ".join(str(t.metric) for t in tables)
        raise CdplotError(
            f"the data hold {len(tables)} metrics ({names}); choose one with --metric"
        )
    return tables[0]


def _write_tikz(args, result) -> None:
    """The chart as a TikZ picture (--kind cd or intervals), written to --output."""
    from ..plot._tikz import cd_tikz, intervals_tikz

    tex = {
        "path": args.output,
        "standalone": args.standalone,
        "reverse": args.reverse,
        "style": args.style,
        "highlight": args.highlight,
        "caption": args.caption,
        "width": args.width,
    }
    if args.kind == "cd":
        cd_tikz(result, ranks=args.ranks, note=args.note, full_axis=args.full_axis, **tex)
    else:
        intervals_tikz(result, full_axis=args.full_axis, **tex)


def _draw_and_save(args, result, fmt: str) -> None:
    """The chart drawn with matplotlib and saved to --output."""
    # the package loads each drawing module on first use (PEP 562): only the chart asked for
    from .. import plot as charts

    progress.step("drawing the figure")

    if args.font_size is not None:
        # checked here to name the option; the library says label_kws={'fontsize': ...}
        from ..plot._common import MAX_NAME_SIZE
        from ..plot._styles import get_style

        least = get_style(args.style).min_font_size
        if not least <= args.font_size <= MAX_NAME_SIZE:
            raise CdplotError(
                f"option --font-size {args.font_size:g} is outside {least:g} to "
                f"{MAX_NAME_SIZE:g} pt (the {args.style} style's smallest type to the largest)"
            )

    common = {
        "reverse": args.reverse,
        "style": args.style,
        "font": args.font,
        "highlight": args.highlight,
        "caption": args.caption,
        "width": args.width,
        "label_kws": None if args.font_size is None else {"fontsize": args.font_size},
    }
    if args.kind == "cd":
        ax = charts.cd_diagram(
            result, ranks=args.ranks, note=args.note, full_axis=args.full_axis, **common
        )
    elif args.kind == "intervals":
        ax = charts.rank_intervals(result, full_axis=args.full_axis, **common)
    else:
        ax = charts.significance_heatmap(result, annotate=args.annotate, **common)
    if args.title is not None:
        ax.set_title(args.title)  # save_figure keeps what lies above the figure's edge
    progress.step(f"writing {args.output}")
    charts.save_figure(ax, args.output, dpi=args.dpi, format=fmt, svg_text=args.svg_text)


# the figure options that an explorer page has no use for: (attribute, flag, default)
_NOT_FOR_HTML = (
    ("style", "--style", "paper"),
    ("font", "--font", "sans"),
    ("reverse", "--reverse", False),
    ("font_size", "--font-size", None),
    ("dpi", "--dpi", 300),
    ("width", "--width", None),
    ("full_axis", "--full-axis", None),
    ("ranks", "--no-ranks", True),
    ("caption", "--no-caption", True),
    ("note", "--no-note", True),
    ("standalone", "--standalone", False),
    ("annotate", "--no-annotate", None),
)


def _explorer(args) -> int:
    """``-o view.html``: the interactive explorer of one analysis."""
    if args.kind != "cd":
        raise CdplotError(
            f"output {args.output!r}: .html (the interactive explorer) is written for --kind cd, "
            f"not --kind {args.kind}"
        )
    for name, flag, default in _NOT_FOR_HTML:
        if getattr(args, name) != default:
            raise CdplotError(
                f"option {flag} does not apply to .html output: the explorer is a page that "
                "zooms and shows every method whole"
            )
    if not isinstance(args.highlight, (str, type(None))):
        raise CdplotError(
            f"option --highlight {args.highlight!r} names several methods; the explorer selects one"
        )
    result = posthoc_or_ranks(args)
    if result is None:
        tables = load_tables(args)
        if len(tables) != 1:
            names = ", ".join(str(t.metric) for t in tables)
            raise CdplotError(
                f"the data hold {len(tables)} metrics ({names}); the explorer shows one: "
                "choose it with --metric"
            )
        result = analyse(args, tables[0])
    from ..plot._explorer import cd_explorer

    cd_explorer(result, path=args.output, title=args.title, highlight=args.highlight)
    say_written(args, args.output, "html")
    return 0


def _several_metrics(args, tables, fmt: str) -> int:
    """One CD panel per metric, or the rank profile, in one figure."""
    from ..stats._compare import compare_table
    from ..stats._consistency import MetricsComparison

    if args.test == "auto":
        raise CdplotError(
            f"option --test auto analyses one metric; the data hold {len(tables)}: "
            "choose one with --metric"
        )
    mc = MetricsComparison.from_results(
        [compare_table(t, **analysis_kwargs(args, t)) for t in tables]
    )
    from ..plot import cd_diagrams, rank_profile, save_figure

    common = {
        "style": args.style,
        "font": args.font,
        "highlight": args.highlight,
        "width": args.width,
    }
    if args.kind == "cd":
        axes = cd_diagrams(
            mc,
            reverse=args.reverse,
            ranks=args.ranks,
            caption=args.caption,
            note=args.note,
            full_axis=args.full_axis,
            **common,
        )
        fig = axes[0]
    else:
        if args.reverse or not args.ranks or not args.caption or not args.note:
            raise CdplotError(
                "options --reverse, --no-ranks, --no-caption and --no-note do not apply to "
                "--kind profile"
            )
        fig = rank_profile(mc, **common)
    save_figure(fig, args.output, dpi=args.dpi, format=fmt, svg_text=args.svg_text)
    say_written(args, args.output, fmt)
    return 0
