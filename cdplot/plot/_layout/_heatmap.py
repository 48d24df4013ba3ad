"""The lower-triangle significance heatmap, placed."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from .._styles import Style
from ._common import (
    LINE_SPACING,
    MAX_SLIDE_SCALE,
    SAFETY,
    Box,
    Measure,
    block_height,
    fit_labels,
    key_boxes,
    moved,
    text_box,
    wrap_text,
)


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
    scales = [1.0, 1.125, 1.25, MAX_SLIDE_SCALE] if aspect and height is None and grow else [1.0]
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
        lay.boxes = [moved(b, dy) for b in lay.boxes]
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
        return max(measure(t, fs, i in bold)[0] for t in labels[i]) * SAFETY

    row_w = max((label_w(i) for i in rows), default=0.0)
    col_h = max((label_w(i) for i in cols), default=0.0)
    value_w = measure(value_sample, ss, False)[0] + 0.6 * ss
    # a cell is at least as tall (and, for the rotated column labels, as wide) as a label
    n_lines = max(len(v) for v in labels.values())
    min_cell = (
        lp * 1.2
        if n_lines == 1
        else block_height(n_lines, lp, measure("lp", fs, False)[2], LINE_SPACING) + 0.4 * lp
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
            text_box(
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
            text_box(
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
        boxes.append(
            text_box(measure, text, "legend", lx0 + sw + 0.5 * ss, cy, "left", "center", ss)
        )
    if caption:
        text_w = max(width_used - 2 * pad, 20.0)
        for ln in wrap_text(caption, text_w, ss, measure):
            boxes.append(text_box(measure, ln, "caption", pad, y, "left", "top", ss))
            y += lps * 1.25
    if key:
        y += 0.3 * ss
        y = key_boxes(boxes, key, pad, y, max(width_used - 2 * pad, 20.0), ss, measure)
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
