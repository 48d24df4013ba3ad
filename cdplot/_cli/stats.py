"""``cdplot stats``: the statistics of an analysis as text or JSON."""

from __future__ import annotations

import json
import sys

from .._options import STATS_FORMATS
from .common import add_analysis_options, add_input_options, run_analyses


def register(sub) -> None:
    p = sub.add_parser(
        "stats",
        help="average ranks, Friedman test, post-hoc test and groups",
        description=(
            "Print the average ranks, the Friedman and Iman-Davenport tests, the post-hoc "
            "test with its critical difference or adjusted p-values, the groups of methods that "
            "do not differ significantly, and the conclusion in words."
        ),
        epilog="Example: cdplot stats --example demsar2006 --test bonferroni-dunn --control C4.5",
    )
    add_input_options(p)
    add_analysis_options(p)
    # 'auto' is not a post-hoc test of compare_table, so only 'stats' offers it
    test = next(a for a in p._actions if a.dest == "test")
    test.choices = (*test.choices, "auto")
    test.help = (
        "post-hoc test (default: nemenyi); auto: ANOVA + Tukey or "
        "Friedman + Nemenyi by assumption checks"
    )
    p.add_argument(
        "--format",
        choices=STATS_FORMATS,
        default=None,
        help="text (default), json (one object), or csv (one row per method: rank order, "
        "average rank, mean score, groups, adjusted p-values against every method)",
    )
    p.add_argument("--json", action="store_true", help="the same as --format json")
    p.set_defaults(func=run)


def _label(result) -> str:
    return result.metric if result.metric is not None else (result.scores.source or "scores")


def run(args) -> int:
    if args.test == "auto":
        from ..stats.parametric import compare_auto
        from .common import analysis_kwargs, load_tables

        results = []
        for t in load_tables(args):
            kwargs = analysis_kwargs(args, t)
            del kwargs["test"]
            results.append(compare_auto(t, **kwargs))
    else:
        results = run_analyses(args)
    fmt = args.format or ("json" if args.json else "text")
    if args.json and fmt != "json":
        from ..errors import CdplotError

        raise CdplotError(f"options --json and --format {fmt} disagree; give one")
    if fmt == "csv":
        from ..io.export import to_csv

        sys.stdout.write(to_csv(results))
        return 0
    if fmt == "json":
        if len(results) == 1:
            payload = results[0].to_dict()
        else:
            payload = {"metrics": {_label(r): r.to_dict() for r in results}}
        from ..stats.results import JSON_MATRIX_MAX_METHODS

        # indented JSON goes through json's pure-Python encoder; for thousands of
        # methods (a million significant pairs) write it compact, in C
        k = max(getattr(getattr(r, "analysis", r), "n_methods", 0) for r in results)
        indent = 2 if k <= JSON_MATRIX_MAX_METHODS else None
        sys.stdout.write(json.dumps(payload, indent=indent, ensure_ascii=False) + "\n")
        return 0
    for i, r in enumerate(results):
        if i:
            print("\n" + "=" * 72 + "\n")
        print(r)
    return 0
