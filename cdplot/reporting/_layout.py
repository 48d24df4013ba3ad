"""How the report's tables fit the page: measured, not guessed.

Pure geometry on the advance widths of the bundled report font (Lato), read
once with fontTools.  Every choice of layout (a full data table, a table
split into column blocks, a k x k matrix or not) is made here from the width
of the text it would print, at a size no smaller than ``MIN_PT`` in the PDF,
so that no header breaks inside a word and nothing runs past the margin.
"""

from __future__ import annotations

import functools
import logging
import math
import re
import unicodedata
from dataclasses import dataclass

from ._fonts import MONO, SANS, bundled_fonts

__all__ = [
    "MIN_PT",
    "TEXT_WIDTH_PT",
    "text_width",
    "longest_word",
    "mono_em",
    "DataTableLayout",
    "data_table_layout",
    "block_page_starts",
    "matrix_fits",
    "one_line_size",
    "rank_ranges",
    "FigurePlacement",
    "figure_placement",
]

# smallest type of a table in the PDF (the issue: legible at >= 7 pt)
MIN_PT = 7.0
# the sizes tried, largest first; the CSS has one class per size (report.css, "fs-*")
TABLE_SIZES = (8.5, 8.0, 7.5, 7.0)
# text width of the PDF page: the paper less the 16 mm side margins of report.css
_MM = 72 / 25.4
TEXT_WIDTH_PT = {"a4": (210 - 32) * _MM, "letter": 8.5 * 72 - 32 * _MM}
# the text width of the page turned sideways (18 mm + 20 mm margins at the sides then)
LANDSCAPE_WIDTH_PT = {"a4": (297 - 32) * _MM, "letter": 11 * 72 - 32 * _MM}
# the tallest header of names turned upright: two inches, about a quarter of the page; a
# longer name has words to break at, and a table of such names is split instead
MAX_TURNED_PT = 144.0
# cell padding of the report's tables, left plus right, in em (report.css: .3em each side)
PAD_EM = 0.6
# a safety margin on measured widths: kerning, hinting and rounding in the renderer
SLACK = 1.04
# where a line may break inside a header: spaces and after hyphens and slashes
_BREAKS = re.compile(r"(?<=[-/\u2010\u2013])|\s+")


def _face_advances(family: str, weight: int) -> dict[int, float]:
    """``{codepoint: advance in em}`` of the bundled face of ``family`` nearest ``weight``."""
    from fontTools.ttLib import TTFont

    faces = [f for f in bundled_fonts() if f.family == family]
    face = min(faces, key=lambda f: abs(f.weight - weight))
    # fontTools logs a warning about the old "created" date of a font's header; harmless
    log = logging.getLogger("fontTools")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        font = TTFont(str(face.path), lazy=True)
        upem = font["head"].unitsPerEm
        # glyphs named by their index: the cmap and hmtx tables then map codepoints to
        # advances without fontTools building names from the post table and the Adobe
        # glyph list (two thirds of the time of reading a face, the same advances)
        font.setGlyphOrder([f"g{i}" for i in range(font["maxp"].numGlyphs)])
        hmtx = font["hmtx"].metrics
        widths = {cp: hmtx[name][0] / upem for cp, name in font.getBestCmap().items()}
        font.close()
    finally:
        log.setLevel(level)
    return widths


@functools.lru_cache(maxsize=2)
def _advances(bold: bool) -> tuple[dict[int, float], float]:
    """``({codepoint: advance in em}, default)`` of the report's sans face."""
    # a glyph Lato lacks comes from a fallback font; assume a wide one
    return _face_advances(SANS, 700 if bold else 400), 0.62


@functools.lru_cache(maxsize=1)
def mono_em() -> float:
    """The advance in em of the bundled monospace face (DejaVu Sans Mono: every glyph's)."""
    return _face_advances(MONO, 400)[ord("0")]


def _char_width(ch: str, widths: dict[int, float], default: float) -> float:
    w = widths.get(ord(ch))
    if w is not None:
        return w
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 1.0
    if unicodedata.combining(ch):
        return 0.0
    return default


# {character: advance in em} of the characters met so far, regular and bold: a table's
# thousands of numbers are set from a dozen characters, looked up by the character itself
_CHAR_EMS: dict[bool, dict[str, float]] = {False: {}, True: {}}


@functools.lru_cache(maxsize=1 << 16)
def _ems(text: str, bold: bool) -> float:
    # the width in em of a text, whatever the size: a layout tries each size of
    # TABLE_SIZES on the same cells, and cells repeat, so each text is added up once
    table = _CHAR_EMS[bool(bold)]
    try:
        return sum(map(table.__getitem__, text))
    except KeyError:
        widths, default = _advances(bold)
        for c in set(text) - table.keys():
            table[c] = _char_width(c, widths, default)
        # the same advances added in the same order as above
        return sum(map(table.__getitem__, text))


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """Width in points of ``text`` set in the report font at ``size`` points."""
    return SLACK * size * _ems(text, bool(bold))


def longest_word(text: str, size: float, *, bold: bool = False) -> float:
    """Width of the widest piece of ``text`` that a line cannot break."""
    return SLACK * size * _word_ems(text, bool(bold))


@functools.lru_cache(maxsize=1 << 14)
def _word_ems(text: str, bold: bool) -> float:
    # the widest piece in em: a positive factor keeps the widest the widest, so scaling it
    # gives what measuring each piece at the size would (and each text is split once)
    return max((_ems(w, bold) for w in _BREAKS.split(text) if w), default=0.0)


@dataclass(frozen=True)
class DataTableLayout:
    """How the data-set x method table is set.

    ``blocks`` lists, for each table printed, the column indices (into the
    ordered methods) it holds; one block means the whole table.  Widths are
    fractions of the text width: ``name_width`` for the data-set column and
    ``widths[i]`` for method column ``i``.  ``header_height`` > 0 turns the
    method names to read upwards in a header that tall, so that a column
    is as wide as its numbers whatever the words of its name.
    """

    size: float
    blocks: tuple[tuple[int, ...], ...]
    name_width: float
    widths: tuple[float, ...]
    # the method names turned upright in a header this many points tall (0: across)
    header_height: float = 0.0

    @property
    def rotated(self) -> bool:
        return self.header_height > 0

    @property
    def split(self) -> bool:
        return len(self.blocks) > 1

    @property
    def size_class(self) -> str:
        return f"fs-{int(round(self.size * 10))}"


def _cell_width(body_ems: float, header_ems: float, size: float) -> float:
    # the widths of text_width and longest_word, from the widths in em measured once per
    # column (a positive factor keeps the widest the widest, so the product is the same)
    body = SLACK * size * body_ems
    return max(body, SLACK * size * header_ems) + PAD_EM * size


def data_table_layout(
    methods,
    datasets,
    cell_texts,
    *,
    paper: str = "a4",
    footer_label: str = "Average rank",
    landscape: bool = False,
) -> DataTableLayout:
    """Choose the size and column blocks of the data table.

    Parameters
    ----------
    methods : sequence of str
        Column headers, in the order printed.
    datasets : sequence of str
        Row headers.
    cell_texts : sequence of sequence of str
        For each method (column), the texts of its cells.
    paper : {'a4', 'letter'}
        Page whose text width the table must fit.
    footer_label : str
        Header of the last row.
    landscape : bool
        Fit the width of the page turned sideways.

    Returns
    -------
    DataTableLayout
        The largest size of ``TABLE_SIZES`` at which the whole table fits
        one page width with its headers across; else with its headers
        turned upright, when a header word is what widens the columns (one
        long word per name: "HistGradientBoostingClassifier") and the
        longest name is at most ``MAX_TURNED_PT`` long; else ``MIN_PT``
        with the methods split into the fewest blocks of nearly equal width
        that fit.
    """
    total = LANDSCAPE_WIDTH_PT[paper] if landscape else TEXT_WIDTH_PT[paper]
    k = len(methods)
    # each column's widest cell and header word in em, whatever the size: every size tried
    # scales them (k x N cells measured once, not once per size and arrangement)
    body = [max((_ems(c, True) for c in cell_texts[j]), default=0.0) for j in range(k)]
    words = [_word_ems(m, True) for m in methods]
    for size in TABLE_SIZES:
        cols = [_cell_width(body[j], words[j], size) for j in range(k)]
        name = _name_width([*datasets, footer_label], size, total)
        if name + sum(cols) <= total:
            return _finish(size, [tuple(range(k))], name, cols, total)
    widest = max((_ems(m, True) for m in methods), default=0.0)
    for size in TABLE_SIZES:
        cols = [_cell_width(body[j], 0.0, size) for j in range(k)]
        name = _name_width([*datasets, footer_label], size, total)
        tall = SLACK * size * widest + PAD_EM * size
        if name + sum(cols) <= total and tall <= MAX_TURNED_PT:
            return _finish(size, [tuple(range(k))], name, cols, total, header_height=tall)
    size = TABLE_SIZES[-1]
    cols = [_cell_width(body[j], words[j], size) for j in range(k)]
    name = _name_width([*datasets, footer_label], size, total)
    room = total - name
    # the fewest blocks that fit, then as many methods in each as the widest needs
    for n_blocks in range(2, k + 1):
        per = math.ceil(k / n_blocks)
        blocks = [tuple(range(i, min(i + per, k))) for i in range(0, k, per)]
        if all(sum(cols[j] for j in b) <= room for b in blocks):
            return _finish(size, blocks, name, cols, total)
    return _finish(size, [(j,) for j in range(k)], name, cols, total)


# The appendix's landscape page as report.css sets it (@media print): the text height between
# the 18 mm and 20 mm margins, and the vertical parts of a column block at the tables' 7 pt.
LANDSCAPE_HEIGHT_PT = {"a4": (210 - 38) * _MM, "letter": 8.5 * 72 - 38 * _MM}
_LINE = 1.22  # line-height of .data-table
_BODY_PAD_EM = 0.08  # .appendix-data tbody cells: .04em above and below
_HEAD_PAD_EM = 0.2  # header and footer cells: .1em above and below
# the label "Methods a-b" (p.part: 9.5 pt bold, 1.45 leading, .8em + .1em margins), the
# table's top margin (.5em of its 7 pt) and its rules (measured: a block of 14 data sets with
# headers of 7 lines takes 227.5 pt below another, 2.7 pt less than estimated here)
_PART_PT = 9.5 * (1.45 + 0.9) + 0.5 * MIN_PT
# what stands above the first block of a metric, at least: the appendix's heading, the
# table's heading and a caption of two lines (measured at 60 methods x 40 data sets: 108 pt);
# in a multi-metric report, a metric's heading and caption at the top of its page.  Too little
# is safe (the space left under the first block is then underestimated, and the next block
# is at worst tried there, as before); too much could send on a block that would have fitted
LEAD_PT = 100.0
MULTI_LEAD_PT = 60.0
# a block is sent to a new page only when it misses the space left by more than this: in the
# narrow band where the estimate is unsure, WeasyPrint tries the block there (and moves it when
# it does not fit), as it does without a plan; a page is never added
_SURE_PT = 4.0


def _lines(text: str, width: float, size: float, *, bold: bool = False) -> int:
    """Lines of ``text`` filled greedily into ``width`` points, broken where report.css lets it.

    The advance widths without ``SLACK``: the fewest lines the renderer can set, so that a
    block's height is not overestimated (which would send it to a page of its own for nothing).
    """
    words = [w for w in _BREAKS.split(text) if w]
    space = size * _ems(" ", bold)
    lines, used = 1, 0.0
    for w in words:
        ww = size * _ems(w, bold)
        if used and used + space + ww > width:
            lines, used = lines + 1, ww
        else:
            used += (space if used else 0.0) + ww
    return lines


def block_page_starts(
    headers,
    datasets,
    widths,
    name_width,
    *,
    paper: str = "a4",
    footer_rows: int = 1,
    lead: float = LEAD_PT,
) -> tuple[bool, ...]:
    """Which column blocks of the appendix must start a page: those that cannot fit below the last.

    Parameters
    ----------
    headers : sequence of sequence of str
        For each block, the headers of its methods as printed (numbered).
    datasets : sequence of str
        The row headers, the same in every block.
    widths : sequence of sequence of float
        For each block, the width of each method column in points.
    name_width : float
        Width of the data-set column in points.
    paper : {'a4', 'letter'}
        Page whose landscape text height the blocks fill.
    footer_rows : int
        Rows under the body (the average rank, and W/T/L with a control).
    lead : float
        Points above the first block on its page (headings and caption), at least.

    Returns
    -------
    tuple of bool
        True for a block that should start a new page.  WeasyPrint keeps a block
        whole by laying it out below the previous one, finding it does not fit,
        throwing the layout away and laying it out again on the next page (a fifth
        of the table's cells at 60 methods); a block it starts on a page is laid
        out once.  Blocks that fit below the last keep flowing, so no page is
        added; the first block follows its headings and is never sent on.
    """
    size = MIN_PT
    line = size * _LINE
    pad = PAD_EM * size
    page = LANDSCAPE_HEIGHT_PT[paper]
    rows = sum(line * _lines(d, name_width - pad, size) + _BODY_PAD_EM * size for d in datasets)
    foot = footer_rows * (line + _HEAD_PAD_EM * size)
    pitch = line + _BODY_PAD_EM * size
    starts = []
    used = lead  # of the page where the previous block ends
    for n, (names, cols) in enumerate(zip(headers, widths, strict=True)):
        head_lines = max(
            (_lines(h, w - pad, size, bold=True) for h, w in zip(names, cols, strict=True)),
            default=1,
        )
        head = head_lines * line + _HEAD_PAD_EM * size
        height = _PART_PT + head + rows + foot
        new = n > 0 and used + height > page + _SURE_PT
        starts.append(new)
        used = 0.0 if new else used
        if used + height <= page:
            used += height
        else:
            # split by rows: each page after the first repeats the header
            left = max(0.0, page - used - _PART_PT - head)
            per_page = max(1, int((page - head) // pitch))
            rest = max(0, len(datasets) - int(left // pitch))
            tail = rest % per_page or (per_page if rest else 0)
            used = head + tail * pitch + foot
    return tuple(starts)


def _name_width(names, size: float, total: float) -> float:
    # the data-set column takes its longest name unbroken, up to 30 % of the line; beyond
    # that names wrap between words (never inside one)
    widest = SLACK * size * max((_ems(n, False) for n in names), default=0.0)
    word = SLACK * size * max((_word_ems(n, False) for n in names), default=0.0)
    return min(max(widest, word), max(0.3 * total, word)) + PAD_EM * size


def _finish(size, blocks, name, cols, total, header_height=0.0) -> DataTableLayout:
    # a block that does not fill the line leaves its columns at their measured width
    return DataTableLayout(
        size=size,
        blocks=tuple(tuple(b) for b in blocks),
        name_width=name / total,
        widths=tuple(c / total for c in cols),
        header_height=header_height,
    )


def matrix_fits(row_labels, cell_texts, *, paper: str = "a4", column_labels=None) -> float | None:
    """The largest size at which a k x k matrix fits, or None.

    Rows carry ``row_labels`` (the method names, prefixed by their number);
    columns carry only the numbers, so the width is that of the labels plus
    ``k`` columns of the widest cell.  With ``column_labels`` (names over
    the columns, broken between words) a column is as wide as the longest
    word of its label when that is wider than the cells.
    """
    total = TEXT_WIDTH_PT[paper]
    k = len(row_labels)
    # the k x k cells measured once in em (scaled per size: the widest stays the widest)
    cell_ems = max((_ems(t, True) for t in cell_texts), default=0.0)
    for size in TABLE_SIZES:
        name = _name_width(row_labels, size, total)
        cell = max(SLACK * size * cell_ems, text_width(str(k), size, bold=True))
        if column_labels is None:
            cols = k * (cell + PAD_EM * size)
        else:
            cols = sum(
                max(cell, longest_word(c, size, bold=True)) + PAD_EM * size for c in column_labels
            )
        if name + cols <= total:
            return size
    return None


def one_line_size(columns, *, paper: str = "a4", sizes=(8.0, 7.5)) -> float | None:
    """The largest of ``sizes`` at which a table's rows all fit one line, or None.

    ``columns`` is a sequence of ``(header, cells, bold)``: every cell is
    set on one line and a header breaks between its words, so a column is as
    wide as its widest cell or the longest word of its header, plus the
    padding of the method table (report.css: .45em each side).  A table
    whose long names would otherwise wrap to two lines takes half the
    height at a size no smaller than ``MIN_PT``.
    """
    total = TEXT_WIDTH_PT[paper]
    for size in sizes:
        if size < MIN_PT:
            break
        need = 0.0
        for header, cells, bold in columns:
            body = SLACK * size * max((_ems(c, bool(bold)) for c in cells), default=0.0)
            need += max(body, longest_word(header, size, bold=True)) + 0.9 * size
        if need <= total:
            return size
    return None


def rank_ranges(positions) -> str:
    """``[1, 2, 3, 7, 9, 10]`` as ``'1\u20133, 7, 9, 10'`` (runs of three or more as ranges)."""
    ps = sorted({int(p) for p in positions})
    out = []
    i = 0
    while i < len(ps):
        j = i
        while j + 1 < len(ps) and ps[j + 1] == ps[j] + 1:
            j += 1
        if j - i >= 2:
            out.append(f"{ps[i]}\u2013{ps[j]}")
        else:
            out.extend(str(p) for p in ps[i : j + 1])
        i = j + 1
    return ", ".join(out)


# the page's text height (A4 less the 18 mm + 20 mm margins; letter alike), less room for the
# "Figures" heading, a caption of three lines and the figure's margins
TEXT_HEIGHT_PT = {"a4": (297 - 38) * _MM, "letter": 11 * 72 - 38 * _MM}
_CAPTION_PT = 90.0
# type under this many CSS pixels is hard to read on a screen
MIN_SCREEN_PX = 9.0
# a figure may show this much larger than drawn on a wide screen
MAX_SCREEN_ZOOM = 1.5


@dataclass(frozen=True)
class FigurePlacement:
    """Where and how large a figure prints and shows.

    ``landscape`` puts the figure on a page of its own turned sideways;
    ``print_width``/``print_height`` are its printed size in points (the
    drawn size, or less when even a landscape page is too small: then
    ``print_scale`` < 1 and its type prints smaller than drawn).  On screen
    it scales with the page between ``min_px`` (its smallest type at
    ``MIN_SCREEN_PX``; narrower screens scroll) and ``max_px``.
    """

    width: float
    height: float
    landscape: bool
    print_scale: float
    min_font: float
    min_px: float
    max_px: float

    @property
    def print_width(self) -> float:
        return self.width * self.print_scale

    @property
    def print_height(self) -> float:
        return self.height * self.print_scale

    @property
    def printed_min_font(self) -> float:
        return self.min_font * self.print_scale


def figure_placement(width: float, height: float, min_font: float, *, paper: str = "a4"):
    """Place a figure drawn ``width`` x ``height`` points whose smallest type is ``min_font``."""
    tw, th = TEXT_WIDTH_PT[paper], TEXT_HEIGHT_PT[paper] - _CAPTION_PT
    portrait = min(1.0, tw / width, th / height)
    # a landscape page has the same margins, turned
    lw = TEXT_HEIGHT_PT[paper] + 38 * _MM - 32 * _MM
    lh = TEXT_WIDTH_PT[paper] + 32 * _MM - 38 * _MM - _CAPTION_PT
    landscape = min(1.0, lw / width, lh / height)
    turn = landscape > portrait + 1e-9
    px = 4.0 / 3.0
    zoom = max(1.0, MIN_SCREEN_PX / (min_font * px)) if min_font > 0 else 1.0
    return FigurePlacement(
        width=width,
        height=height,
        landscape=turn,
        print_scale=landscape if turn else portrait,
        min_font=min_font,
        min_px=width * px * zoom,
        max_px=width * px * max(zoom, MAX_SCREEN_ZOOM),
    )
