"""Reading score tables from CSV, TSV and JSON files and results folders.

Only the standard library's :mod:`csv` and :mod:`json` and numpy are used, so
that reading a file needs nothing beyond cdplot's core.  Plain delimited
files are split with numpy (:mod:`cdplot.io._fast`); others, and any file
the fast path does not accept, go through the csv module cell by cell.
Every problem is a :class:`~cdplot.errors.CdplotError` whose one-line
message names the file and, where it applies, the row (the line number an
editor shows) and the column.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, BinaryIO

from .._docstrings import share
from .._options import Layout, NanPolicy, Orient, check_bool, check_option
from ..errors import CdplotError, opt
from ._build import (
    ORIENTS,
    _from_mapping,
    _from_sequence,
    _tables_from_columns,
    _validate_options,
    _wide_columns,
    select_tables,
    validate_selection,
    with_file_name,
)
from ._checks import NUMBER_RE, Where, check_sep
from ._folders import read_results_folder
from ._repetitions import keeping_repetitions
from ._roles import role_of
from ._table import ScoreTables
from ._text import (
    MAX_BYTES,
    as_bytes,
    check_max_bytes,
    check_utf8,
    decode,
    display_name,
    is_ascii,
    is_blank,
    read_bytes,
    split_table,
    texts,
)
from ._types import PathLike

__all__ = ["read_scores", "load_json"]

# Rows of a printed table that summarise the data sets above them.
SUMMARY_ROWS = ("mean", "average", "avg", "median", "total", "sum", "mean rank", "average rank")


@share
def read_scores(
    path: PathLike | BinaryIO,
    *,
    layout: Layout = "auto",
    sep: str | None = None,
    metric: str | None = None,
    nan_policy: NanPolicy = "raise",
    dataset_col: str | None = None,
    method_col: str | None = None,
    score_col: str | None = None,
    repetition_col: str | Sequence[str] | None = None,
    metric_col: str | None = None,
    methods: Sequence[str] | None = None,
    exclude: Sequence[str] | None = None,
    datasets: Sequence[str] | None = None,
    rename: Mapping[str, str] | None = None,
    orient: Orient = "auto",
    max_bytes: int = MAX_BYTES,
    keep_repetitions: bool = False,
) -> ScoreTables:
    """Read score tables, one per metric, from a CSV, TSV or JSON file or a results folder.

    Parameters
    ----------
    path : str or path-like
        The file. Its kind is found from its content: JSON when it starts with ``{`` or
        ``[``, otherwise delimited text. A folder is read as aeon/tsml-eval results
        (``<Method>_<metric>.csv`` files whose first header cell is ``Resamples:``; see
        :mod:`cdplot.io._folders`). An open binary stream (``sys.stdin.buffer``,
        ``io.BytesIO``) is read to its end, at most ``max_bytes``, and named by its
        ``name`` (``<stdin>``) in messages and ``source``.
    layout : {'auto', 'wide', 'long'}, default 'auto'
        Wide files have data-set names in the first column and method names in the header
        row (the first header cell may be anything or empty). Long (tidy) files have one
        score per row, in columns recognised by name (``dataset``, ``method``, ``score``,
        optionally ``fold``/``seed``/... and ``metric``; see
        :func:`cdplot.io.as_score_tables`). 'auto' decides from the header.
    %(sep)s
        ``notes`` says so when it does.
    %(metric)s
    %(nan_policy)s
    %(long_columns)s
    %(repetition_col)s
    methods, exclude, datasets : sequence of str, optional
        Methods to keep (in this order), methods to leave out, data sets to keep; an
        unknown name is an error listing the known ones.
    %(rename)s
    %(orient)s
    %(max_bytes)s
        Raise the limit for larger files.
    %(keep_repetitions)s

    Returns
    -------
    ScoreTables
        One :class:`ScoreTable` per metric (a tuple; with one metric it also reads
        like that table: ``read_scores(path).methods``), with ``source`` set to the
        file name as given and ``sha256`` to the digest of the file's bytes.

    Raises
    ------
    CdplotError
        Naming the file and, where it applies, the row (line number in the file) and
        column: missing file, directory, spreadsheet, undecodable bytes, empty file, header
        without rows, ragged rows, cells that are not numbers or not finite, empty or
        repeated names, missing scores, fewer than 2 methods or data sets.

    Notes
    -----
    Text must be UTF-8, with or without a byte-order mark. Lines starting with ``#``
    before the header are comments (the bundled examples cite their sources there);
    blank lines are skipped. ``inf`` is an error rather than a missing value, because a
    score that is not finite usually means a broken run.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "auc.csv"
    >>> _ = p.write_text("# AUC\\ndataset,A,B\\niris,0.9,0.8\\nwine,0.7,0.75\\n")
    >>> (t,) = read_scores(p)
    >>> t.methods, t.datasets
    (('A', 'B'), ('iris', 'wine'))
    """
    cols = {
        "dataset_col": dataset_col,
        "method_col": method_col,
        "score_col": score_col,
        "repetition_col": repetition_col,
        "metric_col": metric_col,
    }
    _validate_options(nan_policy, layout, metric, None, cols)
    check_option("orient", orient, ORIENTS)
    keep_repetitions = check_bool("keep_repetitions", keep_repetitions)
    sep = check_sep(sep)
    methods, exclude, datasets, rename = validate_selection(methods, exclude, datasets, rename)
    return read_validated(
        path,
        layout=layout,
        sep=sep,
        metric=metric,
        nan_policy=nan_policy,
        cols=cols,
        methods=methods,
        exclude=exclude,
        datasets=datasets,
        rename=rename,
        orient=orient,
        max_bytes=check_max_bytes(max_bytes),
        keep_repetitions=keep_repetitions,
    )


def read_validated(
    path,
    *,
    layout,
    sep,
    metric,
    nan_policy,
    cols,
    methods,
    exclude,
    datasets,
    rename,
    orient,
    max_bytes,
    keep_repetitions,
) -> ScoreTables:
    """:func:`read_scores` once its options are validated (``cols`` holds the ``*_col`` ones).

    :func:`cdplot.io.as_score_tables` validates the same options for every input and
    reads a file name through here, so that they are not checked twice.
    """
    selecting = any(x is not None for x in (methods, exclude, datasets, rename))
    policy = "keep" if selecting else nan_policy
    name, raw, digest = read_bytes(
        path, max_bytes=max_bytes, allow_dir=True, hash_later=True, mapped=True
    )
    if raw is None:
        # a folder comes back by its real name, to be listed; messages show it as text
        folder, name = name, display_name(name)
        if sep is not None or layout != "auto" or any(v is not None for v in cols.values()):
            raise CdplotError(
                f"{name}: a results folder has one layout; {opt('sep')}, {opt('layout')} and "
                "*_col= do not apply",
                option="sep",
            )
        with keeping_repetitions(keep_repetitions):
            tables = read_results_folder(folder, nan_policy=policy, max_bytes=max_bytes)
        return select_tables(
            tables,
            metric,
            name,
            selecting=selecting,
            methods=methods,
            exclude=exclude,
            datasets=datasets,
            rename=rename,
            nan_policy=nan_policy,
        )
    raw, text = _checked_encoding(raw, name)
    if is_blank(raw):
        raise CdplotError(f"{name}: the file is empty")
    if raw[: 1 << 16].lstrip()[:1] in (b"{", b"["):
        data = load_json(text if text is not None else as_bytes(raw).decode("ascii"), name)
        with keeping_repetitions(keep_repetitions):
            tables = _tables_from_json(
                data, name, layout=layout, cols=cols, nan_policy=policy, orient=orient
            )
    else:
        if orient != "auto":
            raise CdplotError(
                f"{name}: option {opt('orient', orient)} applies to JSON objects only",
                option="orient",
            )
        with keeping_repetitions(keep_repetitions):
            tables = _read_delimited(
                raw, name, sep=sep, layout=layout, cols=cols, nan_policy=policy
            )
    digest = digest.result()
    tables = tuple(with_file_name(replace(t, source=name, sha256=digest), name) for t in tables)
    return select_tables(
        tables,
        metric,
        name,
        selecting=selecting,
        methods=methods,
        exclude=exclude,
        datasets=datasets,
        rename=rename,
        nan_policy=nan_policy,
    )


def _checked_encoding(raw, name):
    """``(raw, text)``: the file's bytes checked as UTF-8, and its text when it was decoded.

    Text that is not plain ASCII (or starts with a byte-order mark) is
    decoded, unless it is a large memory-mapped delimited file, which is
    validated without a copy; ``text`` is None then, and for ASCII.
    """
    if not is_ascii(raw) or raw[:4].startswith(b"\xef\xbb\xbf"):
        start = raw[: 1 << 16]
        start = start[3:] if start.startswith(b"\xef\xbb\xbf") else start
        if isinstance(raw, bytes) or start.lstrip()[:1] in (b"{", b"["):
            # validates UTF-8 (naming the row of a bad byte) and drops a byte-order mark
            text = decode(raw, name)
            return text.encode("utf-8"), text
        # a large delimited file: validated without building a text (and its copy)
        # as large as the file; split_table skips the byte-order mark
        check_utf8(raw, name)
        return raw, None
    decode(raw[:4096], name)  # a NUL byte or UTF-16 without a byte-order mark
    return raw, None


class _DuplicateKey(Exception):
    pass


def _no_duplicates(pairs):
    """The object of ``pairs``, refusing a key seen before, also one differing only in spaces.

    One set of the stripped keys grows with the object, so each key costs one lookup: an
    object of n data sets is read in linear time (rebuilding the set for each key took
    89 s for 40,000 data sets).
    """
    obj = {}
    stripped = set()
    for k, v in pairs:
        bare = k.strip()  # JSON object keys are always strings
        if k in obj or bare in stripped:
            raise _DuplicateKey(k)
        obj[k] = v
        stripped.add(bare)
    return obj


def load_json(text: str, name: str) -> Any:
    """Parse JSON text with one-line messages for every way it can fail.

    Duplicate keys in one object (also ``" A"`` beside ``"A"``, which name the
    same method) are refused, naming the key: the last value would win
    silently.  Deep nesting, integers over Python's 4,300-digit limit and
    syntax errors are one-line messages too.

    Parameters
    ----------
    text : str
        The JSON document.
    name : str
        What to call it in messages (the file name as given).

    Returns
    -------
    object
        The parsed value.
    """
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as e:
        raise CdplotError(
            f"{name}, row {e.lineno}, column {e.colno}: not valid JSON ({e.msg})"
        ) from None
    except _DuplicateKey as e:
        raise CdplotError(
            f"{name}: key {e.args[0]!r} appears twice in one JSON object; the last value "
            f"would silently win, so remove or rename one"
        ) from None
    except RecursionError:
        raise CdplotError(
            f"{name}: the JSON is nested too deeply to be a table of scores"
        ) from None
    except ValueError as e:  # integers over the 4,300-digit limit of int()
        raise CdplotError(f"{name}: not valid JSON here ({str(e).splitlines()[0]})") from None


def _tables_from_json(data, name, *, layout, cols, nan_policy, orient="auto"):
    where = Where(name)
    if isinstance(data, dict):
        if any(v is not None for v in cols.values()) or layout == "long":
            raise CdplotError(
                f"{name}: the JSON object is a wide table; *_col options and "
                f"{opt('layout', 'long')} apply to a list of records",
                option="layout",
            )
        return _from_mapping(data, where, nan_policy, orient=orient)
    if isinstance(data, list):
        if not data:
            raise CdplotError(f"{name}: the JSON list is empty")
        if all(isinstance(x, dict) for x in data):
            return _from_sequence(data, where, layout=layout, cols=cols, nan_policy=nan_policy)
        if all(isinstance(x, list) for x in data):
            raise CdplotError(
                f"{name}: a JSON list of lists has no names; use "
                f'{{"methods": [...], "datasets": [...], "scores": [[...]]}}'
            )
    raise CdplotError(
        f"{name}: expected a JSON object ({{dataset: {{method: score}}}} or "
        f'{{"methods", "datasets", "scores"}}) or a list of records, got {type(data).__name__}'
    )


def _read_delimited(raw, name, *, sep, layout, cols, nan_policy):
    header, columns, where, header_line, delimiter, notes = split_table(raw, name, sep)
    decimal_comma = "auto" if delimiter != "," else False

    def wide():
        return _wide_csv(
            header,
            header_line,
            columns,
            where,
            nan_policy=nan_policy,
            decimal_comma=decimal_comma,
            notes=notes,
        )

    return _tables_from_columns(
        header,
        columns,
        where,
        layout=layout,
        cols=cols,
        nan_policy=nan_policy,
        wide=wide,
        decimal_comma=decimal_comma,
        notes=notes,
    )


def _wide_csv(header, header_line, columns, where, *, nan_policy, decimal_comma, notes=()):
    name = where.source
    first = header[0]
    names = texts(columns[0])
    # A first column of numbers under a method-like header means the names column
    # is missing; taking the scores as names would silently lose a method.
    if (
        first != ""
        and role_of(first) != "dataset"
        and len(names) >= 2
        and all(NUMBER_RE.match(n.replace(",", ".")) for n in names)
    ):
        raise CdplotError(
            f"{name}, column 1 {first!r}: every cell is a number, so it looks like scores "
            f"rather than data-set names; add a first column with data-set names"
        )
    columns = list(columns)
    summary = [i for i, n in enumerate(names) if n.strip().lower() in SUMMARY_ROWS]
    if summary and len(summary) < len(names):
        # a printed table's "mean" row is no data set; counted as one it would be ranked
        keep = [i for i in range(len(names)) if i not in set(summary)]
        notes = [
            *notes,
            f"dropped {'a summary row' if len(summary) == 1 else 'summary rows'} "
            f"({', '.join(repr(names[i]) for i in summary)}, "
            f"{', '.join(where.row(i) for i in summary)}), which "
            f"{'is' if len(summary) == 1 else 'are'} no data set",
        ]
        names = [names[i] for i in keep]
        cells = [texts(c) for c in columns]
        columns = [[c[i] for i in keep] for c in cells]
        rows_of = [where.row(i) for i in keep]
        where = Where(name, lambda i: rows_of[i])
    return _wide_columns(
        names,
        header[1:],
        columns[1:],
        where,
        nan_policy=nan_policy,
        decimal_comma=decimal_comma,
        method_at=lambda j: f"row {header_line}, column {j + 2}",
        notes=notes,
    )
