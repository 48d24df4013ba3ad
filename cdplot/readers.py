"""Reading score tables from CSV, TSV and JSON files.

Only the standard library's :mod:`csv` and :mod:`json` and numpy are used, so
that reading a file needs nothing beyond cdplot's core.  Every problem is a
:class:`~cdplot.errors.CdplotError` whose one-line message names the file and,
where it applies, the row (the line number an editor shows) and the column.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import re

from .errors import CdplotError
from .stats.scores import (
    ScoreTable,
    _from_mapping,
    _from_sequence,
    _role_of,
    _select_metric,
    _tables_from_columns,
    _validate_options,
    _Where,
    _wide_table,
)

__all__ = ["read_scores"]

# Spreadsheet and binary formats are not parsed; their users are told how to
# get a CSV instead of seeing a decoding error.
_SPREADSHEETS = (".xlsx", ".xlsm", ".xlsb", ".xls", ".ods", ".numbers")
_BINARY_TABLES = (".parquet", ".feather", ".arrow", ".pkl", ".pickle", ".h5", ".hdf5")
_DELIMITERS = (",", ";", "\t", "|")
_SNIFF_ROWS = 50
_NUMBER_RE = re.compile(r"^[+-]?(\d+[.,]?\d*|[.,]\d+)([eE][+-]?\d+)?$")


def _validate_path(path) -> str:
    if not isinstance(path, (str, os.PathLike)):
        raise CdplotError(f"expected a file name, got {type(path).__name__} {path!r}")
    name = os.fsdecode(path)
    if name == "":
        raise CdplotError("the file name is empty")
    ext = os.path.splitext(name)[1].lower()
    if ext in _SPREADSHEETS:
        raise CdplotError(
            f"{name}: spreadsheet files are not read; export the sheet as CSV (UTF-8) "
            f"and pass that file"
        )
    if ext in _BINARY_TABLES:
        raise CdplotError(
            f"{name}: {ext} files are not read; export CSV, or load the file with pandas or "
            f"polars and pass the DataFrame to as_score_tables"
        )
    if not os.path.exists(name):
        raise CdplotError(f"{name}: no such file")
    if os.path.isdir(name):
        raise CdplotError(f"{name}: is a directory, not a file of scores")
    return name


def _validate_sep(sep):
    if sep is not None and (not isinstance(sep, str) or len(sep) != 1 or sep in '"\r\n'):
        raise CdplotError(f"option sep={sep!r} must be a single character such as ',' or ';'")
    return sep


def read_scores(
    path,
    *,
    layout="auto",
    sep=None,
    metric=None,
    nan_policy="raise",
    dataset_col=None,
    method_col=None,
    score_col=None,
    repetition_col=None,
    metric_col=None,
) -> tuple[ScoreTable, ...]:
    """Read score tables, one per metric, from a CSV, TSV or JSON file.

    Parameters
    ----------
    path : str or path-like
        The file. Its kind is found from its content: JSON when it starts with ``{`` or
        ``[``, otherwise delimited text.
    layout : {'auto', 'wide', 'long'}, default 'auto'
        Wide files have data-set names in the first column and method names in the header
        row (the first header cell may be anything or empty). Long (tidy) files have one
        score per row, in columns recognised by name (``dataset``, ``method``, ``score``,
        optionally ``fold``/``seed``/... and ``metric``; see
        :func:`cdplot.stats.scores.as_score_tables`). 'auto' decides from the header.
    sep : str, optional
        The delimiter; by default sniffed among ``,``, ``;``, tab and ``|``. When it is not
        ``,`` and scores are written with decimal commas (``0,763``) they are read as
        such, and ``notes`` says so.
    metric : str, optional
        Keep only this metric's table (an unknown name is an error listing the metrics).
    nan_policy : {'raise', 'omit'}, default 'raise'
        Missing scores (empty cells, ``NA``, ``NaN``) raise an error naming them, or drop
        their data sets.
    dataset_col, method_col, score_col, repetition_col, metric_col : str, optional
        Column names of a long file, when they are not recognised.

    Returns
    -------
    tuple of ScoreTable
        With ``source`` set to the file name as given and ``sha256`` to the digest of the
        file's bytes.

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
    sep = _validate_sep(sep)
    name, text, digest = read_text(path)
    if not text.strip():
        raise CdplotError(f"{name}: the file is empty")
    if text.lstrip()[:1] in ("{", "["):
        tables = _read_json(text, name, layout=layout, cols=cols, nan_policy=nan_policy)
    else:
        tables = _read_delimited(
            text, name, sep=sep, layout=layout, cols=cols, nan_policy=nan_policy
        )
    tables = tuple(_with_file(t, name, digest) for t in tables)
    return _select_metric(tables, metric, name)


def read_text(path) -> tuple[str, str, str]:
    """Read a text file of scores with the reader's checks and messages.

    Parameters
    ----------
    path : str or path-like
        The file.

    Returns
    -------
    name : str
        The file name as given, for messages.
    text : str
        Its contents, decoded as UTF-8 (a byte-order mark is dropped).
    sha256 : str
        Hex digest of its bytes, for reproducibility footers.

    Raises
    ------
    CdplotError
        A missing file, a directory, a spreadsheet, unreadable or non-UTF-8 bytes.
    """
    name = _validate_path(path)
    try:
        with open(name, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise CdplotError(f"{name}: cannot be read ({e.strerror or e})") from None
    return name, _decode(raw, name), hashlib.sha256(raw).hexdigest()


def _with_file(table, name, digest):
    from dataclasses import replace

    return replace(table, source=name, sha256=digest)


def _decode(raw: bytes, name: str) -> str:
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise CdplotError(f"{name}: the file is UTF-16; save it as UTF-8")
    try:
        # utf-8-sig drops the byte-order mark Excel writes
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        bad = raw[e.start : e.start + 1]
        raise CdplotError(
            f"{name}, row {line}: byte {bad!r} is not UTF-8; save the file as UTF-8"
        ) from None


def _read_json(text, name, *, layout, cols, nan_policy):
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise CdplotError(
            f"{name}, row {e.lineno}, column {e.colno}: not valid JSON ({e.msg})"
        ) from None
    where = _Where(name)
    if isinstance(data, dict):
        if any(v is not None for v in cols.values()) or layout == "long":
            raise CdplotError(
                f"{name}: the JSON object is a wide table; *_col options and "
                f"layout='long' apply to a list of records"
            )
        return _from_mapping(data, where, nan_policy)
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


def _split_lines(text):
    """Return (first line number of the table, its lines) after leading comments."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    i = 0
    while i < len(lines) and (not lines[i].strip() or lines[i].lstrip().startswith("#")):
        i += 1
    return i + 1, [line + "\n" for line in lines[i:]]


def _parse_rows(lines, first_line, delimiter, name):
    """Rows of stripped cells, each with its line number; blank rows are skipped."""
    reader = csv.reader(lines, delimiter=delimiter)
    rows, numbers = [], []
    consumed = 0
    try:
        for row in reader:
            start = first_line + consumed
            consumed = reader.line_num
            cells = [c.strip() for c in row]
            if not any(cells):
                continue
            rows.append(cells)
            numbers.append(start)
    except csv.Error as e:
        raise CdplotError(f"{name}, row {first_line + consumed}: {e}") from None
    return rows, numbers


def _sniff(lines, name, ext):
    """Pick the delimiter that splits the header and the first rows alike."""
    sample = lines[: _SNIFF_ROWS + 1]
    best, best_key = ",", None
    for rank, d in enumerate(_DELIMITERS):
        try:
            rows = [r for r in csv.reader(sample, delimiter=d) if any(c.strip() for c in r)]
        except csv.Error:
            continue
        if not rows or len(rows[0]) < 2:
            continue
        width = len(rows[0])
        agree = sum(len(r) == width for r in rows) / len(rows)
        # when names hold the other delimiters ("wine, red" in a ';' file) several
        # splits agree; the right one leaves numbers in the score cells
        cells = [c.strip() for r in rows[1:] for c in r[1:]]
        numeric = sum(bool(_NUMBER_RE.match(c)) for c in cells) / max(len(cells), 1)
        preferred = (d == "\t") if ext in (".tsv", ".tab") else (d == ",")
        key = (agree, numeric, preferred, width, -rank)
        if best_key is None or key > best_key:
            best, best_key = d, key
    return best


def _read_delimited(text, name, *, sep, layout, cols, nan_policy):
    first_line, lines = _split_lines(text)
    ext = os.path.splitext(name)[1].lower()
    delimiter = sep or _sniff(lines, name, ext)
    rows, numbers = _parse_rows(lines, first_line, delimiter, name)
    if not rows:
        raise CdplotError(f"{name}: the file has only comments")
    header, header_line = rows[0], numbers[0]
    rows, numbers = rows[1:], numbers[1:]
    if not rows:
        raise CdplotError(f"{name}, row {header_line}: there is a header but no rows of scores")

    # A delimiter at the end of every line (spreadsheet exports) makes an empty,
    # nameless last column; it carries nothing.
    while (
        len(header) > 2
        and header[-1] == ""
        and all(len(r) < len(header) or r[len(header) - 1] == "" for r in rows)
    ):
        header = header[:-1]
    width = len(header)
    for r, line in zip(rows, numbers, strict=True):
        if len(r) < width or any(r[width:]):
            # the csv module runs an unclosed quote on to the end of the file
            hint = " (a quote opened in it is not closed)" if any("\n" in c for c in r) else ""
            raise CdplotError(
                f"{name}, row {line} has {len(r)} {'cell' if len(r) == 1 else 'cells'}, "
                f"the header has {width}{hint}"
            )
    rows = [r[:width] for r in rows]
    columns = [[r[j] for r in rows] for j in range(width)]
    where = _Where(name, [f"row {n}" for n in numbers])
    decimal_comma = "auto" if delimiter != "," else False

    def wide():
        return _wide_csv(
            header, header_line, rows, where, nan_policy=nan_policy, decimal_comma=decimal_comma
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
    )


def _wide_csv(header, header_line, rows, where, *, nan_policy, decimal_comma):
    name = where.source
    first = header[0]
    names = [r[0] for r in rows]
    # A first column of numbers under a method-like header means the names column
    # is missing; taking the scores as names would silently lose a method.
    if (
        first != ""
        and _role_of(first) != "dataset"
        and len(names) >= 2
        and all(_NUMBER_RE.match(n) for n in names)
    ):
        raise CdplotError(
            f"{name}, column 1 {first!r}: every cell is a number, so it looks like scores "
            f"rather than data-set names; add a first column with data-set names"
        )
    return _wide_table(
        names,
        header[1:],
        [r[1:] for r in rows],
        where,
        nan_policy=nan_policy,
        decimal_comma=decimal_comma,
        method_at=lambda j: f"row {header_line}, column {j + 2}",
    )
