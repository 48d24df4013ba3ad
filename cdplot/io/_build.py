"""Builders of :class:`~cdplot.io.ScoreTable` from cells, columns and Python objects.

Every reader ends here: wide tables (data sets x methods) and long rows
(one score per row, averaged exactly over repetitions), so that the
wording of every error and note is the same whatever the input was.
"""

from __future__ import annotations

import math
import os
import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from .._options import NAN_POLICIES, check_option
from ..errors import CdplotError, CdplotWarning, opt
from . import _repetitions as _repetitions
from ._checks import MAX_LISTED
from ._checks import NUMBER_RE as _NUMBER_RE
from ._checks import Where as _Where
from ._checks import check_name as _check_name
from ._checks import check_names as _check_names
from ._checks import is_missing_object as _is_missing_object
from ._checks import listing as _listing
from ._checks import name_text as _name_text
from ._checks import parse_cell as _parse_cell
from ._checks import parse_column as _parse_column
from ._checks import plural as _plural
from ._checks import wants_decimal_comma as _wants_decimal_comma
from ._fast import ByteColumn, block_floats, read_columns
from ._roles import GENERIC_SCORE_NAMES as _GENERIC_SCORE_NAMES
from ._roles import ROLE_NAMES as _ROLE_NAMES
from ._roles import direction_of, weigh_direction
from ._roles import norm as _norm_col
from ._roles import role_of as _role_of
from ._table import ScoreTable, ScoreTables

# a metric "name" that is a whole number is a fold or seed number given as metric_col
_INTEGER_RE = re.compile(r"[+-]?[0-9]+")

__all__ = ["label_codes"]


# ---------------------------------------------------------------------------
# Building score tables from what users have: arrays, mappings, records,
# DataFrames (by duck typing, never importing pandas or polars) and files
# (through cdplot.io._files).  Everything funnels into two builders, one for
# wide tables (data sets x methods) and one for long/tidy rows, so that the
# wording of every error and note is the same whatever the input was.
# ---------------------------------------------------------------------------

_NAN_POLICIES = NAN_POLICIES
_LAYOUTS = ("auto", "wide", "long")


def _validate_options(nan_policy, layout, metric, source, cols):
    check_option("nan_policy", nan_policy, _NAN_POLICIES)
    check_option("layout", layout, _LAYOUTS)
    if metric is not None and (not isinstance(metric, str) or not metric.strip()):
        raise CdplotError(
            f"option {opt('metric', metric)} must be a non-empty string or None", option="metric"
        )
    if source is not None and not isinstance(source, str):
        raise CdplotError(
            f"option {opt('source', source)} must be a string or None", option="source"
        )
    for name, value in cols.items():
        if value is None:
            continue
        ok = isinstance(value, str) and value != ""
        if name == "repetition_col" and isinstance(value, (list, tuple)):
            ok = len(value) > 0 and all(isinstance(v, str) and v != "" for v in value)
        if not ok:
            what = "a column name"
            if name == "repetition_col":
                what += " or a list of them"
            raise CdplotError(f"option {opt(name, value)} must be {what}", option=name)


def _check_size(n, kind, names, where, extra=""):
    if n < 2:
        listed = f" ({', '.join(repr(x) for x in names)})" if names else ""
        raise CdplotError(
            f"{where.source}: found {_plural(n, kind)}{listed}{extra}; comparing needs at least 2"
        )


def _finish(
    values,
    methods,
    datasets,
    where,
    *,
    nan_policy,
    missing_at=None,
    metric=None,
    metric_from=None,
    evidence=(),
    higher_is_better=None,
    sha256=None,
    notes=(),
):
    """Apply ``nan_policy`` and the size checks; return the :class:`ScoreTable`.

    ``missing_at(i, j)`` may add where a missing cell is ("row 4").
    ``metric_from`` says where the metric's name came from (``'column'``,
    ``'metric'``, ``'file'``); ``evidence`` adds other ``(what, name)`` pairs
    (the score column of a metric column).  Unless the source declares a
    direction, every one is weighed (:func:`~cdplot.io._roles.weigh_direction`).
    """
    values = np.asarray(values, dtype=float)
    methods, datasets, notes = list(methods), list(datasets), list(notes)
    label = f" of metric {metric!r}" if metric is not None else ""
    _check_size(len(methods), "method", methods, where, label)
    if np.isinf(values).any():
        i, j = np.argwhere(np.isinf(values))[0]
        raise CdplotError(f"{where.at(i, datasets[i], methods[j])}: {values[i, j]!r} is not finite")
    missing = np.isnan(values)
    dropped, dropped_methods = [], []
    if missing.any() and nan_policy != "keep":
        _refuse_missing(missing, methods, datasets, where, nan_policy, missing_at, label)
        keep_rows, keep_cols = _nan_keep(missing, nan_policy)
        dropped = [d for d, k in zip(datasets, keep_rows, strict=True) if not k]
        dropped_methods = [m for m, k in zip(methods, keep_cols, strict=True) if not k]
        values = values[np.ix_(keep_rows, keep_cols)]
        for what, gone in (("data set", dropped), ("method", dropped_methods)):
            if gone:
                notes.append(
                    f"dropped {_plural(len(gone), what)} with missing scores "
                    f"(nan_policy={nan_policy!r}): "
                    f"{_listing([repr(d) for d in gone[:MAX_LISTED]], len(gone))}"
                )
        datasets = [d for d, k in zip(datasets, keep_rows, strict=True) if k]
        methods = [m for m, k in zip(methods, keep_cols, strict=True) if k]
        _check_complete(len(methods), len(dropped_methods), "method", where, label, nan_policy)
        _check_complete(len(datasets), len(dropped), "data set", where, label, nan_policy)
    _check_size(len(datasets), "data set", datasets, where, label)
    direction = conflict = None
    if metric is not None:
        _check_name(metric, "metric", where.source)
    if higher_is_better is None:
        higher_is_better, direction, conflict = _weigh_names(metric, metric_from, evidence, where)
    return ScoreTable(
        values=values,
        methods=tuple(methods),
        datasets=tuple(datasets),
        metric=metric,
        higher_is_better=higher_is_better,
        direction=direction,
        direction_conflict=conflict,
        source=where.source,
        sha256=sha256,
        notes=tuple(notes),
        dropped_datasets=tuple(dropped),
        dropped_methods=tuple(dropped_methods),
    )


def _refuse_missing(missing, methods, datasets, where, nan_policy, missing_at, label) -> None:
    """Refuse missing scores under nan_policy='raise', and a method with no scores at all
    under 'omit' (which would drop every data set)."""
    if nan_policy == "raise":
        where_missing = np.argwhere(missing)
        cells = []
        for i, j in where_missing[:MAX_LISTED]:
            at = missing_at(i, j) if missing_at is not None else None
            cells.append(f"{datasets[i]!r}/{methods[j]!r}" + (f" ({at})" if at else ""))
        raise CdplotError(
            f"{where.source}: {_plural(len(where_missing), 'missing score')}{label} "
            f"(data set/method): {_listing(cells, len(where_missing))}; fill them in or pass "
            f"{opt('nan_policy', 'omit')} to drop those data sets ('omit-methods': the methods, "
            "'omit-fewest': whichever keeps the most scores)",
            option="nan_policy",
        )
    if nan_policy == "omit" and missing.all(axis=0).any():
        j = int(np.flatnonzero(missing.all(axis=0))[0])
        raise CdplotError(
            f"{where.source}: method {methods[j]!r}{label} has no scores at all, so "
            f"{opt('nan_policy', 'omit')} would drop every data set; remove the method or pass "
            f"{opt('nan_policy', 'omit-fewest')}",
            option="nan_policy",
        )


def _check_complete(n_left, n_dropped, kind, where, label, nan_policy) -> None:
    """Refuse fewer than 2 methods (or data sets) left after dropping incomplete ones."""
    if n_left < 2:
        raise CdplotError(
            f"{where.source}: only {_plural(n_left, kind)}{label} "
            f"{'is' if n_left == 1 else 'are'} complete after dropping "
            f"{_plural(n_dropped, 'incomplete one')} ({opt('nan_policy', nan_policy)}); "
            "comparing needs at least 2",
            option="nan_policy",
        )


def _weigh_names(metric, metric_from, evidence, where):
    """The direction every name that can say it says: (higher_is_better, direction,
    conflict); opposite words are a conflict the analysis refuses unless
    higher_is_better is given."""
    what = {"column": "column name", "metric": "metric name", "file": "file name"}
    said = list(evidence)
    if metric is not None and metric_from is not None:
        said.insert(0, (what.get(metric_from, "name"), metric))
    higher_is_better, direction, conflict = weigh_direction(said)
    if conflict is not None:
        label = f" (metric {metric!r})" if metric is not None else ""
        conflict = f"{where.source}{label}: {conflict}"
    return higher_is_better, direction, conflict


def _nan_keep(missing: np.ndarray, nan_policy: str):
    """The rows (data sets) and columns (methods) to keep under ``nan_policy``.

    'omit' keeps the complete rows, 'omit-methods' the complete columns;
    'omit-fewest' takes whichever of those two, or of a greedy removal (the
    row or column with the largest share of gaps first), keeps the most
    scores with at least 2 rows and 2 columns (ties: dropping data sets,
    then methods, so that every method stays when it can).
    """
    n, k = missing.shape
    rows_only = (~missing.any(axis=1), np.ones(k, dtype=bool))
    cols_only = (np.ones(n, dtype=bool), ~missing.any(axis=0))
    if nan_policy == "omit":
        return rows_only
    if nan_policy == "omit-methods":
        return cols_only
    rows, cols = np.ones(n, dtype=bool), np.ones(k, dtype=bool)
    while True:
        m = missing[np.ix_(rows, cols)]
        if not m.any():
            break
        row_share = m.sum(axis=1) / m.shape[1]
        col_share = m.sum(axis=0) / m.shape[0]
        if row_share.max() >= col_share.max():
            rows[np.flatnonzero(rows)[int(np.argmax(row_share))]] = False
        else:
            cols[np.flatnonzero(cols)[int(np.argmax(col_share))]] = False
    best, best_cells = rows_only, -1
    for r, c in (rows_only, cols_only, (rows, cols)):
        nr, nc = int(r.sum()), int(c.sum())
        cells = nr * nc if nr >= 2 and nc >= 2 else 0
        if cells > best_cells:
            best, best_cells = (r, c), cells
    return best


def _wide_table(
    datasets,
    methods,
    cells,
    where,
    *,
    nan_policy,
    decimal_comma=False,
    dataset_at=None,
    method_at=None,
    metric=None,
    metric_from=None,
    higher_is_better=None,
    sha256=None,
    notes=(),
):
    """Build a table from names and a rows x columns list of raw cells."""
    n_cols = len(methods)
    columns = [[row[j] for row in cells] for j in range(n_cols)]
    return _wide_columns(
        datasets,
        methods,
        columns,
        where,
        nan_policy=nan_policy,
        decimal_comma=decimal_comma,
        dataset_at=dataset_at,
        method_at=method_at,
        metric=metric,
        metric_from=metric_from,
        higher_is_better=higher_is_better,
        sha256=sha256,
        notes=notes,
    )


def _wide_columns(
    datasets,
    methods,
    columns,
    where,
    *,
    nan_policy,
    decimal_comma=False,
    dataset_at=None,
    method_at=None,
    metric=None,
    metric_from=None,
    higher_is_better=None,
    sha256=None,
    notes=(),
):
    """Build a table from names and one column of raw cells per method.

    Columns are lists of raw cells or fixed-width bytes arrays (the fast
    file reader's); each is converted in one vectorised step when its cells
    are plain numbers. ``decimal_comma`` may be ``'auto'`` (files separated
    by ';'): it is then switched on when some cell is written like ``0,763``.
    """
    datasets = [_name_text(d) for d in datasets]
    methods = [_name_text(m) for m in methods]
    notes = list(notes)
    dataset_at = dataset_at or (lambda i: where.row(i) or f"row {i + 1}")
    method_at = method_at or (lambda j: f"column {j + 1}")
    _check_names(methods, "method", where, method_at)
    _check_names(datasets, "data set", where, dataset_at)
    if decimal_comma == "auto":
        decimal_comma, example = _decimal_comma_example(columns)
        if decimal_comma:
            notes.append(f"read decimal commas ({example!r} as {example.replace(',', '.')})")
    values = np.empty((len(datasets), len(methods)))
    # all plain columns of a file at once; a column with any other cell (missing,
    # exponent, text) is read again on its own below, with its checks and messages
    together = block_floats(list(columns), ord(",") if decimal_comma else ord("."))
    redo = range(len(columns))
    if together is not None:
        values, ok = together
        redo = np.flatnonzero(~ok.all(axis=0)).tolist()
    try:
        for j in redo:
            values[:, j] = _parse_column(
                columns[j], decimal_comma, lambda i, j=j: where.at(i, datasets[i], methods[j])
            )
    except CdplotError:
        # name the first bad cell in reading order (row by row), not column by column
        for i in range(len(datasets)):
            for j, col in enumerate(columns):
                _parse_cell(
                    col[i], decimal_comma, lambda i=i, j=j: where.at(i, datasets[i], methods[j])
                )
        raise
    return _finish(
        values,
        methods,
        datasets,
        where,
        nan_policy=nan_policy,
        missing_at=lambda i, j: where.row(i),
        metric=metric,
        metric_from=metric_from,
        higher_is_better=higher_is_better,
        sha256=sha256,
        notes=notes,
    )


def _decimal_comma_example(columns):
    """(True, first cell written like ``0,763``) or (False, None)."""
    for col in columns:
        if isinstance(col, ByteColumn):
            col = col.strings()
        if isinstance(col, np.ndarray) and col.dtype.kind == "S":
            if not (np.ascontiguousarray(col).view(np.uint8) == ord(",")).any():
                continue
            col = [c.decode("utf-8", "replace") for c in col]
        for c in col:
            if isinstance(c, str) and "," in c and _wants_decimal_comma([c]):
                return True, c.strip()
    return False, None


def _find_roles(
    header,
    where,
    *,
    dataset_col,
    method_col,
    score_col,
    repetition_col,
    metric_col,
    forced,
    numeric=None,
):
    """Map long-table roles to column positions.

    Returns None when the header does not look long (and nothing forces it),
    else a dict with ``dataset``, ``method``, ``metric`` (index or None),
    ``scores`` and ``repetitions`` (lists of indices) and ``ignored``.
    ``numeric(j)`` says whether column ``j`` holds numbers: a wide table
    whose method is called "Model" has a numeric "method" column.
    """
    header = [_name_text(h) for h in header]
    given = {
        "dataset": dataset_col,
        "method": method_col,
        "score": score_col,
        "metric": metric_col,
    }
    reps = [repetition_col] if isinstance(repetition_col, str) else repetition_col
    chosen, taken = _chosen_roles(header, where, given, reps)
    if not forced and not (chosen["dataset"] and chosen["method"]):
        return None
    if not forced and numeric is not None and numeric(chosen["method"][0]):
        # "dataset,Model,Other" with numbers under "Model" is a wide table
        return None
    _check_roles(header, where, chosen, taken)
    rest = [j for j in range(len(header)) if j not in taken]
    if not chosen["score"]:
        if len(rest) != 1:
            # name the columns that could hold scores (those of numbers), not every column
            cand = [j for j in rest if numeric is None or numeric(j)] or rest
            raise CdplotError(
                f"{where.source}: cannot tell which column holds the scores among "
                f"{', '.join(repr(header[j]) for j in cand)}; pass {opt('score_col')} naming one",
                option="score_col",
            )
        chosen["score"], rest = rest, []
    if len(chosen["score"]) > 1 and chosen["metric"]:
        cols = " and ".join(repr(header[j]) for j in chosen["score"])
        raise CdplotError(
            f"{where.source}: columns {cols} could each be the score; pass {opt('score_col')}",
            option="score_col",
        )
    return {
        "dataset": chosen["dataset"][0],
        "method": chosen["method"][0],
        "metric": chosen["metric"][0] if chosen["metric"] else None,
        "scores": chosen["score"],
        "repetitions": chosen["repetition"],
        "ignored": rest,
        "header": header,
    }


def _chosen_roles(header, where, given, reps):
    """The columns of each role: those the options name, then those whose names say it.

    Returns the columns per role and the set of columns taken by any.
    """

    def explicit(option, name):
        if name not in header:
            raise CdplotError(
                f"{where.source}: option {opt(option, name)} is not a column; the columns are "
                f"{', '.join(repr(h) for h in header)}"
            )
        if header.count(name) > 1:
            raise CdplotError(f"{where.source}: column {name!r} ({option}) appears twice")
        return header.index(name)

    has_dataset = given["dataset"] is not None or any(_role_of(h) == "dataset" for h in header)
    roles = {r: [] for r in _ROLE_NAMES}
    for j, h in enumerate(header):
        role = _role_of(h, has_dataset=has_dataset)
        if role is not None:
            roles[role].append(j)
    chosen = {}
    for role, name in given.items():
        if name is not None:
            chosen[role] = [explicit(f"{role}_col", name)]
    if reps is not None:
        chosen["repetition"] = [explicit("repetition_col", r) for r in reps]
    taken = {j for js in chosen.values() for j in js}
    for role in _ROLE_NAMES:
        if role not in chosen:
            chosen[role] = [j for j in roles[role] if j not in taken]
            taken.update(chosen[role])
    return chosen, taken


def _check_roles(header, where, chosen, taken) -> None:
    """Refuse a role column whose name appears twice, a role several columns could
    have, and a table with no data-set or method column."""
    for j in sorted(taken):
        if header.count(header[j]) > 1:
            where_cols = " and ".join(str(i + 1) for i, h in enumerate(header) if h == header[j])
            raise CdplotError(
                f"{where.source}: column {header[j]!r} appears twice (columns {where_cols}); "
                f"rename one, so that it is clear which holds the "
                f"{'scores' if j in chosen['score'] else 'values'}"
            )
    for role, option in (
        ("dataset", "dataset_col"),
        ("method", "method_col"),
        ("metric", "metric_col"),
    ):
        if len(chosen[role]) > 1:
            cols = " and ".join(repr(header[j]) for j in chosen[role])
            raise CdplotError(
                f"{where.source}: columns {cols} could each be the {role}; pass {opt(option)}",
                option=option,
            )
    for role, option, words in (
        ("dataset", "dataset_col", "data-set names"),
        ("method", "method_col", "method names"),
    ):
        if not chosen[role]:
            raise CdplotError(
                f"{where.source}: no column of {words} among {', '.join(repr(h) for h in header)}; "
                f"name one {' or '.join(repr(n) for n in _ROLE_NAMES[role][:3])} or pass "
                f"{opt(option)}",
                option=option,
            )


def label_codes(col, where, column, kind):
    """Names in order of first appearance and one integer code per cell.

    Linear in the number of cells: a fixed-width bytes array goes through
    ``np.unique`` (on the first cell of each run of equal cells, since long
    files are usually sorted), a list through a dictionary of distinct
    cells.  Empty names are an error naming the row.
    """
    n = len(col)
    if isinstance(col, ByteColumn):
        got = col.codes()
        if got is not None:
            raw_names, codes = got
            if raw_names and isinstance(raw_names[0], int):
                names = [str(v) for v in raw_names]
            else:
                names = _decode_names(raw_names, codes, where, column, kind)
            return _checked_codes(names, codes, col, where, column, kind)
        col = col.strings()
    if isinstance(col, np.ndarray) and col.dtype.kind == "S":
        if n == 0:
            return [], np.zeros(0, dtype=np.intp)
        starts = np.flatnonzero(np.r_[True, col[1:] != col[:-1]])
        uniq, first, inv = np.unique(col[starts], return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty(len(uniq), dtype=np.intp)
        rank[order] = np.arange(len(uniq))
        run_codes = rank[inv.ravel()]
        codes = np.repeat(run_codes, np.diff(np.r_[starts, n]))
        names = _decode_names(uniq[order], codes, where, column, kind)
    else:
        distinct = {}
        for v in col:
            if v not in distinct:
                distinct[v] = len(distinct)
        raw = list(distinct)
        texts = []
        for v in raw:
            text = "" if _is_missing_object(v) else _name_text(v)
            if isinstance(v, float) and math.isnan(v):
                text = ""
            texts.append(text)
        index = {}
        remap = np.array([index.setdefault(t, len(index)) for t in texts], dtype=np.intp)
        codes = remap[np.fromiter((distinct[v] for v in col), dtype=np.intp, count=n)]
        names = list(index)
    return _checked_codes(names, codes, col, where, column, kind)


def _decode_names(raw_names, codes, where, column, kind):
    names = []
    for c, u in enumerate(raw_names):
        try:
            names.append(u.decode("utf-8").strip())
        except UnicodeDecodeError:
            i = int(np.flatnonzero(codes == c)[0])
            raise CdplotError(
                f"{where.at(i, column=column)}: the {kind} name {u!r} is not UTF-8; save "
                f"the file as UTF-8"
            ) from None
    return names


def _checked_codes(names, codes, col, where, column, kind):
    if "" in names:
        i = int(np.flatnonzero(codes == names.index(""))[0])
        raise CdplotError(
            f"{where.at(i, column=column)}: the {kind} name is empty ({_cell_repr(col[i])})"
        )
    for name in names:
        if not name.isprintable():
            i = int(np.flatnonzero(codes == names.index(name))[0])
            _check_name(name, kind, where.at(i, column=column))
    return names, codes


def _cell_repr(cell):
    if isinstance(cell, bytes):
        return repr(cell.decode("utf-8", "replace"))
    return repr(cell)


_FSUM_BLOCK = 1 << 16


def fsum_rows(x: np.ndarray) -> np.ndarray:
    """Correctly rounded sum of each row of ``x``, as ``math.fsum`` gives, vectorised.

    Error-free transformations (TwoSum) carry the rounding error of each
    addition; the sum of the errors is added at the end.  Where the
    computed sum could still round the other way (its remainder lies within
    the error bound of a rounding boundary), the row is summed again with
    ``math.fsum``, so every result is the correctly rounded sum, whatever
    the order of the values.
    """
    x = np.asarray(x, dtype=float)
    g, c = x.shape
    if c == 0:
        return np.zeros(g)
    if g > _FSUM_BLOCK:
        # in blocks of rows, so that the transposed copy below stays small
        return np.concatenate([fsum_rows(x[a : a + _FSUM_BLOCK]) for a in range(0, g, _FSUM_BLOCK)])
    cols = np.ascontiguousarray(x.T)  # one contiguous row per position
    s = cols[0].copy()
    e = np.zeros(g)
    mag = np.zeros(g)
    with np.errstate(invalid="ignore", over="ignore"):
        for k in range(1, c):
            y = cols[k]
            t = s + y
            bp = t - s
            err = (s - (t - bp)) + (y - bp)
            s = t
            e += err
            mag += np.abs(err)
        r = s + e
        rest = (s - r) + e
        eps = np.finfo(float).eps
        bound = 2 * c * eps * mag + eps * np.abs(rest) + 4 * np.finfo(float).smallest_subnormal
        below = (r - np.nextafter(r, -np.inf)) / 2
        above = (np.nextafter(r, np.inf) - r) / 2
        certain = (rest - bound > -below) & (rest + bound < above) & np.isfinite(r)
    for i in np.flatnonzero(~certain).tolist():
        try:
            r[i] = math.fsum(x[i].tolist())
        except OverflowError:  # the exact sum is beyond the largest float
            r[i] = math.inf
    return r


def _fsum(values):
    try:
        return math.fsum(values)
    except OverflowError:
        return math.inf


#: Averaged scores of one data set closer than this (relative) are ties.  Means of
#: accuracies k/n written with 16-17 digits (14/15 as 0.9333333333333333) differ
#: from the true means by a few units of 1e-17; two methods with equal true means
#: then rank apart on rounding alone.  1e-12 is far above that error and far below
#: any difference a result file means (scores are written with at most 17 digits).
TIE_RTOL = 1e-12


def tie_close_means(means: np.ndarray, averaged: np.ndarray) -> tuple[np.ndarray, int]:
    """Make averaged scores of one data set that agree to :data:`TIE_RTOL` exactly equal.

    ``means`` is data sets x methods; ``averaged`` marks the cells that are
    means of several rows.  Within a row, averaged cells whose sorted values
    are closer than ``TIE_RTOL`` times their magnitude form a tie and all take
    the smallest value.  Returns the new array and the number of data sets
    changed.
    """
    means = np.array(means, dtype=float)
    if means.size == 0 or not averaged.any():
        return means, 0
    key = np.where(averaged & ~np.isnan(means), means, np.nan)
    order = np.argsort(key, axis=1, kind="stable")
    srt = np.take_along_axis(key, order, axis=1)
    with np.errstate(invalid="ignore"):
        gap = np.diff(srt, axis=1)
        scale = np.maximum(np.abs(srt[:, 1:]), np.abs(srt[:, :-1]))
        close = gap <= TIE_RTOL * scale  # NaN compares False: never joins a tie
    close &= gap > 0  # equal values are ties already
    if not close.any():
        return means, 0
    joined = np.concatenate([np.zeros((len(srt), 1), dtype=bool), gap <= TIE_RTOL * scale], 1)
    joined &= ~np.isnan(srt)
    # each run of joined cells takes the value of its first (smallest) cell
    start = np.where(~joined, np.arange(srt.shape[1])[None, :], 0)
    first = np.maximum.accumulate(start, axis=1)
    snapped = np.take_along_axis(srt, first, axis=1)
    out = means.copy()
    rows = np.arange(len(srt))[:, None]
    fill = ~np.isnan(srt)
    out[rows.repeat(srt.shape[1], 1)[fill], order[fill]] = snapped[fill]
    return out, int(close.any(axis=1).sum())


def tie_note(n_changed: int) -> str:
    """The note that says averaged scores were tied at :data:`TIE_RTOL`."""
    return (
        f"treated averaged scores of one data set that agree to {TIE_RTOL:g} (relative) as "
        f"ties, on {_plural(n_changed, 'data set')}: means of rounded decimals "
        f"(14/15 written as 0.9333333333333333) differ by rounding alone"
    )


def _exact_means(values, groups, n_groups):
    """Per-group mean of ``values``: correctly rounded sum divided by the count.

    Equal multisets of values give bit-identical means whatever their
    order, so exact ties stay ties.
    """
    counts = np.bincount(groups, minlength=n_groups)
    top = int(counts.max()) if counts.size else 0
    if top <= 1:
        sums = np.zeros(n_groups)
        sums[groups] = values
    else:
        if np.all(groups[1:] >= groups[:-1]):
            v = values  # already grouped (a sorted file): no reordering needed
        else:
            v = values[np.argsort(groups, kind="stable")]
        if np.all(counts == top):
            mat = v.reshape(n_groups, top)  # balanced: every group has `top` rows
        elif n_groups * top <= 2 * len(values) + 1024:
            # pad each group with zeros to the largest count: zeros change no sum
            starts = np.r_[0, np.cumsum(counts)[:-1]]
            mat = np.zeros((n_groups, top))
            pos = np.arange(len(v)) - np.repeat(starts, counts)
            mat[np.repeat(np.arange(n_groups), counts), pos] = v
        else:
            mat = None
        if mat is not None:
            sums = fsum_rows(mat)
        else:
            starts = np.r_[0, np.cumsum(counts)[:-1]]
            vl = v.tolist()
            sums = np.array(
                [
                    _fsum(vl[a : a + k])
                    for a, k in zip(starts.tolist(), counts.tolist(), strict=True)
                ]
            )
    with np.errstate(invalid="ignore", divide="ignore"):
        means = sums / counts
    means[counts == 0] = np.nan
    return means, counts


def _long_tables(
    header, columns, where, roles, *, nan_policy, decimal_comma=False, sha256=None, notes=()
):
    """Build one table per metric from long rows, averaging repeated rows exactly.

    Linear in the number of rows: names become integer codes, data set and
    method one group code, and each group's mean a correctly rounded sum.
    """
    header = roles["header"]
    n_rows = len(columns[0]) if columns else 0
    if n_rows == 0:
        raise CdplotError(f"{where.source}: there are no rows of scores")
    notes = list(notes)
    score_js = roles["scores"]
    if roles["ignored"]:
        notes.append(
            "ignored "
            + _plural(len(roles["ignored"]), "column")
            + " "
            + ", ".join(repr(header[j]) for j in roles["ignored"])
        )
    if decimal_comma == "auto":
        decimal_comma, example = _decimal_comma_example([columns[j] for j in score_js])
        if decimal_comma:
            notes.append(f"read decimal commas ({example!r} as {example.replace(',', '.')})")
    # the parsing step: every column needed, in one pass over the rows of a plain file
    label_js = [roles["dataset"], roles["method"], *roles["repetitions"]]
    label_js += [] if roles["metric"] is None else [roles["metric"]]
    read_columns(
        [columns[j] for j in label_js],
        [columns[j] for j in score_js],
        ord(",") if decimal_comma else ord("."),
    )
    codes = _long_codes(columns, where, roles)
    _refuse_separate_analyses(
        columns,
        where,
        roles,
        [codes.ds_codes, codes.m_codes]
        + ([codes.metric_codes] if codes.metric_codes is not None else [])
        + ([codes.rep_codes] if codes.rep_codes is not None else []),
    )
    parsed = {}
    for sj in score_js:
        parsed[sj] = _parse_column(
            columns[sj],
            decimal_comma,
            lambda i, sj=sj: where.at(i, codes.ds_names[codes.ds_codes[i]], header[sj]),
        )
    # the computing step needs no cell of the file: its separators (4 bytes a cell) and
    # pages go before the groups and means are built (a message would find them again)
    for table in {id(c.table): c.table for c in columns if isinstance(c, ByteColumn)}.values():
        table.drop()
    context = (where, header, roles["repetitions"], nan_policy, sha256, notes)
    return tuple(
        _long_table(part, parsed[part[2]], codes, context)
        for part in _long_parts(header, score_js, codes)
    )


@dataclass(frozen=True)
class _LongCodes:
    """The label columns of long rows as names and one integer code per row."""

    ds_names: list
    ds_codes: np.ndarray
    m_names: list
    m_codes: np.ndarray
    rep_codes: np.ndarray | None  # every repetition column combined into one code
    rep_names: list  # the labels of each repetition column, for keep_repetitions
    metric_names: list
    metric_codes: np.ndarray | None


def _long_codes(columns, where, roles) -> _LongCodes:
    header = roles["header"]
    ds_j, m_j, metric_j = roles["dataset"], roles["method"], roles["metric"]
    ds_names, ds_codes = label_codes(columns[ds_j], where, header[ds_j], "data set")
    m_names, m_codes = label_codes(columns[m_j], where, header[m_j], "method")
    rep_codes = None
    rep_names = []
    for j in roles["repetitions"]:
        names_j, codes_j = label_codes(columns[j], where, header[j], "repetition")
        # one repetition column (the usual case) needs no combined copy of its codes
        rep_codes = (
            codes_j if rep_codes is None else rep_codes.astype(np.int64) * len(names_j) + codes_j
        )
        rep_names.append(names_j)
    metric_names, metric_codes = [], None
    if metric_j is not None:
        metric_names, metric_codes = label_codes(
            columns[metric_j], where, header[metric_j], "metric"
        )
        refuse_repetitions_as_metrics(header[metric_j], metric_names, where.source)
    return _LongCodes(
        ds_names, ds_codes, m_names, m_codes, rep_codes, rep_names, metric_names, metric_codes
    )


def refuse_repetitions_as_metrics(name, metrics, source, fixes=("repetition_col",)) -> None:
    """Refuse a metric column of whole numbers, or one named like a fold or seed column.

    ``metric_col='fold'`` split the rows by fold and ran one analysis per fold, each
    called a metric ("0, higher is better").  Metrics named by numbers are implausible,
    and whoever means them can give them names.  ``fixes`` are the options that take
    the column as what it is (the per-fold reader has ``fold_col`` too).
    """
    numbers = all(_INTEGER_RE.fullmatch(m) for m in metrics)
    if not numbers and _role_of(name) != "repetition":
        return
    shown = ", ".join(repr(m) for m in metrics[:5]) + (", ..." if len(metrics) > 5 else "")
    kind = "whole numbers" if numbers else "values of a column named like repetitions"
    fix = " or ".join(f"{opt(o, name)}" for o in fixes)
    raise CdplotError(
        f"{source}: the metric column {opt('metric_col', name)} holds {kind} ({shown}), not "
        f"metric names; pass {fix} if they tell repeated runs (folds, seeds) apart, else "
        f"name the metrics",
        option="metric_col",
    )


def _long_parts(header, score_js, codes: _LongCodes):
    """(metric name, where it came from, score column, row selection) of each table."""
    parts = []
    for sj in score_js:
        if codes.metric_codes is not None:
            for c, name in enumerate(codes.metric_names):
                parts.append((name, "metric", sj, np.flatnonzero(codes.metric_codes == c)))
        elif len(score_js) > 1 or _norm_col(header[sj]) not in _GENERIC_SCORE_NAMES:
            parts.append((header[sj], "column", sj, None))
        else:
            parts.append((None, None, sj, None))
    return parts


def _long_table(part, column_values, codes: _LongCodes, context):
    """One metric's table: the mean of each data set and method over its rows."""
    where, header, rep_js, nan_policy, sha256, notes = context
    metric, metric_from, sj, rows = part
    values = column_values if rows is None else column_values[rows]
    ds_order, m_order, groups = _group_codes(codes, rows)
    n_d, n_m = len(ds_order), len(m_order)
    means, counts = _exact_means(values, groups, n_d * n_m)
    if np.isinf(means).any():
        i, j = divmod(int(np.flatnonzero(np.isinf(means))[0]), n_m)
        raise CdplotError(
            f"{where.source}: the scores of data set {codes.ds_names[ds_order[i]]!r}, method "
            f"{codes.m_names[m_order[j]]!r} add up beyond the largest float (about 1.8e308), so "
            f"their mean cannot be computed; rescale the scores"
        )
    first_missing = _missing_groups(values, groups, rows, means)
    datasets = [codes.ds_names[c] for c in ds_order]
    methods = [codes.m_names[c] for c in m_order]
    reps = codes.rep_codes
    if reps is not None and rows is not None:
        reps = reps[rows]
    t_notes = list(notes)
    means, n_tied = tie_close_means(means.reshape(n_d, n_m), counts.reshape(n_d, n_m) > 1)
    t_notes += _repetition_notes(
        counts.reshape(n_d, n_m), groups, reps, datasets, methods, [header[j] for j in rep_js]
    )
    if n_tied:
        t_notes.append(tie_note(n_tied))

    def missing_at(i, j, first_missing=first_missing, n_m=n_m):
        row = first_missing.get(int(i) * n_m + int(j))
        return "no row" if row is None else where.row(row)

    table = _finish(
        means.reshape(n_d, n_m),
        methods,
        datasets,
        where,
        nan_policy=nan_policy,
        missing_at=missing_at,
        metric=metric,
        metric_from=metric_from,
        # with a metric column, the score column's own name ("loss") is evidence too
        evidence=[("column name", header[sj])] if metric_from == "metric" else (),
        sha256=sha256,
        notes=t_notes,
    )
    if _repetitions.wanted():  # off by default: a pass over every row
        array, labels = _repetitions.repetition_array(
            values, groups, reps, n_d * n_m, codes.rep_names
        )
        if array is not None:
            array = array.reshape(n_d, n_m, -1)
        table = _repetitions.attach(table, array, labels, datasets)
    return table


def _group_codes(codes: _LongCodes, rows):
    """The data sets and methods of the selected rows, in order of first appearance (the
    codes' own order when every row is used), and each row's (data set, method) group."""
    dsc = codes.ds_codes if rows is None else codes.ds_codes[rows]
    mc = codes.m_codes if rows is None else codes.m_codes[rows]
    n_ds, n_ms = len(codes.ds_names), len(codes.m_names)
    if rows is None:
        ds_order = np.arange(n_ds)
        m_order = np.arange(n_ms)
    else:
        ds_used, ds_first = np.unique(dsc, return_index=True)
        m_used, m_first = np.unique(mc, return_index=True)
        ds_order = ds_used[np.argsort(ds_first, kind="stable")]
        m_order = m_used[np.argsort(m_first, kind="stable")]
    ds_pos = np.full(n_ds, -1, dtype=np.intp)
    ds_pos[ds_order] = np.arange(len(ds_order))
    m_pos = np.full(n_ms, -1, dtype=np.intp)
    m_pos[m_order] = np.arange(len(m_order))
    n_d, n_m = len(ds_order), len(m_order)
    # in place, and 32-bit while the pairs allow, to keep the peak memory of long
    # files low (products with the repetitions are taken in 64 bits)
    groups = (dsc if rows is None else ds_pos[dsc]).astype(
        np.int32 if n_d * n_m < 2**31 else np.int64
    )
    groups *= n_m
    groups += mc if rows is None else m_pos[mc]
    return ds_order, m_order, groups


def _missing_groups(values, groups, rows, means) -> dict[int, int]:
    """Mark each group with a missing score missing, wherever the gap is; return the
    first row missing in each such group."""
    nan_rows = np.flatnonzero(np.isnan(values))
    if not nan_rows.size:
        return {}
    bad_groups, first = np.unique(groups[nan_rows], return_index=True)
    means[bad_groups] = np.nan
    row_index = nan_rows[first] if rows is None else rows[nan_rows[first]]
    return dict(zip(bad_groups.tolist(), row_index.tolist(), strict=True))


def _refuse_separate_analyses(columns, where, roles, key_codes):
    """Refuse a text column that tells rows of one data set and method apart.

    ``diagram,dataset,method,loss`` holds one analysis per diagram: averaging
    the diagrams' scores per data set and method would silently merge
    separate analyses.  A column of names that takes several values within
    one data set and method (and repetition, metric) is such a split, unless
    it is a recognised role; a column that is constant there (a method's
    family, a data set's task type) describes the rows and is ignored.  A
    column of whole numbers (``diagram`` numbered 1, 2, ...) is read as labels
    too; one of other numbers holds more scores (times, other metrics).
    """
    header = roles["header"]
    if not roles["ignored"]:
        return
    key, n_keys = None, 1
    for codes in key_codes:
        codes = np.asarray(codes, dtype=np.int64)
        width = int(codes.max()) + 1
        key = codes if key is None else key * width + codes
        n_keys *= width
    if n_keys > 4 * len(key) + 1024:
        # a sparse key space (few rows per combination of names): number the keys that occur
        _, key = np.unique(key, return_inverse=True)
        n_keys = int(key.max()) + 1
    for j in roles["ignored"]:
        if _looks_numeric(columns[j]) and not _whole_numbers(columns[j]):
            continue  # more scores (times, other metrics), not labels
        try:
            names, codes = label_codes(columns[j], where, header[j], "label")
        except CdplotError:
            continue  # empty or odd labels: an ignored column is not checked further
        if len(names) < 2:
            continue
        # no sort: write each row's label at its key (one of a key's rows wins, whichever)
        # and read them back; a key with two labels reads back a label it lacks in some row
        # (5,000,000 rows: two np.unique, about 0.2 s, became two indexing passes)
        seen = np.empty(n_keys, dtype=codes.dtype)
        seen[key] = codes
        if np.array_equal(seen[key], codes):
            continue
        shown = ", ".join(repr(n) for n in names[:4]) + (" ..." if len(names) > 4 else "")
        raise CdplotError(
            f"{where.source}: column {header[j]!r} takes {len(names)} values ({shown}) within one "
            "data set and method, so its rows look like separate analyses that would be averaged "
            f"together; pass {opt('metric_col', header[j])} to analyse each apart, or "
            f"{opt('repetition_col', header[j])} to average them",
            option="metric_col",
        )


def _repetition_notes(counts, groups, rep_codes, datasets, methods, rep_names):
    """Say in words how many rows were averaged per data set and method."""
    notes = []
    present = counts[counts > 0]
    if present.size == 0 or present.max() == 1:
        return notes
    lo, hi = int(present.min()), int(present.max())
    cols = " and ".join(repr(c) for c in rep_names)
    col_words = f" ({'column' if len(rep_names) == 1 else 'columns'} {cols})"

    def pair(flat):
        i, j = divmod(int(flat), counts.shape[1])
        return datasets[i], methods[j], int(counts.flat[flat])

    if rep_names:
        if lo == hi:
            notes.append(f"averaged {hi} repetitions per data set and method{col_words}")
        else:
            masked = np.where(counts > 0, counts, np.iinfo(counts.dtype).max)
            few = pair(np.argmin(masked))
            many = pair(np.argmax(counts))
            notes.append(
                f"averaged {lo} to {hi} repetitions per data set and method{col_words}; "
                f"the counts are unbalanced, e.g. {few[0]!r}/{few[1]!r} has {few[2]} "
                f"and {many[0]!r}/{many[1]!r} has {many[2]}"
            )
        n_rep = int(rep_codes.max()) + 1
        n_keys = counts.size * n_rep
        repeated = np.zeros(0, dtype=np.int64)
        if n_keys <= 8 * len(groups):
            # one flag per (pair, repetition), set in blocks: no repeat iff every row set
            # a new flag; only then are the repeats themselves looked for
            seen = np.zeros(n_keys, dtype=bool)
            for a in range(0, len(groups), 1 << 20):
                keys = groups[a : a + (1 << 20)].astype(np.int64)
                keys *= n_rep
                keys += rep_codes[a : a + (1 << 20)]
                seen[keys] = True
            clean = int(np.count_nonzero(seen)) == len(groups)
        else:
            clean = False
        if not clean:
            keys = groups.astype(np.int64)
            keys *= n_rep
            keys += rep_codes
            uniq, key_counts = np.unique(keys, return_counts=True)
            repeated = uniq[key_counts > 1]
        if repeated.size:
            rep_groups = np.unique(repeated // n_rep)
            ds, m, _ = pair(rep_groups[0])
            notes.append(
                f"{_plural(len(rep_groups), 'data set and method pair')} repeat a value "
                f"of {cols}, e.g. {ds!r}/{m!r}; those rows were averaged too"
            )
    else:
        dup = np.flatnonzero(counts.ravel() > 1)
        ds, m, _ = pair(dup[0])
        span_lo = max(lo, 2)
        span = f"{span_lo} to {hi}" if span_lo != hi else f"{hi}"
        note = (
            f"averaged duplicate rows: {_plural(len(dup), 'data set and method pair')} "
            f"{'appears' if len(dup) == 1 else 'appear'} {span} times with no repetition "
            f"column to tell the rows apart, e.g. {ds!r}/{m!r}"
        )
        notes.append(note)
        # rows nothing tells apart may be separate analyses: say it where it cannot be missed
        warnings.warn(
            f"{note}; pass {opt('repetition_col')} or {opt('metric_col')} to say what the rows are",
            CdplotWarning,
            stacklevel=2,
        )
    return notes


def _tables_from_columns(
    header,
    columns,
    where,
    *,
    layout,
    cols,
    nan_policy,
    wide,
    decimal_comma=False,
    sha256=None,
    notes=(),
):
    """Long or wide tables from column-shaped data (files, DataFrames, records).

    ``wide()`` builds the wide table when the header does not look long.
    """
    forced = layout == "long" or any(v is not None for v in cols.values())
    if layout == "wide":
        if any(v is not None for v in cols.values()):
            given = ", ".join(f"{opt(k)}" for k, v in cols.items() if v is not None)
            raise CdplotError(
                f"{where.source}: {given} only apply to {opt('layout', 'long')}", option="layout"
            )
        return (wide(),)
    roles = _find_roles(
        header, where, forced=forced, numeric=lambda j: _looks_numeric(columns[j]), **cols
    )
    if roles is None:
        try:
            return (wide(),)
        except CdplotError as e:
            hint = _long_hint(header, columns, str(e))
            if hint is None:
                raise
            raise CdplotError(f"{e}; {hint}") from None
    return _long_tables(
        header,
        columns,
        where,
        roles,
        nan_policy=nan_policy,
        decimal_comma=decimal_comma,
        sha256=sha256,
        notes=notes,
    )


def _long_hint(header, columns, message):
    """For a wide read that found a data set twice: how to read the file as long.

    A long file whose method column has a name cdplot does not know is read as
    wide, and its first repeated data set is all the user sees.
    """
    if "appears twice" not in message or len(header) < 3:
        return None
    names = [
        repr(h)
        for j, h in enumerate(header)
        if j > 0 and _role_of(h) is None and not _looks_numeric(columns[j])
    ]
    if not names:
        return None
    return (
        f"if each row holds one score (a long file), pass {opt('method_col')} naming the column "
        f"of methods ({' or '.join(names[:3])}) and, if needed, {opt('score_col')}"
    )


def _whole_numbers(col) -> bool:
    """Whether every cell of a numeric column is a whole number (``1``, ``2``, ``3.0``)."""
    try:
        values = np.array([float(c) for c in col if not _is_missing_object(c)], dtype=float)
    except (TypeError, ValueError):
        return False
    return values.size > 0 and bool(np.all(np.isfinite(values) & (values == np.round(values))))


def _looks_numeric(col) -> bool:
    """Whether the first cells of a column are all numbers (a method column never is)."""
    sample = [c for c in col[:50] if not _is_missing_object(c)]
    sample = [c.decode("utf-8", "replace") if isinstance(c, bytes) else c for c in sample]
    sample = [c for c in sample if not (isinstance(c, str) and c.strip() == "")]
    if not sample:
        return False
    return all(
        (isinstance(c, (int, float, np.integer, np.floating)) and not isinstance(c, bool))
        or (isinstance(c, str) and _NUMBER_RE.match(c.strip()) is not None)
        for c in sample
    )


def _select_metric(tables, metric, source):
    """The tables of ``metric``; a name that is no metric of the data is an error.

    A table whose metric is not named (a wide file, a ``score`` column) is
    never relabelled with the name asked for: ``--metric rmse`` on such a
    file would otherwise print "rmse" over scores that may be accuracies.
    """
    if metric is None:
        return tuple(tables)
    chosen = tuple(t for t in tables if t.metric == metric)
    if chosen:
        return chosen
    sources = {t.source for t in tables if t.source}
    if len(sources) == 1:
        source = sources.pop()
    names = [t.metric for t in tables if t.metric is not None]
    if names:
        known = f"the metrics are {', '.join(repr(n) for n in names)}"
    else:
        known = (
            "the scores name no metric (no metric column, no metric-named score column, "
            "no <Method>_<metric> file); leave the option out"
        )
    raise CdplotError(
        f"{source}: option {opt('metric', metric)} matches no table; {known}", option="metric"
    )


def _from_table(table, where, nan_policy):
    """Check a ScoreTable someone built by hand as strictly as a file."""
    values = np.asarray(table.values, dtype=float)
    if values.ndim != 2 or values.shape != (len(table.datasets), len(table.methods)):
        raise CdplotError(
            f"{where.source}: values have shape {values.shape} but there are "
            f"{len(table.datasets)} data sets and {len(table.methods)} methods"
        )
    out = _wide_table(
        table.datasets,
        table.methods,
        values.tolist(),
        where,
        nan_policy=nan_policy,
        metric=table.metric,
        higher_is_better=table.higher_is_better,
        sha256=table.sha256,
        notes=table.notes,
        dataset_at=lambda i: f"data set {i + 1}",
        method_at=lambda j: f"method {j + 1}",
    )
    reps = table.repetition_scores
    if reps is not None and np.shape(reps)[:2] != values.shape:
        raise CdplotError(
            f"{where.source}: repetition_scores have shape {np.shape(reps)}, which does not "
            f"start with the {values.shape} of the values"
        )
    out = _repetitions.carry(table, out, range(len(table.datasets)), range(len(table.methods)))
    return replace(
        out,
        source=table.source,
        direction=table.direction,
        direction_conflict=table.direction_conflict,
        dropped_datasets=tuple(table.dropped_datasets) + out.dropped_datasets,
        dropped_methods=tuple(table.dropped_methods) + out.dropped_methods,
    )


def _check_rows(rows, where, what="row"):
    """Raise if a nested list is ragged; return the common row length."""
    lengths = [len(r) for r in rows]
    for i, n in enumerate(lengths):
        if n != lengths[0]:
            raise CdplotError(
                f"{where.source}, {what} {i + 1} has {_plural(n, 'value')}, "
                f"{what} 1 has {lengths[0]}"
            )
    return lengths[0] if lengths else 0


def _from_array(
    data,
    where,
    *,
    methods,
    datasets,
    nan_policy,
    metric=None,
    higher_is_better=None,
    notes=(),
    metric_from=None,
):
    if isinstance(data, np.ndarray):
        if data.ndim != 2:
            raise CdplotError(
                f"{where.source}: expected a 2-D table (data sets x methods), got "
                f"{data.ndim} dimension(s) with shape {data.shape}"
            )
        rows = data.tolist()
    else:
        rows = []
        for i, r in enumerate(data):
            if isinstance(r, (str, bytes, Mapping)) or not isinstance(r, (Sequence, np.ndarray)):
                raise CdplotError(
                    f"{where.source}, row {i + 1}: expected a list of scores, got {r!r}"
                )
            rows.append(list(r))
    n_cols = _check_rows(rows, where)
    if where.rows is None:
        where = _Where(where.source, [f"row {i + 1}" for i in range(len(rows))])
    if not rows or n_cols == 0:
        raise CdplotError(f"{where.source}: the table is empty")
    if methods is None:
        methods = [f"method {j + 1}" for j in range(n_cols)]
    elif len(methods) != n_cols:
        raise CdplotError(
            f"{where.source}: option {opt('methods')} has {_plural(len(methods), 'name')} but the "
            f"table has {_plural(n_cols, 'column')}",
            option="methods",
        )
    if datasets is None:
        datasets = [f"dataset {i + 1}" for i in range(len(rows))]
    elif len(datasets) != len(rows):
        raise CdplotError(
            f"{where.source}: option {opt('datasets')} has {_plural(len(datasets), 'name')} but "
            f"the table has {_plural(len(rows), 'row')}",
            option="datasets",
        )
    return _wide_table(
        datasets,
        methods,
        rows,
        where,
        nan_policy=nan_policy,
        metric=metric,
        metric_from=metric_from,
        higher_is_better=higher_is_better,
        notes=notes,
        method_at=lambda j: f"column {j + 1}",
    )


_TABLE_KEYS = frozenset(
    {
        "methods",
        "datasets",
        "scores",
        "metric",
        "higher_is_better",
        "direction",
        "source",
        "sha256",
        "notes",
        "dropped_datasets",
        "dropped_methods",
        "direction_conflict",
    }
)


def _is_table_mapping(data) -> bool:
    return (
        isinstance(data, Mapping)
        and "scores" in data
        and not isinstance(data["scores"], Mapping)
        and set(data) <= _TABLE_KEYS
    )


def _from_table_mapping(data, where, nan_policy):
    def names(key):
        value = data.get(key)
        if value is None:
            return None
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise CdplotError(f"{where.source}: {key!r} must be a list of names, got {value!r}")
        return [_name_text(v) for v in value]

    scores = data["scores"]
    if isinstance(scores, (str, bytes)) or not isinstance(scores, (Sequence, np.ndarray)):
        raise CdplotError(f"{where.source}: 'scores' must be a list of rows, got {scores!r}")
    hib = data.get("higher_is_better")
    if hib is not None and not isinstance(hib, (bool, np.bool_)):
        raise CdplotError(
            f"{where.source}: 'higher_is_better' must be true, false or null, got {hib!r}"
        )
    metric = data.get("metric")
    if metric is not None and not isinstance(metric, str):
        raise CdplotError(f"{where.source}: 'metric' must be a string, got {metric!r}")
    methods, datasets = names("methods"), names("datasets")
    scores = scores.tolist() if isinstance(scores, np.ndarray) else scores
    rows = []
    for i, r in enumerate(scores):
        if isinstance(r, (str, bytes, Mapping)) or not isinstance(r, Sequence):
            raise CdplotError(
                f"{where.source}, 'scores' row {i + 1}: expected a list of scores, got {r!r}"
            )
        rows.append(list(r))
    n_cols = _check_rows(rows, _Where(f"{where.source}, 'scores'"))
    if methods is not None and len(methods) != n_cols:
        raise CdplotError(
            f"{where.source}: 'methods' has {_plural(len(methods), 'name')} but 'scores' "
            f"has {_plural(n_cols, 'column')}"
        )
    if datasets is not None and len(datasets) != len(rows):
        raise CdplotError(
            f"{where.source}: 'datasets' has {_plural(len(datasets), 'name')} but 'scores' "
            f"has {_plural(len(rows), 'row')}"
        )
    notes = _text_list(data, "notes", where)
    dropped = _text_list(data, "dropped_datasets", where)
    dropped_methods = _text_list(data, "dropped_methods", where)
    for key in ("direction", "direction_conflict", "sha256", "source"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise CdplotError(
                f"{where.source}: {key!r} must be a string or null, got {data[key]!r}"
            )
    table = _from_array(
        rows,
        where,
        methods=methods,
        datasets=datasets,
        nan_policy=nan_policy,
        metric=metric,
        higher_is_better=None if hib is None else bool(hib),
        notes=notes,
    )
    return replace(
        table,
        sha256=data.get("sha256"),
        source=data.get("source") or table.source,
        direction=data.get("direction"),
        direction_conflict=data.get("direction_conflict"),
        dropped_datasets=dropped + table.dropped_datasets,
        dropped_methods=dropped_methods + table.dropped_methods,
    )


def _text_list(data, key, where) -> tuple:
    value = data.get(key)
    if value is None:
        return ()
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise CdplotError(f"{where.source}: {key!r} must be a list of strings, got {value!r}")
    for v in value:
        if not isinstance(v, str):
            raise CdplotError(f"{where.source}: {key!r} must hold strings only, got {v!r}")
    return tuple(value)


ORIENTS = ("auto", "datasets", "methods")


def _from_nested_mapping(data, where, nan_policy, metric=None, metric_from=None, orient="auto"):
    """``{dataset: {method: score}}``, or ``{method: {dataset: score}}`` with orient='methods'."""
    outer_kind, inner_kind = (
        ("method", "data set") if orient == "methods" else ("data set", "method")
    )
    outer, inner_names = [], {}
    for key, inner in data.items():
        if not isinstance(inner, Mapping):
            raise CdplotError(
                f"{where.source}, {outer_kind} {_name_text(key)!r}: expected a mapping of "
                f"{inner_kind} to score, got {inner!r}"
            )
        outer.append(key)
        for m in inner:
            inner_names.setdefault(_name_text(m), None)
    inner_names = list(inner_names)
    if orient == "auto" and len(outer) < len(inner_names):
        # DataFrame.to_dict() and to_json() give {column: {index: score}}, that is
        # {method: {dataset: score}}; read the documented way round it would silently
        # become a table of more methods than data sets.
        raise CdplotError(
            f"{where.source}: a mapping of mappings is read as {{data set: {{method: score}}}}, "
            f"which here gives {_plural(len(outer), 'data set')} and "
            f"{_plural(len(inner_names), 'method')}; if the outer keys are methods (as "
            f"DataFrame.to_dict() gives) pass {opt('orient', 'methods')}, else "
            f"{opt('orient', 'datasets')}",
            option="orient",
        )
    rows = []
    for inner in data.values():
        by_name = {_name_text(m): v for m, v in inner.items()}
        rows.append([by_name.get(m) for m in inner_names])
    if orient == "methods":
        datasets, methods = inner_names, outer
        rows = [list(r) for r in zip(*rows, strict=True)] if rows else rows
        dataset_at, method_at = (lambda i: f"data set {i + 1}"), (lambda j: f"method {j + 1}")
    else:
        datasets, methods = outer, inner_names
        dataset_at, method_at = (lambda i: f"data set {i + 1}"), (lambda j: f"method {j + 1}")
    return _wide_table(
        datasets,
        methods,
        rows,
        where,
        nan_policy=nan_policy,
        metric=metric,
        metric_from=metric_from,
        dataset_at=dataset_at,
        method_at=method_at,
    )


def _from_mapping(data, where, nan_policy, orient="auto"):
    if not data:
        raise CdplotError(f"{where.source}: the mapping is empty")
    if _is_table_mapping(data):
        return (_from_table_mapping(data, where, nan_policy),)
    if "scores" in data and not all(isinstance(v, Mapping) for v in data.values()):
        extra = sorted(set(data) - _TABLE_KEYS)
        raise CdplotError(
            f"{where.source}: unknown key {extra[0]!r} in a table mapping; the keys are "
            f"{', '.join(repr(k) for k in sorted(_TABLE_KEYS))}"
        )
    values = list(data.values())
    if all(
        isinstance(v, Mapping) and v and all(isinstance(w, Mapping) for w in v.values())
        for v in values
    ):
        # {metric: {dataset: {method: score}}}
        return tuple(
            _from_nested_mapping(
                inner,
                where,
                nan_policy,
                metric=_name_text(metric),
                metric_from="metric",
                orient=orient,
            )
            for metric, inner in data.items()
        )
    return (_from_nested_mapping(data, where, nan_policy, orient=orient),)


def _from_records(records, where, *, layout, cols, nan_policy):
    header = {}
    for i, r in enumerate(records):
        if not isinstance(r, Mapping):
            raise CdplotError(f"{where.source}, records[{i}]: expected a mapping, got {r!r}")
        for k in r:
            header.setdefault(_name_text(k), None)
    header = list(header)
    columns = [[] for _ in header]
    for r in records:
        by_name = {_name_text(k): v for k, v in r.items()}
        for j, h in enumerate(header):
            columns[j].append(by_name.get(h))
    where = _Where(where.source, [f"records[{i}]" for i in range(len(records))])
    if layout == "wide":
        raise CdplotError(
            f"{where.source}: records are long data; {opt('layout', 'wide')} does not apply",
            option="layout",
        )
    return _tables_from_columns(
        header,
        columns,
        where,
        layout="long",
        cols=cols,
        nan_policy=nan_policy,
        wide=None,
    )


def _frame_kind(data):
    module = type(data).__module__ or ""
    if module.startswith("polars"):
        return "polars"
    if module.startswith("pandas") or (
        hasattr(data, "iloc") and hasattr(data, "columns") and hasattr(data, "index")
    ):
        return "pandas"
    return None


def _is_numeric_column(values) -> bool:
    present = [v for v in values if not _is_missing_object(v)]
    return bool(present) and all(
        isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
        for v in present
    )


def _from_series(series, where, *, layout, cols, nan_policy):
    """A pandas Series indexed by (data set, method), as ``groupby([...]).mean()`` gives.

    Read as a long table: one column per index level (by its name, else
    ``dataset`` and ``method`` in that order) and the scores in a column
    named after the Series (else ``score``).
    """
    index = series.index
    if getattr(index, "nlevels", 1) < 2:
        raise CdplotError(
            f"{where.source}: a Series with one index level holds one method; pass a "
            "DataFrame of data sets x methods, or a Series indexed by (data set, method) "
            "such as df.groupby(['dataset', 'method'])['score'].mean()"
        )
    defaults = ["dataset", "method", "metric"]
    names = [
        _name_text(n) if n is not None else (defaults[i] if i < len(defaults) else f"level {i}")
        for i, n in enumerate(index.names)
    ]
    score = _name_text(series.name) if series.name is not None else "score"
    labels = list(index)
    header = [*names, score]
    columns = [list(c) for c in zip(*labels, strict=True)] + [series.tolist()]
    long_where = _Where(where.source, [f"row {label!r}" for label in labels])

    def wide():
        # a Series is long by its shape: only its level names can be wrong
        raise CdplotError(
            f"{where.source}: a Series indexed by {', '.join(map(repr, names))} is a long "
            "table whose data-set and method levels were not recognised; name them with "
            "dataset_col= and method_col= (or rename the index levels)"
        )

    return _tables_from_columns(
        header, columns, long_where, layout=layout, cols=cols, nan_policy=nan_policy, wide=wide
    )


def _from_pandas(df, where, *, layout, cols, nan_policy):
    if not hasattr(df, "columns"):  # a Series
        return _from_series(df, where, layout=layout, cols=cols, nan_policy=nan_policy)
    header = [_name_text(c) for c in df.columns]
    columns = [df.iloc[:, j].tolist() for j in range(len(header))]
    index = df.index
    default_index = (
        type(index).__name__ == "RangeIndex"
        and getattr(index, "start", None) == 0
        and getattr(index, "step", None) == 1
    )
    index_labels = list(index)

    def wide():
        notes = []
        if not default_index:
            datasets, m_header, m_cols = index_labels, header, columns
        elif header and not _is_numeric_column(columns[0]):
            datasets, m_header, m_cols = columns[0], header[1:], columns[1:]
            notes.append(f"took the data-set names from the first column {header[0]!r}")
        else:
            datasets = [f"dataset {i + 1}" for i in range(len(index_labels))]
            m_header, m_cols = header, columns
            notes.append(
                f"the DataFrame has no data-set names; named them 'dataset 1' to "
                f"'dataset {len(datasets)}'"
            )
        if not m_header or not datasets:
            raise CdplotError(f"{where.source}: the DataFrame is empty")
        rows = [list(r) for r in zip(*m_cols, strict=True)]
        return _wide_table(
            datasets,
            m_header,
            rows,
            where,
            nan_policy=nan_policy,
            notes=notes,
            dataset_at=lambda i: f"row {i}",
        )

    long_header, long_columns = header, columns
    if not default_index:
        # a long table indexed by data set (df.set_index("dataset")) keeps that column
        names = list(getattr(index, "names", None) or [index.name])
        if all(n is not None for n in names):
            if len(names) == 1:
                long_header = [_name_text(names[0])] + header
                long_columns = [index_labels] + columns
            else:
                long_header = [_name_text(n) for n in names] + header
                long_columns = [list(c) for c in zip(*index_labels, strict=True)] + columns
    long_where = _Where(where.source, [f"row {label!r}" for label in index_labels])
    return _tables_from_columns(
        long_header,
        long_columns,
        long_where,
        layout=layout,
        cols=cols,
        nan_policy=nan_policy,
        wide=wide,
    )


def _from_polars(df, where, *, layout, cols, nan_policy):
    if not hasattr(df, "get_column"):
        name = type(df).__name__
        hint = "; call .collect() first" if name == "LazyFrame" else ""
        raise CdplotError(f"{where.source}: a polars {name} is not a DataFrame{hint}")
    header = [_name_text(c) for c in df.columns]
    columns = [df.get_column(c).to_list() for c in df.columns]
    where = _Where(where.source, [f"row {i}" for i in range(df.height)])

    def is_numeric(j):
        dtype = df.schema[df.columns[j]]
        check = getattr(dtype, "is_numeric", None)
        if callable(check):
            return bool(check())
        return _is_numeric_column(columns[j])

    def wide():
        notes = []
        names_j = next((j for j in range(len(header)) if not is_numeric(j)), None)
        if names_j is None:
            datasets = [f"dataset {i + 1}" for i in range(df.height)]
            m_header, m_cols = header, columns
            notes.append(
                f"the DataFrame has no column of names; named them 'dataset 1' to "
                f"'dataset {len(datasets)}'"
            )
        else:
            datasets = columns[names_j]
            m_header = header[:names_j] + header[names_j + 1 :]
            m_cols = columns[:names_j] + columns[names_j + 1 :]
            notes.append(f"took the data-set names from column {header[names_j]!r}")
        if not m_header or not datasets:
            raise CdplotError(f"{where.source}: the DataFrame is empty")
        rows = [list(r) for r in zip(*m_cols, strict=True)]
        return _wide_table(
            datasets,
            m_header,
            rows,
            _Where(where.source),
            nan_policy=nan_policy,
            notes=notes,
            dataset_at=lambda i: f"row {i}",
        )

    return _tables_from_columns(
        header,
        columns,
        where,
        layout=layout,
        cols=cols,
        nan_policy=nan_policy,
        wide=wide,
    )


def _reject_long_options(cols, layout, what):
    given = [f"{opt(k)}" for k, v in cols.items() if v is not None]
    if given:
        name = next(k for k, v in cols.items() if v is not None)
        raise CdplotError(f"option {given[0]} applies to long data; {what} is wide", option=name)
    if layout == "long":
        raise CdplotError(
            f"option {opt('layout', 'long')} does not apply; {what} is wide", option="layout"
        )


def _from_sequence(data, where, *, layout, cols, nan_policy):
    if not data:
        raise CdplotError(f"{where.source}: there are no scores")
    if all(isinstance(x, ScoreTable) for x in data):
        _reject_long_options(cols, layout, "a list of ScoreTables")
        return tuple(
            _from_table(t, _Where(t.source or f"{where.source}[{i}]"), nan_policy)
            for i, t in enumerate(data)
        )
    if all(isinstance(x, Mapping) for x in data):
        if all(_is_table_mapping(x) for x in data):
            _reject_long_options(cols, layout, "a list of table mappings")
            return tuple(
                _from_table_mapping(x, _Where(f"{where.source}[{i}]"), nan_policy)
                for i, x in enumerate(data)
            )
        return _from_records(
            data,
            _Where("list of records" if where.source.endswith(" of scores") else where.source),
            layout=layout,
            cols=cols,
            nan_policy=nan_policy,
        )
    kinds = sorted({type(x).__name__ for x in data})
    raise CdplotError(
        f"{where.source}: mixes items of types {', '.join(kinds)}; pass rows of scores, "
        f"records (mappings) or ScoreTables"
    )


def validate_selection(methods, exclude, datasets, rename):
    """Check the selection options; return them as lists and a dict (or None)."""
    out = []
    for name, value in (("methods", methods), ("exclude", exclude), ("datasets", datasets)):
        if value is None:
            out.append(None)
            continue
        if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
            raise CdplotError(f"option {opt(name, value)} must be a list of names", option=name)
        names = [_name_text(v) for v in value]
        if not names:
            raise CdplotError(
                f"option {opt(name, [])} names nothing; leave it out to keep all", option=name
            )
        out.append(names)
    if rename is not None:
        if not isinstance(rename, Mapping):
            raise CdplotError(
                f"option {opt('rename', rename)} must be a mapping {{old: new}}", option="rename"
            )
        rename = {_name_text(k): _name_text(v) for k, v in rename.items()}
        for new in rename.values():
            _check_name(new, "new method", "option rename=")
            if new == "":
                raise CdplotError(f"option {opt('rename')} gives an empty name", option="rename")
    out.append(rename)
    return tuple(out)


def _known(kind, names):
    shown = ", ".join(repr(n) for n in names[:12])
    more = f" and {len(names) - 12} more" if len(names) > 12 else ""
    return f"the {kind} are {shown}{more}"


def select_tables(
    tables, metric, source, *, selecting, methods, exclude, datasets, rename, nan_policy
) -> tuple:
    """The tables of ``metric`` (all when None), with methods and data sets selected.

    ``selecting`` is the caller's word on whether the options select: for an
    array, ``methods`` and ``datasets`` name its columns and rows instead.
    """
    tables = _select_metric(tables, metric, source)
    if not selecting:
        return ScoreTables(tables)
    return ScoreTables(
        select(
            t,
            methods=methods,
            exclude=exclude,
            datasets=datasets,
            rename=rename,
            nan_policy=nan_policy,
        )
        for t in tables
    )


def select(table, *, methods=None, exclude=None, datasets=None, rename=None, nan_policy="raise"):
    """Keep, drop and rename methods and data sets of a table read with ``nan_policy='keep'``.

    Unknown names are errors that list the known ones. ``nan_policy`` is
    applied afterwards, so a gap in an excluded method drops nothing.
    """
    src = table.source or "scores"
    label = f" (metric {table.metric!r})" if table.metric is not None else ""
    all_methods, all_datasets = list(table.methods), list(table.datasets)
    m_pos = {m: j for j, m in enumerate(all_methods)}
    d_pos = {d: i for i, d in enumerate(all_datasets)}
    notes = list(table.notes)
    for option, given, pos, kind in (
        ("methods", methods, m_pos, "methods"),
        ("exclude", exclude, m_pos, "methods"),
        ("datasets", datasets, d_pos, "data sets"),
        ("rename", list(rename) if rename else None, m_pos, "methods"),
    ):
        for name in given or ():
            if name not in pos:
                raise CdplotError(
                    f"{src}{label}: option {opt(option)} names {name!r}, which is not one of the "
                    f"{kind}; {_known(kind, all_methods if kind == 'methods' else all_datasets)}"
                )
    for option, given in (("methods", methods), ("datasets", datasets), ("exclude", exclude)):
        if given is not None and len(set(given)) < len(given):
            twice = next(v for v in given if given.count(v) > 1)
            raise CdplotError(f"option {opt(option)} names {twice!r} twice")
    cols = [m_pos[m] for m in methods] if methods is not None else list(range(len(all_methods)))
    if exclude:
        drop = {m_pos[m] for m in exclude}
        cols = [j for j in cols if j not in drop]
    rows = [d_pos[d] for d in datasets] if datasets is not None else list(range(len(all_datasets)))
    if len(cols) < len(all_methods):
        notes.append(f"kept {len(cols)} of {_plural(len(all_methods), 'method')} (as selected)")
    if len(rows) < len(all_datasets):
        notes.append(f"kept {len(rows)} of {_plural(len(all_datasets), 'data set')} (as selected)")
    names = [all_methods[j] for j in cols]
    if rename:
        names = [rename.get(m, m) for m in names]
        _check_names(names, "method", _Where(f"{src}{label}"), lambda j: "after rename=")
    values = np.asarray(table.values)[np.ix_(rows, cols)]
    out = _finish(
        values,
        names,
        [all_datasets[i] for i in rows],
        _Where(src),
        nan_policy=nan_policy,
        metric=table.metric,
        higher_is_better=table.higher_is_better,
        sha256=table.sha256,
        notes=notes,
    )
    out = _repetitions.carry(table, out, rows, cols)
    return replace(
        out,
        source=table.source,
        direction=table.direction,
        direction_conflict=table.direction_conflict,
        dropped_datasets=tuple(table.dropped_datasets) + out.dropped_datasets,
        dropped_methods=tuple(table.dropped_methods) + out.dropped_methods,
    )


def file_stem(name: str) -> str | None:
    """The stem of a file's name (``rmse_folds`` of ``runs/rmse_folds.csv``); None for stdin."""
    if name in ("-", "<stdin>"):
        return None
    return os.path.splitext(os.path.basename(str(name)))[0] or None


def with_file_name(table: ScoreTable, name: str) -> ScoreTable:
    """``table`` with what its file's name says about direction weighed in too.

    ``rmse_results.csv`` makes a table that names no metric lower-is-better;
    a file name that contradicts the column or metric names is a conflict
    the analysis refuses unless told the direction.  A direction the data
    declare, and a table whose metric came from the file name (results
    folders), are left as they are.
    """
    stem = file_stem(name)
    if (
        stem is None
        or table.direction_conflict is not None
        or (table.higher_is_better is not None and table.direction is None)
    ):
        return table
    said = direction_of(stem, file_name=True)
    if said is None or (table.direction and f"the file name {stem!r}" in table.direction):
        return table
    if table.higher_is_better is None:
        hib, direction, _ = weigh_direction([("file name", stem)], whole_file_name=True)
        return replace(table, higher_is_better=hib, direction=direction)
    if bool(table.higher_is_better) == said:
        return table
    label = f" (metric {table.metric!r})" if table.metric is not None else ""
    inferred = table.direction.split(";")[0].partition("inferred from ")[2]
    word = "higher" if said else "lower"
    return replace(
        table,
        higher_is_better=None,
        direction=None,
        direction_conflict=(
            f"{name}{label}: the file name {stem!r} says {word} is better but {inferred} "
            f"says {'lower' if said else 'higher'} is better; pass "
            f"{opt('higher_is_better', True)} or {opt('higher_is_better', False)} to say which"
        ),
    )
