"""``cdplot plan``: how many data sets a rank difference needs, or what N data sets show.

With ``--shift`` or ``--example`` it simulates the power of the Friedman and
Nemenyi tests at ``--n-datasets`` instead (:func:`cdplot.simulate_power`).
"""

from __future__ import annotations

import argparse
import math

from .._options import CD_TESTS
from ..errors import CdplotError
from .common import parse_alpha


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
        "cdplot plan --shift 0,0,0.5 --n-datasets 40 (simulated power)",
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
        type=_count,
        metavar="N",
        help="the number of data sets: prints the smallest significant rank difference (the CD)",
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


def _numbers(text: str) -> list:
    """``--shift``: comma-separated finite numbers."""
    return [_number(part) for part in text.split(",")]


def run(args) -> int:
    if args.shift is not None or args.example is not None:
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
            n_datasets=args.n_datasets,
            alpha=args.alpha,
            test=args.test,
        )
    print(res.to_json() if args.json else res)
    return 0


def _simulate(args):
    from ..stats._power import simulate_power

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
    return simulate_power(
        scores,
        shift=args.shift,
        n_datasets=args.n_datasets,
        alpha=args.alpha,
        n_simulations=args.n_simulations,
        higher_is_better=args.higher_is_better,
        metric=args.metric,
        rng=args.seed,
    )
