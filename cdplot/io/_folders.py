"""Results folders as aeon and tsml-eval write them: one file per method and metric.

A file ``<Method>_<metric>.csv`` (for example ``HC2_accuracy.csv``) holds one
row per data set and one column per resample; its first header cell is
``Resamples:`` (``folds:`` in the files tsml-eval ships with its publications,
such as the time series extrinsic regression results).  The folder, or its
subfolders one level down, hold one such file per method and metric.  The
resamples of each data set are averaged exactly (correctly rounded sums), and
each metric becomes one table, its direction inferred from its name as for a
metric column.
"""

from __future__ import annotations

import os

import numpy as np

from ..errors import CdplotError
from . import _repetitions as _repetitions
from ._build import _finish, fsum_rows, tie_close_means, tie_note
from ._checks import Where, check_name, parse_column, plural
from ._text import display_name, read_bytes, split_table, texts

__all__ = ["read_results_folder"]

# first header cell -> what its columns are called in notes
_FIRST_CELLS = {"resamples:": "resamples", "folds:": "folds"}


def _result_files(folder: str):
    """``[(path, method, metric)]`` of the ``<Method>_<metric>.csv`` files, sorted."""
    found = []
    for root in [folder] + sorted(
        os.path.join(folder, d)
        for d in os.listdir(folder)
        if os.path.isdir(os.path.join(folder, d)) and not d.startswith(".")
    ):
        for name in sorted(os.listdir(root)):
            stem, ext = os.path.splitext(name)
            if ext.lower() != ".csv" or "_" not in stem or name.startswith("."):
                continue
            method, metric = stem.rsplit("_", 1)
            if method and metric:
                found.append((os.path.join(root, name), method, metric))
    return found


def read_results_folder(folder: str, *, nan_policy="raise", max_bytes):
    """Read a results folder; one :class:`~cdplot.io.ScoreTable` per metric.

    Parameters
    ----------
    folder : str
        The folder, as given (file names that are not UTF-8 are shown with
        :func:`~cdplot.io._text.display_name`).
    nan_policy : {'raise', 'omit', 'keep'}
        Missing resamples make a missing score, handled as for any table.
    max_bytes : int
        Size limit of each file.

    Returns
    -------
    tuple of ScoreTable
        In the order the metrics first appear among the sorted file names.

    Raises
    ------
    CdplotError
        A folder without result files, a file whose first header cell is not
        ``Resamples:``, a data set listed twice in one file, a method with two
        files for one metric, and everything the file readers refuse.
    """
    files = _result_files(folder)
    shown_folder = display_name(folder)  # the folder is listed by its real name
    if not files:
        raise CdplotError(
            f"{shown_folder}: is a directory without results files; expected <Method>_<metric>.csv "
            f"files (first header cell 'Resamples:'), as aeon and tsml-eval write"
        )
    by_metric: dict = {}
    # each method's (data sets, resample scores, resample labels), for keep_repetitions
    kept: dict = {}
    for path, method, metric in files:
        name, word, datasets, values, header = _read_results_file(path, method, max_bytes)
        runs = by_metric.setdefault(metric, {})
        if method in runs:
            raise CdplotError(
                f"{name}: method {method!r} has a second file for metric {metric!r} "
                f"(also {runs[method][0]})"
            )
        # a resample left empty makes the data set's score missing, as a gap would
        missing = np.isnan(values).any(axis=1)
        means = fsum_rows(np.nan_to_num(values)) / values.shape[1]
        means[missing] = np.nan
        runs[method] = (
            name,
            dict(zip(datasets, means.tolist(), strict=True)),
            values.shape[1],
            word,
        )
        if _repetitions.wanted():
            kept.setdefault(metric, {})[method] = (datasets, values, header[1:])
    return tuple(
        _metric_table(metric, runs, kept.get(metric), shown_folder, nan_policy)
        for metric, runs in by_metric.items()
    )


def _read_results_file(path, method, max_bytes):
    """``(name, word, datasets, values, header)`` of one aeon/tsml-eval results file.

    ``word`` is what its first header cell calls a column ('resamples' or
    'folds'); ``values`` holds one row per data set and one column per resample.
    """
    name, raw, _ = read_bytes(path, max_bytes=max_bytes)
    header, columns, where, header_line, _d, _notes = split_table(raw, name)
    word = _FIRST_CELLS.get(header[0].strip().lower())
    if word is None:
        raise CdplotError(
            f"{name}, row {header_line}: the first header cell is {header[0]!r}, not "
            f"'Resamples:' or 'folds:'; a results folder holds aeon/tsml-eval "
            f"<Method>_<metric>.csv files (read other tables one by one)"
        )
    check_name(method, "method", name)
    datasets = texts(columns[0])
    seen = {}
    for i, d in enumerate(datasets):
        if d in seen:
            raise CdplotError(
                f"{name}, {where.row(i)}: data set {d!r} appears twice (also {where.row(seen[d])})"
            )
        seen[d] = i
    values = np.column_stack(
        [
            parse_column(
                col,
                False,
                lambda i, j=j, w=where, d=datasets, h=header: w.at(i, d[i], h[j + 1]),
            )
            for j, col in enumerate(columns[1:])
        ]
    )
    return name, word, datasets, values, header


def _metric_table(metric, runs, kept, shown_folder, nan_policy):
    """The score table of one metric: each method's mean over its resamples per data set.

    ``runs`` maps method to ``(file name, {data set: mean}, resamples, word)``;
    ``kept``, each method's resamples when they are kept (else None).
    """
    methods = list(runs)
    datasets = list(dict.fromkeys(d for _, scores, _, _ in runs.values() for d in scores))
    table = np.array([[runs[m][1].get(d, np.nan) for m in methods] for d in datasets], dtype=float)
    counts = sorted({n for _, _, n, _ in runs.values()})
    span = str(counts[0]) if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
    words = sorted({w for _, _, _, w in runs.values()})
    notes = [
        f"read {plural(len(methods), 'results file')} of metric {metric!r} from the "
        f"folder; averaged {span} {' or '.join(words)} per data set and method"
    ]
    averaged = np.array([[runs[m][2] > 1 for m in methods]] * len(datasets), dtype=bool)
    table, n_tied = tie_close_means(table, averaged.reshape(table.shape))
    if n_tied:
        notes.append(tie_note(n_tied))
    out = _finish(
        table,
        methods,
        datasets,
        Where(shown_folder),
        nan_policy=nan_policy,
        metric=metric,
        metric_from="file",
        notes=notes,
        missing_at=lambda i, j, runs=runs, methods=methods: f"in {runs[methods[j]][0]}",
    )
    if kept is not None and counts[-1] > 1:
        out = _resamples(out, kept, methods, datasets)
    return out


def _resamples(table, kept, methods, datasets):
    """``table`` with each resample's score: resample i of every method is column i."""
    r = max(v.shape[1] for _, v, _ in kept.values())
    array = np.full((len(datasets), len(methods), r), np.nan)
    row = {d: i for i, d in enumerate(datasets)}
    for j, m in enumerate(methods):
        names, values, _ = kept[m]
        array[[row[d] for d in names], j, : values.shape[1]] = values
    labels = max((tuple(h) for _, _, h in kept.values()), key=len)
    return _repetitions.attach(table, array, labels, datasets)
