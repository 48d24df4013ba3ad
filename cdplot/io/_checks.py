"""One set of checks and messages for every reader.

Where an input came from (:class:`Where`), how a cell becomes a number
(vectorised when the cells are plain numbers, one cell at a time only to
find and name a bad one), and which names are refused.  Every message is
one line that names the file, row and column, says what is wrong and shows
the value received.
"""

from __future__ import annotations

import math
import re

import numpy as np

from ..errors import CdplotError, opt, shown
from ._fast import ByteColumn

__all__ = [
    "check_sep",
    "Where",
    "plural",
    "listing",
    "name_text",
    "check_name",
    "check_names",
    "is_missing_object",
    "parse_cell",
    "parse_column",
    "wants_decimal_comma",
    "MAX_LISTED",
]

MAX_LISTED = 3
MISSING_STRINGS = ("", "na", "nan", "n/a")
NONFINITE_STRINGS = ("inf", "+inf", "-inf", "infinity", "+infinity", "-infinity")
DECIMAL_COMMA_RE = re.compile(r"^[+-]?(\d+,\d*|,\d+)([eE][+-]?\d+)?$")
NUMBER_RE = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
# Characters that make a name unsafe to print, draw or write: C0 and C1
# controls, the byte-order mark (U+FEFF), noncharacters (U+FDD0-U+FDEF and
# U+xFFFE/U+xFFFF of every plane) and lone surrogates (which cannot be encoded).
_BAD_NAME_RE = re.compile(
    "[\x00-\x1f\x7f-\x9f\ufeff\ufdd0-\ufdef\ud800-\udfff"
    "\ufffe\uffff\U0001fffe\U0001ffff\U0002fffe\U0002ffff\U0003fffe\U0003ffff"
    "\U0004fffe\U0004ffff\U0005fffe\U0005ffff\U0006fffe\U0006ffff\U0007fffe\U0007ffff"
    "\U0008fffe\U0008ffff\U0009fffe\U0009ffff\U000afffe\U000affff\U000bfffe\U000bffff"
    "\U000cfffe\U000cffff\U000dfffe\U000dffff\U000efffe\U000effff\U000ffffe\U000fffff"
    "\U0010fffe\U0010ffff]"
)


# what a shell passes for a tab: --sep '\t' gives a backslash and a t
_SEP_WORDS = {"\\t": "\t", "tab": "\t"}


def check_sep(sep):
    """``sep`` if it is one character that can separate columns, else a one-line error.

    A backslash followed by ``t`` (what a shell passes for ``--sep '\\t'``) and the
    word ``tab`` are the tab character.
    """
    if isinstance(sep, str) and sep.lower() in _SEP_WORDS:
        return _SEP_WORDS[sep.lower()]
    if sep is not None and (not isinstance(sep, str) or len(sep) != 1 or sep in '"\r\n'):
        raise CdplotError(
            f"option {opt('sep', sep)} must be a single character such as ',' or ';', or 'tab'",
            option="sep",
        )
    return sep


def plural(n, word, plural_form=None):
    """``'1 method'``, ``'2 methods'``."""
    return f"{n} {word if n == 1 else (plural_form or word + 's')}"


def listing(items, n_total=None):
    """The first few items joined by commas, then ``'and N more'``."""
    items = list(items)
    n_total = len(items) if n_total is None else n_total
    shown = ", ".join(items[:MAX_LISTED])
    if n_total > MAX_LISTED:
        shown += f" and {n_total - MAX_LISTED} more"
    return shown


class Where:
    """Where an input came from, for one-line error messages.

    ``rows`` names row ``i`` as a user finds it: a sequence of labels
    (``"records[3]"``), a callable ``i -> label`` (line numbers of a file),
    or ``None`` when the data-set name is enough.
    """

    def __init__(self, source: str, rows=None):
        self.source = source
        self.rows = rows

    def row(self, i):
        if self.rows is None:
            return None
        if callable(self.rows):
            return self.rows(int(i))
        return self.rows[i]

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


def name_text(v) -> str:
    """A name as text: integral floats lose their ``.0``, tuples are joined."""
    if isinstance(v, tuple):  # pandas MultiIndex labels
        return " / ".join(name_text(x) for x in v)
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return str(v).strip()


def check_name(name: str, kind: str, where: str) -> str:
    """Refuse a name holding characters that would corrupt any later output."""
    m = _BAD_NAME_RE.search(name)
    if m is not None:
        ch = m.group()
        what = (
            "a lone surrogate"
            if "\ud800" <= ch <= "\udfff"
            else "a byte-order mark"
            if ch == "\ufeff"
            else "a noncharacter"
            if ch not in "\x00\x7f" and not (ch < " " or "\x7f" <= ch <= "\x9f")
            else "a control character"
        )
        raise CdplotError(
            f"{where}: {kind} name {name!r} holds {what} (U+{ord(ch):04X}); names must be "
            f"printable text"
        )
    return name


def check_names(names, kind, where, locate):
    """Raise on empty, repeated or unprintable names; ``locate(i)`` says where name i is.

    The common case (every name fine) is checked in bulk, so that ``locate``
    is called only to word a message: 100,000 data-set names cost one set
    and one regular-expression search, not 100,000 locations.
    """
    unique = set(names)
    if (
        len(unique) == len(names)
        and "" not in unique
        and _BAD_NAME_RE.search("".join(names)) is None
    ):
        return
    seen = {}
    for i, name in enumerate(names):
        if name == "":
            raise CdplotError(f"{where.source}, {locate(i)}: the {kind} name is empty")
        if name in seen:
            raise CdplotError(
                f"{where.source}, {locate(i)}: {kind} {name!r} appears twice "
                f"(also {locate(seen[name])})"
            )
        if _BAD_NAME_RE.search(name) is not None:
            check_name(name, kind, f"{where.source}, {locate(i)}")
        seen[name] = i


def is_missing_object(cell) -> bool:
    """pandas.NA, pandas.NaT and polars nulls (None) have no float value."""
    return cell is None or type(cell).__name__ in ("NAType", "NaTType")


def parse_cell(cell, decimal_comma, where):
    """Return the float in ``cell`` (NaN when missing); ``where()`` locates it."""
    if isinstance(cell, (bool, np.bool_)):
        raise CdplotError(f"{where()}: {shown(cell)} is not a number")
    if is_missing_object(cell):
        return math.nan
    if isinstance(cell, bytes):
        cell = cell.decode("utf-8", "replace")
    if isinstance(cell, str):
        text = cell.strip()
        low = text.lower()
        if low in MISSING_STRINGS:
            return math.nan
        if low in NONFINITE_STRINGS:
            raise CdplotError(f"{where()}: {shown(cell)} is not finite")
        if decimal_comma and DECIMAL_COMMA_RE.match(text):
            text = text.replace(",", ".")
        elif decimal_comma and "." in text:
            raise CdplotError(
                f"{where()}: {shown(cell)} has a decimal point but other cells use decimal commas"
            )
        # float() alone would accept "1_000" and " nan "; keep to plain numbers
        if not NUMBER_RE.match(text):
            raise CdplotError(f"{where()}: {shown(cell)} is not a number")
        value = float(text)
        if math.isinf(value):
            raise CdplotError(f"{where()}: {shown(cell)} is too large for a float")
        return value
    if isinstance(cell, int) and not isinstance(cell, bool):
        try:
            value = float(cell)
        except OverflowError:
            raise CdplotError(
                f"{where()}: the integer {_short(cell)} is too large for a float"
            ) from None
        return value
    try:
        value = float(cell)
    except (TypeError, ValueError):
        raise CdplotError(f"{where()}: {shown(cell)} is not a number") from None
    if math.isinf(value):
        raise CdplotError(f"{where()}: {shown(cell)} is not finite")
    return value


def _short(n: int) -> str:
    digits = len(str(abs(n))) if n.bit_length() < 14_000 else None
    if digits is not None and digits <= 30:
        return str(n)
    return f"of {digits} digits" if digits else f"of about {int(n.bit_length() * 0.30103)} digits"


def wants_decimal_comma(cells) -> bool:
    """Whether some cell is written like ``0,763``."""
    return any(isinstance(c, str) and "," in c and DECIMAL_COMMA_RE.match(c.strip()) for c in cells)


def parse_column(cells, decimal_comma, locate) -> np.ndarray:
    """Floats of a column of cells (NaN where missing), vectorised when possible.

    ``cells`` is a list of raw cells (strings from a file, or Python
    objects) or a numpy array; ``locate(i)`` says where cell ``i`` is. When
    every cell is a plain number written with ``0-9 . e E + -`` (or a float
    or int already), one numpy conversion reads them all; otherwise the
    cells are read one by one, which finds and names the first bad one.
    """
    n = len(cells)
    if isinstance(cells, ByteColumn):
        values, ok = cells.floats(ord(",") if decimal_comma else ord("."))
        # empty cells are missing (NaN), not bad; the usual all-numbers column needs no look
        bad = np.zeros(0, dtype=np.intp) if ok.all() else np.flatnonzero(~ok & cells.nonempty())
        if bad.size:
            # exponents, long mantissas, words: numpy's conversion, else one by one
            sub = cells.take(bad)
            got = None
            if not decimal_comma:
                got = _plain_numbers(sub)
            if got is None:
                got = np.array(
                    [
                        parse_cell(c, decimal_comma, lambda i=i: locate(i))
                        for i, c in zip(bad.tolist(), sub.tolist(), strict=True)
                    ]
                )
            values[bad] = got
        return values
    values = None
    if n and decimal_comma and isinstance(cells, np.ndarray) and cells.dtype.kind == "S":
        codes = np.ascontiguousarray(cells).view(np.uint8)
        if not (codes == ord(".")).any():
            # "0,763" -> "0.763"; a cell with a point as well goes the slow way, which names it
            swapped = np.where(codes == ord(","), np.uint8(ord(".")), codes)
            values = _plain_numbers(swapped.view(cells.dtype))
    elif n and not decimal_comma:
        if isinstance(cells, np.ndarray) and cells.dtype.kind == "S":
            values = _plain_numbers(cells)
        elif all(type(c) is str for c in cells):
            try:
                arr = np.array(cells, dtype="S")
            except UnicodeEncodeError:
                arr = None
            if arr is not None:
                values = _plain_numbers(arr)
        elif all(type(c) is float for c in cells):
            values = np.array(cells, dtype=float)
            if np.isinf(values).any():
                values = None
    if values is not None:
        return values
    values = np.empty(n)
    for i, c in enumerate(cells):
        values[i] = parse_cell(c, decimal_comma, lambda i=i: locate(i))
    return values


_PLAIN = np.zeros(256, dtype=bool)
_PLAIN[[ord(c) for c in "0123456789.eE+-"]] = True
_PLAIN[0] = True  # the padding of numpy's fixed-width strings


def _plain_numbers(arr: np.ndarray) -> np.ndarray | None:
    """Floats of a fixed-width bytes array of plain numbers, or None if one is not plain."""
    arr = np.ascontiguousarray(arr)
    if arr.dtype.itemsize == 0:
        return np.full(arr.shape, np.nan)
    if not _PLAIN[arr.view(np.uint8)].all():
        return None
    empty = arr == b""
    if empty.any():
        arr = arr.copy()
        arr[empty] = b"nan"
    try:
        values = arr.astype(float)
    except ValueError:
        return None  # something like "1e" or "+-": the slow path names it
    if np.isinf(values).any():
        return None
    return values
