"""Geometry of the figures, in points, with no matplotlib.

Every position is computed here from text sizes that the caller measures
(``measure(text, size, bold) -> (width, height, descent)`` in points), so
the arithmetic that keeps names, ticks, bars and notes apart can be tested
with any measuring function and the drawing modules only place what they
are given.  Coordinates run in points from the top-left corner of the
figure, ``y`` growing downwards.

Names never overlap because each method gets its own row and each side its
own column whose width is the widest measured name; bars and notes get
rows of their own.  When the names do not fit the target width, the type
shrinks in half-point steps down to the style's minimum, and only then does
the figure widen (or, inside a given Axes, the rank axis shortens).
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ._styles import Style

__all__ = [
    "Box",
    "CDLayout",
    "IntervalLayout",
    "HeatmapLayout",
    "cd_layout",
    "interval_layout",
    "heatmap_layout",
    "wrap_text",
    "wrap_name",
    "shorten_name",
    "rank_span",
    "axis_polylines",
    "tick_ranks",
    "pack_rows",
    "overlapping_boxes",
    "ProfileLayout",
    "profile_layout",
    "spread",
]

Measure = Callable[[str, float, bool], tuple[float, float, float]]

# spacing, in multiples of the name size, chosen by eye on the gallery figures
_ROW = 1.45  # label rows
_DENSE_ROW = 1.15  # label rows in a fixed height they would overrun (a grid cell)
_GAP_NAME_VALUE = 0.45  # name <-> rank value
_GAP_VALUE_LINE = 0.35  # rank value <-> start of the elbow line
_MIN_POINTS_PER_RANK = 6.0  # the rank axis never gets denser than this
_MIN_AXIS = 90.0  # nor shorter than 1.25 in
# Renderers differ by a fraction of a percent in text width (and hinted
# screen rendering by more); every measured width gets this much room.
_SAFETY = 1.03


@dataclass(frozen=True)
class Box:
    """A placed piece of text: its string, role, anchor and extent (points, y down)."""

    text: str
    role: str
    x: float
    y: float
    ha: str
    va: str
    size: float
    bold: bool
    x0: float
    y0: float
    x1: float
    y1: float
    rotation: float = 0.0
    color: str = "ink"

    def overlaps(self, other: Box, tol: float = 0.0) -> bool:
        return not (
            self.x1 <= other.x0 + tol
            or other.x1 <= self.x0 + tol
            or self.y1 <= other.y0 + tol
            or other.y1 <= self.y0 + tol
        )


def _box(
    measure: Measure, text, role, x, y, ha, va, size, bold=False, color="ink", rotation=0.0
) -> Box:
    lines = text.split("\n")
    w = max(measure(t, size, bold)[0] for t in lines) * _SAFETY
    _lw, lh, ld = measure("lp", size, bold)
    h = max(measure(lines[0], size, bold)[1], lh)
    if len(lines) > 1:
        h = _block_height(len(lines), lh, ld, LINE_SPACING)
    if rotation:
        w, h = h, w
    x0 = {"left": x, "right": x - w, "center": x - w / 2}[ha]
    y0 = {"top": y, "bottom": y - h, "center": y - h / 2}[va]
    return Box(text, role, x, y, ha, va, size, bold, x0, y0, x0 + w, y0 + h, rotation, color)


def overlapping_boxes(boxes: Sequence[Box], tol: float = 0.0) -> list[tuple[Box, Box]]:
    """Pairs of boxes that overlap by more than ``tol`` points."""
    out = []
    items = sorted(boxes, key=lambda b: b.x0)
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            if b.x0 >= a.x1 - tol:
                break
            if a.overlaps(b, tol):
                out.append((a, b))
    return out


def wrap_text(text: str, width: float, size: float, measure: Measure) -> list[str]:
    """Greedy word wrap of ``text`` to ``width`` points (an overlong word gets its own line)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        # split on plain spaces only: no-break spaces keep "N = 14" together
        for word in (w for w in paragraph.split(" ") if w):
            trial = f"{current} {word}" if current else word
            if current and measure(trial, size, False)[0] * _SAFETY > width:
                lines.append(current)
                current = word
            else:
                current = trial
        if current:
            lines.append(current)
    return lines


def tick_ranks(
    k: int, points_per_rank: float, label_width: float, lo: int = 1
) -> tuple[list[int], list[int], bool]:
    """Integer ticks from ``lo`` to ``k``, the labelled subset and whether half ticks fit.

    Labels are thinned to every 2nd, 5th, 10th... rank so that neighbours
    stay ``label_width`` apart; ``lo`` and ``k`` are always labelled.
    """
    step = 1
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 250, 500, 1000):
        if step * points_per_rank >= label_width:
            break
    first = -(-lo // step) * step
    wanted = sorted({lo, k} | set(range(max(first, step), k + 1, step)))
    need = label_width / points_per_rank
    kept: list[int] = []
    for r in wanted:
        if not kept or r - kept[-1] >= need - 1e-9:
            kept.append(r)
        elif r == k:
            # k must be labelled: drop the previous label instead (never the first)
            if len(kept) > 1:
                kept.pop()
            if r - kept[-1] >= need - 1e-9:
                kept.append(r)
    major = list(range(lo, k + 1)) if points_per_rank >= 2.0 else kept
    return major, kept, points_per_rank >= 9.0


def pack_rows(spans: Sequence[tuple[float, float]], gap: float) -> list[int]:
    """Assign intervals to rows so that intervals in a row are ``gap`` apart (first fit)."""
    rows_end: list[float] = []
    out = [0] * len(spans)
    for i in sorted(range(len(spans)), key=lambda i: (spans[i][0], spans[i][1])):
        lo, hi = spans[i]
        for r, end in enumerate(rows_end):
            if lo - end >= gap:
                rows_end[r] = hi
                out[i] = r
                break
        else:
            rows_end.append(hi)
            out[i] = len(rows_end) - 1
    return out


# ---------------------------------------------------------------------------
# names that do not fit: wrapped at natural breaks, then shortened with a key
# ---------------------------------------------------------------------------

# characters after which a name may break (kept at the end of the first line)
_BREAK_AFTER = "-_/+.,;:)]"
# characters before which a name may break (start the second line)
_BREAK_BEFORE = "([{"
_ELLIPSIS = "\u2026"


def _is_cjk(ch: str) -> bool:
    o = ord(ch)
    return 0x2E80 <= o <= 0x9FFF or 0xAC00 <= o <= 0xD7AF or 0xF900 <= o <= 0xFAFF


@functools.lru_cache(maxsize=4096)
def _breaks(text: str) -> tuple[tuple[str, str], ...]:
    """Every two-line split of ``text`` at a natural break point, as (first, second)."""
    out = []
    n = len(text)
    for i in range(1, n):
        a, b = text[i - 1], text[i]
        if b == " ":
            # never around "=" or "×": "k = 15" and "2 × 256" stay on one line
            if text[i + 1 : i + 2] in ("=", "\u00d7") or a in ("=", "\u00d7"):
                continue
            out.append((text[:i].rstrip(), text[i:].lstrip()))
        elif a == " ":
            continue
        elif a in ".,:" and b.isdigit() and text[i - 2 : i - 1].isdigit():
            # inside a number ("C4.5", "1,000", "10:1"): one token, never broken
            continue
        elif a in _BREAK_AFTER or b in _BREAK_BEFORE or (_is_cjk(a) and _is_cjk(b)):
            out.append((text[:i].rstrip(), text[i:].lstrip()))
    return tuple((x, y) for x, y in out if x and y)


def wrap_name(
    text: str, width: float, size: float, bold: bool, measure: Measure
) -> list[str] | None:
    """``text`` on one line, or on two lines split at a natural break, within ``width``.

    Of the splits that fit, the one with the most even lines is taken;
    ``None`` when no split fits.
    """
    if measure(text, size, bold)[0] * _SAFETY <= width:
        return [text]
    lines = _best_split(text, round(width, 3), size, bold, measure)
    return None if lines is None else list(lines)


@functools.lru_cache(maxsize=8192)
def _best_split(text, width, size, bold, measure):
    # the layout asks for the same names at the same sizes in many attempts
    best = None
    for first, second in _breaks(text):
        w = max(measure(first, size, bold)[0], measure(second, size, bold)[0]) * _SAFETY
        if w <= width and (best is None or w < best[0]):
            best = (w, (first, second))
    return None if best is None else best[1]


def shorten_name(
    text: str, tag: str, width: float, size: float, bold: bool, measure: Measure
) -> str | None:
    """``text`` cut to fit ``width`` with an ellipsis and ``tag`` (a key number).

    The cut falls at a word boundary when that keeps most of the room used;
    ``None`` when not even the tag fits.
    """
    suffix = f"{_ELLIPSIS}\u00a0{tag}"
    if measure(tag, size, bold)[0] * _SAFETY > width:
        return None
    keep = ""
    for i in range(len(text), 0, -1):
        trial = text[:i].rstrip() + suffix
        if measure(trial, size, bold)[0] * _SAFETY <= width:
            keep = text[:i].rstrip()
            break
    if not keep:
        return tag
    cut = keep.rfind(" ")
    if cut > 0.6 * len(keep):
        keep = keep[:cut].rstrip(" ,;:-(")
    return keep + suffix


def _block_height(n_lines: int, h: float, d: float, spacing: float) -> float:
    """Height of ``n_lines`` of text as matplotlib stacks them (``Text._get_layout``)."""
    return h + (n_lines - 1) * (d + (h - d) * spacing)


def common_prefix(names: Sequence[str]) -> str:
    """The words every name starts with (said once they are cut, they would say nothing)."""
    if len(names) < 2:
        return ""
    common = os.path.commonprefix(list(names))
    return common[: common.rfind(" ") + 1] if " " in common else ""


def fit_labels(
    names: Sequence[str],
    order: Sequence[int],
    budget: Callable[[int], float],
    size: float,
    bold: set,
    measure: Measure,
    mode: str,
    tags: Sequence[str] | None = None,
) -> tuple[dict[int, list[str]], list[tuple[str, str]], bool]:
    """Labels of at most ``budget(i)`` points: ``mode`` 'plain', 'wrap' or 'short'.

    'short' wraps what it can and shortens the rest; 'key' shortens without
    wrapping.  Returns the lines of each label, the key ``(tag, full name)``
    of the shortened ones (numbered in ``order``, or tagged ``tags[i]``
    when given, so that several figures of the same methods agree) and
    whether all fit.
    """
    labels = {i: [names[i]] for i in order}
    key: list[tuple[str, str]] = []
    ok = True
    common = common_prefix(names) if mode in ("short", "key") else ""
    for i in order:
        room = budget(i)
        if measure(names[i], size, i in bold)[0] * _SAFETY <= room:
            continue
        wraps = mode in ("wrap", "short")
        lines = wrap_name(names[i], room, size, i in bold, measure) if wraps else None
        if lines is None and mode in ("short", "key"):
            tag = f"[{len(key) + 1}]" if tags is None else tags[i]
            short = shorten_name(
                names[i][len(common) :] or names[i], tag, room, size, i in bold, measure
            )
            if short is not None:
                lines = [short]
                key.append((tag, names[i]))
        if lines is None:
            ok = False
            lines = [names[i]]
        labels[i] = lines
    return labels, key, ok


# ---------------------------------------------------------------------------
# critical-difference diagram
# ---------------------------------------------------------------------------

# line spacing of two-line names (matplotlib's ``linespacing``)
LINE_SPACING = 1.1
# the widescreen slide of presentation software: the largest a 16:9 slide
# figure may grow before its type would be shown below the style's size
_MAX_SLIDE_SCALE = 4.0 / 3.0


@dataclass(frozen=True)
class Elbow:
    """The line from a method's average rank on the axis to its name."""

    index: int
    side: str
    row: int
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Bar:
    """A thick horizontal bar (clique, CD scale, control interval).

    ``crossed`` lists the methods outside a clique whose line passes through
    its bar (their average rank equals, or is indistinguishably close to,
    a member's); the drawing sets those lines off with a white gap.
    """

    role: str
    x0: float
    x1: float
    y: float
    members: tuple[int, ...] = ()
    open_left: bool = False
    open_right: bool = False
    crossed: tuple[int, ...] = ()
    width: float = 0.0


@dataclass
class CDLayout:
    """Everything the CD diagram draws, placed.

    ``labels`` are the texts shown for the methods (two lines joined by a
    newline when wrapped, shortened with a key number when needed) and
    ``key`` the ``(number, full name)`` pairs of the shortened ones.
    ``fits`` is False when the content could not be made legible in the
    room given; ``extra['need']`` then holds the (width, height) it needs.
    """

    width: float
    height: float
    font_size: float
    small_size: float
    axis_y: float
    axis_x0: float  # x of rank_lo
    axis_x1: float  # x of rank_hi
    k: int
    major_ticks: list[int]
    labelled_ticks: list[int]
    half_ticks: bool
    tick_length: float
    elbows: list[Elbow]
    bars: list[Bar]
    boxes: list[Box]
    fits: bool
    points_per_rank: float
    extra: dict = field(default_factory=dict)
    rank_lo: int = 1
    rank_hi: int = 0
    axis_break: float = 0.0  # x where the axis is broken (0: not broken)
    axis_end: float = 0.0  # x where the drawn axis line ends on the best side
    labels: list[str] = field(default_factory=list)
    key: list[tuple[str, str]] = field(default_factory=list)
    bar_width: float = 0.0

    def x(self, rank: float) -> float:
        """x of an average rank."""
        hi = self.rank_hi or self.k
        if hi == self.rank_lo:
            return (self.axis_x0 + self.axis_x1) / 2
        return self.axis_x0 + (rank - self.rank_lo) * (self.axis_x1 - self.axis_x0) / (
            hi - self.rank_lo
        )


def rank_span(ranks: Sequence[float], k: int, full: bool | None) -> tuple[int, int]:
    """The integer ranks the axis runs between: 1..k, or the occupied ones rounded out.

    ``full=None`` is the default of every rank axis (CD diagram and
    rank-interval chart alike): the full axis for fewer than 10 methods,
    the occupied ranks from 10 on.
    """
    if full is None:
        full = k < 10
    if full or k < 2:
        return 1, max(k, 1)
    lo = max(1, math.floor(min(ranks) + 1e-9))
    hi = min(k, math.ceil(max(ranks) - 1e-9))
    if hi - lo < 1:
        hi = min(k, lo + 1)
        lo = hi - 1
    # a break saves nothing when only rank 1 would be left out of a short axis
    if lo == 2 and hi - lo < 4:
        lo = 1
    return lo, hi


def _break_marks(x_first: float, best_dir: float, stub: float, broken: bool):
    """x of the break mark and of the axis end, in a stub beyond the first rank shown."""
    if not broken:
        return 0.0, x_first
    return x_first + best_dir * 0.45 * stub, x_first + best_dir * 0.9 * stub


def axis_polylines(
    x_far: float,
    x_near: float,
    y: float,
    *,
    axis_break: float,
    axis_end: float,
    font_size: float,
    small_size: float,
) -> tuple[tuple[list, list], tuple[list, list]]:
    """The rank axis and its break mark, as polylines (``None`` separates pieces).

    Unbroken (``axis_break == 0``) the axis runs from ``x_far`` to
    ``x_near``.  Broken, it runs on past ``x_near`` (the first rank shown)
    to a gap at ``axis_break`` crossed by two slanted strokes, standing for
    the ranks left out, and ends at ``axis_end``.  The CD diagram, the
    rank-interval chart and their TikZ pictures all draw these.
    """
    if not axis_break:
        return ([x_far, x_near], [y, y]), ([], [])
    gap = max(1.2, 0.25 * font_size)
    toward = 1.0 if axis_end > x_near else -1.0
    line = (
        [x_far, axis_break - toward * gap / 2, None, axis_break + toward * gap / 2, axis_end],
        [y, y, None, y, y],
    )
    h = max(2.0, 0.4 * small_size)
    mx, my = [], []
    for dx in (-gap / 2, gap / 2):
        cx = axis_break + dx
        mx += [cx - h * 0.35, cx + h * 0.35, None]
        my += [y + h / 2, y - h / 2, None]
    return line, (mx, my)


def cd_layout(
    names: Sequence[str],
    ranks: Sequence[float],
    *,
    measure: Measure,
    style: Style,
    width: float | None = None,
    height: float | None = None,
    grow: bool = True,
    reverse: bool = False,
    cliques: Sequence[Sequence[int]] = (),
    cd: float | None = None,
    control: int | None = None,
    bold: Sequence[int] = (),
    show_ranks: bool = True,
    rank_format: str = "{:.2f}",
    cd_label: str | None = None,
    direction: str = "better",
    notes: Sequence[str] = (),
    caption: str | None = None,
    full_axis: bool | None = None,
    start_size: float | None = None,
    sides: Sequence[str] | None = None,
    tags: Sequence[str] | None = None,
    show_key: bool = True,
) -> CDLayout:
    """Place a critical-difference diagram.

    The width is the style's (or ``width``) whatever the names are.  To fit,
    the type shrinks in half-point steps down to the style's minimum, names
    wider than their column are wrapped on two lines at natural breaks,
    and at the smallest type names that still do not fit are shortened
    with a key number (the full names are listed in the key under the
    diagram).  Styles with a fixed aspect (slides) grow, keeping it, up to
    a 13.33 in wide slide when the content is too tall.  When nothing
    makes the content legible, the layout is squeezed and ``fits`` is
    False, with the room it needs in ``extra['need']``.

    Parameters
    ----------
    names, ranks : sequence
        Method names and average ranks, in the same (any) order.
    measure : callable
        ``measure(text, size, bold) -> (width, height, descent)`` in points.
    style : Style
        Sizes and spacing.
    width, height : float, optional
        Target width and fixed height in points (default: the style's;
        a style with a fixed aspect keeps it for a given width).
        ``height=None`` sizes the height to the content.
    grow : bool
        Whether a fixed-aspect style may grow (keeping its aspect) when
        the content is too tall; inside a given Axes it may not.
    reverse : bool
        Best ranks on the left instead of Demsar's right.
    cliques : sequence of sequence of int
        Indices of the methods joined by each bar.
    cd : float, optional
        Critical difference: a scale bar, or the interval around
        ``control`` when one is given.
    control : int, optional
        Index of the control method (Bonferroni-Dunn interval).
    bold : sequence of int
        Methods whose names are bold (and whose lines are thicker).
    show_ranks : bool
        Print average ranks beside the names.
    rank_format : str
        Format of the printed ranks.
    cd_label : str, optional
        Text above the CD bar (default ``'CD = 1.25'``).
    direction : str
        Word at the better end of the axis (empty for none).
    notes, caption : optional
        Paragraphs of notes and the caption, wrapped to the width.
    full_axis : bool, optional
        Run the axis from 1 to k; by default (``None``) it does for fewer
        than 10 methods and otherwise spans the occupied ranks, rounded out
        to integers, with a break mark when it does not start at 1.
    start_size : float, optional
        Try no name size above this one (a second pass after notes were
        added starts where the first ended).
    sides : sequence of {'best', 'worst'}, optional
        The side of the axis each method is named on (input order);
        by default the better half is named on the best side.  Several
        panels of the same methods use it to keep each name on one side.
    tags : sequence of str, optional
        The key number of each method (input order) should its name be
        shortened; by default shortened names are numbered in rank order.
    show_key : bool
        Place the key to shortened names under the diagram (``False``
        when the caller sets one key for several diagrams; ``key`` still
        lists the shortened names).

    Returns
    -------
    CDLayout
    """
    k = len(names)
    span = rank_span(ranks, k, full_axis)
    base_w = style.width_pt if width is None else float(width)
    aspect = None if style.height is None else style.height / style.width
    if height is not None:
        base_h = float(height)
    elif aspect is not None:
        base_h = base_w * aspect
    else:
        base_h = None
    sizes = style.font_sizes()
    if start_size is not None:
        sizes = [s for s in sizes if s <= start_size + 1e-9] or sizes[-1:]
    args = (
        names,
        ranks,
        measure,
        style,
        reverse,
        cliques,
        cd,
        control,
        set(bold),
        show_ranks,
        rank_format,
        cd_label,
        direction,
        notes,
        caption,
        span,
        None if sides is None else tuple(sides),
        None if tags is None else tuple(tags),
        show_key,
    )
    scales = [1.0]
    if aspect is not None and height is None and grow:
        scales = [1.0, 1.125, 1.25, _MAX_SLIDE_SCALE]
    lay = None
    # a balanced diagram (the axis keeps 30 % of the width) on a slide grown to 13.3 in
    # comes before one whose names squeeze the axis, or are shortened
    for share in (0.3, 0.0):
        for scale in scales:
            w = base_w * scale
            h = None if base_h is None else base_h * scale
            lay = _fit_cd(args, sizes, w, h, share, height is not None)
            if lay is not None:
                return _finish(lay, h, k)
    # nothing legible: measure what it needs, then squeeze into what there is
    w = base_w * scales[-1]
    dense = height is not None
    need = _cd_at(*args, sizes[-1], w, "short", False, 0.0, dense)
    need_w = max(w, need.extra["min_width"])
    need_h = need.height
    if aspect is not None and height is None and grow:
        # keep the aspect, grown as far as the content needs
        scale = max(need_h / base_h, need_w / base_w)
        w, h = base_w * scale, base_h * scale
        lay = _cd_at(*args, sizes[-1], w, "short", True, 0.0, dense)
        need_w, need_h = w, h
    else:
        h = None if base_h is None else base_h * scales[-1]
        lay = _cd_at(*args, sizes[-1], w, "short", True, 0.0, dense)
    lay.fits = False
    lay.extra["need"] = (need_w, need_h)
    return _finish(lay, h, k)


def _fit_cd(args, sizes, width, height, share, dense_ok=False):
    """The first legible layout: one-line names at the largest size that holds them, then
    wrapped names (largest size first), with the rank axis taking at least ``share`` of
    the width; in a fixed height (``dense_ok``), then the same with dense label rows; with
    no share
    asked, then the smallest size with a key."""
    row_modes = (False, True) if dense_ok else (False,)
    for dense in row_modes:
        for mode in ("plain", "wrap"):
            for fs in sizes:
                lay = _cd_at(*args, fs, width, mode, False, share, dense)
                if lay.fits and (height is None or lay.height <= height + 1e-6):
                    return lay
    if share:
        return None
    for dense in row_modes:
        lay = _cd_at(*args, sizes[-1], width, "short", False, 0.0, dense)
        if lay.fits and (height is None or lay.height <= height + 1e-6):
            return lay
    return None


def _finish(lay, height, k):
    if height is not None and lay.height < height:
        _shift(lay, (height - lay.height) / 2)
        lay.height = height
    lay.extra["k"] = k
    return lay


def _shift(lay, dy: float) -> None:
    """Move everything down by ``dy`` (centres content on a fixed-height slide)."""
    lay.axis_y += dy
    lay.elbows = [
        Elbow(e.index, e.side, e.row, tuple((x, y + dy) for x, y in e.points)) for e in lay.elbows
    ]
    lay.bars = [
        Bar(b.role, b.x0, b.x1, b.y + dy, b.members, b.open_left, b.open_right, b.crossed, b.width)
        for b in lay.bars
    ]
    lay.boxes = [_moved(b, dy) for b in lay.boxes]


def _clique_bars(cliques, xs, half_lines, ext, tied_ext):
    """Bar spans that cover their members' lines and stop short of every other line.

    A bar reaches ``ext`` past its outer members (``tied_ext`` for a group
    of equal ranks, so that it stays clearly visible), but never closer to
    the line of a method outside the group than that line's half-width
    plus a clearance.  Outsiders whose lines fall within the members' span
    (an equal or indistinguishably close average rank) are returned as
    crossed, to be drawn over the bar with a gap.
    """
    out = []
    for members in cliques:
        mset = set(members)
        mx = [xs[i] for i in members]
        a, b = min(mx), max(mx)
        reach = tied_ext if b - a < 1e-6 else ext
        lo, hi = a - reach, b + reach
        crossed = []
        for j, xj in enumerate(xs):
            if j in mset:
                continue
            keep_off = half_lines[j]
            if a - keep_off < xj < b + keep_off:
                crossed.append(j)
            elif xj <= a - keep_off:
                lo = max(lo, xj + keep_off)
            else:
                hi = min(hi, xj - keep_off)
        out.append((min(lo, a), max(hi, b), tuple(crossed)))
    return out


def _unfit(width, fs, ss, k, min_width, plain_fits) -> CDLayout:
    """A layout attempt that does not fit, with only what the search reads."""
    return CDLayout(
        width=width,
        height=math.inf,
        font_size=fs,
        small_size=ss,
        axis_y=0.0,
        axis_x0=0.0,
        axis_x1=0.0,
        k=k,
        major_ticks=[],
        labelled_ticks=[],
        half_ticks=False,
        tick_length=0.0,
        elbows=[],
        bars=[],
        boxes=[],
        fits=False,
        points_per_rank=0.0,
        extra={"min_width": min_width, "plain_fits": plain_fits},
    )


def _fan_ties(ranks, dots, cliques, spacing):
    """x of each method's line: its dot's, with exactly tied methods side by side.

    Tied methods share a dot on the axis; their lines are set ``spacing``
    apart so that each stays visible and a bar can stop between a member
    and a tied outsider.  Within a tie, a method whose groups lie further
    right is placed further right, so that bars need not cross.
    """
    xs = list(dots)
    ties: dict[float, list[int]] = {}
    for i, r in enumerate(ranks):
        ties.setdefault(r, []).append(i)
    centres = [sum(dots[m] for m in c) / len(c) if c else 0.0 for c in (tuple(c) for c in cliques)]
    for members in ties.values():
        if len(members) < 2:
            continue

        def lean(i):
            mine = [centres[n] for n, c in enumerate(cliques) if i in c]
            return sum(mine) / len(mine) if mine else dots[i]

        members.sort(key=lambda i: (lean(i), i))
        start = dots[members[0]] - spacing * (len(members) - 1) / 2
        for n, i in enumerate(members):
            xs[i] = start + n * spacing
    return xs


def _cd_at(
    names,
    ranks,
    measure,
    style,
    reverse,
    cliques,
    cd,
    control,
    bold,
    show_ranks,
    rank_format,
    cd_label,
    direction,
    notes,
    caption,
    span,
    sides,
    tags,
    show_key,
    fs,
    width,
    mode,
    squeeze,
    share=0.0,
    dense=False,
) -> CDLayout:
    k = len(names)
    r_lo, r_hi = span
    ss = style.small_for(fs)
    pad = style.pad
    _w, lp, lp_d = measure("lp", fs, False)
    lps = measure("lp", ss, False)[1]

    order = sorted(range(k), key=lambda i: (ranks[i], i))
    n_best = math.ceil(k / 2)
    best_side, worst_side = ("left", "right") if reverse else ("right", "left")
    if sides is None:
        side = {i: (best_side if pos < n_best else worst_side) for pos, i in enumerate(order)}
    else:
        side = {i: best_side if sides[i] == "best" else worst_side for i in range(k)}

    values = {i: rank_format.format(ranks[i]) for i in range(k)}
    value_w = (
        {i: measure(values[i], ss, False)[0] * _SAFETY for i in range(k)} if show_ranks else {}
    )

    def value_col(s):
        return max((value_w[i] for i in range(k) if side[i] == s), default=0.0)

    wl_v = value_col("left") if show_ranks else 0.0
    wr_v = value_col("right") if show_ranks else 0.0
    g_nv = _GAP_NAME_VALUE * fs if show_ranks else 0.0
    g_vl = _GAP_VALUE_LINE * fs
    stub = max(4.0, 0.8 * fs)
    tick_label_w = measure(str(r_hi), ss, False)[0] + 0.9 * ss
    n_ranks = r_hi - r_lo
    # the axis may keep a share of the width: long names then wrap before they squeeze it
    min_axis = max(
        _MIN_AXIS, style.min_points_per_rank * n_ranks, 1.6 * tick_label_w, share * width
    )
    fixed = 2 * pad + wl_v + wr_v + 2 * (g_nv + g_vl) + 2 * stub
    room = width - fixed - min_axis  # for the two name columns together

    # ---- labels: one line, wrapped or shortened, within each side's column
    name_w = {i: measure(names[i], fs, i in bold)[0] * _SAFETY for i in range(k)}
    widest = {
        s: max((name_w[i] for i in range(k) if side[i] == s), default=0.0)
        for s in ("left", "right")
    }
    plain_fits = widest["left"] + widest["right"] <= room + 1e-9
    labels = {i: [names[i]] for i in range(k)}
    key: list[tuple[str, str]] = []
    fits = plain_fits
    if not plain_fits and mode != "plain":
        # each side gets half the room; a side that needs less leaves the rest to the other
        half = max(room / 2, 0.0)
        budget = {"left": half, "right": half}
        for s, o in (("left", "right"), ("right", "left")):
            if widest[s] < half:
                budget[o] = room - widest[s]
        labels, key, fits = fit_labels(
            names, order, lambda i: budget[side[i]], fs, bold, measure, mode, tags
        )
        if tags is not None:
            key.sort(key=lambda entry: tags.index(entry[0]))
    label_w = {i: max(measure(t, fs, i in bold)[0] for t in labels[i]) * _SAFETY for i in range(k)}
    wl_n = max((label_w[i] for i in range(k) if side[i] == "left"), default=0.0)
    wr_n = max((label_w[i] for i in range(k) if side[i] == "right"), default=0.0)
    n_lines = max(len(v) for v in labels.values())
    label_h = _block_height(n_lines, lp, lp_d, LINE_SPACING)
    row_h = max(lp * _ROW, lp + 2.0) if n_lines == 1 else label_h + 0.5 * lp
    if dense:
        # a fixed height (a grid cell) that normal rows overrun: rows as close as the lines
        # of body text, before names are shortened or the room is overrun
        row_h = _DENSE_ROW * lp if n_lines == 1 else label_h + (_DENSE_ROW - 1.0) * lp

    left_block = pad + wl_n + g_nv + wl_v + g_vl
    right_block = pad + wr_n + g_nv + wr_v + g_vl
    min_width = left_block + right_block + 2 * stub + min_axis
    fits = fits and min_width <= width + 1e-9
    if not fits and not squeeze and mode != "short":
        # this attempt is discarded anyway: skip placing everything (large k tries many)
        return _unfit(width, fs, ss, k, min_width, plain_fits)
    axis_len = width - left_block - right_block - 2 * stub
    if squeeze:
        axis_len = max(axis_len, 12.0)
    ax0 = left_block + stub  # left end of the axis
    ax1 = ax0 + axis_len
    # rank r_lo sits at the best end
    x_lo, x_hi = (ax1, ax0) if not reverse else (ax0, ax1)
    ppr = axis_len / n_ranks if n_ranks else axis_len

    def xr(r):
        if not n_ranks:
            return (ax0 + ax1) / 2
        return x_lo + (r - r_lo) * (x_hi - x_lo) / n_ranks

    boxes: list[Box] = []
    bars: list[Bar] = []

    # ---- above the axis: header (CD label, direction), bar row, tick labels
    y = pad
    cd_box = dir_box = None
    cd_bar = None
    if cd is not None and k > 1:
        if control is None:
            # Demsar's scale bar starts at the worse end of the axis
            length = min(cd, n_ranks) * ppr
            start = x_hi
            bx0, bx1 = (start, start + length) if not reverse else (start - length, start)
            cd_bar = Bar(
                "cd",
                bx0,
                bx1,
                0.0,
                open_right=cd > n_ranks and not reverse,
                open_left=cd > n_ranks and reverse,
            )
            label = cd_label or f"CD = {cd:.2f}"
            cd_box = _box(measure, label, "cd-label", (bx0 + bx1) / 2, 0.0, "center", "top", ss)
        else:
            rc = ranks[control]
            lo, hi = max(float(r_lo), rc - cd), min(float(r_hi), rc + cd)
            xa, xb = sorted((xr(lo), xr(hi)))
            open_lo, open_hi = rc - cd < r_lo, rc + cd > r_hi
            # which screen side is open depends on the orientation
            ol, orr = (open_hi, open_lo) if not reverse else (open_lo, open_hi)
            cd_bar = Bar(
                "cd-interval", xa, xb, 0.0, members=(control,), open_left=ol, open_right=orr
            )
            label = cd_label or f"CD = {cd:.2f}"
            cd_box = _box(measure, label, "cd-label", xr(rc), 0.0, "center", "top", ss)
        # keep the label inside the figure
        if cd_box.x0 < pad:
            cd_box = _box(measure, cd_box.text, "cd-label", pad, 0.0, "left", "top", ss)
        if cd_box.x1 > width - pad:
            cd_box = _box(measure, cd_box.text, "cd-label", width - pad, 0.0, "right", "top", ss)
    if direction:
        arrow = f"{direction} \u2192" if not reverse else f"\u2190 {direction}"
        dx, dha = (ax1, "right") if not reverse else (ax0, "left")
        dir_box = _box(measure, arrow, "direction", dx, 0.0, dha, "top", ss, color="muted")
    if cd_box is not None and dir_box is not None and cd_box.overlaps(dir_box, -0.6 * ss):
        header_rows = [[dir_box], [cd_box]]
    else:
        header_rows = [[b for b in (cd_box, dir_box) if b is not None]]
    for row in header_rows:
        if not row:
            continue
        for b in row:
            boxes.append(
                _box(measure, b.text, b.role, b.x, y, b.ha, "top", b.size, b.bold, b.color)
            )
        y += lps + 0.15 * ss
    if cd_bar is not None:
        y += style.bar_width / 2 + 0.5
        bars.append(
            Bar(
                cd_bar.role,
                cd_bar.x0,
                cd_bar.x1,
                y,
                cd_bar.members,
                cd_bar.open_left,
                cd_bar.open_right,
                width=style.bar_width,
            )
        )
        y += style.bar_width / 2 + 0.6 * ss
    else:
        y += 0.3 * ss
    major, labelled, halves = tick_ranks(r_hi, ppr if n_ranks else 1e9, tick_label_w, lo=r_lo)
    tick_len = max(2.5, 0.45 * ss)
    for r in labelled:
        boxes.append(_box(measure, str(r), "tick", xr(r), y, "center", "top", ss))
    y += lps + 0.25 * ss + tick_len
    axis_y = y
    # a broken axis: the line runs on past rank r_lo into the stub, with a mark
    axis_break, axis_end = _break_marks(xr(r_lo), 1.0 if not reverse else -1.0, stub, r_lo > 1)

    # ---- below the axis: clique bars, stacked
    y = axis_y + max(0.7 * fs, 4.0)
    dots = [xr(r) for r in ranks]
    # half the drawn width of each line plus a clearance no bar may enter
    half_lines = [
        style.line_width * (1.6 if i in bold else 1.0) / 2 + max(0.5, 0.1 * fs) for i in range(k)
    ]
    xs = _fan_ties(ranks, dots, cliques, 2 * max(half_lines) + 0.4)
    ext = max(1.5, 0.25 * fs)
    spans = _clique_bars(cliques, xs, half_lines, ext, max(ext, 0.9 * fs))
    rows = pack_rows([(lo, hi) for lo, hi, _c in spans], gap=max(3.0, 0.6 * fs))
    n_bar_rows = (max(rows) + 1) if rows else 0
    # many stacked bars get thinner, with a gap of at least their own thickness
    bar_w = style.bar_width if n_bar_rows <= 8 else max(1.0, style.bar_width * 0.6)
    step = bar_w + max(2.0, 0.35 * fs, bar_w)
    for members, (lo, hi, crossed), row in zip(cliques, spans, rows, strict=True):
        bars.append(
            Bar("clique", lo, hi, y + row * step, tuple(members), crossed=crossed, width=bar_w)
        )
    if n_bar_rows:
        y += (n_bar_rows - 1) * step + bar_w / 2 + max(0.8 * fs, 4.0)
    fan_drop = max(0.7 * fs, 4.0) - bar_w / 2 - 0.5
    # ---- label rows: on each side the method nearest the edge takes the top row
    first_row = y + row_h / 2
    elbows: list[Elbow] = []
    left = sorted((i for i in range(k) if side[i] == "left"), key=lambda i: (xs[i], i))
    right = sorted((i for i in range(k) if side[i] == "right"), key=lambda i: (-xs[i], i))
    line_end_l = left_block
    line_end_r = width - right_block
    texts = {i: "\n".join(labels[i]) for i in range(k)}
    for s, members in (("left", left), ("right", right)):
        for row, i in enumerate(members):
            ry = first_row + row * row_h
            x = xs[i]
            end = line_end_l if s == "left" else line_end_r
            # tied lines leave their shared dot side by side, then run straight down
            pts = ((dots[i], axis_y), (x, axis_y + fan_drop), (x, ry), (end, ry))
            if x == dots[i]:
                pts = ((x, axis_y), (x, ry), (end, ry))
            elbows.append(Elbow(i, s, row, pts))
            color = "accent" if (i in bold) else "ink"
            if s == "left":
                vx = line_end_l - g_vl
                nx = vx - (wl_v + g_nv if show_ranks else 0.0)
                ha, vha = "right", "right"
            else:
                vx = line_end_r + g_vl
                nx = vx + (wr_v + g_nv if show_ranks else 0.0)
                ha, vha = "left", "left"
            if show_ranks:
                boxes.append(
                    _box(measure, values[i], "value", vx, ry, vha, "center", ss, color="muted")
                )
            boxes.append(
                _box(measure, texts[i], "name", nx, ry, ha, "center", fs, i in bold, color)
            )
    n_rows = max(len(left), len(right))
    y = first_row + (n_rows - 1) * row_h + row_h / 2 if n_rows else y

    # ---- notes, caption and the key to shortened names, wrapped to the width
    text_w = max(width - 2 * pad, 20.0)
    line_h = lps * 1.25
    for role, paragraphs in (("note", notes), ("caption", [caption] if caption else [])):
        lines = [ln for p in paragraphs for ln in wrap_text(p, text_w, ss, measure)]
        if lines:
            y += 0.5 * ss
        for ln in lines:
            boxes.append(
                _box(
                    measure,
                    ln,
                    role,
                    pad,
                    y,
                    "left",
                    "top",
                    ss,
                    color="muted" if role == "note" else "ink",
                )
            )
            y += line_h
    if key and show_key:
        y += 0.5 * ss
        y = _key_boxes(boxes, key, pad, y, text_w, ss, measure)
    height = y + pad
    return CDLayout(
        width=width,
        height=height,
        font_size=fs,
        small_size=ss,
        axis_y=axis_y,
        axis_x0=x_lo,
        axis_x1=x_hi,
        k=k,
        major_ticks=major,
        labelled_ticks=labelled,
        half_ticks=halves,
        tick_length=tick_len,
        elbows=elbows,
        bars=bars,
        boxes=boxes,
        fits=fits,
        points_per_rank=ppr,
        extra={
            "min_width": min_width,
            "axis_left": ax0,
            "axis_right": ax1,
            "row_height": row_h,
            "plain_fits": plain_fits,
        },
        rank_lo=r_lo,
        rank_hi=r_hi,
        axis_break=axis_break,
        axis_end=axis_end,
        labels=[texts[i] for i in range(k)],
        key=key,
        bar_width=bar_w,
    )


def _key_boxes(boxes, key, x0, y, text_w, ss, measure) -> float:
    """The key to shortened names, in as many columns as the width holds; returns the new y."""
    line_h = measure("lp", ss, False)[1] * 1.25
    entries = [f"{tag}\u00a0{name}" for tag, name in key]
    col_gap = 1.2 * ss
    col_w = max(measure(e, ss, False)[0] * _SAFETY for e in entries)
    n_cols = max(1, min(len(entries), int((text_w + col_gap) // (col_w + col_gap))))
    if n_cols == 1:
        for e in entries:
            for ln in wrap_text(e, text_w, ss, measure):
                boxes.append(_box(measure, ln, "key", x0, y, "left", "top", ss))
                y += line_h
        return y
    per_col = math.ceil(len(entries) / n_cols)
    for n, e in enumerate(entries):
        c, r = divmod(n, per_col)
        boxes.append(
            _box(measure, e, "key", x0 + c * (col_w + col_gap), y + r * line_h, "left", "top", ss)
        )
    return y + per_col * line_h


# ---------------------------------------------------------------------------
# rank-interval chart
# ---------------------------------------------------------------------------


@dataclass
class IntervalLayout:
    """The rank-interval chart, placed."""

    width: float
    height: float
    font_size: float
    small_size: float
    rows: list[tuple[int, float]]  # (method index, y), best first
    x0: float  # plot area
    x1: float
    lo: float  # rank domain shown
    hi: float
    reverse: bool
    plot_top: float
    axis_y: float
    ticks: list[int]
    tick_length: float
    boxes: list[Box]
    fits: bool
    extra_min_width: float = 0.0
    key: list[tuple[str, str]] = field(default_factory=list)
    extra_need: tuple[float, float] = (0.0, 0.0)
    rank_lo: int = 1  # the integer ranks the axis spans (as the CD diagram's)
    rank_hi: int = 0
    axis_break: float = 0.0  # x where the axis is broken (0: not broken)
    axis_end: float = 0.0  # x where the drawn axis line ends on the best side

    def x(self, rank: float) -> float:
        t = (rank - self.lo) / (self.hi - self.lo)
        if not self.reverse:
            t = 1.0 - t  # best (low) ranks on the right
        return self.x0 + t * (self.x1 - self.x0)


def interval_layout(
    names: Sequence[str],
    ranks: Sequence[float],
    half_width: float,
    *,
    measure: Measure,
    style: Style,
    width: float | None = None,
    height: float | None = None,
    grow: bool = True,
    reverse: bool = False,
    bold: Sequence[int] = (),
    direction: str = "better",
    caption: str | None = None,
    legend: Sequence[tuple[str, str]] = (),
    full_axis: bool | None = None,
    shown: Sequence[int] | None = None,
) -> IntervalLayout:
    """Place a rank-interval chart: one row per method, best at the top.

    ``half_width`` is half the length of each segment (CD / 2), or the
    half-width of the reference interval (CD against a control).
    ``legend`` holds ``(colour role, text)`` pairs written under the axis.
    The width is kept as the CD diagram keeps it (type shrinks, names wrap,
    then are shortened with a key); ``fits`` is False, with the room needed
    in ``extra_need``, when nothing makes the chart legible.

    The rank axis follows the CD diagram's rule (:func:`rank_span`): from
    10 methods on (``full_axis=None``) it spans the ranks the segments
    occupy, rounded out to integers, with a break mark at its best end
    when it does not start at 1; ``full_axis=True`` runs it from 1 to k.
    Segments reaching past rank 1 or k are shown whole either way.

    ``shown`` (indices) draws only those methods' rows, with the axis,
    name column and key numbers of the whole chart, so that the parts of
    a chart too tall for a page line up.
    """
    base_w = style.width_pt if width is None else float(width)
    aspect = None if style.height is None else style.height / style.width
    base_h = (
        float(height) if height is not None else (base_w * aspect if aspect is not None else None)
    )
    scales = [1.0, 1.125, 1.25, _MAX_SLIDE_SCALE] if aspect and height is None and grow else [1.0]
    sizes = style.font_sizes()
    k = len(names)
    # the ranks the segments cover (within 1..k), rounded out as the CD diagram's axis
    ends = (max(1.0, min(ranks) - half_width), min(float(k), max(ranks) + half_width))
    span = rank_span(ends, k, full_axis)
    args = (names, ranks, half_width, measure, style)
    rest = (
        reverse,
        set(bold),
        direction,
        caption,
        legend,
        span,
        set(range(k)) if shown is None else set(shown),
    )
    for scale in scales:
        w = base_w * scale
        h = None if base_h is None else base_h * scale
        for mode in ("plain", "wrap", "short"):
            for fs in sizes if mode != "short" else sizes[-1:]:
                lay = _intervals_at(*args, fs, w, mode, *rest)
                if lay.fits and (h is None or lay.height <= h + 1e-6):
                    return _finish_intervals(lay, h)
    w = base_w * scales[-1]
    lay = _intervals_at(*args, sizes[-1], w, "short", *rest)
    need = (max(w, lay.extra_min_width), lay.height)
    h = None if base_h is None else base_h * scales[-1]
    if aspect is not None and height is None and grow:
        scale = max(need[1] / base_h, need[0] / base_w)
        w, h = base_w * scale, base_h * scale
        lay = _intervals_at(*args, sizes[-1], w, "short", *rest)
        need = (w, h)
    lay.fits = False
    lay.extra_need = need
    return _finish_intervals(lay, h)


def _finish_intervals(lay, height):
    if height is not None and lay.height < height:
        dy = (height - lay.height) / 2
        lay.rows = [(i, y + dy) for i, y in lay.rows]
        lay.plot_top += dy
        lay.axis_y += dy
        lay.boxes = [_moved(b, dy) for b in lay.boxes]
        lay.height = height
    return lay


def _moved(b: Box, dy: float) -> Box:
    return Box(
        b.text,
        b.role,
        b.x,
        b.y + dy,
        b.ha,
        b.va,
        b.size,
        b.bold,
        b.x0,
        b.y0 + dy,
        b.x1,
        b.y1 + dy,
        b.rotation,
        b.color,
    )


def _intervals_at(
    names,
    ranks,
    hw,
    measure,
    style,
    fs,
    width,
    mode,
    reverse,
    bold,
    direction,
    caption,
    legend,
    span,
    shown,
):
    k = len(names)
    r_lo, r_hi = span
    broken = r_lo > 1
    ss = style.small_for(fs)
    pad = style.pad
    _w, lp, lp_d = measure("lp", fs, False)
    lps = measure("lp", ss, False)[1]
    order = sorted(range(k), key=lambda i: (ranks[i], i))
    # segments reaching past rank 1 or k are shown whole
    lo = min(float(r_lo), min(ranks) - hw)
    hi = max(float(r_hi), max(ranks) + hw)
    extent = hi - lo
    # a broken axis ends at its first rank, then runs on into a stub with the break mark
    lo, hi = lo - (0.0 if broken else 0.02 * extent), hi + 0.02 * extent
    stub = max(4.0, 0.8 * fs) if broken else 0.0
    tick_w = measure(str(r_hi), ss, False)[0]
    min_plot = max(_MIN_AXIS, style.min_points_per_rank * max(r_hi - r_lo, 1))
    gap = 0.8 * fs
    room = width - 2 * pad - gap - tick_w / 2 - 1 - min_plot - stub
    # every method's label is fitted (one name column, one numbering of the key), only the
    # shown ones are placed
    labels, key, fits = fit_labels(names, order, lambda i: room, fs, bold, measure, mode)
    name_w = max(max(measure(t, fs, i in bold)[0] for t in labels[i]) for i in range(k)) * _SAFETY
    n_lines = max(len(v) for v in labels.values())
    order = [i for i in order if i in shown]
    shown_names = {names[i] for i in order}
    key = [(tag, name) for tag, name in key if name in shown_names]
    row_h = (
        max(lp * 1.5, lp + 2.0)
        if n_lines == 1
        else _block_height(n_lines, lp, lp_d, LINE_SPACING) + 0.5 * lp
    )
    x0 = pad + name_w + gap
    x1 = width - pad - tick_w / 2 - 1
    extra_min_width = x0 + min_plot + stub + pad + tick_w / 2 + 1
    # the stub is on the best side: right, or left (beside the names) when reversed
    if reverse:
        x0 += stub
    else:
        x1 -= stub
    fits = fits and x1 - x0 >= min_plot - 1e-9
    if not fits:
        x1 = max(x1, x0 + 12.0)
    lay = IntervalLayout(
        width,
        0.0,
        fs,
        ss,
        [],
        x0,
        x1,
        lo,
        hi,
        reverse,
        pad,
        0.0,
        [],
        max(2.5, 0.45 * ss),
        [],
        fits,
        extra_min_width,
        rank_lo=r_lo,
        rank_hi=r_hi,
    )
    lay.key = key
    first = lay.x(r_lo)
    lay.axis_break, lay.axis_end = _break_marks(first, -1.0 if reverse else 1.0, stub, broken)
    y = pad + 0.3 * row_h
    lay.plot_top = pad
    boxes = []
    for pos, i in enumerate(order):
        ry = y + (pos + 0.5) * row_h
        lay.rows.append((i, ry))
        boxes.append(
            _box(
                measure,
                "\n".join(labels[i]),
                "name",
                x0 - gap,
                ry,
                "right",
                "center",
                fs,
                i in bold,
                "accent" if i in bold else "ink",
            )
        )
    y += len(order) * row_h + 0.3 * row_h
    lay.axis_y = y
    ppr = (x1 - x0) / (hi - lo)
    label_w = tick_w + 0.9 * ss
    _major, labelled, _h = tick_ranks(r_hi, ppr, label_w, lo=r_lo)
    lay.ticks = labelled
    y += lay.tick_length + 0.15 * ss
    for r in labelled:
        boxes.append(_box(measure, str(r), "tick", lay.x(r), y, "center", "top", ss))
    y += lps + 0.3 * ss
    title = "average rank"
    boxes.append(_box(measure, title, "axis-title", (x0 + x1) / 2, y, "center", "top", ss))
    if direction:
        arrow = f"{direction} \u2192" if not reverse else f"\u2190 {direction}"
        bx = _box(
            measure,
            arrow,
            "direction",
            x1 if not reverse else x0,
            y,
            "right" if not reverse else "left",
            "top",
            ss,
            color="muted",
        )
        title_box = boxes[-1]
        if bx.overlaps(title_box, -0.5 * ss):
            y += lps * 1.2
            bx = _box(measure, arrow, "direction", bx.x, y, bx.ha, "top", ss, color="muted")
        boxes.append(bx)
    y += lps * 1.25
    text_w = max(width - 2 * pad, 20.0)
    for role, text in legend:
        for ln in wrap_text(text, text_w - 1.6 * ss, ss, measure):
            boxes.append(
                _box(measure, ln, f"legend:{role}", pad + 1.6 * ss, y + 0.2 * ss, "left", "top", ss)
            )
            y += lps * 1.25
    if caption:
        y += 0.3 * ss
        for ln in wrap_text(caption, text_w, ss, measure):
            boxes.append(_box(measure, ln, "caption", pad, y, "left", "top", ss))
            y += lps * 1.25
    if key:
        y += 0.3 * ss
        y = _key_boxes(boxes, key, pad, y, text_w, ss, measure)
    lay.height = y + pad
    lay.boxes = boxes
    return lay


# ---------------------------------------------------------------------------
# significance heatmap
# ---------------------------------------------------------------------------


@dataclass
class HeatmapLayout:
    """The lower-triangle p-value heatmap, placed."""

    width: float
    height: float
    font_size: float
    small_size: float
    order: list[int]  # methods, best first
    cell: float
    grid_x0: float
    grid_y0: float
    annotate: bool
    legend_swatches: list[tuple[float, float, float]]  # (x, y centre, side) per legend entry
    boxes: list[Box]
    fits: bool
    key: list[tuple[str, str]] = field(default_factory=list)
    need: tuple[float, float] = (0.0, 0.0)

    def cell_box(self, row: int, col: int) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the cell comparing ``order[row + 1]`` with ``order[col]``."""
        x = self.grid_x0 + col * self.cell
        y = self.grid_y0 + row * self.cell
        return x, y, x + self.cell, y + self.cell


def heatmap_layout(
    names: Sequence[str],
    ranks: Sequence[float],
    legend: Sequence[str],
    *,
    measure: Measure,
    style: Style,
    width: float | None = None,
    height: float | None = None,
    grow: bool = True,
    bold: Sequence[int] = (),
    annotate: bool | None = None,
    value_sample: str = "0.000",
    caption: str | None = None,
) -> HeatmapLayout:
    """Place the heatmap: row labels left, column labels below (rotated), legend in the corner.

    The width is the style's (or ``width``) exactly; names longer than a
    third of it are wrapped, then shortened with a key.  ``fits`` is False
    (with the room needed in ``need``) when the cells cannot hold the type.
    """
    base_w = style.width_pt if width is None else float(width)
    aspect = None if style.height is None else style.height / style.width
    base_h = (
        float(height) if height is not None else (base_w * aspect if aspect is not None else None)
    )
    scales = [1.0, 1.125, 1.25, _MAX_SLIDE_SCALE] if aspect and height is None and grow else [1.0]
    sizes = style.font_sizes()
    args = (names, ranks, legend, measure, style)
    rest = (set(bold), annotate, value_sample, caption)
    for scale in scales:
        w = base_w * scale
        h = None if base_h is None else base_h * scale
        # wrapped names make rows (cells) taller: keyed names come before them
        for mode in ("plain", "key", "wrap"):
            for fs in sizes if mode == "plain" else sizes[-1:]:
                lay = _heatmap_at(*args, fs, w, mode, *rest, squeeze=False, height=h)
                if lay.fits and (h is None or lay.height <= h + 1e-6):
                    return _finish_heatmap(lay, h)
    w = base_w * scales[-1]
    h = None if base_h is None else base_h * scales[-1]
    lay = _heatmap_at(*args, sizes[-1], w, "key", *rest, squeeze=True)
    need = (max(w, lay.need[0]), lay.height)
    if aspect is not None and height is None and grow:
        # keep the aspect, grown as far as the content needs
        scale = max(need[1] / base_h, need[0] / base_w)
        for _ in range(6):  # wider cells make a taller grid: grow until the content fits
            w, h = base_w * scale, base_h * scale
            lay = _heatmap_at(*args, sizes[-1], w, "key", *rest, squeeze=True)
            if lay.height <= h + 1e-6:
                break
            scale = max(scale * 1.05, lay.height / base_h)
        need = (w, h)
    lay.need = need
    lay.fits = False
    return _finish_heatmap(lay, h)


def _finish_heatmap(lay, height):
    if height is not None and lay.height < height:
        dy = (height - lay.height) / 2
        lay.grid_y0 += dy
        lay.legend_swatches = [(x, y + dy, s) for x, y, s in lay.legend_swatches]
        lay.boxes = [_moved(b, dy) for b in lay.boxes]
        lay.height = height
    return lay


def _heatmap_at(
    names,
    ranks,
    legend,
    measure,
    style,
    fs,
    width,
    mode,
    bold,
    annotate,
    value_sample,
    caption,
    squeeze,
    height=None,
):
    k = len(names)
    ss = style.small_for(fs)
    pad = style.pad
    lp = measure("lp", fs, False)[1]
    lps = measure("lp", ss, False)[1]
    order = sorted(range(k), key=lambda i: (ranks[i], i))
    rows = order[1:]
    cols = order[:-1]
    # names take at most a third of the width (they are also the column labels' height),
    # less when the grid needs it, down to a sixth
    grid_need = max(k - 1, 1) * lp * 1.2 + 2 * pad + 0.5 * fs
    name_room = max(width / 6, min(width / 3, width - grid_need))
    if height is not None:
        # the rotated column labels share a fixed height with the grid, legend and caption
        lps_ = measure("lp", style.small_for(fs), False)[1]
        name_room = min(name_room, max(height - grid_need - 6 * lps_, width / 8))
    labels, key, fits_names = fit_labels(names, order, lambda i: name_room, fs, bold, measure, mode)
    texts = {i: "\n".join(labels[i]) for i in order}

    def label_w(i):
        return max(measure(t, fs, i in bold)[0] for t in labels[i]) * _SAFETY

    row_w = max((label_w(i) for i in rows), default=0.0)
    col_h = max((label_w(i) for i in cols), default=0.0)
    value_w = measure(value_sample, ss, False)[0] + 0.6 * ss
    # a cell is at least as tall (and, for the rotated column labels, as wide) as a label
    n_lines = max(len(v) for v in labels.values())
    min_cell = (
        lp * 1.2
        if n_lines == 1
        else _block_height(n_lines, lp, measure("lp", fs, False)[2], LINE_SPACING) + 0.4 * lp
    )
    big_cell = max(value_w * 1.25, lps * 2.6)
    n = max(k - 1, 1)
    gap = 0.5 * fs
    avail = width - 2 * pad - row_w - gap
    cell = min(big_cell * 1.15, avail / n)
    if height is not None:
        # a fixed height (slides, a given Axes) also bounds the cells: the grid shares it
        # with the column labels, the legend (when it goes below), the caption and the key
        reserve = (len(legend) + len(key) + 3) * lps * 1.25
        cell = min(cell, (height - 2 * pad - col_h - 1.3 * fs - reserve) / n)
    fits = fits_names and cell >= min_cell - 1e-9
    need_w = 2 * pad + row_w + gap + n * min_cell
    if not fits:
        cell = max(avail / n, 2.0)
    if annotate is None:
        annotate = cell >= value_w
    grid_x0 = pad + row_w + gap
    grid_y0 = pad
    grid_w = n * cell
    width_used = width
    boxes = []
    for r, i in enumerate(rows):
        cy = grid_y0 + (r + 0.5) * cell
        boxes.append(
            _box(
                measure,
                texts[i],
                "row-label",
                grid_x0 - gap,
                cy,
                "right",
                "center",
                fs,
                i in bold,
                "accent" if i in bold else "ink",
            )
        )
    label_top = grid_y0 + n * cell + gap
    for c, i in enumerate(cols):
        cx = grid_x0 + (c + 0.5) * cell
        boxes.append(
            _box(
                measure,
                texts[i],
                "col-label",
                cx,
                label_top,
                "center",
                "top",
                fs,
                i in bold,
                "accent" if i in bold else "ink",
                rotation=90.0,
            )
        )
    y = label_top + col_h + 0.8 * fs
    # legend: in the empty upper-right triangle when it fits there, else below
    sw = lps * 1.05
    lw = max((measure(t, ss, False)[0] for t in legend), default=0.0) + sw + 0.5 * ss
    lh = lps * 1.35
    legend_h = len(legend) * lh
    lx0 = grid_x0 + grid_w - lw
    swatches = []
    # grid row r ends at grid_x0 + (r + 1) * cell; the legend must clear every row it spans
    rows_spanned = math.ceil(legend_h / cell) if cell > 0 else n
    in_corner = rows_spanned <= n and grid_x0 + rows_spanned * cell + 0.6 * fs <= lx0
    if in_corner:
        ly = grid_y0
    else:
        lx0 = min(grid_x0, max(pad, width - pad - lw))
        ly = y
        y += legend_h + 0.3 * ss
    for j, text in enumerate(legend):
        cy = ly + (j + 0.5) * lh
        swatches.append((lx0 + sw / 2, cy, sw))
        boxes.append(_box(measure, text, "legend", lx0 + sw + 0.5 * ss, cy, "left", "center", ss))
    if caption:
        text_w = max(width_used - 2 * pad, 20.0)
        for ln in wrap_text(caption, text_w, ss, measure):
            boxes.append(_box(measure, ln, "caption", pad, y, "left", "top", ss))
            y += lps * 1.25
    if key:
        y += 0.3 * ss
        y = _key_boxes(boxes, key, pad, y, max(width_used - 2 * pad, 20.0), ss, measure)
    height = y + pad
    return HeatmapLayout(
        width_used,
        height,
        fs,
        ss,
        order,
        cell,
        grid_x0,
        grid_y0,
        bool(annotate),
        swatches,
        boxes,
        fits,
        key,
        (need_w, 0.0),
    )


# ---------------------------------------------------------------------------
# rank profile (several metrics)
# ---------------------------------------------------------------------------


@dataclass
class ProfileLayout:
    """The rank-profile chart, placed: metrics across, average rank down (1 at the top).

    ``boxes`` hold the names at the right end of the lines, ``leaders``
    the points joining each method's last rank to its name (names pushed
    apart so that they do not overlap), and ``x_points[j][i]`` the x of
    method ``i``'s point under metric ``j`` (tied methods side by side).
    """

    width: float
    height: float
    font_size: float
    small_size: float
    x_metrics: list[float]
    y_top: float  # y of rank 1
    y_bottom: float  # y of rank k
    k: int
    boxes: list[Box]
    leaders: dict[int, tuple[tuple[float, float], ...]]
    y_ticks: list[int]
    fits: bool
    key: list[tuple[str, str]] = field(default_factory=list)
    need: tuple[float, float] = (0.0, 0.0)
    # x of each method's point under each metric: the metric's x, with methods of equal
    # rank set side by side so that no marker hides another
    x_points: list[list[float]] = field(default_factory=list)

    def y(self, rank: float) -> float:
        """y of an average rank."""
        if self.k < 2:
            return (self.y_top + self.y_bottom) / 2
        return self.y_top + (rank - 1.0) * (self.y_bottom - self.y_top) / (self.k - 1)


def spread(wanted: Sequence[float], gap: float, lo: float, hi: float) -> list[float]:
    """Positions as close as possible to ``wanted``, at least ``gap`` apart, within [lo, hi].

    Pushes down from the top, then up from the bottom (the order of
    ``wanted`` is kept); when they cannot fit, they are spaced evenly
    from ``lo`` at ``gap``.
    """
    order = sorted(range(len(wanted)), key=lambda i: (wanted[i], i))
    ys = [min(max(wanted[i], lo), hi) for i in order]
    for n in range(1, len(ys)):
        ys[n] = max(ys[n], ys[n - 1] + gap)
    if ys and ys[-1] > hi:
        ys[-1] = hi
        for n in range(len(ys) - 2, -1, -1):
            ys[n] = min(ys[n], ys[n + 1] - gap)
    if ys and ys[0] < lo - 1e-9:
        ys = [lo + n * gap for n in range(len(ys))]
    out = [0.0] * len(wanted)
    for n, i in enumerate(order):
        out[i] = ys[n]
    return out


def profile_layout(
    names: Sequence[str],
    ranks: Sequence[Sequence[float]],
    metrics: Sequence[str],
    *,
    measure: Measure,
    style: Style,
    width: float | None = None,
    height: float | None = None,
    bold: Sequence[int] = (),
    marker_size: float = 4.0,
    title: str = "average rank (1 = best)",
) -> ProfileLayout:
    """Place a rank profile: one line per method across the metrics, names at the line ends.

    ``ranks[j][i]`` is method ``i``'s average rank under metric ``j``.
    The width is the style's (or ``width``); names take at most 40 % of
    it, shortened with a key at the smallest type when they need more.
    Name boxes are pushed apart vertically so that none overlap (their
    lines are joined to them by leaders); the plot is tall enough for one
    row per method.  ``fits`` is False (with the room needed in ``need``)
    when the metric labels or names cannot be set legibly.
    """
    base_w = style.width_pt if width is None else float(width)
    sizes = style.font_sizes()
    attempt = None
    for mode in ("plain", "key"):
        for fs in sizes if mode == "plain" else sizes[-1:]:
            attempt = _profile_at(
                names,
                ranks,
                metrics,
                measure,
                style,
                fs,
                base_w,
                height,
                set(bold),
                mode,
                marker_size,
                title,
            )
            if attempt.fits:
                return attempt
    return attempt


def _profile_at(
    names, ranks, metrics, measure, style, fs, width, height, bold, mode, marker_size, title
):
    k = len(names)
    m = len(metrics)
    ss = style.small_for(fs)
    pad = style.pad
    _w, lp, _d = measure("lp", fs, False)
    lps = measure("lp", ss, False)[1]
    last = list(ranks[-1])
    order = sorted(range(k), key=lambda i: (last[i], i))
    room = 0.4 * width
    labels, key, fits = fit_labels(names, order, lambda i: room, fs, bold, measure, mode)
    label_w = max(measure(labels[i][0], fs, i in bold)[0] * _SAFETY for i in range(k))
    tick_w = measure(str(k), ss, False)[0] * _SAFETY
    gap = 0.5 * fs
    x0 = pad + tick_w + gap + marker_size  # first metric
    x_end = width - pad - label_w - gap  # leaders end here
    x1 = x_end - 1.6 * fs  # last metric; the leaders take the rest
    step = (x1 - x0) / (m - 1) if m > 1 else 0.0
    xs = [x0 + j * step for j in range(m)] if m > 1 else [(x0 + x1) / 2]
    # metric labels under the axis: one row, or two staggered rows when crowded
    metric_w = [measure(t, ss, False)[0] * _SAFETY for t in metrics]
    n_rows = 1
    if m > 1 and max(metric_w) > step - 0.6 * ss:
        n_rows = 2
        if max(metric_w) > 2 * step - 0.6 * ss:
            fits = False
    fits = fits and x1 - x0 >= 24.0 * max(m - 1, 1) ** 0.5
    row_h = max(lp * 1.25, lp + 1.5)
    boxes: list[Box] = []
    y = pad
    boxes.append(_box(measure, title, "axis-title", pad, y, "left", "top", ss))
    y += lps + 0.8 * ss
    if height is None:
        plot_h = max((k - 1) * row_h, 0.35 * width, 4 * row_h)
    else:
        # a given height: the plot takes what the text leaves, never less than a row each
        rest = y + max(marker_size, 0.5 * row_h) + marker_size + 0.6 * ss + n_rows * lps * 1.3
        plot_h = max((k - 1) * row_h, 2 * row_h, height - rest - pad)
    y_top = y + max(marker_size, 0.5 * row_h)
    y_bottom = y_top + plot_h
    lay = ProfileLayout(width, 0.0, fs, ss, xs, y_top, y_bottom, k, boxes, {}, [], fits, key)
    # rank ticks on the left: every rank while they fit, else thinned
    _major, ticks, _half = tick_ranks(k, plot_h / max(k - 1, 1), lps * 1.15)
    lay.y_ticks = ticks
    for r in ticks:
        boxes.append(
            _box(measure, str(r), "tick", x0 - marker_size - gap, lay.y(r), "right", "center", ss)
        )
    # names at the right, pushed apart; leaders from each line's end
    wanted = [lay.y(last[i]) for i in range(k)]
    placed = spread(wanted, row_h, y_top - 0.5 * row_h + lp / 2, y_bottom + 0.5 * row_h)
    dodge = 0.9 * marker_size
    for j in range(m):
        row = [xs[j]] * k
        ties: dict[float, list[int]] = {}
        for i in range(k):
            ties.setdefault(float(ranks[j][i]), []).append(i)
        for members in ties.values():
            for n, i in enumerate(members):
                row[i] = xs[j] + (n - (len(members) - 1) / 2) * dodge
        lay.x_points.append(row)
    for i in range(k):
        end = lay.x_points[-1][i]
        lay.leaders[i] = ((end, wanted[i]), (x1 + 0.6 * fs, wanted[i]), (x_end, placed[i]))
        boxes.append(
            _box(
                measure,
                labels[i][0],
                "name",
                x_end + gap,
                placed[i],
                "left",
                "center",
                fs,
                i in bold,
                "accent" if i in bold else "ink",
            )
        )
    y = max(y_bottom + marker_size, max(placed) + row_h / 2) + 0.6 * ss
    for j, text in enumerate(metrics):
        ty = y + (j % n_rows) * lps * 1.3
        boxes.append(_box(measure, text, "metric", xs[j], ty, "center", "top", ss))
    y += n_rows * lps * 1.3
    if key:
        y += 0.4 * ss
        y = _key_boxes(boxes, key, pad, y, max(width - 2 * pad, 20.0), ss, measure)
    lay.height = y + pad
    if height is not None and lay.height > height + 1e-6:
        lay.fits = False
    min_w = x0 + 24.0 * max(m - 1, 1) ** 0.5 + 1.6 * fs + gap + label_w + pad
    lay.need = (max(width, min_w), lay.height)
    return lay
