"""Splitting a plain delimited file into columns with numpy, without a Python loop per cell.

Most score files are plain: no quotes, one delimiter between cells, the
same number of cells on every line, no spaces around cells.  For those the
whole table is split at once on the bytes (newlines and delimiters found by
vectorised comparisons), and each column becomes a fixed-width bytes array
that numpy converts to floats or to integer codes in one step.  Anything
else (quotes, ragged rows, blank lines inside the table, padded cells) makes
:func:`split_columns` return ``None`` and the csv module reads the file,
cell by cell, with its precise messages.  UTF-8 is safe to split on bytes:
its multi-byte characters never contain the delimiter or newline bytes.
"""

from __future__ import annotations

import numpy as np

__all__ = ["split_columns"]

# Positions are found in blocks of this many bytes, to keep the boolean
# temporaries small on files of hundreds of megabytes.
_BLOCK = 1 << 24


def _positions(buf: np.ndarray, byte: int) -> np.ndarray:
    out = []
    for a in range(0, len(buf), _BLOCK):
        out.append(np.flatnonzero(buf[a : a + _BLOCK] == byte) + a)
    return np.concatenate(out) if out else np.zeros(0, dtype=np.intp)


def _gather(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The cells ``buf[starts[i]:ends[i]]`` as one fixed-width bytes array."""
    lens = ends - starts
    width = int(lens.max()) if len(lens) else 0
    if width == 0:
        return np.zeros(len(starts), dtype="S1")
    mat = np.zeros((len(starts), width), dtype=np.uint8)
    last = len(buf) - 1
    for k in range(width):
        ok = lens > k
        mat[:, k] = np.where(ok, buf[np.minimum(starts + k, last)], 0)
    return mat.view(f"S{width}").ravel()


def split_columns(raw: bytes, start: int, delimiter: str):
    """Split the table that begins at byte ``start`` (its header line) into columns.

    Returns ``(header_bytes, columns, n_rows)`` where ``columns`` is a list
    of fixed-width bytes arrays, one per column (cells without their
    padding), or ``None`` when the file is not plain enough for this path.
    Line ends must be ``\n`` (the caller turns ``\r\n`` into ``\n``).
    """
    if len(delimiter.encode()) != 1 or raw.find(b'"', start) >= 0 or raw.find(b"\r", start) >= 0:
        return None
    buf = np.frombuffer(raw, dtype=np.uint8)[start:]
    d = ord(delimiter)
    nl = _positions(buf, 10)
    # drop blank lines at the end of the file; blank lines inside go the slow way
    n = len(buf)
    while n and buf[n - 1] == 10:
        n -= 1
    nl = nl[nl < n]
    line_starts = np.r_[0, nl + 1]
    line_ends = np.r_[nl, n]
    if len(line_starts) < 2 or np.any(line_ends == line_starts):
        return None
    dl = _positions(buf[:n], d)
    width = int(np.searchsorted(dl, line_ends[0])) + 1
    if width < 2:
        return None
    per_line = np.diff(np.searchsorted(dl, np.r_[line_starts, n]))
    if np.any(per_line != width - 1):
        return None
    n_rows = len(line_starts) - 1
    inner = dl[width - 1 :].reshape(n_rows, width - 1)
    starts = np.empty((n_rows, width), dtype=np.intp)
    ends = np.empty((n_rows, width), dtype=np.intp)
    starts[:, 0] = line_starts[1:]
    starts[:, 1:] = inner + 1
    ends[:, :-1] = inner
    ends[:, -1] = line_ends[1:]
    # cells padded with spaces or tabs need stripping: the csv path does that
    nonempty = ends > starts
    for edge in (buf[np.minimum(starts, n - 1)], buf[np.maximum(ends - 1, 0)]):
        if np.any(nonempty & ((edge == 32) | (edge == 9))):
            return None
    header = bytes(buf[: line_ends[0]])
    if header.endswith(delimiter.encode()):
        return None  # a trailing empty column (spreadsheet export): the csv path trims it
    columns = [_gather(buf, starts[:, j], ends[:, j]) for j in range(width)]
    return header, columns, n_rows
