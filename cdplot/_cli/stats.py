"""``cdplot stats``: the statistics of an analysis as text, JSON or CSV."""

from __future__ import annotations

import argparse
import json

from .._options import JSON_MATRIX_MAX_METHODS, STATS_FORMATS
from ..errors import CdplotError, opt
from . import progress
from .common import (
    add_analysis_options,
    add_input_options,
    add_posthoc_options,
    output_format,
    run_analyses,
    write_text,
)

# what the extension of -o OUT says
EXTENSIONS = {".txt": "text", ".json": "json", ".csv": "csv"}


def register(sub) -> None:
    p = sub.add_parser(
        "stats",
        help="average ranks, Friedman test, post-hoc test and groups",
        description=(
            "Print the average ranks, the Friedman and Iman-Davenport tests, the post-hoc "
            "test with its critical difference or adjusted p-values, the groups of methods that "
            "do not differ significantly, the conclusion in words, and the effect sizes of the "
            "significant pairs (Cliff's delta and Cohen's d, positive when the first method is "
            "better, with magnitudes after Romano et al. 2006 and Cohen 1988)."
        ),
        epilog="Example: cdplot stats --example demsar2006 --test bonferroni-dunn --control C4.5",
    )
    add_input_options(p)
    add_analysis_options(p, auto=True)
    add_posthoc_options(p)
    g = p.add_argument_group("output")
    g.add_argument(
        "--format",
        choices=STATS_FORMATS,
        default=None,
        help="text (default), json (one object; its key effect_sizes holds Cliff's delta and "
        "Cohen's d of every pair, their magnitudes and each method's mean, std, median and "
        "confidence intervals), or csv (one row per method: rank order, "
        "average rank, mean score, groups, adjusted p-values against every method)",
    )
    g.add_argument("--json", action="store_true", help="the same as --format json")
    g.add_argument(
        "--matrices",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="JSON: include the k x k matrices of statistics, p-values and effect sizes "
        f"(default: up to {JSON_MATRIX_MAX_METHODS} methods); either way the file says "
        "whether they are there and why",
    )
    g.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="write to this file instead of standard output (.txt, .json or .csv)",
    )
    p.set_defaults(func=run)


def _label(result) -> str:
    return result.metric if result.metric is not None else (result.scores.source or "scores")


def run(args) -> int:
    if args.json:
        if args.format not in (None, "json"):
            raise CdplotError(f"options --json and --format {args.format} disagree; give one")
        args.format = "json"
    fmt = output_format(args, EXTENSIONS, default="text")
    if args.matrices is not None and fmt != "json":
        raise CdplotError(
            f"option {opt('matrices', args.matrices)} applies to JSON output, not {fmt}; "
            "add --json or leave the option out",
            option="matrices",
        )
    results = run_analyses(args)
    progress.step("writing the results")
    write_text(args, _text(results, fmt, args.matrices), fmt)
    return 0


def _text(results, fmt: str, matrices: bool | None = None) -> str:
    if fmt == "csv":
        from ..io._export import to_csv

        return to_csv(results)
    if fmt == "json":
        if len(results) == 1:
            payload = results[0].to_dict(matrices=matrices)
        else:
            payload = {"metrics": {_label(r): r.to_dict(matrices=matrices) for r in results}}
        # indented JSON goes through json's pure-Python encoder; for thousands of
        # methods (a million significant pairs) write it compact, in C
        k = max(getattr(getattr(r, "analysis", r), "n_methods", 0) for r in results)
        indent = 2 if k <= JSON_MATRIX_MAX_METHODS else None
        return json.dumps(payload, indent=indent, ensure_ascii=False) + "\n"
    return ("\n\n" + "=" * 72 + "\n\n").join(str(r) for r in results) + "\n"
