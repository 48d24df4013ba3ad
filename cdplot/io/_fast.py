"""Splitting a plain delimited file into columns with numpy, without a Python loop per cell.

Most score files are plain: no quotes, one delimiter between cells, the
same number of cells on every line, no spaces around cells.  For those the
positions of every newline and delimiter are found at once on the bytes,
and each column (:class:`ByteColumn`) is read in blocks of rows: a cell is
read as little-endian 64-bit words, numbers are assembled from their digits
(exactly as ``float()`` would round them), names become integer codes.
Memory stays a small multiple of the file.  Anything else (quotes, ragged
rows, blank lines inside the table, padded cells) makes
:func:`split_columns` return ``None`` and the csv module reads the file,
cell by cell, with its precise messages.  UTF-8 is safe to split on bytes:
its multi-byte characters never contain the delimiter or newline bytes.
"""

from __future__ import annotations

import mmap

import numpy as np

__all__ = ["ByteColumn", "block_floats", "read_columns", "split_columns"]

# Separators are found in blocks of this many bytes (1 MiB: the temporaries stay in
# the CPU cache), and columns read in blocks of this many rows, to keep temporaries
# small on files of hundreds of megabytes.
_BLOCK = 1 << 20
_ROWS = 1 << 19
_MASKS = np.array([(1 << (8 * i)) - 1 for i in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
# 10**f is exact in binary64 for f <= 22, and so is every integer below 2**53:
# the quotient of two such numbers is correctly rounded (Clinger's fast path), that
# is, the very float that float(text) gives.
_POW10 = 10.0 ** np.arange(23)
_MAX_DIGITS = 15
# the csv module's default field limit; longer lines go its way so that a field
# over the limit is refused the same way on both paths
_MAX_LINE = 131_072


class _Pages:
    """Lets the pages of a memory-mapped file go once a pass over them has read them.

    A mapped file's pages count in the process's resident memory (143 MiB for
    a file of 5,000,000 long rows) for as long as they stay mapped.  Dropped
    (``MADV_DONTNEED``), they stay in the system's page cache and come back,
    unchanged, the next time a byte of them is read: the next pass over the
    file costs one page fault per 16 pages again (about 15 ms per 150 MB), and
    the peak memory of a long file no longer holds the whole file beside the
    separators, codes and scores read from it.  Bytes (not a mapping) are
    left alone.
    """

    def __init__(self, raw, start: int):
        usable = isinstance(raw, mmap.mmap) and hasattr(mmap, "MADV_DONTNEED")
        self.map = raw if usable else None
        self.start = start

    def release(self, lo: int, hi: int) -> None:
        """Drop the whole pages between buffer offsets ``lo`` and ``hi``."""
        if self.map is None:
            return
        page = mmap.PAGESIZE
        a = -(-(self.start + lo) // page) * page
        b = (self.start + hi) // page * page
        if b > a:
            self.map.madvise(mmap.MADV_DONTNEED, a, b - a)


def _count_separators(buf: np.ndarray, delimiter: int):
    """Separators (delimiters and newlines) per block of ``buf``, the newlines, and plainness.

    ``plain`` is True when no byte below 35 other than a separator occurs:
    then the file has no quote, carriage return, space, tab or control
    character, and :func:`split_columns` need not look for them one by one
    (four more scans of the whole file).
    """
    is_nl = np.empty(min(_BLOCK, len(buf)), dtype=bool)
    is_delim = np.empty_like(is_nl)
    low = np.empty_like(is_nl)
    counts, newlines, others = [], 0, 0
    for a in range(0, len(buf), _BLOCK):
        block = buf[a : a + _BLOCK]
        nl, dl, lo = is_nl[: len(block)], is_delim[: len(block)], low[: len(block)]
        np.equal(block, 10, out=nl)
        np.equal(block, delimiter, out=dl)
        np.less(block, 35, out=lo)
        c = int(np.count_nonzero(nl))
        d = int(np.count_nonzero(dl))
        newlines += c
        counts.append(c + d)
        others += int(np.count_nonzero(lo)) - c - (d if delimiter < 35 else 0)
    return counts, newlines, others == 0


def _separators(buf: np.ndarray, delimiter: int, counts, width=0, pages: _Pages | None = None):
    """Offsets of every delimiter and newline in ``buf``, then ``len(buf)``; and alignment.

    ``aligned`` says whether every newline is separator ``r * width - 1`` for
    some r (with ``width`` 0, True): with as many newlines as lines and
    ``width`` separators a line, every line then holds ``width - 1``
    delimiters.  Checked here, while each block is in the CPU cache, rather
    than by reading the byte at every line's end afterwards, a second pass
    over the file that brought back every page just let go.

    One scan for both bytes (rather than one per byte), int32 offsets when the
    buffer allows.  The separators are counted first (:func:`_count_separators`)
    so that their offsets are written once into one array: building the array
    from per-block pieces wrote every offset twice and touched twice the
    fresh memory, and page faults on fresh memory cost as much CPU time as
    the scan itself (about 12 us each on the 2-core virtual machine measured).
    """
    kind = np.int32 if len(buf) < 2**31 - 1 else np.int64
    is_nl = np.empty(min(_BLOCK, len(buf)), dtype=bool)
    is_delim = np.empty_like(is_nl)
    out = np.empty(sum(counts) + 1, dtype=kind)
    pos, aligned = 0, True
    for a, c in zip(range(0, len(buf), _BLOCK), counts, strict=True):
        block = buf[a : a + _BLOCK]
        nl, dl = is_nl[: len(block)], is_delim[: len(block)]
        np.equal(block, 10, out=nl)
        np.equal(block, delimiter, out=dl)
        dl |= nl
        at = np.flatnonzero(dl)
        np.add(at, a, out=out[pos : pos + c], casting="unsafe")
        if width and aligned:
            # the block's separators numbered r * width - 1 are all newlines, and there
            # are no other newlines: a strided gather rather than a look at every one
            slots = at[(width - 1 - pos) % width :: width]
            aligned = len(slots) == np.count_nonzero(nl) and bool(nl[slots].all())
        pos += c
        if pages is not None:
            # the offsets grow while the file's pages go: the two never add up
            pages.release(a, a + len(block))
    # the end of the buffer closes the last line like a newline
    out[-1] = len(buf)
    return out, aligned


def _words(buf: np.ndarray, starts: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """Each cell as little-endian 64-bit words, shape (cells, words), zero beyond the cell.

    One unaligned read of the column's whole width per cell (a fancy index on a
    stride-1 view of ``V{8 * words}`` items costs no more per cell than one word
    does), then one mask per cell from a table indexed by the cell's length.
    Two cells are equal exactly when their words and lengths are.  ``starts``
    must be ascending (the cells of one column are), so only the last cells
    can reach past the buffer's end.
    """
    n = len(starts)
    width = int(lens.max()) if n else 0
    n_words = max(1, -(-width // 8))
    size = 8 * n_words
    out = np.empty((n, n_words), dtype="<u8")
    m = len(buf) - size + 1
    if n and int(starts[-1]) < m:
        safe = n  # every block but the file's last: no search needed
    elif m > 0:
        # the bound in the offsets' own type: a Python int made numpy copy them to int64
        safe = int(np.searchsorted(starts, np.asarray(m, dtype=starts.dtype), side="left"))
    else:
        safe = 0
    if safe:
        view = np.ndarray(shape=(m,), dtype=f"V{size}", buffer=buf, strides=(1,))
        out.view(f"V{size}")[:safe, 0] = view[starts[:safe]]
    for i in range(safe, n):  # cells near the end of the buffer, byte by byte
        a = int(starts[i])
        cell = bytes(buf[a : a + min(int(lens[i]), size)]).ljust(size, b"\0")
        out[i] = np.frombuffer(cell, dtype="<u8")
    if n and int(lens.min()) < size:
        # zero the bytes beyond each cell's end: mask k of a cell of length L keeps
        # clip(L - 8 k, 0, 8) bytes of word k
        keep = np.clip(np.arange(width + 1)[:, None] - 8 * np.arange(n_words), 0, 8)
        # one item of `size` bytes per length: a gather of whole rows, which numpy
        # does far faster than rows of a 2-D table
        masks = np.ascontiguousarray(_MASKS[keep], dtype="<u8").view(f"V{size}").ravel()
        if int(lens.min()) == width:
            # cells of one length (scores written with a fixed number of decimals,
            # names numbered from 1000): one mask for all, no gather per cell
            out &= masks[width : width + 1].view("<u8")
        else:
            out &= masks[lens].view("<u8").reshape(n, n_words)
    return out


def _byte(words: np.ndarray, k: int) -> np.ndarray:
    """Byte ``k`` of every cell (0 beyond its end), a read-only strided view."""
    # '<u8' words hold their bytes in cell order on every machine
    return words.view(np.uint8)[:, k]


def _strings(words: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(words).view(f"S{8 * words.shape[1]}").ravel()


def _floats(words, lens, point):
    """``(values, ok, has_point)`` of cells ``[+-]digits[.digits]`` of at most 15 digits."""
    n = len(lens)
    width = int(lens.max()) if n else 0
    if n and width <= _MAX_DIGITS + 1 and np.all(lens == width):
        uniform = _uniform_floats(words, width, point, n)
        if uniform is not None:
            return uniform
    mant = np.zeros(n, dtype=np.int64)
    digits = np.zeros(n, dtype=np.int64)
    frac = np.zeros(n, dtype=np.int64)
    dot = np.zeros(n, dtype=bool)
    neg = np.zeros(n, dtype=bool)
    ok = lens > 0
    for k in range(width):
        active = lens > k
        c = _byte(words, k)
        d = c.astype(np.int64) - 48
        is_digit = active & (d >= 0) & (d <= 9)
        np.copyto(mant, mant * 10 + d, where=is_digit & (digits < _MAX_DIGITS + 1))
        digits += is_digit
        frac += is_digit & dot
        is_point = active & (c == point)
        ok &= ~(is_point & dot)
        dot |= is_point
        other = active & ~is_digit & ~is_point
        if k == 0:
            neg = active & (c == 45)
            other &= ~(neg | (c == 43))
        ok &= ~other
    ok &= (digits > 0) & (digits <= _MAX_DIGITS)
    values = np.full(n, np.nan)
    values[ok] = mant[ok] / _POW10[frac[ok]]
    np.negative(values, out=values, where=neg & ok)
    return values, ok, dot


def _uniform_floats(words, width, point, n):
    """Every cell ``d.ddd`` of one length and layout: no per-cell branching at all."""
    first = [int(_byte(words[:1], k)[0]) for k in range(width)]
    dots = [k for k in range(width) if first[k] == point]
    if len(dots) > 1 or len(dots) == width:
        return None
    if dots and not np.all(_byte(words, dots[0]) == point):
        return None
    mant = np.zeros(n, dtype=np.int64)
    for k in range(width):
        if dots and k == dots[0]:
            continue
        d = _byte(words, k) - np.uint8(48)  # bytes below '0' wrap round to over 9
        if np.any(d > 9):
            return None
        mant *= 10
        mant += d
    frac = width - 1 - dots[0] if dots else 0
    return mant / _POW10[frac], np.ones(n, dtype=bool), np.full(n, bool(dots))


def _two_digit_table() -> np.ndarray:
    """Value of each cell ``0`` to ``99`` by its first two bytes read as a number, else -1."""
    table = np.full(1 << 16, -1, dtype=np.intp)
    for v in range(100):
        table[int.from_bytes(str(v).encode().ljust(2, b"\0"), "little")] = v
    return table


_TWO_DIGITS = _two_digit_table()


def _integers(words, lens):
    """Values of plain non-negative integers without leading zeros, else None."""
    n = len(lens)
    if n == 0 or int(lens.min()) < 1:
        return None
    longest = int(lens.max())
    if longest > 18:
        return None
    if longest <= 2:
        # folds and resamples: one look-up of the cell's two bytes (zero beyond its end)
        values = _TWO_DIGITS[words.view("<u2")[:, 0]]
        return None if int(values.min()) < 0 else values
    if np.any((lens > 1) & (_byte(words, 0) == 48)):
        return None
    values = np.zeros(n, dtype=np.int64)
    for k in range(int(lens.max())):
        inside = lens > k
        d = _byte(words, k) - np.uint8(48)
        if np.any(inside & (d > 9)):
            return None
        np.copyto(values, values * 10 + d, where=inside)
    return values


class _Table:
    """Separator positions of a plain table (the header is line 0).

    ``seps`` holds the offset of every delimiter and newline, ``width`` per
    line (the last line's end counts as its newline), so cell ``j`` of line
    ``r`` lies between separators ``r * width + j - 1`` and ``r * width + j``.
    :meth:`drop` lets them go once every column a reader needs is parsed
    (4 bytes a cell: more than the codes and scores read from a long file);
    a cell asked for later (for a message) finds them again.
    """

    def __init__(self, buf, seps, width, delimiter, counts, pages):
        self.buf, self._seps, self.width = buf, seps, width
        self.delimiter, self.counts, self.pages = delimiter, counts, pages
        self.n_rows = len(seps) // width - 1

    @property
    def seps(self) -> np.ndarray:
        if self._seps is None:
            self._seps = _separators(self.buf, self.delimiter, self.counts)[0]
        return self._seps

    def drop(self) -> None:
        """Let the separators and the file's pages go (both come back when read)."""
        self._seps = None
        self.pages.release(0, len(self.buf))

    def span(self, j, a, b):
        """Start and end offsets of the cells of column ``j`` in data rows a..b.

        In the separators' own integer type (32-bit below 2 GiB, which halves
        the traffic); ``ends`` is a strided view.
        """
        w = self.width
        seps = self.seps
        # strided slices: one separator of each line, data row i being line i + 1
        starts = seps[(a + 1) * w + j - 1 : (b + 1) * w + j - 1 : w] + 1
        ends = seps[(a + 1) * w + j : (b + 1) * w + j : w]
        return starts, ends

    def line_end(self, b) -> int:
        """Offset of the newline that ends data row ``b - 1`` (the header's for b = 0)."""
        return int(self.seps[(b + 1) * self.width - 1])


class _Coder:
    """Distinct cells of a column in order of first appearance, coded a block of rows at a time."""

    def __init__(self, n: int):
        self.codes = np.empty(n, dtype=np.int32 if n < 2**31 else np.int64)
        self.index: dict = {}
        self.as_int = None

    def result(self):
        return list(self.index), self.codes

    def add(self, a, b, words, lens) -> bool:
        """Code rows ``a..b``; False when integers turn to text (the caller reads strings)."""
        codes, index = self.codes, self.index
        ints = _integers(words, lens) if self.as_int is not False else None
        if self.as_int is None:
            self.as_int = ints is not None
        as_int = self.as_int
        if as_int and ints is None:
            return False
        if as_int and int(ints.max()) < 4 * len(ints) + 1024:
            # small labels (folds, seeds): first appearances by a scatter, no sort,
            # over the leading rows alone when they already hold every label
            top = int(ints.max()) + 1
            present = np.flatnonzero(np.bincount(ints, minlength=top))
            firsts = np.full(top, len(ints), dtype=np.int64)
            lead = min(len(ints), max(4096, 4 * len(present)))
            while True:
                np.minimum.at(firsts, ints[:lead], np.arange(lead))
                if lead == len(ints) or np.all(firsts[present] < len(ints)):
                    break
                lead = len(ints)
            lut = np.zeros(top, dtype=np.intp)
            lut[present] = np.arange(len(present))
            first, inv, local = firsts[present], None, present.tolist()
        elif as_int:
            uniq, first, inv = np.unique(ints, return_index=True, return_inverse=True)
            local = uniq.tolist()
        else:
            # distinct cells among the first cells of runs of equal cells (long
            # files are usually sorted, so there are few runs)
            change = np.empty(b - a, dtype=bool)
            change[:1] = True
            change[1:] = lens[1:] != lens[:-1]
            for w in words.T:
                change[1:] |= w[1:] != w[:-1]
            heads = np.flatnonzero(change)
            keys = words[heads]
            # names of at most 8 bytes are told apart as numbers, a faster sort
            keys = keys[:, 0] if keys.shape[1] == 1 else _strings(keys)
            uniq, first_h, inv = np.unique(keys, return_index=True, return_inverse=True)
            first = heads[first_h]
            if keys.dtype.kind == "u":
                local = [int(u).to_bytes(8, "little").rstrip(b"\0") for u in uniq.tolist()]
            else:
                local = [u.rstrip(b"\0") for u in uniq.tolist()]
        order = np.argsort(first, kind="stable")
        mapping = np.empty(len(local), dtype=codes.dtype)
        for o in order.tolist():
            mapping[o] = index.setdefault(local[o], len(index))
        if inv is None:
            codes[a:b] = mapping[lut][ints]  # label -> code, then one look-up per cell
        elif as_int:
            codes[a:b] = mapping[inv.ravel()]
        else:
            # the code of each run's first cell, repeated over the run
            codes[a:b] = np.repeat(mapping[inv.ravel()], np.diff(np.r_[heads, b - a]))
        return True


class ByteColumn:
    """One column of a plain file, read lazily in blocks of rows.

    Indexing gives a cell's bytes (for messages); :meth:`strings` the
    column as a fixed-width bytes array; :meth:`floats` its numbers;
    :meth:`codes` its distinct names and one integer code per cell.
    """

    def __init__(self, table: _Table, j: int):
        self.table, self.j = table, j
        # what read_columns parsed ahead, for the first call of codes() or floats()
        self._ready: dict = {}

    def __len__(self):
        return self.table.n_rows

    def _blocks(self):
        n = len(self)
        for a in range(0, n, _ROWS):
            b = min(n, a + _ROWS)
            starts, ends = self.table.span(self.j, a, b)
            yield a, b, starts, ends - starts

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        starts, ends = self.table.span(self.j, int(i), int(i) + 1)
        return bytes(self.table.buf[starts[0] : ends[0]])

    def take(self, rows) -> np.ndarray:
        """Fixed-width bytes of the cells ``rows``."""
        rows = np.asarray(rows)
        cells = [self[int(i)] for i in rows]
        return np.array(cells, dtype=f"S{max(1, max(map(len, cells), default=1))}")

    def strings(self) -> np.ndarray:
        parts = [_strings(_words(self.table.buf, s, n)) for _, _, s, n in self._blocks()]
        width = max(p.dtype.itemsize for p in parts) if parts else 1
        return np.concatenate([p.astype(f"S{width}") for p in parts]) if parts else parts

    def nonempty(self) -> np.ndarray:
        return np.concatenate([n > 0 for _, _, _, n in self._blocks()])

    def floats(self, point: int = ord(".")):
        """``(values, ok)``: cells written ``[+-]digits[.digits]`` with at most 15 digits.

        ``ok`` is False for every other cell (empty, exponent, more digits,
        text), whose value is left NaN for the caller to read another way.
        """
        if self._ready.get("point") == point:
            del self._ready["point"]
            return self._ready.pop("floats")
        n = len(self)
        values = np.empty(n)
        ok = np.empty(n, dtype=bool)
        for a, b, s, lens in self._blocks():
            values[a:b], ok[a:b], _ = _floats(_words(self.table.buf, s, lens), lens, point)
        return values, ok

    def codes(self):
        """``(names, codes)``: distinct cells in order of first appearance, and a code per cell.

        Names are ``bytes``, or ``int`` for a column of plain integers (fold
        and seed numbers), which are told apart faster as numbers.
        """
        if "codes" in self._ready:
            return self._ready.pop("codes")
        coder = _Coder(len(self))
        for a, b, s, lens in self._blocks():
            if not coder.add(a, b, _words(self.table.buf, s, lens), lens):
                return None
        return coder.result()


def read_columns(labels, scores, point: int = ord(".")) -> None:
    """Parse the label columns' codes and the score columns' floats in one pass over the rows.

    The results wait in each column for its first :meth:`ByteColumn.codes` or
    :meth:`ByteColumn.floats` call (with this ``point``), identical to what that
    call computes.  One pass, block of rows after block of rows, instead of one
    per column: each block's bytes are read while they are in the CPU cache,
    and a mapped file's pages are let go behind the pass, so that the file
    does not stay resident beside the codes and scores read from it.  Does
    nothing unless every column is a :class:`ByteColumn` of one file.
    """
    columns = [*labels, *scores]
    if not columns or not all(isinstance(c, ByteColumn) for c in columns):
        return
    table = columns[0].table
    if any(c.table is not table for c in columns):
        return
    n = table.n_rows
    coders = {id(c): (c, _Coder(n)) for c in labels}
    floats = {id(c): (c, np.empty(n), np.empty(n, dtype=bool)) for c in scores}
    done = 0
    for a in range(0, n, _ROWS):
        b = min(n, a + _ROWS)
        for c, coder in list(coders.values()):
            starts, ends = table.span(c.j, a, b)
            lens = ends - starts
            if not coder.add(a, b, _words(table.buf, starts, lens), lens):
                del coders[id(c)]  # integers, then text: codes() reads it its own way
        for c, values, ok in floats.values():
            starts, ends = table.span(c.j, a, b)
            lens = ends - starts
            values[a:b], ok[a:b], _ = _floats(_words(table.buf, starts, lens), lens, point)
        end = table.line_end(b)
        table.pages.release(done, end)
        done = end
    for c, coder in coders.values():
        c._ready["codes"] = coder.result()
    for c, values, ok in floats.values():
        c._ready["floats"] = (values, ok)
        c._ready["point"] = point


def block_floats(columns, point: int = ord(".")):
    """``(values, ok)`` of several adjacent columns at once, shape (rows, columns), or None.

    A wide file's score columns are read together, in blocks of rows: one
    vectorised pass per block over all its cells instead of one per column,
    which for 100 methods removes 99 % of the per-call overhead.  The cells
    and their values are exactly those of :meth:`ByteColumn.floats`.  None
    when the columns are not adjacent columns (after the first) of one file.
    """
    if not columns or not all(isinstance(c, ByteColumn) for c in columns):
        return None
    table, j0 = columns[0].table, columns[0].j
    if j0 < 1 or any(c.table is not table or c.j != j0 + i for i, c in enumerate(columns)):
        return None
    m, n, w = len(columns), table.n_rows, table.width
    grid = table.seps[: w * (n + 1)].reshape(n + 1, w)
    values = np.empty((n, m))
    ok = np.empty((n, m), dtype=bool)
    step = max(1, _ROWS // m)
    for a in range(0, n, step):
        b = min(n, a + step)
        # cell j of line r lies between separators j - 1 and j of that line (j >= 1)
        starts = grid[a + 1 : b + 1, j0 - 1 : j0 + m - 1].astype(np.int64).ravel()
        starts += 1
        lens = grid[a + 1 : b + 1, j0 : j0 + m].astype(np.int64).ravel()
        lens -= starts
        v, o, _ = _floats(_words(table.buf, starts, lens), lens, point)
        values[a:b] = v.reshape(b - a, m)
        ok[a:b] = o.reshape(b - a, m)
    return values, ok


def split_columns(raw: bytes, start: int, delimiter: str):
    """Split the table that begins at byte ``start`` (its header line) into columns.

    Returns ``(header_bytes, columns, n_rows)`` where ``columns`` is a list
    of :class:`ByteColumn`, one per column, or ``None`` when the file is not
    plain enough for this path.  Line ends must be ``\\n`` (the caller turns
    ``\\r\\n`` into ``\\n``).
    """
    if len(delimiter.encode()) != 1:
        return None
    buf = np.frombuffer(raw, dtype=np.uint8)[start:]
    d = ord(delimiter)
    n = len(buf)
    # blank lines at the end of the file are dropped; blank lines inside go the slow way
    while n and buf[n - 1] == 10:
        n -= 1
    buf = buf[:n]
    counts, newlines, plain = _count_separators(buf, d)
    if not plain and (raw.find(b'"', start) >= 0 or raw.find(b"\r", start) >= 0):
        return None
    first_nl = raw.find(b"\n", start, start + n)
    width = raw[start : start + n if first_nl < 0 else first_nl].count(delimiter.encode()) + 1
    n_lines = newlines + 1
    if width < 2 or n_lines < 2 or sum(counts) + 1 != width * n_lines:
        return None
    pages = _Pages(raw, start)
    seps, aligned = _separators(buf, d, counts, width, pages)
    # every newline sits where line r's last separator must be, and there are no
    # others: so every line holds exactly width - 1 delimiters (no blank lines either)
    if not aligned:
        return None
    ends = seps[width - 1 :: width]
    if ends[0] > _MAX_LINE or int(np.max(np.diff(ends))) > _MAX_LINE + 1:
        return None  # the csv path names the over-long field and its row
    table = _Table(buf, seps, width, d, counts, pages)
    end = start + n
    if not plain and (
        raw.find(b" ", start, end) >= 0 or (d != 9 and raw.find(b"\t", start, end) >= 0)
    ):
        # cells padded with spaces or tabs need stripping: the csv path does that.
        # Data cell k lies between separators k - 1 and k, counted from the header's end.
        for a in range(width - 1, len(seps) - 1, _ROWS):
            st = seps[a : a + _ROWS].astype(np.int64) + 1
            en = seps[a + 1 : a + 1 + _ROWS].astype(np.int64)
            st = st[: len(en)]
            nonempty = en > st
            for edge in (buf[np.minimum(st, n - 1)], buf[np.maximum(en - 1, 0)]):
                if np.any(nonempty & ((edge == 32) | (edge == 9))):
                    return None
    header = bytes(buf[: ends[0]])
    if header.endswith(delimiter.encode()):
        return None  # a trailing empty column (spreadsheet export): the csv path trims it
    return header, [ByteColumn(table, j) for j in range(width)], table.n_rows
