"""The rank-interval chart, placed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .._styles import Style
from ._common import (
    LINE_SPACING,
    MIN_AXIS,
    SAFETY,
    Box,
    Measure,
    Room,
    TypeSizes,
    block_height,
    break_marks,
    fit_labels,
    key_boxes,
    moved,
    rank_span,
    text_box,
    tick_ranks,
    wrap_text,
)


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
    k = len(names)
    # the ranks the segments cover (within 1..k), rounded out as the CD diagram's axis
    ends = (max(1.0, min(ranks) - half_width), min(float(k), max(ranks) + half_width))
    spec = IntervalSpec(
        names=names,
        ranks=ranks,
        half_width=half_width,
        measure=measure,
        style=style,
        span=rank_span(ends, k, full_axis),
        reverse=reverse,
        bold=frozenset(bold),
        direction=direction,
        caption=caption,
        legend=tuple(legend),
        shown=frozenset(range(k)) if shown is None else frozenset(shown),
    )
    room = Room.of(style, width, height, grow)
    sizes = style.font_sizes()
    for scale in room.scales:
        w = room.width * scale
        h = None if room.height is None else room.height * scale
        for mode in ("plain", "wrap", "short"):
            for fs in sizes if mode != "short" else sizes[-1:]:
                lay = _intervals_at(spec, fs, w, mode)
                if lay.fits and (h is None or lay.height <= h + 1e-6):
                    return _finish_intervals(lay, h)
    return _squeezed(spec, sizes[-1], room)


@dataclass(frozen=True)
class IntervalSpec:
    """What one rank-interval chart shows, the same in every attempt to fit it.

    See :func:`interval_layout`; ``span`` is the pair of integer ranks the
    axis runs between and ``shown`` the methods whose rows are placed.
    """

    names: Sequence[str]
    ranks: Sequence[float]
    half_width: float
    measure: Measure
    style: Style
    span: tuple[int, int]
    reverse: bool = False
    bold: frozenset[int] = frozenset()
    direction: str = "better"
    caption: str | None = None
    legend: tuple[tuple[str, str], ...] = ()
    shown: frozenset[int] = frozenset()

    @property
    def k(self) -> int:
        return len(self.names)


def _squeezed(spec: IntervalSpec, fs: float, room: Room) -> IntervalLayout:
    """Nothing legible: measure what the chart needs, then squeeze it into what there is."""
    w = room.width * room.scales[-1]
    lay = _intervals_at(spec, fs, w, "short")
    need = (max(w, lay.extra_min_width), lay.height)
    h = None if room.height is None else room.height * room.scales[-1]
    if room.grows:
        scale = max(need[1] / room.height, need[0] / room.width)
        w, h = room.width * scale, room.height * scale
        lay = _intervals_at(spec, fs, w, "short")
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
        lay.boxes = [moved(b, dy) for b in lay.boxes]
        lay.height = height
    return lay


def _intervals_at(spec: IntervalSpec, fs: float, width: float, mode: str) -> IntervalLayout:
    """One attempt at the chart, with names of size ``fs`` in ``width`` points.

    ``mode`` says what may be done to names that do not fit ('plain',
    'wrap' or 'short', as in :func:`fit_labels`).
    """
    k, measure, style = spec.k, spec.measure, spec.style
    r_lo, r_hi = spec.span
    broken = r_lo > 1
    t = TypeSizes.of(measure, style, fs)
    pad = style.pad
    order = sorted(range(k), key=lambda i: (spec.ranks[i], i))
    lo, hi = _rank_domain(spec)
    stub = max(4.0, 0.8 * fs) if broken else 0.0
    tick_w = measure(str(r_hi), t.ss, False)[0]
    min_plot = max(MIN_AXIS, style.min_points_per_rank * max(r_hi - r_lo, 1))
    gap = 0.8 * fs
    room = width - 2 * pad - gap - tick_w / 2 - 1 - min_plot - stub
    # every method's label is fitted (one name column, one numbering of the key), only the
    # shown ones are placed
    labels, key, fits = fit_labels(spec.names, order, lambda i: room, fs, spec.bold, measure, mode)
    name_w = (
        max(max(measure(ln, fs, i in spec.bold)[0] for ln in labels[i]) for i in range(k)) * SAFETY
    )
    order = [i for i in order if i in spec.shown]
    shown_names = {spec.names[i] for i in order}
    key = [(tag, name) for tag, name in key if name in shown_names]
    row_h = _row_height(labels, t)
    x0 = pad + name_w + gap
    x1 = width - pad - tick_w / 2 - 1
    extra_min_width = x0 + min_plot + stub + pad + tick_w / 2 + 1
    # the stub is on the best side: right, or left (beside the names) when reversed
    if spec.reverse:
        x0 += stub
    else:
        x1 -= stub
    fits = fits and x1 - x0 >= min_plot - 1e-9
    if not fits:
        x1 = max(x1, x0 + 12.0)
    tick_len = max(2.5, 0.45 * t.ss)
    lay = IntervalLayout(
        width=width,
        height=0.0,
        font_size=fs,
        small_size=t.ss,
        rows=[],
        x0=x0,
        x1=x1,
        lo=lo,
        hi=hi,
        reverse=spec.reverse,
        plot_top=pad,
        axis_y=0.0,
        ticks=[],
        tick_length=tick_len,
        boxes=[],
        fits=fits,
        extra_min_width=extra_min_width,
        key=key,
        rank_lo=r_lo,
        rank_hi=r_hi,
    )
    best_dir = -1.0 if spec.reverse else 1.0
    lay.axis_break, lay.axis_end = break_marks(lay.x(r_lo), best_dir, stub, broken)
    boxes: list[Box] = []
    y = _place_rows(spec, lay, labels, order, gap, row_h, boxes)
    y = _place_axis_text(spec, lay, tick_w, t, y, boxes)
    y = _place_legend(spec, key, t, width, y, boxes)
    lay.height = y + pad
    lay.boxes = boxes
    return lay


def _rank_domain(spec: IntervalSpec) -> tuple[float, float]:
    """The ranks the plot area spans: the axis' integer ranks, and any segment reaching
    past rank 1 or k shown whole, with a margin (none at a broken axis' best end)."""
    r_lo, r_hi = spec.span
    hw = spec.half_width
    lo = min(float(r_lo), min(spec.ranks) - hw)
    hi = max(float(r_hi), max(spec.ranks) + hw)
    extent = hi - lo
    # a broken axis ends at its first rank, then runs on into a stub with the break mark
    return lo - (0.0 if r_lo > 1 else 0.02 * extent), hi + 0.02 * extent


def _row_height(labels, t: TypeSizes) -> float:
    """Height of a method's row, from the most lines a label has."""
    lp = t.lp
    n_lines = max(len(v) for v in labels.values())
    if n_lines == 1:
        return max(lp * 1.5, lp + 2.0)
    return block_height(n_lines, lp, t.lp_d, LINE_SPACING) + 0.5 * lp


def _place_rows(spec, lay, labels, order, gap, row_h, boxes) -> float:
    """One row per shown method, best at the top, its name right-aligned left of the plot.
    Returns the y of the axis."""
    pad = spec.style.pad
    y = pad + 0.3 * row_h
    lay.plot_top = pad
    for pos, i in enumerate(order):
        ry = y + (pos + 0.5) * row_h
        lay.rows.append((i, ry))
        bold = i in spec.bold
        color = "accent" if bold else "ink"
        text = "\n".join(labels[i])
        boxes.append(
            text_box(
                spec.measure,
                text,
                "name",
                lay.x0 - gap,
                ry,
                "right",
                "center",
                lay.font_size,
                bold,
                color,
            )
        )
    y += len(order) * row_h + 0.3 * row_h
    lay.axis_y = y
    return y


def _place_axis_text(spec, lay, tick_w, t, y, boxes) -> float:
    """Tick labels under the axis, its title and the direction word (below the title
    when they would touch).  Returns the y below them."""
    measure, ss, lps = spec.measure, t.ss, t.lps
    r_lo, r_hi = spec.span
    x0, x1 = lay.x0, lay.x1
    ppr = (x1 - x0) / (lay.hi - lay.lo)
    label_w = tick_w + 0.9 * ss
    _major, labelled, _h = tick_ranks(r_hi, ppr, label_w, lo=r_lo)
    lay.ticks = labelled
    y += lay.tick_length + 0.15 * ss
    for r in labelled:
        boxes.append(text_box(measure, str(r), "tick", lay.x(r), y, "center", "top", ss))
    y += lps + 0.3 * ss
    title = "average rank"
    title_box = text_box(measure, title, "axis-title", (x0 + x1) / 2, y, "center", "top", ss)
    boxes.append(title_box)
    if spec.direction:
        if not spec.reverse:
            arrow, bx, ha = f"{spec.direction} \u2192", x1, "right"
        else:
            arrow, bx, ha = f"\u2190 {spec.direction}", x0, "left"
        box = text_box(measure, arrow, "direction", bx, y, ha, "top", ss, color="muted")
        if box.overlaps(title_box, -0.5 * ss):
            y += lps * 1.2
            box = text_box(measure, arrow, "direction", bx, y, ha, "top", ss, color="muted")
        boxes.append(box)
    y += lps * 1.25
    return y


def _place_legend(spec, key, t, width, y, boxes) -> float:
    """The colour legend, the caption and the key to shortened names, wrapped to the width."""
    measure, pad, ss, lps = spec.measure, spec.style.pad, t.ss, t.lps
    text_w = max(width - 2 * pad, 20.0)
    for role, text in spec.legend:
        for ln in wrap_text(text, text_w - 1.6 * ss, ss, measure):
            x = pad + 1.6 * ss
            boxes.append(
                text_box(measure, ln, f"legend:{role}", x, y + 0.2 * ss, "left", "top", ss)
            )
            y += lps * 1.25
    if spec.caption:
        y += 0.3 * ss
        for ln in wrap_text(spec.caption, text_w, ss, measure):
            boxes.append(text_box(measure, ln, "caption", pad, y, "left", "top", ss))
            y += lps * 1.25
    if key:
        y += 0.3 * ss
        y = key_boxes(boxes, key, pad, y, text_w, ss, measure)
    return y
