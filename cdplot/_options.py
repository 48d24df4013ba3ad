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
``distribution``    ``--distribution``     null distribution of a p-value (:data:`DISTRIBUTIONS`)
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
from typing import Literal

from .errors import CdplotError, opt

__all__ = [
    "check_option",
    "check_alpha",
    "check_bool",
    "MIN_DPI",
    "MAX_DPI",
    "TESTS",
    "CD_TESTS",
    "CORRECTIONS",
    "PAIRWISE_CORRECTIONS",
    "ALL_PAIRS_ONLY",
    "ZERO_METHODS",
    "DISTRIBUTIONS",
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
]

# post-hoc tests after the Friedman test
TESTS = ("nemenyi", "bonferroni-dunn", "friedman-z", "wilcoxon", "sign")
Test = Literal["nemenyi", "bonferroni-dunn", "friedman-z", "wilcoxon", "sign"]
# the tests a critical difference exists for
CD_TESTS = ("nemenyi", "bonferroni-dunn")
# multiple-testing procedures; the last two need the logical structure of all pairs
CORRECTIONS = ("bonferroni", "holm", "hochberg", "hommel", "shaffer", "bergmann")
Correction = Literal["bonferroni", "holm", "hochberg", "hommel", "shaffer", "bergmann"]
ALL_PAIRS_ONLY = ("shaffer", "bergmann")
# the procedures that apply to any family of p-values
PAIRWISE_CORRECTIONS = tuple(c for c in CORRECTIONS if c not in ALL_PAIRS_ONLY)
ZERO_METHODS = ("demsar", "zsplit", "wilcox", "pratt")
ZeroMethod = Literal["demsar", "zsplit", "wilcox", "pratt"]
DISTRIBUTIONS = ("auto", "exact", "asymptotic")
Distribution = Literal["auto", "exact", "asymptotic"]
# omit: drop the incomplete data sets; omit-methods: the incomplete methods;
# omit-fewest: whichever of those (or a greedy mix) keeps the most scores
NAN_POLICIES = ("raise", "omit", "omit-methods", "omit-fewest")
NanPolicy = Literal["raise", "omit", "omit-methods", "omit-fewest"]
# what the outer keys of a JSON object of objects are
ORIENTS = ("auto", "datasets", "methods")
# figures
STYLES = ("paper", "paper-wide", "slides")
Style = Literal["paper", "paper-wide", "slides"]
FONTS = ("sans", "serif")
KINDS = ("cd", "intervals", "heatmap", "profile")
Kind = Literal["cd", "intervals", "heatmap", "profile"]
# output formats, by what is written
FIGURE_FORMATS = ("png", "svg", "pdf")
REPORT_FORMATS = ("html", "pdf")
TABLE_FORMATS = ("latex", "markdown", "html")
# what a data table marks: the best of each data set, and what is not worse than it
TABLE_MARKS = ("best", "none", "wilcoxon", "t-test", "posthoc")
TEXT_FORMATS = ("text", "latex")
STATS_FORMATS = ("text", "json", "csv")
# the pairs an effect-size table lists (cdplot table --effect-sizes PAIRS)
EFFECT_PAIRS = ("significant", "all")

# resolution of PNG output: below 10 dpi a figure is a few pixels wide (0.001 gives none,
# which Agg refuses); above 2400 a wide figure passes Agg's 2**16-pixel limit
MIN_DPI, MAX_DPI = 10, 2400


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
