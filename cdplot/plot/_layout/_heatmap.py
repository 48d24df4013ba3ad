"""The lower-triangle significance heatmap, placed."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from .._styles import Style
from ._common import (
    LINE_SPACING,
    SAFETY,
    Box,
    Measure,
    Room,
    TypeSizes,
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
    spec = HeatmapSpec(
        names=names,
        ranks=ranks,
        legend=tuple(legend),
        measure=measure,
        style=style,
        bold=frozenset(bold),
        annotate=annotate,
        value_sample=value_sample,
        caption=caption,
    )
    room = Room.of(style, width, height, grow)
    sizes = style.font_sizes()
    for scale in room.scales:
        w = room.width * scale
        h = None if room.height is None else room.height * scale
        # wrapped names make rows (cells) taller: keyed names come before them
        for mode in ("plain", "key", "wrap"):
            for fs in sizes if mode == "plain" else sizes[-1:]:
                lay = _heatmap_at(spec, fs, w, mode, height=h)
                if lay.fits and (h is None or lay.height <= h + 1e-6):
                    return _finish_heatmap(lay, h)
    return _squeezed(spec, sizes[-1], room)


@dataclass(frozen=True)
class HeatmapSpec:
    """What one heatmap shows, the same in every attempt to fit it (see :func:`heatmap_layout`)."""

    names: Sequence[str]
    ranks: Sequence[float]
    legend: tuple[str, ...]
    measure: Measure
    style: Style
    bold: frozenset[int] = frozenset()
    annotate: bool | None = None
    value_sample: str = "0.000"
    caption: str | None = None

    @property
    def k(self) -> int:
        return len(self.names)


def _squeezed(spec: HeatmapSpec, fs: float, room: Room) -> HeatmapLayout:
    """Nothing legible: measure what the heatmap needs, then squeeze it into what there is."""
    w = room.width * room.scales[-1]
    h = None if room.height is None else room.height * room.scales[-1]
    lay = _heatmap_at(spec, fs, w, "key")
    need = (max(w, lay.need[0]), lay.height)
    if room.grows:
        # keep the aspect, grown as far as the content needs
        scale = max(need[1] / room.height, need[0] / room.width)
        for _ in range(6):  # wider cells make a taller grid: grow until the content fits
            w, h = room.width * scale, room.height * scale
            lay = _heatmap_at(spec, fs, w, "key")
            if lay.height <= h + 1e-6:
                break
            scale = max(scale * 1.05, lay.height / room.height)
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
    spec: HeatmapSpec, fs: float, width: float, mode: str, height: float | None = None
) -> HeatmapLayout:
    """One attempt at the heatmap, with names of size ``fs`` in ``width`` points.

    ``mode`` says what may be done to names that do not fit ('plain',
    'key' or 'wrap', as in :func:`fit_labels`); a ``height`` also bounds
    the names and the cells.
    """
    k, measure, bold = spec.k, spec.measure, spec.bold
    t = TypeSizes.of(measure, spec.style, fs)
    pad = spec.style.pad
    order = sorted(range(k), key=lambda i: (spec.ranks[i], i))
    rows = order[1:]
    cols = order[:-1]
    name_room = _name_room(k, t, pad, width, height)
    labels, key, fits_names = fit_labels(
        spec.names, order, lambda i: name_room, fs, bold, measure, mode
    )

    def label_w(i):
        return max(measure(ln, fs, i in bold)[0] for ln in labels[i]) * SAFETY

    row_w = max((label_w(i) for i in rows), default=0.0)
    col_h = max((label_w(i) for i in cols), default=0.0)
    value_w = measure(spec.value_sample, t.ss, False)[0] + 0.6 * t.ss
    min_cell = _min_cell(labels, t)
    n = max(k - 1, 1)
    gap = 0.5 * fs
    avail = width - 2 * pad - row_w - gap
    cell = _cell(spec, len(key), t, value_w, avail, col_h, height)
    fits = fits_names and cell >= min_cell - 1e-9
    need_w = 2 * pad + row_w + gap + n * min_cell
    if not fits:
        cell = max(avail / n, 2.0)
    annotate = cell >= value_w if spec.annotate is None else spec.annotate
    grid_x0 = pad + row_w + gap
    grid_y0 = pad
    texts = {i: "\n".join(labels[i]) for i in order}
    boxes: list[Box] = []
    label_top = _place_labels(spec, texts, rows, cols, (grid_x0, grid_y0, cell), gap, fs, boxes)
    y = label_top + col_h + 0.8 * fs
    y, swatches = _place_legend(spec, t, width, (grid_x0, grid_y0, cell), y, boxes)
    y = _place_caption(spec, key, t, width, y, boxes)
    return HeatmapLayout(
        width,
        y + pad,
        fs,
        t.ss,
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


def _name_room(k: int, t: TypeSizes, pad: float, width: float, height: float | None) -> float:
    """Room for a name: at most a third of the width (names are also the column labels'
    height), less when the grid needs it, down to a sixth."""
    grid_need = max(k - 1, 1) * t.lp * 1.2 + 2 * pad + 0.5 * t.fs
    name_room = max(width / 6, min(width / 3, width - grid_need))
    if height is not None:
        # the rotated column labels share a fixed height with the grid, legend and caption
        name_room = min(name_room, max(height - grid_need - 6 * t.lps, width / 8))
    return name_room


def _min_cell(labels, t: TypeSizes) -> float:
    """A cell is at least as tall (and, for the rotated column labels, as wide) as a label."""
    lp = t.lp
    n_lines = max(len(v) for v in labels.values())
    if n_lines == 1:
        return lp * 1.2
    return block_height(n_lines, lp, t.lp_d, LINE_SPACING) + 0.4 * lp


def _cell(spec, n_key, t, value_w, avail, col_h, height) -> float:
    """The side of a cell: room for a p-value, within the width (and a given height)."""
    lps = t.lps
    n = max(spec.k - 1, 1)
    big_cell = max(value_w * 1.25, lps * 2.6)
    cell = min(big_cell * 1.15, avail / n)
    if height is not None:
        # a fixed height (slides, a given Axes) also bounds the cells: the grid shares it
        # with the column labels, the legend (when it goes below), the caption and the key
        reserve = (len(spec.legend) + n_key + 3) * lps * 1.25
        cell = min(cell, (height - 2 * spec.style.pad - col_h - 1.3 * t.fs - reserve) / n)
    return cell


def _place_labels(spec, texts, rows, cols, grid, gap, fs, boxes) -> float:
    """Row labels left of the grid, column labels (rotated) under it; returns their top."""
    grid_x0, grid_y0, cell = grid
    measure = spec.measure
    for r, i in enumerate(rows):
        cy = grid_y0 + (r + 0.5) * cell
        bold = i in spec.bold
        color = "accent" if bold else "ink"
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
                bold,
                color,
            )
        )
    label_top = grid_y0 + max(spec.k - 1, 1) * cell + gap
    for c, i in enumerate(cols):
        cx = grid_x0 + (c + 0.5) * cell
        bold = i in spec.bold
        color = "accent" if bold else "ink"
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
                bold,
                color,
                rotation=90.0,
            )
        )
    return label_top


def _place_legend(spec, t, width, grid, y, boxes):
    """The legend: in the empty upper-right triangle when it fits there, else below.
    Returns the y below everything and the swatches."""
    grid_x0, grid_y0, cell = grid
    measure, pad, ss, lps = spec.measure, spec.style.pad, t.ss, t.lps
    n = max(spec.k - 1, 1)
    sw = lps * 1.05
    lw = max((measure(text, ss, False)[0] for text in spec.legend), default=0.0) + sw + 0.5 * ss
    lh = lps * 1.35
    legend_h = len(spec.legend) * lh
    lx0 = grid_x0 + n * cell - lw
    # grid row r ends at grid_x0 + (r + 1) * cell; the legend must clear every row it spans
    rows_spanned = math.ceil(legend_h / cell) if cell > 0 else n
    in_corner = rows_spanned <= n and grid_x0 + rows_spanned * cell + 0.6 * t.fs <= lx0
    if in_corner:
        ly = grid_y0
    else:
        lx0 = min(grid_x0, max(pad, width - pad - lw))
        ly = y
        y += legend_h + 0.3 * ss
    swatches = []
    for j, text in enumerate(spec.legend):
        cy = ly + (j + 0.5) * lh
        swatches.append((lx0 + sw / 2, cy, sw))
        x = lx0 + sw + 0.5 * ss
        boxes.append(text_box(measure, text, "legend", x, cy, "left", "center", ss))
    return y, swatches


def _place_caption(spec, key, t, width, y, boxes) -> float:
    """The caption and the key to shortened names, wrapped to the width."""
    measure, pad, ss = spec.measure, spec.style.pad, t.ss
    text_w = max(width - 2 * pad, 20.0)
    if spec.caption:
        for ln in wrap_text(spec.caption, text_w, ss, measure):
            boxes.append(text_box(measure, ln, "caption", pad, y, "left", "top", ss))
            y += t.lps * 1.25
    if key:
        y += 0.3 * ss
        y = key_boxes(boxes, key, pad, y, text_w, ss, measure)
    return y
