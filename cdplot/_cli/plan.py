"""``cdplot plan``: how many data sets a rank difference needs, or what N data sets show.

With ``--shift`` or ``--example`` it simulates the power of the Friedman and
Nemenyi tests at ``--n-datasets`` instead (:func:`cdplot.simulate_power`).
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from .._options import CD_TESTS, FIGURE_FORMATS, STYLES
from ..errors import CdplotError
from .common import add_figure_file_options, output_format, parse_alpha, say_written

# what the extension of -o OUT says (the power-curve figure)
EXTENSIONS = {f".{f}": f for f in FIGURE_FORMATS}


def register(sub) -> None:
    # Long: one add_argument per option, in the groups --help shows
    p = sub.add_parser(
        "plan",
        help="number of data sets a critical difference needs, or the difference N shows",
        description=(
            "Plan a comparison with Demsar's (2006) critical difference "
            "CD = q_alpha sqrt(k (k + 1) / (6 N)): the smallest number of data sets N at which "
            "an average-rank difference reaches CD (--rank-difference), or the CD at a given N "
            "(--n-datasets).  Prints the answer, its derivation with the numbers and a "
            "sentence for a paper's methods section.  This is the critical difference's N, "
            "not a power calculation."
        ),
        epilog="Examples: cdplot plan --methods 10 --rank-difference 1.0 --alpha 0.05; "
        "cdplot plan --shift 0,0,0.5 --n-datasets 40 (simulated power); "
        "cdplot plan --example demsar2006 --n-datasets 5,10,20,40 -o power.png (power curve)",
    )
    g = p.add_argument_group("plan")
    g.add_argument(
        "--methods",
        dest="n_methods",
        type=_count,
        metavar="K",
        help="the number of methods to compare (at least 2; with --shift, its length)",
    )
    what = g.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--rank-difference",
        type=_number,
        metavar="D",
        help="the average-rank difference to reach, in (0, K - 1]: prints the number of data sets",
    )
    what.add_argument(
        "--n-datasets",
        type=_counts,
        metavar="N",
        help="the number of data sets: prints the smallest significant rank difference (the "
        "CD); with --shift or --example, several comma-separated give a power curve",
    )
    g.add_argument(
        "--alpha",
        type=parse_alpha,
        default=0.05,
        help="significance level (default 0.05)",
    )
    g.add_argument(
        "--test",
        choices=CD_TESTS,
        default="nemenyi",
        help="nemenyi (all pairs, default) or bonferroni-dunn (each method against a control)",
    )
    sim = p.add_argument_group(
        "simulated power (Friedman, Iman-Davenport and Nemenyi tests at --n-datasets)"
    )
    model = sim.add_mutually_exclusive_group()
    model.add_argument(
        "--shift",
        type=_numbers,
        metavar="LIST",
        help="mean score of each method, comma-separated, in standard deviations of "
        "normal per-data-set noise (a location-shift model), e.g. 0,0,0.5",
    )
    model.add_argument(
        "--example",
        metavar="NAME",
        help="draw data sets with replacement from a bundled score table: demsar2006, "
        "yang-table9 (with --metric)",
    )
    sim.add_argument(
        "--metric", metavar="NAME", help="with --example: the metric of a table with several"
    )
    sim.add_argument(
        "--n-simulations",
        type=_count,
        default=2000,
        metavar="S",
        help="number of simulated comparisons (default 2000)",
    )
    sim.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    sim.add_argument(
        "--lower-is-better",
        dest="higher_is_better",
        action="store_const",
        const=False,
        help="lower scores are better (for --shift and --example)",
    )
    fig = p.add_argument_group("power curve (with --shift or --example)")
    fig.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="write the figure of power against N (.png, .svg or .pdf)",
    )
    fig.add_argument(
        "--format", choices=FIGURE_FORMATS, help="figure format (default: from the extension)"
    )
    fig.add_argument(
        "--pair",
        nargs=2,
        action="append",
        dest="pairs",
        metavar=("A", "B"),
        help="draw the power of this pair of methods (repeatable; default: the four strongest)",
    )
    fig.add_argument(
        "--target",
        type=_number,
        default=0.8,
        help="power marked with a dashed line (default 0.8)",
    )
    fig.add_argument("--style", choices=STYLES, default="paper", help="figure width and type sizes")
    fig.add_argument(
        "--font",
        default="sans",
        metavar="FONT",
        help="bundled font: sans (Lato) or serif (CMU Serif); or a .ttf/.otf file, or the "
        "family name of an installed font (default: sans)",
    )
    add_figure_file_options(fig)
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=run)


def _count(text: str) -> int:
    """A whole number (the library says which range it needs)."""
    try:
        return int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _number(text: str) -> float:
    """A finite number (the library says which range it needs)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def _counts(text: str) -> list:
    """``--n-datasets``: one whole number, or several separated by commas."""
    return [_count(part) for part in text.split(",")]


def _numbers(text: str) -> list:
    """``--shift``: comma-separated finite numbers."""
    return [_number(part) for part in text.split(",")]


def run(args) -> int:
    simulated = args.shift is not None or args.example is not None
    if not simulated and (args.output is not None or args.pairs or args.format is not None):
        raise CdplotError(
            "options -o, --format and --pair draw a power curve, which needs --shift or "
            "--example and several --n-datasets"
        )
    if simulated:
        res = _simulate(args)
    elif args.metric is not None:
        raise CdplotError("option --metric applies only with --example")
    else:
        from ..stats._plan import plan

        if args.n_methods is None:
            raise CdplotError(
                "option --methods is needed: the number of methods to plan for "
                "(or --shift or --example to simulate power)"
            )
        res = plan(
            n_methods=args.n_methods,
            rank_difference=args.rank_difference,
            n_datasets=_one(args.n_datasets),
            alpha=args.alpha,
            test=args.test,
        )
    print(res.to_json() if args.json else res)
    return 0


def _one(ns):
    """The single ``--n-datasets`` of the critical difference (None when not given)."""
    if ns is None:
        return None
    if len(ns) != 1:
        raise CdplotError(
            "option --n-datasets takes one number for the critical difference; several give "
            "a power curve, with --shift or --example"
        )
    return ns[0]


def _simulate(args):
    from ..stats._power import simulate_power
    from ..stats._power_curve import simulate_power_curve

    if args.n_datasets is None:
        raise CdplotError(
            "the power is simulated at a given number of data sets: give --n-datasets "
            "instead of --rank-difference"
        )
    if args.test != "nemenyi":
        raise CdplotError(
            f"option --test {args.test}: the simulated power is that of Nemenyi's test; "
            "leave --test out"
        )
    scores = None
    if args.example is not None:
        from ..datasets import load_example

        scores = load_example(args.example)
    k = len(args.shift) if args.shift is not None else None
    if args.n_methods is not None and k is not None and args.n_methods != k:
        raise CdplotError(
            f"option --methods {args.n_methods} disagrees with --shift, which gives {k} means"
        )
    kwargs = {
        "shift": args.shift,
        "alpha": args.alpha,
        "n_simulations": args.n_simulations,
        "higher_is_better": args.higher_is_better,
        "metric": args.metric,
        "rng": args.seed,
    }
    if len(args.n_datasets) == 1 and args.output is None:
        return simulate_power(scores, n_datasets=args.n_datasets[0], **kwargs)
    curve = simulate_power_curve(scores, n_datasets=args.n_datasets, **kwargs)
    if args.output is not None:
        _draw(args, curve)
    elif args.pairs or args.format is not None:
        raise CdplotError("options --pair and --format apply to the figure: give -o OUT")
    return curve


def _draw(args, curve) -> None:
    from ..plot import power_curve, save_figure

    fmt = output_format(args, EXTENSIONS)
    ax = power_curve(
        curve,
        pairs=args.pairs,
        style=args.style,
        font=args.font,
        target=args.target,
    )
    save_figure(ax, args.output, dpi=args.dpi, format=fmt, svg_text=args.svg_text)
    say_written(args, args.output, fmt or EXTENSIONS[Path(args.output).suffix.lower()])
