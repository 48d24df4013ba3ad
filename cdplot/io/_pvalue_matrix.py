"""Reading a square matrix of p-values (or of significance) from a CSV file.

The file a post-hoc test of another tool writes: scikit-posthocs'
``posthoc_conover(...).to_csv("p.csv")`` gives a header row of method names
(its first cell empty) and one row per method, its name in the first cell.
:func:`read_pvalue_matrix` reads that layout with the checks and messages of
the other readers (file, row, column); :func:`cdplot.stats.from_posthoc`
checks what the values mean (range, diagonal, symmetry, the names of the
average ranks).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import BinaryIO

from ..errors import CdplotError
from ._checks import check_names, check_sep
from ._text import MAX_BYTES, csv_rows, read_text
from ._types import PathLike

__all__ = ["LabelledMatrix", "read_pvalue_matrix"]

# the words a CSV writer uses for booleans (pandas writes True/False, R TRUE/FALSE)
_TRUE = frozenset({"true"})
_FALSE = frozenset({"false"})
# what an empty cell on the diagonal is written as (pandas writes NaN as an empty cell)
_MISSING = frozenset({"", "nan", "na", "n/a", "-"})


@dataclass(frozen=True)
class LabelledMatrix:
    """A square matrix with the names of its rows and columns, as read.

    ``cells`` holds floats, or bools for a significance matrix (every
    off-diagonal cell ``True``/``False``); ``None`` for an empty cell.
    """

    rows: tuple[str, ...]
    columns: tuple[str, ...]
    cells: tuple[tuple[float | bool | None, ...], ...]
    source: str
    sha256: str | None = None


def _value(text: str, where) -> float | bool | None:
    low = text.lower()
    if low in _MISSING:
        return None
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    try:
        return float(text)
    except ValueError:
        raise CdplotError(f"{where()}: {text!r} is not a p-value (a number in [0, 1])") from None


def read_pvalue_matrix(
    path: PathLike | BinaryIO, *, sep: str | None = None, max_bytes: int = MAX_BYTES
) -> LabelledMatrix:
    """Read a square p-value or significance matrix with method names on both sides.

    Parameters
    ----------
    path : str, path-like or binary stream
        A CSV or TSV file: a header row of method names (its first cell
        may be anything or empty), then one row per method, its name in
        the first cell.  Cells are p-values, or ``True``/``False`` for a
        significance matrix; lines starting with ``#`` are comments.
    sep : str, optional
        The delimiter; by default the one of ``,``, ``;``, tab and ``|``
        that splits the header into the most cells.
    max_bytes : int, default 1 GiB
        Larger files are refused.

    Returns
    -------
    LabelledMatrix

    Raises
    ------
    CdplotError
        Naming the file, row and column: a missing or unreadable file, no
        rows, a row whose length differs from the header's, an empty or
        repeated name, a cell that is not a number or a boolean.
    """
    sep = check_sep(sep)
    name, text, digest = read_text(path, max_bytes=max_bytes)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept = [(i + 1, line + "\n") for i, line in enumerate(lines) if not line.startswith("#")]
    content = [(n, line) for n, line in kept if line.strip()]
    if not content:
        raise CdplotError(f"{name}: the file holds no p-value matrix (only comments or nothing)")
    delimiter = sep or max(("\t", ";", "|", ","), key=lambda d: content[0][1].count(d))
    rows, numbers = [], []
    for line_no, line in content:
        got, _ = csv_rows([line], delimiter, name, first_line=line_no)
        if got:
            rows.append(got[0])
            numbers.append(line_no)
    header, body = rows[0], rows[1:]
    columns = tuple(header[1:])
    if not body or not columns:
        raise CdplotError(
            f"{name}: a p-value matrix needs a header row of method names and one row per "
            "method, its name first"
        )
    where = SimpleNamespace(source=name)
    check_names(list(columns), "method", where, lambda i: f"row {numbers[0]}, column {i + 2}")
    check_names([r[0] for r in body], "method", where, lambda i: f"row {numbers[i + 1]}")
    cells = []
    for r, line_no in zip(body, numbers[1:], strict=True):
        if len(r) != len(header):
            raise CdplotError(
                f"{name}, row {line_no} ({r[0]!r}) has {len(r)} cells; the header has "
                f"{len(header)} (a name and one p-value per method)"
            )
        cells.append(
            tuple(
                _value(c, lambda c=col, r=r, n=line_no: f"{name}, row {n} ({r[0]!r}), column {c!r}")
                for c, col in zip(r[1:], columns, strict=True)
            )
        )
    return LabelledMatrix(
        rows=tuple(r[0] for r in body),
        columns=columns,
        cells=tuple(cells),
        source=name,
        sha256=digest,
    )
