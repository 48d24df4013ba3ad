"""The score table: methods x data sets, validated and named.

Everything cdplot analyses goes through :class:`ScoreTable`.  Readers of
files (:mod:`cdplot.readers`) and of in-memory objects (arrays, mappings,
pandas or polars DataFrames, by duck typing) all produce it, and record in
``notes`` whatever they did to the data (averaged repetitions, dropped
incomplete data sets, decimal commas) so that reports can say so.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from .._options import check_option
from ..errors import CdplotError

__all__ = ["ScoreTable", "as_score_tables"]


def _readonly(a) -> np.ndarray:
    a = np.array(a, dtype=float, copy=True)
    a.setflags(write=False)
    return a


@dataclass(frozen=True, kw_only=True)
class ScoreTable:
    """Scores of ``n_methods`` methods on ``n_datasets`` data sets.

    Attributes
    ----------
    values : ndarray, shape (n_datasets, n_methods)
        The scores, read-only; finite unless ``nan_policy`` kept gaps out.
    methods : tuple of str
        Method names, one per column, unique.
    datasets : tuple of str
        Data-set names, one per row, unique.
    metric : str or None
        The measure the scores are of (``"AUC"``, ``"error"``), when known.
    higher_is_better : bool or None
        The direction the source declares (bundled examples do); ``None``
        when the source does not say, in which case higher is better unless
        the user says otherwise.
    source : str or None
        Where the table came from: a file name, ``"example:NAME"`` or a
        description of the Python object.
    sha256 : str or None
        SHA-256 of the source file, for reproducibility footers.
    notes : tuple of str
        What loading did to the data, in words.
    dropped_datasets : tuple of str
        Data sets removed because they were incomplete (``nan_policy='omit'``).
    """

    values: np.ndarray
    methods: tuple[str, ...]
    datasets: tuple[str, ...]
    metric: str | None = None
    higher_is_better: bool | None = None
    source: str | None = None
    sha256: str | None = None
    notes: tuple[str, ...] = field(default=())
    dropped_datasets: tuple[str, ...] = field(default=())

    def __post_init__(self):
        object.__setattr__(self, "values", _readonly(self.values))
        object.__setattr__(self, "methods", tuple(str(m) for m in self.methods))
        object.__setattr__(self, "datasets", tuple(str(d) for d in self.datasets))
        object.__setattr__(self, "notes", tuple(self.notes))
        object.__setattr__(self, "dropped_datasets", tuple(self.dropped_datasets))

    @property
    def n_datasets(self) -> int:
        """Number of data sets (rows)."""
        return self.values.shape[0]

    @property
    def n_methods(self) -> int:
        """Number of methods (columns)."""
        return self.values.shape[1]

    def column(self, method: str) -> np.ndarray:
        """Return the scores of one method over all data sets."""
        return self.values[:, self.methods.index(method)]

    def to_dict(self) -> dict:
        """Return a JSON-safe dictionary of the table."""
        return {
            "methods": list(self.methods),
            "datasets": list(self.datasets),
            "scores": self.values.tolist(),
            "metric": self.metric,
            "higher_is_better": self.higher_is_better,
            "source": self.source,
            "sha256": self.sha256,
            "notes": list(self.notes),
            "dropped_datasets": list(self.dropped_datasets),
        }

    def __str__(self) -> str:
        what = f" of {self.metric}" if self.metric else ""
        src = f" from {self.source}" if self.source else ""
        return f"ScoreTable{what}{src}: {self.n_datasets} data sets x {self.n_methods} methods"


# ---------------------------------------------------------------------------
# Building score tables from what users have: arrays, mappings, records,
# DataFrames (by duck typing, never importing pandas or polars) and files
# (through cdplot.readers).  Everything funnels into two builders, one for
# wide tables (data sets x methods) and one for long/tidy rows, so that the
# wording of every error and note is the same whatever the input was.
# ---------------------------------------------------------------------------

_NAN_POLICIES = ("raise", "omit")
_LAYOUTS = ("auto", "wide", "long")

# Column names recognised in long/tidy data, compared after lower-casing and
# removing spaces, underscores and hyphens ("Data set" == "data_set").
_ROLE_NAMES = {
    "dataset": ("dataset", "datasetname", "problem", "task", "benchmark"),
    "method": ("method", "methodname", "algorithm", "classifier", "model", "learner"),
    "score": ("score", "value", "accuracy", "auc", "error", "result", "performance"),
    "repetition": (
        "fold",
        "seed",
        "rep",
        "repetition",
        "run",
        "repeat",
        "iteration",
        "split",
        "trial",
    ),
    "metric": ("metric", "measure"),
}
# Score columns with these names say nothing about the metric; the others
# ("accuracy", "auc", "error", ...) name it.
_GENERIC_SCORE_NAMES = ("score", "value", "result", "performance")
_MISSING_STRINGS = ("", "na", "nan", "n/a")
_NONFINITE_STRINGS = ("inf", "+inf", "-inf", "infinity", "+infinity", "-infinity")
_DECIMAL_COMMA_RE = re.compile(r"^[+-]?(\d+,\d*|,\d+)([eE][+-]?\d+)?$")
_NUMBER_RE = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_MAX_LISTED = 3


def _validate_options(nan_policy, layout, metric, source, cols):
    check_option("nan_policy", nan_policy, _NAN_POLICIES)
    check_option("layout", layout, _LAYOUTS)
    if metric is not None and (not isinstance(metric, str) or not metric.strip()):
        raise CdplotError(f"option metric={metric!r} must be a non-empty string or None")
    if source is not None and not isinstance(source, str):
        raise CdplotError(f"option source={source!r} must be a string or None")
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
            raise CdplotError(f"option {name}={value!r} must be {what}")


def _validate_names_option(name, value):
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, (Sequence, np.ndarray)):
        raise CdplotError(f"option {name}={value!r} must be a list of names")
    return [_name_text(v) for v in value]


def _norm_col(name) -> str:
    return re.sub(r"[\s_\-]+", "", str(name).strip().lower())


def _role_of(name) -> str | None:
    key = _norm_col(name)
    for role, names in _ROLE_NAMES.items():
        # plural forms ("datasets", "folds") are as common as singular ones
        if key in names or (key.endswith("s") and key[:-1] in names):
            return role
    return None


def _name_text(v) -> str:
    if isinstance(v, tuple):  # pandas MultiIndex labels
        return " / ".join(_name_text(x) for x in v)
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return str(v).strip()


def _is_missing_object(cell) -> bool:
    # pandas.NA, pandas.NaT and polars nulls (None) have no float value
    return cell is None or type(cell).__name__ in ("NAType", "NaTType")


def _plural(n, word, plural=None):
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _listing(items, n_total=None):
    items = list(items)
    n_total = len(items) if n_total is None else n_total
    shown = ", ".join(items[:_MAX_LISTED])
    if n_total > _MAX_LISTED:
        shown += f" and {n_total - _MAX_LISTED} more"
    return shown


class _Where:
    """Where an input came from, for one-line error messages."""

    def __init__(self, source: str, rows=None):
        self.source = source
        # rows[i] names row i as a user finds it ("row 4" in a file,
        # "records[3]"), or is None when the data-set name is enough
        self.rows = rows

    def row(self, i):
        return None if self.rows is None else self.rows[i]

    def at(self, i=None, dataset=None, column=None) -> str:
        parts = [self.source]
        row = self.row(i) if i is not None else None
        if row is not None and dataset is not None:
            parts.append(f"{row} (data set {dataset!r})")
        elif row is not None:
            parts.append(row)
        elif dataset is not None:
            parts.append(f"data set {dataset!r}")
        if column is not None:
            parts.append(f"column {column!r}")
        return ", ".join(parts)


def _parse_cell(cell, decimal_comma, where):
    """Return the float in ``cell`` (NaN when missing); ``where()`` locates it."""
    if isinstance(cell, (bool, np.bool_)):
        raise CdplotError(f"{where()}: {cell!r} is not a number")
    if _is_missing_object(cell):
        return math.nan
    if isinstance(cell, str):
        text = cell.strip()
        low = text.lower()
        if low in _MISSING_STRINGS:
            return math.nan
        if low in _NONFINITE_STRINGS:
            raise CdplotError(f"{where()}: {cell!r} is not finite")
        if decimal_comma and _DECIMAL_COMMA_RE.match(text):
            text = text.replace(",", ".")
        elif decimal_comma and "." in text:
            raise CdplotError(
                f"{where()}: {cell!r} has a decimal point but other cells use decimal commas"
            )
        # float() alone would accept "1_000" and " nan "; keep to plain numbers
        if not _NUMBER_RE.match(text):
            raise CdplotError(f"{where()}: {cell!r} is not a number")
        return float(text)
    try:
        value = float(cell)
    except (TypeError, ValueError):
        raise CdplotError(f"{where()}: {cell!r} is not a number") from None
    if math.isinf(value):
        raise CdplotError(f"{where()}: {cell!r} is not finite")
    return value


def _wants_decimal_comma(cells) -> bool:
    return any(isinstance(c, str) and _DECIMAL_COMMA_RE.match(c.strip()) for c in cells)


def _check_names(names, kind, where, locate):
    """Raise on empty or repeated names; ``locate(i)`` says where name i is."""
    seen = {}
    for i, name in enumerate(names):
        if name == "":
            raise CdplotError(f"{where.source}, {locate(i)}: the {kind} name is empty")
        if name in seen:
            raise CdplotError(
                f"{where.source}, {locate(i)}: {kind} {name!r} appears twice "
                f"(also {locate(seen[name])})"
            )
        seen[name] = i


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
    higher_is_better=None,
    sha256=None,
    notes=(),
):
    """Apply ``nan_policy`` and the size checks; return the :class:`ScoreTable`.

    ``missing_at(i, j)`` may add where a missing cell is ("row 4").
    """
    values = np.asarray(values, dtype=float)
    methods, datasets, notes = list(methods), list(datasets), list(notes)
    label = f" of metric {metric!r}" if metric is not None else ""
    _check_size(len(methods), "method", methods, where, label)
    if np.isinf(values).any():
        i, j = np.argwhere(np.isinf(values))[0]
        raise CdplotError(f"{where.at(i, datasets[i], methods[j])}: {values[i, j]!r} is not finite")
    missing = np.isnan(values)
    dropped = []
    if missing.any():
        cells = []
        for i, j in np.argwhere(missing):
            at = missing_at(i, j) if missing_at is not None else None
            cells.append(f"{datasets[i]!r}/{methods[j]!r}" + (f" ({at})" if at else ""))
        if nan_policy == "raise":
            raise CdplotError(
                f"{where.source}: {_plural(len(cells), 'missing score')}{label} "
                f"(data set/method): {_listing(cells)}; fill them in or pass "
                f"nan_policy='omit' (--drop-incomplete) to drop those data sets"
            )
        empty = [methods[j] for j in range(len(methods)) if missing[:, j].all()]
        if empty:
            raise CdplotError(
                f"{where.source}: method {empty[0]!r}{label} has no scores at all, so "
                f"nan_policy='omit' would drop every data set; remove the method"
            )
        keep = ~missing.any(axis=1)
        dropped = [d for d, k in zip(datasets, keep, strict=True) if not k]
        values = values[keep]
        datasets = [d for d, k in zip(datasets, keep, strict=True) if k]
        notes.append(
            f"dropped {_plural(len(dropped), 'data set')} with missing scores "
            f"(nan_policy='omit'): {_listing(repr(d) for d in dropped)}"
        )
        if len(datasets) < 2:
            raise CdplotError(
                f"{where.source}: only {_plural(len(datasets), 'data set')}{label} "
                f"{'is' if len(datasets) == 1 else 'are'} complete after dropping "
                f"{_plural(len(dropped), 'incomplete one')} (nan_policy='omit'); "
                f"comparing needs at least 2"
            )
    _check_size(len(datasets), "data set", datasets, where, label)
    return ScoreTable(
        values=values,
        methods=tuple(methods),
        datasets=tuple(datasets),
        metric=metric,
        higher_is_better=higher_is_better,
        source=where.source,
        sha256=sha256,
        notes=tuple(notes),
        dropped_datasets=tuple(dropped),
    )


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
    higher_is_better=None,
    sha256=None,
    notes=(),
):
    """Build a table from names and a rows x columns list of raw cells.

    ``decimal_comma`` may be ``'auto'`` (files separated by ';'): it is then
    switched on when some cell is written like ``0,763``.
    """
    datasets = [_name_text(d) for d in datasets]
    methods = [_name_text(m) for m in methods]
    notes = list(notes)
    dataset_at = dataset_at or (lambda i: where.row(i) or f"row {i + 1}")
    method_at = method_at or (lambda j: f"column {j + 1}")
    _check_names(methods, "method", where, method_at)
    _check_names(datasets, "data set", where, dataset_at)
    if decimal_comma == "auto":
        decimal_comma = _wants_decimal_comma(c for row in cells for c in row)
        if decimal_comma:
            example = next(
                c.strip()
                for row in cells
                for c in row
                if isinstance(c, str) and _DECIMAL_COMMA_RE.match(c.strip())
            )
            notes.append(f"read decimal commas ({example!r} as {example.replace(',', '.')})")
    values = np.empty((len(datasets), len(methods)))
    for i, row in enumerate(cells):
        for j, cell in enumerate(row):
            values[i, j] = _parse_cell(
                cell, decimal_comma, lambda i=i, j=j: where.at(i, datasets[i], methods[j])
            )
    return _finish(
        values,
        methods,
        datasets,
        where,
        nan_policy=nan_policy,
        missing_at=lambda i, j: where.row(i),
        metric=metric,
        higher_is_better=higher_is_better,
        sha256=sha256,
        notes=notes,
    )


def _find_roles(
    header, where, *, dataset_col, method_col, score_col, repetition_col, metric_col, forced
):
    """Map long-table roles to column positions.

    Returns None when the header does not look long (and nothing forces it),
    else a dict with ``dataset``, ``method``, ``metric`` (index or None),
    ``scores`` and ``repetitions`` (lists of indices) and ``ignored``.
    """
    header = [_name_text(h) for h in header]

    def explicit(option, name):
        if name not in header:
            raise CdplotError(
                f"{where.source}: option {option}={name!r} is not a column; the columns are "
                f"{', '.join(repr(h) for h in header)}"
            )
        if header.count(name) > 1:
            raise CdplotError(f"{where.source}: column {name!r} ({option}) appears twice")
        return header.index(name)

    given = {
        "dataset": dataset_col,
        "method": method_col,
        "score": score_col,
        "metric": metric_col,
    }
    reps = [repetition_col] if isinstance(repetition_col, str) else repetition_col
    roles = {r: [] for r in _ROLE_NAMES}
    for j, h in enumerate(header):
        role = _role_of(h)
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
    if not forced and not (chosen["dataset"] and chosen["method"]):
        return None

    for role, option in (
        ("dataset", "dataset_col"),
        ("method", "method_col"),
        ("metric", "metric_col"),
    ):
        if len(chosen[role]) > 1:
            cols = " and ".join(repr(header[j]) for j in chosen[role])
            raise CdplotError(
                f"{where.source}: columns {cols} could each be the {role}; pass {option}="
            )
    for role, option, words in (
        ("dataset", "dataset_col", "data-set names"),
        ("method", "method_col", "method names"),
    ):
        if not chosen[role]:
            raise CdplotError(
                f"{where.source}: no column of {words} among "
                f"{', '.join(repr(h) for h in header)}; name one "
                f"{' or '.join(repr(n) for n in _ROLE_NAMES[role][:3])} or pass {option}="
            )
    rest = [j for j in range(len(header)) if j not in taken]
    if not chosen["score"]:
        if len(rest) != 1:
            raise CdplotError(
                f"{where.source}: cannot tell which column holds the scores among "
                f"{', '.join(repr(h) for h in header)}; pass score_col="
            )
        chosen["score"], rest = rest, []
    if len(chosen["score"]) > 1 and chosen["metric"]:
        cols = " and ".join(repr(header[j]) for j in chosen["score"])
        raise CdplotError(
            f"{where.source}: columns {cols} could each be the score; pass score_col="
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


def _long_tables(
    header, columns, where, roles, *, nan_policy, decimal_comma=False, sha256=None, notes=()
):
    """Build one table per metric from long rows, averaging repeated rows."""
    header = roles["header"]
    n_rows = len(columns[0]) if columns else 0
    if n_rows == 0:
        raise CdplotError(f"{where.source}: there are no rows of scores")
    notes = list(notes)
    ds_j, m_j, metric_j = roles["dataset"], roles["method"], roles["metric"]
    score_js, rep_js = roles["scores"], roles["repetitions"]
    if roles["ignored"]:
        notes.append(
            "ignored "
            + _plural(len(roles["ignored"]), "column")
            + " "
            + ", ".join(repr(header[j]) for j in roles["ignored"])
        )
    if decimal_comma == "auto":
        decimal_comma = _wants_decimal_comma(c for j in score_js for c in columns[j])
        if decimal_comma:
            example = next(
                c.strip()
                for j in score_js
                for c in columns[j]
                if isinstance(c, str) and _DECIMAL_COMMA_RE.match(c.strip())
            )
            notes.append(f"read decimal commas ({example!r} as {example.replace(',', '.')})")

    def name_at(i, j, kind):
        value = columns[j][i]
        text = "" if _is_missing_object(value) else _name_text(value)
        if isinstance(value, float) and math.isnan(value):
            text = ""
        if text == "":
            raise CdplotError(
                f"{where.at(i, column=header[j])}: the {kind} name is empty ({value!r})"
            )
        return text

    # metric -> {(dataset, method): [values, rep keys, first row]}
    groups: dict = {}
    order: dict = {}
    for i in range(n_rows):
        ds = name_at(i, ds_j, "data set")
        m = name_at(i, m_j, "method")
        rep = tuple(_name_text(columns[j][i]) for j in rep_js)
        for sj in score_js:
            if metric_j is not None:
                metric = name_at(i, metric_j, "metric")
            elif len(score_js) > 1 or _norm_col(header[sj]) not in _GENERIC_SCORE_NAMES:
                metric = header[sj]
            else:
                metric = None
            value = _parse_cell(
                columns[sj][i],
                decimal_comma,
                lambda i=i, sj=sj, ds=ds: where.at(i, ds, header[sj]),
            )
            cell = groups.setdefault(metric, {}).setdefault((ds, m), [[], [], i])
            cell[0].append(value)
            cell[1].append(rep)
            o = order.setdefault(metric, ({}, {}))
            o[0].setdefault(ds, None)
            o[1].setdefault(m, None)

    tables = []
    for metric, cells in groups.items():
        datasets, methods = list(order[metric][0]), list(order[metric][1])
        values = np.full((len(datasets), len(methods)), np.nan)
        first_missing = {}
        counts = {}
        repeated_keys = []
        for (ds, m), (vals, reps, first) in cells.items():
            i, j = datasets.index(ds), methods.index(m)
            arr = np.array(vals)
            if np.isnan(arr).any():
                first_missing[(i, j)] = where.row(first + int(np.argmax(np.isnan(arr))))
            else:
                values[i, j] = arr.mean()
            counts[(ds, m)] = len(vals)
            if rep_js and len(set(reps)) < len(reps):
                repeated_keys.append((ds, m))
        t_notes = list(notes)
        t_notes += _repetition_notes(counts, repeated_keys, [header[j] for j in rep_js])

        def missing_at(i, j, first_missing=first_missing):
            if (i, j) in first_missing:
                return first_missing[(i, j)]
            return "no row"

        tables.append(
            _finish(
                values,
                methods,
                datasets,
                where,
                nan_policy=nan_policy,
                missing_at=missing_at,
                metric=metric,
                sha256=sha256,
                notes=t_notes,
            )
        )
    return tuple(tables)


def _repetition_notes(counts, repeated_keys, rep_names):
    """Say in words how many rows were averaged per data set and method."""
    notes = []
    n = sorted(set(counts.values()))
    if n == [1]:
        return notes
    cols = " and ".join(repr(c) for c in rep_names)
    col_words = f" ({'column' if len(rep_names) == 1 else 'columns'} {cols})"
    lo, hi = n[0], n[-1]
    if rep_names:
        if lo == hi:
            notes.append(f"averaged {hi} repetitions per data set and method{col_words}")
        else:
            few = min(counts, key=counts.get)
            many = max(counts, key=counts.get)
            notes.append(
                f"averaged {lo} to {hi} repetitions per data set and method{col_words}; "
                f"the counts are unbalanced, e.g. {few[0]!r}/{few[1]!r} has {counts[few]} "
                f"and {many[0]!r}/{many[1]!r} has {counts[many]}"
            )
        if repeated_keys:
            ds, m = repeated_keys[0]
            notes.append(
                f"{_plural(len(repeated_keys), 'data set and method pair')} repeat a value "
                f"of {cols}, e.g. {ds!r}/{m!r}; those rows were averaged too"
            )
    else:
        dup = {k: c for k, c in counts.items() if c > 1}
        k = next(iter(dup))
        span = f"{lo if lo > 1 else 2} to {hi}" if (lo if lo > 1 else 2) != hi else f"{hi}"
        notes.append(
            f"averaged duplicate rows: {_plural(len(dup), 'data set and method pair')} "
            f"{'appears' if len(dup) == 1 else 'appear'} {span} times with no repetition "
            f"column to tell the rows apart, e.g. {k[0]!r}/{k[1]!r}"
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
            given = ", ".join(f"{k}=" for k, v in cols.items() if v is not None)
            raise CdplotError(f"{where.source}: {given} only apply to layout='long'")
        return (wide(),)
    roles = _find_roles(header, where, forced=forced, **cols)
    if roles is None:
        return (wide(),)
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


def _select_metric(tables, metric, source):
    if metric is None:
        return tuple(tables)
    chosen = tuple(t for t in tables if t.metric == metric)
    if chosen:
        return chosen
    if len(tables) == 1 and tables[0].metric is None:
        # a table that does not name its metric is labelled with the one asked for
        return (replace(tables[0], metric=metric),)
    names = [t.metric for t in tables if t.metric is not None]
    raise CdplotError(
        f"{source}: option metric={metric!r} matches no table; the metrics are "
        f"{', '.join(repr(n) for n in names) if names else 'not named'}"
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
    return replace(
        out,
        source=table.source,
        dropped_datasets=tuple(table.dropped_datasets) + out.dropped_datasets,
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
    data, where, *, methods, datasets, nan_policy, metric=None, higher_is_better=None, notes=()
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
            f"{where.source}: option methods= has {_plural(len(methods), 'name')} but the "
            f"table has {_plural(n_cols, 'column')}"
        )
    if datasets is None:
        datasets = [f"dataset {i + 1}" for i in range(len(rows))]
    elif len(datasets) != len(rows):
        raise CdplotError(
            f"{where.source}: option datasets= has {_plural(len(datasets), 'name')} but the "
            f"table has {_plural(len(rows), 'row')}"
        )
    return _wide_table(
        datasets,
        methods,
        rows,
        where,
        nan_policy=nan_policy,
        metric=metric,
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
        "source",
        "sha256",
        "notes",
        "dropped_datasets",
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
    notes = data.get("notes") or ()
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
        dropped_datasets=tuple(data.get("dropped_datasets") or ()) + table.dropped_datasets,
    )


def _from_nested_mapping(data, where, nan_policy, metric=None):
    """``{dataset: {method: score}}``."""
    datasets, methods = [], {}
    for ds, inner in data.items():
        if not isinstance(inner, Mapping):
            raise CdplotError(
                f"{where.source}, data set {_name_text(ds)!r}: expected a mapping of method "
                f"to score, got {inner!r}"
            )
        datasets.append(ds)
        for m in inner:
            methods.setdefault(_name_text(m), None)
    methods = list(methods)
    rows = []
    for inner in data.values():
        by_name = {_name_text(m): v for m, v in inner.items()}
        rows.append([by_name.get(m) for m in methods])
    return _wide_table(
        datasets,
        methods,
        rows,
        where,
        nan_policy=nan_policy,
        metric=metric,
        dataset_at=lambda i: f"data set {i + 1}",
        method_at=lambda j: f"method {j + 1}",
    )


def _from_mapping(data, where, nan_policy):
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
            _from_nested_mapping(inner, where, nan_policy, metric=_name_text(metric))
            for metric, inner in data.items()
        )
    return (_from_nested_mapping(data, where, nan_policy),)


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
        raise CdplotError(f"{where.source}: records are long data; layout='wide' does not apply")
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


def _from_pandas(df, where, *, layout, cols, nan_policy):
    if not hasattr(df, "columns"):  # a Series
        raise CdplotError(
            f"{where.source}: a Series holds one method; pass a DataFrame of data sets x methods"
        )
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


def _describe(data) -> str:
    kind = _frame_kind(data)
    if kind is not None:
        return f"{kind} DataFrame"
    if isinstance(data, np.ndarray):
        return "numpy array"
    if isinstance(data, Mapping):
        return "mapping"
    if isinstance(data, (list, tuple)):
        return f"{type(data).__name__} of scores"
    return type(data).__name__


def as_score_tables(
    data,
    *,
    methods=None,
    datasets=None,
    metric=None,
    nan_policy="raise",
    layout="auto",
    dataset_col=None,
    method_col=None,
    score_col=None,
    repetition_col=None,
    metric_col=None,
    source=None,
) -> tuple[ScoreTable, ...]:
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
        * a file name, read by :func:`cdplot.readers.read_scores`.
    methods, datasets : sequence of str, optional
        Names for the columns and rows of an array or nested list (default
        ``"method 1"``, ... and ``"dataset 1"``, ...). Other inputs name themselves.
    metric : str, optional
        Keep only the table of this metric. A single table whose metric is unknown is
        labelled with it.
    nan_policy : {'raise', 'omit'}, default 'raise'
        What to do with missing scores: raise an error naming them, or drop the data sets
        that have them (recorded in ``dropped_datasets`` and ``notes``).
    layout : {'auto', 'wide', 'long'}, default 'auto'
        Whether DataFrames and files are data sets x methods ('wide') or one score per row
        ('long'). 'auto' takes them as long when they have recognisable data-set and method
        columns, or when any ``*_col`` option is given.
    dataset_col, method_col, score_col, metric_col : str, optional
        Columns of long data, when their names are not recognised. Recognised names,
        compared case-insensitively and ignoring spaces, underscores and hyphens, are
        dataset/data set/problem/task/benchmark; method/algorithm/classifier/model/learner;
        score/value/accuracy/auc/error/result/performance; metric/measure.
    repetition_col : str or list of str, optional
        Column(s) telling repeated runs apart (recognised: fold, seed, rep, repetition, run,
        repeat, iteration, split, trial). Repeated rows of one data set and method are
        averaged, with or without such a column, and ``notes`` says so.
    source : str, optional
        What to call the input in messages and in ``ScoreTable.source`` (default: a
        description such as ``"numpy array"``, or the file name).

    Returns
    -------
    tuple of ScoreTable
        One table per metric, in the order the metrics first appear.

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

    Examples
    --------
    >>> from cdplot.stats.scores import as_score_tables
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
    methods = _validate_names_option("methods", methods)
    datasets = _validate_names_option("datasets", datasets)

    if isinstance(data, (str, os.PathLike)):
        _reject_names(methods, datasets, "a file")
        # imported here: the reader is only needed for files
        from ..readers import read_scores

        tables = read_scores(data, layout=layout, metric=metric, nan_policy=nan_policy, **cols)
        return tuple(replace(t, source=source) for t in tables) if source else tables

    where = _Where(source or _describe(data))
    array_like = isinstance(data, np.ndarray) or (
        isinstance(data, (list, tuple))
        and data
        and all(isinstance(r, (list, tuple, np.ndarray)) for r in data)
    )
    if not array_like:
        _reject_names(methods, datasets, where.source)
    if array_like or isinstance(data, (ScoreTable, Mapping)):
        _reject_long_options(cols, layout, where.source)

    if isinstance(data, ScoreTable):
        tables = (_from_table(data, _Where(source or data.source or "ScoreTable"), nan_policy),)
    elif array_like:
        tables = (
            _from_array(data, where, methods=methods, datasets=datasets, nan_policy=nan_policy),
        )
    elif isinstance(data, Mapping):
        tables = _from_mapping(data, where, nan_policy)
    elif _frame_kind(data) == "pandas":
        tables = _from_pandas(data, where, layout=layout, cols=cols, nan_policy=nan_policy)
    elif _frame_kind(data) == "polars":
        tables = _from_polars(data, where, layout=layout, cols=cols, nan_policy=nan_policy)
    elif isinstance(data, (list, tuple)):
        tables = _from_sequence(data, where, layout=layout, cols=cols, nan_policy=nan_policy)
    elif hasattr(data, "__array__"):
        _reject_long_options(cols, layout, where.source)
        tables = (
            _from_array(
                np.asarray(data),
                where,
                methods=methods,
                datasets=datasets,
                nan_policy=nan_policy,
            ),
        )
    else:
        raise CdplotError(
            f"scores of type {type(data).__name__!r} are not understood; pass an array, a "
            f"mapping, records, a DataFrame, a ScoreTable or a file name"
        )
    return _select_metric(tables, metric, where.source)


def _reject_names(methods, datasets, what):
    for option, value in (("methods", methods), ("datasets", datasets)):
        if value is not None:
            raise CdplotError(
                f"option {option}= only names the rows and columns of an array or nested "
                f"list; {what} names its own"
            )


def _reject_long_options(cols, layout, what):
    given = [f"{k}=" for k, v in cols.items() if v is not None]
    if given:
        raise CdplotError(f"option {given[0]} applies to long data; {what} is wide")
    if layout == "long":
        raise CdplotError(f"option layout='long' does not apply; {what} is wide")


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
