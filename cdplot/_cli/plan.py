"""``cdplot plan``: how many data sets a rank difference needs, or what N data sets show."""

from __future__ import annotations

import argparse
import math

from .._options import CD_TESTS
from .common import parse_alpha


def register(sub) -> None:
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
        epilog="Example: cdplot plan --methods 10 --rank-difference 1.0 --alpha 0.05",
    )
    g = p.add_argument_group("plan")
    g.add_argument(
        "--methods",
        dest="n_methods",
        type=_count,
        required=True,
        metavar="K",
        help="the number of methods to compare (at least 2)",
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
    p.add_argument("--json", action="store_true", help="print the plan as JSON")
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


def run(args) -> int:
    from ..stats._plan import plan

    res = plan(
        n_methods=args.n_methods,
        rank_difference=args.rank_difference,
        n_datasets=args.n_datasets,
        alpha=args.alpha,
        test=args.test,
    )
    print(res.to_json() if args.json else res)
    return 0
