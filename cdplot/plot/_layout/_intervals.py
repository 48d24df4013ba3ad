"""The rank-interval chart, placed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .._styles import Style
from ._common import (
    LINE_SPACING,
    MAX_SLIDE_SCALE,
    MIN_AXIS,
    SAFETY,
    Box,
    Measure,
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
    base_w = style.width_pt if width is None else float(width)
    aspect = None if style.height is None else style.height / style.width
    base_h = (
        float(height) if height is not None else (base_w * aspect if aspect is not None else None)
    )
    scales = [1.0, 1.125, 1.25, MAX_SLIDE_SCALE] if aspect and height is None and grow else [1.0]
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
        lay.boxes = [moved(b, dy) for b in lay.boxes]
        lay.height = height
    return lay


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
    min_plot = max(MIN_AXIS, style.min_points_per_rank * max(r_hi - r_lo, 1))
    gap = 0.8 * fs
    room = width - 2 * pad - gap - tick_w / 2 - 1 - min_plot - stub
    # every method's label is fitted (one name column, one numbering of the key), only the
    # shown ones are placed
    labels, key, fits = fit_labels(names, order, lambda i: room, fs, bold, measure, mode)
    name_w = max(max(measure(t, fs, i in bold)[0] for t in labels[i]) for i in range(k)) * SAFETY
    n_lines = max(len(v) for v in labels.values())
    order = [i for i in order if i in shown]
    shown_names = {names[i] for i in order}
    key = [(tag, name) for tag, name in key if name in shown_names]
    row_h = (
        max(lp * 1.5, lp + 2.0)
        if n_lines == 1
        else block_height(n_lines, lp, lp_d, LINE_SPACING) + 0.5 * lp
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
    lay.axis_break, lay.axis_end = break_marks(first, -1.0 if reverse else 1.0, stub, broken)
    y = pad + 0.3 * row_h
    lay.plot_top = pad
    boxes = []
    for pos, i in enumerate(order):
        ry = y + (pos + 0.5) * row_h
        lay.rows.append((i, ry))
        boxes.append(
            text_box(
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
        boxes.append(text_box(measure, str(r), "tick", lay.x(r), y, "center", "top", ss))
    y += lps + 0.3 * ss
    title = "average rank"
    boxes.append(text_box(measure, title, "axis-title", (x0 + x1) / 2, y, "center", "top", ss))
    if direction:
        arrow = f"{direction} \u2192" if not reverse else f"\u2190 {direction}"
        bx = text_box(
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
            bx = text_box(measure, arrow, "direction", bx.x, y, bx.ha, "top", ss, color="muted")
        boxes.append(bx)
    y += lps * 1.25
    text_w = max(width - 2 * pad, 20.0)
    for role, text in legend:
        for ln in wrap_text(text, text_w - 1.6 * ss, ss, measure):
            boxes.append(
                text_box(
                    measure, ln, f"legend:{role}", pad + 1.6 * ss, y + 0.2 * ss, "left", "top", ss
                )
            )
            y += lps * 1.25
    if caption:
        y += 0.3 * ss
        for ln in wrap_text(caption, text_w, ss, measure):
            boxes.append(text_box(measure, ln, "caption", pad, y, "left", "top", ss))
            y += lps * 1.25
    if key:
        y += 0.3 * ss
        y = key_boxes(boxes, key, pad, y, text_w, ss, measure)
    lay.height = y + pad
    lay.boxes = boxes
    return lay
