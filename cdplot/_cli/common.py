"""Options shared by the subcommands, and the load-and-analyse step they share.

The numerical layers are imported inside the functions that run a command, so
that ``cdplot --help`` and argument errors answer before numpy is loaded.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path

from .._atomic import atomic_write
from .._options import (
    CORRECTIONS,
    MAX_BYTES,
    MAX_DPI,
    MIN_DPI,
    NAN_POLICIES,
    NULL_METHODS,
    ORIENTS,
    SVG_TEXTS,
    TESTS,
    ZERO_METHODS,
    check_alpha,
)
from ..errors import CdplotError
from . import progress

__all__ = [
    "add_input_options",
    "add_column_options",
    "add_analysis_options",
    "selection_kwargs",
    "load_tables",
    "analysis_kwargs",
    "analyse",
    "run_analyses",
    "analyse_ranks",
    "add_posthoc_options",
    "analyse_posthoc",
    "posthoc_or_ranks",
    "output_format",
    "parse_alpha",
    "write_text",
    "say_written",
]


def parse_alpha(text: str) -> float:
    """``--alpha``: a number in (0, 1), checked by the library's own rule."""
    try:
        return check_alpha(text)
    except CdplotError as exc:
        # "option alpha='2' is outside (0, 1)" -> "'2' is outside (0, 1)": argparse names --alpha
        reason = str(exc).partition(f"alpha={text!r} ")[2]
        raise argparse.ArgumentTypeError(f"{text!r} {reason}") from None


def add_input_options(parser: argparse.ArgumentParser, *, many: bool = False) -> None:
    """Add the input file(s), ``--example`` and the table-reading options."""
    if many:
        parser.add_argument(
            "files",
            nargs="*",
            metavar="FILE",
            help="score tables (CSV, TSV, JSON or whitespace-aligned text) or aeon/tsml-eval "
            "results folders; several are analysed one after another",
        )
    else:
        parser.add_argument(
            "files",
            nargs="?",
            metavar="FILE",
            help="score table (CSV, TSV, JSON or whitespace-aligned text) or an aeon/tsml-eval "
            "results folder",
        )
    g = parser.add_argument_group("input")
    g.add_argument(
        "--example",
        metavar="NAME",
        help="use a bundled example instead of FILE: demsar2006, demsar2006-ranks, yang-table9",
    )
    g.add_argument(
        "--metric", metavar="NAME", help="analyse only this metric of a table with several"
    )
    # not "ranks": cdplot plot's --no-ranks already stores there (hide ranks on the diagram)
    g.add_argument(
        "--ranks",
        dest="ranks_input",
        action="store_true",
        help="FILE holds average ranks printed in a paper (rows of method,average_rank; 1 = "
        "best) instead of scores; needs --n-datasets",
    )
    g.add_argument(
        "--n-datasets",
        type=_count,
        metavar="N",
        help="with --ranks: the number of data sets the average ranks were computed over",
    )
    add_column_options(parser, group=g)


def _count(text: str) -> int:
    """``--n-datasets``: a whole number (the library refuses fewer than 2, saying why)."""
    try:
        return int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of data sets") from None


def _size(text: str) -> int:
    """``--max-input-size``: bytes, or a number with K, M or G (powers of 1024)."""
    units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    t = text.strip().upper().removesuffix("B")
    unit = t[-1:] if t[-1:] in ("K", "M", "G") else ""
    try:
        value = float(t[: len(t) - len(unit)])
    except ValueError:
        value = -1.0
    if not value > 0 or value * units[unit] > 1 << 50:
        raise argparse.ArgumentTypeError(
            f"--max-input-size {text!r} is not a size; give bytes or a number with K, M or G"
        )
    return int(value * units[unit])


def _names(text: str) -> list:
    names = [n.strip() for n in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"{text!r} holds an empty name; separate names by commas")
    return names


def _rename(text: str) -> tuple:
    old, sep, new = text.partition("=")
    if not sep or not old.strip() or not new.strip():
        raise argparse.ArgumentTypeError(f"--rename {text!r} is not OLD=NEW")
    return old.strip(), new.strip()


def add_column_options(parser, *, group=None, pair=False):
    """Add the reading options every command shares: layout, columns, selection, limits.

    With ``pair``, ``--methods`` names the two methods of ``cdplot pair``.
    """
    g = group or parser.add_argument_group("input")
    g.add_argument(
        "--layout",
        choices=("auto", "wide", "long"),
        default="auto",
        help=(
            "wide: data sets in rows, methods in columns; long: one score per row (default: detect)"
        ),
    )
    g.add_argument(
        "--sep",
        metavar="CHAR",
        help="column separator: one character, tab or '\\t' (default: detect , ; tab | and "
        "aligned spaces)",
    )
    g.add_argument("--dataset-col", metavar="NAME", help="long tables: column of data-set names")
    g.add_argument("--method-col", metavar="NAME", help="long tables: column of method names")
    g.add_argument("--score-col", metavar="NAME", help="long tables: column of scores")
    g.add_argument(
        "--repetition-col",
        metavar="NAME",
        action="append",
        help="long tables: column of folds/seeds/resamples, repeatable for several; repeated "
        "scores are averaged exactly",
    )
    g.add_argument("--metric-col", metavar="NAME", help="long tables: column of metric names")
    g.add_argument(
        "--orient",
        choices=ORIENTS,
        default="auto",
        help="JSON objects of objects: whether the outer keys are datasets or methods "
        "(default: auto, refused when ambiguous)",
    )
    g.add_argument(
        "--methods",
        type=_names,
        metavar="A,B" if pair else "A,B,C",
        help="the two methods to compare (default: the two of the data)"
        if pair
        else "keep only these methods, in this order",
    )
    g.add_argument("--exclude", type=_names, metavar="A,B", help="leave these methods out")
    g.add_argument("--datasets", type=_names, metavar="D1,D2", help="keep only these data sets")
    g.add_argument(
        "--rename",
        type=_rename,
        action="append",
        metavar="OLD=NEW",
        help="rename a method in every output (repeatable)",
    )
    g.add_argument(
        "--nan-policy",
        choices=NAN_POLICIES,
        default="raise",
        help="missing scores: raise (default) stops with an error naming them; omit drops "
        "the data sets that have them, omit-methods the methods, omit-fewest whichever keeps "
        "the most scores; every output says what was dropped",
    )
    g.add_argument(
        "--max-input-size",
        type=_size,
        default=MAX_BYTES,
        metavar="SIZE",
        help="refuse input files larger than this (bytes, or with K, M, G; default: 1G)",
    )
    return g


def selection_kwargs(args) -> dict:
    """``methods``, ``exclude``, ``datasets`` and ``rename`` from the options."""
    rename = None
    if args.rename:
        rename = {}
        for old, new in args.rename:
            if old in rename:
                raise CdplotError(f"option --rename names {old!r} twice")
            rename[old] = new
    return {
        "methods": args.methods,
        "exclude": args.exclude,
        "datasets": args.datasets,
        "rename": rename,
    }


def add_analysis_options(parser: argparse.ArgumentParser, *, auto: bool = False) -> None:
    """Add direction, alpha, test, correction and the other options of :func:`cdplot.compare`.

    With ``auto``, ``--test auto`` chooses the analysis as :func:`cdplot.compare_auto` does.
    """
    g = parser.add_argument_group("analysis")
    d = g.add_mutually_exclusive_group()
    d.add_argument(
        "--lower-is-better",
        dest="higher_is_better",
        action="store_const",
        const=False,
        help=(
            "lower scores are better (errors, losses); default: the "
            "data's declared direction, else higher"
        ),
    )
    d.add_argument(
        "--higher-is-better",
        dest="higher_is_better",
        action="store_const",
        const=True,
        help="higher scores are better (accuracy, AUC)",
    )
    g.add_argument(
        "--lower-is-better-metric",
        action="append",
        default=[],
        metavar="NAME",
        help="this metric is lower-is-better (repeat for several metrics)",
    )
    g.add_argument(
        "--alpha",
        type=parse_alpha,
        default=0.05,
        help="significance level in (0, 1) (default: 0.05)",
    )
    g.add_argument(
        "--test",
        choices=(*TESTS, "auto") if auto else TESTS,
        default="nemenyi",
        help="post-hoc test (default: nemenyi)"
        + (
            "; auto: ANOVA + Tukey or Friedman + Nemenyi, chosen by checks of the "
            "assumptions (cdplot.compare_auto)"
            if auto
            else ""
        ),
    )
    g.add_argument(
        "--correction",
        choices=CORRECTIONS,
        help="multiple-testing correction for friedman-z, wilcoxon and sign (default: holm)",
    )
    g.add_argument(
        "--control",
        metavar="NAME",
        help="compare with this method only (bonferroni-dunn default: the best-ranked method)",
    )
    g.add_argument(
        "--no-tie-correction",
        dest="tie_correction",
        action="store_false",
        help="report Demsar's uncorrected Friedman statistic as the main one",
    )
    g.add_argument(
        "--zero-method",
        choices=ZERO_METHODS,
        default="demsar",
        help="Wilcoxon: treatment of zero differences (default: demsar, Demsar's rule: split "
        "their ranks evenly, ignoring one when their number is odd; zsplit is scipy's rule)",
    )
    g.add_argument(
        "--distribution",
        # the keyword is scipy's method=, but --method would be confused with --methods
        dest="method",
        choices=NULL_METHODS,
        default="auto",
        help="Wilcoxon: exact or normal null distribution of the p-values (default: auto)",
    )


def load_tables(args):
    """The score tables named on the command line (one per file and metric)."""
    from ..io import as_score_tables, read_scores

    if getattr(args, "ranks_input", False):
        # a command that reads score tables only (cdplot table) and was given --ranks
        raise CdplotError(
            f"option --ranks does not apply to cdplot {args.command}, which needs the scores "
            "on each data set; average ranks have none"
        )
    if getattr(args, "n_datasets", None) is not None:
        raise CdplotError(
            "option --n-datasets applies only with --ranks (a FILE of average ranks); "
            "a score table says its number of data sets itself"
        )
    selection = selection_kwargs(args)
    files = args.files if isinstance(args.files, list) else ([args.files] if args.files else [])
    if args.example and files:
        raise CdplotError("give either FILE or --example, not both")
    if args.example:
        from ..datasets import load_example

        _refuse_file_options(args)
        progress.step(f"reading the example {args.example}")
        tables = list(as_score_tables(list(load_example(args.example)), **selection))
    elif files:
        tables = []
        if files.count("-") > 1:
            raise CdplotError("FILE '-' (standard input) is given twice; it can be read once")
        for f in files:
            progress.step(f"reading {'standard input' if f == '-' else f}")
            tables += read_scores(
                # "-" is standard input, as for cat and sort; a file named - is ./-
                sys.stdin.buffer if f == "-" else f,
                layout=args.layout,
                sep=args.sep,
                nan_policy=args.nan_policy,
                dataset_col=args.dataset_col,
                method_col=args.method_col,
                score_col=args.score_col,
                repetition_col=args.repetition_col,
                metric_col=args.metric_col,
                orient=args.orient,
                max_bytes=args.max_input_size,
                # cdplot table sets it, to print the spread over repetitions
                keep_repetitions=getattr(args, "keep_repetitions", False),
                **selection,
            )
    else:
        raise CdplotError("no input: give a score table FILE or --example NAME")
    if args.metric is not None:
        tables = list(as_score_tables(tables, metric=args.metric))
    known = {t.metric for t in tables}
    for m in args.lower_is_better_metric:
        if m not in known:
            raise CdplotError(f"option --lower-is-better-metric {m!r} is not a metric of the data")
    return tables


# how a FILE is read: (attribute, flag, value when not given); a bundled example is read
# as it is, so these are refused with --example rather than ignored.  cdplot pair has its
# own table (_cli/pair.py _APPLIES) and leaves this one alone: there the kind of input is
# found in the file's columns (predictions, per-fold scores, a score table...) and each of
# its options names the kinds that use it, so a refusal must say what the option is for.
# Here the kind is known from the flags before anything is read, the options are one
# group shared by five commands, and the one thing to say is "leave it out".
_FILE_OPTIONS = (
    ("layout", "--layout", "auto"),
    ("sep", "--sep", None),
    ("orient", "--orient", "auto"),
    ("dataset_col", "--dataset-col", None),
    ("method_col", "--method-col", None),
    ("score_col", "--score-col", None),
    ("repetition_col", "--repetition-col", None),
    ("metric_col", "--metric-col", None),
    ("max_input_size", "--max-input-size", MAX_BYTES),
)


def _refuse_file_options(args) -> None:
    for name, flag, unset in _FILE_OPTIONS:
        if getattr(args, name, unset) not in (unset, []):
            raise CdplotError(
                f"option {flag} says how to read a FILE; --example {args.example} is a bundled "
                "table read as it is: leave the option out"
            )


def analysis_kwargs(args, table) -> dict:
    """Keyword arguments of :func:`cdplot.stats._compare.compare_table` from the options."""
    hib = args.higher_is_better
    if table.metric is not None and table.metric in args.lower_is_better_metric:
        hib = False
    return {
        "higher_is_better": hib,
        "alpha": args.alpha,
        "test": args.test,
        "correction": args.correction,
        "control": args.control,
        "tie_correction": args.tie_correction,
        "zero_method": args.zero_method,
        "method": args.method,
        "nan_policy": args.nan_policy,
    }


def analyse(args, table):
    """The analysis of one table: :func:`cdplot.compare_auto` for ``--test auto``."""
    kwargs = analysis_kwargs(args, table)
    what = f" {table.metric}" if table.metric is not None else ""
    progress.step(
        f"analysing{what}: {len(table.methods)} methods on {len(table.datasets)} data sets"
    )
    if kwargs["test"] == "auto":
        from ..stats._parametric import compare_auto

        del kwargs["test"]
        return compare_auto(table, **kwargs)
    from ..stats._compare import compare_table

    return compare_table(table, **kwargs)


def run_analyses(args):
    """Load the tables and analyse each; returns a list of results."""
    one = posthoc_or_ranks(args)
    if one is not None:
        return [one]
    return [analyse(args, t) for t in load_tables(args)]


def posthoc_or_ranks(args):
    """The result of ``--pvalues`` or ``--ranks`` input; None when FILE holds scores.

    ``--test-name`` without ``--pvalues`` is refused here, once for every command.
    """
    if getattr(args, "pvalues", None) is not None:
        return analyse_posthoc(args)
    if getattr(args, "test_name", None) is not None:
        raise CdplotError("option --test-name names the test of --pvalues MATRIX; give both")
    if getattr(args, "ranks_input", False) and args.command in RANKS_COMMANDS:
        return analyse_ranks(args)
    return None


#: The commands that take --ranks (the others need scores on each data set).
RANKS_COMMANDS = ("stats", "plot", "report")

# options of score tables that average ranks do not have: dest -> (flag, default, why)
_READING = "it reads score tables; a file of average ranks has method,average_rank rows"
_NOT_FOR_RANKS = {
    "example": ("--example", None, "--ranks reads the average ranks from FILE"),
    "metric": ("--metric", None, _READING),
    "layout": ("--layout", "auto", _READING),
    "dataset_col": ("--dataset-col", None, _READING),
    "method_col": ("--method-col", None, _READING),
    "score_col": ("--score-col", None, _READING),
    "repetition_col": ("--repetition-col", None, _READING),
    "metric_col": ("--metric-col", None, _READING),
    "orient": ("--orient", "auto", _READING),
    "datasets": ("--datasets", None, "average ranks have no data sets to choose"),
    "nan_policy": ("--nan-policy", "raise", "average ranks have no missing scores to drop"),
    "methods": (
        "--methods",
        None,
        "the average ranks of some methods are not the ranks they have among themselves",
    ),
    "exclude": (
        "--exclude",
        None,
        "the average ranks of some methods are not the ranks they have among themselves",
    ),
    "higher_is_better": (
        "--lower-is-better",
        None,
        "average ranks are 1 = best whatever the direction of the scores",
    ),
    "lower_is_better_metric": (
        "--lower-is-better-metric",
        [],
        "average ranks are 1 = best whatever the direction of the scores",
    ),
    "tie_correction": (
        "--no-tie-correction",
        True,
        "average ranks allow only Demsar's uncorrected statistic, which is always used",
    ),
    "zero_method": ("--zero-method", "demsar", "average ranks allow no Wilcoxon test"),
    "method": ("--distribution", "auto", "average ranks allow no Wilcoxon test"),
    "decimals": ("--decimals", None, "average ranks have no scores to print"),
    "pair": ("--pair", None, "a head-to-head comparison needs the scores on each data set"),
}


def analyse_ranks(args):
    """``--ranks FILE --n-datasets N``: :func:`cdplot.compare_ranks` of the file."""
    from ..stats._from_ranks import compare_ranks

    if args.n_datasets is None:
        raise CdplotError(
            "option --ranks needs --n-datasets N, the number of data sets the average ranks "
            "were computed over"
        )
    ranks = _read_ranks_file(args)
    if args.test == "auto":
        raise CdplotError(
            "option --test auto chooses between ANOVA and the rank tests from the scores; "
            "with --ranks use nemenyi, bonferroni-dunn or friedman-z"
        )
    return compare_ranks(
        ranks,
        args.n_datasets,
        alpha=args.alpha,
        test=args.test,
        correction=args.correction,
        control=args.control,
    )


def _read_ranks_file(args):
    """The average ranks of ``--ranks FILE``, refusing the options of score tables."""
    from ..io import read_average_ranks

    for dest, (flag, default, why) in _NOT_FOR_RANKS.items():
        value = getattr(args, dest, default)
        if value != default:
            if dest == "higher_is_better":
                flag = "--higher-is-better" if value else "--lower-is-better"
            raise CdplotError(f"option {flag} does not apply to --ranks: {why}")
    files = args.files if isinstance(args.files, list) else ([args.files] if args.files else [])
    if len(files) != 1:
        raise CdplotError(
            f"option --ranks reads one FILE of average ranks; {len(files) or 'no'} "
            f"file{'s were' if len(files) != 1 else ' was'} given"
        )
    source = sys.stdin.buffer if files[0] == "-" else files[0]
    ranks = read_average_ranks(source, sep=args.sep, max_bytes=args.max_input_size)
    if args.rename:
        renamed = selection_kwargs(args)["rename"]
        unknown = [old for old in renamed if old not in ranks.methods]
        if unknown:
            raise CdplotError(
                f"option --rename names {unknown[0]!r}, which is not a method of "
                f"{ranks.source}; methods are {', '.join(ranks.methods)}"
            )
        ranks = replace(ranks, methods=tuple(renamed.get(m, m) for m in ranks.methods))
    return ranks


def add_posthoc_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--pvalues FILE`` and ``--test-name NAME``: a post-hoc test the user ran elsewhere."""
    g = parser.add_argument_group("your own post-hoc test")
    g.add_argument(
        "--pvalues",
        metavar="MATRIX",
        help="CSV of the p-values of a post-hoc test run elsewhere (Conover, Dunn, your own): "
        "method names as header and first column, as scikit-posthocs' posthoc_* output "
        "writes with to_csv; True/False cells for significance only.  The groups are drawn "
        "from it at --alpha and the ranks come from FILE (scores, or --ranks); cdplot runs "
        "no test, and the caption says so",
    )
    g.add_argument(
        "--test-name",
        metavar="NAME",
        help="with --pvalues: the name of the test that computed them, for the caption "
        "(e.g. Conover)",
    )


def analyse_posthoc(args):
    """``--pvalues MATRIX --test-name NAME``: :func:`cdplot.from_posthoc` of FILE's ranks."""
    from ..io._pvalue_matrix import read_pvalue_matrix
    from ..stats._compare import compare_table
    from ..stats._from_posthoc import from_posthoc

    if args.test_name is None:
        raise CdplotError(
            f"option --pvalues {args.pvalues!r} needs --test-name NAME, the test that computed "
            "the p-values (the caption names it)"
        )
    if args.test != "nemenyi" or args.correction is not None or args.control is not None:
        flag = (
            f"--test {args.test}"
            if args.test != "nemenyi"
            else "--correction"
            if args.correction is not None
            else "--control"
        )
        raise CdplotError(
            f"option {flag} chooses cdplot's own post-hoc test; with --pvalues the test is "
            "yours (name it with --test-name) and cdplot computes none"
        )
    if args.pvalues == "-":
        raise CdplotError("option --pvalues - : give the matrix as a file, not standard input")
    matrix = read_pvalue_matrix(args.pvalues, max_bytes=args.max_input_size)
    if args.ranks_input:
        ranks, n = _read_ranks_file(args), args.n_datasets
    else:
        tables = load_tables(args)
        if len(tables) != 1:
            raise CdplotError(
                f"option --pvalues holds the p-values of one metric; the data hold "
                f"{len(tables)}: choose one with --metric"
            )
        res = compare_table(tables[0], **analysis_kwargs(args, tables[0]))
        ranks, n = dict(zip(res.methods, res.average_ranks.tolist(), strict=True)), res.n_datasets
    return from_posthoc(ranks, matrix, test=args.test_name, alpha=args.alpha, n_datasets=n)


def _dpi(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--dpi {text!r} is not a number") from None
    if not MIN_DPI <= value <= MAX_DPI:
        raise argparse.ArgumentTypeError(
            f"--dpi {text!r} must be a number from {MIN_DPI} to {MAX_DPI}"
        )
    return value


def add_figure_file_options(group) -> None:
    """``--dpi`` and ``--svg-text``: how a figure is saved (save_figure's options)."""
    group.add_argument(
        "--dpi", type=_dpi, default=300, help="resolution of PNG output (default: 300)"
    )
    group.add_argument(
        "--svg-text",
        choices=SVG_TEXTS,
        default="paths",
        help="SVG output: glyph outlines that every viewer shows exactly (paths, the default), "
        "or editable text with the fonts embedded, exact in browsers but set in a substitute "
        "font by librsvg and Inkscape unless the font is installed (text)",
    )


def output_format(args, extensions: dict, *, default: str | None = None) -> str | None:
    """The format to write: ``--format``, else the one the extension of ``-o OUT`` implies.

    ``extensions`` maps lowercase suffixes to formats.  A ``--format`` that
    disagrees with the extension is an error (a PDF named ``.html`` misleads
    whoever opens it); an extension that implies nothing leaves ``--format``
    or ``default`` to decide.
    """
    out = getattr(args, "output", None)
    implied = extensions.get(Path(out).suffix.lower()) if out is not None else None
    if args.format is not None and implied is not None and implied != args.format:
        raise CdplotError(
            f"option --format {args.format} disagrees with the extension of -o {out!r}, "
            f"which means {implied}; make them agree or leave --format out"
        )
    if out is not None and args.format is None and implied is None and default is None:
        known = ", ".join(sorted(extensions))
        raise CdplotError(
            f"option -o {out!r}: the extension says no format; name it {known} or give --format"
        )
    return args.format or implied or default


def _size_text(size: int) -> str:
    if size < 1024:
        return f"{size} bytes"
    if size < 1 << 20:
        return f"{size / 1024:.1f} KiB"
    return f"{size / (1 << 20):.1f} MiB"


def say_written(args, path, fmt: str) -> None:
    """``cdplot COMMAND: wrote OUT (FORMAT, SIZE)`` on stderr, unless ``--quiet``."""
    if getattr(args, "quiet", False):
        return
    size = _size_text(os.path.getsize(path))
    label = {"tex": "TikZ"}.get(fmt, fmt.upper())
    print(f"cdplot {args.command}: wrote {path} ({label}, {size})", file=sys.stderr)


def write_text(args, text: str, fmt: str) -> None:
    """``text`` to ``-o OUT`` (atomically, then said) or to standard output."""
    if args.output is None:
        sys.stdout.write(text)
        return
    with atomic_write(args.output, "w") as fh:
        fh.write(text)
    say_written(args, args.output, fmt)
