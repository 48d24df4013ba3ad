"""The vocabulary of cdplot: every option's name and the words it accepts, defined once.

The same word means the same thing in every function, result field, command-line
option and JSON key; a Python keyword ``foo_bar=`` is the option ``--foo-bar`` on
the command line.  The choices below are imported everywhere (the command line
builds its ``choices`` from them without importing the numerical code, so
``cdplot --help`` starts at once), and validated with :func:`check_option`.

==================  =====================  ==============================================
Python keyword      command line           meaning
==================  =====================  ==============================================
``test``            ``--test``             the post-hoc test (:data:`TESTS`)
``correction``      ``--correction``       a multiple-testing procedure (:data:`CORRECTIONS`)
``control``         ``--control``          the method every other is compared with
``alpha``           ``--alpha``            significance level
``zero_method``     ``--zero-method``      zero differences in Wilcoxon (:data:`ZERO_METHODS`)
``method``          ``--distribution``     null distribution of a p-value (:data:`NULL_METHODS`)
``continuity``      ``--continuity``       McNemar's continuity correction (True/False)
``tie_correction``  ``--no-tie-correction``  Friedman's correction for ties
``nan_policy``      ``--nan-policy``       missing scores (:data:`NAN_POLICIES`)
``methods``         ``--methods``          the methods to keep (or the two of a pair)
``exclude``         ``--exclude``          methods to leave out
``datasets``        ``--datasets``         the data sets to keep
``rename``          ``--rename``           ``{old: new}`` names for methods
``repetition_col``  ``--repetition-col``   column(s) naming folds, resamples or seeds
``style``           ``--style``            a figure style (:data:`STYLES`)
``font``            ``--font``             a figure font (:data:`FONTS`, a family or a file)
``kind``            ``--kind``             a chart (:data:`KINDS`)
``format``          ``--format``           an output format (text, json, csv; html, pdf; ...)
``marks``           ``--marks``            what a data table marks (:data:`TABLE_MARKS`)
==================  =====================  ==============================================
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Literal, get_args

from .errors import CdplotError, opt

__all__ = [
    "check_option",
    "check_alpha",
    "check_bool",
    "MIN_DPI",
    "MAX_DPI",
    "JSON_MATRIX_MAX_METHODS",
    "MAX_BYTES",
    "TESTS",
    "CD_TESTS",
    "CORRECTIONS",
    "PAIRWISE_CORRECTIONS",
    "ALL_PAIRS_ONLY",
    "ZERO_METHODS",
    "NULL_METHODS",
    "NAN_POLICIES",
    "ORIENTS",
    "STYLES",
    "FONTS",
    "KINDS",
    "FIGURE_FORMATS",
    "REPORT_FORMATS",
    "TABLE_FORMATS",
    "TABLE_MARKS",
    "TEXT_FORMATS",
    "STATS_FORMATS",
    "EFFECT_PAIRS",
    "LAYOUTS",
    "RANK_TESTS",
    "CV_TESTS",
    "PAIRED_TESTS",
    "EFFECT_MEASURES",
    "PAPERS",
    # the same choices as types, for annotations
    "Test",
    "CDTest",
    "RankTest",
    "Correction",
    "PairwiseCorrection",
    "AllPairsCorrection",
    "ZeroMethod",
    "NullMethod",
    "NanPolicy",
    "Layout",
    "Orient",
    "CVTest",
    "PairedTest",
    "EffectMeasure",
    "Style",
    "Font",
    "Kind",
    "FigureFormat",
    "SvgText",
    "ReportFormat",
    "Paper",
    "TableFormat",
    "TableMark",
    "TextFormat",
    "StatsFormat",
    "EffectPairs",
    "RESAMPLES",
    "Resample",
]

# Each choice is written once, as a ``Literal`` that type checkers see in the signatures;
# the tuple that ``check_option`` and the command line use is read from it.
# post-hoc tests after the Friedman test
Test = Literal["nemenyi", "bonferroni-dunn", "friedman-z", "wilcoxon", "sign"]
TESTS: tuple[Test, ...] = get_args(Test)
# the tests a critical difference exists for
CDTest = Literal["nemenyi", "bonferroni-dunn"]
CD_TESTS: tuple[CDTest, ...] = get_args(CDTest)
# the tests that need only the average ranks (cdplot.compare_ranks)
RankTest = Literal["nemenyi", "bonferroni-dunn", "friedman-z"]
RANK_TESTS: tuple[RankTest, ...] = get_args(RankTest)
# multiple-testing procedures; the last two need the logical structure of all pairs
PairwiseCorrection = Literal["bonferroni", "holm", "hochberg", "hommel"]
AllPairsCorrection = Literal["shaffer", "bergmann"]
Correction = Literal[PairwiseCorrection, AllPairsCorrection]
CORRECTIONS: tuple[Correction, ...] = get_args(Correction)
ALL_PAIRS_ONLY: tuple[AllPairsCorrection, ...] = get_args(AllPairsCorrection)
# the procedures that apply to any family of p-values
PAIRWISE_CORRECTIONS: tuple[PairwiseCorrection, ...] = get_args(PairwiseCorrection)
ZeroMethod = Literal["demsar", "zsplit", "wilcox", "pratt"]
ZERO_METHODS: tuple[ZeroMethod, ...] = get_args(ZeroMethod)
NullMethod = Literal["auto", "exact", "asymptotic"]
NULL_METHODS: tuple[NullMethod, ...] = get_args(NullMethod)
# omit: drop the incomplete data sets; omit-methods: the incomplete methods;
# omit-fewest: whichever of those (or a greedy mix) keeps the most scores
NanPolicy = Literal["raise", "omit", "omit-methods", "omit-fewest"]
NAN_POLICIES: tuple[NanPolicy, ...] = get_args(NanPolicy)
# whether a table is data sets x methods or one score per row
Layout = Literal["auto", "wide", "long"]
LAYOUTS: tuple[Layout, ...] = get_args(Layout)
# what the outer keys of a JSON object of objects are
Orient = Literal["auto", "datasets", "methods"]
ORIENTS: tuple[Orient, ...] = get_args(Orient)
# tests on the cross-validation folds of two methods on one data set
CVTest = Literal["kfold-t", "corrected-t", "5x2cv-t", "5x2cv-f", "blocked-t"]
CV_TESTS: tuple[CVTest, ...] = get_args(CVTest)
# tests of each method against the best one over the repetitions of a data set
PairedTest = Literal["wilcoxon", "t-test"]
PAIRED_TESTS: tuple[PairedTest, ...] = get_args(PairedTest)
EffectMeasure = Literal["cliffs_delta", "cohens_d"]
EFFECT_MEASURES: tuple[EffectMeasure, ...] = get_args(EffectMeasure)
# figures
Style = Literal["paper", "paper-wide", "slides"]
STYLES: tuple[Style, ...] = get_args(Style)
# a figure's font is one of these, or a font family or file
Font = Literal["sans", "serif"]
FONTS: tuple[Font, ...] = get_args(Font)
Kind = Literal["cd", "intervals", "heatmap", "profile"]
KINDS: tuple[Kind, ...] = get_args(Kind)
# output formats, by what is written
FigureFormat = Literal["png", "svg", "pdf"]
FIGURE_FORMATS: tuple[FigureFormat, ...] = get_args(FigureFormat)
# how an SVG holds its text: glyph outlines (exact in every viewer) or editable <text>
SvgText = Literal["paths", "text"]
SVG_TEXTS: tuple[SvgText, ...] = get_args(SvgText)
ReportFormat = Literal["html", "pdf"]
REPORT_FORMATS: tuple[ReportFormat, ...] = get_args(ReportFormat)
Paper = Literal["a4", "letter"]
PAPERS: tuple[Paper, ...] = get_args(Paper)
TableFormat = Literal["latex", "markdown", "html"]
TABLE_FORMATS: tuple[TableFormat, ...] = get_args(TableFormat)
# what a data table marks: the best of each data set, and what is not worse than it
TableMark = Literal["best", "none", "wilcoxon", "t-test", "posthoc"]
TABLE_MARKS: tuple[TableMark, ...] = get_args(TableMark)
TextFormat = Literal["text", "latex"]
TEXT_FORMATS: tuple[TextFormat, ...] = get_args(TextFormat)
StatsFormat = Literal["text", "json", "csv"]
STATS_FORMATS: tuple[StatsFormat, ...] = get_args(StatsFormat)
# the pairs an effect-size table lists (cdplot table --effect-sizes PAIRS)
EffectPairs = Literal["significant", "all"]
EFFECT_PAIRS: tuple[EffectPairs, ...] = get_args(EffectPairs)
# what a bootstrap of cdplot.stability draws: the data sets, or the data sets and then
# the folds within each
Resample = Literal["datasets", "datasets-and-folds"]
RESAMPLES: tuple[Resample, ...] = get_args(Resample)

# resolution of PNG output: below 10 dpi a figure is a few pixels wide (0.001 gives none,
# which Agg refuses); above 2400 a wide figure passes Agg's 2**16-pixel limit
MIN_DPI, MAX_DPI = 10, 2400
# Most methods whose k x k matrices (statistics, p-values, effect sizes) a result's
# to_dict() and `cdplot stats --json` include unless told (matrices=, --matrices): for
# 2,000 methods they would be 12 million numbers, over 400 MB of JSON.
JSON_MATRIX_MAX_METHODS = 300
# Inputs larger than this are refused unless the caller raises the limit
# (max_bytes=, --max-input-size): a 4 GB file is almost always a mistake, and reading
# it would need several times its size in memory.  Here, not in io, so that the command
# line's parser has its default without loading a reader.
MAX_BYTES = 1 << 30


def check_option(name: str, value, options: Iterable, *, allow_none: bool = False):
    """Return ``value`` if it is one of ``options``, else raise :class:`CdplotError`.

    Options are lowercase strings with no aliases, as seaborn's
    ``_check_argument`` does, so that one spelling is documented once.
    """
    options = tuple(options)
    if value is None and allow_none:
        return None
    if value not in options:
        choices = ", ".join(repr(o) for o in options)
        if allow_none:
            choices += " or None"
        raise CdplotError(
            f"option {opt(name, value)} is not valid; expected one of {choices}", option=name
        )
    return value


def check_alpha(alpha, name: str = "alpha") -> float:
    """Return ``alpha`` as a float strictly between 0 and 1."""
    try:
        value = float(alpha)
    except (TypeError, ValueError):
        raise CdplotError(
            f"option {opt(name, alpha)} is not a number; expected a value in (0, 1)"
        ) from None
    if not (0.0 < value < 1.0) or math.isnan(value):
        raise CdplotError(f"option {opt(name, alpha)} is outside (0, 1)", option=name)
    return value


def check_bool(name: str, value) -> bool:
    """Return ``value`` if it is a bool (numpy bools included)."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return bool(value)
    raise CdplotError(f"option {opt(name, value)} must be True or False", option=name)
