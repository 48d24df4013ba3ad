"""Reading average ranks printed in a paper: a file of ``method,average_rank`` rows.

Authors often have only the average ranks another paper printed (Demsar's
Table 6 ends with them).  :func:`read_average_ranks` reads them from a
small delimited file, and :func:`as_average_ranks` from a mapping, with the
same checks and messages as the score readers (file, row, column).  The
checks that need the statistics (ranks within ``[1, k]``, their sum) are
made by :func:`cdplot.compare_ranks`, which names the file and row from
``locations``.
"""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO

import numpy as np
from numpy.typing import ArrayLike

from .._docstrings import share
from ..errors import CdplotError, opt
from ._checks import (
    DECIMAL_COMMA_RE,
    NUMBER_RE,
    Where,
    check_names,
    check_sep,
    parse_cell,
    wants_decimal_comma,
)
from ._text import MAX_BYTES, csv_rows, read_text
from ._types import PathLike

__all__ = ["AverageRanks", "read_average_ranks", "as_average_ranks"]


@dataclass(frozen=True, kw_only=True)
class AverageRanks:
    """Average ranks of methods (1 = best), as printed, with where they came from.

    Attributes
    ----------
    methods : tuple of str
        Method names, unique, in input order.
    values : ndarray, shape (k,)
        Their average ranks, read-only.
    decimals : int or None
        The most decimals any rank was written with (``3.143`` has 3): the
        printed ranks are rounded to about this precision.  ``None`` when
        the values are exact (Python integers, or floats too long to have
        been typed).
    source : str or None
        The file name as given, or a description of the Python object.
    sha256 : str or None
        SHA-256 of the file, for reproducibility footers.
    locations : tuple of str
        Where each rank stands (``"ranks.csv, row 3"``), for messages.
    notes : tuple of str
        What reading did, in words.
    """

    methods: tuple[str, ...]
    values: np.ndarray
    decimals: int | None = None
    source: str | None = None
    sha256: str | None = None
    locations: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self):
        values = np.array(self.values, dtype=float, copy=True)
        values.setflags(write=False)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "methods", tuple(self.methods))

    @property
    def n_methods(self) -> int:
        """``k``."""
        return len(self.methods)

    def where(self, i: int) -> str:
        """Where rank ``i`` stands, for a message."""
        if self.locations:
            return f"{self.locations[i]} (method {self.methods[i]!r})"
        return f"method {self.methods[i]!r}"


def _decimals(text: str) -> int | None:
    """Decimals written in ``3.143`` (3) or ``2`` (0); ``None`` for exponents."""
    text = text.strip().replace(",", ".")
    if "e" in text.lower():
        return None
    _, dot, frac = text.partition(".")
    return len(frac) if dot else 0


def _float_decimals(value) -> int | None:
    """Decimals of the shortest text of a float (``3.143`` -> 3); ``None`` for exact values."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return None
    text = repr(float(value))
    d = _decimals(text)
    # 17 significant digits were computed, not typed: treat them as exact
    return None if d is None or d >= 12 else d


def _most(decimals) -> int | None:
    known = [d for d in decimals if d is not None]
    return max(known) if known else None


# a delimiter found in every row is a stronger sign than the comma, which may be a decimal one
_PREFERENCE = ("\t", ";", "|", ",")


def _sniff(lines) -> str:
    """The delimiter that splits most rows into a name and a number (``3.143`` or ``3,143``)."""
    sample = lines[:50]
    best, best_key = ",", None
    for rank, d in enumerate(_PREFERENCE):
        try:
            rows = list(csv.reader(sample, delimiter=d))
        except csv.Error:
            continue
        cells = [[c.strip() for c in r] for r in rows]
        for r in cells:
            while len(r) > 2 and r[-1] == "":
                r.pop()
        two = sum(len(r) == 2 for r in cells)
        numeric = sum(
            len(r) == 2 and bool(NUMBER_RE.match(r[1]) or DECIMAL_COMMA_RE.match(r[1]))
            for r in cells
        )
        # with no row of two cells, the delimiter that splits at all (its message is clearer)
        split = sum(len(r) > 1 for r in cells)
        key = (two, numeric, split, -rank)
        if best_key is None or key > best_key:
            best, best_key = d, key
    return best


@share
def read_average_ranks(
    path: PathLike | BinaryIO, *, sep: str | None = None, max_bytes: int = MAX_BYTES
) -> AverageRanks:
    """Read average ranks from a file of ``method,average_rank`` rows.

    Parameters
    ----------
    path : str, path-like or binary stream
        A CSV or TSV file, or an open binary stream (``sys.stdin.buffer``):
        one method per row, its name in the first column and its average
        rank (1 = best) in the second.  A header row is optional (it is
        recognised by a second cell that is not a number); lines starting
        with ``#`` are comments and blank lines are skipped.
    sep : str, optional
        The delimiter; by default sniffed among ``,``, ``;``, tab and ``|``.
        With another delimiter than ``,``, ranks written with decimal commas
        (``3,143``) are read as such.
    %(max_bytes)s

    Returns
    -------
    AverageRanks
        With ``source`` and ``sha256`` of the file, ``locations`` naming each
        row and ``decimals`` the most decimals a rank was written with.

    Raises
    ------
    CdplotError
        Naming the file, row and column: a missing or unreadable file, a row
        without exactly two cells, an empty, repeated or unprintable method
        name, a rank that is missing, not a number or not finite, no rows.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "ranks.csv"
    >>> text = "# Demsar (2006), Table 6\\nmethod,average rank\\nC4.5,3.143\\nC4.5+m,2.000\\n"
    >>> _ = p.write_text(text)
    >>> r = read_average_ranks(p)
    >>> r.methods, r.values.tolist(), r.decimals
    (('C4.5', 'C4.5+m'), [3.143, 2.0], 3)
    """
    sep = check_sep(sep)
    name, text, digest = read_text(path, max_bytes=max_bytes)
    lines = [line + "\n" for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    kept = [(i + 1, line) for i, line in enumerate(lines) if not line.lstrip().startswith("#")]
    if not any(line.strip() for _, line in kept):
        raise CdplotError(f"{name}: the file holds no average ranks (only comments or nothing)")
    delimiter = sep or _sniff([line for _, line in kept if line.strip()])
    rows, numbers = [], []
    for line_no, line in kept:
        got, _ = csv_rows([line], delimiter, name, first_line=line_no)
        if got:
            rows.append(got[0])
            numbers.append(line_no)
    for cells, line_no in zip(rows, numbers, strict=True):
        while len(cells) > 2 and cells[-1] == "":
            cells.pop()  # a delimiter at the end of the line (spreadsheet exports)
        if len(cells) != 2:
            raise CdplotError(
                f"{name}, row {line_no} has {len(cells)} {'cell' if len(cells) == 1 else 'cells'}; "
                "a file of average ranks has two: the method and its average rank"
            )
    if not rows:
        # lines of separators alone (",") hold no cell the reader keeps
        raise CdplotError(f"{name}: the file holds no average ranks (only empty cells)")
    notes = []
    first = rows[0][1]
    decimal_comma = delimiter != "," and wants_decimal_comma([r[1] for r in rows])
    if not NUMBER_RE.match(first.replace(",", ".") if decimal_comma else first):
        header, header_line = rows[0], numbers[0]
        rows, numbers = rows[1:], numbers[1:]
        if not rows:
            raise CdplotError(
                f"{name}, row {header_line}: there is a header "
                f"({header[0]!r}, {header[1]!r}) but no rows of average ranks"
            )
        column = header[1] or "average rank"
    else:
        column = "average rank"
    if decimal_comma:
        notes.append(f"{name}: average ranks written with decimal commas were read as such")
    methods = [r[0] for r in rows]
    where = Where(name, lambda i: f"row {numbers[i]}")
    check_names(methods, "method", where, where.row)
    values = np.empty(len(rows))
    for i, r in enumerate(rows):
        values[i] = parse_cell(
            r[1], decimal_comma, lambda i=i: f"{name}, row {numbers[i]}, column {column!r}"
        )
        if math.isnan(values[i]):
            raise CdplotError(
                f"{name}, row {numbers[i]}, column {column!r}: the average rank of "
                f"{methods[i]!r} is missing"
            )
    return AverageRanks(
        methods=tuple(methods),
        values=values,
        decimals=_most(_decimals(r[1]) for r in rows),
        source=name,
        sha256=digest,
        locations=tuple(f"{name}, row {n}" for n in numbers),
        notes=tuple(notes),
    )


def as_average_ranks(
    data: Mapping[str, float] | AverageRanks | str | os.PathLike[str] | ArrayLike,
    *,
    methods: Sequence[str] | None = None,
) -> AverageRanks:
    """Average ranks from a mapping ``{method: rank}``, a file or an :class:`AverageRanks`.

    Parameters
    ----------
    data : mapping, AverageRanks, str, path-like, pandas Series or array_like
        ``{method: average rank}`` (a pandas Series by duck typing), a file
        for :func:`read_average_ranks`, or a sequence of ranks with
        ``methods``.
    methods : sequence of str, optional
        Names of the methods of a plain sequence of ranks; not allowed with
        inputs that name their methods.

    Returns
    -------
    AverageRanks

    Raises
    ------
    CdplotError
        Empty, repeated or unprintable names, values that are not finite
        numbers, a sequence without names.
    """
    import os

    if isinstance(data, AverageRanks):
        if methods is not None:
            raise CdplotError(
                f"option {opt('methods')} does not apply to average ranks that name methods",
                option="methods",
            )
        return data
    if isinstance(data, (str, os.PathLike)):
        if methods is not None:
            raise CdplotError(
                f"option {opt('methods')} does not apply to a file, which names its methods",
                option="methods",
            )
        return read_average_ranks(data)
    if isinstance(data, Mapping) or (hasattr(data, "items") and hasattr(data, "index")):
        if methods is not None:
            raise CdplotError(
                f"option {opt('methods')} does not apply to a mapping, which names its methods",
                option="methods",
            )
        items = list(data.items())
        names = [str(k).strip() for k, _ in items]
        raw = [v for _, v in items]
        source = "mapping of average ranks"
    else:
        if isinstance(data, (bytes, bytearray)) or not hasattr(data, "__len__"):
            raise CdplotError(
                f"average ranks must be a mapping {{method: average rank}} or a file; got "
                f"{type(data).__name__}"
            )
        if methods is None:
            raise CdplotError(
                f"average ranks without names: pass a mapping {{method: average rank}} or give "
                f"{opt('methods')}",
                option="methods",
            )
        raw = list(data)
        names = [str(m).strip() for m in methods]
        if len(names) != len(raw):
            raise CdplotError(
                f"option {opt('methods')} names {len(names)} methods for {len(raw)} average ranks",
                option="methods",
            )
        source = "sequence of average ranks"
    where = Where(source)
    check_names(names, "method", where, lambda i: f"method {i + 1}")
    values = np.array(
        [
            parse_cell(v, False, lambda n=n: f"{source}, method {n!r}")
            for n, v in zip(names, raw, strict=True)
        ]
    )
    for n, v in zip(names, values, strict=True):
        if math.isnan(v):
            raise CdplotError(f"{source}, method {n!r}: the average rank is missing")
    return AverageRanks(
        methods=tuple(names),
        values=values,
        decimals=_most(_float_decimals(v) for v in raw),
        source=source,
    )
