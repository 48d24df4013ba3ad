"""``as_score_tables``: every kind of input the library accepts, in one place.

Arrays, mappings, records, pandas and polars DataFrames (by duck typing),
:class:`ScoreTable` objects, files and results folders all end as validated
score tables, with the same checks, messages and selection options
(``methods``, ``exclude``, ``datasets``, ``rename``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from .._docstrings import share
from .._options import Layout, NanPolicy, Orient, check_bool, check_option
from ..errors import CdplotError, opt
from ._build import (
    ORIENTS,
    _frame_kind,
    _from_array,
    _from_mapping,
    _from_pandas,
    _from_polars,
    _from_sequence,
    _from_table,
    _reject_long_options,
    _validate_options,
    select_tables,
    validate_selection,
)
from ._checks import Where
from ._files import read_validated
from ._repetitions import keeping_repetitions
from ._roles import role_of
from ._table import ScoreTable, ScoreTables
from ._text import MAX_BYTES, check_max_bytes
from ._types import ScoresLike

__all__ = ["as_score_tables"]


def _describe(data) -> str:
    kind = _frame_kind(data)
    if kind is not None:
        return f"{kind} {'DataFrame' if hasattr(data, 'columns') else type(data).__name__}"
    if isinstance(data, np.ndarray):
        return "numpy array"
    if isinstance(data, Mapping):
        return "mapping"
    if isinstance(data, (list, tuple)):
        return f"{type(data).__name__} of scores"
    return type(data).__name__


@share
def as_score_tables(
    data: ScoresLike,
    *,
    methods: Sequence[str] | None = None,
    datasets: Sequence[str] | None = None,
    metric: str | None = None,
    nan_policy: NanPolicy = "raise",
    layout: Layout = "auto",
    dataset_col: str | None = None,
    method_col: str | None = None,
    score_col: str | None = None,
    repetition_col: str | Sequence[str] | None = None,
    metric_col: str | None = None,
    source: str | None = None,
    exclude: Sequence[str] | None = None,
    rename: Mapping[str, str] | None = None,
    orient: Orient = "auto",
    max_bytes: int = MAX_BYTES,
    keep_repetitions: bool = False,
) -> ScoreTables:
    """Return validated score tables, one per metric, from what the user has.

    Parameters
    ----------
    data : ScoreTable, sequence of ScoreTable, array_like, mapping, list of mappings, \
DataFrame, str or path
        The scores, in any of these forms:

        * a :class:`ScoreTable`, or a list or tuple of them (checked again);
        * a 2-D array or nested list, data sets in rows and methods in columns;
        * ``{dataset: {method: score}}``, or ``{metric: {dataset: {method: score}}}``;
        * ``{"methods": [...], "datasets": [...], "scores": [[...]]}`` with optional
          ``"metric"`` and ``"higher_is_better"`` (the form of :meth:`ScoreTable.to_dict`),
          or a list of such mappings;
        * records ``[{"dataset": ..., "method": ..., "score": ...}, ...]``, optionally with
          a repetition column (``fold``, ``seed``, ...) and a ``metric`` column;
        * a pandas DataFrame: wide (the index names the data sets, unless it is the default
          ``RangeIndex`` and the first column is text, which then holds the names; the other
          columns are methods) or long (it has data-set, method and score columns);
        * a polars DataFrame: wide (the first non-numeric column names the data sets) or long;
        * an xarray DataArray of two dimensions: its coordinates name the methods and data
          sets (the dimension named like a method column, e.g. ``model``, holds the methods;
          else the second), and its ``name`` is the metric;
        * a file name or a results folder, read by :func:`cdplot.io.read_scores`.
    %(methods_datasets)s
    %(metric)s
        A table whose metric is not named is never relabelled.
    %(nan_policy)s
    layout : {'auto', 'wide', 'long'}, default 'auto'
        Whether DataFrames and files are data sets x methods ('wide') or one score per row
        ('long'). 'auto' takes them as long when they have recognisable data-set and method
        columns, or when any ``*_col`` option is given.
    %(long_columns)s
    %(repetition_col)s
    source : str, optional
        What to call the input in messages and in ``ScoreTable.source`` (default: a
        description such as ``"numpy array"``, or the file name).
    exclude : sequence of str, optional
        Methods to leave out.
    %(rename)s
    %(orient)s
    %(max_bytes)s
    %(keep_repetitions)s

    Returns
    -------
    ScoreTables
        One table per metric, in the order the metrics first appear (a tuple; with
        one metric it also reads like that table).

    Raises
    ------
    CdplotError
        With a one-line message naming where (file, row, column, data set, method) and
        what is wrong: fewer than 2 methods or data sets, empty or repeated names, a cell
        that is not a number or not finite, missing scores (with ``nan_policy='raise'``),
        an unknown metric or an unusable option.

    Notes
    -----
    Rows of arrays and nested lists are counted from 1, like the default names; rows of
    DataFrames are given by position (wide) or index label (long), records by their index.
    The selection (``methods``, ``exclude``, ``datasets``, ``rename``) is applied before
    ``nan_policy``, so a gap in a method that is left out drops nothing. A metric whose
    name says lower is better (``error``, ``loss``, ``rmse``, ``mae``, ``mse``, ``time``,
    ``runtime``, ``regret``, ``rank``) sets ``higher_is_better=False`` and
    ``direction`` says so; an explicit ``higher_is_better`` in the analysis wins.

    Examples
    --------
    >>> from cdplot.io import as_score_tables
    >>> (t,) = as_score_tables([[0.8, 0.7], [0.9, 0.6]], methods=["A", "B"])
    >>> t.datasets, t.values.tolist()
    (('dataset 1', 'dataset 2'), [[0.8, 0.7], [0.9, 0.6]])
    >>> rows = [{"dataset": d, "method": m, "fold": f, "score": s}
    ...         for d in ("iris", "wine") for m, s in (("A", 0.9), ("B", 0.8))
    ...         for f in (1, 2)]
    >>> (t,) = as_score_tables(rows)
    >>> t.notes
    ("averaged 2 repetitions per data set and method (column 'fold')",)
    """
    cols = {
        "dataset_col": dataset_col,
        "method_col": method_col,
        "score_col": score_col,
        "repetition_col": repetition_col,
        "metric_col": metric_col,
    }
    _validate_options(nan_policy, layout, metric, source, cols)
    check_option("orient", orient, ORIENTS)
    keep_repetitions = check_bool("keep_repetitions", keep_repetitions)
    max_bytes = check_max_bytes(max_bytes)
    methods, exclude, datasets, rename = validate_selection(methods, exclude, datasets, rename)

    if isinstance(data, (str, os.PathLike)):
        # the options are checked above, as for every input: read_scores would check them again
        tables = read_validated(
            data,
            layout=layout,
            sep=None,
            metric=metric,
            nan_policy=nan_policy,
            cols=cols,
            methods=methods,
            datasets=datasets,
            exclude=exclude,
            rename=rename,
            orient=orient,
            max_bytes=max_bytes,
            keep_repetitions=keep_repetitions,
        )
        return tuple(replace(t, source=source) for t in tables) if source else tables

    data = _table_of_labelled_array(data, source)
    where = Where(source or _describe(data))
    array_like = _is_array_like(data)
    if array_like or isinstance(data, (ScoreTable, Mapping)):
        _reject_long_options(cols, layout, where.source)
    if orient != "auto" and not isinstance(data, Mapping):
        raise CdplotError(
            f"option {opt('orient', orient)} applies to a mapping of mappings only", option="orient"
        )

    selecting = any(x is not None for x in (exclude, rename)) or (
        not array_like and (methods is not None or datasets is not None)
    )
    policy = "keep" if selecting else nan_policy
    if isinstance(data, ScoreTable):
        tables = (_from_table(data, Where(source or data.source or "ScoreTable"), policy),)
    elif array_like:
        tables = (
            _from_array(
                np.asarray(data) if not isinstance(data, (list, tuple)) else data,
                where,
                methods=methods,
                datasets=datasets,
                nan_policy=policy,
            ),
        )
        methods = datasets = None  # they named the array
    else:
        tables = _from_records(
            data,
            where,
            policy,
            orient=orient,
            layout=layout,
            cols=cols,
            keep_repetitions=keep_repetitions,
        )
    return select_tables(
        tables,
        metric,
        where.source,
        selecting=selecting,
        methods=methods,
        exclude=exclude,
        datasets=datasets,
        rename=rename,
        nan_policy=nan_policy,
    )


def _table_of_labelled_array(data, source):
    """An xarray DataArray as the ScoreTable it names; anything else as it is.

    The table is then selected from as any table that names its methods.
    """
    labelled = _labelled_array(data)
    if labelled is None:
        return data
    values, methods, datasets, name = labelled
    return _from_array(
        values,
        Where(source or "xarray DataArray"),
        methods=methods,
        datasets=datasets,
        nan_policy="keep",
        metric=name,
        metric_from=None if name is None else "metric",
    )


def _labelled_array(data):
    """A 2-D xarray DataArray, found by its attributes (xarray is never imported).

    Returns ``(values, methods, datasets, metric)`` with the values as data sets x
    methods, or None for anything else.  The dimension named like a method column
    (``method``, ``model``, ``classifier``...) holds the methods, or the other one
    when one is named like a data-set column; else the second dimension does, as the
    columns of an array.  Coordinates name the methods and data sets; the array's
    ``name`` is the metric (so ``error`` says lower is better).
    """
    dims, coords = getattr(data, "dims", None), getattr(data, "coords", None)
    if not isinstance(dims, tuple) or len(dims) != 2 or coords is None:
        return None
    if not hasattr(data, "values") or isinstance(data, (Mapping, np.ndarray)):
        return None
    values = np.asarray(data.values, dtype=float)
    names = [
        [str(v) for v in np.asarray(coords[d].values).tolist()] if d in coords else None
        for d in dims
    ]
    roles = [role_of(str(d)) for d in dims]
    if roles[0] == "method" or roles[1] == "dataset":
        values, names = values.T, names[::-1]
    name = getattr(data, "name", None)
    return values, names[1], names[0], None if name is None else str(name)


def _is_array_like(data) -> bool:
    """An array, a list of rows, or an object with ``__array__`` that is no frame or mapping."""
    return bool(
        isinstance(data, np.ndarray)
        or (
            isinstance(data, (list, tuple))
            and data
            and all(isinstance(r, (list, tuple, np.ndarray)) for r in data)
        )
        or (
            hasattr(data, "__array__")
            and _frame_kind(data) is None
            and not isinstance(data, Mapping)
        )
    )


def _from_records(data, where, policy, *, orient, layout, cols, keep_repetitions):
    """Tables from a mapping, a pandas or polars frame, or a sequence of records."""
    if isinstance(data, Mapping):
        return _from_mapping(data, where, policy, orient=orient)
    if _frame_kind(data) == "pandas":
        with keeping_repetitions(keep_repetitions):
            return _from_pandas(data, where, layout=layout, cols=cols, nan_policy=policy)
    if _frame_kind(data) == "polars":
        with keeping_repetitions(keep_repetitions):
            return _from_polars(data, where, layout=layout, cols=cols, nan_policy=policy)
    if isinstance(data, (list, tuple)):
        with keeping_repetitions(keep_repetitions):
            return _from_sequence(data, where, layout=layout, cols=cols, nan_policy=policy)
    raise CdplotError(
        f"scores of type {type(data).__name__!r} are not understood; pass an array, a "
        f"mapping, records, a DataFrame, a ScoreTable or a file name"
    )
