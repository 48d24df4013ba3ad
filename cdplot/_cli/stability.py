"""``cdplot stability``: would the conclusion survive other data sets?

Runs the analysis of ``cdplot stats`` and then :func:`cdplot.stability` on
it: a bootstrap over data sets and a leave-one-data-set-out check.  Prints
the result as text or JSON; ``-o`` writes the rank-probability figure.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .._options import FIGURE_FORMATS, RESAMPLES, STYLES
from ..errors import CdplotError
from .common import (
    add_analysis_options,
    add_figure_file_options,
    add_input_options,
    output_format,
    run_analyses,
)

# what the extension of -o OUT says
EXTENSIONS = {f".{f}": f for f in FIGURE_FORMATS}


def _count(text: str) -> int:
    """A whole number (the library says which range it needs)."""
    try:
        return int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _fraction(text: str) -> float:
    """``--confidence``: a number (the library says which range it needs)."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None


def register(sub) -> None:
    p = sub.add_parser(
        "stability",
        help="bootstrap and leave-one-out stability of the ranking and the significant pairs",
        description=(
            "Treat the data sets as a sample of the population of interest and draw them again "
            "with replacement (a bootstrap over data sets; Efron and Tibshirani 1993, Hothorn "
            "et al. 2005): each method's average-rank interval, the probability of each rank "
            "(P(best)), how often each significant pair stays significant under the same "
            "post-hoc test, and every data set whose removal changes a pair's significance or "
            "the best method.  -o writes the rank-probability figure."
        ),
        epilog="Example: cdplot stability --example demsar2006 --seed 1 -o stability.png",
    )
    add_input_options(p)
    add_analysis_options(p)
    _add_stability_options(p)
    _add_output_options(p)
    p.set_defaults(func=run)


def _add_stability_options(p) -> None:
    g = p.add_argument_group("stability")
    g.add_argument(
        "--n-boot",
        type=_count,
        default=1000,
        metavar="B",
        help="number of bootstrap samples (default 1000)",
    )
    g.add_argument(
        "--seed",
        type=_count,
        default=None,
        help="random seed (default: one drawn from the system, printed with the result)",
    )
    g.add_argument(
        "--confidence",
        type=_fraction,
        default=0.95,
        help="level of the average-rank intervals (default 0.95)",
    )
    g.add_argument(
        "--n-boot-pairs",
        type=_count,
        default=None,
        metavar="B",
        help="rerun the post-hoc test on this many of the samples (default: all for nemenyi "
        "and bonferroni-dunn; for the p-value tests as many as about 10 s allow)",
    )
    g.add_argument(
        "--resample",
        choices=RESAMPLES,
        default="datasets",
        help="what each sample draws: the data sets (default), or the data sets and then the "
        "folds within each (needs a long table with a fold or seed column, --repetition-col)",
    )
    g.add_argument(
        "--leave-one-out",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="leave each data set out in turn (default: when it takes no more than about 10 s)",
    )


def _add_output_options(p) -> None:
    out = p.add_argument_group("output")
    out.add_argument("--json", action="store_true", help="print the result as JSON")
    out.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="write the rank-probability figure: .png, .svg or .pdf",
    )
    out.add_argument(
        "--format", choices=FIGURE_FORMATS, help="figure format (default: from the extension)"
    )
    out.add_argument(
        "--style",
        choices=STYLES,
        default="paper",
        help="figure width and type sizes (default paper)",
    )
    out.add_argument(
        "--font",
        default="sans",
        metavar="FONT",
        help="bundled font: sans (Lato) or serif (CMU Serif); or a .ttf/.otf file, or the "
        "family name of an installed font (default: sans)",
    )
    out.add_argument(
        "--annotate",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="print each probability in its cell (default: up to 20 methods)",
    )
    out.add_argument(
        "--no-colorbar", dest="colorbar", action="store_false", help="leave out the colour bar"
    )
    out.add_argument(
        "--no-caption",
        dest="caption",
        action="store_false",
        help="leave out the caption line (samples, seed, Monte-Carlo error)",
    )
    add_figure_file_options(out)


def run(args) -> int:
    from ..stats._results import ComparisonResult
    from ..stats._stability import stability

    fmt = output_format(args, EXTENSIONS) if args.output is not None else None
    if args.format is not None and args.output is None:
        raise CdplotError("option --format applies only with -o OUT (the figure)")
    # resampling the folds needs every fold's score, which the readers keep only when asked
    args.keep_repetitions = args.resample == "datasets-and-folds"
    results = run_analyses(args)
    if len(results) != 1:
        raise CdplotError(
            f"the data hold {len(results)} metrics; choose one with --metric to examine its "
            "stability"
        )
    (res,) = results
    if not isinstance(res, ComparisonResult):  # pragma: no cover - --test auto is not offered
        raise CdplotError("cdplot stability examines the rank analysis of cdplot stats")
    if args.resample == "datasets-and-folds" and res.scores.repetition_scores is None:
        # the library's message names the reader's keyword, which the command sets itself
        raise CdplotError(
            "option --resample datasets-and-folds resamples the folds of each data set, and "
            "the input has one score per data set and method; give a long table with one row "
            "per fold and its fold or seed column (--repetition-col)"
        )
    st = stability(
        res,
        n_boot=args.n_boot,
        seed=args.seed,
        confidence=args.confidence,
        n_boot_pairs=args.n_boot_pairs,
        leave_one_out=args.leave_one_out,
        resample=args.resample,
    )
    if args.output is not None:
        from ..plot import rank_probabilities, save_figure
        from .common import say_written

        ax = rank_probabilities(
            st,
            style=args.style,
            font=args.font,
            annotate=args.annotate,
            colorbar=args.colorbar,
            caption=args.caption,
        )
        save_figure(ax, args.output, dpi=args.dpi, format=fmt, svg_text=args.svg_text)
        say_written(args, args.output, fmt or EXTENSIONS[Path(args.output).suffix.lower()])
    if args.json:
        print(json.dumps(st.to_dict(), indent=2, ensure_ascii=False))
    else:
        print(st)
    return 0
