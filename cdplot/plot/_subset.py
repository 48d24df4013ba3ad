"""A small, fast subsetter for TrueType (glyf) fonts, for fonts embedded in SVG.

fontTools' subsetter costs about 0.3 s per process to import and run, as much
as the rest of drawing a figure.  For the TrueType fonts cdplot bundles, a
subset can be made by keeping every glyph id and emptying the outlines of
glyphs that are not used: the character map, advance widths and hinting
programs stay as they are, and only ``glyf``, ``loca``, ``kern`` (pairs of
kept glyphs), ``post`` (no glyph names) and ``head`` are rewritten.  Fonts of
other kinds (CFF outlines, collections) return ``None`` and are subset with
fontTools by the caller.
"""

from __future__ import annotations

import struct

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
# composite glyph flags (TrueType 'glyf' specification)
_ARGS_ARE_WORDS = 0x0001
_HAVE_SCALE = 0x0008
_MORE_COMPONENTS = 0x0020
_HAVE_XY_SCALE = 0x0040
_HAVE_TWO_BY_TWO = 0x0080


def _checksum(data: bytes) -> int:
    data += b"\0" * (-len(data) % 4)
    return sum(struct.unpack(f">{len(data) // 4}I", data)) & 0xFFFFFFFF


def subset_truetype(data: bytes, glyphs: set[int]) -> bytes | None:
    """``data`` (a TrueType font) with the outlines of all but ``glyphs`` emptied.

    Components of composite glyphs are kept too, and glyph 0 (.notdef).
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
    n_glyphs = struct.unpack(">H", tables[b"maxp"][4:6])[0]
    loca = tables[b"loca"]
    if long_loca:
        offsets = struct.unpack(f">{n_glyphs + 1}I", loca[: 4 * (n_glyphs + 1)])
    else:
        offsets = [2 * o for o in struct.unpack(f">{n_glyphs + 1}H", loca[: 2 * (n_glyphs + 1)])]
    glyf = tables[b"glyf"]

    keep = {0} | {g for g in glyphs if 0 <= g < n_glyphs}
    todo = list(keep)
    while todo:  # add the components of composite glyphs
        g = todo.pop()
        start, end = offsets[g], offsets[g + 1]
        if end - start < 10 or struct.unpack(">h", glyf[start : start + 2])[0] >= 0:
            continue
        pos = start + 10
        while True:
            flags, comp = struct.unpack(">HH", glyf[pos : pos + 4])
            if comp not in keep:
                keep.add(comp)
                todo.append(comp)
            pos += 4 + (4 if flags & _ARGS_ARE_WORDS else 2)
            if flags & _HAVE_SCALE:
                pos += 2
            elif flags & _HAVE_XY_SCALE:
                pos += 4
            elif flags & _HAVE_TWO_BY_TWO:
                pos += 8
            if not flags & _MORE_COMPONENTS:
                break

    new_glyf = bytearray()
    new_offsets = []
    for g in range(n_glyphs):
        new_offsets.append(len(new_glyf))
        if g in keep:
            new_glyf += glyf[offsets[g] : offsets[g + 1]]
            new_glyf += b"\0" * (-len(new_glyf) % 4)
    new_offsets.append(len(new_glyf))
    out = {t: tables[t] for t in _KEEP if t in tables}
    out[b"glyf"] = bytes(new_glyf)
    out[b"loca"] = struct.pack(f">{n_glyphs + 1}I", *new_offsets)
    head[50:52] = struct.pack(">h", 1)  # long loca offsets
    head[8:12] = b"\0\0\0\0"  # checkSumAdjustment, set below
    out[b"head"] = bytes(head)
    # post version 3: no glyph names (they are not needed to draw)
    out[b"post"] = b"\x00\x03\x00\x00" + tables[b"post"][4:32]
    if b"kern" in tables:
        kern = _subset_kern(tables[b"kern"], keep)
        if kern:
            out[b"kern"] = kern

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
    for tag in tags:
        table = out[tag]
        directory += struct.pack(">4sIII", tag, _checksum(table), offset + len(body), len(table))
        body += table + b"\0" * (-len(table) % 4)
    font = bytearray(header + directory + body)
    adjust = (0xB1B0AFBA - _checksum(bytes(font))) & 0xFFFFFFFF
    head_at = offset + sum(len(out[t]) + (-len(out[t]) % 4) for t in tags[: tags.index(b"head")])
    font[head_at + 8 : head_at + 12] = struct.pack(">I", adjust)
    return bytes(font)


def _subset_kern(table: bytes, keep: set[int]) -> bytes | None:
    """A version-0 ``kern`` table with only the pairs of kept glyphs (format 0 subtables)."""
    version, n_sub = struct.unpack(">HH", table[:4])
    if version != 0:
        return None
    pos = 4
    subtables = []
    for _ in range(n_sub):
        _v, length, coverage = struct.unpack(">HHH", table[pos : pos + 6])
        if coverage >> 8 == 0:  # format 0: sorted pairs
            n_pairs = struct.unpack(">H", table[pos + 6 : pos + 8])[0]
            raw = table[pos + 14 : pos + 14 + 6 * n_pairs]
            pairs = [
                raw[i : i + 6]
                for i in range(0, len(raw), 6)
                if struct.unpack(">HH", raw[i : i + 4])[0] in keep
                and struct.unpack(">HH", raw[i : i + 4])[1] in keep
            ]
            m = len(pairs)
            sel = max(m.bit_length() - 1, 0)
            rng = 6 * (1 << sel) if m else 0
            body = struct.pack(">HHHH", m, rng, sel, max(6 * m - rng, 0)) + b"".join(pairs)
            subtables.append(struct.pack(">HHH", 0, 6 + len(body), coverage) + body)
        pos += length
    if not subtables:
        return None
    return struct.pack(">HH", 0, len(subtables)) + b"".join(subtables)
