"""``cdplot pair``: two methods compared by the tests that fit the data.

The file says what kind of comparison it allows:

* per-fold scores (a ``fold`` column, and ``repeat`` for repeated CV) of one
  data set: the cross-validated t- and F-tests that fit ``--scheme``, and
  with ``--rope`` the Bayesian correlated t-test;
* scores over many data sets (a wide or long score table, or per-fold scores
  of several data sets, which are averaged): paired t, Wilcoxon and sign
  tests, and with ``--rope`` the Bayesian signed-rank test;
* predictions on one test set (a column of true labels such as ``y_true``
  and one column of predicted labels per method): McNemar's test.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from dataclasses import replace

from .._options import NULL_METHODS, ZERO_METHODS
from ..errors import CdplotError
from .common import add_column_options, parse_alpha, say_written, selection_kwargs

PAIR_TESTS = (
    "kfold-t",
    "corrected-t",
    "5x2cv-t",
    "5x2cv-f",
    "blocked-t",
    "mcnemar",
    "pair",
    "bayes",
)


def register(sub) -> None:
    # Long: one add_argument per option, read top to bottom like --help
    p = sub.add_parser(
        "pair",
        help="compare two methods: CV t-tests, McNemar, Wilcoxon/sign, Bayesian tests",
        description=(
            "Compare two methods with the tests that fit the data: per-fold scores of one data set "
            "(k-fold, corrected resampled, 5x2cv t and F, blocked mx2 t-tests; --scheme says how "
            "the folds were made), scores over many data sets (paired t, Wilcoxon signed-rank, "
            "sign test with Demsar's critical wins), or predictions on one test set (McNemar). "
            "With --rope the Bayesian correlated t-test or signed-rank test is added."
        ),
        epilog=(
            "Examples: cdplot pair folds.csv --methods svm,tree --scheme 10x10 --rope 0.01; "
            "cdplot pair --example demsar2006 --methods C4.5+m,C4.5"
        ),
    )
    p.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="per-fold scores, a score table, or predictions (CSV, TSV or JSON)",
    )
    p.add_argument("--example", metavar="NAME", help="use a bundled score table instead of FILE")
    p.add_argument(
        "--test",
        action="append",
        choices=PAIR_TESTS,
        metavar="TEST",
        help="run only this test (repeatable): "
        + ", ".join(PAIR_TESTS)
        + "; 'pair' is paired t + Wilcoxon + sign over data sets, 'bayes' the "
        "Bayesian test that fits (needs --rope). Default: every test that fits",
    )
    p.add_argument(
        "--scheme",
        metavar="SCHEME",
        help="how per-fold scores were made: kfold, RxK (e.g. 10x10, 5x2), "
        "blocked-mx2 (e.g. blocked-3x2) or resampled",
    )
    p.add_argument("--n-train", type=int, metavar="N", help="training set size (corrected t-tests)")
    p.add_argument("--n-test", type=int, metavar="N", help="test set size (corrected t-tests)")
    p.add_argument(
        "--rope",
        type=float,
        metavar="R",
        help="half-width of the region of practical equivalence; adds the Bayesian test",
    )
    p.add_argument(
        "--prior-strength",
        type=float,
        default=0.5,
        metavar="S",
        help="weight of the pseudo-observation at zero of the Bayesian signed-rank test "
        "(default: 0.5)",
    )
    p.add_argument(
        "--seed", type=int, default=0, help="seed of the Bayesian signed-rank sampling (default: 0)"
    )
    p.add_argument(
        "--samples",
        type=int,
        default=50_000,
        metavar="N",
        help="posterior samples of the Bayesian signed-rank test (default: 50000)",
    )
    p.add_argument(
        "--dataset", metavar="NAME", help="per-fold scores of several data sets: test this one"
    )
    p.add_argument(
        "--metric", metavar="NAME", help="score tables with several metrics: use this one"
    )
    p.add_argument("--truth-col", metavar="NAME", help="predictions: the column of true labels")
    g = add_column_options(p, pair=True)
    g.add_argument("--fold-col", metavar="NAME", help="per-fold scores: column of fold indices")
    d = p.add_mutually_exclusive_group()
    d.add_argument(
        "--lower-is-better",
        dest="higher_is_better",
        action="store_const",
        const=False,
        help="lower scores are better (errors, losses)",
    )
    d.add_argument(
        "--higher-is-better",
        dest="higher_is_better",
        action="store_const",
        const=True,
        help="higher scores are better (default unless the data say otherwise)",
    )
    p.add_argument(
        "--alpha",
        type=parse_alpha,
        default=0.05,
        help="significance level in (0, 1) (default: 0.05)",
    )
    p.add_argument(
        "--zero-method",
        choices=ZERO_METHODS,
        default="demsar",
        help="Wilcoxon: treatment of zero differences (default: demsar, Demsar's rule: split "
        "their ranks evenly, ignoring one when their number is odd; zsplit is scipy's rule)",
    )
    p.add_argument(
        "--distribution",
        # the keyword is scipy's method=, but --method would be confused with --methods
        dest="method",
        choices=NULL_METHODS,
        default="auto",
        help="McNemar and Wilcoxon: exact or asymptotic null distribution of the p-values "
        "(default: auto)",
    )
    p.add_argument(
        "--continuity",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="McNemar, asymptotic p-value: Edwards' continuity correction (default: on)",
    )
    p.add_argument(
        "--format",
        choices=("text", "json"),
        help="text (default) or json (one object)",
    )
    p.add_argument("--json", action="store_true", help="the same as --format json")
    p.add_argument(
        "--plot",
        metavar="OUT",
        help="draw the Bayesian posterior (.png, .svg or .pdf; needs --rope)",
    )
    # the defaults tell an option given from one left out (_refuse_unused)
    defaults = {a.dest: a.default for a in p._actions if a.dest != "help"}
    p.set_defaults(func=functools.partial(run, defaults=defaults))


def _read(args):
    """(kind, truth column, records) of the input file; records are None for JSON tables."""
    from ..io import read_records
    from ..io._text import read_bytes

    _, raw, _ = read_bytes(args.file, max_bytes=args.max_input_size)
    if raw.lstrip()[:1] == b"{":
        return "datasets", None, None
    _, records = read_records(args.file, sep=args.sep, max_bytes=args.max_input_size)
    header = list(records[0]) if records else []
    kind, truth = _kind(header, args.truth_col, args.fold_col)
    return kind, truth, records


def _kind(header, truth_col, fold_col=None):
    from ..io._roles import TRUTH_NAMES, norm, role_of

    if truth_col is not None:
        if truth_col not in header:
            raise CdplotError(
                f"option --truth-col {truth_col!r} is not a column; the columns are "
                f"{', '.join(map(repr, header))}"
            )
        return "predictions", truth_col
    for h in header:
        if norm(h) in TRUTH_NAMES:
            return "predictions", h
    if fold_col is not None or any(role_of(h) == "repetition" for h in header):
        return "folds", None
    return "datasets", None


# what each kind of input is, in the words of the messages
_KINDS = {
    "predictions": "predictions on one test set (McNemar's test)",
    "table": "scores over many data sets (a score table)",
    "example": "scores over many data sets (a bundled example, --example)",
    "folds": "the per-fold tests of one data set",
    "averaged": "per-fold scores of several data sets, averaged over the folds",
}
_OVER_DATASETS = frozenset({"table", "example", "averaged"})
_READ = frozenset({"table", "folds", "averaged"})  # read by the column options
# each option that some inputs do not use: (the inputs that use it, what it is for).
# The other commands refuse file-reading options with --example through their own list
# (_cli/common.py _FILE_OPTIONS): their input's kind is known from the flags, while here it
# is found in the file's columns, so a refusal names the kind found and what the option
# is for, and a test holds every option of pair to this table.
_APPLIES = {
    "scheme": ({"folds"}, "per-fold scores of one data set (a file with a fold column)"),
    "n_train": ({"folds"}, "per-fold scores of one data set (a file with a fold column)"),
    "n_test": ({"folds"}, "per-fold scores of one data set (a file with a fold column)"),
    "dataset": ({"folds"}, "per-fold scores (a file with a fold column)"),
    "rope": (_OVER_DATASETS | {"folds"}, "scores (the Bayesian tests)"),
    "prior_strength": (_OVER_DATASETS, "the Bayesian signed-rank test over data sets"),
    "samples": (_OVER_DATASETS, "the Bayesian signed-rank test over data sets"),
    "seed": (_OVER_DATASETS, "the Bayesian signed-rank test over data sets"),
    "zero_method": (_OVER_DATASETS, "the Wilcoxon test over data sets"),
    "method": (_OVER_DATASETS | {"predictions"}, "the Wilcoxon test and McNemar's test"),
    "continuity": ({"predictions"}, "McNemar's test of predictions"),
    "higher_is_better": (_OVER_DATASETS | {"folds"}, "scores"),
    "metric": (_READ | {"example"}, "scores"),
    "metric_col": (_READ, "files of scores"),
    "dataset_col": (_READ, "files of scores"),
    "method_col": (_READ, "files of scores"),
    "score_col": (_READ, "files of scores"),
    "repetition_col": (_READ, "files of scores"),
    "fold_col": ({"folds", "averaged"}, "per-fold scores"),
    "layout": ({"table"}, "score tables read whole (per-fold files are read by their fold column)"),
    "orient": ({"table"}, "JSON objects of score tables"),
    "nan_policy": ({"table"}, "score tables (per-fold scores must have every fold)"),
    "exclude": (_OVER_DATASETS, "scores over many data sets"),
    "datasets": (_OVER_DATASETS, "scores over many data sets (per-fold tests: --dataset)"),
    "rename": (_OVER_DATASETS, "scores over many data sets"),
    "truth_col": ({"predictions"}, "files of predictions"),
    "sep": (_READ | {"predictions"}, "files"),
    "max_input_size": (_READ | {"predictions"}, "files"),
}


def _flag(dest, value) -> str:
    """The option as it was typed, for a message."""
    if dest == "higher_is_better":
        return "--higher-is-better" if value else "--lower-is-better"
    if dest == "continuity":
        return "--continuity" if value else "--no-continuity"
    return "--" + {"method": "distribution"}.get(dest, dest).replace("_", "-")


def _refuse_unused(args, kind, defaults):
    """Options that do not apply to this kind of input are errors, not silently ignored."""
    for dest, (kinds, used_by) in _APPLIES.items():
        value = getattr(args, dest)
        if value is None or value == defaults.get(dest):
            continue
        if kind not in kinds:
            raise CdplotError(
                f"option {_flag(dest, value)} does not apply to {_KINDS[kind]}; it is for {used_by}"
            )
        if dest in ("prior_strength", "samples", "seed") and args.rope is None:
            raise CdplotError(
                f"option {_flag(dest, value)} applies to the Bayesian signed-rank test, which "
                "needs --rope (the region of practical equivalence)"
            )


def _check_tests(tests, kind, fits):
    if not tests:
        return
    for t in tests:
        if t not in fits:
            raise CdplotError(f"--test {t} does not fit {kind}; tests that fit: {', '.join(fits)}")


def _check_options(args):
    if args.methods is not None and len(args.methods) != 2:
        raise CdplotError(
            f"option --methods names {len(args.methods)} method(s); name the two to compare, A,B"
        )
    if args.rope is not None and not args.rope >= 0:
        raise CdplotError(f"option --rope {args.rope!r} must be a number >= 0")
    if args.samples < 1:
        raise CdplotError(f"option --samples {args.samples!r} must be a positive whole number")
    if args.tests and "bayes" in args.tests and args.rope is None:
        raise CdplotError("--test bayes needs --rope (the region of practical equivalence)")
    if args.rope is not None and args.tests and "bayes" not in args.tests:
        raise CdplotError(
            f"option --rope adds the Bayesian test, which --test {' --test '.join(args.tests)} "
            "leaves out; add --test bayes or leave --rope out"
        )
    if args.plot is not None and args.rope is None:
        raise CdplotError("--plot draws the Bayesian posterior, which needs --rope")


def _pick(methods, args, source):
    if args.methods is None:
        if len(methods) != 2:
            raise CdplotError(
                f"{source}: the data hold {len(methods)} methods "
                f"({', '.join(methods)}); choose two with --methods A,B"
            )
        return methods[0], methods[1]
    a, b = args.methods
    for m in (a, b):
        if m not in methods:
            raise CdplotError(
                f"{source}: option --methods {m!r} is not a method; "
                f"methods are {', '.join(methods)}"
            )
    if a == b:
        raise CdplotError(f"option --methods names {a!r} twice; compare two different methods")
    return a, b


def _folds(args, source, records, defaults):
    from ..io._build import file_stem
    from ..io._folds import _fold_scores
    from ..io._table import resolve_direction
    from ..stats._bayesian import bayesian_correlated_ttest
    from ..stats._cv_tests import cv_test, fitting_tests, parse_scheme

    f = _fold_scores(
        records,
        source=source,
        row=lambda i: f"row {i + 1}",
        file_name=file_stem(source),
        dataset_col=args.dataset_col,
        method_col=args.method_col,
        score_col=args.score_col,
        repetition_col=_one_repetition_col(args),
        fold_col=args.fold_col,
        metric=args.metric,
        metric_col=args.metric_col,
    )
    if len(f.datasets) > 1 and args.dataset is None:
        for opt in ("scheme", "n_train", "n_test"):
            if getattr(args, opt) is not None:
                raise CdplotError(
                    f"option --{opt.replace('_', '-')} applies to the per-fold tests of one data "
                    f"set; these scores cover {len(f.datasets)} data sets, so add --dataset NAME "
                    f"(data sets are {', '.join(f.datasets[:5])}"
                    f"{', ...' if len(f.datasets) > 5 else ''})"
                )
        _refuse_unused(args, "averaged", defaults)
        return None, f
    _refuse_unused(args, "folds", defaults)
    a, b = _pick(f.methods, args, source)
    xa = f.scores(a, args.dataset)
    xb = f.scores(b, args.dataset)
    dataset = (
        args.dataset
        if args.dataset is not None
        else (f.datasets[0] if f.datasets[0] != "data" else None)
    )
    r, k = xa.shape
    if args.scheme is None:
        guess = "kfold" if r == 1 else f"{r}x{k}"
        raise CdplotError(
            f"{source}: per-fold scores need --scheme to say how the folds were made; these have "
            f"{r} repetition{'s' if r > 1 else ''} x {k} folds, e.g. --scheme {guess}"
            + (f" or --scheme blocked-{r}x2" if k == 2 and r > 1 else "")
        )
    scheme = parse_scheme(args.scheme)
    fits = fitting_tests(scheme)
    _check_tests(args.tests, f"scheme {scheme.text!r}", (*fits, "bayes"))
    run = [t for t in fits if not args.tests or t in args.tests]
    # the score column's and the file's names say which way is better (metric_error), as
    # for an analysis over data sets; the results say which direction was used and why
    decided = resolve_direction(f, args.higher_is_better)
    common = {
        "scheme": scheme,
        "n_train": args.n_train,
        "n_test": args.n_test,
        "higher_is_better": decided.higher_is_better,
        "methods": (a, b),
        "dataset": dataset,
    }
    out = [cv_test(xa, xb, test=t, alpha=args.alpha, **common) for t in run]
    if args.rope is not None and (not args.tests or "bayes" in args.tests):
        out.append(bayesian_correlated_ttest(xa, xb, rope=args.rope, **common))
    return [_with_note(r, decided.note) for r in out], f


def _with_note(res, note: str):
    """``res`` with the sentence that says which direction was used, and why."""
    return replace(res, notes=(*res.notes, note))


def _datasets(args, table):
    from ..stats._pair import compare_pair

    _check_tests(args.tests, "scores over many data sets", ("pair", "bayes"))
    a, b = _pick(table.methods, args, table.source or "scores")
    res = compare_pair(
        table,
        methods=(a, b),
        higher_is_better=args.higher_is_better,
        alpha=args.alpha,
        zero_method=args.zero_method,
        method=args.method,
        rope=args.rope,
        prior_strength=args.prior_strength,
        n_samples=args.samples,
        rng=args.seed,
    )
    if args.tests and "pair" not in args.tests:
        # --test bayes alone: the Bayesian test without the paired tests it comes with, and
        # the notes of the analysis (the direction used and why, the selection)
        return [replace(res.bayes, notes=(*res.bayes.notes, *res.notes))]
    return [res]


def _predictions(args, source, truth, records):
    from ..stats._mcnemar import mcnemar_from_predictions

    _check_tests(args.tests, "predictions", ("mcnemar",))
    methods = [h for h in records[0] if h != truth]
    a, b = _pick(methods, args, source)
    y = [r[truth] for r in records]
    return [
        mcnemar_from_predictions(
            y,
            [r[a] for r in records],
            [r[b] for r in records],
            method=args.method,
            continuity=args.continuity,
            alpha=args.alpha,
            methods=(a, b),
        )
    ]


def _averaged_table(f, source):
    from ..io import ScoreTable
    from ..io._folds import tied_means

    note = (
        f"Each data set's score is the mean over {len(f.repeats) * len(f.folds)} folds "
        f"({len(f.repeats)} repetition(s) x {len(f.folds)} folds); per-fold tests need --dataset."
    )
    # near-equal means tied as read_scores ties them, and said in the same words
    means, tie_notes = tied_means(f)
    return ScoreTable(
        values=means,
        methods=f.methods,
        datasets=f.datasets,
        source=source,
        notes=(*f.notes, note, *tie_notes),
        metric=f.metric,
        higher_is_better=f.higher_is_better,
        direction=f.direction,
        direction_conflict=f.direction_conflict,
    )


def _one_repetition_col(args):
    cols = args.repetition_col or [None]
    if len(cols) > 1:
        raise CdplotError(
            "option --repetition-col is given twice; per-fold scores have one column of repetitions"
        )
    return cols[0]


def run(args, *, defaults) -> int:
    args.tests = args.test
    if args.json:
        if args.format not in (None, "json"):
            raise CdplotError(f"options --json and --format {args.format} disagree; give one")
        args.format = "json"
    _check_options(args)
    if args.example and args.file:
        raise CdplotError("give either FILE or --example, not both")
    selection = selection_kwargs(args)
    if args.example:
        from ..datasets import load_example
        from ..io import as_score_tables
        from ..stats._compare import single_table

        _refuse_unused(args, "example", defaults)
        table = single_table(
            as_score_tables(load_example(args.example), metric=args.metric, **selection)
        )
        kind, results = "datasets", _datasets(args, table)
    elif args.file:
        kind, truth, records = _read(args)
        if kind != "folds":
            _refuse_unused(args, "table" if kind == "datasets" else kind, defaults)
        if kind == "predictions":
            results = _predictions(args, args.file, truth, records)
        elif kind == "folds":
            results, f = _folds(args, args.file, records, defaults)
            if results is None:
                kind = "datasets"
                from ..io import as_score_tables
                from ..stats._compare import single_table

                table = single_table(as_score_tables(_averaged_table(f, args.file), **selection))
                results = _datasets(args, table)
        else:
            from ..io import read_scores
            from ..stats._compare import single_table

            table = single_table(
                read_scores(
                    args.file,
                    metric=args.metric,
                    layout=args.layout,
                    sep=args.sep,
                    dataset_col=args.dataset_col,
                    method_col=args.method_col,
                    score_col=args.score_col,
                    repetition_col=args.repetition_col,
                    metric_col=args.metric_col,
                    orient=args.orient,
                    nan_policy=args.nan_policy,
                    max_bytes=args.max_input_size,
                    **selection,
                )
            )
            results = _datasets(args, table)
    else:
        raise CdplotError("no input: give a FILE or --example NAME")

    if args.plot is not None:
        _plot(args, results)
    if args.format == "json":
        json.dump(
            {"kind": kind, "results": [r.to_dict() for r in results]},
            sys.stdout,
            indent=2,
            ensure_ascii=False,
        )
        sys.stdout.write("\n")
        return 0
    for i, r in enumerate(results):
        if i:
            print()
        print(r)
    return 0


def _plot(args, results):
    from ..stats._bayesian import BayesianSignedRankResult, BayesianTTestResult

    for r in results:
        bayes = getattr(r, "bayes", None) if not isinstance(r, BayesianTTestResult) else r
        if isinstance(bayes, (BayesianTTestResult, BayesianSignedRankResult)):
            from ..plot._bayesian import posterior_density, posterior_simplex
            from ..plot._save import format_of, save_figure

            draw = (
                posterior_density if isinstance(bayes, BayesianTTestResult) else posterior_simplex
            )
            save_figure(draw(bayes), args.plot)
            say_written(args, args.plot, format_of(args.plot))
            return
    raise CdplotError("--plot: no Bayesian result to draw (the tests chosen exclude 'bayes')")
