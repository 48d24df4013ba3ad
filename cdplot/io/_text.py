"""Opening files of scores, decoding them, finding the delimiter and the header.

One function opens every input file (:func:`read_bytes`): it refuses what is
not a regular file, a file over the size limit, spreadsheets and binary
tables, and names symlink loops and permissions as such.  One sniffer
(:func:`sniff`) picks the delimiter for every delimited reader, and
:func:`find_header` decides which leading ``#`` lines are comments.
"""

from __future__ import annotations

import codecs
import csv
import errno
import hashlib
import mmap
import os
import re
import stat
import threading

import numpy as np

from .._docstrings import share
from .._options import MAX_BYTES
from ..errors import CdplotError, opt
from ._checks import NUMBER_RE, Where, check_sep
from ._fast import ByteColumn, split_columns
from ._types import PathLike

__all__ = [
    "MAX_BYTES",
    "read_bytes",
    "read_text",
    "decode",
    "sniff",
    "find_header",
    "csv_rows",
    "check_max_bytes",
    "split_table",
    "texts",
    "as_bytes",
    "check_utf8",
    "is_ascii",
    "is_blank",
]

# Spreadsheet and binary formats are not parsed; their users are told how to
# get a CSV instead of seeing a decoding error.
_SPREADSHEETS = (".xlsx", ".xlsm", ".xlsb", ".xls", ".ods", ".numbers")
_BINARY_TABLES = (".parquet", ".feather", ".arrow", ".pkl", ".pickle", ".h5", ".hdf5")
DELIMITERS = (",", ";", "\t", "|")
_SNIFF_ROWS = 50
_LOOSE_NUMBER_RE = re.compile(NUMBER_RE.pattern.replace(r"\.", "[.,]"))


def check_max_bytes(max_bytes) -> int:
    """Return ``max_bytes`` as a positive int, else raise naming the option."""
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
        raise CdplotError(
            f"option {opt('max_bytes', max_bytes)} must be a positive whole number of bytes",
            option="max_bytes",
        )
    return max_bytes


def _validate_path(path) -> str:
    # bytes too: a file name is bytes, and not every one decodes (os.fsdecode keeps them)
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise CdplotError(f"expected a file name, got {type(path).__name__} {path!r}")
    fsname = os.fsdecode(path)
    if fsname == "":
        raise CdplotError("the file name is empty")
    name = display_name(fsname)
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
    return fsname


_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def display_name(name: str) -> str:
    """``name`` as text that every output can hold: bytes that are not UTF-8 as ``\\xe9``.

    A file name is bytes; Python carries the bytes it cannot decode (a Latin-1
    ``résultats.csv`` on a UTF-8 system) as lone surrogates, which open the file
    but cannot be written to a UTF-8 report, table or terminal.  The file is
    opened by its real name; messages and ``ScoreTable.source`` show this one.
    """
    if _SURROGATE_RE.search(name) is None:
        return name
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def _stat(fsname: str, name: str) -> os.stat_result:
    try:
        return os.stat(fsname)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise CdplotError(
                f"{name}: a loop of symbolic links (too many levels); fix the link"
            ) from None
        if e.errno == errno.ENOENT:
            if os.path.islink(fsname):
                target = display_name(os.readlink(fsname))
                raise CdplotError(
                    f"{name}: is a symbolic link to {target!r}, which does not exist"
                ) from None
            raise CdplotError(f"{name}: no such file") from None
        if e.errno == errno.ENAMETOOLONG:
            raise CdplotError(f"{name[:60]}...: the file name is too long") from None
        raise CdplotError(f"{name}: cannot be read ({e.strerror or e})") from None


# Below this size a file is hashed at once; above it, in a thread while it is parsed.
_HASH_IN_THREAD = 1 << 22


class _Sha256:
    """The hex SHA-256 of ``raw``, computed beside the caller's work.

    hashlib releases the GIL on large buffers, so on a machine with a second
    core a big file is hashed while numpy parses it (0.2 s per 100 MB).
    """

    def __init__(self, raw: bytes):
        self._value = None
        if len(raw) < _HASH_IN_THREAD:
            self._value = hashlib.sha256(raw).hexdigest()
            self._thread = None
            return
        self._thread = threading.Thread(target=self._run, args=(raw,), daemon=True)
        self._thread.start()

    def _run(self, raw: bytes) -> None:
        self._value = hashlib.sha256(raw).hexdigest()

    def result(self) -> str:
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        return self._value


# Files at least this large are mapped (``mapped=True``) rather than copied.
_MAP_MIN = 1 << 20


def _map(fsname: str, name: str, max_bytes: int):
    """A read-only memory map of the file, or None where the system refuses one."""
    try:
        with open(fsname, "rb") as f:
            raw = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError, OverflowError):
        return None  # some file systems cannot map files: read them instead
    if len(raw) > max_bytes:  # grown since stat
        raw.close()
        raise CdplotError(
            f"{name}: the file has more than {max_bytes:,} bytes, the limit; raise it with "
            f"{opt('max_bytes')} if the file is right",
            option="max_bytes",
        )
    return raw


def read_bytes(path, *, max_bytes=MAX_BYTES, allow_dir=False, hash_later=False, mapped=False):
    """Open ``path`` with every check; return ``(name, raw bytes, sha256)``.

    With ``allow_dir`` a directory returns ``(name, None, None)`` for the
    caller to read as a results folder.  With ``hash_later`` the digest is an
    object whose ``result()`` gives the hex string, computed meanwhile.  With
    ``mapped`` a file of 1 MiB or more comes as a read-only :class:`mmap.mmap`
    (a buffer with ``find`` and slices; :func:`as_bytes` copies it): the page
    cache is read in place, where a copy cost 0.2 s of CPU time per 150 MB,
    most of it the kernel faulting in 37,000 fresh pages.  A file truncated
    by another program while it is mapped ends the process (SIGBUS), as
    with every memory-mapped reader.
    """
    if _is_stream(path):
        return _read_stream(path, max_bytes, hash_later)
    fsname = _validate_path(path)
    # the file is opened by its real name, and named by one every output can hold
    name = display_name(fsname)
    st = _stat(fsname, name)
    if stat.S_ISDIR(st.st_mode):
        if allow_dir:
            return fsname, None, None
        raise CdplotError(f"{name}: is a directory, not a file of scores")
    if not stat.S_ISREG(st.st_mode):
        kind = (
            "a FIFO (named pipe)"
            if stat.S_ISFIFO(st.st_mode)
            else "a device"
            if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
            else "a socket"
            if stat.S_ISSOCK(st.st_mode)
            else "not a regular file"
        )
        raise CdplotError(f"{name}: is {kind}; give a regular file of scores")
    if st.st_size > max_bytes:
        raise CdplotError(
            f"{name}: the file has {st.st_size:,} bytes, more than the limit of {max_bytes:,}; "
            f"raise it with {opt('max_bytes')} if the file is right",
            option="max_bytes",
        )
    raw = _map(fsname, name, max_bytes) if mapped and st.st_size >= _MAP_MIN else None
    if raw is not None:
        digest = _Sha256(raw)
        return name, raw, digest if hash_later else digest.result()
    try:
        with open(fsname, "rb") as f:
            # read one byte past the size (the file may have grown since stat), and
            # never ask for more than the limit allows: read() allocates what it is asked
            raw = f.read(min(max_bytes, st.st_size) + 1)
            if len(raw) > st.st_size and len(raw) <= max_bytes:
                raw += f.read(max_bytes + 1 - len(raw))
    except OSError as e:
        raise CdplotError(f"{name}: cannot be read ({e.strerror or e})") from None
    if len(raw) > max_bytes:
        raise CdplotError(
            f"{name}: the file has more than {max_bytes:,} bytes, the limit; raise it with "
            f"{opt('max_bytes')} if the file is right",
            option="max_bytes",
        )
    digest = _Sha256(raw)
    return name, raw, digest if hash_later else digest.result()


_STREAM_CHUNK = 1 << 20


def _is_stream(path) -> bool:
    """Whether ``path`` is an open binary file (``sys.stdin.buffer``, ``io.BytesIO``)."""
    return callable(getattr(path, "read", None)) and not isinstance(path, (str, bytes))


def _read_stream(stream, max_bytes: int, hash_later: bool):
    """``(name, raw bytes, sha256)`` of an open binary stream, read to its end.

    A pipe has no size to check beforehand: at most one byte past the limit is
    read, so that a stream that never ends (``yes |``) is refused without
    filling the memory.  The name is the stream's own (``<stdin>``), else
    ``<stream>``.
    """
    name = getattr(stream, "name", None)
    name = display_name(name) if isinstance(name, str) else "<stream>"
    chunks, size = [], 0
    try:
        # in pieces: read(n) of a buffered pipe allocates n bytes at once, 1 GiB by default
        while size <= max_bytes:
            chunk = stream.read(min(_STREAM_CHUNK, max_bytes + 1 - size))
            if isinstance(chunk, str):
                raise CdplotError(
                    f"{name}: is a text stream; pass its binary buffer (sys.stdin.buffer)"
                )
            if not chunk:
                break
            chunks.append(bytes(chunk))
            size += len(chunk)
    except OSError as e:
        raise CdplotError(f"{name}: cannot be read ({e.strerror or e})") from None
    raw = b"".join(chunks)
    if len(raw) > max_bytes:
        raise CdplotError(
            f"{name}: the input has more than {max_bytes:,} bytes, the limit; raise it with "
            f"{opt('max_bytes')} if the input is right",
            option="max_bytes",
        )
    digest = _Sha256(raw)
    return name, raw, digest if hash_later else digest.result()


@share
def read_text(path: PathLike, *, max_bytes: int = MAX_BYTES) -> tuple[str, str, str]:
    """Read a text file of scores with the reader's checks and messages.

    Parameters
    ----------
    path : str or path-like
        The file.
    %(max_bytes)s
        The message says how to raise the limit.

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
        A missing file, a symlink loop, a directory, a FIFO or device, a file over the
        size limit, a spreadsheet, unreadable or non-UTF-8 bytes.
    """
    name, raw, digest = read_bytes(path, max_bytes=check_max_bytes(max_bytes))
    return name, decode(raw, name), digest


def as_bytes(raw) -> bytes:
    """``raw`` as ``bytes`` (a copy of a memory map)."""
    return raw if isinstance(raw, bytes) else bytes(raw)


def is_ascii(raw) -> bool:
    """Whether every byte of ``raw`` (bytes or a memory map) is ASCII."""
    if isinstance(raw, bytes):
        return raw.isascii()
    return len(raw) == 0 or int(np.frombuffer(raw, dtype=np.uint8).max()) < 128


def is_blank(raw) -> bool:
    """Whether ``raw`` holds only white space (or nothing)."""
    return len(raw) == 0 or (raw[: 1 << 16].isspace() and as_bytes(raw).isspace())


_BOM = b"\xef\xbb\xbf"


def check_utf8(raw, name: str) -> None:
    """Raise :func:`decode`'s message unless ``raw`` is UTF-8 text; builds no text.

    For large files, which :func:`decode` would turn into a string as large
    again: the bytes are decoded 1 MiB at a time and the text dropped.
    """
    decoder = codecs.getincrementaldecoder("utf-8")()
    step = 1 << 20
    try:
        _check_head(raw, name)
        for a in range(0, len(raw), step):
            decoder.decode(raw[a : a + step], a + step >= len(raw))
    except UnicodeDecodeError:
        decode(raw, name)  # names the row of the bad byte
        raise


def decode(raw: bytes, name: str) -> str:
    """UTF-8 text of ``raw`` (bytes or a memory map, decoded in place), or a message naming
    the encoding problem and the row."""
    _check_head(raw, name)
    try:
        # utf-8-sig drops the byte-order mark Excel writes
        return str(raw, "utf-8-sig")  # any buffer: a memory map is not copied first
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        bad = raw[e.start : e.start + 1]
        raise CdplotError(
            f"{name}, row {line}: byte {bad!r} is not UTF-8; save the file as UTF-8"
        ) from None


def _check_head(raw, name: str) -> None:
    """UTF-16 (with or without a byte-order mark) and NUL bytes, named from the first 4 KiB."""
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise CdplotError(f"{name}: the file is UTF-16; save it as UTF-8")
    head = raw[:4096]
    if b"\x00" in head:
        # ASCII text saved as UTF-16 has a NUL byte beside every character
        zeros = head.count(b"\x00")
        if zeros * 3 >= len(head):
            raise CdplotError(
                f"{name}: the file looks like UTF-16 without a byte-order mark (every other "
                f"byte is NUL); save it as UTF-8"
            )
        line = head[: head.index(b"\x00")].count(b"\n") + 1
        raise CdplotError(f"{name}, row {line}: holds a NUL byte; this is not a text file")


def csv_rows(lines, delimiter, name, first_line=1):
    """Rows of stripped cells, each with its line number; blank rows are skipped.

    Fields over the csv module's limit (128 KB) and other csv errors are
    one-line messages naming the row.
    """
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
        msg = str(e)
        if "field larger than field limit" in msg:
            msg = f"a field is longer than {csv.field_size_limit():,} characters ({msg})"
        raise CdplotError(f"{name}, row {first_line + consumed}: {msg}") from None
    return rows, numbers


def sniff(lines, ext="") -> str:
    """Pick the delimiter that splits the header and the first rows alike."""
    number = _LOOSE_NUMBER_RE
    sample = lines[: _SNIFF_ROWS + 1]
    best, best_key = ",", None
    for rank, d in enumerate(DELIMITERS):
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
        numeric = sum(bool(number.match(c)) for c in cells) / max(len(cells), 1)
        preferred = (d == "\t") if ext in (".tsv", ".tab") else (d == ",")
        key = (agree, numeric, preferred, width, -rank)
        if best_key is None or key > best_key:
            best, best_key = d, key
    return best


def _split(line, delimiter):
    try:
        return [c.strip() for c in next(csv.reader([line], delimiter=delimiter), [])]
    except csv.Error:
        return []


def find_header(lines, ext=""):
    """Split leading comments from the table.

    Returns ``(index of the header line, delimiter, header_from_comment)``.
    Lines starting with ``#`` before the header are comments, except the
    last one when it splits into as many cells as the line after it and
    that line holds numbers: then the ``#`` line is the header
    (``#dataset,A,B`` or ``# ,A,B``), and the first data row is not lost.
    """
    i = 0
    while i < len(lines) and (not lines[i].strip() or lines[i].lstrip().startswith("#")):
        i += 1
    delimiter = sniff(lines[i:], ext)
    if i == 0 or i >= len(lines):
        return i, delimiter, False
    j = i - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    if j < 0 or not lines[j].lstrip().startswith("#"):
        return i, delimiter, False
    candidate = _split(lines[j], delimiter)
    following = _split(lines[i], delimiter)
    if len(candidate) >= 2 and len(candidate) == len(following):
        number = _LOOSE_NUMBER_RE
        data_like = sum(bool(number.match(c)) for c in following[1:]) >= max(
            1, (len(following) - 1) // 2 + 1
        )
        header_like = not any(number.match(c) for c in candidate[1:] if c)
        if data_like and header_like:
            return j, delimiter, True
    return i, delimiter, False


# Leading lines decoded to find the header; the rest of a plain file stays bytes.
_HEAD_BYTES = 1 << 16


def split_table(raw: bytes, name: str, sep=None):
    """Header, columns and row locator of a delimited file, fast when it is plain.

    Returns ``(header, columns, where, header_line, delimiter, notes)``:
    ``columns`` are fixed-width bytes arrays (fast path) or lists of
    stripped strings (csv path); ``where.row(i)`` gives the line of data row
    ``i``.  Used by every delimited reader (score tables, per-fold scores,
    predictions).
    """
    sep = check_sep(sep)
    if raw.find(b"\r") >= 0:
        raw = as_bytes(raw).replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    # a UTF-8 byte-order mark (Excel) is skipped; decode() drops it on the csv path
    bom = len(_BOM) if raw[: len(_BOM)] == _BOM else 0
    head = raw[bom : bom + _HEAD_BYTES]
    head_lines = head.split(b"\n")
    if len(head) == _HEAD_BYTES:
        head_lines = head_lines[:-1]  # the last one may be cut
    lines = [b.decode("utf-8", "replace") + "\n" for b in head_lines]
    ext = os.path.splitext(name)[1].lower()
    h, delimiter, from_comment = find_header(lines, ext)
    if h >= len(lines):
        if len(head) < _HEAD_BYTES:
            raise CdplotError(f"{name}: the file has only comments")
        return _split_slow(decode(raw, name), name, sep, ext)
    if sep is None and _aligned(lines[h:]):
        return _split_aligned(decode(raw, name), name, h, from_comment)
    delimiter = sep or delimiter
    notes = []
    header_line = h + 1
    offset = bom + sum(len(b) + 1 for b in head_lines[:h])
    if from_comment:
        notes.append(
            f"took the '#' line {header_line} as the header, since the line after it holds scores"
        )
    fast = split_columns(raw, offset, delimiter)
    if fast is None:
        return _split_slow(decode(raw, name), name, sep, ext, forced=(h, delimiter, from_comment))
    header_bytes, columns, n_rows = fast
    header = _header_cells(header_bytes.decode("utf-8"), delimiter, from_comment)
    first = header_line + 1
    where = Where(name, lambda i: f"row {first + i}")
    return header, columns, where, header_line, delimiter, notes


def _header_cells(line, delimiter, from_comment):
    cells = [c.strip() for c in next(csv.reader([line], delimiter=delimiter))]
    if from_comment:
        cells[0] = cells[0].lstrip("#").strip()
    return cells


def _split_slow(text, name, sep, ext, forced=None):
    lines = [line + "\n" for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    if forced is None:
        h, delimiter, from_comment = find_header(lines, ext)
    else:
        h, delimiter, from_comment = forced
    delimiter = sep or delimiter
    notes = []
    if from_comment:
        notes.append(
            f"took the '#' line {h + 1} as the header, since the line after it holds scores"
        )
        lines = list(lines)
        lines[h] = lines[h].lstrip().lstrip("#")
    rows, numbers = csv_rows(lines[h:], delimiter, name, first_line=h + 1)
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
    columns = [[r[j] for r in rows] for j in range(width)]
    where = Where(name, lambda i: f"row {numbers[i]}")
    return header, columns, where, header_line, delimiter, notes


# A line of these characters only rules a printed table ("------", "=== ===").
_RULE_RE = re.compile(r"^[\s\-=+_~*|:]+$")


def _aligned(lines) -> bool:
    """Whether the table is columns aligned by spaces (R's print, papers' text files).

    True when the header and the first rows hold none of the delimiters
    (``,``, ``;``, tab, ``|``) and split at spaces into two or more cells.
    """
    rows = [ln for ln in lines[: _SNIFF_ROWS + 1] if ln.strip() and not _RULE_RE.match(ln)]
    if len(rows) < 2 or any(d in ln for ln in rows for d in DELIMITERS):
        return False
    return all(len(ln.split()) >= 2 for ln in rows[:2])


def _split_aligned(text, name, h, from_comment):
    """Header, columns and row locator of a whitespace-aligned table.

    Cells are separated by runs of spaces (quoted names may hold spaces, as
    R's ``write.table`` writes them); rule lines are skipped.  A header one
    cell shorter than the rows is R's: the row names have no header.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if from_comment:
        lines[h] = lines[h].lstrip().lstrip("#")
    notes = ["read a table aligned by spaces"]
    rows, numbers = [], []
    ruled = 0
    for i in range(h, len(lines)):
        line = lines[i].strip()
        if not line:
            continue
        if _RULE_RE.match(line):
            ruled += 1
            continue
        try:
            cells = next(csv.reader([line], delimiter=" ", skipinitialspace=True))
        except csv.Error as e:
            raise CdplotError(f"{name}, row {i + 1}: {e}") from None
        rows.append([c.strip() for c in cells])
        numbers.append(i + 1)
    if ruled:
        notes.append(f"skipped {ruled} rule {'line' if ruled == 1 else 'lines'} ('----')")
    header, header_line = rows[0], numbers[0]
    rows, numbers = rows[1:], numbers[1:]
    if not rows:
        raise CdplotError(f"{name}, row {header_line}: there is a header but no rows of scores")
    if all(len(r) == len(header) + 1 for r in rows):
        header = ["", *header]  # R prints no header over the row names
    width = len(header)
    for r, line in zip(rows, numbers, strict=True):
        if len(r) != width:
            raise CdplotError(
                f"{name}, row {line} has {len(r)} {'cell' if len(r) == 1 else 'cells'}, "
                f"the header (row {header_line}) has {width}; cells are separated by spaces, "
                f"so a name with a space must be quoted"
            )
    columns = [[r[j] for r in rows] for j in range(width)]
    where = Where(name, lambda i: f"row {numbers[i]}")
    return header, columns, where, header_line, " ", notes


def texts(col):
    """The cells of a column as stripped strings."""
    if isinstance(col, ByteColumn):
        col = col.strings()
    if isinstance(col, np.ndarray):
        return [c.decode("utf-8").strip() for c in col.tolist()]
    return list(col)
