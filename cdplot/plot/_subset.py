"""A small, fast subsetter for TrueType (glyf) fonts, for fonts embedded in SVG.

fontTools' subsetter costs about 0.3 s per process to import and run, as much
as the rest of drawing a figure.  A TrueType subset needs little: the kept
glyphs renumbered, with their outlines (composite glyphs' component ids
rewritten), advance widths, a new character map, the legacy ``kern`` pairs
FreeType kerns with, and ``post`` without glyph names.  Fonts of other kinds
(CFF outlines, collections) return ``None`` and are subset with fontTools by
the caller.
"""

from __future__ import annotations

import struct

import numpy as np

__all__ = ["subset_truetype"]

# tables a browser's font sanitiser (OTS) accepts and the glyphs need; layout tables
# (GSUB, GPOS, GDEF) are left out: matplotlib applies neither ligatures nor GPOS kerning
_KEEP = (
    b"OS/2",
    b"cmap",
    b"cvt ",
    b"fpgm",
    b"gasp",
    b"head",
    b"hhea",
    b"hmtx",
    b"maxp",
    b"name",
    b"prep",
)
# a format 0 kerning pair: left and right glyph ids, value in font units
_PAIR = np.dtype([("left", ">u2"), ("right", ">u2"), ("value", ">i2")])
# composite glyph flags (TrueType 'glyf' specification)
_ARGS_ARE_WORDS = 0x0001
_HAVE_SCALE = 0x0008
_MORE_COMPONENTS = 0x0020
_HAVE_XY_SCALE = 0x0040
_HAVE_TWO_BY_TWO = 0x0080


def _checksum(data: bytes) -> int:
    data += b"\0" * (-len(data) % 4)
    return sum(struct.unpack(f">{len(data) // 4}I", data)) & 0xFFFFFFFF


def subset_truetype(data: bytes, chars: dict[int, int]) -> bytes | None:
    """A TrueType font holding only the glyphs of ``chars`` (``{code point: glyph id}``).

    Glyphs are renumbered (.notdef first, then the kept glyphs in their old
    order, components of composite glyphs included) and the character map,
    advance widths, outlines and kerning pairs rewritten for them; hinting
    programs, ``OS/2``, ``hhea`` and ``name`` are kept as they are.
    Returns ``None`` for a font that is not a single TrueType-outline font.
    """
    if data[:4] not in (b"\x00\x01\x00\x00", b"true"):
        return None
    n_tables = struct.unpack(">H", data[4:6])[0]
    tables = {}
    for i in range(n_tables):
        tag, _sum, off, length = struct.unpack(">4sIII", data[12 + 16 * i : 28 + 16 * i])
        tables[tag] = data[off : off + length]
    if b"glyf" not in tables or b"loca" not in tables:
        return None
    head = bytearray(tables[b"head"])
    long_loca = struct.unpack(">h", head[50:52])[0] == 1
    maxp = bytearray(tables[b"maxp"])
    n_glyphs = struct.unpack(">H", maxp[4:6])[0]
    loca = tables[b"loca"]
    if long_loca:
        offsets = struct.unpack(f">{n_glyphs + 1}I", loca[: 4 * (n_glyphs + 1)])
    else:
        offsets = [2 * o for o in struct.unpack(f">{n_glyphs + 1}H", loca[: 2 * (n_glyphs + 1)])]
    glyf = tables[b"glyf"]

    def components(g):
        """(position of the glyph index field, component glyph) of a composite glyph."""
        start, end = offsets[g], offsets[g + 1]
        if end - start < 10 or struct.unpack(">h", glyf[start : start + 2])[0] >= 0:
            return []
        out, pos = [], start + 10
        while True:
            flags, comp = struct.unpack(">HH", glyf[pos : pos + 4])
            out.append((pos + 2 - start, comp))
            pos += 4 + (4 if flags & _ARGS_ARE_WORDS else 2)
            if flags & _HAVE_SCALE:
                pos += 2
            elif flags & _HAVE_XY_SCALE:
                pos += 4
            elif flags & _HAVE_TWO_BY_TWO:
                pos += 8
            if not flags & _MORE_COMPONENTS:
                return out

    keep = {0} | {g for g in chars.values() if 0 < g < n_glyphs}
    todo = list(keep)
    while todo:
        for _pos, comp in components(todo.pop()):
            if comp not in keep and comp < n_glyphs:
                keep.add(comp)
                todo.append(comp)
    order = sorted(keep)
    new_id = {g: n for n, g in enumerate(order)}

    new_glyf = bytearray()
    new_offsets = []
    for g in order:
        new_offsets.append(len(new_glyf))
        glyph = bytearray(glyf[offsets[g] : offsets[g + 1]])
        for pos, comp in components(g):
            glyph[pos : pos + 2] = struct.pack(">H", new_id[comp])
        new_glyf += glyph + b"\0" * (-len(glyph) % 4)
    new_offsets.append(len(new_glyf))

    hhea = bytearray(tables[b"hhea"])
    n_metrics = struct.unpack(">H", hhea[34:36])[0]
    hmtx = tables[b"hmtx"]

    def metric(g):
        if g < n_metrics:
            return hmtx[4 * g : 4 * g + 4]
        advance = hmtx[4 * (n_metrics - 1) : 4 * (n_metrics - 1) + 2]
        lsb_at = 4 * n_metrics + 2 * (g - n_metrics)
        return advance + hmtx[lsb_at : lsb_at + 2]

    out = {t: tables[t] for t in _KEEP if t in tables}
    out[b"glyf"] = bytes(new_glyf)
    out[b"loca"] = struct.pack(f">{len(order) + 1}I", *new_offsets)
    out[b"hmtx"] = b"".join(metric(g) for g in order)
    hhea[34:36] = struct.pack(">H", len(order))
    out[b"hhea"] = bytes(hhea)
    maxp[4:6] = struct.pack(">H", len(order))
    out[b"maxp"] = bytes(maxp)
    head[50:52] = struct.pack(">h", 1)  # long loca offsets
    head[8:12] = b"\0\0\0\0"  # checkSumAdjustment, set below
    out[b"head"] = bytes(head)
    out[b"cmap"] = _cmap({c: new_id[g] for c, g in chars.items() if g in new_id})
    # post version 3: no glyph names (they are not needed to draw)
    out[b"post"] = b"\x00\x03\x00\x00" + tables[b"post"][4:32]
    if b"kern" in tables:
        kern = _subset_kern(tables[b"kern"], new_id)
        if kern:
            out[b"kern"] = kern
    return _assemble(out)


def _cmap(mapping: dict[int, int]) -> bytes:
    """A ``cmap`` with a format 4 subtable (BMP) and a format 12 one (all code points)."""
    bmp = sorted((c, g) for c, g in mapping.items() if c < 0xFFFF)
    segments = [(c, c, g - c) for c, g in bmp] + [(0xFFFF, 0xFFFF, 1)]
    n = len(segments)
    sel = max(n.bit_length() - 1, 0)
    rng = 2 * (1 << sel)
    fmt4 = struct.pack(">HHH", 4, 0, 0)  # length patched below
    fmt4 += struct.pack(">HHHH", 2 * n, rng, sel, 2 * n - rng)
    fmt4 += struct.pack(f">{n}H", *(e for _s, e, _d in segments)) + b"\0\0"
    fmt4 += struct.pack(f">{n}H", *(s for s, _e, _d in segments))
    fmt4 += struct.pack(f">{n}h", *(((d + 0x8000) % 0x10000) - 0x8000 for _s, _e, d in segments))
    fmt4 += struct.pack(f">{n}H", *([0] * n))
    fmt4 = fmt4[:2] + struct.pack(">H", len(fmt4)) + fmt4[4:]
    groups = sorted(mapping.items())
    fmt12 = struct.pack(">HHIII", 12, 0, 16 + 12 * len(groups), 0, len(groups))
    fmt12 += b"".join(struct.pack(">III", c, c, g) for c, g in groups)
    header = struct.pack(">HH", 0, 2)
    at4 = 4 + 2 * 8
    at12 = at4 + len(fmt4)
    header += struct.pack(">HHI", 3, 1, at4) + struct.pack(">HHI", 3, 10, at12)
    return header + fmt4 + fmt12


def _assemble(out: dict[bytes, bytes]) -> bytes:
    """The font file: table directory, tables, and ``head``'s checksum adjustment."""
    tags = sorted(out)
    n = len(tags)
    entry_selector = max(n.bit_length() - 1, 0)
    search_range = 16 * (1 << entry_selector)
    header = struct.pack(
        ">IHHHH", 0x00010000, n, search_range, entry_selector, n * 16 - search_range
    )
    offset = 12 + 16 * n
    directory = bytearray()
    body = bytearray()
    head_at = 0
    for tag in tags:
        table = out[tag]
        if tag == b"head":
            head_at = offset + len(body)
        directory += struct.pack(">4sIII", tag, _checksum(table), offset + len(body), len(table))
        body += table + b"\0" * (-len(table) % 4)
    font = bytearray(header + directory + body)
    adjust = (0xB1B0AFBA - _checksum(bytes(font))) & 0xFFFFFFFF
    font[head_at + 8 : head_at + 12] = struct.pack(">I", adjust)
    return bytes(font)


def _subset_kern(table: bytes, new_id: dict[int, int]) -> bytes | None:
    """A version-0 ``kern`` table with the pairs of kept glyphs, renumbered (format 0)."""
    version, n_sub = struct.unpack(">HH", table[:4])
    if version != 0:
        return None
    pos = 4
    subtables = []
    for _ in range(n_sub):
        _v, length, coverage = struct.unpack(">HHH", table[pos : pos + 6])
        if coverage >> 8 == 0:  # format 0: sorted pairs
            n_pairs = struct.unpack(">H", table[pos + 6 : pos + 8])[0]
            # Lato's table holds thousands of pairs: read, filter and renumber them as
            # arrays (one struct call per pair took a third of an SVG's font embedding)
            n_pairs = min(n_pairs, max(len(table) - pos - 14, 0) // 6)  # a cut-short table
            raw = np.frombuffer(table, dtype=_PAIR, count=n_pairs, offset=pos + 14)
            renumber = np.full(1 << 16, -1, dtype=np.int64)
            renumber[list(new_id)] = list(new_id.values())
            left, right = renumber[raw["left"]], renumber[raw["right"]]
            kept = (left >= 0) & (right >= 0)
            left, right, value = left[kept], right[kept], raw["value"][kept]
            order = np.lexsort((value, right, left))  # sorted as (left, right, value)
            pairs = np.empty(order.size, dtype=_PAIR)
            pairs["left"], pairs["right"], pairs["value"] = (
                left[order],
                right[order],
                value[order],
            )
            m = int(pairs.size)
            sel = max(m.bit_length() - 1, 0)
            rng = 6 * (1 << sel) if m else 0
            body = struct.pack(">HHHH", m, rng, sel, max(6 * m - rng, 0)) + pairs.tobytes()
            subtables.append(struct.pack(">HHH", 0, 6 + len(body), coverage) + body)
        pos += length
    if not subtables:
        return None
    return struct.pack(">HH", 0, len(subtables)) + b"".join(subtables)
