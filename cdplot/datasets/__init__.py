"""Published score tables bundled with cdplot, for examples, tests and the gallery.

Each example is a CSV file in this package whose leading ``#`` lines cite its
source.  The files are read with :func:`cdplot.io.read_scores`, like any
user file, and then marked with the direction the source declares and with
``source="example:NAME"``.
"""

from __future__ import annotations

import pathlib
from dataclasses import replace
from importlib.resources import as_file, files

from ..errors import CdplotError
from ..io import ScoreTables, read_scores

__all__ = ["EXAMPLES", "load_example", "example_path"]

_DEMSAR = (
    'Janez Demšar (2006), "Statistical Comparisons of Classifiers over Multiple Data Sets", '
    "Journal of Machine Learning Research 7:1-30, Table 6"
)

EXAMPLES = {
    "demsar2006": {
        "description": (
            "AUC of C4.5, C4.5+m, C4.5+cf and C4.5+m+cf on 14 UCI data sets, as printed "
            "(3 decimals); higher is better"
        ),
        "citation": _DEMSAR,
        "file": "demsar2006.csv",
        "higher_is_better": {"AUC": True},
        "metric": "AUC",
    },
    "demsar2006-ranks": {
        "description": (
            "The paper's own ranks (1 = best) for the same table, computed from unrounded "
            "AUCs (the voting row is 4, 1, 2, 3); lower is better; average ranks 3.143, "
            "2.000, 2.893, 1.964"
        ),
        "citation": _DEMSAR + " (ranks in parentheses)",
        "file": "demsar2006-ranks.csv",
        "higher_is_better": {"rank": False},
        "metric": "rank",
    },
    "yang-table9": {
        "description": (
            "LDA, C4.5 and NN on Bupa, Ecoli, Flag, Glass and Ionosphere under six "
            "measures: error rates 5CV and Boots. (lower is better) and P, R, F and AUC "
            "(higher is better)"
        ),
        "citation": (
            'YANG Xing-li, "Survey for Performance Measure Index of Classification '
            'Learning Algorithm" (分类学习算法的性能度量指标综述), Table 9'
        ),
        "file": "yang-table9.csv",
        "higher_is_better": {
            "5CV": False,
            "Boots.": False,
            "P": True,
            "R": True,
            "F": True,
            "AUC": True,
        },
        "metric": None,
    },
}


def _validate_name(name) -> dict:
    if not isinstance(name, str) or name not in EXAMPLES:
        raise CdplotError(
            f"unknown example {name!r}; the examples are {', '.join(repr(n) for n in EXAMPLES)}"
        )
    return EXAMPLES[name]


def example_path(name: str) -> pathlib.Path:
    """Return the path of a bundled example's CSV file.

    Parameters
    ----------
    name : str
        One of the keys of :data:`EXAMPLES`.

    Returns
    -------
    pathlib.Path
        The file inside the installed package.

    Raises
    ------
    CdplotError
        If ``name`` is not an example, or the package is not installed as files
        (a zip), in which case :func:`load_example` still works.

    Examples
    --------
    >>> from cdplot.datasets import example_path
    >>> example_path("demsar2006").name
    'demsar2006.csv'
    """
    info = _validate_name(name)
    ref = files(__name__) / info["file"]
    if not isinstance(ref, pathlib.Path):
        raise CdplotError(
            f"example {name!r} is inside a zipped package and has no file path; "
            f"use load_example({name!r})"
        )
    return ref


def load_example(name: str) -> ScoreTables:
    """Load a bundled example as score tables, one per metric.

    Parameters
    ----------
    name : str
        One of the keys of :data:`EXAMPLES`: ``'demsar2006'``, ``'demsar2006-ranks'``
        or ``'yang-table9'``.

    Returns
    -------
    ScoreTables
        One table per metric (with one, it also reads like that table), with
        ``higher_is_better`` set as the source declares and
        ``source="example:NAME"``.

    Raises
    ------
    CdplotError
        If ``name`` is not an example; the message lists the examples.

    References
    ----------
    .. [1] J. Demšar, "Statistical Comparisons of Classifiers over Multiple Data Sets",
       Journal of Machine Learning Research 7:1-30, 2006.
    .. [2] YANG Xing-li, "Survey for Performance Measure Index of Classification Learning
       Algorithm".

    Examples
    --------
    >>> from cdplot.datasets import load_example
    >>> (auc,) = load_example("demsar2006")
    >>> auc.metric, auc.n_datasets, auc.n_methods, auc.higher_is_better
    ('AUC', 14, 4, True)
    >>> [t.metric for t in load_example("yang-table9")]
    ['5CV', 'Boots.', 'P', 'R', 'F', 'AUC']
    """
    info = _validate_name(name)
    # as_file also works when the package is imported from a zip
    with as_file(files(__name__) / info["file"]) as path:
        tables = read_scores(path)
    # the single-metric examples are wide files that do not name their metric
    return ScoreTables(
        replace(
            t,
            metric=t.metric or info["metric"],
            source=f"example:{name}",
            higher_is_better=info["higher_is_better"][t.metric or info["metric"]],
            direction=None,
        )
        for t in tables
    )
