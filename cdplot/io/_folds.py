"""Per-fold scores and predictions, read without averaging (for ``cdplot pair`` and ``cv_test``).

The tests of two methods on one data set need the folds themselves, split
into repetitions and folds; McNemar's test needs one row per test example.
Both read files through the same opening, sniffing, header and checks as
the score tables (:mod:`cdplot.io._files`), and name columns with the same
role table (:mod:`cdplot.io._roles`), where a repetition column is either a
fold index (``fold``, ``split``) or a repetition (``seed``, ``run``,
``resample``...).  Messages name the line of the file (comment lines
before the header counted), as an editor shows it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._docstrings import share
from ..errors import CdplotError, opt
from ._build import file_stem, refuse_repetitions_as_metrics, tie_close_means, tie_note
from ._checks import check_name, name_text, plural
from ._files import load_json
from ._roles import GENERIC_SCORE_NAMES, fold_level, norm, role_of, weigh_direction
from ._text import MAX_BYTES, check_max_bytes, decode, read_bytes, split_table, texts
from ._types import PathLike

__all__ = ["FoldScores", "fold_scores", "read_fold_scores", "read_records"]


def _readonly(a) -> np.ndarray:
    a = np.array(a, dtype=float, copy=True)
    a.setflags(write=False)
    return a


@dataclass(frozen=True, kw_only=True)
class FoldScores:
    """Unaveraged per-fold scores of several methods on one or more data sets.

    Attributes
    ----------
    values : ndarray, shape (n_datasets, n_methods, n_repeats, n_folds)
        Read-only scores, in the order of first appearance of each
        repetition and fold label.
    methods, datasets : tuple of str
    repeats, folds : tuple of str
        Labels of the repetitions (``('1',)`` when the table has no
        repetition column) and folds.
    source : str or None
        Where the scores came from.
    notes : tuple of str
        What the reader did that a user should know (columns it ignored), in
        the words of :attr:`cdplot.ScoreTable.notes`.
    metric : str or None
        The metric of the scores: the one kept from a metric column, or the
        name of a long table's score column when it names one (``rmse``, not
        ``score``); None when nothing names it.
    higher_is_better, direction, direction_conflict
        What the names say about direction, as on :class:`cdplot.ScoreTable`:
        the metric's name, the score column's name (``metric_error``,
        ``accuracy``) and the file's name are weighed; ``None``, ``None``,
        ``None`` when none says.
    """

    values: np.ndarray
    methods: tuple[str, ...]
    datasets: tuple[str, ...]
    repeats: tuple[str, ...]
    folds: tuple[str, ...]
    source: str | None = None
    notes: tuple[str, ...] = ()
    metric: str | None = None
    higher_is_better: bool | None = None
    direction: str | None = None
    direction_conflict: str | None = None

    def __post_init__(self):
        object.__setattr__(self, "values", _readonly(self.values))

    def scores(self, method, dataset=None) -> np.ndarray:
        """The ``(n_repeats, n_folds)`` scores of one method on one data set."""
        if method not in self.methods:
            raise CdplotError(
                f"{self.source or 'scores'}: method {method!r} is not in the data; methods are "
                f"{', '.join(self.methods)}"
            )
        if dataset is None:
            if len(self.datasets) != 1:
                raise CdplotError(
                    f"{self.source or 'scores'}: the data hold {len(self.datasets)} data sets; "
                    "name one"
                )
            dataset = self.datasets[0]
        if dataset not in self.datasets:
            raise CdplotError(
                f"{self.source or 'scores'}: data set {dataset!r} is not in the data; data sets "
                f"are {', '.join(self.datasets)}"
            )
        return self.values[self.datasets.index(dataset), self.methods.index(method)]

    def means(self) -> np.ndarray:
        """``(n_datasets, n_methods)`` mean score over all folds, correctly rounded.

        As :func:`cdplot.read_scores` does when it averages folds, the means of
        one data set that agree to ``TIE_RTOL`` (1e-12, relative) are made equal:
        accuracies k/n written to 17 digits have means that differ by rounding
        alone, which would rank two equal methods apart.
        """
        return tied_means(self)[0]


def tied_means(scores: FoldScores) -> tuple[np.ndarray, tuple[str, ...]]:
    """``(means, notes)`` of :meth:`FoldScores.means`: the notes say which means were tied."""
    d, m = scores.values.shape[:2]
    flat = scores.values.reshape(d * m, -1).tolist()
    means = np.array([math.fsum(r) / len(r) for r in flat]).reshape(d, m)
    averaged = np.full(means.shape, scores.values[0, 0].size > 1 if means.size else False)
    means, n_tied = tie_close_means(means, averaged)
    return means, (tie_note(n_tied),) if n_tied else ()


def _fold_role(h):
    role = role_of(h)
    if role == "repetition":
        return fold_level(h)
    return role


def fold_scores(
    records: Sequence[Mapping[str, Any]],
    *,
    source: str = "records",
    dataset_col: str | None = None,
    method_col: str | None = None,
    score_col: str | None = None,
    repetition_col: str | None = None,
    fold_col: str | None = None,
    metric: str | None = None,
    metric_col: str | None = None,
) -> FoldScores:
    """Build :class:`FoldScores` from a header and rows of a long or wide per-fold table.

    Parameters
    ----------
    records : sequence of mapping
        One mapping per row (``{column: value}``), as ``csv.DictReader``
        or ``DataFrame.to_dict('records')`` give.  Long tables have a
        method, a score and a fold column (and optionally data-set and
        repetition columns); wide tables have a fold column and one column
        of scores per method.
    source : str
        Name used in error messages.
    dataset_col, method_col, score_col, fold_col : str, optional
        Column names when they are not recognised.
    repetition_col : str, optional
        The column of repetitions of repeated cross-validation (``seed``, ``run``,
        ``resample``... are recognised).
    metric : str, optional
        Keep only the rows of this metric of a metric column (one is needed
        when the column holds several).
    metric_col : str, optional
        The column of metric names, when it is not recognised (``metric``,
        ``measure`` are).

    Returns
    -------
    FoldScores

    Raises
    ------
    CdplotError
        Missing columns, scores that are not finite numbers, a fold listed
        twice, a method without a score on some fold (named), several
        metrics and none chosen, or a metric that is not in the data.
    """
    return _fold_scores(
        records,
        source=source,
        row=lambda i: f"row {i + 1}",
        dataset_col=dataset_col,
        method_col=method_col,
        score_col=score_col,
        repetition_col=repetition_col,
        fold_col=fold_col,
        metric=metric,
        metric_col=metric_col,
    )


def _fold_scores(
    records,
    *,
    source,
    row,
    dataset_col,
    method_col,
    score_col,
    repetition_col,
    fold_col,
    metric=None,
    metric_col=None,
    file_name=None,
) -> FoldScores:
    """:func:`fold_scores`, with ``row(i)`` naming record ``i`` (a file's line number).

    ``file_name`` (the stem of the file read) is weighed with the metric's and the
    score column's names for the direction, as :func:`cdplot.read_scores` weighs them.
    """
    if metric is not None and (not isinstance(metric, str) or not metric.strip()):
        raise CdplotError(
            f"option {opt('metric', metric)} must be a non-empty string or None", option="metric"
        )
    records = list(records)
    if not records:
        raise CdplotError(f"{source}: there are no rows of scores")
    header = list(records[0].keys())
    _check_same_keys(records, header, source, row)
    if metric_col in header:
        # before the roles: a fold column taken as the metric's leaves "no fold column"
        labels = list(dict.fromkeys(name_text(r[metric_col]) for r in records))
        refuse_repetitions_as_metrics(
            metric_col, labels, source, fixes=("fold_col", "repetition_col")
        )
    given = {
        "dataset": dataset_col,
        "method": method_col,
        "score": score_col,
        "repetition": repetition_col,
        "fold": fold_col,
        "metric": metric_col,
    }
    cols = _fold_columns(header, given, source)
    records, row, metric, metric_from = _metric_rows(records, row, cols, metric, source)
    method_cols = _method_columns(header, cols, source, records)
    cells, names = _fold_cells(records, cols, method_cols, source, row)
    values = _fold_array(cells, names, source)
    datasets = tuple(d if d else "data" for d in names["dataset"])
    # a long table's other columns (times, ids, other metrics) are left, and said so, as
    # read_scores says it
    ignored = [h for h in header if h not in cols.values()] if not method_cols else []
    notes = (f"ignored {plural(len(ignored), 'column')} {', '.join(map(repr, ignored))}",)
    evidence = [("file name", file_name)]
    if not method_cols:  # a long table's score column names the metric (metric_error)
        evidence.insert(0, ("column name", cols.get("score")))
    if metric_from == "metric":  # and a metric column's name of the rows kept (log_loss)
        evidence.insert(0, ("metric name", metric))
    hib, direction, conflict = weigh_direction(evidence, whole_file_name=True)
    return FoldScores(
        values=values,
        methods=tuple(names["method"]),
        datasets=datasets,
        repeats=tuple(names["repetition"]),
        folds=tuple(names["fold"]),
        source=source,
        notes=notes if ignored else (),
        metric=metric,
        higher_is_better=hib,
        direction=direction,
        direction_conflict=None if conflict is None else f"{source}: {conflict}",
    )


def _check_same_keys(records, header, source, row):
    """Refuse a record whose keys differ from the first record's (``header``)."""
    for i, rec in enumerate(records[1:], start=1):
        if not isinstance(rec, Mapping) or list(rec.keys()) != header:
            missing = [h for h in header if h not in rec] if isinstance(rec, Mapping) else []
            what = f"lacks key {missing[0]!r}" if missing else f"has other keys than {row(0)}"
            raise CdplotError(f"{source}, {row(i)}: {what}; every row needs {', '.join(header)}")


def _fold_columns(header, given, source) -> dict[str, str]:
    """``{role: column}``: the columns ``given`` by option, then those recognised by name."""
    cols = {}
    for role, name in given.items():
        if name is not None:
            if name not in header:
                raise CdplotError(
                    f"{source}: option {role}_col={name!r} is not a column; the columns are "
                    f"{', '.join(map(repr, header))}"
                )
            cols[role] = name
    for h in header:
        r = _fold_role(h)
        if r is not None and r not in cols and h not in cols.values():
            cols[r] = h
    if "fold" not in cols:
        if "repetition" in cols:  # a single index column is the fold index
            cols["fold"] = cols.pop("repetition")
        else:
            raise CdplotError(
                f"{source}: no fold column among {', '.join(map(repr, header))}; name one 'fold' "
                "(and 'seed' or 'repetition' for repeated cross-validation) or pass "
                f"{opt('fold_col')}",
                option="fold_col",
            )
    if "method" in cols and "score" not in cols:
        rest = [h for h in header if h not in cols.values()]
        if len(rest) != 1:
            raise CdplotError(
                f"{source}: cannot tell which column holds the scores; pass {opt('score_col')}",
                option="score_col",
            )
        cols["score"] = rest[0]
    return cols


def _metric_rows(records, row, cols, metric, source):
    """``(records, row, metric, where its name came from)``: the rows of one metric.

    A metric column with several metrics needs ``metric``: folds of accuracy and
    of log-loss paired as one method's scores would be neither.  Without a
    metric column, a long table's score column may name the metric (``rmse``),
    and ``metric`` must be that name, as :func:`cdplot.read_scores` holds it.
    """
    if "metric" not in cols:
        score = cols.get("score")
        named = score if score is not None and norm(score) not in GENERIC_SCORE_NAMES else None
        if metric is not None and metric != named:
            known = (
                f"the scores' metric is {named!r} (the score column)"
                if named is not None
                else "the scores name no metric (no metric column, no metric-named score "
                "column); leave the option out"
            )
            raise CdplotError(
                f"{source}: option {opt('metric', metric)} matches no metric; {known}",
                option="metric",
            )
        return records, row, named, "column" if named is not None else None
    col = cols["metric"]
    labels = [name_text(r[col]) for r in records]
    found = list(dict.fromkeys(labels))
    shown = ", ".join(map(repr, found[:10])) + (", ..." if len(found) > 10 else "")
    if metric is None:
        if len(found) > 1:
            raise CdplotError(
                f"{source}: column {col!r} holds {len(found)} metrics ({shown}); choose one "
                f"with {opt('metric')}",
                option="metric",
            )
        metric = found[0]
    elif metric not in found:
        raise CdplotError(
            f"{source}: option {opt('metric', metric)} matches no metric of column {col!r}; "
            f"the metrics are {shown}",
            option="metric",
        )
    if len(found) == 1:
        return records, row, metric, "metric"
    keep = [i for i, m in enumerate(labels) if m == metric]
    # messages name the row of the file, not the place among the rows kept
    return [records[i] for i in keep], lambda i: row(keep[i]), metric, "metric"


def _method_columns(header, cols, source, records) -> list[str]:
    """The columns of scores, one per method, of a wide table (none for a long table)."""
    if "method" in cols:
        return []
    method_cols = [h for h in header if h not in cols.values()]
    if len(method_cols) < 2:
        raise CdplotError(
            f"{source}: expected a method column (long table) or one column of scores per "
            f"method (wide table), got columns {', '.join(map(repr, header))}"
        )
    text = [h for h in method_cols if _names_only(r[h] for r in records[:50])]
    if text:
        # a long table whose method column has a name cdplot does not know (TabRepo's
        # 'tabrepo_config'): its names are no scores; say which option reads it, as
        # read_scores does
        raise CdplotError(
            f"{source}: column {text[0]!r} holds names, not scores; if each row holds one "
            f"score (a long file), pass {opt('method_col')} naming the column of methods "
            f"({' or '.join(map(repr, text[:3]))}) and, if needed, {opt('score_col')}",
            option="method_col",
        )
    for m in method_cols:
        check_name(str(m), "method", source)
    return method_cols


# what a missing score is written as: such a cell is a bad score, not a method's name
_MISSING_WORDS = frozenset({"", "na", "n/a", "nan", "-", "null", "none", "?"})


def _names_only(cells) -> bool:
    """Whether the cells hold names and no number at all (a method column, never scores).

    A column of scores with one bad cell is not one: that cell is refused by itself.
    """
    names = False
    for v in cells:
        if v is None or isinstance(v, bool) or str(v).strip().lower() in _MISSING_WORDS:
            continue
        if isinstance(v, (int, float)):
            return False
        try:
            float(str(v).strip())
        except ValueError:
            names = True
            continue
        return False
    return names


def _fold_number(v, where, col) -> float:
    """``v`` as a finite float, or a message naming ``where`` (source and row) and ``col``."""
    if isinstance(v, bool):
        x = math.nan
    else:
        try:
            x = float(str(v).strip()) if not isinstance(v, (int, float)) else float(v)
        except (ValueError, OverflowError):
            x = math.nan
    if not math.isfinite(x):
        raise CdplotError(f"{where}, column {col!r}: {v!r} is not a finite score")
    return x


def _fold_cells(records, cols, method_cols, source, row):
    """``({(dataset, method, repetition, fold) codes: score}, {role: labels in order})``."""
    cells = {}
    order = {"dataset": {}, "method": {}, "repetition": {}, "fold": {}}

    def code(role, v):
        return order[role].setdefault(v, len(order[role]))

    for i, rec in enumerate(records):
        ds = name_text(rec[cols["dataset"]]) if "dataset" in cols else ""
        rp = name_text(rec[cols["repetition"]]) if "repetition" in cols else "1"
        fd = name_text(rec[cols["fold"]])
        pairs = (
            [(m, rec[m], m) for m in method_cols]
            if method_cols
            else [(name_text(rec[cols["method"]]), rec[cols["score"]], cols["score"])]
        )
        for meth, v, col in pairs:
            key = (
                code("dataset", ds),
                code("method", meth),
                code("repetition", rp),
                code("fold", fd),
            )
            if key in cells:
                where = f"data set {ds!r}, " if ds else ""
                raise CdplotError(
                    f"{source}, {row(i)}: {where}method {meth!r}, repetition {rp!r}, fold {fd!r} "
                    "appears twice"
                )
            cells[key] = _fold_number(v, f"{source}, {row(i)}", col)
    names = {role: list(order[role]) for role in order}
    for role, kind in (("dataset", "data set"), ("method", "method")):
        for n in names[role]:
            check_name(n, kind, source)
    return cells, names


def _fold_array(cells, names, source) -> np.ndarray:
    """The ``(dataset, method, repetition, fold)`` array of ``cells``; every cell filled."""
    shape = tuple(len(names[r]) for r in ("dataset", "method", "repetition", "fold"))
    values = np.full(shape, np.nan)
    if cells:
        idx = np.array(list(cells.keys()))
        values[tuple(idx.T)] = list(cells.values())
    if np.isnan(values).any():
        i = np.argwhere(np.isnan(values))[0]
        ds = names["dataset"][i[0]]
        where = f"data set {ds!r}, " if ds else ""
        raise CdplotError(
            f"{source}: {where}method {names['method'][i[1]]!r} has no score for repetition "
            f"{names['repetition'][i[2]]!r}, fold {names['fold'][i[3]]!r}; the folds must be paired"
        )
    return values


@share
def read_fold_scores(
    path: PathLike,
    *,
    sep: str | None = None,
    dataset_col: str | None = None,
    method_col: str | None = None,
    score_col: str | None = None,
    repetition_col: str | None = None,
    fold_col: str | None = None,
    metric: str | None = None,
    metric_col: str | None = None,
    max_bytes: int = MAX_BYTES,
) -> FoldScores:
    """Read per-fold scores from a CSV/TSV or JSON (list of records) file, without averaging.

    ``cdplot.read_scores`` averages the folds of each data set and method
    for the analysis over many data sets; the tests of two methods on one
    data set need the folds themselves.

    Parameters
    ----------
    path : str or path-like
        A delimited text file with a header (``#`` comment lines before it
        are skipped) or a JSON list of records.
    sep : str, optional
        Column separator; by default sniffed as for score tables.
    dataset_col, method_col, score_col, repetition_col, fold_col : str, optional
        Column names when they are not recognised (see :func:`fold_scores`).
    metric, metric_col : str, optional
        The metric to keep of a file with a metric column, and that column's
        name when it is not recognised (see :func:`fold_scores`).
    %(max_bytes)s

    Returns
    -------
    FoldScores

    Raises
    ------
    CdplotError
        Missing or unreadable file, a column name that appears twice, and
        everything :func:`fold_scores` refuses, naming the line of the file.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "folds.csv"
    >>> _ = p.write_text("fold,A,B\\n1,0.8,0.7\\n2,0.9,0.8\\n3,0.85,0.8\\n")
    >>> f = read_fold_scores(p)
    >>> f.methods, f.scores("A").tolist()
    (('A', 'B'), [[0.8, 0.9, 0.85]])
    """
    name, records, row = _read_records(path, sep=sep, max_bytes=max_bytes)
    return _fold_scores(
        records,
        source=name,
        row=row,
        file_name=file_stem(name),
        dataset_col=dataset_col,
        method_col=method_col,
        score_col=score_col,
        repetition_col=repetition_col,
        fold_col=fold_col,
        metric=metric,
        metric_col=metric_col,
    )


@share
def read_records(
    path: PathLike, *, sep: str | None = None, max_bytes: int = MAX_BYTES
) -> tuple[str, list[dict[str, Any]]]:
    """Read a delimited or JSON-records file as ``(name, list of {column: text})``.

    A column name that appears twice is refused (the second column would
    silently replace the first); so are JSON records that lack a key of the
    first record.

    Parameters
    ----------
    path : str or path-like
        The file.
    sep : str, optional
        Column separator; by default sniffed.
    %(max_bytes)s

    Returns
    -------
    name : str
        The file name as given.
    records : list of dict
        One mapping per row.

    Raises
    ------
    CdplotError
        Everything the file readers refuse, repeated columns and incomplete records.
    """
    name, records, _row = _read_records(path, sep=sep, max_bytes=max_bytes)
    return name, records


def _read_records(path, *, sep, max_bytes):
    """``(name, records, row)`` where ``row(i)`` names record ``i`` as the file shows it."""
    name, raw, _ = read_bytes(path, max_bytes=check_max_bytes(max_bytes))
    text = decode(raw, name)
    if not text.strip():
        raise CdplotError(f"{name}: the file is empty")
    if text.lstrip()[:1] in ("[", "{"):
        data = load_json(text, name)
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            raise CdplotError(f"{name}: expected a JSON list of records ({{column: value}})")
        if not data:
            raise CdplotError(f"{name}: the JSON list is empty")
        keys = list(data[0])
        for i, r in enumerate(data):
            missing = [k for k in keys if k not in r]
            extra = [k for k in r if k not in keys]
            if missing or extra:
                what = f"lacks key {missing[0]!r}" if missing else f"has an extra key {extra[0]!r}"
                raise CdplotError(
                    f"{name}, record {i}: {what}; every record needs the keys of record 0 "
                    f"({', '.join(map(repr, keys))})"
                )
        return name, data, lambda i: f"record {i}"
    header, columns, where, header_line, _d, _notes = split_table(text.encode(), name, sep)
    seen = {}
    for j, h in enumerate(header):
        if h in seen:
            raise CdplotError(
                f"{name}, row {header_line}: column {h!r} appears twice (columns {seen[h] + 1} "
                f"and {j + 1}); the second would silently replace the first, so rename one"
            )
        seen[h] = j
    cols = [texts(c) for c in columns]
    n = len(cols[0]) if cols else 0
    if n == 0:
        raise CdplotError(f"{name}: there is a header but no rows of scores")
    records = [dict(zip(header, r, strict=True)) for r in zip(*cols, strict=True)]
    # the line an editor shows: comment lines and the header counted
    return name, records, where.row
